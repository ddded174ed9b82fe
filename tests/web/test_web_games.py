"""The hand page and the replay data for every game, on tables the simulator plays through
the real ledger (Marriage keeps hands per seat and a tiplu; Rummy a wild-card indicator)."""
from __future__ import annotations

import json
import re

import pytest

from audit.operator.ledger import Ledger
from audit.operator.publish import get_published
from audit.operator.sim.tables import simulate_table
from replay.records import parse_record
from web import create_app
from web.data import replay_steps


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("games") / "games.db")
    with Ledger(path, create=True) as ledger:
        ledger.new_operator("demo-operator")
        for preset, n in (("marriage/nepal", 3), ("marriage/classic", 4), ("rummy13", 4), ("kitti", 5)):
            simulate_table(ledger, preset=preset, players=n, hands=1, seed="web-games",
                           table_id=preset.replace("/", "-"))
        records = {v.preset: get_published(ledger, v.id) for v in ledger.list_hands()}
    return path, records


@pytest.mark.parametrize("preset", ["marriage/nepal", "marriage/classic", "rummy13", "kitti"])
def test_replay_steps_show_every_seat_and_end_with_the_outcome(games, preset):  # rules MN-2, MC-13, R-4, K-1
    _, records = games
    record = records[preset]
    steps = replay_steps(record)
    parsed = parse_record(record)
    n = parsed.table.n_seats
    assert steps["faults"] == []
    assert len(steps["steps"]) == len(record["moves"]) + 1
    first = steps["steps"][0]["view"]
    hand_size = parsed.ruleset["hand_size"]
    assert [len(h) for h in first["hands"]] == [hand_size] * n
    assert steps["outcome"]["points"] == record["outcome"]["points"]
    assert steps["settlement"]["nets"] == record["outcome"]["payouts"]["nets"]


def test_rummy_shows_its_wild_rank_and_indicator(games):  # rules R-5, D-19
    _, records = games
    record = records["rummy13"]
    view = replay_steps(record)["steps"][0]["view"]
    assert re.fullmatch(r"[A2-9TJQK][SHDC]", view["indicator"])
    assert view["wild_rank"] == view["indicator"][0]  # the indicator's rank is wild
    assert len(view["closed_pile"]) + len(view["open_pile"]) + 1 + 13 * 4 == 106


def test_marriage_tiplu_appears_once_picked(games):  # rule D-5
    _, records = games
    steps = replay_steps(records["marriage/nepal"])["steps"]
    tiplus = [s["view"].get("tiplu") for s in steps]
    assert tiplus[0] is None
    picked = [t for t in tiplus if t is not None]
    assert picked, "this simulated hand has a show, so a tiplu is picked"
    first = tiplus.index(picked[0])
    assert all(t == picked[0] for t in tiplus[first:])  # once picked, the tiplu never changes
    assert "show" in steps[first]["move"] or steps[first]["move_json"]["type"] in ("show", "finish")


@pytest.mark.parametrize("preset", ["marriage/nepal", "rummy13", "kitti"])
def test_hand_page_embeds_the_replay_and_the_check(games, preset):
    path, records = games
    record = records[preset]
    client = create_app({"TESTING": True, "TIPLU_DB": path}).test_client()
    html = client.get(f"/hands/{record['hand_id']}").get_data(as_text=True)
    embedded = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1))
    assert embedded["outcome"]["points"] == record["outcome"]["points"]
    check = json.loads(re.search(r'<script type="application/json" id="check-data">(.*?)</script>', html, re.S).group(1))
    assert check["server_seed"] == record["fairness"]["server_seed"]
    assert check["player_commitments"] == record["fairness"]["seat_commitments"]
    assert 'data-verdict="ok"' in html
