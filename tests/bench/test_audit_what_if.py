"""bench/audit.py's what-if rows: every stage summed, the log evidence as measured, at its
floor or at zero (a measurement only: nothing about the record format changes)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_audit", ROOT / "bench" / "audit.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_what_if_cases_sum_every_stage_with_the_log_evidence_as_said():
    b = _bench()
    st = dict.fromkeys(b.STAGES, 10.0) | {"replay": 100.0, "log": 200.0, "log_floor": 50.0, "parse_floor": 40.0}
    shared = dict(st, log=120.0, log_floor=5.0)
    rows = [{"preset": "kitti", "stages": st}, {"preset": "kitti" + b.SHARED, "stages": shared}]
    got = {w["case"][:3] + str(i): w["us"] for i, w in enumerate(b.what_if(rows))}
    rest = 10.0 * (len(b.STAGES) - 2) + 100.0  # every stage but the log evidence
    assert list(got.values()) == [rest + 200, rest + 50, rest + 120, rest + 5, rest, rest - 100]
    cases = b.what_if(rows)
    assert all(w["times_floor"] == w["us"] / 40.0 for w in cases)
    # reachable: >= 3,000/s (<= 333 us) and within 5x the floor (<= 200 us here)
    assert [w["reachable"] for w in cases] == [us <= 200 for us in got.values()] == [False, False, False, True, True, True]
    slow = dict(st, parse_floor=100.0)  # within 5x a slower floor, but not 3,000/s
    first = b.what_if([{"preset": "kitti", "stages": slow}])[0]
    assert first["us"] == rest + 200 and first["times_floor"] < 5 and first["rate"] < 3000 and not first["reachable"]
