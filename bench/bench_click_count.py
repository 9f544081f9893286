"""What the shared click count (cogs/click_limit.py, PostgreSQL's count_click) costs
beside what a click costs the store anyway, as ratios: the count's upsert against a
game's load and the channel lock, each timed many times on a throwaway PostgreSQL
server (tests/pg_server.py; the PostgreSQL binaries must be installed):

    python bench/bench_click_count.py [--calls 2000] [--rounds 3]

The best of the rounds is reported (the shared machine only ever adds time). A click
takes the lock, loads, saves and delivers; the count adds one round trip.

Recorded on the shared 2-core box (five other engineers' jobs running), Unix socket,
µs per call, two runs:

    count_click 391 / 295   load 450 / 303   channel_lock 760 / 490
    -> count/load 0.87 / 0.97, count/lock 0.51 / 0.60

So the count costs about one more load per click: a click takes the lock, loads, saves
(a transaction of several statements) and then waits on Discord's REST, so the count is
well under a fifth of what the store alone spends on the click.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.seats import Seat
from bot.store import PostgresStore, Table
from tests.pg_server import PgServer


async def _timed(calls: int, step: object) -> float:
    started = time.perf_counter()
    for n in range(calls):
        await step(n)  # type: ignore[operator]
    return (time.perf_counter() - started) / calls * 1e6


async def _lock(store: PostgresStore) -> None:
    async with store.channel_lock(1):
        return


async def main(calls: int, rounds: int) -> None:
    server = PgServer.start()
    try:
        await server.reset()
        store = PostgresStore(server.url)
        await store.open()
        table = Table(channel_id=1, guild_id=2, kind="cthulhu", host_id=3, seed=1,
                      seats=[Seat("a", 3)], status="active", state={"n": 0})
        await store.create(table, [], 3, None)
        best = {"count_click": float("inf"), "load": float("inf"),
                "channel_lock": float("inf")}
        for _ in range(rounds):
            best["count_click"] = min(best["count_click"], await _timed(
                calls, lambda n: store.count_click(5 + n % 50, n // 500, 10**6)))
            best["load"] = min(best["load"], await _timed(calls, lambda n: store.load(1)))
            best["channel_lock"] = min(best["channel_lock"],
                                       await _timed(calls, lambda n: _lock(store)))
        await store.close()
    finally:
        server.stop()
    print("  ".join(f"{k} {v:.0f}" for k, v in best.items()),
          f"-> count/load {best['count_click'] / best['load']:.2f},",
          f"count/lock {best['count_click'] / best['channel_lock']:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.rounds))
