"""Signed checkpoints: the documented three-line bytes are signed, any change is rejected, the store
keeps them; the legacy four-line body is read only where asked for (docs/format-3.md)."""
from __future__ import annotations

import base64
import hashlib
from datetime import datetime, timedelta, timezone

import pytest
import sqlite_utils
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from audit.errors import SignatureError
from audit.signing import SigningKey
from audit.tlog.checkpoint import (accepts_legacy_time, make_checkpoint, parse_checkpoint, sign_checkpoint,
                                   verify_checkpoint)
from audit.tlog.store import TransparencyLog
from replay.errors import MalformedError
from tests.tlog.legacy_kit import legacy_checkpoint

KEY = SigningKey.from_hex("11" * 32)
OTHER = SigningKey.from_hex("22" * 32)
NOW = datetime(2026, 11, 30, 14, 35, tzinfo=timezone.utc)
ROOT6 = bytes.fromhex("76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef")
ORIGIN = "tiplu.example/log"


def example() -> str:
    return sign_checkpoint(KEY, origin=ORIGIN, size=6, root=ROOT6).text


def test_the_documented_bytes_are_what_is_signed():
    text = example()
    body, _, sigline = text.partition("\n\n")
    assert body + "\n" == f"{ORIGIN}\n6\n{base64.b64encode(ROOT6).decode()}\n"  # exactly three lines
    assert sigline.startswith("\u2014 tiplu.example/log ") and sigline.endswith("\n")
    raw = base64.b64decode(sigline.split(" ")[2])
    pub = bytes.fromhex(KEY.public_hex)
    assert raw[:4] == hashlib.sha256(ORIGIN.encode() + b"\n\x01" + pub).digest()[:4]
    Ed25519PublicKey.from_public_bytes(pub).verify(raw[4:], (body + "\n").encode())  # raises if not


def test_round_trip_and_verify():
    text = example()
    cp = verify_checkpoint(text, KEY.public_hex, origin=ORIGIN)
    assert (cp.origin, cp.size, cp.root, cp.legacy_time, str(cp)) == (ORIGIN, 6, ROOT6, None, text)
    assert parse_checkpoint(text) == cp


def test_wrong_key_or_origin_is_rejected():
    text = example()
    with pytest.raises(SignatureError, match=r"^checkpoint has no signature by key 'tiplu\.example/log' \([0-9a-f]{8}\)$"):
        verify_checkpoint(text, OTHER.public_hex)
    with pytest.raises(SignatureError, match=r"^checkpoint is for log 'tiplu\.example/log', not 'other\.example/log'$"):
        verify_checkpoint(text, KEY.public_hex, origin="other.example/log")


@pytest.mark.parametrize("old,new", [
    ("\n6\n", "\n7\n"), ("duZ9", "duZ8"), ("tiplu.example/log\n6", "tiplu.example/lo\n6"),
])
def test_any_change_to_the_body_is_rejected(old, new):
    text = example()
    assert old in text
    with pytest.raises((SignatureError, MalformedError), match=r"^checkpoint signature by 'tiplu\.example/log' does not verify$"):
        verify_checkpoint(text.replace(old, new, 1), KEY.public_hex, key_name=ORIGIN)


