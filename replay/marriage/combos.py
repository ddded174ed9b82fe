"""Marriage combinations: what they are, and the checks for showing and finishing.

Sequences and sets themselves (the Ace low or high, never K-A-2; one rank in different
suits) are the shared :mod:`replay.melds`; this module adds what only Marriage has.
Glossary (the rule files' own words; ``classic`` words in brackets where they differ):

* **set / combination** -- three cards laid or held together. In Marriage every
  combination has exactly three cards (MC heading, MN-14).
* **tunnela** -- three identical cards: same rank and same suit (MN-7, MC-4). Possible
  because the shoe has three decks. Three putali are a tunnela too (MN-31).
* **pure sequence** -- three consecutive cards of one suit, no joker standing in
  (MN-8, MC-5). The Ace is below the 2 or above the King, never both: A-2-3 and Q-K-A
  are sequences, K-A-2 is not (MN-12, MC-9). A maal card is also its own ordinary card,
  so ♥6-♥7-♥8 is pure even under tiplu ♥7 (MN-13).
* **dirty sequence** -- two cards of one suit plus a joker standing for the third card
  of a run (MN-10, MC-6).
* **trial** [triplet] -- three cards of one rank in three *different* suits (MN-11,
  MC-7); ♠9-♠9-♣9 is not one.
* **dirty trial** [dirty triplet] -- two cards of one rank in different suits plus a
  joker (MC-8).
* **joker set** -- any three cards of which two or more are jokers (MC-6, MC-8, D-7).
* **dublee** -- two identical cards (MN-9, MC-18); jokers are never wild in dublees.
* **joker** -- a card that may stand for any other; which cards are jokers depends on the
  tiplu and on who has seen it (see :mod:`replay.marriage.jokers`).
* **show** -- laying three pure sets (tunnelas or pure sequences, exactly three cards
  each) at once to see the tiplu (MN-14, MC-15); a tunnela laid at the deal counts as one
  of the three (MN-19, MN-21). Trials never show (MN-11); a joker never stands in a shown
  set (MN-10), except the master card at tables that set ``master_in_pure``.
* **dublee show** -- seven dublees laid at once instead (MN-16, MC-18).
* **finishing combination** -- any valid three-card combination above (D-7, MC-20),
  never two identical cards plus a joker (MC-10) and never K-A-2.

Reading a set (``classify``) tries the natural meanings first -- tunnela, pure sequence,
trial -- then a dirty sequence or dirty trial with one joker standing in, then a joker
set. Two identical cards with one other card are a combination only when at least two of
the three are jokers (then it is a joker set: "any three cards of which two are jokers").
"""
from __future__ import annotations

from enum import StrEnum
from typing import Sequence

from ..cards import RANK_OF, Card
from ..errors import IllegalMoveError, MalformedError
from ..melds import can_fill_sequence, is_pure_sequence, is_set, wraps
from ..rulesets import Ruleset
from .jokers import is_joker, is_nepal, joker_table

__all__ = [
    "Kind", "classify", "kind_word", "check_show_set",
    "check_show", "check_tunnela_at_deal", "check_dublee_show", "check_finish_set",
    "SHOW_KINDS",
]


class Kind(StrEnum):
    """The kinds of combination (values are the wire names)."""

    TUNNELA = "tunnela"
    PURE_SEQUENCE = "pure_sequence"
    DIRTY_SEQUENCE = "dirty_sequence"
    TRIAL = "trial"
    DIRTY_TRIAL = "dirty_trial"
    JOKER_SET = "joker_set"
    DUBLEE = "dublee"


SHOW_KINDS = frozenset({Kind.TUNNELA, Kind.PURE_SEQUENCE})
_CLASSIC_WORDS = {Kind.TRIAL: "triplet", Kind.DIRTY_TRIAL: "dirty triplet"}


def kind_word(kind: Kind, ruleset: Ruleset) -> str:
    """The ruleset's own word for ``kind`` (``classic`` says triplet for trial)."""
    if not is_nepal(ruleset) and kind in _CLASSIC_WORDS:
        return _CLASSIC_WORDS[kind]
    return kind.value.replace("_", " ")


#: answers kept by card codes (a card is its code; every answer below is a function of the
#: codes, the tiplu's code and the preset alone), bounded: three cards have 54**3 orders
_MEMO_LIMIT = 1 << 16
_NATURAL: dict[int, "Kind | None"] = {}
_CLASSIFIED: dict[tuple[int | None, bool], dict[int, "Kind | None"]] = {}


