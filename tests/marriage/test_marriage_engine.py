"""The moves of the Marriage engine, on chosen positions (RoundState.position)."""
from collections import Counter

import pytest

from replay.errors import DeckMismatchError

from replay.cards import parse_card as card, parse_cards as cards
from replay.errors import IllegalMoveError
from replay.fairness import hand_randomness
from replay.rulesets import resolve
from replay.marriage.engine import MarriageEngine
from replay.marriage.moves import DealtShow, Discard, Draw, Finish, Show, TunnelaShow
from replay.marriage.state import RoundState

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
PRESETS = [NEPAL, CLASSIC]

SHOW = (cards("3C 4C 5C"), cards("7D 8D 9D"), cards("JS QS KS"))
REST = cards("2H 5H 9H AS 4S 6S 8C TC 6D KD QH")          # 11 loose cards
HAND21 = tuple(c for s in SHOW for c in s) + REST + cards("2D")
OTHER = cards("AH 3H 7H JH KH 2S 3S 5S 7S 9S TS")
STOCK = cards("QC 2C 4H 6H 8H TH 4D 5D TD QD")


def position(rs, hands=None, *, stock=STOCK, discards=cards("KC"), seats=None, **changes):  # noqa: B008 - read-only
    hands = hands or [HAND21, OTHER]
    r = hand_randomness(b"\x07" * 32, "engine-test", rs, [bytes([s + 1]) * 16 for s in range(len(hands))])
    return RoundState.position(hands, stock=stock, discards=discards, randomness=r, seats=seats, **changes)


def rule_of(eng, st, move):
    with pytest.raises(IllegalMoveError) as exc:
        eng.apply(st, move)
    return exc.value.rule


def drawn(eng, st, seat=0):
    return eng.apply(st, Draw(seat, "stock"))


# --- the ordinary show --------------------------------------------------------------------

# rules MN-14, MN-15, D-5: after drawing, three pure sets at once; the first show draws the
# tiplu from the stock at the position the stream picks; it leaves play (nepal)
def test_show_after_drawing_draws_the_tiplu():
    eng = MarriageEngine(NEPAL)
    st = drawn(eng, position(NEPAL, seats={0: {"has_drawn": True}}))
    stock = st.stock
    st2 = eng.apply(st, Show(0, SHOW))
    pos = st.randomness.tiplu_position(len(stock))
    assert st2.tiplu == stock[pos]
    assert st2.stock == stock[:pos] + stock[pos + 1:]
    assert not st2.tiplu_under_stock
    me = st2.seat(0)
    assert me.has_shown and me.shown == SHOW and len(me.hand) == 13
    assert st2.tiplu not in me.hand


# rule MN-15: later showers get no new tiplu, they see the open one
def test_later_shower_gets_no_new_tiplu():
    eng = MarriageEngine(NEPAL)
    other = cards("2H 3H 4H 9S 9S 9S QD KD AD") + OTHER[:12]
    st = position(NEPAL, [HAND21, other], tiplu=card("5C"), stock=STOCK)
    st = eng.apply(st, Draw(0, "stock"))
    st = eng.apply(st, Discard(0, card("2D")))
    st = eng.apply(st, Draw(1, "stock"))
    stock = st.stock
    st = eng.apply(st, Show(1, (cards("2H 3H 4H"), cards("9S 9S 9S"), cards("QD KD AD"))))
    assert st.tiplu == card("5C") and st.stock == stock and st.seat(1).has_shown


# rules MC-15, MC-16: classic: the tiplu goes under the stock; a later shower sees it at once
def test_classic_tiplu_goes_under_the_stock_and_is_seen_by_later_showers():
    eng = MarriageEngine(CLASSIC)
    st = drawn(eng, position(CLASSIC))
    stock = st.stock
    st = eng.apply(st, Show(0, SHOW))
    assert st.tiplu_under_stock and st.tiplu not in st.stock and len(st.stock) == len(stock) - 1
    assert st.seat(0).sees_maal                     # MC-23: looked at at once
    tiplu = st.tiplu
    st = eng.apply(st, Discard(0, card("2D")))
    other = cards("2H 3H 4H 9S 9S 9S QD KD AD") + OTHER[:12]
    st = RoundState.position([st.seat(0).hand, other], stock=st.stock, discards=st.discards, turn_seat=1,
                             randomness=st.randomness, tiplu=tiplu, tiplu_under_stock=True,
                             seats={0: {"has_shown": True, "sees_maal": True, "has_drawn": True}})
    st = eng.apply(st, Draw(1, "stock"))
    st = eng.apply(st, Show(1, (cards("2H 3H 4H"), cards("9S 9S 9S"), cards("QD KD AD"))))
    assert st.tiplu == tiplu and st.seat(1).sees_maal


