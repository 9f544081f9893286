"""The public picture of an IT: Evil Below game: the board after every step that
changes it, the dice of the last roll and the fight's turned cards on it (one image per
post: Discord lays a second one beside the first, cropped).

It is drawn from the engine's view (bot/games/evilbelow/pictures.py), never from the state
itself, so nothing face down can reach it: victims still in their circles are drawn
face down alike, the Fight Stack, decks and attack pile only as counts.

One fixed landscape canvas for the whole game, shaped as Discord shows images inline
(renderers/evilbelow/layout.py: where everything goes, and why the smallest text reads
at chat size).

A board is posted after every action, and drawing it whole in RGB, then quantizing and
encoding it, cost more than the rest of the action several times over. So it is
composed as Cthulhu's is (renderers.canvas): from pieces (a panel, a circle, a pawn, a
row of hearts, a die) each drawn once in RGB with the shared anti-aliased helpers on
the flat colour it lies on and quantized once, then pasted in the palette, and written
band by band, the bands unchanged since any earlier render reused. Pieces are keyed by
public facts only (sizes, names, colours, counts, a circle's "face down"), so no cache
can carry a secret. A piece with round()ed edges is drawn at its point's offset from an
even pixel (`_glyph`), where round()'s ties to even fall as on the board, so the board
is the one drawing in place gives, pixel for pixel. The palette is fitted once per
width and fonts to a made-up sample board (no game's state is in it): the same state
always gives the same bytes. bench/bench_render_evil_below.py times it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.games.base import PlayerInfo
from bot.games.evilbelow import GAME, content
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.pictures import (
    ATTACK_MARK,
    CHILD,
    DOWN,
    BoardView,
    CardView,
    DieView,
    HeroView,
    LocationView,
    board_view,
)
from renderers import budgets
from renderers.canvas import Canvas, Ink, Sprite, pieces, register, trimmed
from renderers.common import (
    BLACK,
    WHITE,
    Box,
    Colour,
    Font,
    contrast_text,
    disc,
    draw_text,
    face_for,
    fit_text,
    fit_wrapped,
    font,
    font_signature,
    make_palette,
    mix,
    parse_colour,
    polygon,
    rounded_box,
    wrap_text,
)
from renderers.evilbelow.layout import (
    BASE_WIDTH,
    BIKE_Y,
    CARD_H,
    CARD_STEP,
    CARD_W,
    CHIP_STEP,
    CIRCLE_R,
    COLUMN_W,
    COLUMN_X,
    DICE_Y,
    DIE,
    FIGHT_Y,
    HAND_CHIPS,
    HEADER,
    MARGIN,
    MIN_TEXT,
    MOVED_RING,
    NAME_BAND,
    PAWN_R,
    SPACE,
    SPACE_STEP,
    TRACK_LABEL_H,
    TRACK_Y,
    WEAK_ROW,
    Geometry,
    U,
    pawn_offset,
)
from renderers.evilbelow.layout import geometry as _layout

__all__ = ["BASE_WIDTH", "MIN_TEXT", "Geometry", "U", "geometry"]

BG: Colour = (18, 17, 23)
PANEL: Colour = (33, 31, 40)
EDGE: Colour = (66, 62, 78)
TEXT: Colour = (238, 232, 220)
MUTED: Colour = (163, 157, 148)
HOLE: Colour = (24, 22, 29)  # an empty circle, its mark showing
DOWN_FILL: Colour = (88, 96, 118)  # a face-down victim token
DOWN_RING: Colour = (136, 144, 166)
CHILD_FILL: Colour = (242, 222, 186)  # a rescued child, face up
CHILD_INK: Colour = (92, 58, 40)
ATTACK: Colour = (205, 38, 46)  # the Pennywise Attack symbol, attack spaces and counts
BALLOON: Colour = (236, 22, 88)  # Pennywise's marker: used for nothing else
STRING: Colour = (200, 196, 188)
GOLD: Colour = (240, 190, 72)  # Strength, Bravery, rewards
BIKE: Colour = (120, 200, 220)
CARD: Colour = (72, 58, 104)  # a card's back
CARD_EDGE: Colour = (150, 128, 196)
TRAIL: Colour = (104, 182, 255)  # this turn's moves: locations framed, heroes ringed
FLAT_COLOURS: tuple[Colour, ...] = (BG, PANEL, EDGE, TEXT, MUTED, HOLE, DOWN_FILL, DOWN_RING,
                                    CHILD_FILL, CHILD_INK, ATTACK, BALLOON, STRING, GOLD, BIKE,
                                    CARD, CARD_EDGE, TRAIL, BLACK, WHITE)

SHORT: dict[str, str] = {"bill": "Bi", "bev": "Bv", "ben": "Bn", "mike": "M", "richie": "R",
                         "eddie": "E", "stan": "S"}


def geometry(view: BoardView, width: int = BASE_WIDTH) -> Geometry:
    """Where this board's things are drawn (the canvas is the same for every board)."""
    where = next((i for i, loc in enumerate(view.locations) if loc.pennywise), None)
    return _layout(tuple(len(loc.circles) for loc in view.locations),
                   tuple(loc.heroes for loc in view.locations), where, len(view.heroes),
                   width)


