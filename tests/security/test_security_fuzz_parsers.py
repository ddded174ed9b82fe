"""Every parser answers bad input with a typed error, never with another exception.

Hypothesis feeds each parser of outside input -- cards, every engine's moves, hand
records (parse, schema, replay), seeds and hex, amounts, checkpoints, Merkle proofs, signed
statements, rulesets, ids, JSON text -- with arbitrary values and with *mutations of valid
ones* (a valid record or move with one field replaced, deleted or re-typed).  A rejection
must be a :class:`~replay.errors.TipluError` (the typed errors are also ``ValueError``s);
a ``TypeError``, ``KeyError``, ``RecursionError``, ``AttributeError`` ... is a bug.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.errors import ProofError
from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table
from audit.schema import schema_errors
from audit.signing import verify_statement
from audit.tlog.checkpoint import parse_checkpoint, verify_checkpoint
from audit.tlog.merkle import root_from_inclusion_proof, verify_consistency, verify_inclusion
from audit.auditor.verdict.verify import audit_record
from replay.cards import ALL_CARDS, parse_card, parse_cards
from replay.errors import TipluError
from replay.fairness import parse_digest, parse_player_seed, parse_server_seed
from replay.game import engine_for
from replay.registry import game_for
from replay.records import load_json, parse_record
from replay.replayer import replay_record
from replay.rulesets import Ruleset, resolve
from replay.settlement import parse_amount


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PRESETS = ("kitti", "rummy13", "marriage/nepal", "marriage/classic")

# Text that attacks parsers: control characters, NUL, lone surrogates, bidi overrides,
# homoglyphs of card names (Cyrillic/Greek/fullwidth), zero-width joiners, other scripts' digits.
TRICKS = ["\x00", "\u202e", "\u202d", "\u2066", "\u200b", "\u200d", "\ufeff", "\ud800", "\udfff",
          "А", "К", "Т", "Ѕ", "Н", "С", "Α", "Κ", "Ｋ", "Ｈ", "７", "१", "३", "٣", "\u0301", "\n", "\r", " ",
          "1e3", "-0", "NaN", "Infinity", "٫", "½", "²"]
tricky_text = st.one_of(
    st.text(max_size=12),
    st.lists(st.sampled_from(TRICKS + list("AKQJT98765432SHDCJKM0123456789abcdef.-_+")), max_size=10).map("".join),
    st.sampled_from([str(c) for c in ALL_CARDS]).flatmap(
        lambda c: st.sampled_from(TRICKS).map(lambda t: c[:1] + t + c[1:])),
)
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
                         st.floats(allow_nan=True, allow_infinity=True), tricky_text)
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(tricky_text, inner, max_size=4)), max_leaves=12)


def rejects_typed(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """Call ``fn``; a rejection must be a TipluError (anything else fails the test)."""
    try:
        return fn(*args, **kw)
    except TipluError:
        return None
    except Exception as exc:  # noqa: BLE001 - the point of the test
        try:
            shown = str(args)[:300]
        except RecursionError:
            shown = "<too deep to show>"
        pytest.fail(f"{getattr(fn, '__qualname__', fn)} raised {type(exc).__name__}: {str(exc)[:200]} on {shown}")


# -- mutating a valid JSON value ------------------------------------------------------------

def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(value: Any, path: tuple, action: str, new: Any) -> Any:
    value = json.loads(json.dumps(value))
    if not path:
        return new
    parent = value
    for p in path[:-1]:
        parent = parent[p]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "wrap":
        parent[last] = [parent[last]]
    elif action == "stringify":
        parent[last] = str(parent[last])
    else:
        parent[last] = new
    return value


@st.composite
def mutations(draw, valid: Any) -> Any:
    paths = _paths(valid)
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["replace", "delete", "wrap", "stringify"] if path else ["replace"]))
    return _mutate(valid, path, action, draw(json_values))


# -- fixtures: real records and moves of every game ------------------------------------------

def _records() -> dict[str, dict]:
    """One real record per preset, played by the bots through a real (in-memory) ledger."""
    out: dict[str, dict] = {}
    for preset, n in (("kitti", 4), ("rummy13", 4), ("marriage/nepal", 3), ("marriage/classic", 3)):
        ledger = Ledger(":memory:")
        ledger.new_operator("demo-operator")
        simulate_table(ledger, preset=preset, players=n, hands=1, seed="fuzz", table_id="t1", tamper_rate=0.0,
                       on_record=lambda record, kind: out.setdefault(preset, record))  # noqa: B023 - called within this iteration
        ledger.close()
    return out


RECORDS = _records()


# -- the parsers ---------------------------------------------------------------------------

@FUZZ
@given(st.one_of(tricky_text, json_values))
def test_cards(value):
    card = rejects_typed(parse_card, value)
    if card is not None:
        assert parse_card(str(card)) == card and str(card) in (value, value.replace("10", "T"))
    rejects_typed(parse_cards, value)
    rejects_typed(parse_cards, [value, "AS"])


@pytest.mark.parametrize("name", ["AS", "KH", "TD", "JK", "MC", "7C"])
def test_homoglyph_and_invisible_card_names_are_refused(name):
    for fake in (name.replace("A", "А").replace("K", "К").replace("T", "Т").replace("C", "С").replace("H", "Н"),
                 "\u202e" + name, name + "\u200b", name[0] + "\x00" + name[1:], name.lower(),
                 "Ｋ" + name[1:], name + "\ud800"):
        if fake != name:
            with pytest.raises(TipluError, match=r"^not a card: .* \(expected e\.g\. 7H, TS, JK, MC\)$"):
                parse_card(fake)


@FUZZ
@given(st.sampled_from(PRESETS), json_values)
def test_every_engines_parse_move_on_arbitrary_json(preset, value):
    engine = engine_for(resolve(preset))
    move = rejects_typed(engine.parse_move, value)
    if move is not None:
        assert engine.parse_move(move.to_json()) == move


def _moves_of(preset: str) -> list[dict]:
    return [{k: v for k, v in m.items() if k != "time"} for m in RECORDS[preset]["moves"]]


@FUZZ
@given(st.data())
def test_every_engines_parse_move_on_mutated_real_moves(data):
    preset = data.draw(st.sampled_from(PRESETS))
    engine = engine_for(resolve(preset))
    moves = _moves_of(preset)
    valid = data.draw(st.sampled_from(moves))
    engine.parse_move(valid)  # the unmutated move parses
    move = rejects_typed(engine.parse_move, data.draw(mutations(valid)))
    if move is not None:
        assert engine.parse_move(move.to_json()) == move


@FUZZ
@given(st.sampled_from(PRESETS), tricky_text)
def test_every_engines_parse_move_text(preset, text):
    rejects_typed(game_for(resolve(preset).game).parse_move_text, text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_records_parse_validate_replay_and_audit_on_mutations(data):
    preset = data.draw(st.sampled_from(PRESETS))
    bad = data.draw(mutations(RECORDS[preset]))
    parsed = rejects_typed(parse_record, bad)
    rejects_typed(schema_errors, bad)
    if parsed is not None:
        rejects_typed(replay_record, parsed, strict=False)
    rejects_typed(audit_record, bad)


@FUZZ
@given(json_values)
def test_records_on_arbitrary_json(value):
    rejects_typed(parse_record, value)
    rejects_typed(parse_record, json.dumps(value, allow_nan=True))
    rejects_typed(audit_record, value)


@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize("shape", ["[", '{"a":'])
def test_deeply_nested_json_is_refused_cleanly(depth, shape):
    closer = "]" if shape == "[" else "}"
    text = shape * depth + "1" + closer * depth
    for fn in (load_json, parse_record, audit_record):
        rejects_typed(fn, text)
        rejects_typed(fn, text.encode())
    nested: Any = 1
    for _ in range(min(depth, 5_000)):
        nested = [nested]
    record = dict(RECORDS["kitti"], outcome={"detail": nested})
    rejects_typed(parse_record, record)
    rejects_typed(audit_record, record)


@FUZZ
@given(st.one_of(tricky_text, json_values, st.binary(max_size=80).map(bytes.hex),
                 st.binary(max_size=80).map(lambda b: b.hex().upper())))
def test_seeds_and_digests(value):
    for fn in (parse_server_seed, parse_player_seed, parse_digest):
        out = rejects_typed(fn, value)
        if out is not None:
            assert out.hex() == value


@FUZZ
@given(st.one_of(tricky_text, json_values, st.decimals(allow_nan=True).map(str),
                 st.integers().map(str), st.integers(min_value=-(10 ** 40), max_value=10 ** 40)))
def test_amounts(value):
    for kw in ({}, {"allow_negative": True}):
        out = rejects_typed(parse_amount, value, **kw)
        if out is not None:
            assert out.is_finite() and abs(out) < 10 ** 15 and out == out.quantize(out.__class__("0.01"))
            assert kw or out >= 0


@pytest.mark.parametrize("text", ["-1", "-0.01", "1e3", "1E3", "1000000000000000", "9" * 400, "1.001", "0x10",
                                  "NaN", "Infinity", "-Infinity", "١٢", "१", "1_000", " 1", "1 ", "+1", "", ".5",
                                  "5.", "1\x00", "\u202e1"])
def test_negative_huge_and_odd_amounts_are_refused(text):
    with pytest.raises(TipluError, match=r'^amount (has more than two decimal places|must be a decimal string such as "0\.25"|must not be negative \(or carry a sign\))'):
        parse_amount(text)


def test_huge_integers_and_floats_are_refused():
    for value in (10 ** 15, 10 ** 400, -1, 0.5, float("nan"), float("inf"), True):
        with pytest.raises(TipluError, match=r'^amount (has more than two decimal places|must be a decimal string such as "0\.25"|must not be negative \(or carry a sign\))'):
            parse_amount(value)


def _signed_checkpoint() -> str:

    from audit.signing import SigningKey
    from audit.tlog.checkpoint import sign_checkpoint

    key = SigningKey.from_hex("11" * 32)
    return sign_checkpoint(key, origin="tiplu.example/log", size=6, root=bytes(range(32))).text


CHECKPOINT = _signed_checkpoint()
CHECKPOINT_KEY = "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"


def test_the_fuzzed_checkpoint_is_valid():
    verify_checkpoint(CHECKPOINT, CHECKPOINT_KEY, origin="tiplu.example/log")


@FUZZ
@given(st.one_of(tricky_text, json_values))
def test_checkpoints_on_arbitrary_input(value):
    rejects_typed(parse_checkpoint, value)
    rejects_typed(verify_checkpoint, value, CHECKPOINT_KEY)


@FUZZ
@given(st.integers(min_value=0, max_value=len(CHECKPOINT) - 1), tricky_text)
def test_checkpoints_with_one_splice(at, splice):
    text = CHECKPOINT[:at] + splice + CHECKPOINT[at + 1:]
    rejects_typed(parse_checkpoint, text)
    rejects_typed(verify_checkpoint, text, CHECKPOINT_KEY)


hashes = st.one_of(st.binary(min_size=32, max_size=32), st.binary(max_size=40), json_scalars)


@FUZZ
@given(hashes, st.one_of(st.integers(min_value=-3, max_value=2 ** 64), json_scalars),
       st.one_of(st.integers(min_value=-3, max_value=2 ** 64), json_scalars),
       st.lists(hashes, max_size=70), hashes)
def test_merkle_proofs(leaf, index, size, path, root):
    for fn, args in ((verify_inclusion, (leaf, index, size, path, root)),
                     (root_from_inclusion_proof, (leaf, index, size, path)),
                     (verify_consistency, (index, size, leaf, root, path))):
        try:
            fn(*args)
        except ProofError:
            pass
        except TipluError:
            pass
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{fn.__name__} raised {type(exc).__name__}: {exc}")


@FUZZ
@given(json_values, st.one_of(st.none(), tricky_text))
def test_signed_statements(value, key):
    rejects_typed(verify_statement, value, key)
    rejects_typed(verify_statement, {"statement": value, "key": key, "sig": value}, None)


@FUZZ
@given(st.one_of(tricky_text, json_values), st.one_of(st.none(), json_values))
def test_rulesets(preset, overrides):
    rejects_typed(resolve, preset, overrides)
    rejects_typed(Ruleset.from_json, overrides)


@FUZZ
@given(st.data())
def test_rulesets_with_mutated_settings(data):
    preset = data.draw(st.sampled_from(PRESETS))
    rs = resolve(preset).to_json()
    rejects_typed(Ruleset.from_json, data.draw(mutations(rs)))


@FUZZ
@given(json_values)
def test_json_text(value):
    text = json.dumps(value, allow_nan=True)
    rejects_typed(load_json, text)
    rejects_typed(load_json, text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(tricky_text, st.binary(max_size=40))
def test_json_text_that_is_not_json(text, raw):
    rejects_typed(load_json, text)
    rejects_typed(load_json, raw)


# -- the ledger's verbs: the edge every id and integer passes (CLI, web, Python) --------------

_FUZZ_LEDGER: dict[str, Ledger] = {}


def _fuzz_ledger() -> Ledger:
    if "l" not in _FUZZ_LEDGER:
        ledger = Ledger(":memory:")
        ledger.new_operator("acme")
        ledger.new_table("t1", operator="acme", preset="kitti", seats=3)
        _FUZZ_LEDGER["l"] = ledger
    return _FUZZ_LEDGER["l"]


BIG_INTS = st.sampled_from([2 ** 63, 2 ** 63 - 1, -(2 ** 63) - 1, 2 ** 64, 10 ** 30, -1])


@FUZZ
@given(value=st.one_of(BIG_INTS, json_values), verb=st.sampled_from(
    ["table", "operator", "get_hand", "commit", "new_hand_table", "new_hand_players", "new_hand_dealer",
     "new_table_seats", "new_table_id", "seed_commit_seat"]))
def test_ledger_verbs_refuse_any_json_value_with_a_typed_error(value, verb):
    """A list, an object, an integer of 2**63 or any other JSON value where an id, a seat or a
    name belongs: a TipluError, never a driver error (ProgrammingError, OverflowError)."""
    ledger = _fuzz_ledger()
    calls = {
        "table": lambda: ledger.table(value),
        "operator": lambda: ledger.operator(value),
        "get_hand": lambda: ledger.get_hand(value),
        "commit": lambda: ledger.commit(value),
        "new_hand_table": lambda: ledger.new_hand(value, ["a", "b", "c"], hand_id="fz"),
        "new_hand_players": lambda: ledger.new_hand("t1", value, hand_id="fz"),
        "new_hand_dealer": lambda: ledger.new_hand("t1", ["a", "b", "c"], dealer=value, hand_id="fz"),
        "new_table_seats": lambda: ledger.new_table("tz", operator="acme", preset="kitti", seats=value),
        "new_table_id": lambda: ledger.new_table(value, operator="acme", preset="kitti", seats=3),
        "seed_commit_seat": lambda: ledger.seed_commit("nohand", value, "00" * 32),
    }
    rejects_typed(calls[verb])
