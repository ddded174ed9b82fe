"""A transparency-log witness (C2SP ``tlog-witness``): cosign a checkpoint only if it extends the last one.

:class:`Witness` is the protocol without HTTP (``web/witness.py`` serves it): it owns an
Ed25519 key and a name, a list of logs it witnesses (origin -> the log's vkeys), and its own
SQLite file.  :meth:`Witness.add_checkpoint` takes the body of ``POST /add-checkpoint``::

    old <size the client believes the witness has cosigned>
    <consistency proof hash, base64>        (zero to 63 lines)
    <empty line>
    <checkpoint: a signed note>

and either returns the cosignature lines or raises :class:`WitnessRefusal` carrying the
spec's status: 400 malformed or ``old`` above the checkpoint size, 404 unknown origin,
403 no valid signature of the log (or a bad one from a trusted key), 409 ``old`` is not the
size last cosigned (body: that size and ``\\n``, ``Content-Type: text/x.tlog.size``), 422 a
size-0 checkpoint without the empty root, a proof from 0 that is not empty, a consistency
proof that fails, or the same size with another root.

**Atomicity.**  Reading the stored view, checking the proof against it, writing the new
view and signing happen in one ``BEGIN IMMEDIATE`` transaction, and the update is a
compare-and-swap on the stored ``(size, root)`` -- two racing requests (threads or
gunicorn workers) are serialised by SQLite and the second sees the first's view.  The
cosignature is returned only after ``COMMIT`` (``synchronous=FULL``), so a witness killed
at any point has either persisted the view it cosigned or cosigned nothing.  A trigger
refuses any update that would shrink a stored size.

**Evidence.**  A validly signed checkpoint that the witness refuses for consistency (a
422, or a 409 for a checkpoint of the stored size with another root) is kept in
``witness_evidence`` with the request bytes: the log signed two views that cannot both
be true.  ``witness_history`` keeps every ``(size, root, timestamp)`` cosigned.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from audit.errors import ProofError, SignatureError
from audit.signing import SigningKey
from replay.errors import MalformedError, TipluError

from . import merkle
from .cosignature import cosign, witness_vkey
from .witness_marker import check_start, sync_marker
from .note import (TYPE_ED25519, Note, Vkey, b64decode_strict, check_key_name, parse_note, parse_vkey,
                   verify_ed25519_note)

MAX_PROOF_LINES = 63
MAX_EVIDENCE_PER_LOG = 1000
SIZE_CONTENT_TYPE = "text/x.tlog.size"
_SIZE_RE = re.compile(r"0|[1-9][0-9]{0,18}")

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS witness_logs (origin TEXT PRIMARY KEY, size INTEGER NOT NULL,"
    " root BLOB NOT NULL, checkpoint TEXT NOT NULL, updated_at INTEGER NOT NULL)",
    "CREATE TRIGGER IF NOT EXISTS witness_logs_no_shrink BEFORE UPDATE ON witness_logs"
    " WHEN NEW.size < OLD.size OR (NEW.size = OLD.size AND NEW.root != OLD.root)"
    " BEGIN SELECT RAISE(ABORT, 'a witnessed log never shrinks or changes its root at one size'); END",
    "CREATE TRIGGER IF NOT EXISTS witness_logs_no_delete BEFORE DELETE ON witness_logs"
    " BEGIN SELECT RAISE(ABORT, 'witness state is never deleted'); END",
    "CREATE TABLE IF NOT EXISTS witness_history (id INTEGER PRIMARY KEY, origin TEXT NOT NULL,"
    " size INTEGER NOT NULL, root BLOB NOT NULL, timestamp INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS witness_evidence (id INTEGER PRIMARY KEY, origin TEXT NOT NULL,"
    " received_at INTEGER NOT NULL, reason TEXT NOT NULL, stored_size INTEGER NOT NULL,"
    " stored_root BLOB NOT NULL, size INTEGER NOT NULL, root BLOB NOT NULL, request BLOB NOT NULL)",
    *(f"CREATE TRIGGER IF NOT EXISTS {t}_no_{v.lower()} BEFORE {v} ON {t}"
      f" BEGIN SELECT RAISE(ABORT, '{t} is append-only'); END"
      for t in ("witness_history", "witness_evidence") for v in ("UPDATE", "DELETE")),
)


class WitnessRefusal(TipluError):
    """The witness does not cosign: an HTTP status and a text body (see the module doc)."""

    def __init__(self, status: int, message: str, *, body: str | None = None,
                 content_type: str = "text/plain; charset=utf-8") -> None:
        super().__init__(message)
        self.status = status
        self.body = message + "\n" if body is None else body
        self.content_type = content_type


@dataclass(frozen=True, slots=True)
class WitnessedLog:
    """A log the witness cosigns: its origin and the vkeys (type 0x01) it trusts for it."""

    origin: str
    keys: tuple[Vkey, ...]


def parse_log_config(text: str) -> dict[str, WitnessedLog]:
    """The logs a witness witnesses, one per line: ``<origin> <vkey> [<vkey> ...]``, or just
    ``<vkey>`` when the origin is the key's name.  ``#`` starts a comment."""
    logs: dict[str, WitnessedLog] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        keys: tuple[Vkey, ...]
        try:
            if len(parts) == 1:
                vkey = parse_vkey(parts[0], sig_type=TYPE_ED25519)
                origin, keys = vkey.name, (vkey,)
            else:
                origin, keys = parts[0], tuple(parse_vkey(p, sig_type=TYPE_ED25519) for p in parts[1:])
        except MalformedError as exc:
            raise MalformedError(f"log list line {n}: {exc}") from None
        if origin in logs:
            raise MalformedError(f"log list line {n}: origin {origin!r} is listed twice")
        logs[origin] = WitnessedLog(origin, keys)
    return logs