@pytest.mark.parametrize("rs,rule", [(NEPAL, "MN-14"), (CLASSIC, "MC-15")])
def test_show_must_be_exactly_three_three_card_pure_sets(rs, rule):
    eng = MarriageEngine(rs)
    st = drawn(eng, position(rs, seats={0: {"has_drawn": True}}))
    # rules MN-14, MC-15: exactly three sets of three, even with a four-card run in hand
    assert rule_of(eng, st, Show(0, SHOW[:2])) == rule
    assert rule_of(eng, st, Show(0, (cards("3C 4C 5C"), cards("7D 8D 9D"), cards("JS QS KS"), cards("2H 3H 4H")))) == rule
    hand4 = cards("3C 4C 5C 6C") + HAND21[3:]
    st4 = drawn(eng, position(rs, [hand4, OTHER], seats={0: {"has_drawn": True}}))
    assert rule_of(eng, st4, Show(0, (cards("3C 4C 5C 6C"), SHOW[1], SHOW[2]))) == rule
    assert eng.apply(st4, Show(0, (cards("4C 5C 6C"), SHOW[1], SHOW[2]))).seat(0).has_shown
    # the sets must be in the hand
    assert rule_of(eng, st, Show(0, (cards("2S 3S 4S"), SHOW[1], SHOW[2]))) == rule


# rule MN-11: a trial never counts as a show set; MN-10: no joker in a shown set
def test_trial_and_putali_never_show():
    eng = MarriageEngine(NEPAL)
    hand = cards("9C 9H 9S JK 4D 5D") + HAND21[3:]
    st = drawn(eng, position(NEPAL, [hand, OTHER], seats={0: {"has_drawn": True}}))
    assert rule_of(eng, st, Show(0, (cards("9C 9H 9S"), SHOW[1], SHOW[2]))) == "MN-11"
    assert rule_of(eng, st, Show(0, (cards("JK 4D 5D"), SHOW[1], SHOW[2]))) == "MN-10"


# rule MN-14: a show comes after drawing (once the player has drawn in an earlier turn)
def test_show_needs_the_draw_first():
    eng = MarriageEngine(NEPAL)
    st = position(NEPAL, seats={0: {"has_drawn": True}})
    assert rule_of(eng, st, Show(0, SHOW)) == "MN-14"


# rule MN-17: by default the seen mark is set at once, but maal is seen only after the
# discard that follows the show
def test_see_maal_after_discard():
    eng = MarriageEngine(NEPAL)
    st = eng.apply(drawn(eng, position(NEPAL, seats={0: {"has_drawn": True}})), Show(0, SHOW))
    assert st.seat(0).has_shown and not st.seat(0).sees_maal
    st = eng.apply(st, Discard(0, card("2D")))
    assert st.seat(0).sees_maal


# rule MN-17: the setting "immediately" shows maal at once
def test_see_maal_immediately():
    rs = resolve("marriage/nepal", {"see_maal": "immediately"})
    eng = MarriageEngine(rs)
    st = eng.apply(drawn(eng, position(rs, seats={0: {"has_drawn": True}})), Show(0, SHOW))
    assert st.seat(0).has_shown and st.seat(0).sees_maal


# --- dublees --------------------------------------------------------------------------

PAIRS = tuple((c, c) for c in cards("2S 5S 8H JH 3D 9D KC"))
DUB21 = tuple(c for p in PAIRS for c in p) + cards("4C 6C 7S AH QD 3S TH")


