"""The honest 10,000-hand archives of the false-positive tests: 13-card Rummy
(``test_collusion_rummy_honest.py``, :data:`RUMMY`) and Marriage
(``test_collusion_marriage_honest.py``, :data:`MARRIAGE`, the plan of ``python
bench/collusion_pairs.py honest --preset marriage/nepal --hands 10000``).  Each is 25 tables of
four honest bots, 400 hands each, every table with its own four accounts (100 in all), played
in memory (:mod:`audit.auditor.collusion.cheaters`) and observed by every signal of its game.
Its observations are kept in a cache directory (``TIPLU_TEST_CACHE``, default
``<tmp>/tiplu-test-cache``, as the collusion pages' 10,000-hand ledger,
``tests/browser/collusion_scale.py``) under a name that changes with the plan.  A kept copy is
used only if the first hands of two tables, played again by the code as it is, give exactly
the kept numbers (every account's and every pair's observations of those hands,
:func:`matches`); otherwise it is built again, so a change to a signal, the solver or a bot
is not tested against stale numbers.  Building took about 6 CPU-minutes for Rummy (about
35 ms a hand, bots and signals), split over two processes by table."""
from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

#: the first hands of two tables (the first and the last) are played again to check a kept copy
SAMPLE_HANDS = 12


@dataclass(frozen=True)
class Plan:
    """One archive: the preset its tables play, the seed of its hands, the name of its kept copy."""

    preset: str
    seed: str
    name: str
    tables: int = 25
    players: int = 4
    hands: int = 400

    @property
    def sample_tables(self) -> tuple[int, int]:
        return (0, self.tables - 1)

    def path(self) -> Path:
        return cache_dir() / f"{self.name}-{self.seed}-{self.tables}x{self.hands}.json"


RUMMY = Plan("rummy13", "rummy-honest-10k", "rummy-honest")
#: seed ``honest0``: the run of ``bench/collusion_pairs.py honest`` measured in docs/collusion.md
MARRIAGE = Plan("marriage/nepal", "honest0", "marriage-honest")


def cache_dir() -> Path:
    return Path(os.environ.get("TIPLU_TEST_CACHE") or Path(tempfile.gettempdir()) / "tiplu-test-cache")


def play(plan: Plan, table_ids: list[int], hands: int):
    from audit.auditor.collusion.cheaters import played_observations

    return played_observations(plan.preset, tables=plan.tables, players=plan.players, hands=hands,
                               seed=plan.seed, table_ids=table_ids)


def matches(plan: Plan, obs, sample=None) -> bool:
    """Whether ``obs`` holds exactly what the code as it is observes in the first
    ``SAMPLE_HANDS`` hands of the plan's sample tables (``sample``: those observations, if made)."""
    if sample is None:
        sample = play(plan, list(plan.sample_tables), SAMPLE_HANDS)
    for key, xs in sample.excesses.items():
        if [x for x, at in zip(obs.excesses.get(key, []), obs.hand_of.get(key, [])) if at <= SAMPLE_HANDS] != xs:
            return False
    return all(obs.pair_excesses.get(key, [])[:len(xs)] == xs for key, xs in sample.pair_excesses.items())


def play_tables(plan: Plan, table_ids: list[int]) -> dict:
    """The observations of these tables, as JSON-ready data (a worker's task)."""
    return to_data(play(plan, table_ids, plan.hands))


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


def build(plan: Plan, path: Path, workers: int = 2) -> None:
    """Play every table (over ``workers`` processes) and write the merged observations at
    ``path`` (written beside it and renamed: whole or not at all)."""
    from audit.auditor.collusion.observe import Observations
    from audit.auditor.collusion.parallel import merge_into

    out = Observations()
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:   # a table a task: the workers end together
        for data in pool.map(play_tables, [plan] * plan.tables, [[t] for t in range(plan.tables)]):   # in table order
            merge_into(out, from_data(data))
    tmp = path.with_suffix(".building")
    tmp.write_text(json.dumps(to_data(out)))
    tmp.rename(path)


def ten_thousand(plan: Plan, workers: int = 2):
    """The plan's kept observations, built first if they are not there or do not :func:`match
    <matches>` the code as it is, as :class:`~audit.auditor.collusion.observe.Observations`."""
    path = plan.path()
    if path.exists():
        obs = from_data(json.loads(path.read_text()))
        if matches(plan, obs):
            return obs
    path.parent.mkdir(parents=True, exist_ok=True)
    build(plan, path, workers)
    return from_data(json.loads(path.read_text()))


def reviewed(plan: Plan):
    """The review of the plan's kept observations (:func:`ten_thousand`), checked first to be
    this code's on the hands played again and to hold every hand of the plan."""
    from audit.auditor.collusion import review

    obs = ten_thousand(plan)
    assert matches(plan, obs), f"{plan.path()} is not what this code observes"
    rep = review(obs)
    assert rep.hands == plan.tables * plan.hands, rep.hands
    return rep


def assert_nobody_flagged(rep) -> None:
    """No account flag, no pair flag, and every q-value of the one control above its level."""
    from audit.auditor.collusion.significance import ALPHA

    assert rep.flags == (), [(t.account, t.signal, t.p) for t in rep.flags]
    assert rep.pair_flags == (), [(t.account, t.target, t.signal, t.p) for t in rep.pair_flags]
    assert min(t.q for t in (*rep.tests, *rep.pair_tests) if t.q is not None) > ALPHA
