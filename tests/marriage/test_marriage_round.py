"""The round engine end to end: the deal, who starts, turn order, the stock running out,
the void round and the outcome."""
from collections import Counter

import pytest

from replay.cards import parse_card as card, parse_cards as cards
from replay.errors import RulesetError
from replay.fairness import hand_randomness
from replay.game import engine_for
from replay.rulesets import resolve
from replay.shoes import canonical_shoe
from replay.marriage.engine import MarriageEngine, first_dealer, next_dealer
from replay.marriage.moves import Discard, Draw, Finish, Show
from replay.marriage.state import VOID_STOCK, VOID_TURN_CAP, RoundState

NEPAL = resolve("marriage/nepal")
CLASSIC = resolve("marriage/classic")
PRESETS = [NEPAL, CLASSIC]


def rnd(rs, n=4, tag=1):
    return hand_randomness(bytes([tag]) * 32, f"round-{tag}", rs, [bytes([tag + s]) * 16 for s in range(n)])


def start(rs, n=4, dealer=None, tag=1):
    eng = MarriageEngine(rs)
    r = rnd(rs, n, tag)
    return eng, r, eng.start(r, dealer=first_dealer(n) if dealer is None else dealer)


def all_cards(state):
    out = Counter(state.stock) + Counter(state.discards)
    for s in state.seats:
        out += Counter(s.hand) + Counter(s.table)
    if state.tiplu is not None:
        out[state.tiplu] += 1
    return out


def test_registry_builds_the_marriage_engine():
    assert isinstance(engine_for(NEPAL), MarriageEngine)
    assert isinstance(engine_for(CLASSIC), MarriageEngine)


# rule MN-1: three decks + 3 putali + 1 master card, 160 cards
def test_nepal_round_uses_160_cards():
    _, _, st = start(NEPAL)
    got = all_cards(st)
    assert sum(got.values()) == 160
    assert got[card("JK")] == 3 and got[card("MC")] == 1
    assert all(got[c] == 3 for c in canonical_shoe(NEPAL, 4) if c.is_standard)


# rule MC-1: 2 to 5 players, three packs, 156 cards, no printed jokers
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_classic_round_uses_156_cards_at_2_to_5(n):
    _, _, st = start(CLASSIC, n)
    got = all_cards(st)
    assert sum(got.values()) == 156
    assert got[card("JK")] == 0 and got[card("MC")] == 0


# rule MC-1: six players are not a Marriage table
def test_six_players_are_refused():
    with pytest.raises(RulesetError, match=r"^marriage/classic is played by 2, 3, 4, 5 players, not 6$"):
        rnd(CLASSIC, 6).deal(0)


# rules MN-2, MC-13: 21 cards each, one at a time from the dealer's left
@pytest.mark.parametrize("rs", PRESETS)
def test_deal_one_at_a_time_from_the_dealers_left(rs):
    n, dealer = 4, 2
    eng = MarriageEngine(rs)
    r = rnd(rs, n)
    st = eng.start(r, dealer=dealer)
    shoe = r.shoe()
    order = [3, 0, 1, 2]  # the dealer's left first, the dealer last
    for k, seat in enumerate(order):
        expected = [shoe[k + n * i] for i in range(21)]
        assert Counter(st.seat(seat).hand) == Counter(expected)
        assert len(st.seat(seat).hand) == 21


# rules MN-3, MC-13: the next card is turned up and starts the discard pile
@pytest.mark.parametrize("rs", PRESETS)
def test_next_card_starts_the_discards(rs):
    eng, r, st = start(rs, 4)
    shoe = r.shoe()
    assert st.discards == (shoe[84],)
    assert st.stock == tuple(shoe[85:])          # the rest is the stock, top first


# rule MN-4: the stock is 117 / 96 / 75 / 54 cards for 2 / 3 / 4 / 5 players
@pytest.mark.parametrize("n,size", [(2, 117), (3, 96), (4, 75), (5, 54)])
def test_nepal_stock_sizes(n, size):
    _, _, st = start(NEPAL, n)
    assert len(st.stock) == size


# rule MN-5: no tiplu is chosen at the deal; its place stays empty until someone shows
def test_no_tiplu_at_the_deal():
    eng, _, st = start(NEPAL)
    assert st.tiplu is None
    # A turn without a show leaves it empty.
    st = eng.apply(st, Draw(st.turn_seat, "stock"))
    st = eng.apply(st, Discard(st.turn_seat, st.drawn))
    assert st.tiplu is None


