"""The conformance cases of the layers below a record (written by tools/make_conformance.py).

Each builder returns ``(files, cases)``: ``files`` maps a path under fixtures/conformance/
to its text, ``cases`` are manifest entries (docs/conformance.md).  Every expected value
here is either written out by hand or follows from a definition quoted beside it; where a
plausible wrong implementation gives another answer, the case names it in ``catches``
(the mutants of tests/conformance/mutants.py).
"""
from __future__ import annotations

import base64
import hashlib
import json
import struct

from audit.signing import SigningKey
from audit.tlog import merkle
from audit.tlog.checkpoint import note_key_id, sign_checkpoint
from audit.tlog.cosignature import cosign, cosigned_message, witness_vkey
from audit.tlog.note import NoteLine
from replay.canonical import canonical_json
from replay.stream import Stream, key_material

TWO32 = 2 ** 32
EPOCH_TS = 1798761600  # 2027-01-01T00:00:00Z, the witnesses' cosignature time


def case(cid: str, check: str, layer: str, inp: dict, expect: dict, *, about: str, catches=(), requires=()):
    return {"id": cid, "check": check, "layer": layer, "requires": sorted(requires or [layer]), "input": inp,
            "expect": expect, "catches": sorted(catches), "about": about}


# -- canonical JSON ---------------------------------------------------------------------------

def canonical_cases():
    """Canonical JSON (docs/fairness.md): UTF-8, keys sorted by code point, no white space,
    non-ASCII written as itself.  Each expected text is written out by hand."""
    rows = [
        ("non-ascii", {"player": "आशा", "hand_id": "टेबल-१-h0000", "seat": 0},
         '{"hand_id":"टेबल-१-h0000","player":"आशा","seat":0}', ["ascii-escape"],
         "Devanagari names and ids are written as themselves (UTF-8), never as \\u escapes"),
        ("key-order-code-points", {"\ue000": 1, "\U0001f0a1": 2, "b": 3, "B": 4, "é": 5},
         '{"B":4,"b":3,"é":5,"\ue000":1,"\U0001f0a1":2}', ["utf16-key-order", "ascii-escape"],
         "keys sort by Unicode code point: U+E000 before U+1F0A1 (UTF-16 code units would put the "
         "surrogate pair D83C first)"),
        ("nested-no-space", {"z": [1, {"b": [], "a": {}}], "a": None, "m": True, "n": "x y"},
         '{"a":null,"m":true,"n":"x y","z":[1,{"a":{},"b":[]}]}', ["spaced-separators"],
         "separators ',' and ':' with no white space, at every depth; nested keys sorted too"),
        ("escapes", {"q": 'a"b\\c\n\t\u0001/'}, '{"q":"a\\"b\\\\c\\n\\t\\u0001/"}', [],
         "a quote, a backslash and control characters are escaped as JSON requires (lower-case \\u00XX), "
         "'/' is not"),
        ("big-int", {"n": 2 ** 53 - 1, "m": -(2 ** 53 - 1), "z": 0}, '{"m":-9007199254740991,"n":9007199254740991,"z":0}',
         [], "integers are written exactly, up to +-(2^53 - 1) (no signed value holds a larger one; a verifier "
             "may refuse a larger one, never round it)"),
    ]
    files, cases = {}, []
    for name, value, text, catches, about in rows:
        assert canonical_json(value) == text.encode("utf-8"), name  # the library agrees with the hand-written text
        path = f"canonical/{name}.json"
        files[path] = json.dumps(value, ensure_ascii=True, indent=1) + "\n"  # the input is ASCII-escaped on purpose
        cases.append(case(f"canonical/{name}", "canonical", "canonical", {"value": {"file": path}},
                          {"canonical_hex": text.encode("utf-8").hex()}, about=about, catches=catches))
    return files, cases


# -- the stream and rejection sampling ----------------------------------------------------------

