"""`tiplu monitor` against a live Flask server on 127.0.0.1: honest passes, every lie is caught."""
from __future__ import annotations

import json
import logging
import sqlite3
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from audit.cli import main
from audit.signing import SigningKey
from audit.auditor.monitor.watch import MonitorState, poll
from audit.auditor.sources.operator_api import LogClient

from .conftest import OPERATOR, append, make_app, make_log, statement


@pytest.fixture()
def server(tmp_path):
    """A live operator; tests point ``app.config["TIPLU_DB"]`` at the log it should serve."""
    honest = make_log(tmp_path / "honest.db", [statement(i) for i in range(12)])
    app = make_app(honest)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # keep request lines out of the CLI's stderr
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{srv.server_port}", honest
    srv.shutdown()
    thread.join(5)


def run(url: str, state, *extra: str):
    result = CliRunner().invoke(main, ["monitor", url, "--state", str(state), "--once", "--audit-hook", "none", *extra])
    return result.exit_code, result.stdout, result.stderr


def problem_kinds(stderr: str) -> list[str]:
    return [line.split(":")[1].strip() for line in stderr.splitlines() if line.startswith("tiplu monitor:")]


def test_honest_operator_passes_and_growth_is_accepted(server, tmp_path):
    app, url, honest = server
    state = tmp_path / "a.json"
    code, out, err = run(url, state, "--public-key", OPERATOR.public_hex)
    assert (code, err) == (0, "") and "size 12" in out and "+12 entries" in out
    saved = json.loads(state.read_text())
    assert saved["public_key"] == OPERATOR.public_hex and saved["trust"] == "pinned" and "\n12\n" in saved["checkpoint"]
    append(honest, [statement(i) for i in range(12, 20)])
    code, out, err = run(url, state)
    assert (code, err) == (0, "") and "size 20" in out and "+8 entries" in out


def test_trust_on_first_use_records_the_key(server, tmp_path):
    _, url, _ = server
    code, out, _ = run(url, tmp_path / "s.json")
    assert code == 0 and "pinned on first use" in out
    assert json.loads((tmp_path / "s.json").read_text())["public_key"] == OPERATOR.public_hex


def forked(tmp_path, name, stmts):
    return make_log(tmp_path / name, stmts)


@pytest.mark.parametrize("name,change", [
    ("rewrite", lambda s: s[:3] + [statement(3, note="rewritten")] + s[4:]),
    ("remove", lambda s: s[:3] + s[4:]),
    ("reorder", lambda s: s[:3] + [s[4], s[3]] + s[5:]),
])
def test_rewritten_removed_or_reordered_history_is_a_fork(server, tmp_path, name, change):
    app, url, _ = server
    state = tmp_path / "m.json"
    assert run(url, state)[0] == 0
    before = state.read_text()
    history = [statement(i) for i in range(12)]
    app.config["TIPLU_DB"] = str(forked(tmp_path, f"{name}.db", change(history) + [statement(i) for i in range(12, 16)]))
    code, _, err = run(url, state)
    assert code == 1 and problem_kinds(err) == ["FORK"], err
    assert state.read_text() == before  # the lie is not accepted


def test_same_size_other_root_is_a_fork_and_smaller_is_a_rollback(server, tmp_path):
    app, url, _ = server
    state = tmp_path / "m.json"
    assert run(url, state)[0] == 0
    history = [statement(i) for i in range(12)]
    app.config["TIPLU_DB"] = str(forked(tmp_path, "same.db", history[:11] + [statement(11, note="x")]))
    assert problem_kinds(run(url, state)[2]) == ["FORK"]
    app.config["TIPLU_DB"] = str(forked(tmp_path, "short.db", history[:8]))
    code, _, err = run(url, state)
    assert code == 1 and problem_kinds(err) == ["ROLLBACK"]


def test_bad_signature_is_reported(server, tmp_path):
    app, url, honest = server
    state = tmp_path / "m.json"
    assert run(url, state, "--public-key", OPERATOR.public_hex)[0] == 0
    append(honest, [statement(12)])
    app.config["TIPLU_CHECKPOINT_SIGNER"] = make_app(honest, key=SigningKey.from_hex("33" * 32)).config[
        "TIPLU_CHECKPOINT_SIGNER"]
    code, _, err = run(url, state)
    assert code == 1 and problem_kinds(err) == ["BAD_SIGNATURE"]


