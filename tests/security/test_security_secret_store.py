"""Secrets apart: the public ledger file never holds a secret; every file that does is 0600.

Attacks performed: read the public ledger (and its WAL) as any local user could and look
for every unrevealed server seed and every stored private key, in every encoding; create
the store under a permissive umask; hand the ledger a world-readable store; crash a commit
between its two writes; move an older ledger's secrets out and read the old bytes again.
"""
from __future__ import annotations

import os
import sqlite3
import stat

import pytest
from click.testing import CliRunner

from audit.cli import main
from audit.operator.ledger import Ledger
from audit.operator.ledger.secret_store import SecretStoreError, secrets_path_for
from audit.signing import SigningKey
from replay.fairness import commit_player_seed

from security_kit import secret_forms

PLAYERS = ["asha", "bikash", "chandra"]


def _files(path) -> bytes:
    """Every byte a reader of the public ledger can see: the file, its WAL and shared memory."""
    out = b""
    for suffix in ("", "-wal", "-shm", "-journal"):
        p = f"{path}{suffix}"
        if os.path.exists(p):
            with open(p, "rb") as fh:
                out += fh.read()
    return out


def _contains(blob: bytes, secret_hex: str) -> bool:
    return any(form.encode() in blob for form in secret_forms(secret_hex)) or bytes.fromhex(secret_hex) in blob


def _hand(ledger: Ledger, hid: str, to: str) -> None:
    ledger.new_hand("t1", PLAYERS, hand_id=hid)
    ledger.commit(hid)
    if to == "commit":
        return
    for s in range(3):
        ledger.seed_commit(hid, s, commit_player_seed(hid, s, bytes([s + 1]) * 16))
    for s in range(3):
        ledger.seed_reveal(hid, s, bytes([s + 1]) * 16)
    ledger.deal(hid)
    if to == "deal":
        return
    ledger.finish(hid, {"hand_id": hid, "moves": []})
    ledger.reveal(hid)


def _ledger(path) -> Ledger:
    ledger = Ledger(path, create=True)
    ledger.new_operator("acme")
    ledger.new_table("t1", operator="acme", preset="kitti", seats=3)
    return ledger


def _stored_seeds(ledger: Ledger) -> dict[str, str]:
    """commitment -> seed, for every seed in the secret store (made ahead or stored per hand)."""
    store = ledger._secrets().ensure()
    return dict(store.execute("SELECT commitment, seed FROM server_seeds_ahead"
                              " UNION ALL SELECT commitment, seed FROM server_seeds"))


def _unrevealed_seeds(ledger: Ledger) -> list[str]:
    """Every stored seed the public file has not revealed (a hand's, or one made ahead)."""
    revealed = {r[0] for r in ledger.db.execute("SELECT server_seed FROM hand_reveals")}
    return [seed for seed in _stored_seeds(ledger).values() if seed not in revealed]


def _hands_seeds(ledger: Ledger) -> list[tuple[str, str]]:
    """(hand id, server seed) of every committed hand, found by its public commitment."""
    seeds = _stored_seeds(ledger)
    return [(hid, seeds[c]) for hid, c in ledger.db.execute("SELECT hand_id, commitment FROM hand_commitments")]


def _private_keys(ledger: Ledger) -> list[str]:
    return [r[0] for r in ledger._secrets().ensure().execute("SELECT private_key FROM operator_keys")]


def test_the_public_ledger_file_holds_no_secret(tmp_path):
    path = tmp_path / "tiplu.db"
    ledger = _ledger(path)
    for hid, to in (("h-commit", "commit"), ("h-deal", "deal"), ("h-done", "reveal")):
        _hand(ledger, hid, to)
    seeds, keys = _unrevealed_seeds(ledger), _private_keys(ledger)
    assert len(seeds) == 2 and len(keys) == 1
    blob = _files(path)
    for secret in seeds + keys:
        assert not _contains(blob, secret), "a secret is readable in the public ledger file"
    ledger.close()
    # and the secrets are where the docs say, readable by the owner only
    store = secrets_path_for(path)
    assert store.name == "tiplu.secrets.db"
    assert all(_contains(_files(store), s) for s in seeds + keys)


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_every_file_holding_a_secret_is_0600_whatever_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        path = tmp_path / "tiplu.db"
        ledger = _ledger(path)
        _hand(ledger, "h1", "commit")
        key_file = tmp_path / "acme.key"
        res = CliRunner().invoke(main, ["keys", "new", "--out", str(key_file)])
        assert res.exit_code == 0, res.output
    finally:
        os.umask(old)
    store = secrets_path_for(path)
    for p in (store, f"{store}-wal", f"{store}-shm", key_file):
        if os.path.exists(p):
            assert stat.S_IMODE(os.stat(p).st_mode) == 0o600, (p, oct(os.stat(p).st_mode))
    assert os.path.exists(f"{store}-wal")  # the store runs in WAL mode, so its -wal was checked too
    ledger.close()


def test_a_store_other_users_can_read_is_refused(tmp_path):
    path = tmp_path / "tiplu.db"
    ledger = _ledger(path)
    _hand(ledger, "h1", "commit")
    ledger.close()
    os.chmod(secrets_path_for(path), 0o644)
    again = Ledger(path)
    with pytest.raises(SecretStoreError, match="chmod 600"):
        again.cancel("h1")  # needs the seed
    with pytest.raises(SecretStoreError, match="chmod 600"):
        again.new_hand("t1", PLAYERS, hand_id="h2")  # needs the key
    res = CliRunner().invoke(main, ["hand", "commit", "nope", "--db", str(path)])
    assert res.exit_code == 1 and len(res.stderr.strip().splitlines()) == 1


