"""``tiplu eval kitti``: one JSON request in, one JSON answer out (docs/kitti.md has examples).

Every request has an ``op``; ``settings`` (optional) overrides the ``kitti`` preset.

* ``rank``    -- ``cards``: three cards -> ``class``, ``strength`` (and ``special``: ``2-3-5``).
* ``splits``  -- ``cards``: nine cards -> ``count`` (280) and ``splits``, each three sets
  in their forced order (K-7).
* ``check``   -- ``sets`` (and optionally ``hand``) -> ``valid``, ``rule``, ``reason``.
* ``default`` -- ``cards``: nine cards -> the timeout arrangement (docs/kitti.md).
* ``settle``  -- one deal: ``seats`` (each ``{"sets": ...}``, ``{"fold": true}``, with an
  optional ``hand``), ``pot_before``, ``dealer``, ``point_value``, ``commission_pct``.
* ``table``   -- ``deals``: a list of ``settle`` bodies played in turn at one table; the
  pot carries over and the dealer moves left.
* ``play``    -- ``server_seed``, ``player_seeds``, ``hand_id``, ``dealer``, ``pot_before``,
  ``moves``: deal with the v1 shuffle, replay the moves, and give the outcome when over.

Errors raise (a :class:`~replay.errors.TipluError`); the CLI driver turns them into
``{"error": ...}`` lines.
"""
from __future__ import annotations

import json
from decimal import Decimal
from functools import lru_cache
from typing import Any, Mapping

from ..cards import STANDARD, Card, parse_cards
from ..errors import IllegalMoveError, MalformedError
from ..fairness import hand_randomness, parse_player_seed, parse_server_seed
from ..rulesets import Ruleset, resolve
from ..settlement import Settlement, format_amount, parse_commission_pct, parse_point_value, settle
from .arrangement import Sets, check_arrangement, check_hand, splits
from .engine import KittiEngine
from .moves import parse_sets, sets_json
from .ranking import SetRanker, ranker_for
from .showdown import DealResult, settle_deal
from .strategy import default_arrangement
from .table import TableState


def _ruleset(request: Mapping[str, Any]) -> Ruleset:
    settings = request.get("settings")
    if not settings:
        return _resolved("{}")
    if not isinstance(settings, dict):
        return resolve("kitti", settings)   # raises the usual RulesetError
    # A resolved ruleset is an immutable value of its settings: resolve each distinct
    # settings object once (keyed by its canonical JSON text), not once per request.
    return _resolved(json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=256)
def _resolved(settings_json: str) -> Ruleset:
    return resolve("kitti", json.loads(settings_json))


def _cards(request: Mapping[str, Any], field: str = "cards") -> tuple[Card, ...]:
    if field not in request:
        raise MalformedError(f"missing field '{field}'")
    return parse_cards(request[field])


def _int(request: Mapping[str, Any], name: str, default: int) -> int:
    v = request.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise MalformedError(f"'{name}' must be a non-negative integer")
    return v


def _ranker(request: Mapping[str, Any]) -> SetRanker:
    """``ranker_for(_ruleset(request))``; for the preset's own settings, one cached call."""
    if not request.get("settings"):
        return _resolved_ranker("{}")
    return ranker_for(_ruleset(request))


@lru_cache(maxsize=8)
def _resolved_ranker(settings_json: str) -> SetRanker:
    return ranker_for(_resolved(settings_json))


#: the code of each standard card's own text (``str(card)``); any other text takes parse_cards
_CODE_OF_TEXT = {str(c): c.code for c in STANDARD}
_code_of_text = _CODE_OF_TEXT.__getitem__


