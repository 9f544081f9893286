"""The haunt on the Betrayal map and sheet: monsters, the haunt's tokens, dead explorers
and the traitor, from the state (shown.py) to the pixels (renderers.betrayal).

The haunts' data files are being written haunt by haunt, so these tests bring their own:
a small haunt file written to a temporary folder that `load_data` is pointed at.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, shown
from bot.games.betrayal.haunting import base
from bot.games.betrayal.pictures import ExplorerView, MapView, MonsterView, TileView, omen_track
from bot.games.betrayal.state import (
    HAUNT,
    HEROES,
    MONSTERS,
    TRAITOR,
    BetrayalState,
    Haunt,
    Monster,
)
from renderers import betrayal, canvas, common
from renderers.betrayal import (
    DEAD,
    GOLD,
    MONSTER,
    STUNNED,
    TOKEN_EDGE,
    map_geometry,
    render_image,
    render_map,
    render_sheet,
    render_sheet_image,
    sheet_geometry,
)
from renderers.betrayal.map import house_of, legend_of
from renderers.betrayal.palette import HAUNT_TOKEN
from renderers.betrayal.palette import TRAITOR as TRAITOR_RING
from tests.test_render_betrayal import (
    COLOURS,
    EXPLORERS,
    MAX_BYTES,
    PLAYERS,
    PNG_SIGNATURE,
    close,
    full_view,
    grow_house,
    sheet_view,
    small_view,
)

HAUNT_KEY = "its_alive"  # a real chart entry, so the footer names the haunt
FIXTURE = """\
key: its_alive
name: It's Alive!
monsters:
  zombie: {name: Zombie, traits: {speed: 2, might: 5}, glyph: Z}
  giant: {name: Flesh Giant, traits: {speed: 3, might: 8}, glyph: G, large: true}
  star: {name: Star Spawn, traits: {might: 4}, glyph: "✦"}
tokens:
  blood: {name: Blood pool, glyph: B}
  ward: {name: Ward}
"""


@pytest.fixture
def haunt_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """`load_data` reads this test's haunt file (and forgets it afterwards)."""
    (tmp_path / f"{HAUNT_KEY}.yaml").write_text(FIXTURE, encoding="utf-8")
    monkeypatch.setattr(base, "HAUNT_DIR", tmp_path)
    base.load_data.cache_clear()
    yield tmp_path
    base.load_data.cache_clear()


def haunt_game(stage: str = HEROES, round_: int = 3, traitor: int | None = 1) -> BetrayalState:
    """Three explorers in the start tiles, the haunt running (stage, round, traitor)."""
    state, _ = GAME.setup([PlayerInfo(p) for p in ("Ann", "Boris", "Chidi")], 5,
                          {"explorers": ["ox_bellows", "missy_dubourde", "peter_akimoto"],
                           "today": "10-01"})
    state.phase = HAUNT
    state.over = False
    state.haunt = Haunt(revealer=0, omen="spear", room="abandoned_room", roll=2, omens=5,
                        key=HAUNT_KEY, number=2, traitor=traitor, stage=stage, round=round_)
    return state


def with_monsters(state: BetrayalState) -> BetrayalState:
    state.monsters = [Monster(1, "zombie", 0), Monster(2, "zombie", 1, alive=False),
                      Monster(3, "giant", 2, stunned=True), Monster(4, "slime_mold", 1),
                      Monster(5, "star", 0)]
    return state


# --------------------------------------------------------------------------- views


def test_map_view_lists_living_monsters_only(haunt_data: Path) -> None:
    state = with_monsters(haunt_game())
    view = shown.map_view(state)
    assert [m.id for m in view.monsters] == [1, 3, 4, 5]
    by_id = {m.id: m for m in view.monsters}
    for m in view.monsters:
        tile = state.tiles[next(x.tile for x in state.monsters if x.id == m.id)]
        assert (m.floor, m.x, m.y) == (tile.floor, tile.x, tile.y)
    assert (by_id[1].name, by_id[1].glyph, by_id[1].stunned, by_id[1].large) == (
        "Zombie", "Z", False, False)
    assert (by_id[3].name, by_id[3].glyph, by_id[3].stunned, by_id[3].large) == (
        "Flesh Giant", "G", True, True)
    # A kind the haunt's file does not know: named from its key, its initial as glyph.
    assert (by_id[4].name, by_id[4].glyph) == ("Slime mold", "S")
    assert by_id[5].glyph == "✦"