# ---------------------------------------------------------------- glyphs
# Drawn in RGB on a patch of the flat colour they lie on, by the shared helpers.


def _f(size: float, k: float, bold: bool = False) -> Font:
    return font(round(max(size, MIN_TEXT) * k), bold)


def _fitted(text: str, size: float, k: float, bold: bool, width: float) -> tuple[Font, str]:
    if width:
        return fit_text(text, round(width * k), round(size * k), min_size=round(MIN_TEXT * k),
                        bold=bold)
    return _f(size, k, bold), text


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: float, k: float,
          fill: Colour, *, bold: bool = False, anchor: str = "lm", width: float = 0) -> None:
    f, text = _fitted(text, size, k, bold, width)
    draw_text(d, xy, text, f, fill, anchor=anchor, bold=bold)


def _balloon(img: Image.Image, centre: tuple[float, float], r: float, fill: Colour) -> None:
    """A balloon on a string: Pennywise (in BALLOON) or an attack mark (in ATTACK)."""
    cx, cy = centre
    d = ImageDraw.Draw(img)
    d.line((cx, cy + r, cx - r * 0.25, cy + r * 1.6, cx + r * 0.1, cy + r * 2.1), fill=STRING,
           width=max(1, round(r / 8)))
    polygon(img, [(cx - r * 0.22, cy + r * 1.12), (cx + r * 0.22, cy + r * 1.12),
                  (cx, cy + r * 0.8)], fill)
    disc(img, (cx, cy), r, fill)


def _pennywise(img: Image.Image, centre: tuple[float, float], k: float) -> None:
    _balloon(img, centre, 12 * k, BALLOON)
    _text(ImageDraw.Draw(img), centre, evil_below_line("views.pennywise_mark"), 11, k, WHITE,
          bold=True,
          anchor="mm")


def _bike(img: Image.Image, xy: tuple[float, float], k: float, colour: Colour,
          on: Colour) -> None:
    """A small bicycle, 20 units wide from x, its wheels' centres at height y."""
    x, y = xy
    r = 5 * k
    for wx in (x + 5 * k, x + 15 * k):
        disc(img, (wx, y), r, on, colour, max(1, round(1.5 * k)))
    d = ImageDraw.Draw(img)
    w = max(1, round(1.5 * k))
    d.line((x + 5 * k, y, x + 9 * k, y - 6 * k, x + 15 * k, y, x + 10 * k, y), fill=colour,
           width=w)
    d.line((x + 9 * k, y - 6 * k, x + 8 * k, y - 8 * k), fill=colour, width=w)
    d.line((x + 13 * k, y - 7 * k, x + 15 * k, y), fill=colour, width=w)


def _card(img: Image.Image, xy: tuple[float, float], k: float) -> None:
    x, y = xy
    rounded_box(img, (round(x), round(y), round(x + 9 * k), round(y + 13 * k)),
                max(1, round(2 * k)), CARD, CARD_EDGE, max(1, round(k)))


def _chip(img: Image.Image, xy: tuple[float, float], k: float, colour: str,
          mark: str) -> None:
    """A face-up totem card in a hand: its location's colour, its totem's letter."""
    x, y = xy
    fill = parse_colour(colour)
    rounded_box(img, (round(x), round(y), round(x + 12 * k), round(y + 16 * k)),
                max(1, round(2 * k)), fill, CARD_EDGE, max(1, round(k)))
    _text(ImageDraw.Draw(img), (x + 6 * k, y + 8 * k), mark, 11, k, contrast_text(fill),
          bold=True, anchor="mm")