# rules MN-16, MC-18: seven dublees (14 cards) may be shown instead of three sets
@pytest.mark.parametrize("rs", PRESETS)
def test_seven_dublees_show(rs):
    eng = MarriageEngine(rs)
    st = drawn(eng, position(rs, [DUB21, OTHER], seats={0: {"has_drawn": True}}))
    st = eng.apply(st, Show(0, PAIRS))
    me = st.seat(0)
    assert me.dublee and me.has_shown and len(me.hand) == 8 and st.tiplu is not None
    assert Show(0, PAIRS) in [m for m in eng.legal_moves(drawn(eng, position(rs, [DUB21, OTHER],
                                                                             seats={0: {"has_drawn": True}})))]


# rule MN-16: only at tables that switch seven dublees on; exactly seven pairs
def test_dublee_show_needs_the_setting_and_seven_pairs():
    rs = resolve("marriage/nepal", {"seven_dublees": False})
    eng = MarriageEngine(rs)
    st = drawn(eng, position(rs, [DUB21, OTHER], seats={0: {"has_drawn": True}}))
    assert rule_of(eng, st, Show(0, PAIRS)) == "MN-16"
    eng = MarriageEngine(NEPAL)
    st = drawn(eng, position(NEPAL, [DUB21, OTHER], seats={0: {"has_drawn": True}}))
    assert rule_of(eng, st, Show(0, PAIRS[:6])) == "MN-16"
    # rule MC-18: jokers are never wild in dublees: each pair is two identical cards
    eng = MarriageEngine(CLASSIC)
    st = drawn(eng, position(CLASSIC, [DUB21, OTHER], seats={0: {"has_drawn": True}}))
    bad = PAIRS[:6] + ((card("4C"), card("6C")),)
    assert rule_of(eng, st, Show(0, bad)) == "MC-18"


# rule MC-19: after seeing, a dublee player takes a discard only to complete the eighth
# dublee and end the game
def test_dublee_player_takes_a_discard_only_to_finish():
    eng = MarriageEngine(CLASSIC)
    hand = cards("4C 6C 7S AH QD 3S TH")
    marks = {0: {"dublee": True, "has_shown": True, "sees_maal": True, "has_drawn": True, "shown": PAIRS}}
    st = position(CLASSIC, [hand, OTHER], discards=cards("KH 9S"), seats=marks, tiplu=card("5H"))
    assert rule_of(eng, st, Draw(0, "discard", card("9S"))) == "MC-19"
    assert Draw(0, "discard", card("9S")) not in eng.legal_moves(st)
    st = position(CLASSIC, [hand, OTHER], discards=cards("KH 6C"), seats=marks, tiplu=card("5H"))
    st = eng.apply(st, Draw(0, "discard", card("6C")))
    assert rule_of(eng, st, Discard(0, card("4C"))) == "MC-19"
    moves = eng.legal_moves(st)
    assert moves and all(isinstance(m, Finish) for m in moves)
    # rule MC-21: 16 cards in dublees, five loose cards and one discard
    st = eng.apply(st, Finish(0, ((card("6C"), card("6C")),), card("4C")))
    assert st.winner == 0 and st.finish.dublee
    assert eng.outcome(st).detail["finish"]["dublee"]


# rule MC-21: a dublee finish lays an eighth dublee of two identical cards
def test_dublee_finish_needs_an_identical_pair():
    eng = MarriageEngine(NEPAL)
    marks = {0: {"dublee": True, "has_shown": True, "sees_maal": True, "has_drawn": True, "shown": PAIRS}}
    st = position(NEPAL, [cards("4C 6C 7S AH QD 3S TH"), OTHER], stock=cards("7S 2C"), seats=marks,
                  tiplu=card("5H"))
    st = eng.apply(st, Draw(0, "stock", card("7S")))
    assert rule_of(eng, st, Finish(0, ((card("4C"), card("6C")),), card("TH"))) == "D-7"
    st = eng.apply(st, Finish(0, ((card("7S"), card("7S")),), card("TH")))
    assert st.winner == 0 and st.seat(0).hand == tuple(sorted(cards("4C 6C 7S 7S AH QD 3S"), key=lambda c: c.code))


# --- the two moves before the first draw --------------------------------------------------

TUN = cards("6H 6H 6H")


