"""Why a hand record fails: the reasons a replay or an audit can give.

A :class:`Fault` is one thing that does not hold, with a :class:`Reason`, a sentence,
and where known the index of the move, the number of the signed statement and the rule ID.
Replays (:mod:`replay.replayer`) produce the game faults; audits (:mod:`audit.auditor.verdict.verify`) add
the trust faults.

**Root causes and consequences.**  One edit often breaks many checks: a changed seed deals
other cards, so every move after it fails; one edited move puts the replay on the wrong
seat, so every later move is "not this seat's turn" and the hand ends "incomplete".
:func:`group_faults` (which every :class:`audit.auditor.verdict.verify.Verdict` applies) orders a verdict's
faults root causes first and marks each fault that follows from an earlier one with
``caused_by``, the position of its root cause in the grouped tuple.  The rules, in
:func:`follows`:

* a fault about the deal's inputs (server seed, a seat seed, the ruleset) comes before and
  explains every game fault (moves, ``incomplete``, claimed outcome and payouts);
* a move fault explains every later move fault, ``incomplete`` and the claim faults;
* the first claim fault (outcome, payouts, commission) explains the others;
* faults about the same signed statement: the first explains the rest;
* a bad checkpoint explains every ``not_in_log``;
* a fault may name reasons it follows from (``after``): "seat 0's signed seed differs from
  the record" follows from "seat 0's seed does not match its commitment".

Helpers that add a new reason just append their ``Fault``; give it a place in
:data:`LAYER` (and a rule in :func:`follows` if it follows from something).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
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
    NOT_LOG_BOUND = "not_log_bound"              # a tiplu.hand/1 record: no log evidence
    NOT_IN_LOG = "not_in_log"                    # a statement is not the leaf at its index under the checkpoint
    LOG_ORDER = "log_order"                      # leaf indices break the protocol's order
    BAD_CHECKPOINT = "bad_checkpoint"            # the checkpoint does not verify under the trusted key (or differs)
    LOG_DUPLICATE = "log_duplicate"              # the log holds another statement of this hand's kind (and seat)
    LOG_INCONSISTENT = "log_inconsistent"        # the checkpoint contradicts one the auditor saw before
    INTERNAL_ERROR = "internal_error"            # the auditor itself failed on this record (a bug: report it)
    UNPUBLISHED = "unpublished"                  # a hand finished (or revealed) but its record is not published
    STALLED = "stalled"                          # a hand committed/dealt, not finished or revealed within the grace period
    WITNESS_QUORUM = "witness_quorum"            # the checkpoint lacks the required quorum of valid witness cosignatures
    FUTURE_TIME = "future_time"                  # a statement dated later than what bounds it (witnesses, the auditor's clock)
    TIME_ORDER = "time_order"                    # statement times run backwards in log order
    SEED_REUSE = "seed_reuse"                    # one server commitment or server seed in two hands of one log


def statement_label(number: int, kind: str | None = None) -> str:
    """How every report names a signed statement: ``"statement 11 (deal)"``.

    ``number`` counts the record's ``fairness.statements`` from 1 -- the numbering of the
    hand page's statements table, the log-proofs API (``n``) and the in-browser check."""
    return f"statement {number} ({kind})" if kind else f"statement {number}"


@dataclass(frozen=True, slots=True)
class Fault:
    reason: Reason
    message: str
    move_index: int | None = None
    rule: str | None = None
    #: the 1-based number of the signed statement this fault is about (see :func:`statement_label`)
    statement: int | None = None
    #: set by :func:`group_faults`: the position (in the verdict's faults) of the root cause this follows from
    caused_by: int | None = None
    #: reasons this fault follows from when one of them is present (not on the wire)
    after: tuple[Reason, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason.value, "message": self.message,
                "move_index": self.move_index, "rule": self.rule, "statement": self.statement,
                "caused_by": self.caused_by}

    def __str__(self) -> str:
        where = f"move {self.move_index}: " if self.move_index is not None else ""
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{self.reason.value}: {where}{self.message}{rule}"


#: the deal's inputs: if one is wrong, other cards are dealt and every game fault follows
DEAL_INPUTS = frozenset({Reason.SERVER_SEED_MISMATCH, Reason.SEAT_SEED_MISMATCH, Reason.RULESET_MISMATCH})
#: the replay's own faults (a ``malformed`` fault counts when it names a move)
MOVE_FAULTS = frozenset({Reason.ILLEGAL_MOVE, Reason.DECK_MISMATCH})
#: the operator's claims against the recomputed outcome and settlement
CLAIM_FAULTS = frozenset({Reason.OUTCOME_MISMATCH, Reason.PAYOUT_MISMATCH, Reason.COMMISSION_MISMATCH})

