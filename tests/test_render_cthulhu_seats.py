"""Cthulhu's seat markers (renderers.cthulhu.seats) as a player sees them inline: the
number inside each seat's shape reads at 550 x 350 (READ_PX or more as displayed), lies
wholly inside its shape, stands out from it, and the marker keeps clear of the words
and the score bar beside it, in the header and on every score card.

Sizes are the ones the drawing code asks for while it draws real boards of 3, 4 and 6
players (a spy on the font the seat markers are drawn with), boxes the ones the board
is laid out with (`board_geometry`, `turn_line`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest
from PIL import Image, ImageDraw, ImageFilter

from bot import games
from bot.games.base import PlayerInfo
from bot.games.cthulhu.state import CthulhuState
from renderers import canvas, common, cthulhu
from renderers.common import Box, Colour, contrast_ratio, contrast_text
from renderers.cthulhu import draw as cthulhu_draw
from renderers.cthulhu import pieces as cthulhu_pieces
from renderers.cthulhu.layout import READ_PX, SHOWN_WIDTH
from renderers.cthulhu.seats import SHAPES, seat_extent, seat_number, seat_outline

WIDTH = cthulhu.BASE_WIDTH
SHOWN = SHOWN_WIDTH / WIDTH  # the board is drawn 1100 wide and shown 550 wide
MARGIN = 2  # px at full size (1 px as displayed) between a number's ink and its outline
CONTRAST = 4.5  # WCAG AA for text


@dataclass(frozen=True)
class Drawn:
    seat: int
    radius: int
    fill: Colour
    sizes: tuple[int, ...]  # the font sizes asked while this marker was drawn


def _states(players: int) -> list[CthulhuState]:
    """An AI game's first, middle and last boards."""
    game = games.all_games()["cthulhu"]
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], players,
                          {})
    found = [state]
    for _ in range(2000):
        seat = game.to_act(state)
        if seat is None:
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        found.append(state)
    assert found[-1].over
    return [found[0], found[len(found) // 2], found[-1]]


def _markers_drawn(monkeypatch: pytest.MonkeyPatch, state: CthulhuState) -> list[Drawn]:
    """Every seat marker a render of `state` draws, with the font sizes it asked for
    (caches emptied first, so every marker is drawn rather than reused)."""
    original = cthulhu_pieces.seat_marker
    home = sys.modules[original.__module__]
    real_font = common.font
    asked: list[int] = []
    drawn: list[Drawn] = []

    def spy_font(size: int, bold: bool = False) -> common.Font:
        asked.append(int(size))
        return real_font(size, bold)

    def spy_marker(img: Image.Image, seat: int, centre: tuple[float, float], radius: int,
                   fill: Colour) -> None:
        asked.clear()
        original(img, seat, centre, radius, fill)
        drawn.append(Drawn(seat, radius, fill, tuple(asked)))

    canvas.clear_caches()
    cthulhu.board_ink(state, WIDTH)  # the palette, fitted to sample boards, not spied on
    cthulhu_pieces.marker_piece.cache_clear()
    monkeypatch.setattr(home, "font", spy_font)
    monkeypatch.setattr(cthulhu_pieces, "seat_marker", spy_marker)
    cthulhu.render_board(state, width=WIDTH)
    monkeypatch.undo()
    canvas.clear_caches()
    return drawn


@pytest.mark.parametrize("players", [3, 4, 6])
def test_seat_numbers_read_at_chat_size(monkeypatch: pytest.MonkeyPatch,
                                        players: int) -> None:
    """Every seat's number, on its card and (for the player to move) in the header, is
    drawn READ_PX or more as displayed, in black or white against its shape's colour."""
    for state in _states(players):
        drawn = _markers_drawn(monkeypatch, state)
        cards = {d.seat for d in drawn}
        assert cards == set(range(players))  # every card's marker was drawn and seen
        assert len(drawn) == players + (0 if state.over else 1)  # and the mover's
        for d in drawn:
            assert d.sizes, d  # the number was drawn in a font asked for here
            assert min(d.sizes) * SHOWN >= READ_PX, (players, d)
            number = contrast_text(d.fill)
            assert contrast_ratio(number, d.fill) >= CONTRAST, d


def _shape_mask(seat: int, centre: tuple[float, float], radius: int, size: int) -> Image.Image:
    """The pixels wholly inside the seat's shape, MARGIN px in from its outline."""
    img = Image.new("RGB", (size, size), (0, 0, 0))
    points = seat_outline(seat, centre, radius)
    if points is None:
        common.disc(img, centre, radius, (255, 255, 255))
    else:
        common.polygon(img, points, (255, 255, 255))
    solid = img.convert("L").point(lambda v: 255 if v >= 250 else 0)
    return solid.filter(ImageFilter.MinFilter(2 * MARGIN + 1))


def _number_ink(seat: int, centre: tuple[float, float], radius: int, size: int) -> Image.Image:
    img = Image.new("L", (size, size), 0)
    at, font_size = seat_number(seat, centre, radius)
    ImageDraw.Draw(img).text(at, str(seat + 1), font=common.font(font_size, True), fill=255,
                             anchor="mm")
    return img.point(lambda v: 255 if v else 0)


@pytest.mark.parametrize("seat", range(SHAPES))
def test_seat_numbers_sit_inside_their_shapes(seat: int) -> None:
    """At the radius the board draws its markers with, every ink pixel of the number
    lies inside its shape, at least MARGIN px in from the outline: the digit never
    touches or crosses the edge of its triangle, star or diamond."""
    state = _states(6)[0]
    radius = cthulhu.board_geometry(state, WIDTH).marker_radius
    size = 6 * radius
    centre = (size / 2, size / 2)
    inside = _shape_mask(seat, centre, radius, size)
    ink = _number_ink(seat, centre, radius, size)
    assert ink.getbbox() is not None
    outside = Image.composite(ink, Image.new("L", ink.size, 0), inside.point(lambda v: 255 - v))
    assert outside.getbbox() is None, (seat, outside.getbbox())


def _apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _inside(box: Box, outer: Box) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] \
        and box[3] <= outer[3]


@pytest.mark.parametrize("players", [3, 4, 6])
def test_seat_markers_keep_clear_of_words(players: int) -> None:
    """A card's marker lies inside the card's border, left of its player's name and
    above its score bar; the header's marker lies in the header, left of "... to play"."""
    for state in _states(players):
        geo = cthulhu.board_geometry(state, WIDTH)
        r = geo.marker_radius
        border = max(1, round(3 * geo.scale))
        for seat, (x0, y0, x1, y1) in geo.score_cards.items():
            mark = seat_extent(seat, geo.score_markers[seat], r)
            assert _inside(mark, (x0 + border, y0 + border, x1 - border, y1 - border)), seat
            assert mark[2] < geo.score_names[seat][0], seat
            assert _apart(mark, geo.score_bars[seat]), (seat, mark, geo.score_bars[seat])
        turn = cthulhu_draw.turn_line(state, geo)
        if turn is None:
            assert state.over
            continue
        f, text, centre = turn
        mark = seat_extent(state.turn, centre, r)
        words_x = geo.header[2] - common.text_width(f, text)
        assert mark[2] < words_x and _inside(mark, geo.header), (mark, geo.header)
