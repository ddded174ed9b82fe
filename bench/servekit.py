"""Serve-and-drive harness: a gunicorn-served Tiplu on 127.0.0.1 and HTTP clients playing hands.

Used by ``bench/load.py`` (latency percentiles, many clients), ``bench/crash.py --served``
(the server killed with SIGKILL while clients write) and their CI-size tests in
``tests/security/``.

* :func:`prepare` -- a fresh ledger file with an operator, a table and an operator token.
* :class:`Server` -- ``gunicorn 'web:create_app({...})'`` bound to ``127.0.0.1`` only, in its
  own process group (so :meth:`Server.kill` SIGKILLs the master and every worker at once).
* :class:`HandClient` -- one client: it drives whole hands through the operator API and the
  seat API (new hand, commit, a seat token per seat, each seat's commitment and seed, deal,
  finish, reveal).  Every step is chosen from the hand's *current* state (``GET``), so after
  a lost response or a restarted server it simply carries on.  Each 2xx answer carrying a
  signed statement is an *acknowledgement*, kept with its signature; every request's latency
  is kept too.
* :func:`check_served` -- afterwards: every acknowledged signature is stored exactly once,
  ``integrity_check`` passes.
"""
from __future__ import annotations

import hashlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import requests

from audit.operator.ledger import Ledger
from audit.operator.tokens import issue_operator_token
from replay.fairness import commit_player_seed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPERATOR = "load-op"
TABLE = "load-t"
PLAYERS = ["asha", "bikash", "chandra"]


