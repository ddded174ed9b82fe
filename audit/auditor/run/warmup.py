"""Warm the parent up before it starts the workers, so they begin warm.

A worker's first records cost more than its later ones: the game's modules are imported
and its immutable lookup tables built (the Kitti rank and share tables, the Marriage maal
scorers, the resolved rulesets) on first use.  Forked workers (``--workers N`` on Linux,
``--dask local:N``) start with a copy of everything the parent has, so the parent audits a
few *samples* of the archive first -- the first record of each ruleset among the first
partition's first :data:`HEAD` items -- and every worker inherits the result (copy on
write) instead of building it itself.  A ``forkserver`` (a parent with threads) cannot
inherit the parent's tables, so it imports the modules the samples needed
(:func:`warm_up` returns their names) before it forks the workers.

The samples' verdicts are thrown away: what they leave behind is only what the audit
caches anyway -- immutable values under their own bytes or settings -- so no verdict,
no byte of the report and nothing stored can change (``tests/audit/test_warmup.py``).  A
sample the auditor cannot read or audit is skipped; the warm-up never fails a run.
"""
from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Callable, Sequence

import msgspec

if TYPE_CHECKING:
    from ..sources.splits import Wire
    from .partitions import StatusWire

#: how many items of the first partition the parent reads to choose its samples
HEAD = 64
#: at most this many samples (distinct rulesets) are audited in the parent
MAX_SAMPLES = 4


def first_items(items: Any, n: int = HEAD) -> list[Wire | StatusWire]:
    """The first ``n`` items of a partition's items: a :class:`~audit.auditor.sources.splits.Split` reads
    only those, a tuple of shipped items is sliced."""
    from ..sources.splits import Split

    if isinstance(items, Split):
        return list(items.head(n))
    return list(items[:n])


class _RulesetOnly(msgspec.Struct):
    """A record's ``ruleset`` and nothing else: msgspec skips every other field unbuilt, so
    choosing the samples costs a scan of the head's bytes, not a parse of its records."""

    ruleset: Any = None


_DECODE = msgspec.json.Decoder(_RulesetOnly).decode


def ruleset_key(text: Any) -> str | None:
    """A record's ruleset as canonical text (``None`` if it has none to read)."""
    try:
        ruleset = _DECODE(text).ruleset if isinstance(text, (str, bytes)) else (
            text.get("ruleset") if isinstance(text, dict) else None)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return None
    return json.dumps(ruleset, sort_keys=True) if ruleset is not None else None


def samples(items: Sequence[Wire | StatusWire], limit: int = MAX_SAMPLES) -> list[Wire | StatusWire]:
    """The first record item (``(where, text, None)``) of each ruleset among ``items``, at
    most ``limit``; hand statuses, unreadable lines and records without a ruleset are left out."""
    seen: dict[str, Any] = {}
    for wire in items:
        if len(wire) != 3 or wire[2] is not None or wire[1] is None:
            continue
        key = ruleset_key(wire[1])
        if key is not None and key not in seen:
            seen[key] = wire
            if len(seen) == limit:
                break
    return list(seen.values())


def warm_up(items: Any, audit: Callable[[list[Wire | StatusWire]], object]) -> tuple[str, ...]:
    """Audit the samples of a first partition's ``items`` with ``audit`` (a partition audit
    bound to the run's options; its report is discarded) and return the names of the
    modules that imported.  Nothing raised gets out: a failed warm-up only means the
    workers warm up themselves, as they would without it."""
    before = set(sys.modules)
    try:
        chosen = samples(first_items(items))
        if chosen:
            audit(chosen)
    except Exception:  # noqa: BLE001 - an optimisation must never fail the run
        pass
    return tuple(sorted(set(sys.modules) - before))


__all__ = ["HEAD", "MAX_SAMPLES", "first_items", "ruleset_key", "samples", "warm_up"]
