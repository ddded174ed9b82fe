"""Deal statistics: over many audited hands, do the cards fall the way chance says?

An audit proves each hand was dealt from the committed seeds.  It cannot prove the seeds
were not *chosen*: an operator who also controls the players' seeds (its own app makes
them) could try many and publish only deals it likes -- every one of them audits clean.
What such an operator cannot hide is the pattern.  This module counts, per game, where
the cards of audit-passing hands landed and compares the counts with what a fair shuffle
gives, each with a chi-square test (``scipy.stats.chi2``):

* ``cards_by_seat`` -- each card in each seat's dealt hand (test over the seats plus
  "elsewhere": a card-by-place table whose margins every deal fixes);
* ``ranks_by_seat`` -- the same counts by rank (13 rows, not 52: a bias for a rank, say
  aces to one seat, shows with far fewer hands);
* ``ranks_by_stock`` -- each rank in each stretch of the cards after the hands (the stock,
  top first; Kitti's undealt cards), in up to :data:`STOCK_BINS` equal stretches (by rank,
  not card, so the test has enough hands sooner and the picture stays small);
* ``turned_up`` / ``indicator`` -- the rank of the card turned up after the hands, and of
  Rummy's wild-card indicator (one card per hand: a multinomial test);
* ``jokers_by_seat`` -- how many of the hand's jokers each seat was dealt (the jokers the
  hand's tiplu or indicator makes; Marriage hands in which no tiplu was drawn do not count);
* ``winner_by_seat`` / ``winner_by_position`` -- who won, by seat number and by place
  after the dealer.  These measure the play as much as the deal (``about = "play"``).

The deal is the one the audit replays: :meth:`replay.fairness.HandRandomness.deal` of the
record's seeds (the first shoe; a Kitti redeal is a fresh shoe and is not counted, so that
the counted deals are not selected).

**The test for a card-by-place table.**  One deal puts the ``M`` cards of the shoe into
places of fixed sizes, so its card-by-place table has both margins fixed; under a fair
shuffle Pearson's statistic of the sum of ``N`` such tables is ``M/(M-1)`` times a
chi-square variable with ``(kinds - 1) * (places - 1)`` degrees of freedom (the
permutation distribution's variance; Haldane 1940).  We report ``X2 * (M-1)/M``.  Jokers
by seat: given ``T`` jokers among the ``K = n * hand_size`` dealt cards, their split among
the seats is hypergeometric, whose variance is ``(K-T)/(K-1)`` of the multinomial's; the
statistic is divided by the pooled factor ``sum T (K-T)/(K-1) / sum T``.  A test is only
reported once the expected counts allow it (Cochran: every expected count at least 1 and
four in five at least 5); before that the page says how many hands it needs.

**Level.**  A test is *flagged* when its statistic exceeds the 99% point: a fair shuffle is
flagged by one given test in 1 archive of 100.  A page shows several tests per game, so the
chance that some test of a fair game is flagged is higher (about 1 - 0.99^k for k tests).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from replay.cards import Card
from replay.deal import seat_order
from replay.fairness import hand_randomness
from replay.faults import Reason
from replay.registry import game_for
from replay.shoes import canonical_shoe

from .chisquare import CANNOT, LEVEL, Chart, chi_square, format_p  # noqa: F401 - LEVEL: named here too


STATS_FORMAT = "tiplu.stats/1"
STOCK_BINS = 8
RANK_LABELS = tuple("A23456789TJQK") + ("JK", "MC")

#: Which hands count: published, log-bound (``tiplu.hand/2``: every statement proven in the
#: operator's log) and audit-passing (a ``tiplu.hand/1`` record fails with ``not_log_bound``).
USED = "published, log-bound records whose audit passes"


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What one audit-passing hand contributes to the statistics."""

    preset: str
    n_seats: int
    ruleset_hash: str
    hands: tuple[tuple[str, ...], ...]
    turned_up: str | None
    indicator: str | None
    stock: tuple[str, ...]
    jokers: tuple[int, ...] | None      # jokers dealt to each seat; None: not known for this hand
    winner: int | None
    winner_position: int | None        # 1 = the dealer's left (first to receive cards) ... n = the dealer

    @property
    def group(self) -> tuple[str, int, str]:
        return self.preset, self.n_seats, self.ruleset_hash


