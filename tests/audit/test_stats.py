"""Deal statistics (audit/auditor/stats/deals.py, ``tiplu stats``): counts, expected counts, the tests.

The biased operator (audit/operator/sim/bias.py) chooses every hand's seeds so that seat 0 is dealt
at least two aces when it can (up to 8 tries); its records audit clean, and only the
statistics see it.  Sizes are fixed (seeds too) so every run is the same: 60 Kitti hands
at four seats flag it; the same 60 hands dealt honestly pass.  docs/stats.md has the
detection rates at other sizes (bench/stats.py).
"""
from __future__ import annotations

import hashlib
import json
import statistics

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.operator.sim.archive import simulate_archive
from audit.operator.sim.bias import Bias
from audit.auditor.stats.deals import DealStats, GroupStats, bin_edges, chi_square, deal_facts, stats_of_verdicts
from audit.auditor.verdict.verify import audit_record
from replay.fairness import hand_randomness
from replay.rulesets import resolve

HANDS = 60


def archive(tmp_path, name: str, *, bias=None, plan=(("kitti", 4, HANDS),), tamper_rate=0.0, seed="stats-test"):
    records: list[dict] = []
    with Ledger(":memory:") as ledger:
        simulate_archive(ledger, list(plan), seed=seed, bias=bias, tamper_rate=tamper_rate,
                         on_record=lambda r, k: records.append(r))
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path, records


@pytest.fixture(scope="module")
def biased(tmp_path_factory):
    return archive(tmp_path_factory.mktemp("biased"), "biased", bias=Bias(seat=0, rank="A", at_least=2, tries=8))


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return archive(tmp_path_factory.mktemp("honest"), "honest")


def stats_json(path) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["stats", str(path), "--json", "--no-progress"])
    return res.exit_code, json.loads(res.output)


def chart(data, game_index, chart_id):
    return next(c for c in data["games"][game_index]["charts"] if c["id"] == chart_id)


def test_the_biased_operator_passes_the_audit_but_the_statistics_flag_it(biased):
    path, records = biased
    assert all(audit_record(r).ok for r in records)          # invisible to the audit
    code, data = stats_json(path)
    assert code == 1
    assert data["hands"] == HANDS
    ranks = chart(data, 0, "ranks_by_seat")
    assert ranks["test"]["flagged"] and ranks["test"]["p_value"] < 1e-4
    assert "Not as chance says" in ranks["meaning"]
    aces = ranks["rows"].index("A")
    assert ranks["observed"][aces][0] > 1.5 * ranks["expected"][aces][0]   # seat 0 got the aces
    assert "ranks_by_seat" in data["games"][0]["deal_flagged"]


def test_the_same_hands_dealt_honestly_pass(honest):
    path, records = honest
    code, data = stats_json(path)
    assert code == 0, data["games"][0]["deal_flagged"]
    g = data["games"][0]
    assert g["deal_flagged"] == [] and g["deal_tests"] >= 2
    for c in g["charts"]:
        assert c["test"]["valid"] is False or "Within what chance allows" in c["meaning"] or c["about"] == "play"


def test_text_report_names_the_flagged_test_and_the_trusted_key(biased):
    res = CliRunner().invoke(main, ["stats", str(biased[0]), "--no-progress"])
    assert res.exit_code == 1
    assert "trusted key: each record's own claimed key (nothing pinned" in res.output
    key = biased[1][0]["table"]["public_key"]
    pinned = CliRunner().invoke(main, ["stats", str(biased[0]), "--no-progress", "--public-key", key, "--json"])
    assert json.loads(pinned.output)["trust"] == {"public_key": key, "basis": "pinned"}
    wrong = CliRunner().invoke(main, ["stats", str(biased[0]), "--no-progress", "--public-key", "ab" * 32, "--json"])
    assert json.loads(wrong.output)["hands"] == 0   # under another key nothing passes, so nothing counts
    assert any(line.split()[:2] == ["ranks_by_seat", "FLAGGED"] for line in res.output.splitlines())


