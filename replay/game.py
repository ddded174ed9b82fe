"""A game as one object (:class:`Game`), the small interface every engine implements, and
the view of a state that every renderer shows.

Each ``replay/<game>/__init__.py`` exports one :class:`Game` as ``GAME``; the one registry
(:mod:`replay.registry`) finds it from a preset's ``game``.

An engine is built from a resolved :class:`~replay.rulesets.Ruleset` and is otherwise
stateless: game state is an immutable value (or confined to the engine's own copy) and
``apply`` returns the next state, so a replay can stop, branch and resume anywhere.

    engine = engine_for(ruleset)
    state = engine.start(randomness, dealer=0)         # deal from the v1 shoe
    while not engine.is_over(state):
        seat = engine.to_move(state)
        move = choose(engine.legal_moves(state))
        state = engine.apply(state, move)              # IllegalMoveError if not allowed
    outcome = engine.outcome(state)                     # points, breakdown, net points

Moves are frozen values with a JSON form (``engine.parse_move(d)`` / ``move.to_json()``)
and a text form (``str(move)``); both round-trip.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from .errors import RulesetError
from .registry import game_for

if TYPE_CHECKING:
    from .cards import Card
    from .deal import Deal
    from .fairness import HandRandomness
    from .signals import Observation
    from .stream import Stream
    from .rulesets import Ruleset


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, in points.

    ``points`` -- each seat's game score (maal for Marriage, counted points for Rummy,
    rounds won for Kitti); ``net_points`` -- what each seat gains (+) or pays (-) in
    points, which with ``pot_delta_points`` sums to zero; ``winner`` -- the seat that
    finished / declared / took the pot, or ``None``; ``breakdown`` -- per seat, the JSON
    detail an auditor or the website shows (maal items, groups, rounds ...).
    """

    points: tuple[int, ...]
    net_points: tuple[int, ...]
    winner: int | None
    breakdown: tuple[Mapping[str, Any], ...] = ()
    pot_delta_points: int = 0
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "net_points": list(self.net_points),
            "winner": self.winner,
            "breakdown": [dict(b) for b in self.breakdown],
            "pot_delta_points": self.pot_delta_points,
            "detail": dict(self.detail),
        }


@runtime_checkable
class Move(Protocol):
    """A move: the seat that makes it (read-only, so frozen dataclasses qualify) and its JSON form."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class Engine(Protocol):
    """What every game engine provides."""

    game: str
    ruleset: Ruleset

    def start(self, randomness: HandRandomness, *, dealer: int, **table: Any) -> Any:
        """The state right after the deal."""

    def to_move(self, state: Any) -> int | None:
        """The seat expected to act next, or ``None`` when the hand is over."""

    def legal_moves(self, state: Any) -> Sequence[Move]:
        """Every move the rules allow now (for bots and for tests)."""

    def apply(self, state: Any, move: Move) -> Any:
        """The state after ``move``; :class:`~replay.errors.IllegalMoveError` if not allowed
        (a move of another game included: an engine takes any :class:`Move` and checks it)."""

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> Outcome: ...

    def parse_move(self, data: Mapping[str, Any]) -> Move:
        """A move from its JSON form; :class:`~replay.errors.MalformedError` if it does not parse."""

    def work_points(self, outcome: Outcome) -> dict[str, Any]:
        """The terms of the outcome's net points, for :func:`replay.worked.work_settlement`."""


@dataclass(frozen=True)
class DealLayout:
    """What a game lays out after the hands, in shoe order (see :mod:`replay.deal`): the
    wild-card indicator, set aside face up and never drawn (Rummy, R-5), then the card
    turned up to start the discard pile (Marriage MN-3, Rummy D-19); the rest is the stock.
    Kitti turns nothing (K-1).

    The words people read for them (the browser verifier's deal, from the data
    ``tools/build_offline_verifier.py`` generates): ``turned_up_label`` the turned-up
    card's caption, ``stock_label`` the rest's caption and ``stock_title`` its heading."""

    indicator: bool = False
    turned_up: bool = False
    turned_up_label: str = "Turned up: discard pile starts"
    stock_label: str = "Stock"
    stock_title: str = "Stock"

    def to_json(self) -> dict[str, Any]:
        """The layout as the JavaScript verifier reads it (``gamedata.mjs``)."""
        return {"indicator": self.indicator, "turned_up": self.turned_up, "turned_up_label": self.turned_up_label,
                "stock_label": self.stock_label, "stock_title": self.stock_title}

    @property
    def cards_after_hands(self) -> int:
        return int(self.indicator) + int(self.turned_up)


