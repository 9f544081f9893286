"""A player's DMs waiting out Discord's rate limit must not hold up the next move of
their channel, through the real discord.py against the fake Discord's buckets
(tests/fakediscord/buckets.py, at Discord's own sizes: `scale` 1.0).

A player's DM channel is one bucket (5 messages per 5 s) for all their games. A delivery
whose whisper meets it emptied posts after WHISPER_GRACE (bot/courier.py) and the
whisper follows when Discord lets it; but the delivery was marked done only after that
whisper, and nothing may be saved while a delivery is owed (bot/sessions_channel.py's
`_ready`): the channel's next move waited for one player's DMs, up to Discord's 5 s.
The whisper still reaches its player, once, in order (the DM tail, bot/courier.py).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.client import HauntBot
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, press_move, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

MESSAGES = "channel-messages-create"


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as opened:
        yield opened


async def _empty_dms(fd: FakeDiscord, session: aiohttp.ClientSession, user: FakeUser) -> int:
    """The bot's DM channel with `user`, its bucket emptied by the bot's other process
    (Discord counts a bot's limits by its token): the DM channel's id."""
    base, auth = f"{fd.base_url}/api/v10", {"Authorization": "Bot x"}
    async with session.post(f"{base}/users/@me/channels", json={"recipient_id": str(user.id)},
                            headers=auth) as answer:
        dms = int((await answer.json())["id"])
    while True:
        async with session.post(f"{base}/channels/{dms}/messages",
                                json={"content": "from the bot's other process"},
                                headers=auth) as answer:
            if answer.status == 429:
                return dms
            assert answer.status == 200


async def _lobby(fd: FakeDiscord, host: FakeUser) -> int:
    """A Cthulhu lobby of the host and two AI seats: its start tells the host a secret
    by DM."""
    channel = fd.add_channel("dm-tail")
    await fd.settle()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=21)).wait()).response
    assert lobby is not None
    add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(2):
        await (await fd.click(host, lobby, add_ai)).wait()
    return channel


def _secrets(fd: FakeDiscord, host: FakeUser) -> list[FakeMessage]:
    return [m for m in fd.dms(host) if "other process" not in m.content]


async def _delivered(bot: HauntBot, channel: int) -> bool:
    table = await bot.store.load_latest(channel)
    return table is not None and table.delivered_seq == table.last_seq


async def test_a_players_emptied_dm_bucket_does_not_hold_their_channels_next_move(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        session: aiohttp.ClientSession) -> None:
    bot = await start_hauntkeeper()
    host = fd.add_user("host")
    channel = await _lobby(fd, host)
    fd.rate_limits.scale = 1.0  # Discord's own 5 s
    fd.advance_clock(10.0)
    dms = await _empty_dms(fd, session, host)
    resets_at = fd.rate_limits.windows[(MESSAGES, str(dms))].resets_at
    began = time.monotonic()
    await (await fd.slash(host, channel, "game", "start")).wait(15, settle=False)
    await fd.wait_until(lambda: turn_posts(fd, channel) > 0, 15, "the start shown")
    assert fd.dms(host) == [] or all("other process" in m.content for m in fd.dms(host))
    assert fd.now() < resets_at - 2.0, "the start itself waited for the DMs"

    live = latest_turn(fd, channel)
    assert to_move(live) == host.id
    shown = turn_posts(fd, channel)
    handle = await press_move(fd, host, live)
    await fd.wait_until(lambda: turn_posts(fd, channel) > shown, 15, "the move shown")
    moved_at = fd.now()
    print(f"move shown {time.monotonic() - began:.2f} s after the start; "
          f"the DM bucket reset {resets_at - moved_at:.2f} s later")
    assert moved_at < resets_at, "the move waited for the host's DMs"

    await handle.wait(15)
    await fd.wait_until(lambda: _secrets(fd, host), 15, "the start's secret by DM")
    assert await bot.sessions.courier.tails_done(15)
    await fd.settle(timeout=15)
    secrets = _secrets(fd, host)
    assert len({m.nonce for m in secrets}) == len(secrets)  # each once
    assert await _delivered(bot, channel)
    assert fd.rate_limits.refused == [] or all(
        r.resource == str(dms) for r in fd.rate_limits.refused)
