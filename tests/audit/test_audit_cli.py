"""`tiplu audit`, `tiplu replay` and `tiplu simulate` from the command line."""
from __future__ import annotations

import copy
import json

from click.testing import CliRunner

from audit.cli import main
from audit.operator.sim.tamper import _resign_record, TamperContext
from replay.stream import Stream


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_audit_clean_jsonl_is_not_a_bare_pass(tmp_path, kitti_archive):
    # records alone, no policy: nothing proves their timing, so not exit 0 (issue #26)
    src = _write(tmp_path / "a.jsonl", [r for r, _ in kitti_archive[2]])
    res = CliRunner().invoke(main, ["audit", src, "--no-progress"])
    assert res.exit_code == 3, res.output
    assert "4 records audited, 0 failed, 4 unproven  -- NOT A PASS" in res.output


def test_bad_lines_are_reported_and_the_audit_goes_on(tmp_path, kitti_archive):
    recs = [r for r, _ in kitti_archive[2]]
    lines = [json.dumps(recs[0]), "{not json", json.dumps(recs[1])[:200], json.dumps(recs[2])]
    src = tmp_path / "b.jsonl"
    src.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["audit", str(src), "--json", "--no-progress"])
    assert res.exit_code == 1
    report = json.loads(res.output)
    assert report["total"] == 4 and report["failed"] == 2
    wheres = sorted(f["where"] for f in report["failures"])
    assert wheres == [f"{src}:2", f"{src}:3"]
    assert all(f["reason"] == "malformed" for f in report["failures"])
    assert "Traceback" not in res.output


def test_missing_file_is_one_line_and_nonzero(tmp_path):
    res = CliRunner().invoke(main, ["audit", str(tmp_path / "nope.jsonl")])
    assert res.exit_code == 1
    assert res.output.strip().count("\n") == 0 and "no such file" in res.output


def test_table_balances_sum_to_zero_with_commission_and_pot(tmp_path, kitti_archive):
    # rule D-2: every hand settles to zero, so a table does too (pot as a party)
    src = _write(tmp_path / "c.jsonl", [r for r, _ in kitti_archive[2]])
    res = CliRunner().invoke(main, ["audit", src, "--json", "--no-progress"])
    table = json.loads(res.output)["tables"]["t1"]
    from decimal import Decimal

    total = sum(Decimal(v) for v in table["balances"].values()) + Decimal(table["commission"])
    recs = [r for r, _ in kitti_archive[2]]
    pot_after = recs[-1]["table"]["carry"]["pot_before"] + recs[-1]["outcome"]["pot_delta_points"]
    assert total + pot_after * Decimal(recs[0]["table"]["point_value"]) == 0


def test_a_forged_kitti_carry_is_caught_across_the_table(tmp_path, kitti_archive):
    # rule D-14: the pot carries to the next deal; an operator cannot change it between hands
    ledger, _, records = kitti_archive
    recs = [copy.deepcopy(r) for r, _ in records]
    recs[2]["table"]["carry"]["pot_before"] += 4
    _resign_record(recs[2], TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "c")))
    src = _write(tmp_path / "d.jsonl", recs)
    res = CliRunner().invoke(main, ["audit", src, "--json", "--no-progress"])
    assert res.exit_code == 1
    assert json.loads(res.output)["tables"]["t1"]["carry_faults"]


def test_a_duplicated_hand_number_is_caught(tmp_path, kitti_archive):
    ledger, _, records = kitti_archive
    recs = [copy.deepcopy(r) for r, _ in records]
    recs[3]["table"]["hand_no"] = 1
    _resign_record(recs[3], TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "n")))
    res = CliRunner().invoke(main, ["audit", _write(tmp_path / "e.jsonl", recs), "--json", "--no-progress"])
    assert res.exit_code == 1
    assert "hand number 1 is claimed by 2 records" in json.loads(res.output)["tables"]["t1"]["carry_faults"]


def test_replay_prints_every_step(tmp_path, kitti_archive):
    rec = kitti_archive[2][0][0]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    res = CliRunner().invoke(main, ["replay", str(path)])
    assert res.exit_code == 0, res.output
    assert res.output.count("== move ") == len(rec["moves"])
    assert "== outcome ==" in res.output and "(seat 0):" in res.output  # seats by name (issue 29 item 17)


def test_simulate_is_deterministic_and_tamper_is_private(tmp_path):
    outs = []
    for name in ("x", "y"):
        out = tmp_path / f"{name}.jsonl"
        log = tmp_path / f"{name}.json"
        res = CliRunner().invoke(main, ["simulate", "--preset", "kitti", "--hands", "6", "--seed", "s",
                                        "--tamper", "0.5", "--out", str(out), "--tamper-log", str(log)])
        assert res.exit_code == 0, res.output
        outs.append((out.read_bytes(), log.read_text()))
        assert "kitti-4p-t0-h" not in res.output  # which hands were forged stays private
    assert outs[0] == outs[1]
    tampered = json.loads(outs[0][1])
    res = CliRunner().invoke(main, ["audit", str(tmp_path / "x.jsonl"), "--json", "--no-progress"])
    caught = {f["hand_id"] for f in json.loads(res.output)["failures"]}
    assert tampered and set(tampered) <= caught


