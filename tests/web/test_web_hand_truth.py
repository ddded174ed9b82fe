"""The hand page shows what is true at a glance: replay and verdict first, a failed hand's
claims labelled as claims (no "winner"), the settlement worked from the replay."""
from __future__ import annotations


def _page(client, hid):
    resp = client.get(f"/hands/{hid}")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def test_verdict_and_replay_come_before_the_statements(client, site):
    html = _page(client, site.hands["revealed0"])
    at = {k: html.index(k) for k in ('id="verdict"', 'id="replay"', 'id="scores"', 'id="fairness"')}
    assert at['id="verdict"'] < at['id="replay"'] < at['id="scores"'] < at['id="fairness"']
    # the statements sit in a disclosure
    assert html.index('id="fair-detail"') < html.index('class="list statements"')


def test_a_passing_hand_shows_its_winner_and_the_worked_pot(client, site):
    hid = site.hands["revealed0"]
    verdict = client.get(f"/api/v1/hands/{hid}/verdict").get_json()
    assert verdict["ok"] and verdict["worked"]["points"]["method"] == "D-13"  # rule D-13
    html = _page(client, hid)
    assert 'id="worked"' in html and "data-pot-sum" in html
    assert verdict["worked"]["points"]["pot_sum"] in html.replace("&#39;", "'")
    if verdict["worked"]["points"]["winner"] is not None:
        assert "data-winner" in html


def test_a_failed_hand_shows_no_winner_and_labels_the_claims(client, site):
    hid = site.hands["tampered_payout"]
    html = _page(client, hid)
    assert 'data-failed="true"' in html and 'id="claimed-note"' in html
    assert "data-winner" not in html and '<span class="win">winner</span>' not in html.split('id="worked"')[0]
    # the breakdown is the replay's, said so
    assert 'data-breakdown-source="replay"' in html


def test_a_hand_whose_moves_do_not_replay_labels_the_claimed_breakdown(client, site):
    hid = site.hands["tampered_move"]
    html = _page(client, hid)
    assert "data-winner" not in html
    if 'data-breakdown-source' in html:
        assert 'data-breakdown-source="claimed"' in html and "Breakdown the operator claimed" in html


def test_the_replay_viewer_gets_moves_in_words(client, site):
    import json
    html = _page(client, site.hands["revealed0"])
    data = json.loads(html.split('<script type="application/json" id="replay-data">')[1].split("</script>")[0])
    words = [s["words"] for s in data["steps"] if s["index"] >= 0]
    assert words and all(w.split()[0] in data["players"] for w in words)


def test_statements_api_numbers_statements_from_1(client, site):
    body = client.get(f"/api/v1/hands/{site.hands['revealed0']}/statements").get_json()
    assert [s["n"] for s in body["statements"]] == list(range(1, len(body["statements"]) + 1))
