"""Drawing the whole house map and encoding it: `render_map` and its caches.

Speed (bench/bench_render_betrayal.py): the tiles, panels and legend change only when a
tile is placed or a token or item moves, so they are drawn into a cached static layer,
itself assembled from cached per-tile sprites (placing one tile redraws one sprite). A
turn where explorers just move costs a copy of that layer plus the explorers, header and
footer. The PNG palette is fitted once per look (width, explorer colours, fonts) to a
made-up sample house and reused.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.games.betrayal.view import FLOORS, ExplorerView, MapView, TileView
from renderers.betrayal.explorers import _draw_explorers, _draw_roster
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
    MUTED,
    PANEL,
    PANEL_EDGE,
    SYMBOL_COLOURS,
    TEXT,
    _px,
)
from renderers.betrayal.tiles import (
    _draw_passages,
    _link_letters,
    _look,
    _pile_badge,
    _tile_sprite,
)
from renderers.common import (
    Box,
    Colour,
    Palette,
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


def _static_key(view: MapView, geo: MapGeometry) -> tuple[object, ...]:
    links = _link_letters(view)
    tiles = tuple((tile.key, _look(tile, links), geo.tiles[tile.key], tile.x, tile.y)
                  for tile in view.tiles if tile.key in geo.tiles)
    panels = tuple((f, geo.panels[f], geo.grids[f], geo.extents.get(f)) for f in FLOORS)
    return (geo.width, geo.height, geo.tile, geo.gap, panels, tiles, geo.footer, font_signature())


STATIC_CACHE_SIZE = 6


@lru_cache(maxsize=STATIC_CACHE_SIZE)
def _static_layer(key: tuple[object, ...]) -> Image.Image:
    """The backdrop, panels, passages and tiles: everything but explorers and texts that
    change every turn. Drawn from `key` alone."""
    width, height, t, g, panels, tiles, footer, fonts = key
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
    _draw_legend(img, draw, footer, s)
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


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, footer: Box, s: float) -> None:
    row_h = _px(FOOTER_ROW_H, s)
    cy = footer[1] + _px(6, s) + row_h // 2
    f = font(_px(FOOTER_FONT - 2, s))
    d = _px(20, s)
    gap = _px(6, s)
    entries: list[tuple[str, str]] = [("omen", "omen"), ("event", "event"), ("item", "item"),
                                      ("pile", "items here"), ("barrier", "barrier")]
    widths = [d + gap + text_width(f, label) for _, label in entries]
    x = footer[2] - sum(widths) - _px(16, s) * (len(entries) - 1)
    for (kind, label), wd in zip(entries, widths, strict=True):
        if kind in SYMBOL_COLOURS:
            _paste_glyph(img, kind, (x, cy - d // 2), d)
        elif kind == "pile":
            _pile_badge(img, draw, x + d + _px(8, s), cy - d // 2, d, 1)
            x += _px(8, s)
        else:
            img.paste(BARRIER, (x, cy - max(1, _px(2, s)), x + d, cy + max(1, _px(2, s))))
        draw_text(draw, (x + d + gap, cy), label, f, MUTED, anchor="lm")
        x += wd + _px(16, s)


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
    _draw_explorers(img, draw, view, geo)
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
    """A made-up house drawing every kind of thing once, for fitting the palette."""
    tiles = []
    for i, (name, floor, doors, symbol) in enumerate(_SAMPLE_ROOMS):
        k = sum(1 for r in _SAMPLE_ROOMS[:i] if r[1] == floor)
        tiles.append(TileView(
            key=f"s{i}", name=name, floor=floor, x=k % 3, y=k // 3, doors=tuple(doors),
            symbol=symbol, tokens=("secret_passage", "blessing", "trap")[: i % 3],
            item_pile=("x",) * (i % 2), barrier=name in ("Tower", "Chasm"),
            start="Landing" in name or name in ("Entrance Hall", "Foyer", "Grand Staircase"),
        ))
    explorers = [ExplorerView(seat=i, name=f"Explorer {i}", player=f"Player {i}",
                              colour="#{:02x}{:02x}{:02x}".format(*c),
                              floor=FLOORS[i % 3], x=0, y=i % 2, alive=i != 1, acting=i == 0)
                 for i, c in enumerate(colours)]
    return MapView(tiles=tuple(tiles), explorers=tuple(explorers), header="Turn 12 · Sample",
                   omens=5, footer="The haunt has begun", links=(("s0", "s5"),))


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
