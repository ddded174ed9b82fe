"""Every hand of a ledger is audited: published records, and the hands that have none.

A ledger (and an operator URL, and a monitor following the log) holds hands that never got
a published record: cancelled ones (listed, not failures), ones still in progress within
the grace period (listed), and ones stalled or left unpublished past it (failures).
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.auditor.sources.coverage import DEFAULT_GRACE, classify, parse_grace
from audit.operator.ledger import Ledger
from audit.auditor.run.parallel import audit_parallel
from audit.operator.publish import build_record, publish, reveal_and_publish
from audit.auditor.run.runner import audit_source
from audit.operator.sim.play import play_hand
from audit.operator.sim.tables import simulate_table
from audit.tlog.checkpoint import CheckpointSigner
from audit.auditor.monitor.watch import MonitorState, poll
from audit.auditor.sources.operator_api import LogClient
from replay.errors import MalformedError
from replay.fairness import commit_player_seed, hand_randomness
from replay.rulesets import resolve
from replay.settlement import parse_amount, settle
from replay.stream import Stream

NOW = datetime(2026, 11, 10, 12, 0, tzinfo=timezone.utc)
PLAYERS = ["asha", "bikash", "chandra"]

#: hand id -> (how far it goes, how long before NOW its last step), and what the audit says
HANDS = {
    "x-cancelled": ("cancel", timedelta(hours=5), "cancelled"),
    "x-created": ("new", timedelta(hours=2), "stalled"),
    "x-dealt": ("deal", timedelta(hours=3), "stalled"),
    "x-fresh": ("commit", timedelta(minutes=10), "in_progress"),
    "x-finished": ("finish", timedelta(hours=2), "unpublished"),
    "x-revealed": ("reveal", timedelta(hours=2), "unpublished"),
    "x-late": ("reveal", timedelta(minutes=30), "in_progress"),
    "x-done": ("publish", timedelta(hours=4), None),  # revealed and published: audited as a record
}


def _seed(hand_id: str, seat: int) -> bytes:
    return hashlib.sha256(f"{hand_id}/{seat}".encode()).digest()[:16]


def drive(ledger: Ledger, hand_id: str, upto: str, at: datetime, *, table: str = "t2") -> None:
    """Take a fresh hand through its lifecycle up to ``upto``, its last step dated ``at``."""
    steps = iter(range(100, -1, -1))

    def now() -> datetime:
        return at - timedelta(seconds=next(steps))

    ledger.new_hand(table, PLAYERS, hand_id=hand_id, now=now())
    if upto == "new":
        return
    ledger.commit(hand_id, now=now() if upto != "commit" else at)
    if upto == "commit":
        return
    if upto == "cancel":
        ledger.cancel(hand_id, now=at)
        return
    for s in range(3):
        ledger.seed_commit(hand_id, s, commit_player_seed(hand_id, s, _seed(hand_id, s)), now=now())
    for s in range(3):
        ledger.seed_reveal(hand_id, s, _seed(hand_id, s), now=now())
    ledger.deal(hand_id, now=now() if upto != "deal" else at)
    if upto == "deal":
        return
    ruleset = resolve("kitti")
    seeds = [_seed(hand_id, s) for s in range(3)]
    rnd = hand_randomness(ledger._server_seed(hand_id), hand_id, ruleset, seeds)
    rng = Stream(b"k" * 32, b"m" * 32, f"bot:{hand_id}")
    played = play_hand(rnd, dealer=0, carry={"pot_before": 0}, rng=rng)
    money = settle(played.outcome.net_points, point_value=parse_amount("1"), commission_pct=parse_amount("0"),
                   pot_delta_points=played.outcome.pot_delta_points)
    record = build_record(ledger, hand_id, moves=list(played.moves), outcome=played.outcome, settlement=money,
                          carry={"pot_before": 0})
    ledger.finish(hand_id, record, now=now() if upto != "finish" else at)
    if upto == "finish":
        return
    if upto == "publish":
        reveal_and_publish(ledger, hand_id, now=at)
    else:
        ledger.reveal(hand_id, now=at)


def make_ledger(path, hands=HANDS) -> str:
    ledger = Ledger(str(path), create=True)
    ledger.new_operator("demo-operator", key=None, now=NOW - timedelta(days=30))
    simulate_table(ledger, preset="kitti", players=3, hands=3, seed="coverage", table_id="sim")
    ledger.new_table("t2", operator="demo-operator", preset="kitti", seats=3, now=NOW - timedelta(days=1))
    # the hands are driven oldest first, as a real clock would log them: statement times run
    # forward in log order (time_order); hands of the same age are a few minutes apart
    last = None
    for hand_id, (upto, ago, _) in sorted(hands.items(), key=lambda h: -h[1][1]):
        at = NOW - ago if last is None or NOW - ago > last + timedelta(minutes=2) else last + timedelta(minutes=5)
        drive(ledger, hand_id, upto, at)
        last = at
    ledger.close()
    return str(path)


@pytest.fixture(scope="module")
def ledger_db(tmp_path_factory):
    return make_ledger(tmp_path_factory.mktemp("cov") / "ledger.db")


def statuses(report: dict) -> dict[str, str]:
    """hand id -> what the report says of it (a failure's reason, or the listed status)."""
    out = {f["hand_id"]: f["reason"] for f in report["failures"]}
    out.update({h["hand_id"]: h["status"] for h in report["not_audited"]["hands"]})
    return out


def expected() -> dict[str, str]:
    return {h: want for h, (_, _, want) in HANDS.items() if want is not None}


def test_a_ledger_audit_covers_every_hand(ledger_db):
    report = audit_source(ledger_db, now=NOW).to_json()
    assert statuses(report) == expected()
    # the published hands are audited as records (three simulated, one driven by hand)
    # audit_source without a log view judges each record alone: nothing fails, timing unproven
    assert report["by_game"]["kitti"]["unproven"] == 4 and report["tables"]["t2"]["hands"] == 1
    assert report["by_game"]["kitti"]["stalled"] == 2 and report["by_game"]["kitti"]["unpublished"] == 2
    assert report["failed"] == 4 and not report["ok"]
    assert report["not_audited"]["by_game"] == {"kitti": {"cancelled": 1, "in_progress": 2}}
    stalled = next(f for f in report["failures"] if f["hand_id"] == "x-dealt")
    assert stalled["where"] == f"{ledger_db}#x-dealt" and "stopped at dealt" in stalled["faults"][0]["message"]
    never = next(f for f in report["failures"] if f["hand_id"] == "x-finished")["faults"][0]["message"]
    assert "never revealed nor published" in never


def test_cancelled_and_in_progress_hands_are_not_failures(tmp_path):
    db = make_ledger(tmp_path / "ok.db", {h: v for h, v in HANDS.items() if v[2] in ("cancelled", "in_progress", None)})
    report = audit_source(db, now=NOW)
    assert report.ok and report.failed == 0 and len(report.to_json()["not_audited"]["hands"]) == 3


def test_the_grace_period_and_now_decide(ledger_db):
    # three hours of grace: only the hand dealt three hours ago (exactly at the limit) waits
    late = audit_source(ledger_db, now=NOW, grace=timedelta(hours=3)).to_json()
    assert set(statuses(late).values()) == {"cancelled", "in_progress"}
    # a day later, every open hand is overdue
    later = audit_source(ledger_db, now=NOW + timedelta(days=1)).to_json()
    assert statuses(later)["x-fresh"] == "stalled" and statuses(later)["x-late"] == "unpublished"


def test_workers_and_dask_give_the_single_process_report(ledger_db):
    single = json.dumps(audit_source(ledger_db, now=NOW).to_json(), sort_keys=True)
    for read_in_workers in (True, False):
        rep = audit_parallel(ledger_db, workers=2, chunk_size=2, read_in_workers=read_in_workers, now=NOW)
        assert json.dumps(rep.to_json(), sort_keys=True) == single
    pytest.importorskip("distributed")
    rep = audit_parallel(ledger_db, dask_address="local:2", chunk_size=2, now=NOW)
    assert json.dumps(rep.to_json(), sort_keys=True) == single


def test_the_cli_reports_each_hand_in_one_line(ledger_db):
    res = CliRunner().invoke(main, ["audit", ledger_db, "--now", "2026-11-10T12:00:00Z", "--no-progress"])
    assert res.exit_code == 1
    lines = res.output.splitlines()
    assert any(line.startswith(f"FAIL {ledger_db}#x-dealt: stalled: ") for line in lines)
    assert any(line.startswith(f"FAIL {ledger_db}#x-revealed: unpublished: ") for line in lines)
    assert any(line.startswith(f"CANCELLED {ledger_db}#x-cancelled: ") for line in lines)
    assert "3 hands without a record to audit (not failures): 1 cancelled, 2 in progress" in res.output
    ok = CliRunner().invoke(main, ["audit", ledger_db, "--now", "2026-11-10T12:00:00Z", "--grace", "6h",
                                   "--json", "--no-progress"])
    assert ok.exit_code == 0 and json.loads(ok.output)["ok"]


@pytest.mark.parametrize("args", [["--grace", "soon"], ["--grace", "-1h"], ["--now", "yesterday"],
                                  ["--now", "2026-11-10T12:00:00"]])
def test_bad_grace_or_now_is_one_line(ledger_db, args):
    res = CliRunner().invoke(main, ["audit", ledger_db, *args])
    assert res.exit_code != 0 and res.output.strip().count("\n") == 0 and "Traceback" not in res.output


def test_classify_at_the_edge_of_grace():
    at = "2026-11-10T11:00:00.000Z"
    assert classify("h", state="dealt", last_kind="deal", last_time=at, now=NOW).status == "in_progress"
    over = classify("h", state="dealt", last_kind="deal", last_time=at, now=NOW + timedelta(seconds=1))
    assert over.status == "stalled" and over.fault().reason.value == "stalled"
    assert classify("h", state="revealed", last_kind="reveal", last_time=None, now=NOW).status == "unpublished"
    assert DEFAULT_GRACE == parse_grace("1h") == parse_grace("3600") == parse_grace("60m")
    with pytest.raises(MalformedError, match=r"^a grace period is a whole number of seconds, or a number with s, m, h or d \(90m, 2h\)$"):
        parse_grace("1w")


# -- the same over the operator's API: tiplu audit URL and tiplu monitor ---------------------

@pytest.fixture(scope="module")
def served(ledger_db):
    from web import create_app

    with Ledger(ledger_db) as ledger:
        key = ledger.signing_key("demo-operator")
    app = create_app({"TESTING": True, "TIPLU_DB": ledger_db,
                      "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key=key, origin="tiplu.test/log",
                                                                  clock=lambda: NOW)})
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", key.public_hex
    server.shutdown()
    thread.join(5)


