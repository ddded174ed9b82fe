"""`tiplu audit SOURCE --state FILE`: checkpoints must be consistent with the one the auditor
accepted before (issue 15, item 3)."""
from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.operator.publish import published_record
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.grind import resigned_grind
from audit.operator.sim.private_log import forge_log
from audit.tlog.proof import parse_tlog_proof
from audit.tlog.store import TransparencyLog


def _audit(*args):
    return CliRunner().invoke(main, ["audit", *map(str, args), "--no-progress"])


def _state_of(path):
    """A state file as `tiplu monitor --state` writes it, holding the ledger's latest checkpoint."""
    with Ledger(str(path)) as ledger:
        key = ledger.public_key("demo-operator")
        text = TransparencyLog(ledger.db, migrate=False).latest_checkpoint()
    return {"version": 1, "url": "http://operator.example", "public_key": key, "origin": None,
            "trust": "pinned", "checkpoint": text, "open_hands": []}


def test_a_forked_checkpoint_is_log_inconsistent_given_the_honest_state(tmp_path):
    path = tmp_path / "op.db"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 3)], seed="fork")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(_state_of(path)))
    honest_size = json.loads(state.read_text())["checkpoint"].splitlines()[1]
    # the forger: a private tree of the honest log's size, signed by the operator's real key
    with Ledger(str(path)) as ledger:
        hid = "kitti-4p-t0-h0001"
        rec = resigned_grind(ledger, hid, shill=0, evidence="stale")
        key = ledger.signing_key(ledger.get_hand(hid).operator)
        public = ledger.public_key("demo-operator")
    forge_log(rec, key, first_index=int(honest_size) - len(rec["fairness"]["statements"]))
    cp = parse_tlog_proof(rec["fairness"]["log_proofs"][0]).checkpoint_text
    assert cp.splitlines()[1] == honest_size  # same size, another root: a fork
    file = tmp_path / "forged.json"
    file.write_text(json.dumps(rec))
    before = state.read_bytes()
    # offline and without state nothing fails -- but nothing proves its timing either (exit 3, #26)
    assert _audit(file, "--public-key", public).exit_code == 3
    res = _audit(file, "--state", state, "--json")
    assert res.exit_code == 1, res.output
    report = json.loads(res.output)
    assert report["trust"]["basis"] == "monitor-state"
    assert [f["reason"] for f in report["failures"]] == ["log_inconsistent"]
    assert report["state"]["inconsistent"] == 1 and report["state"]["written"] is False
    assert state.read_bytes() == before  # never advanced past a contradiction


def test_a_forked_ledger_is_caught_by_the_consistency_proof(tmp_path):
    """Two ledgers sharing a prefix and key, then diverging: a state from one branch
    fails the other, whose log cannot prove it extends the accepted checkpoint."""
    honest, fork = tmp_path / "honest.db", tmp_path / "fork.db"
    with Ledger(str(honest), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="base")
    shutil.copy(honest, fork)
    shutil.copy(tmp_path / "honest.secrets.db", tmp_path / "fork.secrets.db")  # the same operator key
    with Ledger(str(honest)) as ledger:
        simulate_archive(ledger, [("kitti", 4, 1)], seed="honest", table_prefix="x")
    with Ledger(str(fork)) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="fork", table_prefix="y")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(_state_of(honest)))
    before = state.read_bytes()
    res = _audit(fork, "--state", state, "--json")
    assert res.exit_code == 1, res.output
    report = json.loads(res.output)
    assert {f["reason"] for f in report["failures"]} == {"log_inconsistent"}
    assert state.read_bytes() == before


def test_an_honest_growing_ledger_audits_clean_twice_and_the_state_advances(tmp_path):
    path, state = tmp_path / "op.db", tmp_path / "state.json"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="grow")
        key = ledger.public_key("demo-operator")
    res = _audit(path, "--state", state, "--public-key", key)
    assert res.exit_code == 0, res.output
    first = json.loads(state.read_text())
    assert first["public_key"] == key and first["checkpoint"] == _state_of(path)["checkpoint"]
    with Ledger(str(path)) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="grow2", table_prefix="b")
    res = _audit(path, "--state", state, "--json")  # the key now comes from the state
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["trust"]["basis"] == "monitor-state"
    assert report["state"]["unchecked_sizes"] == [] and report["state"]["written"] is True
    second = json.loads(state.read_text())
    assert int(second["checkpoint"].splitlines()[1]) > int(first["checkpoint"].splitlines()[1])
    assert second["checkpoint"] == _state_of(path)["checkpoint"]
    assert not (tmp_path / "state.json.tmp").exists()


