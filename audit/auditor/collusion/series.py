"""One account's signal over time: its cumulative excess by the account's hand count, against
the band chance keeps an honest account in (the per-account charts, ``docs/collusion.md``).

An honest account's excesses have mean zero and are independent from hand to hand, so after
``k`` decisions their sum has mean zero and standard deviation ``s * sqrt(k)`` (``s`` the
spread of one decision's excess, estimated from the account's own decisions): the band is
``±BAND * s * sqrt(k)``, where a sum that keeps drifting above it is what the t-test
measures.  The curve is thinned to at most :data:`POINTS` points (always keeping the last),
so a page's size does not grow with the hands.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

#: two-sided 99 % of the standard normal, as the t-statistic chart's band (web/collusion_svg.py)
BAND = 2.576
POINTS = 120


@dataclass(frozen=True)
class Series:
    """``hands[i]``: the account's hand count at point ``i``; ``total[i]``: the cumulative excess
    after ``decisions[i]`` decisions; ``band[i]``: the half-width of the honest band there."""

    signal: str
    hands: tuple[int, ...]
    decisions: tuple[int, ...]
    total: tuple[float, ...]
    band: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"signal": self.signal, "hands": list(self.hands), "decisions": list(self.decisions),
                "total": [round(x, 4) for x in self.total], "band": [round(x, 4) for x in self.band]}


def cumulative(signal: str, hands: Sequence[int], excesses: Sequence[Fraction], *, points: int = POINTS) -> Series:
    """The thinned cumulative excess of one account on one signal (``hands[i]`` is the
    account's hand count at its ``i``-th decision)."""
    n = len(excesses)
    xs = [float(x) for x in excesses]
    mean = math.fsum(xs) / n if n else 0.0
    spread = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    step = max(1, math.ceil(n / points))
    keep = set(range(step - 1, n, step)) | ({n - 1} if n else set())
    out_h, out_d, out_t, out_b = [], [], [], []
    total = 0.0
    for i, x in enumerate(xs):
        total += x
        if i in keep:
            out_h.append(hands[i])
            out_d.append(i + 1)
            out_t.append(total)
            out_b.append(BAND * spread * math.sqrt(i + 1))
    return Series(signal, tuple(out_h), tuple(out_d), tuple(out_t), tuple(out_b))
