"""The verifier's building blocks in Chromium against their Python references: card
notation, canonical JSON (the byte-level traps), rulesets, and the typed errors."""

import pytest

from replay.canonical import canonical_json
from replay.cards import ALL_CARDS
from replay.rulesets import PRESETS, allowed_players, resolve

# Values whose canonical JSON is easy to get wrong in JavaScript: keys that sort
# differently by UTF-16 unit and by code point, non-ASCII, control characters, nesting.
CANONICAL_CASES = [
    {"b": 1, "a": [True, False, None], "c": {"z": "x", "y": -0}},
    {"\uff5e": 1, "\U0001F600": 2, "~": 3, "é": 4, "E": 5, "": 6},
    {"s": "tab\there \"quoted\" back\\slash \u0001\u001f\u007f é 🂡 \u2028"},
    ["नेपाल", "マリッジ", "मराठी", {"k": [1, 2, [3, {"deep": "er"}]]}],
    {"amount": "0.25", "n": 9007199254740991, "neg": -42},
]

RUN = """
async (cases) => {
  const K = await import("./verifier/canonical.mjs");
  const C = await import("./verifier/cards.mjs");
  const R = await import("./verifier/rulesets.mjs");
  const F = await import("./verifier/fairness.mjs");
  const V = await import("./verifier/verifier.mjs");
  const S = await import("./verifier/stream.mjs");
  const E = await import("./verifier/errors.mjs");
  const code = async (f) => { try { await f(); return "no error"; }
    catch (e) { return e instanceof E.VerifyError ? e.code : "untyped:" + e; } };
  const out = {};
  out.canonical = cases.map((c) => Array.from(K.canonicalJson(c)));
  out.texts = Array.from({length: 54}, (_, i) => C.cardText(i));
  out.roundtrip = out.texts.every((t, i) => C.parseCard(t) === i);
  out.ten = ["10S", "10H", "10D", "10C"].map(C.parseCard);
  out.card_errors = await Promise.all(["ts", "1S", "JOKER", "", "AX", 7].map((t) => code(() => C.parseCard(t))));
  out.float_error = await code(() => K.canonicalJson({a: 1.5}));
  out.surrogate_error = await code(() => K.canonicalJson({a: "\\ud800"}));
  out.presets = R.PRESETS;
  out.hashes = {};
  out.allowed = {};
  for (const p of R.PRESETS) { const rs = await R.resolve(p); out.hashes[p] = rs.hash; out.allowed[p] = R.allowedPlayers(rs); }
  out.ruleset_errors = await Promise.all([
    () => R.resolve("poker"),
    () => R.resolve("kitti", {no_such: 1}),
    () => R.resolve("kitti", {win_rule: "never"}),
    () => R.resolve("kitti", {stake: 0}),
    () => R.resolve("kitti", {stake: "1"}),
    () => R.resolve("kitti", {stake: 1.5}),
    () => R.resolve("kitti", {shoe: {decks: 2}}),
    () => R.rulesetFromJson({format: "tiplu.ruleset/1", preset: "kitti", game: "rummy13", settings: {}}),
  ].map(code));
  const seed = "a1".repeat(32), ps = ["22".repeat(16), "33".repeat(16), "44".repeat(16), "55".repeat(16)];
  const base = {preset: "rummy13", hand_id: "h", dealer: 0, server_seed: seed, player_seeds: ps};
  out.input_errors = await Promise.all([
    () => V.verifyHand({...base, server_seed: seed.toUpperCase()}),
    () => V.verifyHand({...base, server_seed: seed + "00"}),
    () => V.verifyHand({...base, player_seeds: [...ps.slice(0, 3), "66".repeat(15)]}),
    () => V.verifyHand({...base, player_seeds: [...ps.slice(0, 3), "66".repeat(65)]}),
    () => V.verifyHand({...base, player_seeds: ps.slice(0, 3)}),
    () => V.verifyHand({...base, dealer: 4}),
    () => V.verifyHand({...base, n_seats: 5}),
    () => V.verifyHand({...base, hand_id: 7}),
    () => V.verifyHand({...base, server_commitment: "zz"}),
    () => V.verifyHand({...base, player_commitments: ["00".repeat(32)]}),
    () => V.verifyHand({...base, hands: [["XX"]] , stock: ["XX"]}),
    () => F.verifyServerSeed(F.parseServerSeed(seed), "00".repeat(32)),
    () => F.verifyPlayerSeed("h", 0, F.parsePlayerSeed(ps[0]), "00".repeat(32)),
  ].map(code));
  out.good = await code(async () => F.verifyPlayerSeed("h", 1, F.parsePlayerSeed(ps[1]),
                                                       await F.commitPlayerSeed("h", 1, F.parsePlayerSeed(ps[1]))));
  // the same hand under another ruleset, another hand id or another seat order differs
  const r0 = await V.verifyHand(base);
  const r1 = await V.verifyHand({...base, overrides: {first_drop: 25}});
  const r2 = await V.verifyHand({...base, hand_id: "h2"});
  const r3 = await V.verifyHand({...base, player_seeds: [ps[1], ps[0], ps[2], ps[3]]});
  out.differs = [r1, r2, r3].map((r) => r.shoe.join() !== r0.shoe.join());
  // a non-ASCII hand id is bound as its UTF-8 bytes, as in Python
  const rn = await V.verifyHand({...base, hand_id: "हात-७/マ"});
  out.unicode = {material: rn.material, player_commitments: rn.player_commitments, hands: rn.deal.hands};
  out.base = {shoe: r0.shoe, material: r0.material, ruleset_hash: r0.ruleset_hash};
  // randbelow bounds and a stream read word by word equals the shuffle's reads
  const key = await S.hmacKey(F.parseServerSeed(seed));
  const st = new S.Stream(key, new Uint8Array(32), "deal");
  out.randbelow = [await st.randbelow(1), await st.randbelow(2 ** 32), await st.randbelow(7)];
  out.randbelow_errors = await Promise.all([() => st.randbelow(0), () => st.randbelow(2 ** 32 + 1), () => st.randbelow(2.5)].map(code));
  return out;
}
"""