def test_the_text_report_lists_failures_in_reading_order_with_their_hands(tmp_path):
    """Issue 29 item 13: failures were named by line only and sorted as text (line 10 before
    line 9); now in reading order, each with its hand id, and how many more past the first 50."""
    import re as _re
    from pathlib import Path as _Path

    from click.testing import CliRunner as _Runner

    from audit.cli import main as _main

    bad = json.loads((_Path(__file__).resolve().parents[2] / "fixtures" / "records" / "kitti"
                      / "corrupted-edited_move.json").read_text())
    bad = bad.get("record", bad)
    lines = [json.dumps(bad) for _ in range(60)]
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    res = _Runner().invoke(_main, ["audit", str(tmp_path / "a.jsonl"), "--no-progress"])
    fails = [line for line in res.stdout.splitlines() if line.startswith("FAIL ") and ".jsonl:" in line]
    numbers = [int(_re.search(r"\.jsonl:(\d+)", line).group(1)) for line in fails]
    assert numbers == list(range(1, 51)), numbers
    assert all(f"(hand {bad['hand_id']})" in line for line in fails)
    assert "... and 10 more failures (use --json for all)" in res.stdout


def test_replay_of_a_marriage_record_reads_in_names_and_symbols():
    """Issue 29 item 17: seats were printed as card codes (`AS TD`) beside moves in names and
    symbols, the tiplu was never named, and `points: 9 2 18 0` had no names or maal."""
    from pathlib import Path as _Path

    from click.testing import CliRunner as _Runner

    from audit.cli import main as _main

    folder = _Path(__file__).resolve().parents[2] / "fixtures" / "records" / "marriage-nepal"
    record = next(p for p in sorted(folder.glob("*.json")) if not p.name.startswith("corrupted"))
    players = [s["player"] for s in json.loads(record.read_text())["table"]["seats"]]
    res = _Runner().invoke(_main, ["replay", str(record)])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert f"   {players[0]} (seat 0): " in out and "   seat 0: " not in out
    deal = out.split("== move 0")[0]
    assert "♠" in deal and not any(code in deal.split() for code in ("AS", "TD", "KH", "QC"))
    outcome = out.split("== outcome ==")[1]
    assert "tiplu: " in outcome
    assert "points: " + ", ".join(f"{p} " for p in players[:1]) in outcome
    assert all(f"maal of {p}: " in outcome for p in players)


def test_a_carry_mismatch_caused_by_a_rejected_hand_is_listed_under_it(tmp_path):
    """Issue 29 item 13: a table's carry_mismatch that follows from a rejected hand (here one
    whose carried pot was edited after signing) is that hand's consequence in the text
    report, not a failure of its own."""
    from click.testing import CliRunner as _Runner

    from audit.cli import main as _main
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    records = []
    ledger = Ledger(":memory:", create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset="kitti", players=4, hands=6, seed="fold", table_id="t1",
                   on_record=lambda r, _kind: records.append(r))
    records[4]["table"]["carry"]["pot_before"] += 7
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    res = _Runner().invoke(_main, ["audit", str(tmp_path / "t.jsonl"), "--no-progress"])
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("FAIL") and "t.jsonl:5 " in line)
    assert lines[at + 1].strip().startswith("consequence: table t1: carry_mismatch: hand 4 starts with pot")
    assert not any(line.startswith("FAIL table t1: carry_mismatch") for line in lines)
    assert res.exit_code == 1


def test_the_json_report_lists_failures_in_reading_order_too(tmp_path):
    """Issue 29 item 13: --json sorted its failures (and its unproven records) as text, line
    10 before line 9; they are in reading order, as in the text report."""
    from pathlib import Path as _Path

    from click.testing import CliRunner as _Runner

    from audit.cli import main as _main

    folder = _Path(__file__).resolve().parents[2] / "fixtures" / "records" / "kitti"
    bad = json.loads((folder / "corrupted-edited_move.json").read_text())
    good = json.loads((folder / "golden-0.json").read_text())
    lines = [json.dumps(bad if k % 2 else good) for k in range(24)]  # bad on lines 2, 4, ... 24
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n")
    res = _Runner().invoke(_main, ["audit", str(tmp_path / "a.jsonl"), "--json", "--no-progress"])
    data = json.loads(res.stdout)
    assert [f["where"] for f in data["failures"]] == [f"{tmp_path / 'a.jsonl'}:{n}" for n in range(2, 25, 2)]
    assert [r["where"] for r in data["unproven_records"]] == [f"{tmp_path / 'a.jsonl'}:{n}" for n in range(1, 24, 2)]
    assert [r["where"] for r in data["tables"][bad["table"]["table_id"]]["rejected"]][:2] == [
        f"{tmp_path / 'a.jsonl'}:2", f"{tmp_path / 'a.jsonl'}:4"]


def test_the_json_report_folds_a_carry_mismatch_under_the_rejected_hand(tmp_path):
    """Issue 29 item 13: a table's carry_mismatch that follows from a rejected hand is that
    hand's consequence in --json as in the text report (``consequences`` of its failure)."""
    from click.testing import CliRunner as _Runner

    from audit.cli import main as _main
    from audit.operator.ledger import Ledger
    from audit.operator.sim.tables import simulate_table

    records = []
    ledger = Ledger(":memory:", create=True)
    ledger.new_operator("demo-operator")
    simulate_table(ledger, preset="kitti", players=4, hands=6, seed="fold", table_id="t1",
                   on_record=lambda r, _kind: records.append(r))
    records[4]["table"]["carry"]["pot_before"] += 7
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    res = _Runner().invoke(_main, ["audit", str(tmp_path / "t.jsonl"), "--json", "--no-progress"])
    data = json.loads(res.stdout)
    (failure,) = data["failures"]
    assert failure["where"].endswith("t.jsonl:5")
    (consequence,) = failure["consequences"]
    assert consequence["table_id"] == "t1" and consequence["reason"] == "carry_mismatch"
    assert consequence["message"].startswith("hand 4 starts with pot")
    assert consequence["message"] in data["tables"]["t1"]["carry_faults"]  # the table's own list is unchanged
    assert res.exit_code == 1
