"""The witness speaks C2SP tlog-witness: every status of ``add-checkpoint``, its state and its evidence."""
from __future__ import annotations

import base64

import pytest

from audit.signing import SigningKey
from audit.tlog.cosignature import check_quorum, witness_vkey
from audit.tlog.note import parse_note, parse_signature_lines
from audit.tlog.witness import SIZE_CONTENT_TYPE, Witness, WitnessedLog, origin_hash
from web.witness import create_app

from .witnesskit import LOG_KEY, WITNESS_KEY, WITNESS_NAME, FakeLog, log_vkey

ORIGIN = "tiplu.test/log"


class Clock:
    def __init__(self):
        self.t = 1_780_000_000

    def __call__(self):
        self.t += 1
        return self.t


@pytest.fixture
def witness(tmp_path):
    logs = {o: WitnessedLog(o, (log_vkey(o),)) for o in (ORIGIN, "tiplu.test/other")}
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs, clock=Clock())
    yield w
    w.close()


@pytest.fixture
def client(witness):
    return create_app({"TIPLU_WITNESS": witness, "TESTING": True}).test_client()


def post(client, body: bytes):
    return client.post("/add-checkpoint", data=body, content_type="text/plain")


def cosigned(resp, checkpoint_text: str) -> str:
    return checkpoint_text + resp.get_data(as_text=True)


def test_first_checkpoint_with_old_zero_is_cosigned_and_the_line_verifies(client):
    log = FakeLog(ORIGIN)
    log.grow(5)
    cp = log.checkpoint()
    resp = post(client, log.request(0, checkpoint=cp))
    assert resp.status_code == 200
    lines = parse_signature_lines(resp.get_data(as_text=True))
    assert [s.key_name for s in lines] == [WITNESS_NAME]
    results = check_quorum(cosigned(resp, cp), [witness_vkey(WITNESS_NAME, WITNESS_KEY.public_hex)], 1)
    assert results[0].ok and results[0].timestamp > 0


def test_extension_with_a_consistency_proof_is_cosigned(client):
    log = FakeLog(ORIGIN)
    log.grow(3)
    assert post(client, log.request(0)).status_code == 200
    for k in (1, 4, 9):
        old = log.tree.size
        log.grow(k)
        assert post(client, log.request(old)).status_code == 200
    assert post(client, log.request(log.tree.size)).status_code == 200  # same size, same root: again


def test_unknown_origin_is_404(client):
    log = FakeLog("tiplu.test/nobody")
    log.grow(2)
    assert post(client, log.request(0)).status_code == 404


def test_no_trusted_signature_is_403(client):
    log = FakeLog(ORIGIN, SigningKey.from_hex("44" * 32))  # the right origin, another key
    log.grow(2)
    assert post(client, log.request(0)).status_code == 403


def test_a_bad_signature_from_the_trusted_key_is_403(client):
    log = FakeLog(ORIGIN)
    log.grow(2)
    cp = log.checkpoint()
    head, sep, sig = cp.rpartition("\n\n")
    raw = bytearray(base64.b64decode(sig.split(" ")[2]))
    raw[10] ^= 1
    forged = head + sep + sig.split(" ")[0] + " " + sig.split(" ")[1] + " " + base64.b64encode(raw).decode() + "\n"
    assert post(client, log.request(0, checkpoint=forged)).status_code == 403


def test_unknown_signatures_are_ignored(client):
    log = FakeLog(ORIGIN)
    log.grow(2)
    cp = log.checkpoint() + "\u2014 someone.else/k " + base64.b64encode(b"\x00" * 68).decode() + "\n"
    assert post(client, log.request(0, checkpoint=cp)).status_code == 200


def test_old_above_the_checkpoint_size_is_400(client):
    log = FakeLog(ORIGIN)
    log.grow(2)
    assert post(client, log.request(3)).status_code == 400


def test_a_stale_old_size_is_409_with_the_witness_size(client, witness):
    log = FakeLog(ORIGIN)
    log.grow(4)
    assert post(client, log.request(0)).status_code == 200
    log.grow(2)
    resp = post(client, log.request(0))
    assert resp.status_code == 409
    assert resp.headers["Content-Type"] == SIZE_CONTENT_TYPE
    assert resp.get_data() == b"4\n"
    assert witness.evidence() == []  # a stale view is not evidence


