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
    assert game.describe_move(move, ["asha", "bikash", "chandra", "deepa", "esha"]) != str(move)
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
    from audit.operator.sim.bots import bot_for

    for name in game_names():
        assert callable(bot_for(name))
    assert not list((ROOT / "replay").rglob("bot.py"))   # the pure library needs no bot
    with pytest.raises(LookupError, match=r"^no bot plays game 'chess'$"):
        bot_for("chess")
    # the superuser and the colluding move are the game's bot's too (bots/<game>.py:
    # choose_peeking, choose_colluding), found by the one finder, no map
    from audit.operator.sim.bots import kitti, marriage, rummy13
    from audit.operator.sim.collude import kitti_colluding

    assert bot_for("kitti", "colluding") is kitti_colluding and bot_for("rummy13", "colluding") is rummy13.choose_colluding
    assert kitti.choose_colluding is kitti_colluding
    assert bot_for("marriage", "peeking") is marriage.choose_peeking and bot_for("kitti") is kitti.choose_move
    with pytest.raises(LookupError, match="no bot plays game 'chess'"):
        bot_for("chess", "colluding")
    with pytest.raises(ValueError, match="no bot role 'cheat'"):
        bot_for("kitti", "cheat")
    # the naming is the bots' registry: every bot module is named for a game of the registry
    # (a misnamed bot would never be found), and every game has one
    import pkgutil

    from audit.operator.sim import bots

    assert sorted(m.name for m in pkgutil.iter_modules(bots.__path__)) == sorted(game_names())


# --- a fourth game is one folder: tests/toy_game registers (the `toy` fixture, tests/conftest.py)
# and the house finds every part

def _toy_record(tmp_path):
    """A toy hand played by the simulator's bot, as a record (the Kitti golden record's
    seats and seeds, the toy's ruleset and moves)."""
    from audit.operator.sim.play import play_hand
    from replay.fairness import hand_randomness
    from replay.stream import Stream

    rec = copy.deepcopy(GOLDEN["kitti"])
    rec["ruleset"] = resolve("toy").to_json()
    rec["table"]["carry"] = {}
    parsed = parse_record(rec)
    randomness = hand_randomness(parsed.fairness.server_seed, parsed.hand_id, parsed.ruleset,
                                 list(parsed.fairness.player_seeds))
    played = play_hand(randomness, dealer=parsed.table.dealer, carry={}, rng=Stream(b"t" * 32, bytes(32), "bot"))
    rec["moves"] = list(played.moves)
    return rec, randomness, played


def test_a_toy_game_registered_from_its_own_folder_deals_replays_views_and_evaluates(toy, tmp_path):
    from audit.cli.evaluate import answer_lines
    from audit.render import render_state
    from replay.deal import deal
    from replay.shoes import canonical_shoe

    rs = resolve("toy")
    assert rs.game == "toy" and "toy" in presets() and "toy" in game_names()
    # deal: the toy's layout (one card each, then one turned up) from its GAME
    shoe = canonical_shoe(rs, 4)
    dealt = deal(rs, shoe, 4, dealer=3)
    assert dealt.hands == ((shoe[0],), (shoe[1],), (shoe[2],), (shoe[3],))
    assert (dealt.turned_up, dealt.indicator, dealt.stock) == (shoe[4], None, tuple(shoe[5:]))
    # replay: the simulator's bot plays it, the replayer replays the record clean
    rec, randomness, played = _toy_record(tmp_path)
    assert [m["type"] for m in rec["moves"]] == ["show"] * 4
    views = []
    engine = game_for("toy").engine(rs)
    result = replay_record(parse_record(rec), visit=lambda i, m, s: views.append(render_state(engine, s)))
    assert result.faults == () and result.outcome == played.outcome
    assert sum(result.outcome.net_points) == 0 and result.settlement is not None
    # view: the renderers draw the toy's own view
    assert views[0]["hands"] == [[str(c) for c in h] for h in randomness.deal(rec["table"]["dealer"]).hands]
    assert views[0]["lines"][-1].startswith("turned_up: ")
    # eval: tiplu eval's driver answers with the toy's handlers
    out, failed = answer_lines("toy", [b'{"op": "value", "card": "AS"}', b'{"op": "nope"}'])
    assert out.decode().splitlines() == ['{"value":14}', '{"error":"op: toy knows op \'value\'"}'] and failed
    # and its parsers round-trip through the registry
    move = game_for("toy").parse_move_json(rec["moves"][0])
    assert game_for("toy").parse_move_text(str(move)) == move
    # the words of a move: a game without a describer shows its notation
    from replay.describe import describe_move
    assert describe_move(engine, move, ["a", "b", "c", "d"]) == str(move)


