"""The run's AuditPolicy at the parallel hand-off: one value that pickles, and the policy
every worker audits with is exactly the one the run was given."""
from __future__ import annotations

import base64
import json
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from audit.auditor.run.auditstate import StateCheck
from audit.auditor.run.parallel import (Handoff, audit_parallel, audit_partition, audit_partitions_dask,
                                        audit_partitions_local, dask_client, partitions)
from audit.auditor.run.runner import audit_items
from audit.auditor.sources.reader import iter_source, write_jsonl
from audit.auditor.verdict.audit_policy import AuditPolicy
from audit.auditor.verdict.trust import TrustAnchor
from audit.operator.ledger import Ledger
from audit.operator.sim.tables import simulate_table
from audit.operator.sim.tamper import TamperContext, tamper
from audit.tlog.policy import parse_policy
from replay.stream import Stream

ROOT = Path(__file__).resolve().parents[2]
POLICY_TEXT = json.loads((ROOT / "fixtures" / "policy" / "cases.json").read_text(encoding="utf-8"))["valid"][0]["text"]
OTHER_KEY = "ab" * 32


def report_bytes(report) -> bytes:
    return json.dumps(report.to_json(), sort_keys=True).encode()


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """One Kitti table of five hands, one of them with an inflated payout."""
    ledger = Ledger(":memory:")
    ledger.new_operator("demo-operator")
    records: list[dict] = []
    simulate_table(ledger, preset="kitti", players=3, hands=5, seed="handoff", table_id="kH",
                   on_record=lambda r, k: records.append(r))
    ctx = TamperContext(ledger.signing_key("demo-operator"), Stream(bytes(32), bytes(32), "handoff"))
    records[2] = tamper(records[2], "inflated_payout", ctx)
    path = tmp_path_factory.mktemp("handoff") / "archive.jsonl"
    write_jsonl(records, path)
    return path


def full_policy(**changes) -> AuditPolicy:
    terms = AuditPolicy(trust=TrustAnchor(OTHER_KEY, "pinned", "example.com/log"), policy=parse_policy(POLICY_TEXT),
                        strict=True, check_signatures=True, state=StateCheck(None))
    return replace(terms, **changes)


def test_an_audit_policy_round_trips_through_pickle():
    terms = full_policy()
    back = pickle.loads(pickle.dumps(terms))
    assert replace(back, state=None) == replace(terms, state=None)
    assert back.policy.sha256 == terms.policy.sha256 and back.trust == terms.trust and back.key == OTHER_KEY
    assert isinstance(back.state, StateCheck) and back.state.stored is None
    bare = AuditPolicy(public_key=OTHER_KEY.upper(), strict=True)
    assert pickle.loads(pickle.dumps(bare)) == bare


def test_each_task_gets_the_policy_without_the_log_and_with_a_fresh_state():
    terms = full_policy(log="the shippable view")
    handoff = Handoff(terms, findings={"h1": ()})
    args, kwargs = handoff.task(("items",))
    assert args[0] == ("items",) and kwargs == {"findings": {"h1": ()}}
    sent = args[1]
    assert replace(sent, state=None) == replace(terms, log=None, state=None)
    assert isinstance(sent.state, StateCheck) and sent.state is not terms.state
    assert handoff.log == "the shippable view"
    assert handoff.task(("items",), log="shared", other=None)[1] == {"findings": {"h1": ()}, "log": "shared"}
    assert Handoff().task(()) == (((), AuditPolicy()), {})


def probe(items, terms=None, **kwargs):
    """A partition task that audits, and reports the policy it was given (pickled)."""
    report = audit_partition(items, terms, **kwargs)
    seen = (replace(terms, state=None), type(terms.state).__name__, sorted(kwargs))
    report.add_error("probe", base64.b64encode(pickle.dumps(seen)).decode())
    return report


def policies_seen(report) -> list:
    return [pickle.loads(base64.b64decode(f["faults"][0]["message"]))
            for f in report.to_json()["failures"] if f["where"] == "probe"]


def test_local_workers_audit_with_exactly_the_policy_given(archive):
    terms = full_policy(state=None)
    parts = list(partitions(iter_source(str(archive)), 2))
    report = audit_partitions_local(iter(parts), workers=2, handoff=Handoff(terms), task=probe)
    assert policies_seen(report) == [(terms, "NoneType", [])] * len(parts)
    with_state = full_policy()
    report = audit_partitions_local(iter(parts), workers=2, handoff=Handoff(with_state), task=probe)
    assert policies_seen(report) == [(replace(with_state, state=None), "StateCheck", [])] * len(parts)


def test_dask_workers_audit_with_exactly_the_policy_given(archive):
    pytest.importorskip("distributed")
    terms = full_policy(state=None)
    parts = list(partitions(iter_source(str(archive)), 2))
    client = dask_client("local:1")
    try:
        report = audit_partitions_dask(iter(parts), client, handoff=Handoff(terms), task=probe)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert policies_seen(report) == [(terms, "NoneType", [])] * len(parts)


@pytest.mark.parametrize("terms", [
    AuditPolicy(trust=TrustAnchor(OTHER_KEY, "pinned")),
    AuditPolicy(trust=TrustAnchor(OTHER_KEY, "pinned"), strict=True),
    AuditPolicy(public_key=OTHER_KEY.upper(), check_signatures=True),
    AuditPolicy(strict=True),
], ids=["pinned", "pinned-strict", "bare-key-signatures", "strict"])
def test_a_parallel_audit_judges_under_the_policy_given(archive, terms):
    single = audit_items(iter_source(str(archive)), terms)
    parallel = audit_parallel(str(archive), terms, workers=2, chunk_size=2)
    assert report_bytes(parallel) == report_bytes(single)
    assert report_bytes(single) != report_bytes(audit_items(iter_source(str(archive))))  # the policy made a difference
    if terms.key is not None:  # a key the operator did not sign with: every record fails
        assert parallel.failed == parallel.total == 5
