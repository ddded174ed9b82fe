"""An operator's served log as an auditor holds it (:class:`RemoteLog`, over ``<base>/api/v1/log``):
one back-end of :class:`~audit.auditor.evidence.logcheck.LogView`, rebuilt here and checked against
the operator's signed checkpoint.
"""
from __future__ import annotations

import hmac
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from replay.errors import MalformedError, TipluError
from replay.faults import Fault, Reason

from ...errors import SignatureError
from ...tlog.checkpoint import Checkpoint
from ...tlog.merkle import MemoryTree, leaf_hash
from ...tlog.store import leaf_entry
from .log_index import LogIndex
from .logcheck import slot_of, verified_checkpoint


class RemoteLog:
    """:class:`LogView` over an operator's served log (``<base>/api/v1/log``): the current
    checkpoint and every entry below its size are fetched once, on first use, and the tree is
    recomputed here from those entries -- so a URL audit or a monitor holds the whole log as
    a ledger audit does.

    The rebuilt tree is checked against the operator's *signed* checkpoint: its signature
    under ``public_key`` (the auditor's trusted key; without one, the key the operator
    publishes with it -- which proves nothing, :attr:`anchor` says so), and its root at its
    size.  Any mismatch is :attr:`problem` (a ``Fault``: ``BAD_CHECKPOINT`` when the served
    checkpoint does not verify, ``LOG_INCONSISTENT`` when the served entries are not the tree
    it signs); a log with a problem must not be used to judge records (:meth:`open`)."""

    def __init__(self, client: Any, *, public_key: str | None = None, origin: str | None = None) -> None:
        self._client = client
        self._key, self._origin = public_key, origin
        self._entries: list[bytes] | None = None
        self._tree = MemoryTree()  # the served entries' tree, once loaded
        self._by_hand: dict[Any, list[tuple[int, tuple[str | None, int | None]]]] | None = None
        #: the operator's served checkpoint, verified (``None`` until loaded, or if it did not verify)
        self.checkpoint: Checkpoint | None = None
        #: whose key verified the served checkpoint: ``"pinned"`` (the auditor's), ``"operator"``
        #: (the key the operator serves with it: NOT a trust anchor) or ``"none"`` (no key at all:
        #: only the root was compared)
        self.anchor: str | None = None
        self.problem: Fault | None = None

    def open(self) -> "RemoteLog":
        """Fetch and check the served log; raise :class:`LogMismatch` if it is not the
        tree the operator signs (transport errors propagate as the client raises them)."""
        self._load()
        if self.problem is not None:
            raise LogMismatch(self.problem)
        return self

    def _verify(self, body: Mapping[str, Any]) -> Checkpoint | None:
        from ...tlog.checkpoint import parse_checkpoint

        text = body.get("checkpoint")
        key = self._key or body.get("public_key")
        if not isinstance(text, str):
            self.problem = Fault(Reason.BAD_CHECKPOINT, "the operator serves no checkpoint for its log: the served "
                                                        "entries cannot be checked")
            return None
        if not isinstance(key, str):  # no key pinned and none published: the root is checked, no signature
            self.anchor = "none"
            try:
                return parse_checkpoint(text)
            except MalformedError as exc:
                self.problem = Fault(Reason.BAD_CHECKPOINT, f"the operator's served checkpoint does not parse: {exc}")
                return None
        self.anchor = "pinned" if self._key else "operator"
        whose = "the trusted key" if self._key else "the key the operator publishes"
        try:
            return verified_checkpoint(text, key, self._origin)
        except SignatureError as exc:
            self.problem = Fault(Reason.BAD_CHECKPOINT, f"the operator's served checkpoint does not verify under "
                                                        f"{whose}: {exc}")
            return None

    def _load(self) -> list[bytes]:
        if self._entries is None:

            cp = self._verify(self._client.checkpoint())
            size = cp.size if cp is not None else 0
            entries: list[bytes] = []
            while len(entries) < size:
                page = self._client.entries(len(entries), size)
                if not page:
                    break
                entries += [leaf_entry(item["entry"]) for item in page]
            del entries[size:]
            self._entries = entries
            self._tree = MemoryTree(leaf_hash(e) for e in entries)
            if cp is None:
                return entries
            if len(entries) < cp.size:
                self.problem = Fault(Reason.LOG_INCONSISTENT, f"the operator signs a log of {cp.size} entries but "
                                                              f"serves only {len(entries)}")
            elif not hmac.compare_digest(self._tree.root(cp.size), cp.root):
                self.problem = Fault(Reason.LOG_INCONSISTENT, f"the operator's served entries are not the log it "
                                                              f"signs: they rebuild a tree of size {cp.size} with "
                                                              f"root {self._tree.root(cp.size).hex()}, its signed "
                                                              f"checkpoint says {cp.root.hex()}")
            else:
                self.checkpoint = cp
        return self._entries

    def size(self) -> int:
        return len(self._load())

    def root(self, size: int) -> bytes:
        self._load()
        return self._tree.root(size)

    def leaf_hash(self, index: int) -> bytes | None:
        self._load()
        return self._tree.levels[0][index] if 0 <= index < self._tree.size else None

    def _hands(self) -> dict[Any, list[tuple[int, tuple[str | None, int | None]]]]:
        if self._by_hand is None:
            import json

            self._by_hand = {}
            for index, entry in enumerate(self._load()):
                st = json.loads(entry).get("statement")
                if isinstance(st, Mapping):
                    self._by_hand.setdefault(st.get("hand_id"), []).append((index, slot_of(st)))
        return self._by_hand

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        return iter(self._hands().get(hand_id, ()))

    def entries(self) -> Iterator[tuple[int, bytes]]:
        """``(leaf index, entry bytes)`` of every served entry below the checkpoint's size."""
        return enumerate(self._load())

    def index(self) -> LogIndex:
        """The whole served log as a :class:`LogIndex` (for a parallel audit's workers)."""
        self._load()
        hands = self._hands()
        return LogIndex(b"".join(self._tree.levels[0]), hands)


class LogMismatch(TipluError):
    """The operator's served log is not the log its signed checkpoint fixes (``fault`` says how)."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"{fault.reason.value}: {fault.message}")
        self.fault = fault
