"""The honest 10,000-hand 13-card Rummy archive of the false-positive test
(``test_collusion_rummy_honest.py``) and of ``bench/collusion.py honest --preset rummy13``:
25 tables of four honest bots, 400 hands each, every table with its own four accounts (100 in
all), played in memory (:mod:`audit.auditor.collusion.cheaters`) and observed by every Rummy
signal.  Its observations are kept in a cache directory (``TIPLU_TEST_CACHE``, default
``<tmp>/tiplu-test-cache``, as the collusion pages' 10,000-hand ledger,
``tests/browser/collusion_scale.py``) under a name that changes with the plan.  A kept copy is
used only if the first hands of two tables, played again by the code as it is, give exactly
the kept numbers (every account's and every pair's observations of those hands,
:func:`matches`); otherwise it is built again, so a change to a signal, the solver or a bot
is not tested against stale numbers.  Building took about 5.5 CPU-minutes (about 33 ms a
hand, bots and signals), split over two processes by table."""
from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

TABLES, PLAYERS, HANDS = 25, 4, 400
SEED = "rummy-honest-10k"
#: the tables and the number of their first hands played again to check a kept copy
SAMPLE_TABLES, SAMPLE_HANDS = (0, TABLES - 1), 12


def cache_dir() -> Path:
    return Path(os.environ.get("TIPLU_TEST_CACHE") or Path(tempfile.gettempdir()) / "tiplu-test-cache")


def matches(obs, sample=None) -> bool:
    """Whether ``obs`` holds exactly what the code as it is observes in the first
    ``SAMPLE_HANDS`` hands of the ``SAMPLE_TABLES`` (``sample``: those observations, if made)."""
    from audit.auditor.collusion.cheaters import played_observations

    if sample is None:
        sample = played_observations("rummy13", tables=TABLES, players=PLAYERS, hands=SAMPLE_HANDS, seed=SEED,
                                     table_ids=list(SAMPLE_TABLES))
    for key, xs in sample.excesses.items():
        if [x for x, at in zip(obs.excesses.get(key, []), obs.hand_of.get(key, [])) if at <= SAMPLE_HANDS] != xs:
            return False
    return all(obs.pair_excesses.get(key, [])[:len(xs)] == xs for key, xs in sample.pair_excesses.items())


def play_tables(table_ids: list[int], hands: int = HANDS) -> dict:
    """The observations of these tables, as JSON-ready data (a worker's task)."""
    from audit.auditor.collusion.cheaters import played_observations

    return to_data(played_observations("rummy13", tables=TABLES, players=PLAYERS, hands=hands, seed=SEED,
                                       table_ids=table_ids))


def to_data(obs) -> dict:
    return {"excesses": [[a, s, [str(x) for x in xs], list(obs.hand_of[(a, s)])] for (a, s), xs in obs.excesses.items()],
            "pairs": [[a, b, s, [str(x) for x in xs]] for (a, b, s), xs in obs.pair_excesses.items()],
            "hands_by_account": dict(obs.hands_by_account),
            "together": [[a, b, n] for (a, b), n in obs.together.items()],
            "flows": [[a, b, str(v)] for (a, b), v in obs.flows.items()],
            "hands": obs.hands, "games": sorted(obs.games)}


def from_data(data: dict):
    from audit.auditor.collusion.observe import Observations

    obs = Observations()
    for a, s, xs, at in data["excesses"]:
        obs.excesses[(a, s)] = [Fraction(x) for x in xs]
        obs.hand_of[(a, s)] = list(at)
    for a, b, s, xs in data["pairs"]:
        obs.pair_excesses[(a, b, s)] = [Fraction(x) for x in xs]
    obs.hands_by_account.update(data["hands_by_account"])
    for a, b, n in data["together"]:
        obs.together[(a, b)] = n
    for a, b, v in data["flows"]:
        obs.flows[(a, b)] = Decimal(v)
    obs.hands = data["hands"]
    obs.games = set(data["games"])
    return obs


def build(path: Path, workers: int = 2) -> None:
    """Play every table (over ``workers`` processes) and write the merged observations at
    ``path`` (written beside it and renamed: whole or not at all)."""
    from audit.auditor.collusion.observe import Observations
    from audit.auditor.collusion.parallel import merge_into

    out = Observations()
    chunks = [list(range(t, min(t + 5, TABLES))) for t in range(0, TABLES, 5)]
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for data in pool.map(play_tables, chunks):   # in table order
            merge_into(out, from_data(data))
    tmp = path.with_suffix(".building")
    tmp.write_text(json.dumps(to_data(out)))
    tmp.rename(path)


def ten_thousand(workers: int = 2):
    """The kept observations, built first if they are not there or do not :func:`match <matches>`
    the code as it is, as :class:`~audit.auditor.collusion.observe.Observations`."""
    path = cache_dir() / f"rummy-honest-{SEED}-{TABLES}x{HANDS}.json"
    if path.exists():
        obs = from_data(json.loads(path.read_text()))
        if matches(obs):
            return obs
    path.parent.mkdir(parents=True, exist_ok=True)
    build(path, workers)
    return from_data(json.loads(path.read_text()))
