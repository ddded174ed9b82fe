"""Every single mutation of a clean record is caught -- or proven harmless.

Two kinds of forger: one who edits the published JSON (signatures then break), and a
dishonest operator who edits and re-signs the record statement (only the replay and
the recomputation can catch it).
"""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from audit.operator.sim.tamper import _resign_record, TamperContext
from audit.auditor.verdict.verify import audit_record
from replay.canonical import canonical_json
from replay.stream import Stream


def leaves(value: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaves(v, path + (k,))]
    if isinstance(value, list):
        out = [path] if value else []
        return out + [p for i, v in enumerate(value) for p in leaves(v, path + (i,))]
    return [path]


def get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


def mutate(rec: dict, path: tuple, how: int) -> None:
    parent, key = get(rec, path[:-1]), path[-1]
    value = parent[key]
    if isinstance(value, list):
        if how % 2 and len(value) > 1:
            value[0], value[-1] = value[-1], value[0]
        else:
            del value[how % len(value)]
    elif isinstance(value, bool):
        parent[key] = not value
    elif isinstance(value, int):
        parent[key] = value + (1 if how % 2 else -1)
    elif isinstance(value, str):
        if not value:
            parent[key] = "x"
        else:
            i = how % len(value)
            c = value[i]
            repl = "0123456789abcdef"[(int(c, 16) + 1) % 16] if c in "0123456789abcdef" else ("A" if c != "A" else "B")
            parent[key] = value[:i] + repl + value[i + 1:]
    elif value is None:
        parent[key] = 0


HARMLESS_WHEN_RESIGNED = ("time",)  # a move's time is the operator's claim; nothing in the game depends on it
# A hand's place in its table and the pot it carries in are checked across the table's
# hands (tests/audit/test_audit_tables.py), not within one record.
TABLE_LEVEL = ("hand_no", "pot_before")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_of_the_published_json_is_caught(kitti_archive, data):
    rec = copy.deepcopy(kitti_archive[2][1][0])
    path = data.draw(st.sampled_from(leaves(rec)))
    mutate(rec, path, data.draw(st.integers(0, 1000)))
    if canonical_json(rec) == canonical_json(kitti_archive[2][1][0]):
        return  # the mutation changed nothing
    assert not audit_record(rec).ok, path


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_dishonest_operator_who_resigns_is_caught(kitti_archive, data):
    ledger, _, records = kitti_archive
    original = records[3][0]
    rec = copy.deepcopy(original)
    candidates = [p for p in leaves(rec) if p[0] in ("moves", "outcome", "table", "ruleset", "fairness")
                  and p[:2] != ("fairness", "statements")]
    path = data.draw(st.sampled_from(candidates))
    mutate(rec, path, data.draw(st.integers(0, 1000)))
    assume(canonical_json(rec) != canonical_json(original))
    _resign_record(rec, TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "m")))
    verdict = audit_record(rec)
    if path[-1] in HARMLESS_WHEN_RESIGNED or path[-1] == "auto" and get(original, path) is True:
        return  # proven harmless: the game does not depend on it
    if path[-1] in TABLE_LEVEL:
        return  # caught by the table audit instead

    assert not verdict.ok, path
