"""What the pages and the JSON API show, computed once here from the ledger.

Everything public goes through the ledger's public views (:mod:`audit.operator.ledger.views`, the
listings of its facade, :class:`~audit.operator.ledger.Ledger`) and its ``published_record`` (:func:`audit.operator.publish.published_record`): a hand's server seed appears only once it is
revealed (or the hand is cancelled).  Cards are computed only for revealed hands -- before
the reveal nobody outside the operator may see them.

* :func:`hand_json` -- one hand's public view plus links.
* :func:`record_of` -- the published record (``None`` before the hand is finished).
* :func:`verdict_of` -- :func:`audit.auditor.verdict.hand_verdict.published_verdict` of the published record,
  cached per record hash (auditing is deterministic, and a record changes only by being revealed).
* :func:`table_money` -- a table's HT balances and commission from the *recomputed*
  settlements of the hands that pass the audit, the rejected hands apart with what the
  operator claimed for them, and the pot (:class:`audit.auditor.run.report.AuditReport`).
* :func:`replay_steps` -- the per-move views of the replay viewer.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Iterator

from flask import current_app

from audit.errors import NotFoundError
from audit.auditor.verdict.hand_verdict import published_verdict
from audit.auditor.evidence.ledger_log import LedgerLog
from audit.tlog.checkpoint import DEFAULT_ORIGIN
from audit.auditor.run.report import AuditReport
from audit.auditor.verdict.verify import Verdict
from replay.canonical import canonical_hash
from replay.errors import TipluError
from replay.fairness import hand_randomness
from replay.describe import describe_move
from replay.registry import game_for
from replay.records import parse_record
from replay.replayer import replay_record
from replay.settlement import format_amount

if TYPE_CHECKING:
    from audit.auditor.evidence.logcheck import LogView
    from audit.operator.ledger import HandView, Ledger
    from audit.tlog.policy import Policy

VERDICT_CACHE_SIZE = 4096
_lock = threading.Lock()


def _cache() -> "OrderedDict[str, Verdict]":
    cache: OrderedDict[str, Verdict] = current_app.extensions.setdefault("tiplu_verdicts", OrderedDict())
    return cache


def hand_json(view: HandView) -> dict[str, Any]:
    """A hand's public view (``HandView.to_json``) with links to its other resources, and
    ``published``: whether its record is published (``tiplu audit URL`` reports a revealed
    hand left unpublished past the grace period)."""
    from .db import get_ledger

    body: dict[str, Any] = view.to_json()
    body["published"] = get_ledger().is_published(view.id)
    base = f"/api/v1/hands/{view.id}"
    body["links"] = {"self": base, "record": f"{base}/record", "verdict": f"{base}/verdict",
                     "table": f"/api/v1/tables/{view.table_id}", "page": f"/hands/{view.id}"}
    return body


def record_of(ledger: Ledger, hand_id: str) -> dict[str, Any] | None:
    """The public record of a hand; ``None`` while the hand has none.

    A revealed hand's record is the artifact stored at publication
    (:func:`audit.operator.publish.publish`, the ``published_records`` table) and is served exactly as
    stored -- it is what auditors audit, even if the operator tampered with it.  Before
    publication (a finished hand, or a revealed one not yet published) it is assembled from
    the ledger by :func:`audit.operator.publish.published_record`, with the server seed ``null``
    until the reveal.
    """
    ledger.get_hand(hand_id)  # NotFoundError for an unknown hand
    try:
        return ledger.get_published(hand_id)
    except NotFoundError:
        pass
    from flask import has_app_context

    from .log_api import base_origin

    origin = base_origin() if has_app_context() else DEFAULT_ORIGIN
    try:
        return ledger.published_record(hand_id, origin=origin)
    except NotFoundError:
        return None


def verdict_of(record: dict[str, Any], *, public_key: str, hand_id: str, log: LogView | None = None,
               policy: Policy | None = None) -> Verdict:
    """The audit verdict of the record published as hand ``hand_id``, checked against the
    operator key registered in the ledger (``public_key``) -- never against the key the
    record itself names, which a forger could set to its own.  A record about another hand
    than the one it is published as is a fault too.  Cached by the record's canonical hash,
    the key and the hand id (auditing is deterministic) -- and, with the operator's whole
    ``log`` (:class:`audit.auditor.evidence.ledger_log.LedgerLog`), its size: a second statement set appended
    later (``log_duplicate``) changes the verdict."""
    key = (f"{canonical_hash(record)}:{public_key}:{hand_id}:{log.size() if log is not None else '-'}"
           f":{policy.sha256 if policy is not None else '-'}")
    cache = _cache()
    with _lock:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit
    verdict = published_verdict(record, hand_id=hand_id, public_key=public_key, log=log, policy=policy)
    with _lock:
        cache[key] = verdict
        while len(cache) > VERDICT_CACHE_SIZE:
            cache.popitem(last=False)
    return verdict


def verdict_for(ledger: Ledger, view: HandView, record: dict[str, Any], *, policy: Policy | None = None) -> Verdict:
    """:func:`verdict_of` for a hand of the ledger (its operator's registered key; under the
    caller's pinned ``policy`` when given)."""
    return verdict_of(record, public_key=ledger.public_key(view.operator), hand_id=view.id,
                      log=LedgerLog.of_ledger(ledger), policy=policy)


def iter_table_records(ledger: Ledger, table_id: str) -> Iterator[tuple[Any, dict[str, Any] | None]]:
    for view in ledger.list_hands(table_id=table_id):
        yield view, (record_of(ledger, view.id) if view.state.value in ("finished", "revealed") else None)


def table_money(ledger: Ledger, table_id: str) -> dict[str, Any]:
    """A table and its hands, with HT balances, commission and pot from recomputed settlements."""
    table = ledger.table(table_id)
    report = AuditReport()
    hands = []
    for view, record in iter_table_records(ledger, table_id):
        entry: dict[str, Any] = {"hand_id": view.id, "state": view.state.value, "dealer": view.dealer,
                                 "players": [s.player for s in view.seats], "verdict": None,
                                 "pot_before": None, "pot_delta_points": None, "nets": None, "commission": None}
        if record is not None:
            verdict = verdict_for(ledger, view, record)
            entry["verdict"] = verdict.to_json()
            t = record.get("table")  # a published record may be anything: read it carefully
            carry = t.get("carry") if isinstance(t, dict) else None
            entry["pot_before"] = carry.get("pot_before") if isinstance(carry, dict) else None
            if view.state.value == "revealed":
                report.add(view.id, verdict)
                replay = verdict.replay
                if replay is not None and replay.outcome is not None:
                    entry["pot_delta_points"] = replay.outcome.pot_delta_points
                if verdict.ok and replay is not None and replay.settlement is not None:
                    entry["nets"] = [format_amount(x) for x in replay.settlement.nets]
                    entry["commission"] = format_amount(replay.settlement.commission)
        hands.append(entry)
    ledger_t = report.tables.get(table_id)
    money = ledger_t.to_json() if ledger_t else None  # without hands settled on a rejected pot
    balances = money["balances"] if money else {}
    pot = None
    if ledger_t and ledger_t.carries:   # the carry the table's last audited hand left
        pot = ledger_t.carries[max(ledger_t.carries)][1].get("pot_before")
    return {
        "table": table.to_json(),
        "hands": hands,
        "balances": balances,
        "commission": money["commission"] if money else format_amount(Decimal(0)),
        "audited_hands": ledger_t.hands if ledger_t else 0,
        "passed_hands": money["passed"] if money else 0,
        "unreconciled": money["unreconciled"] if money else 0,
        "reconciliation": money["reconciliation"] if money else None,
        "rejected": money["rejected"] if money else [],
        "pot": pot,
        "carry_faults": ledger_t.carry_faults() if ledger_t else [],
    }


def _move_text(move: Any) -> str:
    return str(move) if move is not None else ""


def _rejected_move(engine: Any, moves: Any, fault: Any, players: list[str]) -> dict[str, Any]:
    """A move the replay rejected, as the viewer shows it (issue 29: the first bad move is
    shown and highlighted itself, not only the position before it)."""
    raw = dict(moves[fault.move_index])
    try:
        move = engine.parse_move({k: v for k, v in raw.items() if k != "time"})
        text, words, move_json = _move_text(move), describe_move(engine, move, players), move.to_json()
    except (TipluError, TypeError, ValueError, KeyError):  # not even a move: show its JSON
        text, words, move_json = json.dumps(raw, sort_keys=True), None, None
    return {"index": fault.move_index, "move": text, "words": words, "move_json": move_json,
            "seat": raw.get("seat"), "reason": fault.to_json()["reason"], "message": fault.message, "rule": fault.rule}


def replay_steps(record: dict[str, Any]) -> dict[str, Any]:
    """The replay viewer's data: one view per step (``-1`` = after the deal) plus the outcome.

    Only for a revealed record (the replay needs the server seed).  Faulty moves are skipped
    (report mode) and listed with their step, so a tampered hand still shows what is valid.
    """
    parsed = parse_record(record)
    game = game_for(parsed.ruleset.game)
    engine = game.engine(parsed.ruleset)
    players = list(parsed.table.players)
    steps: list[dict[str, Any]] = []

    def visit(index: int, move: Any, state: Any) -> None:
        view = game.view(state).to_json()   # replay.game.View: hands, piles, tiplu, shown ...
        steps.append({"index": index, "move": _move_text(move), "words": describe_move(engine, move, players),
                      "move_json": move.to_json() if move is not None else None,
                      "seat": getattr(move, "seat", None), "to_move": engine.to_move(state), "view": view})

    result = replay_record(parsed, strict=False, visit=visit)
    outcome = result.outcome.to_json() if result.outcome is not None else None
    rejected = [_rejected_move(engine, parsed.moves, f, players) for f in result.faults
                if f.move_index is not None and 0 <= f.move_index < len(parsed.moves)]
    return {"hand_id": parsed.hand_id, "players": list(parsed.table.players), "game": parsed.ruleset.game,
            "steps": steps, "faults": [f.to_json() for f in result.faults], "rejected": rejected, "outcome": outcome,
            "settlement": result.settlement.to_json() if result.settlement is not None else None}


def first_deal(record: dict[str, Any]) -> dict[str, Any]:
    """The deal the server computes from the published seeds (revealed records only), for the
    in-browser check to compare against."""
    parsed = parse_record(record)
    seed = parsed.fairness.server_seed
    if seed is None:
        raise NotFoundError("the server seed is not revealed yet")
    deal = hand_randomness(seed, parsed.hand_id, parsed.ruleset, list(parsed.fairness.player_seeds)).deal(
        parsed.table.dealer)

    def card(c: object | None) -> str | None:
        return str(c) if c is not None else None

    return {"hands": [[str(c) for c in h] for h in deal.hands], "turned_up": card(deal.turned_up),
            "indicator": card(deal.indicator), "stock": [str(c) for c in deal.stock]}
