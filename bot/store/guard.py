"""The store as the bot uses it: an outage is one error type, told once, and its end
is noticed at once.

Every call goes through to the real store (SQLite or PostgreSQL). An error that is an
outage (bot/store/outage.py) comes out as StoreUnavailable, so the cogs answer one calm
line and nothing logs a traceback per click. The first such error logs ONE warning
with the real cause; the outage ends at the next call that succeeds (on SQLite, the
next write), or on PostgreSQL when a probe (a cheap read every PROBE_SECONDS while it
lasts) gets through, and then the listeners hear it (`on_back`): the bot delivers
what stayed owed right away, not at the next tick.

asyncpg's pool drops a connection PostgreSQL closed and makes a new one at the next
acquire, so a restarted server is reached again without a new pool; only the calls in
flight at the moment of the cut fail, and they fail as StoreUnavailable.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from typing import Any, TypeVar, cast

from bot.store.base import StoreUnavailable
from bot.store.outage import outage_reason

log = logging.getLogger(__name__)

PROBE_SECONDS = 1.0
# On SQLite a read goes on working while the disk is full or the file read-only: only a
# write that succeeds ends such an outage. On PostgreSQL any answer does (the server is
# reached again), and so does the probe.
WRITES = frozenset({"create", "save", "mark_delivered", "set_live", "set_thread",
                    "add_thread_member", "set_thread_members",
                    "set_lobby_message", "set_guild_settings", "claim_timer",
                    "record_played", "settle_ai_turn", "execute"})
S = TypeVar("S")


class GuardedStore:
    """A Store (bot/store/base.py) around another one; see the module's docstring."""

    def __init__(self, inner: Any, *, probe_seconds: float = PROBE_SECONDS) -> None:
        self.inner = inner
        self.probe_seconds = probe_seconds
        self.on_back: list[Callable[[], None]] = []  # told when an outage ends
        self.outage: str | None = None  # the reason while the store is away
        self.outages = 0  # how many began since the start (tests and health read it)
        self._since = 0.0
        self._probe: asyncio.Task[None] | None = None
        self._postgres = bool(getattr(inner, "server", False))  # PostgresStore.server

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                result = await attr(*args, **kwargs)
            except StoreUnavailable as exc:
                self._down(exc.reason)
                raise
            except Exception as exc:
                mapped = self._mapped(exc)
                if mapped is exc:  # not an outage: the store's own error, as it was
                    raise
                raise mapped from exc
            if self._postgres or name in WRITES:
                self._up()
            return result

        return guarded

    def _mapped(self, exc: Exception) -> Exception:
        """StoreUnavailable for an outage (noted), the error itself otherwise."""
        reason = outage_reason(exc, postgres=self._postgres)
        if reason is None:
            return exc
        self._down(reason)
        return StoreUnavailable(reason)

    def channel_lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """The real store's lock; an outage while taking it is StoreUnavailable (what
        the held block raises is its own)."""
        return self._held(self.inner.channel_lock(channel_id))

    def delivery_lock(self, channel_id: int, *,
                      wait: bool = True) -> AbstractAsyncContextManager[None]:
        """The real store's delivery lock, as `channel_lock`."""
        return self._held(self.inner.delivery_lock(channel_id, wait=wait))

    @asynccontextmanager
    async def _held(self, held: AbstractAsyncContextManager[None]) -> AsyncIterator[None]:
        try:
            await held.__aenter__()
        except Exception as exc:
            mapped = self._mapped(exc)
            if mapped is exc:
                raise
            raise mapped from exc
        try:
            yield
        except BaseException as exc:
            if not await held.__aexit__(type(exc), exc, exc.__traceback__):
                raise
        else:
            await held.__aexit__(None, None, None)

    async def close(self) -> None:
        if self._probe is not None:
            self._probe.cancel()
            with suppress(asyncio.CancelledError):
                await self._probe
            self._probe = None
        await self.inner.close()

    # -- the outage -----------------------------------------------------------------------

    def _down(self, reason: str) -> None:
        if self.outage is not None:
            return  # told already: one line per outage
        self.outage, self._since = reason, time.monotonic()
        self.outages += 1
        log.warning("the game store is unavailable (%s); clicks are answered 'try again'",
                    reason)
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(
                self._probing(), name="hauntkeeper-store-probe")

    def _up(self) -> None:
        if self.outage is None:
            return
        self.outage = None
        log.info("the game store is back after %.1f s", time.monotonic() - self._since)
        for listener in list(self.on_back):
            try:
                listener()
            except Exception:
                log.exception("a listener for the store's return failed")

    async def _probing(self) -> None:
        """A cheap read now and then while the store is away, so its return is noticed
        even when nobody clicks."""
        while self.outage is not None:
            await asyncio.sleep(self.probe_seconds)
            if not self._postgres:
                continue  # a read proves nothing here: the next write that works ends it
            try:
                await self.inner.schema_version()
            except Exception as exc:
                if outage_reason(exc, postgres=True) is None:
                    log.warning("the store's probe failed: %r", exc)
                continue
            self._up()


def guarded(store: S) -> S:
    """The store behind a guard (once: a guarded store is returned as it is). Typed as
    the store given, since the guard offers every one of its methods."""
    if isinstance(store, GuardedStore):
        return store
    return cast(S, GuardedStore(store))
