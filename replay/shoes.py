"""The canonical shoe of each preset: the card order the v1 shuffle starts from.

Canonical order: deck 1 then deck 2 ...; within a deck suits S, H, D, C and within a suit
A, 2 .. K (that is, card codes 0..51); then every printed joker, then every master card.

=================  =======  ==========================================  ========
preset             seats    shoe                                        rule
=================  =======  ==========================================  ========
marriage/nepal     2-5      3 decks + 3 putali (JK) + 1 master (MC)     MN-1
marriage/classic   2-5      3 decks                                     MC-1
kitti              2-5      1 deck                                      D-12
rummy13            2-6      2 decks + 2 printed jokers = 106            D-18
rummy13            7-8      3 decks + 3 printed jokers = 159            D-18
=================  =======  ==========================================  ========
"""
from __future__ import annotations

from typing import Any

from .cards import JOKER, MASTER, STANDARD, Card
from .errors import RulesetError
from .rulesets import Ruleset, allowed_players


def build_shoe(decks: int, jokers: int = 0, masters: int = 0) -> tuple[Card, ...]:
    """A shoe in canonical order."""
    return STANDARD * decks + (JOKER,) * jokers + (MASTER,) * masters


def shoe_spec(ruleset: Ruleset, n_seats: int) -> dict[str, int]:
    """``{"decks", "jokers", "masters"}`` for this ruleset at this table size."""
    if n_seats not in allowed_players(ruleset):
        raise RulesetError(
            f"{ruleset.preset} is played by {', '.join(map(str, allowed_players(ruleset)))} players, not {n_seats}")
    if "shoe" in ruleset.settings:
        return _checked(ruleset["shoe"])
    for entry in ruleset["shoe_by_players"]:
        if n_seats <= entry["max_players"]:
            return _checked(entry)
    raise RulesetError(f"{ruleset.preset} has no shoe for {n_seats} players")


def _checked(entry: Any) -> dict[str, int]:
    """``decks`` 1..8, ``jokers`` and ``masters`` 0..8, all integers (a ruleset override may say anything)."""
    spec = {}
    for key, low in (("decks", 1), ("jokers", 0), ("masters", 0)):
        value = entry.get(key) if isinstance(entry, dict) else None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 8:
            raise RulesetError(f"shoe setting {key!r} must be an integer from {low} to 8")
        spec[key] = value
    return spec


def canonical_shoe(ruleset: Ruleset, n_seats: int) -> tuple[Card, ...]:
    """The canonical (unshuffled) shoe for this ruleset and table size."""
    return build_shoe(**shoe_spec(ruleset, n_seats))
