"""Every illegal call is a typed error and leaves every stored row exactly as it was."""
from __future__ import annotations

import re

import pytest

from audit.errors import LedgerStateError, NotFoundError, SignatureError
from audit.operator.ledger import HandState
from audit.signing import SigningKey
from replay.errors import CommitmentMismatchError, MalformedError
from replay.fairness import commit_player_seed

from ledger_testkit import SEEDS, advance, new_ledger, snapshot

C = lambda seat, seed=None: commit_player_seed("h1", seat, seed or SEEDS[seat])  # noqa: E731

# (the hand's last completed step, the illegal call, the typed error it must raise, its exact words)
ILLEGAL = [
    # a seed after the deal (rule R-21: seeds come before any card is dealt)
    ("deal", lambda L: L.seed_commit("h1", 0, C(0)), LedgerStateError, "hand 'h1' is dealt: cannot seed-commit (seat seeds are committed after the server commitment and before any reveal)"),
    ("deal", lambda L: L.seed_reveal("h1", 0, SEEDS[0]), LedgerStateError, "hand 'h1' is dealt: cannot seed-reveal (a seat reveals its seed only after every seat has committed, and before the deal)"),
    # a reveal before the finish (rule R-22: the seed is revealed after the hand)
    ("deal", lambda L: L.reveal("h1"), LedgerStateError, "hand 'h1' is dealt: cannot reveal (the server seed is revealed once, after the hand is finished)"),
    ("seed_reveal", lambda L: L.reveal("h1"), LedgerStateError, "hand 'h1' is seeds-revealed: cannot reveal (the server seed is revealed once, after the hand is finished)"),
    ("new", lambda L: L.reveal("h1"), LedgerStateError, "hand 'h1' is created: cannot reveal (the server seed is revealed once, after the hand is finished)"),
    # a second reveal
    ("reveal", lambda L: L.reveal("h1"), LedgerStateError, "hand 'h1' is revealed: cannot reveal (the server seed is revealed once, after the hand is finished)"),
    # a seat revealing before all seats committed
    ("commit", lambda L: L.seed_reveal("h1", 0, SEEDS[0]), LedgerStateError, "hand 'h1' is committed: cannot seed-reveal (a seat reveals its seed only after every seat has committed, and before the deal)"),
    # a seat committing twice (once all are in, and while others are still missing: below)
    ("seed_commit", lambda L: L.seed_commit("h1", 1, C(1)), LedgerStateError, "hand 'h1' is seeds-committed: cannot seed-commit (seat seeds are committed after the server commitment and before any reveal)"),
    # a seed revealed twice
    ("seed_reveal", lambda L: L.seed_reveal("h1", 1, SEEDS[1]), LedgerStateError, "hand 'h1' is seeds-revealed: cannot seed-reveal (a seat reveals its seed only after every seat has committed, and before the deal)"),
    # a seat seed that does not match its commitment
    ("seed_commit", lambda L: L.seed_reveal("h1", 2, SEEDS[3]), CommitmentMismatchError, "seat 2's revealed seed does not match its commitment"),
    # seat commitments before the server's commitment (rule R-21)
    ("new", lambda L: L.seed_commit("h1", 0, C(0)), LedgerStateError, "hand 'h1' is created: cannot seed-commit (seat seeds are committed after the server commitment and before any reveal)"),
    # a second server commitment
    ("commit", lambda L: L.commit("h1"), LedgerStateError, "hand 'h1' is committed: cannot commit (the server seed is committed once, right after the hand is created)"),
    # dealing before every seat revealed, twice, or after cancelling
    ("seed_commit", lambda L: L.deal("h1"), LedgerStateError, "hand 'h1' is seeds-committed: cannot deal (the deal needs every seat's seed revealed)"),
    ("deal", lambda L: L.deal("h1"), LedgerStateError, "hand 'h1' is dealt: cannot deal (the deal needs every seat's seed revealed)"),
    # finishing before the deal, twice, or with a record of another hand / malformed
    ("seed_reveal", lambda L: L.finish("h1", {"hand_id": "h1"}), LedgerStateError, "hand 'h1' is seeds-revealed: cannot finish (a hand record is attached once, after the deal)"),
    ("finish", lambda L: L.finish("h1", {"hand_id": "h1"}), LedgerStateError, "hand 'h1' is finished: cannot finish (a hand record is attached once, after the deal)"),
    ("deal", lambda L: L.finish("h1", {"hand_id": "h2"}), MalformedError, "hand_id: the record's hand_id must be 'h1'"),
    ("deal", lambda L: L.finish("h1", {"hand_id": "h1", "x": 1.5}), MalformedError, "$.x: floats are not allowed in canonical JSON; use a decimal string"),
    ("deal", lambda L: L.finish("h1", ["not", "an", "object"]), MalformedError, "a hand record must be a JSON object"),
    # cancelling after every seat revealed, after the deal, or twice
    ("seed_reveal", lambda L: L.cancel("h1"), LedgerStateError, "hand 'h1' is seeds-revealed: cannot cancel (a hand can be cancelled only before the deal, while a seat has not revealed)"),
    ("deal", lambda L: L.cancel("h1"), LedgerStateError, "hand 'h1' is dealt: cannot cancel (a hand can be cancelled only before the deal, while a seat has not revealed)"),
    # unknown hand, wrong seat, malformed input
    ("seed_reveal", lambda L: L.deal("nope"), NotFoundError, "no hand 'nope'"),
    ("commit", lambda L: L.seed_commit("nope", 0, C(0)), NotFoundError, "no hand 'nope'"),
    ("commit", lambda L: L.seed_commit("h1", 4, C(0)), NotFoundError, "hand 'h1' has no seat 4 (seats 0..3)"),
    ("commit", lambda L: L.seed_commit("h1", -1, C(0)), NotFoundError, "hand 'h1' has no seat -1 (seats 0..3)"),
    ("seed_commit", lambda L: L.seed_reveal("h1", 7, SEEDS[0]), NotFoundError, "hand 'h1' has no seat 7 (seats 0..3)"),
    ("commit", lambda L: L.seed_commit("h1", "0", C(0)), MalformedError, "a seat is a whole number (0 = first seat)"),
    ("commit", lambda L: L.seed_commit("h1", 0, "zz"), MalformedError, "seat seed commitment must be lower-case hex with an even number of digits"),
    ("commit", lambda L: L.seed_commit("h1", 0, C(0)[:-2]), MalformedError, "seat seed commitment must be exactly 32 bytes (64 hex digits), got 31"),
    ("seed_commit", lambda L: L.seed_reveal("h1", 0, b"short"), MalformedError, "player seed must be at least 16 bytes, got 5"),
    ("commit", lambda L: L.commit("bad id!"), MalformedError, "hand id must be 1-64 characters of A-Z a-z 0-9 . _ : - (starting with a letter or digit)"),
    ("new", lambda L: L.new_hand("t1", ["a", "b"], hand_id="h1"), LedgerStateError, "hand 'h1' already exists"),
    ("new", lambda L: L.new_hand("t1", ["a", "a"], hand_id="h9"), MalformedError, "player names at one hand must be distinct (ignoring case)"),
    ("new", lambda L: L.new_hand("t1", ["a"], hand_id="h9"), MalformedError, "table 't1' (kitti, 4 seats) cannot seat 1 players"),
    ("new", lambda L: L.new_hand("t1", ["a", "b"], dealer=2, hand_id="h9"), MalformedError, "the dealer must be one of seats 0..1"),
    ("new", lambda L: L.new_hand("t9", ["a", "b"], hand_id="h9"), NotFoundError, "no table 't9'"),
    ("new", lambda L: L.new_table("t2", operator="acme", preset="kitti", point_value="0.001"), MalformedError, "point_value has more than two decimal places"),
    ("new", lambda L: L.new_table("t2", operator="nobody", preset="kitti"), NotFoundError, "no operator 'nobody'"),
    ("new", lambda L: L.new_table("t1", operator="acme", preset="kitti"), LedgerStateError, "table 't1' already exists"),
    ("new", lambda L: L.new_operator("acme"), LedgerStateError, "operator 'acme' already exists"),
]


