#!/usr/bin/env python3
"""Run a verifier against the conformance suite (fixtures/conformance, docs/conformance.md).

    python3 tools/conformance.py [--manifest FILE] [--only PREFIX] [--json] [--require-all] -- COMMAND [ARG ...]

COMMAND is any program that reads one JSON request per line on stdin and writes one JSON
answer per line on stdout, in order (the protocol is in docs/conformance.md).  Each case
passes when every field of its ``expect`` equals the answer's; a case the command answers
``{"id": ..., "unsupported": true}`` is counted apart, never as a pass.  Exit 0 when no case
failed (with ``--require-all``: and none was unsupported), 1 otherwise, 2 for bad usage.

Our own verifiers: ``-- python3 tools/conformance_tiplu.py`` (the Python audit and receipt
check); the browser and offline verifiers are run by tests/browser/test_browser_conformance.py.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "fixtures" / "conformance" / "manifest.json"
FORMAT = "tiplu.conformance/1"


def load(manifest: pathlib.Path = MANIFEST) -> dict:
    data = json.loads(manifest.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{manifest} is not a {FORMAT} manifest")
    return data


def _resolve(value: Any, base: pathlib.Path) -> Any:
    """Replace every ``{"file": path}`` by the file's text (UTF-8)."""
    if isinstance(value, dict):
        if set(value) == {"file"}:
            return (base / value["file"]).read_bytes().decode("utf-8")  # byte for byte: no newline translation
        return {k: _resolve(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, base) for v in value]
    return value


def request_of(case: dict, base: pathlib.Path) -> dict:
    """The JSON request a verifier gets for ``case``: its id, check, required layers and
    inputs with every file inlined as text."""
    return {"id": case["id"], "check": case["check"], "requires": case["requires"],
            "input": _resolve(case["input"], base)}


def judge(case: dict, answer: Any) -> tuple[str, str]:
    """("pass" | "fail" | "unsupported", what differs)."""
    if not isinstance(answer, dict) or answer.get("id") != case["id"]:
        return "fail", f"no answer for this case (got {str(answer)[:200]})"
    if answer.get("unsupported"):
        return "unsupported", str(answer.get("why", ""))
    if "error" in answer:
        return "fail", f"the verifier failed: {answer['error']}"
    diffs = [f"{k}: expected {json.dumps(v, ensure_ascii=False)}, got {json.dumps(answer.get(k), ensure_ascii=False)}"
             for k, v in case["expect"].items() if answer.get(k) != v]
    return ("fail", "; ".join(diffs)) if diffs else ("pass", "")


@dataclass
class Report:
    results: list[tuple[str, str, str]] = field(default_factory=list)  # (id, status, detail)

    def count(self, status: str) -> int:
        return sum(1 for _, s, _ in self.results if s == status)

    def failed(self) -> list[str]:
        return [i for i, s, _ in self.results if s == "fail"]

    def to_json(self) -> dict:
        return {"passed": self.count("pass"), "failed": self.count("fail"), "unsupported": self.count("unsupported"),
                "cases": [{"id": i, "status": s, "detail": d} for i, s, d in self.results]}


def games_of(case: dict, base: pathlib.Path = MANIFEST.parent) -> set[str]:
    """The games (``ruleset.game``) of the records an ``audit`` case audits."""
    out = set()
    for r in case["input"].get("records", []) if case["check"] == "audit" else []:
        try:
            out.add(json.loads((base / r["file"]).read_text(encoding="utf-8"))["ruleset"]["game"])
        except (ValueError, KeyError, TypeError):
            pass  # not a record that parses: no game
    return out


def needing_games(cases: Iterable[dict], have: Iterable[str], *, base: pathlib.Path = MANIFEST.parent) -> set[str]:
    """The ids of the cases that require ``replay`` of a game not in ``have``: all a verifier
    that replays only the games ``have`` may answer unsupported (the browser verifiers, while a
    game's module is missing)."""
    have = set(have)
    return {c["id"] for c in cases if "replay" in c["requires"] and games_of(c, base) - have}


def select(cases: Iterable[dict], only: Iterable[str] | None) -> list[dict]:
    only = list(only or [])
    return [c for c in cases if not only or any(c["id"].startswith(p) for p in only)]


def run(cases: list[dict], answer: Callable[[dict], Any], *, base: pathlib.Path = MANIFEST.parent) -> Report:
    """Judge ``answer`` (a function from request to answer) on every case, in order."""
    report = Report()
    for c in cases:
        try:
            got = answer(request_of(c, base))
        except Exception as exc:  # noqa: BLE001 - a crashing verifier fails the case, the run goes on
            got = {"id": c["id"], "error": f"{type(exc).__name__}: {exc}"}
        report.results.append((c["id"], *judge(c, got)))
    return report


def run_command(cases: list[dict], command: list[str], *, base: pathlib.Path = MANIFEST.parent) -> Report:
    """Judge a command speaking JSON lines: all requests go in, one answer per line comes out."""
    text = "".join(json.dumps(request_of(c, base), ensure_ascii=False) + "\n" for c in cases)
    proc = subprocess.run(command, input=text.encode("utf-8"), capture_output=True, check=False)
    lines = proc.stdout.decode("utf-8", "replace").splitlines()
    report = Report()
    for i, c in enumerate(cases):
        try:
            got = json.loads(lines[i]) if i < len(lines) else None
        except json.JSONDecodeError:
            got = None
        if got is None and i >= len(lines):
            got = {"id": c["id"], "error": f"no answer (the command exited {proc.returncode}: "
                                           f"{proc.stderr.decode('utf-8', 'replace').strip()[-300:]})"}
        report.results.append((c["id"], *judge(c, got)))
    return report


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        print("tiplu conformance: error: give the verifier's command after --", file=sys.stderr)
        return 2
    cut = argv.index("--")
    ap = argparse.ArgumentParser(prog="tools/conformance.py")
    ap.add_argument("--manifest", type=pathlib.Path, default=MANIFEST)
    ap.add_argument("--only", action="append", help="run only the cases whose id starts with this (repeatable)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--require-all", action="store_true", help="an unsupported case fails the run too")
    args = ap.parse_args(argv[:cut])
    command = argv[cut + 1:]
    if not command:
        print("tiplu conformance: error: give the verifier's command after --", file=sys.stderr)
        return 2
    try:
        suite = load(args.manifest)
    except (OSError, ValueError) as exc:
        print(f"tiplu conformance: error: {exc}", file=sys.stderr)
        return 2
    report = run_command(select(suite["cases"], args.only), command, base=args.manifest.parent)
    if args.json:
        print(json.dumps(report.to_json(), indent=1, ensure_ascii=False))
    else:
        for cid, status, detail in report.results:
            if status != "pass":
                print(f"{status.upper():12} {cid}: {detail}")
        print(f"{report.count('pass')} passed, {report.count('fail')} failed, "
              f"{report.count('unsupported')} unsupported (suite {suite['format']} version {suite['version']})")
    bad = report.count("fail") or (args.require_all and report.count("unsupported"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
