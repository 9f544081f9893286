"""Channels acting at once on PostgreSQL: how many actions the channel lock refuses, and
with which line (issue 19). On demand, never a test (tests/test_store_channel_lock.py
has a small bounded case).

    PYTHONPATH=. python bench/bench_lock_pool.py --channels 200 --rounds 20 [--render]

Every channel holds a running Cthulhu game; in each round every channel's player to act
clicks at the same moment, through Sessions, on tests/pg_server.py's throwaway server;
each post takes --discord-ms, as Discord's answer does, while the channel is locked.
Prints the actions tried, played and refused, by the line the player was told.

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
import time
from collections import Counter

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Post, Sessions
from bot.store import PostgresStore, Table
from tests.pg_server import PgServer
from tests.test_sessions import RecordingOutlet

GUILD = 9
BASE = 5_000


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


async def click(sessions: Sessions, channel: int, told: Counter[str]) -> None:
    table = await sessions.table(channel)
    if table is None:
        told["(game over)"] += 1
        return
    prompt = sessions.prompt(table)
    if prompt is None or prompt.user_id is None:
        told["(nobody to act)"] += 1
        return
    try:
        await sessions.act(channel, T.Actor(prompt.user_id, prompt.name),
                           prompt.options[0].action, version=prompt.version)
        told["played"] += 1
    except IllegalAction as exc:
        told[exc.message] += 1


async def main(args: argparse.Namespace) -> None:
    server = PgServer.start()
    try:
        store = PostgresStore(server.url)
        await store.open()
        sessions = Sessions(store, SlowDiscord(args.discord_ms / 1000), render=args.render)
        channels = [BASE + n for n in range(args.channels)]
        await prepare(sessions, channels)
        told: Counter[str] = Counter()
        started = time.perf_counter()
        for _ in range(args.rounds):
            await asyncio.gather(*(click(sessions, c, told) for c in channels))
        took = time.perf_counter() - started
        await store.close()
    finally:
        server.stop()
    tried = sum(told.values())
    print(f"{args.channels} channels x {args.rounds} rounds, render={args.render}, "
          f"Discord {args.discord_ms:.0f} ms a post: "
          f"{tried} tried in {took:.1f} s")
    for line, count in told.most_common():
        print(f"  {count:6d}  {line}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--render", action="store_true")
    parser.add_argument("--discord-ms", type=float, default=250.0,
                        help="how long each post takes Discord (under the lock)")
    asyncio.run(main(parser.parse_args()))
