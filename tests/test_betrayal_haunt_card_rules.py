"""Betrayal haunt: rules of seed 003's cards and rooms in a fight that the audit found
played wrong.

- A split room (the Catacombs, the Chasm, the Tower): no attack on the far side of its
  barrier, but a distance attack (the Revolver) may cross it.
- Smoke blocks sight like a wall: no shot into, through or out of its room.
- The Dynamite does nothing to a monster without Speed or without Might.
- The Bell: its 0-4 does nothing when its holder is the traitor; its 5+ leaves alone a
  hero an event keeps from acting.
- Every stun goes through one door (combat.stun) that the haunt answers: the Druidic
  Charm and the Toy Monkey stun the Mummy as a fight does (the Girl escapes, the nights
  start over), and Pennywise in The Ritual of Chüd is not stunned by the Charm.

Rigged states (tests/betrayal_haunt_rig.py), the dice scripted (`fixed`) in the order
they are rolled.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal import content, effects
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, sides
from bot.games.betrayal.haunting.base import MonsterKind
from bot.games.betrayal.haunting.plugins import the_mummy_walks as mw
from bot.games.betrayal.haunting.words import haunt_line
from bot.games.betrayal.house import tile_at
from bot.games.betrayal.state import BetrayalState, Monster
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import started
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    KINDS,
    LONGFELLOW,
    MISSY,
    act,
    attacks,
    choose,
    fixed,
    hold,
    labels,
    place,
    refusal,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    tile,
)
from tests.neibolt_rig import rig_house
from tests.test_betrayal_engine_helpers import apply, put

__all__ = ["fixed", "rig_plugin"]

SHOT = {"target": JENNY, "trait": "speed", "weapon": "revolver", "ranged": 1}


# ---------------------------------------------------------------- a split room's barrier

def _tower() -> BetrayalState:
    """Darrin (Speed 4, the Revolver) and the traitor Jenny in a Tower, on the two
    sides of its barrier (W and E)."""
    state = rigged(DARRIN)
    landing = state.tiles[tile(state, "upper_landing")]
    spot = next((x, landing.y + 9) for x in range(landing.x - 9, landing.x + 9)
                if tile_at(state, ("upper", x, landing.y + 9)) is None)
    tower = state.tile_of("tower")
    if tower is None:
        tower = put(state, "tower", "upper", *spot)
    for seat, side in ((DARRIN, "W"), (JENNY, "E")):
        state.explorers[seat].tile, state.explorers[seat].side = tower, side
    hold(state, DARRIN, "revolver")
    set_trait(state, DARRIN, "speed", 4)
    set_trait(state, JENNY, "speed", 4)
    return state


def test_the_revolver_shoots_across_a_split_rooms_barrier(fixed: list[int]) -> None:
    """Seed 003, the Catacombs, the Chasm and the Tower: 「人物不可轉交物件予(或襲擊，
    長程襲擊除外)另一端的人物」: one who has not crossed may not hand items to, nor
    attack, someone at the other end; a distance attack excepted. The shot is one from
    afar: it steals nothing, and a miss hurts no one."""
    state = _tower()
    assert attacks(state) == [SHOT]  # no Might attack across it, only the shot
    assert "Shoot Jenny LeClerc from afar: Speed (5 dice, with the Revolver)" in labels(state)
    fixed.extend([2] * 5 + [0] * 4)  # 10 against 0
    hit, _ = act(state, "attack", **SHOT)
    assert hit.pending is not None and hit.pending.kind == "damage_split"
    assert hit.pending.seat == JENNY
    fixed.extend([0] * 5 + [2] * 4)  # 0 against 8
    missed, events = act(state, "attack", **SHOT)
    assert any("misses; at that range nobody is hurt" in e for e in events)
    assert missed.pending is None


def test_no_fight_across_a_split_rooms_barrier_but_a_shot() -> None:
    """The same sentence: without a distance attack, nobody at the other end can be
    attacked; on the same side they fight as usual."""
    state = _tower()
    state.explorers[DARRIN].cards.clear()
    assert attacks(state) == []
    assert refusal(state, "attack", target=JENNY, trait="might")
    state.explorers[JENNY].side = "W"
    assert {"target": JENNY, "trait": "might"} in attacks(state)


# ---------------------------------------------------------------- Smoke

def _smoke(state: BetrayalState, room: str) -> None:
    state.tiles[tile(state, room)].tokens.append({"kind": "smoke", "card": "smoke"})


def _shooter(seat: int = DARRIN) -> BetrayalState:
    """`seat`'s turn: Darrin in the Entrance Hall with the Revolver; the Foyer and the
    Grand Staircase lie west of it, in a straight line through doors."""
    state = rigged(seat)
    place(state, "entrance_hall", DARRIN)
    hold(state, DARRIN, "revolver")
    set_trait(state, DARRIN, "speed", 4)
    return state


@pytest.mark.parametrize("jenny_in", ["grand_staircase", "foyer"])
def test_smoke_blocks_a_shot_into_or_through_its_room(jenny_in: str) -> None:
    """Seed 003, Smoke: 「這濃煙就如牆壁般阻隔視線。房間外的人物無法看到這房間內的事物」:
    the smoke blocks sight like a wall; no one outside the room sees into it."""
    state = _shooter()
    place(state, jenny_in, JENNY)
    assert attacks(state) == [SHOT]
    _smoke(state, "foyer")
    assert attacks(state) == []
    seen = combat.line_of_sight(state, tile(state, "entrance_hall"))
    assert tile(state, "foyer") not in seen and tile(state, "grand_staircase") not in seen


def test_smoke_blocks_a_shot_out_of_its_room_but_not_a_fight_in_it() -> None:
    """The same card, "like a wall": a wall stops sight both ways (our ruling), so no
    one in the smoke shoots out; a fight in the room needs no line of sight."""
    state = _shooter()
    place(state, "foyer", JENNY)
    _smoke(state, "entrance_hall")
    assert attacks(state) == []
    assert combat.line_of_sight(state, tile(state, "entrance_hall")) == []
    place(state, "entrance_hall", JENNY)
    assert {"target": JENNY, "trait": "speed", "weapon": "revolver"} in attacks(state)


def test_the_traitor_sees_through_the_smoke() -> None:
    """Seed 003, the haunt: the traitor is not affected by cards that do no damage, so
    the Smoke hides no one from it (as its dice leave the traitor's rolls alone)."""
    state = _shooter(JENNY)
    place(state, "grand_staircase", JENNY)
    state.explorers[DARRIN].cards.clear()
    hold(state, JENNY, "revolver")
    _smoke(state, "foyer")
    assert {"target": DARRIN, "trait": "speed", "weapon": "revolver",
            "ranged": 1} in attacks(state)


# ---------------------------------------------------------------- Dynamite

def test_the_dynamite_does_nothing_to_a_monster_without_speed_or_might(
        fixed: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003, Dynamite: 「炸藥爆炸對沒有速度Speed、沒有力量Might、或不受物理傷害的靈體
    怪物Incorporeal monster無效」: no effect on a monster without Speed, without Might,
    or incorporeal. Neither rolls; neither is stunned."""
    monkeypatch.setitem(KINDS, "statue", MonsterKind("statue", "Statue", {"might": 3},
                                                     "stun", "S"))
    monkeypatch.setitem(KINDS, "wisp", MonsterKind("wisp", "Wisp", {"speed": 1, "sanity": 4},
                                                   "stun", "W"))
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "dynamite")
    statue = spawn(state, "statue", "entrance_hall")
    wisp = spawn(state, "wisp", "entrance_hall")
    state, _ = act(state, "use", card="dynamite")
    fixed.extend([0, 0])  # were they to roll: blanks
    state, events = choose(state, "Entrance Hall")
    assert fixed == [0, 0] and state.pending is None
    for monster in (statue, wisp):
        found = sides.monster(state, f"m{monster.id}")
        assert found is not None and not found.stunned
        assert content.betrayal_line("events.dynamite_no_effect",
                                     monster=combat.monster_name(state, found)) in events


# ---------------------------------------------------------------- the Bell

def test_the_bell_does_nothing_on_0_to_4_when_the_traitor_rings_it(fixed: list[int]) -> None:
    """Seed 003, the Bell: 「骰數總和是0至4，奸徒可選擇移動任何數目的怪物往玩家的人物行一步。
    若這物件的持有人正是奸徒Traitor，則無效果」: on 0-4 the traitor may move monsters 1
    room toward the user; if the holder is the traitor, nothing happens."""
    state = rigged(JENNY)
    place(state, "foyer", JENNY)
    hold(state, JENNY, "bell")
    brute = spawn(state, "brute", "grand_staircase")
    set_trait(state, JENNY, "sanity", 4)
    fixed.extend([0] * 8)
    state, events = act(state, "use", card="bell")
    assert state.pending is None
    found = sides.monster(state, f"m{brute.id}")
    assert found is not None and found.tile == tile(state, "grand_staircase")
    assert content.betrayal_line("events.bell_traitor", who="Jenny LeClerc") in events


def test_the_bell_on_5_leaves_a_hero_held_fast_by_an_event(fixed: list[int]) -> None:
    """Seed 003, the Bell: 「骰數總和等於或大於5，玩家可選擇移動任何數目的英雄往玩家的人物
    移近一步。因特殊事件而無法行動者例外」: on 5+ move any heroes 1 room closer, except
    those who cannot act because of an event (Webs holds Missy)."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    place(state, "grand_staircase", MISSY)
    hold(state, DARRIN, "bell")
    set_trait(state, DARRIN, "sanity", 5)
    state.explorers[MISSY].lasting.append("webs")
    fixed.extend([2] * 8)
    state, _ = act(state, "use", card="bell")
    assert state.pending is not None and state.pending.labels == [
        "Professor Longfellow: Upper Landing → Grand Staircase", "That is all"]
    state, _ = choose(state, "Professor")
    assert state.explorers[MISSY].tile == tile(state, "grand_staircase")
    assert state.explorers[LONGFELLOW].tile == tile(state, "grand_staircase")


# ---------------------------------------------------------------- one door for every stun

def _mummy_with_the_girl() -> tuple[BetrayalState, Monster, int]:
    """The Mummy Walks: the Mummy carries the Girl in its tomb, one night spent; a hero
    (not the traitor) stands with it. Returns the state, the Mummy and that hero."""
    state, _ = started("the_mummy_walks", seed=2)
    assert state.haunt is not None
    mummy = mw.mummy(state)
    assert mummy is not None
    for explorer in state.explorers:
        if mw.GIRL in explorer.cards:
            explorer.cards.remove(mw.GIRL)
    state.omen_table.append(mw.GIRL)
    state.haunt.progress.update({"carried": True, "nights": 1})
    mummy.tile = int(state.haunt.progress["tomb"])
    mummy.stunned = mummy.skip = False
    hero = sides.heroes(state)[-1]
    state.explorers[hero].tile = mummy.tile
    state.explorers[hero].traits["speed"] = 4  # clear of the skull: the Charm's leaving costs 1
    state.turn.seat = hero
    state.pending = None
    state.script.clear()
    return state, mummy, hero


def _freed(state: BetrayalState, hero: int) -> None:
    assert state.haunt is not None
    assert not state.haunt.progress["carried"] and state.haunt.progress["nights"] == 0
    assert mw.girl_holder(state) == hero and mw.GIRL not in state.omen_table


def test_the_druidic_charm_stuns_the_mummy_as_a_fight_does() -> None:
    """The Mummy Walks' book (designed): "If it is stunned she escapes, and the nights
    start over"; "she goes to the hero who stunned it". Seed 003, the Druidic Charm:
    every monster in the room is stunned; a stun is a stun, whatever causes it."""
    state, mummy, hero = _mummy_with_the_girl()
    hold(state, hero, "druidic_charm")
    state, _ = apply(state, "use", hero, card="druidic_charm")
    found = mw.mummy(state)
    assert found is not None and found.stunned and found.id == mummy.id
    _freed(state, hero)


def test_the_toy_monkey_stuns_the_mummy_and_the_girl_runs_to_its_holder(
        fixed: list[int]) -> None:
    """The same book: the Toy Monkey's holder stunned the Mummy through its monkey
    (seed 003: the monkey attacks a monster with Speed 3), so she runs to that hero."""
    state, mummy, hero = _mummy_with_the_girl()
    ctx = Ctx(state)
    fixed.extend([2, 2, 2, 0, 0, 0])  # the monkey's 6 against the Mummy's 0
    combat.thing_strikes(ctx, hero, mummy, "Toy Monkey", "speed", 3, "toy_monkey", "item")
    effects.run(ctx)
    assert mummy.stunned
    _freed(state, hero)


def test_a_traitors_stun_frees_the_girl_to_the_hero_on_its_left() -> None:
    """Designed: when no hero stunned it (the traitor's own Charm), she still escapes,
    to the hero on the traitor's left, as when the haunt began."""
    state, mummy, _ = _mummy_with_the_girl()
    traitor = sides.traitor(state)
    assert traitor is not None
    ctx = Ctx(state)
    combat.stun(ctx, mummy, str(traitor))
    effects.run(ctx)
    _freed(state, sides.heroes(state)[0])


def test_pennywise_in_the_ritual_of_chud_is_not_stunned_by_the_charm() -> None:
    """Seed 000, scenario 4: "Pennywise cannot be stunned": not by a fight, nor by the
    Druidic Charm's flash (combat.stun asks the haunt: CombatHooks.can_stun)."""
    state = rig_house(rc.KEY, rc.pennywise, DARRIN, "foyer", {"darrin": "foyer"})
    assert state.haunt is not None
    state.haunt.progress.update({"shadows": 0, "card": DARRIN})
    hold(state, DARRIN, "druidic_charm")
    state, events = apply(state, "use", DARRIN, card="druidic_charm")
    clown = rc.pennywise(state)
    assert clown is not None and not clown.stunned
    name = combat.monster_name(state, clown)
    assert haunt_line("events.not_stunned", monster=name) in events
    assert haunt_line("events.stunned", monster=name) not in events
    assert isinstance(base.for_state(state), rc.TheRitualOfChud)
