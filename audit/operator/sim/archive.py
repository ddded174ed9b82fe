"""Build archives of simulated tables: several presets, several tables, one ledger."""
from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from ...errors import NotFoundError
from ...tlog.checkpoint import DEFAULT_ORIGIN
from .tables import EPOCH, TableRun, simulate_table

if TYPE_CHECKING:
    from audit.operator.ledger import Ledger
    from audit.signing import SigningKey

OPERATOR = "demo-operator"


@dataclass
class ArchiveRun:
    tables: list[TableRun] = field(default_factory=list)

    @property
    def tampered(self) -> dict[str, str]:
        return {h: k for t in self.tables for h, k in t.tampered.items()}

    def summary(self) -> dict[str, Any]:
        by_preset: dict[str, dict[str, Any]] = {}
        for t in self.tables:
            s = by_preset.setdefault(t.preset, {"tables": 0, "hands": 0, "finished": 0, "turns": []})
            s["tables"] += 1
            s["hands"] += t.hands
            s["finished"] += t.finished
            s["turns"].extend(t.turns)
        for s in by_preset.values():
            turns = s.pop("turns")
            s["median_moves"] = statistics.median(turns) if turns else 0
            s["finish_rate"] = round(s["finished"] / s["hands"], 3) if s["hands"] else 0
        return {"presets": by_preset, "hands": sum(t.hands for t in self.tables), "tampered": len(self.tampered)}


def ensure_operator(ledger: Ledger, name: str = OPERATOR, *, seed: str | None = None) -> None:
    """Register the simulated operator; with ``seed`` its key is derived from it, so a
    simulation is byte-for-byte reproducible (signatures included)."""
    try:
        ledger.operator(name)
    except NotFoundError:
        ledger.new_operator(name, key=None if seed is None else operator_key_for(seed), now=EPOCH)


def operator_key_for(seed: str) -> SigningKey:
    """The simulated operator's key derived from ``seed`` (known before the ledger exists:
    the demo's witness is told the log's key first)."""
    from ...signing import SigningKey
    from .tables import SimStreams

    return SigningKey.from_hex(SimStreams(seed).bytes("operator-key", 32).hex())


def simulate_archive(ledger: Ledger, plan: Iterable[tuple[str, int, int]], *, seed: str, tamper_rate: float = 0.0,
                     table_prefix: str = "", on_record: Callable[[dict[str, Any], str | None], None] | None = None,
                     on_table: Callable[[TableRun], None] | None = None, bias: Any = None,
                     origin: str = DEFAULT_ORIGIN, tamper_hands: Any = None, tamper_rng: Any = None,
                     peek: Any = None, collude: Any = None) -> ArchiveRun:
    """Simulate each ``(preset, players, hands)`` table of ``plan`` in ``ledger`` (``bias``: an
    :class:`audit.operator.sim.bias.Bias`, the operator choosing seeds to favour a seat; ``origin``:
    the log's name in the records' checkpoints; ``peek``: seat -> per mille of its decisions
    played as a superuser, :func:`audit.operator.sim.play.play_hand`; ``collude``: seat ->
    (partner, per mille), a colluding pair)."""
    ensure_operator(ledger, seed=seed)
    run = ArchiveRun()
    after = _last_time(ledger)  # a run appended to a ledger goes on after its last statement
    for i, (preset, players, hands) in enumerate(plan):
        table_id = f"{table_prefix}{preset.replace('/', '-')}-{players}p-t{i}"
        start = EPOCH + timedelta(days=i)
        if after is not None and start <= after:  # statement times run forward in log order
            start = after + timedelta(minutes=1)
        t = simulate_table(ledger, preset=preset, players=players, hands=hands, seed=seed, table_id=table_id,
                           operator=OPERATOR, tamper_rate=tamper_rate, on_record=on_record,
                           start=start, bias=bias, origin=origin,
                           tamper_hands=tamper_hands, tamper_rng=tamper_rng, peek=peek,
                           collude=collude)
        after = t.last_time or after
        run.tables.append(t)
        if on_table:
            on_table(t)
    return run


def _last_time(ledger: Ledger) -> "datetime | None":
    """The time of the ledger's last statement (``None`` for an empty log)."""
    from ...timecheck import parse_time

    row = ledger.db.execute("SELECT statement FROM statements ORDER BY seq DESC LIMIT 1").fetchone()
    return parse_time(json.loads(row[0]).get("time")) if row else None


def write_tamper_log(run: ArchiveRun, path: Path) -> None:
    """The dishonest operator's private list: which hands it tampered, and how."""
    path.write_text(json.dumps(run.tampered, indent=1, sort_keys=True) + "\n", encoding="utf-8")
