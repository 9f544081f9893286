"""An explorer's sheet: traits on their tracks and the cards held (`render_sheet`).

Drawn on request (the /sheet command), not with every turn, so it is kept apart from
the map; it shares the palette, the glyphs and the pawn (traitor band, dead ✕) with it.
In the haunt the title carries a "Traitor" badge (the traitor is public on the table)
and a "Dead" one once the explorer has died.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.games.betrayal.pictures import CardView, ExplorerView, SheetView, TraitView
from renderers.betrayal.explorers import _pawn
from renderers.betrayal.glyphs import _paste_glyph
from renderers.betrayal.palette import (
    ACCENT,
    BARRIER,
    BG,
    DEAD,
    DIM,
    EVENT,
    GOLD,
    ITEM,
    MUTED,
    OMEN,
    PANEL,
    PANEL_EDGE,
    SYMBOL_COLOURS,
    TEXT,
    TOKEN_EDGE,
    TRAITOR,
    _px,
)
from renderers.betrayal.words import word, word_or
from renderers.common import (
    BLACK,
    WHITE,
    Box,
    Colour,
    Point,
    centered_text,
    contrast_text,
    disc,
    draw_text,
    fit_text,
    font,
    make_palette,
    parse_colour,
    polygon,
    rounded_box,
    text_width,
    to_png,
    wrap_text,
)

SHEET_WIDTH = 800  # the width every size below is given at

# The order of the tracks, and the sheet's own colours (flat ones kept exact in the PNG).
TRAITS: tuple[str, ...] = ("speed", "might", "sanity", "knowledge")
CELL: Colour = (40, 37, 48)
CELL_EDGE: Colour = (66, 61, 76)
SKULL_CELL: Colour = (34, 24, 28)
CARD_BG: Colour = (33, 31, 41)
SHEET_FLAT: tuple[Colour, ...] = (BG, PANEL, PANEL_EDGE, TEXT, MUTED, DIM, CELL, CELL_EDGE,
                                  SKULL_CELL, CARD_BG, ACCENT, BARRIER, OMEN, EVENT, ITEM,
                                  GOLD, TRAITOR, DEAD, TOKEN_EDGE, BLACK, WHITE)
# The title's badges (their words: the board's sheet.badges): fill and text colour.
BADGES: dict[str, tuple[Colour, Colour]] = {"traitor": (TRAITOR, WHITE), "dead": (DEAD, BG)}


@dataclass(frozen=True)
class SheetGeometry:
    width: int
    height: int
    scale: float
    band: Box  # the colour band along the top
    title: Box
    traits: dict[str, tuple[Box, ...]]  # trait -> 9 cells: the skull, then the 8 values
    labels: dict[str, Box]
    start_marks: dict[str, Point]  # trait -> a point inside its start marker
    notes: Box | None
    cards_title: Box
    cards: tuple[Box, ...]
    card_lines: tuple[tuple[str, ...], ...]  # the wrapped text of each card
    badges: dict[str, Box] = field(default_factory=dict)  # "traitor" / "dead" -> its badge


def _sheet_traits(view: SheetView) -> list[str]:
    return [t for t in TRAITS if t in view.traits] + [t for t in view.traits if t not in TRAITS]


def sheet_geometry(view: SheetView, width: int = SHEET_WIDTH) -> SheetGeometry:
    width = int(width)
    s = width / SHEET_WIDTH

    def px(v: float) -> int:
        return _px(v, s)

    m = px(24)
    band: Box = (0, 0, width, px(12))
    title: Box = (m, band[3] + px(12), width - m, band[3] + px(12) + px(74))
    badges: dict[str, Box] = {}
    bx = title[2]
    bf = font(px(15), True)
    for key, on in (("dead", not view.alive), ("traitor", view.traitor)):
        if on:  # right-aligned on the "played by" row, the last drawn rightmost
            w = text_width(bf, word(f"sheet.badges.{key}")) + 2 * px(10)
            badges[key] = (bx - w, title[1] + px(46), bx, title[1] + px(70))
            bx -= w + px(8)
    y = title[3] + px(14)
    label_w = px(150)
    cg = px(6)
    cell_w = (width - 2 * m - label_w - 8 * cg) // 9
    cell_h = px(50)
    traits: dict[str, tuple[Box, ...]] = {}
    labels: dict[str, Box] = {}
    marks: dict[str, Point] = {}
    for name in _sheet_traits(view):
        labels[name] = (m, y, m + label_w, y + cell_h)
        x = m + label_w
        cells = []
        for _ in range(9):
            cells.append((x, y, x + cell_w, y + cell_h))
            x += cell_w + cg
        traits[name] = tuple(cells)
        start = view.traits[name].start
        if 0 <= start < 8:
            bx0, _, bx1, by1 = cells[start + 1]
            marks[name] = ((bx0 + bx1) // 2, by1 + px(9))
        y += cell_h + px(22)
    y += px(4)
    notes: Box | None = None
    note_lines = list(view.notes)
    if note_lines:
        nh = px(24) * len(note_lines)
        notes = (m, y, width - m, y + nh)
        y += nh + px(10)
    cards_title: Box = (m, y, width - m, y + px(34))
    y = cards_title[3] + px(4)
    cols = 2 if width >= 560 else 1  # two columns of cards once they can hold ~40 characters
    col_gap = px(12)
    col_w = (width - 2 * m - (cols - 1) * col_gap) // cols
    text_f = font(px(15))
    pad = px(12)
    card_boxes: list[Box] = []
    card_lines: list[tuple[str, ...]] = []
    heights: list[int] = []
    for card in view.cards:
        lines = tuple(wrap_text(card.text, text_f, col_w - 2 * pad - px(6), max_lines=8))
        card_lines.append(lines)
        heights.append(pad + px(28) + px(6) + len(lines) * px(20) + pad)
    for row_start in range(0, len(view.cards), cols):
        row_h = max(heights[row_start:row_start + cols])
        for j in range(cols):
            if row_start + j >= len(view.cards):
                break
            x0 = m + j * (col_w + col_gap)
            card_boxes.append((x0, y, x0 + col_w, y + row_h))
        y += row_h + col_gap
    if not view.cards:
        y += px(30)
    height = y + m
    return SheetGeometry(width=width, height=height, scale=s, band=band, title=title,
                         traits=traits, labels=labels, start_marks=marks, notes=notes,
                         cards_title=cards_title, cards=tuple(card_boxes),
                         card_lines=tuple(card_lines), badges=badges)


def _draw_trait(img: Image.Image, draw: ImageDraw.ImageDraw, name: str, trait: TraitView,
                cells: tuple[Box, ...], label: Box, colour: Colour, s: float) -> None:
    lx0, ly0, _, ly1 = label
    cy = (ly0 + ly1) // 2
    f = font(_px(21, s), True)
    draw_text(draw, (lx0, cy - _px(8, s)), word_or(f"sheet.traits.{name}", name.capitalize()),
              f, TEXT, anchor="lm", bold=True)
    value = trait.track[trait.index] if 0 <= trait.index < len(trait.track) else None
    sub = word("sheet.now", value=value) if value is not None else word("sheet.dead")
    draw_text(draw, (lx0, cy + _px(13, s)), sub, font(_px(15, s)),
              MUTED if value is not None else BARRIER, anchor="lm")
    radius = _px(8, s)
    for i, box in enumerate(cells):
        x0, y0, x1, y1 = box
        current = i - 1 == trait.index
        if i == 0:
            fill = BARRIER if current else SKULL_CELL
            rounded_box(img, box, radius, fill, outline=CELL_EDGE if not current else BARRIER,
                        width=1)
            d = min(x1 - x0, y1 - y0) - _px(16, s)
            _paste_glyph(img, "skull", ((x0 + x1 - d) // 2, (y0 + y1 - d) // 2), d)
            continue
        v = trait.track[i - 1] if i - 1 < len(trait.track) else None
        if current:
            rounded_box(img, box, radius, colour, outline=WHITE, width=max(2, _px(2, s)))
            ink = contrast_text(colour)
            vf = font(_px(27, s), True)
        else:
            rounded_box(img, box, radius, CELL, outline=CELL_EDGE, width=1)
            ink = TEXT if i - 1 >= trait.start else MUTED
            vf = font(_px(22, s), True)
        if v is not None:
            centered_text(draw, ((x0 + x1) // 2, (y0 + y1) // 2), str(v), vf, ink, bold=True)
    if 0 <= trait.start < 8:
        bx0, _, bx1, by1 = cells[trait.start + 1]
        cx = (bx0 + bx1) / 2
        h = _px(10, s)
        polygon(img, [(cx, by1 + _px(3, s)), (cx + h, by1 + _px(3, s) + h),
                      (cx - h, by1 + _px(3, s) + h)], ACCENT)


def _draw_card(img: Image.Image, draw: ImageDraw.ImageDraw, card: CardView, box: Box,
               lines: tuple[str, ...], s: float) -> None:
    x0, y0, x1, y1 = box
    kc = SYMBOL_COLOURS.get(card.kind, MUTED)
    rounded_box(img, box, _px(10, s), CARD_BG, outline=PANEL_EDGE, width=1)
    img.paste(kc, (x0 + 1, y0 + _px(10, s), x0 + 1 + _px(5, s), y1 - _px(10, s)))
    pad = _px(12, s)
    d = _px(24, s)
    top = y0 + pad
    x = x0 + pad + _px(4, s)
    if card.kind in SYMBOL_COLOURS:
        _paste_glyph(img, card.kind, (x, top + (_px(28, s) - d) // 2), d)
        x += d + _px(8, s)
    kf = font(_px(13, s), True)
    kind = word_or(f"sheet.kinds.{card.kind}", card.kind.upper())
    kw = text_width(kf, kind)
    draw_text(draw, (x1 - pad, top + _px(14, s)), kind, kf, kc, anchor="rm", bold=True)
    nf, name = fit_text(card.name, x1 - pad - kw - _px(10, s) - x, _px(19, s),
                        min_size=_px(14, s), bold=True)
    draw_text(draw, (x, top + _px(14, s)), name, nf, TEXT, anchor="lm", bold=True)
    tf = font(_px(15, s))
    ty = top + _px(28, s) + _px(6, s)
    for line in lines:
        draw_text(draw, (x0 + pad + _px(4, s), ty + _px(10, s)), line, tf, MUTED, anchor="lm")
        ty += _px(20, s)


def render_sheet_image(view: SheetView, *, width: int = SHEET_WIDTH) -> Image.Image:
    geo = sheet_geometry(view, width)
    s = geo.scale
    colour = parse_colour(view.colour)
    img = Image.new("RGB", (geo.width, geo.height), BG)
    draw = ImageDraw.Draw(img)
    img.paste(colour, geo.band)
    tx0, ty0, tx1, _ = geo.title
    room_text = word("sheet.room", room=view.room) if view.room else ""
    rf = font(_px(17, s))
    room_w = min(text_width(rf, room_text), (tx1 - tx0) // 3) if room_text else 0
    if view.alive and not view.traitor:
        disc(img, (tx0 + _px(20, s), ty0 + _px(24, s)), _px(18, s), colour,
             outline=TOKEN_EDGE, width=_px(2, s))
    else:  # the map's pawn: the traitor's band, a dead explorer's ✕
        _pawn(img, ExplorerView(0, view.name, view.player, view.colour, "", 0, 0,
                                alive=view.alive, traitor=view.traitor),
              tx0 + _px(20, s), ty0 + _px(24, s), _px(18, s))
    nx = tx0 + _px(48, s)
    nf, name = fit_text(view.name, tx1 - nx - room_w - _px(16, s), _px(34, s),
                        min_size=_px(22, s), bold=True)
    draw_text(draw, (nx, ty0 + _px(24, s)), name, nf, TEXT, anchor="lm", bold=True)
    badge_x = min((b[0] for b in geo.badges.values()), default=tx1 + _px(12, s))
    pf, player = fit_text(word("sheet.played_by", player=view.player),
                          badge_x - _px(12, s) - nx, _px(18, s), min_size=_px(13, s))
    draw_text(draw, (nx, ty0 + _px(58, s)), player, pf, MUTED, anchor="lm")
    bf = font(_px(15, s), True)
    for key, box in geo.badges.items():
        label, (fill, ink) = word(f"sheet.badges.{key}"), BADGES[key]
        rounded_box(img, box, (box[3] - box[1]) // 2, fill)
        centered_text(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), label, bf, ink,
                      bold=True)
    if room_text:
        rf2, rt = fit_text(room_text, room_w, _px(17, s), min_size=_px(12, s))
        draw_text(draw, (tx1, ty0 + _px(24, s)), rt, rf2, MUTED, anchor="rm")
    for name_key, cells in geo.traits.items():
        _draw_trait(img, draw, name_key, view.traits[name_key], cells, geo.labels[name_key],
                    colour, s)
    if geo.notes is not None:
        nf2 = font(_px(16, s))
        y = geo.notes[1]
        for note in view.notes:
            _, line = fit_text(note, geo.notes[2] - geo.notes[0], _px(16, s))
            draw_text(draw, (geo.notes[0], y + _px(12, s)), line, nf2, TEXT, anchor="lm")
            y += _px(24, s)
    cx0, cy0, cx1, cy1 = geo.cards_title
    tf = font(_px(21, s), True)
    cards = word("sheet.cards")
    draw_text(draw, (cx0, (cy0 + cy1) // 2), cards, tf, TEXT, anchor="lm", bold=True)
    draw_text(draw, (cx0 + text_width(tf, cards) + _px(10, s), (cy0 + cy1) // 2),
              word("sheet.held", n=len(view.cards)) if view.cards else word("sheet.none_held"),
              font(_px(16, s)), MUTED, anchor="lm")
    # Legend for the tracks, right-aligned on the cards title row.
    lf = font(_px(14, s))
    lx = cx1
    for text, swatch in ((word("sheet.key_start"), "start"), (word("sheet.key_now"), "now")):
        lx -= text_width(lf, text)
        draw_text(draw, (lx, (cy0 + cy1) // 2), text, lf, MUTED, anchor="lm")
        lx -= _px(22, s)
        mid = (cy0 + cy1) // 2
        if swatch == "start":
            h = _px(8, s)
            polygon(img, [(lx + _px(8, s), mid - h), (lx + _px(8, s) + h, mid + h // 2),
                          (lx + _px(8, s) - h, mid + h // 2)], ACCENT)
        else:
            rounded_box(img, (lx, mid - _px(8, s), lx + _px(16, s), mid + _px(8, s)), _px(4, s),
                        colour)
        lx -= _px(14, s)
    for card, box, lines in zip(view.cards, geo.cards, geo.card_lines, strict=True):
        _draw_card(img, draw, card, box, lines, s)
    if not view.cards:
        draw_text(draw, (cx0, cy1 + _px(14, s)), word("sheet.empty_hand"), font(_px(16, s)),
                  DIM, anchor="lm")
    return img


def render_sheet(view: SheetView, *, width: int = SHEET_WIDTH) -> bytes:
    """An explorer's sheet as PNG bytes: traits on their tracks and the cards held."""
    img = render_sheet_image(view, width=width)
    colours = (parse_colour(view.colour), *SHEET_FLAT)
    return to_png(img, palette=make_palette([img], exact=colours))
