"""The store's contract, run against every backend (SQLite, and PostgreSQL on a real
server the tests start): round trips, version checks, one open game per channel, the
outbox, undo points, turn timers, settings, and races between connections, as another
process would run them. Only the Store interface is used, so both must behave alike.

Ids are Discord-sized (snowflakes above 2**60), which a 32-bit column would refuse.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.core.events import PUBLIC, Event, to_player
from bot.core.seats import Seat
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.store import (
    ACTIVE,
    END_TIMER,
    LOBBY,
    OVER,
    POSTS_BACK,
    POSTS_REFUSED,
    REMIND_TIMER,
    GameExists,
    LiveMessage,
    SqliteStore,
    StaleVersion,
    Store,
    Table,
    TimerArm,
    TurnTimer,
    UndoWrite,
    pg_migrations,
)
from bot.store import migrations as sqlite_migrations
from bot.table_record import UNDO_KEPT
from tests import pg_server
from tests.conftest import Backend

SNOWFLAKE = 1_180_000_000_000_000_000  # Discord ids are this large
CHANNEL = SNOWFLAKE + 10
GUILD = SNOWFLAKE + 5
HOST = SNOWFLAKE + 7
OTHER = SNOWFLAKE + 70
START = 1_700_000_000.0
STEPS = {"sqlite": len(sqlite_migrations.MIGRATIONS), "postgres": len(pg_migrations.MIGRATIONS)}


def new_table(channel: int = CHANNEL, **kw: object) -> Table:
    base: dict[str, object] = dict(channel_id=channel, guild_id=GUILD, kind="cthulhu",
                                   host_id=HOST, seed=42,
                                   seats=[Seat("Ann", HOST), Seat("Ada", None, ai=True)])
    base.update(kw)
    return Table(**base)  # type: ignore[arg-type]


async def _race(*calls: object) -> list[object]:
    """Run the calls at once; each one's result or the exception it raised."""
    return list(await asyncio.gather(*calls, return_exceptions=True))  # type: ignore[arg-type]


async def _reopened(backend: Backend) -> Store:
    return await backend.open()


# ---------------------------------------------------------------- games and versions

async def test_round_trip_keeps_every_field(any_store: Store) -> None:
    table = new_table(options={"layout": "manor"},
                   state={"rng": 12, "nested": {"a": [1, 2]}, "name": "Ælfrida ✓"})
    created = await any_store.create(table, [Event("hello")], HOST, {"kind": "lobby.open"})
    assert created.id is not None and created.version == 1
    loaded = await any_store.load(CHANNEL)
    assert loaded == created
    assert loaded.seats[1].ai and loaded.seats[0].user_id == HOST
    assert await any_store.load_game(created.id) == created
    assert await any_store.load(CHANNEL + 1) is None


async def test_a_stale_version_is_refused_and_nothing_is_written(any_store: Store) -> None:
    table = await any_store.create(new_table(), [], HOST, None)
    first = await any_store.load(CHANNEL)
    second = await any_store.load(CHANNEL)
    assert first and second
    first.status = ACTIVE
    await any_store.save(first, [Event("first wins")], expected_version=1, actor_id=HOST,
                         action=None)
    second.status = OVER
    with pytest.raises(StaleVersion):
        await any_store.save(second, [Event("second loses")], expected_version=1,
                             actor_id=OTHER, action=None)
    assert second.version == 1  # the refused copy is not advanced
    now = await any_store.load(CHANNEL)
    assert now is not None and now.status == ACTIVE and now.version == 2
    assert [e.text for e in await any_store.log(table.id or 0)] == ["first wins"]


