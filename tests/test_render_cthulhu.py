"""The Cthulhu board image: size, what is drawn where, and that no secret leaks.

States are built by hand (the rules engine is written separately): 12 rooms on a
4x3 grid, passages between most grid neighbours but not all, 12 characters.
"""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageDraw

from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.state import (
    ABYSS,
    TELEPORT,
    Character,
    CthulhuState,
    Room,
    RumbleResult,
)
from renderers import canvas, common, cthulhu, render_public
from renderers.cthulhu import (
    BG,
    FLOOR,
    PORTAL_CORE,
    board_geometry,
    position_points,
    render_board,
    render_image,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 200_000
# The PNG is palettized: flat fills come out exact (see test_flat_colours_are_exact) but
# anti-aliased edges may shift by a few units per channel.
TOLERANCE = 12

ROOM_NAMES = ["Attic", "Observatory", "Nursery", "Chapel", "Library", "Great Hall",
              "Ballroom", "Conservatory", "Cellar", "Kitchen", "Crypt", "Miskatonic Study"]
CHARACTERS = [("Wilbur", "#c0392b"), ("Lavinia", "#e67e22"), ("Armitage", "#f1c40f"),
              ("Asenath", "#27ae60"), ("Herbert", "#16a085"), ("Randolph", "#2980b9"),
              ("Keziah", "#8e44ad"), ("Obed", "#ecf0f1"), ("Nyarla", "#1b1b1b"),
              ("Marsh", "#e84393"), ("Whateley", "#7f8c8d"), ("Dexter", "#a0522d")]
# Grid-adjacent pairs left without a passage.
WALLED = {(1, 2), (4, 8), (6, 7), (5, 9), (10, 11)}


def make_state(**changes: object) -> CthulhuState:
    """Mid-game board: some characters gone, portals in three rooms."""
    rooms = [Room(name, i % 4, i // 4) for i, name in enumerate(ROOM_NAMES)]
    passages = []
    for i in range(12):
        col, row = i % 4, i // 4
        if col < 3 and (i, i + 1) not in WALLED:
            passages.append((i, i + 1))
        if row < 2 and (i, i + 4) not in WALLED:
            passages.append((i, i + 4))
    state = CthulhuState(
        players=["Alice", "Bob", "Carmilla", "Dunwich Dan"],
        ai=[False, False, True, False],
        layout="grid",
        rooms=rooms,
        passages=passages,
        characters=[Character(name, colour) for name, colour in CHARACTERS],
        location=[3, 0, 1, None, 5, 5, 5, 6, None, 9, 11, None],
        room_portals=[[] for _ in range(12)],
        reserve=[ABYSS, TELEPORT, ABYSS],
        removed=[8, 3, 11],
        secrets=[[0, 1], [2, 3], [4, 5], [6, 7]],
        scores=[5, 0, 12, 3],
        rumble=2,
        turn=2,
        results=[RumbleResult(1, [9, 4, 2, 7, 1, 0, 3, 8, 6, 5, 11], 10,
                              [[10, 1], [0, 2], [11, 3], [4, 5]], [10, 2, 3, 0])],
    )
    state.room_portals[3] = [ABYSS, TELEPORT]
    state.room_portals[5] = [TELEPORT]
    state.room_portals[8] = [ABYSS]
    for key, value in changes.items():
        setattr(state, key, value)
    return state


def crowded_state() -> CthulhuState:
    """Everyone in the Great Hall, which also holds a portal."""
    return make_state(location=[5] * 12, removed=[])


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(actual: tuple[int, ...], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - e) <= TOLERANCE for a, e in zip(actual, expected, strict=True))


def colour_of(state: CthulhuState, c: int) -> tuple[int, int, int]:
    return common.parse_colour(state.characters[c].colour)


# ----------------------------------------------------------------- image basics


@pytest.mark.parametrize("width", [600, 1200])
@pytest.mark.parametrize("factory", [make_state, crowded_state])
def test_png_signature_size_and_bytes(width: int, factory) -> None:
    state = factory()
    data = render_board(state, width=width)
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    img = Image.open(io.BytesIO(data))
    geo = board_geometry(state, width)
    assert img.width == width
    assert img.height == geo.height
    assert 0.6 * width < img.height < 1.2 * width


def test_dispatch_by_game_kind() -> None:
    state = make_state()
    assert render_public("cthulhu", state) == render_board(state)
    with pytest.raises(ValueError):
        render_public("no-such-game", state)


# ------------------------------------------------------------- what is drawn where


@pytest.mark.parametrize("width", [600, 1200])
@pytest.mark.parametrize("factory", [make_state, crowded_state])
def test_each_token_centre_has_its_characters_colour(width: int, factory) -> None:
    state = factory()
    img = decode(render_board(state, width=width))
    geo = board_geometry(state, width)
    in_house = [c for c, where in enumerate(state.location) if where is not None]
    assert sorted(geo.tokens) == in_house
    for c in in_house:
        pixel = img.getpixel(geo.tokens[c])
        assert close(pixel, colour_of(state, c)), (state.characters[c].name, pixel)


def test_twelve_tokens_fit_one_room_without_overlap() -> None:
    state = crowded_state()
    geo = board_geometry(state)
    x0, y0, x1, y1 = geo.rooms[5]
    points = [geo.tokens[c] for c in range(12)]
    for c, (x, y) in enumerate(points):
        r = geo.token_radius[c]
        assert r * 2 >= 16  # still a visible token
        assert x0 < x - r and x + r < x1 and y0 < y - r and y + r < y1
    for i, (ax, ay) in enumerate(points):
        for bx, by in points[i + 1:]:
            assert (ax - bx) ** 2 + (ay - by) ** 2 >= (2 * geo.token_radius[0]) ** 2


def test_tokens_are_drawn_inside_their_room() -> None:
    state = make_state()
    geo = board_geometry(state)
    for c, room in enumerate(state.location):
        if room is None:
            continue
        x0, y0, x1, y1 = geo.rooms[room]
        x, y = geo.tokens[c]
        assert x0 < x < x1 and y0 < y < y1


def test_portal_marker_is_at_its_geometry_point() -> None:
    state = make_state()
    img = decode(render_board(state))
    geo = board_geometry(state)
    assert sorted(geo.portals) == [3, 5, 8]
    for room, point in geo.portals.items():
        x0, y0, x1, y1 = geo.rooms[room]
        assert x0 < point[0] < x1 and y0 < point[1] < y1
        assert close(img.getpixel(point), PORTAL_CORE)

    # Without its portals the room shows plain floor where the marker was.
    bare = make_state()
    bare.room_portals[3] = []
    bare_img = decode(render_board(bare))
    assert 3 not in board_geometry(bare).portals
    assert close(bare_img.getpixel(geo.portals[3]), FLOOR)


def test_removed_characters_line_up_in_order_and_leave_the_rooms() -> None:
    before = make_state(location=[3, 0, 1, 4, 5, 5, 5, 6, 8, 9, 11, 10], removed=[])
    state = make_state()  # Nyarla (8), Asenath (3), Dexter (11) removed, in that order
    geo_before, geo = board_geometry(before), board_geometry(state)
    img_before, img = decode(render_board(before)), decode(render_board(state))

    for slot, c in enumerate(state.removed):
        centre = geo.removed_centres[slot]
        assert close(img.getpixel(centre), colour_of(state, c))
        assert img_before.getpixel(centre) != img.getpixel(centre)  # the slot was empty
        assert c not in geo.tokens
        # Where the token stood before, the room no longer shows it.
        spot = geo_before.tokens[c]
        assert close(img_before.getpixel(spot), colour_of(state, c))
        assert close(img.getpixel(spot), FLOOR)
    # Slots are left to right, top to bottom, one per removal position plus the survivor.
    assert len(geo.removed_slots) == len(state.characters)
    order = [(box[1], box[0]) for box in geo.removed_slots]
    assert order == sorted(order)


def test_last_one_standing_goes_in_the_last_slot() -> None:
    order = [8, 3, 11, 0, 1, 2, 4, 5, 7, 9, 10]
    location: list[int | None] = [None] * 12
    location[6] = 9
    state = make_state(location=location, removed=order, over=True, winners=[2],
                       scores=[15, 4, 22, 9])
    img = decode(render_board(state))
    geo = board_geometry(state)
    for slot, c in enumerate(order):
        assert close(img.getpixel(geo.removed_centres[slot]), colour_of(state, c))
    assert close(img.getpixel(geo.removed_centres[-1]), colour_of(state, 6))


def test_points_per_removal_position() -> None:
    assert [position_points(p, 12) for p in range(1, 13)] == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                                              9, 10]


def test_gap_of_joined_rooms_differs_from_walled_neighbours() -> None:
    state = make_state()
    img = decode(render_board(state))
    geo = board_geometry(state)
    joined = {(min(a, b), max(a, b)) for a, b in state.passages}
    assert set(geo.gaps) == joined | WALLED  # every grid neighbour pair has a gap
    for pair, point in geo.gaps.items():
        pixel = img.getpixel(point)
        if pair in joined:
            assert close(pixel, FLOOR), (pair, pixel)
        else:
            assert close(pixel, BG), (pair, pixel)
    # Side by side and stacked, a bridge is visibly not a wall.
    assert img.getpixel(geo.gaps[(0, 1)]) != img.getpixel(geo.gaps[(1, 2)])
    assert img.getpixel(geo.gaps[(0, 4)]) != img.getpixel(geo.gaps[(4, 8)])


def test_score_cards_one_per_seat() -> None:
    state = make_state()
    geo = board_geometry(state)
    assert sorted(geo.score_cards) == [0, 1, 2, 3]
    tx0, ty0, tx1, ty1 = geo.score_track
    for seat, (x0, y0, x1, y1) in geo.score_cards.items():
        assert tx0 <= x0 < x1 <= tx1 and ty0 <= y0 < y1 <= ty1
        mx, my = geo.score_markers[seat]
        assert x0 < mx < x1 and y0 < my < y1
    # The house on the left, the removal line in a column on its right, the scores under
    # both.
    assert geo.removed_line[3] <= ty0 and geo.house[3] <= ty0
    assert geo.house[2] <= geo.removed_line[0]


# ------------------------------------------------------------------- no leaks


def test_portal_kinds_do_not_change_the_image() -> None:
    state = make_state()
    other = copy.deepcopy(state)
    other.room_portals[3] = [TELEPORT, TELEPORT]
    other.room_portals[5] = [ABYSS]
    other.room_portals[8] = [TELEPORT]
    other.reserve = [TELEPORT, TELEPORT, TELEPORT]
    for width in (600, 1200):
        assert render_board(state, width=width) == render_board(other, width=width)


def test_secrets_do_not_change_the_image() -> None:
    state = make_state()
    other = copy.deepcopy(state)
    other.secrets = [[11, 10], [9, 8], [7, 6], [5, 4]]
    assert render_board(state) == render_board(other)
    assert render_board(crowded_state()) == render_board(
        make_state(location=[5] * 12, removed=[], secrets=[[1, 2], [3, 4], [5, 6], [7, 8]]))


def test_portal_and_secret_changes_do_not_change_the_cached_house() -> None:
    state = make_state()
    other = copy.deepcopy(state)
    other.secrets = [[11, 10], [9, 8], [7, 6], [5, 4]]
    other.room_portals[3], other.reserve = [TELEPORT, TELEPORT], [TELEPORT] * 3
    other.location = [5] * 12
    # The house is drawn from public house facts only, so:
    assert cthulhu._house_key(state) == cthulhu._house_key(other)
    # ...which change with the house: a new passage is drawn.
    joined = make_state(passages=[*state.passages, (1, 2)])
    assert cthulhu._house_key(joined) != cthulhu._house_key(state)
    geo = board_geometry(joined)
    assert close(decode(render_board(joined)).getpixel(geo.gaps[(1, 2)]), FLOOR)
    assert close(decode(render_board(state)).getpixel(geo.gaps[(1, 2)]), BG)


# ------------------------------------------------------------------ caching


def _clear_render_caches() -> None:
    canvas.clear_caches()


@pytest.mark.parametrize("width", [600, 1200])
def test_cached_renders_match_cold_ones(width: int) -> None:
    """Whatever was drawn before (another house, another game), a board's bytes are
    those of a render from empty caches."""
    states = [make_state(), crowded_state(),
              make_state(over=True, winners=[2], location=[None] * 6 + [9] + [None] * 5,
                         removed=[8, 3, 11, 0, 1, 2, 4, 5, 7, 9, 10]),
              make_state(passages=[(0, 1), (1, 2), (2, 3), (0, 4), (4, 8), (8, 9), (9, 10),
                                   (10, 11), (5, 9), (6, 10), (7, 11), (3, 7)])]
    cold = []
    for state in states:
        _clear_render_caches()
        cold.append(render_board(state, width=width))
    _clear_render_caches()
    for _ in range(2):
        for state, expected in zip(states, cold, strict=True):
            assert render_board(state, width=width) == expected


@pytest.mark.parametrize("width", [600, 1200])
def test_the_png_is_the_rgb_board_quantized(width: int) -> None:
    """The board is composed in its palette and written band by band; what a player
    gets is exactly the RGB composition mapped to that palette."""
    for state in (make_state(), crowded_state()):
        indexed = cthulhu.render_indexed(state, width=width)
        png = Image.open(io.BytesIO(render_board(state, width=width)))
        png.load()
        assert png.mode == "P" and png.tobytes() == indexed.tobytes()
        assert png.getpalette() == indexed.getpalette()
        rgb = Image.open(io.BytesIO(cthulhu.encode_board(state, render_image(state, width=width))))
        assert rgb.tobytes() == indexed.tobytes()


def test_every_game_shares_one_palette() -> None:
    """Real games (any house, any number of players) play the same twelve characters,
    so they are drawn in one palette, fitted once."""
    palettes = set()
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(players)], seed, {})
        png = Image.open(io.BytesIO(render_board(state)))
        palettes.add(tuple(png.getpalette() or []))
    assert len(palettes) == 1