# rule MN-19: a dealt tunnela may be laid; it costs neither a draw nor the turn
def test_tunnela_show_costs_no_draw_or_turn():
    eng = MarriageEngine(NEPAL)
    hand = TUN + HAND21[:9] + REST[:9]
    st = position(NEPAL, [hand, OTHER])
    st2 = eng.apply(st, TunnelaShow(0, TUN))
    assert st2.turn_seat == 0 and st2.phase == "draw" and st2.stock == st.stock and st2.turns == 0
    assert st2.seat(0).tunnelas_at_deal == (TUN,) and len(st2.seat(0).hand) == 18
    assert not st2.seat(0).has_drawn and not st2.seat(0).has_shown
    # it counts as one of the three show sets: two more are needed, not three
    st3 = eng.apply(st2, Draw(0, "stock"))
    assert rule_of(eng, st3, Show(0, SHOW)) == "MN-19"
    st4 = eng.apply(st3, Show(0, SHOW[:2]))
    assert st4.seat(0).has_shown and st4.tiplu is not None


# rule MN-19: one tunnela per action; only a tunnela
def test_tunnela_show_one_per_action():
    eng = MarriageEngine(NEPAL)
    hand = TUN + cards("KD KD KD") + REST + cards("2D 3D 4D 5D")
    st = position(NEPAL, [hand, OTHER])
    assert rule_of(eng, st, TunnelaShow(0, TUN + cards("KD KD KD"))) == "MN-19"
    assert rule_of(eng, st, TunnelaShow(0, cards("2D 3D 4D"))) == "MN-19"
    st = eng.apply(st, TunnelaShow(0, TUN))
    st = eng.apply(st, TunnelaShow(0, cards("KD KD KD")))
    assert len(st.seat(0).tunnelas_at_deal) == 2


# rules MN-18, MC-13: both moves vanish once the player draws
@pytest.mark.parametrize("rs,rule", [(NEPAL, "MN-18"), (CLASSIC, "MC-13")])
def test_tunnela_show_only_before_the_first_draw(rs, rule):
    eng = MarriageEngine(rs)
    hand = TUN + HAND21[:18]
    st = position(rs, [hand, OTHER], seats={0: {"has_drawn": True}})
    assert rule_of(eng, st, TunnelaShow(0, TUN)) == rule
    assert not any(isinstance(m, (TunnelaShow, DealtShow)) for m in eng.legal_moves(st))
    fresh = position(rs, [hand, OTHER])
    assert TunnelaShow(0, TUN) in eng.legal_moves(fresh)
    assert rule_of(eng, eng.apply(fresh, Draw(0, "stock")), TunnelaShow(0, TUN)) == rule


# rule MC-13: classic: a tunnela exposed at the start may score; one kept hidden scores nothing
def test_classic_tunnela_exposed_at_the_start_is_recorded():
    eng = MarriageEngine(CLASSIC)
    st = eng.apply(position(CLASSIC, [TUN + HAND21[:18], OTHER]), TunnelaShow(0, TUN))
    assert st.seat(0).tunnelas_at_deal == (TUN,) and Counter(st.seat(0).table) == Counter(TUN)


# rule MN-20: a dealt-hand show before the first draw: tiplu drawn, maal seen at once under
# either see_maal setting; then the player takes their normal draw turn
@pytest.mark.parametrize("see", ["after_discard", "immediately"])
def test_dealt_hand_show_sees_maal_before_the_first_draw(see):
    rs = resolve("marriage/nepal", {"see_maal": see})
    eng = MarriageEngine(rs)
    st = position(rs)
    assert any(isinstance(m, DealtShow) for m in eng.legal_moves(st))
    st = eng.apply(st, DealtShow(0, SHOW))
    me = st.seat(0)
    assert me.has_shown and me.sees_maal and not me.has_drawn and st.tiplu is not None
    assert st.turn_seat == 0 and st.phase == "draw" and len(me.hand) == 12
    st = eng.apply(st, Draw(0, "stock"))
    assert len(st.seat(0).hand) == 13


# rule MN-20: seven dublees from the dealt hand show too, seen at once
def test_dealt_hand_dublee_show():
    eng = MarriageEngine(NEPAL)
    st = eng.apply(position(NEPAL, [DUB21, OTHER]), DealtShow(0, PAIRS))
    assert st.seat(0).dublee and st.seat(0).sees_maal and len(st.seat(0).hand) == 7


