"""Marriage's discard, joker and feed signals (replay/marriage/discard_joker_signals.py,
replay/marriage/pair_signals.py): each score and null world by hand, the exact windows, and
the planted superuser, joker hunter and colluding pair flagged while the same tables played
honestly flag nobody (docs/collusion.md)."""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from replay.cards import JOKER, parse_cards
from replay.marriage.discard_joker_signals import (discard_observation, hidden_signals, in_discard_window,
                                                   joker_observation)
from replay.marriage.jokers import is_joker
from replay.marriage.moves import DISCARD, STOCK, Discard, Draw, Finish
from replay.marriage.pair_signals import feed_observation, reference_discard
from replay.marriage.signals import use_of
from replay.marriage.state import PLAY, RoundState
from replay.registry import game_for
from replay.rulesets import resolve

from click.testing import CliRunner

from audit.auditor.collusion import review
from audit.auditor.collusion.cheaters import account, played_observations

from web.cli import main

RS = resolve("marriage/nepal")
ENGINE = game_for("marriage").engine(RS)


def _position(**changes):
    """Seat 0 has drawn and is to discard; seat 1 (next, D-4) has not moved; seats 2, 3 have."""
    hands = [parse_cards("5H 6H 9S 9S KD 2C 2D 3C"), parse_cards("7H 8H 4D 4D QS"),
             parse_cards("AS AS"), parse_cards("JC JC")]
    seats = {0: {"has_drawn": True}, 2: {"has_drawn": True}, 3: {"has_drawn": True}}
    return RoundState.position(hands, stock=parse_cards("9H TD 4D JK 2S"), discards=parse_cards("KC"),
                               turn_seat=0, seats=seats, phase=PLAY, **changes)


class Bottom:
    """Redeals that always pick the last place: a shuffle that keeps the order, the stock's bottom."""

    def __init__(self):
        self.calls = []

    def shuffle(self, items):
        self.calls.append(list(items))
        return list(items)

    def randbelow(self, n):
        self.calls.append(n)
        return n - 1


def test_a_discard_scores_minus_its_use_to_the_unmoved_next_hand():
    state = _position()
    rng = Bottom()
    # rule MC-14: only the next seat may take the latest discard; rule MN-14: the use of 6H to
    # seat 1's 7H 8H is a pure sequence completed (2)
    obs = discard_observation(ENGINE, state, Discard(0, parse_cards("6H")[0]), rng, redeals=2)
    assert obs.signal == "marriage.discard" and obs.seat == 0 and obs.actual == -2
    # the null world: seat 1's five cards redealt with the stock (a keeping shuffle: the hand itself
    # first, so each redeal is the real hand again -- the pool is exactly hand + stock)
    assert rng.calls == [list(state.seat(1).hand) + list(state.stock)] * 2 and obs.null == (-2, -2)
    assert discard_observation(ENGINE, state, Discard(0, parse_cards("KD")[0]), Bottom()).actual == 0


def test_the_discard_window_is_an_unmoved_next_seat_only():
    state = _position()
    card = parse_cards("KD")[0]
    assert in_discard_window(ENGINE, state, Discard(0, card)) == 1
    assert in_discard_window(ENGINE, state, Discard(0, card, auto=True)) is None       # a timed-out turn
    moved = replace(state, seats=(state.seat(0), replace(state.seat(1), has_drawn=True)) + state.seats[2:])
    assert in_discard_window(ENGINE, moved, Discard(0, card)) is None                   # seat 1 has drawn
    # rule MN-19: a tunnela laid at the deal is a move too
    laid = replace(state, seats=(state.seat(0), replace(state.seat(1), tunnelas_at_deal=(parse_cards("2S 2S 2S"),)))
                   + state.seats[2:])
    assert in_discard_window(ENGINE, laid, Discard(0, card)) is None
    assert in_discard_window(ENGINE, replace(state, reshuffles=1), Discard(0, card)) is None   # rule D-6
    assert hidden_signals(ENGINE, state, Finish(0, (), card), Bottom()) == []              # the round ends


def test_a_draw_scores_the_real_jokers_on_top_of_the_stock():
    # tiplu 9D: rule MN-25 makes 9H its alter, a joker (rule MN-32) -- hidden from a seat that has
    # not seen it, scored all the same; the stock's top is 9H
    state = replace(_position(), phase="draw", tiplu=parse_cards("9D")[0])
    assert is_joker(state.stock[0], state.tiplu, RS)
    rng = Bottom()
    took = joker_observation(ENGINE, state, Draw(0, STOCK), rng, redeals=2)
    assert took.signal == "marriage.joker" and took.actual == 1
    assert rng.calls == [len(state.stock)] * 2 and took.null == (0, 0)     # the bottom 2S is no joker
    left = joker_observation(ENGINE, state, Draw(0, DISCARD, state.discards[-1]), Bottom(), redeals=2)
    assert left.actual == -1 and left.null == (0, 0)
    # before the first show only the putali and the master card are jokers (rule MN-28)
    early = replace(state, tiplu=None, stock=(JOKER,) + state.stock[1:])
    assert joker_observation(ENGINE, early, Draw(0, STOCK), Bottom()).actual == 1
    assert joker_observation(ENGINE, replace(state, tiplu=None), Draw(0, STOCK), Bottom()).actual == 0
    assert joker_observation(ENGINE, state, Draw(0, STOCK, auto=True), Bottom()) is None
    signals = {o.signal for o in hidden_signals(ENGINE, state, Draw(0, STOCK), Bottom())}
    assert signals == {"marriage.pick", "marriage.joker"}


