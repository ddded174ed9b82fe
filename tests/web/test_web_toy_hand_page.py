"""A fourth game on the site (issue 31): tests/toy_game, registered at run time, is played
through the real ledger, published, and served -- its hand page, its record and verdict, and
the data the page's browser check reads -- in its own words, never another game's.

The record model once fixed its presets at import (a ``Literal``), so a game registered later
could not publish a record at all; it now asks the registry when a record is read
(``replay.record_model.RulesetDoc``), and the schema's validator that locates a fault does too
(``audit.schema``).

The toy hand is dealt from fixed seeds (web_testkit's): asha J♦, bikash 10♦, chandra 2♠,
the 7♦ turned up.  Hand-computed: asha's jack wins; bikash and chandra pay one point each,
so the nets are +2, -1, -1; at 0.25 a point asha gains 0.50, less 5 % commission 0.025,
0.03 rounded half up: 0.47.
"""
from __future__ import annotations

import copy
import json
import re

import pytest

from audit.operator.ledger import Ledger
from audit.operator.publish import build_record, publish, published_record
from audit.operator.sim.play import play_hand
from replay.fairness import commit_player_seed, hand_randomness
from replay.rulesets import resolve
from replay.settlement import parse_amount, settle
from web_testkit import OPERATOR, Clock, _stream, fixed_server_seeds, player_seed

HAND = "toy-h1"
PLAYERS = ["asha", "bikash", "chandra"]
# the rule lines each real game's worked settlement opens with (replay/<game>/worked.html)
OTHER_GAMES_WORDS = ("Rule MC-31", "Rule D-10", "Pot (rules K-1, D-13, D-14)", "Rule R-20")


@pytest.fixture
def toy_site(toy, tmp_path):
    """A ledger with one toy hand played to the end, revealed and published."""
    db = str(tmp_path / "toy.db")
    with fixed_server_seeds(), Ledger(db, clock=Clock(), create=True) as ledger:
        ledger.new_operator(OPERATOR)
        ledger.new_table("toy1", operator=OPERATOR, preset="toy", seats=3, point_value="0.25", commission_pct="5")
        ledger.new_hand("toy1", PLAYERS, dealer=0, hand_id=HAND)
        ledger.commit(HAND)
        for s in range(3):
            ledger.seed_commit(HAND, s, commit_player_seed(HAND, s, player_seed(HAND, s)))
        for s in range(3):
            ledger.seed_reveal(HAND, s, player_seed(HAND, s))
        ledger.deal(HAND)
        randomness = hand_randomness(ledger._server_seed(HAND), HAND, resolve("toy"),
                                     [player_seed(HAND, s) for s in range(3)])
        played = play_hand(randomness, dealer=0, carry={}, rng=_stream("bot:toy"))
        settlement = settle(played.outcome.net_points, point_value=parse_amount("0.25"),
                            commission_pct=parse_amount("5"))
        ledger.finish(HAND, build_record(ledger, HAND, moves=list(played.moves), outcome=played.outcome,
                                         settlement=settlement, carry={}, hand_no=0))
        ledger.reveal(HAND)
        publish(ledger, HAND, published_record(ledger, HAND))
    return db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_toy_hand_page_is_in_the_toy_games_words(toy_site, make_app):
    client = make_app(toy_site).test_client()
    r = client.get(f"/hands/{HAND}")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    text = _text(html)
    assert "✓ Everything checks: signatures, commitments, the ruleset, every move and the payouts." in text
    # the worked settlement: the toy's partial (tests/toy_game/worked.html) and its terms
    assert 'data-method="toy"' in html
    assert "High card: the highest card shown wins; every other seat pays it one point." in text
    assert "asha: receives 1 from each of 2 = 2" in text
    assert "bikash: shows 10, pays 1" in text and "chandra: shows 2, pays 1" in text
    assert "asha: +2 × 0.25 = 0.50; − 5% commission 0.03 = 0.47" in text
    assert "bikash: -1 × 0.25 = -0.25" in text and "House commission: 0.03" in text
    assert not [w for w in OTHER_GAMES_WORDS if w in html]
    # the data the page's browser check reads: the toy's deal, by the toy's layout (one card a
    # seat, then one turned up), and the published record itself
    check = json.loads(re.search(r'<script type="application/json" id="check-data">(.*?)</script>', html, re.S)
                       .group(1))
    assert check["ruleset"]["game"] == "toy" and check["ruleset"]["preset"] == "toy"
    assert check["hands"] == [["JD"], ["TD"], ["2S"]] and check["turned_up"] == "7D" and len(check["stock"]) == 48
    assert "indicator" not in check and check["record"]["moves"] == [{"seat": 1, "type": "show"},
                                                                      {"seat": 2, "type": "show"},
                                                                      {"seat": 0, "type": "show"}]
    assert check["audit"] == {"ok": True, "reason": None}


def test_a_toy_hands_record_and_verdict_are_served(toy_site, make_app):
    client = make_app(toy_site).test_client()
    record = client.get(f"/api/v1/hands/{HAND}/record").get_json()
    assert record["ruleset"]["preset"] == "toy" and record["outcome"]["net_points"] == [2, -1, -1]
    assert record["outcome"]["payouts"]["nets"] == ["0.47", "-0.25", "-0.25"]
    assert record["outcome"]["payouts"]["commission"] == "0.03"
    verdict = client.get(f"/api/v1/hands/{HAND}/verdict").get_json()
    assert verdict["ok"] is True and verdict["preset"] == "toy" and verdict["faults"] == []


def test_a_toy_record_reads_only_while_the_toy_game_is_registered(toy_site, toy):
    from audit.schema import schema_errors, validate_record
    from replay import registry
    from replay.errors import MalformedError
    from replay.record_model import check_shape

    with Ledger(toy_site) as ledger:
        record = published_record(ledger, HAND)
    assert check_shape(record)
    validate_record(record)
    broken = copy.deepcopy(record)
    broken["table"]["dealer"] = -1
    # the fault is located where it is, not at a preset the schema file does not list
    assert [(e.location, str(e)) for e in schema_errors(broken)] == [("$.table.dealer", "$.table.dealer: -1 is less than the minimum of 0")]
    registry.unregister("toy")
    try:
        assert not check_shape(record)
        # the first fault by location: the game, then the preset (the schema file's built-in lists)
        with pytest.raises(MalformedError, match=r"^\$\.ruleset\.game: 'toy' is not one of \['kitti', 'marriage', 'rummy13'\]$"):
            validate_record(record)
        assert [str(e) for e in schema_errors(record)][1] == ("$.ruleset.preset: 'toy' is not one of "
                                                              "['kitti', 'marriage/classic', 'marriage/nepal', 'rummy13']")
    finally:
        registry.register(toy.GAME, presets={"toy": toy.PRESET})
