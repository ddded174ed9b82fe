#!/usr/bin/env python3
"""Mutation testing of the verification modules: the kill rate per module (mutmut).

    nice -n 10 python bench/mutation.py [--only stream,merkle] [--keep DIR]

For each module below, a scratch copy of this checkout (tracked files only) gets a
``[tool.mutmut]`` section that mutates that one module and runs only the tests that
hold it (:data:`MODULES`), one worker (``--max-children 1``: the machine is shared); then
``mutmut results --all true`` is read and the kill rate printed: killed / (all mutants -
the equivalent ones: :data:`EQUIVALENT`, by their lines, listed in ``docs/mutation.md``).
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
    "settlement": ("replay/settlement.py", ["tests/test_settlement.py", "tests/test_settlement_messages.py",
                                           "tests/test_table_money_rule.py"]),
    "merkle": ("audit/tlog/merkle.py", ["tests/tlog/test_merkle_pinned.py"]),
    "statement_check": ("audit/auditor/verdict/statement_check.py",
                        ["tests/audit/test_statement_check_faults.py"]),
}

#: mutants that cannot change behaviour, per module: (the line mutmut removed, the line it
#: put instead, why the two behave the same), matched against each surviving mutant's diff
#: (``mutmut show``); docs/mutation.md lists them.  By their lines, not by mutant names:
#: the names are numbered per function and move when the function changes.
EQUIVALENT: dict[str, list[tuple[str, str, str]]] = {
    "stream": [
        *[(f'{pre}.to_bytes({n}, "big"){post}', f"{pre}.to_bytes({n}, ){post}",
           "int.to_bytes's byteorder defaults to 'big' since Python 3.11 (the project's floor)")
          for pre, n, post in [("    return len(data)", 4, " + data"), ("    return n", 4, ""), ("    return n", 8, ""),
                               ("        parts.append(len(seed)", 4, ")")]],
        ('    parts = [_MATERIAL_TAG_ENC, len(hid).to_bytes(4, "big"), hid, len(ruleset_hash).to_bytes(4, "big"),',
         '    parts = [_MATERIAL_TAG_ENC, len(hid).to_bytes(4, ), hid, len(ruleset_hash).to_bytes(4, "big"),',
         "int.to_bytes's byteorder defaults to 'big'"),
        ('    parts = [_MATERIAL_TAG_ENC, len(hid).to_bytes(4, "big"), hid, len(ruleset_hash).to_bytes(4, "big"),',
         '    parts = [_MATERIAL_TAG_ENC, len(hid).to_bytes(4, "big"), hid, len(ruleset_hash).to_bytes(4, ),',
         "int.to_bytes's byteorder defaults to 'big'"),
        ('             ruleset_hash, len(player_seeds).to_bytes(4, "big")]',
         "             ruleset_hash, len(player_seeds).to_bytes(4, )]", "int.to_bytes's byteorder defaults to 'big'"),
        ('    hid = hand_id.encode("utf-8")', '    hid = hand_id.encode("UTF-8")', "codec names are case-insensitive"),
        ('    self._mac = hmac.new(server_seed, enc(STREAM_TAG) + material + enc(label.encode("utf-8")), _sha256)',
         '    self._mac = hmac.new(server_seed, enc(STREAM_TAG) + material + enc(label.encode("UTF-8")), _sha256)',
         "codec names are case-insensitive"),
    ],
    "settlement": [
        ("    return value.quantize(CENT, rounding=ROUND_HALF_UP, context=_ROUNDING)",
         "    return value.quantize(CENT, rounding=None, context=_ROUNDING)",
         "the context passed, _ROUNDING, rounds ROUND_HALF_UP itself"),
        ("    return value.quantize(CENT, rounding=ROUND_HALF_UP, context=_ROUNDING)",
         "    return value.quantize(CENT, context=_ROUNDING)", "the context passed, _ROUNDING, rounds ROUND_HALF_UP itself"),
        ("    fees = tuple(round_cents(g * pct / 100) if g > 0 else ZERO for g in gross)",
         "    fees = tuple(round_cents(g * pct / 100) if g >= 0 else ZERO for g in gross)",
         "a zero gross pays a zero fee either way; only the exponent of a zero Decimal differs, and every output "
         "formats amounts to the cent (format_amount)"),
        ("    if sum(nets, ZERO) + commission + pot_delta != 0:  # pragma: no cover - arithmetic invariant",
         "    if sum(nets, ) + commission + pot_delta != 0:  # pragma: no cover - arithmetic invariant",
         "0 + a Decimal is that Decimal: the same comparison"),
        *[('        raise AssertionError("settlement does not sum to zero")', plus,
           "unreachable: the zero-sum invariant holds by construction (nets + fees = gross, which sums to minus the pot)")
          for plus in ("        raise AssertionError(None)", '        raise AssertionError("XXsettlement does not sum to zeroXX")',
                       '        raise AssertionError("SETTLEMENT DOES NOT SUM TO ZERO")')],
    ],
    "merkle": [
        ("        if type(p) is not bytes or len(p) != HASH_SIZE:",
         "        if type(None) is not bytes or len(p) != HASH_SIZE:",
         "the inlined check of a path element only spares the call: _check_hash passes a 32-byte bytes value "
         "through unchanged, so sending every element to it gives the same fold"),
        ("        return subproof(m - k, start + k, end, False) + [range_hash(start, start + k, perfect)]",
         "        return subproof(m - k, start + k, end, None) + [range_hash(start, start + k, perfect)]",
         "b is only read by `[] if b else ...`: None and False are both false"),
    ],
    "statement_check": [
        ("    phase, last_time = -1, \"\"", "    phase, last_time = -2, \"\"",
         "every phase is 0 or more, so any start below 0 is the same"),
        *[('        return {"moves_head": None, "n_moves": len(record.moves)}', plus,
           "unreachable: a move without canonical JSON (a float) is refused by parse_record before the check")
          for plus in ('        return {"XXmoves_headXX": None, "n_moves": len(record.moves)}',
                       '        return {"MOVES_HEAD": None, "n_moves": len(record.moves)}',
                       '        return {"moves_head": None, "XXn_movesXX": len(record.moves)}',
                       '        return {"moves_head": None, "N_MOVES": len(record.moves)}')],
    ],
}


def diff_lines(work: Path, mutant: str) -> tuple[str, str]:
    """The line a mutant removed and the line it put instead (``mutmut show``)."""
    text = subprocess.run(["mutmut", "show", mutant], cwd=work, capture_output=True, text=True).stdout
    minus = [ln[1:] for ln in text.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln[1:] for ln in text.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return "\n".join(minus), "\n".join(plus)


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


def run_module(name: str, keep: Path | None) -> tuple[int, list[tuple[str, str]], int, list[str]]:
    """(mutants, the equivalent ones with why, killed, the surviving behavioural ones)."""
    module, tests = MODULES[name]
    work = Path(tempfile.mkdtemp(prefix=f"tiplu-mutation-{name}-", dir=keep))
    scratch_copy(work)
    configure(work, module, tests)
    subprocess.run(["mutmut", "run", "--max-children", "1"], cwd=work, capture_output=True, text=True)
    out = subprocess.run(["mutmut", "results", "--all", "true"], cwd=work, capture_output=True, text=True).stdout
    statuses = {m: s.strip() for m, s in re.findall(r"^\s*(\S+): (.+)$", out, flags=re.M)}
    known = {(minus, plus): why for minus, plus, why in EQUIVALENT[name]}
    equivalent, survivors = [], []
    for mutant, status in sorted(statuses.items()):
        if status in ("killed", "timeout"):
            continue
        why = known.get(diff_lines(work, mutant))
        if why is None:
            survivors.append(mutant)
        else:
            equivalent.append((mutant, why))
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    killed = sum(s in ("killed", "timeout") for s in statuses.values())
    return len(statuses), equivalent, killed, survivors


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
        behavioural = total - len(equivalent)
        rate = killed / behavioural if behavioural else 0.0
        print(f"{name:<16} {total:>7} {len(equivalent):>10} {killed:>6} {rate:>9.1%}", flush=True)
        for m, why in equivalent:
            print(f"    equivalent: {m} ({why})")
        for m in survivors:
            print(f"    survived: {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
