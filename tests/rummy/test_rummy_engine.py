"""The rummy engine: the deal, turns, reshuffles, every way to leave a deal, the outcome."""
from dataclasses import replace

import pytest

from replay.errors import DeckMismatchError
from hypothesis import given, settings, strategies as st

from replay.cards import parse_card, parse_cards
from replay.errors import IllegalMoveError, MalformedError, RulesetError
from replay.fairness import hand_randomness
from replay.game import engine_for
from replay.rulesets import resolve
from replay.rummy.engine import RummyEngine
from replay.rummy.groups import wild_rank_of
from replay.rummy.moves import Declare, Discard, Drop, Pick, parse_move, parse_move_text
from replay.shoes import canonical_shoe

RS = resolve("rummy13")
SERVER = bytes(range(32))


def start(n=4, dealer=None, rs=RS, hand_id="rummy-1"):
    """A real deal; by default the last seat deals, so seat 0 plays first."""
    r = hand_randomness(SERVER, hand_id, rs, [bytes([i + 1]) * 16 for i in range(n)])
    engine = engine_for(rs)
    return engine, engine.start(r, dealer=n - 1 if dealer is None else dealer), r


def table(hands, closed, open_pile, indicator="AC", turn=1, rs=RS):
    """A real deal's state with chosen cards (seat order), for hand-computed outcomes."""
    engine, state, _r = start(len(hands), rs=rs)
    ind = parse_card(indicator)
    return engine, replace(state, hands=tuple(parse_cards(h) for h in hands), closed=parse_cards(closed),
                           open_pile=parse_cards(open_pile), indicator=ind, wild=wild_rank_of(ind), turn=turn)


@pytest.mark.parametrize("n,size", [(4, 106), (6, 106), (8, 159)])
def test_deal_layout(n, size):  # rules, D-18, D-19
    engine, state, r = start(n, dealer=n - 1)
    shoe = r.shoe()
    assert len(canonical_shoe(RS, n)) == size
    assert all(len(h) == 13 for h in state.hands)
    assert state.indicator == shoe[13 * n] and state.open_pile == (shoe[13 * n + 1],)
    assert state.closed == tuple(shoe[13 * n + 2:])
    assert state.turn == 0  # the dealer's left starts


@pytest.mark.parametrize("n", [4, 6, 8])
def test_the_sliced_deal_is_the_card_by_card_deal(n):  # rules, D-19, D-4
    # RummyEngine.start reads the v1 shoe by slices; replay.deal.deal deals it card by card
    from replay.deal import deal as deal_shoe
    for dealer in range(n):
        for h in range(3):
            engine, state, r = start(n, dealer=dealer, hand_id=f"slices-{n}-{dealer}-{h}")
            d = deal_shoe(RS, r.shoe(), n, dealer)
            assert (state.hands, state.indicator, state.open_pile, state.closed) == (
                d.hands, d.indicator, (d.turned_up,), d.stock)
            assert engine._deal(r.shoe(), n, dealer) == d
    with pytest.raises(RulesetError):  # a shoe too short: deal's own error
        engine._deal(r.shoe()[:13 * n + 1], n, 0)


def test_first_turn_is_dealers_left():  # rules D-4, R-1
    engine, state, _ = start(6, dealer=2)
    assert engine.to_move(state) == 3


def test_closed_pick_takes_the_deck_card_and_open_pick_is_public():  # rule R-6
    engine, state, _ = start()
    top = state.closed[0]
    s1 = engine.apply(state, Pick(0, "closed"))
    assert s1.hands[0][-1] == top and s1.closed == state.closed[1:]
    with pytest.raises(DeckMismatchError, match=r"^the record lists 8H for a closed pick the deck makes AH \(rule D-3\)$") as exc:  # rule D-3: the deck decides a closed pick
        engine.apply(state, Pick(0, "closed", state.closed[1]))
    assert exc.value.rule == "D-3"
    open_top = state.open_pile[-1]
    assert Pick(0, "open", open_top) in engine.legal_moves(state)
    s2 = engine.apply(state, Pick(0, "open", open_top))
    assert s2.hands[0][-1] == open_top and s2.open_pile == ()
    with pytest.raises(IllegalMoveError, match=r"^one pick per turn; now discard or declare \(rule R-6\)$"):
        engine.apply(s2, Pick(0, "closed"))  # one pick per turn
    s3 = engine.apply(s2, Discard(0, s2.hands[0][0]))
    assert s3.open_pile == (s2.hands[0][0],) and s3.turn == 1 and len(s3.hands[0]) == 13


