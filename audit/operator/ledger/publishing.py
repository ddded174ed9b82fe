"""The operator's verbs that publish and prove, as methods of the ledger's facade.

:class:`Publishing` is a base of :class:`~audit.operator.ledger.Ledger`, never used alone.  Each
method is the operator-side function of the same name called on this ledger --
:mod:`audit.operator.publish` (a hand's public record: built, stored, read back; the
checkpoint covering the log), :mod:`audit.operator.finishing` (the checked ``finish``) and
:mod:`audit.operator.receipts` (a seat's receipt) -- so a shell asks the facade for all of it
and reaches the ledger one way (the site: ``tests/web/test_web_one_ledger_way.py``).  The
modules are imported when a verb is first used: opening a ledger loads none of them.
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

if TYPE_CHECKING:
    from ...signing import SigningKey
    from ...tlog.checkpoint import Checkpoint
    from .ledger import Ledger


def _facade(verbs: "Publishing") -> Ledger:
    return cast("Ledger", verbs)   # a base of Ledger only


class Publishing:
    """The publishing verbs of :class:`~audit.operator.ledger.Ledger` (see the module's docstring)."""

    def finish_checked(self, hand_id: str, *, record: Mapping[str, Any] | None = None,
                       moves: Sequence[Any] | None = None, played: bool = False, now: Any = None) -> dict[str, Any]:
        """The checked ``finish`` (:func:`audit.operator.finishing.finish_hand`): a dealt hand's
        record from its moves, from the moves played, or a whole record checked; the signed
        ``record`` statement."""
        from ..finishing import finish_hand

        return finish_hand(_facade(self), hand_id, record=record, moves=moves, played=played, now=now)

    def publish(self, hand_id: str, record: Mapping[str, Any] | None = None, *, origin: str,
                now: Any = None) -> dict[str, Any]:
        """Store a revealed hand's public record (:func:`audit.operator.publish.publish`)."""
        from ..publish import publish

        return publish(_facade(self), hand_id, record, origin=origin, now=now)

    def reveal_and_publish(self, hand_id: str, *, origin: str,
                           now: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Reveal, then publish: ``(reveal statement, record)`` (:func:`audit.operator.publish.reveal_and_publish`)."""
        from ..publish import reveal_and_publish

        return reveal_and_publish(_facade(self), hand_id, origin=origin, now=now)

    def published_record(self, hand_id: str, *, origin: str) -> dict[str, Any]:
        """A finished hand's public record assembled from the ledger, the server seed ``null``
        until the reveal (:func:`audit.operator.publish.published_record`)."""
        from ..publish import published_record

        return published_record(_facade(self), hand_id, origin=origin)

    def is_published(self, hand_id: str) -> bool:
        from ..publish import is_published

        return is_published(_facade(self), hand_id)

    def get_published(self, hand_id: str) -> dict[str, Any]:
        """The published record as stored (:class:`NotFoundError` when there is none)."""
        from ..publish import get_published

        return get_published(_facade(self), hand_id)

    def get_published_text(self, hand_id: str) -> str:
        """The published record's stored JSON text (:class:`NotFoundError` when there is none)."""
        from ..publish import get_published_text

        return get_published_text(_facade(self), hand_id)

    def covering_checkpoint(self, size: int, *, operator: str, origin: str,
                            now: datetime | None = None) -> Checkpoint:
        """A checkpoint of ``operator``'s log covering its first ``size`` leaves
        (:func:`audit.operator.publish.covering_checkpoint`)."""
        from ..publish import covering_checkpoint

        return covering_checkpoint(_facade(self), size, operator=operator, origin=origin, now=now)

    def receipt(self, signed: Mapping[str, Any], *, key: SigningKey, origin: str) -> dict[str, Any]:
        """The receipt of a statement in this ledger (:func:`audit.operator.receipts.receipt`)."""
        from ..receipts import receipt

        return receipt(_facade(self), signed, key=key, origin=origin)
