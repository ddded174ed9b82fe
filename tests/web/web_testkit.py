"""A small real ledger for the web tests: Kitti hands in every lifecycle state.

:func:`build_site` plays real Kitti hands with the game's bot through the real ledger
(commit, two-phase seeds, deal, record, reveal), leaves other hands at each earlier
state, cancels one, and publishes one hand whose operator lied about the payouts and one
whose record has an edited move.  It returns a :class:`Site` naming each hand and the
private server seeds of the hands not yet revealed (which no public response may contain).
"""
from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import audit.operator.ledger.hands as ledger_module
from audit.operator.ledger import Ledger
from audit.operator.publish import build_record, publish, published_record
from audit.operator.sim.play import play_hand
from audit.operator.sim.tamper import TamperContext, tamper
from audit.operator.tokens import issue_operator_token, issue_seat_token
from replay.fairness import commit_player_seed, hand_randomness
from replay.rulesets import resolve
from replay.settlement import parse_amount, settle
from replay.stream import Stream

OPERATOR = "demo-operator"
PLAYERS = ["asha", "bikash", "chandra"]
T0 = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def _stream(label: str) -> Stream:
    return Stream(hashlib.sha256(b"web-tests").digest(), hashlib.sha256(b"material").digest(), label)


@contextlib.contextmanager
def fixed_server_seeds():
    """Make the ledger's fresh server seeds (``secrets.token_bytes``) a fixed sequence, so the
    test hands -- and so their cards and moves -- are the same on every run."""
    counter = iter(range(10**6))

    class FixedSecrets:
        @staticmethod
        def token_bytes(n: int) -> bytes:
            return hashlib.sha256(b"server-seed:%d" % next(counter)).digest()[:n]

        @staticmethod
        def token_hex(n: int) -> str:
            return FixedSecrets.token_bytes(n).hex()

    saved = ledger_module.secrets
    ledger_module.secrets = FixedSecrets
    try:
        yield
    finally:
        ledger_module.secrets = saved


def seat_out_of_turn(record: dict[str, Any]) -> dict[str, Any]:
    """The dishonest operator's edit: the first move is credited to the next seat (K-4)."""
    record["moves"][0]["seat"] = (record["moves"][0]["seat"] + 1) % len(record["table"]["seats"])
    return record


def foreign_key(record: dict[str, Any]) -> dict[str, Any]:
    """A forger's copy: every statement re-signed with a key of its own, which the record
    names as the operator's -- consistent in itself, so only a pinned key catches it."""
    from audit.signing import SigningKey
    from audit.operator.sim.private_log import forge_log
    from audit.operator.sim.tamper import _resign_record

    key = SigningKey.from_hex(hashlib.sha256(b"forger").hexdigest())
    record["table"]["public_key"] = key.public_hex
    record["fairness"]["statements"] = [key.sign(s["statement"]) for s in record["fairness"]["statements"]]
    return forge_log(_resign_record(record, TamperContext(key, _stream("forger"))), key)


def player_seed(hand_id: str, seat: int) -> bytes:
    return hashlib.sha256(f"seed:{hand_id}:{seat}".encode()).digest()[:16]


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


@dataclass
class Site:
    db_path: str
    operator_token: str = ""
    other_operator_token: str = ""
    hands: dict[str, str] = field(default_factory=dict)  # role -> hand id
    secret_seeds: dict[str, str] = field(default_factory=dict)  # hand id -> server seed hex, unrevealed hands
    seat_tokens: dict[tuple[str, int], str] = field(default_factory=dict)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)  # revealed hand -> published record
    table_id: str = "t1"


def _new_hand(ledger: Ledger, hand_id: str, dealer: int) -> None:
    ledger.new_hand("t1", PLAYERS, dealer=dealer, hand_id=hand_id)


def _commit_seeds(ledger: Ledger, hand_id: str, seats: range) -> None:
    for s in seats:
        ledger.seed_commit(hand_id, s, commit_player_seed(hand_id, s, player_seed(hand_id, s)))


def _reveal_seeds(ledger: Ledger, hand_id: str, seats: range) -> None:
    for s in seats:
        ledger.seed_reveal(hand_id, s, player_seed(hand_id, s))


