"""The things an IT: Evil Below board is made of, each drawn in RGB with the shared
anti-aliased helpers on a patch of the flat colour it lies on: a balloon, a pawn, a circle,
a die, a card, a panel. renderers/evilbelow/draw.py keeps each as a piece (drawn once,
quantized once) and puts it on the board; a glyph's arguments are public facts only, so
no piece can carry a secret."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.evilbelow.pictures import (
    ATTACK_MARK,
    CHILD,
    DOWN,
)
from renderers.common import (
    BLACK,
    WHITE,
    Colour,
    Font,
    contrast_text,
    disc,
    draw_text,
    fit_text,
    fit_wrapped,
    font,
    legible_ink,
    mix,
    parse_colour,
    polygon,
    rounded_box,
)
from renderers.evilbelow.layout import (
    CARD_H,
    CARD_W,
    CIRCLE_R,
    DIE,
    MIN_TEXT,
    MOVED_RING,
)

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
# Words in the attack's red (Evil Influence, the Fight Stack's attacks): ATTACK itself
# stands only 3:1 from the panels, too little for 11 px text.
ATTACK_TEXT: Colour = legible_ink(ATTACK, (BG, PANEL))
FLAT_COLOURS: tuple[Colour, ...] = (BG, PANEL, EDGE, TEXT, MUTED, HOLE, DOWN_FILL, DOWN_RING,
                                    CHILD_FILL, CHILD_INK, ATTACK, ATTACK_TEXT, BALLOON, STRING,
                                    GOLD, BIKE, CARD, CARD_EDGE, TRAIL, BLACK, WHITE)

SHORT: dict[str, str] = {"bill": "Bi", "bev": "Bv", "ben": "Bn", "mike": "M", "richie": "R",
                         "eddie": "E", "stan": "S"}


def sized_font(size: float, k: float, bold: bool = False) -> Font:
    return font(round(max(size, MIN_TEXT) * k), bold)


def fitted_font(text: str, size: float, k: float, bold: bool, width: float) -> tuple[Font, str]:
    if width:
        return fit_text(text, round(width * k), round(size * k), min_size=round(MIN_TEXT * k),
                        bold=bold)
    return sized_font(size, k, bold), text


def write(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: float, k: float,
          fill: Colour, *, bold: bool = False, anchor: str = "lm", width: float = 0) -> None:
    f, text = fitted_font(text, size, k, bold, width)
    draw_text(d, xy, text, f, fill, anchor=anchor, bold=bold)


def balloon(img: Image.Image, centre: tuple[float, float], r: float, fill: Colour) -> None:
    """A balloon on a string: Pennywise (in BALLOON) or an attack mark (in ATTACK)."""
    cx, cy = centre
    d = ImageDraw.Draw(img)
    d.line((cx, cy + r, cx - r * 0.25, cy + r * 1.6, cx + r * 0.1, cy + r * 2.1), fill=STRING,
           width=max(1, round(r / 8)))
    polygon(img, [(cx - r * 0.22, cy + r * 1.12), (cx + r * 0.22, cy + r * 1.12),
                  (cx, cy + r * 0.8)], fill)
    disc(img, (cx, cy), r, fill)


def pennywise(img: Image.Image, centre: tuple[float, float], k: float, mark: str) -> None:
    """Pennywise's balloon and its mark: the mark comes in as an argument, as every
    word a cached piece draws, so the piece is kept per word (per language)."""
    balloon(img, centre, 12 * k, BALLOON)
    write(ImageDraw.Draw(img), centre, mark, 11, k, WHITE,
          bold=True,
          anchor="mm")


def bike(img: Image.Image, xy: tuple[float, float], k: float, colour: Colour,
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


def card_back(img: Image.Image, xy: tuple[float, float], k: float) -> None:
    x, y = xy
    rounded_box(img, (round(x), round(y), round(x + 9 * k), round(y + 13 * k)),
                max(1, round(2 * k)), CARD, CARD_EDGE, max(1, round(k)))


def hand_chip(img: Image.Image, xy: tuple[float, float], k: float, colour: str,
          mark: str) -> None:
    """A face-up totem card in a hand: its location's colour, its totem's letter."""
    x, y = xy
    fill = parse_colour(colour)
    rounded_box(img, (round(x), round(y), round(x + 12 * k), round(y + 16 * k)),
                max(1, round(2 * k)), fill, CARD_EDGE, max(1, round(k)))
    write(ImageDraw.Draw(img), (x + 6 * k, y + 8 * k), mark, 11, k, contrast_text(fill),
          bold=True, anchor="mm")


def card_pile(img: Image.Image, xy: tuple[float, float], cards: int, k: float) -> None:
    """The Fight Stack's pile, drawn a little thick (`cards` backs)."""
    x, y = xy
    for i in range(cards):
        card_back(img, (x + 2 * i * k, y - 2 * i * k), k)


def heart(img: Image.Image, centre: tuple[float, float], r: float, fill: Colour) -> None:
    cx, cy = centre
    disc(img, (cx - r * 0.5, cy - r * 0.25), r * 0.55, fill)
    disc(img, (cx + r * 0.5, cy - r * 0.25), r * 0.55, fill)
    polygon(img, [(cx - r * 1.03, cy - r * 0.05), (cx + r * 1.03, cy - r * 0.05),
                  (cx, cy + r)], fill)