def test_haunt_tokens_are_listed_apart_from_the_rooms_tokens(haunt_data: Path) -> None:
    state = haunt_game()
    state.tiles[0].tokens += [{"kind": "secret_passage", "card": "", "link": 1},
                              {"kind": "blood", "card": "", "haunt": HAUNT_KEY},
                              {"kind": "ward", "card": "", "haunt": HAUNT_KEY},
                              {"kind": "mystery", "card": "", "haunt": HAUNT_KEY}]
    tile = shown.map_view(state).tiles[0]
    assert tile.tokens == ("secret_passage",)
    assert tile.haunt_tokens == (("B", "Blood pool"), ("W", "Ward"), ("M", "Mystery"))


def test_a_missing_haunt_file_never_breaks_the_map(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "HAUNT_DIR", tmp_path)  # no file at all
    base.load_data.cache_clear()
    try:
        state = with_monsters(haunt_game())
        state.tiles[1].tokens.append({"kind": "blood", "card": "", "haunt": HAUNT_KEY})
        view = shown.map_view(state)
        assert [(m.name, m.glyph) for m in view.monsters] == [
            ("Zombie", "Z"), ("Giant", "G"), ("Slime mold", "S"), ("Star", "S")]
        assert view.tiles[1].haunt_tokens == (("B", "Blood"),)
        assert render_map(view).startswith(PNG_SIGNATURE)
    finally:
        base.load_data.cache_clear()


def test_dead_explorers_stay_where_they_fell_and_the_traitor_is_marked(
        haunt_data: Path) -> None:
    state = haunt_game(traitor=1)
    state.explorers[2].alive = False
    view = shown.map_view(state)
    dead = view.explorers[2]
    tile = state.tiles[state.explorers[2].tile]
    assert not dead.alive and (dead.floor, dead.x, dead.y) == (tile.floor, tile.x, tile.y)
    assert [e.traitor for e in view.explorers] == [False, True, False]
    assert [e.alive for e in view.explorers] == [True, True, False]
    state.haunt.traitor = None  # type: ignore[union-attr]
    assert not any(e.traitor for e in shown.map_view(state).explorers)


def test_header_in_each_stage_and_the_footer_keeps_the_haunt(haunt_data: Path) -> None:
    state = haunt_game(stage=HEROES, round_=3, traitor=1)
    state.turn.seat = 2
    view = shown.map_view(state)
    assert view.header == "Haunt round 3 · the heroes: Peter Akimoto (Chidi) to play"
    assert "It's Alive!" in view.footer
    state.haunt.stage, state.turn.seat = TRAITOR, 1  # type: ignore[union-attr]
    assert shown.map_view(state).header == (
        "Haunt round 3 · the traitor: Missy Dubourde (Boris) to play")
    state.haunt.stage, state.haunt.round = MONSTERS, 4  # type: ignore[union-attr]
    assert shown.map_view(state).header == "Haunt round 4 · the monsters (Boris)"
    # With no traitor, whoever's turn the engine records moves the monsters.
    state.haunt.traitor, state.turn.seat = None, 0  # type: ignore[union-attr]
    assert shown.map_view(state).header == "Haunt round 4 · the monsters (Ann)"
    assert "the monsters" in shown.status_text(state)
    # Before the first haunt round begins, turns read as they did.
    state.haunt.round = 0  # type: ignore[union-attr]
    assert shown.map_view(state).header.startswith("Turn ")


@pytest.mark.parametrize(("winner", "reason", "header"), [
    ("heroes", "", "The heroes win"),
    ("traitor", "", "The traitor wins"),
    ("heroes", "The monster is destroyed.", "The heroes win · The monster is destroyed."),
    ("none", "", "No one wins"),
    ("", "", "Turn 1 · the haunt has begun"),  # over with no winner: as before the haunt
])
def test_header_once_the_game_is_over(haunt_data: Path, winner: str, reason: str,
                                      header: str) -> None:
    state = haunt_game()
    state.over = True
    state.haunt.winner, state.haunt.reason = winner, reason  # type: ignore[union-attr]
    view = shown.map_view(state)
    assert view.header == header
    assert "It's Alive!" in view.footer
    assert not any(e.acting for e in view.explorers)


