"""13-card Rummy's settlement terms (R-13..R-18, R-20, D-2), for :mod:`replay.worked`: each
loser pays its counted points, the winner receives their sum."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..game import Outcome


def work_points(outcome: Outcome) -> dict[str, Any]:
    winner, points = outcome.winner, list(outcome.points)
    total = sum(p for i, p in enumerate(points) if i != winner)
    nets, rows = [], []
    for i, p in enumerate(points):
        net = total if i == winner else -p
        nets.append(net)
        left = outcome.breakdown[i].get("left") if i < len(outcome.breakdown) else None
        rows.append({"seat": i, "points": p, "left": left, "net_points": net,
                     "sum": (f"receives {' + '.join(str(q) for k, q in enumerate(points) if k != winner)} = {net}"
                             if i == winner else f"pays its {p} points")})
    return {"method": "R-20", "winner": winner, "rows": rows, "net_points": nets}


def heading(pts: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """The first line of ``tiplu replay``'s worked settlement (``Game.worked_heading``)."""
    return "settlement (R-20): losers pay their points to the winner"
