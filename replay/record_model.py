"""The record model: the one definition of a hand record's shape, as ``msgspec`` Structs.

They validate (every constraint of docs/hand-record.schema.json, checked against it by
tests/audit/test_record_model.py) and write (:func:`record_json`, what
:mod:`audit.operator.publish` makes records with); :func:`replay.records.parse_record` then
reads the meaning.  :func:`check_shape` is the fast yes/no answer :mod:`audit.schema` asks first.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .errors import MalformedError
from .registry import game_names
from .rulesets import PRESETS
from .records import MAX_HAND_ID, MAX_LOG_PROOF_CHARS, MAX_MOVES

# The one definition of a record's shape: ``msgspec`` Structs.  They validate (every
# constraint of docs/hand-record.schema.json, checked against it by tests/test_record_model.py),
# and write (:func:`record_json`); :func:`parse_record` then reads the meaning.

_HEX64 = "^[0-9a-f]{64}$"
_AMOUNT = "^-?[0-9]{1,15}(\\.[0-9]{1,2})?$"
Hex64 = Annotated[str, Meta(pattern=_HEX64)]
Amount = Annotated[str, Meta(pattern=_AMOUNT)]
Count = Annotated[int, Meta(ge=0)]
Name = Annotated[str, Meta(max_length=128)]
JsonObject = dict[str, Any]
# the built-in presets and games, from the registry (replay/<game>/presets/) when this module
# loads: a new game's folder changes the model, and tests/audit/test_record_model.py fails
# until the documented schema says so too.  A type checker cannot read a Literal made at run
# time: to it they are strings.
if TYPE_CHECKING:
    PresetName = str
    GameName = str
else:
    PresetName = Literal[PRESETS]
    GameName = Literal[game_names()]


class Doc(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A part of the record model: unknown fields are read past (the record is open, as its
    schema is); a field left :data:`msgspec.UNSET` is absent from the JSON."""


class SeatDoc(Doc):
    seat: Count
    player: Name


class TableDoc(Doc):
    table_id: Annotated[str, Meta(min_length=1, max_length=MAX_HAND_ID)]
    operator: Name
    public_key: Hex64
    seats: Annotated[list[SeatDoc], Meta(min_length=1, max_length=16)]
    dealer: Count
    point_value: Amount
    commission_pct: Amount
    carry: Annotated[JsonObject, Meta(description="What the game carries from the table's previous hand "
                                                  "(Kitti: the pot).")] | UnsetType = UNSET
    hand_no: Annotated[int, Meta(ge=0, description="The hand's number within its table, from 0.")] | UnsetType = UNSET


class RulesetDoc(Doc):
    format: Literal["tiplu.ruleset/1"]
    preset: PresetName
    game: GameName
    settings: JsonObject


class SignedStatementDoc(Doc):
    statement: Annotated[JsonObject, Meta(extra_json_schema={"required": ["type", "kind", "hand_id"]})]
    key: Hex64
    sig: Annotated[str, Meta(pattern="^[0-9a-f]{128}$")]

    def __post_init__(self) -> None:
        for name in ("type", "kind", "hand_id"):
            if name not in self.statement:
                raise ValueError(f"a statement needs {name!r}")


class FairnessDoc(Doc):
    protocol: Literal["v1"]
    ruleset_hash: Hex64
    server_commitment: Hex64
    seat_commitments: list[Hex64]
    player_seeds: list[Annotated[str, Meta(pattern="^([0-9a-f]{2}){16,64}$")]]
    server_seed: Hex64 | None | UnsetType = UNSET
    statements: list[SignedStatementDoc] | UnsetType = UNSET
    log_proofs: Annotated[list[Annotated[str, Meta(max_length=MAX_LOG_PROOF_CHARS,
                                                   pattern="^c2sp\\.org/tlog-proof@v1\n")]],
                          Meta(description="tiplu.hand/2 and /3: one C2SP tlog-proof (c2sp.org/tlog-proof@v1) per "
                                           "statement, same order, all under one checkpoint")] | UnsetType = UNSET


class MoveDoc(Doc):
    """A move's common fields; the rest is the game engine's move JSON (kept as read)."""

    seat: Count
    type: Annotated[str, Meta(max_length=32)]
    time: Annotated[str, Meta(max_length=40)] | UnsetType = UNSET
    auto: bool | UnsetType = UNSET


class PayoutsDoc(Doc):
    nets: list[Amount]
    commission: Amount
    gross: list[Amount] | UnsetType = UNSET
    pot_delta: Amount | UnsetType = UNSET


class OutcomeDoc(Doc):
    points: list[int] | UnsetType = UNSET
    net_points: list[int] | UnsetType = UNSET
    winner: int | None | UnsetType = UNSET
    breakdown: list[Any] | UnsetType = UNSET
    pot_delta_points: int | UnsetType = UNSET
    detail: JsonObject | UnsetType = UNSET
    payouts: PayoutsDoc | UnsetType = UNSET


_convert = msgspec.convert
_MOVES = list[MoveDoc]
MoveJson = Annotated[JsonObject, Meta(extra_json_schema=msgspec.json.schema(MoveDoc)["$defs"]["MoveDoc"])]


class HandRecordDoc(Doc):
    """``tiplu.hand/3`` (and ``/2``, ``/1``) -- one hand as an operator publishes it."""

    format: Literal["tiplu.hand/3", "tiplu.hand/2", "tiplu.hand/1"]
    hand_id: Annotated[str, Meta(min_length=1, max_length=MAX_HAND_ID)]
    table: TableDoc
    ruleset: RulesetDoc
    fairness: FairnessDoc
    moves: Annotated[list[MoveJson], Meta(max_length=MAX_MOVES)]
    outcome: OutcomeDoc | None | UnsetType = UNSET

    def __post_init__(self) -> None:
        try:  # each move is kept whole (the engine's JSON); its common fields are checked here
            _convert(self.moves, _MOVES)
        except msgspec.ValidationError as exc:
            raise ValueError(f"moves: {exc}") from None


def record_json(doc: HandRecordDoc) -> dict[str, Any]:
    """The JSON value of a record written through the model, checked against it (a value
    the schema refuses is a :class:`MalformedError` naming its location)."""
    data: dict[str, Any] = msgspec.to_builtins(doc)   # a Struct's builtins are a dict
    try:
        _convert(data, HandRecordDoc)
    except msgspec.ValidationError as exc:
        raise MalformedError(f"the record does not fit its schema: {exc}") from None
    return data


def check_shape(data: Any) -> bool:
    """Whether ``data`` has the record's shape (:class:`HandRecordDoc`, which is
    ``docs/hand-record.schema.json``): a yes/no answer for plain JSON values (dicts, lists,
    strings, numbers, booleans, ``None``).  A rejected record's violation and location are
    then found by :func:`audit.schema.schema_errors`."""
    try:
        _convert(data, HandRecordDoc)
    except (msgspec.ValidationError, UnicodeEncodeError, RecursionError):
        return False  # UnicodeEncodeError: a lone surrogate, which msgspec will not hold
    return True
