"""Maal counting: the score tables of decisions.md and the worked examples of the texts."""
from hypothesis import assume, given, settings, strategies as st
import pytest

from replay.cards import parse_card as card, parse_cards as cards
from replay.errors import MalformedError
from replay.rulesets import resolve
from replay.shoes import canonical_shoe
from replay.marriage.maal import best_groups, count_maal

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")


def maal(hand, *, table="", tunnelas=(), tiplu="7H", seen=True, rs=NEPAL):
    return count_maal(hand=cards(hand), table=cards(table), tunnelas_at_deal=[cards(t) for t in tunnelas],
                      tiplu=None if tiplu is None else card(tiplu), seen=seen, ruleset=rs)


def points(*args, **kw):
    return maal(*args, **kw).points


# rule MN-23: under tiplu ♥7 the other ♥7s are tiplu, 3 points each; MN-30: two tiplu 7
def test_tiplu_points():
    assert points("7H 2C") == 3
    assert points("7H 7H 2C") == 7


# rule MN-24: poplu ♥8 and jhiplu ♥6 are 2 points each; tiplu ♥K: poplu ♥A, jhiplu ♥Q
def test_poplu_jhiplu_points_and_wrap():
    assert points("8H") == 2 and points("6H") == 2
    assert points("AH", tiplu="KH") == 2 and points("QH", tiplu="KH") == 2
    assert points("2H QS", tiplu="KH") == 0
    # decisions table: two of a kind 5, three 10
    assert points("8H 8H") == 5 and points("8H 8H 8H") == 10


# rule MN-25: the alter ♦7 is 5 points; MN-26: the man ♣7 ♠7 are jokers worth 0
def test_alter_and_man():
    assert points("7D") == 5
    assert points("7D 7D") == 15 and points("7D 7D 7D") == 30
    assert points("7C 7S 7C") == 0
    assert maal("7C 7S").items == ()


# rule MN-27: tiplu + poplu + jhiplu = a flat 10, not 3+2+2 = 7
def test_marriage_is_ten():
    m = maal("7H 8H 6H 2C")
    assert m.points == 10
    assert [(i.item, i.points) for i in m.items] == [("marriage", 10)]


# rule MN-27: the marriage need not be in one set nor all in hand -- a poplu laid inside
# a shown sequence (♥8-♥9-♥10 on the table) completes it with ♥7 ♥6 held in hand
def test_poplu_in_a_shown_sequence_completes_a_marriage():
    assert points("7H 6H 2C", table="8H 9H TH") == 10
    assert points("7H 6H 2C") == 5  # without the table: 3 + 2


# rule MN-29: maal is counted over the hand plus the cards laid on the table
def test_hand_plus_table():
    assert points("2C", table="7D 8D 9D") == 5
    assert points("7D 2C", table="7D 8D 9D") == 15


# rules D-8, MC-26: each card in one item only, the best assignment for the holder
def test_best_assignment():
    # ♥7 ♥7 ♥8 ♥6: marriage 10 + tiplu 3 = 13 beats two tiplu 7 + 2 + 2 = 11
    assert points("7H 7H 8H 6H") == 13
    # ♥7 ♥8 ♥8 ♥6: marriage 10 + poplu 2 = 12 beats 3 + (two poplu) 5 + 2 = 10
    assert points("7H 8H 8H 6H") == 12
    # two marriages 30 beat two tiplu 7 + two poplu 5 + two jhiplu 5 = 17
    m = maal("7H 7H 8H 8H 6H 6H")
    assert m.points == 30
    assert [i.item for i in m.items] == ["marriage x2"]
    # every card appears in at most one item
    used = [c for i in m.items for c in i.cards]
    assert sorted(used) == sorted(cards("7H 7H 8H 8H 6H 6H"))


# rule MN-28: putali 5 each, master 10, from the deal: no tiplu, no show needed, and
# they score in a round where nobody showed (a void round, tiplu None)
def test_putali_and_master_score_in_a_void_round():
    assert points("JK MC 7H 8H 6H 2C", tiplu=None, seen=False) == 15
    assert points("JK MC 7H 8H 6H", tiplu=None, seen=True) == 15  # no tiplu: nothing else can score
    assert points("JK JK", tiplu=None, seen=False) == 15  # rule MN-30


