"""Interop: the served log checked by code nobody here wrote -- Debian's Go
golang.org/x/mod/sumdb/note and sumdb/tlog, through our small program tests/interop/tlogcheck
(built here, offline: GOPATH=/usr/share/gocode GO111MODULE=off, into a tmp dir).

Checked by Go: the served checkpoint (note.Open under the operator's vkey; exactly three
body lines), a witness's cosignature line (which x/mod cannot verify, type 0x04: note.Open
must still accept the operator's signature beside it; our Go code checks the cosignature with
crypto/ed25519), the C2SP tiles and entry bundles (tlog.TileHashReader authenticates every
tile; the tree hash is the signed root; every entry hashes to its leaf), every leaf's
inclusion proof and consistency proofs from every earlier checkpoint size (tlog.CheckRecord,
tlog.CheckTree).  And every checkpoint the log ever signed has a three-line body.

Without a Go toolchain and x/mod the tests skip, loudly; under CI (CI=true) that is a failure
with one clear line (tools/test installs golang-go golang-golang-x-mod-dev)."""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import threading

import pytest
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.signing import SigningKey
from audit.operator.sim.archive import OPERATOR, simulate_archive
from audit.tlog.checkpoint import CheckpointSigner, parse_checkpoint
from audit.tlog.cosignature import cosign
from audit.tlog.logs import operator_origin, tiles_prefix
from audit.tlog.note import TYPE_ED25519, Vkey
from audit.tlog.store import TransparencyLog
from web import create_app

HERE = pathlib.Path(__file__).resolve().parent
GOPATH = "/usr/share/gocode"
XMOD = pathlib.Path(GOPATH) / "src" / "golang.org" / "x" / "mod" / "sumdb"
BASE = "tiplu.test/log"


def _missing() -> str | None:
    if shutil.which("go") is None:
        return "no Go toolchain ('go' not on PATH): apt-get install golang-go golang-golang-x-mod-dev"
    if not (XMOD / "note").is_dir() or not (XMOD / "tlog").is_dir():
        return f"no golang.org/x/mod under {GOPATH}: apt-get install golang-golang-x-mod-dev"
    return None


