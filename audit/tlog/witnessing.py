"""The operator's side of witnessing: submit each new checkpoint to the configured witnesses
and keep their cosignatures beside the log.

Configuration is one setting, ``TIPLU_WITNESSES``: entries separated by newlines or ``;``,
each ``<submission URL> <witness vkey>``, e.g.::

    TIPLU_WITNESSES="http://127.0.0.1:8100 witness.test/w1+185bde67+BIuvHJz...;https://w2.example witness.example/w2+..."

The URL is the witness's *submission prefix* (``/add-checkpoint`` is appended); the vkey
(signature type 0x04) is what the operator checks each returned line against before keeping it.

:meth:`Witnessing.witness` runs the C2SP ``tlog-witness`` client for one checkpoint:
``old`` is the largest size that witness cosigned for this log (0 at first); on a 409 the
witness's size is read from the body and the request is retried once with a consistency
proof from that size.  Witnesses are asked in parallel with a bounded timeout
(``TIPLU_WITNESS_TIMEOUT``, default 3 s, for connect and read); a witness that is down,
slow, refuses, or answers with a line that does not verify is *missing* for this
checkpoint -- the log keeps serving with fewer cosignatures, and is asked again for the
missing ones at most every ``retry_after`` seconds.

Stored in the ledger file (migration ``tlog-0002-cosignatures``, append-only):
``tlog_cosignatures(body_hash, witness, size, timestamp, line)`` keyed by the SHA-256 of the
checkpoint's note text (what a cosignature signs) and the witness vkey.
:func:`cosigned_text` appends the stored lines to a checkpoint (the log's line first, then
the witnesses' in configuration order).
"""
from __future__ import annotations

import base64
import hashlib
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Sequence

import requests

from audit.errors import SignatureError
from replay.errors import MalformedError

from .cosignature import parse_witness_vkey, verify_cosignature
from .note import Vkey, parse_note, parse_signature_lines

MIGRATION = ("tlog-0002-cosignatures", (
    "CREATE TABLE tlog_cosignatures (body_hash BLOB NOT NULL, witness TEXT NOT NULL, size INTEGER NOT NULL,"
    " timestamp INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (body_hash, witness))",
    *(f"CREATE TRIGGER tlog_cosignatures_no_{v.lower()} BEFORE {v} ON tlog_cosignatures"
      f" BEGIN SELECT RAISE(ABORT, 'tlog_cosignatures is append-only'); END" for v in ("UPDATE", "DELETE")),
))
DEFAULT_TIMEOUT = 3.0
DEFAULT_RETRY_AFTER = 30.0
_SIZE_BODY_RE = re.compile(r"(0|[1-9][0-9]{0,18})\n")


@dataclass(frozen=True, slots=True)
class WitnessEndpoint:
    url: str
    vkey: Vkey

    @property
    def name(self) -> str:
        return self.vkey.name


def parse_witnesses(text: str | None) -> list[WitnessEndpoint]:
    """Parse ``TIPLU_WITNESSES`` (see the module doc); empty or ``None`` means no witness."""
    endpoints: list[WitnessEndpoint] = []
    for n, entry in enumerate(re.split(r"[;\n]", text or ""), 1):
        entry = entry.strip()
        if not entry:
            continue
        parts = entry.split()
        if len(parts) != 2 or not re.match(r"https?://", parts[0]):
            raise MalformedError(f"TIPLU_WITNESSES entry {n} is '<http(s) URL> <witness vkey>'")
        try:
            vkey = parse_witness_vkey(parts[1])
        except MalformedError as exc:
            raise MalformedError(f"TIPLU_WITNESSES entry {n}: {exc}") from None
        if any(e.vkey == vkey for e in endpoints):
            raise MalformedError(f"TIPLU_WITNESSES entry {n}: witness {vkey.name!r} is listed twice")
        endpoints.append(WitnessEndpoint(parts[0].rstrip("/"), vkey))
    return endpoints


def body_hash(checkpoint_text: str) -> bytes:
    return hashlib.sha256(parse_note(checkpoint_text).body).digest()


def migrate(log: Any) -> None:
    """Apply ``tlog-0002-cosignatures`` to a :class:`TransparencyLog`'s database if needed."""
    conn = log.db.conn
    name, statements = MIGRATION
    if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
        return
    with log.db.atomic():
        if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
            return
        for sql in statements:
            conn.execute(sql)
        conn.execute("INSERT INTO migrations (name, applied_at) VALUES (?, datetime('now'))", (name,))


