"""An IT: Evil Below board composed on a canvas (renderers.canvas): the geometry of
this board, then each panel (the locations, the fight, the Drainpipe, the tracks, the
turned cards, the weaknesses, the Losers' rows) put together from the glyphs of
renderers/evilbelow/glyphs.py, each kept as a piece keyed by public facts only."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from PIL import Image

from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.pictures import (
    BoardView,
    HeroView,
    LocationView,
)
from bot.texts import listed
from renderers import budgets
from renderers.canvas import Canvas, Ink, Sprite, pieces, trimmed
from renderers.common import (
    Box,
    Colour,
    face_for,
    font_signature,
    parse_colour,
    wrap_text,
)
from renderers.evilbelow.glyphs import (
    ATTACK,
    ATTACK_TEXT,
    BG,
    BIKE,
    EDGE,
    GOLD,
    HOLE,
    MUTED,
    PANEL,
    TEXT,
    TRAIL,
    balloon,
    bike,
    card_pile,
    circle_glyph,
    die_glyph,
    drain_frame,
    fight_frame,
    fitted_font,
    grate,
    hand_chip,
    hearts,
    location_panel,
    pawn,
    pennywise,
    reward,
    row_plate,
    sized_font,
    track_space,
    turned_card,
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
from renderers.evilbelow.layout import geometry as layout_of


def geometry(view: BoardView, width: int = BASE_WIDTH) -> Geometry:
    """Where this board's things are drawn (the canvas is the same for every board)."""
    where = next((i for i, loc in enumerate(view.locations) if loc.pennywise), None)
    return layout_of(tuple(len(loc.circles) for loc in view.locations),
                   tuple(loc.heroes for loc in view.locations), where, len(view.heroes),
                   width)


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


class Board:
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
        f, text = fitted_font(text, size, self.k, bold, width)
        self.canvas.text(xy, text, f, fill, on=on, anchor=anchor, bold=bold)


# ---------------------------------------------------------------- the board