# rule MN-34: a player who never shows gets none of their maal -- putali and master excepted
def test_unseen_nepal_player_scores_only_putali_and_master():
    assert points("JK MC 7H 7D 8H 6H", seen=False) == 15
    assert points("JK MC 7H 7D 8H 6H", seen=True) == 5 + 10 + 5 + 10


# rule MN-30: two tiplu 7, two putali 15, three putali 25 -- more than double
def test_multiples():
    assert points("7H 7H") == 7
    assert points("JK JK") == 15
    assert points("JK JK JK") == 25
    assert points("JK JK JK", table="", seen=False) == 25


# rule MN-31: the three-putali tunnela is 45 only when laid before the first draw and
# its owner later saw the tiplu
def test_putali_tunnela_45_only_at_the_deal_and_seen():
    assert points("2C", table="JK JK JK", tunnelas=["JK JK JK"]) == 45
    assert maal("2C", table="JK JK JK", tunnelas=["JK JK JK"]).items[0].item == "putali tunnela at deal"
    assert points("2C", table="JK JK JK", tunnelas=["JK JK JK"], seen=False) == 25  # never saw
    assert points("2C", table="JK JK JK") == 25                                    # shown later, not at the deal
    assert points("JK JK JK 2C") == 25                                             # held in hand
    # tunnelas_at_deal may be given without repeating them in the table
    assert points("2C", tunnelas=["JK JK JK"]) == 45


# rules MN-19, MN-22: a tunnela laid at the deal earns +5 over its cards' maal, only if its
# owner later sees; the same cards mixed into the show lose that 5
def test_tunnela_at_the_deal_bonus():
    assert points("2S", table="5C 5C 5C", tunnelas=["5C 5C 5C"]) == 5
    assert points("2S", table="5C 5C 5C", tunnelas=["5C 5C 5C"], seen=False) == 0
    assert points("2S", table="5C 5C 5C") == 0
    assert points("2S", table="7D 7D 7D", tunnelas=["7D 7D 7D"]) == 30 + 5
    assert points("2S", table="7D 7D 7D") == 30


# rules D-8, MN-19: a poplu tunnela at the deal (10 + 5 = 15) keeps its bonus when that
# beats breaking it for a marriage: 15 + tiplu 3 + jhiplu 2 = 20 > marriage 10 + two poplu 5
def test_tunnela_bonus_against_a_marriage():
    assert points("7H 6H", table="8H 8H 8H", tunnelas=["8H 8H 8H"]) == 20
    assert points("7H 6H", table="8H 8H 8H") == 10 + 5  # no bonus: marriage + two poplu


# rule MC-25: classic, tiplu ♣J -- tiplu 3, poplu 2, jhiplu 2, ordinary jokers 0
def test_classic_values():
    assert points("JC", tiplu="JC", rs=CLASSIC) == 3
    assert points("QC", tiplu="JC", rs=CLASSIC) == 2
    assert points("TC", tiplu="JC", rs=CLASSIC) == 2
    assert points("JD JH JS", tiplu="JC", rs=CLASSIC) == 0
    assert points("JC JC QC QC", tiplu="JC", rs=CLASSIC) == 7 + 5


# rule MC-26: a marriage is worth 10, not the 2 + 2 + 3 of its cards; two marriages 30
def test_classic_marriage():
    assert points("TC JC QC", tiplu="JC", rs=CLASSIC) == 10
    assert points("TC JC QC TC JC QC", tiplu="JC", rs=CLASSIC) == 30


# rules MC-25, MC-27: classic players score only once they have seen
def test_classic_unseen_scores_nothing():
    assert points("TC JC QC", tiplu="JC", seen=False, rs=CLASSIC) == 0
    assert points("2S", table="5D 5D 5D", tunnelas=["5D 5D 5D"], tiplu="JC", seen=False, rs=CLASSIC) == 0


