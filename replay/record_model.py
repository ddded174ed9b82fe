"""The record model: the one definition of a hand record's shape, as ``msgspec`` Structs.

The record's JSON Schema is generated from it (:func:`record_schema`; the published file,
``audit/schemas/hand-record.schema.json``, is written by ``tools/make_record_schema.py`` and a
test fails when it is not current).  The Structs validate and write (:func:`record_json`, what
:mod:`audit.operator.publish` makes records with); :func:`replay.records.parse_record` then
reads the meaning.  :func:`check_shape` is the fast yes/no answer :mod:`audit.schema` asks first.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .errors import MalformedError
from .registry import game_names, is_game, is_preset
from .rulesets import PRESETS
from .record_text import STATEMENT_TIME_PATTERN
from .records import MAX_HAND_ID, MAX_LOG_PROOF_CHARS, MAX_MOVES
from .settlement import AMOUNT_PATTERN, COMMISSION_PCT_PATTERN, POINT_VALUE_PATTERN


def _whole(pattern: str) -> str:
    """``pattern`` (``^...$``) matching the whole text in Python too.  JSON Schema's patterns
    are ECMA-262's, where ``$`` is the end of the text; Python's ``$`` (jsonschema's and
    msgspec's reading) also matches before a final newline, so ``"...\\n"`` would pass here and
    fail in the browser (shape.mjs).  ``(?!\\n)`` after the ``$`` means the same in both."""
    assert pattern.startswith("^") and pattern.endswith("$"), pattern
    return pattern + r"(?!\n)"


_HEX64 = _whole("^[0-9a-f]{64}$")
Hex64 = Annotated[str, Meta(pattern=_HEX64)]
Amount = Annotated[str, Meta(pattern=_whole(AMOUNT_PATTERN))]
# a table's money, by the one rule of replay.settlement: a point value above 0, a commission
# of at least 0 and below 100 percent (docs/records.md, "Table money")
PointValue = Annotated[str, Meta(pattern=_whole(POINT_VALUE_PATTERN),
                                 description="a point value: an amount more than 0 (docs/records.md, Table money)")]
CommissionPct = Annotated[str, Meta(pattern=_whole(COMMISSION_PCT_PATTERN), description="a commission: an amount at least 0 "
                                    "and less than 100 (docs/records.md, Table money)")]
Count = Annotated[int, Meta(ge=0)]
Name = Annotated[str, Meta(max_length=128)]
JsonObject = dict[str, Any]
# A ruleset's preset and game are the registry's as it is when a record is read
# (:meth:`RulesetDoc.__post_init__`), so a game registered at run time (tests/toy_game) has
# records too.  The schema names the built-in ones (replay/<game>/presets/, read when this
# module loads): a new game's folder changes it, and tests/audit/test_record_model.py fails
# until the documented schema says so too.  To a type checker they are strings.
BUILTIN_PRESETS: tuple[str, ...] = PRESETS
BUILTIN_GAMES: tuple[str, ...] = game_names()
if TYPE_CHECKING:
    PresetName = str
    GameName = str
else:
    PresetName = Annotated[Any, Meta(extra_json_schema={"enum": sorted(BUILTIN_PRESETS)})]
    GameName = Annotated[Any, Meta(extra_json_schema={"enum": sorted(BUILTIN_GAMES)})]


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
    point_value: PointValue
    commission_pct: CommissionPct
    carry: Annotated[JsonObject, Meta(description="What the game carries from the table's previous hand "
                                                  "(Kitti: the pot).")] | UnsetType = UNSET
    hand_no: Annotated[int, Meta(ge=0, description="The hand's number within its table, from 0.")] | UnsetType = UNSET


class RulesetDoc(Doc):
    format: Literal["tiplu.ruleset/1"]
    preset: PresetName
    game: GameName
    settings: JsonObject

    def __post_init__(self) -> None:
        if not is_preset(self.preset):
            raise ValueError(f"preset: no preset {self.preset!r} is known")
        if not is_game(self.game):
            raise ValueError(f"game: no game {self.game!r} is known")


_TIME_PATTERN = _whole(STATEMENT_TIME_PATTERN)
_TIME = re.compile(_TIME_PATTERN).search  # search, as JSON Schema's pattern is read


class SignedStatementDoc(Doc):
    statement: Annotated[JsonObject, Meta(extra_json_schema={
        "required": ["type", "kind", "hand_id"],
        "properties": {"time": {"type": "string", "pattern": _TIME_PATTERN,
                                "description": "a statement time: UTC, exactly YYYY-MM-DDTHH:MM:SS.mmmZ "
                                               "(docs/records.md)"}}})]
    key: Hex64
    sig: Annotated[str, Meta(pattern=_whole("^[0-9a-f]{128}$"))]

    def __post_init__(self) -> None:  # what the extra schema above says, checked
        for name in ("type", "kind", "hand_id"):
            if name not in self.statement:
                raise ValueError(f"a statement needs {name!r}")
        time = self.statement.get("time", "")
        if not isinstance(time, str) or ("time" in self.statement and not _TIME(time)):
            raise ValueError("a statement's time is written YYYY-MM-DDTHH:MM:SS.mmmZ")


class FairnessDoc(Doc):
    protocol: Literal["v1"]
    ruleset_hash: Hex64
    server_commitment: Hex64
    seat_commitments: list[Hex64]
    player_seeds: list[Annotated[str, Meta(pattern=_whole("^([0-9a-f]{2}){16,64}$"))]]
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


SCHEMA_ID = "https://tiplu.example/schemas/tiplu.hand-3.json"
SCHEMA_TITLE = "tiplu.hand/3 (and tiplu.hand/2, tiplu.hand/1) -- one hand as an operator publishes it"


def record_schema() -> dict[str, Any]:
    """The record's JSON Schema (draft 2020-12), generated from :class:`HandRecordDoc`:
    ``msgspec.json.schema`` with every ``$ref`` written in place (each part is used once, so
    the file reads top to bottom), "X or null" written as one ``type`` list (so jsonschema
    locates a violation inside X, not at the ``anyOf``), the Structs' own names and an empty
    ``required`` dropped; nothing else is added.
    ``tools/make_record_schema.py`` writes it to ``audit/schemas/hand-record.schema.json``."""
    generated = msgspec.json.schema(HandRecordDoc)
    defs = generated["$defs"]

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            node = {**defs[node["$ref"].rsplit("/", 1)[1]], **{k: v for k, v in node.items() if k != "$ref"}}
        alts = node.get("anyOf")
        if isinstance(alts, list) and len(alts) == 2 and alts[1] == {"type": "null"} and len(node) == 1:
            one = inline(alts[0])  # every other keyword of one applies only to values of its type
            if isinstance(one.get("type"), str):
                return {**one, "type": [one["type"], "null"]}
        return {k: inline(v) for k, v in node.items() if k != "title" and not (k == "required" and v == [])}

    body = inline({k: v for k, v in generated.items() if k != "$defs"})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, "title": SCHEMA_TITLE,
            **body}


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
    """Whether ``data`` has the record's shape (:class:`HandRecordDoc`, whose schema is
    ``audit/schemas/hand-record.schema.json``): a yes/no answer for plain JSON values (dicts, lists,
    strings, numbers, booleans, ``None``).  A rejected record's violation and location are
    then found by :func:`audit.schema.schema_errors`."""
    try:
        _convert(data, HandRecordDoc)
    except (msgspec.ValidationError, UnicodeEncodeError, RecursionError):
        return False  # UnicodeEncodeError: a lone surrogate, which msgspec will not hold
    return True