def _pile(img: Image.Image, xy: tuple[float, float], cards: int, k: float) -> None:
    """The Fight Stack's pile, drawn a little thick (`cards` backs)."""
    x, y = xy
    for i in range(cards):
        _card(img, (x + 2 * i * k, y - 2 * i * k), k)


def _heart(img: Image.Image, centre: tuple[float, float], r: float, fill: Colour) -> None:
    cx, cy = centre
    disc(img, (cx - r * 0.5, cy - r * 0.25), r * 0.55, fill)
    disc(img, (cx + r * 0.5, cy - r * 0.25), r * 0.55, fill)
    polygon(img, [(cx - r * 1.03, cy - r * 0.05), (cx + r * 1.03, cy - r * 0.05),
                  (cx, cy + r)], fill)


def _hearts(img: Image.Image, xy: tuple[float, float], bravery: int, k: float) -> None:
    """A hero's five Bravery hearts, the first `bravery` of them gold."""
    x, y = xy
    for b in range(5):
        _heart(img, (x + b * 12 * k, y), 5 * k, GOLD if b < bravery else EDGE)


def _pawn(img: Image.Image, centre: tuple[float, float], r: float, k: float, colour: str,
          character: str, acting: bool, moved: bool = False) -> None:
    """A hero's pawn: its colour and short name, a gold edge for the one to play, and a
    ring (MOVED_RING units out) for a hero that moved this turn."""
    fill = parse_colour(colour)
    if moved:
        disc(img, centre, r + MOVED_RING * k, TRAIL)
        disc(img, centre, r + (MOVED_RING - 1.5) * k, PANEL)
    disc(img, centre, r, fill, GOLD if acting else TEXT, max(1, round((2 if acting else 1) * k)))
    _text(ImageDraw.Draw(img), centre, SHORT.get(character, character[:1].upper()), 11, k,
          contrast_text(fill), bold=True, anchor="mm")


def _circle(img: Image.Image, centre: tuple[float, float], token: str, mark: str,
            k: float) -> None:
    """A circle of a location: a victim face down (all alike), a rescued child face up,
    or empty with its mark (an attack balloon, or the mark's text)."""
    cx, cy = centre
    r = CIRCLE_R * k
    if token == DOWN:
        disc(img, centre, r, DOWN_FILL, DOWN_RING, max(1, round(1.5 * k)))
    elif token == CHILD:
        disc(img, centre, r, CHILD_FILL, CHILD_INK, max(1, round(1.5 * k)))
        disc(img, (cx, cy - 4 * k), 3 * k, CHILD_INK)  # a child: head and shoulders
        rounded_box(img, (round(cx - 5 * k), round(cy), round(cx + 5 * k), round(cy + 7 * k)),
                    round(3 * k), CHILD_INK)
    elif mark == ATTACK_MARK:
        disc(img, centre, r, HOLE, ATTACK, max(1, round(1.5 * k)))
        _balloon(img, (cx, cy - 3 * k), 5 * k, ATTACK)
    else:
        disc(img, centre, r, HOLE, EDGE, max(1, round(1 * k)))
        _text(ImageDraw.Draw(img), centre, mark, 12, k, GOLD, bold=True, anchor="mm")


def _space(img: Image.Image, centre: tuple[float, float], what: str, k: float) -> None:
    """What a track space holds: a rescued child, Strength's marker, an attack balloon,
    or its number."""
    cx, cy = centre
    if what == "child":
        disc(img, centre, 8 * k, CHILD_FILL, CHILD_INK, max(1, round(k)))
        disc(img, (cx, cy - 3 * k), 2.5 * k, CHILD_INK)
    elif what == "marker":
        disc(img, centre, 9 * k, GOLD)
    elif what == "attack":
        _balloon(img, (cx, cy - 3 * k), 5 * k, ATTACK)
    else:
        _text(ImageDraw.Draw(img), centre, what, 11, k, MUTED, anchor="mm")


def _reward(img: Image.Image, centre: tuple[float, float], reward: int, k: float) -> None:
    disc(img, centre, 10 * k, GOLD)
    _text(ImageDraw.Draw(img), centre, f"+{reward}", 11, k, BLACK, bold=True, anchor="mm")


def _grate(img: Image.Image, centre: tuple[float, float], k: float) -> None:
    """The Drainpipe's grate, the one he came out of."""
    cx, cy = centre
    disc(img, centre, 18 * k, BG, EDGE, max(1, round(2 * k)))
    d = ImageDraw.Draw(img)
    for dx in (-8, 0, 8):
        d.line((cx + dx * k, cy - 14 * k, cx + dx * k, cy + 14 * k), fill=EDGE,
               width=max(1, round(2 * k)))


