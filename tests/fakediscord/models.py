"""Records kept by the fake Discord server: users, channels, messages and interactions.

They are plain dataclasses so tests can read them directly; the server turns them into
the JSON shapes discord.py expects (see payloads.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
# Message flags the fake server understands.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
# Component types that only hold other components (they are skipped when flattening).
LAYOUT_TYPES = frozenset({1, 9, 17, 18})


class SnowflakeFactory:
    """Hands out unique, increasing, time-based ids, so `snowflake_time` gives real dates."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last

    def on_shard(self, shard_id: int, count: int) -> int:
        """A new id whose guild Discord would put on that shard ((id >> 22) % count): its
        timestamp moved on to the next fitting millisecond."""
        first = self()
        ms = first >> 22
        ms += (shard_id - ms) % count
        self._last = max(first, (ms << 22) | (first & 0x3FFFFF))
        return self._last


def snowflake_iso(snowflake: int) -> str:
    """ISO timestamp of a snowflake, for `timestamp`/`joined_at` fields."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}000+00:00"


@dataclass(eq=False)
class FakeUser:
    """A Discord user, a member of one or more fake guilds (the bot is in all of them).

    `role_ids` holds the roles of every guild the user is in (role ids are unique);
    `manage_channels` says they got the manager role where they were first added.
    """

    id: int
    name: str
    dms_open: bool = True
    manage_channels: bool = False
    bot: bool = False
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = ""
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        """The `<@id>` text Discord renders as a mention."""
        return f"<@{self.id}>"


@dataclass(eq=False)
class FakeGuild:
    """A server: its @everyone role has the guild's id, and each guild has its own
    channel-manager and bot roles, so a member's rights differ from server to server."""

    id: int
    name: str
    owner_id: int
    manager_role_id: int
    bot_role_id: int
    member_ids: set[int] = field(default_factory=set)
    # Roles a test created (`FakeDiscord.add_role`): id -> name, with no permissions.
    extra_roles: dict[int, str] = field(default_factory=dict)
    # The server's preferred locale (Discord's `preferred_locale`, and each interaction's
    # `guild_locale` there): a community server sets it; others read "en-US".
    locale: str = "en-US"

    @property
    def role_ids(self) -> set[int]:
        return {self.id, self.manager_role_id, self.bot_role_id, *self.extra_roles}


@dataclass(eq=False)
class FakeChannel:
    """A guild channel (text 0, voice 2, category 4, announcement 5, stage 13, forum 15,
    media 16), a DM (1) or a thread (10 announcement, 11 public, 12 private): what each
    takes is in channel_types.py.

    `guild_id` None means the first guild (threads: their parent's); DMs have none.
    """

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    recipient_id: int | None = None
    owner_id: int | None = None
    member_ids: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True  # private threads: may members other than moderators add people
    topic: str | None = None
    permission_overwrites: list[Json] = field(default_factory=list)
    deleted: bool = False

    @property
    def is_dm(self) -> bool:
        """DM channels have no guild: interactions there carry `user`, not `member`."""
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        """Threads need the extra `thread_metadata` fields discord.py requires."""
        return self.type in (10, 11, 12)


def flat_components(components: Iterable[Json]) -> list[Json]:
    """Every leaf component (buttons, selects, text...) of a component tree, in order.

    Layout components (action rows, sections, containers, labels) are walked into, not
    returned. Each dict is a copy with `custom_id`, `label`, `type`, `options` and
    `disabled` always present, so tests can read them without `.get`.
    """
    out: list[Json] = []

    def walk(comp: Json) -> None:
        if comp.get("type") not in LAYOUT_TYPES:
            flat = dict(comp)
            flat.setdefault("custom_id", None)
            flat.setdefault("label", None)
            flat.setdefault("options", [])
            flat.setdefault("disabled", False)
            out.append(flat)
        for child in comp.get("components", []) or []:
            walk(child)
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                walk(comp[key])

    for component in components:
        walk(component)
    return out


