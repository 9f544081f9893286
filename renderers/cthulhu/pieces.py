"""The pieces a Cthulhu board is composed of (renderers.canvas): seat markers (drawn
by renderers.cthulhu.seats), portals, tokens, rooms and slots, each drawn once on the
flat colour it lies on and cached by public facts only, so no piece can carry a secret
from one board to another."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.core.lru import lru_by_bytes
from bot.games.cthulhu.content import cthulhu_line
from renderers import budgets
from renderers.canvas import COVERED, Canvas, Sprite, pieces, trimmed
from renderers.common import (
    BLACK,
    Box,
    Colour,
    Point,
    centered_text,
    disc,
    disc_footprint,
    draw_text,
    fit_text,
    font,
    polygon,
    rounded_box,
    star_points,
)
from renderers.cthulhu.layout import (
    BG,
    DIM,
    GOLD,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PORTAL_CORE,
    PORTAL_GLOW,
    PORTAL_VOID,
    SLOT_LABEL_W,
    SLOT_NAME_FONT,
    SLOT_NUMBER_FONT,
    SLOT_POINTS_FONT,
    SMALLEST_FONT,
    TEXT,
    TRAIL,
)
from renderers.cthulhu.seats import seat_marker

# ----------------------------------------------------------------------- drawing


def _portal_marker(img: Image.Image, centre: Point, radius: int, bg: Colour) -> None:
    """Face-down portal: a violet swirl with a sickly core. Same for every kind.

    Drawn once per size and background and pasted through its disc's footprint, which
    matches drawing it in place on that (flat) background."""
    sprite, footprint = _portal_sprite(radius, bg)
    r = max(1, radius)
    img.paste(sprite, (centre[0] - r, centre[1] - r), footprint)


def _sprite_pair_bytes(pair: tuple[Image.Image, Image.Image]) -> int:
    return budgets.image_bytes(pair[0]) + budgets.image_bytes(pair[1])


@lru_by_bytes(budgets.SMALL_PIECES, _sprite_pair_bytes)
def _portal_sprite(radius: int, bg: Colour) -> tuple[Image.Image, Image.Image]:
    r = max(1, radius)
    sprite = Image.new("RGB", (2 * r, 2 * r), bg)
    centre = (r, r)
    disc(sprite, centre, radius, PORTAL_VOID, outline=PORTAL_GLOW,
         width=max(1, round(radius * 0.3)))
    draw = ImageDraw.Draw(sprite)
    # Two arcs suggest a swirl without changing the centre pixel.
    r2 = radius * 0.62
    box = (centre[0] - r2, centre[1] - r2, centre[0] + r2, centre[1] + r2)
    w = max(1, round(radius * 0.12))
    draw.arc(box, 200, 330, fill=PORTAL_GLOW, width=w)
    draw.arc(box, 20, 150, fill=PORTAL_GLOW, width=w)
    disc(sprite, centre, max(2, radius * 0.3), PORTAL_CORE)
    footprint = Image.new("L", sprite.size, 0)
    disc_footprint(footprint, centre, radius)
    return sprite, footprint


def _token(img: Image.Image, centre: Point, radius: int, colour: Colour) -> None:
    # A light ring keeps dark character colours visible on the dark floor.
    disc(img, centre, radius, colour, outline=TEXT, width=max(1, round(radius * 0.16)))


# ------------------------------------------------------------------------- pieces
# What a board is composed of (renderers.canvas), each drawn once on the flat colour it
# lies on and shared by every game showing it. Every argument is a public fact: a
# piece can never carry a secret from one board to another.

PIECE_CACHE_SIZE = 1024


@pieces(PIECE_CACHE_SIZE)
def portal_piece(radius: int, on: Colour) -> Sprite:
    """A face-down portal on `on`, placed by its centre, through its disc's footprint."""
    sprite, footprint = _portal_sprite(radius, on)
    r = max(1, radius)
    return Sprite(sprite, footprint.point(COVERED, "1"), (-r, -r))


@pieces(PIECE_CACHE_SIZE)
def marker_piece(seat: int, radius: int, fill: Colour, on: Colour,
            fonts: tuple[object, ...]) -> Sprite:
    """`seat_marker` on `on`, placed by its centre. `fonts` only keys the cache."""
    pad = 2 * radius + 4
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    seat_marker(img, seat, (pad, pad), radius, fill)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def star_piece(radius: int, fill: Colour, on: Colour) -> Sprite:
    """A five-pointed star on `on`, placed by its centre."""
    pad = 2 * radius + 4
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    polygon(img, star_points((pad, pad), radius), fill)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def character_piece(colour: Colour, radius: int, on: Colour) -> Sprite:
    """A character's token on `on`, placed by its centre."""
    pad = radius + 2
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    _token(img, (pad, pad), radius, colour)
    return trimmed(img, on, (pad, pad))


