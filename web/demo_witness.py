"""The demo's own witness: a ``tiplu witness serve`` process that ``tiplu demo`` starts and stops.

It has its own key, database, state marker, logs file and port, under ``<demo dir>/witness/``,
and witnesses the demo operator's log (``<DEMO_ORIGIN>/demo-operator``).  While the demo
builds its archive, every record's checkpoint is sent to it (the publisher's
``ledger.cosign_checkpoint`` hook), so the demo's records carry its cosignature; while the
demo serves, the site sends it each new checkpoint (``TIPLU_WITNESSES``).  The pages show who
cosigned and when.

It is run by the same party as the demo operator, so it proves nothing to a player (a
witness must be independent: docs/transparency-log.md, "What it proves"): it shows what
witnessing looks like and that it works.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from replay.errors import TipluError

NAME = "witness.tiplu-demo/w1"
START_TIMEOUT = 30.0


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DemoWitnessError(TipluError):
    """The demo's witness process did not start (one line: why, and its log file)."""


class DemoWitness:
    """``start()`` / ``stop()`` one witness process on 127.0.0.1 for the demo operator's log."""

    def __init__(self, directory: Path, *, origin: str, log_public_hex: str) -> None:
        from audit.tlog.note import TYPE_ED25519, Vkey

        self.dir = Path(directory)
        self.origin = origin
        self.log_vkey = Vkey.for_key(origin, TYPE_ED25519, bytes.fromhex(log_public_hex))
        self.key_file = self.dir / "witness.key"
        self.db_path = self.dir / "witness.db"
        self.logs_file = self.dir / "logs.txt"
        self.port = 0
        self.proc: subprocess.Popen | None = None

    @classmethod
    def fresh(cls, directory: Path, **kw) -> "DemoWitness":
        """A new witness identity (a rebuilt archive is a new history: its old witness must refuse it)."""
        shutil.rmtree(directory, ignore_errors=True)
        return cls(directory, **kw)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def vkey(self) -> str:
        from audit.keys import load_key_file
        from audit.tlog.cosignature import witness_vkey

        return str(witness_vkey(NAME, load_key_file(str(self.key_file)).public_hex))

    @property
    def setting(self) -> str:
        """The site's ``TIPLU_WITNESSES`` entry for this witness."""
        return f"{self.url} {self.vkey}"

    def _prepare(self) -> None:
        from audit.keys import key_document
        from audit.signing import SigningKey

        self.dir.mkdir(parents=True, exist_ok=True)
        if not self.key_file.exists():
            fd = os.open(self.key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(json.dumps(key_document(SigningKey.generate())))
        self.logs_file.write_text(f"{self.origin} {self.log_vkey}\n", encoding="utf-8")

    def start(self) -> "DemoWitness":
        self._prepare()
        self.port = _free_port()
        log = open(self.dir / "witness.log", "ab")
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "web.cli", "witness", "serve", "--name", NAME, "--key-file", str(self.key_file),
                 "--db", str(self.db_path), "--logs", str(self.logs_file), "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=log, stderr=log, stdin=subprocess.DEVNULL, start_new_session=True,
                env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]) + os.pathsep
                     + os.environ.get("PYTHONPATH", "")})
        finally:
            log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = (self.dir / "witness.log").read_text(errors="replace").strip().splitlines()[-1:]
                self.proc = None
                raise DemoWitnessError(f"the demo witness did not start: {tail[0] if tail else 'no output'} "
                                   f"(see {self.dir / 'witness.log'})")
            try:
                if requests.get(self.url + "/", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                time.sleep(0.1)
        self.stop()
        raise DemoWitnessError(f"the demo witness did not answer within {START_TIMEOUT:.0f} s")

    def stop(self) -> None:
        """Stop the process this object started (its own process group), and wait for it."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        except ProcessLookupError:
            pass

    def __enter__(self) -> "DemoWitness":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
