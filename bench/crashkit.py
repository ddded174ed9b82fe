"""Crash-safety harness: writer processes killed with SIGKILL while they drive hands.

Used by ``tests/security/test_security_crash.py`` (CI size) and ``bench/crash.py`` (full
size).  The pieces:

* :func:`run_writer` -- the body of one short-lived writer process.  It opens the ledger
  file (WAL mode, :class:`audit.operator.ledger.Ledger`), drives hands through their lifecycle and
  reports every *acknowledged* statement -- one whose verb call returned -- as one JSON line
  on a pipe **before** it goes on.  Every few statements it also brings the transparency
  log up to date and signs a checkpoint, reported the same way.
* :func:`kill_storm` -- forks writers (several at once, all on one file), kills a random
  live one with ``SIGKILL`` after a random delay, replaces it, and collects the acks until
  the wanted number of kills is reached.
* :func:`check_after_crashes` -- what must hold afterwards, on a freshly opened ledger:
  ``PRAGMA integrity_check`` is ``ok``; every acknowledged statement is stored with the same
  signature; every signed checkpoint is a prefix of the log (an RFC 9162 consistency proof
  verifies against the final root); the log rechecks; and a restarted service finishes
  every hand left half-way with no manual repair.

**The transparency log.**  The ledger appends each statement's log leaf in the statement's
own transaction (ledger migration ``004_transparency_log``), so after any kill the log must
hold exactly one leaf per stored statement -- checked *before* anything is synced.
:func:`sync_log` (leaf ``i`` = the ``i``-th statement in ``seq`` order,
``docs/transparency-log.md``) then finds nothing to add; it is kept so the harness also runs
against a ledger without that wiring.

Writers are forked from the parent (``os.fork``), so a kill costs milliseconds rather than
an interpreter start; each child opens its own connection after the fork.  Player seeds are
a function of the hand id and seat, so a restarted service can finish any hand.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import select
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from audit.operator.ledger import Ledger, atomic
from audit.operator.ledger.lifecycle import HandState
from audit.signing import SigningKey
from audit.tlog.checkpoint import make_checkpoint, verify_checkpoint
from audit.tlog.merkle import verify_consistency
from audit.tlog.store import TransparencyLog, leaf_entry
from replay.fairness import commit_player_seed

OPERATOR = "crash-op"
TABLE = "crash-t"
PLAYERS = ["asha", "bikash", "chandra", "dipa"]
ORIGIN = "tiplu.test/crash-log"
KEY = SigningKey.from_hex(hashlib.sha256(b"crashkit operator key").hexdigest())
LOG_KEY = SigningKey.from_hex(hashlib.sha256(b"crashkit log key").hexdigest())


def player_seed(hand_id: str, seat: int) -> bytes:
    """The seat's seed: fixed by the hand id, so any process can finish any hand."""
    return hashlib.sha256(f"crashkit:{hand_id}:{seat}".encode()).digest()


def setup(path: str) -> None:
    """A fresh ledger file with the operator (key kept outside the file) and one table."""
    with Ledger(path, keys=[KEY], create=True) as ledger:
        ledger.new_operator(OPERATOR, key=KEY, store_key=False)
        ledger.new_table(TABLE, operator=OPERATOR, preset="kitti", seats=4)
        TransparencyLog(ledger.db)


def sync_log(ledger: Ledger) -> int:
    """Append a leaf for every statement the log lacks, in one write transaction; the size."""
    log = TransparencyLog(ledger.db)
    with atomic(ledger.db):
        size = log.size()
        rows = ledger.db.execute("SELECT statement, key, sig FROM statements ORDER BY seq LIMIT -1 OFFSET ?",
                                 [size]).fetchall()
        for text, key, sig in rows:
            log.append_statement({"statement": json.loads(text), "key": key, "sig": sig})
        return log.size()


def checkpoint(ledger: Ledger) -> str:
    """Sync the log and sign a checkpoint of its head (stored in the log); the checkpoint text."""
    sync_log(ledger)
    log = TransparencyLog(ledger.db)
    with atomic(ledger.db):
        return make_checkpoint(log, LOG_KEY, origin=ORIGIN, now=datetime.now(timezone.utc)).text


# -- the lifecycle, one step at a time ---------------------------------------------------