async def test_racing_saves_from_two_connections_one_wins_and_the_rest_write_nothing(
        any_store: Store, backend: Backend) -> None:
    """Six saves of version 1 at once, from two stores (two processes): exactly one lands,
    with its events, undo point, timers and played content; the others raise
    StaleVersion and leave no trace."""
    other = await backend.open()
    try:
        table = await any_store.create(new_table(kind="betrayal"), [], HOST, None)
        saves = []
        for n in range(6):
            copy = table.copy()
            copy.status, copy.state = ACTIVE, {"who": n}
            store = (any_store, other)[n % 2]
            saves.append(store.save(
                copy, [Event(f"move {n}"), Event(f"secret {n}", to_player(0))],
                expected_version=1, actor_id=HOST, action={"kind": "move", "n": n},
                undo=UndoWrite(keep=True, summary=f"move {n}"), played=[f"haunt_{n}"],
                timers=[TimerArm(REMIND_TIMER, 0, HOST, START + n, START)]))
        results = await _race(*saves)
        won = [n for n, r in enumerate(results) if isinstance(r, Table)]
        assert len(won) == 1, results
        assert all(isinstance(r, StaleVersion) for n, r in enumerate(results) if n != won[0])
        winner = won[0]
        after = await other.load(CHANNEL)
        assert after is not None and after.version == 2 and after.state == {"who": winner}
        log = await any_store.log(table.id or 0, public_only=False)
        assert [(e.seq, e.text) for e in log] == [(1, f"move {winner}"),
                                                  (2, f"secret {winner}")]
        assert (after.last_seq, after.delivered_seq) == (2, 0)
        assert [p.summary for p in await any_store.undo_points(table.id or 0)] == [
            f"move {winner}"]
        assert [(t.version, t.due_at) for t in await any_store.timers_of(table.id or 0)] == [
            (2, START + winner)]
        assert await any_store.played(GUILD, "betrayal") == [f"haunt_{winner}"]
    finally:
        await other.close()


async def test_one_open_game_per_channel_but_history_stays(any_store: Store) -> None:
    first = await any_store.create(new_table(), [], HOST, None)
    with pytest.raises(GameExists):
        await any_store.create(new_table(), [], HOST, None)
    assert await any_store.count_games() == 1
    first.status = OVER
    await any_store.save(first, [], expected_version=1, actor_id=HOST, action=None)
    assert await any_store.load(CHANNEL) is None
    second = await any_store.create(new_table(status=LOBBY), [], HOST, None)
    assert second.id != first.id
    latest = await any_store.load_latest(CHANNEL)
    assert latest is not None and latest.id == second.id
    assert [t.id for t in await any_store.list_open()] == [second.id]
    finished = await any_store.load_game(first.id or 0)
    assert finished is not None and finished.status == OVER


async def test_racing_creates_in_one_channel_open_one_game(any_store: Store,
                                                           backend: Backend) -> None:
    other = await backend.open()
    try:
        results = await _race(*(store.create(new_table(), [Event("opened")], HOST, None)
                                for store in (any_store, other, any_store, other)))
    finally:
        await other.close()
    assert sum(isinstance(r, Table) for r in results) == 1, results
    assert sum(isinstance(r, GameExists) for r in results) == 3, results
    assert await any_store.count_games() == 1
    opened = await any_store.load(CHANNEL)
    assert opened is not None
    assert [e.text for e in await any_store.log(opened.id or 0)] == ["opened"]


async def test_log_is_append_only_and_filters_private_lines(any_store: Store) -> None:
    table = await any_store.create(new_table(), [Event("one")], HOST, None)
    await any_store.save(table, [Event("two"), Event("secret", to_player(0)),
                                 Event("three", PUBLIC)],
                         expected_version=1, actor_id=HOST, action={"kind": "x"})
    public = await any_store.log(table.id or 0)
    assert [e.text for e in public] == ["one", "two", "three"]
    assert {e.actor_id for e in public} == {HOST}
    everything = await any_store.log(table.id or 0, public_only=False)
    assert [e.seq for e in everything] == [1, 2, 3, 4]
    assert everything[2].audience == "player:0"
    assert [e.text for e in await any_store.log(table.id or 0, limit=2)] == ["two", "three"]


async def test_migrations_run_once_and_a_reopen_keeps_everything(
        any_store: Store, backend: Backend) -> None:
    assert await any_store.schema_version() == STEPS[backend.name]
    await any_store.create(new_table(), [], HOST, None)
    await any_store.close()
    again = await _reopened(backend)  # a second start must not re-run or lose anything
    try:
        assert await again.schema_version() == STEPS[backend.name]
        assert await again.count_games() == 1
    finally:
        await again.close()
    await any_store.open()  # the fixture closes it


