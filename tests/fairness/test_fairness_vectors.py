"""Every known-answer vector of fixtures/vectors/v1.json is reproduced by replay.fairness,
and the file is exactly what tools/make_vectors.py writes."""
import subprocess
import sys

import pytest

from fairness_vectors_data import DOC, IDS, ROOT, VECTORS
from replay.fairness import commit_player_seed, commit_server_seed, hand_randomness
from replay.rulesets import Ruleset, resolve


def test_file_header():
    assert DOC["format"] == "tiplu.vectors/1" and DOC["protocol"] == "v1"
    assert DOC["count"] == len(VECTORS) == 41
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("v", VECTORS, ids=IDS)
def test_library_reproduces_vector(v):  # rules, D-1, D-3
    rs = Ruleset.from_json(v["ruleset"])
    assert rs.preset == v["preset"] and rs.hash == v["ruleset_hash"]
    server = bytes.fromhex(v["server_seed"])
    seeds = [bytes.fromhex(s) for s in v["player_seeds"]]
    exp = v["expect"]
    assert commit_server_seed(server) == exp["server_commitment"]
    assert [commit_player_seed(v["hand_id"], i, s) for i, s in enumerate(seeds)] == exp["player_commitments"]
    hr = hand_randomness(server, v["hand_id"], rs, seeds)
    assert hr.material.hex() == exp["material"]
    assert [str(c) for c in hr.shoe()] == exp["shoe"]
    d = hr.deal(v["dealer"]).to_json()
    assert {k: d[k] for k in ("hands", "turned_up", "indicator", "stock")} == \
        {k: exp[k] for k in ("hands", "turned_up", "indicator", "stock")}
    for label, sub in exp["substreams"].items():
        s = hr.stream(label)
        assert s.block(0).hex() == sub["block0"]
        assert s.randbelow(sub["randbelow"]["n"]) == sub["randbelow"]["value"]
    # D-5: the tiplu pick draws from the "tiplu" sub-stream, uniform over the stock.
    assert hr.tiplu_position(len(exp["stock"])) == exp["substreams"]["tiplu"]["randbelow"]["value"]  # rule D-5


def _by_name(name):
    return next(v for v in VECTORS if v["name"] == name)


def test_rejection_vector_rejects_its_first_candidate():  # rule D-3
    v = _by_name("kitti/4p/rejection")
    sub = v["expect"]["substreams"]["rejection"]
    n = sub["randbelow"]["n"]
    assert n == 2 ** 31 + 1
    limit = 2 ** 32 - (2 ** 32 % n)
    words = [int.from_bytes(bytes.fromhex(sub["block0"])[i:i + 4], "big") for i in range(0, 32, 4)]
    assert words[0] >= limit  # the first candidate is rejected ...
    first_ok = next(w for w in words if w < limit)
    assert sub["randbelow"]["value"] == first_ok % n != words[0] % n  # ... and a later one is drawn
    hr = hand_randomness(bytes.fromhex(v["server_seed"]), v["hand_id"], Ruleset.from_json(v["ruleset"]),
                         [bytes.fromhex(s) for s in v["player_seeds"]])
    assert hr.stream("rejection").next_u32() == words[0]


def test_edge_vectors_cover_a_64_byte_seed_and_a_non_ascii_hand_id():
    assert max(len(bytes.fromhex(s)) for v in VECTORS for s in v["player_seeds"]) == 64
    assert 16 in {len(bytes.fromhex(s)) for s in _by_name("marriage/nepal/3p/seed64")["player_seeds"]}
    hid = _by_name("rummy13/4p/devanagari")["hand_id"]
    assert not hid.isascii() and all("\u0900" <= ch <= "\u097f" or ch == "-" for ch in hid)


def test_vectors_cover_every_preset_and_table_size():  # rules MN-4, MC-1, D-12, D-18
    sizes = {}
    for v in VECTORS:
        sizes.setdefault(v["preset"], set()).add(v["n_seats"])
    assert sizes == {"marriage/nepal": {2, 3, 4, 5}, "marriage/classic": {2, 3, 4, 5},
                     "kitti": {2, 3, 4, 5}, "rummy13": {2, 4, 6, 7, 8}}


def test_make_vectors_check_passes():
    out = subprocess.run([sys.executable, "tools/make_vectors.py", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "current" in out.stdout


def test_ruleset_in_vector_is_the_resolved_preset():  # rule D-1
    for v in VECTORS:
        assert resolve(v["preset"], Ruleset.from_json(v["ruleset"]).overrides()).to_json() == v["ruleset"]