def next_step(ledger: Ledger, hand_id: str) -> tuple[str, Any] | None:
    """The next verb that moves this hand forward (``None`` when it is over)."""
    view = ledger.get_hand(hand_id)
    state = view.state
    if state is HandState.CREATED:
        return "commit", lambda: ledger.commit(hand_id)
    if state is HandState.COMMITTED:
        seat = next(s.seat for s in view.seats if s.commitment is None)
        return "seed_commit", lambda: ledger.seed_commit(
            hand_id, seat, commit_player_seed(hand_id, seat, player_seed(hand_id, seat)))
    if state is HandState.SEEDS_COMMITTED:
        seat = next(s.seat for s in view.seats if s.seed is None)
        return "seed_reveal", lambda: ledger.seed_reveal(hand_id, seat, player_seed(hand_id, seat))
    if state is HandState.SEEDS_REVEALED:
        return "deal", lambda: ledger.deal(hand_id)
    if state is HandState.DEALT:
        return "finish", lambda: ledger.finish(hand_id, {"hand_id": hand_id, "moves": [], "note": "crashkit"})
    if state is HandState.FINISHED:
        return "reveal", lambda: ledger.reveal(hand_id)
    return None


def finish_hand(ledger: Ledger, hand_id: str) -> None:
    """Drive a hand to its end (revealed, or it stays cancelled)."""
    while (step := next_step(ledger, hand_id)) is not None:
        step[1]()


def _ack(fd: int, obj: dict[str, Any]) -> None:
    line = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
    assert len(line) < select.PIPE_BUF, "an ack must be written atomically"
    os.write(fd, line)


def run_writer(path: str, fd: int, name: str, *, checkpoint_every: int = 7, cancel_every: int = 5) -> None:
    """A writer process: hands ``<name>-h<k>``, each step acknowledged on ``fd`` once it returned."""
    ledger = Ledger(path, keys=[KEY])
    acked = 0
    k = 0
    while True:
        hand_id = f"{name}-h{k}"
        k += 1
        signed = ledger.new_hand(TABLE, PLAYERS, dealer=k % 4, hand_id=hand_id)
        _ack(fd, {"hand": hand_id, "kind": "hand", "sig": signed["sig"]})
        cancel_at = 2 + k % 3 if k % cancel_every == 0 else None
        n_steps = 0
        while (step := next_step(ledger, hand_id)) is not None:
            if cancel_at is not None and n_steps == cancel_at:
                signed = ledger.cancel(hand_id)
                _ack(fd, {"hand": hand_id, "kind": "cancel", "sig": signed["sig"]})
                break
            signed = step[1]()
            n_steps += 1
            _ack(fd, {"hand": hand_id, "kind": signed["statement"]["kind"], "sig": signed["sig"]})
            acked += 1
            if acked % checkpoint_every == 0:
                _ack(fd, {"checkpoint": checkpoint(ledger)})


# -- the storm -----------------------------------------------------------------------------

@dataclass
class StormResult:
    kills: int = 0
    writers: int = 0
    acks: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)
    clean_exits: int = 0
    seconds: float = 0.0


def _spawn(path: str, name: str) -> tuple[int, int]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 0
        try:
            os.close(r)
            run_writer(path, w, name)
        except BaseException:  # noqa: BLE001 - a writer that fails reports by its exit status
            import traceback

            traceback.print_exc()
            code = 3
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def _drain(fd: int, buf: bytearray, result: StormResult) -> bool:
    """Read what is available; ``False`` at end of file."""
    chunk = os.read(fd, 65536)
    if not chunk:
        return False
    buf.extend(chunk)
    *lines, rest = bytes(buf).split(b"\n")
    buf[:] = rest
    for line in lines:
        obj = json.loads(line)
        if "checkpoint" in obj:
            result.checkpoints.append(obj["checkpoint"])
        else:
            result.acks.append(obj)
    return True


