"""A click answered with the edit it causes (Discord's UPDATE_MESSAGE, callback type 7).

A click on the live message that edits that same message needs no defer and no later
PATCH: the edit is the interaction's answer, one round trip to Discord instead of two.
The cog (cogs/components.py) starts the action under `answering`; the outlet, when it
edits a message, asks `edit_by_reply` first, which takes the interaction's answer if it
is still open and the message is the one clicked. Discord wants an answer within 3 s: if
the action is not done after PATIENCE, the click is deferred as before and the edit goes
out as a PATCH. The lock makes the defer and the edit exclusive, so exactly one of them
answers. The open answer is found through the task's context: the sessions layer
delivers in the click's own task (after the channel's lock is let go, under its
delivery lock: bot/channel_locks.py), never in another task, or the edit would PATCH.

Nothing changes for the outbox: the edit carries the same content a PATCH would, the
store remembers the live message after it either way, and a delivery sent again after a
crash edits the message again (an edit is idempotent), so no line shows twice.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

log = logging.getLogger(__name__)

PATIENCE = 2.0  # seconds: past this the click is deferred (Discord allows 3 s in all)
T = TypeVar("T")


@dataclass
class Reply:
    """The click whose answer is still open, and the message it was made on."""

    interaction: discord.Interaction
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def message_id(self) -> int | None:
        message = self.interaction.message
        return message.id if message is not None else None

    def open(self) -> bool:
        return not self.interaction.response.is_done()

    async def edit(self, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit `message_id` as the click's answer; False when the caller must PATCH
        instead (another message, the click answered already, or Discord refused)."""
        if message_id != self.message_id:
            return False
        async with self.lock:
            if not self.open():
                return False
            try:
                await self.interaction.response.edit_message(**fields)
            except discord.HTTPException as exc:  # an expired click, say: PATCH instead
                log.info("a click's answer as an edit failed, patched instead: %s", exc)
                return False
            return True

    async def defer(self) -> None:
        """Answer the click without an edit, unless something answered it already."""
        async with self.lock:
            if not self.open():
                return
            try:
                await self.interaction.response.defer()
            except discord.NotFound:  # expired: the action goes on, shown in the channel
                log.info("a click expired before its answer (%s)", self.interaction.id)


_CURRENT: contextvars.ContextVar[Reply | None] = contextvars.ContextVar(
    "hk_reply", default=None)


async def answering(interaction: discord.Interaction, work: Coroutine[Any, Any, T]) -> T:
    """Run `work` (an action and its delivery) with the click's answer open to the
    outlet's edit; defer the click if `work` is still running after PATIENCE."""
    reply = Reply(interaction)
    wait = PATIENCE
    if wait <= 0:  # no patience at all: today's path, deferred before any work
        await reply.defer()
    token = _CURRENT.set(reply)
    try:
        task = asyncio.create_task(work)  # the task's context holds the reply
    finally:
        _CURRENT.reset(token)
    done, _ = await asyncio.wait({task}, timeout=wait)
    if not done:
        await reply.defer()
    return await task


async def answered(interaction: discord.Interaction, done: str = "") -> None:
    """After the action: a click nothing answered yet (its result went to a new message,
    or to nobody) is deferred now. A click made on a private message (a two-step
    choice's second half, which only its chooser sees) is answered by that message's
    edit instead: `done` in place of its buttons, which have served (one request, as
    the defer would be, and no stale buttons left behind)."""
    reply = Reply(interaction)
    message = interaction.message
    if done and message is not None and message.flags.ephemeral \
            and await reply.edit(message.id, {"content": done, "view": None}):
        return
    await reply.defer()


async def edit_by_reply(message_id: int, fields: dict[str, Any]) -> bool:
    """The outlet's edit of `message_id` as the open click's answer, if there is one for
    that message; False: nothing was sent, PATCH as usual."""
    reply = _CURRENT.get()
    if reply is None:
        return False
    return await reply.edit(message_id, fields)
