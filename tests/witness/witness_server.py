"""A witness served by a real gunicorn on 127.0.0.1 (never another interface), for the
kill, load and end-to-end tests."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from audit.keys import key_document
from audit.signing import SigningKey
from bench.servekit import free_port

ROOT = str(Path(__file__).resolve().parents[2])


def write_key(path: Path, key: SigningKey) -> Path:
    path.write_text(json.dumps(key_document(key)))
    return path


class WitnessServer:
    def __init__(self, tmp: Path, key: SigningKey, name: str, logs: dict[str, str], *,
                 workers: int = 2, threads: int = 2) -> None:
        """``logs``: origin -> log vkey text."""
        self.tmp = Path(tmp)
        self.key_file = write_key(self.tmp / "witness.key", key)
        self.logs_file = self.tmp / "logs.txt"
        self.logs_file.write_text("".join(f"{o} {v}\n" for o, v in logs.items()))
        self.db = self.tmp / "witness.db"
        self.name, self.workers, self.threads = name, workers, threads
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> "WitnessServer":
        env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               "TIPLU_WITNESS_NAME": self.name, "TIPLU_WITNESS_KEY_FILE": str(self.key_file),
               "TIPLU_WITNESS_DB": str(self.db), "TIPLU_WITNESS_LOGS": str(self.logs_file)}
        log = open(self.tmp / "gunicorn.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "--threads", str(self.threads),
             "-b", f"127.0.0.1:{self.port}", "--graceful-timeout", "1", "web.witness:create_app()"],
            cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.tmp / 'gunicorn.log'}")
            try:
                if requests.get(self.url + "/", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError("the witness did not answer in time")

    def kill(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


class SiteServer:
    """The operator's site (``web.create_app``) under gunicorn on 127.0.0.1, with its witnesses."""

    def __init__(self, tmp: Path, db: Path, *, log_key_file: Path, origin: str, witnesses: str,
                 workers: int = 1, threads: int = 4, timeout: float = 2.0) -> None:
        self.tmp, self.db = Path(tmp), Path(db)
        self.config = {"TIPLU_DB": str(db), "TIPLU_LOG_ORIGIN": origin, "TIPLU_LOG_KEY_FILE": str(log_key_file),
                       "TIPLU_WITNESSES": witnesses, "TIPLU_WITNESS_TIMEOUT": timeout, "TIPLU_RATE_LIMIT": 10 ** 9}
        self.workers, self.threads = workers, threads
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> "SiteServer":
        env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
        env.pop("TIPLU_WITNESSES", None)
        log = open(self.tmp / f"site-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "--threads", str(self.threads),
             "-b", f"127.0.0.1:{self.port}", "--graceful-timeout", "1", f"web:create_app({self.config!r})"],
            cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.tmp}")
            try:
                if requests.get(self.url + "/api/v1/log/proof/consistency?first=0", timeout=1).status_code < 500:
                    return self
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError("the site did not answer in time")

    def stop(self) -> None:
        if self.proc is not None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
            self.proc = None
