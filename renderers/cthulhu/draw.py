"""A Cthulhu board drawn from its pieces: the house and its passages, the rooms and
who stands in them, the last action, the removal line and the scores (`compose`)."""

from __future__ import annotations

import math

from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.state import (
    LAST_STANDING_POINTS,
    RUMBLES,
    Character,
    CthulhuState,
)
from renderers.canvas import Canvas, Ink
from renderers.common import (
    Font,
    Point,
    fit_text,
    font,
    font_signature,
    parse_colour,
    text_width,
)
from renderers.cthulhu.layout import (
    ACCENT,
    BG,
    DIM,
    DOOR_SPAN,
    FLOOR,
    GOLD,
    HEADER_FONT,
    MUTED,
    NAME_BAND,
    NAME_PAD,
    PANEL,
    PANEL_EDGE,
    PORTAL_CORE,
    PORTAL_FONT,
    PORTAL_R,
    ROOM_FONT,
    ROOM_PAD,
    ROOM_RADIUS,
    SCORE_FONT,
    SCORE_NAME_FONT,
    SECTION_FONT,
    SECTION_TITLE_H,
    SMALLEST_FONT,
    TEXT,
    TITLE_FONT,
    TRAIL,
    WALL,
    WALL_W,
    BoardGeometry,
    board_geometry,
    position_points,
    token_layout,
)
from renderers.cthulhu.pieces import (
    box_piece,
    character_piece,
    draw_hline,
    fill_rect,
    line_piece,
    marker_piece,
    portal_piece,
    ring_piece,
    slot_piece,
    star_piece,
)

# ----------------------------------------------------------------------- drawing


def _draw_passages(canvas: Canvas, passages: tuple[tuple[int, int], ...],
                   geo: BoardGeometry) -> None:
    """Doorways: floor-coloured bridges that break both walls, so joined rooms read as one
    open space; unjoined neighbours keep their walls and a dark gap between them."""
    s = geo.scale
    wall = max(1, round(WALL_W * s))
    half = max(2, round(DOOR_SPAN * s / 2))
    for a, b in passages:
        if a not in geo.rooms or b not in geo.rooms:
            continue
        ra, rb = geo.rooms[a], geo.rooms[b]
        if (a, b) in geo.gaps:
            gx, gy = geo.gaps[(a, b)]
            if ra[3] <= rb[1] or rb[3] <= ra[1]:  # stacked: vertical corridor
                top, bottom = min(ra[3], rb[3]) - wall - 1, max(ra[1], rb[1]) + wall
                fill_rect(canvas, (gx - half, top, gx + half - 1, bottom), FLOOR)
                for x in (gx - half - wall, gx + half):
                    fill_rect(canvas, (x, top + wall + 1, x + wall - 1, bottom - wall), WALL)
            else:  # side by side: horizontal corridor
                left, right = min(ra[2], rb[2]) - wall - 1, max(ra[0], rb[0]) + wall
                fill_rect(canvas, (left, gy - half, right, gy + half - 1), FLOOR)
                for y in (gy - half - wall, gy + half):
                    fill_rect(canvas, (left + wall + 1, y, right - wall, y + wall - 1), WALL)


