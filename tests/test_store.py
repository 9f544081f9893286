"""The store: round trips, version checks, one open game per channel, crash safety."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.core.events import PUBLIC, Event, to_player
from bot.core.seats import Seat
from bot.store import (
    ACTIVE,
    LOBBY,
    OVER,
    GameExists,
    LiveMessage,
    SqliteStore,
    StaleVersion,
    Table,
    open_store,
)
from bot.store.migrations import MIGRATIONS

ROOT = Path(__file__).resolve().parent.parent


def _table(channel: int = 10, **kw: object) -> Table:
    base: dict[str, object] = dict(channel_id=channel, guild_id=5, kind="cthulhu", host_id=7,
                                   seed=42, seats=[Seat("Ann", 7), Seat("Ada", None, ai=True)])
    base.update(kw)
    return Table(**base)  # type: ignore[arg-type]


@pytest.fixture
async def store(tmp_path: Path) -> SqliteStore:
    s = await open_store(tmp_path / "db.sqlite3")
    yield s  # type: ignore[misc]
    await s.close()


async def test_round_trip_keeps_every_field(store: SqliteStore) -> None:
    table = _table(options={"layout": "manor"}, state={"rng": 12, "nested": {"a": [1, 2]}})
    created = await store.create(table, [Event("hello")], 7, {"kind": "lobby.open"})
    assert created.id is not None and created.version == 1
    loaded = await store.load(10)
    assert loaded == created
    assert loaded.seats[1].ai and loaded.seats[0].user_id == 7


async def test_a_stale_version_is_refused_and_nothing_is_written(store: SqliteStore) -> None:
    table = await store.create(_table(), [], 7, None)
    first = await store.load(10)
    second = await store.load(10)
    assert first and second
    first.status = ACTIVE
    await store.save(first, [Event("first wins")], expected_version=1, actor_id=7, action=None)
    second.status = OVER
    with pytest.raises(StaleVersion):
        await store.save(second, [Event("second loses")], expected_version=1, actor_id=8,
                         action=None)
    assert second.version == 1  # the refused copy is not advanced
    now = await store.load(10)
    assert now is not None and now.status == ACTIVE and now.version == 2
    texts = [e.text for e in await store.log(table.id or 0)]
    assert texts == ["first wins"]


async def test_one_open_game_per_channel_but_history_stays(store: SqliteStore) -> None:
    first = await store.create(_table(), [], 7, None)
    with pytest.raises(GameExists):
        await store.create(_table(), [], 7, None)
    assert await store.count_games() == 1
    first.status = OVER
    await store.save(first, [], expected_version=1, actor_id=7, action=None)
    assert await store.load(10) is None
    second = await store.create(_table(status=LOBBY), [], 7, None)
    assert second.id != first.id
    latest = await store.load_latest(10)
    assert latest is not None and latest.id == second.id
    assert [t.id for t in await store.list_open()] == [second.id]


async def test_log_is_append_only_and_filters_private_lines(store: SqliteStore) -> None:
    table = await store.create(_table(), [Event("one")], 7, None)
    await store.save(table, [Event("two"), Event("secret", to_player(0)), Event("three", PUBLIC)],
                     expected_version=1, actor_id=7, action={"kind": "x"})
    public = await store.log(table.id or 0)
    assert [e.text for e in public] == ["one", "two", "three"]
    everything = await store.log(table.id or 0, public_only=False)
    assert [e.seq for e in everything] == [1, 2, 3, 4]
    assert everything[2].audience == "player:0"
    assert [e.text for e in await store.log(table.id or 0, limit=2)] == ["two", "three"]


async def test_migrations_run_once_and_set_the_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    s = await open_store(path)
    assert await s.schema_version() == len(MIGRATIONS)
    await s.create(_table(), [], 7, None)
    await s.close()
    again = await open_store(path)  # a second start must not re-run or lose anything
    assert await again.schema_version() == len(MIGRATIONS)
    assert await again.count_games() == 1
    await again.close()


async def test_live_messages_round_trip_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    s = await open_store(path)
    game = await s.create(_table(), [], 7, None)
    other = await s.create(_table(channel=11), [], 7, None)
    assert game.id is not None and other.id is not None
    assert await s.get_live(game.id) is None
    live = LiveMessage(501, "round.1", "turn.3", "ab12", ["One.", "Two ✓."], "1.4", True,
                       601, 42)
    await s.set_live(game.id, live)
    await s.set_live(other.id, LiveMessage(502))
    await s.set_live(game.id, LiveMessage(503, None, None, lines=["Three."]))  # a new one
    await s.close()
    again = await open_store(path)
    try:
        assert await again.get_live(game.id) == LiveMessage(503, None, None, lines=["Three."])
        assert await again.get_live(other.id) == LiveMessage(502)
        await again.set_live(other.id, live)
        assert await again.get_live(other.id) == live
    finally:
        await again.close()


async def test_team_threads_round_trip_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    s = await open_store(path)
    game = await s.create(_table(), [], 7, None)
    other = await s.create(_table(channel=11), [], 7, None)
    assert game.id is not None and other.id is not None
    assert await s.get_thread(game.id, "heroes") is None
    await s.set_thread(game.id, "heroes", 1001)
    await s.set_thread(game.id, "traitor", 1002)
    await s.set_thread(other.id, "heroes", 2001)
    await s.set_thread(game.id, "traitor", 1003)  # a replaced thread (the old one was deleted)
    await s.close()
    again = await open_store(path)
    try:
        assert await again.get_thread(game.id, "heroes") == 1001
        assert await again.get_thread(game.id, "traitor") == 1003
        assert await again.get_thread(other.id, "heroes") == 2001
        assert await again.get_thread(other.id, "traitor") is None
        assert await again.threads_of(game.id) == [1001, 1003]  # what to close at the end
        assert await again.threads_of(other.id) == [2001]
    finally:
        await again.close()


async def test_a_database_from_before_team_threads_is_migrated(tmp_path: Path) -> None:
    """A file made by the first release (schema 1) keeps its games and gains threads."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(MIGRATIONS[0])
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at) VALUES (10, 5, 'cthulhu', 'lobby', ?, 1, 0, 0)",
            (json.dumps(_table().envelope()),),
        )
        old.execute("PRAGMA user_version = 1")
    old.close()
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS) >= 2
        table = await s.load(10)
        assert table is not None and table.seats == _table().seats
        assert table.id is not None
        await s.set_thread(table.id, "heroes", 55)
        assert await s.get_thread(table.id, "heroes") == 55
    finally:
        await s.close()


