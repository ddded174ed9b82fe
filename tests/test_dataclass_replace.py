"""replay.dataclass_replace.replace behaves as dataclasses.replace."""
from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest
from hypothesis import given, strategies as st

from replay.dataclass_replace import _layout, replace


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: tuple = ()
    c: str | None = None
    d: object = field(default=None, compare=False)


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple = ()
    c: str | None = None


@dataclass(frozen=True)
class Checked:
    a: int
    b: int = 0

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class NotInit:
    a: int
    b: int = field(default=7, init=False)


@dataclass(frozen=True, kw_only=True)
class KwOnly:
    a: int
    b: int = 0


@dataclass(frozen=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1
    b: int = 0


@pytest.mark.parametrize("cls", [Slotted, Plain])
@given(a=st.integers(), b=st.lists(st.integers(), max_size=3).map(tuple), c=st.none() | st.text(max_size=3),
       change=st.sets(st.sampled_from(["a", "b", "c"])))
def test_same_as_dataclasses_replace(cls, a, b, c, change):
    obj = cls(a, b, c)
    new = {"a": a + 1, "b": b + (0,), "c": "x" if c is None else None}
    changes = {k: new[k] for k in change}
    mine, theirs = replace(obj, **changes), dataclasses.replace(obj, **changes)
    assert type(mine) is cls
    assert mine == theirs
    assert [getattr(mine, f.name) for f in dataclasses.fields(cls)] == \
           [getattr(theirs, f.name) for f in dataclasses.fields(cls)]
    assert mine is not obj
    assert obj == cls(a, b, c)  # the original is untouched


def test_fields_not_compared_are_copied_too():
    marker = object()
    assert replace(Slotted(1, d=marker), a=2).d is marker


def test_post_init_still_runs():
    assert replace(Checked(1), a=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), a=-1)


def test_unknown_field_is_a_type_error():
    with pytest.raises(TypeError):
        replace(Slotted(1), nope=3)
    with pytest.raises(TypeError):
        dataclasses.replace(Slotted(1), nope=3)


@pytest.mark.parametrize("obj, changes", [(NotInit(1), {"a": 2}), (KwOnly(a=1), {"b": 2}),
                                          (WithInitVar(1, 2), {"a": 3, "scale": 1})])
def test_other_layouts_fall_back_to_dataclasses_replace(obj, changes):
    assert _layout(type(obj)) is None
    assert replace(obj, **changes) == dataclasses.replace(obj, **changes)


def test_the_engines_states_use_the_fast_layout():
    from replay.marriage.state import RoundState, SeatState
    from replay.rummy.engine import RummyState

    for cls in (RoundState, SeatState, RummyState):
        assert _layout(cls) is not None, cls
