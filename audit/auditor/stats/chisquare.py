"""The deal statistics' tests: a chi-square test at :data:`LEVEL` (scipy.stats.chi2), a chart
of one test's counts with its meaning in words, and what a test cannot show (:data:`CANNOT`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

LEVEL = 0.99


@dataclass(frozen=True)
class ChiSquare:
    """One chi-square test at :data:`LEVEL`."""

    statistic: float
    df: int
    p_value: float
    critical: float
    valid: bool               # enough hands for the approximation (Cochran's rule)
    hands_needed: int         # hands the rule needs (== hands when valid)

    @property
    def flagged(self) -> bool:
        return self.valid and self.statistic > self.critical

    def to_json(self) -> dict[str, Any]:
        return {"statistic": round(self.statistic, 4), "df": self.df, "p_value": self.p_value,
                "critical_99": round(self.critical, 4), "valid": self.valid, "flagged": self.flagged,
                "hands_needed": self.hands_needed}


def chi_square(observed: list[list[int]], per_hand: list[list[float]], hands: int, *, df: int,
               scale: float = 1.0) -> ChiSquare:
    """Pearson's statistic of ``observed`` against ``hands * per_hand`` (cells with zero
    expectation must be empty), divided by ``scale``; df given by the caller."""
    stat = 0.0
    cells = []
    for orow, erow in zip(observed, per_hand):
        for o, e1 in zip(orow, erow):
            if e1 <= 0:
                continue
            e = e1 * hands
            cells.append(e1)
            stat += (o - e) ** 2 / e if e > 0 else 0.0
    stat = stat / scale if scale > 0 else 0.0
    cells.sort()
    need = 1
    if cells:
        q20 = cells[int(len(cells) * 0.2)]  # four in five cells are at least this
        need = max(1, math.ceil(1.0 / cells[0] - 1e-9), math.ceil(5.0 / q20 - 1e-9))
    df = max(df, 1)
    from scipy.stats import chi2   # imported on first use: the audit alone never needs it

    return ChiSquare(stat, df, float(chi2.sf(stat, df)), float(chi2.ppf(LEVEL, df)), hands >= need and hands > 0, need)


@dataclass(frozen=True)
class Chart:
    """One picture and its test: counts by row and column, each with its expected count."""

    id: str
    title: str
    shape: str                        # "grid": one 13 x 4 card grid per column; "table": rows x columns;
                                      # "bars": one row of bars
    about: str                        # "deal" (the shuffle's promise) or "play" (the game and the players)
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    observed: tuple[tuple[int, ...], ...]
    expected: tuple[tuple[float, ...], ...]
    test: ChiSquare
    unit: str                         # what a count counts
    cannot_show: str

    @property
    def meaning(self) -> str:
        return meaning(self)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "shape": self.shape, "about": self.about,
                "rows": list(self.rows), "columns": list(self.columns),
                "observed": [list(r) for r in self.observed],
                "expected": [[round(x, 4) for x in r] for r in self.expected],
                "test": self.test.to_json(), "unit": self.unit,
                "meaning": self.meaning, "cannot_show": self.cannot_show}


def meaning(chart: Chart) -> str:
    """The plain sentence a player reads under a chart."""
    t = chart.test
    if not t.valid:
        return (f"Too few hands to test yet: the test needs about {t.hands_needed} hands "
                f"(so that every expected count is at least 1 and most are at least 5).")
    what = "the cards fell" if chart.about == "deal" else "the wins fell"
    if t.flagged:
        cause = ("A fair shuffle spreads them this unevenly in fewer than 1 archive in 100: "
                 "look at the cells furthest from white." if chart.about == "deal" else
                 "With equal chances that happens in fewer than 1 archive in 100; it may be the game "
                 "(who plays first) or the players' skill as much as the deal.")
        return (f"Not as chance says: chi-square {t.statistic:.1f} on {t.df} degrees of freedom is above "
                f"the 99% critical value {t.critical:.1f} (p = {format_p(t.p_value)}). {cause}")
    return (f"Within what chance allows: {what} with chi-square {t.statistic:.1f} on {t.df} degrees of "
            f"freedom, below the 99% critical value {t.critical:.1f} (p = {format_p(t.p_value)}).")


def format_p(p: float) -> str:
    if p < 1e-4:
        return f"{p:.1e}"
    return f"{p:.4f}".rstrip("0").rstrip(".") if p < 0.9999 else "1"


CANNOT = {
    "cards_by_seat": "It cannot show a bias too small for this many hands, one that follows a player "
                     "rather than a seat number, or one in the order cards arrive; and 1 fair archive in "
                     "100 is flagged by chance.",
    "ranks_by_seat": "It sees a bias for a rank, not for a suit or one card; and 1 fair archive in 100 is "
                     "flagged by chance.",
    "ranks_by_stock": "It cannot show a bias in the order within a stretch, for a suit or one card, one "
                      "that depends on what was already played, or one too small for this many hands.",
    "turned_up": "One card per hand: it sees only a strong bias, and nothing about the rest of the deal.",
    "indicator": "One card per hand: it sees only a strong bias, and nothing about who holds the jokers.",
    "jokers_by_seat": "It counts jokers only; a seat given better non-joker cards would not show here. "
                      "Hands in which no tiplu was drawn are left out.",
    "winner_by_seat": "Players differ in skill and luck, so an uneven count is not proof of rigging; "
                      "an even one is not proof of fairness.",
    "winner_by_position": "Playing first can be a real advantage of the game itself, so this measures the "
                          "game and the players as much as the deal.",
}