def test_a_game_folder_with_presets_is_found_without_a_list_to_edit(tmp_path):
    # the registry finds replay/'s games by scanning for <game>/presets/; the same scan of
    # tests/ finds the toy game's folder, and reading it imports nothing
    import sys

    from replay import registry

    assert list(registry.scan(ROOT / "replay", "replay")) == list(PRESETS)
    sys.modules.pop("tests.toy_game", None)
    found = registry.scan(ROOT / "tests", "tests")
    assert list(found) == ["toy"] and found["toy"].package == "tests.toy_game"
    assert found["toy"].spec["game"] == "toy" and "tests.toy_game" not in sys.modules
    # a preset file order.json does not list is refused, not silently skipped
    bad = tmp_path / "pkg" / "toy" / "presets"
    bad.mkdir(parents=True)
    (bad / "toy.json").write_text((ROOT / "tests/toy_game/presets/toy.json").read_text())
    (bad / "order.json").write_text('{"position": 1, "presets": []}')
    with pytest.raises(RulesetError, match="order.json lists"):
        registry.scan(tmp_path / "pkg", "pkg")


def test_a_toy_game_outside_the_registry_is_unknown():
    with pytest.raises(RulesetError, match="unknown preset 'toy'"):
        resolve("toy")
    with pytest.raises(RulesetError, match="no engine for game 'toy'"):
        game_for("toy")


def test_no_second_map_keyed_by_game_outside_the_registry():
    # the six maps this replaced (GAMES, BOTS, GAME_OPS, CARDS_AFTER_HANDS, PRESET_FILES, the
    # fuzz test's module map) were dict literals keyed by game or preset names
    import ast

    names = set(PRESETS) | set(game_names())
    found = []
    for d in ("replay", "audit", "web"):   # the house; tests may keep data per game
        for path in sorted((ROOT / d).rglob("*.py")):
            if path == ROOT / "replay" / "registry.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Dict):
                    keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                    if len(keys & names) >= 2:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


# --- the guard, widened (issue 31): no game named outside its folder in a comparison, a
# template or the browser's JavaScript either; the game's own words come from its GAME

def _game_folders() -> set[str]:
    from replay import registry

    return {b.package.rsplit(".", 1)[-1] for b in registry.scan(ROOT / "replay", "replay").values()}


def _names_pattern() -> str:
    import re

    names = sorted(set(PRESETS) | set(game_names()), key=len, reverse=True)
    return "|".join(re.escape(n) for n in names)


def _named_constants(tree) -> list[str]:
    """Every string constant that is a game or preset name: a branch (`x == "kitti"`,
    `g in ("marriage", ...)`), a key, a list (`("kitti", 4, 60)`) -- docstrings are prose."""
    import ast

    names, found = set(PRESETS) | set(game_names()), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            found.append(f"{node.lineno}: {node.value!r}")
    return found


def _template_names(text: str) -> list[str]:
    """A game or preset name in quotes in a Jinja template (`worked.game == "kitti"`)."""
    import re

    return re.findall(rf"([\"'])({_names_pattern()})\1", text)


