"""The same workload on SQLite and on PostgreSQL, each against its own floor: a
benchmark script, run on demand, never a test.

    python bench/bench_stores.py                         # 50 channels x 10 rounds, twice
    python bench/bench_stores.py --channels 10 --rounds 3 --runs 1

The workload: the sessions layer (bot/sessions.py: lock, load, rules, save with the
outbox, deliver, mark delivered) over real games, Cthulhu, Betrayal and Evil Below in
turn, one per channel, each with its own state, every seat a player's. In each round
every channel's player to act picks one of the engine's options (seeded) and the
channels act at once, as busy servers do. No board is drawn and the outlet posts
nothing (bench/quiet.py): the figure is the store's, not Pillow's or Discord's.

The floor, measured in the same run on each backend: a bare transaction writing the
same bytes, an UPDATE of one row per channel with the envelope each action saved, in
the same rounds and with the same channels at once, through the same driver the store
uses (SQLite: sqlite3 in one writer thread, WAL, synchronous=NORMAL, as
bot/store/sqlite.py; PostgreSQL: asyncpg, a pool of 10 as bot/store/postgres.py, on
tests/pg_server.py's throwaway server, whose fsync and synchronous_commit are off on
both sides alike). Each action's time is set against its floor's: p50, p99, and the
rounds' throughput. Machines here are shared: the ratio is the figure.

The store's calls per action are counted too: "load" counts the bench's own read of the
prompt beside the action's (one each).

Recorded on the shared 2-core box, 50 channels x 10 rounds (500 actions a backend,
2.7 KB of envelope saved each), two runs (load average 7.9-8.1, other helpers' jobs:
the floors themselves moved 2-3x between runs):

              action p50 / p99 ms      x its floor (p50 / p99)   actions/s (of the floor's)
  SQLite      199 / 363, 188 / 393     65 / 25, 98 / 92          208 (1/33), 178 (1/74)
  PostgreSQL  139 / 687, 291 / 375     4.4 / 11, 18 / 7.9        162 (1/5.0), 134 (1/12)

  floors: SQLite p50 3.1 / 1.9 ms, 6,890 / 13,122 transactions/s; PostgreSQL p50
  31.6 / 16.3 ms, 812 / 1,564 transactions/s
  store calls per action, both: 6 (load 2 of which the bench's 1, channel_lock,
  save, delivery_lock, mark_delivered)

So with 50 channels at once the two backends play about as many actions a second
(SQLite 178-208, PostgreSQL 134-162; an earlier run of the same, 201 against 82): the
action's own work (rules, JSON, the worker threads, the event loop) bounds both, and a
bare SQLite transaction is so cheap (sub-ms to 3 ms) that its ratio mostly says so. On
PostgreSQL each of the 6 calls is at least one round trip to a server that shares the
two cores, so the action is 4-18x its floor there.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncpg

from bench.quiet import QuietOutlet
from bot import games
from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Post, Sessions
from bot.store import ACTIVE, Store, Table, open_store
from bot.store.sqlite import PRAGMAS
from tests.pg_server import PgServer

KINDS = ("cthulhu", "betrayal", "evilbelow")
GUILD = 77
BASE = 10_000
NAMES = ("Ann", "Ben", "Cat", "Dee", "Eve", "Fay")
POOL = 10


class Counted:
    """The store, with its calls counted by name (a call to PostgreSQL is a round trip
    or more; to SQLite, a trip to its writer or reader thread)."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name.startswith("_") or not callable(attr):
            return attr
        if inspect.iscoroutinefunction(attr):
            async def call(*args: Any, **options: Any) -> Any:
                self.calls[name] += 1
                return await attr(*args, **options)
            return call

        def other(*args: Any, **options: Any) -> Any:  # the locks' context managers
            self.calls[name] += 1
            return attr(*args, **options)
        return other


class Nowhere(QuietOutlet):
    async def publish(self, table: Table, post: Post) -> None:
        return None


@dataclass
class Figures:
    """One backend's run: the actions and the floor's transactions, in seconds."""

    actions: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    took: float = 0.0  # the rounds' wall time, actions
    floor_took: float = 0.0
    refused: int = 0
    bytes: int = 0  # envelope bytes saved
    calls: Counter[str] = field(default_factory=Counter)  # store calls in the rounds


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))] * 1000


def actor(channel: int, seat: int) -> T.Actor:
    return T.Actor(channel * 10 + seat, NAMES[seat])


async def prepare(sessions: Sessions, channels: list[int], seed: int) -> None:
    for n, channel in enumerate(channels):
        kind = KINDS[n % len(KINDS)]
        await sessions.open(channel, GUILD, actor(channel, 0), kind, seed + n)
        for seat in range(1, games.get(kind).min_players):
            await sessions.act(channel, actor(channel, seat), Action(T.JOIN))
        await sessions.act(channel, actor(channel, 0), Action(T.START))


async def act(sessions: Sessions, channel: int, rng: random.Random,
              figures: Figures) -> str | None:
    """The player to act picks an option; the envelope the store saved, or None."""
    table = await sessions.table(channel)
    if table is None or table.status != ACTIVE:
        return None
    prompt = sessions.prompt(table)
    if prompt is None or prompt.user_id is None or not prompt.options:
        return None
    option = rng.choice(prompt.options)
    started = time.perf_counter()
    try:
        outcome = await sessions.act(channel, T.Actor(prompt.user_id, prompt.name),
                                     option.action, version=prompt.version)
    except IllegalAction:
        figures.refused += 1
        return None
    figures.actions.append(time.perf_counter() - started)
    return json.dumps(outcome.table.envelope())


