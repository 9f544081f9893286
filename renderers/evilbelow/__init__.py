"""The public pictures of an IT: Evil Below game: the board after every step that
changes it, and the dice rolled as a strip.

Both are drawn from the engine's views (bot/games/evil_below/view.py), never from the
state itself, so nothing face down can reach a picture: victims still in their circles
are drawn face down alike, the Fight Stack, decks and attack pile only as counts.

Sizes are written for a 600 px wide image (`U` units) and scaled to the width asked
for; the board is drawn 900 px wide so that its smallest text (11 units, 16 px) is
still ~11 px where Discord shows it in a chat, about 600 px wide.

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
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.evil_below import GAME, content
from bot.games.evil_below.view import (
    ATTACK_MARK,
    CHILD,
    DOWN,
    BoardView,
    DiceView,
    HeroView,
    LocationView,
    board_view,
    dice_view,
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
    fit_text,
    font,
    font_signature,
    make_palette,
    mix,
    parse_colour,
    polygon,
    rounded_box,
    wrap_text,
)

BASE_WIDTH = 900
ROLL_EVENT = "roll"  # the engine's event kind for a roll; its data holds the faces
DICE_FILE = "dice.png"
U = 600  # the width sizes are written for
MIN_TEXT = 11  # the smallest text, in units

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

# Where the locations sit: a ring around the Drainpipe, in board order (their adjacency
# ring), clockwise from the top left; the Fight Stack takes the ring's last cell.
CELLS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2))
FIGHT_CELL = (0, 1)
DRAIN_CELL = (1, 1)
SHORT: dict[str, str] = {"bill": "Bi", "bev": "Bv", "ben": "Bn", "mike": "M", "richie": "R",
                         "eddie": "E", "stan": "S"}

MARGIN, GAP, HEADER = 8, 6, 30
CELL_H = 92
CIRCLE_R, CIRCLE_STEP = 11, 27
PAWN_R, PAWN_STEP = 11, 25
MOVED_RING = 2.5  # how far out of a pawn the ring of a hero that moved this turn lies
WEAK_ROW, HERO_ROW = 32, 34
HAND_CHIPS, CHIP_STEP = 3, 14  # a hand shows up to three cards, 14 units apart


@dataclass(frozen=True)
class Geometry:
    """Where things are drawn, in pixels, for tests and the drawing code alike."""

    width: int
    height: int
    scale: float
    locations: tuple[Box, ...]  # location -> its box
    fight: Box
    drainpipe: Box
    circles: tuple[tuple[tuple[int, int], ...], ...]  # location -> circle centres
    pennywise: tuple[int, int]  # the marker's centre
    tracks_y: int
    weaknesses_y: int
    heroes_y: int


def _cell_box(col: int, row: int, k: float) -> Box:
    cw = (U - 2 * MARGIN - 2 * GAP) / 3
    x0 = MARGIN + col * (cw + GAP)
    y0 = HEADER + 6 + row * (CELL_H + GAP)
    return (round(x0 * k), round(y0 * k), round((x0 + cw) * k), round((y0 + CELL_H) * k))


def geometry(view: BoardView, width: int = BASE_WIDTH) -> Geometry:
    k = width / U
    boxes = tuple(_cell_box(*CELLS[i], k) for i in range(len(view.locations)))
    circles = tuple(
        tuple((round(b[0] + (8 + CIRCLE_R + j * CIRCLE_STEP) * k), round(b[1] + 37 * k))
              for j in range(len(loc.circles)))
        for b, loc in zip(boxes, view.locations, strict=True))
    drain = _cell_box(*DRAIN_CELL, k)
    where = next((i for i, loc in enumerate(view.locations) if loc.pennywise), None)
    if where is None:
        penny = ((drain[0] + drain[2]) // 2, round(drain[1] + 52 * k))
    else:
        b = boxes[where]
        penny = (round(b[2] - 20 * k), round(b[1] + 37 * k))
    grid_end = HEADER + 6 + 3 * CELL_H + 2 * GAP
    tracks = grid_end + 8
    weak = tracks + 2 * 32 + 6
    extra = 0
    if view.fighting:
        extra = 36
    heroes = weak + 18 + len(view.weaknesses) * WEAK_ROW + 4 + extra
    rows = (len(view.heroes) + 1) // 2
    height = heroes + 18 + rows * HERO_ROW + 4
    if view.footer:
        height += 36
    return Geometry(width, round((height + MARGIN) * k), k, boxes, _cell_box(*FIGHT_CELL, k),
                    drain, circles, penny, round(tracks * k), round(weak * k), round(heroes * k))


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
    _text(ImageDraw.Draw(img), centre, "IT", 11, k, WHITE, bold=True, anchor="mm")


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
    """A location's panel, its name on a band `band` px high in its colour."""
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), PANEL, colour, max(1, round(2 * k)))
    rounded_box(img, (0, 0, w, band), round(6 * k), colour)
    _text(ImageDraw.Draw(img), (7 * k, 11 * k), name, 12, k, contrast_text(colour), bold=True,
          width=w / k - 14)


