"""The operators' logs as C2SP tlog-tiles (web/log_tiles.py), checked by a client written from
the spec (tests/tlog/tiles_reader.py, no server code): hashes, the recomputed root equal to
the signed checkpoint's, partial tiles, the entry bundles' leaf encoding; cache headers; and
a big log (70,000 leaves: full and partial tiles at levels 0, 1 and 2) through the store."""
from __future__ import annotations

import json

import pytest
import sqlite_utils

from audit.operator.ledger import Ledger
from audit.operator.sim.archive import OPERATOR, simulate_archive
from audit.tlog.logs import operator_origin, parse_tile_path, tile_path, tiles_prefix
from audit.tlog.store import TransparencyLog, leaf_entry
from tests.tlog.tiles_reader import read_log, tile_url
from web import create_app
from web.log_tiles import bundle

BASE = "tiplu.test/log"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(test client, operator key, ledger path): a Kitti archive of > 256 leaves, served with
    the operator's own key signing its log."""
    from audit.tlog.checkpoint import CheckpointSigner

    path = str(tmp_path_factory.mktemp("tiles") / "ledger.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 3, 30)], seed="tiles", origin=BASE)
        key = ledger.signing_key(OPERATOR)
        size = TransparencyLog(ledger.db, migrate=False).size()
    assert 256 < size < 2 * 256 * 256
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, BASE)})
    return app.test_client(), key.public_hex, path


def fetcher(client, prefix):
    seen = []

    def fetch(path):
        r = client.get(prefix + path)
        assert r.status_code == 200, (path, r.status_code, r.get_data(as_text=True)[:200])
        seen.append((path, r.headers.get("Cache-Control"), r.content_type))
        return r.get_data()
    return fetch, seen


def test_an_independent_client_reads_and_checks_the_whole_log(served):
    client, public_key, path = served
    fetch, seen = fetcher(client, tiles_prefix(OPERATOR))
    got = read_log(fetch, public_key)
    assert got["origin"] == operator_origin(BASE, OPERATOR)
    with Ledger(path) as ledger:
        log = TransparencyLog(ledger.db, migrate=False)
        assert got["size"] == log.size() and got["root"] == log.root()
        # each entry is exactly the leaf the ledger logged: a signed statement's canonical JSON
        stored = [s.signed for s in ledger.statements()]
    assert got["entries"] == [leaf_entry(s) for s in stored]
    assert all(json.loads(e)["sig"] for e in got["entries"])
    # a full tile is immutable, a partial one short-lived, the checkpoint a few seconds
    headers = {p: (cc, ct) for p, cc, ct in seen}
    assert headers["checkpoint"] == ("public, max-age=5", "text/plain; charset=utf-8")
    assert headers["tile/0/000"] == ("public, max-age=31536000, immutable", "application/octet-stream")
    partial = [p for p in headers if ".p/" in p]
    assert partial and all(headers[p][0] == "public, max-age=60" for p in partial)
    assert "tile/1/000.p/1" in headers  # a tree of more than 256 leaves has a level-1 partial tile


def test_the_served_checkpoint_is_the_json_api_s(served):
    client, public_key, _ = served
    text = client.get(tiles_prefix(OPERATOR) + "checkpoint").get_data(as_text=True)
    api = client.get(f"/api/v1/log/checkpoint?operator={OPERATOR}").get_json()
    assert text == api["checkpoint"] and api["public_key"] == public_key
    assert len(text.partition("\n\n")[0].split("\n")) == 3


@pytest.mark.parametrize("bad", ["tile/0/0", "tile/0/000.p/0", "tile/0/000.p/256", "tile/00/000", "tile/64/000",
                                 "tile/0/x000/001", "tile/0/999", "tile/1/000", "tile/entries/001", "nothing",
                                 "tile/0/000.p/07"])
def test_a_path_the_spec_does_not_allow_or_a_tile_the_log_lacks_is_404(served, bad):
    client, _, _ = served
    r = client.get(tiles_prefix(OPERATOR) + bad)
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"


def test_an_unknown_operator_has_no_tiles(served):
    client, _, _ = served
    for path in ("checkpoint", "tile/0/000"):
        r = client.get(tiles_prefix("nobody") + path)
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found"


def test_tile_paths_round_trip_and_are_the_spec_s():
    # the spec's example: index 1234067 is x001/x234/067
    assert tile_path(0, 1234067) == "tile/0/x001/x234/067" == tile_url(0, 1234067, 256)
    assert tile_path("entries", 5, 3) == "tile/entries/005.p/3" == tile_url("entries", 5, 3)
    for args in [(0, 0, 256), (2, 999, 1), (63, 1000, 255), ("entries", 10**9, 256)]:
        assert parse_tile_path(tile_path(*args)) == args


def test_a_big_log_has_full_and_partial_tiles_at_every_level():
    """The spec's own example: a tree of 70,000 leaves is 273 full level-0 tiles, a partial one
    of width 112, one full level-1 tile, a partial one of width 17 and a partial level-2 tile
    of width 1 -- each checked by the independent client against the recomputed tree."""
    from audit.signing import SigningKey
    from audit.tlog.checkpoint import sign_checkpoint

    log = TransparencyLog(sqlite_utils.Database(memory=True))
    with log.db.atomic():
        for i in range(70_000):
            log.append(b"entry %d" % i)
    key = SigningKey.from_hex("44" * 32)
    cp = sign_checkpoint(key, origin="tiplu.test/big", size=70_000, root=log.root())

    def fetch(p):
        if p == "checkpoint":
            return cp.text.encode()
        level, index, width = parse_tile_path(p)
        return bundle(log, index, width) if level == "entries" else log.tile(level, index, width)

    got = read_log(fetch, key.public_hex)
    tiles = got["tiles"]
    assert sum(t.startswith("tile/0/") and ".p/" not in t for t in tiles) == 273
    assert {"tile/0/273.p/112", "tile/1/000", "tile/1/001.p/17", "tile/2/000.p/1"} <= set(tiles)
    assert len(got["entries"]) == 70_000 and got["entries"][69_999] == b"entry 69999"


@pytest.mark.parametrize("target", ["tile/0/000", "tile/entries/001.p/44", "tile/1/000.p/1", "checkpoint"])
def test_the_independent_client_catches_one_changed_byte(served, target):
    """The reader is no rubber stamp: one byte changed in any resource it reads fails it."""
    client, public_key, _ = served
    fetch, _ = fetcher(client, tiles_prefix(OPERATOR))

    def tampered(path):
        body = fetch(path)
        if path != target:
            return body
        at = 3 if path == "checkpoint" else len(body) // 2  # the checkpoint: a byte of its origin
        return body[:at] + bytes([body[at] ^ 1]) + body[at + 1:]

    size = TransparencyLog(sqlite_utils.Database(served[2]), migrate=False).size()
    if target == "tile/entries/001.p/44":
        target = tile_url("entries", 1, size - 256)
    with pytest.raises(AssertionError):
        read_log(tampered, public_key)
