"""The bot's own permissions in a channel, and what Discord refuses without them.

Why a module: Discord lets an interaction be answered whatever the bot may do in the
channel, then refuses its channel posts; a fake that lets the bot post anywhere hides
the bot that says "in play" and shows nothing. The routes ask the few questions here
(`refusal_to_send`, `refusal_to_edit`, ...) and answer with what these return.

The model, as Discord computes it (developer docs, "Permissions"): the bot's roles
(in the fake, one bot role holding `FakeDiscord.bot_permissions`) give the base;
Administrator there means everything; then the channel's overwrites apply, @everyone's,
the roles', the bot member's. Without View Channel nothing else counts; without Send
Messages, Attach Files, Embed Links, TTS and @everyone go too (Discord's implicit
denials). A thread
has no overwrites of its own: its parent's permissions rule it, with Send Messages in
Threads in place of Send Messages.

What is refused (the documented choices):
- no View Channel: 403 50001 Missing Access on every channel route the bot uses.
- a new message without Send Messages (in a thread: Send Messages in Threads): 403 50013.
- files without Attach Files, on a new message or an edit: 403 50013.
- embeds without Embed Links: Discord does not refuse the message, it drops the rich
  embeds (a message left with nothing to show is 400 50006, as an empty one is).
- editing or deleting the bot's own message needs View Channel only: Send Messages
  restricts new messages, not existing ones (discord-api-docs issue 3096). Deleting
  another's message needs Manage Messages (403 50013), and in a DM is refused (50003)
  (developer docs, "Delete Message"; routes_channels.py).
- a private thread without Create Private Threads, a public one (type 11, with or
  without a starter message) without Create Public Threads: 403 50013.
- editing a thread (developer docs, "Modify Channel" for threads and "Threads" >
  Permissions): an archived thread takes no change but being unarchived (400 50083);
  its name, archiving and auto-archive time are its creator's or a Manage Threads
  holder's to change (unarchiving is any member's, but once it is locked its creator's
  or Manage Threads'); locking or unlocking it is Manage Threads' only (403 50013).
- history without Read Message History: an empty list, as Discord answers.
- messages in a locked or archived thread (developer docs, "Threads": Locked Threads,
  Active & Archived Threads; error codes 50083 and 160005): "Users (including bot users)
  without the MANAGE_THREADS permission ... won't be able to create or update messages in
  locked threads"; "Users cannot edit messages ... in archived threads. The only
  operation that should happen within an archived thread is messages being deleted.
  Sending a message will automatically unarchive the thread, unless the thread has been
  locked by a moderator"; deleting messages in a locked thread "will only be allowed ...
  if that thread is also active". So, without Manage Threads: a post or an edit in a
  locked thread is 403 160005 (400 50083 while it is archived too), a delete there 400
  50083 while it is archived; an edit in any archived thread is 400 50083; a post in an
  archived thread the bot may unarchive unarchives it (THREAD_UPDATE).

Tests set a channel's permissions for the bot with `FakeDiscord.set_bot_permissions`
(a member overwrite, announced with CHANNEL_UPDATE as Discord does, so the bot's cache
sees it too) and take them back with `clear_bot_permissions`. `remove_bot` kicks the
bot from a server (GUILD_DELETE; from then on 403 Missing Access on its channels, as in
any server the bot is not in) and `invite_bot` lets it back in (GUILD_CREATE).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from .channel_types import PRIVATE_THREAD
from .common import or_bits
from .models import FakeChannel, Json

if TYPE_CHECKING:
    from .server import FakeDiscord

ALL = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
ATTACH_FILES = discord.Permissions(attach_files=True).value
EMBED_LINKS = discord.Permissions(embed_links=True).value
READ_MESSAGE_HISTORY = discord.Permissions(read_message_history=True).value
# The bits a text channel's permissions are compared on (discord.py's cache also drops
# the voice ones in a text channel; interactions carry them).
TEXT_BITS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, embed_links=True,
    attach_files=True, read_message_history=True, create_private_threads=True,
    create_public_threads=True, mention_everyone=True).value
POLL_SECONDS = 0.01
# What Discord takes away with Send Messages (developer docs, "Implicit Permissions").
WITH_SEND = discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True,
                                send_tts_messages=True).value
CREATE_PRIVATE_THREADS = discord.Permissions(create_private_threads=True).value
CREATE_PUBLIC_THREADS = discord.Permissions(create_public_threads=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
MEMBER_OVERWRITE = 1  # an overwrite's type: 0 a role, 1 a member

MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")

Refusal = tuple[int, int, str]  # status, Discord's code, message


def bits(names: Iterable[str]) -> int:
    """Permission bits from discord.py's names ("send_messages"), checked."""
    out = discord.Permissions.none()
    for name in names:
        if not isinstance(getattr(discord.Permissions, name, None), discord.flags.flag_value):
            raise ValueError(f"no permission called {name!r}")
        setattr(out, name, True)
    return out.value


