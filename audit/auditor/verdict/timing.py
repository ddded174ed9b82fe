"""What proved a record's timing: that its deal was fixed before anyone saw a card.

A record's own proofs show its statements are leaves of *a* tree its operator signed, in
the protocol's order.  They cannot show that tree is the operator's one public log: an
operator that re-made a hand after seeing the players' seeds can log the new statements in
a private tree signed with its real key, and the record checks out against itself
(:mod:`audit.operator.sim.grind`, variant ``private``).  Two things rule that out:

=============  ===========================================================================
``witnessed``  a quorum of witnesses the auditor pinned (a C2SP ``tlog-policy``,
               :mod:`audit.tlog.policy`) cosigned the record's checkpoint: they saw that tree
               and cosign only trees consistent with what they cosigned before
``whole-log``  the record was judged against the operator's whole log (a ledger or an
               operator URL audit, the monitor): its statements are in that log, in order,
               once
``unproven``   neither: the record may pass every other check, but nothing shows it was
               not made after the fact.  Never a bare pass: ``tiplu audit`` exits 3.
=============  ===========================================================================

:func:`judge_timing` decides it for one record; under a policy that requires witnesses a
missing quorum is also a ``WITNESS_QUORUM`` fault (a failure, not only "unproven").
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping

from replay.errors import MalformedError
from replay.faults import Fault, Reason

from ...tlog.policy import Cosigned, Policy, PolicyResult

WITNESSED, WHOLE_LOG, UNPROVEN = "witnessed", "whole-log", "unproven"
STATUSES = (WITNESSED, WHOLE_LOG, UNPROVEN)
#: The faults after which no checkpoint is trusted, so no witness quorum on it counts.
_NO_CHECKPOINT = (Reason.NOT_LOG_BOUND, Reason.BAD_CHECKPOINT, Reason.MALFORMED)
_CACHE_SIZE = 4096

UNPROVEN_MESSAGE = ("Not proven that this deal was fixed before anyone saw a card: the record's log proofs "
                    "only agree with themselves, and an operator could have re-made the hand afterwards and "
                    "logged it in a private copy of its log. To prove it, pin a witness policy "
                    "(--policy FILE, or paste one) or audit the record against the operator's log "
                    "(tiplu audit <operator URL>).")


@dataclass(frozen=True, slots=True)
class Timing:
    """A verdict's ``timing``: status, the policy (its label) or ``None``, the witnesses
    whose cosignatures counted, and one sentence a player understands."""

    status: str
    policy: str | None = None
    witnesses: tuple[Cosigned, ...] = ()
    message: str = UNPROVEN_MESSAGE

    @property
    def proven(self) -> bool:
        return self.status != UNPROVEN

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "policy": self.policy,
                "witnesses": [w.to_json() for w in self.witnesses], "message": self.message}


def checkpoint_text_of(record: Any) -> str | None:
    """The checkpoint of a record's first log proof (C2SP tlog-proof: after the first empty
    line), or ``None`` when it carries none.  ``record``: the parsed :class:`HandRecord` (the
    audit's, :func:`judge_timing` in a verdict), or a raw JSON record where no parse exists
    (``tiplu receipt verify``, which compares the record's JSON with a receipt)."""
    fairness = getattr(record, "fairness", None)
    proofs = getattr(fairness, "log_proofs", None) if fairness is not None else None
    if proofs is None and isinstance(record, Mapping):
        f = record.get("fairness")
        proofs = f.get("log_proofs") if isinstance(f, Mapping) else None
    if not isinstance(proofs, (list, tuple)) or not proofs or not isinstance(proofs[0], str):
        return None
    head, sep, text = proofs[0].partition("\n\n")
    return text if sep else None


_results: "OrderedDict[tuple[bytes, str], PolicyResult | str]" = OrderedDict()


def evaluate(policy: Policy, checkpoint_text: str) -> PolicyResult | str:
    """``policy.evaluate(checkpoint_text)``, cached by both texts' SHA-256 (every record under
    one checkpoint shares one check); a note that does not parse gives its error's text."""
    key = (hashlib.sha256(checkpoint_text.encode("utf-8", "surrogatepass")).digest(), policy.sha256)
    hit = _results.get(key)
    if hit is None:
        try:
            hit = policy.evaluate(checkpoint_text)
        except MalformedError as exc:
            hit = str(exc)
        _results[key] = hit
        if len(_results) > _CACHE_SIZE:
            _results.popitem(last=False)
    return hit


def _names(witnesses: tuple[Cosigned, ...]) -> str:
    return ", ".join(w.name for w in witnesses)


def judge_timing(record: Any, faults: list[Fault] | tuple[Fault, ...], *, policy: Policy | None = None,
                 whole_log: str | None = None) -> tuple[Timing, list[Fault]]:
    """The :class:`Timing` of a record audited with ``faults`` so far, and the fault to add
    (``WITNESS_QUORUM`` when ``policy`` requires witnesses and its quorum does not hold).

    ``whole_log``: what the record was judged against (``"the ledger"``, ``"the operator's
    served log"``), or ``None`` for a record judged alone."""
    label = policy.label if policy is not None else None
    extra: list[Fault] = []
    counted: tuple[Cosigned, ...] = ()
    witnessed = False
    if policy is not None and policy.requires_witnesses:
        text = checkpoint_text_of(record)
        if text is None:
            extra.append(Fault(Reason.WITNESS_QUORUM, f"the record carries no log checkpoint, so no witness "
                                                      f"cosigned it (the policy {label} requires "
                                                      f"{policy.describe()})", after=_NO_CHECKPOINT))
        else:
            result = evaluate(policy, text)
            if isinstance(result, str):
                extra.append(Fault(Reason.WITNESS_QUORUM, f"the record's log checkpoint cannot be read for "
                                                          f"cosignatures: {result}", after=_NO_CHECKPOINT))
            elif not result.quorum_met:
                missing = "; ".join(result.missing)
                extra.append(Fault(Reason.WITNESS_QUORUM,
                                   f"the record's log checkpoint lacks the witness quorum of {label}: it requires "
                                   f"{policy.describe()}; cosigned: {_names(result.counted) or 'none'}"
                                   + (f"; not counted: {missing}" if missing else ""), after=_NO_CHECKPOINT))
            else:
                counted = result.counted
                witnessed = not any(f.reason in _NO_CHECKPOINT for f in faults)
    if whole_log is not None:
        also = f" The witnesses of {label} cosigned its checkpoint too ({_names(counted)})." if counted else ""
        if faults or extra:
            return Timing(WHOLE_LOG, label, counted,
                          f"Judged against the operator's whole log ({whole_log}); the record does not check out "
                          f"there: see its faults.{also}"), extra
        return Timing(WHOLE_LOG, label, counted,
                      f"Checked against the operator's whole log ({whole_log}): every statement of this hand is "
                      f"in that log, in the protocol's order, and the hand is logged once, so the deal was "
                      f"fixed before the players' seeds were known.{also}"), extra
    if witnessed:
        n = len(counted)
        return Timing(WITNESSED, label, counted,
                      f"Witnessed: {n} witness{'es' if n != 1 else ''} you pinned in {label} "
                      f"({_names(counted)}) cosigned this record's log checkpoint, so it is the log they saw, "
                      f"not a private copy made after the players' seeds were known."), extra
    return Timing(UNPROVEN, label, counted, UNPROVEN_MESSAGE), extra


def timing_of_json(data: Any) -> Timing | None:
    """A :class:`Timing` back from its JSON (a parallel worker's verdict), or ``None``."""
    if not isinstance(data, Mapping) or data.get("status") not in STATUSES:
        return None
    return Timing(data["status"], data.get("policy"),
                  tuple(Cosigned(w["name"], w["timestamp"]) for w in data.get("witnesses") or ()),
                  data.get("message") or UNPROVEN_MESSAGE)

