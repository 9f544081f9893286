"""Special links: the ways between rooms that are not doors (seed 003).

Each link comes from a passive: the start rooms' stairs, the Coal Chute, the Gallery,
the Collapsed Room (cards/rooms.py), the tokens of Secret Passage and Secret Stairs
(cards/tokens.py) and the Rope (cards/basics.py). Moving through a link counts as
entering one room (1 Speed) unless the link says otherwise.

Link tokens are `{"kind": "secret_passage", "card": ..., "link": <other tile id>}`:
`connect` lays both ends; a `token` step of a linking kind, run twice by one card,
joins its two ends by itself (effects.put_token).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from bot.games.betrayal import content, hooks
from bot.games.betrayal.cards import PASSIVES, Link, RoomPassive
from bot.games.betrayal.house import DIRS, ROOTS, Cell, Layout, Plan, cell_of, plan, step
from bot.games.betrayal.state import BetrayalState

LINK_TOKENS: tuple[str, ...] = ("secret_passage", "secret_stairs")
BELOW_COLLAPSED = "below_collapsed"  # the token of the room the Collapsed Room falls into


def links_from(state: BetrayalState, seat: int, tile_id: int | None = None) -> list[Link]:
    """Every link this explorer could take out of its room (or out of `tile_id`)."""
    tile_id = state.explorers[seat].tile if tile_id is None else tile_id
    found: list[Link] = []
    for passive, ref in hooks.of_tile(state, tile_id, RoomPassive):
        found += passive.links(state, seat, tile_id, ref)
    for passive, ref in hooks.of_explorer(state, seat, RoomPassive):
        found += passive.links(state, seat, tile_id, ref)
    return found


def house_links(state: BetrayalState) -> list[tuple[int, int, str]]:
    """The house's own links, whoever walks them (no Rope): (from, to, kind)."""
    found = []
    rooms = content.get().rooms
    for tile_id, tile in enumerate(state.tiles):
        # What `of_tile` finds, without asking it of a room with no link of its own and
        # no token lying there: most of the house, on every action (`remember`).
        if not tile.tokens and not isinstance(PASSIVES.get(rooms[tile.room].custom),
                                              RoomPassive):
            continue
        for passive, ref in hooks.of_tile(state, tile_id, RoomPassive):
            for link in passive.links(state, -1, tile_id, ref):
                found.append((tile_id, link.target, link.kind))
    return found


def remember(state: BetrayalState) -> None:
    """Note the links that have just appeared in `state.links_seen` (after setup and
    after every action), so each keeps its place in `ordered_links` for the game."""
    seen = {tuple(p) for p in state.links_seen}
    for a, b, _ in house_links(state):
        pair = (min(a, b), max(a, b))
        if pair not in seen:
            seen.add(pair)
            state.links_seen.append(list(pair))


def ordered_links(state: BetrayalState) -> list[tuple[int, int, int]]:
    """The house's links now, as (tile, tile, ordinal), the lower tile id first, by
    ordinal: the link's place in the order links first appeared (`remember`). A link
    not noted yet (a game stored before links were noted) comes after, by when its
    later room was placed. A link that has gone keeps its ordinal, so no other link's
    changes."""
    now = {(min(a, b), max(a, b)) for a, b, _ in house_links(state)}
    order = {(p[0], p[1]): i for i, p in enumerate(state.links_seen)}
    known = sorted((order[p], p) for p in now if p in order)
    new = sorted((p for p in now if p not in order), key=lambda p: (p[1], p[0]))
    return [(a, b, i) for i, (a, b) in known] + [
        (a, b, len(order) + k) for k, (a, b) in enumerate(new)]


def walkable(state: BetrayalState, tile_id: int) -> list[int]:
    """Placed rooms one can walk to from here, whoever walks: doors, and the house's
    links that can be walked (not the Revolving Wall, crossed only by a roll)."""
    return _walkable(state, tile_id, plan(state))