def test_only_audit_passing_hands_are_counted(tmp_path):
    path, records = archive(tmp_path, "tampered", plan=(("kitti", 4, 30),), tamper_rate=0.3, seed="stats-tamper")
    failed = sum(not audit_record(r).ok for r in records)
    assert failed > 3
    _, data = stats_json(path)
    assert data["considered"] == 30 and data["hands"] == 30 - failed
    assert sum(data["excluded"].values()) == failed
    assert chart(data, 0, "cards_by_seat")["observed"] and data["games"][0]["hands"] == 30 - failed


def test_a_bad_line_is_left_out_not_fatal(tmp_path, honest):
    src = tmp_path / "mixed.jsonl"
    src.write_text(honest[0].read_text().splitlines()[0] + "\n{not json\n", encoding="utf-8")
    code, data = stats_json(src)
    assert data["considered"] == 2 and data["hands"] == 1 and data["excluded"] == {"malformed": 1}


def test_missing_source_is_one_line(tmp_path):
    res = CliRunner().invoke(main, ["stats", str(tmp_path / "nope.jsonl")])
    assert res.exit_code == 1 and res.output.count("\n") == 1 and "error" in res.output


def test_expected_counts_follow_the_shoe_for_every_game(tmp_path):
    """Per game: each seat cell expects hands * copies * hand_size / shoe; the stock stretches
    cover the stock; observed rows add up to copies * hands."""
    _, records = archive(tmp_path, "mixed", plan=(("marriage/nepal", 3, 2), ("rummy13", 4, 2), ("kitti", 3, 2)),
                         seed="stats-mixed")
    stats = stats_of_verdicts(audit_record(r) for r in records)
    games = {g["preset"]: g for g in stats.to_json()["games"]}
    assert set(games) == {"marriage/nepal", "rummy13", "kitti"}
    nepal = games["marriage/nepal"]
    seat = next(c for c in nepal["charts"] if c["id"] == "cards_by_seat")
    mc = seat["rows"].index("MC")
    as_ = seat["rows"].index("AS")
    assert seat["expected"][mc][0] == pytest.approx(2 * 1 * 21 / 160, abs=1e-4)      # one master card (MN-1)
    assert seat["expected"][as_][0] == pytest.approx(2 * 3 * 21 / 160, abs=1e-4)     # three decks
    stock = next(c for c in nepal["charts"] if c["id"] == "ranks_by_stock")
    assert sum(map(sum, stock["observed"])) == 2 * (160 - 3 * 21 - 1)
    rummy = {c["id"]: c for c in games["rummy13"]["charts"]}
    assert {"indicator", "turned_up", "jokers_by_seat"} <= set(rummy)
    assert sum(rummy["indicator"]["observed"][0]) == 2
    assert "indicator" not in {c["id"] for c in games["kitti"]["charts"]}
    assert "jokers_by_seat" not in {c["id"] for c in games["kitti"]["charts"]}


def test_stock_stretches():
    assert bin_edges(75) == [0, 9, 18, 28, 37, 46, 56, 65, 75]
    assert bin_edges(3) == [0, 1, 2, 3]


def test_too_few_hands_says_how_many_are_needed():
    t = chi_square([[1, 0]], [[0.05, 0.95]], 1, df=1)
    assert not t.valid and not t.flagged and t.hands_needed == 100  # 100 * 0.05 = 5


def synthetic(preset: str, seats: int, hands: int, archive_no: int) -> DealStats:
    """An archive of fair deals straight from the v1 shuffle (no ledger, no play)."""
    rs = resolve(preset)
    stats = DealStats()
    for h in range(hands):
        seed = hashlib.sha256(f"calibration/{preset}/{archive_no}/{h}".encode()).digest()
        deal = hand_randomness(seed, f"h{h}", rs, [seed[:16]] * seats).deal(h % seats)
        stats.add(deal_facts(rs, deal, dealer=h % seats), rs)
    return stats