def _js_names(text: str) -> list[str]:
    """A game or preset name in code (comments aside): quoted, or a key (`{marriage: 1}`)."""
    import re

    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = "\n".join(line.split("//", 1)[0] if "://" not in line else line for line in code.splitlines())
    pat = _names_pattern()
    return re.findall(rf"([\"'`])({pat})\1", code) + re.findall(rf"[{{,]\s*({pat})\s*:", code)


def test_the_widened_guard_catches_the_forms_it_replaced():
    # each checker flags the code this issue removed, so a pass below means something
    import ast

    assert _named_constants(ast.parse('x = {} if ruleset.game == "marriage" else None'))
    assert _named_constants(ast.parse('ok = game in ("kitti", "chess")'))
    assert _named_constants(ast.parse('PLAN = [("marriage/nepal", 4, 24)]'))
    assert not _named_constants(ast.parse('ok = game == "chess"'))
    assert _template_names('{% elif worked.game == "kitti" %}')
    assert _js_names('const need = { marriage: 1, rummy13: 2, kitti: 0 }[ruleset.game];')
    assert _js_names('text: report.game === "rummy13" ? "Open pile starts" : "Stock"')
    assert not _js_names(" *   kitti     nothing is turned; the undealt cards are never used\n// marriage: MN-3")