@pytest.fixture(scope="module")
def js(browser, static_server):
    context = browser.new_context()
    pg = context.new_page()
    pg.goto(static_server + "/verify.html")
    out = pg.evaluate(RUN, CANONICAL_CASES)
    context.close()
    return out


def test_canonical_json_is_byte_identical_to_python(js):  # rule D-1
    for case, got in zip(CANONICAL_CASES, js["canonical"]):
        assert bytes(got) == canonical_json(case), case


def test_canonical_json_refuses_what_python_refuses(js):
    assert js["float_error"] == "malformed"
    assert js["surrogate_error"] == "malformed"


def test_card_notation_matches_python(js):
    assert js["texts"] == [str(c) for c in ALL_CARDS]
    assert js["roundtrip"] is True
    assert js["ten"] == [9, 22, 35, 48]
    assert js["card_errors"] == ["card"] * 6


def test_rulesets_resolve_like_python(js):  # rule D-1
    assert js["presets"] == list(PRESETS)
    assert js["hashes"] == {p: resolve(p).hash for p in PRESETS}
    assert js["allowed"] == {p: list(allowed_players(resolve(p))) for p in PRESETS}
    assert js["ruleset_errors"] == ["ruleset"] * 8


def test_unreadable_inputs_throw_typed_errors(js):
    assert js["input_errors"] == [
        "malformed",  # upper-case hex
        "malformed",  # server seed of 33 bytes
        "malformed",  # player seed of 15 bytes
        "malformed",  # player seed of 65 bytes
        "ruleset",    # 3 seats at rummy13 (rule R-1: 4, 6 or 8)
        "ruleset",    # dealer seat 4 at a table of 4
        "malformed",  # n_seats disagrees with the seeds
        "malformed",  # hand id not a string
        "malformed",  # commitment not hex
        "malformed",  # one commitment for four seats
        "card",       # a claimed card that is no card
        "commitment_mismatch",
        "commitment_mismatch",
    ]
    assert js["good"] == "no error"


def test_every_input_is_bound_into_the_shoe(js):  # rules R-21, D-1
    assert js["differs"] == [True, True, True]
    from replay.fairness import commit_player_seed, hand_randomness
    seeds = [bytes([b]) * 16 for b in (0x22, 0x33, 0x44, 0x55)]
    hr = hand_randomness(bytes([0xa1]) * 32, "h", resolve("rummy13"), seeds)
    assert js["base"]["shoe"] == [str(c) for c in hr.shoe()]
    assert js["base"]["material"] == hr.material.hex()
    hu = hand_randomness(bytes([0xa1]) * 32, "हात-७/マ", resolve("rummy13"), seeds)
    assert js["unicode"]["material"] == hu.material.hex()
    assert js["unicode"]["player_commitments"] == [commit_player_seed("हात-७/マ", i, s) for i, s in enumerate(seeds)]
    assert js["unicode"]["hands"] == hu.deal(0).to_json()["hands"]


def test_randbelow_bounds(js):
    assert js["randbelow"][0] == 0 and 0 <= js["randbelow"][1] < 2 ** 32 and 0 <= js["randbelow"][2] < 7
    assert js["randbelow_errors"] == ["malformed"] * 3