@pytest.mark.parametrize("done, call, error, words", ILLEGAL,
                         ids=[f"{i:02d}-{e.__name__}" for i, (_, _, e, _) in enumerate(ILLEGAL)])
def test_an_illegal_call_raises_its_typed_error_and_changes_nothing(done, call, error, words):
    ledger = new_ledger()
    advance(ledger, "h1", done)
    before = snapshot(ledger)
    with pytest.raises(error, match=f"^{re.escape(words)}$"):
        call(ledger)
    assert snapshot(ledger) == before


def test_a_seat_cannot_commit_twice_while_others_are_still_missing():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    ledger.seed_commit("h1", 0, C(0))
    before = snapshot(ledger)
    with pytest.raises(LedgerStateError, match="already committed"):
        ledger.seed_commit("h1", 0, C(0, b"\x99" * 16))
    assert snapshot(ledger) == before


def test_after_a_cancel_nothing_more_happens():
    ledger = new_ledger()
    advance(ledger, "h1", "seed_commit")
    ledger.cancel("h1")
    before = snapshot(ledger)
    for call in (lambda: ledger.seed_reveal("h1", 0, SEEDS[0]), lambda: ledger.deal("h1"),
                 lambda: ledger.reveal("h1"), lambda: ledger.cancel("h1")):
        with pytest.raises(LedgerStateError, match="cancelled"):
            call()
    assert snapshot(ledger) == before


