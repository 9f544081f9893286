"""Moving from SQLite to PostgreSQL (bot/store/copy.py, `python -m bot migrate-store`).

A SQLite store is filled through the Store interface with a bit of everything (games in
the lobby, under way and over, private and undelivered events, undo points, timers,
threads, live messages, settings, played content), copied, and the PostgreSQL store is
then read through the same interface: every answer must be the one SQLite gave.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.core.events import Event, to_player
from bot.core.seats import Seat
from bot.store import (
    ACTIVE,
    END_TIMER,
    LOBBY,
    OVER,
    POSTS_BACK,
    POSTS_REFUSED,
    REMIND_TIMER,
    GameResult,
    LiveMessage,
    NotEmpty,
    PostgresStore,
    SeatResult,
    SqliteStore,
    Store,
    StoreError,
    Table,
    TimerArm,
    UndoWrite,
    open_store,
)
from bot.store.copy import copy_store, migrate
from bot.store.rows import COPIED_TABLES
from tests.pg_server import PgServer

SNOWFLAKE = 1_180_000_000_000_000_000
GUILD, OTHER_GUILD = SNOWFLAKE + 1, SNOWFLAKE + 2
LOBBY_CHANNEL, PLAYING_CHANNEL, HISTORY_CHANNEL = SNOWFLAKE + 10, SNOWFLAKE + 11, SNOWFLAKE + 12
NEW_CHANNEL = SNOWFLAKE + 13
HOST, GUEST = SNOWFLAKE + 100, SNOWFLAKE + 200
START = 1_700_000_000.0
ROOT = Path(__file__).resolve().parents[1]
EVERYTHING = 10**6


def _table(channel: int, kind: str = "cthulhu") -> Table:
    return Table(channel_id=channel, guild_id=GUILD, kind=kind, host_id=HOST, seed=3,
                 seats=[Seat("Ann", HOST), Seat("Gus", GUEST), Seat("Ada", None, ai=True)])


async def _fill(store: Store) -> list[int]:
    """A bit of every kind of row; the games' ids."""
    lobby = await store.create(_table(LOBBY_CHANNEL), [Event("lobby open")], HOST,
                               {"kind": "lobby.open"})
    await store.set_lobby_message(lobby.id or 0, SNOWFLAKE + 900)

    playing = await store.create(_table(PLAYING_CHANNEL, "betrayal"), [Event("hi")], HOST,
                                 None)
    playing.status, playing.state = ACTIVE, {"turn": 1, "name": "Ælfrida ✓"}
    playing = await store.save(
        playing, [Event("moved", kind="move"), Event("a secret", to_player(1))],
        expected_version=1, actor_id=HOST, action={"kind": "move", "to": "hall"},
        ai_turn=True, played=["haunt_7"], undo=UndoWrite(keep=True, summary="Ann moved"),
        moves='[{"seat": 0, "action": {"kind": "move", "args": {"to": "hall"}}}]')
    playing.state = {"turn": 2}
    playing = await store.save(  # each save replaces the timers: these are the last
        playing, [Event("paused by a moderator")], expected_version=2, actor_id=HOST,
        action={"kind": "gm.pause"}, ai_turn=None, undo=UndoWrite(keep=True, summary="paused"),
        timers=[TimerArm(REMIND_TIMER, 0, HOST, START + 60, START),
                TimerArm(END_TIMER, 0, HOST, START + 120, START)])
    await store.mark_delivered(playing.id or 0, playing.last_seq - 1,  # the last one owed
                               dm_from=playing.last_seq - 1)  # and a DM tail
    await store.set_thread(playing.id or 0, "heroes", SNOWFLAKE + 300)
    await store.set_thread(playing.id or 0, "traitor", SNOWFLAKE + 301)
    await store.add_thread_member(playing.id or 0, SNOWFLAKE + 300, HOST)
    await store.set_live(playing.id or 0, LiveMessage(
        SNOWFLAKE + 400, "haunt", "turn.2", "ab12", ["One.", "Two ✓."], "3.1", extras=True,
        ping_id=SNOWFLAKE + 401, ping_user=HOST))
    await store.add_notice(playing.id or 0, POSTS_REFUSED, "send_messages,attach_files")
    await store.add_notice(playing.id or 0, POSTS_BACK)

    over = await store.create(_table(HISTORY_CHANNEL), [Event("first game")], HOST, None)
    over.status = OVER
    result = GameResult(over.id or 0, GUILD, HISTORY_CHANNEL, "cthulhu", 12, "", "Ann won ✓",
                        "{}", "The story ✓", [SeatResult(0, HOST, "Ann", False, "solo", True, 9),
                                              SeatResult(1, None, "Ada", True, "solo", False, 3)])
    over = await store.save(over, [Event("the end")], expected_version=1, actor_id=None,
                            action={"kind": "table.end"}, delivered=True, result=result)
    await store.set_live(over.id or 0, LiveMessage(SNOWFLAKE + 402))
    again = await store.create(_table(HISTORY_CHANNEL), [Event("second game")], GUEST, None)

    await store.set_guild_settings(GUILD, {"timer_minutes": 5, "mod_role": SNOWFLAKE + 7})
    await store.set_guild_settings(OTHER_GUILD, {"ai_plays": True})
    await store.record_played(OTHER_GUILD, "betrayal", ["haunt_1", "haunt_2"])
    await store.schedule_forget(OTHER_GUILD + 1, 1_800_000_000.0)  # a server the bot left
    return [t.id or 0 for t in (lobby, playing, over, again)]


