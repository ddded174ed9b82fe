"""Every v1 known-answer vector through the JavaScript verifier, in one page evaluation,
compared field by field with the fixture and with replay.fairness (R-22: any deal can be
replayed in the player's own browser)."""
import pytest

from replay.cards import parse_cards
from replay.fairness import hand_randomness
from replay.rulesets import Ruleset, resolve

# Runs in the page: imports the verifier's modules and computes everything per vector.
RUN_VECTORS = """
async ({vectors, extra}) => {
  const V = await import("./verifier/verifier.mjs");
  const F = await import("./verifier/fairness.mjs");
  const R = await import("./verifier/rulesets.mjs");
  const C = await import("./verifier/cards.mjs");
  const B = await import("./verifier/bytes.mjs");
  const out = [];
  for (const v of vectors) {
    const x = extra[v.name];
    const rs = await R.rulesetFromJson(v.ruleset);
    const byPreset = await R.resolve(v.preset, x.overrides);
    const server = F.parseServerSeed(v.server_seed);
    const seeds = v.player_seeds.map(F.parsePlayerSeed);
    const hr = await F.HandRandomness.create(server, v.hand_id, rs, seeds);
    const substreams = {};
    for (const [label, sub] of Object.entries(v.expect.substreams)) {
      const s = hr.stream(label);
      substreams[label] = {block0: B.toHex(await s.block(0)),
                           randbelow: {n: sub.randbelow.n, value: await s.randbelow(sub.randbelow.n)}};
    }
    const report = await V.verifyHand({
      ruleset: v.ruleset, ruleset_hash: v.ruleset_hash, hand_id: v.hand_id, n_seats: v.n_seats,
      dealer: v.dealer, server_seed: v.server_seed, player_seeds: v.player_seeds,
      server_commitment: v.expect.server_commitment, player_commitments: v.expect.player_commitments,
      hands: v.expect.hands, turned_up: v.expect.turned_up, indicator: v.expect.indicator, stock: v.expect.stock,
    });
    const fromRecord = await V.verifyHand(V.handInputFromRecord(v));
    const viaPreset = await V.verifyHand({preset: v.preset, overrides: x.overrides, hand_id: v.hand_id,
      dealer: v.dealer, server_seed: v.server_seed, player_seeds: v.player_seeds});
    out.push({
      name: v.name,
      ruleset_hash: rs.hash,
      preset_hash: byPreset.hash,
      server_commitment: await F.commitServerSeed(server),
      player_commitments: await Promise.all(seeds.map((s, i) => F.commitPlayerSeed(v.hand_id, i, s))),
      material: B.toHex(hr.material),
      shoe: (await hr.shoe()).map(C.cardText),
      deal: report.deal,
      substreams,
      tiplu: await hr.tipluPosition(v.expect.stock.length),
      reshuffle1: (await hr.reshuffle(1, C.parseCards(x.discards))).map(C.cardText),
      reshuffle2: (await hr.reshuffle(2, C.parseCards(x.discards))).map(C.cardText),
      redeal1: (await hr.redeal(1)).map(C.cardText),
      report: {ok: report.ok, complete: report.complete, checks: report.checks.map((c) => [c.name, c.ok]),
               material: report.material, shoe: report.shoe, seat_order: report.seat_order},
      from_record: {ok: fromRecord.ok, complete: fromRecord.complete, n: fromRecord.checks.length,
                    hands: fromRecord.deal.hands},
      via_preset: {ruleset_hash: viaPreset.ruleset_hash, shoe: viaPreset.shoe, deal: viaPreset.deal},
    });
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def js_results(browser, static_server, vectors):
    """The JavaScript verifier's results for every vector (one page, one evaluation)."""
    extra = {}
    for v in vectors:
        rs = Ruleset.from_json(v["ruleset"])
        extra[v["name"]] = {"overrides": rs.overrides(), "discards": v["expect"]["stock"][:40]}
    context = browser.new_context()
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(static_server + "/verify.html")
    results = pg.evaluate(RUN_VECTORS, {"vectors": vectors, "extra": extra})
    context.close()
    assert not errors, errors
    return {r["name"]: r for r in results}


def test_every_vector_was_run(js_results, vectors):
    assert sorted(js_results) == sorted(v["name"] for v in vectors)
    assert len(js_results) == 41


def test_commitments_material_and_ruleset_hash(js_results, vectors):  # rules, D-1
    for v in vectors:
        r, e = js_results[v["name"]], v["expect"]
        assert r["ruleset_hash"] == v["ruleset_hash"], v["name"]
        assert r["preset_hash"] == resolve(v["preset"], Ruleset.from_json(v["ruleset"]).overrides()).hash
        assert r["server_commitment"] == e["server_commitment"], v["name"]
        assert r["player_commitments"] == e["player_commitments"], v["name"]
        assert r["material"] == e["material"], v["name"]


def test_shoe_and_deal_match_the_fixture(js_results, vectors):  # rule R-22
    for v in vectors:
        r, e = js_results[v["name"]], v["expect"]
        assert r["shoe"] == e["shoe"], v["name"]
        assert r["deal"] == {k: e[k] for k in ("hands", "turned_up", "indicator", "stock")}, v["name"]
        assert r["via_preset"]["ruleset_hash"] == v["ruleset_hash"], v["name"]
        assert r["via_preset"]["shoe"] == e["shoe"] and r["via_preset"]["deal"] == r["deal"], v["name"]
        assert r["from_record"]["hands"] == e["hands"], v["name"]