def test_out_of_turn_and_unheld_cards_are_illegal():  # rule R-6
    engine, state, _ = start()
    with pytest.raises(IllegalMoveError, match=r"^it is seat 0's turn, not seat 2's \(rule R-6\)$"):
        engine.apply(state, Pick(2, "closed"))
    s1 = engine.apply(state, Pick(0, "closed"))
    missing = next(c for c in parse_cards("AS 2S 3S 4S 5S 6S") if c not in s1.hands[0])
    with pytest.raises(IllegalMoveError, match=r"^seat 0 does not hold AS \(rule R-6\)$"):
        engine.apply(s1, Discard(0, missing))


@pytest.mark.parametrize("allowed", [True, False])
def test_joker_pickup_setting(allowed):  # rule D-24
    rs = resolve("rummy13", {"joker_pickup": allowed})
    hands = ["2H 3H 4H 5S 6S 7S 8S 9D 9C 9S KD KC QH"] * 4
    engine, state = table(hands, "5C 6C", "3D JK", rs=rs, turn=0)
    if allowed:
        assert engine.apply(state, Pick(0, "open", parse_card("JK"))).hands[0][-1] == parse_card("JK")
    else:
        with pytest.raises(IllegalMoveError, match=r"^JK is a joker and this table forbids picking jokers from the open pile \(rule D-24\)$") as exc:
            engine.apply(state, Pick(0, "open"))
        assert exc.value.rule == "D-24"


def test_closed_pile_running_out_is_reshuffled_from_the_stream():  # rules D-20, D-3
    hands = ["2H 3H 4H 5S 6S 7S 8S 9D 9C 9S KD KC QH"] * 4
    engine, state = table(hands, "5C", "3D 4D 8H TC", turn=0)
    s1 = engine.apply(state, Pick(0, "closed"))
    s2 = engine.apply(s1, Discard(0, parse_card("QH")))
    expected = state.randomness.reshuffle(1, parse_cards("3D 4D 8H TC"))
    assert s2.closed == tuple(expected) and s2.open_pile == parse_cards("QH") and s2.reshuffles == 1


DECLARER = "2H 3H 4H 5S 6S 7S 8S 9D 9C 9S KD KC JK"
SEAT0 = "4S 5S 6S 7H 8H 9H AS 3D 3C 2D 2S 6C TD"   # 20: loose 2D 2S 6C TD
SEAT2 = "2H 3H 5H JK 9S 9D 9C KD KC QC 8C 6D TS"   # 91: no pure sequence
SEAT3 = "5D 6D 7D 5C 9H QH QS QD 8H KS JH TC 2C"   # 84: one pure run excused


def test_valid_declaration_ends_the_deal_and_counts_the_rest():  # rules, D-21, D-22
    engine, state = table([SEAT0, DECLARER, SEAT2, SEAT3], "QH 4C", "3S")
    s1 = engine.apply(state, Pick(1, "closed", parse_card("QH")))
    groups = tuple(parse_cards(g) for g in ["2H 3H 4H", "5S 6S 7S 8S", "9D 9C 9S", "KD KC JK"])
    assert any(isinstance(m, Declare) for m in engine.legal_moves(s1))
    s2 = engine.apply(s1, Declare(1, parse_card("QH"), groups))
    assert engine.is_over(s2) and engine.to_move(s2) is None
    out = engine.outcome(s2)
    assert out.points == (20, 0, 91, 84)
    assert out.net_points == (-20, 195, -91, -84)  # rule R-2: players pay each other
    assert out.winner == 1
    assert [b["left"] for b in out.breakdown] == ["counted", "declared", "counted", "counted"]
    assert sorted(out.breakdown[0]["counted"]) == ["2D", "2S", "6C", "TD"]
    assert out.breakdown[1]["finish_card"] == "QH"


