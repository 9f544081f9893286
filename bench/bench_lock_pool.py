"""Channels acting at once on PostgreSQL: how many actions the channel lock refuses, and
with which line (issue 19), and how long each action holds its channel's lock (issue
22). On demand, never a test (tests/test_store_channel_lock.py has small bounded cases).

    PYTHONPATH=. python bench/bench_lock_pool.py --channels 200 --rounds 20 [--render]
        [--discord-ms 250] [--rival]

Every channel holds a running Cthulhu game; in each round every channel's player to act
clicks at the same moment, through Sessions, on tests/pg_server.py's throwaway server;
each post takes --discord-ms, as Discord's answer does. With --rival a second process
(its own store and Sessions on the same database) presses the same button at the same
moment. Prints the actions tried, played and refused, by the line the player was told
and how long its answer took, and how long the store's channel lock was held by an
action that saved a move and by one that did not (a stale click).

Recorded on the shared 2-core box (load 1.4-3), no render, the channel lock held ms
(median / p90 / max) and the answers, before (the delivery under the channel's lock)
and after (the delivery after it, under the channel's delivery lock: bot/channel_locks.py):
  200 channels x 10 rounds, 250 ms a post:
      before  held by a move 926 / 1276 / 1772; 2,000 played, answered in 1101 (median)
      after   held by a move 339 / 639 / 996;   2,000 played, answered in 795
  50 channels x 10 rounds, 250 ms a post, --rival:
      before  held by a move 342 / 428 / 649; 500 played, 500 stale, stale answered in
              ~420 (median: it waited for the other's post)
      after   held by a move 101 / 166 / 272; 500 played, 500 stale, stale answered in
              ~200
  50 channels x 10 rounds, 2,500 ms a post (a slow Discord), --rival:
      before  held by a move 2582 / 2651 / 2726; 500 played, 500 refused "This game is
              busy" after the 2 s wait (2002 median), none told stale
      after   held by a move 162 / 238 / 362; 500 played, 0 refused busy: the 500 raced
              clicks told stale in ~315; the moves answered in ~2790 (2650 before:
              two locks, and the plan made after the save)

Recorded on the shared 2-core box, 200 channels x 20 rounds, no render, 250 ms a post:
  a connection of a 20-connection pool held per channel for the whole action (before):
      1,040 of 4,000 refused (26%), every one told "Someone else's move landed first"
      while nobody else was in those channels; 50.9 s for the 4,000
  free locks taken on 2 shared connections (bot/store/postgres.py, _SharedLocks):
      0 of 4,000 refused; 29.7 s
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import statistics
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Post, Sessions
from bot.store import PostgresStore, StoreUnavailable, Table
from tests.pg_server import PgServer
from tests.test_sessions import RecordingOutlet

GUILD = 9
BASE = 5_000


# Set by the channel lock for its holder's task, marked by a save made under it.
_SAVING: contextvars.ContextVar[list[bool] | None] = contextvars.ContextVar("saving",
                                                                          default=None)


class TimedStore(PostgresStore):
    """The store's channel lock, timed from the moment it is held to its release: how
    long one action keeps its channel from every other action, in any process; apart
    for the holds in which a save was made (a move played) and the others (a stale
    click, refused). Ten waiting connections each, so two processes stay within the
    test server's 60."""

    def __init__(self, url: str) -> None:
        super().__init__(url, lock_connections=10)
        self.held: dict[bool, list[float]] = {True: [], False: []}

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        async with super().channel_lock(channel_id):
            saved = [False]
            token = _SAVING.set(saved)
            started = time.perf_counter()
            try:
                yield
            finally:
                self.held[saved[0]].append(time.perf_counter() - started)
                _SAVING.reset(token)

    async def save(self, table: Table, events: Any, **kwargs: Any) -> Table:
        saved = _SAVING.get()
        if saved is not None:
            saved[0] = True
        return await super().save(table, events, **kwargs)


