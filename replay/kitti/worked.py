"""Kitti's settlement terms (K-1, D-13, D-14), for :mod:`replay.worked`: the pot in, every
seat's stakes, the rounds won, who takes the pot, salami, the pot out."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..game import Outcome


def work_points(outcome: Outcome) -> dict[str, Any]:
    d = outcome.detail
    pot_in, pot_out, winner = int(d.get("pot_before", 0)), int(d.get("pot_after", 0)), outcome.winner
    stakes = [int(b.get("stakes", 0)) for b in outcome.breakdown]
    salami = [int(b.get("salami", 0)) for b in outcome.breakdown]
    at_show = pot_in + sum(stakes)
    taken = at_show - pot_out if winner is not None else 0
    nets, rows = [], []
    for i, (st, sa) in enumerate(zip(stakes, salami)):
        net = -st + sa + (taken if i == winner else 0)
        nets.append(net)
        parts = [f"−{st} stake"] + ([f"{'+' if sa > 0 else '−'}{abs(sa)} salami"] if sa else []) \
            + ([f"+{taken} pot"] if i == winner else [])
        rows.append({"seat": i, "stakes": st, "rounds_won": outcome.points[i], "salami": sa,
                     "takes_pot": taken if i == winner else 0, "net_points": net,
                     "sum": " ".join(parts) + f" = {net}"})
    return {"method": "D-13", "reason": d.get("reason"), "pot_in": pot_in, "stakes_in": sum(stakes),
            "pot_at_show": at_show, "winner": winner, "pot_taken": taken, "pot_out": pot_out,
            "rounds_won": list(outcome.points),
            "pot_sum": f"{pot_in} in + {sum(stakes)} staked = {at_show}; "
                       + (f"seat {winner} takes {taken}; " if winner is not None else "nobody takes it (a kitti); ")
                       + f"{pot_out} carried out",
            "rows": rows, "net_points": nets}


def heading(pts: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """The first line of ``tiplu replay``'s worked settlement (``Game.worked_heading``)."""
    return f"pot (D-13): {pts['pot_sum']}"