async def test_open_games_of_a_user_and_the_lobby_message(any_store: Store) -> None:
    """A DM command finds the games a user is seated in, exactly (a user whose id is a
    prefix of another's matches only their own); the lobby message id is per game."""
    prefix = SNOWFLAKE // 10
    first = await any_store.create(new_table(CHANNEL), [], None, None)
    await any_store.create(new_table(CHANNEL + 1), [], None, None)
    await any_store.create(new_table(CHANNEL + 2, seats=[Seat("Bo", prefix * 10 + 3)]), [],
                           None, None)
    await any_store.create(new_table(CHANNEL + 3, seats=[Seat("Cy", prefix)]), [], None, None)
    assert {t.channel_id for t in await any_store.open_games_of(HOST)} == {CHANNEL,
                                                                          CHANNEL + 1}
    assert [t.channel_id for t in await any_store.open_games_of(prefix)] == [CHANNEL + 3]
    assert await any_store.open_games_of(999_999) == []
    assert await any_store.lobby_message(first.id or 0) is None
    await any_store.set_lobby_message(first.id or 0, SNOWFLAKE + 1234)
    assert await any_store.lobby_message(first.id or 0) == SNOWFLAKE + 1234


# ---------------------------------------------------------------- the outbox

async def test_the_outbox_cursor_moves_with_the_save_and_never_back(any_store: Store) -> None:
    table = await any_store.create(new_table(), [Event("opened")], HOST, None)
    assert (table.last_seq, table.delivered_seq) == (1, 1)  # the opening answers itself
    table = await any_store.save(table, [Event("a"), Event("b", to_player(1))],
                                 expected_version=1, actor_id=HOST, action=None)
    assert (table.last_seq, table.delivered_seq) == (3, 1)
    assert [(e.seq, e.text, e.audience) for e in await any_store.undelivered(table.id or 0)] \
        == [(2, "a", "public"), (3, "b", "player:1")]
    # a lobby change the interaction answers itself does not jump over what is owed
    table = await any_store.save(table, [Event("c")], expected_version=2, actor_id=HOST,
                                 action=None, delivered=True)
    assert (table.last_seq, table.delivered_seq) == (4, 1)
    await any_store.mark_delivered(table.id or 0, 4)
    await any_store.mark_delivered(table.id or 0, 2)  # late and out of order: ignored
    again = await any_store.load(CHANNEL)
    assert again is not None and (again.last_seq, again.delivered_seq) == (4, 4)
    assert await any_store.undelivered(table.id or 0) == []
    table = await any_store.save(again, [Event("d")], expected_version=3, actor_id=HOST,
                                 action=None, delivered=True)
    assert (table.last_seq, table.delivered_seq) == (5, 5)


