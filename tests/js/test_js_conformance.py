"""The browser verifier's modules run the whole conformance suite under Node
(tests/js/conformance_node.mjs, docs/conformance.md): every case passes and none is answered
unsupported -- every game has its module in web/static/verifier/games/ (the same rule as
tests/browser/test_browser_conformance.py, which runs the page and the offline file)."""
from __future__ import annotations

import sys

from tests.js.node import ROOT, VERIFIER, node_or_skip

sys.path.insert(0, str(ROOT / "tools"))
import conformance  # noqa: E402

SCRIPT = ROOT / "tests" / "js" / "conformance_node.mjs"
SUITE = conformance.load()


def _may_be_unsupported() -> set[str]:
    """The cases a verifier lacking a game's module may answer unsupported: none, with all three."""
    assert {"kitti", "marriage", "rummy13"} <= {p.stem for p in (VERIFIER / "games").glob("*.mjs")}
    return conformance.needing_games(SUITE["cases"], [p.stem for p in (VERIFIER / "games").glob("*.mjs")])


def test_node_runs_the_whole_suite():
    report = conformance.run_command(SUITE["cases"], [node_or_skip(), str(SCRIPT)])
    bad = [r for r in report.results if r[1] == "fail"]
    assert not bad, bad[:6]
    unsupported = {cid for cid, status, _ in report.results if status == "unsupported"}
    assert unsupported == _may_be_unsupported() == set()  # every game has its module: none at all
    assert report.count("pass") == len(SUITE["cases"]) - len(unsupported) > 140