def _walkable(state: BetrayalState, tile_id: int, house: Plan) -> list[int]:
    found = list(house.exits[tile_id].values())
    for passive, ref in hooks.of_tile(state, tile_id, RoomPassive):
        found += [link.target for link in passive.links(state, -1, tile_id, ref)
                  if link.walkable]
    return found


def distances(state: BetrayalState, starts: set[int],
              step: Callable[[BetrayalState, int], list[int]] = walkable) -> dict[int, int]:
    """Every room's walking distance from the nearest of `starts` (a breadth-first
    search over `step`: `walkable`, or a monster's way of walking)."""
    found = dict.fromkeys(starts, 0)
    todo = deque(starts)
    while todo:
        tile = todo.popleft()
        for nxt in step(state, tile):
            if nxt not in found:
                found[nxt] = found[tile] + 1
                todo.append(nxt)
    return found


def graph_of(state: BetrayalState) -> dict[int, list[int]]:
    """`walkable` from every room, the doors looked up once: for the searches of one
    decision (`distances_to`)."""
    house = plan(state)
    return {tile: _walkable(state, tile, house) for tile in range(len(state.tiles))}


def distances_to(graph: Mapping[int, list[int]], goals: set[int]) -> dict[int, int]:
    """Every room's walking distance to the nearest of `goals` along `graph` (from
    `graph_of`): one search backwards from the goals, which gives for every room what
    a search forwards from that room would (the ways may be one-way: the Coal Chute)."""
    back: dict[int, list[int]] = {}
    for tile, nexts in graph.items():
        for nxt in nexts:
            back.setdefault(nxt, []).append(tile)
    found = dict.fromkeys(goals, 0)
    todo = deque(goals)
    while todo:
        tile = todo.popleft()
        for prev in back.get(tile, ()):
            if prev not in found:
                found[prev] = found[tile] + 1
                todo.append(prev)
    return found


def link_cells(state: BetrayalState) -> list[tuple[Cell, Cell]]:
    """Links as cell pairs, for the geometry's connectivity checks."""
    return [(cell_of(state.tiles[a]), cell_of(state.tiles[b])) for a, b, _ in house_links(state)]


def token_side(state: BetrayalState, tile_id: int, kind: str) -> str | None:
    """The door a token of this kind lies by in a split room (seed 003, line 570:
    玩家只可將標記放在其中一度門扉前 [the token goes before one of its doors]); None where
    the room is not split, or no such token lies there."""
    return next((t.get("side") for t in state.tiles[tile_id].tokens if t["kind"] == kind),
                None)


def connect(state: BetrayalState, kind: str, a: int, b: int, card: str) -> None:
    """Lay a linked pair of tokens (Secret Passage, Secret Stairs) in tiles a and b."""
    state.tiles[a].tokens.append({"kind": kind, "card": card, "link": b})
    state.tiles[b].tokens.append({"kind": kind, "card": card, "link": a})


def join_last(state: BetrayalState, kind: str, first: int, second: int) -> None:
    """The newest unlinked `kind` tokens of two tiles now lead to each other."""
    for here, there in ((first, second), (second, first)):
        token = next((t for t in reversed(state.tiles[here].tokens)
                      if t["kind"] == kind and t.get("link") is None), None)
        if token is not None:
            token["link"] = there


def reachable(state: BetrayalState) -> set[int]:
    """Tiles reached from the three start rooms through doors and the house's links,
    both ways (the property tests' 'no tile cut off from the house')."""
    layout = Layout.of(state)
    by_cell = {cell_of(t): i for i, t in enumerate(state.tiles)}
    extra: dict[int, set[int]] = {}
    for a, b, _ in house_links(state):
        extra.setdefault(a, set()).add(b)
        extra.setdefault(b, set()).add(a)
    todo = [i for i, t in enumerate(state.tiles) if t.room in ROOTS]
    seen = set(todo)
    while todo:
        i = todo.pop()
        cell = cell_of(state.tiles[i])
        nxt: list[Any] = [by_cell[step(cell, d)] for d in DIRS if layout.connected(cell, d)]
        nxt += sorted(extra.get(i, ()))
        for j in nxt:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen
