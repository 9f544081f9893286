"""A fake Discord (REST + gateway) that the unmodified discord.py client logs into.

Why: slash commands, components and interaction responses can only be tested end to end
through discord.py's own code paths; this server speaks just enough of Discord's API over
real HTTP and a real websocket on 127.0.0.1 for that. Tests drive it as the *users*
(`slash`, `click`, `select`, `autocomplete`, `submit_modal`, `post_message`) and read what
the bot sent from the message store. Anything the bot asks that the server does not know
lands in `unhandled` (tests assert it stays empty).

This module holds the FakeDiscord class: its state, start/stop, patching discord.py, and
the test helpers that add or look up users, channels and messages. The rest is mixed in:

- payloads.py: JSON of users, members, roles, channels, the guild and messages
- gateway.py: the websocket (IDENTIFY, READY, GUILD_CREATE, RESUME) and `dispatch`
- rest.py: REST plumbing (route table, dispatcher, errors, request bodies, attachments)
- buckets.py: Discord's rate limits (per-route buckets, the global limit, their headers)
- routes_app.py, routes_channels.py, routes_interactions.py: the REST handlers by area
- messages.py: the message store (create, edit, delete, attachments, gateway echo)
- options.py: slash-command data built and validated like Discord does
- driver.py: what tests call as users (`slash`, `click`, ...) and `settle`
- permissions.py: the bot's permissions per channel, and what Discord refuses without them
- channel_types.py: Discord's kinds of channel, and what each takes (messages, threads)
- spec_check.py (with spec_prepare.py, limits.py and spec/): every request body checked
  against Discord's OpenAPI spec and documented limits; what Discord would refuse gets
  its 400 and lands in `violations`, which fail the test at `stop`
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections.abc import Awaitable, Callable

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import channel_types
from .buckets import DEFAULT_SCALE, RateLimits
from .common import (
    DM_MESSAGES_INTENT,
    EVERYONE_PERMISSIONS,
    GUILD_MESSAGES_INTENT,
    MANAGER_PERMISSIONS,
    MESSAGE_CONTENT_INTENT,
    Handler,
    Uploads,
    or_bits,
)
from .driver import BUSY_TASK_PREFIXES, DriverMixin
from .faults import Faults
from .gateway import HEARTBEAT_INTERVAL, PRIVILEGED_INTENTS, GatewayMixin, Session
from .messages import MessageStoreMixin
from .models import (
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    Json,
    SnowflakeFactory,
    snowflake_iso,
)
from .options import CommandOptionsMixin
from .payloads import PayloadsMixin
from .permissions import BotPermissionsMixin
from .rest import RestMixin
from .routes_app import AppRoutesMixin
from .routes_channels import ChannelRoutesMixin, Hold
from .routes_interactions import InteractionRoutesMixin

# Besides FakeDiscord, the constants and types that lived here before the split.
__all__ = [
    "BUSY_TASK_PREFIXES",
    "DM_MESSAGES_INTENT",
    "EVERYONE_PERMISSIONS",
    "GUILD_MESSAGES_INTENT",
    "MANAGER_PERMISSIONS",
    "MESSAGE_CONTENT_INTENT",
    "FakeDiscord",
    "Handler",
    "Uploads",
]


class FakeDiscord(
    PayloadsMixin,
    GatewayMixin,
    RestMixin,
    MessageStoreMixin,
    AppRoutesMixin,
    ChannelRoutesMixin,
    InteractionRoutesMixin,
    CommandOptionsMixin,
    DriverMixin,
    BotPermissionsMixin,
):
    """The fake server: one bot, its guilds (one unless a test adds more), their channels
    and members, DMs and messages. `guild_id` and the role ids here are the first guild's.
    """

    def __init__(
        self,
        *,
        bot_name: str = "hauntkeeper",
        guild_name: str = "Fake Guild",
        guild_id: int | None = None,
        guild_shard: tuple[int, int] | None = None,
        latency: float = 0.0,
        rate_window_scale: float = DEFAULT_SCALE,
    ) -> None:
        """`guild_id` lets a bot whose config names its guild sync commands to this one;
        `guild_shard` ([id, count]) picks the first guild's id so its events go to that
        shard. `latency` (seconds, a round trip; settable later too) is added to every
        REST call, half on the request's way and half on the answer's, and half of it to
        every event pushed to the bot (an interaction too), as the network to Discord
        adds it; `pause` is how it waits (a test may replace it to see the waits).
        `rate_window_scale` shrinks Discord's rate-limit windows (buckets.py) so the
        suite does not wait out real seconds; 1.0 is Discord's size (settable later
        too, as `rate_limits.scale`)."""
        self.latency = latency
        self.rate_limits = RateLimits(rate_window_scale)  # Discord's buckets (buckets.py)
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep
        # Seconds added to the event loop's clock for Discord's deadlines (`now`): a test
        # moves Discord's time on (`advance_clock`) without waiting it out.
        self.clock_skew = 0.0
        self._snowflake = SnowflakeFactory()
        self.application_id = self._snowflake()
        self.guild_id = guild_id or (self._snowflake.on_shard(*guild_shard) if guild_shard
                                     else self._snowflake())
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
        first = FakeGuild(self.guild_id, guild_name, self.owner_id, self.manager_role_id,
                          self.bot_role_id, {self.bot_user.id})
        self.guilds: dict[int, FakeGuild] = {first.id: first}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[int | None, list[Json]] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self.unhandled: list[str] = []
        # Bodies Discord would refuse (spec_check.py): `stop` fails the test on any left;
        # a test that sends bad bodies on purpose empties it once it has looked.
        self.violations: list[str] = []
        self.requests: list[str] = []
        self.errors: list[tuple[str, int, Json]] = []
        self.identify_count = 0
        self.identified_shards: list[tuple[int, int]] = []  # [id, count] of each IDENTIFY
        self.shard_count = 1  # what GET /gateway/bot recommends
        self.resume_count = 0
        self.replayed = 0  # events a RESUME sent again (gateway.py)
        self.heartbeats = 0  # op 1s the bot sent
        self.heartbeat_interval = HEARTBEAT_INTERVAL  # ms, HELLO's: tests shorten it
        # The Developer Portal's privileged-intent switches (all on unless a test turns
        # one off: an IDENTIFY asking for one that is off is closed with 4014).
        self.enabled_intents = PRIVILEGED_INTENTS
        self.token_revoked = False  # `revoke_token`: 4004 on the gateway, 401 on REST
        self._gateway_open = asyncio.Event()  # cleared while `hold_gateway` holds
        self._gateway_open.set()
        self._closed_by_discord: weakref.WeakSet[web.WebSocketResponse] = weakref.WeakSet()
        self.faults = Faults()  # errors a test injects (faults.py)
        self.nonce_repeats = 0  # sends answered with an earlier message (enforce_nonce)
        # Interactions whose first answer came after Discord's 3 seconds (refused 10062).
        self.late_answers: list[int] = []
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._holds: dict[int, Hold] = {}
        self._edit_holds: dict[int, Hold] = {}
        self.busy_task_prefixes: tuple[str, ...] = BUSY_TASK_PREFIXES
        self._by_token: dict[str, InteractionHandle] = {}
        self._dm_channels: dict[int, int] = {}
        self._blobs: dict[int, tuple[str, bytes, str]] = {}
        # attachment id -> the description (alt text) it was sent with, if any
        self._descriptions: dict[int, str | None] = {}
        self._sessions: list[Session] = []
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
        """Close sockets and the server, and undo `patch_discord`. Stop the bot first.
        Fails (AssertionError) if a request broke Discord's spec or limits: the bot may
        have swallowed the 400, but real Discord would have refused it too."""
        for session in self._sessions:
            if not session.ws.closed:
                await session.ws.close()
        for task in list(self._background):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.unpatch_discord()
        if self.violations:
            raise AssertionError(
                "the bot sent what Discord would refuse:\n" + "\n".join(self.violations)
            )

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

    def now(self) -> float:
        """Discord's clock for its deadlines (an interaction's 3 seconds and its token's
        15 minutes): the event loop's, moved on by `advance_clock`."""
        return asyncio.get_running_loop().time() + self.clock_skew

    def advance_clock(self, seconds: float) -> None:
        """Let `seconds` pass for Discord's deadlines at once (a token grows old)."""
        self.clock_skew += seconds

    # ------------------------------------------------------------------ model

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None,
                  locale: str = "en-US") -> int:
        """Another server the bot is in (send before the bot starts, or it never hears of
        it: the fake has no GUILD_CREATE for a join); returns its id. `shard`: [id, count]
        of the shard its events go to. `locale`: its preferred locale (Discord's
        `guild_locale` on its interactions)."""
        gid = self._snowflake.on_shard(*shard) if shard else self._snowflake()
        guild = FakeGuild(gid, name, self._snowflake(), self._snowflake(),
                          self._snowflake(), {self.bot_user.id}, locale=locale)
        self.guilds[guild.id] = guild
        self.bot_user.role_ids.append(guild.bot_role_id)
        return guild.id

    def add_user(
        self,
        name: str,
        *,
        dms_open: bool = True,
        manage_channels: bool = False,
        locale: str = "en-US",
        guild: int | None = None,
    ) -> FakeUser:
        """A new member of a guild (the first one unless `guild` is given).
        `manage_channels` gives them that guild's channel-manager role."""
        uid = self._snowflake()
        user = FakeUser(
            id=uid,
            name=name,
            dms_open=dms_open,
            manage_channels=manage_channels,
            joined_at=snowflake_iso(uid),
            locale=locale,
        )
        self.users[uid] = user
        self.join_guild(user, guild or self.guild_id, manage_channels=manage_channels)
        return user

    def join_guild(self, user: FakeUser, guild: int, *, manage_channels: bool = False) -> None:
        """Make a user a member of one more guild, a channel manager there or not."""
        target = self.guilds[guild]
        target.member_ids.add(user.id)
        if manage_channels:
            user.role_ids.append(target.manager_role_id)
        self._dispatch_soon(
            "GUILD_MEMBER_ADD", {**self._member_json(user, target), "guild_id": str(guild)}
        )

    def add_role(self, name: str, *, guild: int | None = None) -> int:
        """A new role of a guild with no permissions of its own (a server's "Game Master"
        role, say); the bot hears of it as Discord tells it (GUILD_ROLE_CREATE)."""
        target = self.guilds[guild or self.guild_id]
        rid = self._snowflake()
        target.extra_roles[rid] = name
        role = self._role_json(rid, name, 0, 2 + len(target.extra_roles))
        self._dispatch_soon("GUILD_ROLE_CREATE", {"guild_id": str(target.id), "role": role})
        return rid

    def give_role(self, user: FakeUser, role_id: int) -> None:
        """The member gets a role; their next interaction's member carries it."""
        if role_id not in user.role_ids:
            user.role_ids.append(role_id)

    def add_channel(self, name: str, *, topic: str | None = None, guild: int | None = None,
                    kind: int = channel_types.TEXT) -> int:
        """A new channel of a guild (the first one unless `guild` is given); its id.
        `kind`: Discord's channel type, a text channel unless told (voice 2, category
        4, announcement 5, stage 13, forum 15, media 16: channel_types.py says what
        each takes)."""
        if kind not in channel_types.GUILD_CHANNELS:
            raise ValueError(f"a guild channel is not of type {kind}")
        cid = self._snowflake()
        channel = FakeChannel(id=cid, name=name, type=kind, position=len(self.channels),
                              topic=topic, guild_id=guild or self.guild_id)
        self.channels[cid] = channel
        self._dispatch_soon("CHANNEL_CREATE", self._channel_json(channel))
        return cid

    def add_thread(self, parent: int, name: str, *, owner: FakeUser,
                   private: bool = False) -> int:
        """A thread a member opened under a channel: public (an announcement thread under
        an announcement channel, a post in a forum or media channel) or `private` (a
        text channel's only), of the type Discord gives it (channel_types.py); returns
        its id. The bot hears of it as Discord tells it (THREAD_CREATE), and of a
        private one only once it may see it: invited (`add_thread_member`), or with
        Manage Threads."""
        kind = channel_types.member_thread(self.channels[parent].type, private=private)
        tid = self._snowflake()
        thread = FakeChannel(id=tid, name=name, type=kind, parent_id=parent, owner_id=owner.id,
                             member_ids={owner.id})
        self.channels[tid] = thread
        if self.bot_sees(thread):
            self._dispatch_soon("THREAD_CREATE",
                                self._channel_json(thread) | {"newly_created": True})
        return tid

    def add_thread_member(self, thread_id: int, user: FakeUser) -> None:
        """A member of a thread adds someone to it (a mention of them in a private
        thread does). The bot added to a private thread it could not see hears of the
        thread then, as Discord tells it (THREAD_CREATE)."""
        thread = self.channels[thread_id]
        if not thread.is_thread:
            raise ValueError(f"channel {thread_id} is not a thread")
        sees = self.bot_sees(thread)
        thread.member_ids.add(user.id)
        if user.id == self.bot_user.id and not sees:
            self._dispatch_soon("THREAD_CREATE", self._channel_json(thread))

    def guild_of(self, channel: FakeChannel) -> FakeGuild:
        """The guild a (non-DM) channel belongs to; a thread's is its parent's."""
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id or 0]
        return self.guilds[channel.guild_id or self.guild_id]

    def permissions_of(self, user: FakeUser, channel_id: int | None = None) -> int:
        """Permission bits of a member: the channel's guild's roles, then the channel's
        overwrites (Discord's order: @everyone, roles, member); a thread uses its parent's.
        """
        if user.bot:
            return self.bot_permissions_in(channel_id)
        channel = self.channels.get(channel_id or 0)
        if channel is not None and channel.is_thread:
            channel = self.channels.get(channel.parent_id or 0)
        guild = self.guilds[self.guild_id]
        if channel is not None and not channel.is_dm:
            guild = self.guild_of(channel)
        perms = EVERYONE_PERMISSIONS
        if guild.manager_role_id in user.role_ids:
            perms |= MANAGER_PERMISSIONS
        if channel is None or channel.is_dm:
            return perms
        overwrites = {int(o["id"]): o for o in channel.permission_overwrites}

        def apply(allow: int, deny: int) -> None:
            nonlocal perms
            perms = (perms & ~deny) | allow

        everyone = overwrites.get(guild.id)
        if everyone:
            apply(int(everyone["allow"]), int(everyone["deny"]))
        roles = [overwrites[r] for r in user.role_ids if r in overwrites]
        apply(or_bits(o["allow"] for o in roles), or_bits(o["deny"] for o in roles))
        mine = overwrites.get(user.id)
        if mine:
            apply(int(mine["allow"]), int(mine["deny"]))
        return perms

    def revoke_bot_permissions(self, *names: str) -> None:
        """Take permissions (e.g. "create_private_threads") from the bot's role, and
        Administrator with them since it implies every other: the bot's requests that need
        them then fail with 403 Missing Permissions, as on Discord. Closed DMs are the
        user side of this (`add_user(..., dms_open=False)`).
        """
        perms = discord.Permissions(self.bot_permissions)
        perms.administrator = False
        for name in names:
            if not hasattr(discord.Permissions, name):
                raise ValueError(f"no permission called {name!r}")
            setattr(perms, name, False)
        self.bot_permissions = perms.value
        for guild in self.guilds.values():
            role = self._role_json(guild.bot_role_id, self.bot_user.name, self.bot_permissions, 2)
            self._dispatch_soon("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role})

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

    def can_read(self, user: FakeUser, channel_id: int) -> bool:
        """Whether `user` may read the channel's messages, old and new: a private thread
        only while they are its member (removed, its history is closed to them too), a
        DM only its recipient; other channels are open to every member here."""
        channel = self.channels[channel_id]
        if channel.type == 12:
            return user.id in channel.member_ids
        if channel.is_dm:
            return channel.recipient_id == user.id
        return True

    def threads(self, parent_id: int | None = None) -> list[FakeChannel]:
        """Threads (optionally of one parent channel), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (parent_id is None or c.parent_id == parent_id)
        ]

    def command(self, name: str, guild: int | None = None) -> Json | None:
        """The synced payload of a chat-input command: this guild's (the first one unless
        `guild` is given), another guild's, then the global one.
        """
        here = guild or self.guild_id
        scopes = sorted(self.commands, key=lambda g: (g is None, g != here))
        for scope in scopes:
            for cmd in self.commands[scope]:
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None
