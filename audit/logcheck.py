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
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from replay.errors import MalformedError, TipluError
from replay.faults import Fault, Reason, statement_label
from replay.records import HandRecord

from .errors import ProofError, SignatureError
from .statement_check import PHASES
from .tlog.checkpoint import Checkpoint, accepts_legacy_time, verify_checkpoint
from .tlog.merkle import leaf_hash, root_from_inclusion_proof
from .tlog.proof import tlog_proof_parts
from .tlog.store import leaf_entry
from replay.canonical import plain_canonical_json
from .consttime import same_text
from .leaf_slots import SEAT_KINDS, leaf_slots

_CACHE_SIZE = 4096
_checkpoints: "OrderedDict[tuple[bytes, str, str | None, bool], Checkpoint | str]" = OrderedDict()


#: the inclusion memo (:func:`~audit.tlog.merkle.root_from_inclusion_proof`) of the last
#: checkpoint seen, ``(checkpoint text, memo)``: records of hands that share a checkpoint
#: (one signed for a batch of hands) share its tree's upper nodes, hashed once.  Its entries
#: are exact answers whatever the checkpoint; keeping only the last one's bounds it (and a
#: record under another checkpoint starts afresh, so repeating records gains nothing)
_MEMO_SIZE = 1 << 16
_memo: "tuple[str | None, dict]" = (None, {})


def inclusion_memo(checkpoint_text: str) -> dict:
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
        exactly one statement of (:func:`_slot`: its kind, and the seat for seat kinds)."""
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
            hashes[k] = leaf_hash(entry_of(signed))
            root = root_from_inclusion_proof(hashes[k], index, size, proof[1], memo=memo)
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
        if index is None:
            continue
        theirs = log.leaf_hash(index)
        if theirs is None or not hmac.compare_digest(theirs, mine_hash):
            faults.append(Fault(Reason.NOT_IN_LOG, f"{_label(record.fairness.statements, k)} is not what the "
                                                   f"operator's log holds at leaf {index}", statement=k + 1))
            continue
        mine[_slot(signed.get("statement"))] = index
    for index, slot in log.hand_slots(record.hand_id):
        if slot in mine and mine[slot] != index:
            kind, seat = slot
            what = f"{kind} statement" + (f" of seat {seat}" if seat is not None else "")
            faults.append(Fault(Reason.LOG_DUPLICATE, f"the log holds another {what} of this hand (leaf {index}, "
                                                      f"the record's is leaf {mine[slot]}): a second set was logged"))
    return faults


class LedgerLog:
    """:class:`LogView` over a ledger's database (its transparency log and statements).

    ``size`` fixes the view at that many leaves (default: the log's size on first use), so
    the processes of one parallel audit judge every record against the same tree even while
    the operator appends.  ``path`` (when the database was opened from a file) lets a
    parallel audit's workers open the same view themselves (:meth:`ref`)."""

    def __init__(self, db: Any, *, size: int | None = None, path: str | None = None) -> None:
        from .tlog.store import TransparencyLog

        self._db = db
        self._log = TransparencyLog(db, migrate=False)
        self._size = size
        self._roots: dict[int, bytes] = {}
        self._leaves: dict[int, bytes] = {}
        self._slots: Any = None  # each hand's leaves, from the log entries (:mod:`audit.leaf_slots`)
        self.path = path

    def size(self) -> int:
        if self._size is None:
            self._size = self._log.size()
        return self._size

    def root(self, size: int) -> bytes:
        if size not in self._roots:
            self._roots[size] = self._log.root(size)
        return self._roots[size]

    #: leaves read ahead on a miss: a record's statements are neighbours in the log
    READ_AHEAD = 32

    def leaf_hash(self, index: int) -> bytes | None:
        if not 0 <= index < self.size():
            return None
        hit = self._leaves.get(index)
        if hit is None:
            if len(self._leaves) > 4096:
                self._leaves.clear()
            end = min(index + self.READ_AHEAD, self.size())
            self._leaves.update((i, bytes(h)) for i, h in self._db.execute(
                "SELECT idx, leaf_hash FROM tlog_leaves WHERE idx >= ? AND idx < ?", (index, end)))
            hit = self._leaves.get(index)
        return hit

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        if self._slots is None:
            self._slots = leaf_slots(self._db, self.size())
        return iter(self._slots.get(hand_id, ()))

    def entries(self) -> Iterator[tuple[int, bytes]]:
        """``(leaf index, entry bytes)`` of every leaf of the view, in log order."""
        for idx, entry in self._db.execute("SELECT idx, entry FROM tlog_leaves WHERE idx < ? ORDER BY idx",
                                           [self.size()]):
            yield idx, bytes(entry)

    def ref(self) -> "LedgerLogRef | None":
        """What a worker process needs to open this very view (``None`` without a path)."""
        return None if self.path is None else LedgerLogRef(self.path, self.size())

    def index(self) -> "LogIndex":
        """The whole view as a :class:`LogIndex` (for workers that cannot read the file)."""
        size = self.size()
        hashes = b"".join(bytes(h) for (h,) in self._db.execute(
            "SELECT leaf_hash FROM tlog_leaves WHERE idx < ? ORDER BY idx", [size]))
        if self._slots is None:
            self._slots = leaf_slots(self._db, size)
        return LogIndex(hashes, self._slots)


class LedgerLogRef:
    """A ledger's log view by name -- its file and fixed size -- small enough to send to every
    worker of a parallel audit; :meth:`open` gives the :class:`LedgerLog`, one per process
    and thread.

    An SQLite connection must not cross a fork (SQLite's "how to corrupt" guide, 2.6) nor,
    as Python opens it, a thread: a worker forked from a parent that had opened the view
    (the parent warms up on a few records first), or a Dask worker running tasks on its
    own threads, opens its own.  The parent's inherited view is kept referenced, never
    used or closed in the child."""

    __slots__ = ("path", "size")
    _open: "dict[tuple[int, int, str, int], LedgerLog]" = {}

    def __init__(self, path: str, size: int) -> None:
        self.path, self.size = path, size

    def __reduce__(self):
        return (LedgerLogRef, (self.path, self.size))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LedgerLogRef) and (self.path, self.size) == (other.path, other.size)

    def __hash__(self) -> int:
        return hash((self.path, self.size))

    def open(self) -> LedgerLog:
        key = (os.getpid(), threading.get_ident(), self.path, self.size)
        view = LedgerLogRef._open.get(key)
        if view is None:
            from .ledger.store import close_at_exit, open_readonly

            db = open_readonly(self.path)
            close_at_exit(db)  # cached for the process's life: closed when it ends (no -wal/-shm left)
            view = LedgerLogRef._open[key] = LedgerLog(db, size=self.size, path=self.path)
        return view