async def test_a_killed_process_loses_no_saved_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    announced = 0
    for _round in range(2):  # kill it twice: the second run continues the first
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.helpers.crash_writer", str(path), "99",
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE)
        assert proc.stdout is not None
        target = announced + 40
        while announced < target:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
            assert line, "the writer died on its own"
            announced = int(line)
        proc.send_signal(signal.SIGKILL)  # no cleanup, no close: a crash
        await proc.wait()
        store = await open_store(path)
        table = await store.load(99)
        assert table is not None and table.state is not None
        # Everything announced is there; at most the commit in flight went further.
        assert table.version >= announced
        assert table.state["counter"] == table.version - 1
        log = await store.log(table.id or 0, limit=10_000)
        assert len(log) == table.version  # one event per saved version, none torn
        announced = table.version
        await store.close()


async def test_a_database_from_before_the_outbox_is_migrated_as_delivered(
        tmp_path: Path) -> None:
    """A file of schema 2: its games keep their logs, count as delivered (nothing is
    posted twice after the upgrade), and their AI turns are "not known" (resumed once)."""
    path = tmp_path / "v2.sqlite3"
    with sqlite3.connect(path) as old:
        for script in MIGRATIONS[:2]:
            old.executescript(script)
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at) VALUES (10, 5, 'cthulhu', 'active', ?, 3, 0, 0)",
            (json.dumps(_table().envelope()),))
        old.executemany(
            "INSERT INTO events (game_id, seq, version, ts, audience, text) VALUES (1, ?, ?, 0,"
            " 'public', ?)", [(n, n, f"line {n}") for n in (1, 2, 3)])
        old.execute("PRAGMA user_version = 2")
    old.close()
    s = await open_store(path)
    try:
        table = await s.load(10)
        assert table is not None and table.last_seq == table.delivered_seq == 3
        assert await s.undelivered(table.id or 0) == []
        assert [e.kind for e in await s.log(table.id or 0)] == ["info"] * 3
        assert await s.needing_attention() == [(table.id, 10)]  # not known: look once
        assert await s.needing_attention(ai_turns=False) == []
    finally:
        await s.close()


async def test_a_channels_newest_game_is_found_by_index(store: SqliteStore) -> None:
    """/game status, map and log read the newest game of a channel: an index, no scan
    (55 ms at 100k games with a scan, 0.1 ms with the index)."""
    rows = await store.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
        (10,))
    plan = " ".join(str(r[-1]) for r in rows)
    assert "games_by_channel" in plan and "SCAN games" not in plan


async def test_the_outbox_cursor_moves_with_the_save_and_never_back(store: SqliteStore) -> None:
    table = await store.create(_table(), [Event("opened")], 7, None)
    assert (table.last_seq, table.delivered_seq) == (1, 1)  # the opening answers itself
    table = await store.save(table, [Event("a"), Event("b", to_player(1))], expected_version=1,
                             actor_id=7, action=None)
    assert (table.last_seq, table.delivered_seq) == (3, 1)
    assert [(e.seq, e.text, e.audience) for e in await store.undelivered(table.id or 0)] == [
        (2, "a", "public"), (3, "b", "player:1")]
    # a lobby change the interaction answers itself does not jump over what is owed
    table = await store.save(table, [Event("c")], expected_version=2, actor_id=7, action=None,
                             delivered=True)
    assert (table.last_seq, table.delivered_seq) == (4, 1)
    await store.mark_delivered(table.id or 0, 4)
    await store.mark_delivered(table.id or 0, 2)  # late and out of order: ignored
    again = await store.load(10)
    assert again is not None and (again.last_seq, again.delivered_seq) == (4, 4)
    table = await store.save(again, [Event("d")], expected_version=3, actor_id=7, action=None,
                             delivered=True)
    assert (table.last_seq, table.delivered_seq) == (5, 5)


