"""The fake Discord's latency (`FakeDiscord(latency=...)`): every REST call waits half of
it on the request's way and half on the answer's, every event pushed to the bot half of
it, and events still arrive in the order they were sent. What it waits is read from its
`pause` (replaced here by one that records), never timed: the benches time it
(bench/bench_click_latency.py)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot

LATENCY = 0.08


class Seen(discord.Client):
    """A tiny bot: the ids of the messages it hears, in the order it hears them."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), enable_debug_events=True)
        self.heard: list[int] = []
        self.events = 0  # every event the gateway pushed

    async def on_message(self, message: discord.Message) -> None:
        self.heard.append(message.id)

    async def on_socket_event_type(self, event: str) -> None:
        self.events += 1


class Answer(discord.ui.View):
    """A button answered with the edit it causes (UPDATE_MESSAGE), as the bot's are."""

    @discord.ui.button(label="Go", custom_id="go")
    async def go(self, interaction: discord.Interaction,
                 button: discord.ui.Button[Answer]) -> None:
        await interaction.response.edit_message(content="gone", view=None)


async def test_a_click_waits_half_the_latency_on_each_way() -> None:
    waits: list[float] = []

    async def pause(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)

    fd = FakeDiscord(latency=LATENCY)
    fd.pause = pause
    await fd.start()
    try:
        user = fd.add_user("ann")
        channel = fd.add_channel("game")
        async with running_bot(Seen(), fd, sync=False) as bot:
            await fd.settle()
            waits.clear()
            before, events = len(fd.requests), bot.events
            target = bot.get_channel(channel)
            assert isinstance(target, discord.TextChannel)
            sent = await target.send("ready", view=Answer())
            handle = await (await fd.click(user, sent.id, "go")).wait()
            requests = len(fd.requests) - before
            assert requests == 2  # the message, then the click's answer
            pushed = bot.events - events
            assert pushed >= 1  # the interaction, and the echoes of the bot's own message
            # two halves per request, one per event pushed to the bot
            assert len(waits) == 2 * requests + pushed, waits
            assert all(0 < seconds <= LATENCY / 2 for seconds in waits), waits
            assert handle.callback_type == 7
            message = fd.message(sent.id)
            assert message.content == "gone"
            assert len(message.shown_at) == 2 and message.shown_at[0] <= message.shown_at[1]
    finally:
        await fd.stop()


async def test_events_arrive_in_the_order_they_were_sent() -> None:
    """The first event's way is the slowest here: sent one by one from its end, the
    later ones would overtake it."""
    first = True

    async def pause(seconds: float) -> None:
        nonlocal first
        slow, first = first, False
        await asyncio.sleep(0.05 if slow else 0)

    fd = FakeDiscord(latency=LATENCY)
    await fd.start()
    try:
        user = fd.add_user("ann")
        channel = fd.add_channel("game")
        async with running_bot(Seen(), fd, sync=False) as bot:
            await fd.settle()
            fd.pause = pause
            posted = await asyncio.gather(*(fd.post_message(user, channel, f"m{n}")
                                            for n in range(5)))
            await fd.settle()
            assert bot.heard == [m.id for m in posted]
    finally:
        await fd.stop()


@pytest.mark.parametrize("latency", [0.0, LATENCY])
async def test_no_latency_waits_nothing(latency: float) -> None:
    waits: list[float] = []

    async def pause(seconds: float) -> None:
        waits.append(seconds)

    fd = FakeDiscord(latency=latency)
    fd.pause = pause
    await fd.start()
    try:
        fd.add_user("ann")
        async with running_bot(Seen(), fd, sync=False):
            await fd.settle()
        assert bool(waits) == bool(latency)
    finally:
        await fd.stop()