def _far_passages(state: CthulhuState, geo: BoardGeometry) -> list[tuple[Point, Point, bool]]:
    """Passages between rooms that are not grid neighbours (a free-form layout), as
    centre-to-centre segments, flagged when the segment crosses some third room."""
    out = []
    for a, b in sorted({(min(p), max(p)) for p in state.passages}):
        if (a, b) in geo.gaps or a not in geo.rooms or b not in geo.rooms:
            continue
        ra, rb = geo.rooms[a], geo.rooms[b]
        ca = ((ra[0] + ra[2]) // 2, (ra[1] + ra[3]) // 2)
        cb = ((rb[0] + rb[2]) // 2, (rb[1] + rb[3]) // 2)
        samples = [(ca[0] + (cb[0] - ca[0]) * k / 64, ca[1] + (cb[1] - ca[1]) * k / 64)
                   for k in range(65)]
        crosses = any(x0 < x < x1 and y0 < y < y1
                      for i, (x0, y0, x1, y1) in geo.rooms.items() if i not in (a, b)
                      for x, y in samples)
        out.append((ca, cb, crosses))
    return out


def _draw_far_passages(canvas: Canvas, far: list[tuple[Point, Point, bool]],
                       geo: BoardGeometry, *, over_tiles: bool) -> None:
    """A corridor drawn under the tiles, so their walls cap its ends; one that would pass
    under a third room is drawn over the tiles as a dashed line instead, lest it read as
    two passages through that room."""
    w = max(2, round(DOOR_SPAN * geo.scale * 0.4))
    wall = max(1, round(WALL_W * geo.scale))
    for ca, cb, crosses in far:
        if crosses != over_tiles:
            continue
        if not crosses:
            canvas.put((0, 0), line_piece(canvas.ink, ca, cb, WALL, w + 2 * wall))
            canvas.put((0, 0), line_piece(canvas.ink, ca, cb, FLOOR, w))
            continue
        length = math.dist(ca, cb)
        dash = max(4, round(14 * geo.scale))
        for k in range(0, int(length), 2 * dash):
            t0, t1 = k / length, min(1.0, (k + dash) / length)
            p0 = (ca[0] + (cb[0] - ca[0]) * t0, ca[1] + (cb[1] - ca[1]) * t0)
            p1 = (ca[0] + (cb[0] - ca[0]) * t1, ca[1] + (cb[1] - ca[1]) * t1)
            canvas.put((0, 0), line_piece(canvas.ink, p0, p1, WALL, max(2, wall)))


def _draw_header(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    s = geo.scale
    fonts = font_signature()
    x0, y0, x1, y1 = geo.header
    cy = (y0 + y1) // 2
    title = cthulhu_line("board.title", rumble=min(state.rumble, RUMBLES), rumbles=RUMBLES)
    title_font = font(round(TITLE_FONT * s), bold=True)
    canvas.text((x0, cy), title, title_font, TEXT, on=BG, anchor="lm", bold=True)
    if state.over:
        used = _title_end(state, geo)
        names = [state.players[w] for w in state.winners if 0 <= w < len(state.players)]
        joined = cthulhu_line("board.winners_joiner").join(names)
        label = cthulhu_line("board.winners" if len(names) > 1 else "board.winner", names=joined) \
            if names else cthulhu_line("board.game_over")
        f, text = fit_text(label, x1 - used, round(HEADER_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((x1, cy), text, f, GOLD, on=BG, anchor="rm", bold=True)
        tw = text_width(f, text)
        canvas.put((x1 - tw - round(22 * s), cy), star_piece(canvas.ink, round(16 * s), GOLD, BG))
    else:
        turn = turn_line(state, geo)
        if turn is not None:
            f, text, centre = turn
            canvas.text((x1, cy), text, f, ACCENT, on=BG, anchor="rm", bold=True)
            canvas.put(centre, marker_piece(canvas.ink, state.turn, geo.marker_radius, ACCENT, BG,
                                       fonts))
    draw_hline(canvas, x0, x1, y1 - 1, max(1, round(2 * s)), PANEL_EDGE)


def _title_end(state: CthulhuState, geo: BoardGeometry) -> int:
    """Where the header's right-hand words may begin: past the title and a gap."""
    title = cthulhu_line("board.title", rumble=min(state.rumble, RUMBLES), rumbles=RUMBLES)
    title_font = font(round(TITLE_FONT * geo.scale), bold=True)
    return geo.header[0] + text_width(title_font, title) + round(24 * geo.scale)


def turn_line(state: CthulhuState, geo: BoardGeometry) -> tuple[Font, str, Point] | None:
    """The header's "... to play", right-aligned, in the font it fits, and the centre of
    the mover's seat marker before it (None: nobody to play). Kept apart from the
    drawing so the tests can check the marker stays clear of the words."""
    if state.over or not 0 <= state.turn < len(state.players):
        return None
    s = geo.scale
    x1 = geo.header[2]
    cy = (geo.header[1] + geo.header[3]) // 2
    marker_r = geo.marker_radius
    room = x1 - _title_end(state, geo) - 3 * marker_r
    f, text = fit_text(cthulhu_line("board.to_play", player=state.players[state.turn]), room,
                       round(HEADER_FONT * s), min_size=round(SMALLEST_FONT * s), bold=True)
    return f, text, (x1 - text_width(f, text) - round(12 * s) - marker_r, cy)


def _draw_house(canvas: Canvas, house: HouseKey, geo: BoardGeometry,
                far: list[tuple[Point, Point, bool]]) -> None:
    """The house itself: tiles, passages and the line under each room's name band, drawn
    from public house facts alone (`house_key`)."""
    s = geo.scale
    wall = max(1, round(WALL_W * s))
    pad = max(1, round(ROOM_PAD * s))
    radius = round(ROOM_RADIUS * s)
    for x0, y0, x1, y1 in geo.rooms.values():
        canvas.put((x0, y0), box_piece(canvas.ink, x1 - x0, y1 - y0, radius, FLOOR, WALL, wall, BG))
    _draw_passages(canvas, house[1], geo)
    _draw_far_passages(canvas, far, geo, over_tiles=True)
    for x0, y0, x1, _ in geo.rooms.values():
        draw_hline(canvas, x0 + pad, x1 - pad, y0 + round((NAME_BAND - 2) * s), max(1, round(s)),
               DIM)


def _draw_rooms(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """What changes inside the rooms: names, portals (under the name, at the right) and
    tokens (a token's name stops short of the portals beside it)."""
    s = geo.scale
    pad = max(1, round(ROOM_PAD * s))
    for i, (x0, y0, x1, y1) in geo.rooms.items():
        npad = max(1, round(NAME_PAD * s))
        name_right = x1 - npad
        if i in geo.portals and geo.portals[i][1] < y0 + round(NAME_BAND * s):  # beside it
            name_right = geo.portals[i][0] - round(PORTAL_R * s) - round(6 * s)
        f, text = fit_text(state.rooms[i].name, name_right - x0 - npad, round(ROOM_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((x0 + npad, y0 + round(NAME_BAND * s) // 2 + round(3 * s)), text, f, TEXT,
                    on=FLOOR, anchor="lm", bold=True)
        if i in geo.portals:
            centre = geo.portals[i]
            canvas.put(centre, portal_piece(canvas.ink, round(PORTAL_R * s), FLOOR))
            count = len(state.room_portals[i])
            canvas.text((centre[0] + round((PORTAL_R + 4) * s), centre[1]), f"×{count}",
                        font(round(PORTAL_FONT * s), bold=True), PORTAL_CORE, on=FLOOR,
                        anchor="lm",
                        bold=True)

        inside = [c for c, where in enumerate(state.location) if where == i]
        if not inside:
            continue
        area_h = (y1 - pad) - (y0 + round(NAME_BAND * s))
        tcols, _, radius, size = token_layout(len(inside), area_h, s)
        col_w = (x1 - x0 - 2 * pad) / tcols
        for c in inside:
            cx, cy = geo.tokens[c]
            colour = parse_colour(state.characters[c].colour)
            canvas.put((cx, cy), character_piece(canvas.ink, colour, radius, FLOOR))
            lx = cx + radius + round(6 * s)
            max_w = round(x0 + pad + ((cx - x0 - pad) // col_w + 1) * col_w - lx - 2 * s)
            if i in geo.portals and abs(cy - geo.portals[i][1]) < radius + PORTAL_R * s:
                max_w = min(max_w, geo.portals[i][0] - round((PORTAL_R + 6) * s) - lx)
            f, text = fit_text(state.characters[c].name, max_w, size,
                               min_size=min(size, round(SMALLEST_FONT * s)), bold=True)
            canvas.text((lx, cy), text, f, TEXT, on=FLOOR, anchor="lm", bold=True)


def _removed_title_y(geo: BoardGeometry) -> int:
    return geo.removed_line[1] + round(SECTION_TITLE_H * geo.scale) // 2 - round(2 * geo.scale)


def _put_slot(canvas: Canvas, geo: BoardGeometry, k: int,
              occupant: Character | None) -> None:
    """Removal slot k, empty (occupant None) or holding the character `occupant`."""
    sx0, sy0, sx1, sy1 = geo.removed_slots[k]
    slots = len(geo.removed_slots)
    cx, cy = geo.removed_centres[k]
    who = None if occupant is None else (occupant.name, parse_colour(occupant.colour))
    canvas.put((sx0, sy0), slot_piece(canvas.ink, sx1 - sx0, sy1 - sy0, geo.scale, k + 1,
                                 k == slots - 1, position_points(k + 1, slots),
                                 (cx - sx0, cy - sy0), geo.removed_radius, who,
                                 font_signature()))


def _draw_removal_line(canvas: Canvas, geo: BoardGeometry) -> None:
    """The section title and every slot empty: the same for every state of a house."""
    canvas.text((geo.removed_line[0], _removed_title_y(geo)), cthulhu_line("board.left_the_house"),
                font(round(SECTION_FONT * geo.scale), bold=True), MUTED, on=BG, anchor="lm",
                bold=True)
    for k in range(len(geo.removed_slots)):
        _put_slot(canvas, geo, k, None)


def _draw_removed(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """The reserve's count and the filled slots, over the empty ones."""
    s = geo.scale
    x1, title_y = geo.removed_line[2], _removed_title_y(geo)
    reserve = len(state.reserve)
    if reserve:  # the portals beside the house, as a room's are counted: a marker, "×n"
        label = f"×{reserve}"
        f = font(round(SECTION_FONT * s), bold=True)
        canvas.text((x1, title_y), label, f, PORTAL_CORE, on=BG, anchor="rm", bold=True)
        canvas.put((x1 - text_width(f, label) - round(16 * s), title_y),
                   portal_piece(canvas.ink, round(11 * s), BG))

    remaining = [c for c, where in enumerate(state.location) if where is not None]
    slots = len(geo.removed_slots)
    occupant: dict[int, int] = dict(enumerate(state.removed[: slots - 1]))
    if len(remaining) == 1 and len(state.removed) >= slots - 1:
        occupant[slots - 1] = remaining[0]
    for k, c in sorted(occupant.items()):
        _put_slot(canvas, geo, k, state.characters[c])


def _draw_scores(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    s = geo.scale
    fonts = font_signature()
    top_score = max([RUMBLES * LAST_STANDING_POINTS, *state.scores])
    for seat, (x0, y0, x1, y1) in geo.score_cards.items():
        winner = state.over and seat in state.winners
        to_play = not state.over and seat == state.turn
        edge = GOLD if winner else ACCENT if to_play else PANEL_EDGE
        canvas.put((x0, y0), box_piece(canvas.ink, x1 - x0, y1 - y0, round(10 * s), PANEL, edge,
                                  max(1, round((3 if winner or to_play else 2) * s)), BG))
        canvas.put(geo.score_markers[seat], marker_piece(canvas.ink, seat, geo.marker_radius, TEXT,
                                                    PANEL, fonts))
        score = state.scores[seat] if seat < len(state.scores) else 0
        name_x, name_y = geo.score_names[seat]
        f, text = fit_text(state.players[seat], x1 - round(10 * s) - name_x,
                           round(SCORE_NAME_FONT * s),
                           min_size=round(SMALLEST_FONT * s), bold=True)
        canvas.text((name_x, name_y), text, f, TEXT, on=PANEL, anchor="lm", bold=True)
        # Second row: the track (0..30, ticks every 10 points) and the total.
        score_font = font(round(SCORE_FONT * s), bold=True)
        score_text = str(score)
        sw = max(text_width(score_font, score_text), text_width(score_font, "00"))
        # The bar within the box the geometry leaves it (its ticks reach its edges).
        bx0, by0, bx1, _ = geo.score_bars[seat]
        tx0, tx1 = bx0, bx1 - sw
        th = max(2, round(8 * s))
        ty = by0 + max(1, round(4 * s))
        row2 = ty + th // 2
        canvas.text((x1 - round(12 * s), row2), score_text, score_font,
                    GOLD if winner else TEXT, on=PANEL, anchor="rm", bold=True)
        fill_rect(canvas, (tx0, ty, tx1, ty + th - 1), DIM)
        fill_x = tx0 + round((tx1 - tx0) * min(score, top_score) / top_score)
        if fill_x > tx0:
            fill_rect(canvas, (tx0, ty, fill_x, ty + th - 1), GOLD if winner else ACCENT)
        for tick in range(10, top_score, 10):
            tx = tx0 + round((tx1 - tx0) * tick / top_score)
            fill_rect(canvas, (tx, ty - round(4 * s), tx + max(0, round(s) - 1),
                           ty + th - 1 + round(4 * s)), MUTED)


# Where the rooms are, which are joined (sorted pairs), how many characters there are.
HouseKey = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], int]


def _draw_last(canvas: Canvas, state: CthulhuState, geo: BoardGeometry) -> None:
    """The last action (`state.last`, public): a frame round the rooms it touched (the
    room left and the room entered, or where the fight was) in the corridor round the
    tile, and a ring under the token of the character it moved, if still in the house."""
    last = state.last
    k = max(2, round(6 * geo.scale))
    rooms = [int(last[name]) for name in ("from", "to", "room") if last.get(name) is not None]
    for i in dict.fromkeys(rooms):
        box = geo.rooms.get(i)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        for band in ((x0 - k, y0 - k, x1 + k, y0), (x0 - k, y1, x1 + k, y1 + k),
                     (x0 - k, y0, x0, y1), (x1, y0, x1 + k, y1)):
            fill_rect(canvas, (band[0], band[1], band[2] - 1, band[3] - 1), TRAIL)
    moved = last.get("character")
    if moved is not None and int(moved) in geo.tokens:
        c = int(moved)
        canvas.put(geo.tokens[c], ring_piece(canvas.ink, geo.token_radius[c], FLOOR))


def house_key(state: CthulhuState) -> HouseKey:
    """The public facts the house (rooms, passages, the empty removal line) is drawn
    from: what no secret can change."""
    return (
        tuple((r.col, r.row) for r in state.rooms),
        tuple(sorted({(min(a, b), max(a, b)) for a, b in state.passages})),
        len(state.characters),
    )


def compose(state: CthulhuState, width: int, ink: Ink | None) -> Canvas:
    """The board drawn for `state`: in RGB without an ink, else in that ink's indices."""
    geo = board_geometry(state, width)
    canvas = Canvas((geo.width, geo.height), BG, ink)
    far = _far_passages(state, geo)
    _draw_far_passages(canvas, far, geo, over_tiles=False)
    _draw_house(canvas, house_key(state), geo, far)
    _draw_removal_line(canvas, geo)
    _draw_header(canvas, state, geo)
    _draw_last(canvas, state, geo)
    _draw_rooms(canvas, state, geo)
    _draw_removed(canvas, state, geo)
    _draw_scores(canvas, state, geo)
    return canvas

