"""The Betrayal images: the house map and the explorer sheet.

Views are built by hand (the engine is written separately): a small house early in a
game, and a full 47-tile house over three floors grown at random from the real room
list (doors and symbols from shared/reference/betrayal-facts.md), every tile placed
next to a placed tile with one of its doors facing a door there, as the rules place them.
"""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from bot.games.betrayal.pictures import (
    FLOORS,
    CardView,
    ExplorerView,
    MapView,
    SheetView,
    TileView,
    TraitView,
    omen_track,
)
from renderers import betrayal, canvas, common
from renderers.betrayal import (
    BARRIER,
    DEAD,
    FLOOR_FILL,
    GOLD,
    START_FILL,
    WALL,
    map_geometry,
    render_image,
    render_map,
    render_sheet,
    render_sheet_image,
    sheet_geometry,
)
from renderers.betrayal.palette import px as scaled_px
from renderers.betrayal.sheet import SHEET_WIDTH
from tests.zh_labels import is_chinese, translated, zh

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 400_000
TOLERANCE = 12  # palettized PNG: flat fills exact, anti-aliased edges a few units off

# (name, doors as printed, symbol, floors it may be placed on: u / g / b)
ROOMS: tuple[tuple[str, str, str, str], ...] = (
    ("Abandoned Room", "NESW", "omen", "gb"), ("Attic", "S", "event", "u"),
    ("Balcony", "NS", "omen", "u"), ("Ballroom", "NESW", "event", "g"),
    ("Bedroom", "EW", "event", "u"), ("Bloody Room", "NESW", "item", "ug"),
    ("Catacombs", "NS", "omen", "b"), ("Chapel", "N", "event", "ug"),
    ("Charred Room", "NESW", "omen", "ug"), ("Chasm", "EW", "", "b"),
    ("Coal Chute", "N", "", "g"), ("Collapsed Room", "NESW", "", "ug"),
    ("Conservatory", "N", "event", "ug"), ("Creaky Hallway", "NESW", "", "ugb"),
    ("Crypt", "NE", "event", "b"), ("Dining Room", "NE", "omen", "g"),
    ("Dusty Hallway", "NESW", "", "ugb"), ("Furnace Room", "NSW", "omen", "b"),
    ("Gallery", "NS", "omen", "u"), ("Game Room", "NES", "event", "ugb"),
    ("Gardens", "NS", "event", "g"), ("Graveyard", "S", "event", "g"),
    ("Gymnasium", "ES", "omen", "ub"), ("Junk Room", "NESW", "omen", "ugb"),
    ("Kitchen", "NE", "omen", "gb"), ("Larder", "NS", "item", "b"),
    ("Library", "SW", "event", "ug"), ("Master Bedroom", "NW", "omen", "u"),
    ("Mystic Elevator", "N", "", "ugb"), ("Operating Laboratory", "ES", "event", "ub"),
    ("Organ Room", "SW", "event", "ugb"), ("Patio", "NSW", "event", "g"),
    ("Pentagram Chamber", "E", "omen", "b"), ("Research Laboratory", "NS", "event", "ub"),
    ("Servants' Quarters", "NESW", "omen", "ub"), ("Stairs from Basement", "S", "", "b"),
    ("Statuary Corridor", "NS", "event", "ugb"), ("Storeroom", "N", "item", "ub"),
    ("Tower", "EW", "event", "u"), ("Underground Lake", "NE", "event", "u"),
    ("Vault", "N", "event", "ub"), ("Wine Cellar", "NS", "item", "b"),
)
BARRIERS = {"Catacombs", "Chasm", "Tower", "Vault"}
FLOOR_OF = {"u": "upper", "g": "ground", "b": "basement"}
TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}  # a quarter turn clockwise
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
COLOURS = ["#e5534b", "#f2c94c", "#4cc26e", "#4a9eff", "#f2f2f2", "#b47cf0"]
PLAYERS = ["Ann", "Boris", "Chidi", "Dana", "Emeka", "Fatima"]
EXPLORERS = ["Ox Bellows", "Zoe Ingstrom", "Peter Akimoto", "Vivian Lopez",
             "Father Rhinehardt", "Jenny LeClerc"]


def key_of(name: str) -> str:
    return name.lower().replace("'", "").replace(" ", "_")


