"""The protocol's order, checked by the audit from the log (audit/auditor/sources/protocol_steps.py, audit/auditor/sources/logscan.py):
every out-of-order step is ``event_order``, times run forward (``time_order``), none is in
the future (``future_time``), and no two hands share a server seed (``seed_reuse``)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from audit.auditor.sources.logscan import LogScan, scan_entries
from audit.auditor.sources.protocol_steps import HandSteps
from replay.faults import Reason

NOW = datetime(2026, 11, 10, 12, 0, tzinfo=timezone.utc)
HONEST = ["hand", "commitment", ("seat-receipt", 0), ("seat-receipt", 1), ("seat-reveal", 0), ("seat-reveal", 1),
          "deal", "record", "reveal"]


def statements(steps, hand_id="h", start=NOW - timedelta(hours=1), seed="aa"):
    out = []
    for k, step in enumerate(steps):
        kind, seat = (step, None) if isinstance(step, str) else step
        st = {"kind": kind, "hand_id": hand_id, "time": (start + timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%S.000Z")}
        if kind == "hand":
            st["seats"] = [{"seat": 0, "player": "a"}, {"seat": 1, "player": "b"}]
        if seat is not None:
            st["seat"] = seat
        if kind in ("commitment", "cancel", "reveal"):
            st["server_seed_commitment"] = "c" + seed
        if kind in ("reveal", "cancel"):
            st["server_seed"] = seed
        out.append(st)
    return out


def refusals(steps):
    hand = HandSteps()
    return [k for k, st in enumerate(statements(steps)) if hand.step(st) is not None]


def test_the_honest_order_and_an_honest_cancel_pass():
    assert refusals(HONEST) == []
    assert refusals(["hand", "cancel"]) == refusals(["hand", "commitment", "cancel"]) == []
    assert refusals(["hand", "commitment", ("seat-receipt", 0), ("seat-receipt", 1), ("seat-reveal", 0), "cancel"]) == []


@pytest.mark.parametrize("name,steps,bad", [
    ("cancel after the deal", HONEST[:7] + ["cancel"], 7),
    ("cancel once every seat revealed", HONEST[:6] + ["cancel"], 6),
    ("reveal before the record", HONEST[:7] + ["reveal"], 7),
    ("record before the deal", HONEST[:6] + ["record"], 6),
    ("deal before every reveal", HONEST[:5] + ["deal"], 5),
    ("a seat reveals before every seat committed", HONEST[:3] + [("seat-reveal", 0)], 3),
    ("a seat commits twice", HONEST[:3] + [("seat-receipt", 0)], 3),
    ("a seat commits after a reveal", ["hand", "commitment", ("seat-receipt", 0), ("seat-receipt", 1),
                                       ("seat-reveal", 0), ("seat-receipt", 1)], 5),
    ("a second commitment", HONEST[:2] + ["commitment"], 2),
    ("a second hand statement", HONEST[:2] + ["hand"], 2),
    ("anything after the reveal", HONEST + ["record"], 9),
    ("anything after a cancel", ["hand", "commitment", "cancel", "commitment"], 3),
])
def test_every_out_of_order_step_is_refused(name, steps, bad):
    assert refusals(steps) == [bad], name


def test_the_scan_names_the_hand_and_the_reason():
    found = scan_entries(enumerate(statements(HONEST[:7] + ["cancel"])), now=NOW).findings()
    assert [f.reason for f in found["h"]] == [Reason.EVENT_ORDER]
    assert "leaf 7 (cancel of hand h)" in found["h"][0].message and "dealt" in found["h"][0].message


def test_times_must_run_forward_across_the_whole_log():
    a = statements(["hand", "commitment"], "a")
    b = statements(["hand"], "b", start=NOW - timedelta(hours=2))  # logged after a, dated before it
    found = scan_entries(enumerate(a + b), now=NOW).findings()
    assert list(found) == ["b"] and [f.reason for f in found["b"]] == [Reason.TIME_ORDER]
    equal = statements(["hand"], "c", start=NOW - timedelta(hours=1))  # the same time as a's hand: fine
    assert scan_entries(enumerate(a[:1] + equal), now=NOW).findings() == {}


def test_a_statement_dated_past_the_clock_and_skew_is_future_time():
    late = statements(["hand"], "f", start=NOW + timedelta(minutes=6))
    found = scan_entries(enumerate(late), now=NOW).findings()
    assert [f.reason for f in found["f"]] == [Reason.FUTURE_TIME]
    within = statements(["hand"], "g", start=NOW + timedelta(minutes=4))  # within the 5-minute skew
    assert scan_entries(enumerate(within), now=NOW).findings() == {}


def test_one_seed_in_two_hands_fails_both_and_only_them():
    log = (statements(HONEST, "a", seed="11") + statements(HONEST, "b", start=NOW - timedelta(minutes=30), seed="11")
           + statements(HONEST, "c", start=NOW - timedelta(minutes=20), seed="22"))
    found = scan_entries(enumerate(log), now=NOW).findings()
    assert set(found) == {"a", "b"}
    assert {f.reason for fs in found.values() for f in fs} == {Reason.SEED_REUSE}
    assert "b" in found["a"][0].message and "a" in found["b"][0].message


def test_the_monitor_s_scan_state_round_trips_and_still_sees_a_closed_hand():
    scan = LogScan(now=NOW, keep_closed=False)
    for i, st in enumerate(statements(HONEST, "a", seed="11")):
        scan.feed(i, st)
    again = LogScan.from_json(scan.to_json(), now=NOW)
    assert again.steps == {} and again.closed == {"a"}
    before = again.shared()
    late = statements(["record"], "a", start=NOW - timedelta(minutes=1))
    assert [f.reason for _, f in again.feed(9, late[0])] == [Reason.EVENT_ORDER]
    for i, st in enumerate(statements(HONEST, "b", start=NOW - timedelta(seconds=30), seed="11"), start=10):
        again.feed(i, st)
    assert {h for h, _ in again.new_reuse(before)} == {"a", "b"}
