"""Is a record's hand in the operator's log?  The log evidence of ``tiplu.hand/2``, checked.

The statements' own signatures prove only *who* said something: the operator holds the
key and can sign a whole new set of statements at any time.  The transparency log proves
*when*: leaf ``i`` was appended before leaf ``i + 1``, and a checkpoint signed by the
operator fixes every leaf below its size.  :func:`check_log_evidence` checks, for a record:

1. a ``tiplu.hand/1`` record has no log evidence -- ``NOT_LOG_BOUND`` (never a plain ok);
2. every ``fairness.log_proofs`` entry is a C2SP tlog-proof and all carry **one**
   checkpoint, which verifies under the *trusted* key (and origin, when pinned) and is a plain
   three-line C2SP body (the legacy ``time`` line only in a ``tiplu.hand/2`` record,
   ``docs/format-3.md``) -- ``BAD_CHECKPOINT``;
3. every statement is exactly the leaf at its proof's index: its recomputed leaf hash folds
   up the proof's path to the checkpoint's root -- ``NOT_IN_LOG`` (proofs under one checkpoint
   fold with one memo, :func:`~audit.tlog.merkle.root_from_inclusion_proof`: a node two paths
   share is hashed once, the answers are those of folding each path alone);
4. the indices follow the protocol: the statements are listed in increasing index order,
   and by index ``hand`` < ``commitment`` < every ``seat-receipt`` < every ``seat-reveal``
   < ``deal`` < ``record`` < ``reveal`` -- ``LOG_ORDER``.

An auditor holding the whole log (:class:`LogView`: a ledger, an operator's URL, a monitor)
also checks that the checkpoint is the log's own tree (``LOG_INCONSISTENT``), that each
leaf is the log's (``NOT_IN_LOG``), and that the log holds no *other* statement of the hand
of the same kind and seat (``LOG_DUPLICATE``: a forged set appended to the log later).

Checkpoint signatures are cached by ``SHA-256`` of the checkpoint text (with the key and
origin): the text is immutable and signs itself, so one verification serves every record
that carries it.
"""
from __future__ import annotations

import hashlib
import hmac
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from replay.errors import MalformedError
from replay.faults import Fault, Reason, statement_label
from replay.records import HandRecord

from ...errors import ProofError, SignatureError
from ...tlog.checkpoint import Checkpoint, accepts_legacy_time, verify_checkpoint
from ...tlog.merkle import InclusionMemo, leaf_hash, root_from_inclusion_proof
from ...tlog.proof import tlog_proof_parts
from ...tlog.store import leaf_entry
from replay.canonical import plain_canonical_json
from ...consttime import same_text

#: the statement kinds in the protocol's order: by log index, ``hand`` < ``commitment`` < every
#: ``seat-receipt`` < every ``seat-reveal`` < ``deal`` < ``record`` < ``reveal`` (``LOG_ORDER``)
PHASES = {"hand": 0, "commitment": 1, "seat-receipt": 2, "seat-reveal": 3, "deal": 4, "record": 5, "reveal": 6}

_CACHE_SIZE = 4096
_checkpoints: "OrderedDict[tuple[bytes, str, str | None, bool], Checkpoint | str]" = OrderedDict()


#: the inclusion memo (:func:`~audit.tlog.merkle.root_from_inclusion_proof`) of the last
#: checkpoint seen, ``(checkpoint text, memo)``: records of hands that share a checkpoint
#: (one signed for a batch of hands) share its tree's upper nodes, hashed once.  Its entries
#: are exact answers whatever the checkpoint; keeping only the last one's bounds it (and a
#: record under another checkpoint starts afresh, so repeating records gains nothing)
_MEMO_SIZE = 1 << 16
_memo: "tuple[str | None, InclusionMemo]" = (None, {})


def inclusion_memo(checkpoint_text: str) -> InclusionMemo:
    """The inclusion memo to fold proofs under ``checkpoint_text`` with (see :data:`_memo`)."""
    global _memo
    text, memo = _memo
    if text != checkpoint_text or len(memo) > _MEMO_SIZE:
        memo = {}
        _memo = (checkpoint_text, memo)
    return memo


