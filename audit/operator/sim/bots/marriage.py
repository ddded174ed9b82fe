"""A seeded, reproducible Marriage bot: good enough to finish rounds, simple to read.

``choose_move(engine, state, rng)`` picks the move of the seat to move.  ``rng`` is any
object with ``randbelow(n)`` -- in tests a :class:`replay.stream.Stream` -- so the same
seed always plays the same game (the library never uses :mod:`random`).

The bot plays only on what its seat may know: its own hand, the table and the discards,
and the tiplu only once it sees it (``sees_maal``).  Its plan:

* before its first draw, lay every dealt tunnela (MN-19) and show straight from the
  dealt hand when it can (MN-20, MN-21);
* until it shows, keep the cards that make or nearly make pure sets (tunnelas, runs of
  one suit) and throw the least useful; a hand with six or more dublees and little else
  goes for seven dublees instead (MN-16, MC-18);
* show as soon as the hand holds the sets (MN-14): of a few ways to lay them, the one
  that leaves the most useful hand;
* once it sees the tiplu, keep every joker and look for a finish each turn: a fast own
  search of four combinations decides whether to ask :func:`~replay.marriage.finish.find_finish`
  for the authoritative one (D-7);
* take the latest discard only when it completes a set (or a dublee), and when allowed;
* now and then "time out": the table auto-plays the turn (draw from the stock, discard
  the card drawn), both moves flagged ``auto``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from replay.cards import MASTER_CODE, RANK_OF, SUIT_OF, Card
from replay.marriage.jokers import is_joker
from replay.marriage.moves import DISCARD, STOCK, DealtShow, Discard, Draw, Finish, Move, Show, TunnelaShow
from replay.marriage.shows import find_dublees, find_pure_sets
from replay.marriage.state import DRAW, RoundState, SeatState
from replay.melds import RUNS_OF_THREE, can_complete_run, is_run

TIMEOUT_ONE_IN = 60       # chance of an auto-played turn: 1 in 60 turns
DUBLEE_PAIRS = 6          # dublees needed in hand to go for seven dublees
SHOW_CHOICES = 4          # ways to lay a show that the bot compares
JOKER_VALUE = 100


class RandBelow(Protocol):
    def randbelow(self, n: int) -> int: ...


def choose_move(engine: Any, state: RoundState, rng: RandBelow) -> Move:
    """The bot's move for the seat to move in ``state``."""
    i = state.turn_seat
    me = state.seat(i)
    tiplu = state.tiplu if me.sees_maal else None
    jokers = _joker_set(me.hand, tiplu, engine.ruleset)
    if state.phase == DRAW:
        return _before_draw(engine, state, me, i, jokers, rng)
    if state.auto_turn and state.drawn is not None and state.drawn != state.taken:
        return Discard(i, state.drawn, auto=True)
    if me.has_shown:
        fin = _finish(engine, state, me, tiplu, jokers)
        if fin is not None:
            return fin
    if not me.has_shown:
        show = _show(engine, me, i, jokers, dealt=False)
        if show is not None:
            return show
    return Discard(i, _worst_card(engine, me, me.hand, jokers, avoid=state.taken))


# --- before the draw --------------------------------------------------------------------

def _before_draw(engine, state: RoundState, me: SeatState, i: int, jokers, rng) -> Move:
    if not me.has_drawn and not me.has_shown:
        counts = Counter(me.hand)
        if len(me.tunnelas_at_deal) < 3:
            for card in sorted(counts, key=lambda c: c.code):
                if counts[card] >= 3 and not card.is_master:
                    return TunnelaShow(i, (card, card, card))
        show = _show(engine, me, i, jokers, dealt=True)
        if show is not None:
            return show
    if me.has_drawn and state.stock and rng.randbelow(TIMEOUT_ONE_IN) == 0:
        return Draw(i, STOCK, auto=True)
    if engine.can_take_discard(state) and _wants(engine, state, me, state.discards[-1], jokers):
        return Draw(i, DISCARD, state.discards[-1])
    if state.stock:
        return Draw(i, STOCK)
    return Draw(i, DISCARD, state.discards[-1])


