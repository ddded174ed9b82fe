"""The pair side of the review in words and rows: the pair table (who sat with whom, the
tokens between them, their pair tests) and the sentence of each pair flag."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from .pair_signals import ANTISYMMETRIC, PairTest
from .pairs import pair_rows
from .significance import ALPHA

#: What each pair signal measures, in words (docs/collusion.md defines each).
PAIR_SIGNALS = {
    "kitti.together": "rounds the two accounts' arrangements would win between them, beyond what the same "
                      "arrangements win with the other's hand redealt at random",
    "rummy13.feed": "points its discards saved the other account's hidden hand (against its own best discard), "
                    "beyond what they save a hand redealt from the cards it could not see",
    "rummy13.soft_drop": "strength of the other account's hidden hand when it dropped at its first pick "
                         "(soft play: standing aside for a strong partner), beyond the same hand redealt with "
                         "the closed stock",
    "marriage.feed": "use of its discards to the other account's sets, who drew next and had not moved yet "
                     "(against its own least useful card), beyond what they give that hand redealt with the stock",
    "tokens.flow": "tokens the first account received from the second, net, where chance (each hand's results "
                   "falling on the seats at random) moves none either way on average",
}

PAIR_MEANING = ("A pair flag means these two accounts' play, or the tokens between them, lined up with each "
                "other more than chance allows at a false discovery rate of {alpha:.0%}: a reason to review "
                "their shared hands, not a finding of collusion. Friends who sit together are not flagged for "
                "that alone (who sits with whom is only described), the token flow assumes equally strong "
                "players, and a pair that shares cards rarely may never be flagged.")


def pair_sentence(t: PairTest) -> str:
    what = PAIR_SIGNALS.get(t.signal, t.signal)
    who = f"{t.account} and {t.target}"
    if t.blank:
        return f"{who}: every one of {t.decisions} hands scored 0 on {t.signal}: nothing to test."
    if not t.tested:
        return f"{who}: {t.decisions} hands on {t.signal}: not tested."
    verdict = "REVIEW" if t.flagged else "within chance"
    return (f"{who}: {verdict} -- {what}: {t.mean_excess:+.3f} per hand over {t.decisions} hands "
            f"(t {t.t:.2f}, p {t.p:.2g}, q {t.q:.2g}).")


def test_row(t: PairTest) -> dict[str, Any]:
    return {"accounts": [t.account, t.target], "signal": t.signal, "two_sided": t.signal in ANTISYMMETRIC,
            "hands": t.decisions, "mean_excess": round(t.mean_excess, 6),
            "t": None if t.t is None else round(t.t, 6), "p": t.p, "q": t.q, "tested": t.tested,
            "blank": t.blank, "flagged": t.flagged}


def pair_table(together: Mapping[tuple[str, str], int], flows: Mapping[tuple[str, str], Decimal],
               hands_by_account: Mapping[str, int], tests: Sequence[PairTest], *, top: int = 20) -> list[dict[str, Any]]:
    """The pairs that sat together most, and every pair with a flag, each with its share of
    hands together (of the less active account's hands) and its tests."""
    rows = {tuple(r["accounts"]): r for r in pair_rows(together, flows, top=len(together))}
    by_pair: dict[tuple[str, str], list[PairTest]] = {}
    for t in tests:
        first, second = sorted((t.account, t.target))
        by_pair.setdefault((first, second), []).append(t)
    keep = sorted(rows, key=lambda k: (-rows[k]["hands_together"], k))[:top]
    keep += [k for k in sorted(by_pair) if k in rows and k not in keep and any(t.flagged for t in by_pair[k])]
    out = []
    for key in keep:
        row = dict(rows[key])
        fewer = min(hands_by_account.get(key[0], 0), hands_by_account.get(key[1], 0))
        row["share_together"] = round(row["hands_together"] / fewer, 4) if fewer else 0.0
        tested = sorted(by_pair.get(key, []), key=lambda t: (t.signal, t.account))
        row["tests"] = [test_row(t) for t in tested]
        row["flagged"] = any(t.flagged for t in tested)
        row["meaning_alpha"] = ALPHA
        out.append(row)
    return out