def _wrong_randbelow(words, n, variant):
    it = iter(words)
    if variant == "modulo":
        return next(it) % n
    limit = {"le-limit": TWO32 - (TWO32 % n), "minus-n": TWO32 - n,
             "two32-minus-1": (TWO32 - 1) - ((TWO32 - 1) % n)}[variant]
    for w in it:
        if (w <= limit) if variant == "le-limit" else (w < limit):
            return w % n
    return None  # out of words: the wrong limit rejected every word given


def randbelow_cases():
    """randbelow over given words: limit = 2^32 - (2^32 mod n); a word >= limit is rejected."""
    rows = [
        ("word-at-limit", 3, [0xFFFFFFFF, 5], 2, 2, ["le-limit", "modulo"],
         "n = 3: limit = 2^32 - 1, so the word 0xFFFFFFFF is rejected (not <= limit) and 5 gives 2"),
        ("word-below-limit", 3, [0xFFFFFFFE], 2, 1, [], "n = 3: 0xFFFFFFFE < limit is taken: 4294967294 mod 3 = 2"),
        ("power-of-two", 2 ** 31, [0xFFFFFFFF], 2 ** 31 - 1, 1, ["two32-minus-1"],
         "n = 2^31 divides 2^32: limit = 2^32 and no word is rejected (a limit from 2^32 - 1 rejects half)"),
        ("three-quarters", 3 * 2 ** 30, [0xC0000000, 0x40000001], 0x40000001, 2, ["modulo"],
         "n = 3*2^30: limit = 3*2^30, so 0xC0000000 is rejected and 0x40000001 is taken"),
        ("minus-n", 3 * 2 ** 30, [0x40000001], 0x40000001, 1, ["minus-n"],
         "n = 3*2^30: 0x40000001 < limit is taken (a limit of 2^32 - n = 2^30 would reject it)"),
        ("n-one", 1, [0xFFFFFFFF], 0, 1, [], "n = 1: limit = 2^32, every word gives 0"),
        ("n-two32", TWO32, [0xFFFFFFFF], 0xFFFFFFFF, 1, [], "n = 2^32: limit = 2^32, the word itself"),
    ]
    cases = []
    for name, n, words, value, used, catches, about in rows:
        for v in catches:
            assert _wrong_randbelow(words, n, v) != value, (name, v)
        cases.append(case(f"randbelow/{name}", "randbelow", "stream", {"n": n, "words": words},
                          {"value": value, "words_used": used}, about=about, catches=catches))
    return {}, cases


def _search_stream(draws, variants):
    """A server seed whose stream's draws differ from every wrong variant's (deterministic search)."""
    material = hashlib.sha256(b"tiplu conformance material").digest()
    for i in range(10000):
        seed = hashlib.sha256(b"tiplu conformance stream %d" % i).digest()
        s = Stream(seed, material, "conformance")
        right = [s.randbelow(n) for n in draws]
        r = Stream(seed, material, "conformance")
        stream_words = [r.next_u32() for _ in range(64)]
        wrong_ok = True
        for v in variants:
            it, out = iter(stream_words), []
            try:
                for n in draws:
                    rest = list(it)
                    if v == "modulo":
                        out.append(rest[0] % n)
                        it = iter(rest[1:])
                        continue
                    limit = {"minus-n": TWO32 - n, "two32-minus-1": (TWO32 - 1) - ((TWO32 - 1) % n)}[v]
                    k = next(k for k, w in enumerate(rest) if w < limit)
                    out.append(rest[k] % n)
                    it = iter(rest[k + 1:])
            except StopIteration:
                pass
            if out == right:
                wrong_ok = False
        if wrong_ok:
            return seed, material, right
    raise RuntimeError("no seed found")


