"""The progress bar of long audits (``tiplu audit``, ``tiplu demo``): click's own bar with
the position, the rate, the failures so far and, when the number of records is known, the
percentage and ETA.  Off when stderr is not a terminal (unless ``--progress``).

click hides the terminal's cursor while the bar is drawn; :meth:`AuditProgress.close`
shows it again, and it is also registered to run at exit, so an audit stopped by Ctrl-C
(or any error) never leaves the cursor hidden."""
from __future__ import annotations

import atexit
import itertools
import sys
import time
from typing import Any

import click

from ..auditor.sources.source import Source


def count_items(source: "str | Source") -> int | None:
    """How many items the source will yield, when cheap to know
    (:meth:`audit.auditor.sources.source.Source.count`)."""
    return Source.of(source).count()


class AuditProgress:
    """Called with the report so far (``progress=`` of :func:`audit.auditor.run.runner.audit_items`)."""

    def __init__(self, total: int | None, *, file: Any = None) -> None:
        self.total, self.done, self.started = total, 0, time.monotonic()
        self.failed = 0
        # an unknown total (stdin, a URL) still needs an iterable: click refuses a bar with neither
        self.bar = click.progressbar(itertools.repeat(None) if total is None else None, length=total,
                                     label="Auditing", file=file or sys.stderr, show_pos=True,
                                     show_eta=total is not None, show_percent=total is not None,
                                     item_show_func=self._status, width=24)
        self._closed = False
        # registered before the bar hides the cursor: Ctrl-C at any moment after, or an
        # error, and the cursor comes back all the same
        atexit.register(self.close)
        self.bar.__enter__()

    def _status(self, _item: Any) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        return f"{self.done / elapsed:,.0f} records/s · {self.failed} failed"

    def __call__(self, report: Any) -> None:
        step = report.total - self.done
        self.done, self.failed = report.total, report.failed
        if step > 0:
            self.bar.update(step, current_item=self.done)

    def close(self) -> None:
        """Finish the bar and show the cursor again (once; later calls do nothing)."""
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)
        self.bar.__exit__(None, None, None)


def progress_bar(enabled: bool, source: "str | Source | None") -> AuditProgress | None:
    """An :class:`AuditProgress` for ``source`` when ``enabled``, else ``None``."""
    if not enabled:
        return None
    return AuditProgress(count_items(source) if source else None)