def test_sheets_and_status_say_dead_and_traitor(haunt_data: Path) -> None:
    state = haunt_game(traitor=1)
    state.explorers[2].alive = False
    assert shown.sheet_view(state, 1).traitor and shown.sheet_view(state, 1).alive
    assert not shown.sheet_view(state, 2).alive and not shown.sheet_view(state, 2).traitor
    assert not shown.sheet_view(state, 0).traitor and shown.sheet_view(state, 0).alive
    assert "Missy Dubourde is the traitor." in shown.sheet_text(state, 1)
    assert "Peter Akimoto is dead." in shown.sheet_text(state, 2)
    lines = shown.status_text(state).splitlines()
    assert any("Missy Dubourde" in line and line.endswith("the traitor") for line in lines)
    assert any("Peter Akimoto" in line and line.endswith("dead") for line in lines)


def test_render_board_of_a_haunt_in_progress(haunt_data: Path) -> None:
    state = with_monsters(haunt_game(stage=MONSTERS))
    state.explorers[2].alive = False
    state.tiles[1].tokens.append({"kind": "blood", "card": "", "haunt": HAUNT_KEY})
    data = betrayal.render_board(state)
    assert data.startswith(PNG_SIGNATURE) and len(data) < MAX_BYTES


# ---------------------------------------------------------------- map: drawing


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def fill_point(geo: betrayal.MapGeometry, mid: int) -> tuple[int, int]:
    """A point of a monster's disc that shows its fill: below the letter, inside the edge."""
    cx, cy = geo.monsters[mid]
    return cx, cy + round(geo.monster_radius[mid] * 0.68)


def monster(mid: int, tile: TileView, **kw: object) -> MonsterView:
    fields: dict[str, object] = dict(id=mid, name="Zombie", glyph="Z", floor=tile.floor,
                                     x=tile.x, y=tile.y)
    fields.update(kw)
    return MonsterView(**fields)  # type: ignore[arg-type]


def haunted_small(**kw: object) -> MapView:
    view = small_view()
    by_key = {t.key: t for t in view.tiles}
    monsters = (monster(1, by_key["library"]), monster(2, by_key["dining_room"], stunned=True),
                monster(3, by_key["basement_landing"], name="Flesh Giant", glyph="G",
                        large=True),
                monster(4, by_key["basement_landing"], name="Rat", glyph="R"))
    return replace(view, **{"monsters": monsters, **kw})


