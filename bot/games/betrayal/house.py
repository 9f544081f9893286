"""The house's geometry: three floors of square cells, tiles with rotated doors.

Two tiles on one floor connect only where both facing sides show a door (seed 003).
A floor must always keep a door open to unexplored space (seed 003's rule on closing
a floor); `Layout` is a cheap snapshot of where the doors are, so a placement can be
tried on a copy before it is made. Special links (stairs, chutes, tokens) live in
links.py; this module knows only doors and cells, and what ids name a tile (`take_out`,
which takes tiles out of the house and moves every such id along).

Where the doors lead is asked hundreds of times per AI decision (every walk of the
house), so it is derived once per arrangement of tiles (`plan`) and kept in a small
bounded cache keyed by the tiles as they are (room, floor, cell, turn of each, in id
order) and the content their doors come from: any change to a tile is a new key, so
an answer can never be stale, and games with the same house share one entry.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter
from types import MappingProxyType

from bot.core.lru import Lru
from bot.games.betrayal import content
from bot.games.betrayal.state import BetrayalState, Tile

DIRS: tuple[str, ...] = ("N", "E", "S", "W")
DELTA: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
NAMES: dict[str, str] = {"N": "north", "E": "east", "S": "south", "W": "west"}
ROOTS: tuple[str, ...] = ("entrance_hall", "upper_landing", "basement_landing")
START_LAYOUT: tuple[tuple[str, str, int, int], ...] = (
    # (room, floor, x, y): the printed strip, Grand Staircase - Foyer - Entrance Hall
    ("entrance_hall", "ground", 0, 0),
    ("foyer", "ground", -1, 0),
    ("grand_staircase", "ground", -2, 0),
    ("upper_landing", "upper", 0, 0),
    ("basement_landing", "basement", 0, 0),
)

Cell = tuple[str, int, int]  # (floor, x, y)
Place = tuple[str, str, int, int, int]  # (room, floor, x, y, rotation) of one tile
PLANS_KEPT = 256  # door maps kept: a few per table in play, 200 tables interleaving
_PLACE = attrgetter("room", "floor", "x", "y", "rotation")


def opposite(d: str) -> str:
    return DIRS[(DIRS.index(d) + 2) % 4]


def rotate(d: str, rotation: int) -> str:
    """A printed side after `rotation` clockwise quarter turns."""
    return DIRS[(DIRS.index(d) + rotation) % 4]


def rotated_doors(room: str, rotation: int) -> frozenset[str]:
    return _turned(tuple(content.room(room).doors), rotation % 4)


@cache
def _turned(printed: tuple[str, ...], rotation: int) -> frozenset[str]:
    """Printed doors after a turn; bounded (door lists of the rooms x 4 turns)."""
    return frozenset(rotate(d, rotation) for d in printed)


def doors(tile: Tile) -> frozenset[str]:
    return rotated_doors(tile.room, tile.rotation)


def step(cell: Cell, d: str) -> Cell:
    dx, dy = DELTA[d]
    return (cell[0], cell[1] + dx, cell[2] + dy)


def cell_of(tile: Tile) -> Cell:
    return (tile.floor, tile.x, tile.y)


@dataclass
class Layout:
    """Cell -> open sides, for every placed tile: enough to judge doors and floors."""

    cells: Mapping[Cell, frozenset[str]]
    # Each floor's open doors, worked out once (the cells are read-only): a placement is
    # weighed against them for every place and turn a room may take.
    _open: dict[str, list[tuple[Cell, str]]] = field(default_factory=dict, init=False,
                                                     repr=False, compare=False)

    @classmethod
    def of(cls, state: BetrayalState) -> Layout:
        """The house as it stands; shared by every caller, so its cells are read-only
        (`with_tile` and `without` give changed copies)."""
        return plan(state).layout

    def with_tile(self, cell: Cell, sides: frozenset[str]) -> Layout:
        cells = dict(self.cells)
        cells[cell] = sides
        return Layout(cells)

    def without(self, cell: Cell) -> Layout:
        cells = dict(self.cells)
        cells.pop(cell, None)
        return Layout(cells)

    def connected(self, cell: Cell, d: str) -> bool:
        """Both facing sides show a door."""
        other = step(cell, d)
        return d in self.cells.get(cell, ()) and opposite(d) in self.cells.get(other, ())

    def open_doors(self, floor: str) -> list[tuple[Cell, str]]:
        """Doors on this floor that lead to unexplored space (an empty cell). The same
        list each time: the caller must not change it."""
        found = self._open.get(floor)
        if found is None:
            found = self._open[floor] = [
                (cell, d) for cell, sides in self.cells.items() if cell[0] == floor
                for d in sorted(sides, key=DIRS.index) if step(cell, d) not in self.cells]
        return found

    def is_open(self, floor: str) -> bool:
        return bool(self.open_doors(floor))

    def open_with(self, cell: Cell, sides: frozenset[str], floor: str) -> bool:
        """Whether `floor` keeps an open door once a tile with these `sides` stands at
        `cell`: `with_tile(cell, sides).is_open(floor)`, without copying the house. A
        placement is weighed this way for each place and turn a room may take (the
        Mystic Elevator's, a room explored, a room moved), so the copy was most of such
        a step: its doors out, and every other tile's open door but one into `cell`."""
        if cell[0] == floor and any(step(cell, d) not in self.cells for d in sides):
            return True
        return any(c != cell and step(c, d) != cell for c, d in self.open_doors(floor))

    def frontier(self, floor: str) -> list[Cell]:
        """Empty cells a new tile could join through a door, in a stable order."""
        seen: list[Cell] = []
        for cell, d in self.open_doors(floor):
            target = step(cell, d)
            if target not in seen:
                seen.append(target)
        return seen

    def joins(self, cell: Cell, sides: frozenset[str]) -> bool:
        """A tile with these sides at this cell meets at least one neighbour's door."""
        return any(opposite(d) in self.cells.get(step(cell, d), ()) for d in sides)

    def floor_cells(self, floor: str) -> list[Cell]:
        return [c for c in self.cells if c[0] == floor]


@dataclass(frozen=True)
class Plan:
    """Where the doors of one arrangement of tiles lead; read-only, shared."""

    layout: Layout
    by_cell: Mapping[Cell, int]  # the lowest tile id in each cell
    exits: tuple[Mapping[str, int], ...]  # tile id -> side (N, E, S, W order) -> tile


_PLANS: Lru[tuple[int, tuple[Place, ...]], tuple[object, Plan]] = Lru(PLANS_KEPT)


def places(state: BetrayalState) -> tuple[Place, ...]:
    """Everything about the tiles that doors depend on, in tile id order."""
    return tuple(map(_PLACE, state.tiles))


def plan(state: BetrayalState) -> Plan:
    """The door map of the house as it stands now (see the module's docstring). Which
    content is part of the key because tests install their own rooms (the shipped
    content is one source in every language: a Chinese table's house shares its map
    with the English words'); the entry holds the source object, so its id cannot be
    reused while the entry lives."""
    source = content.source()
    key = (id(source), places(state))
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is source:
        return hit[1]
    found = build_plan(key[1])
    _PLANS.put(key, (source, found))
    return found


def build_plan(tiles: tuple[Place, ...]) -> Plan:
    """Derive the door map from scratch (what `plan` keeps)."""
    layout = Layout(MappingProxyType({(f, x, y): rotated_doors(room, r)
                                      for room, f, x, y, r in tiles}))
    by_cell: dict[Cell, int] = {}
    for i, (_, f, x, y, _) in enumerate(tiles):
        by_cell.setdefault((f, x, y), i)
    exits = tuple(MappingProxyType({d: by_cell[step((f, x, y), d)] for d in DIRS
                                    if layout.connected((f, x, y), d)})
                  for _, f, x, y, _ in tiles)
    return Plan(layout, MappingProxyType(by_cell), exits)


def tile_at(state: BetrayalState, cell: Cell) -> int | None:
    return plan(state).by_cell.get(cell)


def through_door(state: BetrayalState, tile_id: int, d: str) -> int | None:
    """The tile reached through this side, if both facing sides show a door."""
    return plan(state).exits[tile_id].get(d)


def door_targets(state: BetrayalState, tile_id: int) -> list[int]:
    """The tiles reached through this tile's doors, sides in N, E, S, W order (the same
    as `through_door` for each side, with the house looked up once)."""
    return list(plan(state).exits[tile_id].values())


def distinct_rotations(room: str) -> list[int]:
    """Rotations giving different door sets (a four-door room has only one)."""
    seen: set[frozenset[str]] = set()
    result = []
    for r in range(4):
        sides = rotated_doors(room, r)
        if sides not in seen:
            seen.add(sides)
            result.append(r)
    return result


def explore_rotations(layout: Layout, room: str, cell: Cell, towards: str,
                      floor_to_keep: str | None = None) -> list[int]:
    """Rotations of `room` placed at `cell` with a door facing back `towards` the
    explorer's room; with `floor_to_keep`, only those that leave that floor open."""
    result = []
    for r in distinct_rotations(room):
        sides = rotated_doors(room, r)
        if towards not in sides:
            continue
        if floor_to_keep and not layout.open_with(cell, sides, floor_to_keep):
            continue
        result.append(r)
    return result


def free_spots(layout: Layout, room: str, floor: str,
               keep_open: bool = True) -> list[tuple[Cell, int]]:
    """Every (cell, rotation) on a floor where `room` can be placed as if explored:
    joined to a door there and (with keep_open) leaving the floor open."""
    spots = []
    for cell in layout.frontier(floor):
        for r in distinct_rotations(room):
            sides = rotated_doors(room, r)
            if not layout.joins(cell, sides):
                continue
            if keep_open and not layout.open_with(cell, sides, floor):
                continue
            spots.append((cell, r))
    return spots


def floor_connected(layout: Layout, floor: str, roots: list[Cell],
                    extra: list[tuple[Cell, Cell]] | None = None) -> bool:
    """Every tile of the floor can be reached from a root through doors (and `extra`
    links, both ways)."""
    return reached(layout, floor, roots, extra) == set(layout.floor_cells(floor))


def reached(layout: Layout, floor: str, roots: list[Cell],
            extra: list[tuple[Cell, Cell]] | None = None) -> set[Cell]:
    """The tiles of the floor reached from a root through doors (and `extra` links, both
    ways): all of them in seed 003's house, fewer where a haunt spread it apart."""
    cells = set(layout.floor_cells(floor))
    start = [c for c in roots if c in cells]
    seen = set(start)
    todo = list(start)
    while todo:
        cell = todo.pop()
        nxt = [step(cell, d) for d in DIRS if layout.connected(cell, d)]
        for a, b in extra or ():
            nxt += [b] if a == cell else [a] if b == cell else []
        for n in nxt:
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


@dataclass(frozen=True)
class Rearrangement:
    """Seed 003's last resort: the smallest change that reopens a closed floor."""

    tile: int
    rotation: int
    cell: Cell | None = None  # set when the tile moves to another cell


def last_resort(state: BetrayalState, floor: str, protected: set[int],
                links: list[tuple[Cell, Cell]]) -> Rearrangement | None:
    """Reopen a floor that a forced placement closed (seed 003 allows 'changing the
    placement of other rooms as little as possible: turn one, move one next door or
    swap two'). Ours, in this order, first hit wins:

    1. turn one placed tile of that floor (newest first, never a start tile), or
    2. lift one such tile and put it down on a free spot of the same floor (joined to
       a door, any turn that joins),
    so that every tile of the floor is still reached from its landing and at least one
    door of the floor opens on unexplored space. None when nothing works: the floor
    then stays closed, which only happens when it has no room left to grow.
    """
    layout = Layout.of(state)
    roots = [cell_of(t) for t in state.tiles if t.room in ROOTS or content.room(t.room).start]
    candidates = [i for i in range(len(state.tiles) - 1, -1, -1)
                  if state.tiles[i].floor == floor and i not in protected
                  and not content.room(state.tiles[i].room).start]

    def good(trial: Layout) -> bool:
        return trial.is_open(floor) and floor_connected(trial, floor, roots, links)

    for i in candidates:
        tile = state.tiles[i]
        for r in distinct_rotations(tile.room):
            if r == tile.rotation:
                continue
            if good(layout.with_tile(cell_of(tile), rotated_doors(tile.room, r))):
                return Rearrangement(i, r)
    for i in candidates:
        tile = state.tiles[i]
        if any(cell_of(tile) in pair for pair in links):
            continue  # a tile held by a special link stays where the link points
        lifted = layout.without(cell_of(tile))
        for cell, r in free_spots(lifted, tile.room, floor, keep_open=False):
            if good(lifted.with_tile(cell, rotated_doors(tile.room, r))):
                return Rearrangement(i, r, cell)
    return None


# ---------------------------------------------------------------- taking tiles out

# A link seen once whose room has left the house (`take_out`): it keeps its place in
# `state.links_seen`, so every later link keeps its ordinal (the map's letter), and it
# names no tile, so it can never match a link made later.
GONE_LINK: tuple[int, int] = (-1, -1)
# `frame.vars` that hold a tile id (cards/__init__.py): "placed", "token_tile" and each
# "token:<kind>".
_TILE_VARS: tuple[str, ...] = ("placed", "token_tile")


def take_out(state: BetrayalState, gone: Collection[int],
             refuge: int | None = None) -> dict[int, int]:
    """Take these placed tiles out of the house. A tile's id is its index (state.py), so
    every later tile's id moves down, and every id that names a tile moves with it: the
    explorers and monsters, link tokens (one leading into a room gone goes too), the
    Collapsed Room's hole (`below`; one into a room gone is closed), the links the map
    has lettered (`links_seen`: one naming a room gone becomes `GONE_LINK`, so no letter
    changes), the turn's walk and placed tile, and the tile ids of the cards being
    resolved. Whoever stands in a tile taken out goes to `refuge` (an id before the
    change; on no side of a split room); with no refuge that is an error, raised before
    anything changes. Returns the new id of each tile kept, by its old id."""
    out = set(gone)
    new = {old: n for n, old in enumerate(i for i in range(len(state.tiles)) if i not in out)}
    if refuge is not None and refuge not in new:
        raise ValueError(f"the refuge, tile {refuge}, is taken out too")
    stranded = [f"{what} in tile {tile}" for what, tile in
                [*(("an explorer", e.tile) for e in state.explorers),
                 *(("a monster", m.tile) for m in state.monsters)] if tile not in new]
    if stranded and refuge is None:
        raise ValueError(f"tiles taken out with no refuge: {', '.join(stranded)}")
    haven = -1 if refuge is None else new[refuge]
    for explorer in state.explorers:
        if explorer.tile not in new:
            explorer.side = None
        explorer.tile = new.get(explorer.tile, haven)
    for monster in state.monsters:
        monster.tile = new.get(monster.tile, haven)
    state.tiles = [state.tiles[old] for old in new]
    for tile in state.tiles:
        tile.tokens = [dict(t, link=new[int(t["link"])]) if t.get("link") is not None else t
                       for t in tile.tokens
                       if t.get("link") is None or int(t["link"]) in new]
        if "below" in tile.flags:
            below = int(tile.flags["below"])
            if below in new:
                tile.flags["below"] = new[below]
            else:
                del tile.flags["below"]
    state.links_seen = [[new[a], new[b]] if a in new and b in new else list(GONE_LINK)
                        for a, b in state.links_seen]
    state.turn.walked = [new[t] for t in state.turn.walked if t in new]
    state.turn.placed = new.get(state.turn.placed, -1)
    for frame in state.script:
        for key in [k for k in frame.vars if k in _TILE_VARS or k.startswith("token:")]:
            tile_id = frame.vars[key]
            if not isinstance(tile_id, int):
                continue
            if tile_id in new:
                frame.vars[key] = new[tile_id]
            else:
                del frame.vars[key]  # the room it named has gone
    return new