def stored_lines(log: Any, checkpoint_text: str) -> dict[str, str]:
    """witness vkey -> its stored cosignature line for this checkpoint."""
    migrate(log)
    rows = log.db.conn.execute("SELECT witness, line FROM tlog_cosignatures WHERE body_hash = ?",
                               (body_hash(checkpoint_text),))
    return {w: line for w, line in rows}


def cosigned_text(log: Any, checkpoint_text: str, witnesses: Sequence[WitnessEndpoint] | None = None) -> str:
    """The checkpoint with every stored cosignature line appended (``witnesses`` order, else
    the order they were stored in)."""
    lines = stored_lines(log, checkpoint_text)
    if not lines:
        return checkpoint_text
    order = [str(w.vkey) for w in witnesses] if witnesses is not None else list(lines)
    present = set(checkpoint_text.splitlines(keepends=True))
    extra = "".join(lines[v] for v in order if v in lines and lines[v] not in present)
    return checkpoint_text + extra


@dataclass(frozen=True, slots=True)
class WitnessStatus:
    """One witness's part in one checkpoint."""

    name: str
    vkey: str
    url: str
    cosigned: bool
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "vkey": self.vkey, "url": self.url, "cosigned": self.cosigned,
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Witnessed:
    """A checkpoint with the cosignatures it carries, and which witnesses are missing."""

    text: str
    witnesses: tuple[WitnessStatus, ...]

    @property
    def missing(self) -> list[str]:
        return [w.name for w in self.witnesses if not w.cosigned]

    def to_json(self) -> dict[str, Any]:
        return {"witnesses": [w.to_json() for w in self.witnesses], "witnesses_missing": self.missing}


class WitnessUnavailable(Exception):
    """A witness could not give a usable cosignature this time (the reason is the message)."""


