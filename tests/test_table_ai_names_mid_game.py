"""An AI seat handed a seat mid-game takes its name in the language of the server's
public posts, as one added in the lobby does (tests/test_e2e_chinese_server_polish.py).

RULES.md / README: one person may play two explorers; "if one turns traitor, the other
passes to a hero's player, or to the AI". README, Languages: a game's public posts read
in the server's language, and the AI seats' names are among them. A split team's seat
handed to the AI was named in English on a Chinese server, whichever way the step that
split the teams came: a player's move, the AI chain, a turn timer's end.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Sessions
from bot.store import END_TIMER, SqliteStore, Table
from bot.texts import ai_names
from tests.test_sessions import CHANNEL, GUILD, RecordingOutlet
from tests.test_timers import Clock

HANA, BO = T.Actor(1, "hana"), T.Actor(2, "bo")
# Seeds whose first seat to act is hana's second (a player's move), the lobby's AI
# seat (the AI chain) and hana's first (a turn timer's end), for this lobby.
BY_MOVE, BY_AI, BY_TIMER = 1, 7, 4


def _chinese_names() -> list[str]:
    with speaking(CHINESE):
        return ai_names()


async def _started(sessions: Sessions, seed: int) -> Table:
    """hana and bo two explorers each, one AI seat; hana's second explorer is the
    traitor (the sides set up directly), so hana's first must go: bo, a hero, holds two
    already, so it goes to the AI."""
    await sessions.open(CHANNEL, GUILD, HANA, "betrayal", seed)
    await sessions.act(CHANNEL, HANA, Action(T.SECOND))
    await sessions.act(CHANNEL, BO, Action(T.JOIN))
    await sessions.act(CHANNEL, BO, Action(T.SECOND))
    await sessions.act(CHANNEL, HANA, Action(T.ADD_AI))
    await sessions.act(CHANNEL, HANA, Action(T.START))
    table = await sessions.store.load(CHANNEL)
    assert table is not None
    return table


async def _by_move(sessions: Sessions, table: Table, clock: Clock) -> None:
    prompt = sessions.prompt(table)
    assert prompt is not None and prompt.user_id == HANA.user_id
    await sessions.act(CHANNEL, HANA, prompt.options[0].action, version=table.version)


async def _by_ai(sessions: Sessions, table: Table, clock: Clock) -> None:
    """The AI chain after the start has played already."""


async def _by_timer(sessions: Sessions, table: Table, clock: Clock) -> None:
    clock.advance(30)
    [end] = [t for t in await sessions.store.timers_of(table.id or 0) if t.kind == END_TIMER]
    await sessions.fire_timer(end)


Way = Callable[[Sessions, Table, Clock], Awaitable[None]]


@pytest.mark.parametrize(("seed", "way"), [(BY_MOVE, _by_move), (BY_AI, _by_ai),
                                           (BY_TIMER, _by_timer)],
                         ids=["a player's move", "the AI chain", "a turn timer"])
async def test_a_seat_split_off_to_the_ai_takes_a_name_in_the_servers_language(
        store: SqliteStore, monkeypatch: pytest.MonkeyPatch, seed: int, way: Way) -> None:
    monkeypatch.setattr(type(games.get("betrayal")), "teams", lambda self, state: {
        "heroes": [0, 2, 3, 4], "traitor": [1]})
    await store.set_guild_settings(GUILD, GuildSettings(
        language=CHINESE, remind_minutes=None, act_minutes=30,
        timer_end=AI_PLAYS).to_dict())
    clock = Clock()
    sessions = Sessions(store, RecordingOutlet(), render=False, clock=clock)
    table = await _started(sessions, seed)
    await way(sessions, table, clock)
    after = await store.load(CHANNEL)
    assert after is not None
    assert after.seats[0].ai and after.seats_of(HANA.user_id or 0) == [1]
    chinese = _chinese_names()
    assert after.seats[4].name == chinese[0]  # the lobby's AI seat
    assert after.seats[0].name == chinese[1], after.seats[0].name
    assert T.game_state(after).players[0] == chinese[1]
    with speaking(ENGLISH):
        assert after.seats[0].name not in ai_names()
