"""The operator's ``finish``, checked: the record of a dealt hand made from its moves, or a
record the operator brings checked against the replay, before anything is stored.

The ledger's own :meth:`~audit.operator.ledger.Ledger.finish` stores whatever JSON object it is
given (it is the storage verb; the simulator's dishonest operator uses it to log its lies).
``tiplu hand finish`` and ``POST /api/v1/operator/hands/<id>/finish`` go through here, so an
honest operator cannot publish a record that every audit will then refuse:

* :func:`record_from_moves` -- the operator gives only the moves as played; the hand is
  replayed with the operator's server seed (still secret: it never leaves this process) and
  the record is built with the outcome and settlement the replay computes
  (:func:`audit.operator.publish.build_record`), the table's carry (Kitti's pot) and hand number
  from the table's previous record.
* :func:`check_record` -- the operator brings a whole record: it must be a record of the
  current format that the audit will not call malformed once published (publishing adds
  only the ledger's own statements, log proofs and server seed), the ledger's facts (table, seats, ruleset, seeds and
  commitments) must be its own, every move must replay, and the claimed outcome and
  payouts must equal the replay's key for key.  The first difference is named by its place
  (``$.outcome.payouts.nets[2]: the record says '1.00', the replay gives '4.00'``).

Either way a refusal is one :class:`~replay.errors.MalformedError` and nothing is stored.
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from replay.errors import MalformedError, TipluError
from replay.game import Outcome
from replay.records import RECORD_FORMAT, parse_record
from replay.registry import game_for
from replay.replayer import replay_record

from .publish import build_record
from ..schema import validate_record

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger

#: what a refusal adds, so the operator knows nothing happened
NOTHING_STORED = "nothing stored"


def table_place(ledger: Ledger, hand_id: str, table_id: str) -> tuple[dict[str, Any], int]:
    """``(carry, hand_no)`` of the next record at ``table_id``: the game's first carry and 0 at
    a table with no record yet, else what its last record leaves (its carry moved on by its
    outcome, ``Game.next_carry``) and one more than its number."""
    view = ledger.get_hand(hand_id)
    game = game_for(view.ruleset["game"])
    rows = ledger.db.execute(
        "SELECT record FROM hand_records WHERE hand_id != ? AND hand_id IN "
        "(SELECT id FROM hands WHERE table_id = ?) ORDER BY seq", [hand_id, table_id]).fetchall()
    if not rows:
        return dict(game.carry), 0
    last = json.loads(rows[-1][0])
    table = last.get("table") if isinstance(last.get("table"), Mapping) else {}
    outcome = last.get("outcome") if isinstance(last.get("outcome"), Mapping) else None
    stored_no = table.get("hand_no")
    hand_no = stored_no if isinstance(stored_no, int) else len(rows) - 1
    if not game.carry:
        return {}, hand_no + 1
    if outcome is None or not isinstance(table.get("carry"), Mapping):
        raise MalformedError(f"the table's previous record (hand {last.get('hand_id')!r}) has no outcome or carry "
                             "to carry on from: give the whole record with its table.carry")
    try:
        previous = Outcome(points=tuple(outcome["points"]), net_points=tuple(outcome["net_points"]),
                           winner=outcome.get("winner"), breakdown=tuple(outcome.get("breakdown") or ()),
                           pot_delta_points=outcome.get("pot_delta_points", 0), detail=outcome.get("detail") or {})
        return game.next_carry(table["carry"], previous), hand_no + 1
    except (KeyError, TypeError, TipluError) as exc:
        raise MalformedError(f"cannot carry on from the table's previous record: {exc}") from None


def _replayed(ledger: Ledger, hand_id: str, moves: Sequence[Any], carry: Mapping[str, Any],
              hand_no: int | None) -> tuple[dict[str, Any], Any]:
    """The record the ledger would build for these moves, and the replay of them (strict:
    the first refused move is an error naming it)."""
    if not isinstance(moves, list):
        raise MalformedError(f"the moves are a JSON array of move objects; {NOTHING_STORED}", location="moves")
    for i, m in enumerate(moves):
        if not isinstance(m, Mapping):
            raise MalformedError(f"a move must be an object; {NOTHING_STORED}", location=f"moves[{i}]")
    # a stand-in outcome (removed below): only the ledger's facts and the moves are replayed
    n = ledger.get_hand(hand_id).n_seats
    stub = build_record(ledger, hand_id, moves=moves, outcome=Outcome((0,) * n, (0,) * n, None),
                        settlement=_zero_settlement(n), carry=carry, hand_no=hand_no)
    stub["fairness"]["server_seed"] = ledger.operator_server_seed(hand_id).hex()
    stub.pop("outcome", None)
    result = replay_record(parse_record(stub), strict=True)
    if result.faults:
        f = result.faults[0]
        where = f"move {f.move_index}: " if f.move_index is not None else ""
        raise MalformedError(f"the moves do not replay: {where}{f.message} ({f.reason.value}); {NOTHING_STORED}")
    if result.outcome is None or result.settlement is None:
        raise MalformedError(f"the moves do not finish the hand ({len(moves)} moves replayed, the hand is not over); "
                             f"{NOTHING_STORED}")
    return build_record(ledger, hand_id, moves=moves, outcome=result.outcome, settlement=result.settlement,
                        carry=carry, hand_no=hand_no), result


def _zero_settlement(n: int) -> Any:
    from decimal import Decimal

    from replay.settlement import settle

    return settle((0,) * n, point_value=Decimal(1), commission_pct=Decimal(0))


def record_from_moves(ledger: Ledger, hand_id: str, moves: Sequence[Any]) -> dict[str, Any]:
    """The record of dealt hand ``hand_id`` played as ``moves``: outcome and settlement from
    the replay, carry and hand number from the table's previous record."""
    view = ledger.get_hand(hand_id)
    carry, hand_no = table_place(ledger, hand_id, view.table_id)
    return _replayed(ledger, hand_id, moves, carry, hand_no)[0]