def start_tiles() -> list[TileView]:
    """The printed start strip (Grand Staircase - Foyer - Entrance Hall, west to east)
    and the two landings."""
    return [
        TileView("grand_staircase", "Grand Staircase", "ground", 0, 0, ("E",), start=True),
        TileView("foyer", "Foyer", "ground", 1, 0, ("N", "E", "S", "W"), start=True),
        TileView("entrance_hall", "Entrance Hall", "ground", 2, 0, ("N", "S", "W"), start=True),
        TileView("upper_landing", "Upper Landing", "upper", 0, 0, ("N", "E", "S", "W"),
                 start=True),
        TileView("basement_landing", "Basement Landing", "basement", 0, 0,
                 ("N", "E", "S", "W"), start=True),
    ]


def rotations(doors: str) -> list[tuple[str, ...]]:
    out = []
    current = tuple(doors)
    for _ in range(4):
        out.append(current)
        current = tuple(TURN[d] for d in current)
    return out


def grow_house(seed: int, rooms: int = len(ROOMS)) -> list[TileView]:
    """Start tiles plus `rooms` rooms placed at random, each through a door."""
    rng = random.Random(seed)
    tiles = start_tiles()
    taken = {(t.floor, t.x, t.y): t for t in tiles}
    order = list(ROOMS)
    rng.shuffle(order)
    queue = order[:rooms]
    stuck = 0
    while queue:
        name, doors, symbol, floors = queue.pop(0)
        if stuck > len(queue):  # nowhere on its own floors: any floor with a free door
            floors = "ugb"
        options = []
        for floor in (FLOOR_OF[f] for f in floors):
            for t in [t for t in tiles if t.floor == floor]:
                for side in t.doors:
                    dx, dy = DELTA[side]
                    cell = (floor, t.x + dx, t.y + dy)
                    if cell in taken:
                        continue
                    for turned in rotations(doors):
                        if OPPOSITE[side] in turned:
                            options.append((cell, turned))
        if not options:  # its floors are closed off for now: try it again later
            queue.append((name, doors, symbol, floors))
            stuck += 1
            continue
        stuck = 0
        cell, turned = rng.choice(options)
        floor, x, y = cell
        tile = TileView(key_of(name), name, floor, x, y, tuple(sorted(turned, key="NESW".index)),
                        symbol=symbol, barrier=name in BARRIERS)
        tiles.append(tile)
        taken[cell] = tile
    return tiles


def explorers_on(tiles: list[TileView], count: int, seed: int,
                 crowd: str | None = None) -> list[ExplorerView]:
    """`count` explorers on random tiles (all in `crowd` if given); seat 0 acts, seat 1
    is dead when there are 3 or more."""
    rng = random.Random(seed)
    by_key = {t.key: t for t in tiles}
    out = []
    for seat in range(count):
        tile = by_key[crowd] if crowd else rng.choice(tiles)
        out.append(ExplorerView(seat=seat, name=EXPLORERS[seat], player=PLAYERS[seat],
                                colour=COLOURS[seat], floor=tile.floor, x=tile.x, y=tile.y,
                                alive=not (seat == 1 and count >= 3), acting=seat == 0))
    return out


def full_view(seed: int = 7, players: int = 6) -> MapView:
    tiles = grow_house(seed)
    by_key = {t.key: t for t in tiles}
    # A few tokens, item piles and links, as a game would leave them.
    marked = []
    for t in tiles:
        if t.key == "vault":
            t = TileView(**{**t.__dict__, "tokens": ("vault_empty",)})
        elif t.key == "chapel":
            t = TileView(**{**t.__dict__, "tokens": ("blessing",)})
        elif t.key in ("kitchen", "library"):
            t = TileView(**{**t.__dict__, "tokens": ("secret_passage",)})
        elif t.key in ("ballroom", "attic", "crypt"):
            t = TileView(**{**t.__dict__, "item_pile": ("Dynamite", "Rope")[: 1 + len(t.key) % 2]})
        marked.append(t)
    explorers = explorers_on(marked, players, seed)
    assert len(by_key) == 47
    return MapView(tiles=tuple(marked), explorers=tuple(explorers),
                   header="Turn 31 · Ox Bellows (Ann) to play", track=omen_track(9),
                   footer="The haunt has begun: The Web of Destiny",
                   links=(("kitchen", "library"), ("foyer", "stairs_from_basement")))