@dataclass
class Witnessing:
    """The configured witnesses of one log, their HTTP client and the retry bookkeeping."""

    endpoints: Sequence[WitnessEndpoint]
    timeout: float = DEFAULT_TIMEOUT
    retry_after: float = DEFAULT_RETRY_AFTER
    session: requests.Session = field(default_factory=requests.Session)
    clock: Any = time.monotonic
    _last_try: dict[tuple[bytes, str], float] = field(default_factory=dict)  # (body hash, vkey) -> when asked
    _reasons: dict[tuple[bytes, str], str | None] = field(default_factory=dict)  # (body hash, vkey) -> why not
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def from_setting(cls, text: str | None, *, timeout: float | str | None = None) -> "Witnessing | None":
        endpoints = parse_witnesses(text)
        if not endpoints:
            return None
        return cls(endpoints, timeout=DEFAULT_TIMEOUT if timeout is None else float(timeout))

    def cosigner(self) -> Any:
        """``(log, checkpoint_text) -> text``: the checkpoint with every cosignature this
        configuration can get for it (the publisher's hook, ``ledger.cosign_checkpoint``).
        Always asks the missing witnesses (a record is published once)."""
        def cosign(log: Any, checkpoint_text: str) -> str:
            return self.witness(log, checkpoint_text, force=True).text
        return cosign

    def witness(self, log: Any, checkpoint_text: str, *, force: bool = False) -> Witnessed:
        """Ask every witness without a stored cosignature for this checkpoint (unless asked
        less than ``retry_after`` seconds ago, or ``force``); store what verifies; report."""
        have = stored_lines(log, checkpoint_text)
        key = body_hash(checkpoint_text)
        now = self.clock()
        todo = []
        with self._lock:
            for w in self.endpoints:
                if str(w.vkey) in have:
                    continue
                last = self._last_try.get((key, str(w.vkey)))
                if force or last is None or now - last >= self.retry_after:
                    self._last_try[(key, str(w.vkey))] = now
                    todo.append(w)
        if todo:
            size = int(parse_note(checkpoint_text).text.split("\n")[1])
            olds = {str(w.vkey): self._last_size(log, w) for w in todo}
            for _round in range(2):  # the second round follows the 409s of the first
                bodies = {str(w.vkey): self._request(log, checkpoint_text, size, olds[str(w.vkey)]) for w in todo}
                with ThreadPoolExecutor(max_workers=min(8, len(todo))) as pool:
                    answers = list(pool.map(lambda w, bodies=bodies: self._ask(w, checkpoint_text, bodies[str(w.vkey)]), todo))
                again = []
                for w, (line, reason, their_size) in zip(todo, answers):
                    if line is not None:
                        self._store(log, key, w, size, line)
                    elif their_size is not None and _round == 0:
                        olds[str(w.vkey)] = their_size
                        again.append(w)
                    with self._lock:
                        self._reasons[(key, str(w.vkey))] = reason
                todo = again
                if not todo:
                    break
        have = stored_lines(log, checkpoint_text)
        statuses = []
        for w in self.endpoints:
            ok = str(w.vkey) in have
            reason = None if ok else (self._reasons.get((key, str(w.vkey))) or "not asked yet")
            statuses.append(WitnessStatus(w.name, str(w.vkey), w.url, ok, reason))
        return Witnessed(cosigned_text(log, checkpoint_text, self.endpoints), tuple(statuses))

    def _last_size(self, log: Any, w: WitnessEndpoint) -> int:
        row = log.db.conn.execute("SELECT max(size) FROM tlog_cosignatures WHERE witness = ?",
                                  (str(w.vkey),)).fetchone()
        return 0 if row[0] is None else row[0]

    def _store(self, log: Any, key: bytes, w: WitnessEndpoint, size: int, line: tuple[str, int]) -> None:
        text, timestamp = line
        with log.db.atomic():
            log.db.conn.execute("INSERT OR IGNORE INTO tlog_cosignatures (body_hash, witness, size, timestamp, line)"
                                " VALUES (?, ?, ?, ?, ?)", (key, str(w.vkey), size, timestamp, text))

    @staticmethod
    def _request(log: Any, checkpoint_text: str, size: int, old: int) -> bytes | str:
        """The add-checkpoint body from ``old`` (a reason string if no proof can be made)."""
        if old > size:
            return f"the witness has size {old}, larger than this checkpoint's {size}"
        try:
            proof = log.consistency_proof(old, size) if 0 < old < size else []
        except Exception as exc:  # noqa: BLE001 - e.g. the witness claims a size this log never had
            return f"no consistency proof from size {old}: {exc}"
        return (f"old {old}\n" + "".join(base64.b64encode(h).decode("ascii") + "\n" for h in proof)
                + "\n" + checkpoint_text).encode("utf-8")

    def _ask(self, w: WitnessEndpoint, checkpoint_text: str,
             body: bytes | str) -> tuple[tuple[str, int] | None, str | None, int | None]:
        """``(line and timestamp, None, None)``, ``(None, reason, None)``, or on a 409
        ``(None, reason, the witness's size)``; never raises (runs in a worker thread)."""
        if isinstance(body, str):
            return None, body, None
        try:
            r = self.session.post(w.url + "/add-checkpoint", data=body, timeout=self.timeout,
                                  headers={"Content-Type": "text/plain; charset=utf-8"})
            if r.status_code == 409:
                m = _SIZE_BODY_RE.fullmatch(r.text)
                if not m:
                    return None, "HTTP 409 without a size", None
                return None, f"HTTP 409: the witness is at size {m.group(1)}", int(m.group(1))
            if r.status_code != 200:
                return None, f"HTTP {r.status_code}: {r.text.strip()[:200]}", None
            return self._check_answer(w, parse_note(checkpoint_text), r.text), None, None
        except requests.RequestException as exc:
            return None, f"unreachable: {type(exc).__name__}", None
        except WitnessUnavailable as exc:
            return None, str(exc), None
        except Exception as exc:  # noqa: BLE001 - a garbled answer: missing, never fatal to the log
            return None, f"{type(exc).__name__}: {exc}", None

    @staticmethod
    def _check_answer(w: WitnessEndpoint, note: Any, text: str) -> tuple[str, int]:
        try:
            lines = parse_signature_lines(text)
        except MalformedError as exc:
            raise WitnessUnavailable(f"answer is not signature lines: {exc}") from None
        mine = [s for s in lines if s.key_name == w.vkey.name and s.key_id == w.vkey.key_id]
        if not mine:
            raise WitnessUnavailable("answer has no line of the configured witness key")
        try:
            timestamp = verify_cosignature(mine[0], w.vkey, note.body)
        except SignatureError as exc:
            raise WitnessUnavailable(f"cosignature does not verify: {exc}") from None
        return str(mine[0]), timestamp
