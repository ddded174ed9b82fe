"""``tiplu deal`` and ``tiplu verify-commitment`` (audit/cli/deal.py)."""
import copy
import re
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from audit.cli import main
from fairness_vectors_data import IDS, ROOT, VECTORS, VECTORS_FILE
from replay.known_answers import SUBSTREAM_DRAWS

SECRET = "5eed" * 16  # a 32-byte seed that must never appear in an error message


def run(*args):
    return CliRunner().invoke(main, list(args))


def deal_args(v):
    args = ["deal", "--preset", v["preset"], "--hand-id", v["hand_id"], "--server-seed", v["server_seed"],
            "--dealer", str(v["dealer"])]
    for s in v["player_seeds"]:
        args += ["--player-seed", s]
    overrides = {k: x for k, x in v["ruleset"]["settings"].items()}
    return args + ["--settings", json.dumps(overrides)]


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_deal_json_reproduces_vector(v):  # rules R-22, D-3
    result = run(*deal_args(v), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    # `tiplu deal` prints the standard draws; a vector's own extra draws (rejection) are not among them.
    standard = {label for label, _ in SUBSTREAM_DRAWS}
    expect = {**v["expect"], "substreams": {k: x for k, x in v["expect"]["substreams"].items() if k in standard}}
    assert out["expect"] == expect
    assert out["ruleset_hash"] == v["ruleset_hash"] and out["n_seats"] == v["n_seats"]


def test_deal_text_output_shows_every_part():
    v = VECTORS[0]
    out = run(*deal_args(v)).output
    exp = v["expect"]
    assert exp["server_commitment"] in out and exp["material"] in out
    assert " ".join(exp["shoe"]) in out and " ".join(exp["stock"]) in out
    for i, hand in enumerate(exp["hands"]):
        assert re.search(rf"^seat {i} hand \(21\) +{' '.join(hand)}$", out, re.M)
    assert "turned up" in out and exp["substreams"]["tiplu"]["block0"] in out
    assert v["server_seed"] not in out


def test_default_dealer_is_the_last_seat():  # rule MN-6: the last seat deals the first round
    v = next(x for x in VECTORS if x["dealer"] == x["n_seats"] - 1)
    args = deal_args(v)
    i = args.index("--dealer")
    del args[i:i + 2]
    assert json.loads(run(*args, "--json").output)["expect"] == v["expect"]


def test_vector_file_in_a_subprocess():
    out = subprocess.run([sys.executable, "-m", "audit.cli", "deal", "--vector", str(VECTORS_FILE)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("pass  ") == len(VECTORS) and f"{len(VECTORS)} passed, 0 failed" in out.stdout


def test_corrupted_vector_fails(tmp_path):
    doc = json.loads(VECTORS_FILE.read_text())
    bad = copy.deepcopy(doc)
    shoe = bad["vectors"][3]["expect"]["shoe"]
    shoe[0], shoe[1] = shoe[1], shoe[0]
    bad["vectors"][5]["player_seeds"][0] = "zz"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    result = run("deal", "--vector", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[3].startswith("FAIL") and "shoe" in lines[3]
    assert lines[5].startswith("FAIL") and "player seed" in lines[5]
    assert f"{len(VECTORS) - 2} passed, 2 failed" in result.output


def test_verify_server_commitment():  # rules
    v = VECTORS[0]
    ok = run("verify-commitment", "--server-seed", v["server_seed"], "--commitment", v["expect"]["server_commitment"])
    assert ok.exit_code == 0 and ok.output.startswith("OK")
    bad = run("verify-commitment", "--server-seed", SECRET, "--commitment", v["expect"]["server_commitment"])
    assert bad.exit_code == 1 and "does not match" in bad.output and SECRET not in bad.output


def test_verify_seat_commitment():  # rule R-21
    v = VECTORS[2]
    for seat, (seed, c) in enumerate(zip(v["player_seeds"], v["expect"]["player_commitments"])):
        ok = run("verify-commitment", "--hand-id", v["hand_id"], "--seat", str(seat), "--player-seed", seed,
                 "--commitment", c)
        assert ok.exit_code == 0 and ok.output.startswith("OK"), ok.output
    wrong_seat = run("verify-commitment", "--hand-id", v["hand_id"], "--seat", "1",
                     "--player-seed", v["player_seeds"][0], "--commitment", v["expect"]["player_commitments"][0])
    assert wrong_seat.exit_code == 1 and v["player_seeds"][0] not in wrong_seat.output


# the README's rule: 2 for a usage error (a missing or contradictory option, a bad value), 1 otherwise
@pytest.mark.parametrize("status,args", [
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET[:-2], "--player-seed", "ab" * 16]),
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET.upper(), "--player-seed", "ab" * 16]),
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", "ab" * 32, "--player-seed", SECRET[:20]]),
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", "ab" * 32, "--player-seed", SECRET + "x"]),
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET]),
    (1, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET, "--player-seed", "ab" * 16]),  # 1 seat
    (2, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET, "--player-seed", "ab" * 16,
         "--player-seed", "cd" * 16, "--settings", "{nope"]),
    (1, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET, "--player-seed", "ab" * 16,
         "--player-seed", "cd" * 16, "--settings", '{"no_such": 1}']),
    (1, ["deal", "--preset", "kitti", "--hand-id", "h", "--server-seed", SECRET, "--player-seed", "ab" * 16,
         "--player-seed", "cd" * 16, "--dealer", "2"]),
    (2, ["verify-commitment", "--server-seed", SECRET, "--commitment", "00"]),
    (2, ["verify-commitment", "--server-seed", SECRET, "--player-seed", SECRET, "--commitment", "00" * 32]),
    (2, ["verify-commitment", "--player-seed", SECRET, "--commitment", "00" * 32]),
])
def test_errors_are_one_line_and_never_echo_a_seed(status, args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == status, result.output
    out = result.output.strip()
    assert result.stdout == ""
    assert len(out.splitlines()) == 1 and out.startswith(("tiplu: error:", f"tiplu {args[0]}: error:")), out
    assert SECRET not in out and SECRET.upper() not in out and SECRET[:20] not in out


@pytest.mark.parametrize("command", ["deal", "verify-commitment"])
def test_every_command_has_help(command):
    result = run(command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output and len(result.output.splitlines()) > 5
