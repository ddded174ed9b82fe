"""The witness under gunicorn: SIGKILL loops never make it cosign two inconsistent
checkpoints (or a smaller tree after a larger one), and concurrent add-checkpoint load
for several logs is serialised per log.  Loopback only; CI-sized."""
from __future__ import annotations

import importlib.util
import random
import threading
import time

import pytest
import requests

from audit.signing import SigningKey
from audit.tlog.cosignature import verify_cosignature, witness_vkey
from audit.tlog.merkle import verify_consistency
from audit.tlog.witness import Witness, WitnessedLog, parse_checkpoint_note

from .witness_server import WitnessServer
from .witnesskit import WITNESS_KEY, WITNESS_NAME, FakeLog, log_vkey

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("gunicorn") is None, reason="needs gunicorn")]
VKEY = witness_vkey(WITNESS_NAME, WITNESS_KEY.public_hex)


class Submitter:
    """A client for one branch of one log: grows it, submits, follows 409s; keeps every cosigned answer."""

    def __init__(self, url: str, log: FakeLog, rng: random.Random) -> None:
        self.url, self.log, self.rng = url, log, rng
        self.known = 0
        self.cosigned: list[tuple[int, bytes, str]] = []  # (size, root, checkpoint + line)
        self.statuses: dict[int, int] = {}
        self.lost = 0
        self.lock = threading.Lock()

    def step(self, session: requests.Session) -> None:
        with self.lock:
            if self.rng.random() < 0.7:
                self.log.grow(self.rng.randint(1, 3))
            size = self.log.tree.size
            old = min(self.known, size)
            cp = self.log.checkpoint(size)
            body = self.log.request(old, size, checkpoint=cp)
        try:
            r = session.post(self.url + "/add-checkpoint", data=body, timeout=5)
        except requests.RequestException:
            self.lost += 1
            return
        with self.lock:
            self.statuses[r.status_code] = self.statuses.get(r.status_code, 0) + 1
            if r.status_code == 200:
                self.cosigned.append((size, self.log.tree.root(size), cp + r.text))
                self.known = max(self.known, size)
            elif r.status_code == 409:
                self.known = int(r.text)


def check_one_history(answers: list[tuple[int, bytes, str]], trees) -> None:
    """Every cosignature verifies, and every pair of cosigned views is consistent."""
    for size, root, text in answers:
        cp = parse_checkpoint_note(text)
        [line] = [s for s in cp.note.signatures if s.key_name == WITNESS_NAME]
        assert verify_cosignature(line, VKEY, cp.note.body) > 0
        assert (cp.size, cp.root) == (size, root)
    views = sorted({(s, r) for s, r, _ in answers})
    for i, (s1, r1) in enumerate(views):
        for s2, r2 in views[i + 1:]:
            # one tree has both: find a branch holding (s2, r2) and check it has (s1, r1) as a prefix
            holder = [t for t in trees if t.size >= s2 and t.root(s2) == r2]
            assert holder and holder[0].root(s1) == r1, f"cosigned inconsistent views {s1} and {s2}"
            if s1 < s2:
                verify_consistency(s1, s2, r1, r2, holder[0].consistency_proof(s1, s2))
            else:
                assert r1 == r2


def test_sigkill_loop_never_cosigns_a_conflicting_checkpoint(tmp_path):
    origin = "tiplu.test/killed"
    server = WitnessServer(tmp_path, WITNESS_KEY, WITNESS_NAME, {origin: str(log_vkey(origin))}).start()
    rng = random.Random(17)
    honest = FakeLog(origin)
    honest.grow(3)
    evil = honest.fork("evil")  # the same 3 leaves, then other ones: a rival history
    subs = [Submitter(server.url, honest, random.Random(1)), Submitter(server.url, evil, random.Random(2))]
    stop = threading.Event()

    def run(sub):
        s = requests.Session()
        while not stop.is_set():
            sub.step(s)

    threads = [threading.Thread(target=run, args=(sub,)) for sub in subs for _ in range(2)]
    for t in threads:
        t.start()
    kills = 0
    try:
        for _ in range(6):
            time.sleep(rng.uniform(0.3, 0.8))
            server.kill()
            kills += 1
            server.start()
        time.sleep(0.5)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
        server.stop()
    answers = [a for sub in subs for a in sub.cosigned]
    assert kills == 6 and len(answers) > 10
    assert sum(sub.lost for sub in subs) > 0  # the kills did land mid-request
    assert set().union(*(sub.statuses for sub in subs)) <= {200, 409, 422}
    check_one_history(answers, [honest.tree, evil.tree])
    w = Witness(server.db, SigningKey.generate(), "inspect", {origin: WitnessedLog(origin, (log_vkey(origin),))})
    history = w.history(origin)
    sizes = [s for s, _, _ in history]
    assert sizes == sorted(sizes)  # never a smaller tree after a larger one, across restarts
    persisted = {(s, r) for s, r, _ in history}
    assert {(s, r) for s, r, _ in answers} <= persisted  # every answer was persisted before it was sent
    assert w.evidence(origin)  # the losing branch's signed checkpoints were kept


def test_concurrent_add_checkpoint_load_for_several_logs(tmp_path):
    origins = [f"tiplu.test/log{i}" for i in range(3)]
    server = WitnessServer(tmp_path, WITNESS_KEY, WITNESS_NAME, {o: str(log_vkey(o)) for o in origins},
                           workers=2, threads=4).start()
    logs = {o: FakeLog(o) for o in origins}
    subs = [Submitter(server.url, logs[o], random.Random(i)) for i, o in enumerate(origins)]
    started = time.monotonic()

    def run(sub, n):
        s = requests.Session()
        for _ in range(n):
            sub.step(s)

    threads = [threading.Thread(target=run, args=(sub, 25)) for sub in subs for _ in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        elapsed = time.monotonic() - started
        for sub in subs:  # a last request from the true size settles every log at its head
            r = requests.post(server.url + "/add-checkpoint", timeout=5,
                              data=sub.log.request(sub.known, checkpoint=sub.log.checkpoint()))
            if r.status_code == 409:
                r = requests.post(server.url + "/add-checkpoint", timeout=5,
                                  data=sub.log.request(int(r.text), checkpoint=sub.log.checkpoint()))
            assert r.status_code == 200, r.text
    finally:
        server.stop()
    total = sum(sum(sub.statuses.values()) for sub in subs)
    assert total == 3 * 4 * 25 and all(sub.lost == 0 for sub in subs)
    assert set().union(*(sub.statuses for sub in subs)) <= {200, 409}  # honest logs: never a 422
    w = Witness(server.db, SigningKey.generate(), "inspect", {})
    state = {row["origin"]: row for row in w.state()}
    for sub in subs:
        assert state[sub.log.origin]["size"] == sub.log.tree.size
        sizes = [s for s, _, _ in w.history(sub.log.origin)]
        assert sizes == sorted(sizes)
        check_one_history(sub.cosigned, [sub.log.tree])
    assert w.evidence() == []
    print(f"{total} add-checkpoint calls for 3 logs in {elapsed:.2f}s ({total / elapsed:.0f}/s)")
