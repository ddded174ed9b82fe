"""Issue 27, Build 1 and 2: what was played, the terms and the names are bound, and the three
attacks of the issue's table are performed and caught wherever the evidence is.

* "publish other moves than were played": the seats' move receipts prove the record forged
  (``tiplu receipt verify --moves``, exit 1); a record whose moves are not the ones its
  logged record statement binds is ``statement_mismatch`` in every audit.
* "a fork that changes the stake and commission": the operator rebuilds the hand at 1 HT/point
  and 20 % with the same seeds and times; every seat's receipt (which holds the signed hand
  statement) contradicts the fork, one line per term.
* "another name in the seat": a receipt that seats someone else is refused before the
  reveal; a record that seats someone else contradicts the receipt.
"""
from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.errors import LedgerStateError
from audit.operator.ledger import Ledger
from audit.auditor.verdict.move_receipts import compare_moves, keep, load_move_receipts, verify_move_receipt
from audit.operator.publish import build_record, published_record
from audit.auditor.verdict.receipt_check import compare
from audit.operator.receipts import ReceiptError, check_before_reveal, receipt
from audit.signing import SigningKey
from audit.operator.sim.resign import bind_record
from audit.operator.sim.tables import simulate_table
from audit.auditor.verdict.trust import TrustAnchor
from audit.auditor.verdict.verify import audit_record
from replay.fairness import commit_player_seed, hand_randomness
from replay.faults import Reason
from replay.movechain import chain_head, chain_heads
from replay.rulesets import resolve

KEY = SigningKey.from_hex("44" * 32)
T0 = datetime(2026, 11, 30, 14, 0, tzinfo=timezone.utc)
SERVER = bytes([7]) * 32
NAMES = ["asha", "bikash", "chandra"]


def seed(s: int) -> bytes:
    return bytes([s + 1]) * 16


def table(ledger: Ledger, *, point_value: str = "0.25", commission_pct: str = "5") -> None:
    ledger.new_operator("op", key=KEY, now=T0)
    ledger.new_table("t", operator="op", preset="kitti", seats=3, point_value=point_value,
                     commission_pct=commission_pct, now=T0)


def up_to_deal(ledger: Ledger, names=NAMES) -> list[dict]:
    """A kitti hand of three seats through the ledger, dealt; the seats' receipts."""
    ledger.new_hand("t", names, hand_id="h1", now=T0)
    ledger.commit("h1", now=T0, server_seed=SERVER)
    receipts = [receipt(ledger, ledger.seed_commit("h1", s, commit_player_seed("h1", s, seed(s)), now=T0),
                        key=KEY, now=T0) for s in range(3)]
    for s in range(3):
        ledger.seed_reveal("h1", s, seed(s), now=T0)
    ledger.deal("h1", now=T0)
    return receipts


def played_moves(ledger: Ledger) -> list[dict]:
    from audit.operator.sim.play import play_hand
    from replay.stream import Stream

    ruleset = resolve("kitti")
    rnd = hand_randomness(SERVER, "h1", ruleset, [seed(s) for s in range(3)])
    played = play_hand(rnd, dealer=0, carry={"pot_before": 0}, rng=Stream(bytes(32), bytes(32), "bots"))
    return played


def finish(ledger: Ledger, played, moves: list[dict]) -> dict:
    from replay.settlement import settle

    settlement = settle(played.outcome.net_points, point_value=ledger.table("t").point_value,
                        commission_pct=ledger.table("t").commission_pct,
                        pot_delta_points=played.outcome.pot_delta_points)
    record = build_record(ledger, "h1", moves=moves, outcome=played.outcome, settlement=settlement,
                          carry={"pot_before": 0})
    ledger.finish("h1", record, now=T0 + timedelta(minutes=9))
    ledger.reveal("h1", now=T0 + timedelta(minutes=10))
    return published_record(ledger, "h1", now=T0 + timedelta(minutes=10))


