"""What tests call to act as Discord users, and to wait for the bot: `slash`,
`autocomplete`, `click`, `select`, `submit_modal`, `post_message`, `settle`, `wait_until`.

Why a module: this is the API a test author reads; each call builds the event Discord
would send (an INTERACTION_CREATE or MESSAGE_CREATE), dispatches it to the bot, and for
interactions returns the InteractionHandle the answer is recorded on.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from .channel_types import NO_CHAT
from .common import MESSAGE_CONTENT_INTENT
from .models import FakeMessage, FakeUser, InteractionHandle, Json

# Tasks discord.py names while it handles an interaction; `settle` waits for them.
BUSY_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_message",
    "discord.py: on_interaction",
)


class DriverMixin:
    """Plays the users' side and waits for the bot.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

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

    async def forge(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        *,
        values: list[str] | None = None,
    ) -> InteractionHandle:
        """A click no honest client sends: on a real message the user can see, but with the
        component rewritten to `custom_id` (a string select chosen with `values`, when
        given). The payload's message carries that component, as a modified client would
        send it, so discord.py dispatches it like any other; the bot must not trust it.
        """
        msg = self.messages[message.id if isinstance(message, FakeMessage) else message]
        comp: Json = {"type": 2, "id": 2, "custom_id": custom_id, "style": 2, "label": "forged"}
        data: Json = {"custom_id": custom_id, "component_type": 2, "id": 2}
        if values is not None:
            options = [{"label": v[:100] or "-", "value": v} for v in values] or [
                {"label": "-", "value": "-"}
            ]
            comp = {"type": 3, "id": 2, "custom_id": custom_id, "options": options,
                    "min_values": 0, "max_values": max(1, len(values))}
            data = {"custom_id": custom_id, "component_type": 3, "id": 2, "values": values}
        shown = [{"type": 1, "id": 1, "components": [comp]}]
        return await self._fire(3, user, msg.channel_id, data, msg, shown)

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
        session = self._live_session(None if channel.is_dm else self.guild_of(channel).id)
        intents = session.intents if session else 0
        mentioned = self.bot_user.mention in content or f"<@!{self.bot_user.id}>" in content
        if not channel.is_dm:
            data["member"] = self._member_json(user, self.guild_of(channel), with_user=False)
            if not intents & MESSAGE_CONTENT_INTENT and not mentioned:
                data["content"] = ""  # what Discord sends without the message_content intent
        if mentioned:
            data["mentions"] = [self._user_json(self.bot_user)]
        await self.dispatch("MESSAGE_CREATE", data)
        return msg

    async def settle(
        self, quiet: float = 0.05, timeout: float = 10.0, busy_polls: int = 50
    ) -> None:
        """Wait until the bot is idle: no request in flight or for `quiet` seconds, no
        rate limit it may be waiting out (a bucket it emptied, a 429: buckets.py), and no
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
            limited = self.rate_limits.quiet_at() - self.now()
            if self._inflight == 0 and idle_for >= quiet and limited <= 0:
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
            await asyncio.sleep(0.01 if busy or self._inflight
                                else max(quiet - idle_for, limited, 0.005))

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

    async def _fire(
        self,
        itype: int,
        user: FakeUser,
        channel_id: int,
        data: Json,
        message: FakeMessage | None = None,
        shown: list[Json] | None = None,
    ) -> InteractionHandle:
        """Build an INTERACTION_CREATE the way Discord does and send it to the bot.

        `shown` replaces the components of the message the payload carries (`forge`).
        """
        channel = self.channels[channel_id]
        if channel.is_dm and channel.recipient_id != user.id:
            raise ValueError(f"{user.name} is not the recipient of DM channel {channel_id}")
        if channel.type in NO_CHAT:  # channel_types.py: no message box, no command
            raise ValueError(f"Discord sends no interaction from channel {channel_id} "
                             f"(type {channel.type}: it holds only channels or threads)")
        if itype in (2, 4) and channel.is_thread and channel.archived:
            raise ValueError("Discord takes no application command in an archived thread")
        if not self.can_read(user, channel_id):
            raise ValueError(f"{user.name} cannot see channel {channel_id} (a private "
                             "thread they were not invited to)")
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
            "app_permissions": str(self.permissions_of(self.bot_user, channel_id)),
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
            guild = self.guild_of(channel)
            if user.id not in guild.member_ids:
                raise ValueError(f"{user.name} is not a member of guild {guild.name!r}")
            perms = self.permissions_of(user, channel_id)
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=self._member_json(user, guild, permissions=perms),
                context=0,
                authorizing_integration_owners={"0": str(guild.id)},
            )
        if message is not None:
            payload["message"] = self._message_json(message)
            if shown is not None:
                payload["message"]["components"] = shown
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
        handle.sent_at = self.now()
        await self.dispatch("INTERACTION_CREATE", payload)
        return handle
