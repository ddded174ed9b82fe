#!/usr/bin/env python3
"""Write fixtures/policy/cases.json: C2SP tlog-policy files and what they say of one checkpoint.

Shared by the Python parser's tests (tests/audit/test_policy.py) and the browser's
(tests/browser/test_browser_policy.py, web/static/verifier/policy.mjs): the same policies
must parse to the same quorum, refuse with the same error code and line, and judge the
same cosigned checkpoint the same way.  Keys come from fixed seeds, so the file is
reproducible byte for byte.

    python tools/make_policy_fixtures.py            # rewrite
    python tools/make_policy_fixtures.py --check    # exit 1 if not current
"""
from __future__ import annotations

import base64
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from audit.tlog.policy import PolicyError, parse_policy  # noqa: E402
from audit.signing import SigningKey  # noqa: E402
from audit.tlog.cosignature import cosign, witness_vkey  # noqa: E402
from audit.tlog.note import TYPE_ED25519, NoteLine, Vkey  # noqa: E402

OUT = ROOT / "fixtures" / "policy" / "cases.json"
ORIGIN = "tiplu.example/log"
TIMESTAMP = 1796083200  # 2026-12-01T00:00:00Z


def key(label: str) -> SigningKey:
    return SigningKey.from_hex(hashlib.sha256(f"policy fixture {label}".encode()).hexdigest())


def log_vkey(k: SigningKey, name: str = ORIGIN) -> str:
    return str(Vkey.for_key(name, TYPE_ED25519, bytes.fromhex(k.public_hex)))


def signed_checkpoint() -> tuple[str, dict[str, str]]:
    """A plain three-line checkpoint signed by the log and cosigned by X1, X2, Y3 and an
    unlisted witness Z; B's line is there but is not a valid cosignature."""
    body = f"{ORIGIN}\n6\n{base64.b64encode(hashlib.sha256(b'root').digest()).decode()}\n".encode()
    log = key("log")
    sig = bytes.fromhex(log.sign_bytes(body))
    lines = [NoteLine(ORIGIN, Vkey.for_key(ORIGIN, TYPE_ED25519, bytes.fromhex(log.public_hex)).key_id, sig)]
    for name in ("X1", "X2", "Y3", "Z"):
        lines.append(cosign(key(name), f"witness.example/{name}", body, TIMESTAMP + len(lines)))
    b = witness_vkey("witness.example/B", key("B").public_hex)
    lines.append(NoteLine(b.name, b.key_id, TIMESTAMP.to_bytes(8, "big") + bytes(64)))
    text = body.decode() + "\n" + "".join(str(line) for line in lines)
    vkeys = {n: str(witness_vkey(f"witness.example/{n}", key(n).public_hex))
             for n in ("X1", "X2", "X3", "Y1", "Y2", "Y3", "Z", "B")}
    return text, vkeys