# rule MN-6: first round the last seat deals and the first seat starts; then the deal moves
# one seat and the new dealer's left starts
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_first_round_last_seat_deals_first_seat_starts(n):
    assert first_dealer(n) == n - 1
    eng, _, st = start(NEPAL, n)
    assert st.dealer == n - 1 and eng.to_move(st) == 0
    d2 = next_dealer(first_dealer(n), n)
    assert d2 == 0
    st2 = MarriageEngine(NEPAL).start(rnd(NEPAL, n, 2), dealer=d2)
    assert st2.to_move == 1


# rules MC-12, MC-14: play starts left of the dealer; the deal passes to the left
def test_classic_starts_left_of_dealer_and_deal_passes_left():
    eng, _, st = start(CLASSIC, 5, dealer=2)
    assert eng.to_move(st) == 3
    assert next_dealer(2, 5) == 3


# rules MC-2, D-4: play goes clockwise: seat i+1 is on seat i's left
@pytest.mark.parametrize("rs", PRESETS)
def test_play_goes_clockwise(rs):
    eng, _, st = start(rs, 4, dealer=1)
    seen = []
    for _ in range(6):
        seen.append(st.turn_seat)
        st = eng.apply(st, Draw(st.turn_seat, "stock"))
        st = eng.apply(st, Discard(st.turn_seat, st.drawn))
    assert seen == [2, 3, 0, 1, 2, 3]


# rules MC-33, D-4: an anticlockwise table deals from the dealer's right, starts there and
# passes the deal to the right
def test_anticlockwise_table():
    rs = resolve("marriage/classic", {"direction": "anticlockwise"})
    eng = MarriageEngine(rs)
    r = rnd(rs, 4)
    st = eng.start(r, dealer=1)
    assert st.turn_seat == 0
    shoe = r.shoe()
    assert Counter(st.seat(0).hand) == Counter(shoe[0:84:4])
    assert next_dealer(1, 4, direction="anticlockwise") == 0
    order = []
    for _ in range(4):
        order.append(st.turn_seat)
        st = eng.apply(st, Draw(st.turn_seat, "stock"))
        st = eng.apply(st, Discard(st.turn_seat, st.drawn))
    assert order == [0, 3, 2, 1]


# rule MC-14: on the very first turn the player may take the card the dealer turned up
def test_first_player_may_take_the_turned_up_card():
    eng, _, st = start(CLASSIC)
    up = st.discards[-1]
    assert Draw(st.turn_seat, "discard", up) in eng.legal_moves(st)
    st2 = eng.apply(st, Draw(st.turn_seat, "discard", up))
    assert st2.discards == () and up in st2.seat(st.turn_seat).hand


# --- the stock runs out --------------------------------------------------------------------

FILLER = [cards("2S 3S 4S 5S"), cards("2H 3H 4H 5H")]


# rules D-6, MC-24: at the end of a turn with an empty stock, all discards but the latest
# are shuffled from the stream into the new stock
@pytest.mark.parametrize("rs", PRESETS)
def test_empty_stock_is_refilled_from_the_discards(rs):
    r = rnd(rs, 2)
    old = cards("9C 8C 7C 6C")
    st = RoundState.position(FILLER, stock=cards("KD"), discards=old, randomness=r)
    eng = MarriageEngine(rs)
    st = eng.apply(st, Draw(0, "stock", card("KD")))
    st = eng.apply(st, Discard(0, card("2S")))
    assert st.discards == (card("2S"),)
    assert st.stock == tuple(r.reshuffle(1, old))
    assert st.reshuffles == 1 and not st.is_over


# rules MC-24, MC-15: classic: the tiplu lies under the stock and is never drawn; the refill
# goes on top of it
def test_classic_tiplu_stays_under_the_refilled_stock():
    r = rnd(CLASSIC, 2)
    hand = cards("3C 4C 5C 7D 8D 9D JS QS KS 2H")
    st = RoundState.position([hand, FILLER[1]], stock=cards("AH TC"), discards=cards("6H 6S 6D"), randomness=r)
    eng = MarriageEngine(CLASSIC)
    st = eng.apply(st, Draw(0, "stock", card("AH")))
    st = eng.apply(st, Show(0, (cards("3C 4C 5C"), cards("7D 8D 9D"), cards("JS QS KS"))))
    assert st.tiplu == card("TC") and st.tiplu_under_stock and st.stock == ()
    st = eng.apply(st, Discard(0, card("2H")))
    # the stock held nothing but the tiplu: refilled from the discards but the latest
    assert Counter(st.stock) == Counter(cards("6H 6S 6D")) and card("TC") not in st.stock
    assert st.discards == (card("2H"),) and st.tiplu == card("TC")


