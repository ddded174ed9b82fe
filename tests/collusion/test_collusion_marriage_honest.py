"""The false-positive side of Marriage's signals on 10,000 honest hands (``docs/collusion.md``,
the run of ``python bench/collusion_pairs.py honest --preset marriage/nepal --hands 10000``,
seed ``honest0``): 25 tables of four honest bots, 400 hands each, 100 accounts, every account
tested on ``marriage.pick``, ``marriage.discard`` and ``marriage.joker`` and every pair on
``marriage.feed`` (a seat and the seat after it) and ``tokens.flow``, in one Benjamini-Hochberg
control at 1 %.  The observations are played once and kept in the test cache
(``tests/collusion/honest_archive.py``; a kept copy is used only if the first hands of two
tables, played again, give the same numbers); the review itself takes seconds."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from replay.marriage.discard_joker_signals import DISCARD_SIGNAL, JOKER_SIGNAL
from replay.marriage.pair_signals import SIGNAL as FEED_SIGNAL
from replay.marriage.signals import SIGNAL as PICK_SIGNAL

sys.path.insert(0, str(Path(__file__).parent))
from honest_archive import MARRIAGE, assert_nobody_flagged, reviewed  # noqa: E402


@pytest.mark.slow
def test_ten_thousand_honest_marriage_hands_flag_nobody():
    # docs/collusion.md: an all-honest run flags anyone at all with a chance of at most 1 % (the
    # documented false-positive rate); this seeded archive, the documented run's, flags no one
    rep = reviewed(MARRIAGE)
    assert rep.hands == 10_000
    assert Counter(t.signal for t in rep.tests if t.tested) == {PICK_SIGNAL: 100, DISCARD_SIGNAL: 100,
                                                                JOKER_SIGNAL: 100}
    # every pair at a table on tokens.flow (6 x 25), each seat and the seat after it on marriage.feed
    assert Counter(t.signal for t in rep.pair_tests if t.tested) == {FEED_SIGNAL: 100, "tokens.flow": 150}
    assert_nobody_flagged(rep)
