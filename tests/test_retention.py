"""bot/retention.py: the keep setting of /gm settings, on both backends. A server that
keeps its finished games 30 days loses each one 30 days after it ended, and no sooner;
the default keeps them; a setting no bot wrote keeps them too; another shard's server
is left to its own process."""

from __future__ import annotations

import time

import pytest

from bot import retention
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.guild_settings import GuildSettings
from bot.store import GameResult, SeatResult, Store
from bot.texts import say
from cogs.moderation_views import changed, settings_text
from tests.test_store_contract import CHANNEL, GUILD, HOST, new_table

DAY = retention.DAY


async def _finished(store: Store, guild: int, channel: int) -> int:
    table = await store.create(new_table(channel, guild_id=guild), [Event("hi")], HOST, None)
    table.status = "over"
    result = GameResult(table.id or 0, guild, channel, "cthulhu", 1, "", "won", "{}", "story",
                        [SeatResult(0, HOST, "Ann", False, "solo", True)])
    await store.save(table, [Event("bye")], expected_version=1, actor_id=HOST, action=None,
                     result=result)
    return table.id or 0


async def test_a_server_keeping_30_days_loses_its_games_after_30_days(
        any_store: Store) -> None:
    keeping, forever, odd = GUILD, GUILD + 1, GUILD + 2
    await any_store.set_guild_settings(keeping, GuildSettings(keep_days=30).to_dict())
    await any_store.set_guild_settings(forever, GuildSettings().to_dict())
    await any_store.set_guild_settings(odd, {"keep_days": 1})  # not a choice: kept
    games = {g: await _finished(any_store, g, CHANNEL + n)
             for n, g in enumerate((keeping, forever, odd))}
    now = time.time()
    assert await retention.sweep(any_store, now + 29 * DAY, lambda g: True) == 0
    assert await retention.sweep(any_store, now + 31 * DAY, lambda g: g != keeping) == 0
    assert await retention.sweep(any_store, now + 31 * DAY, lambda g: True) == 1
    assert await any_store.load_game(games[keeping]) is None
    assert await any_store.result(games[keeping]) is None
    assert await any_store.load_game(games[forever]) is not None
    assert await any_store.result(games[odd]) is not None
    assert await retention.sweep(any_store, now + 3650 * DAY, lambda g: True) == 0


def test_the_keep_setting_is_one_of_its_choices_and_shown() -> None:
    current = GuildSettings()
    assert current.keep_days is None
    assert say("settings.keep_forever") in settings_text(current)
    new = changed(current, mod_role=None, remind_minutes=None, act_minutes=None,
                  timer_end=None, game_channel=None, keep="90")
    assert new.keep_days == 90 and new.misfit() is None
    assert say("settings.keep", days=90) in settings_text(new)
    assert changed(new, mod_role=None, remind_minutes=None, act_minutes=None,
                   timer_end=None, game_channel=None, keep="forever").keep_days is None
    with pytest.raises(IllegalAction):
        changed(current, mod_role=None, remind_minutes=None, act_minutes=None,
                timer_end=None, game_channel=None, keep="7")
    assert GuildSettings.from_dict({"keep_days": True}).keep_days is None
    assert GuildSettings.from_dict(new.to_dict()) == new
