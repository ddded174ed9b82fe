"""From maal points to payments, in points (money is :func:`replay.settlement.settle`).

Two sources of points (MN-33, MC-28..MC-31):

* every player pays every other player the difference of their maal points (MC-30);
* each opponent of the winner pays the winner ``seen_points`` (3) if they have seen the
  tiplu, ``unseen_points`` (10) if not, plus ``dublee_bonus`` (5) when the winner finished
  on dublees (MC-28, MC-29, D-9). The three values are ruleset settings.

Two ways to compute the same nets, implemented separately so tests can hold one against
the other:

* :func:`pairwise_nets` -- the basic method: every pair settles its difference, then each
  opponent pays the winner ``w``;
* :func:`streamlined` -- all payments go through the winner: seat ``i`` pays the winner
  ``T + w_i - n*S_i`` (``T`` the sum of all scores, ``S_i`` seat ``i``'s score, ``n`` the
  number of seats); a negative amount means the winner pays them (MC-31).

A void round (no finisher, D-10) has no winner and no seen payments: each pays each
other the difference, ``net_i = n*S_i - T`` (:func:`void_nets`).
"""
from __future__ import annotations

from typing import Sequence

from ..errors import MalformedError
from ..rulesets import Ruleset

__all__ = ["streamlined", "nets_streamlined", "pairwise_nets", "void_nets", "seen_payment"]


def _check(scores: Sequence[int], winner: int | None, seen: Sequence[bool] | None) -> None:
    if len(scores) < 2:
        raise MalformedError(f"a settlement needs at least two seats, got {len(scores)}")
    if any(not isinstance(s, int) or isinstance(s, bool) for s in scores):
        raise MalformedError("scores must be integers")
    if seen is not None:
        if len(seen) != len(scores):
            raise MalformedError(f"seen has {len(seen)} entries for {len(scores)} seats")
        if any(not isinstance(s, bool) for s in seen):
            raise MalformedError("seen must be booleans")
    if winner is not None:
        if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(scores):
            raise MalformedError(f"winner must be a seat 0..{len(scores) - 1}, got {winner!r}")
        if seen is not None and not seen[winner]:
            raise MalformedError("the winner has shown, so has seen the tiplu")


def seen_payment(has_seen: bool, *, dublee_finish: bool, ruleset: Ruleset) -> int:
    """``w``: what one opponent pays the winner on top of the maal differences (D-9)."""
    w: int = ruleset["seen_points"] if has_seen else ruleset["unseen_points"]
    bonus: int = ruleset["dublee_bonus"] if dublee_finish else 0
    return w + bonus


def streamlined(scores: Sequence[int], *, winner: int, seen: Sequence[bool], dublee_finish: bool,
                ruleset: Ruleset) -> tuple[int, ...]:
    """Each seat's payment TO the winner, ``T + w - n*S`` (MC-31); the winner's entry is 0."""
    _check(scores, winner, seen)
    if winner is None:
        raise MalformedError("streamlined payments need a winner (a void round uses void_nets)")
    n, total = len(scores), sum(scores)
    return tuple(
        0 if i == winner
        else total + seen_payment(seen[i], dublee_finish=dublee_finish, ruleset=ruleset) - n * s
        for i, s in enumerate(scores))


def nets_streamlined(scores: Sequence[int], *, winner: int, seen: Sequence[bool], dublee_finish: bool,
                     ruleset: Ruleset) -> tuple[int, ...]:
    """Per-seat nets from :func:`streamlined`: opponents lose what they pay, the winner gains it all."""
    pay = streamlined(scores, winner=winner, seen=seen, dublee_finish=dublee_finish, ruleset=ruleset)
    return tuple(sum(pay) if i == winner else -p for i, p in enumerate(pay))


def pairwise_nets(scores: Sequence[int], *, winner: int | None, seen: Sequence[bool], dublee_finish: bool,
                  ruleset: Ruleset) -> tuple[int, ...]:
    """Nets by the basic method: each pair settles its maal difference (MC-30), then each
    opponent pays the winner ``w`` (MC-28, MC-29). ``winner=None``: a void round (D-10)."""
    _check(scores, winner, seen)
    n = len(scores)
    nets = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            diff = scores[j] - scores[i]  # i pays j the difference (negative: j pays i)
            nets[i] -= diff
            nets[j] += diff
    if winner is not None:
        for i in range(n):
            if i != winner:
                w = seen_payment(seen[i], dublee_finish=dublee_finish, ruleset=ruleset)
                nets[i] -= w
                nets[winner] += w
    return tuple(nets)


def void_nets(scores: Sequence[int]) -> tuple[int, ...]:
    """Nets of a void round (D-10): ``net_i = n*S_i - T``, no winner, no seen payments."""
    _check(scores, None, None)
    n, total = len(scores), sum(scores)
    return tuple(n * s - total for s in scores)