# rule MN-20: after drawing, a dealt-hand show is no longer possible; before the first
# draw a show is a dealt-hand show
def test_dealt_show_only_before_the_first_draw():
    eng = MarriageEngine(NEPAL)
    st = eng.apply(position(NEPAL), Draw(0, "stock"))
    assert rule_of(eng, st, DealtShow(0, SHOW)) == "MN-18"
    assert rule_of(eng, position(NEPAL), Show(0, SHOW)) == "MN-20"


# rule MN-21: three tunnelas laid at the deal are a complete show with nothing more to lay
def test_three_tunnelas_are_a_complete_show():
    eng = MarriageEngine(NEPAL)
    tuns = [TUN, cards("KD KD KD"), cards("2C 2C 2C")]
    hand = tuple(c for t in tuns for c in t) + REST + cards("2D")
    st = position(NEPAL, [hand, OTHER])
    assert rule_of(eng, st, DealtShow(0, ())) == "MN-20"          # not yet three
    for t in tuns:
        st = eng.apply(st, TunnelaShow(0, t))
    assert rule_of(eng, st, TunnelaShow(0, TUN)) in ("MN-21", "MN-19")
    assert DealtShow(0, ()) in eng.legal_moves(st)
    st = eng.apply(st, DealtShow(0, ()))
    me = st.seat(0)
    assert me.has_shown and me.sees_maal and not me.has_drawn and st.tiplu is not None
    assert me.shown == () and len(me.tunnelas_at_deal) == 3 and len(me.hand) == 12


# --- draws and discards ---------------------------------------------------------------------

# rule MC-14: take the top of the stock or the latest discard, then discard; a card taken
# from the discards may not be discarded in the same turn
def test_taken_discard_cannot_be_discarded_in_the_same_turn():
    eng = MarriageEngine(CLASSIC)
    st = position(CLASSIC, discards=cards("9C KC"))
    assert rule_of(eng, st, Draw(0, "discard", card("9C"))) == "MC-14"   # only the latest
    st = eng.apply(st, Draw(0, "discard", card("KC")))
    assert st.discards == cards("9C")
    assert rule_of(eng, st, Discard(0, card("KC"))) == "MC-14"
    assert Discard(0, card("KC")) not in eng.legal_moves(st)
    assert rule_of(eng, st, Draw(0, "stock")) == "MC-14"                 # one draw a turn
    st = eng.apply(st, Discard(0, card("2D")))
    assert st.discards == cards("9C 2D") and st.turn_seat == 1


# rule MC-14: draw first, then discard; a stock draw that names a card must name the top
def test_draw_before_discard_and_the_stock_card_is_implied():
    eng = MarriageEngine(NEPAL)
    st = position(NEPAL)
    assert rule_of(eng, st, Discard(0, card("2D"))) == "MC-14"
    with pytest.raises(DeckMismatchError, match=r"^the record lists 2C for a stock draw the deck makes QC \(rule D-3\)$") as err:                        # rule D-3: the deck decides
        eng.apply(st, Draw(0, "stock", STOCK[1]))
    assert err.value.rule == "D-3"
    st2 = eng.apply(st, Draw(0, "stock", STOCK[0]))
    assert STOCK[0] in st2.seat(0).hand and st2.stock == STOCK[1:]
    assert rule_of(eng, st2, Discard(0, card("AC"))) == "MC-14"          # not in hand


# rule MC-17: classic: a player who has seen may not take a joker from the discards
def test_classic_seen_player_may_not_take_a_joker():
    eng = MarriageEngine(CLASSIC)
    marks = {0: {"has_shown": True, "sees_maal": True, "has_drawn": True, "shown": SHOW}}
    st = position(CLASSIC, [HAND21[9:], OTHER], discards=cards("TH"), seats=marks, tiplu=card("TC"))
    assert rule_of(eng, st, Draw(0, "discard", card("TH"))) == "MC-17"
    assert Draw(0, "discard", card("TH")) not in eng.legal_moves(st)
    # an unseen player may take it
    st = position(CLASSIC, [HAND21, OTHER], discards=cards("TH"), tiplu=card("TC"))
    assert eng.apply(st, Draw(0, "discard", card("TH"))).seat(0).hand.count(card("TH")) == 1


