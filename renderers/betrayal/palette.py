"""The look of the Betrayal images: colours, token labels and the scaling rule.

Every drawing module takes its colours from here, so the map, the tiles and the sheet
stay one palette, and `FLAT_COLOURS` (the colours the PNG palette must keep exact) is
listed next to the colours it names.
"""

from __future__ import annotations

import zlib

from renderers.betrayal.words import word_or
from renderers.common import BLACK, WHITE, Colour, font, has_glyph, legible_ink, mix

# A dark house; each floor's tiles are tinted so the panels read apart at a glance.
BG: Colour = (14, 13, 18)
PANEL: Colour = (27, 25, 33)
PANEL_EDGE: Colour = (58, 53, 68)
TEXT: Colour = (238, 231, 214)
MUTED: Colour = (156, 150, 140)
DIM: Colour = (84, 80, 92)
WALL: Colour = (152, 126, 92)
GOLD: Colour = (250, 204, 84)  # the acting explorer's ring
# What this turn changed: the rooms walked are framed in TRAIL (and the explorer who
# walked them, when another is to act, ringed in it), the room just placed in FRESH.
TRAIL: Colour = (104, 182, 255)
FRESH: Colour = (255, 140, 64)
RING_GAP: Colour = (10, 9, 12)  # the dark gap between an acting token and its ring
TOKEN_EDGE: Colour = (18, 16, 22)
DEAD: Colour = (118, 116, 122)
OMEN: Colour = (220, 86, 116)
EVENT: Colour = (86, 178, 226)
ITEM: Colour = (236, 160, 62)
BARRIER: Colour = (226, 76, 64)
LINK: Colour = (96, 206, 190)
ACCENT: Colour = (126, 214, 160)
CARD_FACE: Colour = (236, 226, 204)
PILE_BG: Colour = mix(ITEM, PANEL, 0.7)
FLOOR_FILL: dict[str, Colour] = {
    "upper": (64, 60, 84),
    "ground": (72, 60, 50),
    "basement": (50, 64, 60),
}
# Start tiles: a touch lighter, with a thin inner line.
START_FILL: dict[str, Colour] = {k: mix(v, (255, 240, 210), 0.13) for k, v in FLOOR_FILL.items()}
START_LINE: Colour = (196, 170, 120)
SYMBOL_COLOURS: dict[str, Colour] = {"omen": OMEN, "event": EVENT, "item": ITEM}

# The haunt: monsters are dark red discs with a bone edge and letter, so they read apart
# from every explorer colour (explorers.yaml: red, yellow, green, blue, white, purple);
# stunned ones turn grey. The haunt's tokens are green squares, unlike the rooms' pills.
# The traitor's pawn carries a magenta ring, a hue no explorer has.
MONSTER: Colour = (140, 28, 52)
MONSTER_EDGE: Colour = CARD_FACE
STUNNED: Colour = (104, 94, 98)
HAUNT_TOKEN: Colour = (128, 184, 64)
TRAITOR: Colour = (236, 64, 172)
# The traitor's name on a tile, in the band's hue: TRAITOR itself stands only 2-3:1 from
# the floors (2:1 on a start tile), too little for 9 px words.
TRAITOR_TEXT: Colour = legible_ink(TRAITOR, (*FLOOR_FILL.values(), *START_FILL.values()))

# Tokens a room can hold: a label and a colour (the labels and their two-letter codes
# are the board's words, in data/betrayal/texts.yaml).
TOKEN_COLOURS: tuple[Colour, ...] = ((120, 96, 170), (64, 132, 120), (150, 92, 70),
                                     (96, 110, 150), (140, 120, 60), (120, 70, 110))
FIXED_TOKEN_COLOURS: dict[str, Colour] = {"secret_passage": (64, 132, 120),
                                          "secret_stairs": (64, 132, 120),
                                          "blessing": (150, 122, 52), "vault_empty": (96, 92, 104)}

# Every flat colour of the map, kept exact when the PNG palette is fitted.
FLAT_COLOURS: tuple[Colour, ...] = (
    BG, PANEL, PANEL_EDGE, TEXT, MUTED, DIM, WALL, GOLD, TRAIL, FRESH, RING_GAP, TOKEN_EDGE,
    DEAD, OMEN, EVENT, ITEM, BARRIER, LINK, ACCENT, CARD_FACE, PILE_BG, START_LINE,
    *FLOOR_FILL.values(), MONSTER, STUNNED, HAUNT_TOKEN, TRAITOR, TRAITOR_TEXT,
    *START_FILL.values(), *TOKEN_COLOURS, *FIXED_TOKEN_COLOURS.values(), BLACK, WHITE,
)


def token_label(kind: str) -> str:
    return word_or(f"tokens.{kind}", kind.replace("_", " ").strip().capitalize()) or "?"


def token_code(kind: str) -> str:
    """The short code a token shows where its label does not fit (the board's words
    name it, else the label's first two letters)."""
    return word_or(f"codes.{kind}", token_label(kind)[:2].strip().capitalize()) or "?"


def token_colour(kind: str) -> Colour:
    if kind in FIXED_TOKEN_COLOURS:
        return FIXED_TOKEN_COLOURS[kind]
    return TOKEN_COLOURS[zlib.crc32(kind.encode()) % len(TOKEN_COLOURS)]


def glyph_mark(glyph: str, name: str) -> str:
    """The character a haunt's monster or token is drawn with: its glyph, or when the
    font cannot draw that (a symbol such as "✦" with only the fallback font) the
    initial of its name, so a token never shows a missing-glyph box."""
    ch = glyph.strip()[:1]
    if ch and has_glyph(font(16, True), ch):
        return ch
    return name.strip()[:1].upper() or "?"


def px(v: float, s: float) -> int:
    """`v` pixels at the base width, scaled by `s` (width / base width); at least 1."""
    return max(1, round(v * s))
