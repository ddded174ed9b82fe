"""The browser verifier's audit (web/static/verifier/audit.mjs and its parts) against the Python
audit, under Node: the settlement in exact decimals (D-2) by hand and against
replay.settlement on random hands, the root-cause ranking against replay.faults.group_faults on
random fault lists, and the verdict of every fixture record against audit.auditor.verdict.verify.audit_record."""
from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record
from replay.errors import MalformedError
from replay.faults import Fault, Reason, group_faults
from replay.settlement import AMOUNT_PATTERN, format_amount, parse_commission_pct, parse_point_value, settle
from tests.js.node import ROOT, VERIFIER, run_lines

SCRIPT = ROOT / "tests" / "js" / "audit_node.mjs"
GAME_FAULTS = {"illegal_move", "deck_mismatch", "incomplete", "outcome_mismatch", "payout_mismatch", "commission_mismatch"}


def test_settlement_by_hand_and_against_python():
    # rule D-2: 10 points at 0.25 HT is 2.50; 5 % of it is 0.125, half up 0.13; the nets,
    # the commission and the pot sum to zero
    hand = {"op": "settle", "net_points": [10, -3, -7], "point_value": "0.25", "commission_pct": "5", "pot_delta_points": 0}
    rng = random.Random(28)
    cases = [hand]
    for _ in range(400):
        n = rng.randint(2, 6)
        pts = [rng.randint(-500, 500) for _ in range(n - 1)]
        pot = rng.choice([0, 0, rng.randint(-300, 300)])
        pts.append(-sum(pts) - pot)
        cases.append({"op": "settle", "net_points": pts, "point_value": f"{rng.randint(0, 99)}.{rng.randint(0, 99):02d}",
                      "commission_pct": rng.choice(["0", "5", "2.5", "12.75", "100", "33.33"]), "pot_delta_points": pot})
    cases.append({**hand, "net_points": [10, -3, -6]})  # not zero-sum: refused
    answers = run_lines(SCRIPT, cases)
    assert answers[0] == {"gross": ["2.50", "-0.75", "-1.75"], "nets": ["2.37", "-0.75", "-1.75"],
                          "commission": "0.13", "pot_delta": "0.00"}
    for case, got in zip(cases, answers):
        try:
            want = settle(case["net_points"], point_value=Decimal(case["point_value"]),
                          commission_pct=Decimal(case["commission_pct"]), pot_delta_points=case["pot_delta_points"]).to_json()
        except MalformedError:
            want = {"error": "malformed"}
        assert got == want, case


def test_table_money_is_one_rule_in_both_verifiers():
    # rule D-2, R-2 (docs/records.md, "Table money"): a point value more than 0, a commission
    # at least 0 and below 100; the browser's decimal.mjs mirrors replay/settlement.py, value
    # for value and message for message, and spells an amount with the same regex
    texts = ["0", "0.00", "00", "0.01", "0.25", "1", "5", "99.99", "099.99", "100", "100.00", "0100", "-0", "-1",
             "1e2", "0.001", "999999999999999.99", "1000000000000000", " 5", "", 5, 0, None]
    cases = [{"op": "money", "point_value": t, "commission_pct": t} for t in texts]
    answers = run_lines(SCRIPT, cases)
    for text, got in zip(texts, answers):
        assert got["amount_pattern"] == AMOUNT_PATTERN
        for name, parse in (("point_value", parse_point_value), ("commission_pct", parse_commission_pct)):
            try:
                want = {"value": format_amount(parse(text))}
            except MalformedError as exc:
                want = {"error": "malformed", "message": str(exc)}
            assert got[name] == want, (name, text)
    by_text = dict(zip(texts, answers))  # by hand: the two edges of the rule
    assert by_text["0"]["point_value"] == {"error": "malformed", "message": "point_value must be more than 0"}
    assert by_text["0.01"]["point_value"] == {"value": "0.01"}
    assert by_text["99.99"]["commission_pct"] == {"value": "99.99"}
    assert by_text["100"]["commission_pct"]["message"] == "commission_pct must be at least 0 and less than 100"


