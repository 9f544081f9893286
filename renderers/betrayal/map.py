"""Drawing the whole house map and encoding it: `render_map`.

Many channels take turns, so nothing here is kept per game: every render composes the
map afresh, straight in its PNG palette (see `renderers.canvas`), from pieces every
game shares: tiles by look and size (placing a tile draws one new piece, at most),
the legend by the haunt's kinds in view, tokens and monsters by look, roster chips by
explorer, words by text. The panels are stretched from one small frame, passages are
hard-edged fills. The palette is fitted once per width (and fonts) to a made-up house
drawn with every explorer colour, haunt included, so which explorers play never
changes it; a render maps nothing and the encoder gets the indices as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.games.betrayal import content
from bot.games.betrayal.pictures import (
    FLOORS,
    ExplorerView,
    MapView,
    MonsterView,
    TileView,
    omen_track,
)
from bot.games.betrayal.shown import map_view
from bot.locales import ENGLISH, speaking
from renderers import budgets
from renderers.betrayal.explorers import draw_figures, draw_roster
from renderers.betrayal.fonts import (
    FOOTER_FONT,
    HEADER_FONT,
    HEADER_MIN_FONT,
    LEGEND_FONT,
    PANEL_NOTE_FONT,
    PANEL_TITLE_FONT,
    PROGRESS_FONT,
    SMALLEST_FONT,
)
from renderers.betrayal.glyphs import paste_glyph
from renderers.betrayal.layout import (
    BASE_WIDTH,
    FOOTER_ROW_H,
    PANEL_TITLE_H,
    MapGeometry,
    map_geometry,
)
from renderers.betrayal.palette import (
    ACCENT,
    BARRIER,
    BG,
    FLAT_COLOURS,
    FRESH,
    GOLD,
    MONSTER,
    MONSTER_EDGE,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SYMBOL_COLOURS,
    TEXT,
    TRAIL,
    glyph_mark,
    px,
    token_colour,
    token_label,
)
from renderers.betrayal.tiles import (
    LinkLetters,
    TileLook,
    draw_passages,
    haunt_square,
    link_letters,
    pile_badge,
    strip_layout,
    tile_look,
    tile_sprite,
)
from renderers.betrayal.words import floor_title, word
from renderers.canvas import Canvas, Ink, Sprite, pieces, register
from renderers.common import (
    Box,
    Colour,
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


# A legend entry: (kind, letter, label), kind "monster" | "haunt" | "token:<kind>" (a
# room token shown by its code somewhere) | a fixed entry.
LegendEntry = tuple[str, str, str]
FIXED_LEGEND: tuple[str, ...] = ("omen", "event", "item", "pile", "barrier")


def _fixed_legend() -> tuple[LegendEntry, ...]:
    """The entries every whole-house legend ends with, in the board's words."""
    return tuple((kind, "", word(f"legend.{kind}")) for kind in FIXED_LEGEND)


def legend_of(view: MapView, coded: tuple[LegendEntry, ...] = ()) -> tuple[LegendEntry, ...]:
    """The haunt's monster and token kinds in view (by letter and name, in order of
    appearance), the room tokens shown by their code (`coded`), then the fixed
    entries."""
    haunt: dict[LegendEntry, None] = {}
    for m in view.monsters:
        haunt[("monster", glyph_mark(m.glyph, m.name), m.name)] = None
    for tile in view.tiles:
        for glyph, name in tile.haunt_tokens:
            haunt[("haunt", glyph_mark(glyph, name), name)] = None
    haunt.update(dict.fromkeys(coded))
    return (*haunt, *_fixed_legend())


def _legend_left(geo: MapGeometry) -> int:
    """Where the legend may start: after the omen track and its "n drawn" label."""
    s = geo.scale
    d = px(20, s)
    last = geo.omen_track[-1][0] + d // 2 + px(12, s)
    return last + text_width(font(px(FOOTER_FONT, s)), geo.track_widest) + px(20, s)


# A tile as the house shows it: (key, look, box, grid x, grid y).
PlacedTile = tuple[str, TileLook, Box, int, int]