@dataclass(frozen=True, slots=True)
class ParsedCheckpoint:
    """The first three lines of a checkpoint note (extension lines stay in ``note.text``)."""

    note: Note
    origin: str
    size: int
    root: bytes


def parse_checkpoint_note(text: str) -> ParsedCheckpoint:
    """A C2SP ``tlog-checkpoint``: origin, size, base64 root, then optional non-empty extension lines."""
    note = parse_note(text)
    lines = note.text[:-1].split("\n")
    if len(lines) < 3 or any(not line for line in lines):
        raise MalformedError("a checkpoint has at least three non-empty lines: origin, size, root hash")
    origin, size_text, root_text = lines[:3]
    if not _SIZE_RE.fullmatch(size_text):
        raise MalformedError("a checkpoint size is a decimal without leading zeros")
    root = b64decode_strict(root_text, "checkpoint root hash")
    if len(root) != merkle.HASH_SIZE:
        raise MalformedError("a checkpoint root hash is 32 bytes")
    return ParsedCheckpoint(note, origin, int(size_text), root)


@dataclass(frozen=True, slots=True)
class AddCheckpoint:
    old: int
    proof: tuple[bytes, ...]
    checkpoint: ParsedCheckpoint


def parse_add_checkpoint(body: bytes) -> AddCheckpoint:
    """Parse an ``add-checkpoint`` request body; raise :class:`WitnessRefusal` 400 if malformed."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise WitnessRefusal(400, "the request is not UTF-8") from None
    head, sep, rest = text.partition("\n\n")
    if not sep:
        raise WitnessRefusal(400, "the request needs an empty line before the checkpoint")
    lines = head.split("\n")
    m = re.fullmatch(r"old (0|[1-9][0-9]{0,18})", lines[0])
    if not m:
        raise WitnessRefusal(400, "the first line is 'old <size>' (decimal, no leading zeros)")
    if len(lines) - 1 > MAX_PROOF_LINES:
        raise WitnessRefusal(400, f"more than {MAX_PROOF_LINES} consistency proof lines")
    try:
        proof = tuple(b64decode_strict(line, f"proof line {i}") for i, line in enumerate(lines[1:], 1))
        if any(len(h) != merkle.HASH_SIZE for h in proof):
            raise MalformedError("a consistency proof line is a 32-byte hash")
        checkpoint = parse_checkpoint_note(rest)
    except MalformedError as exc:
        raise WitnessRefusal(400, str(exc)) from None
    return AddCheckpoint(int(m.group(1)), proof, checkpoint)


def origin_hash(origin: str) -> str:
    """The monitoring path component: lower-case hex SHA-256 of the origin."""
    return hashlib.sha256(origin.encode("utf-8")).hexdigest()


def connect(path: str | Path) -> sqlite3.Connection:
    """The witness's SQLite file: WAL, ``synchronous=FULL``, autocommit (explicit transactions)."""
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for sql in SCHEMA:
            conn.execute(sql)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return conn


