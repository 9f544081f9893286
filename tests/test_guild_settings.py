"""A server's settings never break on odd stored values (their round trip through each
store is in tests/test_store_contract.py)."""

from __future__ import annotations

from bot.guild_settings import MAX_MINUTES, REMIND, GuildSettings


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