def test_a_record_file_of_another_size_is_unchecked_not_passed(tmp_path):
    path, state = tmp_path / "op.db", tmp_path / "state.json"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="lone")
        rec = published_record(ledger, "kitti-4p-t0-h0001")
        simulate_archive(ledger, [("kitti", 4, 1)], seed="lone2", table_prefix="b")
    state.write_text(json.dumps(_state_of(path)))
    before = state.read_bytes()
    file = tmp_path / "r.json"
    file.write_text(json.dumps(rec))
    res = _audit(file, "--state", state, "--json")
    assert res.exit_code == 3, res.output  # nothing failed; a record alone: timing unproven
    report = json.loads(res.output)
    assert report["result"] == "unproven" and report["failed"] == 0
    size = int(parse_tlog_proof(rec["fairness"]["log_proofs"][0]).checkpoint_text.splitlines()[1])
    assert report["state"]["unchecked_sizes"] == [size] and report["state"]["consistent"] == 0
    assert state.read_bytes() == before  # an older checkpoint does not move the state
    text = _audit(file, "--state", state).output
    assert "UNCHECKED" in text


def test_a_bad_state_file_is_one_line_exit_2_and_left_unchanged(tmp_path, kitti_archive):
    src = tmp_path / "a.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r, _ in kitti_archive[2]))
    for content in ("{not json", "[1, 2]", '{"checkpoint": "garbage"}', '{"public_key": "zz"}'):
        state = tmp_path / "bad.json"
        state.write_text(content)
        res = _audit(src, "--state", state)
        assert res.exit_code == 2, (content, res.output)
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output
        assert state.read_text() == content


def test_a_state_pinning_another_key_is_an_error(tmp_path):
    path, state = tmp_path / "op.db", tmp_path / "state.json"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 1)], seed="key")
    state.write_text(json.dumps(_state_of(path)))
    res = _audit(path, "--state", state, "--public-key", "ab" * 32)
    assert res.exit_code == 2 and "pins key" in res.output


# -- issue 29 item 7: --state refuses what is not a state file, writes atomically ----------

def _small_ledger(tmp_path):
    path = tmp_path / "op.db"
    with Ledger(str(path), create=True) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="state29")
        key = ledger.public_key("demo-operator")
    return path, key


def test_a_hand_record_given_as_state_is_refused_and_left_as_it_is(tmp_path):
    path, key = _small_ledger(tmp_path)
    record = tmp_path / "record.json"
    with Ledger(str(path)) as ledger:
        hand_id = next(iter(ledger.list_hands())).id
        record.write_text(json.dumps(published_record(ledger, hand_id)))
    before = record.read_bytes()
    res = _audit(path, "--state", record, "--public-key", key)
    assert res.exit_code == 2, res.output
    assert "not a state file" in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert record.read_bytes() == before


def test_a_monitor_given_a_hand_record_as_state_refuses_it(tmp_path):
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"format": "tiplu.hand/3", "hand_id": "h1", "moves": []}))
    before = record.read_bytes()
    res = CliRunner().invoke(main, ["monitor", "http://127.0.0.1:9/", "--state", str(record), "--once"])
    assert res.exit_code != 0 and "not a state file" in res.stderr, (res.exit_code, res.stderr)
    assert record.read_bytes() == before


def test_a_dangling_symlink_is_refused_not_replaced(tmp_path):
    path, key = _small_ledger(tmp_path)
    link = tmp_path / "state.json"
    link.symlink_to(tmp_path / "elsewhere" / "state.json")
    res = _audit(path, "--state", link, "--public-key", key)
    assert res.exit_code == 2 and "symlink to nothing" in res.stderr, res.stderr
    assert link.is_symlink() and not link.exists()


def test_a_state_through_a_symlink_writes_the_file_it_names(tmp_path):
    path, key = _small_ledger(tmp_path)
    real = tmp_path / "states" / "op.json"
    real.parent.mkdir()
    real.write_text(json.dumps(_state_of(path)))
    link = tmp_path / "state.json"
    link.symlink_to(real)
    with Ledger(str(path)) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="state29b", table_prefix="b")
    res = _audit(path, "--state", link, "--public-key", key)
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and json.loads(real.read_text())["checkpoint"] == _state_of(path)["checkpoint"]
    assert sorted(p.name for p in real.parent.iterdir()) == ["op.json"]  # no temporary file left


def test_the_state_is_written_by_rename_never_in_place(tmp_path, monkeypatch):
    """A crash while writing leaves the old state whole: the new one is written beside it and
    renamed over it (the old file's inode is never opened for writing)."""
    import os

    path, key = _small_ledger(tmp_path)
    state = tmp_path / "state.json"
    state.write_text(json.dumps(_state_of(path)))
    with Ledger(str(path)) as ledger:
        simulate_archive(ledger, [("kitti", 4, 2)], seed="state29c", table_prefix="c")
    inode = state.stat().st_ino
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    before = state.read_bytes()
    res = _audit(path, "--state", state, "--public-key", key)
    assert res.exit_code == 1 and state.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []
    monkeypatch.setattr(os, "replace", real_replace)
    assert _audit(path, "--state", state, "--public-key", key).exit_code == 0
    assert state.stat().st_ino != inode
