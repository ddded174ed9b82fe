"""The log's leaves in SQLite: a leaf's entry bytes (:func:`leaf_entry`: the canonical JSON of a
signed statement) and one append (:func:`append_leaf`: the leaf row with the perfect subtrees
it completes), as :mod:`audit.tlog.store` keeps them (its docstring has the tables).
"""
from __future__ import annotations

import re
import sqlite3
from typing import Any, Mapping

from audit.errors import LedgerIntegrityError
from replay.canonical import canonical_json, plain_canonical_json
from replay.errors import MalformedError

from . import merkle


def leaf_entry(signed: Mapping[str, Any], *, plain: bool = False) -> bytes:
    """The entry bytes of a signed statement: canonical JSON of ``{"statement", "key", "sig"}``.

    ``plain``: the statement is part of a record known plain JSON
    (:attr:`replay.records.HandRecord.plain`), so its values are not walked again."""
    try:
        entry = {"statement": signed["statement"], "key": signed["key"], "sig": signed["sig"]}
        return plain_canonical_json(entry) if plain else canonical_json(entry)
    except (KeyError, TypeError):
        raise MalformedError("a signed statement needs 'statement', 'key' and 'sig'") from None


def leaf_entry_of(statement_json: bytes, key: str, sig: str) -> bytes:
    """:func:`leaf_entry` of ``{"statement": S, "key": key, "sig": sig}`` given
    ``statement_json = canonical_json(S)``, without serialising ``S`` a second time.

    The same bytes: canonical JSON writes an object's keys sorted (``key`` < ``sig`` <
    ``statement``) with ``,`` and ``:`` and each value in its own canonical form, so the
    entry is those three parts joined (``tests/tlog`` checks it against :func:`leaf_entry`)."""
    return b'{"key":' + canonical_json(key) + b',"sig":' + canonical_json(sig) + b',"statement":' + statement_json + b"}"


def leaf_entry_of_hex(statement_json: bytes, key: str, sig: str) -> bytes:
    """:func:`leaf_entry_of` for a ``key`` and ``sig`` in hex (as every signer here makes
    them): a hex string's canonical JSON is itself in quotes, so nothing is serialised.
    Anything but lower- or upper-case hex digits goes the general way."""
    if _HEX.fullmatch(key) is None or _HEX.fullmatch(sig) is None:
        return leaf_entry_of(statement_json, key, sig)
    return b'{"key":"' + key.encode() + b'","sig":"' + sig.encode() + b'","statement":' + statement_json + b"}"


_HEX = re.compile("[0-9a-fA-F]*")


#: the sibling-reading query of an append, by the number of siblings (:meth:`TransparencyLog._append`)
_SIBLINGS_SQL: dict[int, str] = {}


def _sibling_rows(index: int) -> list[int]:
    """The rows holding the left siblings that leaf ``index`` combines with, by level."""
    ends = []
    level = 0
    while (index >> level) & 1:
        ends.append(((index >> level) << level) - 1)
        level += 1
    return ends


_INSERT_LEAF = "INSERT INTO tlog_leaves (idx, leaf_hash, entry, nodes) VALUES (?, ?, ?, ?)"
_HASH_SIZE = merkle.HASH_SIZE


def append_leaf(conn: sqlite3.Connection, entry: bytes, index: int) -> int:
    """Append ``entry`` as leaf ``index`` with the subtrees it completes, in one row, inside
    the caller's open transaction (which rolls back as a whole on any error); ``index``.
    When the log's size is not ``index`` nothing is appended and the size is returned.

    The siblings those subtrees need are read in the same query as the size: the
    subtree of level ``l`` left of the new leaf ends at leaf ``(index with its low l bits
    cleared) - 1``, in that row's ``leaf_hash`` (``l = 0``) or ``nodes``.  The ledger calls
    this once per statement, so it is a function, not a method of an object made per append."""
    ends = _sibling_rows(index)
    sql = _SIBLINGS_SQL.get(len(ends))
    if sql is None:
        sql = _SIBLINGS_SQL[len(ends)] = (
            "SELECT max(idx), NULL, NULL FROM tlog_leaves"
            + "".join(" UNION ALL SELECT idx, leaf_hash, nodes FROM tlog_leaves WHERE idx = ?" for _ in ends))
    rows = conn.execute(sql, ends).fetchall()
    top = rows[0][0]
    size = 0 if top is None else top + 1
    if size != index:
        return size
    leaf = right = merkle.leaf_hash(entry)
    nodes = b""
    if ends:
        found = {row[0]: (row[1], row[2]) for row in rows[1:]}
        parts = []
        for level, end in enumerate(ends):
            row = found.get(end)
            left = None if row is None else (row[0] if level == 0 else row[1][_HASH_SIZE * (level - 1):
                                                                          _HASH_SIZE * level])
            if left is None or len(left) != _HASH_SIZE:
                raise LedgerIntegrityError(f"transparency log is missing subtree ({level}, {(index >> level) - 1})")
            right = merkle.node_hash(bytes(left), right)
            parts.append(right)
        nodes = b"".join(parts)
    conn.execute(_INSERT_LEAF, (index, leaf, entry, nodes))
    return index
