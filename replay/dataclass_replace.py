"""``replace`` for the engines' frozen state values: :func:`dataclasses.replace`, faster.

The game engines never mutate a state: every move returns a new frozen dataclass made by
replacing a few fields of the old one.  A replay makes two or three such copies per move,
and :func:`dataclasses.replace` -- which looks up every field's metadata and passes every
value by keyword on each call -- was the largest single cost of replaying a Marriage or
Rummy hand.  This :func:`replace` reads a class's field layout once, then copies the values
in one C-level getter call and builds the new value through the class's own ``__init__``
with positional arguments.  ``__init__`` (so any ``__post_init__`` check) still runs,
exactly as with :func:`dataclasses.replace`.

Classes it cannot copy this way (a field with ``init=False``, keyword-only fields, or an
``InitVar``) are handed to :func:`dataclasses.replace` unchanged.
"""
from __future__ import annotations

import dataclasses
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


@cache
def _layout(cls: type[DataclassInstance]) -> tuple[dict[str, int], Callable[[object], tuple[object, ...]]] | None:
    """Each field's position in ``__init__`` and a getter of all values, or ``None``."""
    fields = dataclasses.fields(cls)
    if len(fields) < 2 or any(not f.init or f.kw_only for f in fields):
        return None
    init_names = [name for name in cls.__init__.__code__.co_varnames[1:cls.__init__.__code__.co_argcount]]
    names = [f.name for f in fields]
    if init_names != names:  # an InitVar (or anything else) takes a place in __init__
        return None
    return {name: i for i, name in enumerate(names)}, attrgetter(*names)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes`` (``dataclasses.replace``)."""
    cls = type(obj)
    layout = _layout(cls)
    if layout is None:
        return dataclasses.replace(obj, **changes)
    index, values_of = layout
    values = list(values_of(obj))
    for name, value in changes.items():
        try:
            values[index[name]] = value
        except KeyError:
            raise TypeError(f"{cls.__name__} has no field {name!r}") from None
    return cls(*values)
