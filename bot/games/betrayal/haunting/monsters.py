"""Monsters (seed 003, "Monsters"): placing them, their turn, how they move.

At the start of the monsters' turn each kind rolls one die per point of its Speed; the
total (at least 1) is how many rooms each monster of that kind may enter this turn. A
monster stunned when its turn starts only recovers (flips back). Leaving a room where
heroes stand costs one more room per hero there. Monsters never explore (they keep to
placed rooms), carry nothing, steal nothing, and may climb the Coal Chute back up from
the Basement Landing (but, as explorers, never end their turn in it: they slide back
down). Each may attack once in its turn. The traitor's player moves
them, one room at a time, then ends their turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from bot.core.actions import Action
from bot.core.events import DETAIL, Event, to_player
from bot.games.betrayal import content, links
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.dice import roll_betrayal
from bot.games.betrayal.haunting import base, combat, sides
from bot.games.betrayal.haunting.parts import CombatHooks
from bot.games.betrayal.haunting.words import haunt_line, tell
from bot.games.betrayal.links import house_links, walkable
from bot.games.betrayal.state import BetrayalState, Monster
from bot.texts import sentences

M_MOVE, M_ATTACK, M_END = "mmove", "mattack", "mend"


def spawn(ctx: Ctx, kind: str, tile_id: int, *, quiet: bool = False) -> Monster:
    """Put a new monster of `kind` in a room."""
    state = ctx.state
    monster = Monster(id=1 + max((m.id for m in state.monsters), default=0), kind=kind,
                      tile=tile_id)
    state.monsters.append(monster)
    if not quiet:
        tell(ctx, "events.monster_appears", kind="monster",
             monster=combat.monster_name(state, monster), room=ctx.room_name(tile_id),
             data={"monster": monster.id, "kind": kind, "tile": tile_id})
    return monster


def neighbours(state: BetrayalState, tile_id: int) -> list[int]:
    """Placed rooms a monster can walk to from here: where anyone can walk, and the
    Coal Chute climbed back up from the Basement Landing."""
    return _with_climbs(tile_id, walkable(state, tile_id), _climbs(state))


def _climbs(state: BetrayalState) -> dict[int, list[int]]:
    """Room -> the rooms whose Coal Chute lands there (a monster climbs back up)."""
    found: dict[int, list[int]] = {}
    for a, b, kind in house_links(state):
        if kind == "chute":
            found.setdefault(b, []).append(a)
    return found


def _with_climbs(tile_id: int, walks: list[int], climbs: dict[int, list[int]]) -> list[int]:
    found = walks + climbs.get(tile_id, [])
    return sorted(set(found) - {tile_id}, key=found.index)


def graph(state: BetrayalState) -> dict[int, list[int]]:
    """Every room's `neighbours`, with the house and its links looked up once."""
    climbs = _climbs(state)
    return {tile: _with_climbs(tile, walks, climbs)
            for tile, walks in links.graph_of(state).items()}


def distances(state: BetrayalState, starts: set[int]) -> dict[int, int]:
    """Every room's walking distance, as monsters walk, from the nearest of `starts`."""
    ways = graph(state)
    return links.distances(state, starts, lambda _, tile: ways[tile])


def leave_cost(state: BetrayalState, monster: Monster) -> int:
    return 1 + sides.opponents_in(state, monster.tile, sides.EVIL)


def can_step(state: BetrayalState, monster: Monster) -> bool:
    """Enough moves left to leave its room (a monster can always make one room)."""
    if monster.skip or monster.stunned:
        return False
    cost = leave_cost(state, monster)
    first = monster.moves == state.haunt.rolled.get(monster.kind, 0) if state.haunt else False
    return monster.moves >= cost or (first and monster.moves > 0)


