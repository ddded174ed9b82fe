"""``tiplu eval rummy13``: one JSON request in, one JSON answer out (see docs/rummy13.md).

Operations (every request has ``op``; ``settings`` are optional ``rummy13`` overrides;
``players`` (default 4) picks the shoe whose copies a hand may not exceed, D-18):

* ``points`` -- ``{"cards": [13 cards], "indicator": "7H"}`` -> ``{"points", "groups",
  "loose"}``: the least points of the hand and one grouping that reaches them (R-12..R-15).
* ``check`` -- ``{"groups": [[...], ...], "indicator": "7H"}`` -> ``{"valid", "rule"}``:
  whether the shown grouping is a valid declaration, else the rule it breaks.
* ``settle`` -- ``{"points": [per seat], "winner": seat, "point_value": "0.25",
  "commission_pct": "5"}`` -> points, net points, HT gross and nets per seat, commission
  (R-20, D-2, D-25).

Bad input raises a :class:`~replay.errors.TipluError`; the CLI turns it into ``{"error"}``.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..cards import Card, parse_card
from ..errors import MalformedError
from ..rulesets import Ruleset, allowed_players, resolve
from ..settlement import format_amount, parse_commission_pct, parse_point_value, settle
from ..shoes import shoe_spec
from .declare import check_declaration
from .groups import MalformedHandError, check_copies, parse_group_cards, parse_hand, wild_rank_of
from .solver import solve


def _ruleset(request: Mapping[str, Any]) -> Ruleset:
    return resolve("rummy13", request.get("settings") or {})


def _shoe(rs: Ruleset, request: Mapping[str, Any]) -> dict[str, int]:
    players = request.get("players", min(allowed_players(rs)))
    if isinstance(players, bool) or not isinstance(players, int):
        raise MalformedError("'players' must be an integer", location="players")
    return shoe_spec(rs, players)


def _indicator(request: Mapping[str, Any]) -> tuple[Card, int | None]:
    if "indicator" not in request:
        raise MalformedError("missing field 'indicator' (the turned-up card, e.g. \"7H\" or \"JK\")")
    card = parse_card(request["indicator"])
    return card, wild_rank_of(card)


def op_points(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    shoe = _shoe(rs, request)
    indicator, wild = _indicator(request)
    cards = parse_hand(request.get("cards"), decks=shoe["decks"], jokers=shoe["jokers"],
                       size=rs["hand_size"], indicator=indicator)
    return solve(cards, wild, high=rs["high_card_points"]).to_json()


def op_check(request: Mapping[str, Any]) -> dict[str, Any]:
    rs = _ruleset(request)
    shoe = _shoe(rs, request)
    indicator, wild = _indicator(request)
    groups = request.get("groups")
    if not isinstance(groups, list):
        raise MalformedHandError("'groups' must be a list of lists of cards")
    parsed = [parse_group_cards(g, where=f"group {i + 1}") for i, g in enumerate(groups)]
    check_copies([c for g in parsed for c in g] + [indicator], decks=shoe["decks"],
                 jokers=shoe["jokers"], where="groups")
    verdict = check_declaration(parsed, wild, hand_size=rs["hand_size"])
    return {"valid": verdict.valid, "rule": verdict.rule}


def op_settle(request: Mapping[str, Any]) -> dict[str, Any]:
    points = request.get("points")
    if not isinstance(points, list) or len(points) < 2 or any(
            isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points):
        raise MalformedError("'points' must list each seat's points (non-negative integers)",
                             location="points")
    winner = request.get("winner")
    if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(points):
        raise MalformedError("'winner' must be a seat number", location="winner")
    if points[winner] != 0:
        raise MalformedError("the winner scores 0 points (R-7)", location="points")
    point_value = parse_point_value(request.get("point_value"))
    commission_pct = parse_commission_pct(request.get("commission_pct", "0"))
    total = sum(points)
    net = [total if s == winner else -p for s, p in enumerate(points)]
    st = settle(net, point_value=point_value, commission_pct=commission_pct)
    return {"points": points, "winner": winner, "net_points": net,
            "gross": [format_amount(x) for x in st.gross],
            "nets": [format_amount(x) for x in st.nets],
            "commission": format_amount(st.commission)}


OPS = {"points": op_points, "check": op_check, "settle": op_settle}


def evaluate(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one request (raises a TipluError for bad input)."""
    op = request.get("op")
    if op not in OPS:
        raise MalformedError(f"unknown op {op!r}; rummy13 knows {', '.join(OPS)}", location="op")
    return OPS[op](request)
