"""No input crashes it (issue 19), below the cogs: /gm undo's steps are checked in the
sessions too (0, negatives, 2^63 are refused in one line, nothing changes), and a
server setting is checked before it is saved, while a bad value already stored (an
older bot's, a hand edit) reads back as the default instead of raising KeyError."""

from __future__ import annotations

import pytest

from bot import table as T
from bot.core.errors import IllegalAction
from bot.guild_settings import REMIND, TIMER_ENDS, GuildSettings
from bot.sessions import Sessions
from bot.settings_cache import SettingsCache
from bot.store import SqliteStore
from bot.table_record import UNDO_KEPT
from bot.texts import say
from cogs.moderation_views import changed, settings_text
from tests.test_sessions import BOB, CHANNEL, GAME, MOD, RecordingOutlet, human_actor, open_game

BAD_STEPS = [0, -1, -(2**63), 2**63, UNDO_KEPT + 1, True, "1", 1.0]


@pytest.mark.parametrize("steps", BAD_STEPS)
async def test_undo_steps_outside_1_to_the_points_kept_are_refused(
        store: SqliteStore, steps: object) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False, ai_chain=False)
    table = await open_game(sessions, BOB)
    seat = GAME.to_act(GAME.load(table.state))
    option = GAME.options(GAME.load(table.state), seat)[0]
    await sessions.act(CHANNEL, human_actor(table, seat), option.action)
    before = await store.load(CHANNEL)
    points = await store.undo_points(before.id or 0)
    with pytest.raises(IllegalAction) as refused:
        await sessions.undo(CHANNEL, MOD, steps)  # type: ignore[arg-type]
    assert refused.value.message == say("errors.undo_steps", most=UNDO_KEPT)
    assert await store.load(CHANNEL) == before
    assert await store.undo_points(before.id or 0) == points
    undone = await sessions.undo(CHANNEL, MOD, 1)  # the one that fits still works
    assert undone.table.version == before.version + 1


def test_undo_steps_in_range_pass() -> None:
    assert [T.undo_steps(n) for n in (1, UNDO_KEPT)] == [1, UNDO_KEPT]


async def test_a_setting_outside_its_values_is_never_saved(store: SqliteStore) -> None:
    cache = SettingsCache(store)
    with pytest.raises(IllegalAction):
        changed(GuildSettings(), mod_role=None, remind_minutes=None, act_minutes=None,
                timer_end="view", game_channel=None)
    with pytest.raises(IllegalAction):
        changed(GuildSettings(), mod_role=None, remind_minutes=-5, act_minutes=None,
                timer_end=None, game_channel=None)
    for bad in (GuildSettings(timer_end="view"), GuildSettings(act_minutes=-1),
                GuildSettings(remind_minutes=10**9)):
        with pytest.raises(IllegalAction):
            await cache.put(7, bad)
    assert await store.guild_settings(7) in ({}, None)
    assert await cache.get(7) == GuildSettings()


async def test_a_bad_stored_value_reads_back_as_the_default(store: SqliteStore) -> None:
    await store.set_guild_settings(7, {"timer_end": "view", "act_minutes": 5})
    settings = await SettingsCache(store).get(7)
    assert settings.timer_end == REMIND
    assert say(f"settings.end_{REMIND}") in settings_text(settings)
    # and an object that never went through the store still shows: the default's words
    assert settings_text(GuildSettings(act_minutes=5, timer_end="view"))
    assert {GuildSettings(timer_end=end).misfit() for end in TIMER_ENDS} == {None}
