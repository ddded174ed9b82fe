"""A whole log as plain values (:class:`LogIndex`): what a worker of a parallel audit holds when
it cannot read the log itself -- one back-end of :class:`~audit.auditor.evidence.logcheck.LogView`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ...tlog.merkle import MemoryTree


#: a leaf about a hand: ``(leaf index, (kind, seat))`` (:func:`audit.auditor.evidence.logcheck.slot_of`)
Slot = tuple[int, tuple[str | None, int | None]]


class SlotItems(Protocol):
    """Each hand's slots, as :class:`~audit.auditor.evidence.leaf_slots.SlotView` gives them."""

    def items(self) -> Iterable[tuple[Any, Sequence[Slot]]]: ...


class LogIndex:
    """A whole log as plain values: every leaf hash (one ``bytes``, 32 per leaf) and each
    hand's leaf slots.  What a worker of a parallel audit holds when it cannot read the log
    itself (an operator's URL, or a ledger on another machine): sent once per worker; the
    Merkle tree for :meth:`root` is rebuilt there, on first use."""

    def __init__(self, hashes: bytes, slots: "Mapping[Any, Sequence[Slot]] | SlotItems") -> None:
        if len(hashes) % 32:
            raise ValueError("leaf hashes are 32 bytes each")
        self._hashes = hashes
        self._slots = {h: tuple(v) for h, v in slots.items()}
        self._tree: MemoryTree | None = None  # built on first use

    def __getstate__(self) -> dict[str, Any]:
        return {"hashes": self._hashes, "slots": self._slots}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._hashes, self._slots, self._tree = state["hashes"], state["slots"], None

    def size(self) -> int:
        return len(self._hashes) // 32

    def root(self, size: int) -> bytes:
        tree = self._tree
        if tree is None:
            from ...tlog.merkle import MemoryTree

            h = self._hashes
            tree = self._tree = MemoryTree(h[i:i + 32] for i in range(0, len(h), 32))
        return tree.root(size)

    def leaf_hash(self, index: int) -> bytes | None:
        if not 0 <= index < self.size():
            return None
        return self._hashes[32 * index:32 * index + 32]

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        return iter(self._slots.get(hand_id, ()))