@pytest.fixture
def honest():
    """An honest hand played move by move: (ledger, seat receipts, move receipts, record)."""
    ledger = Ledger(":memory:")
    table(ledger)
    receipts = up_to_deal(ledger)
    played = played_moves(ledger)
    moves, move_receipts = [], []
    for i, m in enumerate(played.moves):
        t = T0 + timedelta(minutes=1, seconds=i)
        move_receipts.append(ledger.play_move("h1", m, now=t))
        moves.append({**m, "time": move_receipts[-1]["statement"]["time"]})
    return ledger, receipts, move_receipts, finish(ledger, played, moves), played


# -- the move chain and the ledger ---------------------------------------------------------

def test_each_move_is_answered_by_a_signed_head_of_the_chain(honest):
    ledger, _, move_receipts, record, _ = honest
    heads = chain_heads("h1", record["fairness"]["server_commitment"], record["moves"])
    assert len(move_receipts) == len(record["moves"]) == len(heads) > 0
    for n, signed in enumerate(move_receipts, start=1):
        st = verify_move_receipt(signed, KEY.public_hex, hand_id="h1")
        assert st["n_moves"] == n and st["head"] == heads[n - 1] and st["type"] == "tiplu.move-receipt/1"
        assert "kind" not in st  # never a statement of the log
    rec_st = next(s["statement"] for s in record["fairness"]["statements"] if s["statement"]["kind"] == "record")
    assert (rec_st["moves_head"], rec_st["n_moves"]) == (heads[-1], len(heads))
    # the receipts are no leaves: the hand's log holds its seven kinds of statement, one record
    kinds = [s.kind for s in ledger.statements("h1")]
    assert len(kinds) == 1 + 1 + 3 + 3 + 1 + 1 + 1
    # asked again, the very receipts that were given (Ed25519 is deterministic)
    assert ledger.move_receipts("h1") == move_receipts
    assert ledger.move_receipts("h1", since=len(heads) - 1) == move_receipts[-1:]
    assert audit_record(record, trust=TrustAnchor(KEY.public_hex, "pinned"), check_signatures=True).ok


def test_the_chain_is_the_documented_bytes():
    # docs/fairness.md "Moves as played", by hand with hashlib
    import hashlib

    c = "ab" * 32
    h0 = hashlib.sha256(b"tiplu.moves/1\n" + b'{"hand_id":"h1","server_seed_commitment":"' + c.encode() + b'"}').digest()
    move = {"type": "discard", "seat": 1, "card": "AS", "time": "2026-11-30T14:00:00.000Z"}
    m = b'{"card":"AS","seat":1,"time":"2026-11-30T14:00:00.000Z","type":"discard"}'
    h1 = hashlib.sha256(h0 + hashlib.sha256(m).digest()).hexdigest()
    assert chain_head("h1", c, [move]) == (h1, 1)
    assert chain_head("h1", c, []) == (h0.hex(), 0)


def test_finish_refuses_a_record_with_other_moves_than_were_played():
    ledger = Ledger(":memory:")
    table(ledger)
    up_to_deal(ledger)
    played = played_moves(ledger)
    moves = [{**m, "time": "2026-11-30T14:01:00.000Z"} for m in played.moves]
    for m in moves:
        ledger.play_move("h1", m, now=T0)
    for forged in (moves[:-1], moves[::-1], [{**moves[0], "seat": (moves[0]["seat"] + 1) % 3}] + moves[1:]):
        if forged == moves:
            continue
        with pytest.raises(LedgerStateError, match="exactly as played"):
            finish(ledger, played, forged)
    assert ledger.get_hand("h1").state.value == "dealt"  # nothing was finished


def test_a_move_is_refused_out_of_its_phase_and_when_malformed():
    ledger = Ledger(":memory:")
    table(ledger)
    ledger.new_hand("t", NAMES, hand_id="h1", now=T0)
    with pytest.raises(LedgerStateError, match="cannot move"):
        ledger.play_move("h1", {"type": "discard", "seat": 0})
    from replay.errors import MalformedError

    up_to_deal_rest(ledger)
    for bad in ({"seat": 0}, {"type": "x", "seat": 3}, {"type": "x", "seat": -1}, {"type": "x", "seat": 0, "time": 5},
                {"type": "x", "seat": 0, "f": 1.5}, [1]):
        with pytest.raises(MalformedError):
            ledger.play_move("h1", bad)
    assert ledger.move_receipts("h1") == []


