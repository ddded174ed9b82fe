"""``tiplu eval marriage``: the JSON-lines operations, through the library and the CLI."""
import json

from click.testing import CliRunner

from audit.cli import main
from audit.cli.evaluate import evaluate_line
from replay.marriage.eval_requests import evaluate


def ask(request):
    return evaluate_line("marriage", json.dumps(request))


# rules MN-27, MN-29: the maal op counts hand plus table (a poplu in a shown sequence)
def test_maal_op():
    answer = ask({"op": "maal", "preset": "marriage/nepal", "tiplu": "7H", "hand": ["7H", "6H", "JK"],
                  "table": ["8H", "9H", "TH"], "seen": True})
    assert answer == {"maal": 15, "items": [
        {"item": "marriage", "cards": ["7H", "8H", "6H"], "points": 10},
        {"item": "putali", "cards": ["JK"], "points": 5}]}


# rule MN-31: 45 for the putali tunnela laid at the deal and later seen, via the op
def test_maal_op_tunnela_at_deal():
    base = {"op": "maal", "preset": "marriage/nepal", "tiplu": "7H", "hand": ["2C"],
            "table": ["JK", "JK", "JK"], "tunnelas_at_deal": [["JK", "JK", "JK"]]}
    assert ask(dict(base, seen=True))["maal"] == 45
    assert ask(dict(base, seen=False))["maal"] == 25


# rule MN-28: no tiplu (nobody showed): putali and master still score
def test_maal_op_without_tiplu():
    answer = ask({"op": "maal", "preset": "marriage/nepal", "hand": ["JK", "MC", "7H"], "seen": False})
    assert answer["maal"] == 15


# rules MN-11, MN-13, MC-10: the combo op, for showing and for finishing
def test_combo_op():
    show = {"op": "combo", "preset": "marriage/nepal", "purpose": "show"}
    assert ask(dict(show, cards=["6H", "7H", "8H"])) == {"valid": True, "kind": "pure_sequence", "rule": None}
    trial = ask(dict(show, cards=["KS", "KC", "KH"]))
    assert trial["valid"] is False and trial["rule"] == "MN-11" and trial["kind"] is None
    fin = ask({"op": "combo", "preset": "marriage/classic", "tiplu": "JC", "purpose": "finish",
               "cards": ["5D", "5D", "JD"]})
    assert fin["valid"] is False and fin["rule"] == "MC-10"
    fin = ask({"op": "combo", "preset": "marriage/classic", "tiplu": "JC", "purpose": "finish",
               "cards": ["6D", "QC", "8D"]})
    assert fin == {"valid": True, "kind": "dirty_sequence", "rule": None}


# rules D-7, MC-21: the finish op, for a three-set shower and for a dublee shower
def test_finish_op():
    answer = ask({"op": "finish", "preset": "marriage/nepal", "tiplu": "7H",
                  "shown": [["2H", "3H", "4H"], ["5C", "5C", "5C"], ["9S", "TS", "JS"]],
                  "hand": "2S 3S 4S 9D 9C 9S 5D 6D 7C QC KC JK 2D".split()})
    assert answer["finishes"] is True and answer["dublee"] is False
    assert answer["discard"] == "2D" and len(answer["groups"]) == 4
    pairs = [[c, c] for c in ("2S", "5D", "9H", "KH", "AS", "3C", "4D")]
    answer = ask({"op": "finish", "preset": "marriage/classic", "tiplu": "JC", "shown": pairs,
                  "hand": "9C 9C 2S 3D 4H 5C KD QS".split()})
    assert answer["finishes"] is True and answer["dublee"] is True and answer["groups"] == [["9C", "9C"]]
    assert len(answer["loose"]) == 5
    none = ask({"op": "finish", "preset": "marriage/classic", "tiplu": "JC", "shown": pairs,
                "hand": "9C 8C 2S 3D 4H 5C KD QS".split()})
    assert none == {"finishes": False, "dublee": True}


# rules MC-31, MC-30, D-10: the settle op -- the four-player example and a void round
def test_settle_op():
    answer = ask({"op": "settle", "preset": "marriage/classic", "scores": [12, 20, 5, 30], "winner": 2,
                  "seen": [True, False, True, True], "dublee_finish": False})
    assert answer == {"void": False, "payments": [22, -3, 0, -50], "nets": [-22, 3, -31, 50],
                      "pairwise_nets": [-22, 3, -31, 50]}
    void = ask({"op": "settle", "preset": "marriage/nepal", "scores": [10, 0, 5], "winner": None})
    assert void == {"void": True, "payments": None, "nets": [15, -15, 0], "pairwise_nets": [15, -15, 0]}


def test_errors_have_one_shape():
    for request in ({"op": "nope", "preset": "marriage/nepal"},
                    {"op": "maal", "preset": "kitti", "hand": [], "seen": True},
                    {"op": "maal", "preset": "marriage/nepal", "hand": ["7X"], "seen": True},
                    {"op": "maal", "preset": "marriage/nepal", "hand": ["7H"]},
                    {"op": "combo", "preset": "marriage/nepal", "cards": ["7H"], "purpose": "eat"},
                    {"op": "settle", "preset": "marriage/nepal", "scores": [1, 2], "winner": 5, "seen": [True, True]},
                    {"op": "finish", "preset": "marriage/nepal", "shown": [["2S"]], "hand": []},
                    {"op": "maal", "preset": "marriage/nepal", "settings": {"nope": 1}, "hand": [], "seen": True}):
        answer = ask(request)
        assert set(answer) == {"error"} and isinstance(answer["error"], str), request


def test_evaluate_is_the_library_call():
    assert evaluate({"op": "settle", "preset": "marriage/nepal", "scores": [3, 0], "winner": None})["nets"] == [3, -3]


def test_cli_runs_json_lines():
    lines = "\n".join([
        json.dumps({"op": "maal", "preset": "marriage/nepal", "tiplu": "7H", "hand": ["7D"], "seen": True}),
        "not json",
        json.dumps({"op": "settle", "preset": "marriage/nepal", "scores": [3, 0], "winner": None}),
    ]) + "\n"
    result = CliRunner().invoke(main, ["eval", "marriage"], input=lines)
    out = [json.loads(l) for l in result.output.splitlines()]
    assert out[0]["maal"] == 5 and "error" in out[1] and out[2]["nets"] == [3, -3]
    assert result.exit_code == 1


def test_the_documented_examples_hold():
    """Every request -> answer pair in docs/marriage.md's eval section is what evaluate gives."""
    from pathlib import Path
    text = Path(__file__).resolve().parents[2].joinpath("docs", "marriage.md").read_text(encoding="utf-8")
    section = text.split("## `tiplu eval marriage`", 1)[1].split("```", 2)[1]
    pairs, request = [], ""
    for line in section.splitlines():
        if line.startswith("→"):
            pairs.append((json.loads(request), json.loads(line[1:].strip())))
            request = ""
        elif line.strip():
            request += line.strip()
    assert len(pairs) == 4
    for request, answer in pairs:
        assert evaluate(request) == answer, request