def _location_panel(img: Image.Image, colour: Colour, name: str, band: int, k: float) -> None:
    """A location's panel, its name (on two lines if it must) on a band `band` px high
    in its colour."""
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), PANEL, colour, max(1, round(2 * k)))
    rounded_box(img, (0, 0, w, band), round(6 * k), colour)
    f, lines = fit_wrapped(name, round(w - 12 * k), 2, round(12 * k),
                           min_size=round(MIN_TEXT * k), bold=True)
    pitch = band / (len(lines) + 0.35)
    top = (band - pitch * len(lines)) / 2 + pitch / 2
    for i, line in enumerate(lines):
        draw_text(ImageDraw.Draw(img), (6 * k, top + i * pitch), line, f,
                  contrast_text(colour), anchor="lm", bold=True)


def _fight_frame(img: Image.Image, k: float) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), PANEL, CARD_EDGE, max(1, round(2 * k)))
    _text(ImageDraw.Draw(img), (7 * k, 12 * k), evil_below_line("views.fight_stack"), 12, k, TEXT,
          bold=True, width=w / k - 14)


def _drain_frame(img: Image.Image, label: str, k: float) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), HOLE, EDGE, max(1, round(1 * k)))
    _text(ImageDraw.Draw(img), (w / 2, 12 * k), label, 12, k, MUTED, bold=True, anchor="mm",
          width=w / k - 12)


def _die(img: Image.Image, xy: tuple[float, float], colour: Colour, face: str, used: bool,
         k: float) -> None:
    """One die of the last roll, its top-left corner at xy, DIE units wide: its face on
    its location's colour (faded once used)."""
    x, y = xy
    face_fill = mix(colour, BG, 0.6) if used else colour
    rounded_box(img, (round(x), round(y), round(x + DIE * k), round(y + DIE * k)),
                max(1, round(4 * k)), TEXT if not used else EDGE)
    rounded_box(img, (round(x + 1.5 * k), round(y + 1.5 * k), round(x + (DIE - 1.5) * k),
                      round(y + (DIE - 1.5) * k)), max(1, round(3 * k)), face_fill)
    cx, cy = x + DIE / 2 * k, y + DIE / 2 * k
    ink = contrast_text(face_fill)
    u = DIE / 76 * k  # the faces are written for a 76-unit die
    if face == "balloon":  # in the face's ink like the others: pink on red would not show
        _balloon(img, (cx, cy - 8 * u), 16 * u, ink)
    elif face == "heart":
        _heart(img, (cx, cy + 2 * u), 22 * u, ink)
    else:  # a hand: palm and fingers
        rounded_box(img, (round(cx - 13 * u), round(cy - 2 * u), round(cx + 11 * u),
                          round(cy + 20 * u)), max(1, round(6 * u)), ink)
        for dx, tip in ((-10, -16), (-3, -21), (4, -21), (10, -16)):
            rounded_box(img, (round(cx + (dx - 3) * u), round(cy + tip * u),
                              round(cx + (dx + 3) * u), round(cy + 4 * u)),
                        max(1, round(3 * u)), ink)


def _turned(img: Image.Image, xy: tuple[float, float], k: float, colour: str, mark: str,
            attack: bool) -> None:
    """A card turned in the fight: a totem in its location's colour with its letter, or
    an attack card (its balloon on red)."""
    x, y = xy
    box = (round(x), round(y), round(x + CARD_W * k), round(y + CARD_H * k))
    if attack:
        rounded_box(img, box, max(1, round(2 * k)), HOLE, ATTACK, max(1, round(1.5 * k)))
        _balloon(img, (x + CARD_W / 2 * k, y + 5.5 * k), 3.6 * k, ATTACK)
        return
    fill = parse_colour(colour)
    rounded_box(img, box, max(1, round(2 * k)), fill, CARD_EDGE, max(1, round(k)))
    _text(ImageDraw.Draw(img), (x + CARD_W / 2 * k, y + CARD_H / 2 * k), mark, 11, k,
          contrast_text(fill), bold=True, anchor="mm")


def _row(img: Image.Image, radius: int, fill: Colour, edge: Colour | None, width: int) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), radius, fill, edge, width)


# ---------------------------------------------------------------- pieces
# What a board is composed of (renderers.canvas): each glyph drawn once on the flat
# colour it lies on, quantized once and shared by every game showing it. Every key is a
# public fact (a size, a name, a colour, a count, a drawing function, the fonts): a
# victim in a circle is keyed as "face down", never by who it is.

