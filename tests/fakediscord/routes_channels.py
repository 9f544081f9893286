"""REST routes for channels, DMs, permission overwrites, messages and threads.

Why a module: this is what a bot does in a guild outside interactions (post, edit and
delete messages, read history, make channels and threads, set overwrites); the handlers
check Discord's rules and update the records, and the message store does the rest.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import discord
from aiohttp import web

from . import channel_types
from .common import CID, GUILD, MID, Route, json_response, overwrite_json
from .models import EPHEMERAL, FakeChannel, FakeMessage, snowflake_iso
from .permissions import (
    MANAGE_THREADS,
    refusal_in_thread,
    refusal_to_edit_thread,
    refusal_to_open_thread,
)

SEND_MESSAGES_IN_THREADS = discord.Permissions(send_messages_in_threads=True).value
MANAGE_MESSAGES = discord.Permissions(manage_messages=True).value
NONCE_SECONDS = 300.0  # Discord checks a nonce against "the past few minutes"
NONCE_LIMIT = 25


@dataclass
class Hold:
    """A test's grip on the next message sent to a channel: the request arrives and
    waits there (`before` it is made, or `after`, with the answer still held back), so
    a test can kill the bot while its post is in flight."""

    after: bool
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    dropped: bool = False

    def drop(self) -> None:
        """The request never got through: answer with an error, make nothing. Held
        `after`: the message is made (or edited), and its answer lost on the way back (a
        503 from Discord's proxy), so the bot cannot know it was."""
        self.dropped = True
        self.release.set()


class ChannelRoutesMixin:
    """Channels, DMs, overwrites, messages and threads.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _channel_routes(self) -> list[Route]:
        """This area's part of the route table (see `RestMixin._add_routes`)."""
        return [
            ("POST", f"/guilds/{GUILD}/channels", self._create_channel),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", f"/channels/{CID}", self._get_channel),
            ("PATCH", f"/channels/{CID}", self._edit_channel),
            ("DELETE", f"/channels/{CID}", self._delete_channel),
            ("PUT", rf"/channels/{CID}/permissions/(?P<oid>\d+)", self._set_overwrite),
            ("DELETE", rf"/channels/{CID}/permissions/(?P<oid>\d+)", self._set_overwrite),
            ("GET", f"/channels/{CID}/messages", self._history),
            ("POST", f"/channels/{CID}/messages", self._send_message),
            ("GET", f"/channels/{CID}/messages/{MID}", self._get_message),
            ("PATCH", f"/channels/{CID}/messages/{MID}", self._edit_message),
            ("DELETE", f"/channels/{CID}/messages/{MID}", self._delete_message),
            ("POST", f"/channels/{CID}/threads", self._create_thread),
            ("POST", f"/channels/{CID}/messages/{MID}/threads", self._create_thread),
            ("PUT", rf"/channels/{CID}/thread-members/(?P<uid>\d+|@me)", self._thread_member),
            ("DELETE", rf"/channels/{CID}/thread-members/(?P<uid>\d+|@me)", self._thread_member),
            ("GET", f"/channels/{CID}/thread-members", self._thread_members),
            ("GET", rf"/channels/{CID}/thread-members/(?P<uid>\d+)", self._thread_member_of),
        ]

    async def _open_dm(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body = await request.json()
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None or user.bot:
            return self._error(request, 400, 50033, "Invalid Recipient(s)")
        return json_response(self._channel_json(self.channels[self.open_dm(user)]))

    def _channel(self, p: dict[str, str]) -> FakeChannel | None:
        channel = self.channels.get(int(p["cid"]))
        return None if channel is None or channel.deleted else channel

    def _seen_thread(self, request: web.Request, p: dict[str, str]) -> FakeChannel | web.Response:
        """The thread a request names, or Discord's answer when there is none to see:
        404 Unknown Channel, or a private thread's 403 (`_unseen`)."""
        thread = self._channel(p)
        if thread is None or not thread.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        return self._unseen(request, thread) or thread

    def _unseen(self, request: web.Request, channel: FakeChannel) -> web.Response | None:
        """Discord's answer to any request of the bot's about a private thread it was
        not invited to (permissions.py, `bot_sees`): 403 Missing Access."""
        if self.bot_sees(channel):
            return None
        return self._error(request, *channel_types.MISSING_ACCESS)

    def _channel_message(self, request: web.Request,
                         p: dict[str, str]) -> FakeMessage | web.Response:
        """The message a `/channels/{cid}/messages/{mid}` route names, or Discord's
        answer when there is none: the channel first (deleted: 404 Unknown Channel, 10003,
        whatever became of its messages), then the message (10008)."""
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        unseen = self._unseen(request, channel)
        if unseen is not None:
            return unseen
        msg = self._find_message(channel.id, p["mid"])
        if msg is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return msg

    def _gone_with(self, channel: FakeChannel) -> list[FakeChannel]:
        """A channel deleted, and its threads with it. Discord sends CHANNEL_DELETE for
        the channel only, no THREAD_DELETE for its threads (developer docs, "Threads":
        the gateway sends no thread-specific event when a channel goes; discord.js PR
        10883: "THREAD_DELETE is not sent when you delete parent channels"); discord.py
        tells its own thread_delete for the threads it holds (active ones)."""
        channel.deleted = True
        threads = [] if channel.is_thread else self.threads(channel.id)
        for thread in threads:
            thread.deleted = True
        return threads

    def _bot_may(self, channel: FakeChannel, needed: int) -> bool:
        """Whether the bot holds these permission bits (Administrator implies all); tests
        take some away with `revoke_bot_permissions`."""
        if channel.is_dm:
            return True
        perms = self.permissions_of(self.bot_user, channel.id)
        return bool(perms & discord.Permissions.administrator.flag) or perms & needed == needed

    async def _get_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        refused = self.bot_refusal(channel, edit=True)  # permissions.py: View Channel
        if refused is not None:
            return self._error(request, *refused)
        unseen = self._unseen(request, channel)  # a private thread not joined
        if unseen is not None:
            return unseen
        return json_response(self._channel_json(channel))

    async def _create_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        body = await request.json()
        if body.get("type", 0) not in (0, 4):
            return self._error(request, 400, 50035, "fake Discord makes text channels/categories")
        if int(p["guild"]) not in self.guilds:
            return self._error(request, 404, 10004, "Unknown Guild")
        cid = self._snowflake()
        self.channels[cid] = FakeChannel(
            id=cid,
            name=body["name"],
            type=int(body.get("type", 0)),
            guild_id=int(p["guild"]),
            position=len(self.channels),
            parent_id=int(body["parent_id"]) if body.get("parent_id") else None,
            topic=body.get("topic"),
            permission_overwrites=[
                overwrite_json(o) for o in body.get("permission_overwrites", [])
            ],
        )
        data = self._channel_json(self.channels[cid])
        self._dispatch_soon("CHANNEL_CREATE", data)
        return json_response(data, 201)

    async def _edit_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm:
            return self._error(request, 404, 10003, "Unknown Channel")
        unseen = self._unseen(request, channel)
        if unseen is not None:
            return unseen
        body = await request.json()
        if channel.is_thread:  # permissions.py: archived, creator, Manage Threads
            refused = refusal_to_edit_thread(
                self.bot_permissions_in(channel.id), channel, body,
                creator=channel.owner_id == self.bot_user.id)
            if refused is not None:
                return self._error(request, *refused)
        channel.name = body.get("name", channel.name)
        channel.topic = body.get("topic", channel.topic)
        channel.archived = body.get("archived", channel.archived)
        channel.locked = body.get("locked", channel.locked)
        channel.auto_archive_duration = body.get(
            "auto_archive_duration", channel.auto_archive_duration
        )
        if "permission_overwrites" in body:
            channel.permission_overwrites = [
                overwrite_json(o) for o in body["permission_overwrites"]
            ]
        if "parent_id" in body:
            channel.parent_id = int(body["parent_id"]) if body["parent_id"] else None
        data = self._channel_json(channel)
        self._dispatch_soon("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", data)
        return json_response(data)

    async def _set_overwrite(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm or channel.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        rest = [o for o in channel.permission_overwrites if o["id"] != p["oid"]]
        if request.method == "PUT":
            rest.append(overwrite_json({**await request.json(), "id": p["oid"]}))
        channel.permission_overwrites = rest
        self._dispatch_soon("CHANNEL_UPDATE", self._channel_json(channel))
        return web.Response(status=204)

    async def _delete_channel(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None or channel.is_dm:
            return self._error(request, 404, 10003, "Unknown Channel")
        self._gone_with(channel)
        data = self._channel_json(channel)
        self._dispatch_soon("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", data)
        return json_response(data)

    async def _history(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        refused = self.bot_refusal(channel, edit=True)  # permissions.py: View Channel
        if refused is None:
            refused = self._unseen(request, channel)
            if refused is not None:
                return refused
        if refused is not None:
            return self._error(request, *refused)
        msgs = self.channel_messages(channel.id) if self.bot_may_read(channel) else []
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        msgs = msgs[:limit] if "after" in q else msgs[-limit:]
        return json_response([self._message_json(m) for m in reversed(msgs)])

    async def _send_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        channel = self._channel(p)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        if channel.is_dm and not self.users[channel.recipient_id or 0].dms_open:
            return self._error(request, 403, 50007, "Cannot send messages to this user")
        if channel.type in channel_types.NO_CHAT:  # a category, forum or media channel
            return self._error(request, *channel_types.NOT_TEXT)
        unseen = self._unseen(request, channel)  # a private thread not joined
        if unseen is not None:
            return unseen
        body, files = await self._read_body(request)
        refused = self.bot_refusal(channel, files=bool(files), body=body)  # permissions.py
        if refused is None and channel.is_thread:  # permissions.py: locked, archived
            refused = refusal_in_thread(self.bot_permissions_in(channel.id), channel, send=True)
        if refused is not None:
            return self._error(request, *refused)
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions whisper
        refused = self._layout_refusal(request, None, body, files)  # layout.py: v2 rules
        if refused is not None:
            return refused
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > NONCE_LIMIT:
            return self._error(request, 400, 50035, "Invalid Form Body (nonce)")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord's rule: a nonce seen from this author within minutes returns the
            # message made then, and nothing new is made.
            seen = self._nonces.get((self.bot_user.id, str(nonce)))
            if seen is not None and asyncio.get_running_loop().time() - seen[1] < NONCE_SECONDS:
                self.nonce_repeats += 1
                return json_response(self._message_json(self.messages[seen[0]]))
        hold = self._holds.pop(channel.id, None)
        if hold is not None and not hold.after:
            hold.reached.set()
            await hold.release.wait()
            if hold.dropped:
                return self._error(request, 503, 0, "upstream connect error")
        msg = self._new_message(channel.id, self.bot_user, body, files)
        if nonce is not None:
            msg.nonce = str(nonce)
            now = asyncio.get_running_loop().time()
            self._nonces[(self.bot_user.id, msg.nonce)] = (msg.id, now)
        if channel.archived:  # "Sending a message will automatically unarchive the thread"
            channel.archived = False
            self._dispatch_soon("THREAD_UPDATE", self._channel_json(channel))
        if hold is not None and hold.after:
            hold.reached.set()
            await hold.release.wait()
            if hold.dropped:
                return self._error(request, 503, 0, "upstream connect error")
        return json_response(self._message_json(msg))

    async def delete_channel(self, channel_id: int) -> None:
        """A moderator deletes a channel or thread, as Discord tells the bot: CHANNEL_DELETE
        (THREAD_DELETE for a thread); from then on its routes answer 404 Unknown Channel.
        A channel's threads go with it, unannounced (`_gone_with`)."""
        channel = self.channels[channel_id]
        self._gone_with(channel)
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        await self.dispatch(event, self._channel_json(channel))

    async def set_thread(self, thread_id: int, *, archived: bool | None = None,
                         locked: bool | None = None) -> None:
        """A thread archived (by Discord, after its quiet time, or by a moderator) or
        locked by a moderator, or undone, as Discord tells the bot: THREAD_UPDATE. From
        then on its messages are refused as permissions.py's `refusal_in_thread` says."""
        thread = self.channels[thread_id]
        if not thread.is_thread:
            raise ValueError(f"channel {thread_id} is not a thread")
        if archived is not None:
            thread.archived = archived
        if locked is not None:
            thread.locked = locked
        await self.dispatch("THREAD_UPDATE", self._channel_json(thread))

    def hold_next_send(self, channel_id: int, *, after: bool = False) -> Hold:
        """Hold the next message the bot sends to this channel (see `Hold`)."""
        hold = Hold(after=after)
        self._holds[channel_id] = hold
        return hold

    def hold_next_edit(self, channel_id: int, *, after: bool = False) -> Hold:
        """Hold the next edit the bot makes to a message of this channel (see `Hold`)."""
        hold = Hold(after=after)
        self._edit_holds[channel_id] = hold
        return hold

    async def _get_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._channel_message(request, p)
        if isinstance(msg, web.Response):
            return msg
        refused = self.bot_refusal(self.channels[msg.channel_id], edit=True)  # permissions.py
        if refused is not None:
            return self._error(request, *refused)
        return json_response(self._message_json(msg))

    async def _edit_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._channel_message(request, p)
        if isinstance(msg, web.Response):
            return msg
        if msg.author_id != self.bot_user.id:
            return self._error(
                request, 403, 50005, "Cannot edit a message authored by another user"
            )
        body, files = await self._read_body(request)
        channel = self.channels[msg.channel_id]
        refused = self.bot_refusal(channel, files=bool(files), body=body,
                                   edit=True)  # permissions.py
        if refused is None and channel.is_thread:  # permissions.py: locked, archived
            refused = refusal_in_thread(self.bot_permissions_in(channel.id), channel, edit=True)
        if refused is not None:
            return self._error(request, *refused)
        refused = self._layout_refusal(request, msg, body, files)  # layout.py: v2 rules
        if refused is not None:
            return refused
        hold = self._edit_holds.pop(msg.channel_id, None)
        if hold is not None and not hold.after:
            hold.reached.set()
            await hold.release.wait()
            if hold.dropped:
                return self._error(request, 503, 0, "upstream connect error")
            if msg.deleted:  # a moderator deleted it while the edit was on its way
                return self._error(request, 404, 10008, "Unknown Message")
        self._edit(msg, body, files)
        if hold is not None and hold.after:
            hold.reached.set()
            await hold.release.wait()
            if hold.dropped:
                return self._error(request, 503, 0, "upstream connect error")
        return json_response(self._message_json(msg))

    async def _delete_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        msg = self._channel_message(request, p)
        if isinstance(msg, web.Response):
            return msg
        channel = self.channels[msg.channel_id]
        refused = self.bot_refusal(channel, edit=True)  # permissions.py
        if refused is None and channel.is_thread:  # permissions.py: locked and archived
            refused = refusal_in_thread(self.bot_permissions_in(channel.id), channel)
        if refused is not None:
            return self._error(request, *refused)
        if msg.author_id != self.bot_user.id:  # Delete Message: another's needs Manage
            if channel.is_dm:  # Messages, and in a DM nobody deletes the other's
                return self._error(request, 403, 50003, "Cannot execute action on a DM channel")
            if not self._bot_may(channel, MANAGE_MESSAGES):
                return self._error(request, 403, 50013, "Missing Permissions")
        self._delete(msg)
        return web.Response(status=204)

    async def _create_thread(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        parent = self._channel(p)
        if parent is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        body = await request.json()
        starter: FakeMessage | None = None
        if "mid" in p:
            starter = self._find_message(parent.id, p["mid"])
            if starter is None:
                return self._error(request, 404, 10008, "Unknown Message")
            if starter.thread_id is not None:
                return self._error(request, 400, 160004, "A thread has already been created")
        # channel_types.py: which thread each parent makes, and what it refuses
        made = channel_types.thread_from_message(parent.type) if starter \
            else channel_types.thread_without_message(parent.type, body)
        if isinstance(made, tuple):
            return self._error(request, *made)
        if parent.type in (channel_types.FORUM, channel_types.MEDIA):  # a post and its
            self.unhandled.append("a forum post started by the bot")  # message: unmodelled
            return self._error(request, 400, 0, "fake Discord makes no forum posts")
        kind = made
        refused = refusal_to_open_thread(self.bot_permissions_in(parent.id), private=kind == 12)
        if refused is not None:
            return self._error(request, *refused)
        tid = starter.id if starter else self._snowflake()  # Discord reuses the message id
        thread = FakeChannel(
            id=tid,
            name=body.get("name", "thread"),
            type=kind,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            member_ids={self.bot_user.id},
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=kind != 12 or body.get("invitable", True) is not False,
        )
        self.channels[tid] = thread
        if starter is not None:
            starter.thread_id = tid
        data = self._channel_json(thread)
        self._dispatch_soon("THREAD_CREATE", data | {"newly_created": True})
        return json_response(data, 201)

    async def _thread_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        thread = self._channel(p)
        if thread is None or not thread.is_thread:
            return self._error(request, 404, 10003, "Unknown Channel")
        uid = self.bot_user.id if p["uid"] == "@me" else int(p["uid"])
        if uid not in self.users:
            return self._error(request, 404, 10013, "Unknown User")
        unseen = self._unseen(request, thread)  # not even the bot itself joins it then
        if unseen is not None:
            return unseen
        if thread.archived:  # 50083: "... such as editing a message or adding a user"
            return self._error(request, 400, 50083, "Thread is archived")
        if (request.method == "PUT" and uid != self.bot_user.id and not thread.invitable
                and thread.owner_id != self.bot_user.id
                and not self._bot_may(thread, MANAGE_THREADS)):
            # invitable False: "whether non-moderators can add other non-moderators"
            return self._error(request, 403, 50013, "Missing Permissions")
        if (
            request.method == "PUT"
            and uid != self.bot_user.id
            and not self._bot_may(thread, SEND_MESSAGES_IN_THREADS)
        ):
            return self._error(request, 403, 50013, "Missing Permissions")
        if request.method == "PUT":
            thread.member_ids.add(uid)
        else:
            thread.member_ids.discard(uid)
        return web.Response(status=204)

    async def _thread_member_of(self, request: web.Request,
                                p: dict[str, str]) -> web.StreamResponse:
        """One member of a thread (Get Thread Member): "returns a 404 response" when the
        user is not one; a private thread the bot may not see answers 403 first."""
        thread = self._seen_thread(request, p)
        if not isinstance(thread, FakeChannel):
            return thread
        uid = int(p["uid"])
        if uid not in thread.member_ids:
            return self._error(request, 404, 10007, "Unknown Member")
        return json_response({"id": str(thread.id), "user_id": str(uid),
                              "join_timestamp": snowflake_iso(thread.id), "flags": 0})

    async def _thread_members(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """The thread's members, as Discord lists them (thread member objects). "This
        endpoint is restricted according to whether the GUILD_MEMBERS Privileged Intent
        is enabled for your application" (resources/channel, List Thread Members):
        without it, the 403 Missing Access (50001) Discord answers the other endpoint
        that intent restricts (List Guild Members). Get Thread Member is not restricted."""
        thread = self._seen_thread(request, p)
        if not isinstance(thread, FakeChannel):
            return thread
        if not self._members_intent():
            return self._error(request, 403, 50001, "Missing Access")
        return json_response([{"id": str(thread.id), "user_id": str(uid),
                               "join_timestamp": snowflake_iso(thread.id), "flags": 0}
                              for uid in sorted(thread.member_ids)])