def _fight_frame(img: Image.Image, k: float) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), PANEL, CARD_EDGE, max(1, round(2 * k)))
    _text(ImageDraw.Draw(img), (8 * k, 11 * k), "Fight Stack", 12, k, TEXT, bold=True)


def _drain_frame(img: Image.Image, label: str, k: float) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), HOLE, EDGE, max(1, round(1 * k)))
    _text(ImageDraw.Draw(img), (w / 2, 13 * k), label, 12, k, MUTED, bold=True, anchor="mm")


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
            round(y0 + 21 * k) - y0, k)
    for centre, circle in zip(geo.circles[loc.index], loc.circles, strict=True):
        b.glyph(_circle, centre, PANEL, CIRCLE_R * k, circle.token, circle.mark, k)
    if loc.bikes:
        bx = x0 + (8 + 4 * CIRCLE_STEP) * k
        b.glyph(_bike, (bx, y0 + 40 * k), PANEL, 22 * k, k, BIKE, PANEL)
        if loc.bikes > 1:
            b.text((bx + 22 * k, y0 + 37 * k), f"×{loc.bikes}", 11, BIKE, PANEL, bold=True)
    if loc.pennywise:
        b.glyph(_pennywise, geo.pennywise, PANEL, 26 * k, k)
    for j, seat in enumerate(loc.heroes):
        hero = view.heroes[seat]
        b.glyph(_pawn, (x0 + (8 + PAWN_R + j * PAWN_STEP) * k, y0 + 72 * k), PANEL,
                (PAWN_R + MOVED_RING) * k, PAWN_R * k, k, hero.colour, hero.character,
                hero.acting, hero.moved)
    if loc.index in view.changed:  # left or entered this turn: framed in the gap round it
        w = max(2, round(2 * k))
        for band in ((x0 - w, y0 - w, x1 + w, y0), (x0 - w, y1, x1 + w, y1 + w),
                     (x0 - w, y0, x0, y1), (x1, y0, x1 + w, y1)):
            b.canvas.fill(band, TRAIL)