def test_a_read_creates_no_secret_store(tmp_path):
    path = tmp_path / "tiplu.db"
    Ledger(path, create=True).close()
    with Ledger(path) as ledger:
        list(ledger.list_hands())
    res = CliRunner().invoke(main, ["hand", "list", "--db", str(path)])
    assert res.exit_code == 0
    assert not secrets_path_for(path).exists()


def test_a_commit_that_dies_between_its_two_writes_leaves_no_public_commitment(tmp_path, monkeypatch):
    """The seed is written first; a crash before the public statement leaves an orphan seed only,
    and the hand commits again (with a fresh seed) and reveals the seed it published."""
    import audit.operator.ledger.hands as ledger_module

    path = tmp_path / "tiplu.db"
    ledger = _ledger(path)
    ledger.new_hand("t1", PLAYERS, hand_id="h1")
    real = ledger_module.append_statement

    def dies(db, key, kind, *a, **kw):
        if kind == "commitment":
            raise KeyboardInterrupt("killed between the two writes")
        return real(db, key, kind, *a, **kw)

    monkeypatch.setattr(ledger_module, "append_statement", dies)
    with pytest.raises(KeyboardInterrupt):
        ledger.commit("h1")
    monkeypatch.setattr(ledger_module, "append_statement", real)
    assert ledger.get_hand("h1").state.value == "created"
    assert len(_stored_seeds(ledger)) == 1  # the seed, made (and synced) before the statement
    signed = ledger.commit("h1")
    for s in range(3):
        ledger.seed_commit("h1", s, commit_player_seed("h1", s, bytes([s + 1]) * 16))
    for s in range(3):
        ledger.seed_reveal("h1", s, bytes([s + 1]) * 16)
    ledger.deal("h1")
    ledger.finish("h1", {"hand_id": "h1", "moves": []})
    revealed = ledger.reveal("h1")
    assert revealed["statement"]["server_seed_commitment"] == signed["statement"]["server_seed_commitment"]


def _make_old_ledger(path) -> tuple[list[str], list[str]]:
    """A ledger as an older Tiplu left it: seeds and keys in the public file, no secret store."""
    ledger = _ledger(path)
    _hand(ledger, "h-commit", "commit")
    _hand(ledger, "h-done", "reveal")
    seeds = _hands_seeds(ledger)
    keys = [("acme", _private_keys(ledger)[0])]
    ledger.close()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE operator_secrets (operator TEXT PRIMARY KEY, private_key TEXT NOT NULL)")
    conn.execute("CREATE TABLE server_seeds (hand_id TEXT PRIMARY KEY, seed TEXT NOT NULL)")
    conn.executemany("INSERT INTO operator_secrets VALUES (?, ?)", keys)
    conn.executemany("INSERT INTO server_seeds VALUES (?, ?)", seeds)
    conn.commit()
    conn.close()
    for suffix in ("", "-wal", "-shm"):
        p = f"{secrets_path_for(path)}{suffix}"
        if os.path.exists(p):
            os.unlink(p)
    unrevealed = [s for h, s in seeds if h == "h-commit"]
    return unrevealed, [k for _, k in keys]


def test_move_secrets_takes_an_older_ledgers_secrets_out_of_its_public_file(tmp_path):
    path = tmp_path / "old.db"
    seeds, keys = _make_old_ledger(path)
    assert all(_contains(_files(path), s) for s in seeds + keys)
    runner = CliRunner()
    # the old ledger still works (read as a fallback), with a warning to move them
    listed = runner.invoke(main, ["hand", "list", "--db", str(path)])
    assert listed.exit_code == 0 and "move-secrets" in listed.stderr
    moved = runner.invoke(main, ["move-secrets", "--db", str(path), "--json"])
    assert moved.exit_code == 0, moved.output + moved.stderr
    assert '"server_seeds":2' in moved.output and '"private_keys":1' in moved.output
    blob = _files(path)
    for secret in seeds + keys:
        assert not _contains(blob, secret), "the moved secret is still in the public file's bytes"
    assert stat.S_IMODE(os.stat(secrets_path_for(path)).st_mode) == 0o600
    again = runner.invoke(main, ["move-secrets", "--db", str(path)])
    assert again.exit_code == 0 and "nothing to move" in again.output and again.stderr == ""
    # the moved secrets still serve: the hand that was only committed plays to its reveal
    with Ledger(path) as ledger:
        for s in range(3):
            ledger.seed_commit("h-commit", s, commit_player_seed("h-commit", s, bytes([s + 1]) * 16))
        for s in range(3):
            ledger.seed_reveal("h-commit", s, bytes([s + 1]) * 16)
        ledger.deal("h-commit")
        ledger.finish("h-commit", {"hand_id": "h-commit", "moves": []})
        assert ledger.reveal("h-commit")["statement"]["server_seed"] == seeds[0]
        assert ledger.signing_key("acme").to_hex() == keys[0]


def test_a_key_kept_outside_is_in_neither_file(tmp_path):
    path = tmp_path / "tiplu.db"
    key = SigningKey.generate()
    with Ledger(path, create=True, keys=[key]) as ledger:
        ledger.new_operator("acme", key=key, store_key=False)
    assert not _contains(_files(path), key.to_hex())
    assert not secrets_path_for(path).exists()
