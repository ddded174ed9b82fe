"""One server seed per hand: the same commitment or seed in two hands fails both.

A server seed used for two hands makes the second deal known to whoever saw the first
reveal (the operator, and every player after the reveal): ``docs/fairness.md`` promises
that auditors check each seed is fresh.  :class:`SeedIndex` collects, over one log (or one
archive), every hand's server commitment and revealed server seed, and
:meth:`SeedIndex.faults` gives each hand that shares one with another hand a
``seed_reuse`` fault naming the other hands.  The faults depend only on the set of (hand,
value) pairs, never on the order they were added, so partitions of an archive audited
apart and merged (:meth:`SeedIndex.merge`) give the faults one pass gives.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from replay.faults import Fault, Reason

#: what is compared, and how a fault names it
WHAT = {"commitment": "server seed commitment", "seed": "server seed"}


def _hex(value: Any) -> str | None:
    return value.lower() if isinstance(value, str) and value else None


class SeedIndex:
    """Every (commitment or seed) -> the hands that use it."""

    __slots__ = ("_hands",)

    def __init__(self) -> None:
        self._hands: dict[tuple[str, str], set[str]] = {}

    def add(self, hand_id: Any, *, commitment: Any = None, seed: Any = None) -> None:
        if not isinstance(hand_id, str):
            return
        for what, value in (("commitment", _hex(commitment)), ("seed", _hex(seed))):
            if value is not None:
                self._hands.setdefault((what, value), set()).add(hand_id)

    def add_statement(self, statement: Mapping[str, Any]) -> None:
        """Index a logged statement: the commitment of a ``commitment``, the seed of a
        ``reveal`` and both of a ``cancel`` (which reveals the seed of a hand never dealt)."""
        kind = statement.get("kind")
        if kind == "commitment":
            self.add(statement.get("hand_id"), commitment=statement.get("server_seed_commitment"))
        elif kind in ("reveal", "cancel"):
            self.add(statement.get("hand_id"), commitment=statement.get("server_seed_commitment"),
                     seed=statement.get("server_seed"))

    def merge(self, other: "SeedIndex") -> "SeedIndex":
        for key, hands in other._hands.items():
            self._hands.setdefault(key, set()).update(hands)
        return self

    def reused(self) -> Iterable[tuple[str, str, tuple[str, ...]]]:
        """``(what, value, hands)`` of every value two or more hands share, sorted."""
        for (what, value), hands in sorted(self._hands.items()):
            if len(hands) > 1:
                yield what, value, tuple(sorted(hands))

    def faults(self) -> dict[str, list[Fault]]:
        """hand id -> its ``seed_reuse`` faults (one per shared value)."""
        out: dict[str, list[Fault]] = {}
        for what, value, hands in self.reused():
            for hand in hands:
                others = ", ".join(h for h in hands if h != hand)
                out.setdefault(hand, []).append(Fault(
                    Reason.SEED_REUSE, f"the {WHAT[what]} {value[:16]}... is used by hand(s) {others} too: "
                                       "a server seed must be fresh for every hand"))
        return out

    def to_json(self) -> list[list[Any]]:
        return [[what, value, sorted(hands)] for (what, value), hands in sorted(self._hands.items())]

    @classmethod
    def from_json(cls, data: Any) -> "SeedIndex":
        index = cls()
        for what, value, hands in data:
            index._hands[(str(what), str(value))] = {str(h) for h in hands}
        return index