# rules MC-13, MC-27: tunnela points only for a tunnela exposed at the start and seen;
# classic values: ordinary 5, ordinary joker 10, poplu/jhiplu 20
def test_classic_tunnela_at_the_deal():
    assert points("2S", table="5D 5D 5D", tunnelas=["5D 5D 5D"], tiplu="JC", rs=CLASSIC) == 5
    assert points("2S", table="JD JD JD", tunnelas=["JD JD JD"], tiplu="JC", rs=CLASSIC) == 10
    assert points("2S", table="QC QC QC", tunnelas=["QC QC QC"], tiplu="JC", rs=CLASSIC) == 20
    assert points("2S", table="TC TC TC", tunnelas=["TC TC TC"], tiplu="JC", rs=CLASSIC) == 20
    # collected later (not exposed at the start): nothing as a tunnela, 10 as three poplu
    assert points("2S", table="QC QC QC", tiplu="JC", rs=CLASSIC) == 10
    assert points("2S", table="5D 5D 5D", tiplu="JC", rs=CLASSIC) == 0


# rule MC-32: scoring varies by region -- the table is a setting, read from the ruleset
def test_maal_table_is_a_setting():
    table = dict(NEPAL["maal_table"], marriage=[20, 50], putali=[6, 16, 26])
    regional = resolve("marriage/nepal", {"maal_table": table})
    assert points("7H 8H 6H", rs=regional) == 20
    assert points("JK JK", rs=regional) == 16
    assert regional.hash != NEPAL.hash  # rule D-1


def test_impossible_hands_are_malformed():
    with pytest.raises(MalformedError, match=r"^4 copies of JK, but the shoe holds 3$"):
        maal("JK JK JK JK")                     # the shoe has three putali
    with pytest.raises(MalformedError, match=r"^at most 2 copies of the tiplu 7H can be held$"):
        maal("7H 7H 7H")                        # one ♥7 is the tiplu itself
    with pytest.raises(MalformedError, match=r"^tunnela 5C laid at the deal but not all three on the table$"):
        maal("2C", table="5C 5C", tunnelas=["5C 5C 5C"])
    with pytest.raises(MalformedError, match=r"^a tunnela laid at the deal is three identical cards, not 5C 5C 6C$"):
        maal("2C", tunnelas=["5C 5C 6C"])
    with pytest.raises(MalformedError, match=r"^1 copies of JK, but the shoe holds 0$"):
        maal("JK", rs=CLASSIC, tiplu="JC")      # classic has no putali


def test_best_groups_is_exact():
    assert best_groups((3, 7), 2) == (7, (2,))
    assert best_groups((2, 5, 10), 3) == (10, (3,))
    assert best_groups((5, 6), 2) == (10, (1, 1))  # a table where singles are worth more
    assert best_groups((10,), 1) == (10, (1,))


SHOE = canonical_shoe(NEPAL, 4)


@st.composite
def holdings(draw):
    """A random hand + table drawn from one 160-card shoe, the tiplu taken out."""
    idx = draw(st.lists(st.integers(0, len(SHOE) - 1), unique=True, min_size=1, max_size=22))
    tiplu_i = draw(st.integers(0, len(SHOE) - 1).filter(lambda i: i not in idx))
    picked = [SHOE[i] for i in idx]
    split = draw(st.integers(0, len(picked)))
    return picked[:split], picked[split:], SHOE[tiplu_i]


# rules D-8, MN-29: maal never depends on the order the cards are listed in, nor on
# which of them are in hand or on the table; the items add up and use each card once
@settings(max_examples=150, deadline=None)
@given(holdings(), st.randoms(use_true_random=False), st.booleans(), st.sampled_from([NEPAL, CLASSIC]))
def test_maal_is_order_independent(holding, rnd, seen, rs):
    hand, table, tiplu = holding
    if rs is not NEPAL:
        hand = [c for c in hand if c.is_standard]
        table = [c for c in table if c.is_standard]
    if not tiplu.is_standard and rs is CLASSIC:
        tiplu = card("7H")
    assume(hand.count(tiplu) + table.count(tiplu) <= 2)
    base = count_maal(hand=hand, table=table, tiplu=tiplu, seen=seen, ruleset=rs)
    everything = hand + table
    rnd.shuffle(everything)
    k = rnd.randint(0, len(everything))
    other = count_maal(hand=everything[:k], table=everything[k:], tiplu=tiplu, seen=seen, ruleset=rs)
    assert other == base
    assert base.points == sum(i.points for i in base.items)
    used = [c for i in base.items for c in i.cards]
    for c in set(used):
        assert used.count(c) <= everything.count(c)


