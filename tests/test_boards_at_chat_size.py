"""Boards made for the chat (issue 20): Cthulhu's and Evil Below's board are one fixed
landscape canvas for the whole game, every text legible where Discord shows it inline
(550 x 350), Evil Below's dice and fight cards on the board itself, and every game's
board carrying alt text that says in words what it shows.

The e2e test goes through the real discord.py and the fake Discord: the board's
attachment has its description, naming the player to move."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image

from bot import games
from bot.games.base import PlayerInfo
from bot.games.betrayal.shown import map_view
from bot.games.cthulhu.state import CthulhuState
from bot.games.evilbelow import EvilBelowGame
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.pictures import board_view
from bot.games.evilbelow.state import WIN
from renderers import (
    ALT_TEXT_MAX,
    canvas,
    clip_alt,
    common,
    cthulhu,
    describe_public,
    evilbelow,
    render_public,
)
from renderers.cthulhu import layout as cthulhu_layout
from renderers.cthulhu import pieces as cthulhu_pieces
from renderers.evilbelow import draw as evil_draw
from renderers.evilbelow import layout as evil_layout
from tests.e2e_helpers import latest_turn, open_and_start, to_move, use_first
from tests.evil_below_helpers import ai_states
from tests.fakediscord import FakeDiscord
from tests.zh_labels import LANGUAGES, in_language, translated

SHOWN = (550, 350)
READ_PX = 9
EVIL = EvilBelowGame()


def _size(data: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(data)).size


def _shown_scale(size: tuple[int, int]) -> float:
    """How much Discord shrinks an image to fit it inline (550 x 350 at most)."""
    return min(SHOWN[0] / size[0], SHOWN[1] / size[1], 1.0)


def _ai_game(key: str, players: int, seed: int, cap: int = 2000) -> list[object]:
    game = games.all_games()[key]
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed, {})
    found = [state]
    for _ in range(cap):
        seat = game.to_act(state)
        if seat is None:
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        found.append(state)
    return found


# ------------------------------------------------------------------- Cthulhu


@pytest.mark.parametrize("players", [3, 4, 6])
def test_cthulhu_board_keeps_one_landscape_canvas_all_game(players: int) -> None:
    states = _ai_game("cthulhu", players, seed=players)
    assert states[-1].over  # type: ignore[attr-defined]
    sizes = {_size(render_public("cthulhu", s)) for s in states[::7] + states[-1:]}
    assert sizes == {(1100, 700)}  # the same on every edit: the message never jumps
    assert _shown_scale((1100, 700)) == 0.5  # shown whole at 550 x 350: landscape


def test_cthulhu_text_is_legible_at_chat_size() -> None:
    width = cthulhu.BASE_WIDTH
    height = cthulhu_layout.height_of(width)
    shown = _shown_scale((width, height))
    s = width / cthulhu.BASE_WIDTH
    assert min(cthulhu.FONT_SIZES) == cthulhu.SMALLEST_FONT
    for size in cthulhu.FONT_SIZES:
        assert round(size * s) * shown >= READ_PX, size


@pytest.mark.parametrize("players", [3, 4, 6])
def test_cthulhu_geometry_fits_the_canvas(players: int) -> None:
    for state in _ai_game("cthulhu", players, seed=11)[::25]:
        assert isinstance(state, CthulhuState)
        geo = cthulhu.board_geometry(state)
        boxes = [*geo.rooms.values(), geo.header, geo.removed_line, geo.score_track,
                 *geo.score_cards.values(), *geo.removed_slots]
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= geo.width and 0 <= y0 < y1 <= geo.height
        for c, (x, y) in geo.tokens.items():  # every token whole inside its room
            room = geo.rooms[state.location[c]]  # type: ignore[index]
            r = geo.token_radius[c]
            assert room[0] < x - r and x + r < room[2] and room[1] < y - r and y + r < room[3]


# ---------------------------------------------------------------- Evil Below


@pytest.mark.parametrize("players", range(2, 8))
def test_evil_below_board_keeps_one_landscape_canvas_all_game(players: int) -> None:
    states = ai_states(players, seed=players, every=15)
    assert {_size(evilbelow.render_board(s)) for s in states} == {(1100, 700)}


def test_evil_below_text_is_legible_at_chat_size() -> None:
    width = evilbelow.BASE_WIDTH
    shown = _shown_scale((width, evil_layout.height_of(width)))
    for size in evil_layout.TEXT_SIZES:
        assert round(size * width / evil_layout.U) * shown >= READ_PX, size
        assert evil_layout.displayed_px(size, width) >= READ_PX


def _fights(players: int, seed: int) -> list[object]:
    return [s for s in ai_states(players, seed, every=1) if s.fight and s.fight.shown]


@pytest.mark.parametrize("language", LANGUAGES)
def test_evil_below_weakness_names_keep_clear_of_their_count(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """A weakness's name wraps in its row and stops WEAK_GAP short of the count on the
    right, however long the count says it (Chinese: a count word after the number)."""
    in_language(request, monkeypatch, language)
    seen = 0
    for state in ai_states(4, seed=3, every=10):
        view = board_view(state)
        k = evilbelow.geometry(view).scale
        f = common.font(round(max(11, evilbelow.MIN_TEXT) * k))
        for w in view.weaknesses:
            name = w.name or "-"
            left = evil_below_line("views.weakness_left", left=w.left)
            lines = evil_draw.weakness_lines(name, left, k)
            assert 1 <= len(lines) <= 2
            count_x0 = (evil_layout.COLUMN_W - 4) * k - common.text_width(f, left)
            for line in lines:
                right = evil_draw.WEAK_NAME_X * k + common.text_width(f, line)
                assert right + evil_draw.WEAK_GAP * k - 1 <= count_x0, (line, left)
            seen += 1
    assert seen


def test_a_fight_shows_its_turned_cards_on_the_board() -> None:
    fight = _fights(4, 5)[0]
    view = board_view(fight)
    assert view.fighting and view.cards
    # Every card still face up is among those shown (an attack card ends the fight's
    # reveals, and those cards stay on the board until the fight is over).
    assert set(view.revealed) <= {c.name for c in view.cards}
    # The fight's column is drawn from the cards: the same board without them differs
    # there, and nowhere is a second picture needed.
    bare = replace(view, cards=())
    img, flat = evilbelow.compose(view), evilbelow.compose(bare)
    geo = evilbelow.geometry(view)
    k = geo.scale
    box = (round(evil_layout.COLUMN_X * k), geo.fight_y, geo.width,
           round(evil_layout.WEAK_Y * k))
    assert img.crop(box).tobytes() != flat.crop(box).tobytes()
    assert img.size == flat.size == (1100, 700)


def test_the_end_board_shows_the_winning_fight() -> None:
    for players, seed in ((3, 3), (7, 3), (4, 1), (5, 2), (2, 9)):
        last = ai_states(players, seed, every=50)[-1]
        if last.result == WIN:
            break
    else:
        pytest.skip("no won game among the seeds tried")
    view = board_view(last)
    assert view.footer and view.cards  # the winning fight's cards, not "nothing yet"
    assert not any(c.attack for c in view.cards[-1:])
    text = describe_public("evilbelow", last)
    assert view.cards[-1].name in text


def test_a_roll_is_drawn_on_the_board_not_beside_it() -> None:
    states = ai_states(3, seed=4, every=1)
    rolled = next(s for s in states if any(s.dice))
    assert evilbelow.__dict__.get("render_extras") is None
    assert len(board_view(rolled).dice) == 7


# -------------------------------------------------------------------- alt text


@pytest.mark.parametrize("key", ["cthulhu", "evilbelow", "betrayal"])
def test_alt_text_names_the_player_to_move_and_fits_discord(key: str) -> None:
    game = games.all_games()[key]
    states = _ai_game(key, 4, seed=2, cap=300)
    for state in states[::20]:
        text = describe_public(key, state)
        assert 0 < len(text) <= ALT_TEXT_MAX
        seat = game.to_act(state)
        if seat is not None:
            assert state.players[seat] in text  # type: ignore[attr-defined]
    first = states[0]
    seat = game.to_act(first)
    assert seat is not None
    names = [f"AI{i}" for i in range(4)]
    assert names[seat] in describe_public(key, first)


def test_cthulhu_alt_text_names_the_winner() -> None:
    last = _ai_game("cthulhu", 3, seed=5)[-1]
    assert isinstance(last, CthulhuState) and last.over and last.winners
    names = " & ".join(last.players[w] for w in last.winners)
    assert f"Game over. {names} win" in describe_public("cthulhu", last)


def test_alt_text_says_nothing_secret() -> None:
    """Who owns which character (Cthulhu) never reaches the words."""
    state = _ai_game("cthulhu", 4, seed=3, cap=5)[-1]
    assert isinstance(state, CthulhuState)
    other = games.all_games()["cthulhu"].copy_state(state)
    other.secrets = [list(reversed(s)) for s in reversed(other.secrets)]
    other.room_portals = [["x"] * len(p) for p in other.room_portals]
    assert describe_public("cthulhu", other) == describe_public("cthulhu", state)


def test_alt_text_is_cut_to_discords_limit_at_a_word() -> None:
    text = clip_alt("word " * 400)
    assert len(text) <= ALT_TEXT_MAX and text.endswith("…") and "wor…" not in text


async def test_the_board_attachment_carries_its_alt_text(fd: FakeDiscord,
                                                         start_hauntkeeper) -> None:
    channel = fd.add_channel("derry")
    users = [fd.add_user(n) for n in ("ann", "bob")]
    by_id = {u.id: u for u in users}
    await start_hauntkeeper()
    await open_and_start(fd, channel, users, "evilbelow", seed=4)
    for _ in range(3):  # the first post, then after a click or two
        post = latest_turn(fd, channel)
        assert [name for name, _ in post.attachments] == ["board.png"]
        alt = post.descriptions[0]
        assert alt and len(alt) <= ALT_TEXT_MAX
        mover = to_move(post)
        assert mover is not None and by_id[mover].name in alt
        await use_first(fd, by_id[mover], post)
    raw = json.dumps(post.snapshot()["descriptions"])
    assert "IT: Evil Below" in raw


def test_neibolt_alt_text_names_the_player_to_move() -> None:
    """Neibolt is Betrayal's expansion: its board is described by the same words."""
    game = games.all_games()["betrayal"]
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(3)], 5,
                          {"expansion": "neibolt"})
    assert state.edition == "neibolt"
    for _ in range(60):
        seat = game.to_act(state)
        if seat is None:
            break
        text = describe_public("betrayal", state)
        assert state.players[seat] in text and len(text) <= ALT_TEXT_MAX
        view = map_view(state)
        for e in view.explorers:  # every explorer is said, with the room it stands in
            tile = next(t for t in view.tiles if (t.floor, t.x, t.y) == (e.floor, e.x, e.y))
            assert f"{e.name} ({e.player}) " in text and tile.name in text
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    assert len(state.tiles) > 5  # the house grew while it was described