def hearts(img: Image.Image, xy: tuple[float, float], bravery: int, k: float) -> None:
    """A hero's five Bravery hearts, the first `bravery` of them gold."""
    x, y = xy
    for b in range(5):
        heart(img, (x + b * 12 * k, y), 5 * k, GOLD if b < bravery else EDGE)


def pawn(img: Image.Image, centre: tuple[float, float], r: float, k: float, colour: str,
          character: str, acting: bool, moved: bool = False) -> None:
    """A hero's pawn: its colour and short name, a gold edge for the one to play, and a
    ring (MOVED_RING units out) for a hero that moved this turn."""
    fill = parse_colour(colour)
    if moved:
        disc(img, centre, r + MOVED_RING * k, TRAIL)
        disc(img, centre, r + (MOVED_RING - 1.5) * k, PANEL)
    disc(img, centre, r, fill, GOLD if acting else TEXT, max(1, round((2 if acting else 1) * k)))
    write(ImageDraw.Draw(img), centre, SHORT.get(character, character[:1].upper()), 11, k,
          contrast_text(fill), bold=True, anchor="mm")


def circle_glyph(img: Image.Image, centre: tuple[float, float], token: str, mark: str,
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
        balloon(img, (cx, cy - 3 * k), 5 * k, ATTACK)
    else:
        disc(img, centre, r, HOLE, EDGE, max(1, round(1 * k)))
        write(ImageDraw.Draw(img), centre, mark, 12, k, GOLD, bold=True, anchor="mm")


def track_space(img: Image.Image, centre: tuple[float, float], what: str, k: float) -> None:
    """What a track space holds: a rescued child, Strength's marker, an attack balloon,
    or its number."""
    cx, cy = centre
    if what == "child":
        disc(img, centre, 8 * k, CHILD_FILL, CHILD_INK, max(1, round(k)))
        disc(img, (cx, cy - 3 * k), 2.5 * k, CHILD_INK)
    elif what == "marker":
        disc(img, centre, 9 * k, GOLD)
    elif what == "attack":
        balloon(img, (cx, cy - 3 * k), 5 * k, ATTACK)
    else:
        write(ImageDraw.Draw(img), centre, what, 11, k, MUTED, anchor="mm")


def reward(img: Image.Image, centre: tuple[float, float], reward: int, k: float) -> None:
    disc(img, centre, 10 * k, GOLD)
    write(ImageDraw.Draw(img), centre, f"+{reward}", 11, k, BLACK, bold=True, anchor="mm")


def grate(img: Image.Image, centre: tuple[float, float], k: float) -> None:
    """The Drainpipe's grate, the one he came out of."""
    cx, cy = centre
    disc(img, centre, 18 * k, BG, EDGE, max(1, round(2 * k)))
    d = ImageDraw.Draw(img)
    for dx in (-8, 0, 8):
        d.line((cx + dx * k, cy - 14 * k, cx + dx * k, cy + 14 * k), fill=EDGE,
               width=max(1, round(2 * k)))


def location_panel(img: Image.Image, colour: Colour, name: str, band: int, k: float) -> None:
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


def fight_frame(img: Image.Image, k: float, title: str) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), PANEL, CARD_EDGE, max(1, round(2 * k)))
    write(ImageDraw.Draw(img), (7 * k, 12 * k), title, 12, k, TEXT,
          bold=True, width=w / k - 14)


def drain_frame(img: Image.Image, label: str, k: float) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), round(6 * k), HOLE, EDGE, max(1, round(1 * k)))
    write(ImageDraw.Draw(img), (w / 2, 12 * k), label, 12, k, MUTED, bold=True, anchor="mm",
          width=w / k - 12)


def die_glyph(img: Image.Image, xy: tuple[float, float], colour: Colour, face: str, used: bool,
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
        balloon(img, (cx, cy - 8 * u), 16 * u, ink)
    elif face == "heart":
        heart(img, (cx, cy + 2 * u), 22 * u, ink)
    else:  # a hand: palm and fingers
        rounded_box(img, (round(cx - 13 * u), round(cy - 2 * u), round(cx + 11 * u),
                          round(cy + 20 * u)), max(1, round(6 * u)), ink)
        for dx, tip in ((-10, -16), (-3, -21), (4, -21), (10, -16)):
            rounded_box(img, (round(cx + (dx - 3) * u), round(cy + tip * u),
                              round(cx + (dx + 3) * u), round(cy + 4 * u)),
                        max(1, round(3 * u)), ink)


def turned_card(img: Image.Image, xy: tuple[float, float], k: float, colour: str, mark: str,
            attack: bool) -> None:
    """A card turned in the fight: a totem in its location's colour with its letter, or
    an attack card (its balloon on red)."""
    x, y = xy
    box = (round(x), round(y), round(x + CARD_W * k), round(y + CARD_H * k))
    if attack:
        rounded_box(img, box, max(1, round(2 * k)), HOLE, ATTACK, max(1, round(1.5 * k)))
        balloon(img, (x + CARD_W / 2 * k, y + 5.5 * k), 3.6 * k, ATTACK)
        return
    fill = parse_colour(colour)
    rounded_box(img, box, max(1, round(2 * k)), fill, CARD_EDGE, max(1, round(k)))
    write(ImageDraw.Draw(img), (x + CARD_W / 2 * k, y + CARD_H / 2 * k), mark, 11, k,
          contrast_text(fill), bold=True, anchor="mm")


def row_plate(img: Image.Image, radius: int, fill: Colour, edge: Colour | None, width: int) -> None:
    w, h = img.size
    rounded_box(img, (0, 0, w, h), radius, fill, edge, width)
