"""Issue 29 items 2 and 2b: the operator's `finish` (CLI and API, :mod:`audit.operator.finishing`)
refuses a record every audit would then refuse -- malformed, not the ledger's hand, a move
that does not replay, an outcome or payout that differs from the replay -- in one line with
nothing stored; and it makes the record from the moves alone (outcome, settlement, the
table's carry and hand number computed here), so that the published hand audits clean."""
from __future__ import annotations

import copy

import pytest

from audit.operator.finishing import check_record, finish_hand, first_difference, record_from_moves
from audit.operator.publish import get_published, reveal_and_publish
from audit.auditor.run.report import AuditReport
from audit.operator.sim.play import bot_moves
from audit.auditor.verdict.verify import audit_record
from ledger_testkit import advance, new_ledger, snapshot
from replay.errors import MalformedError


@pytest.fixture
def dealt():
    # a fixed server seed: with a fresh one, about 1 deal in 40 holds four of a kind and ends
    # with no moves (K-20), and the cases below that edit a move would have none to edit
    ledger = new_ledger()
    advance(ledger, "h1", "deal", server_seed=bytes.fromhex("5e" * 32))
    return ledger


def _refused(ledger, hand_id, *words, **kw):
    before = snapshot(ledger)
    with pytest.raises(MalformedError) as exc:
        finish_hand(ledger, hand_id, **kw)
    text = str(exc.value)
    assert "\n" not in text and "nothing stored" in text, text
    for w in words:
        assert w in text, text
    assert snapshot(ledger) == before
    assert ledger.get_hand(hand_id).state.value == "dealt"
    return text


def test_the_readme_stub_is_refused(dealt):
    _refused(dealt, "h1", "format", record={"hand_id": "h1", "moves": []})


def test_the_moves_alone_make_a_record_that_audits_clean(dealt):
    moves = bot_moves(dealt, "h1")
    finish_hand(dealt, "h1", moves=moves)
    reveal_and_publish(dealt, "h1")
    published = get_published(dealt, "h1")
    assert published["moves"] == moves and published["table"]["hand_no"] == 0
    verdict = audit_record(published, public_key=dealt.public_key("acme"))
    assert verdict.ok, verdict.to_json()
    net = [__import__("decimal").Decimal(x) for x in published["outcome"]["payouts"]["nets"]]
    assert sum(net) + __import__("decimal").Decimal(published["outcome"]["payouts"]["commission"]) \
        + __import__("decimal").Decimal(published["outcome"]["payouts"].get("pot_delta", "0")) == 0


def test_a_whole_record_equal_to_the_replay_is_accepted(dealt):
    record = record_from_moves(dealt, "h1", bot_moves(dealt, "h1"))
    check_record(dealt, "h1", record)  # no error
    finish_hand(dealt, "h1", record=record)
    assert dealt.get_hand("h1").state.value == "finished"


@pytest.mark.parametrize("edit,words", [
    (lambda r: r["outcome"]["payouts"]["nets"].__setitem__(0, "99.00"), ["$.outcome.payouts.nets[0]", "99.00"]),
    (lambda r: r["outcome"]["payouts"].__setitem__("commission", "12.34"), ["$.outcome.payouts.commission"]),
    (lambda r: r["outcome"].__setitem__("winner", 3 if r["outcome"]["winner"] != 3 else 2),
     ["$.outcome.winner", "the replay gives"]),
    (lambda r: r["table"]["seats"][1].__setitem__("player", "mallory"), ["$.table.seats[1].player", "the ledger has"]),
    (lambda r: r["fairness"].__setitem__("server_commitment", "00" * 32), ["$.fairness.server_commitment"]),
    (lambda r: r["table"].__setitem__("point_value", "5"), ["$.table.point_value"]),
    (lambda r: r["moves"].reverse(), ["the moves do not replay", "move 0"]),
    (lambda r: r["moves"].pop(), ["the moves end before the hand is over"]),
    (lambda r: r.pop("outcome"), ["$.outcome", "(missing)"]),
    (lambda r: r["fairness"].__setitem__("server_seed", "ab" * 32), ["fairness.server_seed"]),
    (lambda r: r["table"].__setitem__("public_key", "not a key"), ["malformed", "public_key"]),
])
def test_a_record_that_differs_from_the_replay_is_refused_where_it_differs(dealt, edit, words):
    record = record_from_moves(dealt, "h1", bot_moves(dealt, "h1"))
    bad = copy.deepcopy(record)
    edit(bad)
    _refused(dealt, "h1", *words, record=bad)


def test_moves_that_do_not_replay_are_refused_naming_the_move(dealt):
    moves = bot_moves(dealt, "h1")
    first = moves[0]["seat"]
    _refused(dealt, "h1", "move 0", "illegal_move", moves=[{"seat": (first + 1) % 4, "type": "fold"}])
    _refused(dealt, "h1", "moves[1]", moves=[moves[0], "fold"])


def test_a_table_of_hands_finished_from_moves_carries_its_pot_and_audits_clean():
    """Kitti carries the pot from hand to hand: each record's carry and number come from the
    table's previous record, so the table audit finds no carry_mismatch."""
    ledger = new_ledger()
    report = AuditReport()
    for k in range(4):
        hid = f"h{k}"
        advance(ledger, hid, "deal")
        finish_hand(ledger, hid, moves=bot_moves(ledger, hid))
        reveal_and_publish(ledger, hid)
        rec = get_published(ledger, hid)
        assert rec["table"]["hand_no"] == k
        report.add(hid, audit_record(rec, public_key=ledger.public_key("acme")))
    assert report.ok and report.failed == 0 and not report.table_faults(), report.to_json()
    pots = [get_published(ledger, f"h{k}")["table"]["carry"]["pot_before"] for k in range(4)]
    assert pots[0] == 0


def test_first_difference_names_the_first_place():
    assert first_difference({"a": [1, 2]}, {"a": [1, 3]}) == ("$.a[1]", 3, 2)
    assert first_difference({"a": 1}, {"a": 1}) is None
    assert first_difference({"a": 1}, {}) == ("$.a", "(missing)", 1)
    assert first_difference({"a": "1"}, {"a": 1}) == ("$.a", 1, "1")

