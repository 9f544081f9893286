"""Moving room by room within Speed, and what entering and leaving a room sets off.

Each room entered costs 1 Speed, through a door or a special link (seed 003); a few
links cost nothing (the Coal Chute's slide, the Rope). Movement stops for the turn
once a card is drawn on discovery, or when a split room's crossing roll fails. Leaving
a room runs its `on_leave` (the Attic's roll); entering runs its `on_enter` and the
room's passive (the Mystic Elevator sets off). Being moved by a card is not leaving:
no `on_leave` then (RULING, see rules.yaml `rulings`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.games.betrayal import content, hooks, traits
from bot.games.betrayal.cards import PASSIVES, Link, RoomPassive, TurnPassive, resumer
from bot.games.betrayal.content import FLOORS
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, put_token, step
from bot.games.betrayal.haunting import base as haunt_base
from bot.games.betrayal.haunting import sides as haunt_sides
from bot.games.betrayal.haunting.companions import companions_follow
from bot.games.betrayal.haunting.parts import MovementHooks
from bot.games.betrayal.house import DIRS, Plan, doors, opposite, plan
from bot.games.betrayal.links import links_from
from bot.games.betrayal.state import BetrayalState, Frame

FREE_MOVES = 3  # RULING: moves that cost no Speed, at most this many a turn (no loops)
PICK_LIMIT = 20  # more candidates than this: pick the floor first


@dataclass(frozen=True)
class Move:
    target: int
    cost: int
    dir: str = ""  # a door move
    link: Link | None = None  # a link move
    crossing: tuple[str, int] | None = None  # a split room's roll to get to that door


def speed_limit(state: BetrayalState, seat: int) -> int:
    cap = hooks.speed_cap(state, seat)
    speed = traits.value(state, seat, "speed")
    return speed if cap is None else min(speed, cap)


def can_spend(state: BetrayalState, seat: int, cost: int, slowed: int = 0) -> bool:
    """Whether a move costing `cost` (+ `slowed` for opponents in the room) fits this
    turn's Speed. Seed 003: slowed or not, an explorer can always move one room. A way
    that costs nothing (the Rope, the Coal Chute) still costs the opponents' extra:
    房中每有一名敵手，人物則必須多耗用1點速度離開房間 [each opponent in the room costs 1
    more Speed to leave it], however one leaves."""
    turn = state.turn
    if turn.movement_over or hooks.blocked(state, seat):
        return False
    cap = hooks.speed_cap(state, seat)
    if cap is not None and turn.moves + turn.free_moves >= cap:
        return False  # Lights Out: 只可進入一個房間 [one room]: a free way enters one too
    if cost == 0 and not slowed:
        return turn.free_moves < FREE_MOVES
    if slowed and turn.moves == 0 and speed_limit(state, seat) > 0:
        return True
    return turn.moves + cost + slowed <= speed_limit(state, seat)


def slowed(state: BetrayalState, seat: int) -> int:
    """Extra Speed to leave this room: one per opponent in it (the haunt only)."""
    return haunt_sides.slowing(state, seat)


def crossing_for(state: BetrayalState, seat: int, side: str | None) -> tuple[str, int] | None:
    """The roll needed to leave a split room by the door `side` (None: no roll)."""
    explorer = state.explorers[seat]
    if side is None or explorer.side is None or explorer.side == side:
        return None
    return room_crossing(state, seat, explorer.tile)


def room_crossing(state: BetrayalState, seat: int, tile_id: int) -> tuple[str, int] | None:
    """The roll this explorer makes to get from one half of the split room `tile_id` to
    the other (None: the room is not split, or the explorer crosses without a roll)."""
    if state.haunt is not None and state.haunt.traitor == seat and not state.over:
        return None  # seed 003: rolls that do no damage do not stop the traitor
    passive = PASSIVES.get(content.room(state.tiles[tile_id].room).custom)
    return passive.crossing() if isinstance(passive, RoomPassive) else None


def legal_moves(state: BetrayalState, seat: int, house: Plan | None = None) -> list[Move]:
    """Every move the explorer may start now, doors first (N, E, S, W), then links.
    `house`: the house's door map (`plan(state)`), when the caller has it already."""
    return list(_allowed(state, seat, house or plan(state)))


def can_move(state: BetrayalState, seat: int) -> bool:
    """Whether the explorer has a move to start (`legal_moves` lists one), found
    without weighing the others: asked after every action (playing.lone_end), where
    the first door open is the answer and the links were most of the listing."""
    return next(_allowed(state, seat, plan(state)), None) is not None


def _allowed(state: BetrayalState, seat: int, house: Plan) -> Iterator[Move]:
    here = state.explorers[seat].tile
    extra = slowed(state, seat)
    return (m for m in _moves(state, seat, here, extra, house)
            if _may_enter(state, seat, m.target))


def _may_enter(state: BetrayalState, seat: int, tile: int) -> bool:
    """The running haunt may bar a room (a figure no one walks up to without a roll)."""
    return state.haunt is None or state.over or not state.haunt.key \
        or haunt_base.hooks(state, MovementHooks).can_enter(state, seat, tile)


