"""One channel whose Discord answers come 2 s late, while other channels play: through
the real discord.py against the fake Discord (`fd.faults.slow`, tests/fakediscord/faults.py).

What must hold (README): "Many channels play at once: nothing one channel does may fail
or slow another". Discord's deadline for a click's first answer is 3 s ("you must send
an initial response within 3 seconds", developer docs, "Receiving and Responding"), so a
slow channel's click is still answered, and its move is shown, once, when Discord
answers; meanwhile every other channel's moves are answered and shown at once.
"""

from __future__ import annotations

import asyncio

from tests.channel_trouble_helpers import (
    delivered,
    games,
    others_play,
    press_first,
    quiet,
    shown,
)
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, turn_posts
from tests.fakediscord import FakeDiscord

SLOW = 2.0


async def test_a_slow_channel_keeps_no_other_channel_waiting(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A move clicked in the slow channel waits on Discord; two rounds of moves in the
    two other channels are answered and shown meanwhile, each well under the 2 s; the
    slow one is answered within Discord's 3 s and shown once."""
    bot, (slow, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, slow.channel)
    fd.faults.slow(slow.channel, SLOW)
    waiting = asyncio.create_task(
        press_first(fd, slow.mover(fd), latest_turn(fd, slow.channel)))
    await fd.wait_until(lambda: fd.faults.slowed_requests > 0, timeout=5,
                        what="the slow channel's first request")
    await others_play(fd, bot, others, rounds=2)
    assert not waiting.done()  # the slow channel still waits on Discord
    handle = await asyncio.wait_for(waiting, 10)
    assert quiet(handle)
    assert fd.late_answers == []  # answered within Discord's 3 s
    await shown(bot, slow.channel)
    assert turn_posts(fd, slow.channel) == posts + 1  # shown once
    fd.faults.slow(slow.channel, 0)
    await fd.settle()
    for game in (slow, *others):
        assert await delivered(bot, game.channel)
    assert fd.nonce_repeats == 0


async def test_a_slow_channel_s_turn_timer_keeps_no_other_channel_waiting(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The slow channel's owed move goes out from the 30 s retry (not a click): the
    other channels' clicks are not held behind it."""
    bot, (slow, *others) = await games(fd, start_hauntkeeper)
    fd.hold_next_edit(slow.channel).drop()  # the move's post is refused: owed
    handle = await press_first(fd, slow.mover(fd), latest_turn(fd, slow.channel))
    await fd.settle()
    assert not await delivered(bot, slow.channel), handle
    fd.faults.slow(slow.channel, SLOW)
    retry = asyncio.create_task(bot.resume_games(ai_turns=False))
    await fd.wait_until(lambda: fd.faults.slowed_requests > 0, timeout=5,
                        what="the slow channel's retry reached Discord")
    await others_play(fd, bot, others, rounds=2)
    assert await asyncio.wait_for(retry, 15) == 1
    await shown(bot, slow.channel)
    fd.faults.slow(slow.channel, 0)
    await fd.settle()
