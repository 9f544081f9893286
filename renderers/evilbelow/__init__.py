"""The public pictures of an IT: Evil Below game: the board after every step that
changes it, and the dice rolled as a strip.

Both are drawn from the engine's views (bot/games/evil_below/view.py), never from the
state itself, so nothing face down can reach a picture: victims still in their circles
are drawn face down alike, the Fight Stack, decks and attack pile only as counts.

Sizes are written for a 600 px wide image (`U` units) and scaled to the width asked
for; the board is drawn 900 px wide so that its smallest text (11 units, 16 px) is
still ~11 px where Discord shows it in a chat, about 600 px wide. Drawing is RGB with
the shared anti-aliased helpers (renderers.common), then mapped to a fixed palette
fitted once per width and fonts to a made-up sample board (no game's state is in it),
and written as a palette PNG: the same state always gives the same bytes.
bench/bench_render_evil_below.py times it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.core.events import Event
from bot.games.evil_below.view import (
    ATTACK_MARK,
    CHILD,
    DOWN,
    BoardView,
    DiceView,
    LocationView,
    board_view,
    dice_view,
)
from renderers.canvas import register
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
    to_png,
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
FLAT_COLOURS: tuple[Colour, ...] = (BG, PANEL, EDGE, TEXT, MUTED, HOLE, DOWN_FILL, DOWN_RING,
                                    CHILD_FILL, CHILD_INK, ATTACK, BALLOON, STRING, GOLD, BIKE,
                                    CARD, CARD_EDGE, BLACK, WHITE)

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
WEAK_ROW, HERO_ROW = 32, 34


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


def _f(size: float, k: float, bold: bool = False) -> Font:
    return font(round(max(size, MIN_TEXT) * k), bold)


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: float, k: float,
          fill: Colour, *, bold: bool = False, anchor: str = "lm", width: float = 0) -> None:
    if width:
        f, text = fit_text(text, round(width * k), round(size * k),
                           min_size=round(MIN_TEXT * k), bold=bold)
    else:
        f = _f(size, k, bold)
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


def _bike(img: Image.Image, x: float, y: float, k: float, colour: Colour, on: Colour) -> None:
    """A small bicycle, 20 units wide, its wheels' centres at height y."""
    r = 5 * k
    for wx in (x + 5 * k, x + 15 * k):
        disc(img, (wx, y), r, on, colour, max(1, round(1.5 * k)))
    d = ImageDraw.Draw(img)
    w = max(1, round(1.5 * k))
    d.line((x + 5 * k, y, x + 9 * k, y - 6 * k, x + 15 * k, y, x + 10 * k, y), fill=colour,
           width=w)
    d.line((x + 9 * k, y - 6 * k, x + 8 * k, y - 8 * k), fill=colour, width=w)
    d.line((x + 13 * k, y - 7 * k, x + 15 * k, y), fill=colour, width=w)


def _card(img: Image.Image, x: float, y: float, k: float) -> None:
    rounded_box(img, (round(x), round(y), round(x + 9 * k), round(y + 13 * k)),
                max(1, round(2 * k)), CARD, CARD_EDGE, max(1, round(k)))


def _heart(img: Image.Image, centre: tuple[float, float], r: float, fill: Colour) -> None:
    cx, cy = centre
    disc(img, (cx - r * 0.5, cy - r * 0.25), r * 0.55, fill)
    disc(img, (cx + r * 0.5, cy - r * 0.25), r * 0.55, fill)
    polygon(img, [(cx - r * 1.03, cy - r * 0.05), (cx + r * 1.03, cy - r * 0.05),
                  (cx, cy + r)], fill)


def _pawn(img: Image.Image, centre: tuple[float, float], r: float, k: float, colour: str,
          character: str, acting: bool) -> None:
    fill = parse_colour(colour)
    disc(img, centre, r, fill, GOLD if acting else TEXT, max(1, round((2 if acting else 1) * k)))
    _text(ImageDraw.Draw(img), centre, SHORT.get(character, character[:1].upper()), 11, k,
          contrast_text(fill), bold=True, anchor="mm")


# ---------------------------------------------------------------- the board