def _sizes_asked(monkeypatch: pytest.MonkeyPatch, render: Callable[[], bytes],
                 asked: list[int] | None = None) -> list[int]:
    """Every font size the drawing code asked for while rendering, caches emptied first:
    not only the sizes the layout names, the sizes actually drawn (a fit that shrinks a
    long name counts at the size it tried last).

    The spy goes into every renderers module that holds `common.font`, not a list kept by
    hand: such a list once left out renderers.cthulhu.pieces, so the seat numbers drawn
    in the seat shapes there were never measured (they were 6-8 px as displayed).
    `asked` (if given) is filled as the render goes."""
    asked = [] if asked is None else asked
    original = common.font
    # Which fonts are in use is asked with a 16 px probe (common.font_signature): that
    # is no text on the board, so it is answered before the spy goes in.
    probe = common.font_signature
    signature = probe()
    spied = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("renderers"):
            continue
        if getattr(module, "font_signature", None) is probe:
            monkeypatch.setattr(module, "font_signature", lambda: signature)
        if getattr(module, "font", None) is original:
            spied.append(name)

    def spy(size: int, bold: bool = False) -> common.Font:
        asked.append(int(size))
        return original(size, bold)

    for name in spied:
        monkeypatch.setattr(sys.modules[name], "font", spy)
    common._fit_text.cache_clear()
    common._fit_wrapped.cache_clear()
    canvas.clear_caches()
    render()
    assert asked, "no text was drawn"
    return asked