def start_turn(ctx: Ctx) -> None:
    """The monsters' turn begins: stunned ones recover and wait; each kind rolls."""
    state = ctx.state
    assert state.haunt is not None
    state.haunt.rolled = {}
    plugin = base.for_state(state)
    for monster in sides.monsters(state):
        monster.attacked = False
        monster.skip = monster.stunned
        if monster.stunned:
            monster.stunned = False
            tell(ctx, "events.recovers", kind="monster",
                 monster=combat.monster_name(state, monster), data={"monster": monster.id})
    for kind in dict.fromkeys(m.kind for m in sides.monsters(state)):
        speed = plugin.data.monsters[kind].traits.get("speed", 0) if kind in \
            plugin.data.monsters else 0
        some = sides.monsters(state, kind)
        speed = base.hooks(state, CombatHooks).monster_trait(state, some[0], "speed", speed) \
            if some else speed
        dice = roll_betrayal(state.rng, max(1, min(8, speed))) if speed > 0 else []
        moves = max(1, sum(dice)) if speed > 0 else 0
        state.haunt.rolled[kind] = moves
        for monster in some:
            monster.moves = 0 if monster.skip else moves
        name = plugin.data.monsters[kind].name if kind in plugin.data.monsters else kind
        tell(ctx, "events.monsters_roll", kind="roll", monsters=name,
             dice=" ".join(map(str, dice)) or "-", moves=moves,
             data={"kind": kind, "dice": dice, "moves": moves})


def legal(state: BetrayalState) -> list[tuple[Action, str]]:
    """The traitor's options in the monsters' turn: a step for a monster, an attack,
    or the end of their turn."""
    found: list[tuple[Action, str]] = []
    names: dict[int, str] = {}
    for action, monster in _deeds(state):
        if monster is None:
            found.append((action, haunt_line("labels.monsters_done")))
            continue
        name = names.get(monster.id)
        if name is None:
            name = names[monster.id] = combat.monster_name(state, monster)
        if action.kind == M_MOVE:
            room = content.room(state.tiles[int(action.args["to"])].room).name
            found.append((action, haunt_line("labels.monster_move", monster=name, room=room)))
        else:
            who = content.explorer(state.explorers[int(action.args["target"])].key).name
            found.append((action, haunt_line("labels.monster_attack", monster=name, who=who)))
    return found


def deeds(state: BetrayalState) -> list[Action]:
    """`legal`'s actions, in its order, without their words: what a click's check, the
    AI and the turn's own end (playing.lone_end) read, each a whole listing of every
    monster's steps and attacks."""
    return [action for action, _ in _deeds(state)]


def _deeds(state: BetrayalState) -> Iterator[tuple[Action, Monster | None]]:
    """Each monster's steps and attacks, with the monster; the end of their turn last."""
    climbs = _climbs(state)
    for monster in sides.monsters(state):
        if can_step(state, monster):
            for target in _with_climbs(monster.tile, walkable(state, monster.tile), climbs):
                yield Action(M_MOVE, {"m": monster.id, "to": target}), monster
        if not monster.attacked and not monster.skip and not monster.stunned:
            for seat in targets(state, monster):
                yield Action(M_ATTACK, {"m": monster.id, "target": seat}), monster
    yield Action(M_END), None


def targets(state: BetrayalState, monster: Monster) -> list[int]:
    return [s for s, e in enumerate(state.explorers)
            if e.alive and e.tile == monster.tile and sides.side_of(state, s) == sides.HERO
            and base.hooks(state, CombatHooks).can_attack(state, f"m{monster.id}", str(s))]


def perform(ctx: Ctx, action: Action) -> bool:
    """Carry out a monster action; False when it is the end of their turn.

    Each step is told to the traitor's player at once (in the DM where they play), and
    to the table as one line when a monster attacks or the turn ends, so the channel
    sees the monsters' turn as one message with the map."""
    state = ctx.state
    if action.kind == M_END:
        end_turn(ctx)
        return False
    monster = sides.monster(state, f"m{action.args['m']}")
    assert monster is not None
    if action.kind == M_MOVE:
        cost = leave_cost(state, monster)
        monster.moves = max(0, monster.moves - cost)
        source = monster.tile
        monster.tile = int(action.args["to"])
        assert state.haunt is not None
        move = move_words(state, monster, source)
        state.haunt.moved.append(move)
        if state.haunt.traitor is not None:  # the house's own moves reach all in one line
            ctx.events.append(Event(move_said(state, move), to_player(state.haunt.traitor),
                                    "move", {"monster": monster.id, "to": monster.tile}))
        return True
    tell_moves(ctx)
    combat.monster_attack(ctx, monster, int(action.args["target"]),
                          base.hooks(state, CombatHooks).monster_attack_trait(state, monster))
    return True