# rules MN-31, MN-15 (decision in jokers.py): a putali drawn as tiplu names no rank, but
# its owner has seen a tiplu, so tunnelas laid at the deal still score; 2 putali remain
def test_putali_drawn_as_tiplu():
    assert points("2C", table="5S 5S 5S", tunnelas=["5S 5S 5S"], tiplu="JK") == 5
    assert points("JK JK 7H 8H 6H", tiplu="JK") == 15
    with pytest.raises(MalformedError, match=r"^at most 2 copies of the tiplu JK can be held$"):
        maal("JK JK JK", tiplu="JK")


def brute_force_points(pool, tiplu, tunnela_cards, rs):
    """D-8 restated as a set-packing search: every item of the score table that the cards
    allow, any number of times, each card used once at most; the best total."""
    from collections import Counter
    from replay.marriage.jokers import Role, role_of
    table = rs["maal_table"]
    nepal = rs.preset == "marriage/nepal"
    catalog = []
    for c in sorted(set(pool)):
        role = role_of(c, tiplu, rs)
        if role is not Role.NONE:
            for k, v in enumerate(table[role.value], start=1):
                catalog.append((Counter({c: k}), v))
    rank = int(tiplu.rank)
    up = card(str(tiplu).replace(str(tiplu)[0], "A23456789TJQK"[rank % 13], 1))
    down = card(str(tiplu).replace(str(tiplu)[0], "A23456789TJQK"[(rank - 2) % 13], 1))
    for k, v in enumerate(table["marriage"], start=1):
        catalog.append((Counter({tiplu: k, up: k, down: k}), v))
    for c in tunnela_cards:
        role = role_of(c, tiplu, rs)
        if nepal:
            if role is Role.PUTALI:
                v = table["putali_tunnela_at_deal"]
            else:
                v = (table[role.value][2] if role is not Role.NONE else 0) + table["tunnela_at_deal_bonus"]
        else:
            v = table["tunnela_at_deal"]["ordinary" if role is Role.NONE else role.value]
        catalog.append((Counter({c: 3}), v))

    def best(i, left):
        if i == len(catalog):
            return 0
        need, value = catalog[i]
        result = best(i + 1, left)
        if all(left[c] >= n for c, n in need.items()):
            result = max(result, value + best(i, left - need))
        return result

    return best(0, Counter(pool))


MAAL_CARDS = cards("7H 8H 6H 7D 7C 7S 8H 6H JK MC 2C 5S")


# rules D-8, MC-26: the count is the exact best assignment -- checked against a plain
# search over every packing of score items
@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(list(MAAL_CARDS)), max_size=12), st.sampled_from([NEPAL, CLASSIC]),
       st.lists(st.sampled_from(cards("8H 6H 7D JK 2C 5S 7C")), max_size=2, unique=True))
def test_maal_is_the_best_packing(picked, rs, tunnelas):
    from collections import Counter
    pool = Counter(picked)
    pool[card("7H")] = min(pool[card("7H")], 2)
    if rs is CLASSIC:
        pool = Counter({c: n for c, n in pool.items() if c.is_standard})
        tunnelas = [t for t in tunnelas if t.is_standard]
    for c in pool:
        pool[c] = min(pool[c], 1 if c.is_master else 3)
    for t in tunnelas:
        pool[t] = 3
    everything = list(pool.elements())
    laid = [t for t in tunnelas for _ in range(3)]
    hand = [c for c in everything if c not in tunnelas]
    got = count_maal(hand=hand, table=laid, tunnelas_at_deal=[(t, t, t) for t in tunnelas],
                     tiplu=card("7H"), seen=True, ruleset=rs)
    assert got.points == brute_force_points(everything, card("7H"), tunnelas, rs)


# rule MN-32: a joker laid in a finishing set still scores its maal there, so discarding a
# putali costs its 5 points even in a won round (the count is of card value)
def test_jokers_score_where_they_stand():
    finish_sets = "5S 6S JK 9D 9C 7D"  # the putali and the alter stand in finishing sets
    assert points("2C", table=finish_sets) == 5 + 5
    assert points("2C", table=finish_sets) - points("2C", table="5S 6S 9D 9C 7D") == 5


# rule D-8: with a table where two tiplu are worth exactly two singles, the item shown
# is the larger group (the total is the same either way)
def test_ties_prefer_the_larger_group():
    assert best_groups((3, 6), 2) == (6, (2,))