def _natural_kind(a: Card, b: Card, c: Card) -> Kind | None:
    """Tunnela, pure sequence or trial with every card as itself (MN-13)
    (:func:`_natural_kind_of`, kept by the three codes in order)."""
    key = (a.code * 54 + b.code) * 54 + c.code
    try:
        return _NATURAL[key]
    except KeyError:
        pass
    kind = _natural_kind_of(a, b, c)
    if len(_NATURAL) < _MEMO_LIMIT:
        _NATURAL[key] = kind
    return kind


def _natural_kind_of(a: Card, b: Card, c: Card) -> Kind | None:
    """Tunnela, pure sequence or trial with every card as itself (MN-13)."""
    if a.code == b.code == c.code and not a.is_master:   # by code: int comparisons, as Card.__eq__
        return Kind.TUNNELA
    if is_pure_sequence((a, b, c)):
        return Kind.PURE_SEQUENCE
    if is_set((a, b, c)):
        return Kind.TRIAL
    return None


def _one_joker_kind(x: Card, y: Card) -> Kind | None:
    """What two natural cards make with one joker standing in."""
    if x.code == y.code:
        return None  # two identical cards + a joker is never valid (MC-10)
    if can_fill_sequence((x, y), 3):
        return Kind.DIRTY_SEQUENCE
    if is_set((x, y)):
        return Kind.DIRTY_TRIAL
    return None


def classify(cards: Sequence[Card], *, tiplu: Card | None, ruleset: Ruleset) -> Kind | None:
    """The kind of a three-card combination (or of a two-card dublee), or ``None``.

    ``tiplu`` is the tiplu as the holder knows it (``None`` before they have seen): it
    decides which cards are jokers (:func:`replay.marriage.jokers.is_joker`).
    """
    if len(cards) == 2:
        return Kind.DUBLEE if cards[0].code == cards[1].code else None
    if len(cards) != 3:
        return None
    a, b, c = cards
    table = (None if tiplu is None else tiplu.code, is_nepal(ruleset))   # all classify reads of them
    memo = _CLASSIFIED.get(table)
    if memo is None:
        if len(_CLASSIFIED) >= 2 * 55:   # every tiplu (or none) of both kinds: never, in practice
            _CLASSIFIED.clear()
        memo = _CLASSIFIED[table] = {}
    key = (a.code * 54 + b.code) * 54 + c.code
    try:
        return memo[key]
    except KeyError:
        pass
    kind = _classify_three(a, b, c, tiplu=tiplu, ruleset=ruleset)
    if len(memo) < _MEMO_LIMIT:
        memo[key] = kind
    return kind


def _classify_three(a: Card, b: Card, c: Card, *, tiplu: Card | None, ruleset: Ruleset) -> Kind | None:
    """:func:`classify` of three cards, worked out."""
    cards = (a, b, c)
    natural = _natural_kind(a, b, c)
    if natural is not None:
        return natural
    jokers = joker_table(tiplu, ruleset)
    wild = [jokers[x.code] for x in cards]
    found: Kind | None = None
    for i in range(3):
        if wild[i]:
            x, y = (cards[j] for j in range(3) if j != i)
            kind = _one_joker_kind(x, y)
            if kind is Kind.DIRTY_SEQUENCE:
                return kind
            found = found or kind
    if found is not None:
        return found
    if sum(wild) >= 2:
        return Kind.JOKER_SET
    return None


def _rule(ruleset: Ruleset, nepal: str, classic: str) -> str:
    return nepal if is_nepal(ruleset) else classic


def check_show_set(cards: Sequence[Card], *, ruleset: Ruleset) -> Kind:
    """The kind of one shown set; raises :class:`IllegalMoveError` unless it is pure.

    A shown set is a tunnela or a pure sequence of exactly three cards (MN-14, MC-15),
    with every card as itself: the shower has not seen the tiplu, and a maal card is also
    its own ordinary card (MN-13). Trials never show (MN-11). A putali never stands in a
    shown set (MN-10); the master card may fill a sequence's gap only with the setting
    ``master_in_pure`` (MN-10).
    """
    cards = tuple(cards)
    if len(cards) != 3:
        raise IllegalMoveError(f"a shown set has exactly three cards, not {len(cards)}",
                               rule=_rule(ruleset, "MN-14", "MC-15"))
    natural = _natural_kind(*cards)
    if natural in SHOW_KINDS:
        return natural
    if natural is Kind.TRIAL:
        raise IllegalMoveError("a trial never counts as a show set", rule=_rule(ruleset, "MN-11", "MC-15"))
    others = [c for c in cards if not c.is_master]
    if len(others) == 2 and ruleset["master_in_pure"]:
        x, y = others
        if _one_joker_kind(x, y) is Kind.DIRTY_SEQUENCE:
            return Kind.PURE_SEQUENCE
    if any(not c.is_standard for c in cards):
        raise IllegalMoveError("a joker never stands in a shown set", rule=_rule(ruleset, "MN-10", "MC-15"))
    ranks = {RANK_OF[c.code] for c in cards}   # all standard here
    if len({c.suit for c in cards}) == 1 and len(ranks) == 3 and wraps(ranks, 3):
        raise IllegalMoveError("K-A-2 is not a sequence", rule=_rule(ruleset, "MN-12", "MC-9"))
    raise IllegalMoveError("a shown set must be a tunnela or a pure sequence",
                           rule=_rule(ruleset, "MN-14", "MC-15"))