def stream_cases():
    """The labelled stream of docs/fairness.md read through randbelow, with a seed chosen so
    that modulo, a 2^32 - n limit and a (2^32 - 1)-based limit each give other draws."""
    draws = [3 * 2 ** 30, 2 ** 31, 3 * 2 ** 30, 52, 2 ** 31 + 1]
    seed, material, values = _search_stream(draws, ["modulo", "minus-n", "two32-minus-1"])
    s = Stream(seed, material, "conformance")
    block0 = s.block(0).hex()
    inp = {"server_seed": seed.hex(), "material": material.hex(), "label": "conformance", "draws": draws}
    return {}, [case("stream/rejections", "stream", "stream", inp, {"block0": block0, "values": values},
                     about="block 0 = HMAC-SHA256(server seed, enc('tiplu/v1/stream') || material || enc(label) || "
                           "u64(0)); words are big-endian; each draw rejects as randbelow says",
                     catches=["modulo", "minus-n", "two32-minus-1", "little-endian-words"])]


def shuffle_cases(hand):
    """Key material and the labelled shuffles of one real hand: the deal, a reshuffle of a
    discard pile (D-6) and a redeal's shoe (K-21)."""
    from replay.fairness import parse_player_seed
    seeds = [parse_player_seed(s) for s in hand["player_seeds"]]
    material = key_material(hand["hand_id"], bytes.fromhex(hand["ruleset_hash"]), seeds)
    pile = ["7H", "KS", "2C", "JD", "AS", "9C", "4H", "QD", "3S", "TC", "8D", "5S", "6C"]
    deck = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    cases = []
    for label, items, about in (("reshuffle:1", pile, "the first reshuffle of a 13-card discard pile (oldest first)"),
                                ("reshuffle:2", pile, "the second reshuffle: another label, another order"),
                                ("redeal:1", deck, "the first redeal's shuffle of the 52-card shoe")):
        out = Stream(bytes.fromhex(hand["server_seed"]), material, label).shuffle(items)
        inp = {k: hand[k] for k in ("server_seed", "hand_id", "ruleset_hash", "player_seeds")}
        inp.update(label=label, items=items)
        cases.append(case(f"shuffle/{label.replace(':', '-')}", "shuffle", "stream", inp,
                          {"material": material.hex(), "items": out}, about=about,
                          catches=["fisher-yates-forward", "material-no-length-prefix"]))
    return {}, cases


# -- statements and leaves -----------------------------------------------------------------------

