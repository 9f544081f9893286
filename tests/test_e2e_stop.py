"""SIGTERM while a click is under way: the real bot, in its own process, against the
fake Discord, stopped while the click's edit of the live message is in flight.

The stop waits for the click (Sessions.drain, a bounded wait): its move is played,
shown and marked delivered before the store closes, and a normal stop logs no ERROR and
no traceback. (Once SIGTERM has stopped the gateway's reading, later clicks reach the
restarted bot; one already read but not yet begun is told calmly that the bot is
restarting: tests/test_sessions_drain.py.)
After the restart nothing is owed (nothing sent again) and the newest controls work.
"""

from __future__ import annotations

import asyncio
import signal

from tests.e2e_helpers import latest_turn, press_move, to_move, turn_posts
from tests.fakediscord import FakeDiscord
from tests.test_e2e_crash import BotProcess, click_first, two_seat_lobby, wait_for_turn_post
from tests.test_e2e_crash import bot as bot  # the fixture


async def test_sigterm_during_a_click_answers_it_then_stops_cleanly(
        fd: FakeDiscord, bot: BotProcess) -> None:
    seated = await two_seat_lobby(fd, bot, seed=8)
    channel, alice, by_id, lobby, start_id = (seated.channel, seated.alice, seated.by_id,
                                              seated.message, seated.start_id)
    await (await fd.click(alice, lobby, start_id)).wait(15, settle=False)
    first = await wait_for_turn_post(fd, channel, 1)
    posts = turn_posts(fd, channel)
    mover = by_id[to_move(first) or 0]

    hold = fd.hold_next_edit(channel)  # the move's edit waits at Discord
    clicked = await press_move(fd, mover, first)
    await asyncio.wait_for(hold.reached.wait(), 20)
    assert bot.proc is not None
    bot.proc.send_signal(signal.SIGTERM)
    await fd.wait_until(lambda: "waiting for 1 interaction" in bot.logs[-1].read_text(),
                        timeout=10, what="the stop waiting for the click")
    assert bot.proc.returncode is None
    hold.release.set()
    await asyncio.wait_for(bot.proc.wait(), 15)
    await clicked.wait(15, settle=False)
    assert turn_posts(fd, channel) == posts + 1  # the move was shown before the stop
    assert bot.errors() == []
    bot.proc = None

    repeats = fd.nonce_repeats
    await bot.start()
    await fd.settle(quiet=0.5, timeout=20)
    assert fd.nonce_repeats == repeats and turn_posts(fd, channel) == posts + 1  # none owed
    live = latest_turn(fd, channel)
    await click_first(fd, by_id[to_move(live) or 0], live)
    await fd.wait_until(lambda: turn_posts(fd, channel) == posts + 2, timeout=20,
                        what="the next move shown")
