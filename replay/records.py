"""The hand record ``tiplu.hand/3`` (and ``/2``, ``/1``): what an operator publishes about one hand.

A record is JSON (schema: ``docs/hand-record.schema.json``; guide: ``docs/records.md``)::

    {
      "format": "tiplu.hand/3",
      "hand_id": "t1-h0007",
      "table": {"table_id": "t1", "operator": "demo-operator", "public_key": "<hex>",
                "seats": [{"seat": 0, "player": "asha"}, ...], "dealer": 3,
                "point_value": "0.25", "commission_pct": "5", "carry": {...}},
      "ruleset": {<resolved ruleset, D-1>},
      "fairness": {"protocol": "v1", "ruleset_hash": "<hex>", "server_commitment": "<hex>",
                   "seat_commitments": ["<hex>", ...], "player_seeds": ["<hex>", ...],
                   "server_seed": "<hex>" | null, "statements": [<signed statements>],
                   "log_proofs": ["c2sp.org/tlog-proof@v1\\n...", ...]},
      "moves": [{"type": "...", "seat": 0, ..., "time": "...", "auto": false}, ...],
      "outcome": {"points": [...], "net_points": [...], "winner": 0 | null,
                  "breakdown": [...], "pot_delta_points": 0, "detail": {...},
                  "payouts": {"gross": [...], "nets": [...], "commission": "...", "pot_delta": "..."}}
    }

``tiplu.hand/2`` adds ``fairness.log_proofs``: one C2SP tlog-proof per statement, same order,
all under one checkpoint (``docs/records.md``, "Log evidence").  ``tiplu.hand/3`` has the same
shape; its statements are ``tiplu.statement/2`` (the ``record`` statement carries the move
chain's head, :mod:`replay.movechain`; each ``seat-receipt`` the hash of the ``hand``
statement).  ``tiplu.hand/1`` records (no log evidence) still parse and replay;
:attr:`HandRecord.is_log_bound` and :attr:`HandRecord.binds_moves` tell them apart.
This module only keeps the proofs' text: :mod:`audit.auditor.verdict.verify` checks them.

``table.carry`` holds what a game carries from the previous hand of the table (Kitti's
pot); it is passed to the engine's ``start``.  A move is the engine's move JSON plus an
optional ``time``; the replay strips ``time`` before handing the move to the engine.

This module parses a record into frozen values with typed errors (:class:`MalformedError`
with the JSON location); it does not judge whether the record is *true* -- that is
:mod:`replay.replayer` (the game) and :mod:`audit.auditor.verdict.verify` (signatures, order, money).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final

import msgspec

from .canonical import JSON_WITH_FLOATS, PLAIN_JSON, canonical_hash, canonical_json, json_kind, plain_canonical_json
from .errors import MalformedError, RulesetError
from .jsontext import decode_json
from .record_text import is_statement_time
from .fairness import parse_digest, parse_player_seed, parse_server_seed
from .rulesets import Ruleset
from .settlement import parse_commission_pct, parse_point_value

RECORD_FORMAT: Final = "tiplu.hand/3"  # what Tiplu writes (format 3: moves and terms bound)
RECORD_FORMAT_V2 = "tiplu.hand/2"  # log evidence, no move chain; still read and audited by its rules
RECORD_FORMAT_V1 = "tiplu.hand/1"  # no log evidence; still read
RECORD_FORMATS = (RECORD_FORMAT_V1, RECORD_FORMAT_V2, RECORD_FORMAT)
LOG_BOUND_FORMATS = (RECORD_FORMAT_V2, RECORD_FORMAT)
MAX_LOG_PROOF_CHARS = 8192
MAX_MOVES = 20_000
MAX_HAND_ID = 128


def _need(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise MalformedError("expected an object", location=where)
    if key not in obj:
        raise MalformedError(f"missing field {key!r}", location=where)
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise MalformedError(f"field {key!r} must be {names}", location=f"{where}.{key}")
    return value


def parse_hand_id(value: object, where: str = "hand_id") -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_HAND_ID or not value.isprintable():
        raise MalformedError(f"a hand id is 1..{MAX_HAND_ID} printable characters", location=where)
    return value


@dataclass(frozen=True, slots=True)
class TableInfo:
    table_id: str
    operator: str
    public_key: str
    players: tuple[str, ...]
    dealer: int
    point_value: Decimal
    commission_pct: Decimal
    carry: Mapping[str, Any]
    hand_no: int | None = None

    @property
    def n_seats(self) -> int:
        return len(self.players)


@dataclass(frozen=True, slots=True)
class Fairness:
    protocol: str
    ruleset_hash: str
    server_commitment: str
    seat_commitments: tuple[str, ...]
    player_seeds: tuple[bytes, ...] = field(repr=False)
    server_seed: bytes | None = field(repr=False)
    statements: tuple[Mapping[str, Any], ...] = field(repr=False)
    log_proofs: tuple[str, ...] | None = field(default=None, repr=False)  # None in a v1 record


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A parsed ``tiplu.hand/1``, ``/2`` or ``/3`` record.  ``raw`` keeps the JSON as published."""

    hand_id: str
    table: TableInfo
    ruleset: Ruleset
    fairness: Fairness
    moves: tuple[Mapping[str, Any], ...]
    outcome: Mapping[str, Any] | None
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    format: str = RECORD_FORMAT
    #: ``raw`` is plain JSON (:data:`replay.canonical.PLAIN_JSON`): its canonical bytes need no second look
    plain: bool = field(default=False, repr=False, compare=False)

    @property
    def record_hash(self) -> str:
        """What the record's ``record`` statement signs: :func:`record_hash` of ``raw``."""
        return record_hash(self.raw, plain=self.plain)

    @property
    def preset(self) -> str:
        return self.ruleset.preset

    @property
    def is_log_bound(self) -> bool:
        """Whether the record carries log evidence (``tiplu.hand/2`` and ``/3``)."""
        return self.fairness.log_proofs is not None

    @property
    def binds_moves(self) -> bool:
        """Whether the record is format 3 (``tiplu.hand/3``): its ``record`` statement carries
        the move chain's head, its seat receipts the hand statement's hash."""
        return self.format == RECORD_FORMAT