def kill_storm(path: str, *, kills: int, concurrency: int = 4, max_delay: float = 0.06,
               seed: int = 0, prefix: str = "w") -> StormResult:
    """Fork ``concurrency`` writers at a time; SIGKILL one at random until ``kills`` kills."""
    rng = random.Random(seed)
    result = StormResult()
    live: dict[int, tuple[int, bytearray]] = {}  # pid -> (read fd, partial line)
    start = time.perf_counter()
    serial = 0

    def spawn() -> None:
        nonlocal serial
        pid, fd = _spawn(path, f"{prefix}{serial}")
        serial += 1
        result.writers += 1
        live[pid] = (fd, bytearray())

    def reap(pid: int) -> None:
        fd, buf = live.pop(pid)
        while _drain(fd, buf, result):
            pass
        os.close(fd)

    for _ in range(concurrency):
        spawn()
    while result.kills < kills:
        deadline = time.monotonic() + rng.uniform(0.0, max_delay)
        while (left := deadline - time.monotonic()) > 0:
            fds = {fd: pid for pid, (fd, _) in live.items()}
            ready, _, _ = select.select(list(fds), [], [], left)
            for fd in ready:
                pid = fds[fd]
                if not _drain(fd, live[pid][1], result):  # the writer died on its own
                    _, status = os.waitpid(pid, 0)
                    reap(pid)
                    if status != 0:
                        raise AssertionError(f"writer {pid} failed by itself (status {status}); see stderr")
                    result.clean_exits += 1
                    spawn()
        victim = rng.choice(list(live))
        os.kill(victim, signal.SIGKILL)
        os.waitpid(victim, 0)
        reap(victim)
        result.kills += 1
        spawn()
    for pid in list(live):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        reap(pid)
    result.seconds = time.perf_counter() - start
    return result


# -- afterwards ----------------------------------------------------------------------------

@dataclass
class CheckResult:
    statements: int
    acked: int
    hands: int
    finished_after_restart: int
    checkpoints: int
    log_size: int


def check_after_crashes(path: str, result: StormResult) -> CheckResult:
    """Everything that must hold after the storm (raises AssertionError naming what broke)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], "integrity_check failed"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == [], "foreign_key_check failed"
    finally:
        conn.close()
    ledger = Ledger(path, keys=[KEY])  # the restarted service: no repair step
    try:
        sigs = {r[0] for r in ledger.db.execute("SELECT sig FROM statements")}
        lost = [a for a in result.acks if a["sig"] not in sigs]
        assert not lost, f"{len(lost)} acknowledged statements are lost, e.g. {lost[:3]}"
        n_statements = ledger.db.execute("SELECT count(*) FROM statements").fetchone()[0]
        assert len(sigs) == n_statements, "a statement is stored twice"
        log_size = ledger.db.execute("SELECT count(*) FROM tlog_leaves").fetchone()[0]
        assert log_size == n_statements, f"{n_statements - log_size} statements lack their log leaf"
        # every checkpoint signed before or during the storm is a prefix of the final log
        size = sync_log(ledger)
        log = TransparencyLog(ledger.db)
        log.check()
        texts = set(result.checkpoints) | set(log.checkpoints())
        acked_texts = set(result.checkpoints)
        assert acked_texts <= set(log.checkpoints()), "an acknowledged checkpoint is not stored"
        final_root = log.root(size)
        for text in texts:
            cp = verify_checkpoint(text, LOG_KEY.public_hex, origin=ORIGIN)
            verify_consistency(cp.size, size, cp.root, final_root, log.consistency_proof(cp.size, size))
        rows = ledger.db.execute("SELECT statement, key, sig FROM statements ORDER BY seq").fetchall()
        assert len(rows) == size, "the log and the statements table disagree in length"
        for start in range(0, size, 256):
            for (text, key, sig), (_, entry) in zip(rows[start:start + 256], log.entries(start, start + 256)):
                assert entry == leaf_entry({"statement": json.loads(text), "key": key, "sig": sig}), \
                    "a leaf differs from its statement"
        # the restarted service carries on: finish every hand left half-way, verify every hand
        hand_ids = [r[0] for r in ledger.db.execute("SELECT id FROM hands ORDER BY rowid")]
        unfinished = [v.id for v in ledger.list_hands()
                      if v.state not in (HandState.REVEALED, HandState.CANCELLED)]
        for hid in unfinished:
            finish_hand(ledger, hid)
        for hid in hand_ids:
            assert ledger.verify_hand(hid, KEY.public_hex) in (HandState.REVEALED, HandState.CANCELLED)
        final = checkpoint(ledger)
        cp = verify_checkpoint(final, LOG_KEY.public_hex, origin=ORIGIN)
        for text in texts:
            old = verify_checkpoint(text, LOG_KEY.public_hex, origin=ORIGIN)
            verify_consistency(old.size, cp.size, old.root, cp.root, log.consistency_proof(old.size, cp.size))
        return CheckResult(n_statements, len(result.acks), len(hand_ids), len(unfinished), len(texts), size)
    finally:
        ledger.close()
