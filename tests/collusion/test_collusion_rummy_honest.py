"""The false-positive side of 13-card Rummy's signals on 10,000 honest hands
(``docs/collusion.md``): 25 tables of four honest bots, 400 hands each, 100 accounts, every
account tested on ``rummy13.pick``, ``rummy13.discard`` and ``rummy13.drop`` and every pair on
its pair signals, in one Benjamini-Hochberg control at 1 %.  The observations are played once
and kept in the test cache (``tests/collusion/rummy_honest.py``; about 5.5 CPU-minutes to
build; a kept copy is used only if the first hands of two tables, played again, give the
same numbers); the review itself takes seconds."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from audit.auditor.collusion import review
from audit.auditor.collusion.significance import ALPHA
from replay.rummy.discard_drop_signals import DISCARD_SIGNAL, DROP_SIGNAL

sys.path.insert(0, str(Path(__file__).parent))
from rummy_honest import HANDS, TABLES, matches, ten_thousand  # noqa: E402


@pytest.mark.slow
def test_ten_thousand_honest_rummy_hands_flag_nobody():
    # docs/collusion.md: with every account and pair honest the control keeps the chance of any
    # flag in a run at most 1 % (the documented false-positive rate); this seeded archive flags none
    obs = ten_thousand()
    assert matches(obs)          # the kept observations are this code's on the hands played again
    rep = review(obs)
    assert rep.hands == TABLES * HANDS == 10_000
    tested = Counter(t.signal for t in rep.tests if t.tested)
    assert tested[DISCARD_SIGNAL] == tested[DROP_SIGNAL] == tested["rummy13.pick"] == 100
    assert rep.flags == (), [(t.account, t.signal, t.p) for t in rep.flags]
    assert rep.pair_flags == (), [(t.account, t.target, t.signal, t.p) for t in rep.pair_flags]
    assert min(t.q for t in rep.tests if t.q is not None) > ALPHA
    assert sum(t.tested for t in rep.pair_tests) >= 150            # tokens.flow of 150 pairs at least
