#!/usr/bin/env python3
"""Write (or check) fixtures/behaviour/: what the `tiplu` command prints for a fixed set of inputs.

The guard of a redesign that must change no behaviour: every fixture record audited
(``tiplu audit --json``, with and without ``--check-signatures``) and replayed
(``tiplu replay``, text and ``--json``); a seeded simulated archive of every preset, with
forgeries planted (``simulate``, its bytes, then ``audit --json`` and ``stats --json``); and
``tiplu eval`` answers to seeded requests of every game, bad lines included.  The outputs are
stored as they are printed, one file per input, so a difference reads as a diff.

    python tools/behaviour_snapshot.py            # rewrite (only when a change of behaviour is meant)
    python tools/behaviour_snapshot.py --check    # exit 1 and name the files that differ
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys
import tempfile
import tomllib
from contextlib import chdir
from importlib import import_module

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

OUT = ROOT / "fixtures" / "behaviour"
RECORDS = ROOT / "fixtures" / "records"
PRESETS = ("marriage/nepal", "marriage/classic", "kitti", "rummy13")
SUITS, RANKS = "SHDC", "23456789TJQKA"


def command():
    """The `tiplu` command as pyproject.toml's entry point names it (wherever it lives)."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["tiplu"]
    module, _, attr = target.partition(":")
    return getattr(import_module(module), attr)


def run(args: list[str], stdin: str | None = None) -> str:
    result = CliRunner().invoke(command(), args, input=stdin, catch_exceptions=False)
    return f"exit {result.exit_code}\n{result.output}"


def eval_requests(game: str, rng: random.Random) -> str:
    deck = [r + s for s in SUITS for r in RANKS]
    lines = []
    for _ in range(40):
        if game == "kitti":
            lines.append({"op": "rank", "cards": rng.sample(deck, 3)})
        elif game == "rummy13":
            cards = rng.sample(deck + ["JK", "JK"], 13)
            lines.append({"op": "points", "cards": cards, "indicator": rng.choice(deck + ["JK"])})
        else:
            hand = rng.sample(deck, rng.randint(3, 9))
            lines.append({"op": "maal", "preset": rng.choice(PRESETS[:2]), "tiplu": rng.choice(deck),
                          "hand": hand, "table": [], "tunnelas_at_deal": [], "seen": rng.random() < 0.7})
    if game == "kitti":
        lines += [{"op": "splits", "cards": rng.sample(deck, 9)} for _ in range(3)]
    text = "\n".join(json.dumps(x) for x in lines)
    return text + '\n{"op":"nope"}\nnot json\n{"op":"rank","cards":["ZZ"]}\n'


def build() -> dict[str, str]:
    files: dict[str, str] = {}
    manifest = json.loads((RECORDS / "manifest.json").read_text())["records"]
    with chdir(ROOT):  # paths in the output are relative: the same on every machine
        _records(files, manifest)
    with tempfile.TemporaryDirectory() as tmp, chdir(tmp):
        _archives(files)
    for game in ("kitti", "rummy13", "marriage"):
        files[f"eval/{game}.txt"] = run(["eval", game], stdin=eval_requests(game, random.Random(f"eval:{game}")))
    return files


def _records(files: dict[str, str], manifest: list[dict]) -> None:
    for entry in manifest:
        path = f"fixtures/records/{entry['file']}"
        stem = entry["file"].removesuffix(".json")
        files[f"records/{stem}.audit.txt"] = run(["audit", path, "--json"])
        files[f"records/{stem}.audit-signatures.txt"] = run(["audit", path, "--json", "--check-signatures"])
        if entry["ok"]:
            files[f"records/{stem}.replay.txt"] = run(["replay", path])
            files[f"records/{stem}.replay-json.txt"] = run(["replay", path, "--json"])


def _archives(files: dict[str, str]) -> None:
    for preset in PRESETS:
        slug = preset.replace("/", "-")
        archive = pathlib.Path(f"{slug}.jsonl")
        files[f"archives/{slug}.simulate.txt"] = run([
            "simulate", "--preset", preset, "--hands", "6", "--tables", "2", "--seed", "behaviour-1",
            "--tamper", "0.5", "--json", "--out", str(archive)])
        files[f"archives/{slug}.sha256.txt"] = hashlib.sha256(archive.read_bytes()).hexdigest() + "\n"
        files[f"archives/{slug}.audit.txt"] = run(["audit", str(archive), "--json"])
        files[f"archives/{slug}.stats.txt"] = run(["stats", str(archive), "--json"])


def main() -> int:
    files = build()
    if "--check" in sys.argv:
        stored = {p.relative_to(OUT).as_posix() for p in OUT.rglob("*.txt")}
        bad = sorted(n for n, t in files.items() if not (OUT / n).exists() or (OUT / n).read_text() != t)
        bad += sorted(stored - set(files))
        print("behaviour snapshot is current" if not bad else f"behaviour differs in {len(bad)} files: {bad[:8]}")
        return 1 if bad else 0
    for name, text in files.items():
        path = OUT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    print(f"wrote {len(files)} files under {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
