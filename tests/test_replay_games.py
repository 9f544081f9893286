"""A replay of every kind of game, each played to its end through the real sessions layer
(issue 24): it plays again exactly, the same game gives the same pictures and the same
bytes, it fits Discord (10 MiB, about 30 s, 550 x 350), and no picture draws what a
single seat knew: each board is the same drawn from any seat's view as from the truth.
Slow (tests/conftest.py): whole games, dozens of boards each."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from bot import replay
from bot import table as T
from bot.core.actions import Action
from bot.replay import Progress
from bot.replays import Replays
from bot.store import ACTIVE, OVER, SqliteStore, Table, open_store
from renderers import render_public
from renderers.animation import SIZE, TOTAL_MS, UPLOAD_MAX
from tests.golden_states import CHANNEL, HOST, VARIANTS, open_lobby, play_step, sessions_on

SEED = 4


async def _finished(store: SqliteStore, name: str) -> Table:
    variant = next(v for v in VARIANTS if v.name == name)
    sessions = sessions_on(store)
    await open_lobby(sessions, variant, SEED)
    table = (await sessions.act(CHANNEL, HOST, Action(T.START))).table
    while table.status == ACTIVE:
        table = await play_step(sessions, table)
    assert table.status == OVER
    return table


@pytest.mark.parametrize("name", [v.name for v in VARIANTS])
async def test_every_kind_of_game_replays_exactly_the_same_every_time(
        name: str, tmp_path: Path) -> None:
    store = await open_store(tmp_path / "game.sqlite3")
    try:
        table = await _finished(store, name)
        moves = await store.moves(table.id or 0)
        rebuilt = replay.rebuild(table, moves)
        assert rebuilt.exact, rebuilt.why
        game = T.game_of(table)
        assert game.is_over(rebuilt.moments[-1].state)
        made = replay.draw(table, rebuilt)
        again = replay.draw(table, replay.rebuild(table, await store.moves(table.id or 0)))
        assert made.hashes == again.hashes and made.data == again.data
        assert len(set(made.hashes)) > 2  # the board changes as the game goes
        assert len(made.data) <= UPLOAD_MAX
        assert TOTAL_MS / 1000 - 2 <= made.seconds <= TOTAL_MS / 1000 + 2
        image = Image.open(io.BytesIO(made.data))
        assert image.size == SIZE and image.n_frames > 2
        assert replay.end_lines(table, rebuilt) == game.revealed(rebuilt.moments[-1].state)
    finally:
        await store.close()


@pytest.mark.parametrize("name", ["cthulhu", "evilbelow", "betrayal"])
async def test_no_picture_draws_what_only_a_seat_knew(name: str, tmp_path: Path) -> None:
    """A seat's view deals anew all that seat may not know (the others' secret characters,
    hands, the decks): a board drawn from it, for every seat, is the board drawn from the
    game itself, so the replay's pictures show only what was public then."""
    store = await open_store(tmp_path / "game.sqlite3")
    try:
        table = await _finished(store, name)
        rebuilt = replay.rebuild(table, await store.moves(table.id or 0))
        game = T.game_of(table)
        for step in replay.chosen(rebuilt.moments)[::6]:
            board = render_public(table.kind, step.state)
            for seat in range(len(table.seats)):
                seen = render_public(table.kind, game.seat_view(step.state, seat))
                assert seen == board, (step.version, seat)
    finally:
        await store.close()


async def test_a_stop_ends_a_replay_being_drawn_at_its_next_picture(tmp_path: Path) -> None:
    """The bot's stop (HauntBot.close) lets the drawing process go: a replay under way
    ends at its next picture instead of holding the exit; the next one starts anew."""
    store = await open_store(tmp_path / "game.sqlite3")
    replays = Replays()
    try:
        table = await _finished(store, "betrayal")
        progress = Progress()
        work = asyncio.ensure_future(replays.draw(store, table, progress))
        while progress.done == 0 and not work.done():
            await asyncio.sleep(0.05)
        assert not work.done()  # a few pictures in, of about ninety
        replays.close()
        with pytest.raises(ValueError):
            await asyncio.wait_for(work, 30)
        assert 0 < progress.done < 0.9
        made = await replays.draw(store, table, Progress())
        assert len(made.hashes) > 2
    finally:
        replays.close()
        await store.close()