def test_an_entry_served_differently_from_the_tree_is_caught(server, tmp_path):
    app, url, honest = server
    db = sqlite3.connect(honest)  # the operator edits a stored entry behind the triggers
    db.execute("DROP TRIGGER tlog_leaves_no_update")
    db.execute("UPDATE tlog_leaves SET entry = ? WHERE idx = 5",
               [json.dumps(statement(5, note="edited"), sort_keys=True, separators=(",", ":")).encode()])
    db.commit()
    db.close()
    code, _, err = run(url, tmp_path / "fresh.json")
    assert code == 1 and problem_kinds(err) == ["BAD_INCLUSION"] and "entry 5 " in err


def test_a_missing_entry_is_caught(server, tmp_path):
    app, url, honest = server
    db = sqlite3.connect(honest)
    db.execute("DROP TRIGGER tlog_leaves_no_delete")
    db.execute("DELETE FROM tlog_leaves WHERE idx = 10")
    db.commit()
    db.close()
    state = tmp_path / "fresh.json"
    code, _, err = run(url, state)
    assert code == 1 and "MISSING_ENTRY" in problem_kinds(err) and "entry 10 " in err
    assert all(line.startswith("tiplu monitor: ") for line in err.splitlines())  # one line per problem
    assert not state.exists()


def test_split_view_is_detected_by_comparing_two_monitors(server, tmp_path):
    app, url, _ = server
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(url, a)[0] == 0  # monitor A sees the honest log of 12
    app.config["TIPLU_DB"] = str(forked(tmp_path, "view-b.db", [statement(i, note="b") for i in range(12)]))
    assert run(url, b)[0] == 0  # monitor B (a fresh one) sees another log of 12, same key
    code, _, err = run(url, b, "--compare", str(a))
    assert code == 1 and problem_kinds(err) == ["SPLIT_VIEW"]
    published = tmp_path / "a-checkpoint.txt"  # a checkpoint published anywhere works as well
    published.write_text(json.loads(a.read_text())["checkpoint"])
    code, _, err = run(url, b, "--compare", str(published))
    assert code == 1 and problem_kinds(err) == ["SPLIT_VIEW"]


def test_gossip_between_consistent_monitors_of_different_sizes_passes(server, tmp_path):
    app, url, honest = server
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(url, a)[0] == 0
    append(honest, [statement(i) for i in range(12, 15)])
    assert run(url, b)[0] == 0
    code, _, err = run(url, b, "--compare", str(a))
    assert (code, err) == (0, "")
    code, _, err = run(url, a, "--compare", str(b))
    assert (code, err) == (0, "")


def test_split_view_of_different_sizes_is_detected(server, tmp_path):
    app, url, _ = server
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(url, a)[0] == 0  # 12 honest entries
    app.config["TIPLU_DB"] = str(forked(tmp_path, "view-b.db", [statement(i, note="b") for i in range(15)]))
    assert run(url, b)[0] == 0
    code, _, err = run(url, b, "--compare", str(a))  # the operator cannot prove 12 -> 15
    assert code == 1 and problem_kinds(err) == ["SPLIT_VIEW"]


# -- the audit hook ---------------------------------------------------------------------------

def test_revealed_hands_are_audited_through_the_hook(server, tmp_path):
    app, url, honest = server
    append(honest, [statement(12, kind="reveal", hand_id="good"), statement(13, kind="reveal", hand_id="bad"),
                    statement(14, kind="reveal", hand_id="unknown")])
    records = {"good": {"hand_id": "good", "fine": True}, "bad": {"hand_id": "bad", "fine": False}}

    @app.get("/api/v1/hands/<hand_id>/record")
    def record(hand_id):
        if hand_id not in records:
            return {"error": {"status": 404, "code": "not_found", "message": "no such hand"}}, 404
        return records[hand_id]

    seen = []

    def hook(rec):
        seen.append(rec["hand_id"])
        return {"ok": rec["fine"], "reason": "deal does not match the commitment"}

    result = poll(LogClient(url), MonitorState(url=url), audit_record=hook)
    assert seen == ["good", "bad"]
    assert [str(p) for p in result.problems] == [
        "AUDIT_FAILED: hand bad (entry 13): deal does not match the commitment"]
    assert any("unknown" in n and "not served yet" in n for n in result.notes)
    # a failed audit is about a hand, not the log: the log's growth is followed all the same
    assert result.accepted and "\n15\n" in result.state.checkpoint
    assert result.state.pending == (("unknown", 14),)
    # the record published after the poll that saw its reveal is audited when it appears
    records["unknown"] = {"hand_id": "unknown", "fine": False}
    later = poll(LogClient(url), result.state, audit_record=hook)
    assert seen == ["good", "bad", "unknown"] and later.new_entries == 0
    assert [str(p) for p in later.problems] == [
        "AUDIT_FAILED: hand unknown (entry 14): deal does not match the commitment"]
    assert later.state.pending == ()


