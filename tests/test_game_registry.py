"""A game is one object (replay.game.Game) found through one registry (replay.registry):
every preset's game exports GAME, and the parts the house uses come from it."""
import copy
import json
from pathlib import Path

import pytest

from replay.errors import RulesetError
from replay.faults import Reason
from replay.game import CarryError, DealLayout, Game, View
from replay.records import parse_record
from replay.registry import game_for, game_names, presets
from replay.replayer import replay_record
from replay.rulesets import PRESETS, resolve

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = {p: json.loads((ROOT / "fixtures/records" / p.replace("/", "-") / "golden-0.json").read_text())
          for p in PRESETS}
# one valid `tiplu eval` request per game (docs/<game>.md)
REQUEST = {"marriage": {"op": "settle", "preset": "marriage/nepal", "scores": [10, 0, 5], "winner": 0,
                        "seen": [True, True, False]},
           "kitti": {"op": "rank", "cards": ["AS", "AH", "AD"]},
           "rummy13": {"op": "settle", "points": [0, 20, 30, 40], "winner": 0, "point_value": "0.25"}}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_presets_game_is_one_object_with_every_part(preset):
    game = game_for(resolve(preset).game)
    assert isinstance(game, Game) and game.name == resolve(preset).game
    assert isinstance(game.deal_layout, DealLayout)
    engine = game.engine(resolve(preset))
    moves = GOLDEN[preset]["moves"]
    move = game.parse_move_json({k: v for k, v in moves[0].items() if k != "time"})
    assert game.parse_move_text(str(move)) == move == engine.parse_move(move.to_json())
    assert "error" not in game.eval_handlers(REQUEST[game.name])


def test_the_registry_lists_every_preset_and_game_once():
    assert presets() == PRESETS == ("marriage/nepal", "marriage/classic", "kitti", "rummy13")
    assert game_names() == ("marriage", "kitti", "rummy13")
    with pytest.raises(RulesetError, match="no engine for game 'chess'"):
        game_for("chess")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_view_is_a_plain_value_of_card_text(preset):
    rec = parse_record(GOLDEN[preset])
    game = game_for(rec.ruleset.game)
    views = []
    replay_record(rec, visit=lambda i, m, state: views.append(game.view(state)))
    assert views and all(isinstance(v, View) for v in views)
    deal = views[0]
    assert len(deal.hands) == rec.table.n_seats and all(deal.hands)   # every seat's hand, even Marriage's
    assert json.loads(json.dumps(deal.to_json())) == deal.to_json()    # plain JSON
    assert all(isinstance(line, str) for line in deal.lines())


def _with_carry(preset, carry):
    rec = copy.deepcopy(GOLDEN[preset])
    rec["table"]["carry"] = carry
    return replay_record(parse_record(rec), strict=False)


@pytest.mark.parametrize("preset,carry", [
    ("kitti", {"pot_before": 0, "dealer": 1}),     # once a TypeError from start(): a duplicate keyword
    ("kitti", {"bonus": 5}),
    ("rummy13", {"pot_before": 0}),
    ("marriage/nepal", {"dealer": 1}),
    ("marriage/nepal", {"self": 1}),
])
def test_a_carry_key_the_game_does_not_carry_is_a_typed_fault(preset, carry):
    # rule D-14: only Kitti carries a pot between hands; anything else in table.carry is
    # a malformed record, decided by the game object before its engine starts
    result = _with_carry(preset, carry)
    assert [f.reason for f in result.faults] == [Reason.MALFORMED]
    assert "cannot start the hand" in result.faults[0].message
    assert "multiple values" not in result.faults[0].message
    with pytest.raises(CarryError):
        game_for(resolve(preset).game).table_options(carry)


def test_the_carry_the_game_takes_still_replays_clean():
    assert _with_carry("kitti", {"pot_before": 0}).faults == ()
    assert _with_carry("rummy13", {}).faults == ()
    assert dict(game_for("kitti").carry) == {"pot_before": 0}


def test_the_bots_are_the_simulators_found_by_the_games_name():
    from audit.sim.bots import bot_for

    for name in game_names():
        assert callable(bot_for(name))
    assert not list((ROOT / "replay").rglob("bot.py"))   # the pure library needs no bot
    with pytest.raises(LookupError):
        bot_for("chess")