def _parse_table(t: Any) -> TableInfo:
    w = "table"
    if not isinstance(t, Mapping):
        raise MalformedError("expected an object", location=w)
    seats = _need(t, "seats", list, w)
    if not 1 <= len(seats) <= 16:
        raise MalformedError("a table has 1..16 seats", location=f"{w}.seats")
    players = []
    for i, s in enumerate(seats):
        if _need(s, "seat", int, f"{w}.seats[{i}]") != i:
            raise MalformedError("seats must be listed in order 0..n-1", location=f"{w}.seats[{i}].seat")
        players.append(_need(s, "player", str, f"{w}.seats[{i}]"))
    dealer = _need(t, "dealer", int, w)
    if not 0 <= dealer < len(seats):
        raise MalformedError("dealer is not a seat of the table", location=f"{w}.dealer")
    try:
        pv = parse_point_value(_need(t, "point_value", str, w))
        pct = parse_commission_pct(_need(t, "commission_pct", str, w))
    except MalformedError as exc:
        raise MalformedError(str(exc), location=w) from None
    hand_no = t.get("hand_no")
    if hand_no is not None and (not isinstance(hand_no, int) or isinstance(hand_no, bool) or hand_no < 0):
        raise MalformedError("hand_no must be a non-negative integer", location=f"{w}.hand_no")
    carry = t.get("carry", {})
    if not isinstance(carry, Mapping):
        raise MalformedError("carry must be an object", location=f"{w}.carry")
    return TableInfo(_need(t, "table_id", str, w), _need(t, "operator", str, w), _need(t, "public_key", str, w),
                     tuple(players), dealer, pv, pct, MappingProxyType(dict(carry)), hand_no)


_LOWER_HEX = re.compile("[0-9a-f]{64}").fullmatch


def _digest_hex(text: Any, what: str) -> str:
    """``parse_digest(text, what=what).hex()``: a digest as lower-case hex, checked.  The
    text of one (64 lower-case hex digits, a ``str``) is its own answer, with no round trip
    through bytes; anything else gets parse_digest's answer or its error."""
    if type(text) is str and _LOWER_HEX(text):
        return text
    return parse_digest(text, what=what).hex()