async def test_played_content_is_kept_per_server_and_kind(tmp_path: Path) -> None:
    """A server remembers what it played (Betrayal's haunts, seed 003's Selecting the
    Haunt), by kind, the first time first; a save records it in its own transaction."""
    path = tmp_path / "db.sqlite3"
    s = await open_store(path)
    try:
        assert await s.played(5, "betrayal") == []
        await s.record_played(5, "betrayal", ["its_alive"])
        await s.record_played(5, "betrayal", ["offspring", "its_alive"])  # no repeat
        await s.record_played(6, "betrayal", ["the_mummy_walks"])
        await s.record_played(5, "cthulhu", ["its_alive"])
        assert await s.played(5, "betrayal") == ["its_alive", "offspring"]
        assert await s.played(6, "betrayal") == ["the_mummy_walks"]
        first = await s.execute("SELECT first_played_at FROM played_content WHERE guild_id = 5"
                                " AND kind = 'betrayal' AND content_key = 'its_alive'")
        table = await s.create(_table(kind="betrayal"), [], 7, None)
        await s.save(table, [Event("begins")], expected_version=1, actor_id=7, action=None,
                     played=["pay_the_piper", "its_alive"])
        assert await s.played(5, "betrayal") == ["its_alive", "offspring", "pay_the_piper"]
        again = await s.execute("SELECT first_played_at FROM played_content WHERE guild_id = 5"
                                " AND kind = 'betrayal' AND content_key = 'its_alive'")
        assert again == first  # the first time stays
        with pytest.raises(StaleVersion):  # a refused save records nothing
            await s.save(table, [], expected_version=1, actor_id=7, action=None,
                         played=["the_ghost_bride"])
        assert "the_ghost_bride" not in await s.played(5, "betrayal")
        no_guild = await s.create(_table(channel=12, guild_id=None, kind="betrayal"), [], 7,
                                  None)
        await s.save(no_guild, [], expected_version=1, actor_id=7, action=None,
                     played=["offspring"])  # a game outside a server records nothing
        assert await s.execute("SELECT COUNT(*) FROM played_content WHERE guild_id IS NULL") \
            == [(0,)]
    finally:
        await s.close()
    again_store = await open_store(path)
    try:
        assert await again_store.played(6, "betrayal") == ["the_mummy_walks"]
    finally:
        await again_store.close()


async def test_a_database_of_schema_3_gains_played_content(tmp_path: Path) -> None:
    """A file of the current release before this step (schema 3) keeps its games and
    starts with nothing played."""
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as old:
        for script in MIGRATIONS[:3]:
            old.executescript(script)
        old.execute(
            "INSERT INTO games (channel_id, guild_id, kind, status, state_json, version,"
            " created_at, updated_at, last_seq, delivered_seq) VALUES"
            " (10, 5, 'betrayal', 'active', ?, 3, 0, 0, 0, 0)",
            (json.dumps(_table(kind="betrayal").envelope()),))
        old.execute("PRAGMA user_version = 3")
    old.close()
    s = await open_store(path)
    try:
        assert await s.schema_version() == len(MIGRATIONS)
        table = await s.load(10)
        assert table is not None and table.version == 3
        assert await s.played(5, "betrayal") == []
        await s.save(table, [], expected_version=3, actor_id=None, action=None,
                     played=["its_alive"])
        assert await s.played(5, "betrayal") == ["its_alive"]
    finally:
        await s.close()


async def test_open_games_of_a_user_and_the_lobby_message(tmp_path: Path) -> None:
    """A DM command finds the games a user is seated in, exactly (user 1 is no prefix
    match for user 70); the lobby message id is remembered per game."""
    s = await open_store(tmp_path / "mine.sqlite3")
    try:
        first = await s.create(_table(10), [], None, None)
        await s.create(_table(20), [], None, None)
        await s.create(_table(30, seats=[Seat("Bo", 70)]), [], None, None)
        assert {t.channel_id for t in await s.open_games_of(7)} == {10, 20}
        assert [t.channel_id for t in await s.open_games_of(70)] == [30]
        assert await s.open_games_of(999_999) == []
        assert await s.lobby_message(first.id or 0) is None
        await s.set_lobby_message(first.id or 0, 1234)
        assert await s.lobby_message(first.id or 0) == 1234
    finally:
        await s.close()