def verified_checkpoint(text: str, public_key: str, origin: str | None = None, *, legacy: bool = False) -> Checkpoint:
    """:func:`verify_checkpoint`, cached by the text's SHA-256 (and the key, origin and
    whether the legacy body is accepted: :func:`~audit.tlog.checkpoint.accepts_legacy_time`)."""
    key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest(), public_key, origin, legacy)
    hit = _checkpoints.get(key)
    if hit is None:
        try:
            hit = verify_checkpoint(text, public_key, origin=origin, legacy=legacy)
        except (SignatureError, MalformedError) as exc:
            hit = str(exc) or type(exc).__name__
        _checkpoints[key] = hit
        if len(_checkpoints) > _CACHE_SIZE:
            _checkpoints.popitem(last=False)
    if isinstance(hit, str):
        raise SignatureError(hit)
    return hit


class LogView(Protocol):
    """The whole operator log, as an auditor holding it sees it (read-only)."""

    def size(self) -> int: ...

    def root(self, size: int) -> bytes: ...

    def leaf_hash(self, index: int) -> bytes | None:
        """The RFC 9162 leaf hash at ``index`` (``None`` past the log's size)."""
        ...

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        """``(leaf index, slot)`` of every leaf about ``hand_id``; a slot is what a hand has
        exactly one statement of (:func:`slot_of`: its kind, and the seat for seat kinds)."""
        ...


def _label(statements: Sequence[Any], k: int) -> str:
    body = statements[k].get("statement") if isinstance(statements[k], Mapping) else None
    kind = body.get("kind") if isinstance(body, Mapping) else None
    return statement_label(k + 1, kind if isinstance(kind, str) else None)


def _kind(statement: Any) -> str | None:
    kind = statement.get("kind") if isinstance(statement, Mapping) else None
    return kind if isinstance(kind, str) else None


def slot_of(statement: Any) -> tuple[str | None, int | None]:
    """What a hand has exactly one statement of: its kind, and the seat for seat kinds."""
    kind = _kind(statement)
    seat = statement.get("seat") if kind in ("seat-receipt", "seat-reveal") else None
    return kind, seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def check_log_evidence(record: HandRecord, public_key: str, *, origin: str | None = None,
                       log: LogView | None = None) -> list[Fault]:
    """The faults in a record's log evidence, checked under the trusted ``public_key``.

    When the record names another key than the trusted one, a checkpoint that does not
    verify is a consequence of that (``after`` the ``signature`` fault it gets)."""
    other_key = not same_text(str(record.table.public_key).lower(), public_key.lower())
    f = record.fairness
    if f.log_proofs is None:
        return [Fault(Reason.NOT_LOG_BOUND, "a tiplu.hand/1 record carries no log evidence: nothing shows "
                                            "its statements were logged, or when")]
    if not f.statements:
        return []  # the statement check reports the missing statements
    proofs: list[tuple[int, tuple[bytes, ...], str] | None] = []
    faults: list[Fault] = []
    for k, text in enumerate(f.log_proofs):
        try:
            proofs.append(tlog_proof_parts(text))
        except MalformedError as exc:
            proofs.append(None)
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} has no readable log proof: {exc}",
                                statement=k + 1))
    texts = _checkpoint_texts(proofs)
    if len(texts) > 1:
        return faults + [Fault(Reason.BAD_CHECKPOINT, f"the record's log proofs carry {len(texts)} different "
                                                      "checkpoints, not one")]
    if not texts:
        return faults
    text = texts.pop()
    try:
        cp = verified_checkpoint(text, public_key, origin, legacy=accepts_legacy_time(record.format))
    except SignatureError as exc:
        return faults + [Fault(Reason.BAD_CHECKPOINT, f"the record's checkpoint does not verify under the "
                                                      f"trusted key: {exc}",
                               after=(Reason.SIGNATURE,) if other_key else ())]
    indices: list[int | None] = []
    hashes: list[bytes | None] = []
    memo = inclusion_memo(text)  # the proofs share the checkpoint's tree: each node of their paths hashed once
    entry_of = _plain_entry if record.plain else leaf_entry
    size, cp_root, compare = cp.size, cp.root, hmac.compare_digest
    for k, (signed, proof) in enumerate(zip(f.statements, proofs)):
        hashes.append(None)
        if proof is None:
            indices.append(None)
            continue
        index = proof[0]
        try:
            hashes[k] = ours = leaf_hash(entry_of(signed))
            root = root_from_inclusion_proof(ours, index, size, proof[1], memo=memo)
        except (MalformedError, ProofError) as exc:
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} is not in the log: {exc}",
                                statement=k + 1))
            indices.append(None)
            continue
        if not compare(root, cp_root):
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} is not leaf {index} of the "
                                                   f"log at the checkpoint (size {size})", statement=k + 1))
            indices.append(None)
            continue
        indices.append(index)
    faults.extend(_order_faults(f.statements, indices))
    if log is not None:
        faults.extend(_against_log(record, cp, indices, hashes, log))
    return faults


