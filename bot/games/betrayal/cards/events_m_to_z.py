"""Events M to Z whose effect steps cannot say (events.yaml `custom:`), from seed 003.

- "Everyone where..." cards (Mists from the Walls, Rotten, Shrieking Wind, Silence, The
  Beckoning): each affected explorer rolls for itself, in turn order from the drawer,
  and bears only its own result (its own damage split, its own choices).
- Possession and Spider: a roll of a trait the explorer picks.
- The Lost One, The Walls and The Beckoning put the explorer in a new room found as if
  exploring (explore.explore_like: joined by a door, never closing a floor, its card
  symbol drawn); What the...? lifts the explorer's room and sets it down elsewhere
  under the same rules (rooms.elevator_spots, the Mystic Elevator's placement).
- Whoops! discards an item at random.

Window rooms (Shrieking Wind, The Beckoning; events.yaml notes): the Grand Staircase,
Master Bedroom, Bedroom, Chapel and Dining Room have an outside window while at least
one of their sides has no tile next to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.betrayal import content, decks, traits
from bot.games.betrayal.cards import Cause, handler, resumer
from bot.games.betrayal.cards.haunt_cards import reached
from bot.games.betrayal.cards.rooms import elevator_spots
from bot.games.betrayal.content import FLOORS, TRAITS
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import change, change_label, pause, step
from bot.games.betrayal.explore import CELL_LIMIT, explore_like, rotation_label
from bot.games.betrayal.house import (
    DIRS,
    Cell,
    Layout,
    cell_of,
    opposite,
    rotate,
    tile_at,
)
from bot.games.betrayal.house import step as next_cell
from bot.games.betrayal.movement import place_explorer
from bot.games.betrayal.state import BetrayalState, Frame

OUTDOORS_WIND: frozenset[str] = frozenset({"gardens", "graveyard", "patio", "tower", "balcony"})
OUTDOORS_BECKONING: frozenset[str] = frozenset({"gardens", "graveyard", "tower", "balcony"})
WINDOW_ROOMS: frozenset[str] = frozenset({"grand_staircase", "master_bedroom", "bedroom",
                                          "chapel", "dining_room"})
TOY_MONKEY = "toy_monkey"
PATIO = "patio"


def _card_name(key: str) -> str:
    return content.card(key).name if key in content.get().cards else key


def _roll(trait: str, outcomes: list[tuple[int | None, int | None, list[dict[str, Any]]]]
          ) -> dict[str, Any]:
    """A trait roll step; outcomes as (min, max, do), None for an open end."""
    bands = []
    for low, high, do in outcomes:
        band: dict[str, Any] = {"do": do}
        if low is not None:
            band["min"] = low
        if high is not None:
            band["max"] = high
        bands.append(band)
    return {"roll": {"trait": trait, "outcomes": bands}}


def _dice_damage(kind: str, dice: int) -> dict[str, Any]:
    return {"damage": {"kind": kind, "dice": dice}}


# ---------------------------------------------------------------- where explorers are

def in_basement(state: BetrayalState, seat: int) -> bool:
    return state.at(seat).floor == "basement"


def outside_window(state: BetrayalState, tile_id: int) -> bool:
    """A window room with at least one side that has no tile next to it."""
    tile = state.tiles[tile_id]
    if tile.room not in WINDOW_ROOMS:
        return False
    cells = Layout.of(state).cells
    return any(next_cell(cell_of(tile), d) not in cells for d in DIRS)


def exposed(state: BetrayalState, seat: int, outdoors: frozenset[str]) -> bool:
    tile_id = state.explorers[seat].tile
    return state.tiles[tile_id].room in outdoors or outside_window(state, tile_id)


def everyone(ctx: Ctx, frame: Frame, affected: Callable[[BetrayalState, int], bool],
             steps_for: Callable[[BetrayalState, int], tuple[list[dict[str, Any]],
                                                             dict[str, Any]]]) -> None:
    """Each affected explorer (the drawer first, then clockwise) runs its own steps:
    its own roll, its own damage, its own choices. The traitor sits out a card that
    does no damage that another drew (seed 003: haunt_cards.reached)."""
    state = ctx.state
    count = len(state.explorers)
    seats = [(frame.seat + i) % count for i in range(count)]
    chosen = [s for s in seats if state.explorers[s].alive and affected(state, s)]
    if not chosen:
        ctx.say("events.no_one_affected", card=_card_name(frame.source))
        return
    for seat in reversed(reached(ctx, frame, chosen)):  # the last pushed runs first
        steps, extra = steps_for(state, seat)
        ctx.push(steps, seat, frame.source, frame.origin, extra)


# ---------------------------------------------------------------- Mists from the Walls

@handler("mists_from_the_walls")
def mists_from_the_walls(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Everyone in the basement rolls Sanity. 4+ nothing; 1-3 1 die of mental damage
    (2 dice in an event room); 0 1 die (3 dice in an event room)."""
    def steps(state: BetrayalState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        event_room = content.room(state.at(seat).room).symbol == "event"
        return [_roll("sanity", [
            (4, None, []),
            (1, 3, [_dice_damage("mental", 2 if event_room else 1)]),
            (None, 0, [_dice_damage("mental", 3 if event_room else 1)]),
        ])], {}

    everyone(ctx, frame, in_basement, steps)


# ---------------------------------------------------------------- Rotten

@handler("rotten")
def rotten(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Every explorer rolls Sanity. 5+ gain 1 Sanity; 2-4 lose 1 Might; 1 lose 1 Might
    and 1 Speed; 0 lose 1 in every trait (events.yaml: 4 belongs to 2-4)."""
    def steps(state: BetrayalState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [_roll("sanity", [
            (5, None, [{"gain": {"trait": "sanity", "amount": 1}}]),
            (2, 4, [{"lose": {"trait": "might", "amount": 1}}]),
            (1, 1, [{"lose": {"trait": "might", "amount": 1}},
                    {"lose": {"trait": "speed", "amount": 1}}]),
            (None, 0, [{"lose": {"trait": "all", "amount": 1}}]),
        ])], {}

    everyone(ctx, frame, lambda state, seat: True, steps)


# ---------------------------------------------------------------- Shrieking Wind

@handler("shrieking_wind")
def shrieking_wind(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Everyone outdoors or by an outside window rolls Might. 5+ nothing; 3-4 1 die of
    physical damage; 1-2 1 die of mental damage; 0 1 die of physical damage and one of
    its items (its pick, among those it could drop) lands in the Entrance Hall."""
    def steps(state: BetrayalState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [_roll("might", [
            (5, None, []),
            (3, 4, [_dice_damage("physical", 1)]),
            (1, 2, [_dice_damage("mental", 1)]),
            (None, 0, [_dice_damage("physical", 1), {"_wind_item": {}}]),
        ])], {}

    everyone(ctx, frame, lambda state, seat: exposed(state, seat, OUTDOORS_WIND), steps)


def item_cards(state: BetrayalState, seat: int) -> list[str]:
    return [k for k in state.explorers[seat].cards if content.card(k).deck == "item"]


def given_up(state: BetrayalState, seat: int) -> list[str]:
    """The item cards the wind may take: those the explorer could give up (not the
    Blood Dagger, which is never handed over nor dropped)."""
    return [k for k in item_cards(state, seat) if content.card(k).tradeable]


@step("_wind_item")
def _wind_item(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    hall = state.tile_of("entrance_hall")
    held = given_up(state, frame.seat)
    if hall is None or not held:
        return
    if len(held) == 1:
        _blow_away(ctx, frame.seat, held[0], hall)
        return
    pause(ctx, frame, {"_wind_item": {"items": held, "hall": hall}}, "wind_item",
          content.betrayal_line("prompts.wind_item", room=ctx.room_name(hall)),
          [_card_name(k) for k in held])


@resumer("wind_item")
def _wind_item_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_wind_item"]
    _blow_away(ctx, frame.seat, spec["items"][pick], int(spec["hall"]))


def _blow_away(ctx: Ctx, seat: int, key: str, hall: int) -> None:
    ctx.say("events.wind_item", kind="drop", who=ctx.who(seat), card=_card_name(key),
            room=ctx.room_name(hall), data={"seat": seat, "card": key, "tile": hall})
    decks.take_card(ctx, seat, key, to="pile", tile=hall)


# ---------------------------------------------------------------- Silence

@handler("silence")
def silence(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Everyone in the basement rolls Sanity, 2 dice fewer with the Toy Monkey (never
    fewer than 1). 4+ nothing; 1-3 1 die of mental damage; 0 2 dice."""
    def steps(state: BetrayalState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        monkey = TOY_MONKEY in state.explorers[seat].cards
        return [_roll("sanity", [
            (4, None, []),
            (1, 3, [_dice_damage("mental", 1)]),
            (None, 0, [_dice_damage("mental", 2)]),
        ])], ({"extra_dice": -2} if monkey else {})

    everyone(ctx, frame, in_basement, steps)


# ---------------------------------------------------------------- The Beckoning

@handler("the_beckoning")
def the_beckoning(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Everyone in the Gardens, Graveyard, Tower, Balcony or by an outside window rolls
    Sanity. 4+ nothing; 0-3 1 die of physical damage and a jump down to the Patio."""
    def steps(state: BetrayalState, seat: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        return [_roll("sanity", [
            (4, None, []),
            (None, 3, [_dice_damage("physical", 1), {"_beckoning_jump": {}}]),
        ])], {}

    everyone(ctx, frame, lambda state, seat: exposed(state, seat, OUTDOORS_BECKONING), steps)


@step("_beckoning_jump")
def _beckoning_jump(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Land in the Patio. Not placed yet: it is searched out of the unplaced rooms, the
    stack is shuffled, and the jumper places it as if exploring on the ground floor and
    lands in it, drawing its card like any room found (explore.explore_like)."""
    patio = ctx.state.tile_of(PATIO)
    if patio is not None:
        place_explorer(ctx, frame.seat, patio, forced=True)
        return
    explore_like(frame, "ground", room=PATIO)


# ---------------------------------------------------------------- Possession

@handler("possession")
def possession(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Roll a trait of your choice. 4+ gain 1 in any trait; 0-3 the rolled trait falls
    to its lowest value (already there: another trait, your pick, does)."""
    ctx.push_child(frame, [{"roll": {"choose": list(TRAITS), "outcomes": [
        {"min": 4, "do": [{"gain": {"choose": list(TRAITS), "amount": 1}}]},
        {"max": 3, "do": [{"_possession_drain": {}}]}]}}])


def _to_lowest(ctx: Ctx, frame: Frame, trait: str) -> None:
    change(ctx, frame.seat, trait, -traits.index(ctx.state, frame.seat, trait), Cause.of(frame))


@step("_possession_drain")
def _possession_drain(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    trait = str(frame.vars.get("chosen"))
    if traits.index(state, seat, trait) > 0:
        _to_lowest(ctx, frame, trait)
        return
    others = [t for t in TRAITS if traits.index(state, seat, t) > 0]
    if not others:
        ctx.say("events.lowest_all", kind="trait", who=ctx.who(seat),
                trait=content.trait_name(trait), value=traits.value(state, seat, trait))
        return
    if len(others) == 1:
        _to_lowest(ctx, frame, others[0])
        return
    labels = [change_label(t, traits.value(state, seat, t), traits.track(state, seat, t).values[0])
              for t in others]
    pause(ctx, frame, {"_possession_drain": {"traits": others}}, "possession_other",
          content.betrayal_line("prompts.possession_other", trait=content.trait_name(trait)),
          labels)


@resumer("possession_other")
def _possession_other(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_possession_drain"]
    _to_lowest(ctx, frame, spec["traits"][pick])


# ---------------------------------------------------------------- Spider

@handler("spider")
def spider(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Roll Speed or Sanity (your pick). 4+ gain 1 in that trait; 1-3 1 die of
    physical damage; 0 2 dice."""
    ctx.push_child(frame, [{"roll": {"choose": ["speed", "sanity"], "outcomes": [
        {"min": 4, "do": [{"gain": {"trait": "chosen", "amount": 1}}]},
        {"min": 1, "max": 3, "do": [_dice_damage("physical", 1)]},
        {"max": 0, "do": [_dice_damage("physical", 2)]}]}}])


# ---------------------------------------------------------------- The Lost One

ENTRANCE_HALL: list[dict[str, Any]] = [{"move": {"to": "entrance_hall"}}]


@handler("the_lost_one_upper")
def the_lost_one_upper(ctx: Ctx, frame: Frame, args: Any) -> None:
    """A new upper room, found as if exploring; none left: the Entrance Hall."""
    explore_like(frame, "upper", fallback=ENTRANCE_HALL)


@handler("the_lost_one_basement")
def the_lost_one_basement(ctx: Ctx, frame: Frame, args: Any) -> None:
    """A new basement room, found as if exploring; none left: the Entrance Hall."""
    explore_like(frame, "basement", fallback=ENTRANCE_HALL)


# ---------------------------------------------------------------- The Walls

@handler("the_walls")
def the_walls(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Through the wall into a new room on this floor, found as if exploring (at an open
    doorway the explorer picks); none left for this floor: nothing happens."""
    explore_like(frame, ctx.state.at(frame.seat).floor)


# ---------------------------------------------------------------- What the...?

def what_the_floors(state: BetrayalState, tile_id: int) -> list[tuple[str, ...]]:
    """Where to look, in order: this floor, the tile's other floors, any other floor."""
    tile = state.tiles[tile_id]
    allowed = content.room(tile.room).floors
    others = tuple(f for f in FLOORS if f in allowed and f != tile.floor)
    rest = tuple(f for f in FLOORS if f not in allowed and f != tile.floor)
    return [group for group in ((tile.floor,), others, rest) if group]


def what_the_spots(state: BetrayalState, tile_id: int) -> list[list[Any]]:
    """The first group of floors with a place for the room (never where it is now)."""
    here = list(cell_of(state.tiles[tile_id]))
    for floors in what_the_floors(state, tile_id):
        spots = [s for s in elevator_spots(state, tile_id, floors) if list(s[0]) != here]
        if spots:
            return spots
    return []


@handler("what_the")
def what_the(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The explorer's room, with everything in it, moves elsewhere: placed as if
    exploring, first on its own floor. A start room never moves."""
    state = ctx.state
    tile_id = state.explorers[frame.seat].tile
    room = content.room(state.tiles[tile_id].room)
    if room.start:
        ctx.say("events.what_the_start", room=room.name)
        return
    spots = what_the_spots(state, tile_id)
    if not spots:
        ctx.say("events.what_the_stuck", room=room.name)
        return
    frame.steps.insert(0, {"_what_the_spot": {"tile": tile_id, "spots": spots}})


def _cell_name(state: BetrayalState, cell: Cell, moving: int) -> str:
    """`north of the Kitchen`, naming a neighbour other than the room being moved."""
    layout = Layout.of(state).without(cell_of(state.tiles[moving]))
    for d in DIRS:
        n = next_cell(cell, d)
        if opposite(d) in layout.cells.get(n, ()):
            neighbour = tile_at(state, n)
            if neighbour is not None:
                return content.betrayal_line("labels.cell",
                                             dir=content.betrayal_line(f"dirs.{opposite(d)}"),
                                             room=content.room(state.tiles[neighbour].room).name)
    return content.betrayal_line("labels.cell_bare", x=cell[1], y=cell[2])


@step("_what_the_spot")
def _what_the_spot(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    spec = dict(arg)
    tile_id, spots = int(spec["tile"]), spec["spots"]
    room = state.tiles[tile_id].room
    if len(spots) == 1:
        frame.steps.insert(0, {"_what_the_move": {"tile": tile_id, "spot": spots[0]}})
        return
    floors = list(dict.fromkeys(c[0] for c, _ in spots))
    name = content.room(room).name
    if len(floors) > 1:
        spec["floors"] = floors
        pause(ctx, frame, {"_what_the_spot": spec}, "what_the_floor",
              content.betrayal_line("prompts.what_the_floor", room=name),
              [content.betrayal_line(f"floors.{f}") for f in floors])
        return
    prompt = content.betrayal_line(f"prompts.where_room_{floors[0]}", room=name)
    cells = list(dict.fromkeys(tuple(c) for c, _ in spots))
    if len(spots) > CELL_LIMIT and len(cells) > 1:
        spec["cells"] = [list(c) for c in cells]
        pause(ctx, frame, {"_what_the_spot": spec}, "what_the_cell", prompt,
              [_cell_name(state, c, tile_id) for c in cells])
        return
    pause(ctx, frame, {"_what_the_spot": spec}, "what_the_place", prompt,
          [content.betrayal_line("labels.spot", cell=_cell_name(state, tuple(c), tile_id),
                                 rotation=rotation_label(room, r)) for c, r in spots])


@resumer("what_the_floor")
def _what_the_floor(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_what_the_spot"]
    floor = spec.pop("floors")[pick]
    spec["spots"] = [s for s in spec["spots"] if s[0][0] == floor]
    frame.steps[0] = {"_what_the_spot": spec}


@resumer("what_the_cell")
def _what_the_cell(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_what_the_spot"]
    cell = spec.pop("cells")[pick]
    spec["spots"] = [s for s in spec["spots"] if list(s[0]) == list(cell)]
    frame.steps[0] = {"_what_the_spot": spec}


@resumer("what_the_place")
def _what_the_place(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_what_the_spot"]
    frame.steps.insert(0, {"_what_the_move": {"tile": spec["tile"],
                                              "spot": spec["spots"][pick]}})


@step("_what_the_move")
def _what_the_move(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The tile keeps its id, so explorers, tokens, items and links go with it; sides
    (a split room's doors) turn with the tile."""
    state = ctx.state
    tile_id = int(arg["tile"])
    tile = state.tiles[tile_id]
    (floor, x, y), rotation = arg["spot"]
    label = _cell_name(state, (floor, int(x), int(y)), tile_id)
    turn = (int(rotation) - tile.rotation) % 4
    tile.floor, tile.x, tile.y, tile.rotation = floor, int(x), int(y), int(rotation)
    for explorer in state.explorers:
        if explorer.tile == tile_id and explorer.side:
            explorer.side = rotate(explorer.side, turn)
    for token in tile.tokens:
        if token.get("side"):
            token["side"] = rotate(token["side"], turn)
    ctx.say("events.what_the_moved", kind="move", room=content.room(tile.room).name,
            floor=content.betrayal_line(f"floors.{floor}"), cell=label,
            data={"tile": tile_id, "floor": floor})


# ---------------------------------------------------------------- Whoops!

@handler("whoops")
def whoops(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Discard one of your item cards at random (omens stay): one you could give up, as
    the wind's (seed 003's Blood Dagger "cannot be handed over or discarded")."""
    held = given_up(ctx.state, frame.seat)
    if not held:
        ctx.say("events.whoops_nothing", who=ctx.who(frame.seat))
        return
    key = ctx.state.rng.choice(held)
    ctx.say("events.discarded", who=ctx.who(frame.seat), card=_card_name(key))
    decks.take_card(ctx, frame.seat, key, to="discard")