def nothing_left(ctx: Ctx) -> None:
    """No monster may move or attack any more: their turn ends by itself (playing.py,
    `_close_idle_turns`), and the log reads why: the live message keeps the monsters'
    last deed as its newest line."""
    tell(ctx, "events.monsters_nothing_left", kind=DETAIL)


def end_turn(ctx: Ctx) -> None:
    """The monsters' turn is over: their moves told to the table, then the Coal Chute
    (`leave_chutes`)."""
    tell_moves(ctx)
    leave_chutes(ctx)


def leave_chutes(ctx: Ctx) -> None:
    """Seed 003's Coal Chute (回合完結時，任何人物/怪物皆不可停留在煤導槽: no one, monster
    or explorer, stays in it as a turn ends): a monster still there slides down its
    chute, at the end of their turn and of an explorer's (a card may have moved it in:
    cards/rooms.py, CoalChute)."""
    state = ctx.state
    chutes = {a: b for a, b, kind in house_links(state) if kind == "chute"}
    for monster in sides.monsters(state):
        landing = chutes.get(monster.tile)
        if landing is None:
            continue
        source, monster.tile = monster.tile, landing
        tell(ctx, "events.monster_slides", kind="move",
             monster=combat.monster_name(state, monster), source=ctx.room_name(source),
             target=ctx.room_name(landing), data={"monster": monster.id, "to": landing})


def move_words(state: BetrayalState, monster: Monster, source: int) -> dict[str, Any]:
    """A monster's move into the room it stands in now, kept as the words that tell it
    (its kind, its number when others of its kind are about, as `combat.monster_name`
    names it, and the rooms' keys): the state is saved in English, and the line is
    said when it is told, in each language the table reads (`move_said`)."""
    return {"kind": monster.kind, "number": combat.monster_number(state, monster),
            "source": state.tiles[source].room, "target": state.tiles[monster.tile].room}


def move_said(state: BetrayalState, move: dict[str, Any]) -> str:
    """A kept move (`move_words`) as a line in the language spoken; one kept as a
    sentence before moves kept their words (state.py, `haunt_words_kept`) as it was."""
    if "said" in move:
        return str(move["said"])
    name = combat.numbered_name(state, str(move["kind"]), int(move["number"]))
    return haunt_line("events.monster_moves", monster=name,
                      source=content.room(move["source"]).name,
                      target=content.room(move["target"]).name)


def tell_moves(ctx: Ctx) -> None:
    """The monsters' moves so far, told to the table in one line."""
    haunt = ctx.state.haunt
    if haunt is None or not haunt.moved:
        return
    tell(ctx, "events.monsters_moved", kind="move",
         moves=sentences(move_said(ctx.state, m) for m in haunt.moved),
         data={"moves": len(haunt.moved)})
    haunt.moved = []


def toward(state: BetrayalState, monster: Monster, goals: set[int],
           ways: dict[int, list[int]] | None = None) -> int | None:
    """The neighbouring room on a shortest walk to one of `goals` (for the AI); `ways`
    is the house's `graph` when the caller has it already."""
    if monster.tile in goals or not goals:
        return None
    ways = graph(state) if ways is None else ways
    first: dict[int, int] = {}
    todo: deque[int] = deque()
    for n in ways[monster.tile]:
        if n not in first:
            first[n] = n
            todo.append(n)
    while todo:
        tile = todo.popleft()
        if tile in goals:
            return first[tile]
        for n in ways[tile]:
            if n not in first and n != monster.tile:
                first[n] = first[tile]
                todo.append(n)
    return None


def snapshot(state: BetrayalState) -> list[dict[str, Any]]:
    return [{"id": m.id, "kind": m.kind, "tile": m.tile, "stunned": m.stunned}
            for m in sides.monsters(state)]
