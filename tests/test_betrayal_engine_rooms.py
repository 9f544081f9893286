"""Betrayal engine: every room with a rule (seed 003, rooms 513-626)."""

from __future__ import annotations

import pytest

from bot.games.betrayal import content, traits
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.house import DIRS, Layout, through_door
from bot.games.betrayal.state import BetrayalState
from tests import betrayal_haunt_rig as rig
from tests.betrayal_haunt_rig import rig_plugin
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
)

__all__ = ["dice", "rig_plugin"]


# ---------------------------------------------------------------- leaving

LEAVE = [  # room, floor, x, y, rotation, the door out, trait rolled, target, trait lost
    ("attic", "upper", 0, -1, 0, "S", "speed", 3, "might"),
    ("graveyard", "ground", 0, -1, 0, "S", "sanity", 4, "knowledge"),
    ("junk_room", "ground", 0, -1, 0, "S", "might", 3, "speed"),
    ("pentagram_chamber", "basement", -1, 0, 0, "E", "knowledge", 4, "sanity"),
]


@pytest.mark.parametrize(("room", "floor", "x", "y", "rot", "door", "trait", "target", "lost"),
                         LEAVE)
def test_leave_rolls(dice, room, floor, x, y, rot, door, trait, target,  # type: ignore[no-untyped-def]
                     lost) -> None:
    state = new_game()
    put(state, room, floor, x, y, rot)
    at(state, OX, room)
    start = state.explorers[OX].traits[lost]
    dice.extend([0] * 8)
    failed, events = apply(state, "move", dir=door)
    assert failed.explorers[OX].tile != tile(state, room)  # out either way
    assert failed.explorers[OX].traits[lost] == start - 1
    assert any(f"rolls {trait.capitalize()}" in e for e in events)
    dice[:] = [2] * 8
    passed, _ = apply(state, "move", dir=door)
    assert passed.explorers[OX].traits[lost] == start


def test_the_medallion_spares_its_holder() -> None:
    state = new_game()
    put(state, "pentagram_chamber", "basement", -1, 0)
    at(state, OX, "pentagram_chamber")
    hold(state, OX, "medallion")
    state, events = apply(state, "move", dir="E")
    assert not any("rolls" in e for e in events)
    put(state, "crypt", "basement", 1, 0, rotation=3)  # doors W N
    at(state, OX, "crypt")
    state, events = apply(state, "end_turn")
    assert not any("damage" in e for e in events)


# ---------------------------------------------------------------- ending a turn

@pytest.mark.parametrize(("room", "floor", "trait"), [
    ("chapel", "ground", "sanity"), ("gymnasium", "basement", "speed"),
    ("larder", "basement", "might"), ("library", "ground", "knowledge")])
def test_once_per_explorer_gains(room: str, floor: str, trait: str) -> None:
    state = new_game()
    put(state, room, floor, 7, 7)
    at(state, OX, room)
    at(state, MISSY, room)
    before = state.explorers[OX].traits[trait]
    state, _ = apply(state, "end_turn")
    assert state.explorers[OX].traits[trait] == before + 1
    assert state.explorers[OX].benefits == [room]
    state.turn.seat = OX
    state, events = apply(state, "end_turn")
    assert state.explorers[OX].traits[trait] == before + 1
    assert any("already drawn strength" in e for e in events)
    state.turn.seat = MISSY
    missy = state.explorers[MISSY].traits[trait]
    state, _ = apply(state, "end_turn")
    assert state.explorers[MISSY].traits[trait] == missy + 1  # once per explorer


@pytest.mark.parametrize(("room", "floor", "trait"), [
    ("chapel", "ground", "sanity"), ("gymnasium", "basement", "speed"),
    ("larder", "basement", "might"), ("library", "ground", "knowledge")])
def test_a_gain_at_the_top_of_the_track_is_no_benefit(room: str, floor: str,
                                                      trait: str) -> None:
    """Seed 003, Chapel (Gymnasium, Larder, Library): 當人物完結其遊戲回合時仍留在這房間，其
    神志即上升1個級別。每名人物只可得益於這房間一次 [an explorer ending its turn here gains 1
    Sanity; each explorer may benefit from this room once]. At the top of its track the
    explorer gains nothing, so it has not benefited yet: a later turn here, lower, gains."""
    state = new_game()
    put(state, room, floor, 7, 7)
    at(state, OX, room)
    state.explorers[OX].traits[trait] = traits.TOP
    state, events = apply(state, "end_turn")
    assert state.explorers[OX].traits[trait] == traits.TOP
    assert any("already at its highest" in e for e in events)
    assert state.explorers[OX].benefits == []
    state.explorers[OX].traits[trait] = 2
    state.turn.seat = OX
    state, _ = apply(state, "end_turn")
    assert state.explorers[OX].traits[trait] == 3
    assert state.explorers[OX].benefits == [room]


