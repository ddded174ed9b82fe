"""Pair signals: did one seat's choice line up with *another seat's* hidden cards, or did
tokens move between two seats beyond chance? (``docs/collusion.md``, "Pairs").

A :class:`PairObservation` is :class:`replay.signals.Observation` with a second seat: the
``seat`` that chose and the ``target`` seat whose hidden cards (or tokens) the score is
about.  ``excess = actual - mean(null)`` has mean zero when the choosing seat is honest
towards the target -- by the same exchangeable-redeal argument (``replay.signals``) for the
card signals, and by exchangeable seats for the token flows (:func:`flow_observations`).

Each game's decision signals are found by naming, as the games themselves are (no central
list): ``replay/<game>/pair_signals.py``'s ``hand_pair_signals(engine, steps, rng_for)`` --
the engine, the hand's steps ``(index, state the move was made in, move)`` and
``rng_for(index)``, the redeals' stream for a move.
The token flow is every game's.  Pure: no ``random``, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from importlib import import_module
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:
    from .game import Game

FLOW = "tokens.flow"



@dataclass(frozen=True, slots=True)
class PairObservation:
    """One decision (or hand) of ``seat`` scored against ``target``: the real score and its
    nulls, exact rationals on the signal's own scale."""

    signal: str
    seat: int
    target: int
    actual: Fraction
    null: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if not self.null:
            raise ValueError("a pair observation needs at least one null value")
        if self.seat == self.target:
            raise ValueError("a pair observation needs two different seats")

    @property
    def excess(self) -> Fraction:
        return Fraction(self.actual) - Fraction(sum(self.null, Fraction(0)), len(self.null))


def decision_pair_signals(game: Game) -> Callable[..., list[PairObservation]] | None:
    """The ``hand_pair_signals`` of ``game`` (a registry ``Game``): from the module
    ``pair_signals`` of the game's own package, ``None`` when it has none."""
    package = getattr(game.engine, "__module__", "").rpartition(".")[0]
    if not package.startswith("replay."):
        return None
    try:
        module = import_module(f"{package}.pair_signals")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.pair_signals":
            raise
        return None
    return getattr(module, "hand_pair_signals", None)


def flows(nets: Sequence[Decimal | Fraction | int]) -> dict[tuple[int, int], Fraction]:
    """What each seat paid each other seat in one hand: every net loss is split among the
    net winners in proportion to their gains (``flows[(loser, winner)]``)."""
    exact = [Fraction(n) for n in nets]
    gains = sum((n for n in exact if n > 0), Fraction(0))
    out: dict[tuple[int, int], Fraction] = {}
    if gains == 0:
        return out
    for i, loss in enumerate(exact):
        if loss < 0:
            for j, gain in enumerate(exact):
                if gain > 0:
                    out[(i, j)] = -loss * gain / gains
    return out


def _beyond(f: dict[tuple[int, int], Fraction], x: int, y: int, others: Sequence[int]) -> Fraction:
    """What ``x`` paid ``y`` beyond what ``x`` paid the others and ``y`` received from them:
    ``f(x,y) - mean_j f(x,j) - mean_i f(i,y) + mean_{i != j} f(i,j)``, ``i, j`` among ``others``."""
    zero = Fraction(0)
    k = len(others)
    paid = sum((f.get((x, j), zero) for j in others), zero) / k
    got = sum((f.get((i, y), zero) for i in others), zero) / k
    among = sum((f.get((i, j), zero) for i in others for j in others if i != j), zero) / (k * (k - 1))
    return f.get((x, y), zero) - paid - got + among


def flow_observations(nets: Sequence[Decimal | Fraction | int]) -> list[PairObservation]:
    """``tokens.flow`` of one hand of four seats or more, for every pair ``seat < target``:
    the tokens ``seat`` received from ``target`` beyond what each of them paid and received
    among the other seats (:func:`_beyond`, both ways), so a strong player, who wins from
    everyone, moves nothing here.  Its null is 0: with the seats exchangeable (equally strong
    players, the deal rotating) every flow between two seats has the same mean, and the
    contrast is 0 on average; a strength that adds to a seat's flows with everyone alike
    cancels too.  A pair where one pays the other and nobody else (chip dumping) does not.
    The test on it is two-sided."""
    n = len(nets)
    if n < 4:
        return []
    moved = flows(nets)
    zero = Fraction(0)
    out = []
    for a in range(n):
        for b in range(a + 1, n):
            others = [s for s in range(n) if s not in (a, b)]
            actual = _beyond(moved, b, a, others) - _beyond(moved, a, b, others)
            out.append(PairObservation(FLOW, a, b, actual, (zero,)))
    return out
