"""A hand's whole lifecycle in the ledger, and what the published statements prove."""
from __future__ import annotations

import pytest

from audit.operator.ledger import HandState, KINDS
from audit.signing import verify_statement
from replay.fairness import commit_player_seed, commit_server_seed, hand_randomness, verify_server_seed
from replay.rulesets import Ruleset, resolve

from ledger_testkit import PLAYERS, SEEDS, advance, new_ledger, private_seed


def test_states_follow_the_lifecycle_in_order():
    ledger = new_ledger()
    expected = {"new": "created", "commit": "committed", "seed_commit": "seeds-committed",
                "seed_reveal": "seeds-revealed", "deal": "dealt", "finish": "finished", "reveal": "revealed"}
    for i, (step, state) in enumerate(expected.items()):
        advance(ledger, f"h{i}", step)
        assert ledger.get_hand(f"h{i}").state is HandState(state)


def test_a_seat_commitment_is_visible_seat_by_seat_until_all_are_in():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    ledger.seed_commit("h1", 2, commit_player_seed("h1", 2, SEEDS[2]))
    view = ledger.get_hand("h1")
    assert view.state is HandState.COMMITTED
    assert [s.commitment is not None for s in view.seats] == [False, False, True, False]


def test_every_statement_verifies_with_the_operator_public_key_alone():
    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    pub = ledger.public_key("acme")
    kinds = []
    for st in ledger.statements("h1"):
        stmt = verify_statement(st.to_json(), pub)  # the exported row verifies on its own
        assert stmt["type"] == "tiplu.statement/2" and stmt["hand_id"] == "h1" and stmt["kind"] == st.kind
        assert stmt["time"].endswith("Z")
        kinds.append(st.kind)
    assert kinds == ["hand", "commitment"] + ["seat-receipt"] * 4 + ["seat-reveal"] * 4 + ["deal", "record", "reveal"]
    assert set(kinds) <= set(KINDS)
    assert ledger.verify_hand("h1") is HandState.REVEALED


def test_statement_times_come_from_the_injected_clock():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    times = [st.statement["time"] for st in ledger.statements("h1")]
    # the clock ticks once per reading: operator, table, then hand and commitment
    assert times == ["2026-11-30T14:00:02.000Z", "2026-11-30T14:00:03.000Z"]


def test_each_player_gets_a_signed_receipt_of_their_commitment():  # rule R-21
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    commitment = commit_player_seed("h1", 3, SEEDS[3])
    receipt = ledger.seed_commit("h1", 3, commitment)
    stmt = verify_statement(receipt, ledger.public_key("acme"))
    assert (stmt["kind"], stmt["seat"], stmt["player"], stmt["commitment"]) == ("seat-receipt", 3, "dipa", commitment)


def test_server_commitment_precedes_every_player_seed_and_binds_the_ruleset():  # rules R-21, D-1
    ledger = new_ledger()
    advance(ledger, "h1", "seed_commit")
    rows = list(ledger.statements("h1"))
    commitment = next(st for st in rows if st.kind == "commitment")
    receipts = [st for st in rows if st.kind == "seat-receipt"]
    assert all(commitment.seq < r.seq for r in receipts) and len(receipts) == len(PLAYERS)
    assert commitment.statement["ruleset_hash"] == resolve("kitti").hash
    hand_stmt = next(st for st in rows if st.kind == "hand").statement
    assert Ruleset.from_json(hand_stmt["ruleset"]).hash == commitment.statement["ruleset_hash"]


def test_reveal_after_the_deal_lets_anyone_replay_the_deal_from_published_statements():  # rules R-22, D-3
    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    by_kind = {st.kind: st.statement for st in ledger.statements("h1")}
    seed = bytes.fromhex(by_kind["reveal"]["server_seed"])
    verify_server_seed(seed, by_kind["commitment"]["server_seed_commitment"])
    assert by_kind["deal"]["player_seeds"] == [s.hex() for s in SEEDS]
    rs = Ruleset.from_json(by_kind["hand"]["ruleset"])
    published = hand_randomness(seed, "h1", rs, [bytes.fromhex(s) for s in by_kind["deal"]["player_seeds"]])
    assert published.deal(by_kind["deal"]["dealer"]) == ledger.operator_deal("h1")
    # later random events (D-3) come from the same published inputs
    private = hand_randomness(bytes.fromhex(private_seed(ledger, "h1")), "h1", rs, SEEDS)
    assert published.tiplu_position(40) == private.tiplu_position(40)