PIECE_CACHE_SIZE = 2048
Drawer = Callable[..., None]


@pieces(PIECE_CACHE_SIZE, budgets.WIDE_PIECES)
def _glyph(draw: Drawer, on: Colour, fx: float, fy: float, pad: int,
           args: tuple[Hashable, ...], fonts: tuple[object, ...]) -> Sprite:
    """`draw(img, point, *args)` on a patch of `on`, the point (fx, fy) past an even
    pixel of the board: shifting by an even number keeps round()'s ties (to even) where
    they fall on the board, so the glyph is what drawing it in place would be. `fonts`
    only keys the cache."""
    del fonts
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    draw(img, (pad + fx, pad + fy), *args)
    return trimmed(img, on, (pad, pad))


@pieces(256, budgets.WIDE_PIECES)
def _plate(draw: Drawer, w: int, h: int, on: Colour, args: tuple[Hashable, ...],
           fonts: tuple[object, ...]) -> Sprite:
    """`draw(img, *args)` filling a w x h patch of `on` (a panel, a row), put whole."""
    del fonts
    img = Image.new("RGB", (w, h), on)
    draw(img, *args)
    return Sprite(img)


class _Board:
    """A board being composed on a canvas (RGB without an ink, else indexed)."""

    def __init__(self, canvas: Canvas, k: float) -> None:
        self.canvas = canvas
        self.k = k
        self.fonts = font_signature()

    def glyph(self, draw: Drawer, xy: tuple[float, float], on: Colour, reach: float,
              *args: Hashable) -> None:
        """A glyph reaching at most `reach` px from its point `xy`."""
        x, y = xy
        ax, ay = math.floor(x) & ~1, math.floor(y) & ~1
        pad = math.ceil(reach) + 4
        pad += pad & 1
        self.canvas.put((ax, ay), _glyph(self.canvas.ink, draw, on, x - ax, y - ay, pad, args,
                                         self.fonts))

    def plate(self, draw: Drawer, box: Box, on: Colour, *args: Hashable) -> None:
        x0, y0, x1, y1 = box
        self.canvas.put((x0, y0), _plate(self.canvas.ink, draw, x1 - x0, y1 - y0, on, args,
                                         self.fonts))

    def text(self, xy: tuple[float, float], text: str, size: float, fill: Colour, on: Colour,
             *, bold: bool = False, anchor: str = "lm", width: float = 0) -> None:
        f, text = _fitted(text, size, self.k, bold, width)
        self.canvas.text(xy, text, f, fill, on=on, anchor=anchor, bold=bold)


# ---------------------------------------------------------------- the board


