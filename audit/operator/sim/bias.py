"""A dishonest operator the audit cannot catch: it *chooses* the seeds of each deal.

Every hand it publishes is honest in every way the audit checks -- the seeds match their
commitments, the deal is the v1 shuffle of those seeds, the play is legal and the money
right -- but the operator (say, through the app that makes its players' seeds) knows all
the seeds before it commits, and re-draws them until the deal suits it.  Here the deal
must give seat :attr:`Bias.seat` at least :attr:`Bias.at_least` cards of rank
:attr:`Bias.rank`; the operator tries up to :attr:`Bias.tries` sets of seeds per hand and
keeps the first that does (or the last).  Only the deal statistics (:mod:`audit.auditor.stats.deals`)
can see it, and only over enough hands: ``docs/stats.md`` says how many.

The deal it checks is the real one (:meth:`replay.fairness.HandRandomness.deal`): the
shuffle is never re-implemented.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from replay.fairness import hand_randomness

SeedDraw = Callable[[int], tuple[bytes, list[bytes]]]  # attempt -> (server seed, player seeds)


@dataclass(frozen=True)
class Bias:
    seat: int = 0
    rank: str = "A"
    at_least: int = 2
    tries: int = 8

    def __post_init__(self) -> None:
        if self.rank not in "A23456789TJQK" or len(self.rank) != 1:
            raise ValueError(f"a bias favours one rank (A, 2 .. K), not {self.rank!r}")
        if self.tries < 1 or self.at_least < 0 or self.seat < 0:
            raise ValueError("a bias needs tries >= 1, at_least >= 0 and a seat >= 0")

    def suits(self, deal: Any) -> bool:
        return sum(1 for c in deal.hands[self.seat] if str(c)[0] == self.rank) >= self.at_least

    def choose(self, ruleset: Any, hand_id: str, dealer: int, draw: SeedDraw) -> tuple[bytes, list[bytes]]:
        """The seeds the operator keeps for this hand (attempt 0 is what an honest one uses)."""
        for attempt in range(self.tries):
            server, seeds = draw(attempt)
            if self.suits(hand_randomness(server, hand_id, ruleset, seeds).deal(dealer)):
                break
        return server, seeds