def in_channel(base: int, overwrites: list[Json], *, guild_id: int, role_ids: Iterable[int],
               member_id: int, thread: bool = False) -> int:
    """Discord's computation: roles, Administrator, overwrites, then the implicit denials."""
    if base & ADMINISTRATOR:
        return ALL
    perms = base
    by_id = {int(o["id"]): o for o in overwrites}
    everyone = by_id.get(guild_id)
    if everyone is not None:
        perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
    roles = [by_id[r] for r in role_ids if r in by_id and r != guild_id]
    perms = (perms & ~or_bits(o["deny"] for o in roles)) | or_bits(o["allow"] for o in roles)
    mine = by_id.get(member_id)
    if mine is not None:
        perms = (perms & ~int(mine["deny"])) | int(mine["allow"])
    if not perms & VIEW_CHANNEL:
        return 0
    if not perms & (SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES):
        perms &= ~WITH_SEND
    return perms


def refusal_to_send(perms: int, *, thread: bool, files: bool) -> Refusal | None:
    """A new message: View, then Send (in Threads), then Attach Files for files."""
    if not perms & VIEW_CHANNEL:
        return MISSING_ACCESS
    if not perms & (SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES):
        return MISSING_PERMISSIONS
    if files and not perms & ATTACH_FILES:
        return MISSING_PERMISSIONS
    return None


def refusal_to_edit(perms: int, *, files: bool) -> Refusal | None:
    """An edit of the bot's own message: View Channel, and Attach Files for new files."""
    if not perms & VIEW_CHANNEL:
        return MISSING_ACCESS
    if files and not perms & ATTACH_FILES:
        return MISSING_PERMISSIONS
    return None


def refusal_to_open_thread(perms: int, *, private: bool) -> Refusal | None:
    if not perms & VIEW_CHANNEL:
        return MISSING_ACCESS
    if not perms & (CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS):
        return MISSING_PERMISSIONS
    return None


THREAD_ARCHIVED = (400, 50083, "Thread is archived")
THREAD_LOCKED = (403, 160005, "Thread is locked")
CREATOR_FIELDS = ("name", "archived", "auto_archive_duration")


def refusal_to_edit_thread(perms: int, thread: FakeChannel, body: Json, *,
                           creator: bool) -> Refusal | None:
    """A PATCH of a thread by the bot (`creator`: it opened the thread)."""
    manages = bool(perms & (MANAGE_THREADS | ADMINISTRATOR))
    if thread.archived and body.get("archived") is not False:
        return THREAD_ARCHIVED
    if "locked" in body and bool(body["locked"]) != thread.locked and not manages:
        return MISSING_PERMISSIONS
    unarchiving = body.get("archived") is False  # a member may, unless it is locked
    creators = [k for k in CREATOR_FIELDS if k in body and not (k == "archived" and unarchiving)]
    if (creators or (unarchiving and thread.locked)) and not (creator or manages):
        return MISSING_PERMISSIONS
    return None


def refusal_in_thread(perms: int, thread: FakeChannel, *, send: bool = False,
                       edit: bool = False) -> Refusal | None:
    """A message made (`send`), edited (`edit`) or else deleted in a thread, as its
    locked and archived state let the bot (see the module docstring)."""
    manages = bool(perms & (MANAGE_THREADS | ADMINISTRATOR))
    if edit and thread.archived:
        return THREAD_ARCHIVED
    if not thread.locked or manages:
        return None
    if send or edit:
        return THREAD_ARCHIVED if thread.archived else THREAD_LOCKED
    return THREAD_ARCHIVED if thread.archived else None


def without_embeds(perms: int, body: Json, *, files: bool, edit: bool = False) -> Refusal | None:
    """Drop the rich embeds a bot without Embed Links sent (Discord shows none); a new
    message then left empty is refused as any empty one is."""
    if perms & EMBED_LINKS or not body.get("embeds"):
        return None
    body["embeds"] = []
    has_more = body.get("content") or files or body.get("components") or body.get("poll")
    return None if has_more or edit else EMPTY_MESSAGE