def test_the_server_seed_is_fresh_per_hand_and_matches_its_commitment():
    ledger = new_ledger()
    advance(ledger, "h1", "commit")
    advance(ledger, "h2", "commit")
    s1, s2 = private_seed(ledger, "h1"), private_seed(ledger, "h2")
    assert s1 != s2 and len(s1) == 64
    assert ledger.get_hand("h1").server_seed_commitment == commit_server_seed(bytes.fromhex(s1))


def test_cancel_names_the_seats_that_never_revealed_and_reveals_the_unused_seed():
    ledger = new_ledger()
    advance(ledger, "h1", "seed_commit")
    ledger.seed_reveal("h1", 0, SEEDS[0])
    ledger.seed_reveal("h1", 2, SEEDS[2])
    signed = ledger.cancel("h1")
    stmt = verify_statement(signed, ledger.public_key("acme"))
    assert stmt["kind"] == "cancel" and stmt["missing_seats"] == [1, 3]
    verify_server_seed(bytes.fromhex(stmt["server_seed"]), stmt["server_seed_commitment"])
    view = ledger.get_hand("h1")
    assert view.state is HandState.CANCELLED and view.missing_seats == (1, 3)
    assert ledger.verify_hand("h1") is HandState.CANCELLED


def test_cancel_before_the_commitment_has_no_seed_to_reveal():
    ledger = new_ledger()
    advance(ledger, "h1", "new")
    stmt = ledger.cancel("h1", reason="table closed")["statement"]
    assert stmt["missing_seats"] == [0, 1, 2, 3] and stmt["server_seed"] is None and stmt["reason"] == "table closed"


def test_reads_list_filter_and_stream():
    ledger = new_ledger()
    advance(ledger, "h1", "reveal")
    advance(ledger, "h2", "deal")
    advance(ledger, "h3", "finish")
    assert [h.id for h in ledger.list_hands()] == ["h1", "h2", "h3"]
    assert [h.id for h in ledger.list_hands(state="dealt")] == ["h2"]
    assert [h.id for h in ledger.list_hands(table_id="t1", limit=2)] == ["h1", "h2"]
    assert [(r.hand_id, r.record) for r in ledger.iter_records()] == [("h1", {"hand_id": "h1", "moves": []}),
                                                                      ("h3", {"hand_id": "h3", "moves": []})]
    seqs = [st.seq for st in ledger.statements()]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    tail = list(ledger.statements(since_seq=seqs[-3]))
    assert [st.seq for st in tail] == seqs[-2:]


def test_the_record_hook_can_refuse_a_record_and_sees_the_hand():
    from replay.errors import MalformedError

    seen = []

    def strict(record, hand):
        seen.append(hand.state)
        if "moves" not in record:
            raise MalformedError("no moves", location="moves")

    ledger = new_ledger(validate_record=strict)
    advance(ledger, "h1", "deal")
    with pytest.raises(MalformedError, match=r"^moves: no moves$"):
        ledger.finish("h1", {"hand_id": "h1"})
    ledger.finish("h1", {"hand_id": "h1", "moves": ["x"]})
    assert seen == [HandState.DEALT, HandState.DEALT]
    assert ledger.get_hand("h1").state is HandState.FINISHED


def test_table_money_is_kept_as_decimal_strings_never_floats():  # rule D-2
    from replay.errors import MalformedError

    ledger = new_ledger()
    for bad in (0.25, "0.255", "-1", "abc"):
        with pytest.raises(MalformedError, match=r'^point_value (has more than two decimal places|must be a decimal string such as "0\.25"|must not be negative \(or carry a sign\))'):
            ledger.new_table("t2", operator="acme", preset="kitti", point_value=bad)
    ledger.new_table("t0", operator="acme", preset="kitti", point_value="0.25", commission_pct="0")  # may be 0
    for pct in ("100.01", "100"):  # below 100 (docs/records.md, "Table money")
        with pytest.raises(MalformedError, match="commission_pct"):
            ledger.new_table("t3", operator="acme", preset="kitti", commission_pct=pct)
    table = ledger.table("t1")
    assert (table.point_value, table.commission_pct, table.seats) == ("0.25", "5", 4)
    advance(ledger, "h1", "new")
    stmt = next(ledger.statements("h1")).statement
    assert (stmt["point_value"], stmt["commission_pct"]) == ("0.25", "5")