def small_view(**changes: object) -> MapView:
    tiles = [*start_tiles(),
             TileView("dining_room", "Dining Room", "ground", 1, -1, ("E", "S"), symbol="omen"),
             TileView("library", "Library", "upper", 1, 0, ("S", "W"), symbol="event",
                      tokens=("secret_passage",)),
             TileView("tower", "Tower", "upper", 0, 1, ("N", "S"), symbol="event", barrier=True),
             TileView("bloody_room", "Bloody Room", "ground", 2, 1, ("N", "E", "S", "W"),
                      symbol="item", item_pile=("Axe", "Rope", "Lucky Stone"))]
    explorers = [
        ExplorerView(0, "Ox Bellows", "Ann", "#e5534b", "ground", 1, 0, acting=True),
        ExplorerView(1, "Zoe Ingstrom", "Boris", "#f2c94c", "ground", 1, 0),
        ExplorerView(2, "Peter Akimoto", "Chidi", "#4cc26e", "upper", 1, 0),
        ExplorerView(3, "Vivian Lopez", "Dana", "#4a9eff", "ground", 2, 1, alive=False),
    ]
    fields: dict[str, object] = dict(tiles=tuple(tiles), explorers=tuple(explorers),
                                     header="Turn 4 · Ox Bellows (Ann) to play",
                                     track=omen_track(1))
    fields.update(changes)
    return MapView(**fields)  # type: ignore[arg-type]