def _parse_fairness(f: Any, n_seats: int, *, v2: bool) -> Fairness:
    w = "fairness"
    if not isinstance(f, Mapping):
        raise MalformedError("expected an object", location=w)
    if _need(f, "protocol", str, w) != "v1":
        raise MalformedError("only protocol v1 is known", location=f"{w}.protocol")
    try:
        rs_hash = _digest_hex(_need(f, "ruleset_hash", str, w), "ruleset_hash")
        commit = _digest_hex(_need(f, "server_commitment", str, w), "server_commitment")
        seat_commits = tuple(_digest_hex(c, f"seat commitment {i}")
                             for i, c in enumerate(_need(f, "seat_commitments", list, w)))
        seeds = tuple(parse_player_seed(s) for s in _need(f, "player_seeds", list, w))
        server = f.get("server_seed")
        server_seed = None if server is None else parse_server_seed(server)
    except MalformedError as exc:
        raise MalformedError(str(exc), location=w) from None
    if len(seat_commits) != n_seats or len(seeds) != n_seats:
        raise MalformedError(f"one seat commitment and one seed per seat ({n_seats})", location=w)
    statements = f.get("statements", [])
    if not isinstance(statements, list) or not all(type(s) is dict or isinstance(s, Mapping) for s in statements):
        raise MalformedError("statements must be a list of signed statements", location=f"{w}.statements")
    for i, signed in enumerate(statements):
        st = signed.get("statement")
        if isinstance(st, Mapping) and "time" in st and not is_statement_time(st["time"]):
            raise MalformedError("a statement's time is written exactly YYYY-MM-DDTHH:MM:SS.mmmZ (UTC)",
                                 location=f"{w}.statements[{i}].statement.time")
    proofs = None
    if v2:
        proofs = f.get("log_proofs", [])  # the record attached at finish has neither yet
        if not isinstance(proofs, list):
            raise MalformedError("log_proofs must be a list of tlog proofs", location=f"{w}.log_proofs")
        if len(proofs) != len(statements):
            raise MalformedError("one log proof per statement", location=f"{w}.log_proofs")
        for i, p in enumerate(proofs):
            if not isinstance(p, str) or len(p) > MAX_LOG_PROOF_CHARS:
                raise MalformedError(f"a log proof is text of at most {MAX_LOG_PROOF_CHARS} characters",
                                     location=f"{w}.log_proofs[{i}]")
        proofs = tuple(proofs)
    elif "log_proofs" in f:
        raise MalformedError("a tiplu.hand/1 record carries no log proofs", location=f"{w}.log_proofs")
    return Fairness("v1", rs_hash, commit, seat_commits, seeds, server_seed, tuple(statements), proofs)


_decode = msgspec.json.Decoder().decode


class _Float(Exception):
    pass


def _no_float(text: str) -> Any:
    raise _Float


_decode_plain = msgspec.json.Decoder(float_hook=_no_float).decode


def load_json_kind(text: str | bytes) -> tuple[Any, int]:
    """:func:`load_json` and the value's :func:`~replay.canonical.json_kind`, known from
    the decoding (no walk of the value): what msgspec reads with no non-integer number is
    :data:`~replay.canonical.PLAIN_JSON`."""
    try:
        try:
            return _decode_plain(text), PLAIN_JSON
        except _Float:
            return _decode(text), JSON_WITH_FLOATS
    except (msgspec.DecodeError, RecursionError, UnicodeEncodeError):
        pass  # json.loads decides (and words the error), as in load_json
    value = load_json(text)
    return value, json_kind(value)


def load_json(text: str | bytes) -> Any:
    """JSON text to a value; :class:`MalformedError` with the line and column otherwise.

    msgspec decodes (about three times faster than :func:`json.loads`); it reads strict
    UTF-8 JSON to the very values :func:`json.loads` gives (last duplicate key wins, integers
    of any size).  What it refuses -- bad JSON, and the extras :func:`json.loads` accepts
    (``NaN``, ``Infinity``, lone surrogates, UTF-16/32 or BOM-prefixed bytes) --
    goes to :func:`json.loads`, which decides and words the error as before."""
    try:
        return decode_json(text)
    except json.JSONDecodeError as exc:
        raise MalformedError(f"not JSON: {exc.msg}", location=f"line {exc.lineno} column {exc.colno}") from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise MalformedError(f"not JSON: {type(exc).__name__}") from None


