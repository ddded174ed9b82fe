"""The append path's shortcuts give the same bytes as the general functions.

``statement_json`` skips canonical JSON's walk for a statement of scalar values only;
``append_leaf`` is the log's append without an object per statement.  Both are checked
against the general forms on generated values and on every statement of real lifecycles.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from audit.operator.ledger.statements import statement_json
from audit.tlog import merkle
from audit.tlog.store import TransparencyLog, leaf_entry
from replay.canonical import canonical_json
from replay.errors import MalformedError

from ledger_testkit import advance, new_ledger


class _Text(str):
    """A subclass: canonical JSON's general path decides its bytes."""


keys = st.text(max_size=12)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=20),
                    st.text(max_size=5).map(_Text))
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(keys, scalars, max_size=3))


@settings(max_examples=400, deadline=None)
@given(stmt=st.dictionaries(keys, values, max_size=10))
def test_statement_json_is_canonical_json(stmt):
    assert statement_json(stmt) == canonical_json(stmt)


@pytest.mark.parametrize("bad", [{"amount": 0.5}, {"nested": [1.5]}, {1: "x"}])
def test_statement_json_refuses_what_canonical_json_refuses(bad):
    with pytest.raises(MalformedError, match=r"^\$(\.amount|\.nested\[0\])?: (floats are not allowed in canonical JSON; use a decimal string|object keys must be strings)$") as general:
        canonical_json(bad)
    with pytest.raises(MalformedError) as fast:
        statement_json(bad)
    assert str(fast.value) == str(general.value)


def test_every_stored_statement_is_its_canonical_json_and_its_log_leaf(tmp_path):
    ledger = new_ledger(tmp_path / "tiplu.db")
    for h in range(5):  # 5 x 13 statements: log sizes across several levels of subtrees
        advance(ledger, f"h{h}", "reveal")
    ledger.new_hand("t1", ["a", "b", "c", "d"], hand_id="gone")
    ledger.cancel("gone", reason="a seat left")
    log = TransparencyLog(ledger.db, migrate=False)
    tree = merkle.MemoryTree()
    stored = list(ledger.statements())
    assert len(stored) == log.size() == 5 * 13 + 2
    for st_ in stored:
        text = ledger.db.execute("SELECT statement FROM statements WHERE seq = ?", [st_.seq]).fetchone()[0]
        assert text.encode() == canonical_json(st_.signed["statement"])
        assert log.entry(st_.seq - 1) == leaf_entry(st_.signed)
        tree.append_leaf_hash(merkle.leaf_hash(leaf_entry(st_.signed)))
    for size in range(1, log.size() + 1):  # RFC 9162 roots and proofs, as the whole tree gives them
        assert log.root(size) == tree.root(size)
        assert log.inclusion_proof(size // 2, size) == tree.inclusion_proof(size // 2, size)
    log.check()
    ledger.close()
