"""Drawing the whole house map and encoding it: `render_map` and its caches.

Speed (bench/bench_render_betrayal.py): the tiles, panels and legend change only when a
tile is placed or a token or item moves, so they are drawn into a cached static layer,
itself assembled from cached per-tile sprites (placing one tile redraws one sprite). A
turn where explorers and monsters just move costs a copy of that layer plus the figures,
header and footer. The haunt's tokens are part of their tile's look, and the legend
names the haunt's monster and token kinds in view (the kinds change rarely, so the
legend stays in the static layer). The PNG palette is fitted once per look (width,
explorer colours, fonts) to a made-up sample house, haunt included, and reused.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.games.betrayal.view import FLOORS, ExplorerView, MapView, MonsterView, TileView
from renderers.betrayal.explorers import _draw_figures, _draw_roster
from renderers.betrayal.glyphs import _paste_glyph
from renderers.betrayal.layout import (
    BASE_WIDTH,
    FOOTER_FONT,
    FOOTER_ROW_H,
    HEADER_FONT,
    PANEL_TITLE_FONT,
    PANEL_TITLE_H,
    MapGeometry,
    map_geometry,
)
from renderers.betrayal.palette import (
    BARRIER,
    BG,
    FLAT_COLOURS,
    FLOOR_TITLES,
    GOLD,
    MONSTER,
    MONSTER_EDGE,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SYMBOL_COLOURS,
    TEXT,
    _mark,
    _px,
)
from renderers.betrayal.tiles import (
    _draw_passages,
    _haunt_square,
    _link_letters,
    _look,
    _pile_badge,
    _tile_sprite,
)
from renderers.common import (
    Box,
    Colour,
    Palette,
    centered_text,
    disc,
    draw_text,
    fit_text,
    font,
    font_signature,
    make_palette,
    parse_colour,
    rounded_box,
    text_width,
    to_png,
)

if TYPE_CHECKING:
    from bot.games.betrayal.state import BetrayalState


# A legend entry: (kind, letter, label), kind "monster" | "haunt" | a fixed entry.
LegendEntry = tuple[str, str, str]
_FIXED_LEGEND: tuple[LegendEntry, ...] = (("omen", "", "omen"), ("event", "", "event"),
                                          ("item", "", "item"), ("pile", "", "items here"),
                                          ("barrier", "", "barrier"))


def _legend(view: MapView) -> tuple[LegendEntry, ...]:
    """The haunt's monster and token kinds in view (by letter and name, in order of
    appearance), then the fixed entries."""
    haunt: dict[LegendEntry, None] = {}
    for m in view.monsters:
        haunt[("monster", _mark(m.glyph, m.name), m.name)] = None
    for tile in view.tiles:
        for glyph, name in tile.haunt_tokens:
            haunt[("haunt", _mark(glyph, name), name)] = None
    return (*haunt, *_FIXED_LEGEND)


def _legend_left(geo: MapGeometry) -> int:
    """Where the legend may start: after the omen track and its "n drawn" label."""
    s = geo.scale
    d = _px(20, s)
    last = geo.omen_track[-1][0] + d // 2 + _px(12, s)
    return last + text_width(font(_px(FOOTER_FONT, s)), "13 drawn") + _px(20, s)


def _static_key(view: MapView, geo: MapGeometry) -> tuple[object, ...]:
    links = _link_letters(view)
    tiles = tuple((tile.key, _look(tile, links), geo.tiles[tile.key], tile.x, tile.y)
                  for tile in view.tiles if tile.key in geo.tiles)
    panels = tuple((f, geo.panels[f], geo.grids[f], geo.extents.get(f)) for f in FLOORS)
    legend = (_legend(view), _legend_left(geo))
    return (geo.width, geo.height, geo.tile, geo.gap, panels, tiles, geo.footer, legend,
            font_signature())


STATIC_CACHE_SIZE = 6


@lru_cache(maxsize=STATIC_CACHE_SIZE)
def _static_layer(key: tuple[object, ...]) -> Image.Image:
    """The backdrop, panels, passages and tiles: everything but explorers and texts that
    change every turn. Drawn from `key` alone."""
    width, height, t, g, panels, tiles, footer, legend, fonts = key
    assert isinstance(t, int) and isinstance(g, int)
    s = width / BASE_WIDTH
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    counts: dict[str, int] = {}
    for _, look, _, _, _ in tiles:
        counts[look[1]] = counts.get(look[1], 0) + 1
    title_f = font(_px(PANEL_TITLE_FONT, s), True)
    for floor, box, _, extent in panels:
        framed_box(img, box, _px(10, s), PANEL, PANEL_EDGE, max(1, _px(2, s)), BG)
        x0, y0, x1, _ = box
        ty = y0 + _px(PANEL_TITLE_H, s) // 2 + _px(2, s)
        tx = x0 + _px(14, s)
        title = FLOOR_TITLES.get(floor, floor.title())
        draw_text(draw, (tx, ty), title, title_f, TEXT, anchor="lm", bold=True)
        tw = text_width(title_f, title)
        n = counts.get(floor, 0)
        note = ("nothing explored" if extent is None else
                f"{n} room" if n == 1 else f"{n} rooms")
        room = x1 - _px(14, s) - (tx + tw + _px(10, s))
        if room > _px(30, s):
            fc, text = fit_text(note, room, _px(PANEL_TITLE_FONT - 3, s))
            draw_text(draw, (tx + tw + _px(10, s), ty), text, fc, MUTED, anchor="lm")
    _draw_passages(img, tiles, t, g)
    for _, look, box, _, _ in tiles:
        img.paste(_tile_sprite(look, t, fonts), box[:2])
    assert isinstance(legend, tuple)
    entries, left = legend
    _draw_legend(img, draw, footer, s, entries, left)
    return img


@lru_cache(maxsize=32)
def _frame_piece(radius: int, fill: Colour, edge: Colour, width: int,
                 under: Colour) -> Image.Image:
    c = radius + width + 1
    piece = Image.new("RGB", (2 * c + 1, 2 * c + 1), under)
    rounded_box(piece, (0, 0, 2 * c + 1, 2 * c + 1), radius, fill, outline=edge, width=width)
    return piece


def framed_box(img: Image.Image, box: Box, radius: int, fill: Colour, edge: Colour,
               width: int, under: Colour) -> None:
    """`rounded_box` for big boxes on a flat `under` colour, pixel-identical to it but
    cheap at any size: a small rounded box is drawn once and stretched (9-slice); the
    anti-aliased mask of a full panel would cost ~10 ms whenever a panel changes size."""
    x0, y0, x1, y1 = box
    piece = _frame_piece(radius, fill, edge, width, under)
    c = (piece.width - 1) // 2
    if x1 - x0 <= 2 * c + 1 or y1 - y0 <= 2 * c + 1:
        rounded_box(img, box, radius, fill, outline=edge, width=width)
        return
    w, h = x1 - x0, y1 - y0
    k = piece.width
    for sx, dx in ((0, x0), (c + 1, x1 - c)):
        for sy, dy in ((0, y0), (c + 1, y1 - c)):
            img.paste(piece.crop((sx, sy, sx + c, sy + c)), (dx, dy))
    top = piece.crop((c, 0, c + 1, c)).resize((w - 2 * c, c), Image.Resampling.NEAREST)
    bottom = piece.crop((c, k - c, c + 1, k)).resize((w - 2 * c, c), Image.Resampling.NEAREST)
    left = piece.crop((0, c, c, c + 1)).resize((c, h - 2 * c), Image.Resampling.NEAREST)
    right = piece.crop((k - c, c, k, c + 1)).resize((c, h - 2 * c), Image.Resampling.NEAREST)
    img.paste(top, (x0 + c, y0))
    img.paste(bottom, (x0 + c, y1 - c))
    img.paste(left, (x0, y0 + c))
    img.paste(right, (x1 - c, y0 + c))
    img.paste(fill, (x0 + c, y0 + c, x1 - c, y1 - c))


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, footer: Box, s: float,
                 entries: tuple[LegendEntry, ...] = _FIXED_LEGEND, left: int = 0) -> None:
    """The legend, right-aligned on the omen row. When it does not fit beside the omen
    track, fixed entries go first (from the end), then the haunt's; the haunt's names
    are what a player cannot guess from the board."""
    row_h = _px(FOOTER_ROW_H, s)
    cy = footer[1] + _px(6, s) + row_h // 2
    f = font(_px(FOOTER_FONT - 2, s))
    d = _px(20, s)
    gap = _px(6, s)
    space = _px(16, s)

    def width(entry: LegendEntry) -> int:
        return d + gap + text_width(f, entry[2]) + (_px(8, s) if entry[0] == "pile" else 0)

    shown = list(entries)
    while shown and sum(map(width, shown)) + space * (len(shown) - 1) > footer[2] - left:
        fixed = [i for i, e in enumerate(shown) if e[0] not in ("monster", "haunt")]
        shown.pop(fixed[-1] if fixed else -1)
    x = footer[2] - sum(map(width, shown)) - space * (len(shown) - 1)
    for entry in shown:
        kind, letter, label = entry
        wd = width(entry)
        if kind in SYMBOL_COLOURS:
            _paste_glyph(img, kind, (x, cy - d // 2), d)
        elif kind == "pile":
            _pile_badge(img, draw, x + d + _px(8, s), cy - d // 2, d, 1)
            x += _px(8, s)
            wd -= _px(8, s)
        elif kind == "monster":
            r = d // 2
            disc(img, (x + r, cy), r, MONSTER, outline=MONSTER_EDGE, width=max(1, round(r / 7)))
            centered_text(draw, (x + r, cy), letter, font(max(7, round(r * 1.2)), True),
                          MONSTER_EDGE, bold=True)
        elif kind == "haunt":
            h = max(8, round(d * 0.8))
            _haunt_square(img, draw, x + (d - h) // 2, cy - h // 2, h, letter,
                          max(7, round(h * 0.7)))
        else:
            img.paste(BARRIER, (x, cy - max(1, _px(2, s)), x + d, cy + max(1, _px(2, s))))
        draw_text(draw, (x + d + gap, cy), label, f, MUTED, anchor="lm")
        x += wd + space


def _draw_header(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                 geo: MapGeometry) -> None:
    s = geo.scale
    x0, y0, x1, y1 = geo.header
    f, text = fit_text(view.header, x1 - x0, _px(HEADER_FONT, s),
                       min_size=_px(HEADER_FONT * 0.7, s), bold=True)
    draw_text(draw, (x0, (y0 + y1) // 2), text, f, TEXT, anchor="lm", bold=True)
    draw.line((x0, y1 - 1, x1, y1 - 1), fill=PANEL_EDGE, width=1)


def _draw_footer(img: Image.Image, draw: ImageDraw.ImageDraw, view: MapView,
                 geo: MapGeometry) -> None:
    s = geo.scale
    x0 = geo.footer[0]
    fb = font(_px(FOOTER_FONT, s), True)
    cy = geo.omen_track[0][1]
    draw_text(draw, (x0, cy), "Omens", fb, TEXT, anchor="lm", bold=True)
    d = _px(20, s)
    drawn = max(0, view.omens)
    for i, (cx, _) in enumerate(geo.omen_track):
        _paste_glyph(img, "omen" if i < drawn else "omen_off", (cx - d // 2, cy - d // 2), d)
    last = geo.omen_track[-1][0] + d // 2 + _px(12, s)
    label = f"{drawn} drawn"
    draw_text(draw, (last, cy), label, font(_px(FOOTER_FONT, s)), MUTED, anchor="lm")
    if geo.footer_text is not None:
        fx0, fy0, fx1, fy1 = geo.footer_text
        f, text = fit_text(view.footer.strip(), fx1 - fx0, _px(FOOTER_FONT + 3, s),
                           min_size=_px(FOOTER_FONT - 2, s), bold=True)
        draw_text(draw, (fx0, (fy0 + fy1) // 2), text, f, GOLD, anchor="lm", bold=True)


def _draw_dynamic(img: Image.Image, view: MapView, geo: MapGeometry) -> None:
    draw = ImageDraw.Draw(img)
    _draw_header(img, draw, view, geo)
    _draw_roster(img, draw, view, geo)
    _draw_figures(img, draw, view, geo)
    _draw_footer(img, draw, view, geo)


_SAMPLE_ROOMS: tuple[tuple[str, str, str, str], ...] = (
    # name, floor, doors, symbol
    ("Upper Landing", "upper", "NESW", ""), ("Operating Laboratory", "upper", "ES", "event"),
    ("Tower", "upper", "EW", "event"), ("Master Bedroom", "upper", "NW", "omen"),
    ("Entrance Hall", "ground", "NSW", ""), ("Foyer", "ground", "NESW", ""),
    ("Grand Staircase", "ground", "E", ""), ("Dining Room", "ground", "NE", "omen"),
    ("Servants' Quarters", "ground", "NESW", "omen"), ("Bloody Room", "ground", "NESW", "item"),
    ("Basement Landing", "basement", "NESW", ""), ("Chasm", "basement", "EW", ""),
    ("Wine Cellar", "basement", "NS", "item"), ("Stairs from Basement", "basement", "S", ""),
)


def _sample_view(colours: tuple[Colour, ...]) -> MapView:
    """A made-up house drawing every kind of thing once, for fitting the palette: the
    haunt too (monsters plain, stunned, large and stacked, haunt tokens, a traitor and a
    dead explorer), so their edges get palette entries before the haunt begins."""
    tiles = []
    for i, (name, floor, doors, symbol) in enumerate(_SAMPLE_ROOMS):
        k = sum(1 for r in _SAMPLE_ROOMS[:i] if r[1] == floor)
        tiles.append(TileView(
            key=f"s{i}", name=name, floor=floor, x=k % 3, y=k // 3, doors=tuple(doors),
            symbol=symbol, tokens=("secret_passage", "blessing", "trap")[: i % 3],
            item_pile=("x",) * (i % 2), barrier=name in ("Tower", "Chasm"),
            start="Landing" in name or name in ("Entrance Hall", "Foyer", "Grand Staircase"),
            haunt_tokens=(("B", "Blood"), ("W", "Ward"))[: i % 3] if i % 4 == 1 else (),
        ))
    explorers = [ExplorerView(seat=i, name=f"Explorer {i}", player=f"Player {i}",
                              colour="#{:02x}{:02x}{:02x}".format(*c),
                              floor=FLOORS[i % 3], x=0, y=i % 2, alive=i != 1, acting=i == 0,
                              traitor=i == 2)
                 for i, c in enumerate(colours)]
    monsters = [MonsterView(id=i, name=("Zombie", "Mummy")[i % 2], glyph=("Z", "M")[i % 2],
                            floor=FLOORS[i % 3], x=1, y=i % 2, stunned=i % 3 == 2,
                            large=i % 2 == 1)
                for i in range(7)]
    return MapView(tiles=tuple(tiles), explorers=tuple(explorers), header="Turn 12 · Sample",
                   omens=5, footer="The haunt has begun", links=(("s0", "s5"),),
                   monsters=tuple(monsters))


@lru_cache(maxsize=8)
def _palette(width: int, colours: tuple[Colour, ...], fonts: tuple[object, ...]) -> Palette:
    view = _sample_view(colours)
    geo = map_geometry(view, width)
    img = Image.new("RGB", (geo.width, geo.height), BG)
    img.paste(_static_layer(_static_key(view, geo)))
    _draw_dynamic(img, view, geo)
    return make_palette([img], exact=FLAT_COLOURS + colours)


def render_image(view: MapView, *, width: int = BASE_WIDTH) -> Image.Image:
    """The map as a Pillow image (for callers that compose or inspect it)."""
    geo = map_geometry(view, width)
    img = _static_layer(_static_key(view, geo)).copy()
    _draw_dynamic(img, view, geo)
    return img


def encode_map(view: MapView, img: Image.Image) -> bytes:
    """PNG bytes of a map image drawn for `view` (with the palette of its look)."""
    colours = tuple(sorted({parse_colour(ex.colour) for ex in view.explorers}))
    return to_png(img, palette=_palette(img.width, colours, font_signature()))


def render_map(view: MapView, *, width: int = BASE_WIDTH) -> bytes:
    """The house map as PNG bytes, ready to attach to the channel message."""
    return encode_map(view, render_image(view, width=width))


def render_board(state: BetrayalState, *, width: int = 1200) -> bytes:
    """The house map of a game in progress (what `renderers.render_public` calls)."""
    from bot.games.betrayal.views import map_view

    return render_map(map_view(state), width=width)
