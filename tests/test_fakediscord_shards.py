"""Self-check of the fake Discord's shards, with plain discord.py AutoShardedClients (no
project code): each shard hears only its guilds ((guild_id >> 22) % count), DMs reach
shard 0, GET /gateway/bot recommends `shard_count`, and an impossible shard is refused
with Discord's close code 4010."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.gateway import shard_of


class Listener(discord.AutoShardedClient):
    """Notes which guilds it was given and which messages reached it, on which shard."""

    def __init__(self, **options: object) -> None:
        super().__init__(intents=discord.Intents.default(), **options)  # type: ignore[arg-type]
        self.heard: list[tuple[int, int | None]] = []  # (channel id, shard id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        """No 5 s between a process's shards (discord.py's default pacing): start_bot
        waits 5 s in all, and the fake enforces no IDENTIFY rate limit."""

    async def on_message(self, message: discord.Message) -> None:
        shard = message.guild.shard_id if message.guild else None
        self.heard.append((message.channel.id, shard))


@pytest.fixture
async def sharded() -> AsyncIterator[tuple[FakeDiscord, int, int]]:
    fd = FakeDiscord(guild_shard=(0, 2))
    await fd.start()
    try:
        other = fd.add_guild("Second", shard=(1, 2))
        yield fd, fd.guild_id, other
    finally:
        await fd.stop()


def test_a_guilds_shard_is_its_ids_timestamp_modulo_the_count() -> None:
    fd = FakeDiscord(guild_shard=(1, 3))
    assert shard_of(fd.guild_id, 3) == 1
    ids = [fd.add_guild(f"g{n}", shard=(n % 4, 4)) for n in range(8)]
    assert [shard_of(i, 4) for i in ids] == [n % 4 for n in range(8)]
    assert ids == sorted(set(ids))  # still unique and increasing


async def test_each_process_hears_only_its_shards_guilds_and_dms_come_to_shard_0(
        sharded: tuple[FakeDiscord, int, int]) -> None:
    fd, first, second = sharded
    here = fd.add_channel("zero", guild=first)
    there = fd.add_channel("one", guild=second)
    user = fd.add_user("alice")
    fd.join_guild(user, second)
    dm = fd.open_dm(user)
    a, b = Listener(shard_ids=[0], shard_count=2), Listener(shard_ids=[1], shard_count=2)
    async with running_bot(a, fd, sync=False), running_bot(b, fd, sync=False):
        assert [g.id for g in a.guilds] == [first] and [g.id for g in b.guilds] == [second]
        assert sorted(fd.identified_shards) == [(0, 2), (1, 2)]
        for channel in (here, there, dm):
            await fd.post_message(user, channel, "hello")
        await fd.settle()
    assert a.heard == [(here, 0), (dm, None)]
    assert b.heard == [(there, 1)]


async def test_an_auto_sharded_bot_opens_the_shards_discord_recommends(
        sharded: tuple[FakeDiscord, int, int]) -> None:
    fd, first, second = sharded
    fd.shard_count = 2
    bot = Listener()
    async with running_bot(bot, fd, sync=False):
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert {g.id: g.shard_id for g in bot.guilds} == {first: 0, second: 1}


async def test_a_shard_outside_its_count_is_refused_with_4010(
        sharded: tuple[FakeDiscord, int, int]) -> None:
    fd, _, _ = sharded
    async with aiohttp.ClientSession() as http, http.ws_connect(fd.ws_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "x", "intents": 0, "shard": [2, 2],
                                           "properties": {}}})
        closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4010
    assert fd.identify_count == 0