async def workload(store: Store, channels: int, rounds: int, seed: int,
                   figures: Figures) -> list[dict[int, str]]:
    """The rounds played; what each round saved, by channel."""
    counted = Counted(store)
    sessions = Sessions(cast(Store, counted), Nowhere(), render=False)
    where = [BASE + n for n in range(channels)]
    await prepare(sessions, where, seed)
    counted.calls.clear()
    rng = random.Random(seed)
    saved: list[dict[int, str]] = []
    started = time.perf_counter()
    for _ in range(rounds):
        picks = [random.Random(rng.random()) for _ in where]
        bodies = await asyncio.gather(*(act(sessions, c, r, figures)
                                        for c, r in zip(where, picks, strict=True)))
        saved.append({c: b for c, b in zip(where, bodies, strict=True) if b is not None})
    figures.took = time.perf_counter() - started
    await sessions.drain()
    figures.calls = counted.calls
    figures.bytes = sum(len(b) for r in saved for b in r.values())
    return saved


async def sqlite_floor(path: Path, saved: list[dict[int, str]], figures: Figures) -> None:
    """One writer thread, as the store has: each write one transaction."""
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    for pragma in PRAGMAS:
        db.execute(pragma)
    db.execute("CREATE TABLE floor (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    rows = sorted({channel for bodies in saved for channel in bodies})
    db.executemany("INSERT INTO floor VALUES (?, '')", [(c,) for c in rows])
    writer = ThreadPoolExecutor(max_workers=1)
    loop = asyncio.get_running_loop()

    def write(channel: int, body: str) -> None:
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE floor SET body = ? WHERE id = ?", (body, channel))
        db.execute("COMMIT")

    async def one(channel: int, body: str) -> None:
        started = time.perf_counter()
        await loop.run_in_executor(writer, write, channel, body)
        figures.floor.append(time.perf_counter() - started)

    started = time.perf_counter()
    for bodies in saved:
        await asyncio.gather(*(one(c, b) for c, b in bodies.items()))
    figures.floor_took = time.perf_counter() - started
    writer.shutdown()
    db.close()


async def pg_floor(url: str, saved: list[dict[int, str]], figures: Figures) -> None:
    pool = await asyncpg.create_pool(url, min_size=0, max_size=POOL)
    try:
        await pool.execute("DROP TABLE IF EXISTS floor")
        await pool.execute("CREATE TABLE floor (id BIGINT PRIMARY KEY, body TEXT NOT NULL)")
        await pool.executemany("INSERT INTO floor VALUES ($1, '') ON CONFLICT DO NOTHING",
                               [(c,) for r in saved for c in r])

        async def one(channel: int, body: str) -> None:
            started = time.perf_counter()
            async with pool.acquire() as conn, conn.transaction():
                await conn.execute("UPDATE floor SET body = $1 WHERE id = $2", body, channel)
            figures.floor.append(time.perf_counter() - started)

        started = time.perf_counter()
        for bodies in saved:
            await asyncio.gather(*(one(c, b) for c, b in bodies.items()))
        figures.floor_took = time.perf_counter() - started
    finally:
        await pool.close()


async def on_sqlite(folder: Path, args: argparse.Namespace) -> Figures:
    figures = Figures()
    store = await open_store(folder / "bench.sqlite3")
    try:
        saved = await workload(store, args.channels, args.rounds, args.seed, figures)
    finally:
        await store.close()
    await sqlite_floor(folder / "floor.sqlite3", saved, figures)
    return figures


async def on_postgres(server: PgServer, args: argparse.Namespace) -> Figures:
    await server.reset()
    figures = Figures()
    store = await open_store(server.url)
    try:
        saved = await workload(store, args.channels, args.rounds, args.seed, figures)
    finally:
        await store.close()
    await pg_floor(server.url, saved, figures)
    return figures


def report(name: str, got: Figures, said: str) -> str:
    count = len(got.actions)
    p50, p99 = quantile(got.actions, 0.5), quantile(got.actions, 0.99)
    f50, f99 = quantile(got.floor, 0.5), quantile(got.floor, 0.99)
    rate, floor_rate = count / got.took, len(got.floor) / got.floor_took
    calls = ", ".join(f"{name} {n / count:.1f}" for name, n in got.calls.most_common())
    return (f"  {name:10} {count} actions ({got.refused} refused), "
            f"{got.bytes / max(count, 1) / 1000:.1f} KB saved each ({said})\n"
            f"             action p50 {p50:.1f} ms = {p50 / f50:.1f}x floor, p99 {p99:.1f} ms = "
            f"{p99 / f99:.1f}x floor; {rate:.0f} actions/s = 1/{floor_rate / rate:.1f} of "
            f"the floor's\n"
            f"             store calls per action {sum(got.calls.values()) / count:.1f} "
            f"({calls})\n"
            f"             floor  p50 {f50:.2f} ms, p99 {f99:.2f} ms, {floor_rate:.0f} "
            f"transactions/s")


async def main(args: argparse.Namespace) -> None:
    server = None if args.no_postgres else PgServer.start()
    try:
        for run in range(1, args.runs + 1):
            print(f"run {run}: {args.channels} channels x {args.rounds} rounds, seed "
                  f"{args.seed}", flush=True)
            with tempfile.TemporaryDirectory(prefix="hk-stores-") as folder:
                said = load()
                print(report("SQLite", await on_sqlite(Path(folder), args), said), flush=True)
            if server is not None:
                said = load()
                print(report("PostgreSQL", await on_postgres(server, args), said),
                      flush=True)
    finally:
        if server is not None:
            server.stop()


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--no-postgres", action="store_true",
                        help="SQLite only (no PostgreSQL binaries here)")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