# rules D-6, D-10: if even the reshuffle leaves no card, the round ends void
@pytest.mark.parametrize("rs", PRESETS)
def test_round_is_void_when_no_card_is_left(rs):
    r = rnd(rs, 2)
    st = RoundState.position(FILLER, stock=cards("KD"), discards=(), randomness=r)
    eng = MarriageEngine(rs)
    st = eng.apply(st, Draw(0, "stock"))
    st = eng.apply(st, Discard(0, card("KD")))
    assert eng.is_over(st) and st.void_reason == VOID_STOCK and eng.to_move(st) is None
    out = eng.outcome(st)
    assert out.winner is None
    # D-10: no seen payments; each pays each other the difference: net_i = n*S_i - T
    total = sum(out.points)
    assert out.net_points == tuple(2 * s - total for s in out.points)


# rule D-10: a table's turn cap ends the round void
def test_turn_cap_ends_the_round_void():
    rs = resolve("marriage/nepal", {"turn_cap": 3})
    eng = MarriageEngine(rs)
    st = eng.start(rnd(rs, 3), dealer=2)
    for _ in range(3):
        assert not eng.is_over(st)
        st = eng.apply(st, Draw(st.turn_seat, "stock"))
        st = eng.apply(st, Discard(st.turn_seat, st.drawn))
    assert eng.is_over(st) and st.void_reason == VOID_TURN_CAP and st.turns == 3
    assert eng.outcome(st).detail["void_reason"] == "turn_cap"


# rules D-10, MN-28: putali score in a void round where nobody showed; nets are the differences
def test_void_round_outcome_counts_putali_without_a_show():
    r = rnd(NEPAL, 3)
    hands = [cards("JK JK 2S 3S"), cards("MC 5H 6H 7H"), cards("9C 9D 9S KC")]
    st = RoundState.position(hands, stock=cards("4D"), discards=(), randomness=r)
    eng = MarriageEngine(NEPAL)
    st = eng.apply(st, Draw(0, "stock"))
    st = eng.apply(st, Discard(0, card("4D")))
    out = eng.outcome(st)
    assert out.points == (15, 10, 0)             # two putali 15 (MN-30), master 10
    assert out.net_points == (3 * 15 - 25, 3 * 10 - 25, 0 - 25)
    assert sum(out.net_points) == 0 and out.detail["tiplu"] is None


# rules MC-20, MC-28, MC-31: a finished round pays through the winner: T + w - n*S
def test_finished_round_outcome_streamlined():
    r = rnd(CLASSIC, 3)
    win = cards("3C 4C 5C 7D 8D 9D JS QS KS 2H 3H 4H 6S 7S 8S AD 2D 3D 9C 9H 5H")
    hands = [win, cards("2C 2C 4S 6D 9H"), cards("AS 5D 7H TH JC")]
    st = RoundState.position(hands, stock=cards("9S AC KH"), discards=cards("QH"), randomness=r)
    eng = MarriageEngine(CLASSIC)
    st = eng.apply(st, Draw(0, "stock", card("9S")))
    st = eng.apply(st, Show(0, (cards("3C 4C 5C"), cards("7D 8D 9D"), cards("JS QS KS"))))
    tiplu = st.tiplu
    assert tiplu in cards("AC KH")
    fin = eng.legal_moves(st)[0]
    assert isinstance(fin, Finish)
    st = eng.apply(st, fin)
    out = eng.outcome(st)
    assert out.winner == 0 and out.breakdown[0]["seen"] and not out.breakdown[1]["seen"]
    n, total = 3, sum(out.points)
    pays = [total + 10 - n * out.points[i] for i in (1, 2)]   # neither opponent saw: w = 10
    assert out.net_points == (sum(pays), -pays[0], -pays[1])


# rules D-6, D-3: a real round auto-played to the end of the stock: the discards but the
# latest become the new stock, shuffled by the hand's own reshuffle stream, and the game
# replays bit for bit from its JSON moves
@pytest.mark.parametrize("rs", PRESETS)
def test_auto_played_round_reshuffles_and_replays(rs):
    eng, r, st = start(rs, 4)
    moves = []
    while st.reshuffles == 0:
        seat = st.turn_seat
        for move in (Draw(seat, "stock", auto=True), None):
            move = move or Discard(seat, st.drawn, auto=True)
            moves.append(move.to_json())
            before = st
            st = eng.apply(st, move)
    stock_at_deal = 75 if rs is NEPAL else 71          # 160 or 156 cards less 84 dealt, 1 turned up
    assert st.turns == stock_at_deal and before.stock == ()
    last = before.seat(before.turn_seat).hand       # (the discard came from this hand)
    assert st.discards[-1] in last and len(st.discards) == 1
    assert st.stock == tuple(r.reshuffle(1, before.discards))
    again = MarriageEngine(rs).start(r, dealer=st.dealer)
    for m in moves:
        again = eng.apply(again, eng.parse_move(m))
    assert again.to_json() == st.to_json()
