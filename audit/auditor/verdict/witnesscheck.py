"""The auditor's witness policy: which witnesses' cosignatures count, and how many are needed.

:class:`WitnessPolicy` holds vkey *texts* and a quorum, so it pickles cheaply to audit
workers.  :func:`witness_faults` checks one checkpoint text against it and returns a
``WITNESS_QUORUM`` fault when fewer than ``quorum`` of the witnesses have a cosignature
line on it that verifies (:func:`audit.tlog.cosignature.check_quorum`).  Results are cached
by the checkpoint's SHA-256: every record under one checkpoint shares one check.
:func:`record_witness_faults` does it for a ``tiplu.hand/2`` record: the checkpoint its log
proofs carry (a record without one fails the policy too).
"""
from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Mapping, Sequence

from replay.errors import MalformedError
from replay.faults import Fault, Reason

from ...tlog.cosignature import WitnessQuorumError, check_quorum, distinct_keys, parse_witness_list
from ...tlog.note import Vkey

_CACHE_SIZE = 4096


@dataclass(frozen=True)
class WitnessPolicy:
    """``witnesses``: C2SP vkey texts (type 0x04); ``quorum``: how many must have cosigned."""

    witnesses: tuple[str, ...]
    quorum: int

    @classmethod
    def of(cls, witnesses: Sequence[str], quorum: int | None = None) -> "WitnessPolicy":
        """Parse and check: distinct vkeys, ``0 <= quorum <= len(witnesses)`` (default: all)."""
        keys = parse_witness_list(witnesses)
        n = distinct_keys(keys)  # a key under two names counts once
        quorum = n if quorum is None else quorum
        if not 0 <= quorum <= n:
            raise MalformedError(f"a quorum of {quorum} needs at least {quorum} distinct witness keys (got {n})")
        return cls(tuple(str(k) for k in keys), quorum)

    @cached_property
    def vkeys(self) -> tuple[Vkey, ...]:
        return tuple(parse_witness_list(self.witnesses))

    @property
    def active(self) -> bool:
        return bool(self.witnesses) and self.quorum > 0

    def describe(self) -> str:
        names = ", ".join(v.name for v in self.vkeys)
        n = distinct_keys(self.vkeys)
        shared = "" if n == len(self.witnesses) else f", {n} distinct keys"
        return f"{self.quorum} of {len(self.witnesses)} witnesses ({names}{shared})" if self.witnesses else "no witnesses"

    def to_json(self) -> dict[str, Any]:
        return {"witnesses": list(self.witnesses), "quorum": self.quorum}

    def __getstate__(self) -> dict[str, Any]:  # a cached_property must not travel to workers half-built
        return {"witnesses": self.witnesses, "quorum": self.quorum}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "witnesses", state["witnesses"])
        object.__setattr__(self, "quorum", state["quorum"])


_results: "OrderedDict[tuple[bytes, WitnessPolicy], list[Fault]]" = OrderedDict()


def witness_faults(checkpoint_text: str, policy: WitnessPolicy | None) -> list[Fault]:
    """``[]`` when the policy is met (or there is none), else one ``WITNESS_QUORUM`` fault."""
    if policy is None or not policy.active:
        return []
    key = (hashlib.sha256(checkpoint_text.encode("utf-8", "surrogatepass")).digest(), policy)
    hit = _results.get(key)
    if hit is None:
        try:
            check_quorum(checkpoint_text, policy.vkeys, policy.quorum)
            hit = []
        except WitnessQuorumError as exc:
            hit = [Fault(Reason.WITNESS_QUORUM, f"the record's log checkpoint: {exc}")]
        except MalformedError as exc:
            hit = [Fault(Reason.WITNESS_QUORUM, f"the record's log checkpoint cannot be read for cosignatures: {exc}")]
        _results[key] = hit
        if len(_results) > _CACHE_SIZE:
            _results.popitem(last=False)
    return list(hit)


def _checkpoint_texts(data: Any) -> list[str] | None:
    """The distinct checkpoint texts of a record's ``fairness.log_proofs`` (C2SP tlog-proofs:
    the checkpoint follows the first empty line), or ``None`` when it carries none."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except ValueError:
            return None
    fairness = getattr(data, "fairness", None)
    proofs = getattr(fairness, "log_proofs", None) if fairness is not None else None
    if proofs is None and isinstance(data, Mapping):
        f = data.get("fairness")
        proofs = f.get("log_proofs") if isinstance(f, Mapping) else None
    if not isinstance(proofs, (list, tuple)) or not proofs:
        return None
    texts = [p.split("\n\n", 1)[1] for p in proofs if isinstance(p, str) and "\n\n" in p]
    return list(dict.fromkeys(texts)) or None


def record_witness_faults(data: Any, policy: WitnessPolicy | None) -> list[Fault]:
    """``WITNESS_QUORUM`` faults of a record (JSON text, dict or parsed record) under ``policy``."""
    if policy is None or not policy.active:
        return []
    texts = _checkpoint_texts(data)
    if texts is None:
        return [Fault(Reason.WITNESS_QUORUM, f"the record carries no log checkpoint, so no witness cosigned it "
                                             f"(required: {policy.describe()})", after=_AFTER)]
    faults: list[Fault] = []
    for text in texts:
        faults.extend(replace(f, after=_AFTER) for f in witness_faults(text, policy))
    return faults[:1]


_AFTER = (Reason.NOT_LOG_BOUND, Reason.BAD_CHECKPOINT) if hasattr(Reason, "NOT_LOG_BOUND") else ()