def house_of(view: MapView, geo: MapGeometry,
             links: LinkLetters) -> tuple[tuple[PlacedTile, ...], tuple[LegendEntry, ...]]:
    """What the house part of the map is drawn from: the placed tiles (their look, with
    their `links`' letters, and box) and the legend's entries. Figures moving change
    neither."""
    tiles = tuple((tile.key, tile_look(tile, links), geo.tiles[tile.key], tile.x, tile.y)
                  for tile in view.tiles if tile.key in geo.tiles)
    coded = tuple((what, text, token_label(what[6:]))
                  for _, look, _, _, _ in tiles if look[4]
                  for what, text, *_ in strip_layout(look, geo.tile, geo.tile_font)[0]
                  if what.startswith("token:") and text != token_label(what[6:]))
    return tiles, legend_of(view, coded)


def _draw_house(canvas: Canvas, view: MapView, geo: MapGeometry,
                links: LinkLetters) -> None:
    """The panels, passages, tiles and legend: everything but the figures and the texts
    that change every turn, composed from pieces every game shares (tiles by look and
    size, the legend by its entries) plus hard-edged passages."""
    tiles, entries = house_of(view, geo, links)
    t, g, s = geo.tile, geo.gap, geo.scale
    fonts = font_signature()
    counts: dict[str, int] = {}
    for _, look, _, _, _ in tiles:
        counts[look[1]] = counts.get(look[1], 0) + 1
    title_f = font(px(PANEL_TITLE_FONT, s), True)
    for floor in (f for f in FLOORS if f in geo.panels):
        box, extent = geo.panels[floor], geo.extents.get(floor)
        framed(canvas, box, px(10, s), PANEL, PANEL_EDGE, max(1, px(2, s)), BG)
        x0, y0, x1, _ = box
        ty = y0 + px(PANEL_TITLE_H, s) // 2 + px(2, s)
        tx = x0 + px(14, s)
        title = floor_title(floor)
        canvas.text((tx, ty), title, title_f, TEXT, on=PANEL, anchor="lm", bold=True)
        tw = text_width(title_f, title)
        n = counts.get(floor, 0)
        note = word("nothing_explored") if extent is None else word("rooms", n=n)
        room = x1 - px(14, s) - (tx + tw + px(10, s))
        if room > px(30, s):
            fc, text = fit_text(note, room, px(PANEL_NOTE_FONT, s))
            canvas.text((tx + tw + px(10, s), ty), text, fc, MUTED, on=PANEL, anchor="lm")
    draw_passages(canvas, tiles, t, g)
    for _, look, box, _, _ in tiles:
        canvas.put(box[:2], tile_sprite(canvas.ink, look, t, geo.tile_font, fonts))
    left = _legend_left(geo)
    x0, y0, x1, _ = geo.footer
    canvas.put((left, y0), _legend_strip(canvas.ink, entries, x1 - left, geo.width - x1, s,
                                         fonts))


# Legends differ by the haunt's monster and token kinds in view: few per haunt.
LEGEND_CACHE_SIZE = 256


@pieces(LEGEND_CACHE_SIZE, budgets.WIDE_PIECES)
def _legend_strip(entries: tuple[LegendEntry, ...], w: int, margin: int, s: float,
                  fonts: tuple[object, ...]) -> Sprite:
    """The legend row, `w` wide from where it may start to the footer's right edge (and
    the `margin` beyond, where a last letter's edge may spill), on the background (see
    `_draw_legend`). `fonts` only keys the cache."""
    h = px(6, s) + px(FOOTER_ROW_H, s)
    img = Image.new("RGB", (w + margin, h), BG)
    _draw_legend(img, ImageDraw.Draw(img), (0, 0, w, h), s, entries, 0)
    return Sprite(img)


