"""Exploring: drawing room tiles, turning and placing them, and what a discovery draws.

Seed 003: look at the top of the room stack; a tile for another floor is discarded,
and so is one that would leave the floor with no door open to unexplored space; the
first that fits is placed, turned as the explorer likes so that a door joins the room
it came from. When the stack runs out, the discards are shuffled into a new stack. A
new room's card symbol draws its card, and then the explorer's movement is over.

If every tile left would close the floor, the first that fits is placed anyway and the
house is rearranged as little as possible (house.last_resort). The same drawing and
placing serve the rooms that land elsewhere (`explore_like`: a fall through the
Collapsed Room, the Underground Lake, cards that put you in a new room).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from bot.core.events import DETAIL
from bot.games.betrayal import content, editions, hooks, house
from bot.games.betrayal.cards import PASSIVES, RoomPassive, resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, step
from bot.games.betrayal.haunting import base
from bot.games.betrayal.haunting.parts import MovementHooks
from bot.games.betrayal.house import (
    DIRS,
    Cell,
    Layout,
    cell_of,
    explore_rotations,
    free_spots,
    opposite,
    rotated_doors,
)
from bot.games.betrayal.links import link_cells
from bot.games.betrayal.movement import arrival_side, place_explorer
from bot.games.betrayal.state import BetrayalState, Frame, Tile
from bot.texts import listed

# The kind of the line that tells a room is found: the story counts each seat's by it.
DISCOVER = "discover"

CELL_LIMIT = 20  # more spots than this: pick the doorway first, then the turn


def placement_floor(state: BetrayalState, room: str, floor: str) -> str:
    """The floor a room found from `floor` goes on (the Underground Lake: the basement;
    the running haunt may say otherwise: `HauntPlugin.explore_floor`)."""
    forced = base.hooks(state, MovementHooks).explore_floor(state, room, floor)
    if forced is not None:
        return forced
    passive = PASSIVES.get(content.room(room).custom)
    other = passive.placement_floor(state, floor) if isinstance(passive, RoomPassive) else None
    return other or floor


def unplaced(state: BetrayalState) -> list[str]:
    return [*state.stack, *state.room_discard]


def fits(state: BetrayalState, room: str, floor: str, cell: Cell | None, towards: str | None,
         keep_open: bool = True, layout: Layout | None = None) -> bool:
    """Can this tile, found from `floor`, be placed: at `cell` facing back `towards`
    (exploring), or anywhere on its floor (cell None)? `layout`: the house's
    (`Layout.of(state)`), when the caller weighs many tiles against it."""
    forced = base.hooks(state, MovementHooks).explore_floor(state, room, floor)
    if forced is None and floor not in content.room(room).floors:
        return False
    target = placement_floor(state, room, floor)
    if layout is None:
        layout = Layout.of(state)
    if target != floor or cell is None or towards is None:
        return bool(free_spots(layout, room, target, keep_open))
    return bool(explore_rotations(layout, room, cell, towards, floor if keep_open else None))


def can_explore(state: BetrayalState, seat: int, d: str) -> bool:
    """A door of the explorer's room opens on an empty cell, and some tile can go there."""
    return can_explore_from(state, state.explorers[seat].tile, d)


def can_explore_from(state: BetrayalState, tile_id: int, d: str) -> bool:
    if d not in house.doors(state.tiles[tile_id]):
        return False  # `_can_explore_from`'s first answer, before the house is looked up
    return _can_explore_from(state, tile_id, d, Layout.of(state), unplaced(state))


def explorable(state: BetrayalState, seat: int, layout: Layout | None = None) -> list[str]:
    """The sides `can_explore` allows the explorer, in N, E, S, W order: the house and
    the unplaced tiles looked up once for its room's doors, not once a door (each
    listing of the actions, the prompt's and a click's check, asks of every door).
    `layout`: the house's (`Layout.of(state)`), when the caller has it already."""
    tile_id = state.explorers[seat].tile
    sides = house.doors(state.tiles[tile_id])
    ways = [d for d in DIRS if d in sides]
    if not ways:
        return []
    layout, rooms = layout or Layout.of(state), unplaced(state)
    return [d for d in ways if _can_explore_from(state, tile_id, d, layout, rooms)]


