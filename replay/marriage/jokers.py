"""The role of each card once the tiplu is known, and which cards are jokers.

Words (as the rule files spell them), with tiplu ♥7 as the example (MN-23..MN-26):

* **tiplu** -- the card drawn at the first show (MN-15, MC-15); the other copies of it
  (♥7) are tiplu too.
* **poplu** / **jhiplu** -- same suit, one rank up / down (♥8 / ♥6). Ranks wrap: under
  tiplu ♥K the poplu is ♥A and the jhiplu ♥Q; under ♥A the jhiplu is ♥K (MN-24, MC-3).
* **alter** (``nepal``) -- same rank, the other suit of the same colour (♦7, MN-25).
* **man** (``nepal``) -- same rank, the two suits of the other colour (♣7, ♠7, MN-26):
  jokers worth 0.
* **ordinary joker** (``classic``) -- every other-suit card of the tiplu's rank (MC-3).
* **putali** (printed joker) and the **master card** (``nepal``) -- jokers from the deal,
  with or without a tiplu (MN-28).

Which cards are jokers (may stand for a missing card in a finishing combination):

* ``nepal`` (MN-32, MN-26): every card with a role -- tiplu, poplu, jhiplu, alter, man,
  putali, master.
* ``classic`` (MC-3): the tiplu's rank in all suits (tiplu + ordinary jokers), poplu and
  jhiplu.
* Before the tiplu is drawn, or for a player who has not seen it (``tiplu=None``), only
  putali and the master card are jokers: the tiplu is hidden from that player, so no
  other card can act as a joker for them.

Decision (the texts are silent): the ``nepal`` stock holds the putali and the master
card, so the card drawn as tiplu may be one of them. Such a tiplu names no rank or suit:
then no standard card gets a role, and putali/master keep theirs.
"""
from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Iterable

from ..cards import ALL_CARDS, RANK_OF, SUIT_OF, Card, Rank, Suit
from ..rulesets import Ruleset

__all__ = ["Role", "role_of", "role_table", "joker_table", "is_joker", "is_nepal", "poplu_rank", "jhiplu_rank", "roles_of"]


class Role(StrEnum):
    """What a card is under a given tiplu. The values are the keys of ``maal_table``."""

    TIPLU = "tiplu"
    POPLU = "poplu"
    JHIPLU = "jhiplu"
    ALTER = "alter"
    MAN = "man"
    ORDINARY_JOKER = "ordinary_joker"
    PUTALI = "putali"
    MASTER = "master"
    NONE = "none"


def is_nepal(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` follows the Nepali table (alter/man, putali, master)."""
    return ruleset.preset == "marriage/nepal"


def poplu_rank(rank: int) -> Rank:
    """One rank up, the King wrapping to the Ace (MN-24, MC-3)."""
    return Rank(rank % 13 + 1)


def jhiplu_rank(rank: int) -> Rank:
    """One rank down, the Ace wrapping to the King (MN-24, MC-3)."""
    return Rank((rank - 2) % 13 + 1)


def _compute_role(card: Card, tiplu: Card | None, nepal: bool) -> Role:
    if card.is_joker:
        return Role.PUTALI
    if card.is_master:
        return Role.MASTER
    if tiplu is None or not tiplu.is_standard:
        return Role.NONE
    # both standard cards here: their rank (1-13) and suit (0-3) as ints
    t_rank, t_suit = RANK_OF[tiplu.code], SUIT_OF[tiplu.code]
    rank, suit = RANK_OF[card.code], SUIT_OF[card.code]
    if suit == t_suit:
        if rank == t_rank:
            return Role.TIPLU
        if rank == poplu_rank(t_rank):
            return Role.POPLU
        if rank == jhiplu_rank(t_rank):
            return Role.JHIPLU
        return Role.NONE
    if rank != t_rank:
        return Role.NONE
    if not nepal:
        return Role.ORDINARY_JOKER
    return Role.ALTER if Suit(suit).is_red == Suit(t_suit).is_red else Role.MAN


@lru_cache(maxsize=None)
def _role_table(tiplu_code: int | None, nepal: bool) -> tuple[Role, ...]:
    """The role of every card code under one tiplu (computed once per tiplu and preset)."""
    tiplu = None if tiplu_code is None else ALL_CARDS[tiplu_code]
    return tuple(_compute_role(c, tiplu, nepal) for c in ALL_CARDS)


def role_table(tiplu: Card | None, ruleset: Ruleset) -> tuple[Role, ...]:
    """The role of every card, indexed by card code (``role_table(t, rs)[c.code]``)."""
    return _role_table(None if tiplu is None else tiplu.code, is_nepal(ruleset))


def role_of(card: Card, tiplu: Card | None, ruleset: Ruleset) -> Role:
    """The role of ``card`` when the tiplu is ``tiplu`` (``None``: not drawn / not seen)."""
    return _role_table(None if tiplu is None else tiplu.code, is_nepal(ruleset))[card.code]


@lru_cache(maxsize=None)
def _joker_table(tiplu_code: int | None, nepal: bool) -> tuple[bool, ...]:
    return tuple(role is not Role.NONE for role in _role_table(tiplu_code, nepal))


def joker_table(tiplu: Card | None, ruleset: Ruleset) -> tuple[bool, ...]:
    """Whether each card code is a joker (:func:`is_joker`), indexed by code."""
    return _joker_table(None if tiplu is None else tiplu.code, is_nepal(ruleset))


def is_joker(card: Card, tiplu: Card | None, ruleset: Ruleset) -> bool:
    """Whether ``card`` may stand in for another card (MN-32, MN-26, MC-3, MN-28).

    In both presets this is exactly "the card has a role": the roles of ``nepal``
    (tiplu, poplu, jhiplu, alter, man, putali, master) are all jokers, and so are those of
    ``classic`` (tiplu, poplu, jhiplu, ordinary joker).
    """
    return _joker_table(None if tiplu is None else tiplu.code, is_nepal(ruleset))[card.code]


def roles_of(cards: Iterable[Card], tiplu: Card | None, ruleset: Ruleset) -> tuple[Role, ...]:
    """``role_of`` for each card, in order."""
    return tuple(role_of(c, tiplu, ruleset) for c in cards)