def first_difference(mine: Any, theirs: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """The first place (JSON path, sorted keys) where ``theirs`` differs from ``mine``:
    ``(path, their value, my value)``, a missing value as the string ``"(missing)"``."""
    if isinstance(mine, Mapping) and isinstance(theirs, Mapping):
        for k in sorted(set(mine) | set(theirs)):
            if k not in theirs:
                return f"{path}.{k}", "(missing)", mine[k]
            if k not in mine:
                return f"{path}.{k}", theirs[k], "(missing)"
            d = first_difference(mine[k], theirs[k], f"{path}.{k}")
            if d is not None:
                return d
        return None
    if isinstance(mine, list) and isinstance(theirs, list):
        for i, (a, b) in enumerate(zip(mine, theirs)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d is not None:
                return d
        if len(mine) != len(theirs):
            return f"{path}", f"{len(theirs)} items", f"{len(mine)} items"
        return None
    if type(mine) is not type(theirs) or mine != theirs:
        return path, theirs, mine
    return None


def _short(value: Any) -> str:
    text = value if value == "(missing)" or (isinstance(value, str) and value.endswith(" items")) \
        else json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


def check_record(ledger: Ledger, hand_id: str, record: Mapping[str, Any]) -> None:
    """Refuse (:class:`MalformedError`, one line) a record for dealt hand ``hand_id`` that the
    audit would call malformed once published, that is not the ledger's hand, whose moves do
    not replay, or whose outcome or payouts differ from the replay's."""
    if not isinstance(record, Mapping):
        raise MalformedError(f"a hand record must be a JSON object; {NOTHING_STORED}")
    if record.get("format") != RECORD_FORMAT:
        raise MalformedError(f"the record's format must be {RECORD_FORMAT!r} (or give only the moves: "
                             f"'tiplu hand finish HAND --moves FILE'); {NOTHING_STORED}", location="format")
    try:  # as attached; what publishing adds (statements, log proofs, the seed) is the ledger's own
        validate_record(record)
        parse_record(record)
    except MalformedError as exc:
        raise MalformedError(f"the record is malformed: {exc}; {NOTHING_STORED}") from None
    for part in ("statements", "log_proofs", "server_seed"):
        if isinstance(record.get("fairness"), Mapping) and part in record["fairness"]:
            raise MalformedError(f"the record may not carry fairness.{part}: the ledger adds it when it publishes; "
                                 f"{NOTHING_STORED}", location=f"fairness.{part}")
    table = record["table"]
    carry = table.get("carry") if isinstance(table.get("carry"), Mapping) else {}
    expected, _ = _replayed(ledger, hand_id, list(record["moves"]), carry, table.get("hand_no"))
    diff = first_difference(expected, dict(record))
    if diff is not None:
        where, theirs, mine = diff
        source = "the replay gives" if where.startswith("$.outcome") else "the ledger has"
        raise MalformedError(f"the record differs at {where}: the record says {_short(theirs)}, "
                             f"{source} {_short(mine)}; {NOTHING_STORED}")


def finish_hand(ledger: Ledger, hand_id: str, *, record: Mapping[str, Any] | None = None,
                moves: Sequence[Any] | None = None, played: bool = False, now: datetime | None = None
                ) -> dict[str, Any]:
    """Attach a checked record to dealt hand ``hand_id`` (from ``moves``, from the moves
    ``played`` one by one through the ledger, or ``record`` checked); the signed ``record``
    statement.  Exactly one of the three."""
    if (record is not None) + (moves is not None) + bool(played) != 1:
        raise MalformedError("give the hand's moves, its whole record, or finish with the moves played (one of them)")
    if played:
        moves = ledger.played_moves(hand_id)
    view = ledger.get_hand(hand_id)
    from .ledger.lifecycle import HandState

    if view.state is not HandState.DEALT:  # the ledger's own words for a hand in another state
        return ledger.finish(hand_id, record if record is not None else {"hand_id": view.id}, now=now)
    if moves is not None:
        record = record_from_moves(ledger, view.id, moves)
    else:
        if not isinstance(record, Mapping):
            raise MalformedError(f"a hand record must be a JSON object; {NOTHING_STORED}")
        if record.get("hand_id") != view.id:
            raise MalformedError(f"the record's hand_id must be {view.id!r}; {NOTHING_STORED}", location="hand_id")
        check_record(ledger, view.id, record)
    return ledger.finish(view.id, record, now=now)