def frontier(state: BetrayalState) -> set[int]:
    """Rooms with a door someone could explore through (where the AI heads for), the
    house and the unplaced tiles looked up once for all of them."""
    rooms = unplaced(state)
    if not rooms:
        return set()
    layout = Layout.of(state)
    return {t for t in range(len(state.tiles))
            if any(_can_explore_from(state, t, d, layout, rooms) for d in DIRS)}


def _can_explore_from(state: BetrayalState, tile_id: int, d: str, layout: Layout,
                      rooms: list[str]) -> bool:
    tile = state.tiles[tile_id]
    if d not in house.doors(tile):
        return False
    cell = house.step(cell_of(tile), d)
    if cell in layout.cells:
        return False
    # The house looked up once for every tile weighed (for each door of the explorer's
    # room, on every listing of its actions), not once a tile.
    return any(fits(state, r, tile.floor, cell, opposite(d), keep_open=False, layout=layout)
               for r in rooms)


def draw_room(ctx: Ctx, good: Callable[[str], bool]) -> str | None:
    """Draw from the top, discarding tiles that are not `good`, reshuffling the discards
    when the stack runs out; None when no tile left anywhere is good. The tile found
    stays on top of the stack (face up, as it were) until it is placed, so every tile
    is always somewhere: the house, the stack or the discards."""
    state = ctx.state
    if not any(good(r) for r in unplaced(state)):
        return None
    discarded: list[str] = []
    while True:
        if not state.stack:
            state.stack, state.room_discard = state.room_discard, []
            state.rng.shuffle(state.stack)
            ctx.say("events.stack_reshuffled", count=len(state.stack))
        key = state.stack[0]
        if good(key):
            if discarded:
                ctx.say("events.tiles_discarded", kind=DETAIL, rooms=listed(
                    [content.room(r).name for r in discarded]), count=len(discarded))
            return key
        state.room_discard.append(state.stack.pop(0))
        discarded.append(key)


# ---------------------------------------------------------------- exploring through a door

