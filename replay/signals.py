"""Hidden-information signals: did a decision line up with cards its maker could not see?

An honest player's choice is a function of what that player saw (their own cards, the
table, the moves so far) and of their own whims -- never of the cards still hidden from
them.  A fair deal (the v1 protocol, ``docs/fairness.md``) puts every arrangement of the
hidden cards as likely as every other.  So take any score ``v(choice, hidden)`` of how well
a choice does against the hidden cards.  Redeal the hidden cards at random among the places
they could be (the *null world*): under honest play the real hidden cards and each redealt
set are exchangeable given everything the player saw, so

    E[v(choice, real hidden)] = E[v(choice, redealt hidden)]

whatever the player's strategy.  An :class:`Observation` keeps one decision's real score
and its scores in a few redeals; ``excess = actual - mean(null)`` has mean zero for an
honest player and a positive mean for one who sees the hidden cards ("superuser") or is
told them by a partner.  :mod:`audit.auditor.collusion` adds the excesses up per account and tests
them.  Each game's signals are its ``GAME.hidden_signals`` (``docs/collusion.md``).

Pure: the redeals come from a :class:`replay.stream.Stream` the caller keys (no
``random``), so the same record always gives the same observations.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Observation:
    """One decision of one seat: its score against the real hidden cards and in each redeal.

    ``signal`` names what is measured (``kitti.arrangement``, ...); ``seat`` made the
    decision; ``actual`` and every ``null`` value are integers of one scale (the signal's
    own: rounds won, points saved, ...)."""

    signal: str
    seat: int
    actual: int
    null: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.null:
            raise ValueError("an observation needs at least one redeal")

    @property
    def excess(self) -> Fraction:
        """``actual`` less the mean of the redeals: zero on average for an honest player."""
        return self.actual - Fraction(sum(self.null), len(self.null))
