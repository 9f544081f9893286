"""Houses: twelve rooms on a 4 x 3 grid joined by passages between grid neighbours.

Built-in houses come from data; a random house is generated from the game's Rng so a
seed replays the same house. Every house we make is one connected piece: with two
characters left in separate parts nobody could ever fight again and the rumble could
never end (see the rulings topic).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.rng import Rng
from bot.games.cthulhu import content
from bot.locales import per_language

COLS = 4
ROWS = 3
ROOM_COUNT = COLS * ROWS
RANDOM = "random"

Slot = tuple[int, int]
Passage = tuple[int, int]


@dataclass(frozen=True)
class Layout:
    key: str
    title: str
    slots: tuple[Slot, ...]  # room i -> (col, row)
    passages: tuple[Passage, ...]  # room pairs (a < b), sorted


def grid_neighbours() -> list[tuple[Slot, Slot]]:
    """Every pair of grid cells sharing a side: 17 of them on a 4 x 3 grid."""
    pairs: list[tuple[Slot, Slot]] = []
    for row in range(ROWS):
        for col in range(COLS):
            if col + 1 < COLS:
                pairs.append(((col, row), (col + 1, row)))
            if row + 1 < ROWS:
                pairs.append(((col, row), (col, row + 1)))
    return pairs


def _adjacent(a: Slot, b: Slot) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _connected(count: int, passages: tuple[Passage, ...]) -> bool:
    seen = {0}
    frontier = [0]
    while frontier:
        room = frontier.pop()
        for a, b in passages:
            for here, there in ((a, b), (b, a)):
                if here == room and there not in seen:
                    seen.add(there)
                    frontier.append(there)
    return len(seen) == count


def check(layout: Layout) -> None:
    """Refuse a house the rules cannot be played in; raises ValueError naming the flaw."""
    slots = layout.slots
    if len(slots) != ROOM_COUNT or len(set(slots)) != ROOM_COUNT:
        raise ValueError(f"{layout.key}: needs {ROOM_COUNT} distinct slots")
    if any(not (0 <= c < COLS and 0 <= r < ROWS) for c, r in slots):
        raise ValueError(f"{layout.key}: a slot lies outside the {COLS}x{ROWS} grid")
    if len(set(layout.passages)) != len(layout.passages):
        raise ValueError(f"{layout.key}: a passage is listed twice")
    for a, b in layout.passages:
        if not (0 <= a < b < ROOM_COUNT) or not _adjacent(slots[a], slots[b]):
            raise ValueError(f"{layout.key}: passage {a}-{b} does not join grid neighbours")
    if len(layout.passages) >= len(grid_neighbours()):
        raise ValueError(f"{layout.key}: some neighbouring rooms must have no passage")
    joined = {room for passage in layout.passages for room in passage}
    if len(joined) != ROOM_COUNT:
        raise ValueError(f"{layout.key}: every room needs at least one passage")
    if not _connected(ROOM_COUNT, layout.passages):
        raise ValueError(f"{layout.key}: the house must be one connected piece")


def _normalise(passages: list[tuple[int, int]]) -> tuple[Passage, ...]:
    return tuple(sorted((min(a, b), max(a, b)) for a, b in passages))


def builtin_layouts() -> dict[str, Layout]:
    return dict(_builtins())


@per_language  # the titles are words: one set of layouts per language
def _builtins() -> tuple[tuple[str, Layout], ...]:
    out: dict[str, Layout] = {}
    for key, spec in content.layout_specs().items():
        layout = Layout(
            key=key,
            title=str(spec["title"]),
            slots=tuple((int(c), int(r)) for c, r in spec["slots"]),
            passages=_normalise([(int(a), int(b)) for a, b in spec["passages"]]),
        )
        check(layout)
        out[key] = layout
    return tuple(out.items())


def layout_keys() -> list[str]:
    """What `options["layout"]` accepts: each built-in house, then "random"."""
    return [*builtin_layouts(), RANDOM]


def random_layout(rng: Rng) -> Layout:
    """Rooms in shuffled slots; a random spanning tree keeps the house whole, and each
    remaining neighbour pair gets a passage on a coin flip (never all of them)."""
    cells = [(c, r) for r in range(ROWS) for c in range(COLS)]
    rng.shuffle(cells)
    room_at = {cell: room for room, cell in enumerate(cells)}
    pairs = [(room_at[a], room_at[b]) for a, b in grid_neighbours()]
    rng.shuffle(pairs)
    group = list(range(ROOM_COUNT))

    def root(room: int) -> int:
        while group[room] != room:
            room = group[room]
        return room

    tree: list[tuple[int, int]] = []
    extras: list[tuple[int, int]] = []
    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            group[ra] = rb
            tree.append((a, b))
        else:
            extras.append((a, b))
    chosen = [pair for pair in extras if rng.below(2)]
    if len(chosen) == len(extras):
        chosen.pop(rng.below(len(chosen)))
    layout = Layout(RANDOM, content.text("houses.random"), tuple(cells),
                    _normalise(tree + chosen))
    check(layout)
    return layout


def layout_title(key: str) -> str:
    """The name players read for a house stored by key in the state."""
    builtin = builtin_layouts().get(key)
    return builtin.title if builtin else content.text("houses.random")


def get_layout(key: str, rng: Rng) -> Layout:
    """A built-in house by key, or a fresh random one for "random"; KeyError otherwise."""
    if key == RANDOM:
        return random_layout(rng)
    return builtin_layouts()[key]