@step("_explore")
def _explore(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    state.turn.moves += 1  # exploring is entering a room
    origin = state.tiles[int(arg["from"])]
    d = str(arg["dir"])
    cell, towards, floor = house.step(cell_of(origin), d), opposite(d), origin.floor
    ctx.say("events.explore", kind="explore", who=ctx.who(frame.seat),
            dir=content.betrayal_line(f"dirs.{d}"), room=content.room(origin.room).name)
    last_resort = False
    key = draw_room(ctx, lambda r: fits(state, r, floor, cell, towards))
    if key is None:
        last_resort = True
        key = draw_room(ctx, lambda r: fits(state, r, floor, cell, towards, keep_open=False))
    if key is None:
        ctx.say("events.no_tile", floor=content.betrayal_line(f"floors.{floor}"))
        return
    target = placement_floor(state, key, floor)
    if target != floor:
        ctx.say("events.lands_elsewhere", room=content.room(key).name,
                floor=content.betrayal_line(f"floors.{target}"))
        frame.steps.insert(0, {"_place_spot": {"room": key, "floor": target}})
        return
    rotations = explore_rotations(Layout.of(state), key, cell, towards,
                                  None if last_resort else floor)
    spec = {"room": key, "cell": list(cell), "towards": towards, "rotations": rotations,
            "last_resort": last_resort}
    if len(rotations) == 1:
        place_tile(ctx, frame.seat, key, cell, rotations[0], towards, last_resort)
        return
    pause(ctx, frame, {"_place": spec}, "rotate",
          content.betrayal_line("prompts.rotate", room=content.room(key).name),
          [rotation_label(key, r) for r in rotations])


def rotation_label(room: str, rotation: int) -> str:
    """A turning's button: its doors' sides, each side a word of the language spoken
    (the cells beside it say theirs: "north of the Kitchen")."""
    doors = rotated_doors(room, rotation)
    return content.betrayal_line("labels.rotation", doors=listed(
        [content.betrayal_line(f"door_dirs.{d}") for d in DIRS if d in doors]))


@resumer("rotate")
def _rotate(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_place"]
    place_tile(ctx, frame.seat, spec["room"], tuple(spec["cell"]), spec["rotations"][pick],
               spec["towards"], spec["last_resort"])


def place_tile(ctx: Ctx, seat: int, room: str, cell: Cell, rotation: int,
               arrive: str | None, last_resort: bool = False, move_in: bool = True) -> int:
    """Put a new tile in the house; the explorer walks in and the discovery runs:
    the room's `on_discover`, then its card symbol, then entering it."""
    state = ctx.state
    floor, x, y = cell
    if room in state.stack:
        state.stack.remove(room)
    state.tiles.append(Tile(room, floor, x, y, rotation))
    state.quiet_turns = 0
    tile_id = len(state.tiles) - 1
    state.turn.placed = tile_id
    text = content.room(room).text
    ctx.say("events.discover" if text != content.betrayal_line("events.no_rule") else
            "events.discover_plain", kind=DISCOVER, who=ctx.who(seat),
            room=content.room(room).name, floor=content.betrayal_line(f"floors.{floor}"), text=text,
            data={"tile": tile_id, "room": room, "seat": seat})
    if last_resort:
        rearrange(ctx, floor, tile_id)
    if move_in:
        place_explorer(ctx, seat, tile_id, side=arrive, via="explore")
        ctx.push([{"_symbol": {"tile": tile_id}}], seat, room, "room")
        ctx.push(list(content.room(room).on_discover), seat, room, "room")
        base.hooks(state, MovementHooks).discovered(ctx, seat, tile_id)
    return tile_id


def rearrange(ctx: Ctx, floor: str, new_tile: int) -> None:
    """Seed 003's last resort, made concrete in house.last_resort."""
    state = ctx.state
    change = house.last_resort(state, floor, {new_tile}, link_cells(state))
    if change is None:
        ctx.say("events.floor_closed", floor=content.betrayal_line(f"floors.{floor}"))
        return
    tile = state.tiles[change.tile]
    turn = (change.rotation - tile.rotation) % 4
    tile.rotation = change.rotation
    for e in state.explorers:
        if e.tile == change.tile and e.side:
            e.side = house.rotate(e.side, turn)
    name = content.room(tile.room).name
    if change.cell is None:
        ctx.say("events.rearranged_turn", room=name, floor=content.betrayal_line(f"floors.{floor}"))
        return
    tile.floor, tile.x, tile.y = change.cell
    ctx.say("events.rearranged_move", room=name, floor=content.betrayal_line(f"floors.{floor}"))


@step("_symbol")
def _symbol(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """A discovered room's card symbol draws its card; the mover's movement ends."""
    state, tile_id = ctx.state, int(arg["tile"])
    symbol = content.room(state.tiles[tile_id].room).symbol
    if not symbol:
        return
    if frame.seat == state.turn.seat:
        state.turn.movement_over = True
    # The edition's draw, unless the room draws its own way; the haunt has the last word.
    # The room that drew it rides along (`symbol_tile`), for an edition's own draws.
    steps = editions.for_state(state).symbol_steps(state, symbol)
    for passive, ref in hooks.of_tile(state, tile_id, RoomPassive):  # draws its own way
        instead = passive.symbol_steps(state, frame.seat, tile_id, symbol, steps, ref)
        if instead is not None:
            steps = instead
            break
    ctx.push_child(frame, base.hooks(state, MovementHooks).symbol_steps(state, symbol, steps),
                   symbol_tile=tile_id)


# ---------------------------------------------------------------- a new room elsewhere

def explore_like(frame: Frame, floor: str, move: bool = True, token: str = "",
                 fallback: list[dict[str, Any]] | None = None, room: str = "") -> None:
    """Run next in `frame`: draw a tile for `floor` and place it as if explored there
    (joined to a door, never closing the floor), the explorer walking in unless
    `move` is False; `token` is laid in it; `fallback` runs when no tile can go there.
    `room` names the tile instead of drawing one: it is searched out of the unplaced
    tiles (the stack or its discards) and the stack is shuffled (The Beckoning's
    Patio); a room already placed, or with no place on that floor, runs `fallback`.
    The new tile's id is left in `frame.vars["placed"]`."""
    frame.steps.insert(0, {"_explore_like": {"floor": floor, "move": move, "token": token,
                                             "fallback": list(fallback or []),
                                             "room": room}})


@step("_explore_like")
def _explore_like(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    floor = str(arg["floor"])
    if arg.get("room"):
        _search_out(ctx, frame, arg)
        return
    key = draw_room(ctx, lambda r: fits(state, r, floor, None, None))
    if key is None:
        key = draw_room(ctx, lambda r: fits(state, r, floor, None, None, keep_open=False))
    if key is None:
        ctx.say("events.no_tile", floor=content.betrayal_line(f"floors.{floor}"))
        ctx.push_child(frame, arg.get("fallback") or [])
        return
    target = placement_floor(state, key, floor)
    frame.steps.insert(0, {"_place_spot": {**arg, "room": key, "floor": target}})


def _search_out(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """A named room taken out of the unplaced tiles, the stack shuffled, and the room
    set on top of it: then placed as any room found (the same placing step)."""
    state = ctx.state
    room, floor = str(arg["room"]), str(arg["floor"])
    if room not in unplaced(state) or floor not in content.room(room).floors:
        ctx.push_child(frame, arg.get("fallback") or [])
        return
    for pile in (state.stack, state.room_discard):
        if room in pile:
            pile.remove(room)
    state.rng.shuffle(state.stack)
    state.stack.insert(0, room)  # where the placing step takes it from
    frame.steps.insert(0, {"_place_spot": {**arg, "room": room,
                                           "floor": placement_floor(state, room, floor)}})


def _spots(state: BetrayalState, room: str, floor: str) -> list[tuple[Cell, int]]:
    layout = Layout.of(state)
    return free_spots(layout, room, floor) or free_spots(layout, room, floor, keep_open=False)


def cell_label(state: BetrayalState, cell: Cell) -> str:
    layout = Layout.of(state)
    for d in DIRS:
        n = house.step(cell, d)
        if opposite(d) in layout.cells.get(n, ()):
            tile = state.tiles[house.tile_at(state, n) or 0]
            return content.betrayal_line("labels.cell",
                                         dir=content.betrayal_line(f"dirs.{opposite(d)}"),
                                         room=content.room(tile.room).name)
    return content.betrayal_line("labels.cell_bare", x=cell[1], y=cell[2])


@step("_place_spot")
def _place_spot(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    spec = dict(arg)
    room, floor = spec["room"], spec["floor"]
    spots = _spots(state, room, floor)
    if "cell" in spec:
        spots = [s for s in spots if list(s[0]) == spec["cell"]]
    if not spots:
        state.stack.remove(room)
        state.room_discard.append(room)
        ctx.say("events.no_spot", room=content.room(room).name,
                floor=content.betrayal_line(f"floors.{floor}"))
        ctx.push_child(frame, spec.get("fallback") or [])
        return
    # cast: tuple() of a Cell is a Cell; mypy widens its items to object.
    cells = list(dict.fromkeys(cast(Cell, tuple(c)) for c, _ in spots))
    if len(spots) == 1:
        _put(ctx, frame, spec, spots[0][0], spots[0][1])
        return
    if len(spots) > CELL_LIMIT and len(cells) > 1:
        spec["cells"] = [list(c) for c in cells]
        pause(ctx, frame, {"_place_spot": spec}, "spot_cell",
              content.betrayal_line(f"prompts.where_room_{floor}", room=content.room(room).name),
              [cell_label(state, c) for c in cells])
        return
    spec["spots"] = [[list(c), r] for c, r in spots]
    labels = [content.betrayal_line("labels.spot", cell=cell_label(state, c),
                                    rotation=rotation_label(room, r)) for c, r in spots]
    pause(ctx, frame, {"_place_spot": spec}, "spot", content.betrayal_line(
        f"prompts.where_room_{floor}", room=content.room(room).name), labels)


@resumer("spot_cell")
def _spot_cell(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_place_spot"]
    spec["cell"] = spec.pop("cells")[pick]


@resumer("spot")
def _spot(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_place_spot"]
    cell, rotation = spec["spots"][pick]
    _put(ctx, frame, spec, tuple(cell), rotation)


def _put(ctx: Ctx, frame: Frame, spec: dict[str, Any], cell: Cell, rotation: int) -> None:
    state = ctx.state
    sides = rotated_doors(spec["room"], rotation)
    layout = Layout.of(state)
    joined = next((d for d in DIRS if d in sides
                   and opposite(d) in layout.cells.get(house.step(cell, d), ())), None)
    keep_open = layout.open_with(cell, sides, cell[0])
    tile_id = place_tile(ctx, frame.seat, spec["room"], cell, rotation, joined,
                         last_resort=not keep_open, move_in=spec.get("move", True))
    frame.vars["placed"] = tile_id
    if spec.get("token"):
        token: dict[str, Any] = {"kind": spec["token"], "card": frame.source}
        side = arrival_side(state, tile_id, joined)
        if side is not None:
            # Seed 003, line 570: in a split room the token lies before one door, the
            # one its explorer came in by (the Below Collapsed Room: where it fell).
            token["side"] = side
        state.tiles[tile_id].tokens.append(token)
