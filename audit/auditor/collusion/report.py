"""The review: flags with their numbers and a plain sentence of what they do and do not mean."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .observe import Observations
from .pair_report import PAIR_MEANING, PAIR_SIGNALS, pair_sentence, pair_table, test_row
from .pair_signals import PairTest, assess
from .pairs import components
from .series import Series, cumulative
from .significance import ALPHA, MIN_DECISIONS, SignalTest, assess_accounts

#: What each signal measures, in words (docs/collusion.md defines each).
SIGNALS = {
    "kitti.arrangement": "rounds its arrangements won against the real hidden hands, beyond what the "
                         "same arrangements win against hands redealt at random",
    "rummy13.pick": "points its picks saved (taking the hidden stock card when it helped, leaving it when "
                    "it did not), beyond what the same picks save against a stock card drawn at random",
    "rummy13.discard": "points its discards would have saved the next player (who had not moved yet), "
                       "below what the same discards save a next hand redealt at random",
    "rummy13.drop": "danger met by its first-drop choices (dropping against strong hidden opponents, playing "
                    "on against weak ones), beyond what the same choices meet against opponents redealt at random",
    "marriage.pick": "use of its draws to its sets (taking the hidden stock card when it helped, the discard "
                     "when it did not), beyond the same draws against a stock card drawn at random",
    "marriage.discard": "use of its discards to the next player's sets (who had not moved yet), below what "
                        "the same discards give a next hand redealt with the stock",
    "marriage.joker": "jokers of the real tiplu its draws took from the hidden stock (and left there when it "
                      "took the discard), beyond the same draws against a stock card drawn at random",
}

MEANING = ("A flag means this account's choices lined up with cards it could not see more often than "
           "chance allows at a false discovery rate of {alpha:.0%}. It is a reason to review the "
           "account's hands, not a finding of cheating: a flag can be luck, and an account that "
           "cheats rarely may never be flagged.")


@dataclass(frozen=True)
class CollusionReport:
    hands: int
    skipped: dict[str, int]
    tests: tuple[SignalTest, ...]
    pairs: tuple[dict[str, Any], ...]
    groups: tuple[tuple[str, ...], ...]
    min_decisions: int = MIN_DECISIONS
    #: per (account, signal): the cumulative excess over the account's hands (the charts)
    series: dict[tuple[str, str], Series] = field(default_factory=dict, compare=False)
    pair_tests: tuple[PairTest, ...] = ()

    @property
    def flags(self) -> tuple[SignalTest, ...]:
        return tuple(t for t in self.tests if t.flagged)

    @property
    def pair_flags(self) -> tuple[PairTest, ...]:
        return tuple(t for t in self.pair_tests if t.flagged)

    def sentence(self, t: SignalTest) -> str:
        what = SIGNALS.get(t.signal, t.signal)
        if not t.tested:
            return f"{t.account}: {t.decisions} decisions on {t.signal}, fewer than {self.min_decisions}: not tested."
        verdict = "REVIEW" if t.flagged else "within chance"
        return (f"{t.account}: {verdict} -- {what}: {t.mean_excess:+.3f} per decision over {t.decisions} "
                f"decisions (t {t.t:.2f}, p {t.p:.2g}, q {t.q:.2g}).")

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands, "skipped": dict(sorted(self.skipped.items())),
            "alpha": ALPHA, "min_decisions": self.min_decisions, "meaning": MEANING.format(alpha=ALPHA),
            "signals": SIGNALS,
            "flags": [_row(t) | {"sentence": self.sentence(t)} for t in self.flags],
            "accounts": [_row(t) for t in self.tests],
            "pairs": list(self.pairs), "groups": [list(g) for g in self.groups],
            "pair_signals": PAIR_SIGNALS, "pair_meaning": PAIR_MEANING.format(alpha=ALPHA),
            "pair_flags": [test_row(t) | {"sentence": pair_sentence(t)} for t in self.pair_flags],
            "pair_tests_run": sum(t.tested for t in self.pair_tests),
        }

    def lines(self) -> list[str]:
        out = [f"{self.hands} audit-passing hands reviewed"
               + ("" if not self.skipped else " (left out: " + ", ".join(
                   f"{n} {why}" for why, n in sorted(self.skipped.items())) + ")")]
        tested = [t for t in self.tests if t.tested]
        out.append(f"{len(tested)} account signals tested, {len(self.flags)} flagged for review "
                   f"(false discovery rate {ALPHA:.0%}, at least {self.min_decisions} decisions each)")
        out += [self.sentence(t) for t in self.flags]
        if self.pair_tests:
            out.append(f"{sum(t.tested for t in self.pair_tests)} pair signals tested, {len(self.pair_flags)} "
                       f"flagged for review (the same control, at least {self.min_decisions} hands each)")
            out += [pair_sentence(t) for t in self.pair_flags]
        untested = [t for t in self.tests if not t.tested]
        if untested:
            out.append(f"{len(untested)} account signals have too few decisions to test")
        if not self.tests:
            out.append("no game of this source has a hidden-information signal yet (docs/collusion.md)")
        out.append(MEANING.format(alpha=ALPHA))
        if self.pair_tests:
            out.append(PAIR_MEANING.format(alpha=ALPHA))
        return out


def _row(t: SignalTest) -> dict[str, Any]:
    return {"account": t.account, "signal": t.signal, "decisions": t.decisions,
            "mean_excess": round(t.mean_excess, 6), "t": None if t.t is None else round(t.t, 6),
            "p": t.p, "q": t.q, "tested": t.tested, "flagged": t.flagged}


def review(obs: Observations, *, min_decisions: int = MIN_DECISIONS) -> CollusionReport:
    """The review of what :func:`audit.auditor.collusion.observe.observe_items` gathered."""
    tests, pair_tests = assess(assess_accounts(obs.excesses, min_decisions=min_decisions), obs.pair_excesses,
                               min_decisions=min_decisions)
    series = {key: cumulative(key[1], obs.hand_of.get(key) or [0] * len(xs), xs)
              for key, xs in obs.excesses.items() if xs}
    return CollusionReport(obs.hands, dict(obs.skipped), tuple(tests),
                           tuple(pair_table(obs.together, obs.flows, obs.hands_by_account, pair_tests)),
                           tuple(tuple(g) for g in components(obs.together)), min_decisions, series,
                           tuple(pair_tests))
