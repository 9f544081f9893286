"""A server's settings never break on odd stored values (their round trip through each
store is in tests/test_store_contract.py)."""

from __future__ import annotations

from bot.guild_settings import MAX_MINUTES, REMIND, GuildSettings
from bot.settings_cache import SettingsCache
from bot.store import open_store


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
