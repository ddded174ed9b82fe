"""Is a record's hand in the operator's log?  The log evidence of ``tiplu.hand/2``, checked.

The statements' own signatures prove only *who* said something: the operator holds the
key and can sign a whole new set of statements at any time.  The transparency log proves
*when*: leaf ``i`` was appended before leaf ``i + 1``, and a checkpoint signed by the
operator fixes every leaf below its size.  :func:`check_log_evidence` checks, for a record:

1. a ``tiplu.hand/1`` record has no log evidence -- ``NOT_LOG_BOUND`` (never a plain ok);
2. every ``fairness.log_proofs`` entry is a C2SP tlog-proof and all carry **one**
   checkpoint, which verifies under the *trusted* key (and origin, when pinned) --
   ``BAD_CHECKPOINT``;
3. every statement is exactly the leaf at its proof's index: its recomputed leaf hash folds
   up the proof's path to the checkpoint's root -- ``NOT_IN_LOG``;
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
from typing import Any, Iterable, Mapping, Protocol, Sequence

from replay.errors import MalformedError
from replay.faults import Fault, Reason, statement_label
from replay.records import HandRecord

from .errors import ProofError, SignatureError
from .statement_check import PHASES
from .tlog.checkpoint import Checkpoint, verify_checkpoint
from .tlog.merkle import leaf_hash, root_from_inclusion_proof
from .tlog.proof import TlogProof, parse_tlog_proof
from .tlog.store import leaf_entry

_CACHE_SIZE = 4096
_checkpoints: "OrderedDict[tuple[bytes, str, str | None], Checkpoint | str]" = OrderedDict()


def verified_checkpoint(text: str, public_key: str, origin: str | None = None) -> Checkpoint:
    """:func:`verify_checkpoint`, cached by the text's SHA-256 (and the key and origin)."""
    key = (hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest(), public_key, origin)
    hit = _checkpoints.get(key)
    if hit is None:
        try:
            hit = verify_checkpoint(text, public_key, origin=origin)
        except (SignatureError, MalformedError) as exc:
            hit = str(exc) or type(exc).__name__
        _checkpoints[key] = hit
        if len(_checkpoints) > _CACHE_SIZE:
            _checkpoints.popitem(last=False)
    if isinstance(hit, str):
        raise SignatureError(hit)
    return hit


class LogView(Protocol):
    """The whole operator log, as an auditor holding it sees it."""

    def size(self) -> int: ...

    def root(self, size: int) -> bytes: ...

    def entry(self, index: int) -> bytes | None: ...

    def hand_leaves(self, hand_id: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
        """``(leaf index, statement)`` of every leaf about ``hand_id``."""
        ...


def _label(statements: Sequence[Any], k: int) -> str:
    body = statements[k].get("statement") if isinstance(statements[k], Mapping) else None
    kind = body.get("kind") if isinstance(body, Mapping) else None
    return statement_label(k + 1, kind if isinstance(kind, str) else None)


def _kind(statement: Any) -> str | None:
    kind = statement.get("kind") if isinstance(statement, Mapping) else None
    return kind if isinstance(kind, str) else None


def _slot(statement: Any) -> tuple[str | None, int | None]:
    """What a hand has exactly one statement of: its kind, and the seat for seat kinds."""
    kind = _kind(statement)
    seat = statement.get("seat") if kind in ("seat-receipt", "seat-reveal") else None
    return kind, seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def check_log_evidence(record: HandRecord, public_key: str, *, origin: str | None = None,
                       log: LogView | None = None) -> list[Fault]:
    """The faults in a record's log evidence, checked under the trusted ``public_key``.

    When the record names another key than the trusted one, a checkpoint that does not
    verify is a consequence of that (``after`` the ``signature`` fault it gets)."""
    other_key = not hmac.compare_digest(str(record.table.public_key).lower(), public_key.lower())
    f = record.fairness
    if f.log_proofs is None:
        return [Fault(Reason.NOT_LOG_BOUND, "a tiplu.hand/1 record carries no log evidence: nothing shows "
                                            "its statements were logged, or when")]
    if not f.statements:
        return []  # the statement check reports the missing statements
    proofs: list[TlogProof | None] = []
    faults: list[Fault] = []
    for k, text in enumerate(f.log_proofs):
        try:
            proofs.append(parse_tlog_proof(text))
        except MalformedError as exc:
            proofs.append(None)
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} has no readable log proof: {exc}",
                                statement=k + 1))
    texts = {p.checkpoint_text for p in proofs if p is not None}
    if len(texts) > 1:
        return faults + [Fault(Reason.BAD_CHECKPOINT, f"the record's log proofs carry {len(texts)} different "
                                                      "checkpoints, not one")]
    if not texts:
        return faults
    try:
        cp = verified_checkpoint(texts.pop(), public_key, origin)
    except SignatureError as exc:
        return faults + [Fault(Reason.BAD_CHECKPOINT, f"the record's checkpoint does not verify under the "
                                                      f"trusted key: {exc}",
                               after=(Reason.SIGNATURE,) if other_key else ())]
    indices: list[int | None] = []
    for k, (signed, proof) in enumerate(zip(f.statements, proofs)):
        if proof is None:
            indices.append(None)
            continue
        try:
            entry = leaf_entry(signed, plain=record.plain)
            root = root_from_inclusion_proof(leaf_hash(entry), proof.index, cp.size, proof.path)
        except (MalformedError, ProofError) as exc:
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} is not in the log: {exc}",
                                statement=k + 1))
            indices.append(None)
            continue
        if not hmac.compare_digest(root, cp.root):
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(f.statements, k)} is not leaf {proof.index} of the "
                                                   f"log at the checkpoint (size {cp.size})", statement=k + 1))
            indices.append(None)
            continue
        indices.append(proof.index)
    faults.extend(_order_faults(f.statements, indices))
    if log is not None:
        faults.extend(_against_log(record, cp, indices, log))
    return faults


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


