"""Instructions per process of one ``tiplu audit`` run (callgrind): a measure load does not bend.

On a shared machine the wall ratio of ``--workers 2`` swings with what others run (and even
CPU seconds inflate under contention); instruction counts do not.  Each run is one
``python -m web.cli audit ARCHIVE --json --no-progress [ARGS]`` under
``valgrind --tool=callgrind --trace-children=yes``; a forked worker's counts are zeroed as
it starts (a one-line C helper issuing ``CALLGRIND_ZERO_STATS``, loaded by a
``sitecustomize`` on the bench's path only), so each worker's count is its own work, not the
parent's before the fork.  Callgrind runs ~50x slower: use a short archive (1,000 lines).

    python bench/audit_instructions.py ARCHIVE --tree /tmp/old --tree . -- --workers 2

Needs valgrind, its headers (``valgrind/callgrind.h``) and a C compiler.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HELPER = "#include <valgrind/callgrind.h>\nvoid cg_zero(void) { CALLGRIND_ZERO_STATS; }\n"
SITE = ("import ctypes, os\n_lib = ctypes.CDLL({lib!r})\n"
        "os.register_at_fork(after_in_child=_lib.cg_zero)  # a forked child counts from zero\n")


def helper_dir(tmp: Path) -> Path:
    (tmp / "cgz.c").write_text(HELPER)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(tmp / "libcgz.so"), str(tmp / "cgz.c")], check=True)
    (tmp / "sitecustomize.py").write_text(SITE.format(lib=str(tmp / "libcgz.so")))
    return tmp


def count(tree: Path, archive: str, args: list[str], site: Path, out: Path) -> tuple[dict[int, int], int, str]:
    """{pid: instructions} of every process of the run, the command's own pid, the report's SHA-256."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{site}"}
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}/%p",
                             sys.executable, "-m", "web.cli", "audit", archive, "--json", "--no-progress", *args],
                            cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    report, _ = proc.communicate()
    per = {}
    for f in out.iterdir():
        for line in f.read_text(errors="replace").splitlines():
            if line.startswith("summary:"):
                per[int(f.name)] = int(line.split()[1])
    return per, proc.pid, hashlib.sha256(report).hexdigest()[:12]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("archive")
    ap.add_argument("--tree", action="append", default=[], help="a checkout to run (repeatable; default: this one)")
    ap.add_argument("args", nargs="*", help="tiplu audit's arguments after --, e.g. -- --workers 2")
    a = ap.parse_args(argv)
    trees = [Path(t).resolve() for t in a.tree] or [Path(__file__).resolve().parent.parent]
    with tempfile.TemporaryDirectory() as tmp:
        site = helper_dir(Path(tmp))
        for i, tree in enumerate(trees):
            per, parent, digest = count(tree, str(Path(a.archive).resolve()), a.args, site, Path(tmp) / f"run{i}")
            rest = ", ".join(f"{n / 1e6:,.0f}M" for p, n in sorted(per.items()) if p != parent)
            print(f"{tree}: total {sum(per.values()) / 1e6:,.0f}M instructions; parent {per[parent] / 1e6:,.0f}M"
                  + (f"; the others {rest}" if rest else "") + f"; report {digest}")


if __name__ == "__main__":
    main()