def _location(b: _Board, view: BoardView, loc: LocationView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, y1 = geo.locations[loc.index]
    b.plate(_location_panel, (x0, y0, x1, y1), BG, parse_colour(loc.colour), loc.name,
            round(y0 + NAME_BAND * k) - y0, k)
    for centre, circle in zip(geo.circles[loc.index], loc.circles, strict=True):
        b.glyph(_circle, centre, PANEL, CIRCLE_R * k, circle.token, circle.mark, k)
    die = next((d for d in view.dice if d.location == loc.index), None)
    if die is not None:
        dx0, dy0, _, _ = geo.dice[loc.index]
        b.glyph(_die, (dx0, dy0), PANEL, (DIE + 2) * k, parse_colour(die.colour), die.face,
                die.used, k)
    if loc.bikes:
        bx = x0 + 6 * k
        b.glyph(_bike, (bx, y0 + BIKE_Y * k), PANEL, 22 * k, k, BIKE, PANEL)
        if loc.bikes > 1:
            b.text((bx + 22 * k, y0 + (BIKE_Y - 3) * k), f"×{loc.bikes}", 11, BIKE, PANEL,
                   bold=True)
    if loc.pennywise:
        b.glyph(_pennywise, geo.pennywise, PANEL, 26 * k, k)
    for j, seat in enumerate(loc.heroes):
        hero = view.heroes[seat]
        dx, dy = pawn_offset(j)
        b.glyph(_pawn, (x0 + dx * k, y0 + dy * k), PANEL, (PAWN_R + MOVED_RING) * k,
                PAWN_R * k, k, hero.colour, hero.character, hero.acting, hero.moved)
    if loc.index in view.changed:  # left or entered this turn: framed in the gap round it
        w = max(2, round(2 * k))
        for band in ((x0 - w, y0 - w, x1 + w, y0), (x0 - w, y1, x1 + w, y1 + w),
                     (x0 - w, y0, x0, y1), (x1, y0, x1 + w, y1)):
            b.canvas.fill(band, TRAIL)


def _fight_panel(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.fight
    width = (x1 - x0) / k - 12
    b.plate(_fight_frame, geo.fight, BG, k)
    cards = min(4, max(1, view.fight_stack // 3))
    b.glyph(_pile, (x0 + 8 * k, y0 + 30 * k), PANEL, 24 * k, cards, k)
    b.text((x0 + 28 * k, y0 + 33 * k), evil_below_line("views.stack_cards", size=view.fight_stack),
           13,
           TEXT, PANEL, bold=True, width=width - 22)
    b.glyph(_balloon, (x0 + 14 * k, y0 + 50 * k), PANEL, 12 * k, 5 * k, ATTACK)
    b.text((x0 + 28 * k, y0 + 53 * k), evil_below_line("views.stack_attacks",
                                                       attacks=view.fight_attacks),
           12, ATTACK, PANEL, bold=True, width=width - 22)
    for n, line in enumerate((evil_below_line("views.attack_pile", count=view.attack_pile),
                              evil_below_line("views.totems", deck=view.totem_deck),
                              evil_below_line("views.discard", discard=view.totem_discard))):
        b.text((x0 + 6 * k, y0 + (70 + n * 14) * k), line, 11, MUTED, PANEL, width=width)


def _drainpipe(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.drainpipe
    b.plate(_drain_frame, geo.drainpipe, BG, view.drainpipe, k)
    if view.pennywise_drainpipe:
        b.glyph(_pennywise, geo.pennywise, HOLE, 26 * k, k)
    else:
        b.glyph(_grate, ((x0 + x1) / 2, y0 + 52 * k), HOLE, 19 * k, k)


def _tracks(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x = COLUMN_X
    for row, track in enumerate((view.influence, view.strength)):
        ty = TRACK_Y[row]
        note = f"{track.filled}/{track.length}"
        b.text((x * k, (ty + TRACK_LABEL_H / 2) * k), f"{track.label} {note}", 12,
               GOLD if row else (ATTACK if track.filled else TEXT), BG, bold=True,
               width=COLUMN_W)
        sy = ty + TRACK_LABEL_H + 1
        spaces = track.length if row == 0 else track.length + 1  # Strength has Start
        step = min(SPACE_STEP, (COLUMN_W - SPACE) / max(1, spaces - 1))
        for i in range(spaces):
            sx = x + i * step
            box = (round(sx * k), round(sy * k), round((sx + SPACE) * k),
                   round((sy + SPACE) * k))
            number = i + 1 if row == 0 else i
            attack = row == 0 and number in track.attack_spaces
            b.plate(_row, box, BG, round(3 * k), HOLE, ATTACK if attack else EDGE,
                    max(1, round((2 if attack else 1) * k)))
            centre = ((sx + SPACE / 2) * k, (sy + SPACE / 2) * k)
            if row == 0 and i < track.filled:
                what = "child"
            elif row == 1 and i == track.filled:
                what = "marker"
            elif attack:
                what = "attack"
            elif row == 1:
                what = "S" if i == 0 else str(i)
            else:
                continue
            b.glyph(_space, centre, HOLE, 10 * k, what, k)


def _fight_cards(b: _Board, view: BoardView, geo: Geometry) -> None:
    """Whose roll the town's dice are, then the cards turned in this fight: a card each
    (its colour and letter), then their names."""
    k = geo.scale
    x = COLUMN_X
    if view.roller:
        b.text((x * k, (DICE_Y + 6) * k), evil_below_line("views.dice_of", player=view.roller), 11,
               MUTED,
               BG, width=COLUMN_W)
    if not view.fighting:
        b.text((x * k, (FIGHT_Y + CARD_H / 2) * k), evil_below_line("views.no_fight"), 11, MUTED,
               BG,
               width=COLUMN_W)
        return
    label = evil_below_line("views.fight_cards")
    f = _f(12, k, True)
    b.text((x * k, (FIGHT_Y + CARD_H / 2) * k), label, 12, GOLD, BG, bold=True)
    cx = x + math.ceil(face_for(f, label).getlength(label) / k) + 5
    room = max(0, int((x + COLUMN_W - cx - CARD_W) // CARD_STEP) + 1)
    for n, card in enumerate(view.cards[-room:] if room else ()):
        b.glyph(_turned, ((cx + n * CARD_STEP) * k, FIGHT_Y * k), BG, (CARD_H + 2) * k, k,
                card.colour, card.mark, card.attack)
    names = ", ".join(card.name for card in view.cards) or evil_below_line("views.revealed_none")
    f = _f(11, k)
    for i, line in enumerate(wrap_text(names, f, round(COLUMN_W * k), 3)):
        b.canvas.text((x * k, (FIGHT_Y + CARD_H + 8 + i * 12) * k), line, f,
                      TEXT if view.cards else MUTED, on=BG, anchor="lm")


def _weaknesses(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x, y = COLUMN_X, geo.weaknesses_y / k
    f = _f(11, k)
    found = evil_below_line("views.weakness_done", count=view.weaknesses_done)
    b.text(((x + COLUMN_W) * k, (y + 6) * k), found, 11, GOLD, BG, anchor="rm")
    room = COLUMN_W - math.ceil(face_for(_f(11, k), found).getlength(found) / k) - 6
    b.text((x * k, (y + 6) * k), evil_below_line("views.weaknesses_short"), 12, TEXT, BG, bold=True,
           width=room)
    for i, w in enumerate(view.weaknesses):
        ry = y + 14 + i * WEAK_ROW
        b.plate(_row, (round(x * k), round(ry * k), round((x + COLUMN_W) * k),
                       round((ry + WEAK_ROW - 2) * k)), BG, round(4 * k), PANEL, None, 0)
        mid = ry + (WEAK_ROW - 2) / 2
        b.glyph(_reward, ((x + 11) * k, mid * k), PANEL, 10 * k, w.reward, k)
        text = w.name or evil_below_line("views.weakness_none")
        left = evil_below_line("views.weakness_left", left=w.left)
        lines = weakness_lines(text, left, k)
        top = mid - (len(lines) - 1) * 5.75
        for j, line in enumerate(lines):
            b.canvas.text(((x + WEAK_NAME_X) * k, (top + j * 11.5) * k), line, f,
                          TEXT if w.name else MUTED, on=PANEL, anchor="lm")
        b.text(((x + COLUMN_W - 4) * k, mid * k), left, 11, MUTED, PANEL, anchor="rm")


# A weakness row: its name starts this far in (after the reward), and keeps this gap
# before the count at the row's right end ("6 left").
WEAK_NAME_X = 24
WEAK_GAP = 6


def weakness_lines(name: str, left: str, k: float) -> list[str]:
    """A weakness's name wrapped into its row, clear of the count on its right: a
    longer count (a Chinese one has a count word) narrows the name rather than running
    under it."""
    f = _f(11, k)
    count_w = math.ceil(face_for(f, left).getlength(left) / k)
    room = min(COLUMN_W - 64, COLUMN_W - WEAK_NAME_X - 4 - count_w - WEAK_GAP)
    return wrap_text(name, f, round(room * k), 2)


def _heroes(b: _Board, view: BoardView, geo: Geometry) -> None:
    """A row per Loser: the pawn, the player, Bravery, the hand and a Bike."""
    k = geo.scale
    for hero, (rx0, ry0, rx1, ry1) in zip(view.heroes, geo.hero_rows, strict=False):
        b.plate(_row, (rx0, ry0, rx1, ry1), BG, round(4 * k), PANEL,
                GOLD if hero.acting else PANEL, max(1, round(k)))
        x, cy = rx0 / k, (ry0 + ry1) / 2 / k
        r = min(8.0, (ry1 - ry0) / k / 2 - 0.5)
        b.glyph(_pawn, ((x + 10) * k, cy * k), PANEL, (r + 1) * k, r * k, k, hero.colour,
                hero.character, hero.acting)
        who = evil_below_line("views.ai_player", player=hero.player) if hero.ai else hero.player
        b.text(((x + 21) * k, cy * k), who, 11, TEXT, PANEL, bold=hero.acting, width=82)
        b.glyph(_hearts, ((x + 108) * k, cy * k), PANEL, 50 * k, hero.bravery, k)
        _hand(b, hero, x + 160, cy, k)
        if hero.bike:
            b.glyph(_bike, ((x + 197) * k, (cy + 3) * k), PANEL, 22 * k, k, BIKE, PANEL)


def _hand(b: _Board, hero: HeroView, x: float, cy: float, k: float) -> None:
    """The cards in a Loser's hand, face up as seed 001 keeps them: a chip per card in
    its location's colour with its totem's letter; past three, two chips and "+n"."""
    shown = hero.cards if len(hero.cards) <= HAND_CHIPS else hero.cards[:HAND_CHIPS - 1]
    for n, (colour, mark) in enumerate(shown):
        b.glyph(_chip, ((x + n * (CHIP_STEP - 1)) * k, (cy - 8) * k), PANEL, 18 * k, k, colour,
                mark)
    if len(shown) < len(hero.cards):
        b.text(((x + len(shown) * (CHIP_STEP - 1)) * k, cy * k),
               f"+{len(hero.cards) - len(shown)}", 11, TEXT, PANEL, bold=True)
    if not hero.cards:
        b.text((x * k, cy * k), "–", 12, MUTED, PANEL)


def _compose(view: BoardView, width: int, ink: Ink | None) -> Canvas:
    """The board on a canvas: RGB without an ink, else in that ink's indices."""
    geo = geometry(view, width)
    k = geo.scale
    canvas = Canvas((geo.width, geo.height), BG, ink)
    b = _Board(canvas, k)
    # The ending, once there is one, is the headline: it says who won and how.
    b.text((MARGIN * k, (HEADER / 2) * k), view.footer or view.header, 14,
           GOLD if view.footer else TEXT, BG, bold=True, width=U - 2 * MARGIN)
    for loc in view.locations:
        _location(b, view, loc, geo)
    _fight_panel(b, view, geo)
    _drainpipe(b, view, geo)
    _tracks(b, view, geo)
    _fight_cards(b, view, geo)
    _weaknesses(b, view, geo)
    _heroes(b, view, geo)
    return canvas


def compose(view: BoardView, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image."""
    return _compose(view, width, None).finish()


# ---------------------------------------------------------------- palette and output


def _sample() -> BoardView:
    """A made-up game (fixed seed, seven seats) with every kind of thing on show, to fit
    the palette to: no real game's state is in it."""
    state, _ = GAME.setup([PlayerInfo(f"Player {i + 1}") for i in range(7)], 1, {})
    view = board_view(state)
    locs = list(view.locations)
    locs[0] = replace(locs[0], pennywise=True, circles=tuple(
        replace(c, token="") for c in locs[0].circles))
    locs[1] = replace(locs[1], circles=(replace(locs[1].circles[0], token=CHILD),
                                        *locs[1].circles[1:]))
    board = content.board()
    faces = ["balloon", "hand", "heart", "hand", "heart", "balloon", "hand"]
    dice = tuple(DieView(d, board.names[d], board.colours[d], face, d % 2 == 0)
                 for d, face in enumerate(faces))
    cards = (CardView("Rock (The Barrens)", board.colours[1], "R", False),
             CardView("Pennywise Attack", "", "", True))
    return replace(view, locations=tuple(locs), pennywise_drainpipe=False, fighting=True,
                   revealed=("Rock (The Barrens)",), footer="The Losers' Club wins.",
                   influence=replace(view.influence, filled=6),
                   strength=replace(view.strength, filled=3), changed=(0, 1),
                   heroes=tuple(replace(h, moved=h.seat == 1) for h in view.heroes),
                   dice=dice, roller="Player 1", cards=cards)


@lru_cache(maxsize=8)
def _palette(width: int, fonts: tuple[object, ...]) -> Any:
    del fonts  # part of the key only: new fonts draw new edges
    colours = tuple(parse_colour(c) for c in content.board().colours)
    faded = tuple(mix(c, BG, 0.6) for c in colours)
    return make_palette([compose(_sample(), width)], exact=FLAT_COLOURS + colours + faded)


register(_palette)


def palette(width: int) -> Any:
    return _palette(int(width), font_signature())


@lru_cache(maxsize=8)
def _ink(width: int, fonts: tuple[object, ...]) -> Ink:
    return Ink(_palette(width, fonts))


register(_ink)


def board_ink(width: int) -> Ink:
    """The boards' palette at this width, with the lookups drawing in it needs."""
    return _ink(int(width), font_signature())


def render_image(state: Any, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image (before its palette)."""
    return compose(board_view(state), width)


def render_board(state: Any, *, width: int = BASE_WIDTH) -> bytes:
    """The public board as PNG bytes: composed in the palette from cached pieces and
    written band by band, the bands drawn as before (by any game) reused."""
    return _compose(board_view(state), width, board_ink(width)).png()
