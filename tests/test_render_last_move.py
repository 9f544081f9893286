"""What the last move changed, on the Cthulhu and Evil Below boards (the rooms it
touched framed, the character or hero it moved ringed), from real AI games, and their
text legible where Discord shows a board 600 px wide (sizes read from the renderers'
own constants)."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PIL import Image

from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.state import CthulhuState
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.games.evilbelow.pictures import board_view
from bot.games.evilbelow.state import EvilBelowState
from renderers import cthulhu, evilbelow


def _players(n: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"Player {i + 1}", True) for i in range(n)]


def _play(game: Any, state: Any, done: Callable[[Any], bool], limit: int = 200) -> Any:
    """AI play until `done(state)` (a test that never gets there fails)."""
    for _ in range(limit):
        if done(state):
            return state
        seat = game.to_act(state)
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    raise AssertionError("AI play never got there")


# ---------------------------------------------------------------- Cthulhu in the House

def _moved_cthulhu() -> CthulhuState:
    state, _ = CTHULHU.setup(_players(4), 3, {})
    assert state.last == {}  # nothing has moved yet
    return _play(CTHULHU, state, lambda s: s.last.get("kind") == "move")  # type: ignore[no-any-return]


def test_cthulhu_keeps_the_last_move_publicly() -> None:
    state = _moved_cthulhu()
    last = state.last
    c = last["character"]
    assert state.location[c] == last["to"] and last["from"] != last["to"]
    assert last["to"] in state.neighbours(last["from"])
    again = CthulhuState.from_dict(state.to_dict())
    assert again.last == last
    raw = state.to_dict()
    del raw["last"]  # a game stored before the last move was kept
    assert CthulhuState.from_dict(raw).last == {}
    # The next player's action replaces it.
    seat = CTHULHU.to_act(state)
    assert seat != last["seat"]
    nxt, _ = CTHULHU.apply(state, seat, CTHULHU.ai_action(state, seat))
    assert nxt.last["seat"] == seat and nxt.last["kind"] in ("move", "fight")


def test_cthulhu_frames_the_rooms_and_rings_the_character_it_moved() -> None:
    state = _moved_cthulhu()
    bare = CTHULHU.copy_state(state)
    bare.last = {}
    geo = cthulhu.board_geometry(state)
    marked, plain = cthulhu.render_image(state), cthulhu.render_image(bare)
    k = max(2, round(6 * geo.scale))
    for room in (state.last["from"], state.last["to"]):
        x0, y0, x1, _ = geo.rooms[room]
        spot = ((x0 + x1) // 2, y0 - k // 2 - 1)
        assert marked.getpixel(spot) == cthulhu.TRAIL and plain.getpixel(spot) != cthulhu.TRAIL
    for room, (x0, y0, x1, y1) in geo.rooms.items():
        if room not in (state.last["from"], state.last["to"]):
            box = (x0 - k, y0 - k, x1 + k, y1 + k)
            assert marked.crop(box).tobytes() == plain.crop(box).tobytes()
    c = state.last["character"]
    cx, cy = geo.tokens[c]
    r = geo.token_radius[c]
    ring = r + max(1, round(r * 0.18)) + max(2, round(r * 0.28)) // 2
    assert marked.getpixel((cx, cy - ring)) == cthulhu.TRAIL
    assert plain.getpixel((cx, cy - ring)) != cthulhu.TRAIL
    assert cthulhu.render_board(state) != cthulhu.render_board(bare)


def test_cthulhu_text_reads_at_600_px() -> None:
    assert min(cthulhu.FONT_SIZES) == cthulhu.SMALLEST_FONT
    width = Image.open(io.BytesIO(cthulhu.render_board(_moved_cthulhu()))).width
    s = width / cthulhu.BASE_WIDTH
    for size in cthulhu.FONT_SIZES:
        assert round(size * s) * cthulhu.READ_WIDTH / width >= cthulhu.READ_PX, size


# ---------------------------------------------------------------- IT: Evil Below

def _moved_evil_below() -> EvilBelowState:
    state, _ = EVIL_BELOW.setup(_players(4), 3, {})
    return _play(EVIL_BELOW, state, lambda s: bool(s.moved))  # type: ignore[no-any-return]


def test_evil_below_keeps_this_turns_moves_and_a_new_turn_clears_them() -> None:
    state = _moved_evil_below()
    seat, source, target = state.moved[-1]
    assert state.heroes[seat].location == target
    view = board_view(state)
    assert view.heroes[seat].moved and target in view.changed
    assert set(view.changed) <= {source, target} | {i for m in state.moved for i in m[1:]}
    assert EvilBelowState.from_dict(state.to_dict()).moved == state.moved
    raw = state.to_dict()
    del raw["moved"]
    assert EvilBelowState.from_dict(raw).moved == []
    turn = state.turns_played
    nxt = _play(EVIL_BELOW, state, lambda s: s.turns_played != turn or s.over)
    if not nxt.over:
        assert nxt.moved == [] and board_view(nxt).changed == ()


def test_evil_below_frames_the_locations_and_rings_the_hero() -> None:
    state = _moved_evil_below()
    view = board_view(state)
    bare = replace(view, changed=(), heroes=tuple(replace(h, moved=False) for h in view.heroes))
    geo = evilbelow.geometry(view, evilbelow.BASE_WIDTH)
    img = evilbelow.compose(view).convert("RGB")
    flat = evilbelow.compose(bare).convert("RGB")
    assert img.tobytes() != flat.tobytes()
    w = max(2, round(2 * geo.scale))
    for i in view.changed:
        x0, y0, x1, _ = geo.locations[i]
        spot = ((x0 + x1) // 2, y0 - w // 2 - 1)
        assert img.getpixel(spot) == evilbelow.TRAIL and flat.getpixel(spot) != evilbelow.TRAIL


def test_evil_below_text_reads_at_600_px() -> None:
    width = Image.open(io.BytesIO(evilbelow.render_board(_moved_evil_below()))).width
    k = width / evilbelow.U
    assert round(evilbelow.MIN_TEXT * k) * 600 / width >= 10