@dataclass(eq=False)
class FakeMessage:
    """A message as the server stores it: latest content; earlier versions in `history`."""

    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[tuple[str, bytes]] = field(default_factory=list)
    attachment_ids: list[int] = field(default_factory=list)
    # Each attachment's description (its alt text, read out by screen readers), in the
    # order of `attachments`; None where the sender gave none.
    descriptions: list[str | None] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    type: int = 0
    reference_id: int | None = None
    thread_id: int | None = None
    poll: Json | None = None
    deleted: bool = False
    edited_at: str | None = None
    history: list[Json] = field(default_factory=list)
    # A snowflake per edit, in the order made (history[n] is what edit n replaced): when
    # each version came, comparable with message ids (tests of delivery order).
    edit_ids: list[int] = field(default_factory=list)
    nonce: str | None = None
    # The users the message notified when it was made: those its content mentions, as far
    # as its allowed_mentions let (messages.pinged_users). An edit notifies no one.
    pinged: list[int] = field(default_factory=list)
    # When each version became visible (the event loop's clock, as the fake stored it):
    # the message made, then each edit. bench/bench_click_latency.py reads how long a
    # click took to show its edit.
    shown_at: list[float] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Only the interacting user sees it; kept out of `channel_messages`."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("thinking") placeholder nobody has filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions and fields: handy for `in` asserts."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for fld in embed.get("fields", []):
                parts += [fld.get("name", ""), fld.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        for comp in self.flat_components():
            if comp.get("type") == 10:
                parts.append(comp.get("content", ""))
        return "\n".join(p for p in parts if p)

    @property
    def v2(self) -> bool:
        """Sent as a Components v2 layout (no content; text in text displays)."""
        return bool(self.flags & COMPONENTS_V2)

    def gallery(self) -> list[tuple[bytes, str | None]]:
        """What the media galleries of a v2 message show, in order: each item's upload
        (its bytes) and its description (alt text). An upload no gallery names is not
        shown in a v2 message, as in Discord."""
        by_id = dict(zip(self.attachment_ids, self.attachments, strict=True))
        shown: list[tuple[bytes, str | None]] = []
        for comp in self.flat_components():
            if comp.get("type") != 12:
                continue
            for item in comp.get("items") or []:
                att = (item.get("media") or {}).get("attachment_id")
                if att is not None and int(att) in by_id:
                    shown.append((by_id[int(att)][1], item.get("description")))
        return shown

    def flat_components(self) -> list[Json]:
        """See `flat_components`: leaf components of this message."""
        return flat_components(self.components)

    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component, in display order."""
        return [c["custom_id"] for c in self.flat_components() if c["custom_id"]]

    def component(self, custom_id: str) -> Json:
        """The flattened component with this custom_id (KeyError lists the ones present)."""
        for comp in self.flat_components():
            if comp["custom_id"] == custom_id:
                return comp
        raise KeyError(f"no component {custom_id!r} on message {self.id}: {self.custom_ids()}")

    def snapshot(self) -> Json:
        """The editable state, recorded in `history` before each edit."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": list(self.attachments),
            "descriptions": list(self.descriptions),
            "flags": self.flags,
        }


class InteractionHandle:
    """One interaction sent to the bot, and what the bot answered to it.

    Await `wait()` before reading: it returns once the callback (the first answer) has
    arrived and the bot has gone quiet again.
    """

    def __init__(
        self,
        server: FakeDiscord,
        *,
        id: int,
        token: str,
        type: int,
        user: FakeUser,
        channel_id: int,
        payload: Json,
        message_id: int | None = None,
    ) -> None:
        self.server = server
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.channel_id = channel_id
        self.payload = payload
        self.message_id = message_id
        self.callback_type: int | None = None
        self.callback_data: Json | None = None
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.touched_ids: list[int] = []
        self.choices: list[Json] | None = None
        self.modal: Json | None = None
        # When Discord sent it (`FakeDiscord.now`): its 3 s to the first answer and its
        # token's 15 minutes count from here (routes_interactions.py).
        self.sent_at = 0.0
        self._responded = asyncio.Event()

    def __repr__(self) -> str:
        return (
            f"<InteractionHandle id={self.id} type={self.type} "
            f"callback_type={self.callback_type} messages={len(self.messages)}>"
        )

    @property
    def responded(self) -> bool:
        """Whether the bot acknowledged the interaction (any callback type)."""
        return self._responded.is_set()

    def _set_responded(self) -> None:
        self._responded.set()

    async def wait(self, timeout: float = 5.0, *, settle: bool = True) -> InteractionHandle:
        """Wait for the bot's callback, then (by default) until the bot is idle.

        Raises AssertionError with the server's view of things if no callback arrives.
        """
        try:
            await asyncio.wait_for(self._responded.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"bot did not answer interaction {self.id} (type {self.type}, "
                f"data {self.payload.get('data')}) within {timeout}s; "
                f"unhandled routes: {self.server.unhandled}; "
                f"last requests: {self.server.requests[-5:]}"
            ) from None
        if settle:
            await self.server.settle()
        return self

    @property
    def response(self) -> FakeMessage | None:
        """The message `@original` names: the created or deferred response, or for a
        component answered with type 6/7, the message the component is on.
        """
        if self.original_message_id is None:
            return None
        return self.server.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        """Follow-up messages (not deleted), oldest first."""
        msgs = (self.server.messages.get(i) for i in self.followup_ids)
        return [m for m in msgs if m is not None and not m.deleted]

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages this interaction created or edited (see `FakeDiscord.responses`)."""
        return self.server.responses(self.id)

    def texts(self) -> list[str]:
        """`text` of every response message (original and follow-ups)."""
        return [m.text for m in self.messages]

    def ephemeral_texts(self) -> list[str]:
        """Content of every ephemeral message this interaction created or edited."""
        return [m.content for m in self.messages if m.ephemeral]
