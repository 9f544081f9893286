"""Forgetting a server the bot left, on both backends: a departure stored with its due
time (so a restart in between changes nothing), cancelled by a return, and a deletion
that takes every row of that server's games and what it kept by server, and nothing of
another server's. And the retention sweep (/gm settings keep): a server's finished games
past their time, every row of them, and nothing of a running game or another server."""

from __future__ import annotations

import time

from bot.core.events import PUBLIC, Event
from bot.store import (
    POSTS_REFUSED,
    REMIND_TIMER,
    GameResult,
    LiveMessage,
    SeatResult,
    Store,
    TimerArm,
    UndoWrite,
)
from tests.conftest import Backend
from tests.test_store_contract import CHANNEL, GUILD, HOST, OTHER, START, new_table

OTHER_GUILD = GUILD + 1
# Every table that keeps something of a server, and how its rows of GUILD are found.
_OF_GAMES = "game_id IN (SELECT id FROM games WHERE guild_id = {g})"
KEPT = {
    "games": "guild_id = {g}",
    "events": _OF_GAMES,
    "team_threads": _OF_GAMES,
    "thread_members": _OF_GAMES,
    "undo_points": _OF_GAMES,
    "moves": _OF_GAMES,
    "turn_timers": _OF_GAMES,
    "live_messages": _OF_GAMES,
    "bot_notices": _OF_GAMES,
    "game_results": _OF_GAMES,
    "result_seats": _OF_GAMES,
    "played_content": "guild_id = {g}",
    "guild_settings": "guild_id = {g}",
    "guild_departures": "guild_id = {g}",
}


async def _sql(backend: Backend, store: Store, sql: str) -> list[tuple[int, ...]]:
    if backend.name == "postgres":
        return [tuple(r) for r in await store.pool.fetch(sql)]  # type: ignore[attr-defined]
    return [tuple(r) for r in await store.execute(sql)]  # type: ignore[attr-defined]


async def _count(backend: Backend, store: Store, table: str, guild: int) -> int:
    """Rows of `guild`'s games found by the games' ids, fetched once: after the games
    are gone a subquery on them finds nothing, and would hide rows left behind."""
    where = KEPT[table].format(g=guild)
    if where == _OF_GAMES.format(g=guild):
        if guild not in _GAME_IDS:
            rows = await _sql(backend, store, f"SELECT id FROM games WHERE guild_id = {guild}")
            _GAME_IDS[guild] = [r[0] for r in rows]
        where = f"game_id IN ({', '.join(map(str, _GAME_IDS[guild])) or 'NULL'})"
    return int((await _sql(backend, store, f"SELECT COUNT(*) FROM {table} WHERE {where}"))
               [0][0])


_GAME_IDS: dict[int, list[int]] = {}  # each server's game ids, as the fixture made them


async def _a_server_with_everything(store: Store, guild: int, channel: int) -> None:
    """Two games (one over, one running) with events, their moves, an undo point, a
    timer, a live message and a team thread; settings, played content and a pending
    departure."""
    over = await store.create(new_table(channel, guild_id=guild), [Event("hi")], HOST, None)
    over.status = "over"
    result = GameResult(over.id or 0, guild, channel, "cthulhu", 3, "", "Ann won", "{}",
                        "The story", [SeatResult(0, HOST, "Ann", False, "solo", True, 5)])
    await store.save(over, [Event("bye")], expected_version=1, actor_id=HOST, action=None,
                     result=result, moves='[{"seat": 0, "action": {"kind": "win"}}]')
    game = await store.create(new_table(channel, guild_id=guild), [Event("hi")], HOST, None)
    assert game.id is not None
    game.status = "active"
    await store.save(game, [Event("moved", audience=PUBLIC)], expected_version=1,
                     actor_id=HOST, action={"kind": "move"}, undo=UndoWrite(keep=True,
                                                                          summary="m"),
                     timers=[TimerArm(REMIND_TIMER, 0, HOST, START + 60, START)],
                     played=["h1"], moves='[{"seat": 0, "action": {"kind": "move"}}]')
    await store.set_live(game.id, LiveMessage(message_id=OTHER))
    await store.add_notice(game.id, POSTS_REFUSED, "send_messages")
    await store.set_thread(game.id, "heroes", OTHER + 1)
    await store.add_thread_member(game.id, OTHER + 1, HOST)
    await store.set_guild_settings(guild, {"remind_minutes": 5})
    await store.record_played(guild, "betrayal", ["h2"])
    await store.schedule_forget(guild, START + 100)