def check_show(sets: Sequence[Sequence[Card]], *, ruleset: Ruleset,
               tunnelas_at_deal: int = 0) -> tuple[Kind, ...]:
    """Check a three-set show; returns the kind of each set laid now.

    ``sets`` are the sets laid in this show move; ``tunnelas_at_deal`` how many tunnelas
    the player already laid before the first draw -- each counts as one of the three
    (MN-19), so ``3 - tunnelas_at_deal`` sets are needed now, none after three (MN-21).
    """
    if not isinstance(tunnelas_at_deal, int) or not 0 <= tunnelas_at_deal <= 3:
        raise MalformedError(f"tunnelas_at_deal must be 0..3, got {tunnelas_at_deal!r}")
    needed = 3 - tunnelas_at_deal
    if len(sets) != needed:
        rule = "MN-19" if tunnelas_at_deal else "MN-14"
        raise IllegalMoveError(
            f"a show lays exactly {needed} set(s) here ({tunnelas_at_deal} tunnela(s) laid at the deal), "
            f"not {len(sets)}", rule=_rule(ruleset, rule, "MC-15"))
    return tuple(check_show_set(s, ruleset=ruleset) for s in sets)


def check_tunnela_at_deal(cards: Sequence[Card], *, ruleset: Ruleset) -> Kind:
    """A tunnela laid before the first draw: exactly three identical cards (MN-19, MC-13)."""
    cards = tuple(cards)
    if len(cards) != 3 or _natural_kind(*cards) is not Kind.TUNNELA:
        raise IllegalMoveError("only a tunnela (three identical cards) may be laid at the deal",
                               rule=_rule(ruleset, "MN-19", "MC-13"))
    return Kind.TUNNELA


def check_dublee_show(pairs: Sequence[Sequence[Card]], *, ruleset: Ruleset) -> None:
    """Check a seven-dublee show: seven pairs of identical cards, no joker wild (MN-16, MC-18)."""
    rule = _rule(ruleset, "MN-16", "MC-18")
    if not ruleset["seven_dublees"]:
        raise IllegalMoveError("this table does not allow a dublee show", rule=rule)
    if len(pairs) != 7:
        raise IllegalMoveError(f"a dublee show lays exactly seven dublees, not {len(pairs)}", rule=rule)
    for pair in pairs:
        if len(pair) != 2 or pair[0] != pair[1]:
            raise IllegalMoveError(
                f"a dublee is two identical cards (jokers are never wild in dublees): "
                f"{' '.join(map(str, pair))}", rule=rule)


def check_finish_set(cards: Sequence[Card], *, tiplu: Card | None, ruleset: Ruleset) -> Kind:
    """The kind of one finishing combination; raises :class:`IllegalMoveError` if invalid.

    Any valid three-card combination finishes (D-7, MC-20): tunnela, pure or dirty
    sequence, trial, dirty trial, joker set. Never two identical cards plus a joker
    (MC-10) and never K-A-2 (MN-12, MC-9). A maal card may be itself (MN-13).
    """
    cards = tuple(cards)
    kind = classify(cards, tiplu=tiplu, ruleset=ruleset) if len(cards) == 3 else None
    if kind is not None:
        return kind
    if len(cards) != 3:
        raise IllegalMoveError(f"a finishing combination has exactly three cards, not {len(cards)}",
                               rule=_rule(ruleset, "D-7", "MC-20"))
    wild = [is_joker(c, tiplu, ruleset) for c in cards]
    naturals = [c for c, w in zip(cards, wild) if not w]
    if len(naturals) == 2 and naturals[0] == naturals[1]:
        raise IllegalMoveError("two identical cards plus a joker is not a combination",
                               rule=_rule(ruleset, "D-7", "MC-10"))
    if (all(c.is_standard for c in naturals) and len({c.suit for c in naturals}) == 1
            and wraps({RANK_OF[c.code] for c in naturals}, 3)):
        raise IllegalMoveError("K-A-2 is not a sequence (the Ace sits at one end only)",
                               rule=_rule(ruleset, "MN-12", "MC-9"))
    raise IllegalMoveError(f"not a valid combination: {' '.join(map(str, cards))}", rule="D-7")