def op_rank(request: Mapping[str, Any]) -> dict[str, Any]:
    rk = _ranker(request)
    cards = request.get("cards")
    if type(cards) is list:   # the common case, three distinct cards' texts: their codes at once
        try:
            a, b, c = map(_code_of_text, cards)
        except (KeyError, TypeError, ValueError):
            pass              # not that: parse_cards and check_set say what is wrong
        else:
            if a != b and b != c and a != c:
                return rk.rank_of_key(rk.table[a * 2704 + b * 52 + c]).to_json()
    return rk.rank(_cards(request)).to_json()


def op_splits(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    out = [sets_json(s) for s in splits(_cards(request), ranker_for(rs))]
    return {"count": len(out), "splits": out}


def op_check(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    sets = parse_sets(request.get("sets"))
    hand = _cards(request, "hand") if "hand" in request else None
    try:
        check_arrangement(sets, ranker_for(rs), hand=hand)
    except IllegalMoveError as exc:
        return {"valid": False, "rule": exc.rule, "reason": exc.reason}
    if hand is not None and len(hand) != 9:
        return {"valid": False, "rule": "K-2", "reason": f"a hand has nine cards, not {len(hand)}"}
    return {"valid": True, "rule": None}


def op_default(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    return {"sets": sets_json(default_arrangement(check_hand(_cards(request)), ranker_for(rs)))}


def _deal_inputs(rs: Ruleset, body: Mapping[str, Any]
                 ) -> tuple[list[tuple[Card, ...] | None], list[Sets | None], list[bool]]:
    seats = body.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 5:
        raise MalformedError("'seats' must list 2-5 seats (D-12)")
    rk = ranker_for(rs)
    hands: list[tuple[Card, ...] | None] = []
    arranged: list[Sets | None] = []
    folded: list[bool] = []
    used: set[Card] = set()
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or set(seat) - {"sets", "fold", "hand"}:
            raise MalformedError(f"seat {i}: expected an object with 'sets' or 'fold' (and 'hand')")
        fold = seat.get("fold", False)
        if not isinstance(fold, bool):
            raise MalformedError(f"seat {i}: 'fold' must be true or false")
        hand = check_hand(parse_cards(seat["hand"])) if "hand" in seat else None
        sets = None
        if "sets" in seat:
            if fold:
                raise MalformedError(f"seat {i}: a seat folds or arranges, not both (K-2)")
            try:
                sets = check_arrangement(parse_sets(seat["sets"]), rk, hand=hand)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"seat {i}: {exc.reason}", rule=exc.rule) from None
            hand = hand or tuple(sorted(c for s in sets for c in s))
        for c in hand or ():
            if c in used:
                raise MalformedError(f"card {c} is dealt to two seats (one deck, D-12)")
            used.add(c)
        hands.append(hand)
        arranged.append(sets)
        folded.append(fold)
    return hands, arranged, folded


def _money(request: Mapping[str, Any]) -> tuple[Decimal, Decimal]:
    return parse_point_value(request.get("point_value", "1")), parse_commission_pct(request.get("commission_pct", "0"))


def _result_json(res: DealResult, settlement: Settlement) -> dict[str, Any]:
    return {
        "winner": res.winner,
        "reason": res.reason,
        "rounds_won": list(res.rounds_won),
        "rounds": [dict(r) for r in res.rounds],
        "net_points": list(res.net_points),
        "salami": res.is_salami,
        "salami_points": list(res.salami),
        "void": res.reason == "void",
        "four_of_a_kind": res.four_of_a_kind,
        "pot_before": res.pot_before,
        "pot_after": res.pot_after,
        "pot_delta": res.pot_delta,
        "nets": [format_amount(x) for x in settlement.nets],
        "gross": [format_amount(x) for x in settlement.gross],
        "commission": format_amount(settlement.commission),
        "pot_delta_ht": format_amount(settlement.pot_delta),
    }


def _play(rs: Ruleset, table: TableState, body: Mapping[str, Any]) -> tuple[TableState, dict[str, Any]]:
    hands, arranged, folded = _deal_inputs(rs, body)
    if len(hands) != table.n_seats:
        raise MalformedError(f"every deal at this table has {table.n_seats} seats")
    res = settle_deal(rs, hands=hands, arranged=arranged, folded=folded, pot_before=table.pot,
                      dealer=table.dealer)
    dealer = table.dealer
    nxt, s = table.record(res.net_points, res.pot_delta)
    out = _result_json(res, s)
    out["dealer"] = dealer
    return nxt, out


def op_settle(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    pv, pct = _money(request)
    n = len(request["seats"]) if isinstance(request.get("seats"), list) else 0
    if not 2 <= n <= 5:
        raise MalformedError("'seats' must list 2-5 seats (D-12)")
    table = TableState.open(n, point_value=pv, commission_pct=pct, dealer=_int(request, "dealer", 0),
                            pot=_int(request, "pot_before", 0))
    _, out = _play(rs, table, request)
    return out


def op_table(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    pv, pct = _money(request)
    deals = request.get("deals")
    if not isinstance(deals, list) or not deals or not isinstance(deals[0], dict):
        raise MalformedError("'deals' must be a non-empty list of deals")
    n = len(deals[0].get("seats") or [])
    if not 2 <= n <= 5:
        raise MalformedError("'seats' must list 2-5 seats (D-12)")
    table = TableState.open(n, point_value=pv, commission_pct=pct, dealer=_int(request, "dealer", 0),
                            pot=_int(request, "pot_before", 0))
    results = []
    for i, body in enumerate(deals):
        if not isinstance(body, dict):
            raise MalformedError(f"deal {i} must be an object")
        table, out = _play(rs, table, body)
        results.append(out)
    table.check_zero_sum()
    return {**table.to_json(), "deals": results}


def op_play(request: Mapping[str, Any]) -> dict[str, Any]:
    """Deal from the seeds (v1 shuffle) and replay ``moves``; the outcome when the deal is over."""
    rs = _ruleset(request)
    pv, pct = _money(request)
    seeds = request.get("player_seeds")
    if not isinstance(seeds, list):
        raise MalformedError("'player_seeds' must be a list of hex seeds, one per seat")
    hand_id = request.get("hand_id")
    if not isinstance(hand_id, str) or not hand_id:
        raise MalformedError("'hand_id' must be a non-empty string")
    randomness = hand_randomness(parse_server_seed(request.get("server_seed")), hand_id, rs,
                                 [parse_player_seed(x) for x in seeds])
    engine = KittiEngine(rs)
    state = engine.start(randomness, dealer=_int(request, "dealer", 0), pot_before=_int(request, "pot_before", 0))
    moves = request.get("moves", [])
    if not isinstance(moves, list):
        raise MalformedError("'moves' must be a list of moves")
    for i, raw in enumerate(moves):
        try:
            state = engine.apply(state, engine.parse_move(raw))
        except IllegalMoveError as exc:
            raise exc.at(hand_id=hand_id, move_index=i) from None
    out: dict[str, Any] = {"hands": [[str(c) for c in h] for h in state.hands], "redeals": state.redeals,
                           "order": list(state.order), "to_move": engine.to_move(state), "outcome": None}
    if engine.is_over(state):
        outcome = engine.outcome(state)
        s = settle(outcome.net_points, point_value=pv, commission_pct=pct,
                   pot_delta_points=outcome.pot_delta_points)
        out["outcome"] = outcome.to_json()
        out["settlement"] = s.to_json()
    return out


OPS = {"rank": op_rank, "splits": op_splits, "check": op_check, "default": op_default,
       "settle": op_settle, "table": op_table, "play": op_play}


def evaluate(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one ``tiplu eval kitti`` request."""
    if not isinstance(request, dict) and not isinstance(request, Mapping):
        raise MalformedError("a request must be a JSON object with an 'op'")
    op = request.get("op")
    if op not in OPS:
        raise MalformedError(f"unknown op {op!r}; known: {', '.join(OPS)}")
    return OPS[op](request)
