"""Rulesets as data (replay/rulesets.py, replay/canonical.py): D-1."""
import hashlib
import json
import pathlib

import pytest
from hypothesis import given, strategies as st

from replay.canonical import canonical_hash, canonical_json
from replay.errors import MalformedError, RulesetError
from replay.rulesets import PRESETS, Ruleset, allowed_players, preset_spec, resolve

VECTORS_FILE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "vectors" / "v1.json"
VECTORS = json.loads(VECTORS_FILE.read_text())["vectors"]


@pytest.mark.parametrize("preset,overrides", [
    ("no-such", {}), ("Kitti", {}), (None, {}),
    ("kitti", {"no_such_setting": 1}),
    ("kitti", {"hand_size": "9"}),            # wrong JSON type
    ("kitti", {"four_pairs_void": 1}),        # int for a boolean
    ("kitti", {"stake": True}),               # boolean for an integer
    ("kitti", {"stake": 0}),                  # below min
    ("kitti", {"win_rule": "first"}),         # not a choice
    ("kitti", {"shoe": {"decks": 1}}),        # object with other keys
    ("rummy13", {"players": {"allowed": [4], "x": 1}}),
    ("marriage/nepal", {"direction": "sideways"}),
    ("kitti", ["stake", 2]),                  # overrides not an object
    ("kitti", {"stake": 2**53}),              # beyond JavaScript's exact integers
    ("rummy13", {"players": {"allowed": [4, 2**60]}}),
])
def test_bad_presets_and_overrides_are_ruleset_errors(preset, overrides):  # rule D-1
    with pytest.raises(RulesetError, match=r"^(unknown preset '[\w-]+'; known: marriage/nepal, |preset '[a-z0-9/]+' has no setting '\w+'$|setting '\w+'(:| must) |settings overrides must be a JSON object$)"):
        resolve(preset, overrides)


def test_float_setting_is_refused():  # rule D-1: canonical JSON has no floats
    with pytest.raises((RulesetError, MalformedError), match=r"^setting 'stake' must be a JSON integer, got float$"):
        resolve("kitti", {"stake": 1.5})


def test_hash_is_sha256_of_the_canonical_json():  # rule D-1
    rs = resolve("marriage/nepal")
    text = json.dumps(rs.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert rs.hash == hashlib.sha256(text.encode()).hexdigest()
    assert canonical_json({"b": 1, "a": [True, None, "é"]}) == '{"a":[true,null,"é"],"b":1}'.encode()


def test_hash_is_stable():  # rule D-1: the vectors pin every preset's hash
    for v in VECTORS:
        assert resolve(v["preset"], Ruleset.from_json(v["ruleset"]).overrides()).hash == v["ruleset_hash"]
    # an override equal to the default is no change; override order does not matter
    assert resolve("kitti", {"stake": 1}).hash == resolve("kitti").hash
    a = resolve("kitti", {"stake": 2, "win_rule": "consecutive"})
    b = resolve("kitti", {"win_rule": "consecutive", "stake": 2})
    assert a.hash == b.hash and a == b and hash(a) == hash(b)
    assert a.hash != resolve("kitti", {"stake": 2}).hash


@pytest.mark.parametrize("preset", PRESETS)
def test_from_json_round_trip(preset):  # rule D-1
    rs = resolve(preset)
    again = Ruleset.from_json(json.loads(json.dumps(rs.to_json())))
    assert again == rs and again.to_json() == rs.to_json() and again.hash == rs.hash
    assert eval(repr(rs), {"resolve": resolve}) == rs


@pytest.mark.parametrize("mangle", [
    lambda d: d.update(format="tiplu.ruleset/0"),
    lambda d: d.update(game="kitti"),
    lambda d: d.update(preset="nope"),
    lambda d: d["settings"].pop("hand_size"),
    lambda d: d["settings"].update(extra=1),
    lambda d: d["settings"].update(hand_size=-1) if "min" in preset_spec(d["preset"])["settings"]["hand_size"]
    else d["settings"].update(hand_size="x"),
])
def test_from_json_refuses_mangled_rulesets(mangle):  # rule D-1
    data = resolve("marriage/classic").to_json()
    mangle(data)
    with pytest.raises(RulesetError, match=r"^(a ruleset must |preset 'marriage/classic' is game 'marriage', not 'kitti'$|setting 'hand_size' must be a JSON integer, got string$|unknown preset 'nope'; known: )"):
        Ruleset.from_json(data)


def test_from_json_refuses_non_objects():
    for bad in (None, [], "kitti", 3):
        with pytest.raises(RulesetError, match=r"^a ruleset must be an object with format 'tiplu\.ruleset/1'$"):
            Ruleset.from_json(bad)


def test_resolved_settings_are_immutable_copies():  # rule D-1: rules cannot change after the deal
    overrides = {"players": {"allowed": [4, 6]}}
    rs = resolve("rummy13", overrides)
    overrides["players"]["allowed"].append(8)
    assert rs["players"] == {"allowed": [4, 6]}
    with pytest.raises(TypeError):
        rs.settings["hand_size"] = 1  # type: ignore[index]


def test_allowed_players():  # rules R-1, MN-4, MC-1, D-12
    assert allowed_players(resolve("rummy13")) == (4, 6, 8)
    assert allowed_players(resolve("marriage/nepal")) == (2, 3, 4, 5)
    assert allowed_players(resolve("marriage/classic")) == (2, 3, 4, 5)
    assert allowed_players(resolve("kitti")) == (2, 3, 4, 5)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
                    max_leaves=20))
def test_canonical_json_is_parseable_and_order_free(value):  # rule D-1
    text = canonical_json(value)
    assert json.loads(text) == value
    if isinstance(value, dict):
        assert canonical_hash(dict(reversed(list(value.items())))) == canonical_hash(value)


def test_canonical_json_refuses_floats_and_non_string_keys():
    with pytest.raises(MalformedError, match=r"^\$\.a\[1\]: floats are not allowed in canonical JSON; use a decimal string$"):
        canonical_json({"a": [1, 0.5]})
    with pytest.raises(MalformedError, match=r"^\$: object keys must be strings$"):
        canonical_json({1: "a"})


def test_canonical_json_refuses_lone_surrogates():
    with pytest.raises(MalformedError, match=r"^a string holds a lone surrogate, which has no UTF-8 form$"):
        canonical_json({"a": "\ud800"})