def sheet_view(**changes: object) -> SheetView:
    fields: dict[str, object] = dict(
        name="Ox Bellows", player="Ann", colour="#e5534b", room="Dining Room",
        traits={
            "speed": TraitView((2, 2, 2, 3, 4, 5, 5, 6), 4, 4),
            "might": TraitView((4, 5, 5, 6, 6, 7, 8, 8), 6, 2),
            "sanity": TraitView((2, 2, 3, 4, 5, 5, 6, 7), 0, 2),
            "knowledge": TraitView((2, 2, 3, 3, 5, 5, 6, 6), 2, 2),
        },
        cards=(
            CardView("Dog", "omen", "A loyal companion. Once per turn it can move up to 6 "
                     "spaces to trade with another explorer, then comes back."),
            CardView("Axe", "item", "A weapon: +1 die when you attack with Might."),
            CardView("Angel Feather", "item", "Before any trait roll, you may choose a number "
                     "from 0 to 8 and use that as the result instead."),
            CardView("Webs", "event", "Stuck: roll Might 4+ to break free. Others in the "
                     "room may help."),
        ),
        notes=("Lasting: Webs (stuck until you roll Might 4+)",),
    )
    fields.update(changes)
    return SheetView(**fields)  # type: ignore[arg-type]


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = TOLERANCE) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def body_point(geo: betrayal.MapGeometry, ex: ExplorerView) -> tuple[int, int]:
    """A point of an explorer's disc that shows its fill: the centre, or for a dead
    explorer (crossed out by an ✕ through the centre) halfway down, between the bars."""
    cx, cy = geo.tokens[ex.seat]
    return (cx, cy) if ex.alive else (cx, cy + geo.token_radius[ex.seat] // 2)


# -------------------------------------------------------------------------- map


@pytest.fixture(scope="module")
def full() -> MapView:
    return full_view()


def test_full_house_has_47_tiles_on_three_floors(full: MapView) -> None:
    assert len(full.tiles) == 47
    assert {t.floor for t in full.tiles} == set(FLOORS)
    assert len({(t.floor, t.x, t.y) for t in full.tiles}) == 47


@pytest.mark.parametrize("width", [1200, 600])
def test_map_png_signature_width_and_size(full: MapView, width: int) -> None:
    data = render_map(full, width=width)
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    img = image(data)
    geo = map_geometry(full, width)
    assert img.size == (width, geo.height)


@pytest.mark.parametrize("seed", range(6))
def test_many_full_houses_fit_and_stay_legible(seed: int) -> None:
    view = full_view(seed)
    geo = map_geometry(view)
    assert geo.width == 1200
    # 1168 px hold 8 tiles of TILE_MIN and their gaps: a wider floor gets smaller tiles.
    assert geo.tile >= betrayal.TILE_MIN or max(
        e[2] - e[0] + 1 for e in geo.extents.values()) > 8
    data = render_map(view)
    assert len(data) < MAX_BYTES
    # Tiles lie inside their floor's panel and never overlap.
    boxes = list(geo.tiles.values())
    for tile in view.tiles:
        px0, py0, px1, py1 = geo.panels[tile.floor]
        x0, y0, x1, y1 = geo.tiles[tile.key]
        assert px0 <= x0 < x1 <= px1 and py0 <= y0 < y1 <= py1
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    # Panels do not overlap and stay inside the image.
    panels = list(geo.panels.values())
    for i, a in enumerate(panels):
        assert a[0] >= 0 and a[2] <= geo.width and a[3] <= geo.height
        for b in panels[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_explorer_tokens_show_their_colour(full: MapView) -> None:
    img = render_image(full)
    geo = map_geometry(full)
    assert set(geo.tokens) == {ex.seat for ex in full.explorers}
    for ex in full.explorers:
        want = common.parse_colour(ex.colour) if ex.alive else DEAD
        assert img.getpixel(body_point(geo, ex)) == want, ex
    png = image(render_map(full))
    for ex in full.explorers:
        want = common.parse_colour(ex.colour) if ex.alive else DEAD
        assert close(png.getpixel(body_point(geo, ex)), want), ex


def test_six_explorers_in_one_tile_all_fit() -> None:
    tiles = grow_house(3, rooms=10)
    view = MapView(tiles=tuple(tiles), explorers=tuple(explorers_on(tiles, 6, 0, "foyer")),
                   header="Crowded", track=omen_track(0))
    geo = map_geometry(view)
    img = render_image(view)
    x0, y0, x1, y1 = geo.tiles["foyer"]
    centres = [geo.tokens[s] for s in range(6)]
    assert len(set(centres)) == 6
    for seat, (cx, cy) in enumerate(centres):
        r = geo.token_radius[seat]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
        ex = view.explorers[seat]
        want = common.parse_colour(ex.colour) if ex.alive else DEAD
        assert img.getpixel(body_point(geo, ex)) == want
    for a in range(6):
        for b in range(a + 1, 6):
            (ax, ay), (bx, by) = centres[a], centres[b]
            reach = geo.ring_radius[a] + geo.ring_radius[b]
            assert (ax - bx) ** 2 + (ay - by) ** 2 >= reach ** 2


def test_acting_explorer_is_ringed_in_gold() -> None:
    view = small_view()
    img = render_image(view)
    geo = map_geometry(view)
    for ex in view.explorers:
        cx, cy = geo.tokens[ex.seat]
        ring = geo.ring_radius[ex.seat]
        samples = [img.getpixel((cx + dx * ring, cy + dy * ring))
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        if ex.acting:
            assert all(p == GOLD for p in samples), samples
        else:
            assert not any(close(p, GOLD, 30) for p in samples), samples
    # Handing the turn on moves the ring.
    moved = small_view(explorers=tuple(
        ExplorerView(**{**ex.__dict__, "acting": ex.seat == 2}) for ex in view.explorers))
    img2 = render_image(moved)
    cx, cy = geo.tokens[2]
    assert img2.getpixel((cx + geo.ring_radius[2], cy)) == GOLD
    cx, cy = geo.tokens[0]
    assert img2.getpixel((cx + geo.ring_radius[0], cy)) != GOLD


def test_dead_explorer_is_grey() -> None:
    view = small_view()
    img = render_image(view)
    geo = map_geometry(view)
    dead = next(ex for ex in view.explorers if not ex.alive)
    assert img.getpixel(body_point(geo, dead)) == DEAD


def test_doors_are_openings_and_closed_sides_are_walls(full: MapView) -> None:
    img = image(render_map(full))
    geo = map_geometry(full)
    checked = {"open": 0, "wall": 0}
    for tile in full.tiles:
        fill = (START_FILL if tile.start else FLOOR_FILL)[tile.floor]
        for side, point in geo.sides[tile.key].items():
            pixel = img.getpixel(point)
            if side in tile.doors:
                assert close(pixel, fill), (tile.name, side, pixel)
                checked["open"] += 1
            else:
                assert close(pixel, WALL), (tile.name, side, pixel)
                checked["wall"] += 1
    assert checked["open"] > 40 and checked["wall"] > 40


def test_passage_is_drawn_between_facing_doors() -> None:
    view = small_view()
    img = render_image(view)
    geo = map_geometry(view)
    # Foyer (1,0) E door faces Entrance Hall (2,0) W door: the gap between them is floor.
    fx1 = geo.tiles["foyer"][2]
    ex0 = geo.tiles["entrance_hall"][0]
    cy = (geo.tiles["foyer"][1] + geo.tiles["foyer"][3]) // 2
    assert img.getpixel(((fx1 + ex0) // 2, cy)) == START_FILL["ground"]
    # Entrance Hall (2,0) S door and Bloody Room (2,1) N door: a passage too.
    eb = geo.tiles["entrance_hall"][3]
    bt = geo.tiles["bloody_room"][1]
    cx = (geo.tiles["bloody_room"][0] + geo.tiles["bloody_room"][2]) // 2
    assert img.getpixel((cx, (eb + bt) // 2)) in (FLOOR_FILL["ground"], START_FILL["ground"])
    # Grand Staircase (0,0) has no door north and no tile there: just background.
    gs = geo.tiles["grand_staircase"]
    assert img.getpixel(((gs[0] + gs[2]) // 2, gs[1] - geo.gap // 2)) == betrayal.PANEL


def test_barrier_line_is_drawn() -> None:
    view = small_view()
    img = render_image(view)
    geo = map_geometry(view)
    x0, y0, x1, y1 = geo.tiles["tower"]  # doors N S: the barrier runs east-west
    row = [img.getpixel((x, (y0 + y1) // 2 + dy)) for x in range(x0, x1) for dy in (-1, 0, 1)]
    assert sum(p == BARRIER for p in row) > (x1 - x0) // 3
    x0, y0, x1, y1 = geo.tiles["library"]
    row = [img.getpixel((x, (y0 + y1) // 2 + dy)) for x in range(x0, x1) for dy in (-1, 0, 1)]
    assert not any(p == BARRIER for p in row)


def test_symbols_are_distinct_glyphs() -> None:
    sprites = {k: betrayal.glyph(k, 24).tobytes() for k in ("omen", "event", "item")}
    assert len(set(sprites.values())) == 3
    view = small_view()
    img = render_image(view)
    geo = map_geometry(view)
    parts = betrayal.tile_parts(geo.tile, geo.tile_font)
    sx0, sy0, _, sy1 = parts.strip
    h = sy1 - sy0

    def symbol_colour(key: str) -> tuple[int, int, int]:
        x0, y0, _, _ = geo.tiles[key]
        # The glyph's commonest colour but the floor's (an event's white spiral, an
        # item's light facet cover less of it than its own colour).
        box = img.crop((x0 + sx0, y0 + sy0, x0 + sx0 + h, y0 + sy1))
        floors = {*betrayal.FLOOR_FILL.values(), *betrayal.START_FILL.values()}
        return max((c for c in box.getcolors(h * h) if c[1] not in floors),
                   key=lambda c: c[0])[1]

    assert close(symbol_colour("dining_room"), betrayal.OMEN, 30)
    assert close(symbol_colour("library"), betrayal.EVENT, 30)
    assert close(symbol_colour("bloody_room"), betrayal.ITEM, 30)


def test_a_floor_with_one_tile_is_cropped_small() -> None:
    view = small_view()
    geo = map_geometry(view)
    assert geo.extents["basement"] == (0, 0, 0, 0)
    assert geo.extents["ground"] == (0, -1, 2, 1)
    assert geo.extents["upper"] == (0, 0, 1, 1)
    g = geo.grids
    assert (g["basement"][2] - g["basement"][0], g["basement"][3] - g["basement"][1]) == (
        geo.tile, geo.tile)
    assert g["ground"][2] - g["ground"][0] == 3 * geo.tile + 2 * geo.gap
    assert g["ground"][3] - g["ground"][1] == 3 * geo.tile + 2 * geo.gap
    # Crop follows the explored tiles, not the grid origin: move the whole house far away.
    far = small_view(
        tiles=tuple(TileView(**{**t.__dict__, "x": t.x + 40, "y": t.y - 30}) for t in
                    view.tiles),
        explorers=tuple(ExplorerView(**{**e.__dict__, "x": e.x + 40, "y": e.y - 30}) for e in
                        view.explorers))
    geo_far = map_geometry(far)
    assert geo_far.height == geo.height and geo_far.tiles == geo.tiles


def test_only_landings_is_a_compact_image() -> None:
    tiles = start_tiles()
    view = MapView(tiles=tuple(tiles), explorers=tuple(explorers_on(tiles, 3, 1,
                                                                     "entrance_hall")),
                   header="Turn 1", track=omen_track(0))
    geo = map_geometry(view)
    assert geo.arrangement == "row"
    assert geo.height < 500
    assert geo.tile == betrayal.TILE_MAX
    data = render_map(view)
    assert data.startswith(PNG_SIGNATURE) and len(data) < 60_000


def test_empty_floor_and_stray_explorer_do_not_crash() -> None:
    view = MapView(tiles=(start_tiles()[1],),
                   explorers=(ExplorerView(0, "Ox", "Ann", "not a colour", "ground", 5, 5),
                              ExplorerView(1, "Zoe", "", "#fff", "attic", 0, 0)),
                   header="", track=omen_track(20), footer=" ")
    data = render_map(view, width=700)
    assert image(data).size[0] == 700
    geo = map_geometry(view, 700)
    assert "upper" not in geo.extents and 0 in geo.tokens and 1 not in geo.tokens


def test_long_names_stay_inside_their_tile() -> None:
    name = "An Extraordinarily Long Room Name That Never Ends"
    view = MapView(tiles=(TileView("x", name, "ground", 0, 0, ("N",)),),
                   explorers=(), header="H" * 300, track=omen_track(0), footer="F" * 300)
    img = render_image(view)
    geo = map_geometry(view)
    x0, y0, _, y1 = geo.tiles["x"]
    # Nothing of the name leaks into the panel around the tile.
    for x in range(x0 - geo.gap // 2, x0):
        assert img.getpixel((x, (y0 + y1) // 2)) == betrayal.PANEL


def test_render_is_deterministic_and_cache_safe(full: MapView) -> None:
    first = render_map(full)
    render_map(small_view())
    assert render_map(full) == first
    canvas.clear_caches()
    assert render_map(full) == first


def cast(view: MapView, chosen: list[int]) -> MapView:
    """The view with seat s played by explorer chosen[s]."""
    return MapView(**{**view.__dict__, "explorers": tuple(
        ExplorerView(**{**e.__dict__, "name": EXPLORERS[chosen[e.seat]],
                        "player": PLAYERS[chosen[e.seat]], "colour": COLOURS[chosen[e.seat]]})
        for e in view.explorers if e.seat < len(chosen))})


def test_the_palette_does_not_depend_on_who_plays() -> None:
    """One palette for every map of a width, whoever plays: no channel ever refits it,
    and every explorer colour in it is exact."""
    games = [cast(small_view(), [0, 1, 2, 3]), cast(small_view(), [5, 4, 3]),
             cast(full_view(3, players=3), [2, 0, 5]), full_view(4)]
    palettes = {tuple(image_p(render_map(view)).getpalette() or []) for view in games}
    assert len(palettes) == 1
    assert betrayal.map_ink(1200) is betrayal.map_ink(1200)
    for view in games:
        png = image(render_map(view))
        geo = map_geometry(view)
        for ex in view.explorers:
            want = common.parse_colour(ex.colour) if ex.alive else DEAD
            assert png.getpixel(body_point(geo, ex)) == want, ex


def image_p(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("width", [1200, 600])
def test_the_png_is_the_rgb_map_quantized(full: MapView, width: int) -> None:
    """The map is composed in its palette and written band by band; what a player gets
    is exactly the RGB composition mapped to that palette."""
    indexed = betrayal.render_indexed(full, width=width)
    png = image_p(render_map(full, width=width))
    assert png.mode == "P" and png.tobytes() == indexed.tobytes()
    assert png.getpalette() == indexed.getpalette()
    assert image_p(betrayal.encode_map(full, render_image(full, width=width))).tobytes() == (
        indexed.tobytes())


def test_cold_and_warm_renders_agree_while_games_take_turns() -> None:
    """Channels taking turns, each its own house: whatever the others left in (or
    pushed out of) the caches, a board is the one a cold render gives, pixel for pixel
    and byte for byte."""
    games = [[cast(replace_explorers(grow_house(seed, rooms=5 + 6 * turn), seed, turn),
                   [seed % 6, (seed + 2) % 6, (seed + 4) % 6]) for turn in range(4)]
             for seed in range(6)]
    cold = []
    for game in games:
        for view in game:
            canvas.clear_caches()
            cold.append(render_map(view))
    canvas.clear_caches()
    bands = canvas.BANDS.size
    canvas.BANDS.size = 40  # fewer bands than the boards hold: they push each other out
    try:
        warm = [render_map(game[turn]) for turn in range(4) for game in games]
    finally:
        canvas.BANDS.size = bands
    assert canvas.BANDS.cache_info().hits > 0
    by_game = [warm[turn * len(games) + g] for g in range(len(games)) for turn in range(4)]
    assert by_game == cold


def replace_explorers(tiles: list[TileView], seed: int, turn: int) -> MapView:
    explorers = explorers_on(tiles, 3, seed * 10 + turn)
    return MapView(tiles=tuple(tiles), explorers=tuple(explorers), header=f"Turn {turn + 1}",
                   track=omen_track(turn))


def test_every_renderer_cache_is_bounded(full: MapView) -> None:
    for view in (full, small_view(), full_view(2, players=3)):
        render_map(view)
        render_map(view, width=600)
    for cache in canvas._CACHES:
        info = cache.cache_info()
        assert info.maxsize is not None and info.currsize <= info.maxsize, cache
        assert getattr(info, "currbytes", 0) <= getattr(info, "maxbytes", 0), cache


def test_explorer_move_changes_only_dynamic_parts() -> None:
    view = small_view()
    moved = small_view(explorers=tuple(
        ExplorerView(**{**e.__dict__, "x": 2, "y": 1, "floor": "ground"}) if e.seat == 0 else e
        for e in view.explorers))
    a, b = render_image(view), render_image(moved)
    geo = map_geometry(view)
    assert map_geometry(moved).tiles == geo.tiles
    # The upper floor panel is untouched.
    assert a.crop(geo.panels["upper"]).tobytes() == b.crop(geo.panels["upper"]).tobytes()
    assert a.crop(geo.tiles["foyer"]).tobytes() != b.crop(geo.tiles["foyer"]).tobytes()


# ------------------------------------------------------------------------ sheet


def test_sheet_png_and_width() -> None:
    data = render_sheet(sheet_view())
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < 200_000
    img = image(data)
    assert img.size == (800, sheet_geometry(sheet_view()).height)
    assert image(render_sheet(sheet_view(), width=500)).size[0] == 500


@pytest.mark.parametrize("index", [-1, 0, 3, 7])
def test_sheet_highlights_the_current_value(index: int) -> None:
    traits = dict(sheet_view().traits)
    traits["might"] = TraitView((4, 5, 5, 6, 6, 7, 8, 8), index, 2)
    view = sheet_view(traits=traits)
    img = render_sheet_image(view)
    geo = sheet_geometry(view)
    colour = common.parse_colour(view.colour)
    for name, trait in view.traits.items():
        cells = geo.traits[name]
        assert len(cells) == 9
        for i, (x0, y0, x1, y1) in enumerate(cells):
            point = (x0 + max(6, (x1 - x0) // 7), (y0 + y1) // 2)
            pixel = img.getpixel(point)
            if i == trait.index + 1:
                assert pixel == (BARRIER if i == 0 else colour), (name, i)
            else:
                assert pixel != colour and pixel != BARRIER, (name, i)
        # The start marker sits under the start value's cell.
        mx, my = geo.start_marks[name]
        sx0, _, sx1, sy1 = cells[trait.start + 1]
        assert sx0 < mx < sx1 and my > sy1
        assert img.getpixel((mx, my)) == betrayal.ACCENT


def test_sheet_lists_every_card_and_grows() -> None:
    few = sheet_geometry(sheet_view(cards=()))
    many_cards = tuple(CardView(f"Card {i}", ("omen", "item", "event")[i % 3], "Text " * 30)
                       for i in range(9))
    many = sheet_geometry(sheet_view(cards=many_cards))
    assert len(many.cards) == 9
    assert many.height > few.height
    assert all(len(lines) <= 8 for lines in many.card_lines)
    data = render_sheet(sheet_view(cards=many_cards, notes=()))
    assert data.startswith(PNG_SIGNATURE)


def test_wrap_helpers() -> None:
    f = common.font(16)
    lines = common.wrap_text("one two three four five six seven", f, 80)
    assert len(lines) > 1 and all(common.text_width(f, line) <= 80 for line in lines)
    capped = common.wrap_text("one two three four five six seven", f, 80, max_lines=2)
    assert len(capped) == 2 and capped[-1].endswith("…")
    assert common.wrap_text("", f, 80) == []
    assert common.wrap_text("a\nb", f, 80) == ["a", "b"]
    f2, wrapped = common.fit_wrapped("Operating Laboratory", 90, 2, 18, min_size=10, bold=True)
    assert len(wrapped) <= 2 and "…" not in "".join(wrapped)
    assert all(common.text_width(f2, line) <= 90 for line in wrapped)


@pytest.mark.parametrize("box", [(3, 4, 300, 200), (0, 0, 41, 37), (10, 10, 30, 30)])
def test_framed_box_matches_rounded_box(box: tuple[int, int, int, int]) -> None:
    a = Image.new("RGB", (320, 220), betrayal.BG)
    b = a.copy()
    common.rounded_box(a, box, 10, betrayal.PANEL, outline=betrayal.PANEL_EDGE, width=2)
    betrayal.framed_box(b, box, 10, betrayal.PANEL, betrayal.PANEL_EDGE, 2, betrayal.BG)
    assert a.tobytes() == b.tobytes()


def test_crowded_strip_wraps_then_counts_and_explorers_stay_clear() -> None:
    tokens = ("secret_passage", "blessing", "smoke", "trap", "some_new_token_kind")
    tiles = [*start_tiles(),
             TileView("crypt", "Crypt", "basement", 1, 0, ("E", "W"), symbol="event",
                      tokens=tokens, item_pile=("Axe",) * 12)]
    explorers = tuple(ExplorerView(i, EXPLORERS[i], PLAYERS[i], COLOURS[i], "basement", 1, 0)
                      for i in range(4))
    view = MapView(tiles=tuple(tiles), explorers=explorers, header="", track=omen_track(0),
                   links=(("crypt", "foyer"),))
    geo = map_geometry(view)  # big tiles, room for a second row, yet the strip overflows
    look = betrayal.tile_look(tiles[-1], betrayal.link_letters(view))
    placed, rows = betrayal.strip_layout(look, geo.tile, geo.tile_font)
    kinds = [p[0] for p in placed]
    assert rows == 2
    assert kinds[:2] == ["pile", "symbol"] and kinds[-1] == "more"
    shown = sum(k.startswith("token:") or k == "link" for k in kinds)
    assert placed[-1][1] == f"+{len(tokens) + 1 - shown}"
    # Nothing in the strip leaves the tile, and explorers stand above its top row.
    x0, y0, x1, _ = geo.tiles["crypt"]
    top = min(p[3] for p in placed)
    for _, _, px, py, pw, _ in placed:
        assert px >= 0 and px + pw <= x1 - x0 and py >= 0
    for ex in explorers:
        cx, cy = geo.tokens[ex.seat]
        assert cy + geo.token_radius[ex.seat] <= y0 + top
        assert x0 <= cx - geo.token_radius[ex.seat] and cx + geo.token_radius[ex.seat] <= x1
    assert render_map(view, width=700).startswith(PNG_SIGNATURE)


def test_links_get_one_letter_per_pair() -> None:
    view = small_view(links=(("foyer", "library"), ("library", "foyer"),
                             ("grand_staircase", "upper_landing")))
    letters = betrayal.link_letters(view)
    first, second = betrayal.link_pool(view)[:2]
    assert letters == {"foyer": (first,), "library": (first,), "grand_staircase": (second,),
                       "upper_landing": (second,)}
    assert render_map(view).startswith(PNG_SIGNATURE)


def test_renders_with_the_fallback_font_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "FONT_CANDIDATES", {False: (), True: ()})
    common.font.cache_clear()
    try:
        assert common.is_fallback_font(common.font(20, bold=True))
        view = small_view()
        img = image(render_map(view, width=800))
        geo = map_geometry(view, 800)
        assert img.size == (800, geo.height)
        for ex in view.explorers:
            want = common.parse_colour(ex.colour) if ex.alive else DEAD
            assert close(img.getpixel(body_point(geo, ex)), want)
        assert render_sheet(sheet_view()).startswith(PNG_SIGNATURE)
    finally:
        common.font.cache_clear()


def test_the_font_signature_follows_the_fonts_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cached drawn text is keyed by the fonts it was drawn in (`font_signature`), which
    is itself kept until a font cache is cleared: fonts found again are a new signature,
    and the same fonts found again the old one."""
    before = common.font_signature()
    assert common.font_signature() is before  # kept, not worked out again
    monkeypatch.setattr(common, "FONT_CANDIDATES", {False: (), True: ()})
    common.font.cache_clear()
    try:
        assert common.is_fallback_font(common.font(16))
        assert common.font_signature() != before
    finally:
        monkeypatch.undo()
        common.font.cache_clear()
    assert common.font_signature() == before


@pytest.mark.parametrize("width", [800, 500])
def test_a_sheet_in_chinese_wraps_every_card_inside_its_box(width: int) -> None:
    """The explorer sheet with Chinese words (tests/zh_labels.py: made-up Chinese no
    shorter than the English, with no spaces to break at): each card's text wraps
    between characters inside its box, at most 8 lines, and the sheet draws."""
    view = translated(sheet_view())
    view = dataclasses.replace(view, cards=tuple(
        dataclasses.replace(c, name=zh(c.name), text=zh(c.text)) for c in view.cards),
        notes=tuple(zh(n) for n in view.notes), room=zh(view.room))
    assert is_chinese(view.name + view.player + view.room)
    geo = sheet_geometry(view, width)
    text_f = common.font(scaled_px(15, width / SHEET_WIDTH))
    for box, lines in zip(geo.cards, geo.card_lines, strict=True):
        assert lines and len(lines) <= 8
        assert all(is_chinese(line) for line in lines)
        for line in lines:
            assert common.text_width(text_f, line) <= box[2] - box[0], (line, box)
    img = image(render_sheet(view, width=width))
    assert img.size == (width, geo.height)