def _location(b: Board, view: BoardView, loc: LocationView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, y1 = geo.locations[loc.index]
    b.plate(location_panel, (x0, y0, x1, y1), BG, parse_colour(loc.colour), loc.name,
            round(y0 + NAME_BAND * k) - y0, k)
    for centre, circle in zip(geo.circles[loc.index], loc.circles, strict=True):
        b.glyph(circle_glyph, centre, PANEL, CIRCLE_R * k, circle.token, circle.mark, k)
    die = next((d for d in view.dice if d.location == loc.index), None)
    if die is not None:
        dx0, dy0, _, _ = geo.dice[loc.index]
        b.glyph(die_glyph, (dx0, dy0), PANEL, (DIE + 2) * k, parse_colour(die.colour), die.face,
                die.used, k)
    if loc.bikes:
        bx = x0 + 6 * k
        b.glyph(bike, (bx, y0 + BIKE_Y * k), PANEL, 22 * k, k, BIKE, PANEL)
        if loc.bikes > 1:
            b.text((bx + 22 * k, y0 + (BIKE_Y - 3) * k), f"×{loc.bikes}", 11, BIKE, PANEL,
                   bold=True)
    if loc.pennywise:
        b.glyph(pennywise, geo.pennywise, PANEL, 26 * k, k,
                evil_below_line("views.pennywise_mark"))
    for j, seat in enumerate(loc.heroes):
        hero = view.heroes[seat]
        dx, dy = pawn_offset(j)
        b.glyph(pawn, (x0 + dx * k, y0 + dy * k), PANEL, (PAWN_R + MOVED_RING) * k,
                PAWN_R * k, k, hero.colour, hero.character, hero.acting, hero.moved)
    if loc.index in view.changed:  # left or entered this turn: framed in the gap round it
        w = max(2, round(2 * k))
        for band in ((x0 - w, y0 - w, x1 + w, y0), (x0 - w, y1, x1 + w, y1 + w),
                     (x0 - w, y0, x0, y1), (x1, y0, x1 + w, y1)):
            b.canvas.fill(band, TRAIL)


def _fight_panel(b: Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.fight
    width = (x1 - x0) / k - 12
    b.plate(fight_frame, geo.fight, BG, k, evil_below_line("views.fight_stack"))
    cards = min(4, max(1, view.fight_stack // 3))
    b.glyph(card_pile, (x0 + 8 * k, y0 + 30 * k), PANEL, 24 * k, cards, k)
    b.text((x0 + 28 * k, y0 + 33 * k), evil_below_line("views.stack_cards", size=view.fight_stack),
           13,
           TEXT, PANEL, bold=True, width=width - 22)
    b.glyph(balloon, (x0 + 14 * k, y0 + 50 * k), PANEL, 12 * k, 5 * k, ATTACK)
    b.text((x0 + 28 * k, y0 + 53 * k), evil_below_line("views.stack_attacks",
                                                       attacks=view.fight_attacks),
           12, ATTACK_TEXT, PANEL, bold=True, width=width - 22)
    for n, line in enumerate((evil_below_line("views.attack_pile", count=view.attack_pile),
                              evil_below_line("views.totems", deck=view.totem_deck),
                              evil_below_line("views.discard", discard=view.totem_discard))):
        b.text((x0 + 6 * k, y0 + (70 + n * 14) * k), line, 11, MUTED, PANEL, width=width)


def _drainpipe(b: Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x0, y0, x1, _ = geo.drainpipe
    b.plate(drain_frame, geo.drainpipe, BG, view.drainpipe, k)
    if view.pennywise_drainpipe:
        b.glyph(pennywise, geo.pennywise, HOLE, 26 * k, k,
                evil_below_line("views.pennywise_mark"))
    else:
        b.glyph(grate, ((x0 + x1) / 2, y0 + 52 * k), HOLE, 19 * k, k)


def _tracks(b: Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x = COLUMN_X
    for row, track in enumerate((view.influence, view.strength)):
        ty = TRACK_Y[row]
        note = f"{track.filled}/{track.length}"
        b.text((x * k, (ty + TRACK_LABEL_H / 2) * k), f"{track.label} {note}", 12,
               GOLD if row else (ATTACK_TEXT if track.filled else TEXT), BG, bold=True,
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
            b.plate(row_plate, box, BG, round(3 * k), HOLE, ATTACK if attack else EDGE,
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
            b.glyph(track_space, centre, HOLE, 10 * k, what, k)


def _fight_cards(b: Board, view: BoardView, geo: Geometry) -> None:
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
    f = sized_font(12, k, True)
    b.text((x * k, (FIGHT_Y + CARD_H / 2) * k), label, 12, GOLD, BG, bold=True)
    cx = x + math.ceil(face_for(f, label).getlength(label) / k) + 5
    room = max(0, int((x + COLUMN_W - cx - CARD_W) // CARD_STEP) + 1)
    for n, card in enumerate(view.cards[-room:] if room else ()):
        b.glyph(turned_card, ((cx + n * CARD_STEP) * k, FIGHT_Y * k), BG, (CARD_H + 2) * k, k,
                card.colour, card.mark, card.attack)
    names = listed([card.name for card in view.cards]) or evil_below_line("views.revealed_none")
    f = sized_font(11, k)
    for i, line in enumerate(wrap_text(names, f, round(COLUMN_W * k), 3)):
        b.canvas.text((x * k, (FIGHT_Y + CARD_H + 8 + i * 12) * k), line, f,
                      TEXT if view.cards else MUTED, on=BG, anchor="lm")


def _weaknesses(b: Board, view: BoardView, geo: Geometry) -> None:
    k = geo.scale
    x, y = COLUMN_X, geo.weaknesses_y / k
    f = sized_font(11, k)
    found = evil_below_line("views.weakness_done", count=view.weaknesses_done)
    b.text(((x + COLUMN_W) * k, (y + 6) * k), found, 11, GOLD, BG, anchor="rm")
    room = COLUMN_W - math.ceil(face_for(sized_font(11, k), found).getlength(found) / k) - 6
    b.text((x * k, (y + 6) * k), evil_below_line("views.weaknesses_short"), 12, TEXT, BG, bold=True,
           width=room)
    for i, w in enumerate(view.weaknesses):
        ry = y + 14 + i * WEAK_ROW
        b.plate(row_plate, (round(x * k), round(ry * k), round((x + COLUMN_W) * k),
                       round((ry + WEAK_ROW - 2) * k)), BG, round(4 * k), PANEL, None, 0)
        mid = ry + (WEAK_ROW - 2) / 2
        b.glyph(reward, ((x + 11) * k, mid * k), PANEL, 10 * k, w.reward, k)
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
    f = sized_font(11, k)
    count_w = math.ceil(face_for(f, left).getlength(left) / k)
    room = min(COLUMN_W - 64, COLUMN_W - WEAK_NAME_X - 4 - count_w - WEAK_GAP)
    return wrap_text(name, f, round(room * k), 2)


def _heroes(b: Board, view: BoardView, geo: Geometry) -> None:
    """A row per Loser: the pawn, the player, Bravery, the hand and a Bike."""
    k = geo.scale
    for hero, (rx0, ry0, rx1, ry1) in zip(view.heroes, geo.hero_rows, strict=False):
        b.plate(row_plate, (rx0, ry0, rx1, ry1), BG, round(4 * k), PANEL,
                GOLD if hero.acting else PANEL, max(1, round(k)))
        x, cy = rx0 / k, (ry0 + ry1) / 2 / k
        r = min(8.0, (ry1 - ry0) / k / 2 - 0.5)
        b.glyph(pawn, ((x + 10) * k, cy * k), PANEL, (r + 1) * k, r * k, k, hero.colour,
                hero.character, hero.acting)
        who = evil_below_line("views.ai_player", player=hero.player) if hero.ai else hero.player
        b.text(((x + 21) * k, cy * k), who, 11, TEXT, PANEL, bold=hero.acting, width=82)
        b.glyph(hearts, ((x + 108) * k, cy * k), PANEL, 50 * k, hero.bravery, k)
        _hand(b, hero, x + 160, cy, k)
        if hero.bike:
            b.glyph(bike, ((x + 197) * k, (cy + 3) * k), PANEL, 22 * k, k, BIKE, PANEL)


def _hand(b: Board, hero: HeroView, x: float, cy: float, k: float) -> None:
    """The cards in a Loser's hand, face up as seed 001 keeps them: a chip per card in
    its location's colour with its totem's letter; past three, two chips and "+n"."""
    shown = hero.cards if len(hero.cards) <= HAND_CHIPS else hero.cards[:HAND_CHIPS - 1]
    for n, (colour, mark) in enumerate(shown):
        b.glyph(hand_chip, ((x + n * (CHIP_STEP - 1)) * k, (cy - 8) * k), PANEL, 18 * k, k, colour,
                mark)
    if len(shown) < len(hero.cards):
        b.text(((x + len(shown) * (CHIP_STEP - 1)) * k, cy * k),
               f"+{len(hero.cards) - len(shown)}", 11, TEXT, PANEL, bold=True)
    if not hero.cards:
        b.text((x * k, cy * k), "–", 12, MUTED, PANEL)


def compose_canvas(view: BoardView, width: int, ink: Ink | None) -> Canvas:
    """The board on a canvas: RGB without an ink, else in that ink's indices."""
    geo = geometry(view, width)
    k = geo.scale
    canvas = Canvas((geo.width, geo.height), BG, ink)
    b = Board(canvas, k)
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
    return compose_canvas(view, width, None).finish()
