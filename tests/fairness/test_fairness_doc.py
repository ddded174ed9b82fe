"""docs/fairness.md is tested: its one-liners run for real, its worked example is a vector."""
import re
import shutil
import subprocess
import sys

import pytest

from fairness_vectors_data import ROOT, VECTORS
from replay.fairness import hand_randomness
from replay.rulesets import Ruleset

DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
EXAMPLE = next(v for v in VECTORS if v["name"] == "kitti/2p/0")
SEED = EXAMPLE["server_seed"]


def documented(pattern: str) -> str:
    """The first documented command line containing ``pattern``, with the example seed filled in."""
    for line in DOC.splitlines():
        if pattern in line and "SERVER_SEED_HEX" in line:
            return re.search(r"printf '%s' SERVER_SEED_HEX[^`]*", line).group(0).replace("SERVER_SEED_HEX", SEED)
    raise AssertionError(f"docs/fairness.md has no one-liner with {pattern!r}")


def bash(command: str) -> str:
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout


def need(*tools):
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")


def test_sha256sum_one_liner():  # rules: anyone checks the commitment with standard tools
    need("bash", "xxd", "sha256sum")
    assert bash(documented("| sha256sum")).split()[0] == EXAMPLE["expect"]["server_commitment"]


def test_openssl_one_liner():  # rule R-22
    need("bash", "xxd", "openssl")
    assert bash(documented("openssl dgst -sha256 -r")).split()[0] == EXAMPLE["expect"]["server_commitment"]


def test_python_one_liner():
    need("python3")
    line = next(x for x in DOC.splitlines() if "python3 -c" in x)
    code = re.search(r'python3 -c "([^"]+)"', line).group(1)
    out = subprocess.run(["python3", "-c", code, SEED], capture_output=True, text=True, timeout=30)
    assert out.stdout.strip() == EXAMPLE["expect"]["server_commitment"]


def test_openssl_hmac_block_of_the_worked_example():  # rule D-3
    need("bash", "xxd", "openssl")
    block = DOC.split("which a shell checks with", 1)[1].split("block_0 =", 1)[0].strip()
    assert SEED in block
    out = bash(block.replace("\\\n", " ") + " -r").split()[0]
    words = DOC.split("block_0 =", 1)[1].splitlines()[0].split()
    assert out == "".join(words)
    rs = Ruleset.from_json(EXAMPLE["ruleset"])
    hr = hand_randomness(bytes.fromhex(SEED), EXAMPLE["hand_id"], rs, [bytes.fromhex(s) for s in EXAMPLE["player_seeds"]])
    assert out == hr.stream("deal").block(0).hex()


def test_worked_example_is_current():
    out = subprocess.run([sys.executable, "tools/make_fairness_example.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def test_worked_example_values_are_the_vectors():
    exp = EXAMPLE["expect"]
    for value in [SEED, *EXAMPLE["player_seeds"], EXAMPLE["ruleset_hash"], exp["server_commitment"],
                  *exp["player_commitments"], exp["material"]]:
        assert value in DOC
    flat = " ".join(DOC.split())
    assert " ".join(exp["shoe"]) in flat
    for seat, hand in enumerate(exp["hands"]):
        assert f"seat {seat}: " + " ".join(hand) in flat
    assert f"first `randbelow({len(exp['stock'])})` = {exp['substreams']['tiplu']['randbelow']['value']}" in flat