def cases() -> dict:
    checkpoint, w = signed_checkpoint()
    log = log_vkey(key("log"))
    other = log_vkey(key("other log"))
    example = (f"log {log}\n\nwitness X1 {w['X1']}\nwitness X2 {w['X2']}\nwitness X3 {w['X3']}\n"
               "group X-witnesses 2 X1 X2 X3\n\n"
               f"witness Y1 {w['Y1']}\nwitness Y2 {w['Y2']}\nwitness Y3 {w['Y3']}\n"
               "group Y-witnesses any Y1 Y2 Y3\n\ngroup X-and-Y all X-witnesses Y-witnesses\nquorum X-and-Y\n")
    valid = {
        "spec-example": example,
        "one-witness-missing": f"log {log}\nwitness X3 {w['X3']}\nquorum X3\n",
        "one-witness-present": f"log {log}\nwitness X1 {w['X1']}\nquorum X1\n",
        "quorum-none": f"log {log}\nquorum none\n",
        "no-logs": f"witness X1 {w['X1']}\nwitness X2 {w['X2']}\ngroup two all X1 X2\nquorum two\n",
        "another-log": f"log {other}\nwitness X1 {w['X1']}\nquorum X1\n",
        "bad-cosignature": f"log {log}\nwitness B {w['B']}\nwitness X1 {w['X1']}\ngroup both all B X1\nquorum both\n",
        "threshold-not-met": (f"log {log}\nwitness X1 {w['X1']}\nwitness X3 {w['X3']}\nwitness Y1 {w['Y1']}\n"
                              "group g 2 X1 X3 Y1\nquorum g\n"),
        "comments-tabs-urls-no-final-newline": (f"# pinned by an auditor\n  \t\n\tlog\t{log}  https://tiplu.example/\n"
                                                f"   # witnesses\nwitness  X1 {w['X1']} https://w1.example/add\n"
                                                "quorum\tX1"),
        "log-after-quorum": f"witness X1 {w['X1']}\nquorum X1\nlog {log}\n",
    }
    bad = {
        "no-quorum": f"log {log}\nwitness X1 {w['X1']}\n",
        "two-quorums": f"witness X1 {w['X1']}\nquorum X1\nquorum none\n",
        "quorum-undefined": f"log {log}\nquorum X1\nwitness X1 {w['X1']}\n",
        "group-forward-reference": f"group g any X1\nwitness X1 {w['X1']}\nquorum g\n",
        "member-in-two-groups": (f"witness X1 {w['X1']}\nwitness X2 {w['X2']}\ngroup a any X1 X2\n"
                                 "group b any X1\ngroup c all a b\nquorum c\n"),
        "member-twice-in-a-group": f"witness X1 {w['X1']}\ngroup a 1 X1 X1\nquorum a\n",
        "threshold-zero": f"witness X1 {w['X1']}\ngroup a 0 X1\nquorum a\n",
        "threshold-above-members": f"witness X1 {w['X1']}\ngroup a 2 X1\nquorum a\n",
        "threshold-leading-zero": f"witness X1 {w['X1']}\nwitness X2 {w['X2']}\ngroup a 01 X1 X2\nquorum a\n",
        "threshold-word": f"witness X1 {w['X1']}\ngroup a some X1\nquorum a\n",
        "group-without-members": f"witness X1 {w['X1']}\ngroup a any\nquorum X1\n",
        "none-as-member": f"witness X1 {w['X1']}\ngroup a any X1 none\nquorum a\n",
        "witness-named-none": f"witness none {w['X1']}\nquorum none\n",
        "duplicate-name": f"witness X1 {w['X1']}\ngroup X1 any X1\nquorum X1\n",
        "duplicate-witness-key": f"witness X1 {w['X1']}\nwitness X9 {w['X1']}\nquorum X1\n",
        "duplicate-log-key": f"log {log}\nlog {log_vkey(key('log'), 'another.example/log')}\nquorum none\n",
        "log-key-of-a-witness-type": f"log {w['X1']}\nquorum none\n",
        "witness-key-of-a-log-type": f"witness X1 {log}\nquorum X1\n",
        "vkey-with-wrong-key-id": f"witness X1 {w['X1'].replace('+', '+0', 1)[:-1]}\nquorum X1\n",
        "unknown-keyword": f"witness X1 {w['X1']}\nquorum X1\nlogs {log}\n",
        "carriage-return": f"witness X1 {w['X1']}\r\nquorum X1\r\n",
        "control-character": f"witness X1 {w['X1']}\nquorum X1\x0c\n",
        "witness-without-key": "witness X1\nquorum X1\n",
        "log-with-two-urls": f"log {log} https://a.example/ https://b.example/\nquorum none\n",
        "quorum-with-two-names": f"witness X1 {w['X1']}\nwitness X2 {w['X2']}\nquorum X1 X2\n",
        "empty": "",
        "only-comments": "# nothing here\n",
    }
    out_valid, out_bad = [], []
    for name, text in valid.items():
        p = parse_policy(text, name=name)
        r = p.evaluate(checkpoint)
        out_valid.append({"name": name, "text": text, "sha256": p.sha256, "quorum": p.quorum,
                          "requires": p.describe(), "requires_witnesses": p.requires_witnesses,
                          "logs": [str(x.vkey) for x in p.logs], "witnesses": [x.name for x in p.witnesses],
                          "groups": {g.name: [g.threshold, list(g.members)] for g in p.groups},
                          "result": {"log": r.log.origin if r.log else None, "log_ok": r.log is not None,
                                     "log_problem": r.log_problem is not None,
                                     "quorum_met": r.quorum_met,
                                     "cosigned": [c.name for c in r.cosigned],
                                     "counted": [c.to_json() for c in r.counted],
                                     "missing": list(r.missing)}})
    for name, text in bad.items():
        try:
            parse_policy(text, name=name)
        except PolicyError as exc:
            out_bad.append({"name": name, "text": text, "code": exc.code, "line": exc.line, "message": str(exc)})
        else:
            raise SystemExit(f"bad policy {name!r} parsed")
    return {"about": "C2SP tlog-policy cases: tools/make_policy_fixtures.py writes this file",
            "checkpoint": checkpoint, "witness_vkeys": w, "log_vkey": log,
            "valid": out_valid, "invalid": out_bad}


def main() -> int:
    text = json.dumps(cases(), indent=1, ensure_ascii=False) + "\n"
    if "--check" in sys.argv:
        ok = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("fixtures/policy/cases.json is current" if ok else "fixtures/policy/cases.json is NOT current")
        return 0 if ok else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
