"""Every illegal call is a typed error and leaves every stored row exactly as it was."""
from __future__ import annotations

import pytest

from audit.errors import LedgerStateError, NotFoundError, SignatureError
from audit.operator.ledger import HandState
from audit.signing import SigningKey
from replay.errors import CommitmentMismatchError, MalformedError
from replay.fairness import commit_player_seed

from ledger_testkit import SEEDS, advance, new_ledger, snapshot

C = lambda seat, seed=None: commit_player_seed("h1", seat, seed or SEEDS[seat])  # noqa: E731

# (the hand's last completed step, the illegal call, the typed error it must raise)
ILLEGAL = [
    # a seed after the deal (rule R-21: seeds come before any card is dealt)
    ("deal", lambda L: L.seed_commit("h1", 0, C(0)), LedgerStateError),
    ("deal", lambda L: L.seed_reveal("h1", 0, SEEDS[0]), LedgerStateError),
    # a reveal before the finish (rule R-22: the seed is revealed after the hand)
    ("deal", lambda L: L.reveal("h1"), LedgerStateError),
    ("seed_reveal", lambda L: L.reveal("h1"), LedgerStateError),
    ("new", lambda L: L.reveal("h1"), LedgerStateError),
    # a second reveal
    ("reveal", lambda L: L.reveal("h1"), LedgerStateError),
    # a seat revealing before all seats committed
    ("commit", lambda L: L.seed_reveal("h1", 0, SEEDS[0]), LedgerStateError),
    # a seat committing twice (once all are in, and while others are still missing: below)
    ("seed_commit", lambda L: L.seed_commit("h1", 1, C(1)), LedgerStateError),
    # a seed revealed twice
    ("seed_reveal", lambda L: L.seed_reveal("h1", 1, SEEDS[1]), LedgerStateError),
    # a seat seed that does not match its commitment
    ("seed_commit", lambda L: L.seed_reveal("h1", 2, SEEDS[3]), CommitmentMismatchError),
    # seat commitments before the server's commitment (rule R-21)
    ("new", lambda L: L.seed_commit("h1", 0, C(0)), LedgerStateError),
    # a second server commitment
    ("commit", lambda L: L.commit("h1"), LedgerStateError),
    # dealing before every seat revealed, twice, or after cancelling
    ("seed_commit", lambda L: L.deal("h1"), LedgerStateError),
    ("deal", lambda L: L.deal("h1"), LedgerStateError),
    # finishing before the deal, twice, or with a record of another hand / malformed
    ("seed_reveal", lambda L: L.finish("h1", {"hand_id": "h1"}), LedgerStateError),
    ("finish", lambda L: L.finish("h1", {"hand_id": "h1"}), LedgerStateError),
    ("deal", lambda L: L.finish("h1", {"hand_id": "h2"}), MalformedError),
    ("deal", lambda L: L.finish("h1", {"hand_id": "h1", "x": 1.5}), MalformedError),
    ("deal", lambda L: L.finish("h1", ["not", "an", "object"]), MalformedError),
    # cancelling after every seat revealed, after the deal, or twice
    ("seed_reveal", lambda L: L.cancel("h1"), LedgerStateError),
    ("deal", lambda L: L.cancel("h1"), LedgerStateError),
    # unknown hand, wrong seat, malformed input
    ("seed_reveal", lambda L: L.deal("nope"), NotFoundError),
    ("commit", lambda L: L.seed_commit("nope", 0, C(0)), NotFoundError),
    ("commit", lambda L: L.seed_commit("h1", 4, C(0)), NotFoundError),
    ("commit", lambda L: L.seed_commit("h1", -1, C(0)), NotFoundError),
    ("seed_commit", lambda L: L.seed_reveal("h1", 7, SEEDS[0]), NotFoundError),
    ("commit", lambda L: L.seed_commit("h1", "0", C(0)), MalformedError),
    ("commit", lambda L: L.seed_commit("h1", 0, "zz"), MalformedError),
    ("commit", lambda L: L.seed_commit("h1", 0, C(0)[:-2]), MalformedError),
    ("seed_commit", lambda L: L.seed_reveal("h1", 0, b"short"), MalformedError),
    ("commit", lambda L: L.commit("bad id!"), MalformedError),
    ("new", lambda L: L.new_hand("t1", ["a", "b"], hand_id="h1"), LedgerStateError),
    ("new", lambda L: L.new_hand("t1", ["a", "a"], hand_id="h9"), MalformedError),
    ("new", lambda L: L.new_hand("t1", ["a"], hand_id="h9"), MalformedError),
    ("new", lambda L: L.new_hand("t1", ["a", "b"], dealer=2, hand_id="h9"), MalformedError),
    ("new", lambda L: L.new_hand("t9", ["a", "b"], hand_id="h9"), NotFoundError),
    ("new", lambda L: L.new_table("t2", operator="acme", preset="kitti", point_value="0.001"), MalformedError),
    ("new", lambda L: L.new_table("t2", operator="nobody", preset="kitti"), NotFoundError),
    ("new", lambda L: L.new_table("t1", operator="acme", preset="kitti"), LedgerStateError),
    ("new", lambda L: L.new_operator("acme"), LedgerStateError),
]


@pytest.mark.parametrize("done, call, error", ILLEGAL, ids=[f"{i:02d}-{e.__name__}" for i, (_, _, e) in enumerate(ILLEGAL)])
def test_an_illegal_call_raises_its_typed_error_and_changes_nothing(done, call, error):
    ledger = new_ledger()
    advance(ledger, "h1", done)
    before = snapshot(ledger)
    with pytest.raises(error):
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
    with pytest.raises(CommitmentMismatchError):
        ledger.reveal("h1")
    assert snapshot(ledger) == before
    assert ledger.get_hand("h1").state is HandState.FINISHED


def test_stored_statements_do_not_verify_under_another_operator_key():
    ledger = new_ledger()
    other = ledger.new_operator("rival")
    advance(ledger, "h1", "reveal")
    before = snapshot(ledger)
    with pytest.raises(SignatureError):
        ledger.verify_hand("h1", public_key=other.public_key)
    for st in ledger.statements("h1"):
        with pytest.raises(SignatureError):
            st.verify(other.public_key)
    assert snapshot(ledger) == before


def test_a_statement_re_signed_by_a_foreign_key_is_caught():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    forged = SigningKey.generate().sign(next(ledger.statements("h1", since_seq=0)).statement)
    from audit.signing import verify_statement

    with pytest.raises(SignatureError):
        verify_statement(forged, ledger.public_key("acme"))
    # and a row smuggled into the log with a foreign key fails the hand's verification
    ledger.db.execute("INSERT INTO statements (hand_id, kind, statement, key, sig, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                      ["h1", "commitment", __import__("json").dumps(forged["statement"]), forged["key"], forged["sig"], "x"])
    with pytest.raises(SignatureError):
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
    with pytest.raises(AuthError):
        ledger2.new_hand("t1", ["a", "b"], hand_id="h1")
    assert snapshot(ledger2) == before
