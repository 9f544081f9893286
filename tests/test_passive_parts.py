"""A card's or room's passive names the parts of the game it watches (cards/__init__.py:
RollPassive, DamagePassive, TurnPassive, HandPassive, RoomPassive, SightPassive), and the
engine asks only the passives of the part it is in: a hook written in a part the passive
did not name would never be called, so it is refused here."""

from __future__ import annotations

import inspect

import pytest

from bot.games.betrayal import hooks, loading
from bot.games.betrayal.cards import (
    PASSIVE_PARTS,
    PASSIVES,
    DamagePassive,
    HandPassive,
    Passive,
    RollPassive,
    TurnPassive,
)

loading.load()
HOOKS = {name: part for part in PASSIVE_PARTS
         for name, _ in inspect.getmembers(part, inspect.isfunction)
         if name in vars(part)}


def written_hooks(cls: type) -> dict[str, type]:
    found: dict[str, type] = {}
    for klass in cls.__mro__:
        if klass in PASSIVE_PARTS or klass in (Passive, object):
            continue
        for name in vars(klass):
            if name in HOOKS:
                found.setdefault(name, HOOKS[name])
    return found


@pytest.mark.parametrize("name", sorted(PASSIVES))
def test_a_passive_writes_only_hooks_of_the_parts_it_names(name: str) -> None:
    passive = PASSIVES[name]
    for hook, part in written_hooks(type(passive)).items():
        assert isinstance(passive, part), (
            f"{name} writes {part.__name__}.{hook} but does not name {part.__name__}")


def test_no_hook_is_in_two_parts_and_the_base_holds_none() -> None:
    names = [n for part in PASSIVE_PARTS for n in vars(part) if callable(vars(part)[n])]
    assert len(names) == len(set(names)) >= 26
    assert not {n for n in vars(Passive) if callable(vars(Passive)[n])} & set(HOOKS)


def test_the_finders_yield_only_the_part_asked_for() -> None:
    """The Rope watches damage (it shields) and the room rules, not the dice."""
    rope = PASSIVES["rope"]
    assert isinstance(rope, DamagePassive) and not isinstance(rope, RollPassive)
    assert hooks.named("rope", DamagePassive) is rope
    with pytest.raises(TypeError):
        hooks.named("rope", RollPassive)
    assert isinstance(PASSIVES["armor"], HandPassive)
    assert not isinstance(PASSIVES["armor"], TurnPassive)