class Witness:
    """One witness identity over one SQLite file.  Safe across threads and processes
    (each call opens its own transaction; the connection is per instance)."""

    def __init__(self, db_path: str | Path, key: SigningKey, name: str, logs: Mapping[str, WitnessedLog], *,
                 clock: Callable[[], float] = time.time, marker: str | Path | None = None) -> None:
        """``marker``: the durable marker beside the key file (:mod:`.witness_marker`); with one,
        the state is checked against it first (:class:`WitnessStateError` if it must not
        start) and every new view is written to it before the cosignature is returned."""
        self.name = check_key_name(name)
        self.key = key
        self.vkey = witness_vkey(name, key.public_hex)
        self.logs = dict(logs)
        self.db_path = str(db_path)
        self.marker = None if marker is None else str(marker)
        self._clock = clock
        self._conn = connect(db_path)
        if self.marker is not None:
            try:
                self.state_id = check_start(self._conn, self.marker, str(self.vkey))
            except BaseException:
                self._conn.close()
                raise

    def close(self) -> None:
        self._conn.close()

    # -- the protocol ----------------------------------------------------------------------
    def add_checkpoint(self, body: bytes) -> str:
        """Check and cosign; return the cosignature line(s) or raise :class:`WitnessRefusal`."""
        req = parse_add_checkpoint(body)
        cp = req.checkpoint
        log = self.logs.get(cp.origin)
        if log is None:
            raise WitnessRefusal(404, f"unknown log {cp.origin!r}")
        self._verify_log_signature(cp.note, log)
        if req.old > cp.size:
            raise WitnessRefusal(400, f"old size {req.old} is larger than the checkpoint size {cp.size}")
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            line = self._check_and_cosign(req, body)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if self.marker is not None:  # after COMMIT, before the answer: never behind a cosignature given
            sync_marker(conn, self.marker, str(self.vkey), self.state_id)
        return line

    def _verify_log_signature(self, note: Note, log: WitnessedLog) -> None:
        verified = False
        for vkey in log.keys:
            if not note.lines_for(vkey):
                continue
            try:
                verify_ed25519_note(note, vkey)
            except SignatureError:
                raise WitnessRefusal(403, f"a signature by log key {vkey.name!r} does not verify") from None
            verified = True
        if not verified:
            raise WitnessRefusal(403, f"no signature by a key trusted for {log.origin!r}")

    def _stored(self, origin: str) -> tuple[int, bytes]:
        row = self._conn.execute("SELECT size, root FROM witness_logs WHERE origin = ?", (origin,)).fetchone()
        return (0, merkle.EMPTY_ROOT) if row is None else (row[0], bytes(row[1]))

    def _check_and_cosign(self, req: AddCheckpoint, body: bytes) -> str:
        cp = req.checkpoint
        stored_size, stored_root = self._stored(cp.origin)
        if req.old != stored_size:
            if cp.size == stored_size and not hmac.compare_digest(cp.root, stored_root):
                self._keep_evidence(cp, "same size, another root", stored_size, stored_root, body)
            raise WitnessRefusal(409, f"the witness's size for {cp.origin!r} is {stored_size}",
                                 body=f"{stored_size}\n", content_type=SIZE_CONTENT_TYPE)
        if cp.size == 0 and not hmac.compare_digest(cp.root, merkle.EMPTY_ROOT):
            raise WitnessRefusal(422, "a checkpoint of size 0 must have the empty tree's root")
        if req.old == 0 and req.proof:
            self._keep_evidence(cp, "a proof from size 0", stored_size, stored_root, body)
            raise WitnessRefusal(422, "the consistency proof from size 0 must be empty")
        if req.old == cp.size:
            if req.proof or not hmac.compare_digest(cp.root, stored_root):
                self._keep_evidence(cp, "same size, another root", stored_size, stored_root, body)
                raise WitnessRefusal(422, f"size {cp.size} was cosigned with another root")
        elif req.old > 0:
            try:
                merkle.verify_consistency(req.old, cp.size, stored_root, cp.root, list(req.proof))
            except ProofError as exc:
                self._keep_evidence(cp, f"consistency proof: {exc}", stored_size, stored_root, body)
                raise WitnessRefusal(422, f"the consistency proof does not verify: {exc}") from None
        timestamp = max(1, int(self._clock()))
        line = str(cosign(self.key, self.name, cp.note.body, timestamp))
        text = cp.note.text + "\n" + "".join(str(s) for s in cp.note.signatures if s.key_name != self.name) + line
        cur = self._conn.execute(
            "UPDATE witness_logs SET size = ?, root = ?, checkpoint = ?, updated_at = ?"
            " WHERE origin = ? AND size = ? AND root = ?",
            (cp.size, cp.root, text, timestamp, cp.origin, stored_size, stored_root))
        if cur.rowcount != 1:
            if stored_size != 0:  # pragma: no cover - the immediate transaction makes this unreachable
                raise WitnessRefusal(409, "the stored view changed", body=f"{stored_size}\n",
                                     content_type=SIZE_CONTENT_TYPE)
            self._conn.execute("INSERT INTO witness_logs (origin, size, root, checkpoint, updated_at)"
                               " VALUES (?, ?, ?, ?, ?)", (cp.origin, cp.size, cp.root, text, timestamp))
        self._conn.execute("INSERT INTO witness_history (origin, size, root, timestamp) VALUES (?, ?, ?, ?)",
                           (cp.origin, cp.size, cp.root, timestamp))
        return line

    def _keep_evidence(self, cp: ParsedCheckpoint, reason: str, stored_size: int, stored_root: bytes,
                       body: bytes) -> None:
        """Keep a validly signed, refused request (committed even though the request fails)."""
        count = self._conn.execute("SELECT count(*) FROM witness_evidence WHERE origin = ?",
                                   (cp.origin,)).fetchone()[0]
        if count >= MAX_EVIDENCE_PER_LOG:
            return
        self._conn.execute(
            "INSERT INTO witness_evidence (origin, received_at, reason, stored_size, stored_root, size, root,"
            " request) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (cp.origin, int(self._clock()), reason, stored_size, stored_root, cp.size, cp.root, body))
        self._conn.execute("COMMIT")
        self._conn.execute("BEGIN IMMEDIATE")

    # -- reading ---------------------------------------------------------------------------
    def latest(self, origin: str) -> str | None:
        """The last checkpoint cosigned for ``origin``: the log's lines and this witness's."""
        row = self._conn.execute("SELECT checkpoint FROM witness_logs WHERE origin = ?", (origin,)).fetchone()
        return row[0] if row is not None and row[0] else None  # '' after a re-initialisation

    def latest_by_hash(self, digest: str) -> str | None:
        for origin in self.logs:
            if hmac.compare_digest(origin_hash(origin), digest):
                return self.latest(origin)
        return None

    def state(self) -> list[dict[str, Any]]:
        rows = self._conn.execute("SELECT origin, size, root, updated_at FROM witness_logs ORDER BY origin")
        return [{"origin": o, "size": s, "root": bytes(r).hex(), "updated_at": u} for o, s, r, u in rows]

    def history(self, origin: str) -> list[tuple[int, bytes, int]]:
        rows = self._conn.execute("SELECT size, root, timestamp FROM witness_history WHERE origin = ? ORDER BY id",
                                  (origin,))
        return [(s, bytes(r), t) for s, r, t in rows]

    def evidence(self, origin: str | None = None) -> list[dict[str, Any]]:
        sql = ("SELECT id, origin, received_at, reason, stored_size, stored_root, size, root, request"
               " FROM witness_evidence")
        rows = self._conn.execute(sql + (" WHERE origin = ? ORDER BY id" if origin else " ORDER BY id"),
                                  (origin,) if origin else ())
        return [{"id": i, "origin": o, "received_at": t, "reason": why, "stored_size": ss,
                 "stored_root": bytes(sr).hex(), "size": s, "root": bytes(r).hex(),
                 "request": bytes(req).decode("utf-8")}
                for i, o, t, why, ss, sr, s, r, req in rows]


def load_logs_file(path: str | Path) -> dict[str, WitnessedLog]:
    with open(path, encoding="utf-8") as f:
        return parse_log_config(f.read())


def log_vkeys(values: Sequence[str]) -> dict[str, WitnessedLog]:
    """``--log`` values: each ``<vkey>`` or ``<origin>=<vkey>``."""
    lines = []
    for v in values:
        origin, sep, key = v.partition("=")
        lines.append(f"{origin} {key}" if sep else v)
    return parse_log_config("\n".join(lines))
