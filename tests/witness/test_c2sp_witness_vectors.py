"""Known answers from the C2SP specs' own examples (fixtures/tlog/c2sp-witness-examples.json,
copied byte for byte from signed-note.md, tlog-cosignature.md and tlog-witness.md)."""
from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import pytest

from audit.errors import SignatureError
from audit.signing import SigningKey
from audit.tlog.cosignature import cosign, cosigned_message, verify_cosignature, witness_vkey
from audit.tlog.note import (TYPE_COSIGNATURE_ED25519, TYPE_ED25519, key_id, parse_note, parse_signature_lines,
                             parse_vkey, verify_ed25519_note)
from audit.tlog.witness import WitnessRefusal, parse_add_checkpoint, parse_checkpoint_note
from replay.errors import MalformedError

FX = json.loads((Path(__file__).resolve().parents[2] / "fixtures/tlog/c2sp-witness-examples.json").read_text("utf-8"))


def test_signed_note_example_vkey_parses_and_its_key_id_is_the_recommended_one():
    vkey = parse_vkey(FX["signed_note"]["vkey"])
    assert (vkey.name, vkey.key_id.hex(), vkey.sig_type) == ("example.com/foo", "530d903a", TYPE_ED25519)
    assert key_id("example.com/foo", 0x01, vkey.public_key).hex() == "530d903a"
    assert str(vkey) == FX["signed_note"]["vkey"]  # round trip, byte for byte


def test_signed_note_example_verifies_and_any_changed_byte_does_not():
    vkey = parse_vkey(FX["signed_note"]["vkey"])
    text = FX["signed_note"]["note"]
    note = parse_note(text)
    assert note.text == "This is an example message.\n"
    verify_ed25519_note(note, vkey)
    assert str(note) == text
    with pytest.raises(SignatureError, match=r"^signature does not verify under key [0-9a-f]{16}\.\.\.: invalid signature$"):
        verify_ed25519_note(parse_note(text.replace("example message", "example massage")), vkey)


def test_note_text_is_separated_by_the_last_empty_line():
    note = parse_note(FX["quasimodo_note"])
    assert note.text == "Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned \u00e8 subito sera.\n"
    assert [s.key_name for s in note.signatures] == ["quasimodo.example/salvatore"]


def test_cosigned_message_is_the_spec_example_byte_for_byte():
    cp = parse_checkpoint_note(FX["cosigned_checkpoint"])
    line = next(s for s in cp.note.signatures if s.key_name == "witness.example.com/w1")
    assert len(line.signature) == 8 + 64  # timestamped_signature: u64 timestamp || ed25519 signature
    (timestamp,) = struct.unpack(">Q", line.signature[:8])
    assert timestamp == 1679315147
    assert cosigned_message(cp.note.body, timestamp) == FX["cosigned_message"].encode("utf-8")


def test_a_cosignature_we_make_has_the_spec_layout_and_verifies():
    key = SigningKey.from_hex("22" * 32)
    cp = parse_checkpoint_note(FX["cosigned_checkpoint"])
    line = cosign(key, "witness.example.com/w1", cp.note.body, 1679315147)
    raw = base64.b64decode(str(line).split(" ")[2])
    vkey = witness_vkey("witness.example.com/w1", key.public_hex)
    assert vkey.sig_type == TYPE_COSIGNATURE_ED25519
    assert raw[:4] == key_id("witness.example.com/w1", 0x04, bytes.fromhex(key.public_hex))  # type 0x04
    assert raw[4:12] == struct.pack(">Q", 1679315147)
    assert str(line).startswith("\u2014 witness.example.com/w1 ") and str(line).endswith("\n")
    # the signature is plain Ed25519 over the spec's message (checked with cryptography directly)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    Ed25519PublicKey.from_public_bytes(vkey.public_key).verify(raw[12:], FX["cosigned_message"].encode())
    assert verify_cosignature(line, vkey, cp.note.body) == 1679315147
    with pytest.raises(SignatureError, match=r"^signature does not verify under key [0-9a-f]{16}\.\.\.: invalid signature$"):  # another checkpoint body
        verify_cosignature(line, vkey, cp.note.body.replace(b"20852163", b"20852164"))
    # the same key under the 0x01 type has another id: a log-type vkey never matches a cosignature
    assert key_id("witness.example.com/w1", 0x01, vkey.public_key) != vkey.key_id


def test_the_add_checkpoint_example_request_parses():
    req = parse_add_checkpoint(FX["add_checkpoint_request"].encode("utf-8"))
    assert req.old == 20852014 and len(req.proof) == 4 and all(len(h) == 32 for h in req.proof)
    assert req.checkpoint.origin == "example.com/behind-the-sofa" and req.checkpoint.size == 20852163
    assert len(req.checkpoint.note.signatures) == 2


def test_the_example_response_is_signature_lines():
    lines = parse_signature_lines(FX["add_checkpoint_response"])
    assert [s.key_name for s in lines] == ["witness.example/w1", "witness.example/w1", "witness.example/w2"]


@pytest.mark.parametrize("bad", [
    "old 020\n\n", "old -1\n\n", "old 1\nnot base64!\n\n", "old 1 \n\n", "old 1\n",
])
def test_malformed_requests_are_400(bad):
    with pytest.raises(WitnessRefusal, match=r"^(proof line 1 is not standard base64|the first line is 'old <size>' \(decimal, no leading zeros\))$") as err:
        parse_add_checkpoint((bad + FX["cosigned_checkpoint"]).encode())
    assert err.value.status == 400


@pytest.mark.parametrize("vkey", [
    "example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",  # wrong key id
    "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2",  # bad base64
    "example.com/foo+530d903a",
    "exa mple+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",
])
def test_bad_vkeys_are_refused(vkey):
    with pytest.raises(MalformedError, match=r"^(a verifier key is <name>\+<hex key id>\+<base64 key>|key name 'exa mple' must be non-empty, without spaces or '\+'|verifier key 'example\.com/foo': key id [0-9a-f]{8} is not the id of its key|verifier key material is not standard base64)$"):
        parse_vkey(vkey)


def test_a_log_vkey_is_not_a_witness_vkey():
    with pytest.raises(MalformedError, match="0x04"):
        parse_vkey(FX["signed_note"]["vkey"], sig_type=TYPE_COSIGNATURE_ED25519)


def test_a_vkey_whose_base64_has_a_plus_round_trips():
    from audit.tlog.note import Vkey
    for i in range(40):
        key = SigningKey.from_hex(f"{i:02x}" * 32)
        vkey = Vkey.for_key("w.example/x", 0x04, bytes.fromhex(key.public_hex))
        assert parse_vkey(str(vkey)) == vkey
    assert any("+" in str(Vkey.for_key("n", 1, bytes.fromhex(SigningKey.from_hex(f"{i:02x}" * 32).public_hex))
                                  ).split("+", 2)[2] for i in range(40))
