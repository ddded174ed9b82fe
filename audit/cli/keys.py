"""``tiplu keys``, ``tiplu operator`` and ``tiplu seed``: key material for operators and players.

* ``tiplu keys new [--out FILE]`` -- a fresh Ed25519 operator key as a small JSON key file
  (``tiplu.key/1``: private key, public key, key id).  With ``--out`` the file is created
  with mode 0600 (never overwritten) and only the public half is printed.
* ``tiplu keys show FILE`` -- the public key and key id of a key file.
* ``tiplu operator new NAME [--key-file FILE] [--store-key]`` -- register an operator in a
  ledger.  Without a key file a key is generated and stored in the database; with one, only
  the public key is stored unless ``--store-key`` (see ``docs/ledger.md``, "Key storage").
* ``tiplu operator show NAME`` -- an operator's public key: all anyone needs to verify.
* ``tiplu seed new`` -- a fresh player seed (32 random bytes from :mod:`secrets`, hex).
* ``tiplu seed commit --hand-id H --seat N --seed HEX`` -- the commitment a player hands over.
"""
from __future__ import annotations

import json
import os
import secrets

import click

from replay.errors import MalformedError

from ..keys import key_document, load_key_file
from ..signing import SigningKey
from ._values import PLAYER_SEED
from . import main
from ._ledger_common import db_option, emit, json_option, open_ledger


@main.group("keys")
def keys_group() -> None:
    """Operator signing keys (Ed25519)."""


@keys_group.command("new")
@click.option("--out", "out", type=click.Path(dir_okay=False), help="Write the key file here (mode 0600, never overwritten).")
@json_option
def keys_new(out: str | None, as_json: bool) -> None:
    """Generate an operator key; print it, or write it to --out and print its public half."""
    key = SigningKey.generate()
    doc = key_document(key)
    if out is None:
        click.echo(json.dumps(doc))
        return
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(fd, 0o600)  # 0600 whatever the umask
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2) + "\n")
    public = {"file": out, "public_key": key.public_hex, "key_id": key.key_id}
    emit(public, f"wrote {out}\npublic key {key.public_hex}\nkey id     {key.key_id}", as_json)


@keys_group.command("show")
@click.argument("key_file", type=click.Path(exists=True, dir_okay=False))
@json_option
def keys_show(key_file: str, as_json: bool) -> None:
    """Print the public key and key id of a key file."""
    key = load_key_file(key_file)
    emit({"public_key": key.public_hex, "key_id": key.key_id},
         f"public key {key.public_hex}\nkey id     {key.key_id}", as_json)


@main.group("operator")
def operator_group() -> None:
    """Operators registered in a ledger."""


@operator_group.command("new")
@click.argument("name")
@click.option("--key-file", type=click.Path(exists=True, dir_okay=False),
              help="Use this key (from 'tiplu keys new'); by default only its public key is stored.")
@click.option("--store-key", is_flag=True, help="With --key-file: store the private key in the database too.")
@db_option
@json_option
def operator_new(name: str, key_file: str | None, store_key: bool, db: str, as_json: bool) -> None:
    """Register operator NAME (a key is generated and stored unless --key-file is given)."""
    key = load_key_file(key_file) if key_file else None
    with open_ledger(db, create=True) as ledger:  # the first step of a ledger: makes it if missing
        op = ledger.new_operator(name, key=key, store_key=store_key or key is None)
        where = ledger.secrets_path
    emit(op.to_json(), f"operator {op.name}\npublic key {op.public_key}\nkey id     {op.key_id}\n"
         f"private key {'stored in ' + where if op.key_stored else 'kept outside (pass --key-file to sign)'}", as_json)


@operator_group.command("show")
@click.argument("name")
@db_option
@json_option
def operator_show(name: str, db: str, as_json: bool) -> None:
    """Print an operator's public key (all that is needed to verify its statements)."""
    with open_ledger(db) as ledger:
        op = ledger.operator(name)
    emit(op.to_json(), f"operator {op.name}\npublic key {op.public_key}\nkey id     {op.key_id}", as_json)


@main.group("seed")
def seed_group() -> None:
    """Player seeds."""


@seed_group.command("new")
@click.option("--bytes", "size", type=click.IntRange(16, 64), default=32, show_default=True, help="Seed length.")
@json_option
def seed_new(size: int, as_json: bool) -> None:
    """Print a fresh player seed (hex, from the operating system's secure random source)."""
    seed = secrets.token_bytes(size).hex()
    emit({"seed": seed}, seed, as_json)


@seed_group.command("commit")
@click.option("--hand-id", required=True, help="The hand id exactly as the operator published it.")
@click.option("--seat", type=click.IntRange(min=0), required=True, help="Your seat (0 = first).")
@click.option("--seed", metavar="HEX", required=True, callback=PLAYER_SEED, help="Your seed (16-64 bytes, hex).")
@json_option
def seed_commit(hand_id: str, seat: int, seed: str, as_json: bool) -> None:
    """Print the commitment to your seed for one hand and seat (computed here; nothing is sent)."""
    from replay.fairness import commit_player_seed, parse_player_seed

    if seat < 0:
        raise MalformedError("a seat is a whole number from 0")
    commitment = commit_player_seed(hand_id, seat, parse_player_seed(seed))
    emit({"hand_id": hand_id, "seat": seat, "commitment": commitment}, commitment, as_json)
