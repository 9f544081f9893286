"""The gateway websocket: HELLO, IDENTIFY -> READY + a GUILD_CREATE per guild, RESUME,
member chunks,
and pushing events to the connected bot (`dispatch`, `_dispatch_soon`).

Shards as Discord has them: an IDENTIFY with `shard: [id, count]` gets only the guilds
with (guild_id >> 22) % count == id, and so only their events; events of no guild (DMs)
go to shard 0. A session without `shard` is [0, 1]: everything. Of several sessions
for one shard, the newest connected one gets its events.

Why a module: it is the only code that speaks the websocket protocol; everything else just
asks for an event to be dispatched and never sees a frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from .common import GUILD_MEMBERS_INTENT
from .models import FakeGuild, Json


@dataclass(eq=False)
class Wired:
    """An event on its way to the bot: when it arrives, and who waits for it to."""

    due: float
    event: str
    data: Json
    sent: asyncio.Future[None]


@dataclass(eq=False)
class Session:
    """One gateway session (a bot connection); RESUME re-attaches a new socket to it."""

    ws: web.WebSocketResponse
    session_id: str
    intents: int = 0
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] = (0, 1)  # [id, count] from IDENTIFY
    # Events on the wire when the fake has a latency (`GatewayMixin._push`): each with
    # the loop time it arrives at, in the order sent; one task sends them.
    wire: asyncio.Queue[Wired] = field(default_factory=asyncio.Queue)
    pump: asyncio.Task[None] | None = None

    @property
    def live(self) -> bool:
        return not self.ws.closed

    def covers(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets that guild's events (None: a DM's)."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % count


class GatewayMixin:
    """Serves `/gateway` and sends events to the bot.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(
            json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None})
        )
        session: Session | None = None
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                continue
            msg = json.loads(frame.data)
            op, data = msg.get("op"), msg.get("d")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                shard = data.get("shard") or [0, 1]
                shard_id, count = int(shard[0]), int(shard[1])
                if not 0 <= shard_id < count:  # what Discord does with such a shard
                    await ws.close(code=4010, message=b"Invalid shard.")
                    break
                self.identify_count += 1
                session = Session(
                    ws=ws, session_id=secrets.token_hex(16), intents=int(data.get("intents", 0)),
                    shard=(shard_id, count),
                )
                self.identified_shards.append(session.shard)
                self._sessions.append(session)
                await self._send(session, "READY", self._ready_json(session, data))
                for guild in self._guilds_of(session):
                    await self._send(session, "GUILD_CREATE", self._guild_json(guild))
                self._touch()
            elif op == 6:
                session = self._resume(ws, data)
                if session is None:
                    await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                else:
                    self.resume_count += 1
                    await self._send(session, "RESUMED", {})
            elif op == 8:
                await self._members_chunk(ws, data)
        return ws

    def _ready_json(self, session: Session, identify: Json) -> Json:
        ready: Json = {
            "v": 10,
            "user": self._user_json(self.bot_user) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._guilds_of(session)],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.ws_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
        }
        if identify.get("shard"):
            ready["shard"] = identify["shard"]
        return ready

    def _members_intent(self) -> bool:
        """Whether the application may use what the GUILD_MEMBERS privileged intent
        restricts (List Thread Members). Discord keys it on the Developer Portal's
        switch; an IDENTIFY asking for the intent without it is closed with 4014, so an
        application that ever identified with it has it, and one that never did (this
        bot: README, "no privileged intents") is taken to have it off."""
        return any(s.intents & GUILD_MEMBERS_INTENT for s in self._sessions)

    def _guilds_of(self, session: Session) -> list[FakeGuild]:
        return [g for g in self.guilds.values() if session.covers(g.id)]

    def _resume(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        for session in self._sessions:
            if session.session_id == data.get("session_id"):
                session.ws = ws
                return session
        return None

    async def _members_chunk(self, ws: web.WebSocketResponse, data: Json) -> None:
        session = next((s for s in self._sessions if s.ws is ws), None)
        guild = self.guilds.get(int(data.get("guild_id") or self.guild_id))
        if session is None or guild is None or not session.covers(guild.id):
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [
                self._member_json(u, guild) for u in self.users.values() if u.id in guild.member_ids
            ],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, session: Session, event: str, data: Json) -> None:
        async with session.lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            await session.ws.send_str(json.dumps(frame))

    async def _send_quietly(self, session: Session, event: str, data: Json) -> None:
        with contextlib.suppress(ConnectionError):
            await self._push(session, event, data)

    async def _push(self, session: Session, event: str, data: Json) -> None:
        """An event pushed to the bot: at once, or with a latency (`latency`, a round
        trip) half of it on the way, as from Discord's gateway. Events keep the order
        they were sent in, and each is on the wire from when it was sent, not from when
        the one before it arrived (one task sends them at their times)."""
        if not self.latency:
            await self._send(session, event, data)
            return
        loop = asyncio.get_running_loop()
        sent: asyncio.Future[None] = loop.create_future()
        session.wire.put_nowait(Wired(loop.time() + self.latency / 2, event, data, sent))
        if session.pump is None or session.pump.done():
            session.pump = loop.create_task(self._pump(session))
            self._background.add(session.pump)
            session.pump.add_done_callback(self._background.discard)
        self._inflight += 1  # on the wire: `settle` waits for it
        try:
            await sent
        finally:
            self._inflight -= 1
            self._touch()

    async def _pump(self, session: Session) -> None:
        """Send the session's wired events in order, each once it is due."""
        loop = asyncio.get_running_loop()
        while True:
            wired = await session.wire.get()
            wait = wired.due - loop.time()
            if wait > 0:
                await self.pause(wait)
            try:
                await self._send(session, wired.event, wired.data)
            except Exception as exc:  # the socket closed: the sender hears it
                if not wired.sent.done():
                    wired.sent.set_exception(exc)
            else:
                if not wired.sent.done():
                    wired.sent.set_result(None)

    def _live_session(self, guild_id: int | None = None) -> Session | None:
        """The newest connected session of the shard that gets this guild's events (None:
        a DM's, shard 0): interactions go to the bot that connected last."""
        for session in reversed(self._sessions):
            if session.live and session.covers(guild_id):
                return session
        return None

    def _event_guild(self, data: Json) -> int | None:
        """The guild an event is about: its `guild_id`, else its channel's (None: a DM)."""
        if data.get("guild_id"):
            return int(data["guild_id"])
        channel = self.channels.get(int(data.get("channel_id") or 0))
        if channel is None or channel.is_dm:
            return None
        return self.guild_of(channel).id

    async def dispatch(self, event: str, data: Json) -> None:
        """Send a gateway event to the connected bot, on the guild's shard (raises if no
        bot is connected there)."""
        guild_id = self._event_guild(data)
        session = self._live_session(guild_id)
        if session is None:
            raise RuntimeError("no bot is connected to the fake Discord gateway"
                               + (f" for guild {guild_id}" if guild_id else ""))
        self._touch()
        await self._push(session, event, data)

    def _dispatch_soon(self, event: str, data: Json) -> None:
        """Tell a connected bot about a model change made by a (synchronous) test helper."""
        session = self._live_session(self._event_guild(data))
        if session is None:
            return
        task = asyncio.get_running_loop().create_task(self._send_quietly(session, event, data))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def reconnect_bot(self) -> None:
        """Ask the bot to reconnect (op 7); discord.py then RESUMEs the session."""
        session = self._live_session()
        if session is None:
            raise RuntimeError("no bot is connected")
        await session.ws.send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))