def statement_cases(by_kind: dict, trusted: str, other: SigningKey):
    """For every statement kind: the exact signed bytes, the signature under the trusted key
    and the log leaf hash; and the signatures that must not verify."""
    files, cases = {}, []
    for kind in sorted(by_kind):
        signed = by_kind[kind]
        path = f"statements/{kind}.json"
        files[path] = json.dumps(signed, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        body = canonical_json(signed["statement"])
        leaf = canonical_json(signed)
        cases.append(case(f"statement/{kind}", "statement", "statement",
                          {"signed": {"file": path}, "public_key": trusted},
                          {"signed_hex": body.hex(), "valid": True},
                          about=f"a {kind} statement: its signed bytes are the canonical JSON of 'statement'",
                          catches=["ascii-escape"] if any(ord(c) > 127 for c in body.decode()) else []))
        cases.append(case(f"leaf/{kind}", "leaf", "leaf", {"signed": {"file": path}},
                          {"leaf_hash": hashlib.sha256(b"\0" + leaf).hexdigest()},
                          about="the leaf is the canonical JSON of the whole {statement, key, sig}; its hash "
                                "SHA-256(0x00 || leaf)", catches=["leaf-no-prefix", "leaf-statement-only"]))
    base = by_kind["commitment"]
    bad_sig = dict(base, sig=base["sig"][:-2] + ("00" if base["sig"][-2:] != "00" else "01"))
    forged = other.sign(base["statement"])
    claimed = dict(forged, key=trusted)
    L = 2 ** 252 + 27742317777372353535851937790883648493
    sig = bytes.fromhex(base["sig"])
    s_plus_l = sig[:32] + (int.from_bytes(sig[32:], "little") + L).to_bytes(32, "little")
    malleable = dict(base, sig=s_plus_l.hex())
    for name, signed, about, catches in (
            ("bad-signature", bad_sig, "the last byte of the signature changed", ["no-statement-signatures"]),
            ("other-key", forged, "signed by another key that names itself: valid only under a key the "
             "verifier does not trust", ["trust-statement-key"]),
            ("other-key-claims-trusted", claimed, "signed by another key but naming the trusted key",
             ["no-statement-signatures"]),
            ("s-plus-l", malleable, "the signature's S + L (RFC 8032 requires S < L: rejected)",
             ["no-statement-signatures"])):
        path = f"statements/{name}.json"
        files[path] = json.dumps(signed, indent=1, sort_keys=True) + "\n"
        cases.append(case(f"statement/{name}", "statement", "statement",
                          {"signed": {"file": path}, "public_key": trusted},
                          {"signed_hex": canonical_json(signed["statement"]).hex(), "valid": False},
                          about=about, catches=catches))
    return files, cases


# -- Merkle proofs -----------------------------------------------------------------------------

def _tree(n):
    leaves = [merkle.leaf_hash(b"conformance leaf %d" % i) for i in range(n)]

    def _leafy(level, index):
        if level == 0:
            return leaves[index]
        return merkle.node_hash(_leafy(level - 1, 2 * index), _leafy(level - 1, 2 * index + 1))

    return leaves, _leafy


def merkle_cases():
    """RFC 9162 inclusion and consistency proofs over a tree of 13 leaves 'conformance leaf i'."""
    leaves, perfect = _tree(13)

    def root(size):
        return merkle.range_hash(0, size, perfect)

    cases = []
    for index, size, catches in ((0, 1, []), (5, 8, ["node-no-prefix", "node-order"]),
                                 (12, 13, ["rfc6962-last-node"]), (6, 13, ["node-order"]),
                                 (9, 11, ["rfc6962-last-node"])):
        path = merkle.inclusion_path(index, size, perfect)
        inp = {"leaf_hash": leaves[index].hex(), "index": index, "size": size,
               "path": [p.hex() for p in path], "root": root(size).hex()}
        cases.append(case(f"inclusion/{index}-of-{size}", "inclusion", "merkle", inp, {"valid": True},
                          about=f"leaf {index} of a tree of {size}", catches=catches))
    good = merkle.inclusion_path(6, 13, perfect)
    for name, change, about in (
            ("wrong-index", {"index": 7}, "the path of leaf 6 claimed for index 7"),
            ("extra-hash", {"path": [p.hex() for p in good] + [root(13).hex()]}, "one hash too many"),
            ("short-path", {"path": [p.hex() for p in good[:-1]]}, "one hash too few"),
            ("index-not-below-size", {"index": 13}, "index 13 of a tree of 13")):
        inp = {"leaf_hash": leaves[6].hex(), "index": 6, "size": 13, "path": [p.hex() for p in good],
               "root": root(13).hex()}
        inp.update(change)
        cases.append(case(f"inclusion/{name}", "inclusion", "merkle", inp, {"valid": False}, about=about,
                          catches=["lenient-proof-length"] if name == "extra-hash" else []))
    for first, second, catches in ((1, 13, []), (3, 7, ["node-order"]), (4, 8, ["consistency-power-of-two"]),
                                   (6, 13, ["rfc6962-last-node"]), (7, 7, []), (8, 13, ["consistency-power-of-two"])):
        path = merkle.consistency_path(first, second, perfect)
        inp = {"first": first, "second": second, "first_root": root(first).hex(), "second_root": root(second).hex(),
               "path": [p.hex() for p in path]}
        cases.append(case(f"consistency/{first}-to-{second}", "consistency", "merkle", inp, {"valid": True},
                          about=f"a tree of {first} is a prefix of the tree of {second}", catches=catches))
    path = merkle.consistency_path(6, 13, perfect)
    for name, change, about in (
            ("other-first-root", {"first_root": root(5).hex()}, "the size-6 proof with another old root"),
            ("other-second-root", {"second_root": root(12).hex()}, "the size-6 proof with another new root"),
            ("first-above-second", {"first": 14, "path": []}, "an old size above the new one")):
        inp = {"first": 6, "second": 13, "first_root": root(6).hex(), "second_root": root(13).hex(),
               "path": [p.hex() for p in path]}
        inp.update(change)
        cases.append(case(f"consistency/{name}", "consistency", "merkle", inp, {"valid": False}, about=about,
                          catches=["consistency-ignores-first-root"] if name == "other-first-root" else []))
    return {}, cases


# -- checkpoints and cosignatures ------------------------------------------------------------

def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def _sig_line(name: str, key_id: bytes, sig: bytes) -> str:
    return f"\u2014 {name} {_b64(key_id + sig)}\n"


def _noncanonical_b64(raw: bytes) -> str:
    """The base64 of ``raw`` with non-zero padding bits (decodes to the same bytes leniently)."""
    text = _b64(raw)
    assert text.endswith("=") and not text.endswith("==")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = text[-2]
    return text[:-2] + alphabet[alphabet.index(last) + 1] + "="


def checkpoint_cases(key: SigningKey, other: SigningKey, origin: str, now):
    """A checkpoint (docs/transparency-log.md) is parsed by the stated rules and verified under
    the trusted key and origin; each text below breaks one rule (or keeps to them all)."""
    root = hashlib.sha256(b"conformance root").digest()
    good = sign_checkpoint(key, origin=origin, size=13, root=root)
    body = good.body.decode("utf-8")
    lines = body.split("\n")
    sig_line = good.text[len(body) + 1:]
    kid = note_key_id(origin, key.public_hex)

    def signed(b: str, *, k: SigningKey = key, name: str = origin) -> str:
        sig = bytes.fromhex(k.sign_bytes(b.encode("utf-8")))
        return b + "\n" + _sig_line(name, note_key_id(name, k.public_hex), sig)

    by_other = sign_checkpoint(other, origin=origin, size=13, root=root).text
    extra = good.text + _sig_line("someone.else/log", note_key_id("someone.else/log", other.public_hex),
                                  bytes.fromhex(other.sign_bytes(good.body)))
    sig_bytes = base64.b64decode(sig_line.split(" ")[2])
    rows = [
        ("valid", good.text, True, [], "a checkpoint of the trusted log, signed by the trusted key"),
        ("unknown-extra-signature", extra, True, [],
         "a second signature line by a key the verifier does not know is ignored"),
        ("other-key", by_other, False, [], "signed by another key under the same name"),
        ("other-origin", sign_checkpoint(key, origin="conformance.tiplu.example/other", size=13, root=root).text,
         False, ["ignore-origin"],
         "signed by the trusted key, but for another log than the pinned origin"),
        ("size-leading-zero", signed("\n".join([lines[0], "013", *lines[2:]])), False, ["lenient-checkpoint"],
         "the size has a leading zero (a size is decimal digits without leading zeros)"),
        ("size-plus", signed("\n".join([lines[0], "+13", *lines[2:]])), False, ["lenient-checkpoint"],
         "the size has a '+' sign"),
        ("root-noncanonical-base64", signed("\n".join([lines[0], lines[1], _noncanonical_b64(root), *lines[3:]])),
         False, ["lenient-base64"], "the root's base64 has non-zero padding bits (decodes leniently to the same root)"),
        ("root-31-bytes", signed("\n".join([lines[0], lines[1], _b64(root[:31]), *lines[3:]])), False,
         ["lenient-checkpoint"], "the root is 31 bytes"),
        ("crlf", good.text.replace("\n", "\r\n"), False, ["lenient-checkpoint"], "CRLF line ends"),
        ("no-blank-line", body + sig_line, False, ["lenient-checkpoint"],
         "no blank line between the body and the signatures"),
        ("body-edited", good.text.replace("\n13\n", "\n14\n", 1), False, ["no-checkpoint-signature"],
         "the size changed after signing: the signature does not verify"),
        ("key-id-wrong", body + "\n" + _sig_line(origin, bytes(4), sig_bytes[4:]), False, ["ignore-key-id"],
         "the signature line's key ID is not SHA-256(name || 0x0A || 0x01 || key)[:4]"),
        ("signature-no-newline", good.text[:-1], False, ["lenient-checkpoint"], "the last line has no newline"),
        ("extension-line", signed(body + "time 2026-11-30T14:35:00Z\n"), False, [],
         "a signed fourth body line after the root (a checkpoint is exactly three lines; the legacy time "
         "line is accepted only inside a tiplu.hand/2 record or tiplu.receipt/2 receipt)"),
    ]
    assert kid == sig_bytes[:4]
    files, cases = {}, []
    for name, text, valid, catches, about in rows:
        path = f"checkpoints/{name}.txt"
        files[path] = text
        cases.append(case(f"checkpoint/{name}", "checkpoint", "checkpoint",
                          {"checkpoint": {"file": path}, "public_key": key.public_hex, "origin": origin},
                          {"valid": valid}, about=about, catches=catches))
    return files, cases, good


def witness_keys():
    """Three witness keys; the second's vkey base64 holds a '+' (found by counting up)."""
    keys = [SigningKey.from_hex(hashlib.sha256(b"conformance witness 1").hexdigest())]
    i = 0
    while True:
        k = SigningKey.from_hex(hashlib.sha256(b"conformance witness plus %d" % i).hexdigest())
        if "+" in str(witness_vkey("w2.example", k.public_hex)).split("+", 2)[2]:
            keys.append(k)
            break
        i += 1
    keys.append(SigningKey.from_hex(hashlib.sha256(b"conformance witness 3").hexdigest()))
    return [("w1.example", keys[0]), ("w2.example", keys[1]), ("w3.example", keys[2])]


def _line_text(line: NoteLine) -> str:
    return _sig_line(line.key_name, line.key_id, line.signature)


def _cosign_raw(key: SigningKey, name: str, message: bytes, ts_bytes: bytes, type_byte: int = 0x04) -> str:
    kid = hashlib.sha256(name.encode() + b"\n" + bytes([type_byte]) + bytes.fromhex(key.public_hex)).digest()[:4]
    return _sig_line(name, kid, ts_bytes + bytes.fromhex(key.sign_bytes(message)))


def cosignature_cases(cp, witnesses, outsider: SigningKey):
    """Cosignatures (C2SP tlog-cosignature) on the checkpoint ``cp`` by the witnesses."""
    body = cp.body
    ts = EPOCH_TS
    (n1, k1), (n2, k2), (n3, k3) = witnesses
    vkeys = [str(witness_vkey(n, k.public_hex)) for n, k in witnesses]
    good = {n: _line_text(cosign(k, n, body, ts + i)) for i, (n, k) in enumerate(witnesses)}
    msg = cosigned_message(body, ts)
    bad = {
        "type-byte-01": _cosign_raw(k1, n1, msg, struct.pack(">Q", ts), type_byte=0x01),
        "timestamp-little-endian": _cosign_raw(k1, n1, msg, struct.pack("<Q", ts)),
        "full-note": _cosign_raw(k1, n1, cosigned_message(cp.text.encode(), ts), struct.pack(">Q", ts)),
        "no-header": _cosign_raw(k1, n1, b"time %d\n" % ts + body, struct.pack(">Q", ts)),
        "no-final-newline": _cosign_raw(k1, n1, msg[:-1], struct.pack(">Q", ts)),
        "bad-signature": good[n1][:-6] + ("AAAA" if good[n1][-6:-2] != "AAAA" else "BBBB") + "=\n",
    }
    # the wrong key signs under w1's name and key id: the key id is w1's, the signature is not
    kid1 = hashlib.sha256(n1.encode() + b"\n\x04" + bytes.fromhex(k1.public_hex)).digest()[:4]
    bad["wrong-key"] = _sig_line(n1, kid1, struct.pack(">Q", ts) + bytes.fromhex(outsider.sign_bytes(msg)))
    base = cp.text
    rows = [
        ("all-three", [good[n1], good[n2], good[n3]], vkeys, 3, [n1, n2, n3], True, ["vkey-split-plus"],
         "three valid cosignatures, quorum 3 (w2's vkey base64 holds a '+')"),
        ("quorum-missed", [good[n1]], vkeys, 2, [n1], False, ["no-quorum"],
         "one valid cosignature where two are required"),
        ("quorum-met-two-of-three", [good[n1], good[n3]], vkeys, 2, [n1, n3], True, [],
         "two of three witnesses cosigned, quorum 2"),
        ("one-bad-line-among-good", [good[n1], bad["bad-signature"], good[n2], good[n3]], vkeys, 3, [n2, n3], False,
         ["any-line-counts"],
         "w1 has one valid and one invalid line: a witness counts only if every line of its (name, key ID) "
         "verifies, so w1 does not count"),
        ("type-byte-01", [bad["type-byte-01"], good[n2]], vkeys[:2], 1, [n2], True, ["cosig-type-byte"],
         "w1's line uses key ID type byte 0x01 (the cosignature type is 0x04): not w1's line, so w1 is missing"),
        ("timestamp-little-endian", [bad["timestamp-little-endian"], good[n2]], vkeys[:2], 2, [n2], False,
         ["cosig-timestamp-le"], "w1's 8-byte timestamp is little-endian; the signed 'time' line disagrees"),
        ("no-final-newline", [bad["no-final-newline"], good[n2]], vkeys[:2], 2, [n2], False, ["cosig-no-final-newline"],
         "w1 signed the body without its final newline"),
        ("full-note", [bad["full-note"], good[n2]], vkeys[:2], 2, [n2], False, ["cosig-full-note"],
         "w1 signed the whole note, signature lines included, not the checkpoint body"),
        ("no-header", [bad["no-header"], good[n2]], vkeys[:2], 2, [n2], False, ["cosig-no-header"],
         "w1 signed without the 'cosignature/v1' header line"),
        ("wrong-key", [bad["wrong-key"], good[n2]], vkeys[:2], 2, [n2], False, ["cosig-name-only"],
         "a line under w1's name and key ID signed by another key"),
        ("unlisted-witness", [good[n1], good[n2], good[n3]], vkeys[:2], 2, [n1, n2], True, [],
         "w3 cosigned but is not a trusted witness: it is ignored"),
        ("quorum-zero", [], vkeys[:2], 0, [], True, [], "quorum 0 is met with no cosignature"),
    ]
    files, cases = {}, []
    for name, lines, vk, quorum, valid, met, catches, about in rows:
        path = f"cosignatures/{name}.txt"
        files[path] = base + "".join(lines)
        cases.append(case(f"cosignature/{name}", "cosignature", "cosignature",
                          {"checkpoint": {"file": path}, "witnesses": vk, "quorum": quorum},
                          {"valid_witnesses": sorted(valid), "quorum_met": met}, about=about, catches=catches))
    return files, cases


# -- the move chain (format 3, docs/fairness.md "Moves as played") ---------------------------

def movechain_cases(record):
    """The heads of a record's move chain: head_0 = SHA-256('tiplu.moves/1' || 0x0A ||
    canonical({hand_id, server_seed_commitment})), head_{i+1} = SHA-256(head_i ||
    SHA-256(canonical(move_i))), each move with its time."""
    from replay.movechain import chain_heads, start_head
    f = record["fairness"]
    moves = record["moves"][:6]
    path = "movechain/moves.json"
    inp = {"hand_id": record["hand_id"], "server_seed_commitment": f["server_commitment"], "moves": {"file": path}}
    expect = {"head0": start_head(record["hand_id"], f["server_commitment"]).hex(),
              "heads": chain_heads(record["hand_id"], f["server_commitment"], moves)}
    upper = dict(inp, server_seed_commitment=f["server_commitment"].upper())
    return {path: json.dumps(moves, ensure_ascii=False, indent=1) + "\n"}, [
        case("movechain/first-moves", "movechain", "movechain", inp, expect,
             about="the first six moves of a record, each hashed with its time",
             catches=["movechain-no-domain", "movechain-no-time", "movechain-raw-move"]),
        case("movechain/upper-case-commitment", "movechain", "movechain", upper, expect,
             about="the server commitment is lower-cased before it is hashed into head_0",
             catches=["movechain-case"])]
