"""Load and served crash safety against a real gunicorn on 127.0.0.1.

* 50 concurrent clients each play one whole hand through the operator and seat APIs:
  zero errors, every acknowledged statement stored exactly once.  (``bench/load.py``
  runs longer and prints latency percentiles.)
* Clients keep writing while the gunicorn master and workers are killed with SIGKILL and
  restarted on the same file: no acknowledged statement is lost, ``integrity_check`` passes,
  and every hand completes after the restart with nothing repaired by hand.
"""
from __future__ import annotations

import importlib.util

import pytest

from audit.operator.ledger import Ledger
from bench import servekit

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("gunicorn") is None, reason="needs gunicorn")]


def test_thirty_clients_behind_one_address_play_whole_hands_at_the_default_limits(tmp_path):
    """Every client connects from 127.0.0.1 (one address, as behind one NAT or proxy), the app
    runs with its default rate limits: every hand completes, zero errors."""
    path = str(tmp_path / "limits.db")
    token = servekit.prepare(path)
    server = servekit.Server(path, workers=2, threads=4, default_limits=True).start()
    try:
        clients = servekit.run_clients(server.url, token, 30, hands=1)
    finally:
        server.stop()
    errors = [e for c in clients for e in c.stats.errors]
    assert errors == []
    assert sum(c.stats.hands_done for c in clients) == 30
    acks = [a for c in clients for a in c.stats.acks]
    assert len(acks) == 30 * (2 * len(servekit.PLAYERS) + 5)


def test_fifty_concurrent_clients_play_whole_hands_with_no_error(tmp_path):
    path = str(tmp_path / "load.db")
    token = servekit.prepare(path)
    server = servekit.Server(path, workers=2, threads=4).start()
    try:
        clients = servekit.run_clients(server.url, token, 50, hands=1)
    finally:
        server.stop()
    errors = [e for c in clients for e in c.stats.errors]
    assert errors == []
    assert sum(c.stats.hands_done for c in clients) == 50
    acks = [a for c in clients for a in c.stats.acks]
    assert len(acks) == 50 * (2 * len(servekit.PLAYERS) + 5)  # hand, commit, 2 per seat, deal, finish, reveal
    checked = servekit.check_served(path, acks)
    assert checked["statements"] == len(acks)
    with Ledger(path) as ledger:
        assert {v.state.value for v in ledger.list_hands()} == {"revealed"}


def test_sigkilled_server_loses_no_acknowledged_statement(tmp_path):
    path = str(tmp_path / "served.db")
    token = servekit.prepare(path)
    result = servekit.served_crash(path, token, kills=8, clients=8, up_min=0.3, up_max=1.0, seed=7)
    assert result.kills == 8
    assert sum(c.stats.lost_connections for c in result.clients) > 0  # the kills hit clients mid-request
    unexpected = [e for c in result.clients for e in c.stats.errors]
    assert unexpected == []  # only 409s (a step whose answer was lost) and lost connections
    checked = servekit.check_served(path, result.acks)
    assert checked["acked"] > 0
    with Ledger(path) as ledger:  # the restarted service finished every hand; all verify
        views = list(ledger.list_hands())
        assert views and {v.state.value for v in views} == {"revealed"}
        for v in views:
            ledger.verify_hand(v.id)