def test_without_a_hook_or_route_reveals_are_skipped_cleanly(server, tmp_path):
    app, url, honest = server
    append(honest, [statement(12, kind="reveal", hand_id="h")])
    result = poll(LogClient(url), MonitorState(url=url), audit_record=lambda r: True)
    assert result.ok and result.audited == 0 and any("not served yet" in n for n in result.notes)
    code, out, err = run(url, tmp_path / "s.json")
    assert (code, err) == (0, "")


def test_an_operator_answering_nonsense_is_reported(server, tmp_path):
    app, url, _ = server

    @app.get("/api/v1/log/entries-broken")
    def broken():
        return "[1, 2]"

    class Confused(LogClient):
        def entries(self, start, end):
            return self._object("/api/v1/log/entries-broken")

    result = poll(Confused(url), MonitorState(url=url))
    assert [p.kind for p in result.problems] == ["BAD_RESPONSE"]


def test_unreachable_operator_is_reported(tmp_path):
    code, _, err = run("http://127.0.0.1:9", tmp_path / "s.json")
    assert code == 1 and problem_kinds(err) == ["UNREACHABLE"]


def test_verdict_ish_values():
    from types import SimpleNamespace

    from audit.auditor.monitor.watch import verdict_is_ok
    assert verdict_is_ok(True) and verdict_is_ok({"ok": True}) and verdict_is_ok(SimpleNamespace(ok=True))
    assert not any(verdict_is_ok(v) for v in [False, None, {}, {"ok": False}, SimpleNamespace(ok=False)])


def test_json_that_disagrees_with_the_signed_checkpoint_is_reported(server, tmp_path):
    app, url, _ = server

    class Lying(LogClient):
        def checkpoint(self):
            body = super().checkpoint()
            return {**body, "size": body["size"] + 1}

    result = poll(Lying(url), MonitorState(url=url))
    assert [p.kind for p in result.problems] == ["BAD_CHECKPOINT"] and result.state.checkpoint is None


def test_a_stalled_hand_does_not_blind_the_monitor_to_a_later_fork(server, tmp_path):
    """Issue 27, "the monitor goes blind": a hand stalled long ago is reported at every poll,
    but the log's growth is still accepted, so a fork after it is reported as a fork."""
    app, url, honest = server
    append(honest, [statement(12, kind="hand", hand_id="old")])  # opened, never goes on (no time: old)
    state = tmp_path / "m.json"
    for _ in range(2):
        code, _, err = run(url, state, "--public-key", OPERATOR.public_hex)
        assert code == 1 and problem_kinds(err) == ["STALLED"], err
        assert "\n13\n" in json.loads(state.read_text())["checkpoint"]  # followed all the same
    history = [statement(i) for i in range(12)] + [statement(12, kind="hand", hand_id="old")]
    app.config["TIPLU_DB"] = str(forked(tmp_path, "fork.db", history[:3] + [statement(3, note="rewritten")]
                                        + history[4:] + [statement(i) for i in range(13, 16)]))
    code, _, err = run(url, state)
    assert code == 1 and problem_kinds(err) == ["FORK"], err


def test_interval_keeps_polling_and_reporting_instead_of_exiting(server, tmp_path, monkeypatch):
    app, url, honest = server
    append(honest, [statement(12, kind="hand", hand_id="old")])
    naps = []

    def nap(seconds):
        naps.append(seconds)
        if len(naps) == 3:
            raise KeyboardInterrupt  # the operator of the monitor stops it
    monkeypatch.setattr("audit.cli.monitor.time.sleep", nap)
    res = CliRunner().invoke(main, ["monitor", url, "--state", str(tmp_path / "i.json"), "--interval", "0.5",
                                    "--audit-hook", "none"])
    assert res.exit_code == 1 and naps == [0.5, 0.5, 0.5]
    assert problem_kinds(res.stderr) == ["STALLED"] * 3  # every poll reported, none ended the watch