def test_ranking_against_python():
    rng = random.Random(31)
    reasons = [r.value for r in Reason]
    lists = []
    for _ in range(300):
        faults = []
        for _ in range(rng.randint(1, 7)):
            reason = rng.choice(reasons)
            move = rng.randint(0, 5) if reason in ("illegal_move", "deck_mismatch", "incomplete", "malformed") and rng.random() < .8 else None
            statement = rng.randint(1, 4) if rng.random() < .4 else None
            after = rng.sample(reasons, rng.randint(0, 1)) if rng.random() < .3 else []
            faults.append({"reason": reason, "move_index": move, "statement": statement, "after": after})
        lists.append(faults)
    answers = run_lines(SCRIPT, [{"op": "group", "faults": f} for f in lists])
    for faults, got in zip(lists, answers):
        want = group_faults([Fault(Reason(f["reason"]), "", f["move_index"], statement=f["statement"],
                                   after=tuple(Reason(a) for a in f["after"])) for f in faults])
        assert got == [[f.reason.value, f.move_index, f.statement, f.caused_by] for f in want], faults


def _records() -> list[Path]:
    return sorted((ROOT / "fixtures" / "records").rglob("*.json")) + sorted((ROOT / "fixtures" / "conformance" / "records").rglob("*.json"))


def test_every_fixture_record_gets_the_python_verdict():
    games = {p.stem for p in (VERIFIER / "games").glob("*.mjs")}
    requests, wants = [], []
    for path in _records():
        text = path.read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or "ruleset" not in data and "table" not in data:
            continue  # a manifest or a receipt
        key = (data.get("table") or {}).get("public_key") if isinstance(data.get("table"), dict) else None
        trust = TrustAnchor(key, "pinned") if isinstance(key, str) and len(key) == 64 else None
        v = audit_record(text, trust=trust, check_signatures=True)
        game = (data.get("ruleset") or {}).get("game") if isinstance(data.get("ruleset"), dict) else None
        roots = [f for f in v.faults]
        if game not in games:  # no JavaScript engine yet: the verdict without the game's faults
            roots = group_faults([f for f in v.faults if f.reason.value not in GAME_FAULTS and
                                  not (f.reason is Reason.MALFORMED and f.move_index is not None)])
        roots = [[f.reason.value, f.move_index, f.statement] for f in roots if f.caused_by is None]
        requests.append({"op": "audit", "record": text, "trust": {"public_key": key} if trust else None})
        wants.append((path.relative_to(ROOT).as_posix(), roots, game in games))
    answers = run_lines(SCRIPT, requests)
    assert len(answers) == len(wants) > 100
    for (where, roots, replayed), got in zip(wants, answers):
        assert got["roots"] == roots, where
        assert got["replayed"] in (replayed, None), where


def test_simulated_tampered_tables_get_the_python_verdict():
    # every tamper class of the simulator, in every game: the root causes, in order, as Python
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    records = []
    for preset, seats in (("kitti", 4), ("marriage/nepal", 3), ("marriage/classic", 4), ("rummy13", 4)):
        ledger = Ledger(":memory:")
        ledger.new_operator("demo-operator")
        simulate_table(ledger, preset=preset, players=seats, hands=10, seed="js-audit", table_id="t",
                       tamper_rate=0.7, on_record=lambda r, k: records.append(r))
    requests, wants = [], []
    for r in records:
        key = r["table"]["public_key"]
        text = json.dumps(r, ensure_ascii=False)
        v = audit_record(text, trust=TrustAnchor(key, "pinned"), check_signatures=True)
        wants.append((r["hand_id"], [[f.reason.value, f.move_index, f.statement] for f in v.faults if f.caused_by is None]))
        requests.append({"op": "audit", "record": text, "trust": {"public_key": key}})
    answers = run_lines(SCRIPT, requests)
    assert sum(1 for _, roots in wants if roots) > 10  # the tables were tampered with
    for (hid, roots), got in zip(wants, answers):
        assert got["roots"] == roots, hid


def test_malformed_variants_get_the_python_reason():
    # the record's readers agree across the verifiers (issue 31): every malformed variant of
    # tests/audit/test_record_readers.py -- those the schema refuses, those the parser refuses,
    # those only the schema refuses -- gets the Python audit's root reason in the browser too,
    # the schema's through shape.mjs (the same generated schema, recordschema.mjs)
    import copy

    from tests.audit.test_record_readers import BOTH, GOLDEN, PARSER_ONLY, SCHEMA_ONLY

    requests, wants = [], []
    for name, edit in BOTH + PARSER_ONLY + SCHEMA_ONLY:
        record = copy.deepcopy(GOLDEN)
        edit(record)
        text = json.dumps(record, ensure_ascii=False)
        v = audit_record(text)
        assert v.reason is Reason.MALFORMED, name
        requests.append({"op": "audit", "record": text, "trust": None})
        wants.append(name)
    for name, got in zip(wants, run_lines(SCRIPT, requests)):
        assert got["reason"] == "malformed", (name, got["reason"])
