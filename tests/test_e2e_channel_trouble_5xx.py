"""Discord failing one channel's message routes with 5xx answers for about ten seconds
(a 502 Bad Gateway or a 503 Service Unavailable from its proxy), while other channels
play: through the real discord.py against the fake Discord.

What must hold: a 5xx is Discord failing for now, not a refusal of the request
(developer docs, "HTTP Response Codes": "5xx: The server had an error processing your
request (these are rare)"), so the bot tries again, within reason (discord.py retries a
502 itself, waiting 1, 3, 5 and 7 s; a 503 it hands back at once, and the delivery
stays owed for the bot's own retry); once Discord answers again the channel catches up
once, each message shown once; and "nothing one channel does may fail or slow another"
(README): the other channels' moves are answered and shown at once throughout.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.client import HauntBot
from bot.texts import say
from tests.channel_trouble_helpers import (
    burst,
    delivered,
    games,
    others_play,
    press_first,
    shown,
)
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, turn_posts
from tests.fakediscord import FakeDiscord
from tests.test_e2e_crash import pings

BURST = 10.0  # seconds Discord fails the channel's routes
RETRY = 2.0  # the bot's retry of owed deliveries, shortened from its 30 s for the test


# Seconds after the burst by which the channel has caught up: discord.py's last try of
# a 502 comes 16 s after its first (1 + 3 + 5 + 7), a 503's delivery waits for the bot's
# retry; with room for a loaded machine.
CAUGHT_UP = {502: 16.0 - BURST + 4.0, 503: RETRY + 4.0}


@pytest.mark.parametrize("status", [502, 503])
async def test_a_5xx_burst_on_one_channel_catches_up_once_and_others_play(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, status: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The failing channel's move (its second half clicked on a private message, so its
    board is an edit of the live message: a PATCH on the channel's route) is saved at
    once; its player is told the board follows if the delivery gave up for now; three
    rounds in the other channels are answered and shown at once meanwhile; the failing
    channel shows the move once, with one ping, soon after Discord answers again, having
    asked Discord a few times, not hammered it; and it plays on."""
    monkeypatch.setattr(HauntBot, "retry_seconds", RETRY)
    bot, (failing, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, failing.channel)
    loop = asyncio.get_running_loop()
    began = loop.time()
    faults = burst(fd, failing.channel, status, BURST)
    clicking = asyncio.create_task(
        press_first(fd, failing.mover(fd), latest_turn(fd, failing.channel)))
    await fd.wait_until(lambda: any(f.hits for f in faults), timeout=5, what="a 5xx")
    await others_play(fd, bot, others, rounds=3)  # each at once, while it fails
    handle = await asyncio.wait_for(clicking, 25)
    assert set(handle.ephemeral_texts()) <= {say("delivery_owed"), say("view.step_done")}
    if status == 503:  # handed back at once: owed, and the player hears it follows
        assert say("delivery_owed") in handle.ephemeral_texts()

    await shown(bot, failing.channel, timeout=BURST + CAUGHT_UP[status])
    assert loop.time() - began >= BURST  # not before Discord answered again
    tries = sum(f.hits for f in faults)
    assert tries <= 1 + BURST / RETRY + 1, tries  # a few tries, not a flood
    await fd.settle()
    assert turn_posts(fd, failing.channel) == posts + 1  # the move, once
    assert len(pings(fd, failing.channel)) == 1
    again = await press_first(fd, failing.mover(fd), latest_turn(fd, failing.channel))
    await shown(bot, failing.channel)
    assert set(again.ephemeral_texts()) <= {say("view.step_done")}
    assert turn_posts(fd, failing.channel) == posts + 2
    await others_play(fd, bot, others, rounds=1)
    assert fd.late_answers == []
    assert fd.nonce_repeats == 0
    for game in (failing, *others):
        assert await delivered(bot, game.channel)
