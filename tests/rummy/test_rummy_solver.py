"""The minimum-points solver against a plain exhaustive search, and hand-counted hands.

The exhaustive search below shares no code with the solver: its group test tries every
suit, every window of positions and every Ace placement, and it tries every partition of
the hand (bitmask dynamic programming over subsets).
"""
from collections import Counter
from functools import lru_cache
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replay.cards import JOKER, card_of, parse_cards
from replay.rummy.groups import GroupKind, card_points, classify_group
from replay.rummy.solver import solve


# ---------------------------------------------------------------- exhaustive search
def _value(card, wild):
    if card.is_joker or card.rank == wild:
        return 0
    r = int(card.rank)
    return 10 if r == 1 or r >= 10 else r


@lru_cache(maxsize=None)
def _kind(cards, wild):
    """'pure' / 'impure' / 'set' / None, by trying every layout."""
    n = len(cards)
    if n < 3:
        return None
    nat = [c for c in cards if not (c.is_joker or c.rank == wild)]
    if len({c.suit for c in nat}) > 1 and len({c.rank for c in nat}) > 1:
        return None  # neither one suit nor one rank: no layout can work
    best = None
    for suit in range(4):
        for lo in range(1, 15 - n + 1):
            window = set(range(lo, lo + n))
            if len(window) > 13:
                continue
            # pure: every card (wild-rank cards as themselves) exactly fills the window
            if all(c.is_standard and c.suit == suit for c in cards):
                for aces in product(*[(1, 14) if c.rank == 1 else (int(c.rank),) for c in cards]):
                    if set(aces) == window and len(aces) == n:
                        return "pure"
            if all(c.suit == suit for c in nat):
                for aces in product(*[(1, 14) if c.rank == 1 else (int(c.rank),) for c in nat]):
                    if len(set(aces)) == len(aces) and set(aces) <= window:
                        best = "impure"
    if best:
        return best
    if n <= 4 and len({c.rank for c in nat}) <= 1 and len({c.suit for c in nat}) == len(nat):
        return "impure" if not nat else "set"
    return None


def brute_points(cards, wild, high=10):
    cards = list(cards)
    n = len(cards)
    total = sum(_value(c, wild) for c in cards)
    kinds = {}
    for mask in range(1, 1 << n):
        if bin(mask).count("1") >= 3:
            k = _kind(tuple(sorted(cards[i] for i in range(n) if mask >> i & 1)), wild)
            if k:
                kinds[mask] = k
    val = {m: sum(_value(cards[i], wild) for i in range(n) if m >> i & 1) for m in kinds}
    by_low = {}
    for g, k in kinds.items():
        by_low.setdefault(g & -g, []).append((g, k))

    @lru_cache(maxsize=None)
    def best(mask):
        """state (sequences capped at 2, has pure) -> most covered points."""
        if not mask:
            return {(0, 0): 0}
        low = mask & -mask
        out = dict(best(mask ^ low))
        for g, k in by_low.get(low, ()):
            if g & mask == g:
                for (r, p), v in best(mask ^ g).items():
                    key = (min(2, r + (k != "set")), p | (k == "pure"))
                    if out.get(key, -1) < v + val[g]:
                        out[key] = v + val[g]
        return out

    full = best((1 << n) - 1)
    cands = [total]
    if full.get((2, 1)) is not None:
        cands.append(total - full[(2, 1)])
    pure = [val[g] for g, k in kinds.items() if k == "pure"]
    if pure:
        cands.append(total - max(pure))
    return min(cands)


# ---------------------------------------------------------------- strategies
@st.composite
def dense_hands(draw, max_cards=10, decks=2):
    """Hands drawn from a narrow slice of a shoe, so groups are likely."""
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    lo = draw(st.integers(1, 13))
    width = draw(st.integers(3, 7))
    ranks = sorted({(lo + i - 1) % 13 + 1 for i in range(width)})
    shoe = [card_of(r, s) for r in ranks for s in suits for _ in range(decks)] + [JOKER] * decks
    n = draw(st.integers(3, min(max_cards, len(shoe))))
    idx = draw(st.lists(st.integers(0, len(shoe) - 1), min_size=n, max_size=n, unique=True))
    wild = draw(st.sampled_from([None] + list(range(1, 14)) + ranks))
    return [shoe[i] for i in idx], wild


