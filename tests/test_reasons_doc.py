"""Every fault reason is documented and ranked: docs/records.md's table of reasons names each
:class:`replay.faults.Reason` once (and nothing else), and its root-cause ranking puts each
reason in the layer :func:`replay.faults.group_faults` sorts it into (issue 31)."""
from __future__ import annotations

import pathlib
import re

from replay.faults import Fault, Reason, _layer

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")


def table_reasons() -> list[str]:
    table = DOC.split("| reason | what does not hold |", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M)


def documented_layers() -> dict[str, int]:
    text = DOC.split("Each fault belongs to a layer:", 1)[1].split("Taken in", 1)[0]
    layers: dict[str, int] = {}
    for number, names in re.findall(r"\((\d)\)(.*?)(?=\(\d\)|$)", text, flags=re.S):
        for name in re.findall(r"`([a-z_]+)`", names):
            assert name not in layers, f"{name} is in two layers"
            layers[name] = int(number)
    return layers


def test_every_reason_has_one_row_in_the_table_of_reasons():
    rows = table_reasons()
    assert sorted(rows) == sorted(r.value for r in Reason)
    assert len(rows) == len(set(rows))


def test_every_reason_is_ranked_in_the_layer_the_code_sorts_it_into():
    layers = documented_layers()
    assert set(layers) == {r.value for r in Reason}
    for reason in Reason:
        assert layers[reason.value] == _layer(Fault(reason, "x"))[0], reason.value
