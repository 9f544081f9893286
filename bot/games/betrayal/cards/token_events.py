"""The token events that open new ways through the house (events.yaml `custom:` steps,
seed 003): Secret Passage, Secret Stairs, Mystic Slide and Revolving Wall.

What their tokens do once laid (links, the slide's and the wall's `use` offers, the
room dice of Blessing, Drip and Smoke) is in cards/tokens.py; this module lays them.

- Secret Passage: the first token goes in the drawer's room (a plain `token` step),
  3 dice pick the floor of the other end (6 any, 4-5 upper, 2-3 ground, 0-1 basement)
  and the explorer picks a placed room there; effects.put_token joins the two ends.
  A far end in a split room lies by its first door (`_far_token`); one arrives by a
  passage or stair at the door its token lies by (cards/tokens.LinkToken).
- Secret Stairs: the other end goes in a placed room of another floor, the explorer's
  pick; then the explorer may take the stairs at once and draws 1 more event there.
- Mystic Slide: only above the basement, else the card passes left; Might 5+ rides to a
  placed room on a lower floor (the rider picks), 0-4 falls, after 1 die of physical
  damage, into a new basement room found as if exploring (explore.explore_like), or,
  with none left to find, into a basement room the faller picks.
- Revolving Wall: a Wall Switch on a side of the room with no door, the drawer's pick;
  with a room behind it the two are joined, else a new room is found there as if
  exploring (drawn from the stack with explore.draw_room, set down with
  explore.place_tile, any turn that keeps its floor open) and the drawer steps in. Its
  use (Knowledge 3+) takes the explorer through, for what leaving by a door costs
  (tokens.way_out_cost); a roll of 0-2 finds no switch and costs no Speed.

RULINGS (where seed 003 and the notes of events.yaml are silent):
- A Secret Passage's far end goes in another room than the first token's. When the
  rolled floor holds no other placed room (you stand in the Upper Landing, say, and it
  is the only upper room), the passage leads nowhere and its lone token is removed.
- Taking the Secret Stairs at once is a card move: it costs no Speed; entering the room
  runs as usual, then the extra event is drawn.
- "Pass this card left": to the next seat in turn order (seat + 1), skipping the dead
  and those in the basement; the one it reaches resolves the whole card (the Slide
  goes in its room, it rolls and chooses). In everyone's basement it is discarded.
- Riding or falling when the card is drawn is the card moving you: the room you leave
  does not react. Using a Slide or a Wall Switch later is your own move out of the room
  (it costs 1 Speed, cards/tokens.py), so the room's leave rule runs first (the Attic).
- A Slide whose room ends up in the basement (What the...?, the Mystic Elevator) leads
  nowhere: it is not offered there (cards/tokens.py).
- The Revolving Wall offers only the doorless sides where a switch can go: a placed
  room behind the wall, or a room left in the stack or discards for this floor that can
  stand there without closing the floor. With none, the switch is discarded. The new
  room need not show a door toward the wall or any other room (the switch joins it);
  walking in is free and, as in exploring, its card symbol is drawn.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, movement
from bot.games.betrayal.cards import handler, resumer
from bot.games.betrayal.cards.tokens import way_out_cost
from bot.games.betrayal.content import FLOORS
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, put_token, step
from bot.games.betrayal.explore import (
    draw_room,
    explore_like,
    place_tile,
    placement_floor,
    rotation_label,
)
from bot.games.betrayal.house import (
    DIRS,
    Cell,
    Layout,
    cell_of,
    distinct_rotations,
    doors,
    opposite,
    rotated_doors,
    tile_at,
)
from bot.games.betrayal.house import step as next_cell
from bot.games.betrayal.links import connect
from bot.games.betrayal.state import BetrayalState, Frame

SLIDE = "slide"
WALL = "wall_switch"
PASSAGE = "secret_passage"
STAIRS = "secret_stairs"


def _floor_name(floor: str) -> str:
    return content.betrayal_line(f"floors.{floor}")


def _card_name(key: str) -> str:
    return content.card(key).name if key in content.get().cards else key


def _used(frame: Frame) -> bool:
    """These steps are a token's use (not the card being drawn)."""
    return frame.vars.get("token_tile") is not None


# ---------------------------------------------------------------- Secret Passage

