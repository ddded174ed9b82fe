"""Names and reasons (issue 29, item 12): confusables and controls are refused where they
enter, in the ledger (so the CLI, the operator API and Python callers alike), never silently
rewritten -- a name is signed as given.  docs/security.md and docs/ledger.md list the rules.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.operator.ledger import Ledger, check_player_name
from audit.operator.ledger.inputs import check_reason
from replay.errors import MalformedError

CONFUSABLE_NAMES = {
    "fullwidth a": "\uff41sha",            # reads as "asha"
    "decomposed accent": "Zoe\u0308",     # "Zoë" spelled with a combining diaeresis
    "strike-through": "a\u0336sha",        # a mark on a Latin letter with no precomposed form
    "enclosing circle": "asha\u20dd",
    "mark with no letter": "\u0301asha",
    "stacked marks": "\u0915" + "\u0941" * 4,
    "cyrillic a": "\u0430sha",             # Cyrillic a among Latin letters
    "greek omicron": "b\u03bfb",
    "ligature": "\ufb01sh",                # "fish" with the fi ligature
    "markup": "<script>x</script>",
    "angle": "a>b",
}
KEPT_NAMES = ["asha", "Zoë", "José María", "Nguyễn", "चन्द्र", "नमस्ते", "क्षत्रिय", "প্রিয়াঙ্কা", "Ελένη",
              "Дмитрий", "李", "O'Neil-2"]
BAD_REASONS = ["evil\u202etxt", "two\nlines", "tab\there", "<script>alert(1)</script>", "\uff52eason", "x" * 201, "",
               "a\u2028b", "\u200b"]


@pytest.fixture
def ledger():
    led = Ledger(":memory:")
    led.new_operator("acme")
    led.new_table("t1", operator="acme", preset="kitti", seats=4)
    yield led
    led.close()


@pytest.mark.parametrize("name", CONFUSABLE_NAMES.values(), ids=list(CONFUSABLE_NAMES))
def test_a_confusable_or_marked_name_is_refused_and_nothing_is_stored(ledger, name):
    with pytest.raises(MalformedError, match=r"^a player name (may not carry the combining mark U\+|may not contain '[<>]' \(markup\)$|may not mix (Cyrillic|Greek) and Latin letters \(they look alike\)$|must be in Unicode NFKC form: )"):
        check_player_name(name)
    with pytest.raises(MalformedError, match=r"^a player name (may not carry the combining mark U\+|may not contain '[<>]' \(markup\)$|may not mix (Cyrillic|Greek) and Latin letters \(they look alike\)$|must be in Unicode NFKC form: )"):
        ledger.new_hand("t1", ["bikash", name, "chandra"], hand_id="h1")
    assert list(ledger.list_hands()) == []


@pytest.mark.parametrize("name", KEPT_NAMES)
def test_names_in_any_script_with_the_marks_it_needs_are_kept(ledger, name):
    assert check_player_name(name) == name
    ledger.new_hand("t1", ["bikash", name, "chandra"], hand_id="h1")
    assert ledger.get_hand("h1").seats[1].player == name


def test_two_names_that_differ_only_in_case_cannot_sit_at_one_hand(ledger):
    with pytest.raises(MalformedError, match="distinct"):
        ledger.new_hand("t1", ["asha", "Asha", "chandra"], hand_id="h1")


@pytest.mark.parametrize("reason", BAD_REASONS, ids=[repr(r[:12]) for r in BAD_REASONS])
def test_a_cancel_reason_with_controls_bidi_or_markup_is_refused_and_the_hand_is_not_cancelled(ledger, reason):
    with pytest.raises(MalformedError, match=r"^a cancel reason (is a short text \(1-200 characters\)$|may not contain |must be in Unicode NFKC form: )"):
        check_reason(reason)
    ledger.new_hand("t1", ["asha", "bikash", "chandra"], hand_id="h1")
    ledger.commit("h1")
    with pytest.raises(MalformedError, match=r"^a cancel reason (is a short text \(1-200 characters\)$|may not contain |must be in Unicode NFKC form: )"):
        ledger.cancel("h1", reason=reason)
    assert ledger.get_hand("h1").state.value == "committed"
    ledger.cancel("h1", reason="a seat left the table")  # a plain reason is kept
    assert ledger.get_hand("h1").state.value == "cancelled"


def test_the_cli_refuses_a_fullwidth_name_in_one_line(tmp_path):
    db = str(tmp_path / "t.db")
    run = CliRunner().invoke
    assert run(main, ["operator", "new", "acme", "--db", db]).exit_code == 0
    assert run(main, ["table", "new", "t1", "--operator", "acme", "--preset", "kitti", "--seats", "3", "--db", db]).exit_code == 0
    res = run(main, ["hand", "new", "--table", "t1", "--player", "\uff41sha", "--player", "bikash", "--player", "chandra",
                     "--db", db])
    assert res.exit_code != 0 and len(res.output.strip().splitlines()) == 1 and "NFKC" in res.output and "Traceback" not in res.output, res.output


def test_names_and_reasons_are_refused_over_the_operator_api(make_app, site):
    client = make_app().test_client()
    headers = {"Authorization": f"Bearer {site.operator_token}"}
    for name in ("\uff41sha", "a\u0336sha", "\u0430sha", "<b>x</b>"):
        resp = client.post("/api/v1/operator/hands", headers=headers,
                           json={"table_id": "t1", "players": ["bikash", name, "chandra"]})
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "malformed", resp.get_json()
    hid = site.hands["committed"]
    for reason in ("evil\u202etxt", "two\nlines", "<script>x</script>"):
        resp = client.post(f"/api/v1/operator/hands/{hid}/cancel", headers=headers, json={"reason": reason})
        assert resp.status_code == 400 and resp.get_json()["error"]["code"] == "malformed", resp.get_json()
    assert client.get(f"/api/v1/hands/{hid}").get_json()["state"] == "committed"