@pytest.fixture(scope="module")
def tlogcheck(tmp_path_factory) -> str:
    why = _missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Go interop cannot run under CI: {why}", pytrace=False)
        pytest.skip(f"GO INTEROP NOT CHECKED: {why}")
    out = tmp_path_factory.mktemp("go")
    env = {**os.environ, "GOPATH": GOPATH, "GO111MODULE": "off", "GOFLAGS": "",
           "GOCACHE": str(out / "cache"), "CGO_ENABLED": "0"}
    r = subprocess.run(["go", "build", "-o", str(out / "tlogcheck"), "."], cwd=HERE / "tlogcheck", env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return str(out / "tlogcheck")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(base URL, operator key, ledger path): a Kitti archive of more than 256 leaves,
    served with the operator's own key signing its log."""
    path = str(tmp_path_factory.mktemp("interop") / "ledger.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 3, 30)], seed="interop", origin=BASE)
        key = ledger.signing_key(OPERATOR)
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, BASE)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", key, path
    server.shutdown()


def vkey_of(key: SigningKey) -> str:
    return str(Vkey.for_key(operator_origin(BASE, OPERATOR), TYPE_ED25519, bytes.fromhex(key.public_hex)))


def run(tlogcheck: str, url: str, key: SigningKey, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([tlogcheck, "-url", url, "-prefix", tiles_prefix(OPERATOR), "-vkey", vkey_of(key), *args],
                          capture_output=True, text=True, timeout=600)


def stored_sizes(path: str) -> list[int]:
    with Ledger(path) as ledger:
        return sorted({parse_checkpoint(t, legacy=True).size
                       for t in TransparencyLog(ledger.db, migrate=False).checkpoints()} - {0})


def test_go_checks_the_served_checkpoint_tiles_and_proofs(tlogcheck, site):
    url, key, path = site
    sizes = stored_sizes(path)
    assert len(sizes) > 5  # the archive signed a checkpoint per published hand
    r = run(tlogcheck, url, key, "-sizes", ",".join(map(str, sizes + [1, 2, 3])))
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout)
    with Ledger(path) as ledger:
        size = TransparencyLog(ledger.db, migrate=False).size()
    assert got["size"] == size > 256 and got["body_lines"] == 3 and got["inclusion"] == size
    assert got["consistency"] == len(set(sizes + [1, 2, 3])) and got["verified_by"] == operator_origin(BASE, OPERATOR)


def test_every_checkpoint_the_log_signed_is_three_lines(site):
    _, _, path = site
    with Ledger(path) as ledger:
        texts = TransparencyLog(ledger.db, migrate=False).checkpoints()
    assert texts
    for text in texts:
        body = text.split("\n\n", 1)[0]
        assert len(body.split("\n")) == 3, text


def test_a_cosignature_of_an_unknown_type_does_not_stop_note_open(tlogcheck, site, tmp_path):
    """x/mod's note verifies only Ed25519 (0x01): a witness's cosignature/v1 line (0x04) is an
    unknown-key line that note.Open must leave aside, still accepting the operator's line;
    our Go code then checks the cosignature by the C2SP bytes with crypto/ed25519."""
    import urllib.request

    url, key, _ = site
    text = urllib.request.urlopen(url + tiles_prefix(OPERATOR) + "checkpoint").read().decode()
    witness = SigningKey.from_hex("55" * 32)
    body = text.split("\n\n", 1)[0].encode() + b"\n"
    cosigned = text + str(cosign(witness, "witness.test/w1", body, 1_800_000_000))
    (tmp_path / "cp.txt").write_text(cosigned)
    r = run(tlogcheck, url, key, "-checkpoint", str(tmp_path / "cp.txt"), "-witness",
            f"witness.test/w1={witness.public_hex}")
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(r.stdout)
    assert got["unverified_lines"] == 1 and got["cosigned"] == ["witness.test/w1"]
    # performed: a cosignature over other bytes (the legacy four-line body) is refused by Go too
    legacy_body = body + b"time 2026-11-30T14:35:00Z\n"
    (tmp_path / "bad.txt").write_text(text + str(cosign(witness, "witness.test/w1", legacy_body, 1_800_000_000)))
    r = run(tlogcheck, url, key, "-checkpoint", str(tmp_path / "bad.txt"), "-witness",
            f"witness.test/w1={witness.public_hex}")
    assert r.returncode == 1 and r.stdout.startswith("FAIL: witness witness.test/w1's cosignature does not verify")


@pytest.mark.parametrize("attack", ["four-lines", "other-key", "edited-root"])
def test_go_refuses_a_bad_checkpoint(tlogcheck, site, tmp_path, attack):
    import base64
    import urllib.request

    from audit.tlog.checkpoint import SIGNATURE_DASH, note_key_id, sign_checkpoint

    url, key, _ = site
    cp = parse_checkpoint(urllib.request.urlopen(url + tiles_prefix(OPERATOR) + "checkpoint").read().decode())
    if attack == "four-lines":  # a body with a signed line after the root, by the right key
        body = cp.body + b"time 2026-11-30T14:35:00Z\n"
        sig = bytes.fromhex(key.sign_bytes(body))
        text = body.decode() + "\n" + f"{SIGNATURE_DASH}{cp.origin} " + base64.b64encode(
            note_key_id(cp.origin, key.public_hex) + sig).decode() + "\n"
        expect = "FAIL: the checkpoint body has 4 lines, not 3"
    elif attack == "other-key":
        text = sign_checkpoint(SigningKey.from_hex("66" * 32), origin=cp.origin, size=cp.size, root=cp.root).text
        expect = "FAIL: note.Open"
    else:
        text = sign_checkpoint(key, origin=cp.origin, size=cp.size, root=bytes(32)).text
        expect = "FAIL: the tiles' tree hash is not the signed root"
    (tmp_path / "cp.txt").write_text(text)
    r = run(tlogcheck, url, key, "-checkpoint", str(tmp_path / "cp.txt"))
    assert r.returncode == 1 and r.stdout.startswith(expect), r.stdout + r.stderr
