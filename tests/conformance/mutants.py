"""Plausible wrong verifiers, one mistake each: the suite must catch every one.

Each mutant is our Python verifier (tools/conformance_tiplu.py) with one check done wrong --
a method overridden, a library function patched, or a CLI flag left out -- or, for the
cosignature layer, a small independent cosignature checker (``cosignatures``) with one
switch thrown.  ``MUTANTS`` maps each name to ``(what it gets wrong, case id prefixes it
runs on, how to build it)``; the names are the ``catches`` of fixtures/conformance/manifest.json
(docs/conformance.md lists them by layer).
"""
from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from conformance_tiplu import Verifier  # noqa: E402

from audit.signing import verify_bytes  # noqa: E402
from audit.errors import ProofError, SignatureError  # noqa: E402
from replay.stream import MATERIAL_TAG, Stream  # noqa: E402

TWO32 = 2 ** 32


# -- canonical JSON
def _utf16_sorted(v):
    if isinstance(v, dict):
        return {k: _utf16_sorted(v[k]) for k in sorted(v, key=lambda s: s.encode("utf-16-be"))}
    if isinstance(v, list):
        return [_utf16_sorted(x) for x in v]
    return v


class AsciiEscape(Verifier):
    def canonical(self, value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class Utf16KeyOrder(Verifier):
    def canonical(self, value):  # JavaScript's default sort: by UTF-16 code units
        return json.dumps(_utf16_sorted(value), separators=(",", ":"), ensure_ascii=False).encode()


class SpacedSeparators(Verifier):
    def canonical(self, value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False).encode()


# -- the move chain
def _movechain_mutant(*, domain=True, time=True, inner=True, lower=True):
    class M(Verifier):
        def move_heads(self, hand_id, commitment, moves):
            c = commitment.lower() if lower else commitment
            context = self.canonical({"hand_id": hand_id, "server_seed_commitment": c})
            head = hashlib.sha256((b"tiplu.moves/1\n" if domain else b"") + context).digest()
            head0, heads = head.hex(), []
            for m in moves:
                m = m if time else {k: v for k, v in m.items() if k != "time"}
                body = self.canonical(m)
                head = hashlib.sha256(head + (hashlib.sha256(body).digest() if inner else body)).digest()
                heads.append(head.hex())
            return head0, heads
    return M


# -- the stream
def _limit_mutant(limit_of, *, le=False, modulo=False):
    class M(Verifier):
        def randbelow(self, stream, n):
            while True:
                w = stream.next_u32()
                if modulo or (w <= limit_of(n) if le else w < limit_of(n)):
                    return w % n
    return M


class LittleEndianWords(Verifier):
    def stream(self, server_seed, material, label):
        class S(Stream):
            def __init__(self, *a):
                super().__init__(*a)
                self.words_le, self.n = [], 0

            def next_u32(self):
                if not self.words_le:
                    block = self.block(self.n)
                    self.n += 1
                    self.words_le = list(struct.unpack("<8I", block))
                return self.words_le.pop(0)
        return S(server_seed, material, label)


class FisherYatesForward(Verifier):
    def shuffle(self, stream, items):
        out = list(items)
        for i in range(len(out) - 1):
            j = i + stream.randbelow(len(out) - i)
            out[i], out[j] = out[j], out[i]
        return out


class MaterialNoLengthPrefix(Verifier):
    def material(self, hand_id, ruleset_hash, seeds):
        return hashlib.sha256(MATERIAL_TAG + hand_id.encode() + ruleset_hash + b"".join(seeds)).digest()


# -- statements and leaves
class NoStatementSignatures(Verifier):
    def verify_statement(self, signed, public_key):
        if signed.get("key") != public_key:
            raise SignatureError("another key")


class TrustStatementKey(Verifier):
    def verify_statement(self, signed, public_key):
        verify_bytes(signed["key"], self.canonical(signed["statement"]), signed["sig"])


class LeafNoPrefix(Verifier):
    def leaf_hash(self, signed):
        return hashlib.sha256(self.canonical(signed)).digest()


class LeafStatementOnly(Verifier):
    def leaf_hash(self, signed):
        return hashlib.sha256(b"\0" + self.canonical(signed["statement"])).digest()


# -- Merkle proofs: RFC 9162 section 2.1.3.2 / 2.1.4.2 with one switch each
def fold_inclusion(leaf, index, size, path, *, node_prefix=b"\x01", swap=False, last_node=True, strict_length=True):
    if index >= size:
        raise ProofError("index not below size")
    node = lambda a, b: hashlib.sha256(node_prefix + (b + a if swap else a + b)).digest()  # noqa: E731
    fn, sn, r = index, size - 1, leaf
    for _k, p in enumerate(path):
        if sn == 0:
            if strict_length:
                raise ProofError("path too long")
            break
        if fn % 2 == 1 or (fn == sn if last_node else False):
            r = node(p, r)
            if last_node:
                while fn % 2 == 0 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
        else:
            r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("path too short")
    return r


def _inclusion_mutant(**switches):
    class M(Verifier):
        def verify_inclusion(self, leaf, index, size, path, root):
            if fold_inclusion(leaf, index, size, path, **switches) != root:
                raise ProofError("root differs")
    return M


def verify_consistency_rfc(first, second, first_root, second_root, path, *, check_first=True, power_of_two=True):
    """RFC 9162 section 2.1.4.2, with one switch each."""
    node = lambda a, b: hashlib.sha256(b"\x01" + a + b).digest()  # noqa: E731
    if first > second or first < 1:
        raise ProofError("sizes")
    if first == second:
        if path or first_root != second_root:
            raise ProofError("same size")
        return
    if power_of_two and first & (first - 1) == 0:
        path = [first_root, *path]
    if not path:
        raise ProofError("empty path")
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("path too long")
        if fn & 1 or fn == sn:
            fr, sr = node(c, fr), node(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or sr != second_root or (check_first and fr != first_root):
        raise ProofError("roots differ")


def _consistency_mutant(**switches):
    class M(Verifier):
        def verify_consistency(self, first, second, first_root, second_root, path):
            verify_consistency_rfc(first, second, first_root, second_root, path, **switches)
    return M


# -- checkpoints
def _b64(text, strict=True):
    raw = base64.b64decode(text, validate=strict)
    return raw


def lenient_checkpoint(text, public_key, origin, *, strict_b64=False, key_id=True, verify=True, lenient_text=True):
    from audit.tlog.checkpoint import note_key_id
    if lenient_text:
        text = text.replace("\r\n", "\n")
        text = text if text.endswith("\n") else text + "\n"
        if "\n\n" not in text:
            i = text.index("\u2014 ")
            text = text[:i] + "\n" + text[i:]
    head, _, tail = text.partition("\n\n")
    lines = head.split("\n")
    if origin is not None and lines[0] != origin:
        raise SignatureError("origin")
    int(lines[1])
    _b64(lines[2], strict_b64)
    for line in tail.strip("\n").split("\n"):
        name, sig = line[2:].split(" ")
        raw = base64.b64decode(sig)
        if name == lines[0] and (not key_id or raw[:4] == note_key_id(name, public_key)):
            if not verify:
                return
            try:
                verify_bytes(public_key, (head + "\n").encode(), raw[4:].hex())
                return
            except SignatureError:
                continue
    raise SignatureError("no signature")


def _checkpoint_mutant(**switches):
    class M(Verifier):
        def verify_checkpoint(self, text, public_key, origin):
            lenient_checkpoint(text, public_key, origin, **switches)
    return M


class IgnoreOrigin(Verifier):
    def verify_checkpoint(self, text, public_key, origin):
        super().verify_checkpoint(text, public_key, None)

    def check_audit(self, inp):
        return super().check_audit({**inp, "trust": {**inp["trust"], "origin": None}})


# -- cosignatures: an independent checker with switches
def cosignatures(text, vkeys, *, type_byte=4, ts=">Q", message="body", header=True, verify=True,
                 all_lines=True, split_plus="right"):  # noqa: C901 - one switch per mistake
    head, _, tail = text.partition("\n\n")
    body = (head + "\n").encode()
    note_lines = [ln[2:].split(" ") for ln in tail.strip("\n").split("\n") if ln]
    ok = []
    for v in vkeys:
        if split_plus == "right":
            name, kid_hex, material = v.split("+", 2)
        else:
            parts = v.split("+")
            if len(parts) != 3:
                continue
            name, kid_hex, material = parts
        raw = base64.b64decode(material, validate=True)
        key = raw[1:]
        kid = hashlib.sha256(name.encode() + b"\n" + bytes([type_byte]) + key).digest()[:4]
        results = []
        for n, b64 in note_lines:
            sig = base64.b64decode(b64)
            if n != name or sig[:4] != kid:
                continue
            (t,) = struct.unpack(ts, sig[4:12])
            msg = {"body": body, "three": b"\n".join(body.split(b"\n")[:3]) + b"\n",
                   "note": text.encode(), "no-newline": body[:-1]}[message]
            signed = (b"cosignature/v1\n" if header else b"") + b"time %d\n" % t + msg
            if not verify:
                results.append(True)
                continue
            try:
                verify_bytes(key.hex(), signed, sig[12:].hex())
                results.append(True)
            except SignatureError:
                results.append(False)
        if results and (all(results) if all_lines else any(results)):
            ok.append(name)
    return ok


def _cosig_mutant(no_quorum=False, **switches):
    class M(Verifier):
        def valid_witnesses(self, text, vkeys):
            return cosignatures(text, vkeys, **switches)

        def check_cosignature(self, inp):
            out = super().check_cosignature(inp)
            return {**out, "quorum_met": True} if no_quorum else out

        def check_audit(self, inp):
            return super().check_audit({**inp, "witnesses": None, "policy": None}) if no_quorum else super().check_audit(inp)
    return M


# -- records and receipts: the audit CLI with one check left out
class _Patched(Verifier):
    patches: tuple = ()

    def check_audit(self, inp):
        with contextlib.ExitStack() as stack:
            import importlib
            for module, name, value in self.patches:
                mod = importlib.import_module(module)
                *owner, attr = name.split(".")
                for part in owner:
                    mod = getattr(mod, part)
                old = getattr(mod, attr)
                setattr(mod, attr, value)
                stack.callback(setattr, mod, attr, old)
            return super().check_audit(inp)


def _no_reshuffle(self, k, cards):  # the discards become the stock unshuffled
    return list(cards)


def _redeal_reuses_deal(self, k):  # a redeal deals the first shoe again
    return self.shoe()


class ReshuffleUnshuffled(_Patched):
    patches = (("replay.fairness", "HandRandomness.reshuffle", _no_reshuffle),)


class RedealSameShoe(_Patched):
    patches = (("replay.fairness", "HandRandomness.redeal", _redeal_reuses_deal),)


class _NoReuse:
    """A seed index that never finds a reuse."""

    def add(self, *a, **k):
        pass

    def faults(self):
        return {}


class SkipSeedReuse(_Patched):
    patches = (("audit.auditor.sources.archive_scan", "SeedIndex", _NoReuse),)


class SkipClock(_Patched):
    patches = (("audit.auditor.sources.archive_scan", "future_statements", lambda *a, **k: []),)


class NoSkew(_Patched):
    """Statements dated after the auditor's clock fail at once: no clock skew allowed."""

    def check_audit(self, inp):
        from datetime import timedelta

        from audit.auditor.sources import archive_scan
        original = archive_scan.future_statements
        self.patches = (("audit.auditor.sources.archive_scan", "future_statements",
                         lambda fairness, now, skew=None: original(fairness, now, timedelta(0))),)
        return super().check_audit(inp)


class SkipSchema(_Patched):
    """The record's schema not checked: only its parser reads it."""
    patches = (("audit.auditor.verdict.verify", "validate_record", lambda data, **kwargs: None),)


class LenientPointValue(_Patched):
    """A table's point value read as any amount: the rule of table money ("more than 0",
    docs/records.md) left out of the schema, the parser and the settlement alike."""

    def check_audit(self, inp):
        from audit import schema
        from replay import settlement
        original = schema.validate_record

        def validate(data, *, kind=None):
            table = data.get("table") if isinstance(data, dict) else None
            if isinstance(table, dict) and table.get("point_value") in ("0", "0.0", "0.00"):
                data = {**data, "table": {**table, "point_value": "1"}}  # the pattern not asked about zero
            return original(data, kind=kind)
        self.patches = (("audit.auditor.verdict.verify", "validate_record", validate),
                        ("replay.records", "parse_point_value", lambda text: settlement.parse_amount(text, what="point_value")),
                        ("replay.settlement", "check_point_value", lambda value: value))
        return super().check_audit(inp)


class SkipCarryCheck(_Patched):
    """A table's hands not compared: the pot a hand starts with never checked against the one
    the hand before it left (D-14)."""
    patches = (("audit.auditor.run.report", "TableLedger.carry_faults", lambda self: []),)


class SkipSameCheckpoint(_Patched):
    patches = (("audit.auditor.evidence.logcheck", "_checkpoint_texts", lambda proofs: {next(p[2] for p in proofs if p)}),)


class SkipLogOrder(_Patched):
    patches = (("audit.auditor.evidence.logcheck", "_order_faults", lambda statements, indices: []),)


class SkipStatementFields(_Patched):
    patches = (("audit.auditor.verdict.verify", "check_statements", lambda *a, **k: []),)


class TrustRecordKey(Verifier):
    """Audits under the key the record names (``tiplu audit`` with no --public-key/--trust)."""

    def check_audit(self, inp):
        texts = inp["records"]
        keys = []
        for t in texts:
            try:
                keys.append(json.loads(t)["table"]["public_key"])
            except (ValueError, KeyError, TypeError):
                keys.append(inp["trust"]["public_key"])
        verdicts = []
        for t, k in zip(texts, keys):  # each record under its own claimed key
            one = super().check_audit({**inp, "records": [t], "one_log": False,
                                       "trust": {"public_key": k, "origin": None}})
            verdicts += one["verdicts"]
        return {"exit": 1 if any(not v["ok"] for v in verdicts) else 0, "verdicts": verdicts, "log_failures": []}

    def check_receipt(self, inp):
        key = json.loads(inp["receipt"])["statements"][0]["key"]
        return super().check_receipt({**inp, "public_key": key})


class NoStatementSignaturesAudit(NoStatementSignatures):
    def cli(self, args):
        return super().cli([a for a in args if a != "--check-signatures"])


class SkipForkCheck(Verifier):
    def cli(self, args):
        if "--state" in args:
            i = args.index("--state")
            args = args[:i] + args[i + 2:]
        return super().cli(args)


def _receipt_mutant(skipped):
    class M(Verifier):
        def check_receipt(self, inp):
            out = super().check_receipt(inp)
            kept = [c for c in out["contradictions"] if c not in skipped]
            return {"exit": out["exit"] if out["exit"] == 2 else (1 if kept else 0), "contradictions": kept}
    return M


MUTANTS = {
    "ascii-escape": ("canonical JSON escapes non-ASCII as \\uXXXX", ["canonical/", "statement/", "record/"], AsciiEscape),
    "utf16-key-order": ("keys sorted by UTF-16 code units (JavaScript's default sort)", ["canonical/"], Utf16KeyOrder),
    "spaced-separators": ("json.dumps' default ', ' and ': '", ["canonical/"], SpacedSeparators),
    "movechain-no-domain": ("head_0 without the 'tiplu.moves/1' line", ["movechain/"],
                            _movechain_mutant(domain=False)),
    "movechain-no-time": ("moves hashed without their time", ["movechain/"], _movechain_mutant(time=False)),
    "movechain-raw-move": ("the move's canonical JSON chained, not its SHA-256", ["movechain/"],
                           _movechain_mutant(inner=False)),
    "movechain-case": ("the server commitment hashed as given, not lower-cased", ["movechain/"],
                       _movechain_mutant(lower=False)),
    "modulo": ("word mod n, no rejection", ["randbelow/", "stream/"],
               _limit_mutant(lambda n: TWO32, modulo=True)),
    "le-limit": ("accepts a word equal to the limit (<= for <)", ["randbelow/"],
                 _limit_mutant(lambda n: TWO32 - TWO32 % n, le=True)),
    "minus-n": ("limit = 2^32 - n", ["randbelow/", "stream/"], _limit_mutant(lambda n: TWO32 - n)),
    "two32-minus-1": ("limit from 2^32 - 1: (2^32-1) - ((2^32-1) mod n)", ["randbelow/", "stream/"],
                      _limit_mutant(lambda n: (TWO32 - 1) - ((TWO32 - 1) % n))),
    "little-endian-words": ("stream words read little-endian", ["stream/"], LittleEndianWords),
    "fisher-yates-forward": ("Fisher-Yates from the front", ["shuffle/"], FisherYatesForward),
    "material-no-length-prefix": ("key material without the length prefixes (enc)", ["shuffle/"],
                                  MaterialNoLengthPrefix),
    "no-statement-signatures": ("statement signatures not checked (only the key field)",
                                ["statement/", "record/logged-bad-signature"], NoStatementSignaturesAudit),
    "trust-statement-key": ("a statement verified under its own key field", ["statement/"], TrustStatementKey),
    "leaf-no-prefix": ("leaf hash without its 0x00 prefix", ["leaf/"], LeafNoPrefix),
    "leaf-statement-only": ("leaf = the statement alone, not {statement, key, sig}", ["leaf/"], LeafStatementOnly),
    "node-no-prefix": ("interior node hash without its 0x01 prefix", ["inclusion/"],
                       _inclusion_mutant(node_prefix=b"")),
    "node-order": ("sibling order swapped", ["inclusion/"], _inclusion_mutant(swap=True)),
    "rfc6962-last-node": ("the right-edge rule of the fold left out", ["inclusion/"],
                          _inclusion_mutant(last_node=False)),
    "lenient-proof-length": ("extra proof hashes ignored", ["inclusion/"], _inclusion_mutant(strict_length=False)),
    "consistency-ignores-first-root": ("consistency proof checked against the new root only", ["consistency/"],
                                       _consistency_mutant(check_first=False)),
    "consistency-power-of-two": ("an old size that is a power of two handled as any other", ["consistency/"],
                                 _consistency_mutant(power_of_two=False)),
    "lenient-checkpoint": ("checkpoint parsed leniently (int(size), any root length, CRLF, missing blank "
                           "line or newline)", ["checkpoint/"], _checkpoint_mutant(strict_b64=True)),
    "lenient-base64": ("non-canonical base64 accepted (the signature checked over the bytes as given)",
                       ["checkpoint/"], _checkpoint_mutant(strict_b64=False, lenient_text=False)),
    "ignore-key-id": ("the signature line's key ID not checked", ["checkpoint/"],
                      _checkpoint_mutant(strict_b64=True, key_id=False, lenient_text=False)),
    "no-checkpoint-signature": ("the checkpoint's signature line found by name and key ID, not verified",
                                ["checkpoint/"], _checkpoint_mutant(strict_b64=True, lenient_text=False, verify=False)),
    "ignore-origin": ("the pinned origin not compared", ["checkpoint/", "record/other-origin"], IgnoreOrigin),
    "trust-record-key": ("the record's (or receipt's) own key trusted", ["record/", "operators/",
                                                                       "receipt/"], TrustRecordKey),
    "vkey-split-plus": ("a vkey split at every '+'", ["cosignature/"], _cosig_mutant(split_plus="all")),
    "no-quorum": ("the quorum not enforced", ["cosignature/", "witness/"], _cosig_mutant(no_quorum=True)),
    "any-line-counts": ("a witness counted if any one of its lines verifies", ["cosignature/"],
                        _cosig_mutant(all_lines=False)),
    "cosig-type-byte": ("witness key ID with type byte 0x01", ["cosignature/"], _cosig_mutant(type_byte=1)),
    "cosig-timestamp-le": ("cosignature timestamp read little-endian", ["cosignature/"], _cosig_mutant(ts="<Q")),
    "cosig-no-final-newline": ("cosignature over the body without its last newline", ["cosignature/"],
                               _cosig_mutant(message="no-newline")),
    "cosig-full-note": ("cosignature over the whole note", ["cosignature/"], _cosig_mutant(message="note")),
    "cosig-no-header": ("cosignature without the cosignature/v1 header", ["cosignature/"],
                        _cosig_mutant(header=False)),
    "cosig-name-only": ("a witness line counted by name and key ID, signature unchecked", ["cosignature/"],
                        _cosig_mutant(verify=False)),
    "reshuffle-unshuffled": ("the discards become the stock without the reshuffle:k stream",
                             ["record/marriage", "record/rummy13"], ReshuffleUnshuffled),
    "redeal-same-shoe": ("a redeal deals the first shoe again, not the redeal:k stream", ["record/kitti-redeal"],
                         RedealSameShoe),
    "skip-seed-reuse": ("one server seed in two hands of an archive not looked for", ["log/seed-reuse"],
                        SkipSeedReuse),
    "skip-future-time": ("statements dated after the auditor's clock accepted", ["record/future-time"], SkipClock),
    "skip-same-checkpoint": ("proofs with different checkpoints accepted", ["record/two-checkpoints"],
                             SkipSameCheckpoint),
    "skip-log-order": ("log order not checked", ["record/log-order"], SkipLogOrder),
    "skip-statement-fields": ("record not compared with its statements", ["record/statement-mismatch"],
                              SkipStatementFields),
    "skip-fork-check": ("records of one log not compared with each other", ["log/"], SkipForkCheck),
    "no-skew": ("a statement dated after the auditor's clock fails at once, with no clock skew", ["record/"], NoSkew),
    "skip-carry-check": ("a table's consecutive hands not compared (the carried pot)", ["table/"], SkipCarryCheck),
    "skip-schema": ("the record's schema not checked (only its parser reads it)", ["record/key-upper-case"], SkipSchema),
    "lenient-point-value": ("a point value of 0 accepted (the table money rule left out)", ["record/zero-point-value"],
                            LenientPointValue),
}
for _what in ("moves", "terms", "record-checkpoint", "statements", "index", "record-proof", "server-commitment", "ruleset-hash", "seat-commitment", "fork"):
    _names = {"statements": ["missing_statement", "different_statement"], "index": ["different_index"],
              "record-proof": ["bad_record_proof"], "fork": ["fork"],
              "record-checkpoint": ["record_checkpoint"],
              "moves": ["moves"], "terms": ["point_value", "commission_pct", "dealer", "seat_name", "seats"]}.get(_what, [_what.replace("-", "_")])
    MUTANTS[f"receipt-skip-{_what}"] = (f"receipt check skips {', '.join(_names)}", ["receipt/"],
                                        _receipt_mutant(set(_names)))
