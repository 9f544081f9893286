"""Rigged haunt states for the tests of the rules seed 003 gives every haunt (combat,
death, monsters, turn order, the cards' haunt halves).

`rigged()` starts from a real haunt (`haunted("pay_the_piper")`, tests/
betrayal_haunt_helpers.py), then swaps in the `rigged` haunt: no setup, no winner of
its own (the engine still ends a game with no living hero), and three monster kinds
to test with. Every explorer is emptied of cards and put in the Upper Landing; the
tests move them about the three start rooms of the ground floor, which always lie in a
line joined by doors: the Grand Staircase (W), the Foyer, the Entrance Hall (E, with
no door east). The `fixed` fixture scripts the dice wherever they are rolled.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bot.games.betrayal import GAME, content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, monsters
from bot.games.betrayal.haunting.base import HauntData, HauntPlugin, MonsterKind
from bot.games.betrayal.house import Layout, free_spots
from bot.games.betrayal.state import HEROES, TRAITOR, BetrayalState, Monster, Turn
from tests.betrayal_haunt_helpers import haunted
from tests.test_betrayal_engine_helpers import apply, choose, hold, put, script_dice

RIGGED = "rigged"
MISSY, LONGFELLOW, JENNY, DARRIN = 0, 1, 2, 3  # seed 1's house: Jenny is the traitor
HEROES_IN_ORDER = [DARRIN, MISSY, LONGFELLOW]  # from the traitor's left
KINDS = {
    "brute": MonsterKind("brute", "Brute", {"speed": 3, "might": 5}, "stun", "B"),
    "rat": MonsterKind("rat", "Rat", {"speed": 4, "might": 2}, "kill", "R"),
    "ghost": MonsterKind("ghost", "Ghost", {"speed": 2, "sanity": 4}, "stun", "G"),
}


class Rigged(HauntPlugin):
    """A haunt with nothing of its own: only seed 003's rules for every haunt."""

    key = RIGGED
    data = HauntData(RIGGED, "Rigged", True, KINDS, {}, {}, {}, {}, {},  # type: ignore[assignment]
                     {"monsters": {"ghost": {"incorporeal": True}}})


@pytest.fixture(autouse=True)
def rig_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base.PLUGINS, RIGGED, Rigged())


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The shared scripted dice (test_betrayal_engine_helpers.script_dice)."""
    return script_dice(monkeypatch)


# Where the explorers' trait clips stand (indexes on their tracks) in the rig the tests
# are written against: set before the haunt begins, so they do not hang on what AI play
# did to them in seed 1's house, and Jenny, with the lowest Sanity, is Pay the Piper's
# traitor.
CLIPS = {
    MISSY: {"speed": 2, "might": 3, "sanity": 2, "knowledge": 3},
    LONGFELLOW: {"speed": 1, "might": 2, "sanity": 3, "knowledge": 4},
    JENNY: {"speed": 4, "might": 4, "sanity": 2, "knowledge": 2},
    DARRIN: {"speed": 4, "might": 2, "sanity": 3, "knowledge": 3},
}


def _known_traits(state: BetrayalState) -> None:
    for seat, clips in CLIPS.items():
        state.explorers[seat].traits.update(clips)


@cache
def _base() -> BetrayalState:
    return haunted("pay_the_piper", seed=1, prepare=_known_traits)


def rigged(seat: int = DARRIN) -> BetrayalState:
    """The rigged haunt, at the start of `seat`'s turn (a hero's or the traitor's)."""
    state = GAME.copy_state(_base())
    assert state.haunt is not None and state.haunt.traitor == JENNY
    state.haunt.key = RIGGED
    state.haunt.progress = {}
    state.monsters = []
    state.script.clear()
    state.pending = None
    landing = tile(state, "upper_landing")
    for explorer in state.explorers:
        explorer.tile, explorer.side = landing, None
        explorer.cards.clear()
        explorer.lasting.clear()
    for t in state.tiles:
        t.items.clear()
    turn_of(state, seat)
    return state


def turn_of(state: BetrayalState, seat: int) -> None:
    assert state.haunt is not None
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    state.haunt.stage = TRAITOR if seat == state.haunt.traitor else HEROES


def tile(state: BetrayalState, room: str) -> int:
    found = state.tile_of(room)
    assert found is not None, room
    return found


def place(state: BetrayalState, room: str, *seats: int) -> int:
    where = tile(state, room)
    for seat in seats:
        state.explorers[seat].tile = where
    return where


def joined(state: BetrayalState, room: str, floor: str) -> int:
    """The room's tile; one not in seed 1's house is put where exploring could have put
    it (joined to a door of `floor`), so a test does not hang on what AI play found."""
    found = state.tile_of(room)
    if found is not None:
        return found
    (where, x, y), rotation = free_spots(Layout.of(state), room, floor)[0]
    return put(state, room, where, x, y, rotation)


def spawn(state: BetrayalState, kind: str, room: str) -> Monster:
    return monsters.spawn(Ctx(state), kind, tile(state, room), quiet=True)


def set_trait(state: BetrayalState, seat: int, trait: str, value: int) -> None:
    """Put the clip on the first step of the track that shows `value`."""
    values = content.explorer(state.explorers[seat].key).traits[trait].values
    state.explorers[seat].traits[trait] = values.index(value)


def trait(state: BetrayalState, seat: int, name: str) -> int:
    from bot.games.betrayal import traits

    return traits.value(state, seat, name)


# The engine tests' rig: hand over cards without their on_gain, play an action and
# read its lines, answer a choice by index or by label.
act = apply
__all__ = ["act", "choose", "hold"]


def labels(state: BetrayalState) -> list[str]:
    seat = GAME.to_act(state)
    assert seat is not None
    return [o.label for o in GAME.options(state, seat)]


def attacks(state: BetrayalState) -> list[dict[str, Any]]:
    seat = GAME.to_act(state)
    assert seat is not None
    return [dict(o.action.args) for o in GAME.options(state, seat) if o.action.kind == "attack"]


def refusal(state: BetrayalState, kind: str, **args: Any) -> str:
    from bot.core.errors import IllegalAction

    with pytest.raises(IllegalAction) as err:
        act(state, kind, **args)
    return str(err.value)
