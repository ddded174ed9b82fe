"""A small C2SP tlog-tiles client written from the spec (C2SP tlog-tiles.md, RFC 6962 §2.1),
for the tests: it shares no code with the server (no ``audit.tlog``), only ``hashlib`` and
``cryptography``'s Ed25519.

``read_log(fetch, public_key_hex)``: fetch ``checkpoint``, check its body is exactly three
lines and its Ed25519 signature (key id = SHA-256(name || 0x0A || 0x01 || key)[:4]); then
fetch every tile and entry bundle the size needs -- full ones, and the partial ones the spec
says the size has (``floor(s / 256**l) mod 256`` wide) -- and check: each entry hashes to its
level-0 tile hash; each hash of a level-l tile (l >= 1) is the tree hash of its 256**l
leaves; the tree hash of all leaves is the checkpoint's root.  Raises AssertionError."""
from __future__ import annotations

import base64
import hashlib
import struct
from typing import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def _index_path(n: int) -> str:
    parts = [f"{n % 1000:03d}"]
    n //= 1000
    while n:
        parts.insert(0, f"x{n % 1000:03d}")
        n //= 1000
    return "/".join(parts)


def tile_url(level, n: int, width: int) -> str:
    return f"tile/{level}/{_index_path(n)}" + ("" if width == 256 else f".p/{width}")


def mth(hashes: list[bytes]) -> bytes:
    """RFC 6962 MTH over leaf hashes (the split is the largest power of two below n)."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(hashes[:k]) + mth(hashes[k:])).digest()


def parse_checkpoint(text: str, public_key_hex: str) -> tuple[str, int, bytes]:
    body, sep, sigs = text.partition("\n\n")
    assert sep and text.endswith("\n"), "a signed note: body, blank line, signature lines"
    lines = body.split("\n")
    assert len(lines) == 3, f"a checkpoint body is exactly three lines, got {len(lines)}: {lines}"
    origin, size, root_b64 = lines
    pub = bytes.fromhex(public_key_hex)
    key_id = hashlib.sha256(origin.encode() + b"\n\x01" + pub).digest()[:4]
    signed = False
    for line in sigs.rstrip("\n").split("\n"):
        assert line.startswith("\u2014 "), line
        name, b64 = line[2:].split(" ")
        raw = base64.b64decode(b64, validate=True)
        if name == origin and raw[:4] == key_id:
            Ed25519PublicKey.from_public_bytes(pub).verify(raw[4:], (body + "\n").encode())  # raises if bad
            signed = True
    assert signed, "no signature of the log's key"
    return origin, int(size), base64.b64decode(root_b64, validate=True)


def read_log(fetch: Callable[[str], bytes], public_key_hex: str) -> dict:
    """Check the whole log (see the module docstring); its facts for the test to compare."""
    origin, size, root = parse_checkpoint(fetch("checkpoint").decode("utf-8"), public_key_hex)
    leaves: list[bytes] = []
    entries: list[bytes] = []
    fetched: list[str] = []
    for n in range((size + 255) // 256):  # level 0 and the entry bundles
        width = min(256, size - 256 * n)
        url = tile_url(0, n, width)
        fetched.append(url)
        tile = fetch(url)
        assert len(tile) == 32 * width, (url, len(tile))
        bundle = fetch(tile_url("entries", n, width))
        got, at = [], 0
        while at < len(bundle):
            (length,) = struct.unpack(">H", bundle[at:at + 2])
            got.append(bundle[at + 2:at + 2 + length])
            at += 2 + length
        assert at == len(bundle) and len(got) == width, "a bundle of uint16-length-prefixed entries, one per leaf"
        for i, e in enumerate(got):
            assert hashlib.sha256(b"\x00" + e).digest() == tile[32 * i:32 * i + 32], f"entry {256 * n + i}"
        leaves += [tile[32 * i:32 * i + 32] for i in range(width)]
        entries += got
    level = 1
    while 256 ** level <= size:  # higher levels: full tiles and the partial one the size has
        span = 256 ** level
        count = size // span  # hashes at this level
        for n in range((count + 255) // 256):
            width = min(256, count - 256 * n)
            url = tile_url(level, n, width)
            fetched.append(url)
            tile = fetch(url)
            assert len(tile) == 32 * width, url
            for i in range(width):
                first = (256 * n + i) * span
                assert tile[32 * i:32 * i + 32] == mth(leaves[first:first + span]), f"{url} hash {i}"
        assert count % 256 == (size // span) % 256
        level += 1
    assert mth(leaves) == root, "the tree hash of the served leaves is not the signed root"
    return {"origin": origin, "size": size, "root": root, "entries": entries, "tiles": fetched}
