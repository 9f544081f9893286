"""A delivery Discord failed for now (a 503, which discord.py hands back at once) is
tried again soon, 2 s, 5 s and 15 s apart (bot/client.py's RETRY_SOON; shortened
here), before the periodic retry every 30 s takes over, so a short 5xx burst is caught
up in seconds even if nobody clicks; a channel's quick retries start at most once in
SOON_REST seconds, so a long outage is not asked four times as often. Each retry goes
through the channel's delivery lock (bot/channel_locks.py: "two deliveries of a
channel never interleave their messages"): the move shows once, with one ping, and no
delivery of the channel ever runs beside another."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from bot.client import HauntBot
from bot.courier import Courier, Outcome
from tests.channel_trouble_helpers import burst, games, press_first, shown
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, turn_posts
from tests.fakediscord import FakeDiscord
from tests.test_e2e_crash import pings

SOON = (0.3, 0.6, 1.2)  # RETRY_SOON, shortened for the test: retried at 0.3, 0.9, 2.1 s
BURST = 1.5  # 0.3 and 0.9 fail, 2.1 gets through


async def test_a_503_burst_is_caught_up_by_the_quick_retries_one_delivery_at_a_time(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch,
        ) -> None:
    monkeypatch.setattr(HauntBot, "retry_seconds", 600.0)  # the periodic retry: not now
    monkeypatch.setattr(HauntBot, "retry_soon", SOON)
    running: Counter[int] = Counter()
    most: Counter[int] = Counter()
    deliver = Courier.deliver

    async def counted(self: Courier, table: Any, *args: Any, **kwargs: Any) -> Outcome:
        running[table.channel_id] += 1
        most[table.channel_id] = max(most[table.channel_id], running[table.channel_id])
        try:
            return await deliver(self, table, *args, **kwargs)
        finally:
            running[table.channel_id] -= 1

    monkeypatch.setattr(Courier, "deliver", counted)
    bot, (failing, *_) = await games(fd, start_hauntkeeper, count=1)
    posts = turn_posts(fd, failing.channel)
    loop = asyncio.get_running_loop()
    began = loop.time()
    faults = burst(fd, failing.channel, 503, BURST)
    await press_first(fd, failing.mover(fd), latest_turn(fd, failing.channel))
    await shown(bot, failing.channel, timeout=BURST + 3.0)  # not the 600 s retry
    assert loop.time() - began >= BURST  # not before Discord answered again
    assert sum(f.hits for f in faults) <= 1 + len(SOON)  # the move's try, then the retries
    await fd.settle()
    assert turn_posts(fd, failing.channel) == posts + 1  # the move, once
    assert len(pings(fd, failing.channel)) == 1
    assert fd.nonce_repeats == 0
    assert most[failing.channel] == 1  # never two deliveries of the channel at once
    # Another failure soon after (a long outage's periodic retry failing) starts no
    # second chain: SOON_REST apart at most.
    bot._retry_soon(failing.channel, None)
    assert failing.channel not in bot._soon
