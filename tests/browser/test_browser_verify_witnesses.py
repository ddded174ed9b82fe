"""The offline verifier (verify.html and the one-file tiplu-verifier.html) checks a record's
checkpoint against the witnesses a person pins, with a quorum."""
from __future__ import annotations

import json
import pathlib

import pytest

from audit.signing import SigningKey
from audit.tlog.cosignature import cosign, witness_vkey
from audit.tlog.note import parse_note
from log_evidence import KEY, bind, golden
from verifier_page_helpers import shown_deal, verify

pytestmark = pytest.mark.browser
W1, W2 = SigningKey.from_hex("a1" * 32), SigningKey.from_hex("a2" * 32)
V1, V2 = str(witness_vkey("witness.test/v1", W1.public_hex)), str(witness_vkey("witness.test/v2", W2.public_hex))


def cosigned_record(*keys):
    rec = bind(golden())
    text = rec["fairness"]["log_proofs"][0].split("\n\n", 1)[1]
    body = parse_note(text).body
    lines = "".join(str(cosign(k, n, body, 1796126400)) for k, n in keys)
    rec["fairness"]["log_proofs"] = [p.replace(text, text + lines) for p in rec["fairness"]["log_proofs"]]
    return rec


def paste(page, url, record, witnesses, quorum=""):
    page.goto(url)
    page.click("#tab-record")
    page.fill("#record-json", json.dumps(record))
    page.fill("#operator-key", KEY.public_hex)
    page.fill("#witness-keys", "\n".join(witnesses))
    page.fill("#witness-quorum", quorum)


def test_pinned_witnesses_that_cosigned_pass(page, static_server):
    paste(page, static_server + "/verify.html", cosigned_record((W1, "witness.test/v1")), [V1])
    verify(page, expect_state="verified")
    checks = dict(shown_deal(page)["checks"])
    assert checks["log:witnesses"] == "true"
    assert "witness.test/v1: cosigned at 2026-12-01T12:00:00Z" in page.inner_text("[data-check='log:witnesses']")


def test_a_missing_witness_fails_the_quorum_by_name(page, static_server):
    rec = cosigned_record((W1, "witness.test/v1"))
    paste(page, static_server + "/verify.html", rec, [V1, V2])  # quorum: all
    verify(page, expect_state="failed")
    assert shown_deal(page)["reasons"]["log:witnesses"] == "witness_quorum"
    paste(page, static_server + "/verify.html", rec, [V1, V2], "1")
    verify(page, expect_state="verified")


def test_a_line_by_an_impostor_key_under_the_witness_name_does_not_count(page, static_server):
    impostor = SigningKey.from_hex("a3" * 32)
    paste(page, static_server + "/verify.html", cosigned_record((impostor, "witness.test/v1")), [V1])
    verify(page, expect_state="failed")
    assert "witness.test/v1: missing" in page.inner_text("[data-check='log:witnesses']")


def test_the_offline_file_checks_witnesses_too(page):
    # web/static by path: ``from conftest import STATIC`` finds whichever conftest a worker
    # imported first (tests/web's under pytest-xdist), not this folder's
    static = pathlib.Path(__file__).resolve().parents[2] / "web" / "static"
    paste(page, (static / "tiplu-verifier.html").as_uri(), cosigned_record((W1, "witness.test/v1")), [V1, V2], "2")
    verify(page, expect_state="failed")
    assert shown_deal(page)["reasons"]["log:witnesses"] == "witness_quorum"
