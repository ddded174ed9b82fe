"""bench/run --quick works end to end: every benchmark gives figures or says why not."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_run_quick_prints_one_table(tmp_path):
    env = {**os.environ, "TIPLU_BENCH_CACHE": str(tmp_path)}
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "run"), "--quick"], capture_output=True, text=True,
                         env=env, timeout=600, cwd=ROOT)
    assert res.returncode == 0, res.stderr[-2000:]
    lines = res.stdout.splitlines()
    assert lines[0].startswith("tiplu benchmarks (quick run") and lines[1].startswith("benchmark")
    names = {line.split()[0] for line in lines[3:] if line.strip()}
    assert {"shuffle", "kitti", "ledger", "audit"} <= names
    audit = [line for line in lines if line.startswith("audit")]
    # the audit figures: per preset against the floor (and with signatures against bare
    # Ed25519), single vs --workers, and memory
    assert any("kitti records/s per core" in line and "json.loads + SHA-256" in line and "the floor's time" in line
               for line in audit)
    assert any("kitti with --check-signatures" in line and "bare Ed25519" in line for line in audit)
    assert any("--workers 2" in line and "REPORT DIFFERS" not in line for line in audit)
    assert any("peak RSS" in line for line in audit)
    # the ledger row of issue 18: appends against bare inserts, with its aim and round-by-round range
    assert any(line.startswith("ledger") and "aim x0.5; rounds x" in line for line in lines)
    for line in lines[3:]:  # every row has a figure or says why not
        assert "not available" in line or any(ch.isdigit() for ch in line) or "skipped" in line