@lru_cache(maxsize=256)
def _ruleset_of(text: bytes) -> Ruleset:
    return Ruleset.from_json(json.loads(text))


def _ruleset(data: Any, plain: bool = False) -> Ruleset:
    """:meth:`Ruleset.from_json`; a plain-JSON ruleset (a record's, nearly always one of a
    few) is read once per process and kept under its canonical JSON: a :class:`Ruleset` is
    an immutable value of exactly that JSON.  ``plain``: the whole record is known plain."""
    if plain:
        return _ruleset_of(plain_canonical_json(data))
    if json_kind(data) == PLAIN_JSON:
        return _ruleset_of(canonical_json(data))
    return Ruleset.from_json(data)


def parse_record(data: Any, *, plain: bool = False) -> HandRecord:
    """Parse a record (a JSON object or its text); :class:`MalformedError` with a location.

    ``plain``: the caller found ``data`` :data:`~replay.canonical.PLAIN_JSON` (the audit
    does, once per record); then its hashes are written without walking it again."""
    if isinstance(data, (str, bytes)):
        data = load_json(data)
        plain = json_kind(data) == PLAIN_JSON
    if not isinstance(data, Mapping):
        raise MalformedError("a hand record must be a JSON object", location="$")
    fmt = data.get("format")
    if fmt not in RECORD_FORMATS:
        raise MalformedError(f"format must be {RECORD_FORMAT!r} (or {RECORD_FORMAT_V2!r}, {RECORD_FORMAT_V1!r})",
                             location="format")
    hand_id = parse_hand_id(data.get("hand_id"))
    table = _parse_table(data.get("table"))
    try:
        ruleset = _ruleset(data.get("ruleset"), plain)
    except RulesetError as exc:
        raise MalformedError(str(exc), location="ruleset") from None
    fairness = _parse_fairness(data.get("fairness"), table.n_seats, v2=fmt in LOG_BOUND_FORMATS)
    moves = _need(data, "moves", list, "$")
    if len(moves) > MAX_MOVES:
        raise MalformedError(f"at most {MAX_MOVES} moves", location="moves")
    for i, m in enumerate(moves):
        if type(m) is not dict and not isinstance(m, Mapping):
            raise MalformedError("a move must be an object", location=f"moves[{i}]")
    outcome = data.get("outcome")
    if outcome is not None and not isinstance(outcome, Mapping):
        raise MalformedError("outcome must be an object", location="outcome")
    return HandRecord(hand_id, table, ruleset, fairness, tuple(moves), outcome, data, fmt, plain)


_SIGNED_APART = ("server_seed", "statements", "log_proofs")

def record_core(record: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a record its ``record`` statement signs: everything but the server seed,
    the statements and their log proofs (published later, or signing the record themselves)."""
    core: dict[str, Any] = json.loads(json.dumps(record))
    for name in _SIGNED_APART:
        core.get("fairness", {}).pop(name, None)
    return core


def record_hash(record: Mapping[str, Any], *, plain: bool = False) -> str:
    """``canonical_hash(record_core(record))`` -- what the ``record`` statement signs -- without
    the deep copy: the core shares every value with ``record`` but a filtered ``fairness``.

    A record as JSON loads it (plain dicts, lists, strings, integers) hashes the same either
    way.  Anything else -- a key that is not a string, a float, a non-dict container --
    takes the general path through :func:`record_core`, so the answer (or the error) is
    always exactly that of ``canonical_hash(record_core(record))``.  ``plain``: the caller
    knows ``record`` is :data:`~replay.canonical.PLAIN_JSON`, so the core is not walked again.
    """
    fairness = record.get("fairness") if type(record) is dict else None
    if type(fairness) is dict:
        core = dict(record)
        core["fairness"] = {k: v for k, v in fairness.items() if k not in _SIGNED_APART}
        if plain:
            return hashlib.sha256(plain_canonical_json(core)).hexdigest()
        try:
            return canonical_hash(core)
        except MalformedError:
            pass  # the general path decides (JSON may turn the offending value into a valid one)
    return canonical_hash(record_core(record))
