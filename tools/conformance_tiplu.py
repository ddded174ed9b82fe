#!/usr/bin/env python3
"""Our Python verifier as a conformance command (docs/conformance.md): reads JSON requests on
stdin, one per line, and answers each on stdout.

Records are audited by ``tiplu audit --trust FILE --check-signatures --json`` and receipts
checked by ``tiplu receipt verify --public-key HEX --json``, both run in this process
through click; the layers below call the library functions those commands use.  Each check
is a method of :class:`Verifier`, so a wrong implementation (tests/conformance/mutants.py)
is this class with one method or one library function changed.

    python3 tools/conformance.py -- python3 tools/conformance_tiplu.py
"""
from __future__ import annotations

import json
import pathlib
import sys
import tempfile
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from click.testing import CliRunner  # noqa: E402

from audit.errors import ProofError, SignatureError  # noqa: E402
from audit.signing import verify_statement  # noqa: E402
from audit.tlog.checkpoint import verify_checkpoint  # noqa: E402
from audit.tlog.cosignature import parse_witness_vkey, verify_cosignatures  # noqa: E402
from audit.tlog.merkle import leaf_hash, verify_consistency, verify_inclusion  # noqa: E402
from audit.tlog.store import leaf_entry  # noqa: E402
from replay.canonical import canonical_json  # noqa: E402
from replay.errors import MalformedError  # noqa: E402
from replay.fairness import parse_player_seed  # noqa: E402
from replay.stream import Stream, key_material  # noqa: E402

LAYERS = {"canonical", "movechain", "stream", "statement", "leaf", "merkle", "checkpoint", "cosignature", "receipt",
          "record", "fairness", "log-evidence", "statements", "replay", "witnesses", "one-log", "clock", "policy"}


class _Words(Stream):
    """A stream whose words are given (the randbelow check)."""

    def __init__(self, words):  # noqa: D107 - no Stream state: only next_u32 is read
        self.given, self.used = list(words), 0

    def next_u32(self) -> int:
        if self.used == len(self.given):
            raise ValueError("randbelow read past the words given")
        self.used += 1
        return self.given[self.used - 1]