def check_solution(cards, wild, sol):
    """The returned grouping is real: same cards, valid groups, and it counts sol.points."""
    flat = [c for g in sol.groups for c in g] + list(sol.loose)
    assert Counter(flat) == Counter(cards)
    kinds = [classify_group(g, wild) for g in sol.groups]
    loose_points = sum(card_points(c, wild) for c in sol.loose)
    if sol.case == "two_sequences":  # rule R-15: only loose cards count
        assert sum(k.is_sequence for k in kinds) >= 2 and GroupKind.PURE_SEQUENCE in kinds
        assert loose_points == sol.points
    elif sol.case == "pure_only":  # rule R-15: one pure run excused
        assert kinds == [GroupKind.PURE_SEQUENCE] and loose_points == sol.points
    else:  # rule R-15: every card counts
        assert sol.points == sum(card_points(c, wild) for c in cards)


# rules, D-22: the solver's minimum equals the exhaustive minimum
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_hands())
def test_solver_matches_exhaustive_search(hand):
    cards, wild = hand
    sol = solve(cards, wild)
    assert sol.points == brute_points(cards, wild)
    check_solution(cards, wild, sol)


# rules, D-18: three-deck shoes (eight seats) hold three copies and three jokers
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_hands(max_cards=9, decks=3))
def test_solver_matches_exhaustive_search_three_decks(hand):
    cards, wild = hand
    sol = solve(cards, wild)
    assert sol.points == brute_points(cards, wild)
    check_solution(cards, wild, sol)


@st.composite
def full_hands(draw):
    """13 cards from a real shuffled two-deck shoe with two jokers, and the indicator."""
    shoe = [card_of(r, s) for r in range(1, 14) for s in range(4)] * 2 + [JOKER, JOKER]
    idx = draw(st.lists(st.integers(0, len(shoe) - 1), min_size=14, max_size=14, unique=True))
    ind = shoe[idx[13]]
    return [shoe[i] for i in idx[:13]], (None if ind.is_joker else int(ind.rank))


# rules, D-22: whole random 13-card hands
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_hands())
def test_solver_matches_exhaustive_search_on_random_deals(hand):
    cards, wild = hand
    sol = solve(cards, wild)
    assert sol.points == brute_points(cards, wild)
    check_solution(cards, wild, sol)


HARD = [
    # several jokers, two-deck duplicates, long runs, Ace at both ends
    ("AH 2H 3H QH KH AH JK JK 7S 7D 5C 5C 5D", 7),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9D TD JD QD KD", None),
    ("9S TS JS QS KS AS 2H 3H 4H 5H 6H 7H 8H", 2),
    ("AS 2S 3S 4S 5S 6S 7S 8S 9D TD JD QD KD", 5),
    ("AS AS 2S 2S 3S 3S QS QS KS KS JK JK 9D", None),
    ("2H 3H 4H 4H 5H 6H 6H 7H 8H 9C 9C 9D JK", 9),
    ("KC AC 2C KD AD 2D KH AH 2H KS AS 2S JK", 12),
    ("QD KD AD AD 2D 3D 4D 4S 4C 4H TC TC TC", 4),
    ("5S 5H 5D 5C 5S 5H 6S 7S 8S 6H 7H 8H 8H", 13),
    ("JK JK JK 4D 4D 4D 9C TC JC QC KS KS KS", 2),  # three decks: triples and three jokers
    ("AD AD AD 2D 2D 3D 3D QD KD KD JK 5H 5H", None),
]


# rules, D-22: hand-built hard cases agree with the exhaustive search
@pytest.mark.parametrize("text,wild", HARD)
def test_hard_hands_match_exhaustive_search(text, wild):
    cards = parse_cards(text)
    sol = solve(cards, wild)
    assert sol.points == brute_points(cards, wild)
    check_solution(cards, wild, sol)
