"""The browser verifier's replay driver (web/static/verifier/replay.mjs) against Python's
replay.replayer.replay_record and audit.auditor.verdict.verify.compare_outcome, record for record, for every game
that has a module in web/static/verifier/games/: simulated tables of every preset (the pot
carried from hand to hand in Kitti, D-14), tampered records (audit/operator/sim/tamper.py), records
whose claims were edited (payouts, commission, points, pot change) and the fixture records.
Compared: the moves applied, every fault's reason and move index (report mode), the outcome as
JSON, the settlement to the cent and the claim faults."""
from __future__ import annotations

import copy
import json

import pytest

from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table
from audit.auditor.verdict.verify import compare_outcome
from replay.records import parse_record
from replay.replayer import replay_record

from .node import ROOT, VERIFIER, run_lines

SCRIPT = ROOT / "tests" / "js" / "replay_node.mjs"
GAMES = {p.stem for p in (VERIFIER / "games").glob("*.mjs")} - {"index", "errors"}
#: per game: (preset, seats, hands) of the simulated tables
TABLES = {
    "kitti": [("kitti", 3, 12), ("kitti", 5, 8)],
    "marriage": [("marriage/nepal", 3, 5), ("marriage/classic", 4, 5)],
    "rummy13": [("rummy13", 6, 6), ("rummy13", 4, 8)],
}


def _table(preset, seats, hands, tamper_rate):
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    out = []
    simulate_table(ledger, preset=preset, players=seats, hands=hands, seed="js-replay", table_id="t",
                   tamper_rate=tamper_rate, on_record=lambda r, k: out.append(r))
    return out


def _forged_claims(record):
    """The record with one claim edited at a time: a seat's net, the commission, the points,
    the pot change, an extra payouts field."""
    out = []
    pay = record["outcome"]["payouts"]
    for edit in ("net", "commission", "points", "pot", "extra", "gross"):
        r = copy.deepcopy(record)
        p = r["outcome"]["payouts"]
        if edit == "net":
            p["nets"][0] = f"{float(pay['nets'][0]) + 0.01:.2f}"
        elif edit == "commission":
            p["commission"] = "0.01" if pay["commission"] != "0.01" else "0.02"
        elif edit == "points":
            r["outcome"]["points"] = [x + 1 if isinstance(x, int) else x for x in r["outcome"]["points"]]
        elif edit == "pot":
            p["pot_delta"] = "1.00" if pay["pot_delta"] != "1.00" else "2.00"
        elif edit == "extra":
            p["bonus"] = "0.00"
        else:
            p["gross"] = p["gross"][:-1]
        out.append(r)
    return out


def _python(data):
    record = parse_record(data)
    result = replay_record(record, strict=False)
    return {"replayed": True, "moves_applied": result.moves_applied,
            "faults": [[f.reason.value, f.move_index] for f in result.faults],
            "outcome": result.outcome.to_json() if result.outcome else None,
            "settlement": result.settlement.to_json() if result.settlement else None,
            "claims": [f.reason.value for f in compare_outcome(record.outcome, result)]}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_replay_agrees_with_python(game):
    if game not in GAMES:
        pytest.skip(f"no {game} module in web/static/verifier/games/ yet")
    records = []
    for preset, seats, hands in TABLES[game]:
        honest = _table(preset, seats, hands, 0.0)
        records += honest + _table(preset, seats, hands, 0.5) + _forged_claims(honest[0])
    for path in sorted((ROOT / "fixtures" / "records").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("ruleset"), dict) and data["ruleset"].get("game") == game:
            records.append(data)
    records = [r for r in records if r["fairness"].get("server_seed")]
    answers = run_lines(SCRIPT, [{"record": r} for r in records])
    assert len(answers) == len(records) > 20
    kinds = set()
    for r, got in zip(records, answers):
        want = _python(r)
        assert got == want, (r["hand_id"], got, want)
        kinds.update(f[0] for f in want["faults"])
        kinds.update(want["claims"])
    # the comparison saw refused moves and every claim fault, not only clean hands
    assert {"outcome_mismatch", "payout_mismatch", "commission_mismatch"} <= kinds and kinds & {"illegal_move", "deck_mismatch", "incomplete"}
    if game == "kitti":  # the pot carried between hands reached the engine (D-14)
        assert any(r["table"].get("carry", {}).get("pot_before") for r in records)