@dataclass(frozen=True)
class View:
    """What people see of a state: the one value ``tiplu replay``, the website's replay
    viewer and :func:`audit.render.render_state` show.

    ``hands`` -- each seat's cards, by seat, in card notation (``"AS"``);
    ``table`` -- everything else on the table, by name, as JSON values, in display order:
    piles as card lists (``stock`` top first, ``discards`` and ``open_pile`` oldest first,
    ``closed_pile`` top first), single cards (``tiplu``, ``indicator``), the wild rank
    (``wild_rank``, ``"A"`` ... ``"K"``) and ``shown`` (per seat, the groups it laid);
    ``text`` -- the parts the text form shows (``"hands"`` and names in ``table``): the
    game decides what ``tiplu replay`` prints; ``oldest_first`` -- the piles in ``table``
    listed oldest first, whose top is their last card (every other pile's is its first).

    :meth:`to_json` is what the website's viewer draws; :meth:`text_json` and
    :meth:`lines` are ``tiplu replay``'s ``--json`` state and its text.
    """

    hands: tuple[tuple[str, ...], ...]
    table: Mapping[str, Any] = field(default_factory=dict)
    text: tuple[str, ...] = ("hands",)
    oldest_first: tuple[str, ...] = ("discards", "open_pile")

    def to_json(self) -> dict[str, Any]:
        """``{"hands": [...], **table}``."""
        return {"hands": [list(h) for h in self.hands], **{k: _json_copy(v) for k, v in self.table.items()}}

    def text_json(self) -> dict[str, Any]:
        """The parts the text shows: ``hands`` (empty if the text shows none), then each
        named part of ``table`` in ``text`` order."""
        return {"hands": [list(h) for h in self.hands] if "hands" in self.text else [],
                **{k: _json_copy(self.table[k]) for k in self.text if k != "hands"}}

    def lines(self) -> list[str]:
        """The text form: ``seat i: cards`` per hand shown, then each part -- a list of more
        than 12 cards as its size and its top card (the last of an ``oldest_first`` pile,
        else the first), anything else written out."""
        shown = self.text_json()
        out = [f"seat {i}: {' '.join(h)}" for i, h in enumerate(shown.pop("hands"))]
        for k, v in shown.items():
            if isinstance(v, list) and len(v) > 12 and all(isinstance(c, str) for c in v):
                out.append(f"{k}: {len(v)} cards, top {v[-1] if k in self.oldest_first else v[0]}")
            else:
                out.append(f"{k}: {v if not isinstance(v, list) else ' '.join(map(str, v))}")
        return out


def _json_copy(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_json_copy(x) for x in v]
    return v


def cards_text(cards: Sequence[Any]) -> tuple[str, ...]:
    """Cards in their notation (``str(card)``)."""
    return tuple(str(c) for c in cards)


class CarryError(RulesetError):
    """A record's ``table.carry`` holds a key its game does not carry between hands."""


@dataclass(frozen=True)
class Game:
    """One game, everything the house needs of it (exported as ``replay/<game>/GAME``).

    ``name`` -- the rulesets' ``game``; ``engine`` -- the engine class, called with a
    resolved ruleset; ``parse_move_json`` / ``parse_move_text`` -- a move from its JSON /
    text form (:class:`~replay.errors.MalformedError` if it does not parse); ``view`` --
    a state as a :class:`View`; ``deal_layout`` -- the cards laid out after the hands;
    ``eval_handlers`` -- ``tiplu eval <name>``'s answer to one JSON request (raises a
    :class:`~replay.errors.TipluError` for bad input); ``carry`` -- what a table's first
    hand carries (``table.carry``), whose keys are the only ones a record may carry;
    ``carry_after`` -- ``(carry, outcome) -> carry``, what the next hand carries (see
    :meth:`next_carry`); ``describe_move`` -- a move in words for people (``None``: its
    notation); ``jokers_of_hand`` -- ``(ruleset, deal, outcome) -> is_joker``, which cards
    were jokers in a played hand, for the deal statistics (``None``: a game without jokers,
    or the function returns ``None`` when the hand fixed no jokers); ``hidden_signals`` --
    ``(engine, state, move, stream) -> [Observation]``, how a decision made in ``state``
    lines up with cards its maker could not see (:mod:`replay.signals`; ``None``: no
    signal yet); ``worked_template`` -- the file of the hand page's worked point terms, a
    Jinja partial given ``pts`` (the engine's ``work_points``), ``players`` and
    ``ruleset`` (``None``: the page lists each seat's ``sum`` with no rule of its own);
    ``worked_heading`` -- ``(pts, name_of_seat) -> str``, the first line of ``tiplu replay``'s
    worked settlement (``None``: ``settlement (<method>)``).
    """

    name: str
    engine: Callable[["Ruleset"], "Engine"]
    parse_move_json: Callable[[Mapping[str, Any]], Move]
    parse_move_text: Callable[[str], Move]
    view: Callable[[Any], View]
    deal_layout: DealLayout
    eval_handlers: Callable[[dict[str, Any]], dict[str, Any]]
    carry: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    carry_after: Callable[[Mapping[str, Any], Outcome], Mapping[str, Any]] | None = None
    describe_move: Callable[[Move, Sequence[str]], str] | None = None
    jokers_of_hand: Callable[["Ruleset", "Deal", Outcome], Callable[["Card"], bool] | None] | None = None
    hidden_signals: Callable[[Any, Any, Move, "Stream"], list["Observation"]] | None = None
    worked_template: Path | None = None
    worked_heading: Callable[[Mapping[str, Any], Callable[[int], str]], str] | None = None

    def next_carry(self, carry: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
        """What the table's next hand carries (its ``table.carry``) after a hand that
        carried ``carry`` ended in ``outcome`` (D-14); ``{}`` for a game that carries
        nothing."""
        return dict(self.carry_after(carry, outcome)) if self.carry_after is not None else {}

    def table_options(self, carry: Mapping[str, Any]) -> dict[str, Any]:
        """The carry as the engine's ``start`` options; :class:`CarryError` for a key this
        game does not carry."""
        unknown = sorted(k for k in carry if k not in self.carry)
        if unknown and not self.carry:
            raise CarryError(f"{self.name} takes no table options, got {unknown}")
        if unknown:
            raise CarryError(f"{self.name} carries only {sorted(self.carry)} between hands, got {unknown}")
        return dict(carry)


def engine_for(ruleset: "Ruleset") -> Engine:
    """The engine of the ruleset's game."""
    return game_for(ruleset.game).engine(ruleset)