def hand_facts(verdict: Any) -> HandFacts | None:
    """The facts of an audit-passing hand; ``None`` for any other verdict."""
    replay = getattr(verdict, "replay", None)
    if not verdict.ok or replay is None or replay.record is None or replay.outcome is None:
        return None
    record = replay.record
    if record.fairness.log_proofs is None:   # not log-bound (the audit says so too: not_log_bound)
        return None
    rs = record.ruleset
    deal = hand_randomness(record.fairness.server_seed, record.hand_id, rs,
                           record.fairness.player_seeds).deal(record.table.dealer)
    return deal_facts(rs, deal, dealer=record.table.dealer, outcome=replay.outcome)


def deal_facts(ruleset: Any, deal: Any, *, dealer: int, outcome: Any = None) -> HandFacts:
    """The facts of one deal (a :class:`replay.deal.Deal`) and, if known, its outcome."""
    n = len(deal.hands)
    joker_rule = game_for(ruleset.game).jokers_of_hand
    is_joker: Callable[[Card], bool] | None = joker_rule(ruleset, deal, outcome) if joker_rule and outcome else None
    jokers = tuple(sum(1 for c in h if is_joker(c)) for h in deal.hands) if is_joker else None
    winner = outcome.winner if outcome is not None else None
    position = None
    if winner is not None:
        order = seat_order(dealer, n, direction=ruleset.settings.get("direction", "clockwise"))
        position = order.index(winner) + 1
    text = lambda c: _TEXT[c.code] if c is not None else None  # noqa: E731
    return HandFacts(ruleset.preset, n, ruleset.hash, tuple(tuple(_TEXT[c.code] for c in h) for h in deal.hands),
                     text(deal.turned_up), text(deal.indicator), tuple(_TEXT[c.code] for c in deal.stock),
                     jokers, winner, position)


# one shared string per card (a cache of many hands' facts holds references, not copies)
_TEXT = tuple(str(Card(code)) for code in range(54))