def test_a_monster_is_drawn_in_its_tile_in_its_colour() -> None:
    view = haunted_small()
    img = render_image(view)
    png = image(render_map(view))
    geo = map_geometry(view)
    for m in view.monsters:
        tile = next(t for t in view.tiles if (t.floor, t.x, t.y) == (m.floor, m.x, m.y))
        x0, y0, x1, y1 = geo.tiles[tile.key]
        cx, cy = geo.monsters[m.id]
        r = geo.monster_radius[m.id]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
        want = STUNNED if m.stunned else MONSTER
        assert img.getpixel(fill_point(geo, m.id)) == want, m
        assert png.getpixel(fill_point(geo, m.id)) == want, m  # pinned in the palette
    # The letter is drawn on the disc: its centre is not the plain fill.
    cx, cy = geo.monsters[1]
    disc_px = [img.getpixel((cx + dx, cy + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    assert any(not close(p, MONSTER, 40) for p in disc_px)


def test_a_stunned_monster_is_grey_with_an_s() -> None:
    view = haunted_small()  # nameless: no label beside the disc, only the badge
    view = replace(view, monsters=tuple(replace(m, name="") for m in view.monsters))
    awake = replace(view, monsters=tuple(replace(m, stunned=False) for m in view.monsters))
    geo = map_geometry(view)
    a, b = render_image(view), render_image(awake)
    assert a.getpixel(fill_point(geo, 2)) == STUNNED
    assert b.getpixel(fill_point(geo, 2)) == MONSTER
    # The "S" badge sits to the right of the disc: light pixels there only when stunned.
    cx, cy = geo.monsters[2]
    r = geo.monster_radius[2]
    strip = [(x, y) for x in range(cx + r + 1, cx + 4 * r) for y in range(cy - 2, cy + 3)]
    assert sum(a.getpixel(p) == betrayal.TEXT for p in strip) > 4
    assert not any(b.getpixel(p) == betrayal.TEXT for p in strip)


def test_a_large_monster_gets_a_bigger_token() -> None:
    view = haunted_small()
    geo = map_geometry(view)
    assert geo.monster_radius[3] > geo.monster_radius[4]
    img = render_image(view)
    cx, cy = geo.monsters[3]
    r = geo.monster_radius[3]
    assert img.getpixel((cx, cy + round(r * 0.68))) == MONSTER
    assert img.getpixel((cx - round(r * 0.8), cy)) == MONSTER  # beyond a small disc's reach


def test_alike_monsters_in_a_room_share_one_token() -> None:
    view = small_view()
    foyer = next(t for t in view.tiles if t.key == "foyer")
    monsters = (*(monster(i, foyer) for i in range(1, 6)), monster(6, foyer, stunned=True),
                monster(7, foyer, name="Rat", glyph="R"))
    crowd = replace(view, monsters=monsters)
    geo = map_geometry(crowd)
    assert len({geo.monsters[i] for i in range(1, 6)}) == 1
    assert len({geo.monsters[i] for i in (1, 6, 7)}) == 3
    # Explorers and monster stacks all fit in the tile without overlapping.
    x0, y0, x1, y1 = geo.tiles["foyer"]
    figures = [(geo.tokens[s], geo.ring_radius[s]) for s in (0, 1)]
    figures += [(geo.monsters[i], geo.monster_radius[i]) for i in (1, 6, 7)]
    for (cx, cy), r in figures:
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
    for i, ((ax, ay), ar) in enumerate(figures):
        for (bx, by), br in figures[i + 1:]:
            assert (ax - bx) ** 2 + (ay - by) ** 2 >= (ar + br) ** 2
    assert render_map(crowd).startswith(PNG_SIGNATURE)


def test_a_haunt_token_is_a_square_in_the_strip() -> None:
    view = small_view()
    tiles = tuple(replace(t, haunt_tokens=(("B", "Blood pool"),)) if t.key == "library" else t
                  for t in view.tiles)
    marked = replace(view, tiles=tiles)
    geo = map_geometry(marked)
    tile = next(t for t in tiles if t.key == "library")
    look = betrayal.tile_look(tile, betrayal.link_letters(marked))
    placed, _ = betrayal.strip_layout(look, geo.tile, geo.tile_font)
    kinds = [p[0] for p in placed]
    assert kinds[:2] == ["symbol", "haunt"]  # first after the card symbol
    _, text, x, y, w, _ = placed[1]
    assert text == "B"
    x0, y0, _, _ = geo.tiles["library"]
    for img in (render_image(marked), image(render_map(marked))):
        assert img.getpixel((x0 + x + w // 2, y0 + y + max(1, round(w * 0.12)))) == HAUNT_TOKEN
        assert img.getpixel((x0 + x + 2, y0 + y + w // 2)) == HAUNT_TOKEN
    # Without it the spot is something else, and the tile's look (its sprite key) differs.
    plain = render_image(view)
    assert plain.getpixel((x0 + x + w // 2, y0 + y + max(1, round(w * 0.12)))) != HAUNT_TOKEN
    assert look != betrayal.tile_look(next(t for t in view.tiles if t.key == "library"), {})


def test_a_dead_explorer_is_crossed_out() -> None:
    view = small_view()
    dead = next(ex for ex in view.explorers if not ex.alive)
    geo = map_geometry(view)
    cx, cy = geo.tokens[dead.seat]
    r = geo.token_radius[dead.seat]
    for img in (render_image(view), image(render_map(view))):
        assert img.getpixel((cx, cy)) == TOKEN_EDGE  # the ✕ crosses the centre
        for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):  # along its arms
            assert close(img.getpixel((cx + dx * r // 3, cy + dy * r // 3)), TOKEN_EDGE, 30)
        assert img.getpixel((cx, cy + r // 2)) == DEAD  # grey between the arms
    living = replace(view, explorers=tuple(replace(e, alive=True) for e in view.explorers))
    assert render_image(living).getpixel((cx, cy)) == common.parse_colour(dead.colour)


def test_the_traitor_wears_a_magenta_band() -> None:
    view = small_view()
    marked = replace(view, explorers=tuple(replace(e, traitor=e.seat in (1, 2))
                                           for e in view.explorers))
    geo = map_geometry(marked)
    img = render_image(marked)
    png = image(render_map(marked))
    for ex in marked.explorers:
        cx, cy = geo.tokens[ex.seat]
        r = geo.token_radius[ex.seat]
        edge, band = max(1, round(r / 7)), max(2, round(r * 0.28))
        point = (cx + r - edge - band // 2 - 1, cy)
        if ex.traitor:
            assert img.getpixel(point) == TRAITOR_RING, ex
            assert png.getpixel(point) == TRAITOR_RING, ex
            assert img.getpixel((cx, cy)) == common.parse_colour(ex.colour)
        else:
            assert img.getpixel(point) != TRAITOR_RING, ex
    # An acting traitor keeps the gold ring outside the band.
    acting = replace(marked, explorers=tuple(replace(e, acting=e.seat == 1)
                                             for e in marked.explorers))
    cx, cy = geo.tokens[1]
    assert render_image(acting).getpixel((cx + geo.ring_radius[1], cy)) == GOLD


def test_monsters_move_in_the_dynamic_pass() -> None:
    view = haunted_small()
    geo = map_geometry(view)
    hall = next(t for t in view.tiles if t.key == "entrance_hall")
    moved = replace(view, monsters=tuple(replace(m, floor=hall.floor, x=hall.x, y=hall.y)
                                         if m.id == 1 else m for m in view.monsters))
    geo_moved = map_geometry(moved)
    assert geo_moved.tiles == geo.tiles
    assert house_of(view, geo, betrayal.link_letters(view)) == \
        house_of(moved, geo_moved, betrayal.link_letters(moved))  # the same house pieces
    a, b = render_image(view), render_image(moved)
    assert a.crop(geo.tiles["library"]).tobytes() != b.crop(geo.tiles["library"]).tobytes()
    assert a.crop(geo.panels["basement"]).tobytes() == b.crop(geo.panels["basement"]).tobytes()


def test_the_legend_names_the_haunts_kinds() -> None:
    view = haunted_small()
    tiles = tuple(replace(t, haunt_tokens=(("B", "Blood pool"),)) if t.key == "tower" else t
                  for t in view.tiles)
    entries = legend_of(replace(view, tiles=tiles))
    assert entries[:4] == (("monster", "Z", "Zombie"), ("monster", "G", "Flesh Giant"),
                           ("monster", "R", "Rat"), ("haunt", "B", "Blood pool"))
    assert ("omen", "", "omen") in entries
    assert legend_of(small_view())[0] == ("omen", "", "omen")  # exploring: the usual legend


def haunt_view(seed: int = 7, count: int = 20) -> MapView:
    """The full house in the haunt: `count` monsters of three kinds (some stunned, one
    kind large) spread over a dozen rooms, haunt tokens, a traitor and two dead."""
    view = full_view(seed)
    rng = random.Random(seed)
    tiles = list(view.tiles)
    rooms = rng.sample(tiles, 12)
    monsters = tuple(MonsterView(i + 1, ("Zombie", "Ghoul", "Flesh Giant")[i % 3], "ZGF"[i % 3],
                                 t.floor, t.x, t.y, stunned=i % 4 == 0, large=i % 3 == 2)
                     for i, t in enumerate(rng.choice(rooms) for _ in range(count)))
    tiles = [replace(t, haunt_tokens=(("B", "Blood pool"), ("W", "Ward"))[: 1 + i % 2])
             if i % 5 == 0 else t for i, t in enumerate(tiles)]
    explorers = tuple(replace(e, traitor=e.seat == 2, alive=e.seat not in (1, 4))
                      for e in view.explorers)
    return replace(view, tiles=tuple(tiles), monsters=monsters, explorers=explorers,
                   header="Haunt round 3 · the monsters (Chidi)")


@pytest.mark.parametrize("width", [1200, 600])
def test_twenty_monsters_stay_under_the_size_bound(width: int) -> None:
    view = haunt_view()
    data = render_map(view, width=width)
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    geo = map_geometry(view, width)
    assert image(data).size == (width, geo.height)
    assert set(geo.monsters) == {m.id for m in view.monsters}
    boxes = {(t.floor, t.x, t.y): geo.tiles[t.key] for t in view.tiles}
    png = image(data)
    for m in view.monsters:
        x0, y0, x1, y1 = boxes[(m.floor, m.x, m.y)]
        cx, cy = geo.monsters[m.id]
        r = geo.monster_radius[m.id]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
        # Big enough to have plain fill below the letter (drawn at the tile's text size
        # at least, which fills a smaller disc).
        if r >= max(6, 0.6 * geo.tile_font):
            assert close(png.getpixel(fill_point(geo, m.id)), STUNNED if m.stunned
                         else MONSTER), m


def test_haunt_render_is_deterministic_and_cache_safe() -> None:
    view = haunt_view(3)
    first = render_map(view)
    render_map(small_view())
    assert render_map(view) == first
    canvas.clear_caches()
    assert render_map(view) == first


def test_haunt_renders_with_the_fallback_font_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "FONT_CANDIDATES", {False: (), True: ()})
    common.font.cache_clear()
    try:
        view = haunted_small(monsters=(
            MonsterView(1, "Star Spawn", "✦", "ground", 1, 0),  # no "✦" in the fallback font
            MonsterView(2, "Zombie", "Z", "ground", 1, 0, stunned=True)))
        assert betrayal.glyph_mark("✦", "Star Spawn") == "S"
        data = render_map(view, width=800)
        assert image(data).size[0] == 800
    finally:
        common.font.cache_clear()


def test_many_figures_in_one_tile_stay_inside() -> None:
    tiles = grow_house(3, rooms=10)
    foyer = next(t for t in tiles if t.key == "foyer")
    explorers = tuple(ExplorerView(s, EXPLORERS[s], PLAYERS[s], COLOURS[s], "ground",
                                   foyer.x, foyer.y, alive=s != 3, traitor=s == 1)
                      for s in range(6))
    monsters = tuple(monster(i, foyer, name=n, glyph=n[0], stunned=i % 2 == 0,
                             large=n == "Giant")
                     for i, n in enumerate(("Zombie", "Rat", "Giant", "Zombie", "Rat"), 1))
    view = MapView(tiles=tuple(tiles), explorers=explorers, header="", track=omen_track(0),
                   monsters=monsters)
    geo = map_geometry(view)
    x0, y0, x1, y1 = geo.tiles["foyer"]
    for mid, (cx, cy) in geo.monsters.items():
        r = geo.monster_radius[mid]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
    for seat, (cx, cy) in geo.tokens.items():
        r = geo.ring_radius[seat]
        assert x0 <= cx - r and cx + r <= x1 and y0 <= cy - r and cy + r <= y1
    assert render_map(view).startswith(PNG_SIGNATURE)


# -------------------------------------------------------------------------- sheet


@pytest.mark.parametrize(("alive", "traitor"), [(False, False), (True, True), (False, True)])
def test_sheet_marks_the_dead_and_the_traitor(alive: bool, traitor: bool) -> None:
    view = sheet_view(alive=alive, traitor=traitor)
    geo = sheet_geometry(view)
    assert set(geo.badges) == {k for k, on in (("dead", not alive), ("traitor", traitor)) if on}
    img = render_sheet_image(view)
    png = image(render_sheet(view))
    wants = {"traitor": TRAITOR_RING, "dead": DEAD}
    for key, (bx0, by0, bx1, by1) in geo.badges.items():
        assert geo.title[0] < bx0 < bx1 <= geo.title[2]
        point = (bx0 + (by1 - by0) // 2, by0 + 2)  # inside the pill, above its text
        assert img.getpixel(point) == wants[key]
        assert png.getpixel(point) == wants[key]
    if len(geo.badges) == 2:
        assert geo.badges["traitor"][2] < geo.badges["dead"][0]
    assert not sheet_geometry(sheet_view()).badges