def test_declaration_must_show_the_cards_held():  # rule R-7
    engine, state = table([SEAT0, DECLARER, SEAT2, SEAT3], "QH 4C", "3S")
    s1 = engine.apply(state, Pick(1, "closed"))
    groups = tuple(parse_cards(g) for g in ["2H 3H 4H", "5S 6S 7S 8S", "9D 9C 9S", "KD KC KH"])
    with pytest.raises(IllegalMoveError, match=r"^a declaration shows exactly the 13 cards held besides the finish card \(rule R-7\)$") as exc:
        engine.apply(s1, Declare(1, parse_card("QH"), groups))
    assert exc.value.rule == "R-7"


def test_wrong_declaration_scores_80_and_the_rest_play_on():  # rules R-18, D-21
    engine, state = table([SEAT0, DECLARER, SEAT2, SEAT3], "QH 4C", "3S")
    s1 = engine.apply(state, Pick(1, "closed"))
    # KD QH JK is no group: the show is wrong
    groups = tuple(parse_cards(g) for g in ["2H 3H 4H", "5S 6S 7S 8S", "9D 9C 9S", "KD QH JK"])
    s2 = engine.apply(s1, Declare(1, parse_card("KC"), groups))
    assert not engine.is_over(s2) and s2.turn == 2 and s2.status[1] == "wrong_declaration"
    # seat 2 picks and discards; play skips seat 1 from now on
    s3 = engine.apply(engine.apply(s2, Pick(2, "closed")), Discard(2, parse_card("QC")))
    s4 = engine.apply(engine.apply(s3, Pick(3, "closed")), Discard(3, parse_card("2C")))
    assert s4.turn == 0
    s5 = engine.apply(engine.apply(s4, Pick(0, "closed")), Discard(0, parse_card("TD")))
    assert s5.turn == 2
    for seat in (2, 3):
        s5 = engine.apply(s5, Drop(seat))
    assert engine.is_over(s5)
    out = engine.outcome(s5)
    assert out.points == (0, 80, 40, 40) and out.winner == 0  # the last player left wins
    assert [b["left"] for b in out.breakdown] == ["last_left", "wrong_declaration", "middle_drop", "middle_drop"]


def test_first_drop_20_middle_drop_40_last_player_left_wins():  # rules, D-21
    engine, state, _ = start()
    s = engine.apply(state, Drop(0))                      # seat 0 never picked: first drop
    s = engine.apply(engine.apply(s, Pick(1, "closed")), Discard(1, s.hands[1][0]))
    s = engine.apply(s, Drop(2))                          # first drop
    s = engine.apply(engine.apply(s, Pick(3, "closed")), Discard(3, s.hands[3][0]))
    s = engine.apply(s, Drop(1))                          # had picked: middle drop
    assert engine.is_over(s)
    out = engine.outcome(s)
    assert out.points == (20, 40, 20, 0) and out.net_points == (-20, -40, -20, 80) and out.winner == 3
    with pytest.raises(IllegalMoveError, match=r"^the deal is over \(rule R-7\)$"):
        engine.apply(s, Pick(3, "closed"))


def test_drop_only_before_picking():  # rule R-17
    engine, state, _ = start()
    s1 = engine.apply(state, Pick(0, "closed"))
    with pytest.raises(IllegalMoveError, match=r"^a player drops at the start of a turn, before picking \(rule R-17\)$"):
        engine.apply(s1, Drop(0))


def test_timeouts_are_auto_played_then_the_chair_is_dropped():  # rules, D-23
    engine, s, _ = start()
    assert RS["max_missed_turns"] == 3
    for turn in range(3):
        top = s.closed[0]
        s = engine.apply(s, Pick(0, "closed", auto=True))
        with pytest.raises(IllegalMoveError, match=r"^a turn picked automatically is discarded automatically \(rule D-23\)$"):
            engine.apply(s, Discard(0, s.hands[0][0]))  # an auto pick is discarded automatically
        s = engine.apply(s, Discard(0, top, auto=True))
        if turn < 2:
            for seat in (1, 2, 3):
                s = engine.apply(engine.apply(s, Pick(seat, "closed")), Discard(seat, s.hands[seat][0]))
    assert s.turn == 0 and engine.legal_moves(s) == [Drop(0, auto=True)]
    with pytest.raises(IllegalMoveError, match=r"^seat 0 missed 3 turns in a row: the table drops it \(rule D-23\)$") as exc:
        engine.apply(s, Pick(0, "closed"))
    assert exc.value.rule == "D-23"
    s = engine.apply(s, Drop(0, auto=True))
    assert s.status[0] == "timeout_drop" and s.turn == 1
    for seat in (1, 2):
        s = engine.apply(s, Drop(seat))
    out = engine.outcome(s)
    assert out.points[0] == RS["middle_drop"] == 40  # rule R-17: the middle-drop score
    assert out.breakdown[0]["left"] == "timeout_drop"