@dataclass
class GroupStats:
    """Counts for one game: a preset at one table size under one ruleset."""

    preset: str
    n_seats: int
    ruleset_hash: str
    hands: int = 0
    seat: Counter = field(default_factory=Counter)          # (card, seat) -> count
    stock: Counter = field(default_factory=Counter)         # (card, bin) -> count
    turned: Counter = field(default_factory=Counter)        # rank label -> count
    indicator: Counter = field(default_factory=Counter)
    jokers: list[int] = field(default_factory=list)         # per seat
    joker_hands: int = 0
    joker_total: int = 0
    joker_var: float = 0.0                                  # sum T (K-T)/(K-1)
    winners: Counter = field(default_factory=Counter)       # seat -> count
    positions: Counter = field(default_factory=Counter)     # 1..n -> count
    hand_size: int = 0
    stock_len: int = 0
    has_turned: bool = False
    has_indicator: bool = False

    def add(self, f: HandFacts) -> None:
        if not self.hands:
            self.hand_size = len(f.hands[0])
            self.stock_len = len(f.stock)
            self.has_turned = f.turned_up is not None
            self.has_indicator = f.indicator is not None
            self.jokers = [0] * self.n_seats
        self.hands += 1
        seat = self.seat
        for s, h in enumerate(f.hands):
            for c in h:
                seat[c, s] += 1
        edges = bin_edges(self.stock_len)
        b = 0
        stock = self.stock
        for pos, c in enumerate(f.stock):
            while pos >= edges[b + 1]:
                b += 1
            stock[c, b] += 1
        if f.turned_up is not None:
            self.turned[rank_label(f.turned_up)] += 1
        if f.indicator is not None:
            self.indicator[rank_label(f.indicator)] += 1
        if f.jokers is not None:
            k = self.n_seats * self.hand_size
            t = sum(f.jokers)
            self.joker_hands += 1
            self.joker_total += t
            self.joker_var += t * (k - t) / (k - 1) if k > 1 else 0.0
            for s, j in enumerate(f.jokers):
                self.jokers[s] += j
        if f.winner is not None:
            self.winners[f.winner] += 1
            self.positions[f.winner_position] += 1

    # --- the charts -----------------------------------------------------------------
    def charts(self, ruleset: Any) -> list[Chart]:
        shoe = Counter(str(c) for c in canonical_shoe(ruleset, self.n_seats))
        kinds = tuple(shoe)                       # canonical order
        m = sum(shoe.values())
        n, h, N = self.n_seats, self.hand_size, self.hands
        charts = []
        # cards by seat: places = the seats + elsewhere
        sizes = [h] * n + [m - n * h]
        charts.append(self._card_chart("cards_by_seat", "Each card in each seat's dealt hand", kinds, shoe, m,
                                       tuple(f"seat {s}" for s in range(n)), sizes,
                                       lambda k, j: self.seat[k, j], "hands"))
        rank_shoe: Counter = Counter()
        rank_seat: Counter = Counter()
        for k, c in shoe.items():
            rank_shoe[rank_label(k)] += c
        for (k, j), c in self.seat.items():
            rank_seat[rank_label(k), j] += c
        rank_kinds = tuple(r for r in RANK_LABELS if rank_shoe[r])
        charts.append(self._card_chart("ranks_by_seat", "Each rank in each seat's dealt hand", rank_kinds,
                                       rank_shoe, m, tuple(f"seat {s}" for s in range(n)), [h] * n + [m - n * h],
                                       lambda k, j: rank_seat[k, j], "hands", shape="table"))
        if self.stock_len:
            edges = bin_edges(self.stock_len)
            labels = tuple(f"{edges[b] + 1}-{edges[b + 1]}" if edges[b + 1] - edges[b] > 1 else f"{edges[b] + 1}"
                           for b in range(len(edges) - 1))
            sizes = [edges[b + 1] - edges[b] for b in range(len(edges) - 1)]
            sizes.append(m - self.stock_len)
            rank_stock: Counter = Counter()
            for (k, j), c in self.stock.items():
                rank_stock[rank_label(k), j] += c
            charts.append(self._card_chart("ranks_by_stock", "Each rank in each stretch of the stock (position 1 "
                                           "is its top)", rank_kinds, rank_shoe, m, labels, sizes,
                                           lambda k, j: rank_stock[k, j], "hands", shape="table"))
        ranks = rank_shoe
        for key, counter, title, present in (
                ("turned_up", self.turned, "The card turned up after the hands, by rank", self.has_turned),
                ("indicator", self.indicator, "The wild-card indicator, by rank", self.has_indicator)):
            if present:
                cols = tuple(r for r in RANK_LABELS if ranks[r])
                per = [ranks[r] / m for r in cols]
                obs = [counter[r] for r in cols]
                test = chi_square([obs], [per], N, df=len(cols) - 1)
                charts.append(Chart(key, title, "bars", "deal", ("hands",), cols, (tuple(obs),),
                                    (tuple(p * N for p in per),), test, "hands", CANNOT[key]))
        if self.joker_hands:
            per_seat = self.joker_total / n
            obs = list(self.jokers)
            scale = self.joker_var / self.joker_total if self.joker_total else 1.0
            # expected per "hand" unit: the test scales by hands, so pass per-joker-hand means
            mean = per_seat / self.joker_hands
            test = chi_square([obs], [[mean] * n], self.joker_hands, df=n - 1, scale=scale)
            charts.append(Chart("jokers_by_seat", "Jokers dealt to each seat", "bars", "deal", ("jokers",),
                                tuple(f"seat {s}" for s in range(n)), (tuple(obs),), ((per_seat,) * n,), test,
                                "jokers", CANNOT["jokers_by_seat"]))
        won = sum(self.winners.values())
        for key, counter, places, title in (
                ("winner_by_seat", self.winners, [f"seat {s}" for s in range(n)], "The winner, by seat"),
                ("winner_by_position", self.positions, [position_label(p, n) for p in range(1, n + 1)],
                 "The winner, by place after the dealer")):
            keys = list(range(n)) if key == "winner_by_seat" else list(range(1, n + 1))
            obs = [counter[k] for k in keys]
            test = chi_square([obs], [[1 / n] * n], won, df=n - 1)
            charts.append(Chart(key, title, "bars", "play", ("wins",), tuple(places), (tuple(obs),),
                                ((won / n,) * n,), test, "hands won", CANNOT[key]))
        return charts

    def _card_chart(self, key: str, title: str, kinds: tuple[str, ...], shoe: Counter, m: int,
                    columns: tuple[str, ...], sizes: list[int], count: Callable[[str, int], int],
                    unit: str, shape: str = "grid") -> Chart:
        N = self.hands
        shown = len(columns)
        observed, per_hand = [], []
        for k in kinds:
            row = [count(k, j) for j in range(shown)]
            row.append(shoe[k] * N - sum(row))               # elsewhere: what the shown places did not get
            observed.append(row)
            per_hand.append([shoe[k] * s / m for s in sizes])
        test = chi_square(observed, per_hand, N, df=(len(kinds) - 1) * (len(sizes) - 1), scale=m / (m - 1))
        return Chart(key, title, shape, "deal", kinds, columns,
                     tuple(tuple(r[:shown]) for r in observed),
                     tuple(tuple(e * N for e in r[:shown]) for r in per_hand), test, unit, CANNOT[key])