def _checkpoint_texts(proofs: Sequence[tuple[int, tuple[bytes, ...], str] | None]) -> set[str]:
    """The distinct checkpoint texts the proofs carry: a record's proofs nearly always carry
    one, which comparing each text with the first finds without hashing a dozen strings."""
    texts = [p[2] for p in proofs if p is not None]
    if not texts:
        return set()
    first = texts[0]
    return {first} if all(t == first for t in texts) else set(texts)


_ENTRY_KEYS = frozenset(("statement", "key", "sig"))


def _plain_entry(signed: Any) -> bytes:
    """:func:`~audit.tlog.store.leaf_entry` of a signed statement of a record known plain
    JSON: a dict of exactly the entry's three keys *is* the entry, so its canonical JSON is
    written without building the entry dict again (any other value goes the general way)."""
    if type(signed) is dict and len(signed) == 3 and signed.keys() == _ENTRY_KEYS:
        return plain_canonical_json(signed)
    return leaf_entry(signed, plain=True)


def _order_faults(statements: Sequence[Mapping[str, Any]], indices: Sequence[int | None]) -> list[Fault]:
    placed = [(i, s.get("statement")) for i, s in zip(indices, statements) if i is not None]
    faults = []
    listed = [i for i, _ in placed]
    if any(b <= a for a, b in zip(listed, listed[1:])):
        faults.append(Fault(Reason.LOG_ORDER, "the statements are not listed in the order of their log leaves "
                                              "(or two share a leaf)"))
    last_phase, last_kind = -1, None
    for i, st in sorted(placed, key=lambda p: p[0]):
        kind = _kind(st)
        if kind not in PHASES:
            continue  # an unknown kind is the statement check's fault
        phase = PHASES[kind]
        if phase < last_phase:
            faults.append(Fault(Reason.LOG_ORDER, f"the {kind} statement (leaf {i}) was logged after "
                                                  f"the {last_kind} statement: the protocol's order is broken"))
            break
        last_phase, last_kind = phase, kind
    return faults


def _against_log(record: HandRecord, cp: Checkpoint, indices: Sequence[int | None], hashes: Sequence[bytes | None],
                 log: LogView) -> list[Fault]:
    faults: list[Fault] = []
    size = log.size()
    if cp.size > size:
        return [Fault(Reason.LOG_INCONSISTENT, f"the record's checkpoint has {cp.size} leaves; the operator's "
                                               f"log has only {size}")]
    if not hmac.compare_digest(log.root(cp.size), cp.root):
        faults.append(Fault(Reason.LOG_INCONSISTENT, f"the record's checkpoint is not the operator's log: "
                                                     f"the log's tree of size {cp.size} has another root"))
    mine: dict[tuple[Any, Any], int] = {}
    for k, (signed, index, mine_hash) in enumerate(zip(record.fairness.statements, indices, hashes)):
        if index is None or mine_hash is None:  # a leaf index is found only with its hash
            continue
        theirs = log.leaf_hash(index)
        if theirs is None or not hmac.compare_digest(theirs, mine_hash):
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(record.fairness.statements, k)} is not what the "
                                                   f"operator's log holds at leaf {index}", statement=k + 1))
            continue
        mine[slot_of(signed.get("statement"))] = index
    for index, slot in log.hand_slots(record.hand_id):
        if slot in mine and mine[slot] != index:
            kind, seat = slot
            what = f"{kind} statement" + (f" of seat {seat}" if seat is not None else "")
            faults.append(Fault(Reason.LOG_DUPLICATE, f"the log holds another {what} of this hand (leaf {index}, "
                                                      f"the record's is leaf {mine[slot]}): a second set was logged"))
    return faults
