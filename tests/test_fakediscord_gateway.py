"""Self-check of the fake Discord's gateway against Discord's gateway docs
(https://discord.com/developers/docs/events/gateway and .../topics/opcodes-and-status-codes),
first over a raw websocket, then with a plain discord.Client (no project code):

- "Resuming: ... If successful, the gateway will send the missed events in order,
  finishing with a Resumed event." A RESUME of an unknown or ended session gets op 9
  Invalid Session with d false.
- Op 7 Reconnect: "You should attempt to reconnect and resume immediately."
- Op 9 Invalid Session: d "indicates whether the session may be resumable"; false: the
  client must IDENTIFY again.
- "If a client does not receive a heartbeat ACK between its attempts at sending
  heartbeats, this may be due to a failed or 'zombied' connection. The client should
  then immediately terminate the connection ... and reconnect and attempt to Resume."
- Close codes: 4004 Authentication failed and 4014 Disallowed intent(s) are among those
  after which a client must not reconnect.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, start_bot, stop_bot
from tests.fakediscord.faults import drop_gateway
from tests.fakediscord.gateway import CLOSE_REASONS

QUICK_BEAT = 100  # ms: HELLO's heartbeat_interval here, for zombie detection in a second


class Listener(discord.Client):
    """Notes the messages it heard and how often it was READY or RESUMED."""

    def __init__(self, **options: object) -> None:
        super().__init__(intents=discord.Intents.default(), **options)  # type: ignore[arg-type]
        self.heard: list[int] = []  # message ids (no content without its intent)
        self.readies = 0
        self.resumes = 0

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False
                                   ) -> None:
        """No 5 s before an IDENTIFY again (discord.py's pacing for Discord's identify
        limit, which the fake does not keep)."""

    async def on_message(self, message: discord.Message) -> None:
        self.heard.append(message.id)

    async def on_ready(self) -> None:
        self.readies += 1

    async def on_resumed(self) -> None:
        self.resumes += 1


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def identify(ws: aiohttp.ClientWebSocketResponse, intents: int = 0) -> str:
    """HELLO, IDENTIFY, READY: the session id."""
    assert (await ws.receive_json())["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": "x", "intents": intents, "properties": {}}})
    ready = await ws.receive_json()
    assert ready["t"] == "READY"
    return str(ready["d"]["session_id"])


async def frames_until_resumed(ws: aiohttp.ClientWebSocketResponse) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    while not out or out[-1].get("t") != "RESUMED":
        out.append(await asyncio.wait_for(ws.receive_json(), 5))
    return out


async def test_a_resume_replays_the_missed_events_in_order_then_resumed(
        fd: FakeDiscord) -> None:
    channel = fd.add_channel("general")
    alice = fd.add_user("alice")
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fd.ws_url) as ws:
            session_id = await identify(ws)
            guild = await ws.receive_json()
            assert guild["t"] == "GUILD_CREATE"
            seen = int(guild["s"])
            await ws.close(code=4000)  # not 1000: the session stays resumable
        await fd.wait_until(lambda: fd._live_session() is None, what="the socket closed")
        first = await fd.post_message(alice, channel, "one")  # while away: kept
        second = await fd.post_message(alice, channel, "two")
        async with http.ws_connect(fd.ws_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": "x", "session_id": session_id,
                                               "seq": seen}})
            frames = await frames_until_resumed(ws)
            assert [(f["t"], f["s"]) for f in frames] == [
                ("MESSAGE_CREATE", seen + 1), ("MESSAGE_CREATE", seen + 2),
                ("RESUMED", seen + 3)]
            assert [f["d"]["id"] for f in frames[:2]] == [  # type: ignore[index]
                str(first.id), str(second.id)]
            third = await fd.post_message(alice, channel, "three")  # connected: at once
            live = await ws.receive_json()
            assert live["s"] == seen + 4 and live["d"]["id"] == str(third.id)
            await ws.close(code=1000)  # a clean close ends the session
        assert fd.resume_count == 1 and fd.replayed == 2
        async with http.ws_connect(fd.ws_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": "x", "session_id": session_id,
                                               "seq": seen + 4}})
            refused = await ws.receive_json()
            assert refused["op"] == 9 and refused["d"] is False


async def test_a_resume_with_a_seq_never_sent_is_closed_4007(fd: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fd.ws_url) as ws:
            session_id = await identify(ws)
            await ws.close(code=4000)
        async with http.ws_connect(fd.ws_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 6, "d": {"token": "x", "session_id": session_id,
                                               "seq": 999}})
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4007


async def test_hello_heartbeat_ack_and_a_stalled_socket_answers_nothing(
        fd: FakeDiscord) -> None:
    fd.heartbeat_interval = 1234
    channel = fd.add_channel("general")
    alice = fd.add_user("alice")
    async with aiohttp.ClientSession() as http, http.ws_connect(fd.ws_url) as ws:
        hello = await ws.receive_json()
        assert hello == {"op": 10, "d": {"heartbeat_interval": 1234}, "s": None, "t": None}
        await ws.send_json({"op": 2, "d": {"token": "x", "intents": 0, "properties": {}}})
        await ws.receive_json()  # READY
        await ws.receive_json()  # GUILD_CREATE
        await ws.send_json({"op": 1, "d": 2})
        assert (await ws.receive_json())["op"] == 11
        fd.stall_gateway()
        await ws.send_json({"op": 1, "d": 2})
        await fd.post_message(alice, channel, "lost in the wire")
        with pytest.raises(TimeoutError):  # no ACK, no event
            await asyncio.wait_for(ws.receive_json(), 0.3)
        assert fd.heartbeats == 2


async def test_privileged_intents_switched_off_are_refused_with_4014(
        fd: FakeDiscord) -> None:
    fd.enabled_intents = 0
    async with aiohttp.ClientSession() as http, http.ws_connect(fd.ws_url) as ws:
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1 << 15,
                                           "properties": {}}})
        closed = await ws.receive()
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4014
        assert closed.extra == CLOSE_REASONS[4014]
    assert fd.identify_count == 0


async def test_a_revoked_token_closes_4004_and_refuses_rest_and_identify(
        fd: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(fd.ws_url) as ws:
            await identify(ws)
            await ws.receive_json()  # GUILD_CREATE
            await fd.revoke_token()
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4004
        async with http.get(fd.base_url + "/api/v10/users/@me") as resp:
            assert resp.status == 401
        async with http.ws_connect(fd.ws_url) as ws:
            assert (await ws.receive_json())["op"] == 10
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 0,
                                               "properties": {}}})
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4004


async def test_discord_py_resumes_after_op7_op9_true_a_cut_and_a_zombie_and_misses_nothing(
        fd: FakeDiscord) -> None:
    """Each way of losing the socket, with a message sent while the bot is away: it
    RESUMEs the one session (one IDENTIFY in all) and hears every message once."""
    fd.heartbeat_interval = QUICK_BEAT
    channel = fd.add_channel("general")
    alice = fd.add_user("alice")
    bot = Listener(heartbeat_timeout=0.6)  # discord.py's zombie check, shortened
    task = await start_bot(bot, fd, sync=False)
    try:
        missed: list[int] = []

        async def away(n: int) -> None:
            await fd.wait_until(lambda: fd._live_session() is None, what="disconnected")
            missed.append((await fd.post_message(alice, channel, f"missed {n}")).id)

        ways = {
            "op 7": fd.reconnect_bot,
            "op 9 true": lambda: fd.invalidate_session(resumable=True),
            "closed 4000": lambda: drop_gateway(fd),
            "cut": lambda: drop_gateway(fd, cut=True),
        }
        for n, (name, way) in enumerate(ways.items()):
            async with fd.hold_gateway():
                await way()
                await away(n)
            await fd.wait_until(lambda n=n: fd.resume_count == n + 1, what=f"resumed: {name}")
        async with fd.hold_gateway():
            fd.stall_gateway()
            zombied = await fd.post_message(alice, channel, "missed 4")  # stuck
            missed.append(zombied.id)
            await fd.wait_until(lambda: fd._live_session() is None, timeout=10,
                                what="discord.py closed the zombie")
        await fd.wait_until(lambda: fd.resume_count == 5, what="resumed: zombie")
        await fd.wait_until(lambda: len(bot.heard) == 5, what="all heard")
        assert bot.heard == missed
        assert fd.identify_count == 1 and bot.readies == 1 and bot.resumes == 5
    finally:
        await stop_bot(bot, task)


async def test_discord_py_identifies_anew_after_op9_false(fd: FakeDiscord) -> None:
    bot = Listener()
    task = await start_bot(bot, fd, sync=False)
    try:
        await fd.invalidate_session(resumable=False)
        await fd.wait_until(lambda: fd.identify_count == 2, what="a new IDENTIFY")
        await fd.wait_until(lambda: bot.readies == 2, what="READY again")
        assert fd.resume_count == 0
        await fd.request_heartbeat()  # op 1 from Discord: a beat at once
        beats = fd.heartbeats
        await fd.request_heartbeat()
        await fd.wait_until(lambda: fd.heartbeats > beats, what="a beat on request")
    finally:
        await stop_bot(bot, task)


@pytest.mark.parametrize("code,raised", [(4004, discord.ConnectionClosed),
                                         (4014, discord.PrivilegedIntentsRequired)])
async def test_discord_py_stops_on_a_close_code_that_forbids_reconnecting(
        fd: FakeDiscord, code: int, raised: type[Exception]) -> None:
    bot = Listener()
    task = await start_bot(bot, fd, sync=False)
    identified = fd.identify_count
    await fd.close_gateway(code)
    with pytest.raises(raised):
        await asyncio.wait_for(task, 5)
    assert fd.identify_count == identified and fd.resume_count == 0  # no second try
    await bot.close()
