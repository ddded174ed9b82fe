"""The monitor's and the URL audit's client (LogClient, under audit.auditor.evidence.remote_log.RemoteLog) reads an
operator's entries through the C2SP tile entry bundles (audit/tlog/tileclient.py), falls back
to the JSON API only when the server has no tiles, and a bundle that lies is caught as the
served log not being the signed one."""
from __future__ import annotations

import json
import threading

import pytest
import requests
from werkzeug.serving import make_server

from audit.operator.ledger import Ledger
from audit.auditor.evidence.remote_log import LogMismatch, RemoteLog
from audit.operator.sim.archive import OPERATOR, simulate_archive
from audit.tlog.checkpoint import CheckpointSigner
from audit.auditor.sources.operator_api import LogClient
from audit.tlog.store import TransparencyLog
from audit.tlog.tileclient import parse_bundle
from replay.errors import MalformedError
from replay.faults import Reason
from web import create_app

BASE = "tiplu.test/log"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("tileclient") / "ledger.db")
    with Ledger(path, create=True) as ledger:
        simulate_archive(ledger, [("kitti", 3, 30)], seed="tileclient", origin=BASE)
        key = ledger.signing_key(OPERATOR)
        log = TransparencyLog(ledger.db, migrate=False)
        size, root = log.size(), log.root()
    app = create_app({"TESTING": True, "TIPLU_DB": path, "TIPLU_CHECKPOINT_SIGNER": CheckpointSigner(key, BASE)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", key.public_hex, size, root
    server.shutdown()


class Spy(requests.Session):
    """Records every path asked; ``no_tiles`` answers 404 for /log/ (a server from before
    tiles); ``lie`` rewrites one entry of the first bundle (a statement's sig, still JSON)."""

    def __init__(self, *, no_tiles=False, lie=False):
        super().__init__()
        self.paths, self.no_tiles, self.lie = [], no_tiles, lie

    def get(self, url, **kw):
        path = "/" + url.split("/", 3)[3]
        self.paths.append(path.split("?")[0])
        r = super().get(url, **kw)
        if "/log/" in path and path.startswith("/log/"):
            if self.no_tiles:
                r.status_code, r._content = 404, b'{"error": {"status": 404, "code": "not_found", "message": "no"}}'
            elif self.lie and "/tile/entries/000" in path:
                entries = parse_bundle(r.content, 256)
                e = json.loads(entries[3])
                e["sig"] = ("0" if e["sig"][0] != "0" else "1") + e["sig"][1:]
                entries[3] = json.dumps(e, sort_keys=True, separators=(",", ":")).encode()
                r._content = b"".join(len(x).to_bytes(2, "big") + x for x in entries)
        return r


def test_the_url_audit_reads_the_entries_through_the_tiles(site):
    url, key, size, root = site
    spy = Spy()
    log = RemoteLog(LogClient(url, session=spy), public_key=key).open()
    assert (log.size(), log.root(size)) == (size, root) and log.anchor == "pinned"
    bundles = [p for p in spy.paths if p.startswith(f"/log/{OPERATOR}/tile/entries/")]
    assert len(bundles) == (size + 255) // 256 and "/api/v1/log/entries" not in spy.paths


def test_a_server_without_tiles_is_read_through_the_json_api(site):
    url, key, size, root = site
    spy = Spy(no_tiles=True)
    log = RemoteLog(LogClient(url, session=spy), public_key=key).open()
    assert (log.size(), log.root(size)) == (size, root)
    assert spy.paths.count(f"/log/{OPERATOR}/tile/entries/000") == 1  # asked once, then the API
    assert "/api/v1/log/entries" in spy.paths


def test_a_lying_bundle_is_caught_as_a_served_log_that_is_not_the_signed_one(site):
    url, key, _, _ = site
    with pytest.raises(LogMismatch, match=r"^log_inconsistent: the operator's served entries are not the log it signs: ") as err:
        RemoteLog(LogClient(url, session=Spy(lie=True)), public_key=key).open()
    assert err.value.fault.reason is Reason.LOG_INCONSISTENT


@pytest.mark.parametrize("data,width", [(b"\x00", 1), (b"\x00\x05abc", 1), (b"\x00\x01a", 2), (b"\x00\x01a\x00\x01b", 1)])
def test_a_malformed_bundle_is_refused(data, width):
    with pytest.raises(MalformedError, match=r"^an entry bundle (ends inside an? (length|entry)|of width \d+ holds \d+ entries)$"):
        parse_bundle(data, width)