def test_a_played_turn_resets_missed_turns():  # rule D-23
    engine, s, _ = start()
    top = s.closed[0]
    s = engine.apply(engine.apply(s, Pick(0, "closed", auto=True)), Discard(0, top, auto=True))
    assert s.missed[0] == 1
    for seat in (1, 2, 3):
        s = engine.apply(engine.apply(s, Pick(seat, "closed")), Discard(seat, s.hands[seat][0]))
    s = engine.apply(engine.apply(s, Pick(0, "closed")), Discard(0, s.hands[0][0]))
    assert s.missed[0] == 0


def test_scores_are_settings():  # rules D-1, R-16, R-18
    rs = resolve("rummy13", {"first_drop": 25, "wrong_declaration": 100})
    engine, state, _ = start(rs=rs)
    s = state
    for seat in (0, 1, 2):
        s = engine.apply(s, Drop(seat))
    assert engine.outcome(s).points == (25, 25, 25, 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([4, 6, 8]))
def test_random_legal_play_round_trips_and_never_breaks(seed, n):  # rules R-6, D-21
    engine, s, _ = start(n, dealer=seed % n, hand_id=f"prop-{seed}")
    from replay.stream import Stream
    rng = Stream(SERVER, bytes(32), f"walk:{seed}")
    for _ in range(400):
        if engine.is_over(s):
            break
        moves = engine.legal_moves(s)
        move = moves[rng.randbelow(len(moves))]
        assert parse_move(move.to_json()) == move and parse_move_text(str(move)) == move
        s = engine.apply(s, move)
        assert sum(len(h) for h in s.hands) + len(s.closed) + len(s.open_pile) == len(canonical_shoe(RS, n)) - 1
    if engine.is_over(s):
        out = engine.outcome(s)
        assert sum(out.net_points) == 0


def test_move_parsing_errors():
    with pytest.raises(MalformedError, match=r"^type: unknown move type 'fly'$"):
        parse_move({"type": "fly", "seat": 0})
    with pytest.raises(MalformedError, match=r"^source: source must be 'closed' or 'open'$"):
        parse_move({"type": "pick", "seat": 0, "source": "side"})
    with pytest.raises(MalformedError, match=r"^not a rummy move: 'zero pick'$"):
        parse_move_text("zero pick")
    assert isinstance(RummyEngine(RS), RummyEngine)


@pytest.mark.parametrize("other", ["kitti", "marriage/nepal"])
def test_a_deal_without_an_indicator_is_a_ruleset_error(other):  # rules R-5, D-19
    # mypy found it (the deal's indicator is optional: Kitti turns nothing up, Marriage no
    # indicator): the engine given another game's randomness crashed with an AttributeError
    # on the missing indicator; it now says what is wrong
    r = hand_randomness(SERVER, "rummy-other", resolve(other), [bytes([i + 1]) * 16 for i in range(4)])
    assert r.deal(3).indicator is None
    with pytest.raises(RulesetError, match=f"a rummy13 deal lays out an indicator .* deals {other.split('/')[0]}'s layout"):
        RummyEngine(RS).start(r, dealer=3)


def test_jokers_of_a_deal_without_an_indicator_are_unknown():  # rule R-5
    from replay.rummy import GAME
    _engine, _state, r = start()
    deal = replace(r.deal(3), indicator=parse_card("7H"))
    is_joker = GAME.jokers_of_hand(RS, deal, None)
    assert [is_joker(parse_card(c)) for c in ("JK", "7S", "7H", "8H", "AS")] == [True, True, True, False, False]
    # a deal with no indicator (another game's layout) names no wild rank: no answer, as the
    # Game contract says for a hand that fixed no jokers (it used to raise AttributeError)
    assert GAME.jokers_of_hand(RS, replace(deal, indicator=None), None) is None
