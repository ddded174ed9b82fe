"""Cards and their text notation.

Encoding (documented here, where it is defined): every card is a small integer ``code``.

* ``0..51`` -- the standard 52: ``code = 13 * suit + (rank - 1)`` with ``Suit`` S=0, H=1,
  D=2, C=3 and ``Rank`` A=1 .. K=13.
* ``52`` -- the printed joker (the *putali* of Marriage, the printed joker of Rummy).
* ``53`` -- the master card (Marriage, ``marriage/nepal`` only, MN-1).

Code arithmetic lives here only: ``Card.rank`` / ``Card.suit`` give the enums, and the
tables ``RANK_OF`` / ``SUIT_OF`` give plain ints by code for tight loops (rank ``0`` and
suit ``-1`` for the joker and the master card, which have neither).

Text notation: rank then suit, ``A 2 3 4 5 6 7 8 9 T J Q K`` x ``S H D C`` (``7H``,
``TS``), ``JK`` for the printed joker and ``MC`` for the master card.  ``parse_card``
accepts exactly these spellings (upper case; ``10`` is accepted as an alias of ``T``)
and ``str`` writes them back, so ``parse_card(str(c)) == c`` for every card.

Cards from different decks of one shoe are identical values: a shoe is a multiset.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Sequence

from .errors import CardParseError


class Suit(IntEnum):
    """The four suits, in canonical shoe order."""

    S = 0  # spades
    H = 1  # hearts
    D = 2  # diamonds
    C = 3  # clubs

    @property
    def is_red(self) -> bool:
        return self in (Suit.H, Suit.D)


class Rank(IntEnum):
    """Ranks with Ace low (1); a game decides whether the Ace may also rank high."""

    A = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    T = 10
    J = 11
    Q = 12
    K = 13


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "SHDC"
JOKER_CODE = 52
MASTER_CODE = 53
#: each code's text (``str(card)``), made once: a record's cards are written as text often
_TEXTS: tuple[str, ...] = tuple(RANK_CHARS[c % 13] + SUIT_CHARS[c // 13] for c in range(52)) + ("JK", "MC")
#: each code's rank as an int, 1 (Ace) .. 13 (King); 0 for the joker and the master card
RANK_OF: tuple[int, ...] = tuple(c % 13 + 1 for c in range(52)) + (0, 0)
#: each code's suit as an int, 0 (S) .. 3 (C); -1 for the joker and the master card
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52)) + (-1, -1)
_RANK_ENUMS: tuple[Rank | None, ...] = tuple(Rank(r) for r in RANK_OF[:52]) + (None, None)
_SUIT_ENUMS: tuple[Suit | None, ...] = tuple(Suit(s) for s in SUIT_OF[:52]) + (None, None)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card, by its ``code`` (see the module docstring for the encoding)."""

    code: int

    def __post_init__(self) -> None:
        if isinstance(self.code, bool) or not (isinstance(self.code, int) and 0 <= self.code <= MASTER_CODE):
            raise CardParseError(f"no card has code {self.code!r}")

    @property
    def is_standard(self) -> bool:
        return self.code < JOKER_CODE

    @property
    def is_joker(self) -> bool:
        """The printed joker (putali)."""
        return self.code == JOKER_CODE

    @property
    def is_master(self) -> bool:
        return self.code == MASTER_CODE

    @property
    def rank(self) -> Rank | None:
        return _RANK_ENUMS[self.code]

    @property
    def suit(self) -> Suit | None:
        return _SUIT_ENUMS[self.code]

    def __str__(self) -> str:
        return _TEXTS[self.code]

    def __repr__(self) -> str:
        return f"parse_card({str(self)!r})"


def card_of(rank: Rank | int, suit: Suit | int) -> Card:
    """The standard card of ``rank`` and ``suit``."""
    return STANDARD[13 * int(suit) + int(rank) - 1]


STANDARD: tuple[Card, ...] = tuple(Card(i) for i in range(52))
JOKER = Card(JOKER_CODE)
MASTER = Card(MASTER_CODE)
ALL_CARDS: tuple[Card, ...] = STANDARD + (JOKER, MASTER)

_BY_TEXT: dict[str, Card] = {str(c): c for c in ALL_CARDS}
_BY_TEXT.update({"10" + s: _BY_TEXT["T" + s] for s in SUIT_CHARS})


def parse_card(text: object) -> Card:
    """Parse one card in the canonical notation; raises :class:`CardParseError` (for a
    value that is not a string too)."""
    if isinstance(text, str):
        card = _BY_TEXT.get(text)
        if card is not None:
            return card
    raise CardParseError(f"not a card: {text!r} (expected e.g. 7H, TS, JK, MC)")


def parse_card_list(texts: Sequence[str]) -> tuple[Card, ...]:
    """``parse_card`` of each text of a list, in order: one table look-up per card, and only for a
    text that is not a card the slow path that names it (:class:`CardParseError`)."""
    try:
        return tuple(map(_BY_TEXT.__getitem__, texts))
    except (KeyError, TypeError):
        return tuple(map(parse_card, texts))


def parse_cards(texts: Sequence[str] | str) -> tuple[Card, ...]:
    """Parse a list or tuple of cards, or one string of cards separated by spaces."""
    if isinstance(texts, str):
        texts = texts.split()
    elif not isinstance(texts, (list, tuple)):
        raise CardParseError(f"expected a list of cards, got {type(texts).__name__}")
    return parse_card_list(texts)


def card_texts(cards: Iterable[Card]) -> list[str]:
    """Each card's text (``[str(c) for c in cards]``), read from the table at once."""
    return [_TEXTS[c.code] for c in cards]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as one space-separated string (``parse_cards`` reads it back)."""
    return " ".join(str(c) for c in cards)


SUIT_SYMBOLS = "♠♥♦♣"  # in SUIT_CHARS order: S H D C


def card_symbol(card: Card) -> str:
    """A card for people: ``5♠``, ``10♥``, ``joker``, ``master card`` (not a notation: see ``str``)."""
    if card.code == JOKER_CODE:
        return "joker"
    if card.code == MASTER_CODE:
        return "master card"
    rank = RANK_CHARS[RANK_OF[card.code] - 1]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUIT_OF[card.code]]


def cards_symbols(cards: Iterable[Card]) -> str:
    """Cards for people, separated by spaces: ``5♠ 6♠ 7♠``."""
    return " ".join(card_symbol(c) for c in cards)
