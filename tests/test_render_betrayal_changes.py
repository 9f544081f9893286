"""What the Betrayal map shows beyond the house: what this turn changed (the rooms walked,
the tile placed, the explorer who moved), the haunt's progress row, link letters that
keep their letter and never look like an initial, and text a 600 px preview can read.

Real states throughout: a house grown by AI play and every haunt and scenario begun on
it (tests/betrayal_haunt_helpers.started, as the haunt rigs use them).
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from bot.games.betrayal import GAME, links
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import base
from bot.games.betrayal.shown import map_view
from bot.games.betrayal.state import BetrayalState
from renderers import betrayal
from renderers.betrayal import (
    BASE_WIDTH,
    BOARD_H,
    BOARD_W,
    FRAME_FONTS,
    FRESH,
    READ_SHOWN_PX,
    SHOWN_SCALE,
    SMALLEST_FONT,
    TRAIL,
    link_pool,
    map_geometry,
    render_board,
    render_image,
)
from renderers.betrayal.palette import _px
from tests.betrayal_haunt_helpers import house, started
from tests.betrayal_haunt_rig import rigged


def _play_until(state: BetrayalState, done: object, limit: int = 200) -> BetrayalState:
    """AI play from `state` until `done(state)` (a test that never gets there fails)."""
    for _ in range(limit):
        if done(state):  # type: ignore[operator]
            return state
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    raise AssertionError("AI play never got there")


@cache
def _walked() -> BetrayalState:
    """A turn in which the explorer to play walked through rooms and placed one."""
    return _play_until(GAME.copy_state(house()),
                       lambda s: s.turn.placed >= 0 and len(s.turn.walked) >= 3)


def _without_changes(state: BetrayalState) -> BetrayalState:
    bare = GAME.copy_state(state)
    bare.turn.walked, bare.turn.placed = [], -1
    return bare


# ---------------------------------------------------------------- what changed this turn

def test_the_engine_records_the_walk_and_the_new_tile() -> None:
    state = _walked()
    seat = state.turn.seat
    walked = state.turn.walked
    assert walked[-1] == state.explorers[seat].tile  # the walk ends where it stands
    assert state.turn.placed in walked  # it walked into the room it found
    view = map_view(state)
    assert view.walked == tuple(state.tiles[t].room for t in walked)
    assert view.placed == state.tiles[state.turn.placed].room and view.mover == seat


def test_a_new_turn_clears_the_record_and_old_games_still_load() -> None:
    state = _walked()
    raw = state.to_dict()
    again = BetrayalState.from_dict(raw)
    assert again.turn.walked == state.turn.walked and again.turn.placed == state.turn.placed
    del raw["turn"]["walked"], raw["turn"]["placed"], raw["links_seen"]
    old = BetrayalState.from_dict(raw)  # a game stored before the record existed
    assert old.turn.walked == [] and old.turn.placed == -1 and old.links_seen == []
    assert map_view(old).walked == () and map_view(old).mover is None
    number = state.turn.number
    nxt = _play_until(GAME.copy_state(state), lambda s: s.turn.number != number)
    assert nxt.turn.walked == [] and nxt.turn.placed == -1
    assert map_view(nxt).walked == () and map_view(nxt).mover is None


def test_the_rooms_walked_and_the_new_tile_are_framed() -> None:
    state = _walked()
    view = map_view(state)
    geo = map_geometry(view)
    marked = render_image(view)
    bare = render_image(map_view(_without_changes(state)))
    k = max(2, round(geo.gap * 0.4))
    for key in view.walked:
        x0, y0, x1, y1 = geo.tiles[key]
        spot = ((x0 + x1) // 2, y0 - k // 2 - 1)  # in the frame above the tile
        want = FRESH if key == view.placed else TRAIL
        assert marked.getpixel(spot) == want
        assert bare.getpixel(spot) not in (TRAIL, FRESH)
    # Rooms not walked are drawn the same either way.
    for key, (x0, y0, x1, y1) in geo.tiles.items():
        if key not in view.walked:
            box = (x0 - k, y0 - k, x1 + k, y1 + k)
            assert marked.crop(box).tobytes() == bare.crop(box).tobytes(), key
    assert render_board(state) != render_board(_without_changes(state))


def test_the_explorer_who_moved_is_ringed_while_another_acts() -> None:
    state = _walked()
    view = map_view(state)
    seat = view.mover
    assert seat is not None
    others = replace(view, explorers=tuple(replace(e, acting=False) for e in view.explorers))
    geo = map_geometry(others)
    cx, cy = geo.tokens[seat]
    ring = geo.ring_radius[seat]
    ringed = render_image(others).getpixel((cx, cy - ring))
    plain = render_image(replace(others, mover=None)).getpixel((cx, cy - ring))
    assert ringed == TRAIL and plain != TRAIL


# ---------------------------------------------------------------- the haunt's progress

@pytest.mark.parametrize("key", list(haunts()))
def test_every_haunt_shows_its_name_round_and_counters(key: str) -> None:
    state = started(key)[0]
    plugin = base.for_state(state)
    lines = plugin.progress(state)
    assert state.haunt is not None
    assert lines[0] == plugin.data.name
    limit = plugin.last_round(state)
    assert lines[1] == f"round {state.haunt.round} of {limit}"
    assert lines[2:] == plugin.counters(state)
    view = map_view(state)
    assert view.progress == tuple(lines)
    if not haunts()[key].edition:  # the classic 8 name their counters in their data
        assert plugin.counters(state) and view.footer_shown == ""
    else:  # the scenarios' board notes move from the footer row to the progress row
        note = plugin.board_note(state)
        assert lines[2:] == [part for part in note.split(" · ") if part.strip()] != []
        assert view.footer.startswith(note) and view.footer_shown
        assert not any(part in view.footer_shown for part in lines[2:])
    geo = map_geometry(view)
    assert geo.progress_text is not None and geo.footer_text is not None
    assert geo.progress_text[3] <= geo.footer_text[1]
    bare = render_image(replace(view, progress=()))
    assert bare.size != render_image(view).size  # the row is drawn


def test_a_long_progress_takes_a_second_row_and_never_a_third() -> None:
    view = map_view(started("henry_on_the_hunt")[0])
    short = replace(view, progress=view.progress[:2])
    assert map_geometry(short).progress == (" · ".join(view.progress[:2]),)
    long = replace(view, progress=(*view.progress, *(f"counter {i} " * 4 for i in range(9))))
    geo = map_geometry(long)
    assert len(geo.progress) == 2 and geo.progress[0].startswith(view.progress[0])
    assert " · ".join(geo.progress) == " · ".join(long.progress)  # nothing lost but cut
    assert geo.height > map_geometry(short).height
    assert render_image(long).size == (geo.width, geo.height)


def test_counters_follow_the_haunt_and_keep_its_secrets() -> None:
    state = GAME.copy_state(started("the_ghost_bride")[0])
    plugin = base.for_state(state)
    assert state.haunt is not None
    state.haunt.progress["successes"] = 2
    rite = plugin.value(state, "rite")
    assert f"rite 2/{rite}" in plugin.progress(state)
    assert not any(line.startswith("vigil") for line in plugin.progress(state))
    state.haunt.progress["vigil"] = 1
    assert f"vigil 1/{plugin.value(state, 'vigil')}" in plugin.progress(state)
    # The lover is the traitor's secret: whoever it is, the row reads the same.
    lines = set()
    for lover in range(len(state.players)):
        state.haunt.progress["lover"] = lover
        lines.add(tuple(plugin.progress(state)))
    assert len(lines) == 1
    before = render_board(state)
    state.haunt.progress["lover"] = (state.haunt.progress["lover"] + 1) % len(state.players)
    assert render_board(state) == before


def test_counted_monsters_follow_the_board() -> None:
    state = GAME.copy_state(started("pay_the_piper")[0])
    plugin = base.for_state(state)
    rats = sum(1 for m in state.monsters if m.alive and m.kind == "rat")
    assert f"rats left {rats}" in plugin.progress(state)
    next(m for m in state.monsters if m.alive and m.kind == "rat").alive = False
    assert f"rats left {rats - 1}" in plugin.progress(state)


def test_no_progress_before_the_haunt_or_without_a_haunt_file() -> None:
    assert map_view(house()).progress == ()
    state = rigged()  # the rig's haunt has no data file of its own
    assert base.for_state(state).progress(state) == []


# ---------------------------------------------------------------- link letters

def test_link_letters_keep_their_letter_from_turn_to_turn() -> None:
    state = GAME.copy_state(house())
    seen: dict[tuple[str, str], str] = {}
    for _ in range(12):  # a dozen turns: rooms (and their links) keep appearing
        number = state.turn.number
        state = _play_until(state, lambda s, n=number: s.turn.number != n or s.over)
        view = map_view(state)
        letters = betrayal._link_letters(view)
        for a, b in view.links:
            shared = set(letters[a]) & set(letters[b])
            assert len(shared) == 1
            letter = shared.pop()
            assert seen.setdefault((a, b), letter) == letter
        assert len(set(seen.values())) == len(seen)  # no two links share a letter
        if state.over:
            break
    assert len(seen) >= 2


def test_link_letters_never_look_like_an_initial_or_a_token() -> None:
    for state in (house(), started("its_alive")[0], started("the_ritual_of_chud")[0]):
        view = map_view(state)
        shown = {n.strip()[:1].upper() for e in view.explorers for n in (e.player, e.name)}
        shown |= {m.glyph.upper() for m in view.monsters}
        shown |= {g.upper() for t in view.tiles for g, _ in t.haunt_tokens}
        letters = {c for v in betrayal._link_letters(view).values() for c in v}
        assert letters and not letters & shown
        assert not letters & set(view.reserved)
        # The pool is the game's: the haunt beginning (its monsters and tokens
        # appearing) does not change it.
        before = GAME.copy_state(state)
        before.haunt, before.monsters = None, []
        for tile in before.tiles:
            tile.tokens = [t for t in tile.tokens if "haunt" not in t]
        assert link_pool(map_view(before)) == link_pool(view)


def test_a_link_that_goes_leaves_the_others_their_letters() -> None:
    state = GAME.copy_state(house())
    order = links.ordered_links(state)
    assert len(order) >= 2
    view = map_view(state)
    before = betrayal._link_letters(view)
    gone = replace(view, links=view.links[1:], link_order=view.link_order[1:])
    after = betrayal._link_letters(gone)
    for a, b in view.links[1:]:
        assert after[a][-1] in before[a] and after[b][-1] in before[b]


def test_links_first_seen_come_first_whatever_their_rooms() -> None:
    state = GAME.copy_state(house())
    assert [list(p[:2]) for p in links.ordered_links(state)] == state.links_seen
    state.links_seen.reverse()
    assert [list(p[:2]) for p in links.ordered_links(state)] == state.links_seen
    state.links_seen.clear()  # a game stored before links were noted: by placement
    order = links.ordered_links(state)
    assert [p[1] for p in order] == sorted(p[1] for p in order)


# ---------------------------------------------------------------- legibility

def test_the_frame_text_reads_as_displayed() -> None:
    """Every frame text size, drawn on the chat board and shown inside Discord's 550 x
    350 box, is READ_SHOWN_PX or more (the sizes are the renderer's own constants)."""
    assert min(FRAME_FONTS) == SMALLEST_FONT
    png = render_board(started("the_ghost_bride")[0])
    img = Image.open(io.BytesIO(png))
    assert img.size == (BOARD_W, BOARD_H)
    s = img.width / BASE_WIDTH
    for size in FRAME_FONTS:
        assert _px(size, s) * SHOWN_SCALE >= READ_SHOWN_PX, size