@pieces(PIECE_CACHE_SIZE)
def ring_piece(radius: int, on: Colour) -> Sprite:
    """The ring round the token of the character the last action moved (radius: the
    token's), placed by its centre; it leaves the token's place untouched."""
    gap, width = max(1, round(radius * 0.18)), max(2, round(radius * 0.28))
    pad = radius + gap + width + 2
    img = Image.new("RGB", (2 * pad, 2 * pad), on)
    disc(img, (pad, pad), radius + gap + width, TRAIL)
    disc(img, (pad, pad), radius + gap, on)
    return trimmed(img, on, (pad, pad))


@pieces(64)
def box_piece(w: int, h: int, radius: int, fill: Colour, edge: Colour, width: int,
         on: Colour) -> Sprite:
    """A rounded box (a room, a slot, a score card) on `on`, w x h."""
    img = Image.new("RGB", (w, h), on)
    rounded_box(img, (0, 0, w, h), radius, fill, outline=edge, width=width)
    return Sprite(img)


@pieces(PIECE_CACHE_SIZE)
def line_piece(p0: tuple[float, float], p1: tuple[float, float], colour: Colour,
          width: int) -> Sprite:
    """A hard-edged line (a free-form passage), through its own pixels, placed at 0, 0."""
    x0, y0 = math.floor(min(p0[0], p1[0])) - width, math.floor(min(p0[1], p1[1])) - width
    x1, y1 = math.ceil(max(p0[0], p1[0])) + width, math.ceil(max(p0[1], p1[1])) + width
    img = Image.new("RGB", (x1 - x0 + 1, y1 - y0 + 1), BLACK)
    mask = Image.new("L", img.size, 0)
    shifted = ((p0[0] - x0, p0[1] - y0), (p1[0] - x0, p1[1] - y0))
    ImageDraw.Draw(img).line(shifted, fill=colour, width=width)
    ImageDraw.Draw(mask).line(shifted, fill=255, width=width)
    return Sprite(img, mask.point(COVERED, "1"), (x0, y0))


@pieces(PIECE_CACHE_SIZE)
def slot_piece(w: int, h: int, s: float, number: int, last: bool, points: int,
          centre: Point, radius: int, occupant: tuple[str, Colour] | None,
          fonts: tuple[object, ...]) -> Sprite:
    """Removal slot `number` (1-based; `last`: the survivor's), w x h on the background,
    empty or holding the character `occupant` (name, colour) with its token at
    `centre` (relative to the slot). `fonts` only keys the cache."""
    img = Image.new("RGB", (w, h), BG)
    draw = ImageDraw.Draw(img)
    filled = occupant is not None
    edge = GOLD if last else (PANEL_EDGE if filled else DIM)
    rounded_box(img, (0, 0, w, h), round(8 * s), PANEL, outline=edge, width=max(1, round(2 * s)))
    # The number, then the points it earns, side by side (a row per slot).
    label_cx = round(SLOT_LABEL_W * s * 0.27)
    points_cx = round(SLOT_LABEL_W * s * 0.72)
    cy = h // 2
    if last:  # the survivor's slot: a star rather than a number
        polygon(img, star_points((label_cx, cy), round(11 * s)), GOLD)
    else:
        centered_text(draw, (label_cx, cy), str(number),
                      font(round(SLOT_NUMBER_FONT * s), bold=True), TEXT if filled else MUTED,
                      bold=True)
    centered_text(draw, (points_cx, cy), f"+{points}",
                  font(round(SLOT_POINTS_FONT * s), bold=True), GOLD if points else MUTED,
                  bold=True)
    r = radius
    if occupant is not None:
        name, colour = occupant
        _token(img, centre, r, colour)
        lx = centre[0] + r + round(8 * s)
        f, text = fit_text(name, w - round(8 * s) - lx, round(SLOT_NAME_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        draw_text(draw, (lx, cy), text, f, TEXT, anchor="lm", bold=True)
    else:
        disc(img, centre, r, PANEL, outline=DIM, width=max(1, round(2 * s)))
        if last:
            lx = centre[0] + r + round(8 * s)
            f, text = fit_text(cthulhu_line("board.survivor"), w - round(8 * s) - lx,
                               round(SLOT_NAME_FONT * s), min_size=round(SMALLEST_FONT * s))
            draw_text(draw, (lx, cy), text, f, MUTED, anchor="lm")
    return Sprite(img)


def draw_hline(canvas: Canvas, x0: int, x1: int, y: int, width: int, colour: Colour) -> None:
    """What ImageDraw.line draws from (x0, y) to (x1, y) at this width: a rectangle."""
    top = y - (width - 1) // 2
    canvas.fill((x0, top, x1 + 1, top + width), colour)


def fill_rect(canvas: Canvas, box: Box, colour: Colour) -> None:
    """What ImageDraw.rectangle draws for this box (x1, y1 inclusive)."""
    x0, y0, x1, y1 = box
    canvas.fill((x0, y0, x1 + 1, y1 + 1), colour)