def up_to_deal_rest(ledger: Ledger) -> None:
    ledger.commit("h1", now=T0, server_seed=SERVER)
    for s in range(3):
        ledger.seed_commit("h1", s, commit_player_seed("h1", s, seed(s)), now=T0)
    for s in range(3):
        ledger.seed_reveal("h1", s, seed(s), now=T0)
    ledger.deal("h1", now=T0)


def test_finish_with_the_whole_record_still_works_and_binds_its_moves():
    out = []
    with Ledger(":memory:") as ledger:
        ledger.new_operator("demo-operator", now=T0)
        simulate_table(ledger, preset="rummy13", players=4, hands=1, seed="s", table_id="t", live_moves=False,
                       on_record=lambda r, k: out.append(r))
        assert ledger.move_receipts("t-h0000") == []
    rec = out[0]
    st = next(s["statement"] for s in rec["fairness"]["statements"] if s["statement"]["kind"] == "record")
    assert (st["moves_head"], st["n_moves"]) == chain_head(rec["hand_id"], rec["fairness"]["server_commitment"],
                                                           rec["moves"])
    assert audit_record(rec).ok


# -- attack 1: publish other moves than were played ----------------------------------------

def forge_moves(record: dict, played, *, rebind: bool) -> dict:
    """The moves of another game on the same deal; the record statement re-signed over the
    forged record hash (and, with ``rebind``, the forged moves' head)."""
    from audit.operator.sim.tamper import TamperContext, other_moves
    from replay.stream import Stream

    if rebind:
        return other_moves(copy.deepcopy(record), TamperContext(KEY, Stream(bytes(32), bytes(32), "x")))
    forged = other_moves(copy.deepcopy(record), TamperContext(KEY, Stream(bytes(32), bytes(32), "x")))
    for i, s in enumerate(forged["fairness"]["statements"]):
        if s["statement"]["kind"] == "record":
            st = dict(s["statement"])
            logged = next(x["statement"] for x in record["fairness"]["statements"] if x["statement"]["kind"] == "record")
            st["moves_head"], st["n_moves"] = logged["moves_head"], logged["n_moves"]
            forged["fairness"]["statements"][i] = KEY.sign(st)
    return forged


def test_other_moves_are_proved_forged_by_the_seats_move_receipts(honest, tmp_path):
    ledger, receipts, move_receipts, record, played = honest
    forged = forge_moves(record, played, rebind=True)
    assert forged["moves"] != record["moves"]
    found, agree = compare_moves(move_receipts, forged, KEY.public_hex)
    assert len(found) == 1 and "are not the moves played" in found[0].message
    assert compare_moves(move_receipts, record, KEY.public_hex) == ([], len(move_receipts))
    # the CLI: receipt + record + the move receipts kept (JSON lines, or a JSON array)
    paths = {n: tmp_path / f"{n}.json" for n in ("receipt", "honest", "forged", "moves", "moves_array")}
    paths["receipt"].write_text(json.dumps(receipts[1]))
    paths["honest"].write_text(json.dumps(record))
    paths["forged"].write_text(json.dumps(forged))
    paths["moves"].write_text("".join(json.dumps(m) + "\n" for m in move_receipts))
    paths["moves_array"].write_text(json.dumps(move_receipts))
    run = lambda *a: CliRunner().invoke(main, ["receipt", "verify", *map(str, a), "--public-key", KEY.public_hex])  # noqa: E731
    ok = run(paths["receipt"], paths["honest"], "--moves", paths["moves"])
    assert ok.exit_code == 0, ok.output
    assert f"the record's moves give the head of {len(move_receipts)} of your move receipts" in ok.output
    for moves in ("moves", "moves_array"):
        bad = run(paths["receipt"], paths["forged"], "--moves", paths[moves])
        assert bad.exit_code == 1, bad.output
        lines = [x for x in bad.output.splitlines() if x.startswith("CONTRADICTED: ")]
        assert sum("are not the moves played" in x for x in lines) == 1
    # without the move receipts the seat receipt alone cannot see the moves
    assert "moves" not in run(paths["receipt"], paths["forged"]).output.split("CONTRADICTED")[0]


