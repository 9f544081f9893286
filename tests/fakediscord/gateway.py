"""The gateway websocket: HELLO, heartbeats and their ACKs, IDENTIFY -> READY + a
GUILD_CREATE per guild, RESUME, member chunks, and pushing events to the connected bot
(`dispatch`, `_dispatch_soon`).

What Discord's gateway does to a connection, for a test to do at any time
(https://discord.com/developers/docs/events/gateway):

- `reconnect_bot`: op 7 Reconnect ("reconnect and resume immediately").
- `invalidate_session(resumable=)`: op 9 Invalid Session; `d` true: the session may be
  resumed, false: it is gone and the client must IDENTIFY anew (a RESUME of it is
  answered with op 9 false).
- `drop_gateway` (faults.py): the socket cut as a network fault would.
- `stall_gateway`: a "zombied" connection: the socket stays open but nothing comes back,
  no heartbeat ACK and no event, until the client closes it and resumes.
- `close_gateway(code)`: a close event code (4000-4014). 4004 (`revoke_token`: every
  later IDENTIFY, RESUME and REST call is refused too), 4010-4014 say "do not
  reconnect"; those and 4007/4009 end the session.
- `hold_gateway()`: new connections wait before their HELLO until released, so a test
  can act while the bot is away.

A session keeps every event it was sent (`history`, sequence numbers and all), whether
a socket was there to take it or not: a RESUME with the last sequence the client saw
gets the ones after it, in order, then RESUMED, as Discord replays what a session
missed. Events for a shard whose session is disconnected but resumable wait in it;
a client that closes with 1000 or 1001 ends its session (Discord's rule), and so does
op 9 false. `heartbeat_interval` (ms, HELLO's) is settable so tests need not wait
Discord's 41-45 s; the fake never closes a client for beating late.

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
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from .common import GUILD_MEMBERS_INTENT
from .models import FakeGuild, Json

HEARTBEAT_INTERVAL = 45_000  # ms: HELLO's heartbeat_interval (Discord's is about 41 s)
PRESENCE_INTENT = 1 << 8
MESSAGE_CONTENT = 1 << 15
# The intents Discord calls privileged: asked for without the Developer Portal's switch
# on, an IDENTIFY is closed with 4014.
PRIVILEGED_INTENTS = GUILD_MEMBERS_INTENT | PRESENCE_INTENT | MESSAGE_CONTENT
# Close codes after which the session is gone (4007 invalid seq, 4009 timed out: start a
# new one), besides those after which Discord says not to reconnect at all.
SESSION_ENDING = frozenset({4004, 4007, 4009, 4010, 4011, 4012, 4013, 4014})
CLOSE_REASONS = {
    4000: "Unknown error.", 4001: "Unknown opcode.", 4002: "Decode error.",
    4003: "Not authenticated.", 4004: "Authentication failed.",
    4005: "Already authenticated.", 4007: "Invalid seq.", 4008: "Rate limited.",
    4009: "Session timed out.", 4010: "Invalid shard.", 4011: "Sharding required.",
    4012: "Invalid API version.", 4013: "Invalid intent(s).",
    4014: "Disallowed intent(s).",
}
KEPT_EVENTS = 5_000  # a session's replayable events; a RESUME from before them is refused


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
    resumable: bool = True  # False once Discord ended it (op 9 false, a closing code)
    stalled: bool = False  # a zombied connection: nothing comes back on this socket
    transport: asyncio.Transport | None = None  # the socket's TCP connection
    # Every event sent, (seq, frame), for a RESUME to replay what the client missed.
    history: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=KEPT_EVENTS))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] = (0, 1)  # [id, count] from IDENTIFY
    # Events on the wire when the fake has a latency (`GatewayMixin._push`): each with
    # the loop time it arrives at, in the order sent; one task sends them.
    wire: asyncio.Queue[Wired] = field(default_factory=asyncio.Queue)
    pump: asyncio.Task[None] | None = None

    @property
    def live(self) -> bool:
        """Whether events sent now reach the client (a stalled socket takes none)."""
        return not self.ws.closed and not self.stalled

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
        await self._gateway_open.wait()  # `hold_gateway`: the bot stays away meanwhile
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval":
                                                      self.heartbeat_interval},
                                      "s": None, "t": None}))
        session: Session | None = None
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                continue
            msg = json.loads(frame.data)
            op, data = msg.get("op"), msg.get("d")
            if op == 1:
                self.heartbeats += 1
                if session is None or not session.stalled:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                session = await self._identify(ws, data)
                if session is None:
                    break
                session.transport = request.transport
            elif op == 6:
                session = await self._resume(ws, data)
                if session is None:
                    if ws.closed:
                        break
                    continue
                session.transport = request.transport
            elif op == 8:
                await self._members_chunk(ws, data)
        if session is not None and session.ws is ws and ws not in self._closed_by_discord \
                and ws.close_code in (1000, 1001):
            session.resumable = False  # the client ended it: Discord drops such a session
        return ws

    async def _close_socket(self, ws: web.WebSocketResponse, code: int,
                            reason: str | None = None) -> None:
        """Discord closes a socket (its close code is then Discord's, whatever the
        client answers with)."""
        self._closed_by_discord.add(ws)
        message = reason if reason is not None else CLOSE_REASONS.get(code, "")
        await ws.close(code=code, message=message.encode())

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        """IDENTIFY: a new session, READY and the shard's guilds; or the close code
        Discord answers a refused one with (None)."""
        shard = data.get("shard") or [0, 1]
        shard_id, count = int(shard[0]), int(shard[1])
        intents = int(data.get("intents", 0))
        refusal = 4004 if self.token_revoked else None
        if not 0 <= shard_id < count:  # what Discord does with such a shard
            refusal = 4010
        elif intents & PRIVILEGED_INTENTS & ~self.enabled_intents:
            refusal = 4014
        if refusal is not None:
            await self._close_socket(ws, refusal)
            return None
        self.identify_count += 1
        session = Session(ws=ws, session_id=secrets.token_hex(16), intents=intents,
                          shard=(shard_id, count))
        self.identified_shards.append(session.shard)
        self._sessions.append(session)
        await self._send(session, "READY", self._ready_json(session, data))
        for guild in self._guilds_of(session):
            await self._send(session, "GUILD_CREATE", self._guild_json(guild))
        self._touch()
        return session

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

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> Session | None:
        """RESUME: the session takes this socket, gets the events after the client's
        `seq` in order and then RESUMED. One Discord cannot resume (unknown, ended, or
        from before the events it kept) gets op 9 false; a `seq` it never sent, 4007."""
        if self.token_revoked:
            await self._close_socket(ws, 4004)
            return None
        session = next((s for s in self._sessions
                        if s.session_id == data.get("session_id")), None)
        seq = int(data.get("seq") or 0)
        if session is None or not session.resumable:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        if seq > session.seq:
            session.resumable = False
            await self._close_socket(ws, 4007)
            return None
        async with session.lock:
            kept = session.history[0][0] if session.history else session.seq + 1
            if seq + 1 < kept:  # what it missed is no longer kept
                await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
                return None
            old, session.ws, session.stalled = session.ws, ws, False
            missed = [frame for n, frame in session.history if n > seq]
            for frame in missed:
                await ws.send_str(frame)
            self.replayed += len(missed)
            self.resume_count += 1
            await self._write(session, "RESUMED", {})
        if not old.closed and old is not ws:
            await self._close_socket(old, 4000)  # one socket per session
        self._touch()
        return session

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
        """Number the event and keep it; send it now if the session has a live socket
        (else a RESUME replays it: Discord keeps a resumable session's events)."""
        async with session.lock:
            await self._write(session, event, data)

    async def _write(self, session: Session, event: str, data: Json) -> None:
        """`_send` with the session's lock held."""
        session.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
        session.history.append((session.seq, frame))
        if session.live:
            with contextlib.suppress(ConnectionError):  # it closed meanwhile: kept
                await session.ws.send_str(frame)

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

    def _session_for(self, guild_id: int | None) -> Session | None:
        """Where an event goes: the newest connected session of its shard, else the
        newest one Discord would still resume (its events wait there), else None."""
        live = self._live_session(guild_id)
        if live is not None:
            return live
        for session in reversed(self._sessions):
            if session.resumable and session.covers(guild_id):
                return session
        return None

    async def dispatch(self, event: str, data: Json) -> None:
        """Send a gateway event to the bot, on the guild's shard: at once if connected,
        else kept for its RESUME (raises if no session would get it)."""
        guild_id = self._event_guild(data)
        session = self._session_for(guild_id)
        if session is None:
            raise RuntimeError("no bot is connected to the fake Discord gateway"
                               + (f" for guild {guild_id}" if guild_id else ""))
        self._touch()
        await self._push(session, event, data)

    def _dispatch_soon(self, event: str, data: Json) -> None:
        """Tell the bot about a model change made by a (synchronous) test helper."""
        session = self._session_for(self._event_guild(data))
        if session is None:
            return
        task = asyncio.get_running_loop().create_task(self._send_quietly(session, event, data))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _connected_session(self) -> Session:
        session = self._live_session()
        if session is None:
            raise RuntimeError("no bot is connected")
        return session

    async def reconnect_bot(self) -> None:
        """Ask the bot to reconnect (op 7); discord.py then RESUMEs the session."""
        session = self._connected_session()
        await session.ws.send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))

    async def invalidate_session(self, *, resumable: bool) -> None:
        """Op 9 Invalid Session: `resumable` (its `d`) lets the client RESUME; without
        it the session is gone and the client must IDENTIFY again."""
        session = self._connected_session()
        if not resumable:
            session.resumable = False
        await session.ws.send_str(json.dumps({"op": 9, "d": resumable, "s": None, "t": None}))

    def stall_gateway(self) -> None:
        """A zombied connection: the socket stays open, the bot's heartbeats go
        unanswered and its events wait, until it closes the socket and resumes."""
        self._connected_session().stalled = True

    async def request_heartbeat(self) -> None:
        """Op 1 from Discord: the client must send a heartbeat at once."""
        session = self._connected_session()
        await session.ws.send_str(json.dumps({"op": 1, "d": None, "s": None, "t": None}))

    async def close_gateway(self, code: int, reason: str | None = None) -> None:
        """Close every connected session's socket with a gateway close event code;
        a code after which Discord keeps no session ends the session too."""
        for session in self._sessions:
            if session.ws.closed:
                continue
            if code in SESSION_ENDING:
                session.resumable = False
            await self._close_socket(session.ws, code, reason)

    async def revoke_token(self) -> None:
        """The bot's token was reset in the Developer Portal: its sockets close with
        4004, and every later IDENTIFY, RESUME and REST call with it is refused."""
        self.token_revoked = True
        await self.close_gateway(4004)

    @contextlib.asynccontextmanager
    async def hold_gateway(self) -> AsyncIterator[None]:
        """`async with fd.hold_gateway():` new gateway connections wait before their
        HELLO until the block ends (the bot is away meanwhile)."""
        self._gateway_open.clear()
        try:
            yield
        finally:
            self._gateway_open.set()