def test_size_zero_needs_the_empty_root(client):
    from audit.tlog.checkpoint import sign_checkpoint


    log = FakeLog(ORIGIN)
    assert post(client, log.request(0)).status_code == 200  # the empty tree with the empty root
    cp = sign_checkpoint(LOG_KEY, origin=ORIGIN, size=0, root=b"\x01" * 32).text
    assert post(client, f"old 0\n\n{cp}".encode()).status_code == 422


def test_a_proof_from_zero_must_be_empty(client):
    log = FakeLog(ORIGIN)
    log.grow(3)
    h = base64.b64encode(b"\x02" * 32).decode()
    assert post(client, f"old 0\n{h}\n\n{log.checkpoint()}".encode()).status_code == 422


def test_a_bad_consistency_proof_is_422_and_kept_as_evidence(client, witness):
    log = FakeLog(ORIGIN)
    log.grow(4)
    assert post(client, log.request(0)).status_code == 200
    fork = log.fork("evil", at=3)  # rewrites leaf 3, then grows
    fork.grow(3)
    resp = post(client, fork.request(4))
    assert resp.status_code == 422
    [ev] = witness.evidence()
    assert ev["origin"] == ORIGIN and ev["stored_size"] == 4 and ev["size"] == 6
    assert ev["request"].startswith("old 4\n") and "consistency proof" in ev["reason"]
    assert witness.state()[0]["size"] == 4  # the view did not move


def test_split_view_same_size_other_root_is_refused_and_kept(client, witness):
    log = FakeLog(ORIGIN)
    log.grow(6)
    assert post(client, log.request(0)).status_code == 200
    fork = log.fork("evil", at=5)
    fork.grow(1)  # a different tree of the same size 6
    assert post(client, fork.request(6)).status_code == 422
    assert post(client, fork.request(0)).status_code == 409  # a stale claim of the rival: also evidence
    assert [e["reason"] for e in witness.evidence()] == ["same size, another root"] * 2


def test_a_smaller_tree_after_a_larger_one_is_never_cosigned(client):
    log = FakeLog(ORIGIN)
    log.grow(8)
    assert post(client, log.request(0)).status_code == 200
    for old in (0, 3, 5):
        assert post(client, log.request(old, 5)).status_code == 409


def test_state_survives_a_restart(tmp_path):
    logs = {ORIGIN: WitnessedLog(ORIGIN, (log_vkey(ORIGIN),))}
    log = FakeLog(ORIGIN)
    log.grow(7)
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs)
    w.add_checkpoint(log.request(0))
    w.close()
    w = Witness(tmp_path / "w.db", WITNESS_KEY, WITNESS_NAME, logs)
    fork = log.fork("evil", at=6)
    fork.grow(1)
    with pytest.raises(Exception, match=r"^size 7 was cosigned with another root$") as err:
        w.add_checkpoint(fork.request(7))
    assert err.value.status == 422
    assert w.state()[0]["size"] == 7


def test_the_monitoring_checkpoint_carries_the_log_and_witness_lines(client):
    log = FakeLog(ORIGIN)
    log.grow(3)
    cp = log.checkpoint()
    assert client.get(f"/{origin_hash(ORIGIN)}/checkpoint").status_code == 404
    post(client, log.request(0, checkpoint=cp))
    text = client.get(f"/{origin_hash(ORIGIN)}/checkpoint").get_data(as_text=True)
    note = parse_note(text)
    assert note.text == parse_note(cp).text
    assert [s.key_name for s in note.signatures] == [ORIGIN, WITNESS_NAME]
    check_quorum(text, [witness_vkey(WITNESS_NAME, WITNESS_KEY.public_hex)], 1)


def test_info_names_the_witness(client):
    body = client.get("/").get_json()
    assert body["vkey"] == str(witness_vkey(WITNESS_NAME, WITNESS_KEY.public_hex))
    assert body["logs"] == sorted([ORIGIN, "tiplu.test/other"])


def test_the_state_tables_refuse_a_rollback(witness):
    import sqlite3
    log = FakeLog(ORIGIN)
    log.grow(3)
    witness.add_checkpoint(log.request(0))
    conn = sqlite3.connect(witness.db_path)
    with pytest.raises(sqlite3.IntegrityError, match=r"^a witnessed log never shrinks or changes its root at one size$"):
        conn.execute("UPDATE witness_logs SET size = 1")
    with pytest.raises(sqlite3.IntegrityError, match=r"^witness_history is append-only$"):
        conn.execute("DELETE FROM witness_history")
    conn.close()