class Verifier:
    """The answers of the Python audit, one method per check."""

    def answer(self, request: dict) -> dict:
        rid = request.get("id")
        missing = set(request.get("requires", [])) - LAYERS
        if missing:
            return {"id": rid, "unsupported": True, "why": f"no {sorted(missing)} layer"}
        method = getattr(self, "check_" + str(request.get("check")).replace("-", "_"), None)
        if method is None:
            return {"id": rid, "unsupported": True, "why": f"no check {request.get('check')!r}"}
        return {"id": rid, **method(request["input"])}

    # -- layers below the record
    def canonical(self, value: Any) -> bytes:
        return canonical_json(value)

    def check_canonical(self, inp):
        return {"canonical_hex": self.canonical(json.loads(inp["value"])).hex()}

    def randbelow(self, stream: Stream, n: int) -> int:
        return stream.randbelow(n)

    def check_randbelow(self, inp):
        s = _Words(inp["words"])
        try:
            value = self.randbelow(s, inp["n"])
        except ValueError:
            value = None
        return {"value": value, "words_used": s.used}

    def stream(self, server_seed: bytes, material: bytes, label: str) -> Stream:
        return Stream(server_seed, material, label)

    def check_stream(self, inp):
        s = self.stream(bytes.fromhex(inp["server_seed"]), bytes.fromhex(inp["material"]), inp["label"])
        block0 = s.block(0).hex()
        return {"block0": block0, "values": [self.randbelow(s, n) for n in inp["draws"]]}

    def material(self, hand_id: str, ruleset_hash: bytes, seeds: list[bytes]) -> bytes:
        return key_material(hand_id, ruleset_hash, seeds)

    def shuffle(self, stream: Stream, items: list) -> list:
        return stream.shuffle(items)

    def check_shuffle(self, inp):
        m = self.material(inp["hand_id"], bytes.fromhex(inp["ruleset_hash"]),
                          [parse_player_seed(s) for s in inp["player_seeds"]])
        s = self.stream(bytes.fromhex(inp["server_seed"]), m, inp["label"])
        return {"material": m.hex(), "items": self.shuffle(s, inp["items"])}

    def move_heads(self, hand_id: str, commitment: str, moves: list) -> tuple[str, list[str]]:
        from replay.movechain import chain_heads, start_head
        return start_head(hand_id, commitment).hex(), chain_heads(hand_id, commitment, moves)

    def check_movechain(self, inp):
        head0, heads = self.move_heads(inp["hand_id"], inp["server_seed_commitment"], json.loads(inp["moves"]))
        return {"head0": head0, "heads": heads}

    def verify_statement(self, signed: dict, public_key: str) -> None:
        verify_statement(signed, public_key)

    def check_statement(self, inp):
        signed = json.loads(inp["signed"])
        try:
            self.verify_statement(signed, inp["public_key"])
            valid = True
        except (SignatureError, MalformedError):
            valid = False
        return {"signed_hex": self.canonical(signed["statement"]).hex(), "valid": valid}

    def leaf_hash(self, signed: dict) -> bytes:
        return leaf_hash(leaf_entry(signed))

    def check_leaf(self, inp):
        return {"leaf_hash": self.leaf_hash(json.loads(inp["signed"])).hex()}

    def verify_inclusion(self, leaf: bytes, index: int, size: int, path: list[bytes], root: bytes) -> None:
        verify_inclusion(leaf, index, size, path, root)

    def check_inclusion(self, inp):
        try:
            self.verify_inclusion(bytes.fromhex(inp["leaf_hash"]), inp["index"], inp["size"],
                                  [bytes.fromhex(p) for p in inp["path"]], bytes.fromhex(inp["root"]))
            return {"valid": True}
        except (ProofError, MalformedError):
            return {"valid": False}

    def verify_consistency(self, first, second, first_root, second_root, path) -> None:
        verify_consistency(first, second, first_root, second_root, path)

    def check_consistency(self, inp):
        try:
            self.verify_consistency(inp["first"], inp["second"], bytes.fromhex(inp["first_root"]),
                                    bytes.fromhex(inp["second_root"]), [bytes.fromhex(p) for p in inp["path"]])
            return {"valid": True}
        except (ProofError, MalformedError):
            return {"valid": False}

    def verify_checkpoint(self, text: str, public_key: str, origin: str | None) -> None:
        verify_checkpoint(text, public_key, origin=origin)

    def check_checkpoint(self, inp):
        try:
            self.verify_checkpoint(inp["checkpoint"], inp["public_key"], inp.get("origin"))
            return {"valid": True}
        except (SignatureError, MalformedError):
            return {"valid": False}

    def valid_witnesses(self, text: str, vkeys: list[str]) -> list[str]:
        return [r.name for r in verify_cosignatures(text, [parse_witness_vkey(v) for v in vkeys]) if r.ok]

    def check_cosignature(self, inp):
        valid = sorted(self.valid_witnesses(inp["checkpoint"], inp["witnesses"]))
        return {"valid_witnesses": valid, "quorum_met": len(valid) >= inp["quorum"]}

    # -- records and receipts: the CLI itself
    def cli(self, args: list[str]):
        from web.cli import main
        result = CliRunner().invoke(main, args, catch_exceptions=False)
        return result.exit_code, result.stdout

    def check_audit(self, inp):
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            texts = inp["records"]
            if inp.get("one_log") or len(texts) > 1:
                src = d / "records.jsonl"
                src.write_text("".join(t if t.endswith("\n") else t + "\n" for t in
                                       (json.dumps(json.loads(t), ensure_ascii=False) if _is_json(t) else t.replace("\n", " ")
                                        for t in texts)), encoding="utf-8")
                names = [f"{src}:{i + 1}" for i in range(len(texts))]
            else:
                src = d / "record.json"
                src.write_text(texts[0], encoding="utf-8")
                names = [str(src)]
            trust = {"format": "tiplu.trust/1", "public_key": inp["trust"]["public_key"]}
            if inp["trust"].get("origin"):
                trust["origin"] = inp["trust"]["origin"]
            (d / "trust.json").write_text(json.dumps(trust), encoding="utf-8")
            args = ["audit", str(src), "--trust", str(d / "trust.json"), "--check-signatures", "--json", "--no-progress"]
            if inp.get("now"):
                args += ["--now", inp["now"]]
            if inp.get("one_log"):  # one log: the checkpoints met must agree (a first audit with a state file)
                args += ["--state", str(d / "state.json")]
            for w in inp.get("witnesses") or []:
                args += ["--witness", w]
            if inp.get("witnesses") is not None:
                args += ["--quorum", str(inp["quorum"])]
            if inp.get("policy") is not None:
                (d / "policy.txt").write_text(inp["policy"], encoding="utf-8")
                args += ["--policy", str(d / "policy.txt")]
            code, out = self.cli(args)
        if code == 2:  # bad usage: the trust and the policy name different logs (nothing audited)
            return {"exit": 2, "verdicts": [], "log_failures": []}
        report = json.loads(out)
        by_where = {f["where"]: f for f in report.get("failures", [])}
        verdicts = []
        for name in names:
            f = by_where.pop(name, None)
            verdicts.append({"ok": True, "reason": None, "first_bad_move": None} if f is None else
                            {"ok": False, "reason": f.get("reason"), "first_bad_move": f.get("first_bad_move")})
        if inp.get("timing"):  # each passed record's timing: unproven ones are listed, the others proven
            unproven = {u["where"] for u in report.get("unproven_records", [])}
            witnessed = "witnessed" if inp.get("witnesses") or inp.get("policy") else "whole-log"
            for name, v in zip(names, verdicts):
                v["timing"] = None if not v["ok"] else "unproven" if name in unproven else witnessed
        # a table's carry faults that no failed record explains are failures too, not one record's
        folded = [c["message"] for f in report.get("failures", []) for c in f.get("consequences", [])]
        carry = ["carry_mismatch" for t in report.get("tables", {}).values() for m in t.get("carry_faults", [])
                 if m not in folded]
        return {"exit": code, "verdicts": verdicts,
                "log_failures": sorted([f.get("reason") for f in by_where.values()] + carry)}

    def check_receipt(self, inp):
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            (d / "receipt.json").write_text(inp["receipt"], encoding="utf-8")
            (d / "record.json").write_text(inp["record"], encoding="utf-8")
            args = ["receipt", "verify", str(d / "receipt.json"), str(d / "record.json"),
                    "--public-key", inp["public_key"], "--json"]
            if inp.get("move_receipts") is not None:
                (d / "moves.json").write_text(inp["move_receipts"], encoding="utf-8")
                args += ["--moves", str(d / "moves.json")]
            code, out = self.cli(args)
        found = sorted(c["what"] for c in json.loads(out)["contradictions"]) if code in (0, 1) else []
        return {"exit": code, "contradictions": found}


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def main() -> int:
    verifier = Verifier()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            out = verifier.answer(request)
        except Exception as exc:  # noqa: BLE001 - report it as this case's error, go on
            out = {"id": request.get("id"), "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
