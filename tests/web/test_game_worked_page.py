"""The hand page's worked settlement takes its words from the game (Game.worked_template,
web/game_templates.py): a fourth game, tests/toy_game, renders its own terms and none of
another game's, and each real game renders its own rule."""
from __future__ import annotations

from decimal import Decimal

import pytest

from replay.rulesets import resolve
from replay.settlement import settle
from replay.worked import work_settlement
from web.game_templates import worked_template

# the rule lines each real game's partial opens with (replay/<game>/worked.html)
RULE_WORDS = ("Rule MC-31", "Rule D-10", "Pot (rules K-1, D-13, D-14)", "Rule R-20")


def _render(app, worked, ruleset, players):
    with app.app_context():
        return app.jinja_env.get_template("_worked.html").render(
            worked=worked, players=players, vj=None, ruleset=ruleset, worked_template=worked_template(ruleset.game))


def test_a_toy_games_worked_settlement_is_in_its_own_words(app, toy):
    from replay.game import Outcome

    rs = resolve("toy")
    engine = toy.GAME.engine(rs)
    # seat 1 shows the king (13) and wins; seats 0 and 2 pay it one point each
    outcome = Outcome((4, 13, 9), (-1, 2, -1), 1)
    settlement = settle(outcome.net_points, point_value=Decimal("0.25"), commission_pct=Decimal("5"))
    players = ["asha", "bikash", "chandra"]
    worked = work_settlement(engine, outcome, settlement, point_value=Decimal("0.25"),
                             commission_pct=Decimal("5"), players=players)
    html = _render(app, worked, rs, players)
    assert 'data-method="toy"' in html
    assert "High card: the highest card shown wins; every other seat pays it one point." in html
    assert "bikash: receives 1 from each of 2 = 2" in html and "asha: shows 4, pays 1" in html
    # 2 x 0.25 = 0.50 gross, 5 % commission 0.03 (half up): the money part is the site's own
    assert "bikash: +2 × 0.25 = 0.50; − 5% commission 0.03 = 0.47" in html
    assert not [w for w in RULE_WORDS if w in html]


def test_tiplu_replays_worked_text_is_in_the_toy_games_words_too(toy):
    # the text form's heading is the game's (Game.worked_heading), or the bare method: never
    # Rummy's R-20 line for a game the CLI does not know
    import dataclasses

    from audit.cli.replay import worked_lines
    from replay import registry
    from replay.game import Outcome

    outcome = Outcome((4, 13, 9), (-1, 2, -1), 1)
    worked = work_settlement(toy.GAME.engine(resolve("toy")), outcome,
                             settle(outcome.net_points, point_value=Decimal("1"), commission_pct=Decimal("0")),
                             point_value=Decimal("1"), commission_pct=Decimal("0"), players=["a", "b", "c"])
    lines = worked_lines(worked, ["a", "b", "c"])
    assert lines[:2] == ["high card: b wins; every other seat pays it 1", "  a: shows 4, pays 1"]
    registry.unregister("toy")
    registry.register(dataclasses.replace(toy.GAME, worked_heading=None), presets={"toy": toy.PRESET})
    assert worked_lines(worked, ["a", "b", "c"])[0] == "settlement (toy)"
    assert not any("R-20" in line or "D-13" in line or "MC-31" in line for line in worked_lines(worked, ["a", "b", "c"]))


def test_a_game_without_words_of_its_own_gets_no_other_games_rule(app, toy):
    import dataclasses

    from replay import registry

    registry.unregister("toy")
    registry.register(dataclasses.replace(toy.GAME, worked_template=None), presets={"toy": toy.PRESET})
    rs = resolve("toy")
    assert worked_template("toy") is None
    worked = {"game": "toy", "points": {"method": "toy", "rows": [{"seat": 0, "sum": "pays 1"}, {"seat": 1, "sum": "gets 1"}]},
              "money": {"rows": [], "commission": "0.00", "pot_delta": "0.00"}}
    html = _render(app, worked, rs, ["asha", "bikash"])
    assert "asha: pays 1" in html and "bikash: gets 1" in html
    assert not [w for w in RULE_WORDS if w in html]


@pytest.mark.parametrize("preset,words", [("marriage/nepal", "Rule MC-31"), ("kitti", "Pot (rules K-1, D-13, D-14)"),
                                          ("rummy13", "Rule R-20")])
def test_each_real_game_renders_its_own_rule_from_its_folder(app, preset, words):
    import json
    from pathlib import Path

    from audit.auditor.verdict.verify import audit_record

    path = Path(__file__).resolve().parents[2] / "fixtures/records" / preset.replace("/", "-") / "golden-0.json"
    v = audit_record(path.read_text(encoding="utf-8"))
    rec = v.replay.record
    html = _render(app, v.replay.worked, rec.ruleset, list(rec.table.players))
    assert words in html and [w for w in RULE_WORDS if w in html] == [words]
    if preset == "marriage/nepal":   # w from the ruleset itself: 3 seen, 10 unseen (MC-28, MC-29)
        assert "w = 3 if it saw the tiplu,\n  10 if not" in html
    assert json.loads(json.dumps(v.replay.worked))["game"] == rec.ruleset.game