@pytest.mark.parametrize(("room", "kind"), [("crypt", "mental"), ("furnace_room", "physical")])
def test_end_of_turn_damage(room: str, kind: str) -> None:
    state = new_game()
    put(state, room, "basement", 5, 5)
    at(state, OX, room)
    state, _ = apply(state, "end_turn")
    assert state.pending and f"1 {kind} damage" in state.pending.prompt
    state, _ = choose(state, 0)
    assert state.turn.seat != OX


# ---------------------------------------------------------------- split rooms

@pytest.mark.parametrize(("room", "floor", "trait", "target"), [
    ("catacombs", "basement", "sanity", 6), ("chasm", "basement", "speed", 3),
    ("tower", "upper", "might", 3)])
def test_crossing_a_split_room(dice, room: str, floor: str, trait: str,  # type: ignore[no-untyped-def]
                               target: int) -> None:
    state = new_game()
    split = put(state, room, floor, 0, 5, rotation=1 if room == "catacombs" else 0)
    put(state, "creaky_hallway", floor, -1, 5)
    put(state, "dusty_hallway", floor, 1, 5)
    state.explorers[OX].tile = split
    state.explorers[OX].side = "W"
    found = labels(state)
    assert "Move west to the Creaky Hallway" in found  # the near door: no roll
    assert f"Move east to the Dusty Hallway (cross first: {trait.capitalize()} {target}+)" \
        in found
    dice.extend([0] * 8)
    stuck, events = apply(state, "move", dir="E")
    assert stuck.explorers[OX].tile == split
    assert any("can move no further" in e for e in events)
    # Holding nothing, he has nothing left to do: his turn ends by itself
    # (docs/rulings.md, Turns 12).
    assert any("nothing left to do" in e for e in events) and stuck.turn.seat != OX
    dice[:] = [2] * 8
    across, _ = apply(state, "move", dir="E")
    assert across.explorers[OX].tile == tile(state, "dusty_hallway")
    assert across.explorers[OX].side is None


def test_entering_a_split_room_puts_you_by_your_door() -> None:
    state = new_game()
    put(state, "chasm", "ground", 1, 0)  # doors E W, joined to the hall's... nothing
    put(state, "tower", "ground", 0, -1, rotation=1)  # doors S N: joins the hall's N
    state, _ = apply(state, "move", dir="N")
    assert state.explorers[OX].side == "S"


# ---------------------------------------------------------------- the Vault