def test_a_server_seed_that_no_longer_matches_its_commitment_is_never_revealed():
    """A tampered private seed (triggers bypassed by hand) is caught at the reveal."""
    ledger = new_ledger()
    advance(ledger, "h1", "finish")
    store = ledger._secrets().ensure()
    store.execute("DROP TRIGGER server_seeds_no_update")
    store.execute("UPDATE server_seeds SET seed = ? WHERE hand_id = 'h1'", ["00" * 32])
    before = snapshot(ledger)
    with pytest.raises(CommitmentMismatchError, match=r"^the revealed server seed does not match its commitment$"):
        ledger.reveal("h1")
    assert snapshot(ledger) == before
    assert ledger.get_hand("h1").state is HandState.FINISHED


def test_stored_statements_do_not_verify_under_another_operator_key():
    ledger = new_ledger()
    other = ledger.new_operator("rival")
    advance(ledger, "h1", "reveal")
    before = snapshot(ledger)
    with pytest.raises(SignatureError, match=r"^statement is signed by another key than the operator's$"):
        ledger.verify_hand("h1", public_key=other.public_key)
    for st in ledger.statements("h1"):
        with pytest.raises(SignatureError, match=r"^statement is signed by another key than the operator's$"):
            st.verify(other.public_key)
    assert snapshot(ledger) == before


def test_a_statement_re_signed_by_a_foreign_key_is_caught():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    forged = SigningKey.generate().sign(next(ledger.statements("h1", since_seq=0)).statement)
    from audit.signing import verify_statement

    with pytest.raises(SignatureError, match=r"^statement is signed by another key than the operator's$"):
        verify_statement(forged, ledger.public_key("acme"))
    # and a row smuggled into the log with a foreign key fails the hand's verification
    ledger.db.execute("INSERT INTO statements (hand_id, kind, statement, key, sig, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                      ["h1", "commitment", __import__("json").dumps(forged["statement"]), forged["key"], forged["sig"], "x"])
    with pytest.raises(SignatureError, match=r"^statement is signed by another key than the operator's$"):
        ledger.verify_hand("h1")


def test_a_passed_in_key_that_is_not_the_operators_is_not_used():
    from audit.errors import AuthError
    from audit.operator.ledger import Ledger

    own = SigningKey.generate()
    ledger = Ledger(":memory:", keys=[SigningKey.generate()])
    ledger.new_operator("acme", key=own, store_key=False)
    ledger.new_table("t1", operator="acme", preset="kitti", seats=4)
    ledger2 = Ledger(ledger.db, keys=[SigningKey.generate()])  # same file, the wrong outside key
    before = snapshot(ledger2)
    with pytest.raises(AuthError, match=r"^operator 'acme' keeps its signing key outside the ledger: pass it in$"):
        ledger2.new_hand("t1", ["a", "b"], hand_id="h1")
    assert snapshot(ledger2) == before
