"""One source of records, named once and decided once: :class:`Source`.

``tiplu audit SOURCE`` names its records with one string.  :meth:`Source.of` decides, in
this one place, what that string is (:func:`kind_of`):

* ``url`` -- an operator's site (``http(s)://``), read through its JSON API;
* ``ledger`` -- a ledger's SQLite file (``.db``, ``.sqlite``, ``.sqlite3``), read read-only;
* ``stdin`` -- ``-``, JSON lines on standard input;
* ``record`` -- one record, or a JSON array of them (``.json``);
* ``jsonl`` -- a JSON-lines file (anything else).

Every part of an audit then asks the source, never the string: its items
(:meth:`Source.items`, :mod:`audit.auditor.sources.reader`), how many there are for a
progress bar (:meth:`Source.count`), whether workers can read its parts themselves
(:meth:`Source.splittable`, :mod:`audit.auditor.sources.splits`), whose hands it judges under
a pinned key (:meth:`Source.scope`), and, for a ledger or a URL, the operator's whole log it
holds (:meth:`Source.open_log`), that log's latest checkpoint and its consistency proofs
(:meth:`Source.checkpoint_text`, :meth:`Source.proofs`), and what the whole source shows of
each hand (:meth:`Source.findings`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from replay.faults import Fault

from .coverage import DEFAULT_GRACE
from .item import Item
from .kinds import JSONL, LEDGER, STDIN, URL, kind_of

if TYPE_CHECKING:
    from ..evidence.logcheck import LogView
    from ..verdict.trust import TrustAnchor
    from .logscan import Findings
    from .operator_api import LogClient
    from .scope import OperatorScope

#: the source kinds (:mod:`.kinds`) are named here too, beside the Source that holds one
__all__ = ["JSONL", "LEDGER", "STDIN", "URL", "Source", "SourceProofs", "close_log"]

@dataclass(frozen=True)
class Source:
    """A source of records: its name as given (``text``) and what it is (``kind``)."""

    text: str
    kind: str

    @classmethod
    def of(cls, source: "str | Source") -> "Source":
        return source if isinstance(source, Source) else cls(source, kind_of(source))

    def __str__(self) -> str:
        return self.text

    @property
    def holds_log(self) -> bool:
        """Whether the source holds the operator's whole log (a ledger or an operator's URL)."""
        return self.kind in (URL, LEDGER)

    def splittable(self) -> bool:
        """Whether workers can read parts of it themselves: a local ledger or JSON-lines file."""
        from .splits import splittable

        return splittable(self)

    # -- the records -------------------------------------------------------------------------

    def items(self, *, raw: bool = False, now: datetime | None = None, grace: timedelta = DEFAULT_GRACE,
              scope: OperatorScope | None = None) -> Iterator[Item]:
        """Every item of the source, one at a time (:func:`audit.auditor.sources.reader.iter_source`)."""
        from .reader import items_of

        return items_of(self.kind, self.text, raw=raw, now=now, grace=grace, scope=scope)

    def count(self) -> int | None:
        """How many items :meth:`items` will yield, when cheap to know: the hands of a ledger
        (one item each: its record or its status), the non-blank lines of a JSON-lines file;
        ``None`` for a URL, standard input or one record file."""
        if self.kind in (URL, STDIN):
            return None
        path = Path(self.text)
        try:
            if self.kind == LEDGER:
                from .splits import connect_ro

                conn = connect_ro(str(path))
                try:
                    return int(conn.execute("SELECT count(*) FROM hands").fetchone()[0])
                finally:
                    conn.close()
            if self.kind == JSONL and path.is_file():
                with path.open("rb") as fh:
                    return sum(1 for line in fh if line.strip())
        except Exception:  # noqa: BLE001 - a count is only for a progress bar; the audit reports real errors
            return None
        return None

    def scope(self, public_key: str | None) -> OperatorScope | None:
        """Whose hands an audit under ``public_key`` judges (:mod:`audit.auditor.sources.scope`):
        one operator's of a ledger or URL that serves several, else ``None`` (every hand)."""
        from .scope import scope_for

        return scope_for(self, public_key)

    # -- the operator's log, when the source holds it ----------------------------------------

    def client(self, scope: OperatorScope | None = None) -> LogClient:
        """An operator's JSON API (:class:`~audit.auditor.sources.operator_api.LogClient`), for a URL."""
        from .operator_api import LogClient

        return LogClient(self.text, operator=scope.operator if scope is not None else None)

    def open_log(self, trust: TrustAnchor | None = None, scope: OperatorScope | None = None
                 ) -> tuple[LogView | None, list[tuple[str, Fault]]]:
        """The operator's whole log when the source holds it, else ``None``; and the audit's
        failures if a URL's served log is not the log its signed checkpoint fixes (that log is
        then not used: the records are judged on their own).  A ledger's log holds the file
        open read-only until :func:`close_log`."""
        if self.kind == URL:
            from ...errors import TipluError
            from ..evidence.remote_log import LogMismatch, RemoteLog

            log = RemoteLog(self.client(scope), public_key=trust.public_key if trust is not None else None,
                            origin=trust.origin if trust is not None else None)
            try:
                return log.open(), []
            except LogMismatch as exc:
                return None, [(f"{self.text} (its served log)", exc.fault)]
            except (TipluError, KeyError, TypeError, ValueError):
                return None, []  # an operator that serves no log: its records are audited offline
        if self.kind != LEDGER:
            return None, []
        from ...operator.ledger.store import open_readonly  # refuses a missing or foreign file; never writes
        from ..evidence.ledger_log import LedgerLog

        return LedgerLog(open_readonly(self.text, intact=True), path=self.text), []

    def checkpoint_text(self, log: LogView | None = None, scope: OperatorScope | None = None) -> str | None:
        """The source's own latest checkpoint (text, unverified): for a URL, the one its served
        log was checked against when it has one; for a ledger, the pinned operator's own log's."""
        if self.kind == URL:
            from ..evidence.remote_log import RemoteLog

            if isinstance(log, RemoteLog) and log.checkpoint is not None:
                return log.checkpoint.text
            body = self.client(scope).checkpoint()
            text = body.get("checkpoint") if isinstance(body, dict) else None
            return text if isinstance(text, str) else None
        if self.kind != LEDGER:
            return None
        from ...operator.ledger.store import open_readonly
        from ...tlog.store import TransparencyLog

        tlog = TransparencyLog(open_readonly(self.text), migrate=False)
        if scope is None:
            return tlog.latest_checkpoint()
        # several operators: the pinned one's own log (audit/tlog/logs.py)
        return next((t for t in reversed(tlog.checkpoints()) if t.split("\n", 1)[0].endswith("/" + scope.operator)),
                    None)

    def proofs(self) -> "SourceProofs | None":
        """The source's consistency proofs, for the auditor's state (``None``: it has none)."""
        return SourceProofs("url" if self.kind == URL else "db", self.text) if self.holds_log else None

    def findings(self, log: LogView | None, now: datetime) -> Findings:
        """What the whole log (a ledger, a URL's served log) or the whole archive (a file)
        shows of each hand: order, time, seed reuse (:mod:`audit.auditor.sources.logscan`,
        :mod:`audit.auditor.sources.archive_scan`)."""
        if log is not None:
            from .logscan import scan_log

            return scan_log(log, now=now)
        if self.kind in (URL, STDIN):
            return {}
        from .archive_scan import scan_records

        return scan_records(self.items(), now=now) or {}


