"""Issue 27's attacks on order, time and seeds, each performed as a dishonest operator would,
and caught by every audit path that has the evidence (docs/security.md lists them).

* **a statement dated in the future hides a hand**: a dealt hand finished with a statement
  dated 2099 and never revealed -- ``future_time`` (ledger, URL, monitor), not "in progress";
* **a cancel signed after the deal**: ``..., deal, cancel`` with the seed revealed --
  ``event_order`` (ledger, URL, monitor), not "cancelled before the deal";
* **one server seed for two hands**: both hands published -- ``seed_reuse`` on both (ledger,
  URL, monitor, a JSON-lines archive, and the parallel audits byte for byte);
* **a forged second statement set behind a side column**: the ledger's ``statements.hand_id``
  column says another hand than the log entry -- still ``log_duplicate`` (the ledger audit
  reads the hand from the log entries themselves).

The operator writes its own database (``append_statement`` and the ledger's tables) where its
ledger would refuse the step: the honest ledger is not what holds it to the protocol.
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
from audit.operator.ledger import Ledger
from audit.operator.ledger.statements import append_statement, format_time
from audit.operator.ledger.store import atomic
from audit.operator.publish import build_record, reveal_and_publish
from audit.operator.sim.play import play_hand
from audit.tlog.checkpoint import CheckpointSigner
from audit.auditor.monitor.watch import MonitorState, poll
from audit.auditor.sources.operator_api import LogClient
from replay.fairness import commit_player_seed, hand_randomness
from replay.rulesets import resolve
from replay.settlement import parse_amount, settle
from replay.stream import Stream

NOW = datetime(2026, 11, 10, 12, 0, tzinfo=timezone.utc)
NOW_TEXT = "2026-11-10T12:00:00Z"
PLAYERS = ["asha", "bikash", "chandra"]
FUTURE = datetime(2099, 1, 1, tzinfo=timezone.utc)


def _seed(hand_id: str, seat: int) -> bytes:
    return hashlib.sha256(f"{hand_id}/{seat}".encode()).digest()[:16]


class Clock:
    """Statement times one second apart from ``start``: an honest clock, running forward."""

    def __init__(self, start: datetime) -> None:
        self.t = start

    def __call__(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


def play(ledger: Ledger, hand_id: str, clock: Clock, *, upto: str = "publish", server_seed: bytes | None = None,
         finish_at: datetime | None = None) -> None:
    """A hand of table t through ``upto`` (deal, finish, publish); ``finish_at`` dates its record statement."""
    ledger.new_hand("t", PLAYERS, hand_id=hand_id, now=clock())
    ledger.commit(hand_id, now=clock(), server_seed=server_seed)
    for s in range(3):
        ledger.seed_commit(hand_id, s, commit_player_seed(hand_id, s, _seed(hand_id, s)), now=clock())
    for s in range(3):
        ledger.seed_reveal(hand_id, s, _seed(hand_id, s), now=clock())
    ledger.deal(hand_id, now=clock())
    if upto == "deal":
        return
    ruleset = resolve("kitti")
    seeds = [_seed(hand_id, s) for s in range(3)]
    rnd = hand_randomness(ledger._server_seed(hand_id), hand_id, ruleset, seeds)
    played = play_hand(rnd, dealer=0, carry={"pot_before": 0}, rng=Stream(b"k" * 32, b"m" * 32, f"bot:{hand_id}"))
    money = settle(played.outcome.net_points, point_value=parse_amount("1"), commission_pct=parse_amount("0"),
                   pot_delta_points=played.outcome.pot_delta_points)
    record = build_record(ledger, hand_id, moves=list(played.moves), outcome=played.outcome, settlement=money,
                          carry={"pot_before": 0})
    ledger.finish(hand_id, record, now=finish_at or clock())
    if upto == "finish":
        return
    reveal_and_publish(ledger, hand_id, now=clock())


def cancel_after_the_deal(ledger: Ledger, hand_id: str, clock: Clock) -> None:
    """The operator signs and logs a cancel of a dealt hand (its ledger refuses that step)."""
    key = ledger.signing_key("op")
    commitment = ledger.db.execute("SELECT commitment FROM hand_commitments WHERE hand_id = ?", [hand_id]).fetchone()[0]
    with atomic(ledger.db):
        seq, _ = append_statement(ledger.db, key, "cancel", hand_id, {
            "missing_seats": [], "reason": "a seat did not reveal its seed", "server_seed_commitment": commitment,
            "server_seed": ledger._server_seed(hand_id).hex()}, format_time(clock()))
        ledger.db.execute("INSERT INTO hand_cancels (hand_id, missing_seats, seq) VALUES (?, '[]', ?)", [hand_id, seq])


ATTACKS = ("future", "cancel", "reuse")


def make_ledger(path, attack: str | None) -> str:
    """Two honest published hands, then the attack (``None``: none), all dated before NOW."""
    clock = Clock(NOW - timedelta(hours=3))
    with Ledger(str(path), create=True) as ledger:
        ledger.new_operator("op", key=None, now=clock())
        ledger.new_table("t", operator="op", preset="kitti", seats=3, now=clock())
        play(ledger, "honest-1", clock)
        play(ledger, "honest-2", clock)
        if attack == "future":  # finished with a record statement dated 2099, never revealed
            play(ledger, "x-future", clock, upto="finish", finish_at=FUTURE)
        elif attack == "cancel":
            play(ledger, "x-cancel", clock, upto="deal")
            cancel_after_the_deal(ledger, "x-cancel", clock)
        elif attack == "reuse":  # the second hand's server seed is the first's
            seed = bytes(range(32))
            play(ledger, "x-reuse-a", clock, server_seed=seed)
            play(ledger, "x-reuse-b", clock, server_seed=seed)
    return str(path)


#: what each attack must give, per hand
WANT = {"future": {"x-future": "future_time"}, "cancel": {"x-cancel": "event_order"},
        "reuse": {"x-reuse-a": "seed_reuse", "x-reuse-b": "seed_reuse"}}


def cli_audit(*args: str) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["audit", *args, "--now", NOW_TEXT, "--json", "--no-progress"])
    assert res.exit_code in (0, 1, 3), res.output  # 3: nothing failed, some record's timing unproven
    return res.exit_code, json.loads(res.stdout)


def failed_reasons(report: dict) -> dict[str, set[str]]:
    return {f["hand_id"]: {x["reason"] for x in f["faults"]} for f in report["failures"]}


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory):
    root = tmp_path_factory.mktemp("attacks")
    return {a: make_ledger(root / f"{a or 'honest'}.db", a) for a in (None, *ATTACKS)}


def test_the_honest_ledger_passes_every_new_check(ledgers):
    code, report = cli_audit(ledgers[None])
    assert code == 0 and report["ok"] and report["total"] == 2, report["failures"]


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_ledger_audit_catches_the_attack(ledgers, attack):
    code, report = cli_audit(ledgers[attack])
    got = failed_reasons(report)
    assert code == 1 and set(got) == set(WANT[attack]), got  # the honest hands still pass
    for hand_id, reason in WANT[attack].items():
        assert reason in got[hand_id], got
    listed = {h["hand_id"]: h["status"] for h in report["not_audited"]["hands"]}
    assert "x-future" not in listed and "x-cancel" not in listed  # no hand hides as in progress or cancelled


@pytest.mark.parametrize("attack", ATTACKS)
def test_parallel_ledger_audits_report_the_attack_byte_for_byte(ledgers, attack):
    _, single = cli_audit(ledgers[attack])
    for args in (["--workers", "2"], ["--workers", "2", "--ship-records"]):
        _, parallel = cli_audit(ledgers[attack], *args)
        assert json.dumps(parallel, sort_keys=True) == json.dumps(single, sort_keys=True)


def test_a_ledger_audit_with_state_catches_the_attacks_too(ledgers, tmp_path):
    for attack in ATTACKS:
        code, report = cli_audit(ledgers[attack], "--state", str(tmp_path / f"{attack}.json"))
        assert code == 1 and set(failed_reasons(report)) == set(WANT[attack])


def test_future_time_is_its_own_reason_not_in_progress(ledgers):
    res = CliRunner().invoke(main, ["audit", ledgers["future"], "--now", NOW_TEXT, "--no-progress"])
    assert res.exit_code == 1
    line = next(x for x in res.output.splitlines() if "#x-future" in x)
    assert line.startswith("FAIL ") and ": future_time: " in line and "2099" in line
    assert "IN PROGRESS" not in res.output


def test_cancel_after_the_deal_is_event_order(ledgers):
    _, report = cli_audit(ledgers["cancel"])
    fault = next(f for f in report["failures"] if f["hand_id"] == "x-cancel")["faults"]
    assert any(x["reason"] == "event_order" and "cancel" in x["message"] and "dealt" in x["message"] for x in fault)


def test_a_jsonl_archive_of_the_published_records_catches_the_seed_reuse(ledgers, tmp_path):
    archive = tmp_path / "records.jsonl"
    with Ledger(ledgers["reuse"]) as ledger:
        rows = ledger.db.execute("SELECT record FROM published_records ORDER BY rowid").fetchall()
    archive.write_text("".join(r[0] + "\n" for r in rows))
    code, single = cli_audit(str(archive))
    assert code == 1 and set(failed_reasons(single)) == {"x-reuse-a", "x-reuse-b"}
    assert all(failed_reasons(single)[h] == {"seed_reuse"} for h in ("x-reuse-a", "x-reuse-b"))
    for args in (["--workers", "2"], ["--workers", "2", "--ship-records"]):
        _, parallel = cli_audit(str(archive), *args)
        assert json.dumps(parallel, sort_keys=True) == json.dumps(single, sort_keys=True)
    # one record alone has no other hand to compare with: it passes
    one = tmp_path / "one.jsonl"
    one.write_text(rows[-1][0] + "\n")
    code, alone = cli_audit(str(one))
    assert code != 1 and alone["failed"] == 0


# -- the same over the operator's API: tiplu audit URL and tiplu monitor ---------------------

@pytest.fixture(scope="module")
def servers(ledgers):
    from web import create_app

    out, stops = {}, []
    for attack, db in ledgers.items():
        with Ledger(db) as ledger:
            key = ledger.signing_key("op")
        app = create_app({"TESTING": True, "TIPLU_DB": db,
                          "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key=key, origin="tiplu.test/log",
                                                                      clock=lambda: NOW)})
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        stops.append((server, thread))
        out[attack] = (f"http://127.0.0.1:{server.server_port}", key.public_hex)
    yield out
    for server, thread in stops:
        server.shutdown()
        thread.join(5)


@pytest.mark.parametrize("attack", ATTACKS)
def test_a_url_audit_catches_the_attack(servers, attack):
    url, key = servers[attack]
    code, report = cli_audit(url, "--public-key", key)
    got = failed_reasons(report)
    assert code == 1 and set(got) == set(WANT[attack]), got
    for hand_id, reason in WANT[attack].items():
        assert reason in got[hand_id]


def test_a_url_audit_of_the_honest_operator_passes(servers):
    url, key = servers[None]
    assert cli_audit(url, "--public-key", key)[0] == 0


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_monitor_catches_the_attack(servers, attack):
    from audit.auditor.verdict.verify import audit_record

    url, key = servers[attack]
    result = poll(LogClient(url), MonitorState(url=url), public_key=key, now=NOW, audit_record=audit_record)
    kinds = {(p.message.split(":")[0].removeprefix("hand "), p.kind) for p in result.problems}
    for hand_id, reason in WANT[attack].items():
        assert (hand_id, reason.upper()) in kinds, result.problems
    assert result.accepted  # a problem about a hand does not stop the monitor following the log


def test_the_monitor_passes_the_honest_operator(servers):
    from audit.auditor.verdict.verify import audit_record

    url, key = servers[None]
    result = poll(LogClient(url), MonitorState(url=url), public_key=key, now=NOW, audit_record=audit_record)
    assert result.ok and result.audited == 2, result.problems


def test_the_monitor_keeps_future_dated_hands_failing_at_every_poll(servers):
    url, key = servers["future"]
    first = poll(LogClient(url), MonitorState(url=url), public_key=key, now=NOW)
    again = poll(LogClient(url), first.state, public_key=key, now=NOW + timedelta(minutes=5))
    assert again.new_entries == 0 and [p.kind for p in again.problems] == ["FUTURE_TIME"]


# -- a forged second set, hidden behind the ledger's side column (item 7) ----------------------

def relog_behind_another_hand_id(db_path: str, hand_id: str, clock: Clock) -> None:
    """The operator logs a second, forged ``record`` statement of ``hand_id`` -- a real log
    leaf, signed by its key -- but files the row under another hand in the ledger's
    ``statements.hand_id`` column (honest-2), where an audit reading that column would not look."""
    from audit.operator.ledger.statements import statement_json
    from audit.signing import STATEMENT_TYPE
    from audit.tlog.store import append_leaf, leaf_entry_of_hex

    with Ledger(db_path) as ledger:
        key = ledger.signing_key("op")
        stmt = {"type": STATEMENT_TYPE, "kind": "record", "hand_id": hand_id, "record_hash": "ab" * 32,
                "time": format_time(clock())}
        text = statement_json(stmt)
        sig = key.sign_bytes(text)
        with atomic(ledger.db):
            seq = ledger.db.conn.execute(
                "INSERT INTO statements (hand_id, kind, statement, key, sig, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                ("honest-2", "record", text.decode(), key.public_hex, sig, stmt["time"])).lastrowid
            assert append_leaf(ledger.db.conn, leaf_entry_of_hex(text, key.public_hex, sig), seq - 1) == seq - 1


def test_a_side_column_does_not_hide_a_forged_second_set(tmp_path):
    db = make_ledger(tmp_path / "relog.db", None)
    relog_behind_another_hand_id(db, "honest-1", Clock(NOW - timedelta(minutes=30)))
    from audit.operator.ledger.store import open_readonly
    from audit.auditor.evidence.ledger_log import LedgerLog

    slots = [slot for _, slot in LedgerLog(open_readonly(db)).hand_slots("honest-1")]
    assert slots.count(("record", None)) == 2  # what the log says, not what the column says
    code, report = cli_audit(db)
    got = failed_reasons(report)
    assert code == 1 and set(got) == {"honest-1"}, got
    assert {"log_duplicate", "event_order"} <= got["honest-1"], got
    for args in (["--workers", "2"], ["--workers", "2", "--ship-records"]):
        assert json.dumps(cli_audit(db, *args)[1], sort_keys=True) == json.dumps(report, sort_keys=True)


# -- a statement dated after the witnesses saw its tree (the witnesses' bound) -----------------

def test_a_statement_dated_after_its_witness_cosigned_the_tree_is_future_time(tmp_path):
    """The witnesses' cosignature timestamps bound the statements of the tree they cosigned:
    here the witness cosigned the honest checkpoint on 2026-10-01 (its clock), so statements
    dated November were dated after the tree was seen -- ``future_time`` under the policy,
    though the auditor's own clock (December) would let them pass."""
    from audit.operator.ledger import Ledger
    from audit.tlog.policy import parse_policy
    from audit.operator.publish import published_record
    from audit.signing import SigningKey
    from audit.operator.sim.archive import simulate_archive
    from audit.tlog.note import TYPE_ED25519, Vkey
    from audit.tlog.witness import Witness, WitnessedLog
    from audit.auditor.verdict.verify import audit_record
    from tests.audit.timing_kit import _checkpoint, _with_line, witness_vkey

    path = tmp_path / "w.db"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 3, 1)], seed="witness-bound")
        key = ledger.public_key("demo-operator")
        record = published_record(ledger, "kitti-3p-t0-h0000")
    origin = _checkpoint(record).split("\n", 1)[0]
    log_vkey = Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(key))
    wkey = SigningKey.from_hex("22" * 32)
    policy = parse_policy(f"log {log_vkey}\nwitness w1 {witness_vkey('witness.test/w1', wkey.public_hex)}\nquorum w1\n")
    for when, future in ((datetime(2026, 10, 1, tzinfo=timezone.utc), True), (None, False)):
        clock = (lambda: when.timestamp()) if when else None  # noqa: B023 - called within this iteration
        witness = Witness(tmp_path / f"witness-{bool(when)}.db", wkey, "witness.test/w1",
                          {origin: WitnessedLog(origin, (log_vkey,))}, **({"clock": clock} if clock else {}))
        line = witness.add_checkpoint(b"old 0\n\n" + _checkpoint(record).encode())
        witness.close()
        verdict = audit_record(_with_line(record, line), public_key=key, policy=policy)
        reasons = {f.reason.value for f in verdict.faults}
        assert verdict.timing.status == "witnessed"
        if future:
            assert reasons == {"future_time"}, verdict.faults
            assert "witness w1's cosignature" in verdict.faults[0].message
        else:
            assert verdict.ok, verdict.faults