class BotPermissionsMixin:
    """The bot's permissions per channel, and the tests' way to change them.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def bot_permissions_in(self: FakeDiscord, channel_id: int | None) -> int:
        """What the bot may do there (the interaction's `app_permissions` too)."""
        channel = self.channels.get(channel_id or 0)
        if channel is None or channel.is_dm:
            return self.bot_permissions
        thread = channel.is_thread
        parent = self.channels.get(channel.parent_id or 0) if thread else channel
        if parent is None:
            return self.bot_permissions
        guild = self.guild_of(parent)
        if self.bot_user.id not in guild.member_ids:  # kicked: a server it is not in
            return 0
        return in_channel(self.bot_permissions, parent.permission_overwrites,
                          guild_id=guild.id, role_ids=self.bot_user.role_ids,
                          member_id=self.bot_user.id, thread=thread)

    def bot_sees(self: FakeDiscord, channel: FakeChannel) -> bool:
        """Whether the bot may see the channel at all as a thread's member would: a
        private thread only once invited, or as a moderator (Manage Threads): "You must
        be invited to the thread to be able to view or participate in it, or be a
        moderator" (developer docs, "Threads"). Refused otherwise with 50001 Missing
        Access, and the gateway says nothing of the thread."""
        if channel.type != PRIVATE_THREAD or self.bot_user.id in channel.member_ids:
            return True
        return bool(self.bot_permissions_in(channel.id) & (MANAGE_THREADS | ADMINISTRATOR))

    def bot_refusal(self: FakeDiscord, channel: FakeChannel, *, files: bool = False,
                    body: Json | None = None, edit: bool = False) -> Refusal | None:
        """Why Discord would refuse the bot's post (or edit, or delete) here; None when
        it may. The body's embeds are dropped when the bot may not embed (see above)."""
        if channel.is_dm:
            return None
        perms = self.bot_permissions_in(channel.id)
        refused = refusal_to_edit(perms, files=files) if edit \
            else refusal_to_send(perms, thread=channel.is_thread, files=files)
        if refused is None and body is not None:
            refused = without_embeds(perms, body, files=files, edit=edit)
        return refused

    def bot_may_read(self: FakeDiscord, channel: FakeChannel) -> bool:
        """Read Message History: without it Discord lists no earlier messages."""
        return channel.is_dm or bool(self.bot_permissions_in(channel.id) & READ_MESSAGE_HISTORY)

    def set_bot_permissions(self: FakeDiscord, channel_id: int, *, deny: Iterable[str] = (),
                            allow: Iterable[str] = ()) -> None:
        """The bot member's overwrite in this channel (a thread's parent rules its
        threads): e.g. `deny=["send_messages"]`. Administrator of the bot's role would
        override it, so it is taken off the role, as a server that restricts a bot does."""
        channel = self.channels[channel_id]
        if channel.is_dm or channel.is_thread:
            raise ValueError("overwrites are set on a guild channel (a thread uses its parent's)")
        self.bot_permissions &= ~ADMINISTRATOR
        rest = [o for o in channel.permission_overwrites if o["id"] != str(self.bot_user.id)]
        rest.append({"id": str(self.bot_user.id), "type": MEMBER_OVERWRITE,
                     "allow": str(bits(allow)), "deny": str(bits(deny))})
        channel.permission_overwrites = rest
        self._announce_permissions()
        self._dispatch_soon("CHANNEL_UPDATE", self._channel_json(channel))

    def clear_bot_permissions(self: FakeDiscord, channel_id: int) -> None:
        """Take the bot member's overwrite off this channel again."""
        channel = self.channels[channel_id]
        channel.permission_overwrites = [o for o in channel.permission_overwrites
                                         if o["id"] != str(self.bot_user.id)]
        self._dispatch_soon("CHANNEL_UPDATE", self._channel_json(channel))

    async def permissions_reached(self: FakeDiscord, client: discord.Client, channel_id: int,
                                  timeout: float = 5.0) -> None:
        """Wait until the bot's cache (discord.py's own sum of roles and overwrites) says
        what the fake says of this channel: the gateway events a change sent are read.
        Raises AssertionError, with both sums, when it does not happen in `timeout`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        want = self.bot_permissions_in(channel_id) & TEXT_BITS
        while True:
            channel = client.get_channel(channel_id)
            seen = None
            if isinstance(channel, discord.abc.GuildChannel) and channel.guild.me is not None:
                seen = channel.permissions_for(channel.guild.me).value & TEXT_BITS
            if seen == want:
                await self.settle()
                return
            if loop.time() > deadline:
                raise AssertionError(f"the bot's cache has {seen} in {channel_id}, not {want}")
            await asyncio.sleep(POLL_SECONDS)

    async def remove_bot(self: FakeDiscord, guild_id: int | None = None) -> None:
        """The bot kicked from a server: Discord sends GUILD_DELETE (no `unavailable`),
        then answers its requests on the server's channels with 403 Missing Access, as in
        any server it is not in (no View Channel: `bot_permissions_in` says 0)."""
        guild = self.guilds[guild_id or self.guild_id]
        await self.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        guild.member_ids.discard(self.bot_user.id)

    async def invite_bot(self: FakeDiscord, guild_id: int | None = None) -> None:
        """The bot invited back: a member again, told with a join's GUILD_CREATE."""
        guild = self.guilds[guild_id or self.guild_id]
        guild.member_ids.add(self.bot_user.id)
        joined = self._guild_json(guild)
        joined.pop("unavailable", None)  # a join's, not an outage's end (guild_available)
        await self.dispatch("GUILD_CREATE", joined)

    def _announce_permissions(self: FakeDiscord) -> None:
        """The bot's role changed: every guild hears it (GUILD_ROLE_UPDATE)."""
        for guild in self.guilds.values():
            role = self._role_json(guild.bot_role_id, self.bot_user.name, self.bot_permissions, 2)
            self._dispatch_soon("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role})
