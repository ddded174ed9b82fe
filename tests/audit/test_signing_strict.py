"""Ed25519 verification with its one backend, cryptography (OpenSSL), behind the strict checks.

On every signature of the golden fixture records (and their corruptions), on forgeries, and
on the adversarial edge cases RFC 8032 leaves open, where raw OpenSSL accepts what libsodium
refuses (small-order keys and R values): :func:`audit.signing.check_strict` refuses them.
"""
from __future__ import annotations

import hashlib
import json
import pathlib

import pytest

from audit import signing
from audit.errors import SignatureError
from audit.signing import L, SMALL_ORDER_Y, SigningKey, check_strict, verify_bytes, verify_statement

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIR = ROOT / "fixtures" / "records"
MANIFEST = json.loads((DIR / "manifest.json").read_text())["records"]
P = 2**255 - 19
D = -121665 * pow(121666, -1, P) % P


def _statements(entry) -> list[dict]:
    record = json.loads((DIR / entry["file"]).read_text())
    return record["fairness"]["statements"]


# --- the fixture records -----------------------------------------------------------------

def test_every_corrupted_golden_signature_is_rejected():
    for entry in (e for e in MANIFEST if e["ok"]):
        for st in _statements(entry):
            verify_statement(st, st["key"])  # the golden one verifies
            sig = bytearray(bytes.fromhex(st["sig"]))
            for bit in (0, 8 * 31 + 5, 8 * 32, 8 * 63 + 3):  # bits of R and of S
                bad = bytearray(sig)
                bad[bit // 8] ^= 1 << (bit % 8)
                with pytest.raises(SignatureError, match=r"^signature does not verify under key 6633ca47c0df4c73\.\.\.: invalid signature$"):
                    verify_statement({**st, "sig": bad.hex()}, st["key"])
            changed = {**st, "statement": {**st["statement"], "hand_id": st["statement"]["hand_id"] + "x"}}
            with pytest.raises(SignatureError, match=r"^signature does not verify under key 6633ca47c0df4c73\.\.\.: invalid signature$"):
                verify_statement(changed, st["key"])


def test_a_statement_resigned_by_another_key_is_rejected():
    other = SigningKey.generate()
    entry = next(e for e in MANIFEST if e["ok"])
    st = _statements(entry)[0]
    forged = {**other.sign(st["statement"]), "key": st["key"]}  # claims the operator's key
    with pytest.raises(SignatureError, match=r"^signature does not verify under key 6633ca47c0df4c73\.\.\.: invalid signature$"):
        verify_statement(forged, st["key"])
    verify_statement(other.sign(st["statement"]), other.public_hex)  # under its own key it is fine


# --- edge cases -----------------------------------------------------------------------------

KEY = SigningKey.from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")  # RFC 8032 test 1
MSG = b"tiplu edge cases"


def test_rfc8032_test_vector_1():
    pub = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    sig = ("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
           "d25bf5f0595bbe24655141438e7a100b")
    assert KEY.public_hex == pub
    assert KEY.sign_bytes(b"") == sig
    verify_bytes(pub, b"", sig)
    with pytest.raises(SignatureError, match=r"^signature does not verify under key d75a980182b10ab7\.\.\.: invalid signature$"):
        verify_bytes(pub, b"\x00", sig)


@pytest.mark.parametrize("pub, sig", [
    ("ab" * 31, "cd" * 64),           # key one byte short
    ("ab" * 33, "cd" * 64),           # key one byte long
    ("ab" * 32, "cd" * 63),           # signature one byte short
    ("ab" * 32, "cd" * 65),           # signature one byte long
    ("AB" * 32, "cd" * 64),           # upper-case hex is not the canonical form
    ("zz" * 32, "cd" * 64),           # not hex
    ("", ""),
])
def test_wrong_length_or_form_is_a_signature_error(pub, sig):
    with pytest.raises(SignatureError):
        verify_bytes(pub, MSG, sig)


def test_wrong_length_of_a_real_signature_is_rejected():
    sig = KEY.sign_bytes(MSG)
    verify_bytes(KEY.public_hex, MSG, sig)
    for bad in (sig[:-2], sig + "00", "00" + sig):
        with pytest.raises(SignatureError):
            verify_bytes(KEY.public_hex, MSG, bad)
    with pytest.raises(SignatureError, match=r"^signature does not verify under key d75a980182b10ab7\.\.\.: public key must be exactly 32 bytes \(64 hex digits\), got 31$"):
        verify_bytes(KEY.public_hex[:-2], MSG, sig)


@pytest.mark.parametrize("byte", [0, 17, 31, 32, 45, 63])
def test_a_flipped_bit_in_r_or_s_is_rejected(byte):
    sig = bytearray(bytes.fromhex(KEY.sign_bytes(MSG)))
    sig[byte] ^= 0x10
    with pytest.raises(SignatureError):
        verify_bytes(KEY.public_hex, MSG, sig.hex())


def test_non_canonical_s_is_rejected():
    """S + L satisfies the verification equation (S*B is unchanged) but is malleable: refused."""
    sig = bytes.fromhex(KEY.sign_bytes(MSG))
    s = int.from_bytes(sig[32:], "little")
    assert s < L
    bad = sig[:32] + (s + L).to_bytes(32, "little")
    with pytest.raises(SignatureError, match="S is not below"):
        verify_bytes(KEY.public_hex, MSG, bad.hex())


def _h(r: bytes, a: bytes, msg: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r + a + msg).digest(), "little") % L