async def test_forgetting_a_server_deletes_all_of_it_and_nothing_else(
        any_store: Store, backend: Backend) -> None:
    await _a_server_with_everything(any_store, GUILD, CHANNEL)
    await _a_server_with_everything(any_store, OTHER_GUILD, CHANNEL + 1)
    _GAME_IDS.clear()  # this store's games (a test per backend)
    before = {t: await _count(backend, any_store, t, GUILD) for t in KEPT}
    assert all(before.values()), before  # the fixture fills every table
    kept = {t: await _count(backend, any_store, t, OTHER_GUILD) for t in KEPT}

    assert await any_store.forget_guild(GUILD) == 2
    assert {t: await _count(backend, any_store, t, GUILD) for t in KEPT} \
        == dict.fromkeys(KEPT, 0)
    assert {t: await _count(backend, any_store, t, OTHER_GUILD) for t in KEPT} == kept
    assert await any_store.load(CHANNEL) is None and await any_store.load(CHANNEL + 1)
    assert await any_store.guild_settings(GUILD) == {}
    assert await any_store.forget_guild(GUILD) == 0  # twice is harmless


async def test_a_departure_is_due_at_its_time_survives_a_reopen_and_a_return_cancels_it(
        any_store: Store, backend: Backend) -> None:
    await any_store.schedule_forget(GUILD, START + 100)
    await any_store.schedule_forget(OTHER_GUILD, START + 50)
    assert await any_store.forgets_due(START + 99) == [OTHER_GUILD]
    await any_store.schedule_forget(OTHER_GUILD, START + 500)  # left again: a new time
    assert await any_store.forgets_due(START + 100) == [GUILD]
    reopened = await backend.open()
    try:
        assert await reopened.forgets_due(START + 1000) == [GUILD, OTHER_GUILD]
        assert await reopened.cancel_forget(GUILD) is True
        assert await reopened.cancel_forget(GUILD) is False  # nothing was due any more
    finally:
        await reopened.close()
    assert await any_store.forgets_due(START + 1000) == [OTHER_GUILD]


async def _game_rows(backend: Backend, store: Store, game_id: int) -> dict[str, int]:
    """Every table's rows of one game (the games table by its id)."""
    counts = {}
    for table, where in KEPT.items():
        if where == _OF_GAMES:
            sql = f"SELECT COUNT(*) FROM {table} WHERE game_id = {game_id}"
        elif table == "games":
            sql = f"SELECT COUNT(*) FROM games WHERE id = {game_id}"
        else:
            continue
        counts[table] = int((await _sql(backend, store, sql))[0][0])
    return counts


async def test_the_sweep_deletes_a_servers_finished_games_past_their_time_and_nothing_else(
        any_store: Store, backend: Backend) -> None:
    await _a_server_with_everything(any_store, GUILD, CHANNEL)
    await _a_server_with_everything(any_store, OTHER_GUILD, CHANNEL + 1)
    ids = [r[0] for r in await _sql(backend, any_store,
                                    f"SELECT id FROM games WHERE guild_id = {GUILD} ORDER BY id")]
    over, running = ids
    others = {g: await _game_rows(backend, any_store, g) for g in
              [r[0] for r in await _sql(backend, any_store, "SELECT id FROM games WHERE "
                                        f"guild_id = {OTHER_GUILD}")]}
    before_running = await _game_rows(backend, any_store, running)
    assert (await _game_rows(backend, any_store, over))["game_results"] == 1
    assert await any_store.sweep_finished(GUILD, time.time() - 3600) == 0  # not yet due
    assert await any_store.result(over) is not None
    assert await any_store.sweep_finished(GUILD, time.time() + 1) == 1
    assert await _game_rows(backend, any_store, over) == dict.fromkeys(before_running, 0)
    assert await _game_rows(backend, any_store, running) == before_running
    assert {g: await _game_rows(backend, any_store, g) for g in others} == others
    assert await any_store.result(over) is None and await any_store.results(GUILD) == []
    assert len(await any_store.results(OTHER_GUILD)) == 1
    assert await any_store.played(GUILD, "betrayal")  # what the server played stays