def play(ledger: Ledger, hand_id: str, *, dealer: int, pot_before: int, hand_no: int,
         tamper_kind: str | None = None, reveal: bool = True, publish_tamper: str | None = None) -> tuple[dict[str, Any], int]:
    """Play one Kitti hand to the end through the ledger; the attached record and the pot after."""
    _new_hand(ledger, hand_id, dealer)
    ledger.commit(hand_id)
    n = len(PLAYERS)
    _commit_seeds(ledger, hand_id, range(n))
    _reveal_seeds(ledger, hand_id, range(n))
    ledger.deal(hand_id)
    ruleset = resolve("kitti")
    seeds = [player_seed(hand_id, s) for s in range(n)]
    randomness = hand_randomness(ledger._server_seed(hand_id), hand_id, ruleset, seeds)
    carry = {"pot_before": pot_before}
    played = play_hand(randomness, dealer=dealer, carry=carry, rng=_stream(f"bot:{hand_id}"))
    settlement = settle(played.outcome.net_points, point_value=parse_amount("0.25"),
                        commission_pct=parse_amount("5"), pot_delta_points=played.outcome.pot_delta_points)
    record = build_record(ledger, hand_id, moves=list(played.moves), outcome=played.outcome,
                          settlement=settlement, carry=carry, hand_no=hand_no)
    if tamper_kind == "seat_out_of_turn":
        record = seat_out_of_turn(record)
    elif tamper_kind is not None:
        record = tamper(record, tamper_kind, TamperContext(ledger.signing_key(OPERATOR), _stream("tamper")))
    ledger.finish(hand_id, record)
    if reveal:
        ledger.reveal(hand_id)
        published = published_record(ledger, hand_id)
        if publish_tamper == "foreign_key":
            published = foreign_key(published)
        elif publish_tamper is not None:  # the dishonest operator edits what it publishes
            published = tamper(published, publish_tamper, TamperContext(ledger.signing_key(OPERATOR), _stream("tamper")))
        publish(ledger, hand_id, published)
    return record, pot_before + played.outcome.pot_delta_points


def build_site(db_path: str) -> Site:
    """The test ledger at ``db_path`` (see the module docstring)."""
    with fixed_server_seeds():
        return _build(db_path)


def _build(db_path: str) -> Site:
    site = Site(str(db_path))
    ledger = Ledger(str(db_path), clock=Clock(), create=True)
    try:
        ledger.new_operator(OPERATOR)
        ledger.new_operator("other-operator")
        ledger.new_table("t1", operator=OPERATOR, preset="kitti", seats=3, point_value="0.25", commission_pct="5")
        ledger.new_table("t-other", operator="other-operator", preset="kitti", seats=3, point_value="1")
        pot = 0
        dealer = 2
        for k in range(3):
            hid = f"t1-h{k:04d}"
            _, pot = play(ledger, hid, dealer=dealer, pot_before=pot, hand_no=k)
            site.hands[f"revealed{k}"] = hid
            dealer = (dealer + 1) % 3
        _, pot = play(ledger, "t1-h0003", dealer=dealer, pot_before=pot, hand_no=3, tamper_kind="inflated_payout")
        site.hands["tampered_payout"] = "t1-h0003"
        dealer = (dealer + 1) % 3
        # an edited move: the first move credited to another seat -- the replay names it
        play(ledger, "t1-h0004", dealer=dealer, pot_before=pot, hand_no=4, tamper_kind="seat_out_of_turn")
        site.hands["tampered_move"] = "t1-h0004"
        # published with a forged signature on its deal statement (tampered after the reveal)
        play(ledger, "t1-h0005", dealer=1, pot_before=0, hand_no=None, publish_tamper="forged_signature")
        site.hands["tampered_signature"] = "t1-h0005"
        # a finished hand, not yet revealed: its record is public, its server seed is not
        play(ledger, "t1-h0006", dealer=0, pot_before=0, hand_no=None, reveal=False)
        site.hands["finished"] = "t1-h0006"
        steps = ["created", "committed", "seeds-committed", "seeds-half-revealed", "seeds-revealed", "dealt"]
        for i, name in enumerate(steps):
            hid = f"t1-s{i}-{name}"
            _new_hand(ledger, hid, 0)
            site.hands[name] = hid
            if i >= 1:
                ledger.commit(hid)
            if i >= 2:
                _commit_seeds(ledger, hid, range(3))
            if i == 3:
                _reveal_seeds(ledger, hid, range(1))
            if i >= 4:
                _reveal_seeds(ledger, hid, range(3))
            if i >= 5:
                ledger.deal(hid)
        _new_hand(ledger, "t1-cancelled", 0)
        ledger.commit("t1-cancelled")
        _commit_seeds(ledger, "t1-cancelled", range(3))
        ledger.seed_reveal("t1-cancelled", 0, player_seed("t1-cancelled", 0))
        ledger.cancel("t1-cancelled", reason="seat 1 did not reveal its seed")
        site.hands["cancelled"] = "t1-cancelled"
        for view in ledger.list_hands():
            if view.state.value not in ("revealed", "cancelled", "created"):
                site.secret_seeds[view.id] = ledger._server_seed(view.id).hex()
        site.operator_token = issue_operator_token(ledger.db, OPERATOR)[1]
        site.other_operator_token = issue_operator_token(ledger.db, "other-operator")[1]
        for s in range(3):
            site.seat_tokens[(site.hands["committed"], s)] = issue_seat_token(ledger.db, site.hands["committed"], s)[1]
        from audit.operator.publish import get_published

        for _role, hid in site.hands.items():
            if ledger.get_hand(hid).state.value == "revealed":
                site.records[hid] = get_published(ledger, hid)
    finally:
        ledger.close()
    return site