async def _seen(store: Store, game_ids: list[int]) -> dict[str, Any]:
    """Everything the bot can ask the store, for these games and the test's channels."""
    seen: dict[str, Any] = {"count": await store.count_games(),
                            "open": sorted((t.id or 0, t) for t in await store.list_open()),
                            "attention": sorted(await store.needing_attention()),
                            "departures": await store.forgets_due(2_000_000_000.0),
                            "owed": sorted(await store.needing_attention(ai_turns=False)),
                            "due": await store.timers_due(START + EVERYTHING, limit=100),
                            "of_host": [t.id for t in await store.open_games_of(HOST)],
                            "of_guest": [t.id for t in await store.open_games_of(GUEST)]}
    for channel in (LOBBY_CHANNEL, PLAYING_CHANNEL, HISTORY_CHANNEL):
        seen[f"load {channel}"] = await store.load(channel)
        seen[f"latest {channel}"] = await store.load_latest(channel)
    seen["dm tails"] = await store.dm_tails()
    for guild in (GUILD, OTHER_GUILD):
        seen[f"settings {guild}"] = await store.guild_settings(guild)
        seen[f"played {guild}"] = await store.played(guild, "betrayal")
        seen[f"results {guild}"] = (await store.results(guild), await store.count_results(guild),
                                    await store.played_seats(guild),
                                    await store.played_seats(guild, HOST))
    for game in game_ids:
        seen[f"game {game}"] = (
            await store.load_game(game), await store.log(game, limit=EVERYTHING),
            await store.log(game, limit=EVERYTHING, public_only=False),
            await store.undelivered(game), await store.undo_points(game),
            await store.moves(game),
            await store.moderator_log(game), await store.timers_of(game),
            await store.threads_of(game), await store.get_thread(game, "heroes"),
            await store.thread_members(game, SNOWFLAKE + 300),
            await store.thread_members(game, SNOWFLAKE + 301),
            await store.lobby_message(game), await store.get_live(game),
            await store.notices(game), await store.result(game))
    return seen


@pytest.fixture
async def target(pg_server: PgServer) -> PgServer:
    await pg_server.reset()
    return pg_server


async def _filled(path: Path) -> tuple[SqliteStore, list[int]]:
    store = SqliteStore(path)
    await store.open()
    return store, await _fill(store)


async def test_a_copy_answers_every_question_as_the_sqlite_store_did(
        tmp_path: Path, target: PgServer) -> None:
    source, ids = await _filled(tmp_path / "bot.sqlite3")
    pg = PostgresStore(target.url)
    await pg.open()
    try:
        before = await _seen(source, ids)
        counts = await copy_store(source, pg)
        exported = await source.export_rows()
        assert counts == {t: len(exported[t][1]) for t in COPIED_TABLES}
        assert all(counts.values()), counts  # the fill reached every table
        assert await _seen(pg, ids) == before
        assert await pg.export_rows() == exported  # row for row (SQLite's 1 == True)
        # A new game takes the next id, not one of the copied ones.
        new = await pg.create(_table(NEW_CHANNEL), [], HOST, None)
        assert new.id == max(ids) + 1
    finally:
        await pg.close()
        await source.close()