def test_the_vault_opens_on_knowledge_six(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    vault = put(state, "vault", "basement", 0, -1, rotation=2)  # door S onto the landing
    at(state, OX, "vault", side="S")
    assert "Try to open the Vault (Knowledge 6+)" in labels(state)
    dice.extend([2, 2, 1])
    shut, events = apply(state, "act", what="vault")
    assert any("stays shut" in e for e in events)
    assert "Try to open the Vault (Knowledge 6+)" not in labels(shut)  # once a turn
    deck_top(state, "item", "axe", "rope")
    dice.extend([2, 2, 2])
    opened, _ = apply(state, "act", what="vault")
    assert opened.explorers[OX].cards == ["axe", "rope"]
    assert opened.tiles[vault].flags["vault_empty"]
    assert "vault_empty" in [t["kind"] for t in opened.tiles[vault].tokens]
    opened.turn.rolls = []
    assert not any("Vault" in label for label in labels(opened))


def test_the_skeleton_key_opens_the_vault() -> None:
    state = new_game()
    put(state, "vault", "basement", 0, -1, rotation=2)
    at(state, OX, "vault", side="S")
    hold(state, OX, "skeleton_key")
    state, events = apply(state, "act", what="vault")
    assert not any("rolls" in e for e in events)
    assert len(state.explorers[OX].cards) == 3


# ---------------------------------------------------------------- the Collapsed Room

def test_the_collapsed_room_drops_its_discoverer(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    stack_top(state, "collapsed_room", "wine_cellar")
    deck_top(state, "item", "axe")
    dice.extend([0, 0, 0, 0])  # Ox's Speed 4: under 5
    state, events = apply(state, "explore", dir="N")
    while state.pending and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    collapsed, cellar = tile(state, "collapsed_room"), tile(state, "wine_cellar")
    assert state.tiles[cellar].floor == "basement"
    assert "below_collapsed" in [t["kind"] for t in state.tiles[cellar].tokens]
    assert state.tiles[collapsed].flags["below"] == cellar
    assert state.explorers[OX].tile == cellar
    assert "axe" in state.explorers[OX].cards  # the Wine Cellar's item, drawn on landing
    assert any("gives way" in e for e in events)


def test_the_collapsed_room_s_fall_hurts_before_the_room_below_is_found(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Collapsed Room: 否則人物墜落至地下，並需擲骰1顆…肉體損傷。若人物墜落至地下，
    如同探險般…翻出一個房間 -- the faller takes 1 die of physical damage, and the basement
    room it lands in is found as when exploring. The damage comes first: the Armor drawn
    in the room below does not soak it."""
    state = new_game()
    stack_top(state, "collapsed_room", "wine_cellar")
    deck_top(state, "item", "armor")
    before = dict(state.explorers[OX].traits)
    dice.extend([0, 0, 0, 0, 2])  # Ox's Speed 4: under 5; the fall's die: 2
    state, events = apply(state, "explore", dir="N")
    while state.pending:
        state, more = choose(state, 0)
        events += more
    assert state.explorers[OX].tile == tile(state, "wine_cellar")
    assert "armor" in state.explorers[OX].cards
    lost = sum(before[t] - state.explorers[OX].traits[t] for t in before)
    assert lost == 2  # the whole die: the Armor came after
    ox = content.explorer(state.explorers[OX].key).name
    hurt = events.index(content.betrayal_line("events.damage", who=ox, amount=2,
                                              damage=content.damage_name("physical")))
    found = next(i for i, e in enumerate(events) if content.room("wine_cellar").name in e)
    assert hurt < found


def test_the_collapsed_room_holds_a_quick_explorer(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    stack_top(state, "collapsed_room")
    dice.extend([2, 2, 1, 0])
    state, _ = apply(state, "explore", dir="N")
    assert state.explorers[OX].tile == tile(state, "collapsed_room")
    assert "below" not in state.tiles[tile(state, "collapsed_room")].flags


# ---------------------------------------------------------------- the Mystic Elevator

def _elevator_north_of_the_hall(state):  # type: ignore[no-untyped-def]
    return put(state, "mystic_elevator", "ground", 0, -1, rotation=2)  # door S


@pytest.mark.parametrize(("faces", "floor"), [([1, 0], "basement"), ([1, 1], "ground"),
                                              ([2, 1], "upper")])
def test_the_elevator_goes_where_the_dice_say(dice, faces: list[int],  # type: ignore[no-untyped-def]
                                              floor: str) -> None:
    state = new_game()
    elevator = _elevator_north_of_the_hall(state)
    dice.extend(faces)
    state, _ = apply(state, "move", dir="N")
    while state.pending and state.pending.kind.startswith("elevator"):
        state, _ = choose(state, 0)
    assert state.tiles[elevator].floor == floor
    assert state.explorers[OX].tile == elevator and state.turn.elevator
    assert Layout.of(state).is_open("ground") and Layout.of(state).is_open(floor)


def test_the_elevator_on_a_four_goes_to_any_floor(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    elevator = _elevator_north_of_the_hall(state)
    dice.extend([2, 2])
    state, _ = apply(state, "move", dir="N")
    floors = {label.split(":")[0] for label in state.pending.labels}
    assert floors == {"upper floor", "ground floor", "basement"}
    state, _ = choose(state, "upper floor")
    assert state.tiles[elevator].floor == "upper"


def test_the_elevator_on_a_zero_shakes_everyone_inside(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    elevator = _elevator_north_of_the_hall(state)
    state.explorers[MISSY].tile = elevator
    dice.extend([0, 0, 1, 1])
    state, events = apply(state, "move", dir="N")
    assert state.tiles[elevator].floor == "ground" and any("jolts" in e for e in events)
    assert state.pending and state.pending.kind == "damage_split"
    seats = {state.pending.seat}
    state, _ = choose(state, 0)
    seats.add(state.pending.seat)
    assert seats == {OX, MISSY}


def test_the_elevator_moves_once_a_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    elevator = _elevator_north_of_the_hall(state)
    state.turn.elevator = True
    state, events = apply(state, "move", dir="N")
    assert state.tiles[elevator].floor == "ground" and not any("rolls" in e for e in events)


def test_the_elevator_never_closes_a_floor(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    elevator = _elevator_north_of_the_hall(state)
    for room, x, y, rot in (("storeroom", 0, -1, 2), ("pentagram_chamber", 1, 0, 2),
                            ("stairs_from_basement", 0, 1, 2)):
        put(state, room, "basement", x, y, rot)  # the landing's only open door: west
    assert Layout.of(state).open_doors("basement") == [(("basement", 0, 0), "W")]
    dice.extend([1, 0])  # basement: the elevator would seal it
    state, events = apply(state, "move", dir="N")
    assert state.tiles[elevator].floor == "ground" and any("nowhere to go" in e for e in events)


# ---------------------------------------------------------------- in the haunt

def _monster_tile(state: BetrayalState, monster: int) -> int:
    found = sides.monster(state, f"m{monster}")
    assert found is not None
    return found.tile


def test_a_monster_a_card_moved_into_the_coal_chute_slides_as_the_turn_ends() -> None:
    """Seed 003, Coal Chute: 回合完結時，任何人物/怪物皆不可停留在煤導槽 [as a turn ends, no
    explorer or monster may stay in the Coal Chute]. The Spirit Board's haunt half moves
    a Rat from the Basement Landing up into the chute on a hero's turn; as that turn
    ends, the Rat slides back down (the monsters' own turn does the same)."""
    state = rig.rigged(rig.DARRIN)
    chute = rig.joined(state, "coal_chute", "ground")
    state.explorers[rig.DARRIN].tile = next(
        t for d in DIRS if (t := through_door(state, chute, d)) is not None)
    rat = rig.spawn(state, "rat", "basement_landing")
    rig.hold(state, rig.DARRIN, "spirit_board")
    state, _ = apply(state, "use", card="spirit_board")
    state, _ = choose(state, "Rat: Basement Landing → Coal Chute")  # the traitor moves it
    assert _monster_tile(state, rat.id) == chute
    state, events = apply(state, "end_turn")
    assert _monster_tile(state, rat.id) == tile(state, "basement_landing")
    assert any("slides down to the Basement Landing" in e for e in events)


def test_leaving_by_a_free_way_still_pays_for_the_opponents_in_the_room() -> None:
    """Seed 003, moving: 房中每有一名敵手，人物則必須多耗用1點速度離開房間 [for each opponent
    in the room, one spends 1 more Speed to leave it]. The Rope's climb costs no Speed
    (使用繩索…無需耗用人物的速度), but two Rats in the Basement Landing still cost 2 to
    leave it; and, slowed or not, the first room of a turn can always be entered."""
    state = rig.rigged(rig.DARRIN)
    chute = rig.joined(state, "coal_chute", "ground")
    rig.place(state, "basement_landing", rig.DARRIN)
    rig.hold(state, rig.DARRIN, "rope")
    for _ in range(2):
        rig.spawn(state, "rat", "basement_landing")
    rig.set_trait(state, rig.DARRIN, "speed", 6)
    climb = "Climb the Rope up to the Coal Chute"
    state.turn.moves = 5  # 5 + 2 > 6: no way out of the rats
    assert climb not in rig.labels(state)
    state.turn.moves = 4
    state, _ = apply(state, "move", via="rope_chute", to=chute)
    assert state.explorers[rig.DARRIN].tile == chute and state.turn.moves == 6
    state = rig.rigged(rig.DARRIN)
    rig.joined(state, "coal_chute", "ground")
    rig.place(state, "basement_landing", rig.DARRIN)
    rig.hold(state, rig.DARRIN, "rope")
    for _ in range(8):
        rig.spawn(state, "rat", "basement_landing")
    assert climb in rig.labels(state)  # the first move of the turn: always one room


def test_a_hero_the_opponents_hold_back_is_told_so() -> None:
    """Seed 003, moving: 房中每有一名敵手，人物則必須多耗用1點速度離開房間 [each opponent in
    the room costs 1 more Speed to leave it]. A hero with Speed left for a room, but not
    for the two Rats with it, is told that the opponents cost the Speed it lacks, not
    that the open door is no way."""
    state = rig.rigged(rig.DARRIN)
    rig.place(state, "foyer", rig.DARRIN)
    for _ in range(2):
        rig.spawn(state, "rat", "foyer")
    rig.set_trait(state, rig.DARRIN, "speed", 4)
    state.turn.moves = 2  # 2 + 1 + 2 Rats > 4
    said = rig.refusal(state, "move", dir="E")
    assert said == ("You don't have the Speed for that: leaving costs 1 more for each "
                    "opponent here (2 opponents, 2 Speed left).")