# rule D-11: nepal: a player who has seen may take a joker from the discards
def test_nepal_seen_player_may_take_a_joker():
    eng = MarriageEngine(NEPAL)
    marks = {0: {"has_shown": True, "sees_maal": True, "has_drawn": True, "shown": SHOW}}
    st = position(NEPAL, [HAND21[9:], OTHER], discards=cards("TH"), seats=marks, tiplu=card("TC"))
    assert Draw(0, "discard", card("TH")) in eng.legal_moves(st)
    st = eng.apply(st, Draw(0, "discard", card("TH")))
    assert card("TH") in st.seat(0).hand
    # the setting can forbid it, naming D-11
    rs = resolve("marriage/nepal", {"joker_pickup_after_seeing": False})
    st = position(rs, [HAND21[9:], OTHER], discards=cards("TH"), seats=marks, tiplu=card("TC"))
    assert rule_of(MarriageEngine(rs), st, Draw(0, "discard", card("TH"))) == "D-11"


# --- finishing ----------------------------------------------------------------------------

FIN13 = cards("2H 3H 4H 6S 7S 8S AD 2D 3D 9C 9H 9S 5H")       # four combinations + 5H


# rules MC-20, D-7: a player who has shown, after drawing, lays four combinations and
# discards the last card: play ends
@pytest.mark.parametrize("rs", PRESETS)
def test_finish_after_showing(rs):
    eng = MarriageEngine(rs)
    marks = {0: {"has_shown": True, "sees_maal": True, "has_drawn": True, "shown": SHOW}}
    st = position(rs, [FIN13[:-1], OTHER], stock=cards("5H 2C"), seats=marks, tiplu=card("QC"))
    st = eng.apply(st, Draw(0, "stock"))
    groups = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("9C 9H 9S"))
    end = eng.apply(st, Finish(0, groups, card("5H")))
    assert eng.is_over(end) and end.winner == 0 and end.discards[-1] == card("5H")
    assert eng.to_move(end) is None and eng.legal_moves(end) == []
    with pytest.raises(IllegalMoveError, match=r"^the round is over \(rule D-7\)$"):
        eng.apply(end, Draw(1, "stock"))
    # illegal finishes are typed errors naming the rule
    bad = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("9C 9H 5H"))
    assert rule_of(eng, st, Finish(0, bad, card("9S"))) in ("D-7", "MC-20")
    assert rule_of(eng, st, Finish(0, groups[:3], card("5H"))) in ("D-7", "MC-20")


# rules D-7, MC-20: only a player who has shown may finish
@pytest.mark.parametrize("rs,rule", [(NEPAL, "D-7"), (CLASSIC, "MC-20")])
def test_finish_needs_a_show(rs, rule):
    eng = MarriageEngine(rs)
    st = position(rs, [FIN13[:-1] + HAND21[:9], OTHER], stock=cards("5H"), seats={0: {"has_drawn": True}})
    st = eng.apply(st, Draw(0, "stock"))
    groups = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("9C 9H 9S"))
    assert rule_of(eng, st, Finish(0, groups, card("5H"))) == rule


# rule MC-10: two identical cards plus a joker is not a finishing combination
def test_finish_rejects_two_identical_plus_a_joker():
    eng = MarriageEngine(CLASSIC)
    marks = {0: {"has_shown": True, "sees_maal": True, "has_drawn": True, "shown": SHOW}}
    hand = cards("2H 3H 4H 6S 7S 8S AD 2D 3D 5C 5C QC")
    st = eng.apply(position(CLASSIC, [hand, OTHER], stock=cards("KH"), seats=marks, tiplu=card("QC")),
                   Draw(0, "stock"))
    groups = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("5C 5C QC"))
    assert rule_of(eng, st, Finish(0, groups, card("KH"))) == "MC-10"