def _moves(state: BetrayalState, seat: int, here: int, extra: int,
           house: Plan) -> Iterator[Move]:
    """Doors first (N, E, S, W), then links, each as it is found (`can_move` stops at
    the first)."""
    exits = house.exits[here]
    # Every door costs the same: whether it fits this turn's Speed is asked once.
    if exits and can_spend(state, seat, 1, extra):
        for d in DIRS:
            target = exits.get(d)
            if target is not None:
                yield Move(target, 1 + extra, dir=d, crossing=crossing_for(state, seat, d))
    for link in links_from(state, seat):
        if not link.walkable:
            continue  # crossed only by a roll, offered as the token's use
        cost = link.cost + extra
        if can_spend(state, seat, link.cost, extra):
            yield Move(link.target, cost, link=link,
                       crossing=crossing_for(state, seat, link.side))


def start_move(ctx: Ctx, seat: int, move: Move) -> None:
    """Push what a voluntary move does: cross (maybe), leave, go."""
    go: dict[str, Any] = {"to": move.target, "cost": move.cost}
    if move.dir:
        go["dir"] = move.dir
    if move.link:
        go["via"] = move.link.kind
        go["steps"] = list(move.link.steps)
        go["side"] = move.link.side
        if move.link.arrive:
            go["arrive"] = move.link.arrive
    after = [*leave_steps(ctx.state, seat), {"_go": go}]
    push_with_crossing(ctx, seat, move.crossing, move.dir or (move.link.side if move.link else
                                                              None), after)


def push_with_crossing(ctx: Ctx, seat: int, crossing: tuple[str, int] | None,
                       side: str | None, after: list[dict[str, Any]]) -> None:
    """Run `after`, first crossing the split room to `side` if a roll is needed."""
    if crossing is None:
        ctx.push(after, seat, ctx.state.at(seat).room, "room")
        return
    trait, target = crossing
    ok = [{"_cross": {"side": side}}, *after]
    ctx.push([{"roll": {"trait": trait, "outcomes": [
        {"min": target, "do": ok}, {"max": target - 1, "do": [{"_stop": {}}]}]}}],
        seat, ctx.state.at(seat).room, "room")


def leave_steps(state: BetrayalState, seat: int) -> list[dict[str, Any]]:
    room = content.room(state.at(seat).room)
    if not room.on_leave or hooks.immune(state, seat, room.key):
        return []
    return list(room.on_leave)