#: the order root causes are listed in: what can be checked without the record first, then
#: the deal's inputs, the log and the statements, the moves, the claims, the table.  A
#: reason missing here sorts with the statements.
LAYER: dict[Reason, int] = {
    Reason.MALFORMED: 0, Reason.NOT_REVEALED: 0, Reason.INTERNAL_ERROR: 0,
    Reason.SERVER_SEED_MISMATCH: 1, Reason.SEAT_SEED_MISMATCH: 1, Reason.RULESET_MISMATCH: 1,
    Reason.SIGNATURE: 3, Reason.STATEMENT_MISMATCH: 3, Reason.EVENT_ORDER: 3,
    Reason.ILLEGAL_MOVE: 4, Reason.DECK_MISMATCH: 4, Reason.INCOMPLETE: 4,
    Reason.OUTCOME_MISMATCH: 5, Reason.PAYOUT_MISMATCH: 5, Reason.COMMISSION_MISMATCH: 5,
    Reason.CARRY_MISMATCH: 6,
}
_LOG_LAYER = {"not_log_bound": 2, "bad_checkpoint": 2, "witness_quorum": 2, "log_inconsistent": 2,
              "unpublished": 0, "stalled": 0, "seed_reuse": 1, "future_time": 3, "time_order": 3}


def _layer(f: Fault) -> tuple[int, int]:
    layer = LAYER.get(f.reason, _LOG_LAYER.get(f.reason.value, 3))
    if f.reason is Reason.MALFORMED and f.move_index is not None:
        layer = 4
    if f.after:  # a fault that may follow from a reason is judged no earlier than that reason
        layer = max(layer, *(LAYER.get(r, _LOG_LAYER.get(r.value, 3)) for r in f.after))
    return layer, f.move_index if layer == 4 and f.move_index is not None else -1


def _is_game(f: Fault) -> bool:
    return (f.reason in MOVE_FAULTS or f.reason in CLAIM_FAULTS or f.reason is Reason.INCOMPLETE
            or (f.reason is Reason.MALFORMED and f.move_index is not None))


def _is_move(f: Fault) -> bool:
    return f.move_index is not None and (f.reason in MOVE_FAULTS or f.reason is Reason.MALFORMED)


def follows(fault: Fault, root: Fault) -> bool:
    """Whether ``fault`` is a consequence of the earlier root cause ``root`` (module doc)."""
    if root.reason in fault.after:
        return True
    if root.reason in DEAL_INPUTS and _is_game(fault):
        return True
    if _is_move(root) and (fault.reason is Reason.INCOMPLETE or fault.reason in CLAIM_FAULTS
                           or (_is_move(fault) and fault.move_index is not None and root.move_index is not None
                               and fault.move_index > root.move_index)):
        return True
    if root.reason in CLAIM_FAULTS and fault.reason in CLAIM_FAULTS:
        return True
    if root.statement is not None and fault.statement == root.statement:
        return True
    return root.reason.value == "bad_checkpoint" and fault.reason.value == "not_in_log"


def group_faults(faults: "tuple[Fault, ...] | list[Fault]") -> tuple[Fault, ...]:
    """``faults`` with the root causes first (in the order given), then each consequence
    with ``caused_by`` = the position of its root cause.  Which fault explains which is
    decided in :data:`LAYER` order, so it does not depend on the order checks appended
    them.  Grouping a grouped tuple again gives the same tuple."""
    ordered = sorted(range(len(faults)), key=lambda k: _layer(faults[k]))
    roots: list[int] = []
    cause: dict[int, int] = {}
    for k in ordered:
        for r in roots:
            if follows(faults[k], faults[r]):
                cause[k] = r
                break
        else:
            roots.append(k)
    roots.sort()
    position = {r: i for i, r in enumerate(roots)}
    out = [replace(faults[r], caused_by=None) if faults[r].caused_by is not None else faults[r] for r in roots]
    for k in ordered:
        if k in cause:
            f, i = faults[k], position[cause[k]]
            out.append(f if f.caused_by == i else replace(f, caused_by=i))
    return tuple(out)