def _location(img: Image.Image, view: BoardView, loc: LocationView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, y1 = geo.locations[loc.index]
    colour = parse_colour(loc.colour)
    rounded_box(img, (x0, y0, x1, y1), round(6 * k), PANEL, colour, max(1, round(2 * k)))
    rounded_box(img, (x0, y0, x1, round(y0 + 21 * k)), round(6 * k), colour)
    d = ImageDraw.Draw(img)
    _text(d, (x0 + 7 * k, y0 + 11 * k), loc.name, 12, k, contrast_text(colour), bold=True,
          width=(x1 - x0) / k - 14)
    for (cx, cy), circle in zip(geo.circles[loc.index], loc.circles, strict=True):
        r = CIRCLE_R * k
        if circle.token == DOWN:
            disc(img, (cx, cy), r, DOWN_FILL, DOWN_RING, max(1, round(1.5 * k)))
        elif circle.token == CHILD:
            disc(img, (cx, cy), r, CHILD_FILL, CHILD_INK, max(1, round(1.5 * k)))
            disc(img, (cx, cy - 4 * k), 3 * k, CHILD_INK)  # a child: head and shoulders
            rounded_box(img, (round(cx - 5 * k), round(cy), round(cx + 5 * k),
                              round(cy + 7 * k)), round(3 * k), CHILD_INK)
        elif circle.mark == ATTACK_MARK:
            disc(img, (cx, cy), r, HOLE, ATTACK, max(1, round(1.5 * k)))
            _balloon(img, (cx, cy - 3 * k), 5 * k, ATTACK)
        else:
            disc(img, (cx, cy), r, HOLE, EDGE, max(1, round(1 * k)))
            _text(d, (cx, cy), circle.mark, 12, k, GOLD, bold=True, anchor="mm")
    if loc.bikes:
        bx = x0 + (8 + 4 * CIRCLE_STEP) * k
        _bike(img, bx, y0 + 40 * k, k, BIKE, PANEL)
        if loc.bikes > 1:
            _text(d, (bx + 22 * k, y0 + 37 * k), f"×{loc.bikes}", 11, k, BIKE, bold=True)
    if loc.pennywise:
        _balloon(img, geo.pennywise, 12 * k, BALLOON)
        _text(d, geo.pennywise, "IT", 11, k, WHITE, bold=True, anchor="mm")
    for j, seat in enumerate(loc.heroes):
        hero = view.heroes[seat]
        _pawn(img, (x0 + (8 + PAWN_R + j * PAWN_STEP) * k, y0 + 72 * k), PAWN_R * k, k,
              hero.colour, hero.character, hero.acting)


def _fight_panel(img: Image.Image, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.fight
    rounded_box(img, geo.fight, round(6 * k), PANEL, CARD_EDGE, max(1, round(2 * k)))
    d = ImageDraw.Draw(img)
    _text(d, (x0 + 8 * k, y0 + 11 * k), "Fight Stack", 12, k, TEXT, bold=True)
    for i in range(min(4, max(1, view.fight_stack // 3))):  # the pile, drawn a little thick
        _card(img, x0 + (10 + 2 * i) * k, y0 + (28 - 2 * i) * k, k)
    _text(d, (x0 + 30 * k, y0 + 31 * k), f"{view.fight_stack} cards", 15, k, TEXT, bold=True)
    _balloon(img, (x0 + 15 * k, y0 + 48 * k), 5 * k, ATTACK)
    _text(d, (x0 + 30 * k, y0 + 50 * k), f"{view.fight_attacks} attack", 13, k, ATTACK,
          bold=True)
    _text(d, (x0 + 8 * k, y0 + 69 * k), f"Attack pile {view.attack_pile}", 11, k, MUTED)
    _text(d, (x0 + 8 * k, y0 + 82 * k),
          f"Totems {view.totem_deck} · discard {view.totem_discard}", 11, k, MUTED,
          width=(x1 - x0) / k - 14)


def _drainpipe(img: Image.Image, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.drainpipe
    rounded_box(img, geo.drainpipe, round(6 * k), HOLE, EDGE, max(1, round(1 * k)))
    d = ImageDraw.Draw(img)
    cx = (x0 + x1) / 2
    _text(d, (cx, y0 + 13 * k), view.drainpipe, 12, k, MUTED, bold=True, anchor="mm")
    if view.pennywise_drainpipe:
        _balloon(img, geo.pennywise, 12 * k, BALLOON)
        _text(d, geo.pennywise, "IT", 11, k, WHITE, bold=True, anchor="mm")
    else:  # the grate he came out of
        disc(img, (cx, y0 + 52 * k), 18 * k, BG, EDGE, max(1, round(2 * k)))
        for dx in (-8, 0, 8):
            d.line((cx + dx * k, y0 + 38 * k, cx + dx * k, y0 + 66 * k), fill=EDGE,
                   width=max(1, round(2 * k)))


def _tracks(img: Image.Image, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    d = ImageDraw.Draw(img)
    y = geo.tracks_y / k
    step, size = 28, 24
    for row, track in enumerate((view.influence, view.strength)):
        ty = y + row * 32
        _text(d, (MARGIN * k, (ty + size / 2) * k), track.label, 12, k, TEXT, bold=True)
        start = 112
        spaces = track.length if row == 0 else track.length + 1  # Strength has Start
        for i in range(spaces):
            sx = start + i * step
            box = (round(sx * k), round(ty * k), round((sx + size) * k), round((ty + size) * k))
            number = i + 1 if row == 0 else i
            attack = row == 0 and number in track.attack_spaces
            rounded_box(img, box, round(4 * k), HOLE, ATTACK if attack else EDGE,
                        max(1, round((2 if attack else 1) * k)))
            centre = ((sx + size / 2) * k, (ty + size / 2) * k)
            if row == 0 and i < track.filled:
                disc(img, centre, 8 * k, CHILD_FILL, CHILD_INK, max(1, round(k)))
                disc(img, (centre[0], centre[1] - 3 * k), 2.5 * k, CHILD_INK)
            elif row == 1 and i == track.filled:
                disc(img, centre, 9 * k, GOLD)
            elif attack:
                _balloon(img, (centre[0], centre[1] - 3 * k), 5 * k, ATTACK)
            elif row == 1:
                _text(d, centre, "S" if i == 0 else str(i), 11, k, MUTED, anchor="mm")
        note = f"{track.filled}/{track.length}"
        _text(d, ((start + spaces * step + 4) * k, (ty + size / 2) * k), note, 12, k,
              GOLD if row else (ATTACK if track.filled else MUTED), bold=True)


def _weaknesses(img: Image.Image, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    d = ImageDraw.Draw(img)
    y = geo.weaknesses_y / k
    if view.fighting:
        cards = ", ".join(view.revealed) if view.revealed else "nothing yet"
        f = _f(11, k)
        lines = wrap_text(f"Revealed: {cards}", f, round((U - 2 * MARGIN) * k), 2)
        for i, line in enumerate(lines):
            draw_text(d, (MARGIN * k, (y + 8 + i * 15) * k), line, f, GOLD, anchor="lm")
        y += 36
    _text(d, (MARGIN * k, (y + 8) * k),
          f"Pennywise's weaknesses (face up) · {view.weaknesses_done} found", 12, k, TEXT,
          bold=True)
    f = _f(11, k)
    for i, w in enumerate(view.weaknesses):
        ry = y + 18 + i * WEAK_ROW
        rounded_box(img, (round(MARGIN * k), round(ry * k), round((U - MARGIN) * k),
                          round((ry + WEAK_ROW - 3) * k)), round(4 * k), PANEL)
        disc(img, ((MARGIN + 14) * k, (ry + 14) * k), 10 * k, GOLD)
        _text(d, ((MARGIN + 14) * k, (ry + 14) * k), f"+{w.reward}", 11, k, BLACK, bold=True,
              anchor="mm")
        text = w.name or "No weakness left in this stack"
        lines = wrap_text(text, f, round((U - 2 * MARGIN - 100) * k), 2)
        top = ry + 14 - (len(lines) - 1) * 6.5
        for j, line in enumerate(lines):
            draw_text(d, ((MARGIN + 30) * k, (top + j * 13) * k), line, f,
                      TEXT if w.name else MUTED, anchor="lm")
        _text(d, ((U - MARGIN - 8) * k, (ry + 14) * k), f"{w.left} left", 11, k, MUTED,
              anchor="rm")


def _heroes(img: Image.Image, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    d = ImageDraw.Draw(img)
    y = geo.heroes_y / k
    _text(d, (MARGIN * k, (y + 8) * k), "The Losers' Club", 12, k, TEXT, bold=True)
    col_w = (U - 2 * MARGIN - GAP) / 2
    for n, hero in enumerate(view.heroes):
        x = MARGIN + (n % 2) * (col_w + GAP)
        ry = y + 18 + (n // 2) * HERO_ROW
        rounded_box(img, (round(x * k), round(ry * k), round((x + col_w) * k),
                          round((ry + HERO_ROW - 3) * k)), round(4 * k),
                    PANEL, GOLD if hero.acting else PANEL, max(1, round(k)))
        cy = ry + (HERO_ROW - 3) / 2
        _pawn(img, ((x + 15) * k, cy * k), 10 * k, k, hero.colour, hero.character, hero.acting)
        _text(d, ((x + 30) * k, (cy - 7) * k), hero.name, 12, k, TEXT, bold=True, width=120)
        who = hero.player + (" (AI)" if hero.ai else "")
        _text(d, ((x + 30) * k, (cy + 8) * k), who, 11, k, MUTED, width=120)
        for b in range(5):
            _heart(img, ((x + 160 + b * 12) * k, cy * k), 5 * k, GOLD if b < hero.bravery else EDGE)
        _card(img, (x + 224) * k, (cy - 6.5) * k, k)
        _text(d, ((x + 236) * k, cy * k), str(hero.hand), 12, k, TEXT, bold=True)
        if hero.bike:
            _bike(img, (x + 250) * k, (cy + 3) * k, k, BIKE, PANEL)


def compose(view: BoardView, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image."""
    geo = geometry(view, width)
    k = geo.scale
    img = Image.new("RGB", (geo.width, geo.height), BG)
    d = ImageDraw.Draw(img)
    _text(d, (MARGIN * k, (HEADER / 2 + 2) * k), view.header, 15, k, TEXT, bold=True,
          width=U - 2 * MARGIN)
    for loc in view.locations:
        _location(img, view, loc, geo)
    _fight_panel(img, view, geo)
    _drainpipe(img, view, geo)
    _tracks(img, view, geo)
    _weaknesses(img, view, geo)
    _heroes(img, view, geo)
    if view.footer:
        f = _f(12, k, True)
        for i, line in enumerate(wrap_text(view.footer, f, round((U - 2 * MARGIN) * k), 2)):
            draw_text(d, (MARGIN * k, geo.height - (MARGIN + 32 - i * 16) * k), line, f, GOLD,
                      anchor="lm", bold=True)
    return img


# ---------------------------------------------------------------- the dice

DIE, DIE_GAP = 76, 6


def dice_height(view: DiceView) -> int:
    return HEADER + DIE + 24 + MARGIN if view.dice else HEADER + 24


def compose_dice(view: DiceView, width: int = BASE_WIDTH) -> Image.Image:
    k = width / U
    img = Image.new("RGB", (width, round(dice_height(view) * k)), BG)
    d = ImageDraw.Draw(img)
    _text(d, (MARGIN * k, (HEADER / 2 + 2) * k), view.header, 13, k, TEXT, bold=True,
          width=U - 2 * MARGIN)
    if not view.dice:
        _text(d, (MARGIN * k, (HEADER + 10) * k), "No dice rolled yet this turn", 12, k, MUTED)
        return img
    for i, die in enumerate(view.dice):
        x = MARGIN + i * (DIE + DIE_GAP)
        y = HEADER + 4
        colour = parse_colour(die.colour)
        face = mix(colour, BG, 0.6) if die.used else colour
        rounded_box(img, (round(x * k), round(y * k), round((x + DIE) * k),
                          round((y + DIE) * k)), round(10 * k), TEXT if not die.used else EDGE)
        rounded_box(img, (round((x + 4) * k), round((y + 4) * k), round((x + DIE - 4) * k),
                          round((y + DIE - 4) * k)), round(8 * k), face)
        centre = ((x + DIE / 2) * k, (y + DIE / 2 - 3) * k)
        ink = contrast_text(face)
        if die.face == "balloon":
            _balloon(img, (centre[0], centre[1] - 6 * k), 14 * k, BALLOON)
        elif die.face == "heart":
            _heart(img, centre, 18 * k, ink)
        else:  # a hand: palm and fingers
            cx, cy = centre
            rounded_box(img, (round(cx - 11 * k), round(cy - 2 * k), round(cx + 11 * k),
                              round(cy + 18 * k)), round(6 * k), ink)
            for j, (dx, top) in enumerate(((-9, -14), (-3, -18), (3, -18), (9, -14))):
                del j
                rounded_box(img, (round(cx + (dx - 2.5) * k), round(cy + top * k),
                                  round(cx + (dx + 2.5) * k), round(cy + 4 * k)),
                            round(2.5 * k), ink)
            rounded_box(img, (round(cx + 9 * k), round(cy + 2 * k), round(cx + 19 * k),
                              round(cy + 8 * k)), round(3 * k), ink)
        _text(d, ((x + DIE / 2) * k, (y + DIE + 12) * k), die.name, 11, k,
              MUTED if die.used else TEXT, anchor="mm", width=DIE)
    return img


# ---------------------------------------------------------------- palette and output


def _sample() -> tuple[BoardView, DiceView]:
    """A made-up game (fixed seed, seven seats) with every kind of thing on show, to fit
    the palette to: no real game's state is in it."""
    from dataclasses import replace

    from bot.games.base import PlayerInfo
    from bot.games.evil_below import EvilBelowGame

    game = EvilBelowGame()
    state, _ = game.setup([PlayerInfo(f"Player {i + 1}") for i in range(7)], 1, {})
    view = board_view(state)
    locs = list(view.locations)
    locs[0] = replace(locs[0], pennywise=True, circles=tuple(
        replace(c, token="") for c in locs[0].circles))
    locs[1] = replace(locs[1], circles=(replace(locs[1].circles[0], token=CHILD),
                                        *locs[1].circles[1:]))
    view = replace(view, locations=tuple(locs), pennywise_drainpipe=False, fighting=True,
                   revealed=("Rock (The Barrens)",), footer="The Losers' Club wins.",
                   influence=replace(view.influence, filled=6),
                   strength=replace(view.strength, filled=3))
    state.dice = ["balloon", "hand", "heart", "hand", "heart", "balloon", "hand"]
    state.dice_used = [True, False, False, True, False, True, False]
    return view, dice_view(state)


@lru_cache(maxsize=8)
def _palette(width: int, fonts: tuple[object, ...]) -> Any:
    del fonts  # part of the key only: new fonts draw new edges
    from bot.games.evil_below import content

    board, dice = _sample()
    colours = tuple(parse_colour(c) for c in content.board().colours)
    faded = tuple(mix(c, BG, 0.6) for c in colours)
    return make_palette([compose(board, width), compose_dice(dice, width)],
                        exact=FLAT_COLOURS + colours + faded)


register(_palette)


def palette(width: int) -> Any:
    return _palette(int(width), font_signature())


def render_image(state: Any, *, width: int = BASE_WIDTH) -> Image.Image:
    """The board as an RGB image (before its palette)."""
    return compose(board_view(state), width)


def render_board(state: Any, *, width: int = BASE_WIDTH) -> bytes:
    """The public board as PNG bytes."""
    return to_png(compose(board_view(state), width), palette=palette(width))


def render_dice(state: Any, *, width: int = BASE_WIDTH,
                rolled: list[str] | None = None) -> bytes:
    """The dice rolled this turn (or the faces `rolled`) as a strip, PNG bytes."""
    return to_png(compose_dice(dice_view(state, rolled), width), palette=palette(width))


def render_extras(state: Any, events: list[Event]) -> list[tuple[str, bytes]]:
    """The dice strip of the last roll among these public events, beside the board."""
    rolls = [e for e in events if e.kind == ROLL_EVENT and e.data.get("dice")]
    if not rolls:
        return []
    faces = [str(face) for face in rolls[-1].data["dice"]]
    return [(DICE_FILE, render_dice(state, rolled=faces))]