def test_render_image_is_a_private_copy() -> None:
    state = make_state()
    first = render_image(state)
    first.paste((255, 0, 255), (0, 0, first.width, first.height))  # a caller scribbles
    assert render_image(state).getpixel((2, 2)) == BG
    assert decode(render_board(state)).getpixel((2, 2)) == BG


def test_flat_colours_are_exact() -> None:
    """The palette is fitted once per look, with every flat fill pinned to itself."""
    state = make_state()
    img = decode(render_board(state))
    geo = board_geometry(state)
    assert img.getpixel((2, 2)) == BG
    x0, _, _, y1 = geo.rooms[9]  # the Kitchen: a token, nothing else below the name band
    assert img.getpixel((x0 + 30, y1 - 20)) == FLOOR
    for c, point in geo.tokens.items():
        assert img.getpixel(point) == colour_of(state, c)
    for slot, c in enumerate(state.removed):
        assert img.getpixel(geo.removed_centres[slot]) == colour_of(state, c)
    assert img.getpixel(geo.portals[3]) == PORTAL_CORE


# -------------------------------------------------------------- shared helpers


def test_fallback_font_renders_when_no_system_font(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "FONT_CANDIDATES", {False: (), True: ()})
    common.font.cache_clear()
    try:
        f = common.font(20, bold=True)
        assert common.is_fallback_font(f)
        assert common.printable("×2", f) == "x2"  # the bundled font has no "×"
        state = make_state()
        img = decode(render_board(state, width=600))
        assert img.width == 600
        geo = board_geometry(state, 600)
        for c, point in geo.tokens.items():
            assert close(img.getpixel(point), colour_of(state, c))
    finally:
        common.font.cache_clear()