def close_log(log: object) -> None:
    """Close a ledger's log opened by :meth:`Source.open_log` (so no ``-wal``/``-shm`` stays
    beside the file); nothing for any other log."""
    db = getattr(log, "_db", None)
    if db is not None:
        db.close()


class SourceProofs:
    """``consistency(first, second)`` from a ledger file or an operator's URL, picklable by
    name (a parallel audit's workers ask the source themselves); ``None`` when the source
    cannot prove those sizes.  The open database or HTTP session is kept per process."""

    _open: dict[tuple[str, str], Callable[[int, int], list[bytes]]] = {}

    def __init__(self, kind: str, where: str) -> None:
        if kind not in ("db", "url"):
            raise ValueError("a proof source is a ledger ('db') or an operator's URL ('url')")
        self.kind, self.where = kind, where

    def __reduce__(self) -> tuple[type[SourceProofs], tuple[str, str]]:
        return (SourceProofs, (self.kind, self.where))

    def _prove(self) -> Callable[[int, int], list[bytes]]:
        key = (self.kind, self.where)
        if key not in SourceProofs._open:
            if self.kind == "url":
                from .operator_api import LogClient

                SourceProofs._open[key] = LogClient(self.where).consistency_proof
            else:
                from ...operator.ledger.store import close_at_exit, open_readonly
                from ...tlog.store import TransparencyLog

                db = open_readonly(self.where)
                close_at_exit(db)  # cached for the process's life
                SourceProofs._open[key] = TransparencyLog(db, migrate=False).consistency_proof
        return SourceProofs._open[key]

    def __call__(self, first: int, second: int) -> list[bytes] | None:
        try:
            return self._prove()(first, second)
        except Exception:  # noqa: BLE001 - the source cannot prove these sizes: unchecked
            return None