@step("_cross")
def _cross(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    ctx.state.explorers[frame.seat].side = arg.get("side")
    ctx.say("events.crossed", who=ctx.who(frame.seat), room=ctx.room_name(
        ctx.state.explorers[frame.seat].tile))


@step("_stop")
def _stop(ctx: Ctx, frame: Frame, arg: Any) -> None:
    if frame.seat == ctx.state.turn.seat:
        ctx.state.turn.movement_over = True
    ctx.say("events.movement_stops", who=ctx.who(frame.seat))


@step("_go")
def _go(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    cost = int(arg.get("cost", 1))
    if cost:
        state.turn.moves += cost
    else:
        state.turn.free_moves += 1
    target = int(arg["to"])
    source = ctx.room_name(state.explorers[seat].tile)
    side = opposite(arg["dir"]) if arg.get("dir") else arg.get("arrive")
    if arg.get("via"):
        ctx.say(f"links.{arg['via']}", kind="move", who=ctx.who(seat), source=source,
                target=ctx.room_name(target), data={"seat": seat, "to": target})
    else:
        ctx.say("events.move", kind="move", who=ctx.who(seat), source=source,
                target=ctx.room_name(target), dir=content.betrayal_line(f"dirs.{arg['dir']}"),
                data={"seat": seat, "to": target})
    ctx.push(list(arg.get("steps") or []), seat, state.tiles[target].room, "room")
    place_explorer(ctx, seat, target, side=side, via=str(arg.get("via") or "door"))


def arrival_side(state: BetrayalState, tile_id: int, side: str | None = None) -> str | None:
    """Where an explorer stands on arriving in a split room: by the door it came
    through, else (a link, a card) by the room's first door (RULING)."""
    tile = state.tiles[tile_id]
    if not content.room(tile.room).barrier:
        return None
    sides = sorted(doors(tile), key=DIRS.index)
    if side in sides:
        return side
    return sides[0] if sides else None


def place_explorer(ctx: Ctx, seat: int, tile_id: int, side: str | None = None,
                   forced: bool = False, enter: bool = True, via: str = "") -> None:
    """Put an explorer in a room and push what entering it sets off. `via` says how it
    came (a link kind, "door", "explore"; a card's move is "card")."""
    state = ctx.state
    state.turn.flags["arrived_by"] = via or ("card" if forced else "door")
    explorer = state.explorers[seat]
    if seat == state.turn.seat:
        walked = state.turn.walked
        if not walked:
            walked.append(explorer.tile)
        walked.append(tile_id)
    explorer.tile = tile_id
    explorer.side = arrival_side(state, tile_id, side)
    if forced:
        ctx.say("events.moved_to", kind="move", who=ctx.who(seat), room=ctx.room_name(tile_id),
                data={"seat": seat, "to": tile_id})
    if state.haunt is not None:
        companions_follow(ctx, seat, tile_id)
    haunt_base.hooks(state, MovementHooks).entered(ctx, seat, tile_id)
    if enter:
        ctx.push([{"_entered": {"tile": tile_id}}], seat, state.tiles[tile_id].room, "room")


@step("_entered")
def _entered(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Entering: the room's `on_enter`, then the passives that watch (the room's own,
    then the explorer's cards: the Toy Monkey)."""
    state, seat, tile_id = ctx.state, frame.seat, int(arg["tile"])
    if state.explorers[seat].tile != tile_id:
        return  # already moved on (a slide)
    for passive, ref in reversed(list(hooks.of_explorer(state, seat, TurnPassive))):
        passive.entered(ctx, seat, tile_id, ref)
    for passive, ref in reversed(list(hooks.of_tile(state, tile_id, TurnPassive))):
        passive.entered(ctx, seat, tile_id, ref)
    room = content.room(state.tiles[tile_id].room)
    if room.on_enter and not hooks.immune(state, seat, room.key):
        ctx.push(list(room.on_enter), seat, room.key, "room")


# ---------------------------------------------------------------- picking a placed room

def ask_tile(ctx: Ctx, frame: Frame, then: dict[str, Any], prompt: str,
             tiles: list[int] | None = None) -> None:
    """Pause `frame` on a choice of a placed room; `then` runs with `"tile": id` added."""
    candidates = list(range(len(ctx.state.tiles))) if tiles is None else list(tiles)
    if not candidates:
        return
    if len(candidates) == 1:
        name, arg = next(iter(then.items()))
        frame.steps.insert(0, {name: {**arg, "tile": candidates[0]}})
        return
    _ask_tile_step(ctx, frame, {"tiles": candidates, "then": then, "prompt": prompt})


def _ask_tile_step(ctx: Ctx, frame: Frame, spec: dict[str, Any]) -> None:
    state = ctx.state
    tiles = spec["tiles"]
    if len(tiles) == 1:  # the floor picked has one such room: no question left
        name, arg = next(iter(spec["then"].items()))
        frame.steps.insert(0, {name: {**arg, "tile": tiles[0]}})
        return
    floors = [f for f in FLOORS if any(state.tiles[t].floor == f for t in tiles)]
    if len(tiles) > PICK_LIMIT and len(floors) > 1 and not spec.get("floor"):
        spec["floors"] = floors
        pause(ctx, frame, {"_pick_tile": spec}, "floor_pick", spec["prompt"],
              [content.betrayal_line(f"floors.{f}") for f in floors])
        return
    pause(ctx, frame, {"_pick_tile": spec}, "tile_pick", spec["prompt"],
          [ctx.room_name(t) for t in tiles])


@step("_pick_tile")
def _pick_tile(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    _ask_tile_step(ctx, frame, dict(arg))


@resumer("floor_pick")
def _floor_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_pick_tile"]
    floor = spec["floors"][pick]
    spec["floor"] = floor
    if ctx.resumed is not None:  # the same question, in the words its reader was asked
        spec["prompt"] = ctx.resumed.asked
    spec["tiles"] = [t for t in spec["tiles"] if ctx.state.tiles[t].floor == floor]


@resumer("tile_pick")
def _tile_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_pick_tile"]
    name, arg = next(iter(spec["then"].items()))
    frame.steps.insert(0, {name: {**arg, "tile": spec["tiles"][pick]}})


# The `move` and `token` steps of data/betrayal/README.md live here, beside what they
# call, rather than in effects.py: the step interpreter sits below movement.


@step("move")
def _move(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    to = str(arg.get("to", ""))
    if to == "choose_placed":
        ask_tile(ctx, frame, {"_move_to": {}}, content.betrayal_line("prompts.move_where"))
        return
    target = ctx.state.tile_of(to)
    if target is None:
        ctx.say("events.not_placed", room=content.room(to).name if to in content.get().rooms
                else to)
        return
    place_explorer(ctx, frame.seat, target, forced=True)


@step("token")
def _token(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    if arg.get("place") == "choose_placed":
        ask_tile(ctx, frame, {"_token_at": dict(arg)},
                 content.betrayal_line("prompts.token_where", token=arg["kind"]))
        return
    put_token(ctx, frame, dict(arg), ctx.state.explorers[frame.seat].tile)


@step("_move_to")
def _move_to(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    place_explorer(ctx, frame.seat, int(arg["tile"]), forced=True)


@step("_token_at")
def _token_at(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    spec = dict(arg)
    tile = int(spec.pop("tile"))
    put_token(ctx, frame, spec, tile)