def test_the_size_spy_reaches_every_module_that_draws_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pieces modules draw text too (Cthulhu's seat numbers, for one): the
    spy must see what they ask for, or a small size there passes unseen."""
    state = _ai_game("cthulhu", 3, seed=7, cap=3)[-1]
    asked: list[int] = []
    seen: list[int] = []
    original = cthulhu_pieces.seat_marker

    def marker(*args: object, **kwargs: object) -> None:
        before = len(asked)
        original(*args, **kwargs)  # type: ignore[arg-type]
        seen.extend(asked[before:])

    monkeypatch.setattr(cthulhu_pieces, "seat_marker", marker)
    _sizes_asked(monkeypatch, lambda: cthulhu.render_board(state), asked)
    assert seen  # the seat numbers' sizes were asked through the spy


def _chinese_drawn(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                   language: str) -> list[int]:
    """The board in `language` (tests/zh_labels.py); the sizes the Chinese face was asked
    for fill the list, so a test can tell Chinese really was drawn."""
    in_language(request, monkeypatch, language)
    asked: list[int] = []
    original = common.cjk_font

    def spy(size: int, bold: bool = False) -> object:
        if sys._getframe(1).f_code.co_name != "font_signature":  # not its 16 px probe
            asked.append(size)
        return original(size, bold)

    monkeypatch.setattr(common, "cjk_font", spy)
    common.face_for.cache_clear()
    request.addfinalizer(common.face_for.cache_clear)
    return asked


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [3, 4, 6])
def test_cthulhu_text_drawn_reads_at_chat_size(request: pytest.FixtureRequest,
                                                monkeypatch: pytest.MonkeyPatch,
                                                players: int, language: str) -> None:
    chinese = _chinese_drawn(request, monkeypatch, language)
    states = _ai_game("cthulhu", players, seed=7)
    for state in (states[0], states[len(states) // 2], states[-1]):
        shown = translated(state) if language != "en" else state
        asked = _sizes_asked(monkeypatch, lambda s=shown: cthulhu.render_board(s))
        assert min(asked) * _shown_scale((1100, 700)) >= READ_PX, sorted(set(asked))[:3]
    assert bool(chinese) == (language != "en")
    if chinese:
        assert min(chinese) * _shown_scale((1100, 700)) >= READ_PX


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [2, 7])
def test_evil_below_text_drawn_reads_at_chat_size(request: pytest.FixtureRequest,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   players: int, language: str) -> None:
    chinese = _chinese_drawn(request, monkeypatch, language)
    fights = _fights(players, 3) or ai_states(players, 3)
    for state in (ai_states(players, 3)[0], fights[0], ai_states(players, 3)[-1]):
        asked = _sizes_asked(monkeypatch, lambda s=state: evilbelow.render_board(s))
        assert min(asked) * _shown_scale((1100, 700)) >= READ_PX, sorted(set(asked))[:3]
    assert bool(chinese) == (language != "en")
    if chinese:
        assert min(chinese) * _shown_scale((1100, 700)) >= READ_PX


@pytest.mark.parametrize("players", [3, 4, 6])
def test_cthulhu_portals_cover_no_token(players: int) -> None:
    """A room's portal marker sits under its name or beside it, never on a token."""
    seen = 0
    for state in _ai_game("cthulhu", players, seed=players + 20):
        assert isinstance(state, CthulhuState)
        geo = cthulhu.board_geometry(state)
        portal_r = cthulhu_layout.PORTAL_R * geo.scale
        for room, (px, py) in geo.portals.items():
            for c, (tx, ty) in geo.tokens.items():
                if state.location[c] == room:
                    seen += 1
                    gap = ((px - tx) ** 2 + (py - ty) ** 2) ** 0.5
                    assert gap > portal_r + geo.token_radius[c], (room, c)
    assert seen  # portals and tokens did share rooms
