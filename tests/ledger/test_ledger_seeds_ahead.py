"""Server seeds made ahead: one secret-store sync for many hands, never a seed for two hands.

A file ledger's server seeds are made in batches (1, 2, 4, ... up to ``SEED_BATCH``), each
batch committed and synced in the secret store before any of its seeds is handed out
(``SecretStore.take_server_seed``).  Attacks performed: read the store from another
connection right after each commit (is the published commitment's seed there?); fork a
process that holds seeds made ahead and commit hands in both (does any seed serve two
hands?); commit from several threads at once; open a store written before the seeds were
made ahead.
"""
# rule R-21: the server seed is fixed (and kept) before its commitment is published
# rule R-22: the server seed revealed is the committed one
from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading

import pytest

from audit.operator.ledger import Ledger
from audit.operator.ledger.secret_store import SEED_BATCH, SecretStore, secrets_path_for

from ledger_testkit import SEEDS, advance, new_ledger
from replay.fairness import commit_player_seed


def _store_commits(ledger: Ledger) -> list[str]:
    """Record every COMMIT the ledger's secret store runs from now on."""
    seen: list[str] = []
    ledger._secrets().ensure().conn.set_trace_callback(lambda sql: seen.append(sql) if sql == "COMMIT" else None)
    return seen


def _commitments(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT commitment FROM hand_commitments")]
    finally:
        conn.close()


def test_one_secret_store_sync_serves_many_hands(tmp_path):
    ledger = new_ledger(tmp_path / "tiplu.db")
    commits = _store_commits(ledger)
    for h in range(40):
        ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id=f"h{h}")
        ledger.commit(f"h{h}")
    # batches of 1, 2, 4, 8, 16 and 32 seeds: 6 transactions for 40 hands (it was one per hand)
    assert len(commits) == 6 and SEED_BATCH == 32
    ledger.close()


def test_every_published_commitment_has_its_seed_committed_in_the_store(tmp_path):
    path = tmp_path / "tiplu.db"
    ledger = new_ledger(path)
    for h in range(9):
        advance(ledger, f"h{h}", "commit")
        commitment = ledger.get_hand(f"h{h}").server_seed_commitment
        other = SecretStore(secrets_path_for(path))  # another connection: what a restart would read
        try:
            seed = other.server_seed(commitment)
        finally:
            other.close()
        assert seed is not None
    advance(ledger, "last", "reveal")  # and a hand reveals the seed it committed to
    assert ledger.verify_hand("last").value == "revealed"
    ledger.close()


def test_seeds_made_ahead_never_reach_the_public_file(tmp_path):
    path = tmp_path / "tiplu.db"
    ledger = new_ledger(path)
    for h in range(4):  # batches 1, 2 and 4: three seeds wait, made ahead and unused
        advance(ledger, f"h{h}", "commit")
    store = ledger._secrets().ensure()
    seeds = [bytes.fromhex(r[0]) for r in store.execute("SELECT seed FROM server_seeds_ahead")]
    assert len(seeds) == 7
    ledger.close()
    public = b"".join(open(f"{path}{suffix}", "rb").read() for suffix in ("", "-wal", "-shm")
                      if os.path.exists(f"{path}{suffix}"))
    for seed in seeds:
        assert seed not in public and seed.hex().encode() not in public and seed.hex().upper().encode() not in public


def _child(path: str, out) -> None:
    with Ledger(path) as ledger:
        for h in range(6):
            ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id=f"child{h}")
            ledger.commit(f"child{h}")
    out.put("done")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_never_hands_out_its_parents_seeds(tmp_path):
    path = tmp_path / "tiplu.db"
    ledger = new_ledger(path)
    for h in range(4):  # batches 1, 2 and 4: three seeds made ahead wait in this process
        advance(ledger, f"p{h}", "commit")
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_child, args=(str(path), out))
    child.start()
    assert out.get(timeout=60) == "done"
    child.join(60)
    for h in range(4, 10):
        advance(ledger, f"p{h}", "commit")
    ledger.close()
    commitments = _commitments(path)
    assert len(commitments) == 16 and len(set(commitments)) == 16


def test_threads_committing_at_once_each_get_their_own_seed(tmp_path):
    path = tmp_path / "tiplu.db"
    new_ledger(path).close()
    errors: list[BaseException] = []

    def commit_hands(t: int) -> None:
        try:
            with Ledger(path) as ledger:
                for h in range(8):
                    ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id=f"t{t}h{h}")
                    ledger.commit(f"t{t}h{h}")
        except BaseException as exc:  # noqa: BLE001  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=commit_hands, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    commitments = _commitments(path)
    assert len(commitments) == 32 and len(set(commitments)) == 32


def test_a_store_written_before_seeds_were_made_ahead_still_serves_its_hands(tmp_path):
    """An older store has no ``server_seeds_ahead``: it gains the table at its next open,
    and the seeds it holds per hand are still found and revealed."""
    path = tmp_path / "tiplu.db"
    ledger = new_ledger(path)
    ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id="old")
    ledger.commit("old", server_seed=bytes(range(32)))  # stored per hand, as every commit once was
    ledger.close()
    conn = sqlite3.connect(secrets_path_for(path))
    conn.execute("DROP TABLE server_seeds_ahead")  # its triggers go with it: the older schema
    conn.commit()
    conn.close()
    with Ledger(path) as again:
        for seat, seed in enumerate(SEEDS):
            again.seed_commit("old", seat, commit_player_seed("old", seat, seed))
        for seat, seed in enumerate(SEEDS):
            again.seed_reveal("old", seat, seed)
        again.deal("old")
        again.finish("old", {"hand_id": "old", "moves": []})
        revealed = again.reveal("old")
        assert revealed["statement"]["server_seed"] == bytes(range(32)).hex()
        advance(again, "new", "reveal")  # and new hands use seeds made ahead in the same store
    store = sqlite3.connect(secrets_path_for(path))
    assert store.execute("SELECT count(*) FROM server_seeds_ahead").fetchone()[0] >= 1
    store.close()
