"""REST routes that answer interactions: the callback, then follow-ups and edits of
`@original` through the interaction webhook.

Why a module: this is where a bot's answer to `slash`/`click`/`select`/`submit_modal` lands;
the handlers record it on the InteractionHandle that `wait()` and the tests read.
"""

from __future__ import annotations

from aiohttp import web

from .common import HOOK, MID, Route, json_response, truthy
from .models import EPHEMERAL, LOADING, FakeMessage, InteractionHandle, Json
from .permissions import ADMINISTRATOR, MANAGE_THREADS

# Discord's docs (Receiving and Responding): "Interaction tokens are valid for 15 minutes
# and can be used to send followup messages but you must send an initial response within
# 3 seconds of receiving the event. If the 3 second deadline is exceeded, the token will
# be invalidated." Late, the callback meets 404 Unknown interaction (10062), the token's
# webhook 401 Invalid Webhook Token (50027).
ANSWER_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0
# A thread a moderator locked: "Users (including bot users) without the MANAGE_THREADS
# permission ... won't be able to create or update messages in locked threads"
# (developer docs, "Threads"), an interaction's answer included: a response or
# follow-up made there meets `{"message": "Thread is archived", "code": 50083}`
# (discord/discord-api-docs#6884, closed by Discord as intended; #5517, the callback in
# a locked and archived thread). An ephemeral answer is the user's alone (Discord makes
# its own context-menu answers there ephemeral, #6884), and a defer makes nothing yet:
# those go through.
LOCKED_ANSWER = (400, 50083, "Thread is archived")


class InteractionRoutesMixin:
    """Interaction callbacks and interaction webhooks.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _interaction_routes(self) -> list[Route]:
        """This area's part of the route table (see `RestMixin._add_routes`)."""
        return [
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", HOOK, self._followup),
            ("GET", f"{HOOK}/messages/{MID}", self._webhook_message),
            ("PATCH", f"{HOOK}/messages/{MID}", self._webhook_message),
            ("DELETE", f"{HOOK}/messages/{MID}", self._webhook_message),
        ]

    async def _callback(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self.interactions.get(int(p["iid"]))
        if handle is None or handle.token != p["token"]:
            return self._error(request, 404, 10062, "Unknown interaction")
        if handle.callback_type is not None:
            return self._error(request, 400, 40060, "Interaction has already been acknowledged.")
        if self.now() - handle.sent_at > ANSWER_SECONDS:
            self.late_answers.append(handle.id)
            return self._error(request, 404, 10062, "Unknown interaction")
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
        if ctype in (4, 7):  # a message made or edited by the answer: layout.py's rules
            edited = self.messages[handle.message_id or 0] if ctype == 7 else None
            public = not (edited.ephemeral if edited is not None
                          else int(data.get("flags") or 0) & EPHEMERAL)
            if public and self._answer_locked_out(handle):
                return self._error(request, *LOCKED_ANSWER)
            refused = self._layout_refusal(request, edited, data, files)
            if refused is not None:
                return refused
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
            if ctype == 7:  # UPDATE_MESSAGE is an edit of the message: a held edit holds it
                hold = self._edit_holds.pop(msg.channel_id, None)
                if hold is not None and not hold.after:
                    hold.reached.set()
                    await hold.release.wait()
                    if hold.dropped:
                        return self._error(request, 503, 0, "upstream connect error")
                if msg.deleted:  # a moderator deleted it meanwhile: as any edit of it
                    return self._error(request, 404, 10008, "Unknown Message")
                self._edit(msg, data, files, handle)
                if hold is not None and hold.after:
                    handle.callback_type = ctype  # made: a second answer is refused
                    hold.reached.set()
                    await hold.release.wait()
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
        return json_response(result)

    def _answer_locked_out(self, handle: InteractionHandle) -> bool:
        """Whether the interaction was made in a thread now locked, where the bot may
        not manage threads: its public answers are refused (LOCKED_ANSWER)."""
        channel = self.channels.get(handle.channel_id or 0)
        if channel is None or not channel.is_thread or not channel.locked:
            return False
        return not self.bot_permissions_in(channel.id) & (MANAGE_THREADS | ADMINISTRATOR)

    def _hook(self, request: web.Request, p: dict[str, str]) -> InteractionHandle | web.Response:
        """The interaction whose token the webhook route names, or Discord's answer: none
        answered with it (404 Unknown Webhook), or its 15 minutes gone (401)."""
        handle = self._by_token.get(p["token"])
        if handle is None or int(p["app"]) != self.application_id or handle.callback_type is None:
            return self._error(request, 404, 10015, "Unknown Webhook")
        if self.now() - handle.sent_at > TOKEN_SECONDS:
            return self._error(request, 401, 50027, "Invalid Webhook Token")
        return handle

    async def _followup(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self._hook(request, p)
        if isinstance(handle, web.Response):
            return handle
        body, files = await self._read_body(request)
        original = handle.response
        fills = (
            handle.callback_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        )
        refused = self._layout_refusal(request, original if fills else None, body, files)
        if refused is not None:
            return refused
        ephemeral = original.ephemeral if fills and original is not None \
            else bool(int(body.get("flags") or 0) & EPHEMERAL)
        if not ephemeral and self._answer_locked_out(handle):
            return self._error(request, *LOCKED_ANSWER)
        if fills and original is not None:
            # The first follow-up after a "thinking" defer fills in the placeholder and
            # keeps the defer's ephemerality.
            self._edit(original, body, files, handle)
            original.history.clear()
            original.edited_at = None
            msg = original
        else:
            msg = self._new_message(handle.channel_id, self.bot_user, body, files, handle=handle)
        handle.followup_ids.append(msg.id)
        if truthy(request.query.get("wait")):
            return json_response(self._message_json(msg))
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        handle = self._hook(request, p)
        if isinstance(handle, web.Response):
            return handle
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
            refused = self._layout_refusal(request, msg, body, files)  # layout.py
            if refused is not None:
                return refused
            if not msg.ephemeral and self._answer_locked_out(handle):
                return self._error(request, *LOCKED_ANSWER)
            self._edit(msg, body, files, handle)
        return json_response(self._message_json(msg))