def test_the_feed_scores_against_the_discarder_s_own_least_useful_card():
    state = _position()
    hand = Counter(state.seat(0).hand)
    # seat 0 holds 5H 6H 9S 9S KD 2C 2D 3C: KD is of no use to its own sets (rule MN-14), and
    # among the cards of use 0 the highest code is thrown
    ref = reference_discard(ENGINE, state, 0)
    assert ref == parse_cards("KD")[0]
    rest = hand.copy()
    rest[ref] -= 1
    assert use_of(rest, ref, shown=False) == 0
    fed = feed_observation(ENGINE, state, Discard(0, parse_cards("6H")[0]), Bottom(), redeals=2)
    # 6H to seat 1 (7H 8H): use 2; KD: use 0 -- the pair score is 2 - 0
    assert fed.signal == "marriage.feed" and (fed.seat, fed.target) == (0, 1) and fed.actual == 2
    same = feed_observation(ENGINE, state, Discard(0, ref), Bottom(), redeals=2)
    assert same.actual == 0 and same.null == (0, 0)
    # the discard just taken is never the reference (rule MC-14)
    assert reference_discard(ENGINE, replace(state, taken=ref), 0) != ref


# The discard and feed windows give about three decisions a round at a table of four, so an
# account is tested on them (50 decisions) only after some 70 hands: these tables play 100
# hands each, three times (honest, a superuser, a pair) -- about 30 s here, hence slow.

@pytest.fixture(scope="module")
def honest_tables():
    """The two tables of four, 100 hands each, played honestly (the seed of the planted tests)."""
    return review(played_observations("marriage/nepal", tables=2, players=4, hands=100,
                                      seed="test-marriage-discard"))


@pytest.mark.slow
def test_the_same_tables_played_honestly_flag_nobody(honest_tables):
    assert honest_tables.flags == () and honest_tables.pair_flags == ()
    tested = Counter(t.signal for t in honest_tables.tests if t.tested)
    assert tested == {"marriage.pick": 8, "marriage.joker": 8, "marriage.discard": 8}
    assert {t.signal for t in honest_tables.pair_tests if t.tested} >= {"marriage.feed", "tokens.flow"}


@pytest.mark.slow
def test_a_planted_superuser_is_flagged_on_its_discards_and_honest_seats_are_not():
    # docs/collusion.md: the superuser of every Marriage signal at one of two tables of four,
    # flagged on marriage.discard (and its draws) within 100 hands of its table; nobody else
    obs = played_observations("marriage/nepal", tables=2, players=4, hands=100, seed="test-marriage-discard",
                              peek={(0, 0): 1000})
    rep = review(obs)
    assert {t.account for t in rep.flags} == {account(0, 0)} and rep.pair_flags == ()
    assert {t.signal for t in rep.flags} >= {"marriage.discard", "marriage.pick"}


@pytest.mark.slow
def test_a_planted_colluding_pair_is_flagged_on_the_feed():
    # docs/collusion.md: seat 0 feeds seat 1, who draws next, on every discard; the pair is
    # flagged on marriage.feed within 100 hands of its table, and no account alone
    obs = played_observations("marriage/nepal", tables=2, players=4, hands=100, seed="test-marriage-discard",
                              collude={0: (0, 1, 1000)})
    rep = review(obs)
    assert rep.flags == ()
    assert [(t.account, t.target, t.signal) for t in rep.pair_flags] == [(account(0, 0), account(0, 1),
                                                                         "marriage.feed")]


def test_cli_plants_a_marriage_pair_and_shows_every_marriage_signal(tmp_path):
    # tiplu simulate --collude-seats at Marriage (docs/collusion.md): asha feeds bikash, who draws
    # next; tiplu collusion --json flags the pair on marriage.feed and lists the account signals
    out = tmp_path / "pair.jsonl"
    res = CliRunner().invoke(main, ["simulate", "--preset", "marriage/nepal", "--hands", "80", "--seed", "cli-mpair",
                                    "--collude-seats", "0,1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["collusion", str(out), "--json", "--no-progress"])
    assert res.exit_code == 1, res.output
    data = json.loads(res.output)
    assert [(f["accounts"], f["signal"]) for f in data["pair_flags"]] == [(["asha", "bikash"], "marriage.feed")]
    assert data["flags"] == []
    assert {t["signal"] for t in data["accounts"]} == {"marriage.pick", "marriage.joker", "marriage.discard"}
    assert {"marriage.pick", "marriage.joker", "marriage.discard"} <= set(data["signals"])
    assert "marriage.feed" in data["pair_signals"]
