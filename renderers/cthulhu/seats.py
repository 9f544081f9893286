"""A seat's marker on the Cthulhu board: a shape per seat with its number inside.

The shape tells players apart without relying on colour, and the number repeats it for
anyone who cannot tell the shapes apart; so the number must read where Discord shows the
board (SEAT_NUMBER_FONT at SEAT_MARKER_R, READ_PX or more as displayed) and lie wholly
inside its shape. The outlines are given as points (`seat_outline`) and the number's
place and size as arithmetic (`seat_number`), so the tests check exactly what is drawn:
the triangle and the star are drawn fuller than a plain outline would be, since a
thinner triangle or star cannot hold a legible digit at a marker's size."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from renderers.common import (
    Box,
    Colour,
    centered_text,
    contrast_text,
    disc,
    font,
    polygon,
    regular_polygon_points,
    star_points,
)
from renderers.cthulhu.layout import SEAT_MARKER_R, SEAT_NUMBER_FONT, TEXT

SHAPES = 6
# Each shape, as multiples of the marker's radius: its size, how far its centre lies
# below the marker's, and how far below the marker's centre the number sits.
_SQUARE_HALF = 0.86
_TRIANGLE = (1.4, 0.18, 0.27)
_DIAMOND = 1.1
_HEXAGON = 1.02
_STAR = (1.2, 0.6, 0.1)  # outer radius; inner radius per outer one; the number's drop

FloatPoint = tuple[float, float]


def seat_outline(seat: int, centre: FloatPoint, radius: float) -> list[FloatPoint] | None:
    """The seat's shape as a polygon's points (None: a disc of `radius`)."""
    shape = seat % SHAPES
    cx, cy = centre
    r = radius
    if shape == 0:
        return None
    if shape == 1:
        side = r * _SQUARE_HALF
        return [(cx - side, cy - side), (cx + side, cy - side), (cx + side, cy + side),
                (cx - side, cy + side)]
    if shape == 2:
        size, drop, _ = _TRIANGLE
        return regular_polygon_points((cx, cy + r * drop), r * size, 3)
    if shape == 3:
        return regular_polygon_points(centre, r * _DIAMOND, 4)
    if shape == 4:
        return regular_polygon_points(centre, r * _HEXAGON, 6, rotation=0)
    outer, inner, _ = _STAR
    return star_points(centre, r * outer, inner=inner)


def seat_extent(seat: int, centre: FloatPoint, radius: float) -> Box:
    """The box the seat's shape covers (whole pixels, rounded outwards)."""
    points = seat_outline(seat, centre, radius)
    if points is None:
        cx, cy = centre
        points = [(cx - radius, cy - radius), (cx + radius, cy + radius)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))


def seat_number(seat: int, centre: FloatPoint, radius: float) -> tuple[FloatPoint, int]:
    """Where the seat's number is centred and its font size: in proportion to the
    marker, SEAT_NUMBER_FONT at SEAT_MARKER_R."""
    shape = seat % SHAPES
    drop = _TRIANGLE[2] if shape == 2 else _STAR[2] if shape == 5 else 0.0
    size = max(1, round(radius * SEAT_NUMBER_FONT / SEAT_MARKER_R))
    return (centre[0], centre[1] + radius * drop), size


def seat_marker(img: Image.Image, seat: int, centre: FloatPoint, radius: int,
                fill: Colour = TEXT) -> None:
    """Draw the seat's shape in `fill` and its number inside, in black or white,
    whichever reads better on `fill`."""
    points = seat_outline(seat, centre, radius)
    if points is None:
        disc(img, centre, radius, fill)
    else:
        polygon(img, points, fill)
    at, size = seat_number(seat, centre, radius)
    centered_text(ImageDraw.Draw(img), at, str(seat + 1), font(size, bold=True),
                  contrast_text(fill), bold=True)
