"""Smoke tests of the statistics script and the benchmark (they run; no timing is asserted)."""
import importlib.util
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wilson_hilferty_critical_values():
    stats = load(ROOT / "tools" / "shuffle_stats.py")
    # Tabulated chi-square 99 % quantiles: df 10 -> 23.209, df 100 -> 135.807, df 1000 -> 1106.969
    for df, table in [(10, 23.209), (100, 135.807), (1000, 1106.969)]:
        assert abs(stats.chi2_critical(df) - table) / table < 0.002


def test_shuffle_stats_runs():
    out = subprocess.run([sys.executable, "tools/shuffle_stats.py", "--shuffles", "300"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode in (0, 1), out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("300 shuffles") and len(lines) == 5
    assert all(line.split()[-1] in ("pass", "FAIL") for line in lines[2:])


def test_bench_runs():
    out = subprocess.run([sys.executable, "bench/shuffle.py", "--seconds", "0.01"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    sizes = [line.split()[0] for line in out.stdout.splitlines()[1:]]
    assert sizes == ["52", "106", "156", "159", "160"]