def test_fair_deals_are_flagged_about_one_time_in_a_hundred():
    """100 fair archives of 30 Kitti hands: the (corrected) statistic averages its degrees of
    freedom and at most a few archives are flagged at 99% (expected 1; 6 or more has
    probability 0.0005 for a calibrated test)."""
    by_test: dict[str, list[float]] = {"cards_by_seat": [], "ranks_by_seat": []}
    flagged = {k: 0 for k in by_test}
    df = {}
    for a in range(100):
        g: GroupStats = next(iter(synthetic("kitti", 4, 30, a).groups.values()))
        for c in g.charts(resolve("kitti")):
            if c.id in by_test:
                assert c.test.valid
                by_test[c.id].append(c.test.statistic)
                flagged[c.id] += c.test.flagged
                df[c.id] = c.test.df
    for k, values in by_test.items():
        sd_of_mean = (2 * df[k] / len(values)) ** 0.5
        assert abs(statistics.mean(values) - df[k]) < 3 * sd_of_mean, (k, statistics.mean(values), df[k])
        assert flagged[k] <= 5, (k, flagged[k])


def test_the_permutation_correction_is_exact():
    """Why card tables are scaled by (M-1)/M: over every shuffle of a small shoe (2 copies each of
    3 cards, dealt into 3 places of 2), Pearson's statistic averages df * M/(M-1) exactly, so
    the scaled statistic averages df (Haldane 1940)."""
    import itertools

    shoe = "AABBCC"
    per_hand = [[2 * 2 / 6] * 3 for _ in range(3)]
    stats = []
    for perm in itertools.permutations(shoe):
        observed = [[perm[2 * p:2 * p + 2].count(k) for p in range(3)] for k in "ABC"]
        stats.append(chi_square(observed, per_hand, 1, df=4, scale=6 / 5).statistic)
    assert statistics.mean(stats) == pytest.approx(4.0, abs=1e-12)


def test_which_cards_each_game_calls_jokers():  # rules MN-32, MC-3, R-5
    from replay.cards import parse_card
    from replay.game import Outcome
    from replay.registry import game_for

    cards = ["7H", "8H", "6H", "7S", "JK", "MC", "2C"]
    tiplu = Outcome((0,), (0,), None, detail={"tiplu": "7H"})
    nepal = game_for("marriage").jokers_of_hand(resolve("marriage/nepal"), None, tiplu)
    assert [c for c in cards if nepal(parse_card(c))] == ["7H", "8H", "6H", "7S", "JK", "MC"]
    assert game_for("marriage").jokers_of_hand(resolve("marriage/nepal"), None, Outcome((0,), (0,), None)) is None  # no tiplu
    assert game_for("kitti").jokers_of_hand is None   # K-1: no jokers, so no joker chart
    rs = resolve("rummy13")
    deal = hand_randomness(bytes(32), "h", rs, [bytes(16)] * 4).deal(0)
    rummy = game_for("rummy13").jokers_of_hand(rs, deal, None)
    assert rummy(parse_card("JK"))
    if str(deal.indicator) != "JK":   # a printed-joker indicator makes no rank wild
        rank = str(deal.indicator)[0]
        assert all(rummy(parse_card(rank + s)) for s in "SHDC")
        assert sum(rummy(parse_card(r + "S")) for r in "A23456789TJQK") == 1


def test_a_record_that_is_not_log_bound_is_left_out(tmp_path, honest):
    """A tiplu.hand/1 record (no log evidence) never counts, however clean its deal."""
    records = [json.loads(line) for line in honest[0].read_text().splitlines()[:3]]
    v1 = records[0]
    v1["format"] = "tiplu.hand/1"
    del v1["fairness"]["log_proofs"]
    src = tmp_path / "v1.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert "not_log_bound" in {f.reason.value for f in audit_record(v1).faults}
    _, data = stats_json(src)
    assert data["considered"] == 3 and data["hands"] == 2 and sum(data["excluded"].values()) == 1


def test_a_trust_file_pins_the_key(tmp_path, honest):
    key = json.loads(honest[0].read_text().splitlines()[0])["table"]["public_key"]
    trust = tmp_path / "trust.json"
    trust.write_text(json.dumps({"format": "tiplu.trust/1", "public_key": key}), encoding="utf-8")
    res = CliRunner().invoke(main, ["stats", str(honest[0]), "--trust", str(trust), "--json", "--no-progress"])
    data = json.loads(res.output)
    assert data["trust"] == {"public_key": key, "basis": "trust-file"} and data["hands"] == HANDS
    both = CliRunner().invoke(main, ["stats", str(honest[0]), "--trust", str(trust), "--public-key", key])
    assert both.exit_code == 2
