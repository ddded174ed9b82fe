"""``tiplu audit --state FILE``: the checkpoint the auditor accepted last time, kept between audits.

The file has the shape of ``tiplu monitor``'s state (:class:`audit.auditor.monitor.watch.MonitorState`):
a JSON object whose ``checkpoint`` is a signed checkpoint text, with ``public_key`` and
``origin`` -- so a monitor's state file works here too (its other fields are kept as they
are).  A missing file is an empty state (first audit).

Every checkpoint an audit meets (each record's, and a ledger's or URL's own) is compared
with the stored one (:class:`StateCheck`):

* same size: the roots must be equal;
* another size: a consistency proof from the source (a ledger or URL:
  :class:`audit.auditor.sources.source.SourceProofs`) must show the smaller
  tree is a prefix of the larger; a lone record file has no proof to give, so the
  checkpoint is *unchecked* -- neither passed nor failed, and counted as such.

A contradiction is the record's ``log_inconsistent`` fault.  Each check depends only on the
stored checkpoint and the source's proofs, never on the records met before, so a parallel
audit's partitions check their records on their own and the parent merges what they
accepted (:meth:`StateCheck.absorb`).  Two accepted checkpoints of one size with two roots
(both consistent with the stored one, or no checkpoint stored yet) are a fork that neither
record alone shows: :meth:`StateCheck.forks`, one ``log_inconsistent`` failure of the audit
naming both roots.  The state file is rewritten (temp file + :func:`os.replace`) only after
an audit with no ``log_inconsistent`` fault, advancing to the largest checkpoint proved
consistent with it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from replay.errors import MalformedError
from replay.faults import Reason

from ...errors import ProofError
from ...tlog import merkle
from ...tlog.checkpoint import Checkpoint, parse_checkpoint
from ..verdict.trust import TrustAnchor, parse_key

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
        from ...statefile import read_state

        path = Path(path)
        data = read_state(path)  # refuses a file that is not a state file (it is never overwritten)
        if data is None:
            return cls(path)
        text, key, origin = data.get("checkpoint"), data.get("public_key"), data.get("origin")
        if text is not None and not isinstance(text, str) or origin is not None and not isinstance(origin, str):
            raise MalformedError(f"{path} is not a state file: checkpoint and origin are text")
        try:
            cp = parse_checkpoint(text, legacy=True) if text is not None else None  # maybe saved before format 3
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
        from ...statefile import write_state

        write_state(self.path, data)


class StateCheck:
    """Compares each verified checkpoint of an audit with the stored one."""

    def __init__(self, stored: Checkpoint | None, consistency: Consistency | None = None) -> None:
        self.stored = stored
        self.consistency = consistency
        self.best = stored
        self.unchecked: set[int] = set()
        self.inconsistent = 0
        #: set when any record of the audit has a ``log_inconsistent`` fault (ours or the log check's)
        self.contradicted = False
        #: every checkpoint proved consistent with the stored one, first met first, by (size, root)
        self.accepted: dict[tuple[int, bytes], Checkpoint] = {}

    @property
    def checked(self) -> int:
        """How many distinct checkpoints were proved consistent."""
        return len(self.accepted)

    def blank(self) -> "StateCheck":
        """A fresh check against the same stored checkpoint and proofs (for one partition)."""
        return StateCheck(self.stored, self.consistency)

    def absorb(self, other: "StateCheck") -> None:
        """Add what ``other`` (a check of later records of the same audit) found."""
        for cp in other.accepted.values():
            if (cp.size, cp.root) not in self.accepted:
                self._accept(cp)
        self.unchecked |= other.unchecked
        self.inconsistent += other.inconsistent
        self.contradicted |= other.contradicted

    def note(self, verdict: Any) -> None:
        """Learn of a record's verdict: any ``log_inconsistent`` fault (this check's or the log
        check's) contradicts the state, which is then not advanced."""
        if Reason.LOG_INCONSISTENT in verdict.reasons:
            self.contradicted = True

    def forks(self) -> list[str]:
        """One message per tree size for which two accepted checkpoints give two roots (each
        contradicts the state)."""
        roots: dict[int, list[bytes]] = {}
        for size, root in self.accepted:
            roots.setdefault(size, []).append(root)
        found = [f"two roots for tree size {size} under one key: {', '.join(r.hex() for r in found)} -- the log "
                 "forked (two checkpoints the audit met; neither record alone shows it)"
                 for size, found in sorted(roots.items()) if len(found) > 1]
        if found:
            self.contradicted = True
        return found

    def check(self, cp: Checkpoint) -> str | None:
        """``None`` if ``cp`` is consistent (or cannot be checked); else what contradicts.
        Depends only on ``cp``, the stored checkpoint and the source's proofs."""
        if (cp.size, cp.root) in self.accepted:
            return None
        if self.stored is not None and self.stored.size == cp.size and self.stored.root != cp.root:
            self.inconsistent += 1
            self.contradicted = True
            return (f"two roots for tree size {cp.size} under one key: {self.stored.root.hex()} (the accepted "
                    f"checkpoint) and {cp.root.hex()} (this checkpoint) -- the log forked")
        base = self.stored
        if base is None or base.size == cp.size:
            self._accept(cp)
            return None
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
        self._accept(cp)
        return None

    def _accept(self, cp: Checkpoint) -> None:
        self.accepted[(cp.size, cp.root)] = cp
        if self.best is None or cp.size > self.best.size:
            self.best = cp

    def to_json(self) -> dict[str, Any]:
        return {"stored_size": None if self.stored is None else self.stored.size,
                "consistent": self.checked, "unchecked_sizes": sorted(self.unchecked),
                "inconsistent": self.inconsistent, "forked_sizes": self.forked_sizes(),
                "advanced_to": None if self.best is None else self.best.size}

    def forked_sizes(self) -> list[int]:
        sizes = [size for size, _ in self.accepted]
        return sorted({s for s in sizes if sizes.count(s) > 1})

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
        if self.forked_sizes():
            parts.append(f"FORKED at size {', '.join(map(str, self.forked_sizes()))}")
        return f"{head}; " + "; ".join(parts)
