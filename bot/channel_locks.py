"""Each channel's two locks: one to change its game, one to show it.

A click changes its game under the channel's lock (`acting`): the load, the rules, the
save, the AI chain; never a Discord call. Its delivery (bot/courier.py) runs under the
channel's delivery lock (`delivering`), the channel's lock let go: a slow Discord (a
rate limit waited out, a board uploaded) then keeps no other click of the channel, in
this process or on PostgreSQL in another, from being read, refused or played.

Deliveries keep the order of their saves. A save's delivery lock is taken where the save
was made, before the channel's lock is let go (`DeliveryTurn.take`), and each lock is
first come, first served: a later version is never shown before an earlier one, and two
deliveries of a channel never interleave their messages. The wait for it there is short:
nothing is saved while a delivery is owed (the sessions deliver it first, with the
channel's lock let go: bot/sessions_channel.py's `_ready`), so the delivery lock is then
held by no delivery still sending, only by one finishing its mark, a look that found
nothing owed, or a turn timer's reminder (which replaces the live message's last ping,
so it keeps the same order).

Each lock is this process's asyncio.Lock, then the store's (bot/store/base.py:
PostgreSQL's advisory locks, shared by every process; SQLite's take nothing, one process
owning its file). A process keeps a channel's locks only while someone holds or waits
for them.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from types import TracebackType

from bot.store import ChannelBusy, Store, StoreUnavailable

log = logging.getLogger(__name__)


class ChannelLocks:
    """The two locks of every channel (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._acting: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        self._delivering: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    @asynccontextmanager
    async def acting(self, channel_id: int) -> AsyncIterator[None]:
        """The channel's lock, to change its game. ChannelBusy: another process keeps it
        past the store's wait."""
        async with _lock_of(self._acting, channel_id), self.store.channel_lock(channel_id):
            yield

    @asynccontextmanager
    async def delivering(self, channel_id: int, *, wait: bool = True) -> AsyncIterator[None]:
        """The channel's delivery lock, to send what its game owes. Not `wait`:
        ChannelBusy at once when a delivery of the channel is under way (in this process,
        or on PostgreSQL in another), rather than waiting for it."""
        lock = _lock_of(self._delivering, channel_id)
        if not wait and lock.locked():
            raise ChannelBusy(f"a delivery in channel {channel_id} is under way")
        async with lock, self.store.delivery_lock(channel_id, wait=wait):
            yield

    def turn(self, channel_id: int) -> DeliveryTurn:
        """A save's turn to deliver: taken where the save is made, held past it."""
        return DeliveryTurn(self, channel_id)


class DeliveryTurn:
    """The channel's delivery lock, taken by `take` under the channel's lock (where a save
    was made, so deliveries keep the order of their saves) and held to the end of this
    `async with` block, after the channel's lock was let go: the block delivers there.
    Nothing is held when nothing was saved (`take` never called)."""

    def __init__(self, locks: ChannelLocks, channel_id: int) -> None:
        self._locks = locks
        self.channel_id = channel_id
        self.held = False
        self._stack = AsyncExitStack()

    async def __aenter__(self) -> DeliveryTurn:
        await self._stack.__aenter__()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        traceback: TracebackType | None) -> None:
        """Let the delivery lock go; what the block raised goes on (never swallowed)."""
        self.held = False
        await self._stack.__aexit__(kind, exc, traceback)

    async def take(self) -> None:
        """Take the channel's delivery lock now. Another process keeping it past the
        store's wait, or the store away, is not waited for any longer: `held` stays
        False, the save's delivery stays owed, and the retry (or the next click) sends
        it."""
        try:
            await self._stack.enter_async_context(self._locks.delivering(self.channel_id))
        except (ChannelBusy, StoreUnavailable) as exc:
            log.info("channel %s: no turn to deliver now (%s); it stays owed",
                     self.channel_id, exc)
            return
        self.held = True


def _lock_of(locks: weakref.WeakValueDictionary[int, asyncio.Lock],
             channel_id: int) -> asyncio.Lock:
    """The channel's lock in `locks`, made on first use (kept while someone holds it)."""
    lock = locks.get(channel_id)
    if lock is None:
        lock = asyncio.Lock()
        locks[channel_id] = lock
    return lock