class LogIndex:
    """A whole log as plain values: every leaf hash (one ``bytes``, 32 per leaf) and each
    hand's leaf slots.  What a worker of a parallel audit holds when it cannot read the log
    itself (an operator's URL, or a ledger on another machine): sent once per worker; the
    Merkle tree for :meth:`root` is rebuilt there, on first use."""

    def __init__(self, hashes: bytes, slots: Mapping[Any, Sequence[tuple[int, tuple[str | None, int | None]]]]) -> None:
        if len(hashes) % 32:
            raise ValueError("leaf hashes are 32 bytes each")
        self._hashes = hashes
        self._slots = {h: tuple(v) for h, v in slots.items()}
        self._tree: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"hashes": self._hashes, "slots": self._slots}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._hashes, self._slots, self._tree = state["hashes"], state["slots"], None

    def size(self) -> int:
        return len(self._hashes) // 32

    def root(self, size: int) -> bytes:
        if self._tree is None:
            from .tlog.merkle import MemoryTree

            h = self._hashes
            self._tree = MemoryTree(h[i:i + 32] for i in range(0, len(h), 32))
        return self._tree.root(size)

    def leaf_hash(self, index: int) -> bytes | None:
        if not 0 <= index < self.size():
            return None
        return self._hashes[32 * index:32 * index + 32]

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        return iter(self._slots.get(hand_id, ()))


