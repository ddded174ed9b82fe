"""Canonical shoes and deal layouts against the rule text (replay/shoes.py, replay/deal.py)."""
from collections import Counter

import pytest

from replay.cards import JOKER, MASTER, STANDARD, parse_cards
from replay.deal import deal, left_of, seat_order
from replay.errors import RulesetError
from replay.fairness import hand_randomness
from replay.rulesets import resolve
from replay.shoes import canonical_shoe

SERVER = bytes(range(32))


def seeds(n):
    return [bytes([i]) * 16 for i in range(n)]


def test_marriage_nepal_shoe():  # rule MN-1: 3 decks + 3 putali + 1 master = 160
    shoe = canonical_shoe(resolve("marriage/nepal"), 4)
    assert len(shoe) == 160
    c = Counter(shoe)
    assert c[JOKER] == 3 and c[MASTER] == 1 and all(c[x] == 3 for x in STANDARD)


def test_marriage_classic_shoe():  # rule MC-1: three packs, 156 cards, no printed jokers
    shoe = canonical_shoe(resolve("marriage/classic"), 5)
    assert len(shoe) == 156 and JOKER not in shoe and MASTER not in shoe


def test_kitti_shoe():  # rule D-12: one 52-card deck
    assert canonical_shoe(resolve("kitti"), 3) == STANDARD


@pytest.mark.parametrize("n,size", [(2, 106), (4, 106), (6, 106), (7, 159), (8, 159)])
def test_rummy_shoe_by_table_size(n, size):  # rules D-18, R-4: 106 for 2-6 seats, 159 for 7-8
    rs = resolve("rummy13", {"players": {"allowed": [2, 3, 4, 5, 6, 7, 8]}})
    shoe = canonical_shoe(rs, n)
    assert len(shoe) == size and Counter(shoe)[JOKER] == (2 if size == 106 else 3)


def test_canonical_order_starts_with_the_aces_of_spades():  # canonical order: S, H, D, C; A..K; jokers; master
    shoe = canonical_shoe(resolve("marriage/nepal"), 2)
    assert shoe[:3] == parse_cards("AS 2S 3S") and shoe[12:14] == parse_cards("KS AH")
    assert shoe[51] == parse_cards("KC")[0] and shoe[52] == parse_cards("AS")[0]
    assert shoe[-4:] == (JOKER, JOKER, JOKER, MASTER)


def test_table_size_outside_the_preset_is_refused():  # rules R-1, D-12
    with pytest.raises(RulesetError, match=r"^rummy13 is played by 4, 6, 8 players, not 5$"):
        canonical_shoe(resolve("rummy13"), 5)
    with pytest.raises(RulesetError, match=r"^kitti is played by 2, 3, 4, 5 players, not 6$"):
        canonical_shoe(resolve("kitti"), 6)


@pytest.mark.parametrize("n,stock", [(2, 117), (3, 96), (4, 75), (5, 54)])
def test_marriage_nepal_stock_sizes(n, stock):  # rules MN-2, MN-3, MN-4: 21 each, one turned up, stock 117/96/75/54
    d = hand_randomness(SERVER, "h", resolve("marriage/nepal"), seeds(n)).deal(n - 1)
    assert [len(h) for h in d.hands] == [21] * n
    assert d.turned_up is not None and d.indicator is None
    assert len(d.stock) == stock


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_marriage_classic_layout(n):  # rule MC-13: 21 each, next card turned up, the rest the stock
    hr = hand_randomness(SERVER, "h", resolve("marriage/classic"), seeds(n))
    shoe, d = hr.shoe(), hr.deal(0)
    assert d.turned_up == shoe[21 * n] and d.stock == shoe[21 * n + 1:]
    assert len(d.stock) == 156 - 21 * n - 1


