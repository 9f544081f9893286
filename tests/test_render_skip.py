"""A board whose view did not change is not drawn again (issue 23): `renderers.board`
finds it by its view's fingerprint, and hands back exactly the bytes a fresh drawing
makes. A fifth of Betrayal's actions change nothing the board shows; they used to draw
it whole all the same."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import renderers
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.shown import map_view
from bot.games.cthulhu import GAME as CTHULHU
from renderers import betrayal, canvas, evilbelow
from renderers.betrayal import alt_text as betrayal_alt
from tests.betrayal_haunt_helpers import explored
from tests.evil_below_helpers import ai_states


@pytest.fixture(autouse=True)
def cold() -> Iterator[None]:
    """Every test starts, and leaves, with no board or piece kept."""
    canvas.clear_caches()
    yield
    canvas.clear_caches()


def counting(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[object]:
    """Every view `module.render_view` is asked to draw, in order."""
    drawn: list[object] = []
    original = module.render_view

    def spy(view: object) -> bytes:
        drawn.append(view)
        return original(view)  # type: ignore[no-any-return]

    monkeypatch.setattr(module, "render_view", spy)
    return drawn


def test_an_unchanged_betrayal_board_is_not_drawn_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = explored(4, 3, 20)
    fresh = renderers.board("betrayal", state)
    canvas.clear_caches()
    drawn = counting(monkeypatch, betrayal)
    first = renderers.board("betrayal", state)
    again = renderers.board("betrayal", BETRAYAL.load(BETRAYAL.dump(state)))  # as loaded
    assert len(drawn) == 1, "the same view was drawn twice"
    assert again.image == first.image == fresh.image
    assert again.alt == first.alt == betrayal_alt.describe(state)
    assert first.image == betrayal.render_board(state)  # what drawing it again gives


def test_a_changed_view_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any change the view holds is a new board: an explorer one room on, a header."""
    state = explored(4, 3, 20)
    view = map_view(state)
    drawn = counting(monkeypatch, betrayal)
    renderers.board("betrayal", state)
    moved = replace(view, header=view.header + " ")
    monkeypatch.setattr(betrayal, "board_view", lambda _state: moved)
    changed = renderers.board("betrayal", state)
    assert len(drawn) == 2
    assert changed.image == betrayal.render_chat(moved)


def test_actions_that_change_nothing_shown_reuse_the_board_byte_for_byte(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Along a real game: every board handed back equals a drawing from cold caches,
    and a board is drawn exactly once per distinct view."""
    state = explored(4, 5, 14)
    states = [state]
    for _ in range(40):
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))
        states.append(state)
    drawn = counting(monkeypatch, betrayal)
    boards = [renderers.board("betrayal", s) for s in states]
    views = [map_view(s) for s in states]
    assert len(drawn) == len(set(views)) < len(states), "no action left the board as it was"
    for s, got in zip(states[::8], boards[::8], strict=True):
        canvas.clear_caches()
        assert got.image == betrayal.render_board(s)


def test_evil_below_skips_too(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ai_states(4, 2, every=20)[2]
    drawn = counting(monkeypatch, evilbelow)
    first = renderers.board("evilbelow", state)
    assert renderers.board("evilbelow", state) == first
    assert len(drawn) == 1
    canvas.clear_caches()
    assert first.image == evilbelow.render_board(state)


def test_a_renderer_without_a_view_draws_every_time() -> None:
    """Cthulhu draws from its state: no view to compare, so no skip (its boards change
    with nearly every action anyway)."""
    state, _ = CTHULHU.setup([PlayerInfo(f"P{i}") for i in range(3)], 4, {})
    got = renderers.board("cthulhu", state)
    assert got.image == renderers.renderer_of("cthulhu").render_board(state)
    assert got.alt == renderers.describe_public("cthulhu", state)
    assert not renderers.BOARDS.cache_info().currsize


def test_kept_boards_are_bounded_by_bytes() -> None:
    """The kept boards stay within their budget, however many views come."""
    info = renderers.BOARDS.cache_info()
    assert info.maxbytes is not None and info.maxbytes <= 16 << 20
    state = explored(4, 3, 12)
    view = map_view(state)
    limit = renderers.BOARDS
    monkey = pytest.MonkeyPatch()
    try:
        monkey.setattr(limit, "max_bytes", 3 * len(renderers.board("betrayal", state).image))
        for n in range(8):
            monkey.setattr(betrayal, "board_view",
                           lambda _s, n=n: replace(view, header=f"{view.header} {n}"))
            renderers.board("betrayal", state)
        assert limit.cache_info().currbytes <= limit.max_bytes  # type: ignore[operator]
        assert limit.cache_info().currsize <= 3
    finally:
        monkey.undo()


def test_the_fingerprint_tells_views_apart() -> None:
    state = explored(4, 3, 12)
    view = map_view(state)
    assert renderers.fingerprint("betrayal", view) == renderers.fingerprint(
        "betrayal", map_view(BETRAYAL.load(BETRAYAL.dump(state))))
    assert renderers.fingerprint("betrayal", view) != renderers.fingerprint(
        "betrayal", replace(view, header=view.header + "."))
    assert renderers.fingerprint("betrayal", view) != renderers.fingerprint("neibolt", view)


def test_players_names_are_part_of_the_view() -> None:
    """Two tables at the same moment of the same house, with other players, are other
    boards (the roster names them)."""
    infos = [PlayerInfo(f"P{i}") for i in range(4)]
    state, _ = BETRAYAL.setup(infos, 9, {})
    other = BETRAYAL.copy_state(state)
    other.players = [f"Q{i}" for i in range(4)]
    assert renderers.board("betrayal", state).image != renderers.board("betrayal", other).image