def test_the_leaf_map_is_extended_as_the_log_grows_and_filtered_by_a_view_s_size(tmp_path):
    """audit.auditor.evidence.leaf_slots keeps each ledger file's map of hands to leaves and reads only new
    leaves: a forged leaf appended after a first view was read is seen by the next view, and
    a view fixed at the older size does not see it."""
    from audit.operator.ledger.store import open_readonly
    from audit.auditor.evidence.ledger_log import LedgerLog

    db = make_ledger(tmp_path / "grow.db", None)
    first = LedgerLog(open_readonly(db))
    before = first.size()
    assert [s for _, s in first.hand_slots("honest-1")].count(("record", None)) == 1
    relog_behind_another_hand_id(db, "honest-1", Clock(NOW - timedelta(minutes=30)))
    grown = LedgerLog(open_readonly(db))
    assert grown.size() == before + 1
    assert [s for _, s in grown.hand_slots("honest-1")].count(("record", None)) == 2
    fixed = LedgerLog(open_readonly(db), size=before)
    assert [s for _, s in fixed.hand_slots("honest-1")].count(("record", None)) == 1
    # another ledger at the same path starts afresh
    (tmp_path / "grow.db").unlink()
    other = make_ledger(tmp_path / "grow.db", None)
    assert [s for _, s in LedgerLog(open_readonly(other)).hand_slots("honest-1")].count(("record", None)) == 1
