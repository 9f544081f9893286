"""A server's settings never break on odd stored values (their round trip through each
store is in tests/test_store_contract.py)."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.guild_settings import MAX_MINUTES, REMIND, GuildSettings
from bot.settings_cache import SettingsCache
from bot.store import open_store
from bot.texts import say
from cogs.moderation_views import changed, settings_text


def test_odd_stored_values_fall_back_to_defaults() -> None:
    odd = GuildSettings.from_dict({"mod_role": "x", "remind_minutes": -3, "act_minutes": 10**9,
                                   "timer_end": "explode", "game_channels": [1, "2", None],
                                   "unknown": True})
    assert odd == GuildSettings(act_minutes=MAX_MINUTES, timer_end=REMIND, game_channels=(1,))


def test_game_channels_allow_their_threads() -> None:
    settings = GuildSettings(game_channels=(1,))
    assert settings.game_allowed_in(1)
    assert settings.game_allowed_in(99, parent_id=1)
    assert not settings.game_allowed_in(2)
    assert GuildSettings().game_allowed_in(2)


async def test_a_change_made_by_another_process_shows_after_the_ttl(tmp_path) -> None:
    """Two processes on one database: each keeps its own copy for TTL seconds only."""
    now = [0.0]
    store = await open_store(tmp_path / "s.sqlite3")
    try:
        here = SettingsCache(store, clock=lambda: now[0], ttl=30.0)
        there = SettingsCache(store, clock=lambda: now[0], ttl=30.0)
        assert (await here.get(7)).mod_role is None
        await there.put(7, GuildSettings(mod_role=5))
        now[0] = 29.0
        assert (await here.get(7)).mod_role is None  # still its own copy
        now[0] = 30.0
        assert (await here.get(7)).mod_role == 5  # read again
        assert here.known(7) == GuildSettings(mod_role=5)
    finally:
        await store.close()


def test_the_play_by_play_thread_is_off_until_a_server_turns_it_on() -> None:
    assert GuildSettings().play_by_play is False
    assert GuildSettings().to_dict()["play_by_play"] is False
    on = GuildSettings(play_by_play=True)
    assert GuildSettings.from_dict(on.to_dict()) == on
    assert settings_text(on) != settings_text(GuildSettings())
    assert say("settings.play_by_play_on") in settings_text(on)
    assert say("settings.play_by_play_off") in settings_text(GuildSettings())


@pytest.mark.parametrize("stored", ["yes", 1, "true", None, [True], {"on": True}])
def test_a_play_by_play_no_bot_wrote_reads_back_as_off(stored: object) -> None:
    """Only a real true turns it on: 1 or "true" (a hand edit, another bot) is off, and
    the other settings beside it are read as ever."""
    read = GuildSettings.from_dict({"play_by_play": stored, "remind_minutes": 5})
    assert read == GuildSettings(remind_minutes=5)
    assert read.misfit() is None


def test_a_play_by_play_that_is_not_a_bool_is_never_saved() -> None:
    assert GuildSettings(play_by_play=True).misfit() is None
    for odd in (1, "on", None):
        assert GuildSettings(play_by_play=odd).misfit() == "play_by_play"  # type: ignore[arg-type]


def test_gm_settings_turns_the_play_by_play_on_and_off_alone() -> None:
    """One call changes it and nothing else; a value outside on/off (a stale
    registration) is refused before anything is saved."""
    current = GuildSettings(remind_minutes=5, game_channels=(3,))
    on = changed(current, mod_role=None, remind_minutes=None, act_minutes=None,
                 timer_end=None, game_channel=None, play_by_play="on")
    assert on == GuildSettings(remind_minutes=5, game_channels=(3,), play_by_play=True)
    assert changed(on, mod_role=None, remind_minutes=None, act_minutes=None,
                   timer_end=None, game_channel=None, play_by_play="on") == on  # not a toggle
    off = changed(on, mod_role=None, remind_minutes=None, act_minutes=None,
                  timer_end=None, game_channel=None, play_by_play="off")
    assert off == current
    with pytest.raises(IllegalAction):
        changed(current, mod_role=None, remind_minutes=None, act_minutes=None,
                timer_end=None, game_channel=None, play_by_play="maybe")


async def test_the_play_by_play_setting_survives_the_store(tmp_path) -> None:
    store = await open_store(tmp_path / "s.sqlite3")
    try:
        await SettingsCache(store).put(7, GuildSettings(play_by_play=True))
        assert (await SettingsCache(store).get(7)).play_by_play is True
        with pytest.raises(IllegalAction):
            await SettingsCache(store).put(8, GuildSettings(play_by_play="on"))  # type: ignore[arg-type]
        assert await store.guild_settings(8) in ({}, None)
    finally:
        await store.close()
