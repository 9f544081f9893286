"""The rooms whose rules steps cannot say (rooms.yaml `custom:`), from seed 003.

Stairs and chutes are links; split rooms have a crossing roll; the Mystic Elevator,
the Collapsed Room and the Underground Lake place tiles; the Vault has a voluntary
roll. Leave rolls (Attic, Graveyard, Junk Room, Pentagram Chamber), end-of-turn
damage (Crypt, Furnace Room) and once-per-explorer gains (Chapel, Gymnasium, Larder,
Library) are plain steps in rooms.yaml, run by movement.py and turn.py.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, hooks
from bot.games.betrayal.cards import (
    Link,
    Offer,
    RoomPassive,
    TurnPassive,
    handler,
    passive,
    resumer,
)
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, step
from bot.games.betrayal.explore import CELL_LIMIT, cell_label, explore_like, rotation_label
from bot.games.betrayal.haunting import base, monsters, sides
from bot.games.betrayal.haunting.parts import MovementHooks
from bot.games.betrayal.house import (
    ROOTS,
    Layout,
    cell_of,
    free_spots,
    reached,
    rotated_doors,
)
from bot.games.betrayal.links import BELOW_COLLAPSED as BELOW
from bot.games.betrayal.links import link_cells, token_side
from bot.games.betrayal.movement import place_explorer
from bot.games.betrayal.state import BetrayalState, Frame

JUMP_DAMAGE: tuple[dict[str, Any], ...] = ({"damage": {"kind": "physical", "dice": 1}},)


def has_rope(state: BetrayalState, seat: int) -> bool:
    return seat >= 0 and hooks.holds_custom(state, seat, "rope") is not None


def _pair_link(state: BetrayalState, tile: int, a: str, b: str, up: str,
               down: str) -> list[Link]:
    """Two rooms joined both ways by stairs: from `a` take `up` to `b`, and back."""
    here = state.tiles[tile].room
    other = b if here == a else a if here == b else None
    target = state.tile_of(other) if other else None
    if target is None:
        return []
    return [Link(up if here == a else down, target)]


@passive("grand_staircase_link")
class GrandStaircase(RoomPassive):
    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        return _pair_link(state, tile, "grand_staircase", "upper_landing", "stairs_up",
                          "stairs_down")


@passive("basement_stairs_link")
class BasementStairs(RoomPassive):
    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        return _pair_link(state, tile, "foyer", "stairs_from_basement", "hidden_stairs_down",
                          "hidden_stairs_up")


@passive("coal_chute")
class CoalChute(TurnPassive, RoomPassive):
    """One way down to the Basement Landing, free (seed 003: 人物可從煤導槽移到地下室，卻不可
    從地下室移到煤導槽。由煤導槽滑落至下臺階不會耗用速度): the slide is a link, taken or not.
    Entering does not slide you: you may slide, or go back out by its door with the
    Speed left. But no one stays here as any turn ends (回合完結時，任何人物/怪物皆不可停留
    在煤導槽): turn.py runs this `end_turn` at every explorer's turn end wherever the
    explorer is, and whoever is still here, explorer or monster (a card may have moved
    them in), slides down then; the monsters' own turn slides them too
    (haunting/monsters.py, `leave_chutes`)."""

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        landing = state.tile_of("basement_landing")
        return [] if landing is None else [Link("chute", landing, cost=0)]

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        for other, explorer in enumerate(ctx.state.explorers):
            if explorer.alive and explorer.tile == ref:
                self._slide(ctx, other)
        monsters.leave_chutes(ctx)

    def _slide(self, ctx: Ctx, seat: int) -> None:
        landing = ctx.state.tile_of("basement_landing")
        if landing is None:
            return
        ctx.say("links.chute", kind="move", who=ctx.who(seat),
                source=ctx.room_name(ctx.state.explorers[seat].tile),
                target=ctx.room_name(landing), data={"seat": seat, "to": landing})
        place_explorer(ctx, seat, landing, via="chute")


@passive("gallery")
class Gallery(RoomPassive):
    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        ballroom = state.tile_of("ballroom")
        if ballroom is None:
            return []
        if has_rope(state, seat):
            return [Link("rope_down", ballroom, cost=0)]
        return [Link("gallery_jump", ballroom, steps=JUMP_DAMAGE)]


@passive("collapsed_room")
class CollapsedRoom(RoomPassive):
    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        below = state.tiles[tile].flags.get("below")
        if below is None:
            return []
        # One lands by the Below Collapsed Room token: in a split room, by its door.
        arrive = token_side(state, int(below), BELOW)
        if has_rope(state, seat):
            return [Link("rope_down", int(below), cost=0, arrive=arrive)]
        return [Link("collapsed_jump", int(below), steps=JUMP_DAMAGE, arrive=arrive)]


@handler("collapsed_room_fall")
def collapsed_room_fall(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The floor gives way: a new basement room is found as if explored, the explorer
    lands in it, and it is marked Below Collapsed Room. The fall's damage runs before
    this step (rooms.yaml), so nothing drawn in the room below can soften it. With no
    basement room left to place, the explorer lands in the Basement Landing, marked
    instead (RULING, as seed 003 does for monsters)."""
    here = ctx.state.explorers[frame.seat].tile
    ctx.say("events.fall", who=ctx.who(frame.seat), room=ctx.room_name(here))
    frame.steps.insert(0, {"_below_link": {"from": here}})
    explore_like(frame, "basement", token=BELOW,
                 fallback=[{"_fall_landing": {"from": here}}])