def test_a_record_whose_moves_are_not_the_logged_head_is_a_statement_mismatch(honest):
    # the careless forger: other moves, the record hash re-signed, the logged moves head kept
    ledger, _, _, record, played = honest
    forged = forge_moves(record, played, rebind=False)
    verdict = audit_record(forged, trust=TrustAnchor(KEY.public_hex, "pinned"))
    assert any(f.reason is Reason.STATEMENT_MISMATCH and "moves_head" in f.message for f in verdict.faults)
    # and the careful one (head re-signed too) signed a record statement that is not the logged leaf
    careful = audit_record(forge_moves(record, played, rebind=True), trust=TrustAnchor(KEY.public_hex, "pinned"))
    assert careful.reason is Reason.NOT_IN_LOG
    # even a move's time is bound now: an edit the record hash would need re-signed anyway
    moved = copy.deepcopy(record)
    moved["moves"][0]["time"] = "2026-11-30T13:00:00.000Z"
    bind_record(st := dict(next(s["statement"] for s in moved["fairness"]["statements"]
                                if s["statement"]["kind"] == "record")), moved)
    assert st["moves_head"] != next(s["statement"] for s in record["fairness"]["statements"]
                                    if s["statement"]["kind"] == "record")["moves_head"]


def test_a_seat_keeps_move_receipts_in_order_and_refuses_two_heads(honest):
    _, _, move_receipts, _, _ = honest
    assert len(move_receipts) >= 3  # the three kitti arrangements
    kept = keep([], move_receipts[:1], KEY.public_hex, hand_id="h1")
    kept = keep(kept, move_receipts[0:2], KEY.public_hex, hand_id="h1")  # one seen twice: kept once
    assert [k["statement"]["n_moves"] for k in kept] == [1, 2]
    with pytest.raises(ReceiptError, match="move 3 after move 1: not the next one"):
        keep(kept[:1], move_receipts[2:3], KEY.public_hex, hand_id="h1")
    other = dict(move_receipts[1]["statement"], head="00" * 32)
    with pytest.raises(ReceiptError, match="two heads after move 2"):
        keep(kept, [KEY.sign(other)], KEY.public_hex, hand_id="h1")
    with pytest.raises(ReceiptError, match="pinned key"):
        keep([], move_receipts[:1], SigningKey.from_hex("55" * 32).public_hex, hand_id="h1")
    with pytest.raises(ReceiptError, match="not 'h2'"):
        keep([], move_receipts[:1], KEY.public_hex, hand_id="h2")
    assert load_move_receipts(json.dumps(move_receipts[:2])) == move_receipts[:2]


# -- attack 2: a fork that changes the stake and commission ---------------------------------

def fork(*, point_value: str = "0.25", commission_pct: str = "5", names=NAMES) -> tuple[list[dict], dict]:
    """The hand rebuilt by the operator in a second ledger (its own key, the same seeds and
    times, the same bots): the receipts it would give and the record it publishes."""
    ledger = Ledger(":memory:")
    table(ledger, point_value=point_value, commission_pct=commission_pct)
    receipts = up_to_deal(ledger, names)
    played = played_moves(ledger)
    moves = []
    for i, m in enumerate(played.moves):
        st = ledger.play_move("h1", m, now=T0 + timedelta(minutes=1, seconds=i))["statement"]
        moves.append({**m, "time": st["time"]})
    return receipts, finish(ledger, played, moves)


