"""Marriage's settlement terms (MC-28..MC-31, D-9, D-10), for :mod:`replay.worked`.

Each opponent ``i`` of the winner pays the winner ``T + w_i - n*S_i`` (MC-31): ``T`` the
sum of all scores, ``n`` the number of seats, ``S_i`` its score, ``w_i`` = 3 if it saw
the tiplu, 10 if not, + 5 when the winner finished on dublees (MC-28, MC-29, D-9).  Beside
it, the pairwise payments of the basic method (MC-30: each pays each other the difference,
then ``w_i`` to the winner) that must come to the same net.  A void round (D-10): ``n*S - T``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..game import Outcome
from ..rulesets import Ruleset
from . import payments


def work_points(outcome: Outcome, ruleset: Ruleset) -> dict[str, Any]:
    scores = tuple(outcome.points)
    n, total, winner = len(scores), sum(scores), outcome.winner
    seen = tuple(bool(b.get("seen")) for b in outcome.breakdown)
    finish = outcome.detail.get("finish") or {}
    dublee = bool(finish.get("dublee"))
    base = {"method": "MC-31", "n": n, "T": total, "S": list(scores), "winner": winner, "seen": list(seen),
            "dublee_finish": dublee, "T_sum": " + ".join(map(str, scores)) + f" = {total}"}
    if winner is None:
        nets = payments.void_nets(scores)
        rows = [{"seat": i, "S": s, "net_points": nets[i], "sum": f"n·S − T = {n}·{s} − {total} = {nets[i]}"}
                for i, s in enumerate(scores)]
        return {**base, "method": "D-10", "rows": rows, "net_points": list(nets)}
    pay = payments.streamlined(scores, winner=winner, seen=seen, dublee_finish=dublee, ruleset=ruleset)
    pairwise = payments.pairwise_nets(scores, winner=winner, seen=seen, dublee_finish=dublee, ruleset=ruleset)
    nets = tuple(sum(pay) if i == winner else -p for i, p in enumerate(pay))  # as nets_streamlined
    w_of = [payments.seen_payment(seen[j], dublee_finish=dublee, ruleset=ruleset) for j in range(n)]
    rows = []
    for i, s in enumerate(scores):
        row: dict[str, Any] = {"seat": i, "S": s, "net_points": nets[i], "pairwise_net": pairwise[i],
                               "pairwise": [{"to": j, "points": scores[j] - s} for j in range(n) if j != i]}
        if i == winner:
            row["pairwise"] += [{"to": j, "points": -w_of[j], "w": True} for j in range(n) if j != i]
            row["receives"] = sum(pay)
            row["sum"] = "receives " + " + ".join(str(p) for k, p in enumerate(pay) if k != winner) + f" = {sum(pay)}"
        else:
            seen_term = ruleset["seen_points"] if seen[i] else ruleset["unseen_points"]
            dublee_term = ruleset["dublee_bonus"] if dublee else 0
            w = w_of[i]
            row.update({"w": w, "w_seen": seen_term, "w_dublee": dublee_term, "pays_winner": pay[i],
                        "sum": f"T + w − n·S = {total} + {w} − {n}·{s} = {pay[i]}"})
            row["pairwise"].append({"to": winner, "points": w, "w": True})
        rows.append(row)
    if tuple(pairwise) != tuple(nets):  # MC-31: the streamlined nets are the basic method's
        from ..errors import MalformedError
        raise MalformedError(f"streamlined nets {nets} differ from the pairwise ones {pairwise}")
    return {**base, "rows": rows, "net_points": list(nets)}


def heading(pts: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """The first line of ``tiplu replay``'s worked settlement (``Game.worked_heading``)."""
    if pts["method"] == "MC-31":
        return (f"settlement (MC-31): T = {pts['T_sum']}, n = {pts['n']}; each opponent pays the winner "
                f"{name(pts['winner'])} T + w − n·S")
    return f"void round (D-10): T = {pts['T_sum']}, n = {pts['n']}; net = n·S − T"