@pieces(256)
def _frame_corner(radius: int, fill: Colour, edge: Colour, width: int, under: Colour,
                  corner: int) -> Sprite:
    """Corner 0..3 (top-left, top-right, bottom-left, bottom-right) of a rounded box,
    c x c with c = radius + width + 1: all of a framed box that is not a flat band."""
    c = radius + width + 1
    piece = Image.new("RGB", (2 * c + 1, 2 * c + 1), under)
    rounded_box(piece, (0, 0, 2 * c + 1, 2 * c + 1), radius, fill, outline=edge, width=width)
    sx, sy = (0, c + 1)[corner % 2], (0, c + 1)[corner // 2]
    return Sprite(piece.crop((sx, sy, sx + c, sy + c)))


@pieces(64)
def _small_frame(w: int, h: int, radius: int, fill: Colour, edge: Colour, width: int,
                 under: Colour) -> Sprite:
    img = Image.new("RGB", (w, h), under)
    rounded_box(img, (0, 0, w, h), radius, fill, outline=edge, width=width)
    return Sprite(img)


def framed_box(img: Image.Image, box: Box, radius: int, fill: Colour, edge: Colour,
               width: int, under: Colour) -> None:
    """`rounded_box` for big boxes on a flat `under` colour, pixel-identical to it but
    cheap at any size: the four corners of a small rounded box, drawn once, and flat
    bands between them; the anti-aliased mask of a full panel would cost ~10 ms."""
    framed(Canvas(img.size, under, image=img), box, radius, fill, edge, width, under)


def framed(canvas: Canvas, box: Box, radius: int, fill: Colour, edge: Colour, width: int,
           under: Colour) -> None:
    """`framed_box` onto a canvas: the edge colour, the fill inside it, the corners."""
    x0, y0, x1, y1 = box
    c = radius + width + 1
    w, h = x1 - x0, y1 - y0
    if w <= 2 * c + 1 or h <= 2 * c + 1:
        if w > 0 and h > 0:
            canvas.put((x0, y0), _small_frame(canvas.ink, w, h, radius, fill, edge, width,
                                              under))
        return
    # The straight edges are flat bands (the rounded mask covers them fully): each pixel
    # is written once, which matters on boxes this big.
    canvas.fill((x0 + c, y0, x1 - c, y0 + width), edge)
    canvas.fill((x0 + c, y1 - width, x1 - c, y1), edge)
    canvas.fill((x0, y0 + c, x0 + width, y1 - c), edge)
    canvas.fill((x1 - width, y0 + c, x1, y1 - c), edge)
    canvas.fill((x0 + c, y0 + width, x1 - c, y1 - width), fill)
    canvas.fill((x0 + width, y0 + c, x0 + c, y1 - c), fill)
    canvas.fill((x1 - c, y0 + c, x1 - width, y1 - c), fill)
    for corner, xy in enumerate(((x0, y0), (x1 - c, y0), (x0, y1 - c), (x1 - c, y1 - c))):
        canvas.put(xy, _frame_corner(canvas.ink, radius, fill, edge, width, under, corner))


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, footer: Box, s: float,
                 entries: tuple[LegendEntry, ...], left: int = 0) -> None:
    """The legend, right-aligned on the omen row. When it does not fit beside the omen
    track, fixed entries go first (from the end), then the haunt's; the haunt's names
    are what a player cannot guess from the board."""
    row_h = px(FOOTER_ROW_H, s)
    cy = footer[1] + px(6, s) + row_h // 2
    f = font(px(LEGEND_FONT, s))
    d = px(20, s)
    gap = px(6, s)
    space = px(16, s)

    def width(entry: LegendEntry) -> int:
        if entry[0].startswith("token:"):
            return (text_width(font(px(LEGEND_FONT, s), True), entry[1]) + gap
                    + text_width(f, entry[2]))
        return d + gap + text_width(f, entry[2]) + (px(8, s) if entry[0] == "pile" else 0)

    shown = list(entries)
    while shown and sum(map(width, shown)) + space * (len(shown) - 1) > footer[2] - left:
        fixed = [i for i, e in enumerate(shown)
                 if e[0] not in ("monster", "haunt") and not e[0].startswith("token:")]
        shown.pop(fixed[-1] if fixed else -1)
    x = footer[2] - sum(map(width, shown)) - space * (len(shown) - 1)
    for entry in shown:
        kind, letter, label = entry
        wd = width(entry)
        if kind.startswith("token:"):
            fb = font(px(LEGEND_FONT, s), True)
            wd = text_width(fb, letter) + gap + text_width(f, label)
            draw_text(draw, (x, cy), letter, fb, token_colour(kind[6:]), anchor="lm",
                      bold=True)
            draw_text(draw, (x + wd - text_width(f, label), cy), label, f, MUTED, anchor="lm")
            x += wd + space
            continue
        if kind in SYMBOL_COLOURS:
            paste_glyph(img, kind, (x, cy - d // 2), d)
        elif kind == "pile":
            pile_badge(img, draw, x + d + px(8, s), cy - d // 2, d, 1)
            x += px(8, s)
            wd -= px(8, s)
        elif kind == "monster":
            r = d // 2
            disc(img, (x + r, cy), r, MONSTER, outline=MONSTER_EDGE, width=max(1, round(r / 7)))
            centered_text(draw, (x + r, cy), letter, font(max(7, round(r * 1.2)), True),
                          MONSTER_EDGE, bold=True)
        elif kind == "haunt":
            h = max(8, round(d * 0.8))
            haunt_square(img, draw, x + (d - h) // 2, cy - h // 2, h, letter,
                          max(7, round(h * 0.7)))
        else:
            img.paste(BARRIER, (x, cy - max(1, px(2, s)), x + d, cy + max(1, px(2, s))))
        draw_text(draw, (x + d + gap, cy), label, f, MUTED, anchor="lm")
        x += wd + space


def draw_header(canvas: Canvas, view: MapView, geo: MapGeometry) -> None:
    s = geo.scale
    x0, y0, x1, y1 = geo.header
    f, text = fit_text(view.header, x1 - x0, px(HEADER_FONT, s),
                       min_size=px(HEADER_MIN_FONT, s), bold=True)
    canvas.words((x0, (y0 + y1) // 2), text, f, TEXT, on=BG, bold=True)
    canvas.fill((x0, y1 - 1, x1 + 1, y1), PANEL_EDGE)


def draw_footer(canvas: Canvas, view: MapView, geo: MapGeometry) -> None:
    s = geo.scale
    x0 = geo.footer[0]
    fb = font(px(FOOTER_FONT, s), True)
    cy = geo.omen_track[0][1]
    canvas.text((x0, cy), view.track.label, fb, TEXT, on=BG, anchor="lm", bold=True)
    d = px(20, s)
    drawn = min(view.track.marks, max(0, view.track.filled))
    first, last_mark = geo.omen_track[0][0], geo.omen_track[-1][0]
    step = geo.omen_track[1][0] - first if len(geo.omen_track) > 1 else d
    if view.track.marks:
        canvas.put((first - d // 2, cy - d // 2),
                   _omen_track(canvas.ink, drawn, view.track.marks, step, d))
    last = last_mark + d // 2 + px(12, s)
    canvas.text((last, cy), view.track.note, font(px(FOOTER_FONT, s)), MUTED, on=BG,
                anchor="lm")
    if geo.progress_text is not None:
        px0, py0, px1, _ = geo.progress_text
        row_h = px(FOOTER_ROW_H, s)
        for i, line in enumerate(geo.progress):
            f, text = fit_text(line, px1 - px0, px(PROGRESS_FONT, s),
                               min_size=px(SMALLEST_FONT, s), bold=True)
            canvas.text((px0, py0 + i * row_h + row_h // 2), text, f, ACCENT, on=BG,
                        anchor="lm", bold=True)
    if geo.footer_text is not None:
        fx0, fy0, fx1, fy1 = geo.footer_text
        f, text = fit_text((view.footer_shown or view.footer).strip(), fx1 - fx0,
                           px(FOOTER_FONT + 3, s),
                           min_size=px(SMALLEST_FONT, s), bold=True)
        canvas.text((fx0, (fy0 + fy1) // 2), text, f, GOLD, on=BG, anchor="lm", bold=True)


@pieces(256)
def _omen_track(drawn: int, marks: int, step: int, d: int) -> Sprite:
    """The footer's omen marks, `drawn` of `marks` lit, `step` apart, on the background."""
    img = Image.new("RGB", ((marks - 1) * step + d, d), BG)
    for i in range(marks):
        paste_glyph(img, "omen" if i < drawn else "omen_off", (i * step, 0), d)
    return Sprite(img)


def draw_changes(canvas: Canvas, view: MapView, geo: MapGeometry) -> None:
    """What this turn changed: a frame round each room walked through, and round the
    room just placed (in its own colour, over the walk's), drawn in the gap round the
    tile so the tile itself (a shared piece) is untouched."""
    k = max(2, round(geo.gap * 0.4))
    for key, colour in [*((w, TRAIL) for w in dict.fromkeys(view.walked)),
                        *(((view.placed, FRESH),) if view.placed else ())]:
        box = geo.tiles.get(key)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        canvas.fill((x0 - k, y0 - k, x1 + k, y0), colour)
        canvas.fill((x0 - k, y1, x1 + k, y1 + k), colour)
        canvas.fill((x0 - k, y0, x0, y1), colour)
        canvas.fill((x1, y0, x1 + k, y1), colour)


def _draw_dynamic(canvas: Canvas, view: MapView, geo: MapGeometry,
                  links: LinkLetters) -> None:
    draw_changes(canvas, view, geo)
    draw_header(canvas, view, geo)
    draw_roster(canvas, view, geo)
    draw_figures(canvas, view, geo, links)
    draw_footer(canvas, view, geo)


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
                   track=omen_track(5), footer="The haunt has begun", links=(("s0", "s5"),),
                   monsters=tuple(monsters), walked=("s4", "s5", "s7"), placed="s7", mover=3,
                   progress=("Sample haunt", "round 2 of 9"))


def compose(view: MapView, width: int, ink: Ink | None) -> Canvas:
    """The map drawn for `view`: in RGB without an ink, else in that ink's indices. The
    link letters are worked out once, here, for the layout and every pass that draws."""
    links = link_letters(view)
    geo = map_geometry(view, width, links=links)
    canvas = Canvas((geo.width, geo.height), BG, ink)
    _draw_house(canvas, view, geo, links)
    _draw_dynamic(canvas, view, geo, links)
    return canvas


@budgets.small(budgets.INKS, budgets.owned(budgets.INK_BYTES))
def _ink(width: int, colours: tuple[Colour, ...], fonts: tuple[object, ...]) -> Ink:
    """The map's palette, fitted once per width to a made-up house drawn with every
    explorer colour, those and the flat colours pinned. No game's explorers choose it,
    so no game ever refits it (`fonts` only keys the cache). The made-up house is drawn
    in English whatever the language spoken: one palette for every language."""
    with speaking(ENGLISH):
        image = compose(_sample_view(colours), width, None).image
    assert image is not None  # drawn without an ink: in RGB
    return Ink(make_palette([image], exact=FLAT_COLOURS + colours))


register(_ink)


def map_ink(width: int) -> Ink:
    """The fixed palette (with its lookups) every map of this width is drawn in."""
    return _ink(int(width), explorer_colours(), font_signature())


def explorer_colours() -> tuple[Colour, ...]:
    """Every explorer's token colour in the game's content, in a fixed order (worked
    out once per content: every render asks)."""
    current = content.get()
    if _COLOURS_OF[0] is not current:
        colours = tuple(sorted({parse_colour(e.hex) for e in current.explorers.values()}))
        _COLOURS_OF[:] = [current, colours]
    return _COLOURS_OF[1]  # type: ignore[return-value]


_COLOURS_OF: list[object] = [None, ()]


def render_indexed(view: MapView, *, width: int = BASE_WIDTH) -> Image.Image:
    """The map as the PNG will hold it: a "P" image in the fixed palette."""
    return compose(view, width, map_ink(width)).finish()


def render_image(view: MapView, *, width: int = BASE_WIDTH) -> Image.Image:
    """The map as an RGB image (for callers that compose or inspect it). Quantized to
    the map's palette it is `render_indexed`, pixel for pixel."""
    return compose(view, width, None).finish()


def encode_map(view: MapView, img: Image.Image) -> bytes:
    """PNG bytes of a map image drawn for `view` (RGB is mapped to the fixed palette)."""
    if img.mode == "P":
        return to_png(img)
    return to_png(img, palette=map_ink(img.width).palette)


def render_map(view: MapView, *, width: int = BASE_WIDTH) -> bytes:
    """The house map as PNG bytes, ready to attach to the channel message: written band
    by band, the bands drawn as before (by this game or any other) reused."""
    return compose(view, width, map_ink(width)).png()


def render_house(state: BetrayalState, *, width: int = BASE_WIDTH) -> bytes:
    """The whole house of a game in progress at full size (`/game map`, "Whole house");
    the live message shows `renderers.betrayal.board.render_board` instead."""
    return render_map(map_view(state), width=width)
