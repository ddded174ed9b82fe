#!/usr/bin/env python3
"""Mutation testing of the verification modules: the kill rate per module (mutmut).

    nice -n 10 python bench/mutation.py [--only stream,merkle] [--keep DIR]

For each module below, a scratch copy of this checkout (tracked files only) gets a
``[tool.mutmut]`` section that mutates that one module and runs only the tests that
hold it (:data:`MODULES`), one worker (``--max-children 1``: the machine is shared); then
``mutmut results --all true`` is read and the kill rate printed: killed / (all mutants -
the equivalent ones listed in ``docs/mutation.md``, by mutant name in :data:`EQUIVALENT`).
Surviving mutants are named so they can be shown (``mutmut show NAME`` in the scratch
copy, kept with ``--keep``).  Not part of the test run: minutes per module, CPU-heavy.
mutmut is in the ``bench`` extra (``pip install -e .[bench]``).
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: module -> the tests that hold it (a narrow selection: each mutant runs the tests that
#: touched its function in the stats run, chosen from these)
MODULES = {
    "stream": ("replay/stream.py", ["tests/fairness/test_stream_fast.py", "tests/fairness/test_fairness_vectors.py",
                                   "tests/fairness/test_fairness_properties.py"]),
    "settlement": ("replay/settlement.py", ["tests/test_settlement.py"]),
    "merkle": ("audit/tlog/merkle.py", ["tests/tlog/test_merkle.py", "tests/tlog/test_proof_fast.py"]),
    "statement_check": ("audit/auditor/verdict/statement_check.py",
                        ["tests/audit/test_statement_check_faults.py"]),
}

#: mutants that cannot change behaviour, by mutant name; why each is equivalent is in
#: docs/mutation.md
EQUIVALENT: dict[str, set[str]] = {name: set() for name in MODULES}


def scratch_copy(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, files.decode().split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def configure(dest: Path, module: str, tests: list[str]) -> None:
    pyproject = dest / "pyproject.toml"
    text = pyproject.read_text()
    text += ("\n[tool.mutmut]\n"
             'source_paths = ["replay", "audit", "web"]\n'
             f'only_mutate = ["{module}"]\n'
             'also_copy = ["fixtures", "docs", "tools", "bench", "README.md"]\n'
             f"pytest_add_cli_args_test_selection = {tests!r}\n"
             'pytest_add_cli_args = ["-n", "0", "-p", "no:cacheprovider", "-x"]\n'
             "use_git_change_detection = false\n")
    pyproject.write_text(text.replace("'", '"'))


def run_module(name: str, keep: Path | None) -> tuple[int, int, int, list[str]]:
    module, tests = MODULES[name]
    work = Path(tempfile.mkdtemp(prefix=f"tiplu-mutation-{name}-", dir=keep))
    scratch_copy(work)
    configure(work, module, tests)
    subprocess.run(["mutmut", "run", "--max-children", "1"], cwd=work, capture_output=True, text=True)
    out = subprocess.run(["mutmut", "results", "--all", "true"], cwd=work, capture_output=True, text=True).stdout
    statuses = dict(re.findall(r"^\s*(\S+): (.+)$", out, flags=re.M))
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    equivalent = EQUIVALENT[name] & set(statuses)
    behavioural = {m: s for m, s in statuses.items() if m not in equivalent}
    killed = sum(s.strip() in ("killed", "timeout") for s in behavioural.values())
    survivors = sorted(m for m, s in behavioural.items() if s.strip() not in ("killed", "timeout"))
    return len(statuses), len(equivalent), killed, survivors


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help=f"comma-separated, of {', '.join(MODULES)}")
    ap.add_argument("--keep", type=Path, help="keep the scratch copies under this directory")
    args = ap.parse_args(argv)
    if shutil.which("mutmut") is None:
        print("mutmut is not installed: pip install -e .[bench]", file=sys.stderr)
        return 1
    names = [n for n in args.only.split(",") if n] or list(MODULES)
    print(f"{'module':<16} {'mutants':>7} {'equivalent':>10} {'killed':>6} {'kill rate':>9}")
    for name in names:
        total, equivalent, killed, survivors = run_module(name, args.keep)
        behavioural = total - equivalent
        rate = killed / behavioural if behavioural else 0.0
        print(f"{name:<16} {total:>7} {equivalent:>10} {killed:>6} {rate:>9.1%}")
        for m in survivors:
            print(f"    survived: {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