def _against_log(record: HandRecord, cp: Checkpoint, indices: Sequence[int | None], log: LogView) -> list[Fault]:
    faults: list[Fault] = []
    size = log.size()
    if cp.size > size:
        return [Fault(Reason.LOG_INCONSISTENT, f"the record's checkpoint has {cp.size} leaves; the operator's "
                                               f"log has only {size}")]
    if not hmac.compare_digest(log.root(cp.size), cp.root):
        faults.append(Fault(Reason.LOG_INCONSISTENT, f"the record's checkpoint is not the operator's log: "
                                                     f"the log's tree of size {cp.size} has another root"))
    mine: dict[tuple[Any, Any], int] = {}
    for k, (signed, index) in enumerate(zip(record.fairness.statements, indices)):
        if index is None:
            continue
        if log.entry(index) != leaf_entry(signed):
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(record.fairness.statements, k)} is not what the "
                                                   f"operator's log holds at leaf {index}", statement=k + 1))
            continue
        mine[_slot(signed.get("statement"))] = index
    for index, st in log.hand_leaves(record.hand_id):
        slot = _slot(st)
        if slot in mine and mine[slot] != index:
            kind, seat = slot
            what = f"{kind} statement" + (f" of seat {seat}" if seat is not None else "")
            faults.append(Fault(Reason.LOG_DUPLICATE, f"the log holds another {what} of this hand (leaf {index}, "
                                                      f"the record's is leaf {mine[slot]}): a second set was logged"))
    return faults


class LedgerLog:
    """:class:`LogView` over a ledger's database (its transparency log and statements)."""

    def __init__(self, db: Any) -> None:
        from .tlog.store import TransparencyLog

        self._db = db
        self._log = TransparencyLog(db, migrate=False)
        self._size: int | None = None
        self._roots: dict[int, bytes] = {}

    def size(self) -> int:
        if self._size is None:
            self._size = self._log.size()
        return self._size

    def root(self, size: int) -> bytes:
        if size not in self._roots:
            self._roots[size] = self._log.root(size)
        return self._roots[size]

    def entry(self, index: int) -> bytes | None:
        row = self._db.execute("SELECT entry FROM tlog_leaves WHERE idx = ?", (index,)).fetchone()
        return None if row is None else bytes(row[0])

    def hand_leaves(self, hand_id: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
        import json

        for seq, text in self._db.execute("SELECT seq, statement FROM statements WHERE hand_id = ?", [hand_id]):
            yield seq - 1, json.loads(text)


class RemoteLog:
    """:class:`LogView` over an operator's served log (``<base>/api/v1/log``): every entry is
    fetched once, on first use, and the tree is recomputed here from those entries -- so a
    URL audit or a monitor holds the whole log as a ledger audit does.  (That the served
    entries are the log the operator signs is the monitor's check of its checkpoints.)"""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._entries: list[bytes] | None = None
        self._tree: Any = None
        self._by_hand: dict[Any, list[tuple[int, Mapping[str, Any]]]] | None = None

    def _load(self) -> list[bytes]:
        if self._entries is None:
            from .tlog.merkle import MemoryTree, leaf_hash
            from .tlog.store import leaf_entry

            size = int(self._client.checkpoint().get("size", 0))
            entries: list[bytes] = []
            while len(entries) < size:
                page = self._client.entries(len(entries), size)
                if not page:
                    break
                entries += [leaf_entry(item["entry"]) for item in page]
            self._entries = entries
            self._tree = MemoryTree(leaf_hash(e) for e in entries)
        return self._entries

    def size(self) -> int:
        return len(self._load())

    def root(self, size: int) -> bytes:
        self._load()
        return self._tree.root(size)

    def entry(self, index: int) -> bytes | None:
        entries = self._load()
        return entries[index] if 0 <= index < len(entries) else None

    def hand_leaves(self, hand_id: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
        if self._by_hand is None:
            import json

            self._by_hand = {}
            for index, entry in enumerate(self._load()):
                st = json.loads(entry).get("statement")
                if isinstance(st, Mapping):
                    self._by_hand.setdefault(st.get("hand_id"), []).append((index, st))
        return iter(self._by_hand.get(hand_id, ()))
