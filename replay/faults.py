"""Why a hand record fails: the reasons a replay or an audit can give.

A :class:`Fault` is one thing that does not hold, with a :class:`Reason`, a sentence,
and where known the index of the move and the rule ID.  Replays (:mod:`replay.replayer`)
produce the game faults; audits (:mod:`audit.verify`) add the trust faults.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Reason(str, Enum):
    """Every way a record can fail, one member per fault class."""

    MALFORMED = "malformed"                      # not JSON, wrong schema, truncated
    NOT_REVEALED = "not_revealed"                # the server seed is not (yet) published
    SERVER_SEED_MISMATCH = "server_seed_mismatch"  # revealed seed != its commitment
    SEAT_SEED_MISMATCH = "seat_seed_mismatch"    # a seat's seed != its commitment
    RULESET_MISMATCH = "ruleset_mismatch"        # ruleset hash != the committed hash
    SIGNATURE = "signature"                      # a statement does not verify under the operator key
    STATEMENT_MISMATCH = "statement_mismatch"    # the record says other than the signed statements
    EVENT_ORDER = "event_order"                  # statements out of the protocol's order
    ILLEGAL_MOVE = "illegal_move"                # a move the rules forbid
    DECK_MISMATCH = "deck_mismatch"              # a listed card the deck does not put there
    INCOMPLETE = "incomplete"                    # the moves stop before the hand is over
    OUTCOME_MISMATCH = "outcome_mismatch"        # claimed scores / winner differ from the replay
    PAYOUT_MISMATCH = "payout_mismatch"          # claimed HT nets differ from the replay
    COMMISSION_MISMATCH = "commission_mismatch"  # claimed commission differs
    CARRY_MISMATCH = "carry_mismatch"            # a table's carried state (Kitti pot) does not follow
    INTERNAL_ERROR = "internal_error"            # the auditor itself failed on this record (a bug: report it)
    UNPUBLISHED = "unpublished"                  # a hand finished (or revealed) but its record is not published
    STALLED = "stalled"                          # a hand committed/dealt, not finished or revealed within the grace period
    WITNESS_QUORUM = "witness_quorum"            # the checkpoint lacks the required quorum of valid witness cosignatures


@dataclass(frozen=True, slots=True)
class Fault:
    reason: Reason
    message: str
    move_index: int | None = None
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason.value, "message": self.message,
                "move_index": self.move_index, "rule": self.rule}

    def __str__(self) -> str:
        where = f"move {self.move_index}: " if self.move_index is not None else ""
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{self.reason.value}: {where}{self.message}{rule}"