def test_no_game_named_in_the_house_outside_its_folder():
    # wider than the dict-literal guard above: a comparison, a list, an argument too
    folders, found = _game_folders(), []
    for d in ("replay", "audit", "web"):
        for path in sorted((ROOT / d).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if rel.parts[0] == "replay" and len(rel.parts) > 2 and rel.parts[1] in folders:
                continue   # the game's own folder
            found += [f"{rel}:{hit}" for hit in _named_constants(ast_of(path))]
    assert found == []


def ast_of(path):
    import ast

    return ast.parse(path.read_text(encoding="utf-8"))


def test_the_demo_plays_the_registrys_presets(toy):
    # tiplu demo's tables come from each game's presets/order.json ("demo"), in the
    # registry's order; the demo archive is the one it always was
    from audit.cli.demo import demo_plan

    assert demo_plan() == [("marriage/nepal", 4, 24), ("marriage/nepal", 3, 16), ("marriage/classic", 4, 24),
                           ("marriage/classic", 5, 12), ("kitti", 4, 60), ("kitti", 3, 40),
                           ("rummy13", 4, 40), ("rummy13", 6, 30)]
    assert demo_plan(small=True) == [("marriage/nepal", 4, 4), ("marriage/classic", 3, 4), ("kitti", 4, 8),
                                     ("rummy13", 4, 4)]
    assert "toy" in presets()   # a game registered with no demo tables is not in the demo


def test_no_template_names_a_game():
    found = [f"{p.relative_to(ROOT)}: {hit}" for p in sorted((ROOT / "web" / "templates").rglob("*.html"))
             for hit in _template_names(p.read_text(encoding="utf-8"))]
    assert found == []


def test_no_browser_module_names_a_game_outside_the_games_folder():
    # verifier/games/ holds the JavaScript games (index.mjs is their registry, as
    # replay/registry.py is Python's); presets.mjs, gamedata.mjs, recordschema.mjs (the record
    # model's schema, whose games are the registry's) and tiplu-verifier.html are generated
    # from the registry (tools/build_offline_verifier.py)
    static = ROOT / "web" / "static"
    generated = {static / "verifier" / "presets.mjs", static / "verifier" / "gamedata.mjs",
                 static / "verifier" / "recordschema.mjs", static / "tiplu-verifier.html"}
    found = []
    for path in sorted([*static.rglob("*.mjs"), *static.rglob("*.js"), *static.rglob("*.html")]):
        if path in generated or (static / "verifier" / "games") in path.parents:
            continue
        found += [f"{path.relative_to(ROOT)}: {hit}" for hit in _js_names(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_record_model_and_schema_name_the_registrys_presets_and_games():
    # the record's ruleset.preset / ruleset.game enums are the registry's, not a list of
    # their own: the model takes them from the registry, and the schema file (generated from
    # the model, current by tests/audit/test_record_model.py) says the same, in msgspec's order
    from replay.record_model import BUILTIN_GAMES, BUILTIN_PRESETS

    assert BUILTIN_PRESETS == presets() == PRESETS and BUILTIN_GAMES == game_names()
    schema = json.loads((ROOT / "docs" / "hand-record.schema.json").read_text(encoding="utf-8"))
    ruleset = schema["properties"]["ruleset"]
    ruleset = schema.get("$defs", {}).get(ruleset.get("$ref", "").rsplit("/", 1)[-1], ruleset)
    assert ruleset["properties"]["preset"]["enum"] == sorted(PRESETS)
    assert ruleset["properties"]["game"]["enum"] == sorted(game_names())


@pytest.fixture
def eval_command_imported():
    import audit.cli.evaluate  # noqa: F401 - before the toy game registers


def test_tiplu_eval_takes_its_games_from_the_registry_when_it_runs(eval_command_imported, toy):
    # the command's game list is the registry's at run time: the toy game, registered after
    # audit.cli.evaluate was imported, is accepted; an unknown game is a usage error
    from click.testing import CliRunner

    from audit.cli import main

    res = CliRunner().invoke(main, ["eval", "toy"], input='{"op": "value", "card": "KS"}\n')
    assert (res.exit_code, res.output) == (0, '{"value":13}\n')
    res = CliRunner().invoke(main, ["eval", "chess"], input="")
    assert res.exit_code == 2 and "'chess' is not one of 'kitti', 'marriage', 'rummy13', 'toy'" in res.output


def test_the_game_says_what_the_next_hand_carries():
    # rule D-14: Kitti's pot moves on by the hand's pot change; a game that carries nothing
    # carries nothing.  The simulator's tables and the audit report's carry check ask the
    # game (Game.next_carry), and the deal statistics ask it which cards were jokers
    # (Game.jokers_of_hand): none of them knows a carry key or probes an engine.
    from replay.game import Outcome

    out = Outcome((1, 0), (-2, -1), None, pot_delta_points=3)
    assert game_for("kitti").next_carry({"pot_before": 4}, out) == {"pot_before": 7}
    assert game_for("rummy13").next_carry({}, out) == game_for("marriage").next_carry({}, out) == {}
    for path in ("audit/operator/sim/tables.py", "audit/auditor/run/report.py", "audit/auditor/stats/deals.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "pot_before" not in text and "getattr(engine" not in text, path


def test_tiplu_replays_text_shows_every_seats_hand_for_every_game():
    # README: `tiplu replay` shows "every seat's hand and the piles" -- Marriage's too
    for preset in PRESETS:
        rec = parse_record(GOLDEN[preset])
        game = game_for(rec.ruleset.game)
        lines = []
        replay_record(rec, visit=lambda i, m, state: lines.append(game.view(state).lines()))  # noqa: B023 - called within this iteration
        assert [line.split(":")[0] for line in lines[0][:rec.table.n_seats]] == [
            f"seat {i}" for i in range(rec.table.n_seats)], preset


def test_a_long_pile_names_its_real_top():
    # discards and open_pile are oldest first: the top is the last card; stock and
    # closed_pile are top first
    pile = [f"{r}S" for r in "A23456789TJQK"]
    view = View(hands=(), table={"stock": pile, "discards": pile, "open_pile": pile, "closed_pile": pile},
                text=("stock", "discards", "open_pile", "closed_pile"))
    assert view.lines() == ["stock: 13 cards, top AS", "discards: 13 cards, top KS",
                            "open_pile: 13 cards, top KS", "closed_pile: 13 cards, top AS"]