def test_fit_text_shrinks_then_ellipsizes() -> None:
    f, text = common.fit_text("Great Hall", 1000, 24, min_size=16, bold=True)
    assert text == "Great Hall" and f.size == 24
    wide = common.text_width(common.font(24, True), "Miskatonic Study")
    f, text = common.fit_text("Miskatonic Study", wide - 20, 24, min_size=16, bold=True)
    assert text == "Miskatonic Study" and 16 <= f.size < 24
    f, text = common.fit_text("Miskatonic Study", 60, 24, min_size=16, bold=True)
    assert text.endswith("…") and common.text_width(f, text) <= 60


def test_contrast_and_colour_parsing() -> None:
    assert common.contrast_text((255, 255, 0)) == common.BLACK
    assert common.contrast_text((20, 20, 60)) == common.WHITE
    assert common.parse_colour("#c0392b") == (192, 57, 43)
    assert common.parse_colour("#abc") == (170, 187, 204)
    assert common.parse_colour("not a colour") == (128, 128, 128)


def test_to_png_keeps_exact_colours_when_asked() -> None:
    img = Image.new("RGB", (40, 20), (12, 34, 56))
    exact = Image.open(io.BytesIO(common.to_png(img, colours=None)))
    assert exact.mode == "RGB" and exact.getpixel((5, 5)) == (12, 34, 56)
    small = Image.open(io.BytesIO(common.to_png(img)))
    assert small.mode == "P"


