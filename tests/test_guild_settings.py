"""A server's settings survive the store and never break on odd stored values."""

from __future__ import annotations

from bot.guild_settings import AI_PLAYS, MAX_MINUTES, REMIND, GuildSettings
from bot.store import open_store


async def test_settings_round_trip_through_the_store(tmp_path) -> None:
    store = await open_store(tmp_path / "s.sqlite3")
    try:
        assert GuildSettings.from_dict(await store.guild_settings(7)) == GuildSettings()
        wanted = GuildSettings(mod_role=5, remind_minutes=10, act_minutes=30,
                               timer_end=AI_PLAYS, game_channels=(11, 12))
        await store.set_guild_settings(7, wanted.to_dict())
        assert GuildSettings.from_dict(await store.guild_settings(7)) == wanted
        assert await store.guild_settings(8) == {}
    finally:
        await store.close()
    reopened = await open_store(tmp_path / "s.sqlite3")
    try:
        assert GuildSettings.from_dict(await reopened.guild_settings(7)).act_minutes == 30
    finally:
        await reopened.close()


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
