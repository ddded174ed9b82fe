"""Checking a shown declaration (R-7, R-9, R-10, R-11, D-21).

A declarer picks, puts one card face down as the finish card and shows the other 13 in
groups (R-7, D-21).  The show is valid when every card is in a valid group (a sequence or
a set, :func:`~replay.rummy.groups.classify_group`) and there are at least two sequences,
at least one of them pure (R-9).  A show that is not valid is a *wrong declaration*: 80
points and the player is out of the deal (R-18) -- that is the engine's business; here we
only say whether it is valid and, if not, which rule it breaks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..cards import Card
from .groups import GroupKind, InvalidGroupError, classify_group


@dataclass(frozen=True, slots=True)
class Verdict:
    """``valid``; else ``rule`` (the rule ID broken) and ``reason``.  ``kinds`` per group
    when every group is valid."""

    valid: bool
    rule: str | None = None
    reason: str | None = None
    kinds: tuple[GroupKind, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid, "rule": self.rule}
        if self.reason:
            out["reason"] = self.reason
        if self.kinds:
            out["kinds"] = [k.value for k in self.kinds]
        return out


def check_declaration(groups: Sequence[Sequence[Card]], wild: int | None, *,
                      hand_size: int = 13) -> Verdict:
    """Whether ``groups`` (the shown cards, finish card excluded) make a valid declaration."""
    n = sum(len(g) for g in groups)
    if n != hand_size:
        return Verdict(False, "R-7", f"a declaration shows all {hand_size} cards in groups, got {n}")
    kinds = []
    for i, g in enumerate(groups):
        try:
            kinds.append(classify_group(tuple(g), wild))
        except InvalidGroupError as exc:
            return Verdict(False, exc.rule, f"group {i + 1}: {exc.reason}")
    if GroupKind.PURE_SEQUENCE not in kinds:
        return Verdict(False, "R-9", "no pure sequence", tuple(kinds))
    if sum(k.is_sequence for k in kinds) < 2:
        return Verdict(False, "R-9", "only one sequence; two are needed", tuple(kinds))
    return Verdict(True, None, None, tuple(kinds))