def test_a_fork_of_the_stake_and_commission_contradicts_every_seats_receipt(honest, tmp_path):
    _, receipts, _, record, _ = honest
    _, forked = fork(point_value="1", commission_pct="20")
    assert forked["fairness"]["server_commitment"] == record["fairness"]["server_commitment"]
    assert forked["fairness"]["seat_commitments"] == record["fairness"]["seat_commitments"]
    for rec in receipts:
        assert compare(rec, record, public_key=KEY.public_hex).consistent
        report = compare(rec, forked, public_key=KEY.public_hex)
        whats = [c.what for c in report.contradictions]
        assert "point_value" in whats and "commission_pct" in whats, whats
        assert "seat_name" not in whats
    path = tmp_path / "r.json"
    path.write_text(json.dumps(receipts[0]))
    (tmp_path / "f.json").write_text(json.dumps(forked))
    out = CliRunner().invoke(main, ["receipt", "verify", str(path), str(tmp_path / "f.json"),
                                    "--public-key", KEY.public_hex])
    assert out.exit_code == 1
    lines = [x for x in out.output.splitlines() if x.startswith("CONTRADICTED: ")]
    assert any("point value is '1'" in x and "'0.25'" in x for x in lines)
    assert any("commission pct is '20'" in x and "'5'" in x for x in lines)
    # the fork's record alone audits clean: only a seat's receipt (or the whole log) sees it
    assert audit_record(forked, trust=TrustAnchor(KEY.public_hex, "pinned")).ok


def test_a_seat_refuses_to_reveal_at_other_terms_than_it_agreed(honest):
    _, receipts, _, record, _ = honest
    forked_receipts, _ = fork(point_value="1", commission_pct="20")
    args = dict(hand_id="h1", seat=0, seed_commitment=commit_player_seed("h1", 0, seed(0)))
    check_before_reveal(receipts[0], KEY.public_hex, **args, player="asha",
                        terms={"point_value": "0.250", "commission_pct": "5"})
    with pytest.raises(ReceiptError, match="point_value is '1', not '0.25'"):
        check_before_reveal(forked_receipts[0], KEY.public_hex, **args, terms={"point_value": "0.25"})
    with pytest.raises(ReceiptError, match="commission_pct is '20'"):
        check_before_reveal(forked_receipts[0], KEY.public_hex, **args, terms={"commission_pct": "5"})


# -- attack 3: another name in the seat ------------------------------------------------------

def test_another_name_in_the_seat_is_refused_before_the_reveal_and_contradicts_the_receipt(honest, tmp_path):
    _, receipts, _, record, _ = honest
    shill_receipts, shill_record = fork(names=["shill", "bikash", "chandra"])
    args = dict(hand_id="h1", seat=0, seed_commitment=commit_player_seed("h1", 0, seed(0)))
    with pytest.raises(ReceiptError, match="seats 'shill' at seat 0, not you \\('asha'\\)"):
        check_before_reveal(shill_receipts[0], KEY.public_hex, **args, player="asha")
    # a forged receipt that says "asha" in the seat-receipt but seats "shill" in its hand statement
    lie = copy.deepcopy(shill_receipts[0])
    st = dict(lie["statements"][2]["statement"], player="asha")
    lie["statements"][2] = KEY.sign(st)
    with pytest.raises(ReceiptError, match=r"^the receipt's statement 2 is not proved: inclusion proof of leaf 2 does not lead to the root of size 3$"):
        check_before_reveal(lie, KEY.public_hex, **args, player="asha")
    # afterwards: every seat's receipt contradicts the record that seats another name
    for rec in receipts:
        report = compare(rec, shill_record, public_key=KEY.public_hex)
        assert [c for c in report.contradictions if c.what == "seat_name"], report.to_json()
    # the CLI client refuses, in one line, and reveals nothing
    path = tmp_path / "r.json"
    path.write_text(json.dumps(shill_receipts[0]))
    out = CliRunner().invoke(main, ["hand", "seed-reveal", "h1", "--seat", "0", "--seed", seed(0).hex(),
                                    "--receipt", str(path), "--public-key", KEY.public_hex, "--player", "asha",
                                    "--db", str(tmp_path / "none.db")])
    assert out.exit_code == 1 and "not revealing: the receipt seats 'shill' at seat 0" in out.output
    assert not (tmp_path / "none.db").exists()