class RemoteLog:
    """:class:`LogView` over an operator's served log (``<base>/api/v1/log``): the current
    checkpoint and every entry below its size are fetched once, on first use, and the tree is
    recomputed here from those entries -- so a URL audit or a monitor holds the whole log as
    a ledger audit does.

    The rebuilt tree is checked against the operator's *signed* checkpoint: its signature
    under ``public_key`` (the auditor's trusted key; without one, the key the operator
    publishes with it -- which proves nothing, :attr:`anchor` says so), and its root at its
    size.  Any mismatch is :attr:`problem` (a ``Fault``: ``BAD_CHECKPOINT`` when the served
    checkpoint does not verify, ``LOG_INCONSISTENT`` when the served entries are not the tree
    it signs); a log with a problem must not be used to judge records (:meth:`open`)."""

    def __init__(self, client: Any, *, public_key: str | None = None, origin: str | None = None) -> None:
        self._client = client
        self._key, self._origin = public_key, origin
        self._entries: list[bytes] | None = None
        self._tree: Any = None
        self._by_hand: dict[Any, list[tuple[int, tuple[str | None, int | None]]]] | None = None
        #: the operator's served checkpoint, verified (``None`` until loaded, or if it did not verify)
        self.checkpoint: Checkpoint | None = None
        #: whose key verified the served checkpoint: ``"pinned"`` (the auditor's), ``"operator"``
        #: (the key the operator serves with it: NOT a trust anchor) or ``"none"`` (no key at all:
        #: only the root was compared)
        self.anchor: str | None = None
        self.problem: Fault | None = None

    def open(self) -> "RemoteLog":
        """Fetch and check the served log; raise :class:`LogMismatch` if it is not the
        tree the operator signs (transport errors propagate as the client raises them)."""
        self._load()
        if self.problem is not None:
            raise LogMismatch(self.problem)
        return self

    def _verify(self, body: Mapping[str, Any]) -> Checkpoint | None:
        from .tlog.checkpoint import parse_checkpoint

        text = body.get("checkpoint")
        key = self._key or body.get("public_key")
        if not isinstance(text, str):
            self.problem = Fault(Reason.BAD_CHECKPOINT, "the operator serves no checkpoint for its log: the served "
                                                        "entries cannot be checked")
            return None
        if not isinstance(key, str):  # no key pinned and none published: the root is checked, no signature
            self.anchor = "none"
            try:
                return parse_checkpoint(text)
            except MalformedError as exc:
                self.problem = Fault(Reason.BAD_CHECKPOINT, f"the operator's served checkpoint does not parse: {exc}")
                return None
        self.anchor = "pinned" if self._key else "operator"
        whose = "the trusted key" if self._key else "the key the operator publishes"
        try:
            return verified_checkpoint(text, key, self._origin)
        except SignatureError as exc:
            self.problem = Fault(Reason.BAD_CHECKPOINT, f"the operator's served checkpoint does not verify under "
                                                        f"{whose}: {exc}")
            return None

    def _load(self) -> list[bytes]:
        if self._entries is None:
            from .tlog.merkle import MemoryTree

            cp = self._verify(self._client.checkpoint())
            size = cp.size if cp is not None else 0
            entries: list[bytes] = []
            while len(entries) < size:
                page = self._client.entries(len(entries), size)
                if not page:
                    break
                entries += [leaf_entry(item["entry"]) for item in page]
            del entries[size:]
            self._entries = entries
            self._tree = MemoryTree(leaf_hash(e) for e in entries)
            if cp is None:
                return entries
            if len(entries) < cp.size:
                self.problem = Fault(Reason.LOG_INCONSISTENT, f"the operator signs a log of {cp.size} entries but "
                                                              f"serves only {len(entries)}")
            elif not hmac.compare_digest(self._tree.root(cp.size), cp.root):
                self.problem = Fault(Reason.LOG_INCONSISTENT, f"the operator's served entries are not the log it "
                                                              f"signs: they rebuild a tree of size {cp.size} with "
                                                              f"root {self._tree.root(cp.size).hex()}, its signed "
                                                              f"checkpoint says {cp.root.hex()}")
            else:
                self.checkpoint = cp
        return self._entries

    def size(self) -> int:
        return len(self._load())

    def root(self, size: int) -> bytes:
        self._load()
        return self._tree.root(size)

    def leaf_hash(self, index: int) -> bytes | None:
        self._load()
        return self._tree.levels[0][index] if 0 <= index < self._tree.size else None

    def _hands(self) -> dict[Any, list[tuple[int, tuple[str | None, int | None]]]]:
        if self._by_hand is None:
            import json

            self._by_hand = {}
            for index, entry in enumerate(self._load()):
                st = json.loads(entry).get("statement")
                if isinstance(st, Mapping):
                    self._by_hand.setdefault(st.get("hand_id"), []).append((index, _slot(st)))
        return self._by_hand

    def hand_slots(self, hand_id: str) -> Iterable[tuple[int, tuple[str | None, int | None]]]:
        return iter(self._hands().get(hand_id, ()))

    def entries(self) -> Iterator[tuple[int, bytes]]:
        """``(leaf index, entry bytes)`` of every served entry below the checkpoint's size."""
        return enumerate(self._load())

    def index(self) -> LogIndex:
        """The whole served log as a :class:`LogIndex` (for a parallel audit's workers)."""
        self._load()
        hands = self._hands()
        return LogIndex(b"".join(self._tree.levels[0]), hands)


class LogMismatch(TipluError):
    """The operator's served log is not the log its signed checkpoint fixes (``fault`` says how)."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"{fault.reason.value}: {fault.message}")
        self.fault = fault