IDENTITY = (1).to_bytes(32, "little")


def test_identity_key_forgery_is_rejected():
    """Under the identity point as key, R = identity and S = 0 "verify" every message in a
    cofactorless check (S*B - h*A = identity = R); raw OpenSSL accepts it, libsodium not."""
    for msg in (MSG, b"", b"anything at all"):
        with pytest.raises(SignatureError, match="small order"):
            verify_bytes(IDENTITY.hex(), msg, (IDENTITY + bytes(32)).hex())


def test_all_zero_key_is_rejected():
    """The all-zero key is a point of order 4: with R = identity and S = 0 the equation holds
    for every message whose h is a multiple of 4.  Refused whatever the message."""
    msg = next(m for m in (b"m%d" % i for i in range(100)) if _h(IDENTITY, bytes(32), m) % 4 == 0)
    with pytest.raises(SignatureError, match="small order"):
        verify_bytes("00" * 32, msg, (IDENTITY + bytes(32)).hex())
    with pytest.raises(SignatureError, match=r"^signature does not verify under key 0000000000000000\.\.\.: the public key is non-canonical or of small order$"):
        verify_bytes("00" * 32, MSG, KEY.sign_bytes(MSG))


def test_small_order_r_is_rejected_even_when_the_equation_holds():
    """A signer who knows the secret scalar a can choose R = identity and S = h*a: the
    equation holds, but such an R is refused (libsodium does; OpenSSL alone would not)."""
    seed = bytes.fromhex(KEY.to_hex())
    a = int.from_bytes(hashlib.sha512(seed).digest()[:32], "little")
    a = (a & ~7 & ((1 << 254) - 1)) | (1 << 254)  # RFC 8032 5.1.5 clamping
    pub = bytes.fromhex(KEY.public_hex)
    s = _h(IDENTITY, pub, MSG) * a % L
    with pytest.raises(SignatureError, match="small order"):
        verify_bytes(KEY.public_hex, MSG, (IDENTITY + s.to_bytes(32, "little")).hex())


def test_raw_openssl_accepts_the_identity_key_forgery():
    """Why check_strict exists: without it OpenSSL (cryptography 42+ / OpenSSL 3) accepts a
    signature under the identity point for any message; libsodium refuses it."""
    sig = IDENTITY + bytes(32)
    for message in (MSG, b"any other message"):
        signing._verify(IDENTITY, message, sig)  # accepted: OpenSSL does no small-order check
    with pytest.raises(SignatureError, match="small order"):
        verify_bytes(IDENTITY.hex(), MSG, sig.hex())


def test_non_canonical_key_encoding_is_rejected():
    for y in (P, P + 1, P + 5, 2**255 - 1):
        with pytest.raises(SignatureError):
            verify_bytes(y.to_bytes(32, "little").hex(), MSG, (IDENTITY + bytes(32)).hex())


def test_a_key_that_is_not_a_curve_point_is_rejected():
    y = 2
    while True:  # the first y with no x on the curve
        u = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
        if pow(u, (P - 1) // 2, P) == P - 1:
            break
        y += 1
    with pytest.raises(SignatureError, match=r"^signature does not verify under key 0200000000000000\.\.\.: invalid signature$"):
        verify_bytes(y.to_bytes(32, "little").hex(), MSG, KEY.sign_bytes(MSG))


# --- the small-order list is the torsion subgroup -----------------------------------------------

def _add(p1, p2):
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P)


def _xs(y: int) -> list[int]:
    u = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    x = pow(u, (P + 3) // 8, P)
    if x * x % P != u:
        x = x * pow(2, (P - 1) // 4, P) % P
    assert x * x % P == u
    return sorted({x, -x % P})


def test_small_order_y_values_are_exactly_the_eight_torsion_points():
    canonical = sorted(y for y in SMALL_ORDER_Y if y < P)
    points = [(x, y) for y in canonical for x in _xs(y)]
    assert len(points) == 8  # the torsion subgroup E[8] of Curve25519 in Edwards form
    for pt in points:
        q = pt
        for _ in range(3):  # 8 * pt
            q = _add(q, q)
        assert q == (0, 1)
    assert sorted(y for y in SMALL_ORDER_Y if y >= P) == [P, P + 1]  # non-canonical 0 and 1


def test_check_strict_passes_a_real_signature():
    check_strict(bytes.fromhex(KEY.public_hex), bytes.fromhex(KEY.sign_bytes(MSG)))
