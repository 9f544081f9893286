"""Small supersampled sprites: the omen, event and item symbols and the skull.

They are drawn on tiles, in the map's footer and legend, and on the explorer sheet,
so they live apart from all three; each size is drawn once and cached.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.core.lru import lru_by_bytes
from renderers import budgets
from renderers.betrayal.palette import DIM, EVENT, ITEM, OMEN, PANEL, TEXT
from renderers.common import WHITE, mix

_SS = 4  # supersampling of glyph sprites


def _finish(big: Image.Image, d: int) -> Image.Image:
    return big.resize((d, d), Image.Resampling.BOX)


@lru_by_bytes(budgets.SMALL_PIECES, budgets.weigh_image)
def glyph(kind: str, d: int) -> Image.Image:
    """A d x d RGBA sprite: "omen" (crescent on a rose disc), "event" (spiral on a blue
    disc), "item" (amber diamond), "omen_off" (an omen not yet drawn), "skull"."""
    k = d * _SS
    big = Image.new("RGBA", (k, k), (0, 0, 0, 0))
    dr = ImageDraw.Draw(big)
    if kind in ("omen", "omen_off"):
        if kind == "omen":
            dr.ellipse((0, 0, k - 1, k - 1), fill=(*OMEN, 255))
            moon = (*WHITE, 255)
        else:
            dr.ellipse((0, 0, k - 1, k - 1), fill=(*DIM, 255))
            dr.ellipse((k * 0.09, k * 0.09, k * 0.91, k * 0.91), fill=(*PANEL, 255))
            moon = (*DIM, 255)
        dr.ellipse((k * 0.22, k * 0.2, k * 0.78, k * 0.8), fill=moon)
        bg = (*OMEN, 255) if kind == "omen" else (*PANEL, 255)
        dr.ellipse((k * 0.36, k * 0.13, k * 0.9, k * 0.7), fill=bg)
    elif kind == "event":
        dr.ellipse((0, 0, k - 1, k - 1), fill=(*EVENT, 255))
        pts = []
        turns = 2.3
        for i in range(121):
            a = i / 120 * turns * 2 * math.pi
            rr = k * 0.04 + k * 0.36 * (i / 120)
            pts.append((k / 2 + rr * math.cos(a), k / 2 + rr * math.sin(a)))
        dr.line(pts, fill=(*WHITE, 255), width=max(1, round(k * 0.085)), joint="curve")
    elif kind == "item":
        m = k * 0.04
        dr.polygon([(k / 2, m), (k - m, k / 2), (k / 2, k - m), (m, k / 2)], fill=(*ITEM, 255))
        light = (*mix(ITEM, WHITE, 0.55), 255)
        dr.polygon([(k / 2, k * 0.2), (k * 0.72, k / 2), (k / 2, k * 0.5), (k * 0.28, k / 2)],
                   fill=light)
    elif kind == "skull":
        c = (*TEXT, 255)
        hole = (0, 0, 0, 0)
        dr.ellipse((k * 0.12, k * 0.05, k * 0.88, k * 0.72), fill=c)
        dr.rounded_rectangle((k * 0.27, k * 0.5, k * 0.73, k * 0.93), radius=k * 0.08, fill=c)
        dr.ellipse((k * 0.24, k * 0.33, k * 0.45, k * 0.55), fill=hole)
        dr.ellipse((k * 0.55, k * 0.33, k * 0.76, k * 0.55), fill=hole)
        dr.polygon([(k * 0.5, k * 0.56), (k * 0.44, k * 0.68), (k * 0.56, k * 0.68)], fill=hole)
        for x in (0.4, 0.5, 0.6):
            dr.line([(k * x, k * 0.78), (k * x, k * 0.93)], fill=hole, width=max(1, k // 24))
    return _finish(big, d)


def paste_glyph(img: Image.Image, kind: str, box_xy: tuple[int, int], d: int) -> None:
    sprite = glyph(kind, d)
    img.paste(sprite, box_xy, sprite)