def _wants(engine, state: RoundState, me: SeatState, card: Card, jokers) -> bool:
    """Whether the latest discard is worth taking: it completes something."""
    if me.dublee:
        return card in me.hand                      # the eighth dublee (MC-19)
    tiplu = state.tiplu if me.sees_maal else None
    if is_joker(card, tiplu, engine.ruleset):
        return me.has_shown                         # a joker helps only the finish
    if _dublee_mode(engine, me):
        return Counter(me.hand)[card] == 1
    return _card_value(card, Counter(me.hand + (card,)), jokers, shown=me.has_shown) >= 12


# --- shows ------------------------------------------------------------------------------

def _n_pairs(hand) -> int:
    return sum(n // 2 for c, n in Counter(hand).items() if c.is_standard)


def _dublee_mode(engine, me: SeatState) -> bool:
    if me.dublee:
        return True
    if me.has_shown or not engine.ruleset["seven_dublees"] or me.tunnelas_at_deal:
        return False
    return _n_pairs(me.hand) >= DUBLEE_PAIRS and not find_pure_sets(me.hand, 2, limit=1)


def _show(engine, me: SeatState, i: int, jokers, *, dealt: bool) -> Move | None:
    make = DealtShow if dealt else Show
    need = 3 - len(me.tunnelas_at_deal)
    options = find_pure_sets(me.hand, need, limit=SHOW_CHOICES)
    if options:
        def left_value(sets) -> int:
            rest = Counter(me.hand)
            rest.subtract(c for s in sets for c in s)
            profile = _Profile(rest, jokers)
            return sum(_card_value(c, rest, jokers, shown=True, profile=profile) * n
                       for c, n in rest.items() if n > 0)
        best = max(options, key=left_value)
        return make(i, best)
    if engine.ruleset["seven_dublees"] and not me.tunnelas_at_deal:
        dub = find_dublees(me.hand, 7)
        if dub is not None:
            return make(i, dub)
    return None


# --- the finish -------------------------------------------------------------------------

def _finish(engine, state: RoundState, me: SeatState, tiplu, jokers) -> Move | None:
    if me.dublee:
        if not any(n >= 2 for n in Counter(me.hand).values()):
            return None
    elif not _can_finish(me.hand, frozenset(jokers)):
        return None
    fin = engine.find_finish(state)
    if fin is None:
        return None
    return Finish(state.turn_seat, fin.groups, fin.discard)


def _joker_set(hand, tiplu, ruleset) -> frozenset[Card]:
    return frozenset(c for c in set(hand) if is_joker(c, tiplu, ruleset))


def _valid3(a: int, b: int, c: int, jokers: frozenset[int]) -> bool:
    """Whether three cards (by code) are a finishing combination, by the rules of
    :func:`replay.marriage.combos.classify`; ``jokers`` are the joker codes."""
    if a == b == c and a != MASTER_CODE:
        return True                                             # tunnela
    if a < 52 and b < 52 and c < 52:
        sa, sb, sc = SUIT_OF[a], SUIT_OF[b], SUIT_OF[c]
        ra, rb, rc = RANK_OF[a], RANK_OF[b], RANK_OF[c]
        if sa == sb == sc and is_run((ra, rb, rc)):
            return True                                         # pure sequence
        if ra == rb == rc and len({sa, sb, sc}) == 3:
            return True                                         # trial
    wa, wb, wc = a in jokers, b in jokers, c in jokers
    n_wild = wa + wb + wc
    if n_wild >= 2:
        return True                                             # joker set
    if n_wild == 0:
        return False
    x, y = (b, c) if wa else (a, c) if wb else (a, b)
    if x == y or x >= 52 or y >= 52:
        return False                                            # MC-10
    if SUIT_OF[x] == SUIT_OF[y]:
        return can_complete_run(RANK_OF[x], RANK_OF[y])         # dirty sequence
    return RANK_OF[x] == RANK_OF[y]                             # dirty trial


def _can_finish(hand: tuple[Card, ...], jokers: frozenset[Card]) -> bool:
    """A fast test of whether ``hand`` (after the draw) splits into combinations + one
    discard: an exact cover of the hand's positions by valid triples with one position
    left over, searched over bit masks (each mask state is tried once)."""
    if len(hand) % 3 != 1:
        return False
    codes = sorted(c.code for c in hand)
    wild = frozenset(c.code for c in jokers)
    n = len(codes)
    full = (1 << n) - 1
    by_low: list[list[int]] = [[] for _ in range(n)]   # valid triples by their lowest position
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                if _valid3(codes[i], codes[j], codes[k], wild):
                    by_low[i].append((1 << i) | (1 << j) | (1 << k))
    failed: set[tuple[int, bool]] = set()

    def cover(mask: int, discarded: bool) -> bool:
        if mask == full:
            return discarded
        if (mask, discarded) in failed:
            return False
        low = (~mask & (mask + 1)).bit_length() - 1          # the lowest free position
        if not discarded and cover(mask | (1 << low), True):
            return True
        for triple in by_low[low]:
            if not triple & mask and cover(mask | triple, discarded):
                return True
        failed.add((mask, discarded))
        return False

    return cover(0, False)


# --- what to throw ----------------------------------------------------------------------

class _Profile:
    """The natural (non-joker) standard cards of a hand, by suit and by rank."""

    __slots__ = ("counts", "jokers", "ranks_in_suit", "suits_of_rank")

    def __init__(self, counts: Counter, jokers) -> None:
        self.counts = counts
        self.jokers = jokers
        self.ranks_in_suit: list[set[int]] = [set(), set(), set(), set()]
        self.suits_of_rank: list[set[int]] = [set() for _ in range(14)]
        for c, n in counts.items():
            if n > 0 and c.code < 52 and c not in jokers:
                rank, suit = RANK_OF[c.code], SUIT_OF[c.code]
                self.ranks_in_suit[suit].add(rank)
                self.suits_of_rank[rank].add(suit)


def _card_value(card: Card, counts: Counter, jokers, *, shown: bool, profile: _Profile | None = None) -> int:
    """How useful ``card`` is in a hand of ``counts``: higher is kept longer."""
    if card in jokers:
        return JOKER_VALUE
    if card.code >= 52:
        return 15
    profile = profile or _Profile(counts, jokers)
    v = 0
    copies = counts[card]
    if copies >= 3:
        v += 12
    elif copies == 2:
        v += 4
    rank, suit = RANK_OF[card.code], SUIT_OF[card.code]
    near = profile.ranks_in_suit[suit]
    for window in RUNS_OF_THREE:
        if rank in window:
            present = (window[0] in near) + (window[1] in near) + (window[2] in near)
            if present == 3:
                v += 12
            elif present == 2:
                v += 3
    if shown:
        suits = len(profile.suits_of_rank[rank])
        if suits >= 3:
            v += 12
        elif suits == 2:
            v += 3
    return v


def _discard_values(engine, me: SeatState, hand, jokers, *, avoid: Card | None) -> dict[Card, tuple[int, int]]:
    """Each card the seat may throw, with its worth to keep (lowest thrown first)."""
    counts = Counter(hand)
    dublee = _dublee_mode(engine, me)
    profile = _Profile(counts, jokers)

    def value(card: Card) -> tuple[int, int]:
        v = _card_value(card, counts, jokers, shown=me.has_shown, profile=profile)
        if dublee and counts[card] >= 2:
            v += 30
        return (v, -card.code)

    choices = [c for c in counts if c != avoid] or list(counts)
    return {c: value(c) for c in choices}


def _worst_card(engine, me: SeatState, hand, jokers, *, avoid: Card | None) -> Card:
    values = _discard_values(engine, me, hand, jokers, avoid=avoid)
    return min(values, key=values.__getitem__)


# --- a superuser and a colluding seat (docs/collusion.md) -------------------------------

#: How much worth to keep (``_card_value``: 3 for a card that half-makes a set) a superuser
#: or a colluding seat gives up, over the honest bot's discard, to starve or feed the next seat.
DISCARD_SLACK = 3
#: What a superuser counts a joker of the real tiplu, against a card's use (0, 1, 2).
JOKER_USE = 3


def _near_worst(engine, state: RoundState, seat: int) -> tuple[Card, list[Card]]:
    """The honest discard of ``seat`` and every card whose worth to keep is within
    :data:`DISCARD_SLACK` of it (the honest one first)."""
    me = state.seat(seat)
    jokers = _joker_set(me.hand, state.tiplu if me.sees_maal else None, engine.ruleset)
    values = _discard_values(engine, me, me.hand, jokers, avoid=state.taken)
    honest = min(values, key=values.__getitem__)
    near = [c for c in sorted(values, key=values.__getitem__) if values[c][0] <= values[honest][0] + DISCARD_SLACK]
    return honest, near


def _is_real_discard(move: Move) -> bool:
    return type(move) is Discard and not move.auto


def choose_peeking(engine, state: RoundState, rng: RandBelow) -> Move:
    """A superuser's move: it sees the stock's top card, every hand and the tiplu before it
    has seen it.

    * at a draw where it may take either card it values a joker of the real tiplu (the
      putali and the master card before the first show, MN-28) at :data:`JOKER_USE` and every other card at its use to its sets
      (:func:`replay.marriage.signals.use_of`), and takes the latest discard when that is
      worth more than the hidden card, the stock otherwise;
    * at a discard, of the cards within :data:`DISCARD_SLACK` of its honest discard, it throws
      the one of least use to the next seat's real hand (the honest one among equals);
    * every other move is the honest bot's."""
    from replay.marriage.discard_joker_signals import next_seat
    from replay.marriage.signals import seat_use

    move = choose_move(engine, state, rng)
    if _is_real_discard(move):
        nxt = next_seat(engine, state, move.seat)
        if nxt == move.seat:
            return move
        use = seat_use(engine, state, nxt)
        honest, near = _near_worst(engine, state, move.seat)
        return Discard(move.seat, min(near, key=lambda c: (use(c), c != honest)))
    if not isinstance(move, Draw) or move.auto or not state.stock or not engine.can_take_discard(state):
        return move
    use = seat_use(engine, state, move.seat)

    def worth(card: Card) -> int:
        return JOKER_USE if is_joker(card, state.tiplu, engine.ruleset) else use(card)

    top = state.discards[-1]
    if worth(top) > worth(state.stock[0]):
        return Draw(move.seat, DISCARD, top)
    return Draw(move.seat, STOCK)


def choose_joker_peeking(engine, state: RoundState, rng: RandBelow) -> Move:
    """A joker hunter (``docs/collusion.md``, ``marriage.joker``): told only whether the
    stock's top card is a joker of the real tiplu (the putali and the master card before
    the first show, MN-28), before it has seen the tiplu too.  At a draw where it may take
    either card it takes the stock when the top card is a joker, and otherwise the latest
    discard whenever that is of some use to its sets (a half-made set), the stock when not;
    every other move is the honest bot's."""
    from replay.marriage.signals import seat_use

    move = choose_move(engine, state, rng)
    if not isinstance(move, Draw) or move.auto or not state.stock or not engine.can_take_discard(state):
        return move
    if is_joker(state.stock[0], state.tiplu, engine.ruleset):
        return Draw(move.seat, STOCK)
    top = state.discards[-1]
    if seat_use(engine, state, move.seat)(top) >= 1:
        return Draw(move.seat, DISCARD, top)
    return Draw(move.seat, STOCK)


def choose_colluding(engine, state: RoundState, rng: RandBelow, partner: int) -> Move:
    """The move of a seat that sees ``partner``'s hand (:mod:`audit.operator.sim.collude`):
    when the partner draws next, of the cards within :data:`DISCARD_SLACK` of its honest
    discard it throws the one of most use to the partner's sets as the partner knows them
    (the honest one among equals); every other move is the honest bot's."""
    from replay.marriage.discard_joker_signals import next_seat
    from replay.marriage.signals import seat_use

    move = choose_move(engine, state, rng)
    if not _is_real_discard(move) or next_seat(engine, state, move.seat) != partner:
        return move
    use = seat_use(engine, state, partner)
    honest, near = _near_worst(engine, state, move.seat)
    return Discard(move.seat, max(near, key=lambda c: (use(c), c == honest)))
