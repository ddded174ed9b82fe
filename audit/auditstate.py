"""``tiplu audit --state FILE``: the checkpoint the auditor accepted last time, kept between audits.

The file has the shape of ``tiplu monitor``'s state (:class:`audit.tlog.monitor.MonitorState`):
a JSON object whose ``checkpoint`` is a signed checkpoint text, with ``public_key`` and
``origin`` -- so a monitor's state file works here too (its other fields are kept as they
are).  A missing file is an empty state (first audit).

Every checkpoint an audit meets (each record's, and a ledger's or URL's own) is compared
with the stored one (:class:`StateCheck`):

* same size: the roots must be equal;
* another size: a consistency proof from the source (a ledger or URL) must show the smaller
  tree is a prefix of the larger; a lone record file has no proof to give, so the
  checkpoint is *unchecked* -- neither passed nor failed, and counted as such.

A contradiction is the record's ``log_inconsistent`` fault.  The state file is rewritten
(temp file + :func:`os.replace`) only after an audit with no ``log_inconsistent`` fault,
advancing to the largest checkpoint proved consistent with it.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from replay.errors import MalformedError

from .errors import ProofError
from .tlog import merkle
from .tlog.checkpoint import Checkpoint, parse_checkpoint
from .trust import TrustAnchor, parse_key

#: consistency(first, second) -> the RFC 9162 proof path, or None when the source has none
Consistency = Callable[[int, int], "list[bytes] | None"]


@dataclass
class AuditState:
    """The state file's content: its raw JSON object and the accepted checkpoint, if any."""

    path: Path
    data: dict[str, Any] = field(default_factory=dict)
    checkpoint: Checkpoint | None = None
    public_key: str | None = None
    origin: str | None = None

    @classmethod
    def load(cls, path: str | Path) -> "AuditState":
        path = Path(path)
        if not path.exists():
            return cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise MalformedError(f"{path} is not a state file: {exc}") from None
        if not isinstance(data, dict):
            raise MalformedError(f"{path} is not a state file (a JSON object)")
        text, key, origin = data.get("checkpoint"), data.get("public_key"), data.get("origin")
        if text is not None and not isinstance(text, str) or origin is not None and not isinstance(origin, str):
            raise MalformedError(f"{path} is not a state file: checkpoint and origin are text")
        try:
            cp = parse_checkpoint(text) if text is not None else None
        except MalformedError as exc:
            raise MalformedError(f"{path} holds no readable checkpoint: {exc}") from None
        key = parse_key(key, what=f"{path} public_key") if key is not None else None
        return cls(path, data, cp, key, origin or (cp.origin if cp else None))

    def anchor(self) -> TrustAnchor | None:
        """The key the state pinned, as a trust anchor (basis ``monitor-state``)."""
        return None if self.public_key is None else TrustAnchor(self.public_key, "monitor-state", self.origin)

    def save(self, cp: Checkpoint, public_key: str | None) -> None:
        """Accept ``cp``; ``public_key`` is kept only when the audit had one pinned."""
        data = dict(self.data)
        data.setdefault("version", 1)
        data.setdefault("trust", "pinned")
        data.update(checkpoint=cp.text, public_key=public_key or self.public_key, origin=cp.origin)
        data.setdefault("url", None)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)


class StateCheck:
    """Compares each verified checkpoint of an audit with the stored one."""

    def __init__(self, stored: Checkpoint | None, consistency: Consistency | None = None) -> None:
        self.stored = stored
        self.consistency = consistency
        self.best = stored
        self.checked = 0
        self.unchecked: set[int] = set()
        self.inconsistent = 0
        #: set when any record of the audit has a ``log_inconsistent`` fault (ours or the log check's)
        self.contradicted = False
        self._roots: dict[int, bytes] = {} if stored is None else {stored.size: stored.root}
        self._proved: set[tuple[int, bytes]] = set()

    def check(self, cp: Checkpoint) -> str | None:
        """``None`` if ``cp`` is consistent (or cannot be checked); else what contradicts."""
        if (cp.size, cp.root) in self._proved:
            return None
        seen = self._roots.get(cp.size)
        if seen is not None and seen != cp.root:
            self.inconsistent += 1
            self.contradicted = True
            return (f"two roots for tree size {cp.size} under one key: {seen.hex()} (seen before) and "
                    f"{cp.root.hex()} (this checkpoint) -- the log forked")
        base = self.stored
        if base is None or base.size == cp.size:
            return self._accept(cp)
        small, large = (base, cp) if base.size < cp.size else (cp, base)
        path = self.consistency(small.size, large.size) if self.consistency else None
        if path is None:
            self.unchecked.add(cp.size)
            return None
        try:
            merkle.verify_consistency(small.size, large.size, small.root, large.root, path)
        except ProofError as exc:
            self.inconsistent += 1
            self.contradicted = True
            return (f"the checkpoint of size {cp.size} and the accepted one of size {base.size} are not "
                    f"one log: {exc}")
        return self._accept(cp)

    def _accept(self, cp: Checkpoint) -> None:
        self.checked += 1
        self._roots[cp.size] = cp.root
        self._proved.add((cp.size, cp.root))
        if self.best is None or cp.size > self.best.size:
            self.best = cp
        return None

    def to_json(self) -> dict[str, Any]:
        return {"stored_size": None if self.stored is None else self.stored.size,
                "consistent": self.checked, "unchecked_sizes": sorted(self.unchecked),
                "inconsistent": self.inconsistent,
                "advanced_to": None if self.best is None else self.best.size}

    def describe(self) -> str:
        if self.stored is None:
            head = "state: no checkpoint accepted before (first audit)"
        else:
            head = f"state: accepted checkpoint of size {self.stored.size}"
        parts = [f"{self.checked} checkpoint check(s) consistent"]
        if self.unchecked:
            parts.append(f"sizes {', '.join(map(str, sorted(self.unchecked)))} UNCHECKED (another size than the accepted "
                         "one and no consistency proof available: neither passed nor failed)")
        if self.inconsistent:
            parts.append(f"{self.inconsistent} INCONSISTENT")
        return f"{head}; " + "; ".join(parts)
