"""The bot's permissions taken away in one channel mid-game while other channels play:
through the real discord.py against the fake Discord, which refuses as Discord does
(tests/fakediscord/permissions.py: no View Channel, 403 Missing Access 50001; no Send
Messages, 403 Missing Permissions 50013).

What must hold (README): "Many channels play at once: nothing one channel does may fail
or slow another"; "it says why when it cannot play": the player whose click cannot be
shown reads why, privately (an interaction's answer goes through whatever the bot may
do in the channel), the move is saved and owed, and shown once when the permission is
back.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.texts import say
from tests.channel_trouble_helpers import (
    delivered,
    games,
    others_play,
    press_first,
    shown,
)
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, turn_posts
from tests.fakediscord import FakeDiscord
from tests.fakediscord.permissions import ADMINISTRATOR, bits


def _refused(channel: int, missing: str) -> str:
    return say("permissions.refused", channel=f"<#{channel}>", missing=missing)


@pytest.mark.parametrize(("denied", "missing"), [("view_channel", "View Channel"),
                                                 ("send_messages", "Send Messages")])
async def test_a_permission_taken_in_one_channel_is_said_there_and_others_play(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, denied: str, missing: str) -> None:
    """The moderators of one channel take a permission from the bot while both other
    channels play: the troubled channel's mover reads why, privately; the others' moves
    are answered and shown at once, side by side with it; given back, the owed move is
    shown once and the game goes on."""
    bot, (troubled, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, troubled.channel)
    fd.set_bot_permissions(troubled.channel, deny=[denied])
    await fd.permissions_reached(bot, troubled.channel)

    clicked, _ = await asyncio.gather(
        press_first(fd, troubled.mover(fd), latest_turn(fd, troubled.channel)),
        others_play(fd, bot, others, rounds=2))
    await fd.settle()
    assert clicked.ephemeral_texts()[-1] == _refused(troubled.channel, missing)
    assert not await delivered(bot, troubled.channel)  # saved and owed
    assert turn_posts(fd, troubled.channel) == posts  # nothing half shown
    await others_play(fd, bot, others, rounds=1)  # still playing, the outage open

    fd.clear_bot_permissions(troubled.channel)
    await fd.permissions_reached(bot, troubled.channel)
    assert await bot.resume_games(ai_turns=False) == 1
    await shown(bot, troubled.channel)
    await fd.settle()
    assert turn_posts(fd, troubled.channel) == posts + 1  # the owed move, once
    again = await press_first(fd, troubled.mover(fd), latest_turn(fd, troubled.channel))
    await shown(bot, troubled.channel)
    assert set(again.ephemeral_texts()) <= {say("view.step_done")}
    assert fd.nonce_repeats == 0


def _deny_unannounced(fd: FakeDiscord, channel: int, name: str) -> None:
    """The bot's overwrite in the channel denies `name`, and the gateway says nothing
    (its word lost, or not come yet): the bot's cache still says it may."""
    fd.bot_permissions &= ~ADMINISTRATOR
    fd.channels[channel].permission_overwrites = [
        {"id": str(fd.bot_user.id), "type": 1, "allow": "0", "deny": str(bits([name]))}]


@pytest.mark.parametrize(("denied", "code"), [("view_channel", 50001),
                                              ("send_messages", 50013)])
async def test_a_permission_taken_unseen_by_the_cache_is_said_on_the_click(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, denied: str, code: int) -> None:
    """A permission taken while the gateway's word of it has not reached the bot (its
    cache still says it may post): the mover's click is answered and says why (the
    interaction carries the bot's rights there, or Discord's refusal does), the move is
    saved and owed, and the other channels play on meanwhile, side by side with it."""
    bot, (troubled, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, troubled.channel)
    _deny_unannounced(fd, troubled.channel, denied)
    clicked, _ = await asyncio.gather(
        press_first(fd, troubled.mover(fd), latest_turn(fd, troubled.channel)),
        others_play(fd, bot, others, rounds=2))
    await fd.settle()
    said = clicked.ephemeral_texts()
    assert said and str(troubled.channel) in said[-1], said  # why, privately
    assert not await delivered(bot, troubled.channel)
    refused = [e[2]["code"] for e in fd.errors if str(troubled.channel) in e[0]]
    assert set(refused) <= {code}, fd.errors  # Discord's own word for it, if asked
    assert turn_posts(fd, troubled.channel) <= posts + 1

    fd.channels[troubled.channel].permission_overwrites = []
    assert await bot.resume_games(ai_turns=False) == 1
    await shown(bot, troubled.channel)
    await fd.settle()
    again = await press_first(fd, troubled.mover(fd), latest_turn(fd, troubled.channel))
    await shown(bot, troubled.channel)
    assert set(again.ephemeral_texts()) <= {say("view.step_done")}
    await others_play(fd, bot, others, rounds=1)
