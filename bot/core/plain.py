"""Deep copies of a game state that is plain data: dataclasses, lists, dicts, tuples,
strings, numbers, booleans and None, nothing else.

Every `apply` copies the state first so that a refused action leaves it untouched.
The copy used to be a round trip through the stored form (`load(dump(state))`), but
`dataclasses.asdict` deep-copies every leaf through `copy.deepcopy` and costs more
than the rules themselves (about 1 ms for a house of 47 tiles). This builds the
same thing directly: each dataclass again with its fields copied, each container
anew, each immutable leaf shared. Anything else is refused (a set, an object), as the
store would refuse it, so the copy still proves the state stays plain data.
tests/test_plain_copy.py checks it against the round trip on random states of every
game.

`as_dicts` is `dataclasses.asdict` for the same data, for the same reason: a state's
`to_dict` runs on every save, and asdict costs about 1 ms on a 47-tile house.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_LEAVES: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[tuple[str, ...], bool]] = {}  # class -> fields, filled directly?


def copy_plain(value: T) -> T:
    """A deep copy of plain data; TypeError on anything that is not plain."""
    return _copy(value)  # type: ignore[no-any-return]


def as_dicts(value: Any) -> Any:
    """`dataclasses.asdict` of plain data (each dataclass a dict of its fields, every
    container new); TypeError on anything that is not plain."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _LEAVES else as_dicts(v) for v in value] if value else []
    if kind is dict:
        return {k: v if type(v) in _LEAVES else as_dicts(v)
                for k, v in value.items()} if value else {}
    if kind in _LEAVES:
        return value
    if kind is tuple:
        return tuple(v if type(v) in _LEAVES else as_dicts(v) for v in value)
    names = (_FIELDS.get(kind) or _fields_of(kind))[0]
    made: dict[str, Any] = {}
    # As `_copy`'s loop: leaves and empty containers need no call.
    for name in names:
        v = getattr(value, name)
        of = type(v)
        if of in _LEAVES:
            made[name] = v
        elif of is list and not v:
            made[name] = []
        elif of is dict and not v:
            made[name] = {}
        else:
            made[name] = as_dicts(v)
    return made


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [v if type(v) in _LEAVES else _copy(v) for v in value] if value else []
    if kind is dict:
        return {k: v if type(v) in _LEAVES else _copy(v)
                for k, v in value.items()} if value else {}
    if kind in _LEAVES:
        return value
    if kind is tuple:
        return tuple(v if type(v) in _LEAVES else _copy(v) for v in value)
    names, direct = _FIELDS.get(kind) or _fields_of(kind)
    if not direct:
        return _construct(kind, value)
    # Filled in without __init__ (several times cheaper): the fields are copied from an
    # object __init__ already built, and the class has no __post_init__ to run again.
    made = object.__new__(kind)
    was = value.__dict__
    now = made.__dict__
    # A loop, not a comprehension (a frame of its own), with each leaf and empty
    # container made here: most of a state's fields (a tile's room, floor, place and
    # turn, its empty tokens and items) need no call.
    for name in names:
        v = was[name]
        of = type(v)
        if of in _LEAVES:
            now[name] = v
        elif of is list and not v:
            now[name] = []
        elif of is dict and not v:
            now[name] = {}
        else:
            now[name] = _copy(v)
    return made


def _construct(kind: type, value: Any) -> Any:
    """A copy made through the class's own __init__ (a __post_init__, slots)."""
    found = fields(kind)
    made = kind(**{f.name: _copy(getattr(value, f.name)) for f in found if f.init})
    for f in found:
        if not f.init:
            object.__setattr__(made, f.name, _copy(getattr(value, f.name)))
    return made


def _fields_of(kind: type) -> tuple[tuple[str, ...], bool]:
    """A dataclass's field names, and whether its copies may skip __init__; TypeError
    for anything that is not a dataclass."""
    if not is_dataclass(kind):
        raise TypeError(f"not plain data: {kind.__name__}")
    found = fields(kind)
    direct = all(f.init for f in found) and not hasattr(kind, "__slots__") \
        and not hasattr(kind, "__post_init__")
    shape = (tuple(f.name for f in found), direct)
    _FIELDS[kind] = shape
    return shape