def bin_edges(length: int, bins: int = STOCK_BINS) -> list[int]:
    """Stretch boundaries over ``length`` positions: ``min(bins, length)`` nearly equal stretches."""
    b = max(1, min(bins, length))
    return [i * length // b for i in range(b + 1)]


def rank_label(card: str) -> str:
    return card if card in ("JK", "MC") else card[0]


def position_label(p: int, n: int) -> str:
    return "dealer" if p == n else ("dealer's left" if p == 1 else f"{p} after the dealer")


@dataclass
class DealStats:
    """The statistics of an archive: add facts hand by hand, then read :meth:`to_json`."""

    groups: dict[tuple[str, int, str], GroupStats] = field(default_factory=dict)
    rulesets: dict[str, Any] = field(default_factory=dict)
    considered: int = 0
    excluded: Counter = field(default_factory=Counter)       # first fault reason -> hands
    trust: dict[str, Any] = field(default_factory=lambda: {"public_key": None, "basis": "record"})
    timing: Counter = field(default_factory=Counter)  # what proved the timing of the hands used

    def add_verdict(self, verdict: Any) -> HandFacts | None:
        """Count one audited record: its facts if it passes, its first reason otherwise."""
        self.considered += 1
        facts = hand_facts(verdict)
        if facts is None:
            self.excluded[verdict.reason.value if verdict.reason else "no_outcome"] += 1
            return None
        self.add(facts, verdict.replay.record.ruleset)
        timing = getattr(verdict, "timing", None)
        self.timing[timing.status if timing is not None else "unproven"] += 1
        return facts

    def add_error(self) -> None:
        self.considered += 1
        self.excluded[Reason.MALFORMED.value] += 1

    def add(self, facts: HandFacts, ruleset: Any) -> None:
        g = self.groups.get(facts.group)
        if g is None:
            g = self.groups[facts.group] = GroupStats(facts.preset, facts.n_seats, facts.ruleset_hash)
            self.rulesets[facts.ruleset_hash] = ruleset
        g.add(facts)

    @property
    def used(self) -> int:
        return sum(g.hands for g in self.groups.values())

    def games(self) -> list[dict[str, Any]]:
        out = []
        for key in sorted(self.groups):
            g = self.groups[key]
            charts = g.charts(self.rulesets[g.ruleset_hash])
            deal_tests = [c for c in charts if c.about == "deal" and c.test.valid]
            out.append({"preset": g.preset, "seats": g.n_seats, "ruleset_hash": g.ruleset_hash, "hands": g.hands,
                        "flagged": [c.id for c in charts if c.test.flagged],
                        "deal_flagged": [c.id for c in deal_tests if c.test.flagged],
                        "deal_tests": len(deal_tests), "charts": charts})
        return out

    def to_json(self) -> dict[str, Any]:
        games = self.games()
        return {"format": STATS_FORMAT, "level": LEVEL, "used": USED, "trust": dict(self.trust),
                "considered": self.considered,
                "hands": self.used, "excluded": dict(sorted(self.excluded.items())),
                "timing": {k: self.timing[k] for k in ("witnessed", "whole-log", "unproven")},
                "games": [{**g, "charts": [c.to_json() for c in g["charts"]]} for g in games]}


def stats_of_verdicts(verdicts: Iterable[Any]) -> DealStats:
    stats = DealStats()
    for v in verdicts:
        stats.add_verdict(v)
    return stats


def stats_of_items(items: Iterable[Any], *, public_key: str | None = None, trust: Any = None,
                   progress: Callable[[int], None] | None = None, policy: Any = None,
                   log: Any = None) -> DealStats:
    """Audit each :class:`~audit.auditor.sources.reader.Item` (under ``trust``, a :class:`~audit.auditor.verdict.trust.TrustAnchor`,
    or the pinned ``public_key``, else each record's own claimed key; under ``policy``, a pinned
    :class:`~audit.tlog.policy.Policy`; against ``log``, the operator's whole log) and count the ones
    that pass; ``timing`` counts what proved the timing of those."""
    from ..run.runner import audit_one
    from ..verdict.trust import TrustAnchor

    if trust is None and public_key is not None:
        trust = TrustAnchor(public_key, "pinned")
    stats = DealStats()
    if trust is not None:
        stats.trust = {"public_key": trust.public_key, "basis": trust.basis}
    for n, item in enumerate(items, 1):
        if item.error is not None:
            stats.add_error()
        else:
            stats.add_verdict(audit_one(item.data, trust=trust, witnesses=policy, log=log, kind=item.kind))
        if progress and n % 200 == 0:
            progress(n)
    return stats


def summary_lines(data: Mapping[str, Any]) -> list[str]:
    """The CLI's text report of :meth:`DealStats.to_json`."""
    lines = [f"{data['hands']} of {data['considered']} published hands used ({data['used']})"]
    trust = data.get("trust") or {}
    if trust.get("basis") == "record":
        lines.append("trusted key: each record's own claimed key (nothing pinned: pass --public-key)")
    elif trust.get("public_key"):
        lines.append(f"trusted key: {trust['public_key']} ({trust['basis']})")
    timing = data.get("timing") or {}
    if timing.get("unproven"):
        lines.append(f"timing of the hands used: {timing['witnessed']} witnessed, {timing['whole-log']} whole-log, "
                     f"{timing['unproven']} UNPROVEN (records judged alone: pin a witness policy with --policy or "
                     "read the operator's URL, so that a hand re-made after the players' seeds were known cannot count)")
    elif timing:
        lines.append(f"timing of the hands used: {timing['witnessed']} witnessed, {timing['whole-log']} whole-log")
    if data["excluded"]:
        lines.append("left out: " + ", ".join(f"{n} {r}" for r, n in data["excluded"].items()))
    for g in data["games"]:
        lines.append(f"== {g['preset']}, {g['seats']} seats, ruleset {g['ruleset_hash'][:12]}: {g['hands']} hands ==")
        for c in g["charts"]:
            t = c["test"]
            if t["valid"]:
                mark = "FLAGGED" if t["flagged"] else "ok"
                lines.append(f"  {c['id']:<20} {mark:<8} chi2 {t['statistic']:.1f} df {t['df']} "
                             f"p {format_p(t['p_value'])} (99% critical {t['critical_99']:.1f})")
            else:
                lines.append(f"  {c['id']:<20} {'-':<8} too few hands (needs about {t['hands_needed']})")
    return lines
