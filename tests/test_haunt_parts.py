"""A haunt plugin names the parts of the engine it reaches into (haunting/parts.py), and
the engine asks for one part at a time: a hook written in a part the plugin did not name
would never be called, so it is refused here."""

from __future__ import annotations

import inspect

import pytest

from bot.games.betrayal import loading
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.parts import PARTS, CombatHooks, MovementHooks, TurnHooks
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import haunted

loading.load()
HOOKS = {name: part for part in PARTS for name, _ in inspect.getmembers(part, inspect.isfunction)}


def written_hooks(cls: type) -> dict[str, type]:
    """The hooks this plugin class (or a base of its own, not a part) writes itself."""
    found: dict[str, type] = {}
    for klass in cls.__mro__:
        if klass in PARTS or klass in (base.HauntPlugin, object):
            continue
        for name in vars(klass):
            if name in HOOKS:
                found.setdefault(name, HOOKS[name])
    return found


@pytest.mark.parametrize("key", sorted(base.PLUGINS))
def test_a_plugin_writes_only_hooks_of_the_parts_it_names(key: str) -> None:
    plugin = base.PLUGINS[key]
    for name, part in written_hooks(type(plugin)).items():
        assert isinstance(plugin, part), (
            f"{key} writes {part.__name__}.{name} but does not name {part.__name__} "
            "among its bases: the engine would never call it")


def test_no_hook_is_in_two_parts() -> None:
    names = [name for part in PARTS for name, _ in inspect.getmembers(part, inspect.isfunction)]
    assert len(names) == len(set(names))


def test_the_core_plugin_holds_no_part_hook() -> None:
    assert not set(vars(base.HauntPlugin)) & set(HOOKS)


def test_the_engine_gets_the_plugin_for_a_part_it_names_and_the_default_otherwise() -> None:
    state: BetrayalState = haunted("the_mummy_walks", players=4, seed=3)
    plugin = base.for_state(state)
    assert isinstance(plugin, CombatHooks) and base.hooks(state, CombatHooks) is plugin
    assert base.hooks(state, TurnHooks) is plugin
    assert not isinstance(plugin, MovementHooks)
    neutral = base.hooks(state, MovementHooks)
    assert neutral is not plugin and type(neutral) is MovementHooks
    assert neutral.can_enter(state, 0, state.explorers[0].tile)