@pytest.mark.parametrize("n", [4, 6, 8])
def test_rummy_layout(n):  # rules, D-19: 13 each, indicator next (never drawn), then open pile
    hr = hand_randomness(SERVER, "h", resolve("rummy13"), seeds(n))
    shoe, d = hr.shoe(), hr.deal(0)
    assert [len(h) for h in d.hands] == [13] * n
    assert d.indicator == shoe[13 * n] and d.turned_up == shoe[13 * n + 1]
    assert d.stock == shoe[13 * n + 2:]
    assert len(d.stock) == len(shoe) - 13 * n - 2


def test_kitti_layout():  # rule K-1: nine cards each, nothing turned
    d = hand_randomness(SERVER, "h", resolve("kitti"), seeds(5)).deal(4)
    assert [len(h) for h in d.hands] == [9] * 5 and d.turned_up is None and d.indicator is None
    assert len(d.stock) == 52 - 45


def test_deal_starts_at_the_dealers_left_one_card_at_a_time():  # rules MN-2, MN-6, D-4
    rs = resolve("marriage/nepal")
    shoe = canonical_shoe(rs, 4)
    d = deal(rs, shoe, 4, dealer=3)  # MN-6: the last seat deals the first round, seat 0 starts
    assert d.hands[0][0] == shoe[0] and d.hands[1][0] == shoe[1] and d.hands[3][0] == shoe[3]
    assert d.hands[0][1] == shoe[4]
    assert seat_order(1, 4) == [2, 3, 0, 1] and left_of(3, 4) == 0


def test_anticlockwise_deal_starts_at_the_dealers_right():  # rules MC-33, D-4, MC-2
    rs = resolve("marriage/classic", {"direction": "anticlockwise"})
    shoe = canonical_shoe(rs, 4)
    d = deal(rs, shoe, 4, dealer=1)
    assert seat_order(1, 4, direction="anticlockwise") == [0, 3, 2, 1]
    assert d.hands[0][0] == shoe[0] and d.hands[3][0] == shoe[1] and d.hands[1][0] == shoe[3]
    clockwise = deal(resolve("marriage/classic"), shoe, 4, dealer=1)
    assert clockwise.hands[2][0] == shoe[0]  # MC-2: the default is clockwise


def test_bad_dealer_is_refused():
    with pytest.raises(RulesetError, match=r"^dealer seat 3 is not at a table of 3$"):
        hand_randomness(SERVER, "h", resolve("kitti"), seeds(3)).deal(3)


@pytest.mark.parametrize("preset,overrides,n", [
    ("marriage/classic", {"shoe": {"decks": 1, "jokers": 0, "masters": 0}}, 5),   # 5 x 21 > 52
    ("marriage/classic", {"shoe": {"decks": 0, "jokers": 0, "masters": 0}}, 2),
    ("marriage/classic", {"shoe": {"decks": "3", "jokers": 0, "masters": 0}}, 2),
    ("marriage/classic", {"shoe": {"decks": 3, "jokers": -1, "masters": 0}}, 2),
    ("marriage/classic", {"shoe": {"decks": 2, "jokers": 0, "masters": 0}, "hand_size": 52}, 2),  # 104: no turn-up
    ("rummy13", {"hand_size": 27}, 4),                                              # 4 x 27 + 2 > 106
    ("kitti", {"hand_size": 0}, 2),
])
def test_impossible_shoes_and_layouts_are_ruleset_errors(preset, overrides, n):  # rules MC-13, R-5, D-19
    with pytest.raises(RulesetError):
        hand_randomness(SERVER, "h", resolve(preset, overrides), seeds(n)).deal(0)


def test_exactly_enough_cards_deals():  # rules R-5, D-19: indicator and open card, empty closed pile
    rs = resolve("rummy13", {"hand_size": 26})
    d = hand_randomness(SERVER, "h", rs, seeds(4)).deal(0)
    assert len(d.stock) == 0 and d.indicator is not None and d.turned_up is not None


def test_unknown_direction_is_refused():
    with pytest.raises(RulesetError, match=r"^direction must be one of \('clockwise', 'anticlockwise'\), got 'sideways'$"):
        left_of(0, 4, direction="sideways")