def _fight_panel(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.fight
    b.plate(_fight_frame, geo.fight, BG, k)
    cards = min(4, max(1, view.fight_stack // 3))
    b.glyph(_pile, (x0 + 10 * k, y0 + 28 * k), PANEL, 24 * k, cards, k)
    b.text((x0 + 30 * k, y0 + 31 * k), f"{view.fight_stack} cards", 15, TEXT, PANEL, bold=True)
    b.glyph(_balloon, (x0 + 15 * k, y0 + 48 * k), PANEL, 12 * k, 5 * k, ATTACK)
    b.text((x0 + 30 * k, y0 + 50 * k), f"{view.fight_attacks} attack", 13, ATTACK, PANEL,
           bold=True)
    b.text((x0 + 8 * k, y0 + 69 * k), f"Attack pile {view.attack_pile}", 11, MUTED, PANEL)
    b.text((x0 + 8 * k, y0 + 82 * k), f"Totems {view.totem_deck} · discard {view.totem_discard}",
           11, MUTED, PANEL, width=(x1 - x0) / k - 14)


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
    y = geo.tracks_y / k
    step, size = 28, 24
    for row, track in enumerate((view.influence, view.strength)):
        ty = y + row * 32
        b.text((MARGIN * k, (ty + size / 2) * k), track.label, 12, TEXT, BG, bold=True)
        start = 112
        spaces = track.length if row == 0 else track.length + 1  # Strength has Start
        for i in range(spaces):
            sx = start + i * step
            box = (round(sx * k), round(ty * k), round((sx + size) * k), round((ty + size) * k))
            number = i + 1 if row == 0 else i
            attack = row == 0 and number in track.attack_spaces
            b.plate(_row, box, BG, round(4 * k), HOLE, ATTACK if attack else EDGE,
                    max(1, round((2 if attack else 1) * k)))
            centre = ((sx + size / 2) * k, (ty + size / 2) * k)
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
            b.glyph(_space, centre, HOLE, 11 * k, what, k)
        note = f"{track.filled}/{track.length}"
        b.text(((start + spaces * step + 4) * k, (ty + size / 2) * k), note, 12,
               GOLD if row else (ATTACK if track.filled else MUTED), BG, bold=True)


def _weaknesses(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    y = geo.weaknesses_y / k
    f = _f(11, k)
    if view.fighting:
        cards = ", ".join(view.revealed) if view.revealed else "nothing yet"
        lines = wrap_text(f"Revealed: {cards}", f, round((U - 2 * MARGIN) * k), 2)
        for i, line in enumerate(lines):
            b.canvas.text((MARGIN * k, (y + 8 + i * 15) * k), line, f, GOLD, on=BG, anchor="lm")
        y += 36
    b.text((MARGIN * k, (y + 8) * k),
           f"Pennywise's weaknesses (face up) · {view.weaknesses_done} found", 12, TEXT, BG,
           bold=True)
    for i, w in enumerate(view.weaknesses):
        ry = y + 18 + i * WEAK_ROW
        b.plate(_row, (round(MARGIN * k), round(ry * k), round((U - MARGIN) * k),
                       round((ry + WEAK_ROW - 3) * k)), BG, round(4 * k), PANEL, None, 0)
        b.glyph(_reward, ((MARGIN + 14) * k, (ry + 14) * k), PANEL, 10 * k, w.reward, k)
        text = w.name or "No weakness left in this stack"
        lines = wrap_text(text, f, round((U - 2 * MARGIN - 100) * k), 2)
        top = ry + 14 - (len(lines) - 1) * 6.5
        for j, line in enumerate(lines):
            b.canvas.text(((MARGIN + 30) * k, (top + j * 13) * k), line, f,
                          TEXT if w.name else MUTED, on=PANEL, anchor="lm")
        b.text(((U - MARGIN - 8) * k, (ry + 14) * k), f"{w.left} left", 11, MUTED, PANEL,
               anchor="rm")


def _heroes(b: _Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    y = geo.heroes_y / k
    b.text((MARGIN * k, (y + 8) * k), "The Losers' Club", 12, TEXT, BG, bold=True)
    col_w = (U - 2 * MARGIN - GAP) / 2
    for n, hero in enumerate(view.heroes):
        x = MARGIN + (n % 2) * (col_w + GAP)
        ry = y + 18 + (n // 2) * HERO_ROW
        b.plate(_row, (round(x * k), round(ry * k), round((x + col_w) * k),
                       round((ry + HERO_ROW - 3) * k)), BG, round(4 * k), PANEL,
                GOLD if hero.acting else PANEL, max(1, round(k)))
        cy = ry + (HERO_ROW - 3) / 2
        b.glyph(_pawn, ((x + 15) * k, cy * k), PANEL, 10 * k, 10 * k, k, hero.colour,
                hero.character, hero.acting)
        b.text(((x + 30) * k, (cy - 7) * k), hero.name, 12, TEXT, PANEL, bold=True, width=120)
        who = hero.player + (" (AI)" if hero.ai else "")
        b.text(((x + 30) * k, (cy + 8) * k), who, 11, MUTED, PANEL, width=120)
        b.glyph(_hearts, ((x + 160) * k, cy * k), PANEL, 60 * k, hero.bravery, k)
        _hand(b, hero, x + 217, cy, k)
        if hero.bike:
            b.glyph(_bike, ((x + 264) * k, (cy + 3) * k), PANEL, 22 * k, k, BIKE, PANEL)


def _hand(b: _Board, hero: HeroView, x: float, cy: float, k: float) -> None:
    """The cards in a Loser's hand, face up as seed 001 keeps them: a chip per card in
    its location's colour with its totem's letter; past three, two chips and "+n"."""
    shown = hero.cards if len(hero.cards) <= HAND_CHIPS else hero.cards[:HAND_CHIPS - 1]
    for n, (colour, mark) in enumerate(shown):
        b.glyph(_chip, ((x + n * CHIP_STEP) * k, (cy - 8) * k), PANEL, 18 * k, k, colour, mark)
    if len(shown) < len(hero.cards):
        b.text(((x + len(shown) * CHIP_STEP) * k, cy * k), f"+{len(hero.cards) - len(shown)}",
               11, TEXT, PANEL, bold=True)
    if not hero.cards:
        b.text((x * k, cy * k), "–", 12, MUTED, PANEL)


def _compose(view: BoardView, width: int, ink: Ink | None) -> Canvas:
    """The board on a canvas: RGB without an ink, else in that ink's indices."""
    geo = geometry(view, width)
    k = geo.scale
    canvas = Canvas((geo.width, geo.height), BG, ink)
    b = _Board(canvas, k)
    b.text((MARGIN * k, (HEADER / 2 + 2) * k), view.header, 15, TEXT, BG, bold=True,
           width=U - 2 * MARGIN)
    for loc in view.locations:
        _location(b, view, loc, geo)
    _fight_panel(b, view, geo)
    _drainpipe(b, view, geo)
    _tracks(b, view, geo)
    _weaknesses(b, view, geo)
    _heroes(b, view, geo)
    if view.footer:
        f = _f(12, k, True)
        for i, line in enumerate(wrap_text(view.footer, f, round((U - 2 * MARGIN) * k), 2)):
            canvas.text((MARGIN * k, geo.height - (MARGIN + 32 - i * 16) * k), line, f, GOLD,
                        on=BG, anchor="lm", bold=True)
    return canvas


def compose(view: BoardView, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image."""
    return _compose(view, width, None).finish()


# ---------------------------------------------------------------- the dice

DIE, DIE_GAP = 76, 6


def dice_height(view: DiceView) -> int:
    return HEADER + DIE + 24 + MARGIN if view.dice else HEADER + 24


def _die(img: Image.Image, xy: tuple[float, float], colour: Colour, face: str, used: bool,
         name: str, k: float) -> None:
    """One die rolled, its top-left corner at xy: its face on its location's colour
    (faded once used), the location's name under it."""
    x, y = xy
    face_fill = mix(colour, BG, 0.6) if used else colour
    rounded_box(img, (round(x), round(y), round(x + DIE * k), round(y + DIE * k)),
                round(10 * k), TEXT if not used else EDGE)
    rounded_box(img, (round(x + 4 * k), round(y + 4 * k), round(x + (DIE - 4) * k),
                      round(y + (DIE - 4) * k)), round(8 * k), face_fill)
    cx, cy = x + DIE / 2 * k, y + (DIE / 2 - 3) * k
    ink = contrast_text(face_fill)
    if face == "balloon":
        _balloon(img, (cx, cy - 6 * k), 14 * k, BALLOON)
    elif face == "heart":
        _heart(img, (cx, cy), 18 * k, ink)
    else:  # a hand: palm and fingers
        rounded_box(img, (round(cx - 11 * k), round(cy - 2 * k), round(cx + 11 * k),
                          round(cy + 18 * k)), round(6 * k), ink)
        for dx, tip in ((-9, -14), (-3, -18), (3, -18), (9, -14)):
            rounded_box(img, (round(cx + (dx - 2.5) * k), round(cy + tip * k),
                              round(cx + (dx + 2.5) * k), round(cy + 4 * k)),
                        round(2.5 * k), ink)
        rounded_box(img, (round(cx + 9 * k), round(cy + 2 * k), round(cx + 19 * k),
                          round(cy + 8 * k)), round(3 * k), ink)
    _text(ImageDraw.Draw(img), (cx, y + (DIE + 12) * k), name, 11, k,
          MUTED if used else TEXT, anchor="mm", width=DIE)


def _compose_dice(view: DiceView, width: int, ink: Ink | None) -> Canvas:
    """The dice strip on a canvas: RGB without an ink, else in that ink's indices."""
    k = width / U
    canvas = Canvas((width, round(dice_height(view) * k)), BG, ink)
    b = _Board(canvas, k)
    b.text((MARGIN * k, (HEADER / 2 + 2) * k), view.header, 13, TEXT, BG, bold=True,
           width=U - 2 * MARGIN)
    if not view.dice:
        b.text((MARGIN * k, (HEADER + 10) * k), "No dice rolled yet this turn", 12, MUTED, BG)
        return canvas
    for i, die in enumerate(view.dice):
        x = MARGIN + i * (DIE + DIE_GAP)
        b.glyph(_die, (x * k, (HEADER + 4) * k), BG, (DIE + 24) * k, parse_colour(die.colour),
                die.face, die.used, die.name, k)
    return canvas


def compose_dice(view: DiceView, width: int = BASE_WIDTH) -> Image.Image:
    """The dice strip as an RGB image."""
    return _compose_dice(view, width, None).finish()


# ---------------------------------------------------------------- palette and output


def _sample() -> tuple[BoardView, DiceView]:
    """A made-up game (fixed seed, seven seats) with every kind of thing on show, to fit
    the palette to: no real game's state is in it."""
    state, _ = GAME.setup([PlayerInfo(f"Player {i + 1}") for i in range(7)], 1, {})
    view = board_view(state)
    locs = list(view.locations)
    locs[0] = replace(locs[0], pennywise=True, circles=tuple(
        replace(c, token="") for c in locs[0].circles))
    locs[1] = replace(locs[1], circles=(replace(locs[1].circles[0], token=CHILD),
                                        *locs[1].circles[1:]))
    view = replace(view, locations=tuple(locs), pennywise_drainpipe=False, fighting=True,
                   revealed=("Rock (The Barrens)",), footer="The Losers' Club wins.",
                   influence=replace(view.influence, filled=6),
                   strength=replace(view.strength, filled=3), changed=(0, 1),
                   heroes=tuple(replace(h, moved=h.seat == 1) for h in view.heroes))
    state.dice = ["balloon", "hand", "heart", "hand", "heart", "balloon", "hand"]
    state.dice_used = [True, False, False, True, False, True, False]
    return view, dice_view(state)


@lru_cache(maxsize=8)
def _palette(width: int, fonts: tuple[object, ...]) -> Any:
    del fonts  # part of the key only: new fonts draw new edges
    board, dice = _sample()
    colours = tuple(parse_colour(c) for c in content.board().colours)
    faded = tuple(mix(c, BG, 0.6) for c in colours)
    return make_palette([compose(board, width), compose_dice(dice, width)],
                        exact=FLAT_COLOURS + colours + faded)


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


def render_dice(state: Any, *, width: int = BASE_WIDTH,
                rolled: list[str] | None = None) -> bytes:
    """The dice rolled this turn (or the faces `rolled`) as a strip, PNG bytes."""
    return _compose_dice(dice_view(state, rolled), width, board_ink(width)).png()


def render_extras(state: Any, events: list[Event]) -> list[tuple[str, bytes]]:
    """The dice strip of the last roll among these public events, beside the board."""
    rolls = [e for e in events if e.kind == ROLL_EVENT and e.data.get("dice")]
    if not rolls:
        return []
    faces = [str(face) for face in rolls[-1].data["dice"]]
    return [(DICE_FILE, render_dice(state, rolled=faces))]
