"""Who sits where, and how a shuffled shoe becomes hands, a turned-up card and a stock.

Seats are numbered ``0 .. n-1``.  Clockwise (D-4): seat ``i+1`` is on seat ``i``'s left.
Dealing starts with the player on the dealer's left (the dealer's right when a Marriage
table plays anticlockwise, MC-33) and gives one card at a time, round the table, until
every hand is full (MN-2, MC-13, K-1, R-4).  Position 0 of the shuffled shoe is its top.

After the hands, as the game's :class:`~replay.game.DealLayout` says:

* Marriage: the next card is turned up to start the discard pile (MN-3, MC-13); the rest
  is the stock, top first (MN-4).
* Rummy: the next card is the wild-card indicator, set aside face up and never drawn; the
  card after it starts the open pile; the rest is the closed pile (R-5, D-19).
* Kitti: nothing is turned; the undealt cards are never used.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .cards import Card
from .errors import RulesetError
from .registry import game_for
from .rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class Deal:
    """The result of dealing a shuffled shoe."""

    hands: tuple[tuple[Card, ...], ...]
    turned_up: Card | None
    indicator: Card | None
    stock: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[str(c) for c in h] for h in self.hands],
            "turned_up": str(self.turned_up) if self.turned_up is not None else None,
            "indicator": str(self.indicator) if self.indicator is not None else None,
            "stock": [str(c) for c in self.stock],
        }


DIRECTIONS = ("clockwise", "anticlockwise")


def left_of(seat: int, n_seats: int, *, direction: str = "clockwise") -> int:
    """The next seat in the direction of play (D-4: clockwise, seat i+1 is on seat i's left)."""
    if direction not in DIRECTIONS:
        raise RulesetError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    return (seat + 1) % n_seats if direction == "clockwise" else (seat - 1) % n_seats


def seat_order(dealer: int, n_seats: int, *, direction: str = "clockwise") -> list[int]:
    """Seats in the order they receive cards: the dealer's left first, the dealer last."""
    if not 0 <= dealer < n_seats:
        raise RulesetError(f"dealer seat {dealer} is not at a table of {n_seats}")
    order, seat = [], dealer
    for _ in range(n_seats):
        seat = left_of(seat, n_seats, direction=direction)
        order.append(seat)
    return order


def deal_hands(shoe: Sequence[Card], n_seats: int, dealer: int, hand_size: int,
               *, direction: str = "clockwise") -> tuple[tuple[tuple[Card, ...], ...], int]:
    """Deal one card at a time; returns the hands by seat and the next shoe position.

    Raises :class:`RulesetError` if ``hand_size < 1`` or the shoe is too small.
    """
    order = seat_order(dealer, n_seats, direction=direction)
    if hand_size < 1 or hand_size * n_seats > len(shoe):
        raise RulesetError(f"a shoe of {len(shoe)} cannot deal {hand_size} to {n_seats} seats")
    hands: list[list[Card]] = [[] for _ in range(n_seats)]
    pos = 0
    for _ in range(hand_size):
        for seat in order:
            hands[seat].append(shoe[pos])
            pos += 1
    return tuple(tuple(h) for h in hands), pos


def deal(ruleset: Ruleset, shoe: Sequence[Card], n_seats: int, dealer: int) -> Deal:
    """Deal a shuffled shoe the way the ruleset's game deals it (its ``deal_layout``)."""
    direction = ruleset.settings.get("direction", "clockwise")
    layout = game_for(ruleset.game).deal_layout
    needed = ruleset["hand_size"] * n_seats + layout.cards_after_hands
    if needed > len(shoe):
        raise RulesetError(f"a shoe of {len(shoe)} cannot deal {ruleset['hand_size']} to {n_seats} seats "
                           f"and lay out the {ruleset.game} table ({needed} cards)")
    hands, pos = deal_hands(shoe, n_seats, dealer, ruleset["hand_size"], direction=direction)
    indicator = turned_up = None
    if layout.indicator:
        indicator, pos = shoe[pos], pos + 1
    if layout.turned_up:
        turned_up, pos = shoe[pos], pos + 1
    return Deal(hands, turned_up, indicator, tuple(shoe[pos:]))
