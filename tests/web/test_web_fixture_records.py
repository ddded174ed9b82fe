"""Every golden and corrupted record of fixtures/records, published as a hand of a ledger
whose operator has another key: each page renders (no 500, whatever was published), and the
site audits against the key *registered* in the ledger, not the one the record names -- so
even the golden records are flagged (signature), as a forgery under a stranger's key must be."""
from __future__ import annotations

import hashlib
import json
import pathlib

import pytest

from audit.operator.ledger import Ledger
from audit.operator.publish import publish
from replay.fairness import commit_player_seed
from web import create_app

ROOT = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "records"
MANIFEST = json.loads((ROOT / "manifest.json").read_text())["records"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A ledger where each fixture record is the published record of a hand with its id."""
    path = str(tmp_path_factory.mktemp("fixtures") / "fx.db")
    ids = {}
    with Ledger(path, create=True) as ledger:
        ledger.new_operator("fixture-operator")
        for i, entry in enumerate(MANIFEST):
            rec = json.loads((ROOT / entry["file"]).read_text())
            players = [s["player"] for s in rec["table"]["seats"]]
            table = f"fx{i}"
            ledger.new_table(table, operator="fixture-operator", preset=rec["ruleset"]["preset"], seats=len(players))
            hid = f"fx{i}-{rec['hand_id']}"[:64]
            ledger.new_hand(table, players, dealer=rec["table"]["dealer"], hand_id=hid)
            ledger.commit(hid)
            seeds = [hashlib.sha256(b"%d/%d" % (i, s)).digest()[:16] for s in range(len(players))]
            for s, seed in enumerate(seeds):
                ledger.seed_commit(hid, s, commit_player_seed(hid, s, seed))
            for s, seed in enumerate(seeds):
                ledger.seed_reveal(hid, s, seed)
            ledger.deal(hid)
            ledger.finish(hid, {"hand_id": hid})
            ledger.reveal(hid)
            publish(ledger, hid, rec)  # served exactly as stored: the fixture itself
            ids[entry["file"]] = hid
    return create_app({"TESTING": True, "TIPLU_DB": path}).test_client(), ids


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["file"] for e in MANIFEST])
def test_every_fixture_record_renders_and_is_checked_against_the_registered_key(served, entry):
    client, ids = served
    hid = ids[entry["file"]]
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    reasons = [f["reason"] for f in verdict["faults"]]
    assert verdict["ok"] is False
    # published under another hand id than its own, and signed by a key the ledger does not know
    assert reasons[0] == "statement_mismatch" and "is about hand" in verdict["faults"][0]["message"]
    assert "signature" in reasons
    assert "bad_checkpoint" in reasons  # the log checkpoint is not the registered operator's either
    if entry["reason"] not in (None, "event_order", "not_in_log"):  # the order of statements that do
        assert entry["reason"] in reasons  # not verify, and which leaves of an unverified checkpoint
        # are missing, are not judged; the rest still is
    page = client.get(f"/hands/{hid}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-fault="signature"' in html
    if entry["ok"]:
        assert 'id="replay-data"' in html  # an honest game still replays


BROKEN = [
    {},
    {"format": "tiplu.hand/1"},
    {"format": "tiplu.hand/1", "table": "not an object", "fairness": [], "moves": {}, "outcome": 7},
    {"format": "tiplu.hand/1", "table": {"seats": [{"seat": 0}], "dealer": 9}, "ruleset": {"preset": "nope"},
     "fairness": {"statements": [{"statement": 1}], "player_seeds": ["zz"]}, "moves": [1, None, "x"]},
]


@pytest.mark.parametrize("n", range(len(BROKEN)))
def test_a_malformed_published_record_is_a_verdict_not_a_crash(tmp_path, n):
    path = str(tmp_path / "broken.db")
    hid = f"broken-{n}"
    with Ledger(path, create=True) as ledger:
        ledger.new_operator("op")
        ledger.new_table("t", operator="op", preset="kitti", seats=2)
        ledger.new_hand("t", ["a", "b"], hand_id=hid)
        ledger.commit(hid)
        seeds = [bytes([s + 1]) * 16 for s in range(2)]
        for s in range(2):
            ledger.seed_commit(hid, s, commit_player_seed(hid, s, seeds[s]))
        for s in range(2):
            ledger.seed_reveal(hid, s, seeds[s])
        ledger.deal(hid)
        ledger.finish(hid, {"hand_id": hid})
        ledger.reveal(hid)
        publish(ledger, hid, {**BROKEN[n], "hand_id": hid})
    client = create_app({"TESTING": True, "TIPLU_DB": path}).test_client()
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    assert verdict["ok"] is False and verdict["reason"] == "malformed"
    for url in (f"/hands/{hid}", "/", "/tables/t", "/api/v1/tables/t", f"/api/v1/hands/{hid}/record"):
        assert client.get(url).status_code == 200, url


def test_the_hand_page_leads_with_the_root_cause(served):
    client, ids = served
    hid = ids["marriage-nepal/corrupted-edited_move.json"]
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    roots = verdict["faults"][:verdict["root_causes"]]
    # the hand id it is published under, the stranger's key, and the edited move
    assert [f["reason"] for f in roots] == ["statement_mismatch", "signature", "illegal_move"]
    assert roots[2]["move_index"] == 41
    later = verdict["faults"][verdict["root_causes"]:]
    assert {f["caused_by"] for f in later} == {1, 2}
    html = client.get(f"/hands/{hid}").get_data(as_text=True)
    top, _, rest = html.partition('id="consequences"')
    assert top.count("data-root-cause") == 3
    assert rest.count("data-consequence-of") == len(later)