def test_a_url_audit_covers_every_hand_too(served, ledger_db):
    url, _ = served
    report = audit_source(url, now=NOW).to_json()
    assert statuses(report) == expected()
    local = audit_source(ledger_db, now=NOW).to_json()
    assert report["by_game"] == local["by_game"] and report["not_audited"]["by_game"] == local["not_audited"]["by_game"]
    assert next(f for f in report["failures"] if f["hand_id"] == "x-dealt")["where"] == f"{url}/api/v1/hands/x-dealt"


def test_the_monitor_reports_stalled_and_unpublished_hands(served, tmp_path):
    url, pub = served
    client = LogClient(url)
    result = poll(client, MonitorState(url=url), public_key=pub, now=NOW)
    got = {p.message.split(":")[0].removeprefix("hand "): p.kind for p in result.problems}
    assert got == {"x-created": "STALLED", "x-dealt": "STALLED", "x-finished": "UNPUBLISHED",
                   "x-revealed": "UNPUBLISHED"}
    # with a longer grace nothing is overdue; the hands still open are remembered
    calm = poll(client, MonitorState(url=url), public_key=pub, now=NOW, grace=timedelta(hours=6))
    assert calm.ok, calm.problems
    assert {h for h, _, _ in calm.state.open_hands} == {"x-created", "x-dealt", "x-fresh", "x-finished",
                                                        "x-revealed", "x-late"}
    state = tmp_path / "m.json"
    calm.state.save(state)
    assert MonitorState.load(state, url=url) == calm.state
    # the next poll, later, sees no new entry but the same open hands now overdue
    again = poll(client, MonitorState.load(state, url=url), public_key=pub, now=NOW + timedelta(days=1))
    assert {p.kind for p in again.problems} == {"STALLED", "UNPUBLISHED"} and len(again.problems) == 6


def test_the_monitor_cli_takes_a_grace_period(served, tmp_path):
    url, pub = served
    res = CliRunner().invoke(main, ["monitor", url, "--state", str(tmp_path / "s.json"), "--once",
                                    "--public-key", pub, "--audit-hook", "none", "--grace", "1000d"])
    assert res.exit_code == 0, res.output
    assert "6 in progress" in res.stdout


def test_publish_repairs_a_lost_publication(tmp_path):
    db = make_ledger(tmp_path / "r.db", {"x-revealed": HANDS["x-revealed"]})
    assert audit_source(db, now=NOW).failed == 1
    res = CliRunner().invoke(main, ["hand", "publish", "x-revealed", "--db", db])
    assert res.exit_code == 0, res.output
    report = audit_source(db, now=NOW)
    assert report.ok and report.total == 4
    again = CliRunner().invoke(main, ["hand", "publish", "x-revealed", "--db", db])
    assert again.exit_code == 1 and "already published" in again.output
    with Ledger(db) as ledger:
        with pytest.raises(Exception, match="already published"):
            publish(ledger, "x-revealed")
