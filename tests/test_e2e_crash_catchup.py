"""kill -9 after Discord made the post but before the bot heard back, then a player
clicking the newest controls in the first moments of the restarted bot, before its
catch-up pass (which starts once READY's guilds are in, about 2 s later) reaches the
game: the real bot in its own process, against the fake Discord.

The click once delivered the owed post together with the new move under the new move's
key, so Discord's nonce check did not know the post made before the crash: a second
live message repeated every line of the first. Now the owed post goes first under its
own key (Discord answers it with the message it made), and every line shows once.
"""

from __future__ import annotations

import asyncio

from tests.e2e_helpers import (
    game_components,
    latest_turn,
    said,
    to_move,
    turn_messages,
    turn_posts,
)
from tests.fakediscord import FakeDiscord
from tests.test_e2e_crash import BotProcess, click_first, two_seat_lobby
from tests.test_e2e_crash import bot as bot  # the fixture


async def test_a_click_before_the_catch_up_pass_shows_every_line_once(
        fd: FakeDiscord, bot: BotProcess) -> None:
    seated = await two_seat_lobby(fd, bot, seed=21)
    channel, alice, by_id, lobby, start_id = (seated.channel, seated.alice, seated.by_id,
                                              seated.message, seated.start_id)

    # The start's post reaches Discord; the bot dies before it hears back.
    hold = fd.hold_next_send(channel, after=True)
    await fd.click(alice, lobby, start_id)
    await asyncio.wait_for(hold.reached.wait(), 20)
    await bot.kill()
    hold.release.set()
    first = latest_turn(fd, channel)
    start_lines = [line for line in first.text.splitlines() if line.strip()]
    assert game_components(first) and len(start_lines) >= 2

    # The player to move clicks the moment the restarted bot is on the gateway.
    await bot.start(ready=False)
    mover = by_id[to_move(first) or 0]
    await click_first(fd, mover, first)
    assert "ready as" not in bot.logs[-1].read_text()  # served before the catch-up pass
    await fd.wait_until(lambda: "ready as" in bot.logs[-1].read_text(), timeout=20,
                        what="the catch-up pass")
    await fd.settle(quiet=0.5, timeout=20)

    # Each line of the start is in one message only, and no version of any message
    # holds a line twice (the live message moves on to the next turn's lines).
    where: dict[str, set[int]] = {}
    for message in fd.channel_messages(channel):
        if message.author_id != fd.bot_user.id or message.interaction_id:
            continue
        for version in [*message.history, message.snapshot()]:
            lines = [x for x in said(version).splitlines() if x.strip()]
            assert len(lines) == len(set(lines)), lines
            for line in lines:
                where.setdefault(line, set()).add(message.id)
    assert len(turn_messages(fd, channel)) == 1  # Discord kept the first, edited in place
    assert all(len(where[line]) == 1 for line in start_lines), where
    assert fd.nonce_repeats >= 1  # the owed post went again under its own key

    # The newest controls work.
    live = latest_turn(fd, channel)
    posts = turn_posts(fd, channel)
    nxt = by_id[to_move(live) or 0]
    await click_first(fd, nxt, live)
    await fd.wait_until(lambda: turn_posts(fd, channel) > posts, timeout=20,
                        what="the next move shown")
