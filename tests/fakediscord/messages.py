"""The message store: creating, editing and deleting messages and their attachments the
way Discord does, and echoing those changes on the gateway.

Why a module: bot sends, interaction responses, follow-ups and webhook edits all end up
here, so Discord's rules (PATCH semantics, component ids, attachment keeping, flags that
may change on edit, loading placeholders) are applied the same way for all of them.
"""

from __future__ import annotations

import asyncio
import copy
import re

from aiohttp import web

from . import layout
from .common import DM_MESSAGES_INTENT, GUILD_MESSAGES_INTENT, Uploads, json_response
from .models import (
    COMPONENTS_V2,
    LOADING,
    SUPPRESS_EMBEDS,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    Json,
    snowflake_iso,
)
from .spec_check import error_body

USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_users(content: str, allowed: Json | None) -> list[int]:
    """Whom a new message notifies, Discord's way: without allowed_mentions every user its
    content mentions; with it, all of them only if "users" is in its parse list, else just
    the mentioned users it lists (none when it lists none)."""
    mentioned = list(dict.fromkeys(int(m) for m in USER_MENTION.findall(content)))
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in listed]


IMAGE_TYPES = {"png": "image/png", "webp": "image/webp", "gif": "image/gif"}
# Discord's code for a message with nothing to show (Create Message: "at least one of
# content, embeds, sticker_ids, components, files[n], or poll" is required; an edit that
# takes all of them away is refused alike).
EMPTY_MESSAGE = 50006
SHOWN_FIELDS = ("content", "embeds", "components", "sticker_ids", "poll")


def empty_after(msg: FakeMessage | None, body: Json, names_after: list[str]) -> bool:
    """Whether the create (`msg` None) or edit of `msg` leaves a message with nothing to
    show: no content, embed, component, sticker, poll or attachment."""
    kept: Json = {}
    if msg is not None:
        kept = {"content": msg.content, "embeds": msg.embeds, "components": msg.components,
                "poll": msg.poll}
    shown = {name: body[name] if name in body else kept.get(name) for name in SHOWN_FIELDS}
    return not names_after and not any(shown.values())


class MessageStoreMixin:
    """Creates, edits and deletes stored messages and attachments.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _store_blob(self, name: str, data: bytes, ctype: str) -> int:
        att_id = self._snowflake()
        # discord.py sends every file as octet-stream; Discord names its type from the
        # file's extension, as here for the images the bot uploads.
        guessed = IMAGE_TYPES.get(name.lower().rsplit(".", 1)[-1])
        if ctype == "application/octet-stream" and guessed:
            ctype = guessed
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
        msg.shown_at.append(asyncio.get_running_loop().time())
        if editing:
            msg.history.append(msg.snapshot())
            msg.edit_ids.append(self._snowflake())
            msg.edited_at = snowflake_iso(msg.edit_ids[-1])
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
        if not editing:  # a v2 message mentions from its text displays
            said = layout.text_of(msg.components) if layout.is_v2(msg.flags) else msg.content
            msg.pinged = pinged_users(said, body.get("allowed_mentions"))
        if body.get("poll"):
            msg.poll = body["poll"]
        ref = body.get("message_reference")
        if not editing and ref and ref.get("message_id"):
            msg.reference_id = int(ref["message_id"])
        self._apply_attachments(msg, body, files, editing=editing)
        layout.resolve(msg.components,
                       [(i, self._blobs[i][0], self._blobs[i][2]) for i in msg.attachment_ids],
                       lambda i: self._attachment_json(i, msg.channel_id, False)["url"])

    def _names_after(self, msg: FakeMessage | None, body: Json, files: Uploads) -> list[str]:
        """The file names the message holds once this request is applied (as
        `_apply_attachments` will leave them), which `attachment://` may name."""
        old = dict(zip(msg.attachment_ids, (a[0] for a in msg.attachments), strict=True)) \
            if msg is not None else {}
        if "attachments" not in body:
            return [*old.values(), *(files[i][0] for i in sorted(files))]
        names: list[str] = []
        used: set[int] = set()
        for entry in body.get("attachments") or []:
            aid = int(entry["id"])
            if aid in old:
                names.append(old[aid])
            elif aid in files:
                names.append(entry.get("filename") or files[aid][0])
                used.add(aid)
        return names + [files[i][0] for i in sorted(files) if i not in used]

    def _layout_refusal(self, request: web.Request, msg: FakeMessage | None, body: Json,
                        files: Uploads) -> web.Response | None:
        """Discord's 400 for a Components v2 rule this create (`msg` None) or edit breaks
        (layout.py), recorded in `violations` like a spec refusal; None when fine."""
        names = self._names_after(msg, body, files)
        found = layout.violations(msg, body, names)
        if not found and empty_after(msg, body, names):
            return self._empty(request)
        if not found:
            return None
        path = "/" + request.match_info["tail"]  # as the spec check names it (rest.py)
        for violation in found:
            self.violations.append(f"{request.method} {path}: {violation}")
        answer = error_body(found)
        self.errors.append((f"{request.method} {request.path}", 400, answer))
        return json_response(answer, 400)

    def _empty(self, request: web.Request) -> web.Response:
        """Discord's 400 50006 for a message left with nothing to show, as a violation
        too: the bot should never send one."""
        path = "/" + request.match_info["tail"]
        self.violations.append(f"{request.method} {path}: an empty message")
        return self._error(request, 400, EMPTY_MESSAGE, "Cannot send an empty message")

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
                    self._descriptions[ids[-1]] = entry.get("description")
                    used.add(aid)
            new = [files[i] for i in sorted(files) if i not in used]
        else:
            ids = list(msg.attachment_ids) if editing else []
            new = [files[i] for i in sorted(files)]
        ids += [self._store_blob(*f) for f in new]
        msg.attachment_ids = ids
        msg.attachments = [self._blobs[i][:2] for i in ids]
        msg.descriptions = [self._descriptions.get(i) for i in ids]

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
        channel = self.channels.get(msg.channel_id)
        if channel is None or msg.ephemeral:
            return
        session = self._live_session(None if channel.is_dm else self.guild_of(channel).id)
        if session is None:
            return
        if not session.intents & (DM_MESSAGES_INTENT if channel.is_dm else GUILD_MESSAGES_INTENT):
            return
        if event == "MESSAGE_DELETE":
            data: Json = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if not channel.is_dm:
                data["guild_id"] = str(self.guild_of(channel).id)
        else:
            data = self._message_json(msg)
        self._dispatch_soon(event, data)

    def _find_message(self, channel_id: int, mid: str) -> FakeMessage | None:
        msg = self.messages.get(int(mid)) if mid.isdigit() else None
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel_id:
            return None
        return msg