def prepare(path: str) -> str:
    """A fresh ledger with the operator, its table and an operator token; the token."""
    with Ledger(path, create=True) as ledger:
        ledger.new_operator(OPERATOR)
        ledger.new_table(TABLE, operator=OPERATOR, preset="kitti", seats=3, point_value="0.25", commission_pct="5")
        return issue_operator_token(ledger.db, OPERATOR)[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn serving ``web.create_app`` on 127.0.0.1 (never another interface)."""

    def __init__(self, db_path: str, *, workers: int = 2, threads: int = 4, port: int | None = None,
                 log_path: str | None = None, default_limits: bool = False, config: dict | None = None) -> None:
        """``default_limits``: serve with the app's default rate limits (else they are lifted);
        ``config``: more app settings (e.g. ``{"TIPLU_READ_SLOTS": 0}``)."""
        self.db_path, self.workers, self.threads = db_path, workers, threads
        self.extra = dict(config or {})
        self.default_limits = default_limits
        self.port = port or free_port()
        self.log_path = log_path or db_path + ".gunicorn.log"
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> "Server":
        config = {"TIPLU_DB": self.db_path}
        if not self.default_limits:
            config.update(TIPLU_RATE_LIMIT=10 ** 9, TIPLU_AUTH_FAIL_LIMIT=10 ** 9)
        config.update(self.extra)
        cmd = [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "--threads", str(self.threads),
               "-b", f"127.0.0.1:{self.port}", "--graceful-timeout", "1", "--timeout", "60",
               f"web:create_app({config!r})"]
        env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.proc.returncode}); see {self.log_path}")
            try:
                if requests.get(self.url + "/api/v1/operators", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not answer within {timeout}s; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL the master and every worker (the whole process group) and reap the master."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()
        self.proc = None


def player_seed(hand_id: str, seat: int) -> bytes:
    return hashlib.sha256(f"servekit:{hand_id}:{seat}".encode()).digest()[:16]


@dataclass
class ClientStats:
    acks: list[str] = field(default_factory=list)  # signatures of acknowledged statements
    latencies: list[float] = field(default_factory=list)  # seconds, every request
    errors: list[str] = field(default_factory=list)  # unexpected answers
    lost_connections: int = 0
    conflicts: int = 0  # 409s (expected only after a lost response)
    hands_done: int = 0


class HandClient:
    """One client driving hands ``<name>-h<k>`` through the API (see the module docstring)."""

    def __init__(self, base_url: str, operator_token: str, name: str, *, tolerate_outages: bool = False) -> None:
        self.base, self.name = base_url, name
        self.op = {"Authorization": f"Bearer {operator_token}"}
        self.tolerate = tolerate_outages
        self.session = requests.Session()
        self.stats = ClientStats()
        self.seat_tokens: dict[tuple[str, int], str] = {}

    def _call(self, method: str, path: str, *, headers=None, json=None,
              expected: tuple[int, ...] = ()) -> requests.Response | None:
        while True:
            start = time.perf_counter()
            try:
                resp = self.session.request(method, self.base + path, headers=headers, json=json, timeout=30)
            except requests.RequestException as exc:
                if not self.tolerate:
                    self.stats.errors.append(f"{method} {path}: {type(exc).__name__}")
                    return None
                self.stats.lost_connections += 1
                self.session = requests.Session()
                time.sleep(0.05)
                return None
            self.stats.latencies.append(time.perf_counter() - start)
            if resp.status_code == 409:
                self.stats.conflicts += 1
                if not self.tolerate:
                    self.stats.errors.append(f"{method} {path}: 409 {resp.text[:200]}")
            elif resp.status_code >= 400 and resp.status_code not in expected:
                self.stats.errors.append(f"{method} {path}: {resp.status_code} {resp.text[:200]}")
            return resp

    def _ack(self, resp: requests.Response | None) -> None:
        if resp is not None and resp.status_code in (200, 201):
            body = resp.json()
            signed = body.get("statement")
            receipt = body.get("receipt")
            if signed is None and isinstance(receipt, dict):  # tiplu.receipt/2: the seat's own statement is the last
                signed = (receipt.get("statements") or [None])[-1]
            if signed is not None:
                self.stats.acks.append(signed["sig"])

    def step(self, hand_id: str) -> bool:
        """Move the hand one step on; ``False`` once it is revealed or cancelled."""
        # the operator reads its hand with its token: never capped as an anonymous read (web/limits.py)
        resp = self._call("GET", f"/api/v1/hands/{hand_id}", headers=self.op, expected=(404,))
        if resp is None:
            return True
        if resp.status_code == 404:
            self._ack(self._call("POST", "/api/v1/operator/hands", headers=self.op,
                                 json={"table_id": TABLE, "players": PLAYERS, "hand_id": hand_id}))
            return True
        if resp.status_code != 200:
            return True
        view = resp.json()
        state = view["state"]
        base = f"/api/v1/operator/hands/{hand_id}"
        if state in ("revealed", "cancelled"):
            return False
        if state == "created":
            self._ack(self._call("POST", base + "/commit", headers=self.op))
        elif state in ("committed", "seeds-committed"):
            field_, verb = ("commitment", "commit") if state == "committed" else ("seed", "reveal")
            seat = next(s["seat"] for s in view["seats"] if s[field_] is None)
            token = self.seat_tokens.get((hand_id, seat))
            if token is None:
                r = self._call("POST", f"{base}/seats/{seat}/token", headers=self.op)
                if r is None or r.status_code != 201:
                    return True
                token = self.seat_tokens[(hand_id, seat)] = r.json()["token"]
            seed = player_seed(hand_id, seat)
            body = ({"commitment": commit_player_seed(hand_id, seat, seed)} if verb == "commit"
                    else {"seed": seed.hex()})
            self._ack(self._call("POST", f"/api/v1/hands/{hand_id}/seats/{seat}/{verb}",
                                 headers={"Authorization": f"Bearer {token}"}, json=body))
        elif state == "seeds-revealed":
            self._ack(self._call("POST", base + "/deal", headers=self.op))
        elif state == "dealt":
            # a Kitti hand the ledger can replay (the record must audit clean since format 3): from
            # the dealer's right every seat but the dealer folds, so the dealer takes the pot (D-15)
            # (a deal with four of a kind is over at once, K-20: then there are no moves at all)
            n, dealer = len(PLAYERS), view.get("dealer", 0)
            folds = [{"type": "fold", "seat": (dealer - k) % n} for k in range(1, n)]
            resp = self._call("POST", base + "/finish", headers=self.op, json={"moves": folds}, expected=(400,))
            if resp is not None and resp.status_code == 400 and "after the hand is over" in resp.text:
                resp = self._call("POST", base + "/finish", headers=self.op, json={"moves": []})
            elif resp is not None and resp.status_code == 400:
                self.stats.errors.append(f"POST {base}/finish: 400 {resp.text[:200]}")
            self._ack(resp)
        elif state == "finished":
            self._ack(self._call("POST", base + "/reveal", headers=self.op))
        return True

    def run(self, stop: threading.Event, *, max_hands: int | None = None) -> ClientStats:
        k = 0
        while not stop.is_set() and (max_hands is None or k < max_hands):
            hand_id = f"{self.name}-h{k}"
            while self.step(hand_id):
                if not self.tolerate and (stop.is_set() or self.stats.errors):
                    break  # an error ends a strict client: the test reports it instead of retrying forever
            else:
                self.stats.hands_done += 1
            k += 1
        return self.stats


def run_clients(base_url: str, token: str, n: int, *, seconds: float | None = None, hands: int | None = None,
                tolerate_outages: bool = False, prefix: str = "c", max_wait: float = 600.0) -> list[HandClient]:
    """``n`` clients in threads, for ``seconds`` or ``hands`` hands each; the clients.

    A client still running ``max_wait`` seconds after that is stopped and counted as an error,
    so a stuck server fails a load test instead of hanging it."""
    stop = threading.Event()
    clients = [HandClient(base_url, token, f"{prefix}{i}", tolerate_outages=tolerate_outages) for i in range(n)]
    threads = [threading.Thread(target=c.run, args=(stop,), kwargs={"max_hands": hands}, daemon=True)
               for c in clients]
    for t in threads:
        t.start()
    if seconds is not None:
        time.sleep(seconds)
        stop.set()
    deadline = time.monotonic() + (seconds or 0) + max_wait
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        stop.set()
        for c, t in zip(clients, threads):
            if t.is_alive():
                c.stats.errors.append(f"{c.name}: still running after {max_wait:g} s")
    return clients


def percentiles(values: list[float], qs=(50, 90, 99, 99.9)) -> dict[str, float]:
    if not values:
        return {}
    data = sorted(values)
    return {f"p{q:g}": data[min(len(data) - 1, int(round(q / 100 * (len(data) - 1))))] for q in qs} | {
        "max": data[-1]}


def check_served(path: str, acks: list[str]) -> dict[str, Any]:
    """Every acknowledged signature stored exactly once; integrity_check ok; counts."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], "integrity_check failed"
        stored: dict[str, int] = {}
        for (sig,) in conn.execute("SELECT sig FROM statements"):
            stored[sig] = stored.get(sig, 0) + 1
        lost = [s for s in acks if s not in stored]
        dup = [s for s, n in stored.items() if n > 1]
        assert not lost, f"{len(lost)} acknowledged statements are lost"
        assert not dup, f"{len(dup)} statements are stored twice"
        assert len(set(acks)) == len(acks), "a statement was acknowledged twice"
        return {"statements": sum(stored.values()), "acked": len(acks)}
    finally:
        conn.close()


@dataclass
class ServedCrashResult:
    kills: int
    clients: list[HandClient]
    seconds: float

    @property
    def acks(self) -> list[str]:
        return [a for c in self.clients for a in c.stats.acks]


def served_crash(path: str, token: str, *, kills: int, clients: int, up_min: float = 0.2, up_max: float = 1.0,
                 seed: int = 0, workers: int = 2, threads: int = 4) -> ServedCrashResult:
    """Clients write while the server is SIGKILLed ``kills`` times (restarted each time on the same file);
    then the clients finish their hands against a last restart."""
    import random

    rng = random.Random(seed)
    start = time.perf_counter()
    server = Server(path, workers=workers, threads=threads).start()
    stop = threading.Event()
    pool = [HandClient(server.url, token, f"s{i}", tolerate_outages=True) for i in range(clients)]
    threads_ = [threading.Thread(target=c.run, args=(stop,), daemon=True) for c in pool]
    for t in threads_:
        t.start()
    try:
        for _ in range(kills):
            time.sleep(rng.uniform(up_min, up_max))
            server.kill()
            server = Server(path, workers=workers, threads=threads, port=server.port).start()
        stop.set()  # the clients finish the hand they are in, against the restarted server
        for t in threads_:
            t.join(120)
        assert not any(t.is_alive() for t in threads_), "a client did not finish its hand after the restart"
    finally:
        server.stop()
    return ServedCrashResult(kills, pool, time.perf_counter() - start)
