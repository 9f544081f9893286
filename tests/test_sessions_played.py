"""Sessions remember what a server has played (bot/games/base.py, PLAYED): Betrayal's
haunt is recorded for the server when it begins, and the server's next game gets it in
its setup options, so seed 003's Selecting the Haunt swaps it for another."""

from __future__ import annotations

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.games.base import PLAYED
from bot.games.betrayal.haunt_roll import chart
from bot.sessions import Sessions
from bot.store import SqliteStore, Table
from tests.test_betrayal_engine_helpers import deck_top, dice, put, stack_top
from tests.test_sessions import RecordingOutlet

__all__ = ["dice"]

BETRAYAL = games.get("betrayal")
GUILD, OTHER_GUILD = 9, 10
HOST = T.Actor(100, "Hana")
SPEAR_ROOM = "abandoned_room"  # seed 003: the Spear there gives It's Alive!


async def _started(sessions: Sessions, channel: int, guild: int) -> Table:
    await sessions.open(channel, guild, HOST, "betrayal", 5, {"today": "10-01"})
    for _ in range(2):
        await sessions.act(channel, HOST, Action(T.ADD_AI))
    outcome = await sessions.act(channel, HOST, Action(T.START))
    return outcome.table


async def _reveal(sessions: Sessions, store: SqliteStore, channel: int, dice: list[int],
                  other_room: str | None = None) -> Table:
    """Rig the stored game so the host's explorer finds the Spear in the Abandoned Room
    and the haunt roll fails, then play that turn through the sessions layer."""
    table = await store.load(channel)
    assert table is not None and table.state is not None
    state = BETRAYAL.load(table.state)
    state.turn.seat = 0  # the host's seat
    state.omens_drawn = 3
    stack_top(state, SPEAR_ROOM)
    deck_top(state, "omen", "spear")
    if other_room is not None:
        put(state, other_room, "upper", 2, 2)
    T.set_state(table, BETRAYAL, state)
    table = await store.save(table, [], expected_version=table.version, actor_id=None,
                             action=None, ai_turn=False)
    await sessions.act(channel, HOST, Action("explore", {"dir": "N"}))
    while True:
        table = await store.load(channel)
        assert table is not None
        state = T.game_state(table)
        if state.pending is None:
            break
        option = BETRAYAL.options(state, state.pending.seat)[0]
        if table.seats[state.pending.seat].ai:
            await sessions.ai_step(channel)
        else:
            await sessions.act(channel, HOST, option.action)
    dice[:] = [0, 0, 1, 0, 1, 1]  # 3 < 4 omens: the haunt begins
    await sessions.act(channel, HOST, Action("end_turn", {}))
    latest = await store.load_latest(channel)
    assert latest is not None
    return latest


async def test_a_second_game_in_the_server_avoids_the_first_games_haunt(
        store: SqliteStore, dice: list[int]) -> None:
    sessions = Sessions(store, RecordingOutlet(), ai_chain=False, render=False)
    first = await _started(sessions, 500, GUILD)
    assert PLAYED not in first.options  # the server has played nothing yet
    first = await _reveal(sessions, store, 500, dice)
    assert T.game_state(first).haunt.key == "its_alive"
    assert await store.played(GUILD, "betrayal") == ["its_alive"]  # saved with the turn

    other = next(r for r, h in sorted(chart()["spear"].items()) if h != "its_alive")
    second = await _started(sessions, 501, GUILD)
    assert second.options[PLAYED] == ["its_alive"]
    assert T.game_state(second).played == ["its_alive"]
    second = await _reveal(sessions, store, 501, dice, other_room=other)
    assert T.game_state(second).haunt.key == chart()["spear"][other] != "its_alive"
    assert await store.played(GUILD, "betrayal") == ["its_alive", chart()["spear"][other]]

    elsewhere = await _started(sessions, 502, OTHER_GUILD)  # another server: its own list
    assert PLAYED not in elsewhere.options
    elsewhere = await _reveal(sessions, store, 502, dice, other_room=other)
    assert T.game_state(elsewhere).haunt.key == "its_alive"