def _spread(seconds: list[float]) -> str:
    if not seconds:
        return "none"
    ms = sorted(s * 1000 for s in seconds)
    return (f"median {statistics.median(ms):.1f}  p90 {ms[len(ms) * 9 // 10]:.1f}  "
            f"max {ms[-1]:.1f}  ({len(ms)})")


class SlowDiscord(RecordingOutlet):
    """Discord's round trip for the live message's edit (with a board, a few hundred
    ms on the real one), spent under the channel's lock as the real outlet spends it."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    async def publish(self, table: Table, post: Post) -> None:
        await asyncio.sleep(self.seconds)
        await super().publish(table, post)


async def prepare(sessions: Sessions, channels: list[int]) -> None:
    for channel in channels:
        await sessions.open(channel, GUILD, T.Actor(channel * 10, "Ann"), "cthulhu", channel)
        await sessions.act(channel, T.Actor(channel * 10 + 1, "Ben"), Action(T.JOIN))
        await sessions.act(channel, T.Actor(channel * 10, "Ann"), Action(T.START))


async def click(sessions: Sessions, channel: int, told: Counter[str],
                answered: dict[str, list[float]], who: str = "") -> None:
    """The player to act presses the first option; `told` counts what they were told,
    `answered` keeps how long each answer took, by what it said."""
    table = await sessions.table(channel)
    if table is None:
        told[f"{who}(game over)"] += 1
        return
    prompt = sessions.prompt(table)
    if prompt is None or prompt.user_id is None:
        told[f"{who}(nobody to act)"] += 1
        return
    started = time.perf_counter()
    try:
        await sessions.act(channel, T.Actor(prompt.user_id, prompt.name),
                           prompt.options[0].action, version=prompt.version)
        line = f"{who}played"
    except IllegalAction as exc:
        line = f"{who}{exc.message}"
    except StoreUnavailable as exc:
        line = f"{who}(store unavailable: {exc.reason})"
    told[line] += 1
    answered.setdefault(line, []).append(time.perf_counter() - started)


async def main(args: argparse.Namespace) -> None:
    server = PgServer.start()
    try:
        store, rival_store = TimedStore(server.url), TimedStore(server.url)
        await store.open()
        await rival_store.open()
        sessions = Sessions(store, SlowDiscord(args.discord_ms / 1000), render=args.render)
        # A second bot process on the same database (its shards, its DMs, its timers).
        rival = Sessions(rival_store, SlowDiscord(args.discord_ms / 1000), render=args.render)
        channels = [BASE + n for n in range(args.channels)]
        await prepare(sessions, channels)
        store.held = {True: [], False: []}
        told: Counter[str] = Counter()
        answered: dict[str, list[float]] = {}
        started = time.perf_counter()
        for _ in range(args.rounds):
            clicks = [click(sessions, c, told, answered) for c in channels]
            if args.rival:  # the same button pressed in the other process, at once
                clicks += [click(rival, c, told, answered, "rival: ") for c in channels]
            await asyncio.gather(*clicks)
        took = time.perf_counter() - started
        held = {saved: store.held[saved] + rival_store.held[saved] for saved in (True, False)}
        await store.close()
        await rival_store.close()
    finally:
        server.stop()
    tried = sum(told.values())
    print(f"{args.channels} channels x {args.rounds} rounds, render={args.render}, "
          f"Discord {args.discord_ms:.0f} ms a post, rival={args.rival}: "
          f"{tried} tried in {took:.1f} s")
    print(f"  channel lock held, ms, by a move played: {_spread(held[True])}")
    print(f"  channel lock held, ms, by a click refused: {_spread(held[False])}")
    for line, count in told.most_common():
        print(f"  {count:6d}  {line}")
        if line in answered:
            print(f"          answered in, ms: {_spread(answered[line])}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--render", action="store_true")
    parser.add_argument("--discord-ms", type=float, default=250.0,
                        help="how long each post takes Discord")
    parser.add_argument("--rival", action="store_true",
                        help="a second process presses the same button at the same moment")
    asyncio.run(main(parser.parse_args()))