@pytest.mark.parametrize(("w", "h", "radius", "outline", "width"),
                         [(280, 216, 12, (122, 104, 80), 4), (190, 56, 8, (50, 55, 70), 2),
                          (30, 12, 6, None, 0), (9, 9, 4, (1, 2, 3), 1), (40, 40, 0, None, 0),
                          (300, 84, 10, (236, 192, 92), 3)])
def test_rounded_box_matches_one_masked_paste(w: int, h: int, radius: int,
                                              outline: tuple[int, int, int] | None,
                                              width: int) -> None:
    """The banded fast path draws exactly what pasting the whole mask did."""
    fill = (46, 50, 66)
    fast = Image.new("RGB", (w + 10, h + 10), (13, 15, 21))
    common.rounded_box(fast, (5, 5, 5 + w, 5 + h), radius, fill, outline=outline, width=width)
    slow = Image.new("RGB", fast.size, (13, 15, 21))
    r = max(0, min(radius, w // 2, h // 2))
    x, y = 5, 5
    if outline is not None and width > 0:
        slow.paste(outline, (x, y, x + w, y + h), common._rounded_mask(w, h, r))
        x, y, w, h, r = x + width, y + width, w - 2 * width, h - 2 * width, max(0, r - width)
    slow.paste(fill, (x, y, x + w, y + h), common._rounded_mask(w, h, r))
    assert fast.tobytes() == slow.tobytes()


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm"])
@pytest.mark.parametrize("xy", [(40, 30), (40.5, 30.25), (71.8, 29.5)])
def test_cached_text_matches_imagedraw_text(anchor: str, xy: tuple[float, float]) -> None:
    f = common.font(21, bold=True)
    for text in ("Great Hall", "×2", "12"):
        fast = Image.new("RGB", (160, 60), (46, 50, 66))
        common.draw_text(ImageDraw.Draw(fast), xy, text, f, (238, 231, 214), anchor=anchor)
        slow = Image.new("RGB", fast.size, (46, 50, 66))
        ImageDraw.Draw(slow).text(xy, common.printable(text, f), font=f, fill=(238, 231, 214),
                                  anchor=anchor)
        assert fast.tobytes() == slow.tobytes(), (text, anchor, xy)


def test_fitted_palette_keeps_pinned_colours_exact() -> None:
    # Two flat colours within one of Pillow's 4-level lookup cells of each other's
    # rounding, plus an edge blend: without the shifted lookup one would steal the other.
    a, b, c = (50, 55, 70), (46, 50, 66), (13, 15, 21)
    img = Image.new("RGB", (60, 20), c)
    img.paste(a, (0, 0, 20, 20))
    img.paste(b, (20, 0, 40, 20))
    img.paste(common.mix(a, c, 0.5), (40, 0, 45, 20))
    palette = common.make_palette([img], exact=[a, b, c])
    out = Image.open(io.BytesIO(common.to_png(img, palette=palette)))
    assert out.mode == "P"
    rgb = out.convert("RGB")
    assert rgb.getpixel((5, 5)) == a and rgb.getpixel((25, 5)) == b and rgb.getpixel((55, 5)) == c
    # A palette fitted elsewhere still maps nearby colours close.
    assert close(rgb.getpixel((42, 5)), common.mix(a, c, 0.5))