def test_every_bit_of_the_signature_matters():
    text = example()
    body, _, sigline = text.partition("\n\n")
    raw = base64.b64decode(sigline.split(" ")[2])
    for bit in range(0, len(raw) * 8, 7):
        bad = bytearray(raw)
        bad[bit // 8] ^= 1 << (bit % 8)
        forged = f"{body}\n\n\u2014 {ORIGIN} {base64.b64encode(bytes(bad)).decode()}\n"
        with pytest.raises(SignatureError, match=r"^checkpoint (has no signature by key 'tiplu\.example/log' \([0-9a-f]{8}\)|signature by 'tiplu\.example/log' does not verify)$"):
            verify_checkpoint(forged, KEY.public_hex)


def test_a_cosignature_by_another_key_is_ignored_but_kept():
    text = example()
    other = sign_checkpoint(OTHER, origin=ORIGIN, size=6, root=ROOT6, key_name="witness")
    both = text + other.text.partition("\n\n")[2]
    assert len(verify_checkpoint(both, KEY.public_hex).signatures) == 2
    verify_checkpoint(both, OTHER.public_hex, key_name="witness")


@pytest.mark.parametrize("bad", [
    "", "x\n", "o\n6\nAAAA\n\n\u2014 o AAAAAAAA\n",
    "o\n06\n" + base64.b64encode(ROOT6).decode() + "\n\n\u2014 o AAAAAAAA\n",
    "o\n6\n" + base64.b64encode(ROOT6).decode() + "\n\n- o AAAAAAAA\n",
    "o\n6\n" + base64.b64encode(ROOT6).decode() + "\n\n",
    "o\n6\n" + base64.b64encode(ROOT6).decode() + "\n\n\u2014 o AAAAAAAA",
    "o\n6\n\n\u2014 o AAAAAAAA\n",
])
def test_malformed_text_is_rejected(bad):
    for legacy in (False, True):
        with pytest.raises(MalformedError, match=r"^(a checkpoint |a signature line starts with |line [23]: checkpoint (size|root) )"):
            parse_checkpoint(bad, legacy=legacy)


def test_a_line_after_the_root_is_refused_unless_the_legacy_body_is_asked_for():
    legacy = legacy_checkpoint(KEY, origin=ORIGIN, size=6, root=ROOT6)
    with pytest.raises(MalformedError, match="exactly 3 lines"):
        verify_checkpoint(legacy, KEY.public_hex)
    cp = verify_checkpoint(legacy, KEY.public_hex, legacy=True)  # its signature covers all four lines
    assert (cp.size, cp.root, cp.legacy_time) == (6, ROOT6, "2026-11-30T14:35:00Z")
    assert cp.body == legacy.partition("\n\n")[0].encode() + b"\n"
    with pytest.raises(SignatureError, match=r"^checkpoint signature by 'tiplu\.example/log' does not verify$"):  # the time line is signed: editing it breaks the checkpoint
        verify_checkpoint(legacy.replace("14:35:00Z", "14:35:01Z"), KEY.public_hex, legacy=True)
    # only the time line was ever accepted there, and never a fifth line
    for other in ("note hello", "time 2026-13-30T14:35:00Z", "time 2026-11-30 14:35:00"):
        with pytest.raises(MalformedError, match=r"^line 4: (a legacy checkpoint's 4th line is not 'time YYYY-MM-DDTHH:MM:SSZ'|checkpoint time is not a valid date)$"):
            parse_checkpoint(legacy_checkpoint(KEY, origin=ORIGIN, size=6, root=ROOT6, extra=other), legacy=True)
    five = legacy.replace("14:35:00Z\n", "14:35:00Z\nmore\n")
    with pytest.raises(MalformedError, match=r"^a checkpoint body is exactly 3 lines: origin, size, root \(no line after the root\)$"):
        parse_checkpoint(five, legacy=True)


def test_the_legacy_body_is_a_function_of_the_document_format():
    assert accepts_legacy_time("tiplu.hand/2") and accepts_legacy_time("tiplu.receipt/2")
    for fmt in ("tiplu.hand/3", "tiplu.receipt/3", "tiplu.hand/1", None, 2, ["tiplu.hand/2"]):
        assert not accepts_legacy_time(fmt)


def test_make_checkpoint_signs_the_log_and_stores_it(tmp_path):
    log = TransparencyLog(sqlite_utils.Database(tmp_path / "l.db"))
    first = make_checkpoint(log, KEY, origin=ORIGIN, now=NOW)
    assert (first.size, first.root) == (0, hashlib.sha256(b"").digest())
    for i in range(6):
        log.append(f"e{i}".encode())
    second = make_checkpoint(log, KEY, origin=ORIGIN, now=NOW + timedelta(minutes=1))
    assert verify_checkpoint(second.text, KEY.public_hex).root == log.root(6)
    assert log.checkpoints() == [first.text, second.text] and log.latest_checkpoint() == second.text
    assert len(second.text.partition("\n\n")[0].split("\n")) == 3  # no time in the signed body
    # the store notes when it signed each one, beside it (unsigned)
    assert (log.checkpoint_time(first.text), log.checkpoint_time(second.text)) == ("2026-11-30T14:35:00Z",
                                                                                 "2026-11-30T14:36:00Z")
    assert log.checkpoint_time("not a checkpoint") is None
    with pytest.raises(MalformedError, match=r"^a checkpoint time must be timezone-aware$"):
        make_checkpoint(log, KEY, origin=ORIGIN, now=datetime(2026, 1, 1))  # naive time


def test_the_time_check_refuses_exactly_the_dates_strptime_refuses():
    """parse_checkpoint checks a legacy time line's date with the datetime constructor, not
    strptime's format parser: the same answer for every field value around each bound."""
    from datetime import datetime

    from audit.tlog.checkpoint import _valid_time

    def answer(check, t):
        try:
            check(t)
            return True
        except ValueError:
            return False

    def strptime(t):
        datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")

    times = [f"{y}-{mo:02d}-{d:02d}T12:30:30Z" for y in ("0000", "0001", "1900", "2000", "2024", "2026", "9999")
             for mo in (0, 1, 2, 4, 12, 13, 99) for d in (0, 1, 28, 29, 30, 31, 32, 99)]
    times += [f"2026-11-01T{h:02d}:{mi:02d}:{s:02d}Z" for h in (0, 23, 24, 99) for mi in (0, 59, 60, 99)
              for s in (0, 59, 60, 61, 62, 99)]
    for t in times:
        assert answer(_valid_time, t) == answer(strptime, t), t
