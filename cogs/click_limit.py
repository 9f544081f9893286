"""How fast one user may change a table: clicks on the bot's buttons and the slash
commands that play or seat (/game join, leave..., a game's own commands), in one bucket.

discord.py's cooldowns guard commands, not DynamicItem callbacks, so the buttons keep a
small bucket of their own: per user, in memory (a restart forgets it, which is fine for
a limit measured in seconds). Only applied clicks fill it, so a user who keeps hammering
is not locked out for longer than the window; a burst is refused with one line, and the
clicks after it in the same burst are acknowledged silently. The slash commands count in
the same bucket (cogs/rights.table_check asks `limited`): a command marks itself, or its
game's whole group, with LIMITED in its extras; a command only reading stays free, and
so does a click that only shows its clicker something (cogs/components.py's
`SHOWS_ONLY`: My secrets, a two-step choice's first half).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from discord import app_commands

from bot.store import Store, StoreUnavailable

log = logging.getLogger(__name__)

CLICKS_PER_WINDOW = (5, 3.0)  # at most 5 applied clicks within 3 seconds, per user
PRUNE_EVERY = 1000  # checks between sweeps of users gone quiet
LIMITED = "hauntkeeper.limited"  # a command's (or its group's) extras key: it counts
LIMITS = {LIMITED: True}  # extras= of a command that counts (or group_extras= of a cog)
FREE = {LIMITED: False}  # extras= of a read-only command in a group that counts


class Verdict(Enum):
    GO = "go"  # apply the click
    REFUSE = "refuse"  # the first click over the limit: say "slow down" once
    QUIET = "quiet"  # later clicks of the same burst: answer, say nothing


@dataclass
class ClickLimit:
    clicks: int = CLICKS_PER_WINDOW[0]
    seconds: float = CLICKS_PER_WINDOW[1]
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # the slots shared across processes

    def __post_init__(self) -> None:
        self._applied: dict[int, deque[float]] = {}
        self._told: set[int] = set()
        self._checks = 0

    def check(self, user_id: int) -> Verdict:
        """Whether this user's click goes ahead now (and, if so, count it)."""
        room = self._room(user_id)
        if room is None:
            return self._over(user_id)
        return self._go(user_id, *room)

    async def admit(self, user_id: int, shared: Store | None) -> Verdict:
        """`check`, then the count every process shares (the store's, on PostgreSQL):
        with several shard processes a user's DM clicks land on shard 0 and their
        channel's on another, and a bucket per process alone let twice the clicks by.

        The shared count is per fixed slot of `seconds` (at most `clicks` in each): a
        user within the limit here (any `seconds` hold at most `clicks`) is never
        refused by it, and across processes the user's rate is held to the limit, at
        worst a burst of twice `clicks` around a slot's edge. It costs one upsert per
        click let by here (a round trip well under a millisecond, beside the lock,
        load and save that click costs anyway); a click refused here costs none. A
        store that cannot count now lets the click go: the limit keeps order, it must
        not stop play."""
        room = self._room(user_id)
        if room is None:
            return self._over(user_id)
        if shared is not None:
            slot = int(self.wall() // self.seconds)
            try:
                counted = await shared.count_click(user_id, slot, self.clicks)
            except StoreUnavailable:  # an outage the store tells once: the click goes
                counted = True
            except Exception:
                log.warning("the shared click count failed; this click goes", exc_info=True)
                counted = True
            if not counted:  # other processes let this user's bucket's worth by
                return self._over(user_id)
        return self._go(user_id, *room)

    def _room(self, user_id: int) -> tuple[deque[float], float] | None:
        """The user's recent applied clicks and the time, if one more fits; else None."""
        now = self.clock()
        self._checks += 1
        if self._checks % PRUNE_EVERY == 0:
            self._prune(now)
        recent = self._applied.setdefault(user_id, deque())
        while recent and now - recent[0] >= self.seconds:
            recent.popleft()
        return None if len(recent) >= self.clicks else (recent, now)

    def _go(self, user_id: int, recent: deque[float], now: float) -> Verdict:
        self._told.discard(user_id)
        recent.append(now)
        return Verdict.GO

    def _over(self, user_id: int) -> Verdict:
        """Over the limit: said once per burst, then quiet."""
        if user_id in self._told:
            return Verdict.QUIET
        self._told.add(user_id)
        return Verdict.REFUSE

    def _prune(self, now: float) -> None:
        quiet = [u for u, times in self._applied.items()
                 if not times or now - times[-1] >= self.seconds]
        for user_id in quiet:
            del self._applied[user_id]
            self._told.discard(user_id)


def limited(command: object) -> bool:
    """The slash command changes a table, so it counts in the user's bucket: its own
    extras say so, else its group's."""
    if not isinstance(command, app_commands.Command):
        return False
    if LIMITED in command.extras:
        return bool(command.extras[LIMITED])
    group = command.parent
    while group is not None:
        if LIMITED in group.extras:
            return bool(group.extras[LIMITED])
        group = group.parent
    return False


CLICKS = ClickLimit()
