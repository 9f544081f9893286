"""/stats as a small picture: two panels of bars (games played, the wins inside each),
a title and a few footer lines, legible where Discord shows an image inline.

The card is drawn at the size Discord shows it (550 x 350), so a font's pixel size is
the size read; no text is smaller than MIN_FONT. It takes a `Card` whose words are
already said (cogs/stats.py reads them from data/): it draws, it does not count.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from renderers.common import draw_text, ellipsize, font

WIDTH, HEIGHT = 550, 350
MIN_FONT = 11  # every text's pixel size at least this (Discord shows the card 1:1)
TITLE_FONT, HEAD_FONT, TEXT_FONT = 18, 13, MIN_FONT
BACKGROUND = (30, 31, 36)
PANEL = (43, 45, 52)
INK = (235, 235, 240)
MUTED = (170, 172, 180)
PLAYED = (88, 101, 242)
WON = (87, 242, 135)
MARGIN = 14
ROW = 22
MAX_ROWS = 8


@dataclass(frozen=True)
class Bar:
    label: str
    played: int
    won: int


@dataclass(frozen=True)
class Panel:
    title: str
    bars: list[Bar] = field(default_factory=list)


@dataclass(frozen=True)
class Card:
    title: str
    subtitle: str
    panels: tuple[Panel, Panel]
    legend: tuple[str, str]  # the words for played and won
    footer: list[str] = field(default_factory=list)


def _panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], panel: Panel) -> None:
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=8, fill=PANEL)
    draw_text(draw, (x0 + 10, y0 + 8), ellipsize(panel.title, font(HEAD_FONT, True),
                                                 x1 - x0 - 20),
              font(HEAD_FONT, True), INK, bold=True)
    most = max([b.played for b in panel.bars] + [1])
    label_w = (x1 - x0) * 2 // 5
    bar_x0, bar_x1 = x0 + 10 + label_w, x1 - 54
    small = font(TEXT_FONT)
    for n, bar in enumerate(panel.bars[:MAX_ROWS]):
        y = y0 + 34 + n * ROW
        draw_text(draw, (x0 + 10, y + 2), ellipsize(bar.label, small, label_w - 6), small, INK)
        full = bar_x0 + (bar_x1 - bar_x0) * bar.played / most
        draw.rectangle((bar_x0, y + 3, max(bar_x0 + 2, full), y + 15), fill=PLAYED)
        if bar.won:
            part = bar_x0 + (bar_x1 - bar_x0) * bar.won / most
            draw.rectangle((bar_x0, y + 3, part, y + 15), fill=WON)
        draw_text(draw, (x1 - 10, y + 2), f"{bar.won}/{bar.played}", small, MUTED, anchor="ra")


def render_card(card: Card) -> bytes:
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title = font(TITLE_FONT, True)
    draw_text(draw, (MARGIN, MARGIN), ellipsize(card.title, title, WIDTH - 2 * MARGIN),
              title, INK, bold=True)
    small = font(TEXT_FONT)
    draw_text(draw, (MARGIN, MARGIN + 24), ellipsize(card.subtitle, small, WIDTH - 2 * MARGIN),
              small, MUTED)
    top, bottom = MARGIN + 46, HEIGHT - MARGIN - 18 * max(1, len(card.footer[:3]))
    half = (WIDTH - 3 * MARGIN) // 2
    for n, panel in enumerate(card.panels):
        x0 = MARGIN + n * (half + MARGIN)
        _panel(draw, (x0, top, x0 + half, bottom - 6), panel)
    y = bottom
    for line in card.footer[:3]:
        draw_text(draw, (MARGIN, y), ellipsize(line, small, WIDTH - 2 * MARGIN - 150), small, INK)
        y += 18
    # the legend, bottom right: what the two colours mean
    lx = WIDTH - MARGIN - 140
    ly = HEIGHT - MARGIN - 14
    for colour, word in ((PLAYED, card.legend[0]), (WON, card.legend[1])):
        draw.rectangle((lx, ly + 2, lx + 10, ly + 12), fill=colour)
        draw_text(draw, (lx + 14, ly), ellipsize(word, small, 54), small, MUTED)
        lx += 70
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