@step("_below_link")
def _below_link(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    placed = frame.vars.get("placed")
    if placed is not None and any(t["kind"] == BELOW
                                  for t in ctx.state.tiles[int(placed)].tokens):
        ctx.state.tiles[int(arg["from"])].flags["below"] = int(placed)


@step("_fall_landing")
def _fall_landing(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    landing = ctx.state.tile_of("basement_landing")
    if landing is None:
        return
    ctx.state.tiles[landing].tokens.append({"kind": BELOW, "card": ""})
    ctx.state.tiles[int(arg["from"])].flags["below"] = landing
    place_explorer(ctx, frame.seat, landing, forced=True)


@passive("underground_lake")
class UndergroundLake(RoomPassive):
    def placement_floor(self, state: BetrayalState, floor: str) -> str | None:
        return "basement"


class SplitRoom(RoomPassive):
    trait = ""
    target = 0

    def crossing(self) -> tuple[str, int] | None:
        return (self.trait, self.target)


@passive("catacombs")
class Catacombs(SplitRoom):
    trait, target = "sanity", 6


@passive("chasm")
class Chasm(SplitRoom):
    trait, target = "speed", 3


@passive("tower")
class Tower(SplitRoom):
    trait, target = "might", 3


@passive("vault")
class Vault(TurnPassive):
    """Knowledge 6+ (a voluntary roll, once a turn) opens it: draw 2 items, and it stays
    open and empty. The Skeleton Key opens it without a roll."""

    def actions(self, state: BetrayalState, seat: int, ref: Any) -> list[Offer]:
        tile = state.tiles[ref]
        if state.explorers[seat].tile != ref or tile.flags.get("vault_empty"):
            return []
        key = hooks.holds_custom(state, seat, "skeleton_key")
        if key:
            return [Offer("vault", content.betrayal_line("labels.vault_key"), {"key": key})]
        return [Offer("vault", content.betrayal_line("labels.vault"))]

    def act(self, ctx: Ctx, seat: int, offer: Offer, ref: Any) -> None:
        opened = [{"_vault_open": {"tile": ref}}]
        if offer.data.get("key"):
            ctx.say("events.vault_key", who=ctx.who(seat))
            ctx.push(opened, seat, "vault", "room")
            return
        ctx.push([{"roll": {"trait": "knowledge", "outcomes": [
            {"min": 6, "do": opened},
            {"max": 5, "do": [{"_say": {"key": "events.vault_shut"}}]}]}}], seat, "vault", "room")


@step("_vault_open")
def _vault_open(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    tile = ctx.state.tiles[int(arg["tile"])]
    tile.flags["vault_empty"] = True
    tile.tokens.append({"kind": "vault_empty", "card": ""})
    ctx.say("events.vault_open", who=ctx.who(frame.seat))
    ctx.push_child(frame, [{"draw": {"deck": "item", "count": 2}}])


@step("_say")
def _say(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    ctx.say(str(arg["key"]), who=ctx.who(frame.seat))


# ---------------------------------------------------------------- the Mystic Elevator

ELEVATOR_FLOORS: dict[int, tuple[str, ...]] = {
    4: ("upper", "ground", "basement"), 3: ("upper",), 2: ("ground",), 1: ("basement",),
}


@passive("mystic_elevator")
class MysticElevator(TurnPassive):
    """Entering sends it off, once a turn: 2 dice pick the floor (4 any, 3 upper,
    2 ground, 1 basement); 0: it stays and everyone inside takes 1 die of physical
    damage. It is placed as if explored; a move that would close a floor (the one it
    leaves or the one it joins) is not made (seed 003 FAQ)."""

    def entered(self, ctx: Ctx, seat: int, tile: int, ref: Any) -> None:
        if ctx.state.turn.elevator:
            return
        ctx.state.turn.elevator = True
        if sides.is_traitor(ctx.state, seat) and not ctx.state.over:
            # seed 003: the traitor chooses the result instead of rolling (haunt_cards.py)
            ctx.push([{"_elevator_choose": {"tile": tile}}], seat, "mystic_elevator", "room")
            return
        ctx.push([{"roll": {"dice": 2, "then": [{"_elevator": {"tile": tile}}]}}], seat,
                 "mystic_elevator", "room")


def elevator_spots(state: BetrayalState, tile_id: int,
                   floors: tuple[str, ...]) -> list[list[Any]]:
    """Each spot the tile may go to, as [cell as a list, rotation]: lists, never tuples,
    since the spots wait in the script for a choice and must come back from the store
    as they went in."""
    tile = state.tiles[tile_id]
    here = cell_of(tile)
    layout = Layout.of(state)
    lifted = layout.without(here)
    roots = [cell_of(t) for t in state.tiles if t.room in ROOTS or content.room(t.room).start]
    links = [pair for pair in link_cells(state) if here not in pair]
    if not lifted.is_open(tile.floor) or not reached(lifted, tile.floor, roots, links) >= \
            reached(layout, tile.floor, roots, links) - {here}:
        return []  # RULING: it never leaves a floor closed, nor a room cut off
    spots = []
    for floor in floors:
        for cell, r in free_spots(lifted, tile.room, floor):
            if (cell, r) != (here, tile.rotation) and lifted.open_with(
                    cell, rotated_doors(tile.room, r), tile.floor):
                spots.append([list(cell), r])
    return spots


@step("_elevator")
def _elevator(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    total, tile_id = int(frame.vars.get("roll", 0)), int(arg["tile"])
    if total == 0:
        ctx.say("events.elevator_jolt")
        for seat, e in enumerate(state.explorers):
            if e.tile == tile_id and e.alive:
                ctx.push([{"damage": {"kind": "physical", "dice": 1}}], seat,
                         "mystic_elevator", "room")
        return
    floors = base.hooks(state, MovementHooks).elevator_floors(state, total,
                                                   ELEVATOR_FLOORS[min(total, 4)])
    spots = elevator_spots(state, tile_id, floors)
    if not spots:
        ctx.say("events.elevator_stays")
        return
    frame.steps.insert(0, {"_elevator_spot": {"tile": tile_id, "spots": spots}})


@step("_elevator_spot")
def _elevator_spot(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    spec = dict(arg)
    spots = spec["spots"]
    if len(spots) == 1:
        frame.steps.insert(0, {"_elevator_move": {"tile": spec["tile"], "spot": spots[0]}})
        return
    room = state.tiles[spec["tile"]].room
    floors = list(dict.fromkeys(c[0] for c, _ in spots))
    if len(spots) > CELL_LIMIT and len(floors) > 1:
        spec["floors"] = floors
        pause(ctx, frame, {"_elevator_spot": spec}, "elevator_floor",
              content.betrayal_line("prompts.elevator"),
              [content.betrayal_line(f"floors.{f}") for f in floors])
        return
    labels = [content.betrayal_line("labels.spot_floor",
                                    floor=content.betrayal_line(f"floors.{c[0]}"),
                                    cell=cell_label(state, tuple(c)), rotation=rotation_label(room,
                                                                                              r))
              for c, r in spots]
    pause(ctx, frame, {"_elevator_spot": spec}, "elevator_spot",
          content.betrayal_line("prompts.elevator"), labels)


@resumer("elevator_floor")
def _elevator_floor(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_elevator_spot"]
    floor = spec.pop("floors")[pick]
    spec["spots"] = [s for s in spec["spots"] if s[0][0] == floor]


@resumer("elevator_spot")
def _elevator_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_elevator_spot"]
    frame.steps.insert(0, {"_elevator_move": {"tile": spec["tile"], "spot": spec["spots"][pick]}})


@step("_elevator_move")
def _elevator_move(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    tile = ctx.state.tiles[int(arg["tile"])]
    (floor, x, y), rotation = arg["spot"]
    tile.floor, tile.x, tile.y, tile.rotation = floor, int(x), int(y), int(rotation)
    ctx.say("events.elevator_moves", floor=content.betrayal_line(f"floors.{floor}"),
            cell=cell_label(ctx.state, (floor, int(x), int(y))),
            data={"tile": int(arg["tile"]), "floor": floor})