# rules MC-23, D-7: in one turn: draw, lay the three sets, see the tiplu, finish with jokers
def test_classic_show_and_finish_in_one_turn():
    eng = MarriageEngine(CLASSIC)
    hand = tuple(c for s in SHOW for c in s) + cards("2H 3H 4H 6S 7S 8S AD 2D 3D 9C 5H KH")
    st = position(CLASSIC, [hand, OTHER], stock=cards("JH 8C 8C 8C"), seats={0: {"has_drawn": True}})
    st = eng.apply(st, Draw(0, "stock", card("JH")))
    st = eng.apply(st, Show(0, SHOW))
    assert st.tiplu == card("8C")                 # the rest of the stock is all 8C
    # 9C is the tiplu's poplu, a joker now: 9C + JH + KH is not a combination without it
    groups = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("9C JH KH"))
    st = eng.apply(st, Finish(0, groups, card("5H")))
    assert st.winner == 0


# rules MN-17, D-7: nepal by default: in the turn of the show the shower has not seen the
# tiplu yet, so no maal card is a joker for a finish in that turn
def test_nepal_finish_in_the_show_turn_sees_no_jokers():
    hand = tuple(c for s in SHOW for c in s) + cards("2H 3H 4H 6S 7S 8S AD 2D 3D 9C 5H KH")
    groups = (cards("2H 3H 4H"), cards("6S 7S 8S"), cards("AD 2D 3D"), cards("9C JH KH"))
    for see, ok in (("after_discard", False), ("immediately", True)):
        rs = resolve("marriage/nepal", {"see_maal": see})
        eng = MarriageEngine(rs)
        st = position(rs, [hand, OTHER], stock=cards("JH 8C 8C 8C"), seats={0: {"has_drawn": True}})
        st = eng.apply(eng.apply(st, Draw(0, "stock")), Show(0, SHOW))
        if ok:
            assert eng.apply(st, Finish(0, groups, card("5H"))).winner == 0
        else:
            assert rule_of(eng, st, Finish(0, groups, card("5H"))) == "D-7"


# rule MC-22: apart from the show, combinations are not laid during play: no second show
def test_no_second_show():
    eng = MarriageEngine(CLASSIC)
    st = eng.apply(drawn(eng, position(CLASSIC, seats={0: {"has_drawn": True}})), Show(0, SHOW))
    assert not any(isinstance(m, Show) for m in eng.legal_moves(st))
    assert rule_of(eng, st, Show(0, (cards("5H 6H 7H"),) * 3)) == "MC-16"


# --- the protocol ----------------------------------------------------------------------------

def test_apply_never_mutates_and_checks_the_turn():
    eng = MarriageEngine(NEPAL)
    st = position(NEPAL)
    before = st.to_json()
    after = eng.apply(st, Draw(0, "stock"))
    assert st.to_json() == before and after is not st and after.to_json() != before
    assert rule_of(eng, st, Draw(1, "stock")) == "MN-6"
    assert rule_of(MarriageEngine(CLASSIC), position(CLASSIC), Draw(1, "stock")) == "MC-14"


# rules MC-14, MC-19: the finish the engine offers never discards the card just taken,
# even when keeping another dublee would prefer it
def test_offered_finish_never_discards_the_card_just_taken():
    eng = MarriageEngine(CLASSIC)
    hand = cards("4C 4C 7S AH QD 3S TH")               # already holds a pair
    marks = {0: {"dublee": True, "has_shown": True, "sees_maal": True, "has_drawn": True, "shown": PAIRS}}
    st = position(CLASSIC, [hand, OTHER], discards=cards("TH"), seats=marks, tiplu=card("5H"))
    st = eng.apply(st, Draw(0, "discard", card("TH")))
    fins = [m for m in eng.legal_moves(st) if isinstance(m, Finish)]
    assert fins and all(f.discard != card("TH") for f in fins)
    assert eng.apply(st, fins[0]).winner == 0


# rule D-5: where the tiplu goes is the setting tiplu_placement, whatever the preset
def test_tiplu_placement_is_a_setting():
    rs = resolve("marriage/nepal", {"tiplu_placement": "bottom"})
    eng = MarriageEngine(rs)
    st = eng.apply(drawn(eng, position(rs, seats={0: {"has_drawn": True}})), Show(0, SHOW))
    assert st.tiplu_under_stock and st.tiplu not in st.stock
    rs = resolve("marriage/classic", {"tiplu_placement": "out_of_play"})
    eng = MarriageEngine(rs)
    st = eng.apply(drawn(eng, position(rs, seats={0: {"has_drawn": True}})), Show(0, SHOW))
    assert not st.tiplu_under_stock
