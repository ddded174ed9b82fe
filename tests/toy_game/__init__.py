"""A toy fourth game, "high card", as one folder laid out as a game in ``replay/`` is: this
package's GAME and presets/ (toy.json, its preset, and order.json) are all of it.  Each
seat gets one card and a card is turned up (the deal layout); in turn from the dealer's
left each seat shows; the highest rank wins (Ace high, the first seat to show it on a
tie) and every other seat pays it one point.  ``worked.html`` words its worked
settlement on the hand page.
tests/test_game_registry.py finds it as the registry finds replay/'s games, registers it
and plays it through the house."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from replay.cards import Card
from replay.deal import left_of
from replay.errors import IllegalMoveError, MalformedError, RulesetError
from replay.game import DealLayout, Game, Outcome, View, cards_text
from replay.rulesets import Ruleset

PRESET = json.loads((Path(__file__).parent / "presets" / "toy.json").read_text())


@dataclass(frozen=True, slots=True)
class Show:
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "show", "seat": self.seat}

    def __str__(self) -> str:
        return f"{self.seat} show"


def parse_move_json(data: Mapping[str, Any]) -> Show:
    if not isinstance(data, Mapping) or data.get("type") != "show" or set(data) != {"type", "seat"}:
        raise MalformedError("a toy move is {\"type\": \"show\", \"seat\": n}")
    seat = data["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise MalformedError("'seat' must be a seat number")
    return Show(seat)


def parse_move_text(text: str) -> Show:
    parts = text.split(" ") if isinstance(text, str) else []
    if len(parts) != 2 or parts[1] != "show" or not (parts[0].isascii() and parts[0].isdigit()):
        raise MalformedError(f"not a toy move: {text!r}")
    return Show(int(parts[0]))


@dataclass(frozen=True)
class ToyState:
    hands: tuple[tuple[Card, ...], ...]
    turned_up: Card
    turn: int
    shown: tuple[int, ...] = ()


def _value(card: Card) -> int:
    return 14 if card.rank == 1 else int(card.rank)   # Ace high


class ToyEngine:
    game = "toy"

    def __init__(self, ruleset: Ruleset) -> None:
        if ruleset.game != "toy":
            raise RulesetError("not a toy ruleset")
        self.ruleset = ruleset

    def start(self, randomness: Any, *, dealer: int, **table: Any) -> ToyState:
        d = randomness.deal(dealer)
        return ToyState(d.hands, d.turned_up, left_of(dealer, randomness.n_seats))

    def to_move(self, state: ToyState) -> int | None:
        return None if self.is_over(state) else state.turn

    def is_over(self, state: ToyState) -> bool:
        return len(state.shown) == len(state.hands)

    def legal_moves(self, state: ToyState) -> list[Show]:
        return [] if self.is_over(state) else [Show(state.turn)]

    def apply(self, state: ToyState, move: Show) -> ToyState:
        if self.is_over(state) or move.seat != state.turn:
            raise IllegalMoveError(f"seat {state.turn} shows now, not seat {move.seat}")
        return replace(state, turn=left_of(state.turn, len(state.hands)), shown=state.shown + (move.seat,))

    def parse_move(self, data: Mapping[str, Any]) -> Show:
        return parse_move_json(data)

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the nets for the hand page (replay.worked; worked.html words them)."""
        n, winner = len(outcome.points), outcome.winner
        rows = [{"seat": s, "value": v, "net_points": outcome.net_points[s],
                 "sum": f"receives 1 from each of {n - 1} = {n - 1}" if s == winner else f"shows {v}, pays 1"}
                for s, v in enumerate(outcome.points)]
        return {"method": "toy", "winner": winner, "rows": rows, "net_points": list(outcome.net_points)}

    def outcome(self, state: ToyState) -> Outcome:
        points = tuple(_value(h[0]) for h in state.hands)
        winner = max(state.shown, key=lambda s: (points[s], -state.shown.index(s)))
        n = len(points)
        return Outcome(points, tuple(n - 1 if s == winner else -1 for s in range(n)), winner)


def view(state: ToyState) -> View:
    hands = tuple(cards_text(h) for h in state.hands)
    return View(hands, {"turned_up": str(state.turned_up), "shown": list(state.shown)},
                text=("hands", "turned_up"))


def evaluate(request: dict) -> dict:
    if request.get("op") != "value":
        raise MalformedError("toy knows op 'value'", location="op")
    from replay.cards import parse_card
    return {"value": _value(parse_card(request["card"]))}


def worked_heading(pts: Mapping[str, Any], name: Any) -> str:
    return f"high card: {name(pts['winner'])} wins; every other seat pays it 1"


GAME = Game(name="toy", engine=ToyEngine, parse_move_json=parse_move_json, parse_move_text=parse_move_text,
            view=view, deal_layout=DealLayout(turned_up=True, turned_up_label="Turned up, never played",
                                              stock_label="Unused", stock_title="Unused cards"),
            eval_handlers=evaluate, worked_template=Path(__file__).with_name("worked.html"),
            worked_heading=worked_heading)
