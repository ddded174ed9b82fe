"""The collusion review of a ledger, kept from one request to the next (the website's pages).

A :class:`~audit.auditor.stats.cache.PublishedCache`, as the deal statistics are: the set of
published records fixes the review, every record is audited under its operator's registered
key with the ledger's log as evidence, each record's observations are kept once computed,
and the finished review is kept under the fingerprint -- a warm request costs one
fingerprint.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..stats.cache import PublishedCache
from .observe import HandPart, Observations, add_part, hand_part
from .report import CollusionReport, review


def _part_of(verdict: Any) -> HandPart | None:
    if not verdict.ok or verdict.replay is None or verdict.replay.record is None:
        return None
    return hand_part(verdict.replay.record)


def _review_of(parts: Sequence[HandPart | None], _keys: dict[str, str]) -> CollusionReport:
    obs = Observations()
    for part in parts:
        if part is None:
            obs.skipped["failed the audit"] += 1
        else:
            add_part(obs, part)
    return review(obs)


class LedgerCollusion(PublishedCache[HandPart | None]):
    """The review of one ledger's published records, computed incrementally and cached."""

    def __init__(self) -> None:
        super().__init__(_part_of, _review_of)