async def test_recently_played_lists_open_games_played_last_first(
        any_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = iter(range(1_800_000_000, 1_900_000_000))  # every write a second later
    monkeypatch.setattr(time, "time", lambda: float(next(ticks)))
    first = await any_store.create(new_table(CHANNEL), [], HOST, None)
    second = await any_store.create(new_table(CHANNEL + 1), [], HOST, None)
    ended = await any_store.create(new_table(CHANNEL + 2), [], HOST, None)
    ended.status = OVER
    await any_store.save(ended, [Event("the end")], expected_version=1, actor_id=None,
                         action=None)
    await any_store.save(first, [Event("a move")], expected_version=1, actor_id=HOST,
                         action=None)  # played last: first in the list
    assert [t.id for t in await any_store.recently_played(5)] == [first.id, second.id]
    assert [t.id for t in await any_store.recently_played(1)] == [first.id]
    assert (await any_store.recently_played(1))[0].state == first.state
    # Each with its live message, as a load reads it (the first board drawn ahead is
    # the one its next move's delivery compares with).
    assert second.id is not None
    await any_store.set_live(second.id, LiveMessage(41, lines=["x"]))
    recent = {t.id: t for t in await any_store.recently_played(5)}
    for channel in (CHANNEL, CHANNEL + 1):
        loaded = await any_store.load(channel)
        assert loaded is not None and loaded.id is not None
        assert recent[loaded.id].shown == loaded.shown
    assert recent[second.id].shown[0] is not None
    assert recent[second.id].shown[0].message_id == 41


async def test_needing_attention_finds_ai_turns_and_owed_deliveries(any_store: Store) -> None:
    quiet = await any_store.create(new_table(CHANNEL), [], HOST, None, ai_turn=False)
    ai = await any_store.create(new_table(CHANNEL + 1), [], HOST, None, ai_turn=True)
    unknown = await any_store.create(new_table(CHANNEL + 2), [], HOST, None, ai_turn=None)
    ended = await any_store.create(new_table(CHANNEL + 3), [], HOST, None)
    ended.status = OVER
    await any_store.save(ended, [Event("the end")], expected_version=1, actor_id=None,
                         action=None, ai_turn=False)  # owed, though finished
    assert await any_store.needing_attention() == [
        (ai.id, CHANNEL + 1), (unknown.id, CHANNEL + 2), (ended.id, CHANNEL + 3)]
    assert await any_store.needing_attention(ai_turns=False) == [(ended.id, CHANNEL + 3)]
    await any_store.settle_ai_turn(unknown.id or 0, 2, False)  # not its version: no effect
    await any_store.settle_ai_turn(unknown.id or 0, 1, False)
    await any_store.settle_ai_turn(quiet.id or 0, 1, True)  # known already: no effect
    await any_store.mark_delivered(ended.id or 0, 1)
    assert await any_store.needing_attention() == [(ai.id, CHANNEL + 1)]


# ---------------------------------------------------------------- per game, per server

async def test_live_messages_round_trip_and_survive_reopening(any_store: Store,
                                                              backend: Backend) -> None:
    game = await any_store.create(new_table(), [], HOST, None)
    other = await any_store.create(new_table(channel=CHANNEL + 1), [], HOST, None)
    assert game.id is not None and other.id is not None
    assert await any_store.get_live(game.id) is None
    live = LiveMessage(SNOWFLAKE + 501, "round.1", "turn.3", "ab12", ["One.", "Two ✓."], "1.4",
                       True, SNOWFLAKE + 601, HOST)
    await any_store.set_live(game.id, live)
    await any_store.set_live(other.id, LiveMessage(SNOWFLAKE + 502))
    await any_store.set_live(game.id, LiveMessage(SNOWFLAKE + 503, None, None,
                                                  lines=["Three."]))  # a new one
    again = await _reopened(backend)
    try:
        assert await again.get_live(game.id) == LiveMessage(SNOWFLAKE + 503, None, None,
                                                            lines=["Three."])
        assert await again.get_live(other.id) == LiveMessage(SNOWFLAKE + 502)
        await again.set_live(other.id, live)
        assert await again.get_live(other.id) == live
    finally:
        await again.close()


async def test_a_delivery_mark_stores_the_live_message_it_left_in_the_same_write(
        any_store: Store) -> None:
    """The courier marks a delivery and stores the live message it left in one write
    (bot/courier.py): one round trip, one transaction."""
    table = await any_store.create(new_table(), [], HOST, None)
    assert table.id is not None
    table = await any_store.save(table, [Event("a")], expected_version=1, actor_id=HOST,
                                 action=None)
    live = LiveMessage(SNOWFLAKE + 701, "round.1", "turn.1", lines=["a"], delivery="1.2")
    await any_store.mark_delivered(table.id, table.last_seq, live)
    again = await any_store.load(CHANNEL)
    assert again is not None and again.delivered_seq == again.last_seq == 1
    assert await any_store.get_live(table.id) == live
    # A late mark never moves the cursor back; the live message it carries is the
    # newest the delivery showed, and replaces the one before.
    newer = LiveMessage(SNOWFLAKE + 702, lines=["b"])
    await any_store.mark_delivered(table.id, 0, newer)
    again = await any_store.load(CHANNEL)
    assert again is not None and again.delivered_seq == 1
    assert await any_store.get_live(table.id) == newer


async def test_loading_the_open_game_brings_its_live_message_along(any_store: Store) -> None:
    """`load` (an action's read) knows the game's live message, so the delivery after
    the action asks the store for nothing more (Table.shown); other reads leave it
    unknown."""
    table = await any_store.create(new_table(), [], HOST, None)
    assert table.id is not None
    loaded = await any_store.load(CHANNEL)
    assert loaded is not None and loaded.shown == (None,)  # none yet
    live = LiveMessage(SNOWFLAKE + 801, "round.1", "turn.2", "ab", ["One."], "1.2", True,
                       SNOWFLAKE + 802, HOST, 7, "a board")
    await any_store.set_live(table.id, live)
    loaded = await any_store.load(CHANNEL)
    assert loaded is not None and loaded.shown == (live,) and loaded.id == table.id
    assert loaded.copy().shown == (live,)  # the action's copy carries it to the delivery
    other = await any_store.load_game(table.id)
    assert other is not None and other.shown is None  # not read: ask the store


async def test_team_threads_round_trip_and_survive_reopening(any_store: Store,
                                                             backend: Backend) -> None:
    game = await any_store.create(new_table(), [], HOST, None)
    other = await any_store.create(new_table(channel=CHANNEL + 1), [], HOST, None)
    assert game.id is not None and other.id is not None
    assert await any_store.get_thread(game.id, "heroes") is None
    await any_store.set_thread(game.id, "heroes", SNOWFLAKE + 1001)
    await any_store.set_thread(game.id, "traitor", SNOWFLAKE + 1002)
    await any_store.set_thread(other.id, "heroes", SNOWFLAKE + 2001)
    await any_store.set_thread(game.id, "traitor", SNOWFLAKE + 1003)  # replaced
    again = await _reopened(backend)
    try:
        assert await again.get_thread(game.id, "heroes") == SNOWFLAKE + 1001
        assert await again.get_thread(game.id, "traitor") == SNOWFLAKE + 1003
        assert await again.get_thread(other.id, "traitor") is None
        assert await again.threads_of(game.id) == [SNOWFLAKE + 1001, SNOWFLAKE + 1003]
        assert await again.threads_of(other.id) == [SNOWFLAKE + 2001]
    finally:
        await again.close()


async def test_the_bots_notices_are_kept_per_game_and_survive_reopening(
        any_store: Store, backend: Backend) -> None:
    game = await any_store.create(new_table(), [], HOST, None)
    other = await any_store.create(new_table(channel=CHANNEL + 1), [], HOST, None)
    assert game.id is not None and other.id is not None
    assert await any_store.notices(game.id) == []
    await any_store.add_notice(game.id, POSTS_REFUSED, "send_messages")
    await any_store.add_notice(other.id, POSTS_REFUSED, "view_channel")
    await any_store.add_notice(game.id, POSTS_BACK)
    again = await _reopened(backend)
    try:
        kept = await again.notices(game.id)
        assert [(n.kind, n.detail) for n in kept] == [(POSTS_REFUSED, "send_messages"),
                                                      (POSTS_BACK, "")]  # oldest first
        assert kept[0].ts <= kept[1].ts
        assert [n.kind for n in await again.notices(game.id, limit=1)] == [POSTS_BACK]
        assert [n.detail for n in await again.notices(other.id)] == ["view_channel"]
    finally:
        await again.close()


async def test_played_content_is_kept_per_server_and_kind(any_store: Store) -> None:
    """A server remembers what it played, by kind, first played first; a key played
    again keeps its first time; a save records its keys in its own transaction."""
    s = any_store
    assert await s.played(GUILD, "betrayal") == []
    await s.record_played(GUILD, "betrayal", ["zeta"])
    await s.record_played(GUILD, "betrayal", ["offspring", "zeta"])  # zeta stays first
    await s.record_played(GUILD + 1, "betrayal", ["the_mummy_walks"])
    await s.record_played(GUILD, "cthulhu", ["zeta"])
    assert await s.played(GUILD, "betrayal") == ["zeta", "offspring"]
    assert await s.played(GUILD + 1, "betrayal") == ["the_mummy_walks"]
    assert await s.played(GUILD, "cthulhu") == ["zeta"]
    table = await s.create(new_table(kind="betrayal"), [], HOST, None)
    await s.save(table, [Event("begins")], expected_version=1, actor_id=HOST, action=None,
                 played=["pay_the_piper", "zeta", "pay_the_piper"])
    assert await s.played(GUILD, "betrayal") == ["zeta", "offspring", "pay_the_piper"]
    with pytest.raises(StaleVersion):  # a refused save records nothing
        await s.save(table, [], expected_version=1, actor_id=HOST, action=None,
                     played=["the_ghost_bride"])
    assert "the_ghost_bride" not in await s.played(GUILD, "betrayal")


async def test_settings_round_trip_through_the_store(any_store: Store,
                                                     backend: Backend) -> None:
    assert GuildSettings.from_dict(await any_store.guild_settings(GUILD)) == GuildSettings()
    wanted = GuildSettings(mod_role=SNOWFLAKE + 5, remind_minutes=10, act_minutes=30,
                           timer_end=AI_PLAYS, game_channels=(CHANNEL, CHANNEL + 1))
    await any_store.set_guild_settings(GUILD, GuildSettings(act_minutes=5).to_dict())
    await any_store.set_guild_settings(GUILD, wanted.to_dict())  # replaced whole
    assert GuildSettings.from_dict(await any_store.guild_settings(GUILD)) == wanted
    assert await any_store.guild_settings(GUILD + 1) == {}
    again = await _reopened(backend)
    try:
        assert GuildSettings.from_dict(await again.guild_settings(GUILD)) == wanted
    finally:
        await again.close()


# ---------------------------------------------------------------- undo points

async def _game(store: Store) -> Table:
    table = Table(channel_id=CHANNEL, guild_id=GUILD, kind="cthulhu", host_id=HOST, seed=1,
                  seats=[Seat("Ann", HOST)], status="active", state={"n": 0})
    return await store.create(table, [], HOST, None)


async def _move(store: Store, table: Table, n: int, *,
                undo: UndoWrite | None = None, kind: str = "move") -> Table:
    table.state = {"n": n}
    write = undo if undo is not None else UndoWrite(keep=True, summary=f"move {n}")
    return await store.save(table, [Event(f"move {n}"), Event("secret", to_player(0))],
                            expected_version=table.version, actor_id=HOST,
                            action={"kind": kind, "args": {}}, undo=write)


async def test_undo_points_are_kept_newest_first_and_trimmed(any_store: Store) -> None:
    table = await _game(any_store)
    for n in range(1, UNDO_KEPT + 6):
        table = await _move(any_store, table, n)
    points = await any_store.undo_points(table.id or 0, limit=100)
    assert len(points) == UNDO_KEPT
    assert [p.summary for p in points[:2]] == [f"move {UNDO_KEPT + 5}", f"move {UNDO_KEPT + 4}"]
    assert points[0].envelope["state"] == {"n": UNDO_KEPT + 4}  # the table before the move
    assert points[0].version == table.version - 1 and points[0].actor_id == HOST
    assert len(await any_store.undo_points(table.id or 0, limit=3)) == 3


async def test_the_save_that_ends_a_game_drops_its_undo_points(any_store: Store) -> None:
    """Issue 19: a finished game is out of undo's reach, so nothing of it stays behind;
    another game's points are left alone."""
    other = await _game(any_store)
    other = await _move(any_store, other, 1)
    other.status = "over"  # ended with a point kept: the point goes
    await any_store.save(other, [], expected_version=other.version, actor_id=None,
                         action=None)
    table = await _game_in(any_store, CHANNEL + 1)
    running = await _game_in(any_store, CHANNEL + 2)
    for n in range(1, UNDO_KEPT + 3):
        table = await _move(any_store, table, n)
        running = await _move(any_store, running, n)
    assert len(await any_store.undo_points(table.id or 0, limit=100)) == UNDO_KEPT  # capped
    assert await any_store.undo_points(other.id or 0) == []
    table.status = "over"
    table = await _move(any_store, table, 99)  # even a move that ends it keeps none
    assert await any_store.undo_points(table.id or 0, limit=100) == []
    assert len(await any_store.undo_points(running.id or 0, limit=100)) == UNDO_KEPT


async def test_a_start_sweeps_what_an_older_bot_left_of_finished_games(
        any_store: Store, backend: Backend) -> None:
    """Games that ended before the save dropped their points lose them at the next start."""
    ended, running = await _game(any_store), await _game_in(any_store, CHANNEL + 5)
    for n in (1, 2):
        ended = await _move(any_store, ended, n)
        running = await _move(any_store, running, n)
    await _raw(any_store, "UPDATE games SET status = 'over' WHERE id = " + str(ended.id))
    assert len(await any_store.undo_points(ended.id or 0)) == 2  # as an older bot left it
    await any_store.close()
    again = await _reopened(backend)
    try:
        assert await again.undo_points(ended.id or 0) == []
        assert len(await again.undo_points(running.id or 0)) == 2
    finally:
        await again.close()


async def _game_in(store: Store, channel: int) -> Table:
    table = Table(channel_id=channel, guild_id=GUILD, kind="cthulhu", host_id=HOST, seed=1,
                  seats=[Seat("Ann", HOST)], status="active", state={"n": 0})
    return await store.create(table, [], HOST, None)


async def _raw(store: Store, sql: str) -> None:
    """A statement past the interface, as a tool (or an older bot) would write."""
    if isinstance(store, SqliteStore):
        await store.execute(sql)
    else:
        await store.pool.execute(sql)  # type: ignore[attr-defined]


async def test_a_refused_save_keeps_no_undo_point(any_store: Store) -> None:
    table = await _game(any_store)
    stale = table.copy()
    await _move(any_store, table, 1)
    with pytest.raises(StaleVersion):
        await _move(any_store, stale, 2)
    assert [p.summary for p in await any_store.undo_points(table.id or 0)] == ["move 1"]


async def test_an_undo_drops_the_points_it_took_back(any_store: Store) -> None:
    table = await _game(any_store)
    for n in (1, 2, 3):
        table = await _move(any_store, table, n)
    points = await any_store.undo_points(table.id or 0)
    await _move(any_store, table, 0, undo=UndoWrite(drop_from=points[1].version),
                kind="gm.undo")
    assert [p.summary for p in await any_store.undo_points(table.id or 0)] == ["move 1"]


async def test_the_moderators_log_has_one_line_per_tool_used(any_store: Store) -> None:
    table = await _game(any_store)
    table = await _move(any_store, table, 1)
    table = await _move(any_store, table, 2, kind="gm.pause")
    table = await _move(any_store, table, 3, kind="table.end")
    table = await any_store.save(table, [Event("no actor")], expected_version=table.version,
                                 actor_id=None, action={"kind": "gm.skip"})
    log = await any_store.moderator_log(table.id or 0)
    assert [(e.text, e.actor_id) for e in log] == [("move 2", HOST), ("move 3", HOST)]


# ---------------------------------------------------------------- turn timers

def _arms(*due: float, user: int = HOST) -> list[TimerArm]:
    kinds = (REMIND_TIMER, END_TIMER)
    return [TimerArm(kinds[n], 0, user, at, START) for n, at in enumerate(due)]


async def _timed(store: Store, due: Sequence[float] = (START + 30, START + 90)) -> Table:
    table = await store.create(new_table(), [], HOST, None)
    return await store.save(table, [], expected_version=1, actor_id=None, action=None,
                            timers=_arms(*due))


async def test_each_save_replaces_the_games_timers_for_its_new_version(
        any_store: Store) -> None:
    table = await _timed(any_store)
    assert {(t.kind, t.version, t.user_id, t.channel_id) for t in
            await any_store.timers_of(table.id or 0)} == {
        (REMIND_TIMER, 2, HOST, CHANNEL), (END_TIMER, 2, HOST, CHANNEL)}
    table = await any_store.save(table, [], expected_version=2, actor_id=None, action=None,
                                 timers=_arms(START + 200, user=OTHER))
    assert [(t.kind, t.version, t.user_id) for t in await any_store.timers_of(table.id or 0)] \
        == [(REMIND_TIMER, 3, OTHER)]
    await any_store.save(table, [], expected_version=3, actor_id=None, action=None)
    assert await any_store.timers_of(table.id or 0) == []  # any save cancels them


async def test_timers_survive_a_reopen_and_come_due_in_order(any_store: Store,
                                                             backend: Backend) -> None:
    await _timed(any_store, (START + 90, START + 30))
    again = await _reopened(backend)
    try:
        assert await again.timers_due(START + 10) == []
        due = await again.timers_due(START + 100)
        assert [(t.kind, t.version, t.channel_id, t.due_at) for t in due] == [
            (END_TIMER, 2, CHANNEL, START + 30), (REMIND_TIMER, 2, CHANNEL, START + 90)]
        assert len(await again.timers_due(START + 100, limit=1)) == 1
    finally:
        await again.close()


async def test_a_timer_is_claimed_once_by_racing_connections(any_store: Store,
                                                             backend: Backend) -> None:
    table = await _timed(any_store)
    timer = {t.kind: t for t in await any_store.timers_of(table.id or 0)}[REMIND_TIMER]
    other = await backend.open()  # another process's connection
    try:
        got = await _race(*(store.claim_timer(timer)
                            for store in (any_store, other, any_store, other)))
    finally:
        await other.close()
    assert [g for g in got if g is not None] == [timer]
    assert await any_store.claim_timer(timer) is None
    assert [t.kind for t in await any_store.timers_of(table.id or 0)] == [END_TIMER]


async def test_a_timer_of_an_older_version_is_never_claimed(any_store: Store) -> None:
    table = await _timed(any_store)
    old = (await any_store.timers_of(table.id or 0))[0]
    await any_store.save(table, [], expected_version=2, actor_id=None, action=None,
                         timers=_arms(START + 30))  # the same kind, armed again for v3
    assert await any_store.claim_timer(old) is None
    stale = TurnTimer(old.game_id, old.kind, 3, old.channel_id, old.seat, old.user_id,
                      old.due_at, old.armed_at)
    assert await any_store.claim_timer(stale) == stale


# ---------------------------------------------------------------- the test server itself

def test_without_postgresql_binaries_the_server_says_why(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What the pg_server fixture turns into a skip (or, under REQUIRE_PG, a failure)."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(pg_server, "SEARCH", (str(tmp_path / "nowhere"),))
    assert pg_server.find_bindir() is None
    with pytest.raises(pg_server.NoServer, match="no PostgreSQL binaries"):
        pg_server.PgServer.start()


async def test_a_saves_moves_are_kept_by_version_and_a_refused_save_keeps_none(
        any_store: Store) -> None:
    """The engine's steps of each save (bot/moves.py), for replays: read back oldest
    first under the version each save made, through the end of the game (which drops
    the undo points, not these); a save that lost its race writes none."""
    table = await _game(any_store)
    stale = table.copy()
    first = [{"seat": 0, "action": {"kind": "move", "args": {"to": 3}}}]
    table = await any_store.save(table, [Event("moved")], expected_version=table.version,
                                 actor_id=HOST, action=None, moves=json.dumps(first))
    with pytest.raises(StaleVersion):
        await any_store.save(stale, [], expected_version=stale.version, actor_id=HOST,
                             action=None, moves='[{"seat": 1, "action": {"kind": "x"}}]')
    table = await any_store.save(table, [], expected_version=table.version, actor_id=HOST,
                                 action=None)  # a save without moves (a pause) has no row
    table.status = "over"
    last = [{"player": 0, "name": "Ann", "ai": True}, {"seat": 1, "action": {"kind": "y"}}]
    table = await any_store.save(table, [], expected_version=table.version, actor_id=None,
                                 action=None, moves=json.dumps(last))
    assert await any_store.moves(table.id or 0) == [(2, first), (4, last)]
    assert await any_store.moves((table.id or 0) + 1000) == []


async def test_each_saves_actor_and_action_are_read_back_once(any_store: Store) -> None:
    """What a game of an earlier release is played again from (bot/replay.py): one row
    per logged save, its actor and action (every event of a save carries the same)."""
    table = await _game(any_store)
    table = await any_store.save(table, [Event("a"), Event("b", to_player(0))],
                                 expected_version=table.version, actor_id=HOST,
                                 action={"kind": "move", "args": {"to": 2}})
    table = await any_store.save(table, [Event("the AI")], expected_version=table.version,
                                 actor_id=None, action=None)
    table = await any_store.save(table, [], expected_version=table.version, actor_id=HOST,
                                 action={"kind": "quiet"})  # no event: not in the log
    assert await any_store.actions(table.id or 0) == [
        (2, HOST, {"kind": "move", "args": {"to": 2}}), (3, None, None)]
