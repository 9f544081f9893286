"""A fake Discord (REST + gateway) that the unmodified discord.py client logs into.

Why: slash commands, components and interaction responses can only be tested end to end
through discord.py's own code paths; this server speaks just enough of Discord's API over
real HTTP and a real websocket on 127.0.0.1 for that. Tests drive it as the *users*
(`slash`, `click`, `select`, `autocomplete`, `submit_modal`, `post_message`) and read what
the bot sent from the message store. Anything the bot asks that the server does not know
lands in `unhandled` (tests assert it stays empty).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from .models import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    SUPPRESS_EMBEDS,
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    Json,
    SnowflakeFactory,
    snowflake_iso,
)

Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]
# name, bytes, content type, keyed by the multipart index of `files[n]`
Uploads = dict[int, tuple[str, bytes, str]]

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
).value
MANAGER_PERMISSIONS = discord.Permissions(manage_channels=True).value
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15
# Tasks discord.py names while it handles an interaction; `settle` waits for them.
BUSY_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_message",
    "discord.py: on_interaction",
)


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly `application/json`, or discord.py reads it as text."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _or(values: Iterable[str | int]) -> int:
    out = 0
    for value in values:
        out |= int(value)
    return out


def _overwrite(data: Json) -> Json:
    """An overwrite as Discord echoes it (allow/deny as strings)."""
    return {
        "id": str(data["id"]),
        "type": int(data.get("type", 0)),
        "allow": str(int(data.get("allow") or 0)),
        "deny": str(int(data.get("deny") or 0)),
    }


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true")


@dataclass(eq=False)
class _Session:
    """One gateway session (a bot connection); RESUME re-attaches a new socket to it."""

    ws: web.WebSocketResponse
    session_id: str
    intents: int = 0
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def live(self) -> bool:
        return not self.ws.closed


class FakeDiscord:
    """The fake server: one bot, one guild, its channels, members, DMs and messages."""

    def __init__(
        self,
        *,
        bot_name: str = "hauntkeeper",
        guild_name: str = "Fake Guild",
        guild_id: int | None = None,
    ) -> None:
        """`guild_id` lets a bot whose config names its guild sync commands to this one."""
        self._snowflake = SnowflakeFactory()
        self.application_id = self._snowflake()
        self.guild_id = guild_id or self._snowflake()
        self.guild_name = guild_name
        self.owner_id = self._snowflake()  # an owner outside the member list: nobody is owner
        self.manager_role_id = self._snowflake()
        self.bot_role_id = self._snowflake()
        self.bot_permissions = discord.Permissions.all().value
        self.enforce_command_permissions = True
        self.bot_user = FakeUser(
            id=self.application_id,
            name=bot_name,
            bot=True,
            role_ids=[self.bot_role_id],
            joined_at=snowflake_iso(self.application_id),
        )
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[int | None, list[Json]] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self.unhandled: list[str] = []
        self.requests: list[str] = []
        self.errors: list[tuple[str, int, Json]] = []
        self.identify_count = 0
        self.resume_count = 0
        self.busy_task_prefixes: tuple[str, ...] = BUSY_TASK_PREFIXES
        self._by_token: dict[str, InteractionHandle] = {}
        self._dm_channels: dict[int, int] = {}
        self._blobs: dict[int, tuple[str, bytes, str]] = {}
        self._sessions: list[_Session] = []
        self._background: set[asyncio.Task[None]] = set()
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: web.AppRunner | None = None
        self._saved_patch: tuple[str, yarl.URL] | None = None
        self.base_url = ""
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._add_routes()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 at a free port; sets `base_url`."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{cid}/{aid}/{name}", self._attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._api)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        self._touch()

    async def stop(self) -> None:
        """Close sockets and the server, and undo `patch_discord`. Stop the bot first."""
        for session in self._sessions:
            if session.live:
                await session.ws.close()
        for task in list(self._background):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.unpatch_discord()

    @property
    def ws_url(self) -> str:
        """The gateway URL (also sent as `resume_gateway_url`)."""
        return "ws" + self.base_url.removeprefix("http") + "/gateway"

    def patch_discord(self) -> None:
        """Point discord.py's REST base (also used by webhooks) and gateway at this server."""
        if not self.base_url:
            raise RuntimeError("start() the FakeDiscord before patching discord.py")
        if self._saved_patch is None:
            self._saved_patch = (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            )
        discord.http.Route.BASE = self.base_url + "/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url)

    def unpatch_discord(self) -> None:
        """Restore the URLs `patch_discord` replaced."""
        if self._saved_patch is not None:
            base, gateway = self._saved_patch
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
            self._saved_patch = None

    def _touch(self) -> None:
        self._last_activity = asyncio.get_running_loop().time()

    async def settle(
        self, quiet: float = 0.05, timeout: float = 10.0, busy_polls: int = 50
    ) -> None:
        """Wait until the bot is idle: no request in flight or for `quiet` seconds, and no
        discord.py interaction-handling task still running (see `busy_task_prefixes`).

        A handler that stays pending without making requests (`await view.wait()`,
        `bot.wait_for`, a long sleep) counts as idle after `busy_polls` polls of 10 ms;
        polls, not wall time, so a handler that blocks the loop (image rendering) is not
        mistaken for a waiting one.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await asyncio.sleep(0)  # let just-dispatched work start before judging idleness
        idle_polls = 0
        while True:
            busy = self._busy_tasks()
            idle_for = loop.time() - self._last_activity
            if self._inflight == 0 and idle_for >= quiet:
                if not busy or idle_polls >= busy_polls:
                    return
                idle_polls += 1
            else:
                idle_polls = 0
            if loop.time() > deadline:
                raise TimeoutError(
                    f"bot still busy after {timeout}s: {self._inflight} requests in flight, "
                    f"tasks {[t.get_name() for t in busy]}"
                )
            await asyncio.sleep(0.01 if busy or self._inflight else max(quiet - idle_for, 0.005))

    async def wait_until(
        self, predicate: Callable[[], object], timeout: float = 5.0, what: str = ""
    ) -> None:
        """Poll `predicate` until it is truthy (for effects without an interaction)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            if loop.time() > deadline:
                raise TimeoutError(f"condition not met within {timeout}s: {what or predicate}")
            await asyncio.sleep(0.005)

    def _busy_tasks(self) -> list[asyncio.Task[Any]]:
        current = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t is not current
            and not t.done()
            and t.get_name().startswith(self.busy_task_prefixes)
        ]

    # ------------------------------------------------------------------ model

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_channels: bool = False,
        locale: str = "en-US",
    ) -> FakeUser:
        """A new guild member. `manage_channels` gives them the channel-manager role."""
        uid = self._snowflake()
        user = FakeUser(
            id=uid,
            name=name,
            dms_open=dms_open,
            manage_channels=manage_channels,
            role_ids=[self.manager_role_id] if manage_channels else [],
            joined_at=snowflake_iso(uid),
            locale=locale,
        )
        self.users[uid] = user
        self._dispatch_soon(
            "GUILD_MEMBER_ADD", {**self._member_json(user), "guild_id": str(self.guild_id)}
        )
        return user

    def add_channel(self, name: str, *, topic: str | None = None) -> int:
        """A new guild text channel; returns its id."""
        cid = self._snowflake()
        channel = FakeChannel(id=cid, name=name, position=len(self.channels), topic=topic)
        self.channels[cid] = channel
        self._dispatch_soon("CHANNEL_CREATE", self._channel_json(channel))
        return cid

    def permissions_of(self, user: FakeUser, channel_id: int | None = None) -> int:
        """Permission bits of a member: roles, then the channel's overwrites (Discord's
        order: @everyone, roles, member); a thread uses its parent's overwrites.
        """
        if user.bot:
            return self.bot_permissions
        perms = EVERYONE_PERMISSIONS
        if self.manager_role_id in user.role_ids:
            perms |= MANAGER_PERMISSIONS
        channel = self.channels.get(channel_id or 0)
        if channel is not None and channel.is_thread:
            channel = self.channels.get(channel.parent_id or 0)
        if channel is None or channel.is_dm:
            return perms
        overwrites = {int(o["id"]): o for o in channel.permission_overwrites}

        def apply(allow: int, deny: int) -> None:
            nonlocal perms
            perms = (perms & ~deny) | allow

        everyone = overwrites.get(self.guild_id)
        if everyone:
            apply(int(everyone["allow"]), int(everyone["deny"]))
        roles = [overwrites[r] for r in user.role_ids if r in overwrites]
        apply(_or(o["allow"] for o in roles), _or(o["deny"] for o in roles))
        mine = overwrites.get(user.id)
        if mine:
            apply(int(mine["allow"]), int(mine["deny"]))
        return perms

    def open_dm(self, user: FakeUser) -> int:
        """The user's DM channel with the bot (created if needed), e.g. to DM the bot."""
        cid = self._dm_channels.get(user.id)
        if cid is None:
            cid = self._snowflake()
            self.channels[cid] = FakeChannel(id=cid, name="", type=1, recipient_id=user.id)
            self._dm_channels[user.id] = cid
        return cid

    def dm_channel_id(self, user: FakeUser) -> int | None:
        """The user's DM channel with the bot, once the bot has opened it."""
        return self._dm_channels.get(user.id)

    def message(self, message_id: int) -> FakeMessage:
        """Any stored message by id (deleted and ephemeral ones too)."""
        return self.messages[message_id]

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        """Public messages of a channel/thread/DM, oldest first (no ephemeral, no deleted)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral
        ]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Public messages in the user's DM channel, oldest first."""
        cid = self.dm_channel_id(user)
        return [] if cid is None else self.channel_messages(cid)

    def responses(self, interaction: int | InteractionHandle) -> list[FakeMessage]:
        """Messages one interaction created or edited (its response, follow-ups, the
        component message it updated), oldest first; deleted ones left out.
        """
        if isinstance(interaction, InteractionHandle):
            handle = interaction
        else:
            handle = self.interactions[interaction]
        out: list[FakeMessage] = []
        for mid in dict.fromkeys(handle.touched_ids):
            msg = self.messages.get(mid)
            if msg is not None and not msg.deleted:
                out.append(msg)
        return out

    def threads(self, parent_id: int | None = None) -> list[FakeChannel]:
        """Threads (optionally of one parent channel), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (parent_id is None or c.parent_id == parent_id)
        ]

    def command(self, name: str) -> Json | None:
        """The synced payload of a chat-input command: this guild's, another guild's, then
        the global one.
        """
        scopes = sorted(self.commands, key=lambda g: (g is None, g != self.guild_id))
        for scope in scopes:
            for cmd in self.commands[scope]:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    # ------------------------------------------------------------------ JSON shapes

    def _user_json(self, user: FakeUser) -> Json:
        return {
            "id": str(user.id),
            "username": user.name,
            "discriminator": "0",
            "global_name": user.name,
            "avatar": None,
            "bot": user.bot,
            "public_flags": 0,
        }

    def _member_json(
        self, user: FakeUser, *, with_user: bool = True, permissions: int | None = None
    ) -> Json:
        data: Json = {
            "roles": [str(r) for r in user.role_ids],
            "joined_at": user.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self._user_json(user)
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def _role_json(self, role_id: int, name: str, permissions: int, position: int) -> Json:
        return {
            "id": str(role_id),
            "name": name,
            "permissions": str(permissions),
            "position": position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }

    def _roles_json(self) -> list[Json]:
        return [
            self._role_json(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
            self._role_json(self.manager_role_id, "Channel Managers", MANAGER_PERMISSIONS, 1),
            self._role_json(self.bot_role_id, self.bot_user.name, self.bot_permissions, 2),
        ]

    def _channel_json(self, channel: FakeChannel) -> Json:
        if channel.is_dm:
            recipient = self.users[channel.recipient_id or 0]
            return {
                "id": str(channel.id),
                "type": 1,
                "recipients": [self._user_json(recipient)],
                "last_message_id": None,
                "flags": 0,
            }
        data: Json = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(self.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": channel.permission_overwrites,
            "nsfw": False,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "topic": channel.topic,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if channel.is_thread:
            data.update(
                owner_id=str(channel.owner_id),
                message_count=len(self.channel_messages(channel.id)),
                total_message_sent=len(self.channel_messages(channel.id)),
                member_count=len(channel.member_ids),
                thread_metadata={
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": snowflake_iso(channel.id),
                    "create_timestamp": snowflake_iso(channel.id),
                    "invitable": True,
                },
            )
        return data

    def _guild_json(self) -> Json:
        users = list(self.users.values())
        channels = [c for c in self.channels.values() if not c.deleted and not c.is_dm]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(users),
            "members": [self._member_json(u) for u in users],
            "channels": [self._channel_json(c) for c in channels if not c.is_thread],
            "threads": [self._channel_json(c) for c in channels if c.is_thread and not c.archived],
            "roles": self._roles_json(),
            "joined_at": self.bot_user.joined_at,
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
        }

    def _attachment_json(self, att_id: int, channel_id: int, ephemeral: bool) -> Json:
        name, data, ctype = self._blobs[att_id]
        url = f"{self.base_url}/attachments/{channel_id}/{att_id}/{quote(name)}"
        return {
            "id": str(att_id),
            "filename": name,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": ctype,
            "ephemeral": ephemeral,
        }

    def _message_json(self, msg: FakeMessage) -> Json:
        channel = self.channels.get(msg.channel_id)
        author = self.users[msg.author_id]
        data: Json = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self._user_json(author),
            "content": msg.content,
            "timestamp": snowflake_iso(msg.id),
            "edited_timestamp": msg.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                self._attachment_json(a, msg.channel_id, msg.ephemeral) for a in msg.attachment_ids
            ],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if channel is not None and not channel.is_dm:
            data["guild_id"] = str(self.guild_id)
        if msg.interaction_id is not None:
            handle = self.interactions[msg.interaction_id]
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            meta: Json = {
                "id": str(handle.id),
                "type": handle.type,
                "user": self._user_json(handle.user),
                "authorizing_integration_owners": handle.payload["authorizing_integration_owners"],
            }
            if handle.message_id is not None:
                meta["interacted_message_id"] = str(handle.message_id)
            if handle.original_message_id is not None and handle.original_message_id != msg.id:
                meta["original_response_message_id"] = str(handle.original_message_id)
            data["interaction_metadata"] = meta
        if msg.reference_id is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(msg.reference_id),
                "channel_id": str(msg.channel_id),
            }
        if msg.thread_id is not None and msg.thread_id in self.channels:
            data["thread"] = self._channel_json(self.channels[msg.thread_id])
        if msg.poll is not None:
            data["poll"] = msg.poll
        return data

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(
            json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None})
        )
        session: _Session | None = None
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                continue
            msg = json.loads(frame.data)
            op, data = msg.get("op"), msg.get("d")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op == 2:
                self.identify_count += 1
                session = _Session(
                    ws=ws, session_id=secrets.token_hex(16), intents=int(data.get("intents", 0))
                )
                self._sessions.append(session)
                await self._send(session, "READY", self._ready_json(session, data))
                await self._send(session, "GUILD_CREATE", self._guild_json())
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

    def _ready_json(self, session: _Session, identify: Json) -> Json:
        ready: Json = {
            "v": 10,
            "user": self._user_json(self.bot_user) | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
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

    def _resume(self, ws: web.WebSocketResponse, data: Json) -> _Session | None:
        for session in self._sessions:
            if session.session_id == data.get("session_id"):
                session.ws = ws
                return session
        return None

    async def _members_chunk(self, ws: web.WebSocketResponse, data: Json) -> None:
        session = next((s for s in self._sessions if s.ws is ws), None)
        if session is None:
            return
        chunk = {
            "guild_id": str(self.guild_id),
            "members": [self._member_json(u) for u in self.users.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, session: _Session, event: str, data: Json) -> None:
        async with session.lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            await session.ws.send_str(json.dumps(frame))

    async def _send_quietly(self, session: _Session, event: str, data: Json) -> None:
        with contextlib.suppress(ConnectionError):
            await self._send(session, event, data)

    def _live_session(self) -> _Session | None:
        """The newest connected session: interactions go to the bot that connected last."""
        for session in reversed(self._sessions):
            if session.live:
                return session
        return None

    async def dispatch(self, event: str, data: Json) -> None:
        """Send a gateway event to the connected bot (raises if no bot is connected)."""
        session = self._live_session()
        if session is None:
            raise RuntimeError("no bot is connected to the fake Discord gateway")
        self._touch()
        await self._send(session, event, data)

    def _dispatch_soon(self, event: str, data: Json) -> None:
        """Tell a connected bot about a model change made by a (synchronous) test helper."""
        session = self._live_session()
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

    # ------------------------------------------------------------------ HTTP plumbing

    def _add_routes(self) -> None:
        app, guild = r"(?P<app>\d+)", r"(?P<guild>\d+)"
        cid, mid = r"(?P<cid>\d+)", r"(?P<mid>\d+|@original)"
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/gateway", self._get_gateway),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("PUT", f"/applications/{app}/commands", self._put_commands),
            ("GET", f"/applications/{app}/commands", self._get_commands),
            ("PUT", f"/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", f"/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("GET", rf"/guilds/{guild}/members/(?P<uid>\d+)", self._get_member),
            ("POST", f"/guilds/{guild}/channels", self._create_channel),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", f"/channels/{cid}", self._get_channel),
            ("PATCH", f"/channels/{cid}", self._edit_channel),
            ("DELETE", f"/channels/{cid}", self._delete_channel),
            ("PUT", rf"/channels/{cid}/permissions/(?P<oid>\d+)", self._set_overwrite),
            ("DELETE", rf"/channels/{cid}/permissions/(?P<oid>\d+)", self._set_overwrite),
            ("GET", f"/channels/{cid}/messages", self._history),
            ("POST", f"/channels/{cid}/messages", self._send_message),
            ("GET", f"/channels/{cid}/messages/{mid}", self._get_message),
            ("PATCH", f"/channels/{cid}/messages/{mid}", self._edit_message),
            ("DELETE", f"/channels/{cid}/messages/{mid}", self._delete_message),
            ("POST", f"/channels/{cid}/threads", self._create_thread),
            ("POST", f"/channels/{cid}/messages/{mid}/threads", self._create_thread),
            ("PUT", rf"/channels/{cid}/thread-members/(?P<uid>\d+|@me)", self._thread_member),
            ("DELETE", rf"/channels/{cid}/thread-members/(?P<uid>\d+|@me)", self._thread_member),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", hook, self._followup),
            ("GET", f"{hook}/messages/{mid}", self._webhook_message),
            ("PATCH", f"{hook}/messages/{mid}", self._webhook_message),
            ("DELETE", f"{hook}/messages/{mid}", self._webhook_message),
        ]
        self._routes = [(m, re.compile(p + "$"), h) for m, p, h in table]

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self.requests.append(f"{request.method} {path}")
        self._inflight += 1
        self._touch()
        try:
            for method, pattern, handler in self._routes:
                match = pattern.match(path)
                if match and method == request.method:
                    try:
                        return await handler(request, match.groupdict())
                    except Exception as exc:  # a 500 would make discord.py retry for seconds
                        self.unhandled.append(f"{request.method} {path} crashed: {exc!r}")
                        return _json({"code": 0, "message": f"fake Discord crashed: {exc!r}"}, 400)
            return self._unhandled(request, path)
        finally:
            self._inflight -= 1
            self._touch()

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        return self._unhandled(request, request.path)

    def _unhandled(self, request: web.Request, path: str) -> web.Response:
        self.unhandled.append(f"{request.method} {path}")
        return _json(
            {"code": 0, "message": f"fake Discord has no route {request.method} {path}"}, 404
        )

    def _error(self, request: web.Request, status: int, code: int, message: str) -> web.Response:
        body = {"code": code, "message": message}
        self.errors.append((f"{request.method} {request.path}", status, body))
        return _json(body, status)

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        blob = self._blobs.get(int(request.match_info["aid"]))
        if blob is None:
            return web.Response(status=404)
        return web.Response(body=blob[1], headers={"Content-Type": blob[2]})

    async def _read_body(self, request: web.Request) -> tuple[Json, Uploads]:
        """JSON body, or multipart `payload_json` + `files[n]` as discord.py sends them."""
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            return (json.loads(raw) if raw else {}), {}
        payload: Json = {}
        files: Uploads = {}
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif name.startswith("files[") and name.endswith("]"):
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files[int(name[6:-1])] = (part.filename or "file", bytes(await part.read()), ctype)
        return payload, files

    # ------------------------------------------------------------------ messages

    def _store_blob(self, name: str, data: bytes, ctype: str) -> int:
        att_id = self._snowflake()
        if ctype == "application/octet-stream" and name.lower().endswith(".png"):
            ctype = "image/png"
        self._blobs[att_id] = (name, data, ctype)
        return att_id

    def _number_components(self, components: list[Json]) -> list[Json]:
        """Give every component the numeric `id` Discord assigns when it is missing."""
        components = copy.deepcopy(components)
        nodes: list[Json] = []

        def walk(comp: Json) -> None:
            nodes.append(comp)
            for child in comp.get("components", []) or []:
                walk(child)
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    walk(comp[key])

        for comp in components:
            walk(comp)
        used = {n["id"] for n in nodes if isinstance(n.get("id"), int)}
        counter = 1
        for node in nodes:
            if not isinstance(node.get("id"), int):
                while counter in used:
                    counter += 1
                node["id"] = counter
                used.add(counter)
        return components

    def _apply_body(self, msg: FakeMessage, body: Json, files: Uploads, *, editing: bool) -> None:
        """Create or edit a message from a send/edit payload (Discord's PATCH semantics)."""
        if editing:
            msg.history.append(msg.snapshot())
            msg.edited_at = snowflake_iso(self._snowflake())
            msg.flags &= ~LOADING
        if not editing or "content" in body:
            msg.content = body.get("content") or ""
        if not editing or "embeds" in body:
            msg.embeds = list(body.get("embeds") or [])
        if not editing or "components" in body:
            msg.components = self._number_components(list(body.get("components") or []))
        if not editing:
            msg.flags |= int(body.get("flags") or 0)
        elif "flags" in body:
            new = int(body.get("flags") or 0)
            msg.flags = (msg.flags & ~SUPPRESS_EMBEDS) | (new & (SUPPRESS_EMBEDS | COMPONENTS_V2))
        if body.get("poll"):
            msg.poll = body["poll"]
        ref = body.get("message_reference")
        if not editing and ref and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
        self._apply_attachments(msg, body, files, editing=editing)

    def _apply_attachments(
        self, msg: FakeMessage, body: Json, files: Uploads, *, editing: bool
    ) -> None:
        old = dict(zip(msg.attachment_ids, msg.attachments, strict=True))
        ids: list[int] = []
        if "attachments" in body:
            used: set[int] = set()
            for entry in body.get("attachments") or []:
                aid = int(entry["id"])
                if aid in old:
                    ids.append(aid)
                elif aid in files:
                    name, data, ctype = files[aid]
                    ids.append(self._store_blob(entry.get("filename") or name, data, ctype))
                    used.add(aid)
            new = [files[i] for i in sorted(files) if i not in used]
        else:
            ids = list(msg.attachment_ids) if editing else []
            new = [files[i] for i in sorted(files)]
        ids += [self._store_blob(*f) for f in new]
        msg.attachment_ids = ids
        msg.attachments = [self._blobs[i][:2] for i in ids]

    def _new_message(
        self,
        channel_id: int,
        author: FakeUser,
        body: Json,
        files: Uploads,
        *,
        handle: InteractionHandle | None = None,
        extra_flags: int = 0,
    ) -> FakeMessage:
        msg_type = 0
        if handle is not None and handle.type in (2, 4):
            msg_type = 20 if (handle.payload.get("data") or {}).get("type", 1) == 1 else 23
        msg = FakeMessage(
            id=self._snowflake(),
            channel_id=channel_id,
            author_id=author.id,
            flags=extra_flags,
            interaction_id=handle.id if handle else None,
            type=msg_type,
        )
        self._apply_body(msg, body, files, editing=False)
        if msg.reference_id is not None and msg_type == 0:
            msg.type = 19
        self.messages[msg.id] = msg
        if handle is not None:
            handle.touched_ids.append(msg.id)
        self._message_event("MESSAGE_CREATE", msg)
        return msg

    def _edit(
        self, msg: FakeMessage, body: Json, files: Uploads, handle: InteractionHandle | None = None
    ) -> None:
        self._apply_body(msg, body, files, editing=True)
        if handle is not None:
            handle.touched_ids.append(msg.id)
        self._message_event("MESSAGE_UPDATE", msg)

    def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._message_event("MESSAGE_DELETE", msg)

    def _message_event(self, event: str, msg: FakeMessage) -> None:
        """Echo a bot-made change on the gateway like Discord (if the intents ask for it)."""
        session = self._live_session()
        channel = self.channels.get(msg.channel_id)
        if session is None or channel is None or msg.ephemeral:
            return
        if not session.intents & (DM_MESSAGES_INTENT if channel.is_dm else GUILD_MESSAGES_INTENT):
            return
        if event == "MESSAGE_DELETE":
            data: Json = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if not channel.is_dm:
                data["guild_id"] = str(self.guild_id)
        else:
            data = self._message_json(msg)
        self._dispatch_soon(event, data)

    def _find_message(self, channel_id: int, mid: str) -> FakeMessage | None:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel_id:
            return None
        return msg

    # ------------------------------------------------------------------ REST: users, app, commands

    async def _get_me(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return _json(self._user_json(self.bot_user) | {"verified": True, "mfa_enabled": False})

    async def _get_gateway(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """Only AutoShardedBot asks: one shard, no session limits to speak of."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": self.ws_url, "shards": 1, "session_start_limit": limit})

    async def _get_user(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        user = self.users.get(int(p["uid"]))
        if user is None:
            return self._error(request, 404, 10013, "Unknown User")
        return _json(self._user_json(user))

    async def _get_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        user = self.users.get(int(p["uid"]))
        if user is None or int(p["guild"]) != self.guild_id:
            return self._error(request, 404, 10007, "Unknown Member")
        return _json(self._member_json(user))

    async def _get_app(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        owner = FakeUser(id=self.owner_id, name="owner")
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._user_json(owner),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self._user_json(self.bot_user),
            }
        )

    async def _put_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        scope = int(p["guild"]) if "guild" in p else None
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(scope, [])}
        stored: list[Json] = []
        for cmd in await request.json():
            cmd = copy.deepcopy(cmd)
            cmd.setdefault("type", 1)
            cmd["id"] = old.get((cmd["name"], cmd["type"])) or str(self._snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self._snowflake())
            cmd.setdefault("description", "")
            cmd.setdefault("options", [])
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("nsfw", False)
            if scope is not None:
                cmd["guild_id"] = str(scope)
            stored.append(cmd)
        self.commands[scope] = stored
        return _json(stored)

    async def _get_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return _json(self.commands.get(int(p["guild"]) if "guild" in p else None, []))

    # ------------------------------------------------------------------ REST: channels

    async def _open_dm(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body = await request.json()
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None or user.bot:
            return self._error(request, 400, 50033, "Invalid Recipient(s)")
        return _json(self._channel_json(self.channels[self.open_dm(user)]))

    def _channel(self, p: dict[str, str]) -> FakeChannel | None:
        channel = self.channels.get(int(p["cid"]))
        return None if channel is None or channel.deleted else channel

    async def _get_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        return _json(self._channel_json(channel))

    async def _create_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body = await request.json()
        if body.get("type", 0) not in (0, 4):
            return self._error(request, 400, 50035, "fake Discord makes text channels/categories")
        cid = self._snowflake()
        self.channels[cid] = FakeChannel(
            id=cid,
            name=body["name"],
            type=int(body.get("type", 0)),
            position=len(self.channels),
            parent_id=int(body["parent_id"]) if body.get("parent_id") else None,
            topic=body.get("topic"),
            permission_overwrites=[_overwrite(o) for o in body.get("permission_overwrites", [])],
        )
        data = self._channel_json(self.channels[cid])
        self._dispatch_soon("CHANNEL_CREATE", data)
        return _json(data, 201)

    async def _edit_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm:
            return self._error(request, 404, 10003, "Unknown Channel")
        body = await request.json()
        channel.name = body.get("name", channel.name)
        channel.topic = body.get("topic", channel.topic)
        channel.archived = body.get("archived", channel.archived)
        channel.locked = body.get("locked", channel.locked)
        channel.auto_archive_duration = body.get(
            "auto_archive_duration", channel.auto_archive_duration
        )
        if "permission_overwrites" in body:
            channel.permission_overwrites = [_overwrite(o) for o in body["permission_overwrites"]]
        if "parent_id" in body:
            channel.parent_id = int(body["parent_id"]) if body["parent_id"] else None
        data = self._channel_json(channel)
        self._dispatch_soon("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return _json(data)

    async def _set_overwrite(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm or channel.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        rest = [o for o in channel.permission_overwrites if o["id"] != p["oid"]]
        if request.method == "PUT":
            rest.append(_overwrite({**await request.json(), "id": p["oid"]}))
        channel.permission_overwrites = rest
        self._dispatch_soon("CHANNEL_UPDATE", self._channel_json(channel))
        return web.Response(status=204)

    async def _delete_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm:
            return self._error(request, 404, 10003, "Unknown Channel")
        channel.deleted = True
        data = self._channel_json(channel)
        self._dispatch_soon("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data)
        return _json(data)

    async def _history(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        msgs = self.channel_messages(channel.id)
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        msgs = msgs[:limit] if "after" in q else msgs[-limit:]
        return _json([self._message_json(m) for m in reversed(msgs)])

    async def _send_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        if channel.is_dm and not self.users[channel.recipient_id or 0].dms_open:
            return self._error(request, 403, 50007, "Cannot send messages to this user")
        body, files = await self._read_body(request)
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions whisper
        msg = self._new_message(channel.id, self.bot_user, body, files)
        channel.archived = False
        return _json(self._message_json(msg))

    async def _get_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._find_message(int(p["cid"]), p["mid"])
        if msg is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return _json(self._message_json(msg))

    async def _edit_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._find_message(int(p["cid"]), p["mid"])
        if msg is None:
            return self._error(request, 404, 10008, "Unknown Message")
        if msg.author_id != self.bot_user.id:
            return self._error(
                request, 403, 50005, "Cannot edit a message authored by another user"
            )
        body, files = await self._read_body(request)
        self._edit(msg, body, files)
        return _json(self._message_json(msg))

    async def _delete_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._find_message(int(p["cid"]), p["mid"])
        if msg is None:
            return self._error(request, 404, 10008, "Unknown Message")
        self._delete(msg)
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        parent = self._channel(p)
        if parent is None or parent.is_dm or parent.is_thread:
            return self._error(request, 400, 50024, "Cannot execute action on this channel type")
        body = await request.json()
        starter: FakeMessage | None = None
        if "mid" in p:
            starter = self._find_message(parent.id, p["mid"])
            if starter is None:
                return self._error(request, 404, 10008, "Unknown Message")
            if starter.thread_id is not None:
                return self._error(request, 400, 160004, "A thread has already been created")
        tid = starter.id if starter else self._snowflake()  # Discord reuses the message id
        thread = FakeChannel(
            id=tid,
            name=body.get("name", "thread"),
            type=11 if starter else int(body.get("type", 12)),
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            member_ids={self.bot_user.id},
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.channels[tid] = thread
        if starter is not None:
            starter.thread_id = tid
        data = self._channel_json(thread)
        self._dispatch_soon("THREAD_CREATE", data | {"newly_created": True})
        return _json(data, 201)

    async def _thread_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        thread = self._channel(p)
        if thread is None or not thread.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        uid = self.bot_user.id if p["uid"] == "@me" else int(p["uid"])
        if uid not in self.users:
            return self._error(request, 404, 10013, "Unknown User")
        if request.method == "PUT":
            thread.member_ids.add(uid)
        else:
            thread.member_ids.discard(uid)
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: interactions

    async def _callback(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self.interactions.get(int(p["iid"]))
        if handle is None or handle.token != p["token"]:
            return self._error(request, 404, 10062, "Unknown interaction")
        if handle.callback_type is not None:
            return self._error(request, 400, 40060, "Interaction has already been acknowledged.")
        body, files = await self._read_body(request)
        ctype = int(body.get("type", 0))
        data: Json = body.get("data") or {}
        allowed = {
            1: {1},
            2: {4, 5, 9},
            3: {4, 5, 6, 7, 9},
            4: {8},
            5: {4, 5, 6, 7} if handle.message_id else {4, 5},
        }[handle.type]
        if ctype not in allowed:
            return self._error(request, 400, 40000, f"callback type {ctype} invalid here")
        msg: FakeMessage | None = None
        if ctype == 4:
            msg = self._new_message(handle.channel_id, self.bot_user, data, files, handle=handle)
        elif ctype == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._new_message(
                handle.channel_id, self.bot_user, {}, {}, handle=handle, extra_flags=flags
            )
        elif ctype in (6, 7):
            msg = self.messages[handle.message_id or 0]
            if ctype == 7:
                self._edit(msg, data, files, handle)
        elif ctype == 8:
            handle.choices = list(data.get("choices") or [])
        elif ctype == 9:
            handle.modal = data
        if msg is not None:
            handle.original_message_id = msg.id
        handle.callback_type = ctype
        handle.callback_data = body
        handle._set_responded()
        result: Json = {
            "interaction": {
                "id": str(handle.id),
                "type": handle.type,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            }
        }
        if msg is not None:
            result["interaction"]["response_message_id"] = str(msg.id)
            if ctype != 6:
                result["resource"] = {"type": ctype, "message": self._message_json(msg)}
        return _json(result)

    def _hook(self, p: dict[str, str]) -> InteractionHandle | None:
        handle = self._by_token.get(p["token"])
        if handle is None or int(p["app"]) != self.application_id or handle.callback_type is None:
            return None
        return handle

    async def _followup(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self._hook(p)
        if handle is None:
            return self._error(request, 404, 10015, "Unknown Webhook")
        body, files = await self._read_body(request)
        original = handle.response
        if (
            handle.callback_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # The first follow-up after a "thinking" defer fills in the placeholder and
            # keeps the defer's ephemerality.
            self._edit(original, body, files, handle)
            original.history.clear()
            original.edited_at = None
            msg = original
        else:
            msg = self._new_message(handle.channel_id, self.bot_user, body, files, handle=handle)
        handle.followup_ids.append(msg.id)
        if _truthy(request.query.get("wait")):
            return _json(self._message_json(msg))
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self._hook(p)
        if handle is None:
            return self._error(request, 404, 10015, "Unknown Webhook")
        mid = handle.original_message_id if p["mid"] == "@original" else int(p["mid"])
        owned = {handle.original_message_id, *handle.followup_ids}
        msg = self.messages.get(mid or 0)
        if msg is None or msg.deleted or mid not in owned:
            return self._error(request, 404, 10008, "Unknown Message")
        if request.method == "DELETE":
            self._delete(msg)
            return web.Response(status=204)
        if request.method == "PATCH":
            body, files = await self._read_body(request)
            self._edit(msg, body, files, handle)
        return _json(self._message_json(msg))

    # ------------------------------------------------------------------ driving the bot

    async def _fire(
        self,
        itype: int,
        user: FakeUser,
        channel_id: int,
        data: Json,
        message: FakeMessage | None = None,
    ) -> InteractionHandle:
        """Build an INTERACTION_CREATE the way Discord does and send it to the bot."""
        channel = self.channels[channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise ValueError(f"{user.name} is not the recipient of DM channel {channel_id}")
        iid = self._snowflake()
        payload: Json = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": f"fake-{iid}-{secrets.token_hex(8)}",
            "version": 1,
            "data": data,
            "channel_id": str(channel_id),
            "channel": self._channel_json(channel),
            "app_permissions": str(self.bot_permissions),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.is_dm:
            payload.update(
                user=self._user_json(user),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        else:
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=self._member_json(user, permissions=self.permissions_of(user, channel_id)),
                context=0,
                authorizing_integration_owners={"0": str(self.guild_id)},
            )
        if message is not None:
            payload["message"] = self._message_json(message)
        handle = InteractionHandle(
            self,
            id=iid,
            token=payload["token"],
            type=itype,
            user=user,
            channel_id=channel_id,
            payload=payload,
            message_id=message.id if message else None,
        )
        self.interactions[iid] = handle
        self._by_token[handle.token] = handle
        await self.dispatch("INTERACTION_CREATE", payload)
        return handle

    def _check_allowed(self, cmd: Json | None, user: FakeUser, channel: FakeChannel) -> None:
        """Discord refuses commands a member lacks `default_member_permissions` for."""
        if cmd is None or not self.enforce_command_permissions:
            return
        needed = int(cmd.get("default_member_permissions") or 0)
        perms = self.permissions_of(user, channel.id)
        if needed and (perms & needed) != needed and not perms & 8 and not channel.is_dm:
            raise PermissionError(f"{user.name} may not use /{cmd['name']} (Discord hides it)")
        contexts = cmd.get("contexts")
        ctx = 1 if channel.is_dm else 0
        if (contexts is not None and ctx not in contexts) or (
            ctx == 1 and cmd.get("dm_permission") is False
        ):
            raise PermissionError(f"/{cmd['name']} is not available in this context")

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        path: tuple[str, ...],
        options: dict[str, Any],
        focused: str | None = None,
    ) -> Json:
        cmd = self.command(name)
        self._check_allowed(cmd, user, channel)
        data: Json = {"id": cmd["id"] if cmd else str(self._snowflake()), "name": name, "type": 1}
        if cmd and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        defs: list[Json] | None = cmd.get("options", []) if cmd else None
        node = data
        for i, part in enumerate(path):
            if defs is not None:
                sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
                if sub is None:
                    raise ValueError(f"/{name} has no subcommand or group {part!r}")
                kind, defs = sub["type"], sub.get("options", [])
            else:
                kind = 2 if i < len(path) - 1 else 1
            child: Json = {"type": kind, "name": part, "options": []}
            node.setdefault("options", []).append(child)
            node = child
        if defs is not None and any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{name} {' '.join(path)} needs a subcommand")
        resolved: Json = {}
        values = [
            self._option(k, v, defs, resolved, focused == k, channel.id) for k, v in options.items()
        ]
        if focused is not None and focused not in options:
            values.append(self._option(focused, "", defs, resolved, True, channel.id))
        if defs is not None and focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{name} {' '.join(path)}: missing required options {missing}")
        node["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        name: str,
        value: Any,
        defs: list[Json] | None,
        resolved: Json,
        focused: bool,
        channel_id: int,
    ) -> Json:
        od = next((o for o in defs if o["name"] == name), None) if defs is not None else None
        if defs is not None and od is None:
            raise ValueError(f"unknown option {name!r}; known: {[o['name'] for o in defs]}")
        kind = int(od["type"]) if od else self._infer_type(value)
        if focused:
            return {"name": name, "type": kind, "value": value, "focused": True}
        choices = [c["value"] for c in (od or {}).get("choices") or []]
        if choices and value not in choices:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
        if kind == 3:
            value = str(value)
        elif kind == 4:
            value = int(value)
        elif kind == 5:
            value = bool(value)
        elif kind == 10:
            value = float(value)
        elif kind in (6, 7, 8, 9):
            value = self._resolve_snowflake(kind, value, resolved, channel_id)
        elif kind == 11:
            filename, blob = value
            att_id = self._store_blob(filename, bytes(blob), "application/octet-stream")
            resolved.setdefault("attachments", {})[str(att_id)] = self._attachment_json(
                att_id, 0, True
            )
            value = str(att_id)
        return {"name": name, "type": kind, "value": value}

    @staticmethod
    def _infer_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, FakeUser):
            return 6
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes):
            return 11
        return 3

    def _resolve_snowflake(self, kind: int, value: Any, resolved: Json, channel_id: int) -> str:
        """Fill `resolved` for an option of type user (6), channel (7), role (8) or
        mentionable (9); returns the id string Discord puts in `value`.
        """
        sid = value.id if isinstance(value, FakeUser) else int(value)
        roles = {int(r["id"]): r for r in self._roles_json()}
        if kind in (6, 9) and sid in self.users:
            user = self.users[sid]
            resolved.setdefault("users", {})[str(sid)] = self._user_json(user)
            perms = self.permissions_of(user, channel_id)
            member = self._member_json(user, with_user=False, permissions=perms)
            resolved.setdefault("members", {})[str(sid)] = member
        elif kind == 7 and sid in self.channels:
            data = self._channel_json(self.channels[sid])
            data["permissions"] = str(EVERYONE_PERMISSIONS)
            resolved.setdefault("channels", {})[str(sid)] = data
        elif kind in (8, 9) and sid in roles:
            resolved.setdefault("roles", {})[str(sid)] = roles[sid]
        else:
            raise ValueError(f"nothing with id {sid} fits an option of type {kind}")
        return str(sid)

    async def slash(
        self, user: FakeUser, channel_id: int, command: str, /, *path: str, **options: Any
    ) -> InteractionHandle:
        """Run `/command [group] [sub] opt:value...` as `user` in a channel (or DM channel).

        Option types come from the synced command payloads (inferred when never synced).
        Values: FakeUser (or user id) for user options, channel id for channel options,
        `(filename, bytes)` for attachment options.
        """
        channel = self.channels[channel_id]
        data = self._command_data(user, channel, command, path, options)
        return await self._fire(2, user, channel_id, data)

    async def autocomplete(
        self,
        user: FakeUser,
        channel_id: int,
        command: str,
        /,
        *path: str,
        focused: str,
        timeout: float = 5.0,
        **options: Any,
    ) -> list[Json]:
        """Ask the bot to autocomplete option `focused` (typed value in `options`, default "")
        and return the choices it answered (`[{"name": ..., "value": ...}]`).
        """
        channel = self.channels[channel_id]
        data = self._command_data(user, channel, command, path, options, focused=focused)
        handle = await self._fire(4, user, channel_id, data)
        await handle.wait(timeout, settle=False)
        return handle.choices or []

    def _component_on(
        self, message: FakeMessage | int, custom_id: str, force: bool
    ) -> tuple[FakeMessage, Json]:
        msg = self.messages[message.id if isinstance(message, FakeMessage) else message]
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        comp = msg.component(custom_id)
        if comp.get("disabled") and not force:
            raise ValueError(
                f"component {custom_id!r} is disabled (pass force=True to click anyway)"
            )
        return msg, comp

    async def click(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, *, force: bool = False
    ) -> InteractionHandle:
        """Press a button on a stored message (channel, thread or DM) as `user`."""
        msg, comp = self._component_on(message, custom_id, force)
        if comp["type"] != 2 or comp.get("style") in (5, 6):
            raise ValueError(f"component {custom_id!r} is not a clickable button: {comp}")
        data = {"custom_id": custom_id, "component_type": 2, "id": comp.get("id")}
        return await self._fire(3, user, msg.channel_id, data, msg)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: list[Any],
        *,
        force: bool = False,
    ) -> InteractionHandle:
        """Choose `values` in a select menu (string values, or users/ids for entity selects)."""
        msg, comp = self._component_on(message, custom_id, force)
        kind = comp["type"]
        if kind not in (3, 5, 6, 7, 8):
            raise ValueError(f"component {custom_id!r} is not a select menu: {comp}")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not force and not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: Json = {"custom_id": custom_id, "component_type": kind, "id": comp.get("id")}
        if kind == 3:
            allowed = [o["value"] for o in comp["options"]]
            bad = [v for v in values if v not in allowed]
            if bad and not force:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {allowed}")
            data["values"] = [str(v) for v in values]
        else:
            resolved: Json = {}
            as_option = {5: 6, 6: 8, 7: 9, 8: 7}[kind]  # select type -> option type
            data["values"] = [
                self._resolve_snowflake(as_option, v, resolved, msg.channel_id) for v in values
            ]
            data["resolved"] = resolved
        return await self._fire(3, user, msg.channel_id, data, msg)

    async def submit_modal(
        self, user: FakeUser, source: InteractionHandle, values: dict[str, str | list[str]]
    ) -> InteractionHandle:
        """Fill in and submit the modal the bot showed in answer to `source` (callback 9).

        `values` maps custom_id to text (text inputs) or list of values (selects); text
        inputs left out keep their prefilled value, and missing required ones raise.
        """
        if source.modal is None:
            raise ValueError(f"interaction {source.id} was not answered with a modal")
        unknown = set(values)

        def fill(comp: Json) -> Json:
            kind, cid = comp["type"], str(comp.get("custom_id") or "")
            out: Json = {"type": kind, "id": comp.get("id")}
            if kind == 1:
                out["components"] = [fill(c) for c in comp.get("components", [])]
            elif kind == 18:
                out["component"] = fill(comp["component"])
            elif kind == 4:
                unknown.discard(cid)
                text = str(values[cid]) if cid in values else str(comp.get("value") or "")
                if not text and comp.get("required", True):
                    raise ValueError(f"modal text input {cid!r} is required")
                out.update(custom_id=cid, value=text)
            elif cid:
                unknown.discard(cid)
                picked = values.get(cid, [])
                out.update(
                    custom_id=cid, values=list(picked) if isinstance(picked, list) else [picked]
                )
            return out

        components = [fill(c) for c in source.modal.get("components", [])]
        if unknown:
            raise ValueError(
                f"modal {source.modal.get('custom_id')!r} has no inputs {sorted(unknown)}"
            )
        data = {"custom_id": source.modal["custom_id"], "components": components}
        message = self.messages.get(source.message_id) if source.message_id else None
        return await self._fire(5, user, source.channel_id, data, message)

    async def post_message(self, user: FakeUser, channel_id: int, content: str) -> FakeMessage:
        """A user writes in a channel: stored, and sent to the bot as MESSAGE_CREATE."""
        channel = self.channels[channel_id]
        msg = FakeMessage(
            id=self._snowflake(), channel_id=channel_id, author_id=user.id, content=content
        )
        self.messages[msg.id] = msg
        data = self._message_json(msg)
        session = self._live_session()
        intents = session.intents if session else 0
        mentioned = self.bot_user.mention in content or f"<@!{self.bot_user.id}>" in content
        if not channel.is_dm:
            data["member"] = self._member_json(user, with_user=False)
            if not intents & MESSAGE_CONTENT_INTENT and not mentioned:
                data["content"] = ""  # what Discord sends without the message_content intent
        if mentioned:
            data["mentions"] = [self._user_json(self.bot_user)]
        await self.dispatch("MESSAGE_CREATE", data)
        return msg