async def test_a_target_that_holds_anything_is_refused_and_left_as_it_was(
        tmp_path: Path, target: PgServer) -> None:
    source, _ = await _filled(tmp_path / "bot.sqlite3")
    pg = PostgresStore(target.url)
    await pg.open()
    try:
        await pg.set_guild_settings(GUILD, {"kept": True})
        with pytest.raises(NotEmpty, match="guild_settings 1"):
            await copy_store(source, pg)
        assert await pg.count_games() == 0
        assert await pg.guild_settings(GUILD) == {"kept": True}
    finally:
        await pg.close()
        await source.close()


async def test_a_failing_copy_writes_nothing(tmp_path: Path, target: PgServer) -> None:
    """One transaction: an export the target cannot take (a column it lacks, as a newer
    SQLite schema would have) leaves no row behind."""
    source, _ = await _filled(tmp_path / "bot.sqlite3")
    pg = PostgresStore(target.url)
    await pg.open()
    try:
        export = await source.export_rows()
        columns, rows = export["live_messages"]
        export["live_messages"] = ([*columns, "from_the_future"], [(*r, 1) for r in rows])
        with pytest.raises(StoreError, match="from_the_future"):
            await pg.import_rows(export)
        assert all(not rows for _, rows in (await pg.export_rows()).values())
    finally:
        await pg.close()
        await source.close()


async def test_migrate_refuses_a_missing_file_and_a_url_that_is_not_postgresql(
        tmp_path: Path, target: PgServer) -> None:
    missing = tmp_path / "nothing.sqlite3"
    with pytest.raises(StoreError, match="no SQLite database"):
        await migrate(missing, target.url)
    assert not missing.exists()  # no empty database was made to copy from
    with pytest.raises(StoreError, match="postgresql://"):
        await migrate(missing, str(tmp_path / "other.sqlite3"))


def _cli(*args: str, db: str | None = None, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HAUNTKEEPER_")}
    env["PYTHONPATH"] = str(ROOT)
    if db is not None:
        env["HAUNTKEEPER_DB"] = db
    return subprocess.run([sys.executable, "-m", "bot", "migrate-store", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


async def test_the_command_copies_once_prints_the_counts_and_refuses_a_second_time(
        tmp_path: Path, target: PgServer) -> None:
    path = tmp_path / "bot.sqlite3"
    source, ids = await _filled(path)
    before = await _seen(source, ids)
    exported = await source.export_rows()
    await source.close()

    done = _cli("--to", target.url, "--from", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    printed = dict(line.split() for line in done.stdout.splitlines()[:-1])
    assert printed == {t: str(len(exported[t][1])) for t in COPIED_TABLES}

    again = _cli("--to", target.url, cwd=tmp_path, db=str(path))  # HAUNTKEEPER_DB's file
    assert again.returncode == 1
    assert "not empty" in again.stderr and "nothing copied" in again.stderr

    pg = await open_store(target.url)
    try:
        assert await _seen(pg, ids) == before
    finally:
        await pg.close()


async def test_the_command_says_why_it_cannot_copy(tmp_path: Path, target: PgServer) -> None:
    missing = _cli("--to", target.url, "--from", str(tmp_path / "none.sqlite3"), cwd=tmp_path)
    assert missing.returncode == 1 and "no SQLite database" in missing.stderr
    moved = _cli("--to", target.url, cwd=tmp_path, db=target.url)
    assert moved.returncode == 2 and "--from" in moved.stderr
    assert not list(tmp_path.iterdir())  # nothing was made on the way


async def test_the_default_file_is_the_one_the_bot_uses(tmp_path: Path,
                                                         target: PgServer) -> None:
    source, _ = await _filled(tmp_path / "hauntkeeper.sqlite3")  # ./hauntkeeper.sqlite3
    await source.close()
    done = _cli("--to", target.url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pg = await open_store(target.url)
    try:
        assert await pg.count_games() == 4
        lobby = await pg.load(LOBBY_CHANNEL)
        assert lobby is not None and lobby.status == LOBBY
    finally:
        await pg.close()
