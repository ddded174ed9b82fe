"""``tiplu eval marriage``: one JSON request in, one JSON answer out (see docs/marriage.md).

Every request has an ``op``, a ``preset`` (``marriage/nepal`` or ``marriage/classic``)
and optional ``settings`` (overrides, validated as in a hand record). Cards are in the
canonical notation (``7H``, ``TS``, ``JK``, ``MC``).

* ``maal``   -- ``tiplu``, ``hand``, ``table``, ``tunnelas_at_deal``, ``seen``
  -> ``{"maal": int, "items": [...]}``.
* ``combo``  -- ``tiplu`` (absent before anyone has seen), ``cards`` (3),
  ``purpose`` ``show`` | ``finish`` -> ``{"valid", "kind", "rule"}``.
* ``finish`` -- ``tiplu``, ``shown`` (the sets laid to show: three triples or seven
  pairs), ``hand`` (after the draw) -> ``{"finishes", "dublee", "groups", "loose",
  "discard"}``.
* ``settle`` -- ``scores``, ``winner`` (seat or null), ``seen``, ``dublee_finish``
  -> payments to the winner and nets, by ``T + w - n*S`` and by the pairwise method.

Bad input raises a :class:`~replay.errors.TipluError` (or ``ValueError``); the driver in
``audit/cli/evaluate.py`` turns it into ``{"error": ...}``.
"""
from __future__ import annotations

from typing import Any

from ..cards import Card, parse_card, parse_cards
from ..errors import IllegalMoveError, MalformedError
from ..rulesets import Ruleset, resolve
from .combos import check_dublee_show, check_finish_set, check_show_set
from .finish import find_finish
from .maal import count_maal
from .payments import nets_streamlined, pairwise_nets, streamlined, void_nets

__all__ = ["evaluate", "OPS"]


def _ruleset(request: dict[str, Any]) -> Ruleset:
    preset = request.get("preset")
    if not isinstance(preset, str) or not preset.startswith("marriage/"):
        raise MalformedError("preset must be marriage/nepal or marriage/classic", location="preset")
    return resolve(preset, request.get("settings") or {})


def _tiplu(request: dict[str, Any]) -> Card | None:
    t = request.get("tiplu")
    return None if t is None else parse_card(t)


def _cards(request: dict[str, Any], name: str, default: Any = None) -> tuple[Card, ...]:
    value = request.get(name, default)
    if value is None:
        raise MalformedError("missing list of cards", location=name)
    if not isinstance(value, list):
        raise MalformedError("expected a list of cards", location=name)
    return parse_cards(value)


def _sets(request: dict[str, Any], name: str) -> tuple[tuple[Card, ...], ...]:
    value = request.get(name, [])
    if not isinstance(value, list) or any(not isinstance(s, list) for s in value):
        raise MalformedError("expected a list of lists of cards", location=name)
    return tuple(parse_cards(s) for s in value)


def _bool(request: dict[str, Any], name: str, default: bool | None = None) -> bool:
    value = request.get(name, default)
    if not isinstance(value, bool):
        raise MalformedError("expected true or false", location=name)
    return value


def op_maal(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    maal = count_maal(hand=_cards(request, "hand"), table=_cards(request, "table", []),
                      tunnelas_at_deal=_sets(request, "tunnelas_at_deal"), tiplu=_tiplu(request),
                      seen=_bool(request, "seen"), ruleset=ruleset)
    return maal.to_json()


def op_combo(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    cards = _cards(request, "cards")
    purpose = request.get("purpose")
    try:
        if purpose == "show":
            kind = check_show_set(cards, ruleset=ruleset)
        elif purpose == "finish":
            kind = check_finish_set(cards, tiplu=_tiplu(request), ruleset=ruleset)
        else:
            raise MalformedError("purpose must be 'show' or 'finish'", location="purpose")
    except IllegalMoveError as exc:
        return {"valid": False, "kind": None, "rule": exc.rule, "reason": exc.reason}
    return {"valid": True, "kind": kind.value, "rule": None}


def op_finish(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    shown = _sets(request, "shown")
    hand = _cards(request, "hand")
    tiplu = _tiplu(request)
    if len(shown) == 7 and all(len(s) == 2 for s in shown):
        check_dublee_show(shown, ruleset=ruleset)
        dublee = True
    elif len(shown) == 3 and all(len(s) == 3 for s in shown):
        for s in shown:
            check_show_set(s, ruleset=ruleset)
        dublee = False
    else:
        raise MalformedError("shown must be the three shown sets or the seven shown dublees", location="shown")
    table = tuple(c for s in shown for c in s)
    found = find_finish(hand, tiplu=tiplu, ruleset=ruleset, dublee=dublee, table=table)
    answer: dict[str, Any] = {"finishes": found is not None, "dublee": dublee}
    if found is not None:
        answer.update(found.to_json())
    return answer


def op_settle(request: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    scores = request.get("scores")
    if not isinstance(scores, list):
        raise MalformedError("expected a list of integer scores", location="scores")
    scores = tuple(scores)
    winner = request.get("winner")
    if winner is None:
        nets = void_nets(scores)
        seen = request.get("seen") or [False] * len(scores)
        pairwise = pairwise_nets(scores, winner=None, seen=tuple(seen), dublee_finish=False, ruleset=ruleset)
        return {"void": True, "payments": None, "nets": list(nets), "pairwise_nets": list(pairwise)}
    seen = request.get("seen")
    if not isinstance(seen, list):
        raise MalformedError("expected a list of booleans, one per seat", location="seen")
    seen = tuple(seen)
    dublee = _bool(request, "dublee_finish", False)
    kw = dict(winner=winner, seen=seen, dublee_finish=dublee, ruleset=ruleset)
    return {"void": False, "payments": list(streamlined(scores, **kw)),
            "nets": list(nets_streamlined(scores, **kw)), "pairwise_nets": list(pairwise_nets(scores, **kw))}


OPS = {"maal": op_maal, "combo": op_combo, "finish": op_finish, "settle": op_settle}


def evaluate(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one ``tiplu eval marriage`` request (raises on bad input)."""
    if not isinstance(request, dict):
        raise MalformedError("a request is a JSON object")
    op = request.get("op")
    if op not in OPS:
        raise MalformedError(f"unknown op {op!r}; known: {', '.join(OPS)}", location="op")
    return OPS[op](request, _ruleset(request))