def test_substreams_match_the_fixture_and_python(js_results, vectors):  # rules D-3, D-5, D-6, D-20, K-21
    for v in vectors:
        r, e = js_results[v["name"]], v["expect"]
        assert r["substreams"] == e["substreams"], v["name"]
        assert r["tiplu"] == e["substreams"]["tiplu"]["randbelow"]["value"], v["name"]
        hr = hand_randomness(bytes.fromhex(v["server_seed"]), v["hand_id"], Ruleset.from_json(v["ruleset"]),
                             [bytes.fromhex(s) for s in v["player_seeds"]])
        discards = parse_cards(e["stock"][:40])
        assert r["reshuffle1"] == [str(c) for c in hr.reshuffle(1, discards)], v["name"]
        assert r["reshuffle2"] == [str(c) for c in hr.reshuffle(2, discards)], v["name"]
        assert r["reshuffle1"] != r["reshuffle2"]
        assert r["redeal1"] == [str(c) for c in hr.redeal(1)], v["name"]


def test_verify_hand_reports_every_check_passed(js_results, vectors):  # rules
    for v in vectors:
        rep = js_results[v["name"]]["report"]
        n = v["n_seats"]
        names = [c[0] for c in rep["checks"]]
        assert rep["ok"] is True and rep["complete"] is True, (v["name"], rep["checks"])
        assert all(ok is True for _, ok in rep["checks"]), v["name"]
        assert "ruleset_hash" in names and "server_commitment" in names and "shoe" in names
        assert [f"player_commitment:{i}" for i in range(n)] == [x for x in names if x.startswith("player_commitment:")]
        assert [f"claimed:hands:{i}" for i in range(n)] == [x for x in names if x.startswith("claimed:hands:")]
        assert {"claimed:stock", "claimed:turned_up", "claimed:indicator"} <= set(names)
        fr = js_results[v["name"]]["from_record"]
        assert fr["ok"] and fr["complete"], v["name"]


# Independent of the fixture: the shoe and the layout against the rule texts.
SHOE_SIZES = {("marriage/nepal", n): 160 for n in range(2, 6)}  # rule MN-1
SHOE_SIZES.update({("marriage/classic", n): 156 for n in range(2, 6)})  # rule MC-1
SHOE_SIZES.update({("kitti", n): 52 for n in range(2, 6)})  # rule D-12
SHOE_SIZES.update({("rummy13", n): 106 for n in range(2, 7)})  # rules D-18, R-4
SHOE_SIZES.update({("rummy13", n): 159 for n in (7, 8)})  # rules D-18, R-4


def test_shoe_composition_follows_the_rules(js_results, vectors):  # rules MN-1, MC-1, D-12, D-18, R-4
    for v in vectors:
        shoe = js_results[v["name"]]["shoe"]
        assert len(shoe) == SHOE_SIZES[(v["preset"], v["n_seats"])], v["name"]
        jokers, masters = shoe.count("JK"), shoe.count("MC")
        decks = 3 if v["preset"].startswith("marriage") or len(shoe) == 159 else 2 if v["preset"] == "rummy13" else 1
        assert (jokers, masters) == {"marriage/nepal": (3, 1), "marriage/classic": (0, 0), "kitti": (0, 0),
                                     "rummy13": (decks, 0)}[v["preset"]], v["name"]
        standard = [c for c in shoe if c not in ("JK", "MC")]
        assert all(standard.count(c) == decks for c in set(standard)) and len(set(standard)) == 52, v["name"]


def test_deal_layout_follows_the_rules(js_results, vectors):  # rules MN-2, MN-3, MN-4, MC-2, MC-13, MC-33, D-4, K-1, R-4, R-5, D-19
    hand_size = {"marriage/nepal": 21, "marriage/classic": 21, "kitti": 9, "rummy13": 13}
    for v in vectors:
        r = js_results[v["name"]]
        shoe, d, n, dealer = r["shoe"], r["deal"], v["n_seats"], v["dealer"]
        k = hand_size[v["preset"]]
        anticlockwise = v["ruleset"]["settings"].get("direction") == "anticlockwise"
        first = (dealer - 1) % n if anticlockwise else (dealer + 1) % n  # the dealer's left (right if anticlockwise)
        assert r["report"]["seat_order"][0] == first and r["report"]["seat_order"][-1] == dealer
        assert [len(h) for h in d["hands"]] == [k] * n, v["name"]
        assert d["hands"][first][0] == shoe[0], v["name"]  # one card at a time from the top
        assert d["hands"][dealer][-1] == shoe[n * k - 1], v["name"]  # the dealer is served last
        rest = shoe[n * k:]
        if v["preset"].startswith("marriage"):
            assert d["turned_up"] == rest[0] and d["indicator"] is None and d["stock"] == rest[1:]
            if v["preset"] == "marriage/nepal":
                assert len(d["stock"]) == {2: 117, 3: 96, 4: 75, 5: 54}[n]  # rule MN-4
        elif v["preset"] == "rummy13":
            assert d["indicator"] == rest[0] and d["turned_up"] == rest[1] and d["stock"] == rest[2:]
        else:
            assert d["turned_up"] is None and d["indicator"] is None and d["stock"] == rest
