"""Moves in words with suit symbols, per game, from one place (replay.describe)."""
from __future__ import annotations

import json
import pathlib

from click.testing import CliRunner

from audit.cli import main
from replay.cards import card_symbol, parse_card
from replay.describe import describe_move
from replay.game import engine_for
from replay.rulesets import resolve

ROOT = pathlib.Path(__file__).resolve().parents[1]
PLAYERS = ["asha", "bikash", "chandra", "dipa"]


def _say(preset, move_json):
    engine = engine_for(resolve(preset))
    return describe_move(engine, engine.parse_move(move_json), PLAYERS)


def test_card_symbols():
    assert [card_symbol(parse_card(c)) for c in ("5S", "TH", "AD", "KC", "JK", "MC")] == \
        ["5♠", "10♥", "A♦", "K♣", "joker", "master card"]


def test_marriage_moves_in_words():
    # rule MC-14: a turn is a draw (stock or the latest discard) and a discard
    assert _say("marriage/nepal", {"type": "draw", "seat": 2, "source": "stock"}) == "chandra draws from the stock"
    assert _say("marriage/nepal", {"type": "draw", "seat": 2, "source": "discard", "card": "5S"}) == \
        "chandra takes 5♠ from the discards"
    assert _say("marriage/nepal", {"type": "discard", "seat": 2, "card": "5S"}) == "chandra discards 5♠"
    assert _say("marriage/classic", {"type": "show", "seat": 0, "sets": [["2H", "3H", "4H"]]}) == \
        "asha shows pure sets: 2♥ 3♥ 4♥"


def test_kitti_and_rummy_moves_in_words():
    assert _say("kitti", {"type": "fold", "seat": 1}) == "bikash folds"
    assert _say("rummy13", {"type": "pick", "seat": 3, "source": "closed"}) == "dipa picks from the closed pile"
    assert _say("rummy13", {"type": "pick", "seat": 3, "source": "open", "card": "TC"}) == "dipa picks 10♣ from the open pile"
    assert _say("rummy13", {"type": "drop", "seat": 0}) == "asha drops"


def test_tiplu_replay_and_the_website_share_the_words(tmp_path):
    rec = ROOT / "fixtures" / "records" / "marriage-nepal" / "golden-0.json"
    out = CliRunner().invoke(main, ["replay", str(rec)])
    assert out.exit_code == 0, out.output
    assert "== move 3: bikash discards 10♥  [1 discard TH] ==" in out.output
    # the worked settlement: T + w − n·S with its numbers (rule MC-31) and points × rate (rule D-2)
    assert "asha: T + w − n·S = 10 + 15 − 4·5 = 5" in out.output
    assert "bikash: +28 × 0.25 = 7.00; − 5% commission 0.35 = 6.65" in out.output
    from web.data import replay_steps
    steps = replay_steps(json.loads(rec.read_text()))["steps"]
    assert steps[4]["words"] == "bikash discards 10♥"
