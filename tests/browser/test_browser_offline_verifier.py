"""The downloadable single-file verifier (web/static/tiplu-verifier.html) opened straight
from disk (file://), with no server and no network: it still verifies a hand (R-22)."""
import pathlib

from verifier_page_helpers import fill_fields, shown_deal, verify

OFFLINE = pathlib.Path(__file__).resolve().parents[2] / "web" / "static" / "tiplu-verifier.html"


def test_offline_file_verifies_a_vector_from_disk(page, vectors, screenshot):  # rules
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(OFFLINE.as_uri())
    page.locator("body[data-ready='1']").wait_for()
    v = next(x for x in vectors if x["name"] == "rummy13/8p/1")
    fill_fields(page, v)
    verify(page, expect_state="verified")
    shown = shown_deal(page)
    assert shown["hands"] == v["expect"]["hands"]
    assert (shown["indicator"], shown["turned_up"]) == (v["expect"]["indicator"], v["expect"]["turned_up"])
    assert shown["stock"] == v["expect"]["stock"] and shown["shoe"] == v["expect"]["shoe"]
    assert all(ok == "true" for _, ok in shown["checks"])
    # nothing but the file itself was loaded: no server is trusted or even asked
    assert requests == [OFFLINE.as_uri()]
    assert page.is_hidden("text=Download the offline verifier")
    screenshot(page, "offline-verifier-phone")


def test_offline_file_catches_a_wrong_server_seed(page, vectors):  # rule R-21
    page.goto(OFFLINE.as_uri())
    v = next(x for x in vectors if x["name"] == "marriage/classic/3p/1")
    fill_fields(page, v)
    other = next(x for x in vectors if x["name"] == "marriage/classic/3p/0")
    page.fill("#server-seed", other["server_seed"])  # a different, well-formed seed
    verify(page, expect_state="failed")
    failed = [c for c, ok in shown_deal(page)["checks"] if ok == "false"]
    assert failed == ["server_commitment"]
    assert shown_deal(page)["hands"] != v["expect"]["hands"]
