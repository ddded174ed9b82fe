"""docs/records.md, "Statements": the worked example's values are the golden record's, and
the steps it describes verify that record (the doc cannot drift from the fixture)."""
import base64
import hashlib
import json
import pathlib
import re

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.operator.ledger.statements import KINDS

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
RECORD = json.loads((ROOT / "fixtures" / "records" / "kitti" / "golden-0.json").read_text(encoding="utf-8"))


def example() -> dict[str, str]:
    block = DOC.split("### Worked example", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    return dict(re.match(r"(\w+)\s+= (.*)$", line).groups() for line in block.strip().splitlines())


def canonical(value) -> bytes:  # as the doc spells it, not replay.canonical
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def test_example_values_are_the_fixtures():
    ex = example()
    entry = RECORD["fairness"]["statements"][1]
    assert ex["kind"] == entry["statement"]["kind"]
    assert ex["signed"].encode("utf-8") == canonical(entry["statement"])
    assert len(ex["signed"].encode("utf-8")) == 309 and "the\n309 bytes" in DOC
    assert ex["sha256"] == hashlib.sha256(canonical(entry["statement"])).hexdigest()
    assert ex["key"] == entry["key"] == RECORD["table"]["public_key"]
    assert ex["sig"] == entry["sig"]
    assert ex["leaf_hash"] == hashlib.sha256(b"\x00" + canonical(entry)).hexdigest()
    assert f"index {ex['log_index']}\n" in RECORD["fairness"]["log_proofs"][1]


def test_example_steps_verify_the_record():
    ex = example()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(ex["key"])).verify(bytes.fromhex(ex["sig"]),
                                                                       ex["signed"].encode("utf-8"))
    stmt = json.loads(ex["signed"])
    assert stmt["server_seed_commitment"] == RECORD["fairness"]["server_commitment"]
    assert hashlib.sha256(bytes.fromhex(RECORD["fairness"]["server_seed"])).hexdigest() == stmt["server_seed_commitment"]
    # Step 4: the leaf hash folds up the proof's path (RFC 9162) to the checkpoint's root.
    proof = RECORD["fairness"]["log_proofs"][1].split("\n")
    index = int(proof[1].split()[1])
    path = [base64.b64decode(x) for x in proof[2:proof.index("")]]
    cp = proof[proof.index("") + 1:]
    size, root = int(cp[1]), base64.b64decode(cp[2])
    fn, sn, r = index, size - 1, bytes.fromhex(ex["leaf_hash"])
    for p in path:
        if fn & 1 or fn == sn:
            r = hashlib.sha256(b"\x01" + p + r).digest()
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = hashlib.sha256(b"\x01" + r + p).digest()
        fn, sn = fn >> 1, sn >> 1
    assert r == root and sn == 0


def test_every_kind_has_one_row_and_the_order_is_stated():
    table = DOC.split("| kind | fields besides type/kind/hand_id/time |", 1)[1].split("\n\n", 1)[0]
    assert sorted(re.findall(r"^\| `([a-z-]+)` \|", table, re.M)) == sorted(KINDS)
    assert "| kind | fields besides" not in (ROOT / "docs" / "ledger.md").read_text(encoding="utf-8")
    order = "`hand` < `commitment` < every `seat-receipt` < every `seat-reveal`\n< `deal` < `record` < `reveal`"
    assert order in DOC
    kinds = [s["statement"]["kind"] for s in RECORD["fairness"]["statements"]]
    assert kinds == ["hand", "commitment"] + ["seat-receipt"] * 4 + ["seat-reveal"] * 4 + ["deal", "record", "reveal"]
