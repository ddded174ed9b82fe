"""Rummy melds: the words we use, the wild rules, card points and group validity.

Glossary (the terms of ``rules/rummy13.md`` and ``decisions.md``, used the same way in
every module of this package):

* **indicator** -- the card turned up after the deal (R-5, D-19).  It is never drawn.
* **wild rank** -- the indicator's rank; every card of that rank, in all four suits, is
  wild for the deal.  If the indicator is itself a printed joker there is no wild rank and
  only printed jokers are wild (R-5).  Represented as an ``int`` 1..13 or ``None``.
* **joker** -- a printed joker (``JK``) or a card of the wild rank.  A joker may stand in
  for any card of a group.  A card of the wild rank may also stand as *itself*.
* **natural** -- a card standing as itself (every non-joker card, and a wild-rank card
  laid at its own place).
* **position** -- the place of a rank in a sequence: 1 (Ace low), 2 .. 13 (King) and 14
  (Ace high).  A sequence occupies consecutive positions; Ace is low or high but the
  positions never wrap (R-10): K-A-2 is not a sequence.
* **sequence** (run) -- three or more cards laid at consecutive positions of one suit.
  **Pure**: every card is natural.  **Impure**: at least one joker stands in (D-21).
  A group made only of jokers can stand for any three consecutive cards, so it is an
  impure sequence.
* **set** -- three or four cards of one rank in distinct suits; jokers may stand in for
  missing suits (R-11, D-21).

Sequences and sets themselves are the shared :mod:`replay.melds` (the same words, and
Marriage's words for them); this module adds the wild rules and the points.
* **group** -- a sequence or a set.  **Loose** cards are in no group.
* **points** -- A, K, Q, J, 10 count ``high_card_points`` (10), 2..9 their face value,
  jokers 0 (R-13).

No group may hold the same card twice (two decks give identical copies, R-11): in a
sequence every position is distinct; in a set every suit is distinct.
"""
from __future__ import annotations

from collections import Counter
from enum import Enum
from typing import Iterable, Sequence

from ..cards import JOKER_CODE, RANK_OF, Card, parse_card
from ..errors import CardParseError, MalformedError, TipluError
from ..melds import can_fill_sequence, is_pure_sequence, is_set, wraps

HIGH_CARD_POINTS = 10


class MalformedHandError(MalformedError):
    """Cards that cannot be a rummy hand: wrong count, unknown card, too many copies."""


class InvalidGroupError(TipluError, ValueError):
    """A shown group that is neither a sequence nor a set; ``rule`` names the rule it breaks."""

    def __init__(self, reason: str, *, rule: str) -> None:
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} (rule {rule})")


class GroupKind(str, Enum):
    """What a valid group is (the best reading: pure, then impure, then set)."""

    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"

    @property
    def is_sequence(self) -> bool:
        return self is not GroupKind.SET


def wild_rank_of(indicator: Card) -> int | None:
    """The wild rank given by the indicator; ``None`` when it is a printed joker (R-5)."""
    if indicator.is_joker:
        return None
    if not indicator.is_standard:
        raise MalformedHandError(f"{indicator} cannot be a rummy indicator")
    return RANK_OF[indicator.code]


def is_joker(card: Card, wild: int | None) -> bool:
    """Printed jokers, and every card of the wild rank (R-5)."""
    return card.code == JOKER_CODE or RANK_OF[card.code] == wild  # RANK_OF: 0 off the 52


def card_points(card: Card, wild: int | None, *, high: int = HIGH_CARD_POINTS) -> int:
    """Points of one card (R-13): jokers 0, A/K/Q/J/10 ``high``, 2..9 face value."""
    if is_joker(card, wild):
        return 0
    rank = RANK_OF[card.code]
    return high if rank == 1 or rank >= 10 else rank


def classify_group(cards: Sequence[Card], wild: int | None) -> GroupKind:
    """The kind of a shown group, or :class:`InvalidGroupError` naming the rule it breaks."""
    n = len(cards)
    if n < 3:
        raise InvalidGroupError(f"a group needs at least 3 cards, got {n}", rule="D-21")
    if any(c.code > JOKER_CODE for c in cards):  # neither standard nor the printed joker
        raise MalformedHandError("the master card is not a rummy card")
    if is_pure_sequence(cards):  # wild-rank cards as themselves
        return GroupKind.PURE_SEQUENCE
    naturals = [c for c in cards if not is_joker(c, wild)]
    if not naturals:
        return GroupKind.IMPURE_SEQUENCE  # jokers alone stand for any three consecutive cards
    if can_fill_sequence(naturals, n):
        return GroupKind.IMPURE_SEQUENCE
    if is_set(naturals) and n <= 4:
        return GroupKind.SET
    suits = {c.suit for c in naturals}
    ranks = [RANK_OF[c.code] for c in naturals]
    # Say why not, naming the most specific rule.
    if len(Counter(naturals)) < len(naturals) and (len(suits) == 1 or len(set(ranks)) == 1):
        raise InvalidGroupError("the same card sits twice in one group", rule="R-11")
    if len(suits) == 1 and len(set(ranks)) == len(ranks) and wraps(ranks, n):
        raise InvalidGroupError("a sequence cannot wrap from King to Ace to 2", rule="R-10")
    if len(set(ranks)) == 1 and n > 4:
        raise InvalidGroupError(f"a set has 3 or 4 cards, got {n}", rule="D-21")
    raise InvalidGroupError("neither a sequence of one suit nor a set of one rank", rule="D-21")


def parse_group_cards(texts: object, *, where: str) -> tuple[Card, ...]:
    """Cards of one shown group (a JSON list of card strings)."""
    if not isinstance(texts, list):
        raise MalformedHandError(f"{where} must be a list of cards")
    cards = []
    for t in texts:
        c = parse_card(t)
        if not (c.is_standard or c.is_joker):
            raise CardParseError(f"{where}: {t!r} is not a rummy card")
        cards.append(c)
    return tuple(cards)


def check_copies(cards: Iterable[Card], *, decks: int, jokers: int, where: str = "hand") -> None:
    """Raise :class:`MalformedHandError` if a card appears more often than the shoe holds."""
    for card, n in Counter(cards).items():
        limit = jokers if card.is_joker else decks
        if card.is_master:
            raise MalformedHandError(f"{where}: the master card is not a rummy card")
        if n > limit:
            raise MalformedHandError(
                f"{where}: {n} copies of {card}, but the shoe holds {limit}")


def parse_hand(texts: object, *, decks: int = 2, jokers: int = 2, size: int | None = 13,
               indicator: Card | None = None) -> tuple[Card, ...]:
    """A hand from card strings, checked: ``size`` cards, rummy cards only, copies within
    the shoe (the indicator counts against the shoe too)."""
    if not isinstance(texts, list):
        raise MalformedHandError("cards must be a JSON list of card strings")
    if size is not None and len(texts) != size:
        raise MalformedHandError(f"a hand has {size} cards, got {len(texts)}")
    cards = parse_group_cards(texts, where="cards")
    extra = (indicator,) if indicator is not None else ()
    check_copies(cards + extra, decks=decks, jokers=jokers)
    return cards