def _far_end(ctx: Ctx, frame: Frame, kind: str, candidates: list[int]) -> None:
    """The explorer picks the room of the second token; put_token joins the two."""
    movement.ask_tile(ctx, frame, {"_far_token": {"kind": kind}},
                      content.betrayal_line("prompts.token_where", token=content.token_name(kind)),
                      candidates)


@step("_far_token")
def _far_token(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The second token. In a split room it lies by the room's first door, where one
    arriving by a link or a card stands (movement.arrival_side; seed 003: 玩家只可將標記
    放在其中一度門扉前 [the token goes before one of the room's doors])."""
    spec = dict(arg)
    tile_id = int(spec.pop("tile"))
    put_token(ctx, frame, spec, tile_id)
    token = ctx.state.tiles[tile_id].tokens[-1]
    side = movement.arrival_side(ctx.state, tile_id)
    if side is not None and not token.get("side"):
        token["side"] = side


def _first_end(ctx: Ctx, frame: Frame, kind: str) -> int:
    here = frame.vars.get(f"token:{kind}")
    return ctx.state.explorers[frame.seat].tile if here is None else int(here)


def _passage(ctx: Ctx, frame: Frame, floor: str | None) -> None:
    state = ctx.state
    here = _first_end(ctx, frame, PASSAGE)
    candidates = [i for i, t in enumerate(state.tiles)
                  if i != here and (floor is None or t.floor == floor)]
    if candidates:
        _far_end(ctx, frame, PASSAGE, candidates)
        return
    tokens = state.tiles[here].tokens
    lone = next((i for i in range(len(tokens) - 1, -1, -1) if tokens[i]["kind"] == PASSAGE
                 and tokens[i].get("link") is None and tokens[i].get("card") == frame.source),
                None)
    ctx.say("events.passage_nowhere", floor=_floor_name(floor or state.tiles[here].floor))
    if lone is not None:
        tokens.pop(lone)
        ctx.say("events.token_removed", token=content.token_name(PASSAGE),
                room=ctx.room_name(here))


@handler("secret_passage_any")
def secret_passage_any(ctx: Ctx, frame: Frame, args: Any) -> None:
    _passage(ctx, frame, None)


@handler("secret_passage_upper")
def secret_passage_upper(ctx: Ctx, frame: Frame, args: Any) -> None:
    _passage(ctx, frame, "upper")


@handler("secret_passage_ground")
def secret_passage_ground(ctx: Ctx, frame: Frame, args: Any) -> None:
    _passage(ctx, frame, "ground")


@handler("secret_passage_basement")
def secret_passage_basement(ctx: Ctx, frame: Frame, args: Any) -> None:
    _passage(ctx, frame, "basement")


# ---------------------------------------------------------------- Secret Stairs

@handler("secret_stairs_other_end")
def secret_stairs_other_end(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = _first_end(ctx, frame, STAIRS)
    floor = state.tiles[here].floor
    _far_end(ctx, frame, STAIRS, [i for i, t in enumerate(state.tiles) if t.floor != floor])


def _stairs_from(state: BetrayalState, tile_id: int, card: str) -> int | None:
    """Where the newest linked Secret Stairs token of this card in `tile_id` leads."""
    for token in reversed(state.tiles[tile_id].tokens):
        if token["kind"] == STAIRS and token.get("card") == card and token.get("link") is not None:
            return int(token["link"])
    return None


@handler("secret_stairs_climb")
def secret_stairs_climb(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = state.explorers[frame.seat].tile
    far = _stairs_from(state, here, frame.source)
    if far is None:
        return
    pause(ctx, frame, {"_stairs_climb": {"from": here, "to": far}}, "stairs_climb",
          content.betrayal_line("prompts.stairs_climb", room=ctx.room_name(far)),
          [content.betrayal_line("labels.do_it"), content.betrayal_line("labels.leave_it")])


@resumer("stairs_climb")
def _stairs_climb(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_stairs_climb"]
    if pick != 0:
        ctx.say("events.declined", who=ctx.who(frame.seat), card=_card_name(frame.source))
        return
    seat, source, target = frame.seat, int(spec["from"]), int(spec["to"])
    ctx.say("links.secret_stairs", kind="move", who=ctx.who(seat),
            source=ctx.room_name(source), target=ctx.room_name(target),
            data={"seat": seat, "to": target})
    frame.steps.insert(0, {"draw": {"deck": "event", "count": 1}})
    arrive = next((t.get("side") for t in ctx.state.tiles[target].tokens
                   if t["kind"] == STAIRS and t.get("link") == source), None)
    movement.place_explorer(ctx, seat, target, side=arrive, via=STAIRS)


# ---------------------------------------------------------------- Mystic Slide

@handler("mystic_slide_pass")
def mystic_slide_pass(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Only an explorer above the basement can draw it: it goes left until one is."""
    state = ctx.state
    count = len(state.explorers)
    for k in range(count):
        seat = (frame.seat + k) % count
        explorer = state.explorers[seat]
        if explorer.alive and state.tiles[explorer.tile].floor != "basement":
            if seat != frame.seat:
                ctx.say("events.card_passed", who=ctx.who(frame.seat),
                        card=_card_name(frame.source), other=ctx.who(seat))
                frame.seat = seat
            return
    ctx.say("events.card_unused", card=_card_name(frame.source))
    frame.steps.clear()


def _lower_tiles(state: BetrayalState, tile_id: int) -> list[int]:
    floor = state.tiles[tile_id].floor
    lower = FLOORS[FLOORS.index(floor) + 1:]
    return [i for i, t in enumerate(state.tiles) if t.floor in lower]


@handler("mystic_slide_ride")
def mystic_slide_ride(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = state.explorers[frame.seat].tile
    candidates = _lower_tiles(state, here)
    if not candidates:
        ctx.say("events.slide_nowhere", room=ctx.room_name(here))
        return
    movement.ask_tile(ctx, frame, {"_slide_to": {"from": here, "how": "ride"}},
                      content.betrayal_line("prompts.move_where"), candidates)


@handler("mystic_slide_fall")
def mystic_slide_fall(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = state.explorers[frame.seat].tile
    if state.tiles[here].floor == "basement":
        ctx.say("events.slide_nowhere", room=ctx.room_name(here))
        return
    ctx.say("events.fall", who=ctx.who(frame.seat), room=ctx.room_name(here))
    explore_like(frame, "basement", fallback=[{"_slide_any_basement": {"from": here}}])
    if _used(frame):
        frame.steps[0:0] = movement.leave_steps(state, frame.seat)


@step("_slide_any_basement")
def _slide_any_basement(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """No basement room left to find: the faller lands in a placed one of its choice."""
    basement = [i for i, t in enumerate(ctx.state.tiles) if t.floor == "basement"]
    movement.ask_tile(ctx, frame, {"_slide_to": {"from": arg["from"], "how": "land",
                                                 "left": True}},
                      content.betrayal_line("prompts.move_where"), basement)


@step("_slide_to")
def _slide_to(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """A room picked at the slide's foot; a use leaves its room first (its leave rule)."""
    go = {"_slide_go": dict(arg)}
    leave = movement.leave_steps(ctx.state, frame.seat) \
        if _used(frame) and not arg.get("left") else []
    frame.steps[0:0] = [*leave, go]


@step("_slide_go")
def _slide_go(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    seat, source, target = frame.seat, int(arg["from"]), int(arg["tile"])
    ctx.say(f"events.slide_{arg['how']}", kind="move", who=ctx.who(seat),
            source=ctx.room_name(source), target=ctx.room_name(target),
            data={"seat": seat, "to": target})
    movement.place_explorer(ctx, seat, target, via="mystic_slide")


# ---------------------------------------------------------------- Revolving Wall

def wall_rotations(state: BetrayalState, room: str, cell: Cell) -> list[int]:
    """Turns of `room` set down at `cell` behind a wall: any that keeps its floor open
    (no door toward the wall is needed). None for a room that cannot stand there."""
    floor = cell[0]
    if floor not in content.room(room).floors or placement_floor(state, room, floor) != floor:
        return []
    layout = Layout.of(state)
    return [r for r in distinct_rotations(room)
            if layout.open_with(cell, rotated_doors(room, r), floor)]


def wall_sides(state: BetrayalState, tile_id: int) -> list[str]:
    """The doorless sides of a room where a Wall Switch can go."""
    tile = state.tiles[tile_id]
    found = []
    for d in DIRS:
        if d in doors(tile):
            continue
        cell = next_cell(cell_of(tile), d)
        if tile_at(state, cell) is not None or any(
                wall_rotations(state, r, cell) for r in [*state.stack, *state.room_discard]):
            found.append(d)
    return found


@handler("revolving_wall_place")
def revolving_wall_place(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = state.explorers[frame.seat].tile
    tile = state.tiles[here]
    if all(d in doors(tile) for d in DIRS):
        ctx.say("events.wall_none", room=ctx.room_name(here))
        return
    sides = wall_sides(state, here)
    if not sides:
        ctx.say("events.wall_discarded", room=ctx.room_name(here))
        return
    if len(sides) == 1:
        frame.steps.insert(0, {"_wall_side": {"from": here, "dir": sides[0]}})
        return
    labels = []
    for d in sides:
        behind = tile_at(state, next_cell(cell_of(tile), d))
        where = content.betrayal_line(f"dirs.{d}")
        labels.append(content.betrayal_line("labels.wall_new", dir=where) if behind is None else
                      content.betrayal_line("labels.wall_room", dir=where,
                                            room=ctx.room_name(behind)))
    pause(ctx, frame, {"_wall_pick": {"from": here, "dirs": sides}}, "wall_side",
          content.betrayal_line("prompts.wall_side", room=ctx.room_name(here)), labels)


@resumer("wall_side")
def _wall_side_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_wall_pick"]
    frame.steps.insert(0, {"_wall_side": {"from": spec["from"], "dir": spec["dirs"][pick]}})


@step("_wall_side")
def _wall_side(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    here, d = int(arg["from"]), str(arg["dir"])
    cell = next_cell(cell_of(state.tiles[here]), d)
    behind = tile_at(state, cell)
    if behind is not None:
        _join(ctx, frame, here, behind, d)
        return
    key = draw_room(ctx, lambda r: bool(wall_rotations(state, r, cell)))
    if key is None:
        ctx.say("events.wall_discarded", room=ctx.room_name(here))
        return
    rotations = wall_rotations(state, key, cell)
    spec = {"from": here, "dir": d, "room": key, "cell": list(cell), "rotations": rotations}
    if len(rotations) == 1:
        _wall_room(ctx, frame, spec, rotations[0])
        return
    pause(ctx, frame, {"_wall_room": spec}, "wall_rotate",
          content.betrayal_line("prompts.rotate", room=content.room(key).name),
          [rotation_label(key, r) for r in rotations])


@resumer("wall_rotate")
def _wall_rotate(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_wall_room"]
    _wall_room(ctx, frame, spec, int(spec["rotations"][pick]))


def _wall_room(ctx: Ctx, frame: Frame, spec: dict[str, Any], rotation: int) -> None:
    """The new room behind the wall: placed as explored, the switch joins it, and the
    explorer walks in (its card symbol is drawn)."""
    floor, x, y = spec["cell"]
    d = str(spec["dir"])
    new = place_tile(ctx, frame.seat, str(spec["room"]), (str(floor), int(x), int(y)),
                     rotation, opposite(d))
    frame.vars["placed"] = new
    _join(ctx, frame, int(spec["from"]), new, d)


def _join(ctx: Ctx, frame: Frame, here: int, there: int, d: str) -> None:
    state = ctx.state
    connect(state, WALL, here, there, frame.source)
    state.tiles[here].tokens[-1]["wall"] = d
    state.tiles[there].tokens[-1]["wall"] = opposite(d)
    for tile_id in (here, there):
        ctx.say("events.token", kind="token", token=content.token_name(WALL),
                room=ctx.room_name(tile_id), data={"tile": tile_id, "token": WALL})


@handler("revolving_wall_pass")
def revolving_wall_pass(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The use's roll found the switch: through the wall to the other side."""
    state = ctx.state
    tile, index = frame.vars.get("token_tile"), frame.vars.get("token_index")
    if tile is None or index is None:
        return
    tokens = state.tiles[int(tile)].tokens
    token = tokens[int(index)] if int(index) < len(tokens) else {}
    if token.get("kind") != WALL or token.get("link") is None \
            or state.explorers[frame.seat].tile != int(tile):
        return
    state.turn.moves += way_out_cost(state, frame.seat)  # found: now it is a way out
    frame.steps[0:0] = [*movement.leave_steps(state, frame.seat),
                        {"_wall_through": {"from": int(tile), "to": int(token["link"]),
                                           "side": opposite(str(token.get("wall", "N")))}}]


@step("_wall_through")
def _wall_through(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    seat, source, target = frame.seat, int(arg["from"]), int(arg["to"])
    ctx.say("events.wall_pass", kind="move", who=ctx.who(seat),
            source=ctx.room_name(source), target=ctx.room_name(target),
            data={"seat": seat, "to": target})
    movement.place_explorer(ctx, seat, target, side=arg.get("side"), via=WALL)
