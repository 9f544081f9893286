"""The figures at scale (issue 12): SQLite and PostgreSQL side by side, on demand, never
a test.

    python bench/bench_scale.py --backend both        # everything below, both stores
    python bench/bench_scale.py --backend postgres --games 10000 --channels 100 --seconds 10
    python bench/bench_scale.py --only growth --growth 1000,10000,100000

Sections (--only picks some):
  sustained  --games stored (mid-game Cthulhu, bench/bulk_games.py), then --channels of
             them act at once for --seconds: one asyncio task per channel clicking its
             newest prompt through Sessions (null outlet), with the render and without.
             Sustained actions/s, p50/p99 per action (the wait for the lock included).
             Beside it the floor, in the same run on the same bytes: a bare transaction
             writing the saved state_json (SQLite: sqlite3 WAL; PostgreSQL: an UPDATE in
             a transaction over the same asyncpg pool) + json.dumps (+ a bare PNG encode
             of the posted board, with the render).
  processes  (PostgreSQL) --processes OS processes on one database, each driving its
             share of the channels for the same time: total actions/s, each one's p50/p99.
  startup    a fresh process with --games stored: imports, open_store, Sessions, warm_up,
             needing_attention and the resume pass (what HauntBot.setup_hook and its
             first pass do, without Discord), timed from exec to ready; its peak RSS.
  growth     p50 of one action (no render: the store's share is what grows) with 1k, 10k,
             100k games stored, and in one game whose log holds 100 .. 100k events.

The machine is a shared 2-core box with other jobs running: absolute times drift, so
each figure has its floor (or load average) beside it; the ratio is what to compare.
PostgreSQL is tests/pg_server.py's throwaway server (Unix socket, fsync off, as the tests
run it): its commits cost less than a real server's would; SQLite keeps synchronous=NORMAL.

Recorded on the shared 2-core box (load average 1.9-2.8 from other jobs meanwhile), the
defaults (10,000 games, 100 channels, 10 s, 2 processes), two runs a figure (a / b):

                                        SQLite                   PostgreSQL (1 process)
  100 channels, render     actions/s    122 / 118                89 / 87
                           p50, p99     798 / 815, 1123 / 1161   1066 / 1048, 2099 / 2107 ms
                           floor p50    6.22 / 6.40 ms           9.36 / 7.69 ms
                           wall/action  8.2 / 8.5 ms = 1.3x      11.2 / 11.5 ms = 1.2 / 1.5x
                           refused      0                        30 / 31 (busy, of ~1000)
  100 channels, no render  actions/s    308 / 265                144 / 158
                           p50, p99     311 / 356, 550 / 646     663 / 620, 1949 / 1724 ms
                           floor p50    0.15 / 0.15 ms           1.08 / 0.92 ms
                           wall/action  3.25 / 3.77 ms = 22-25x  6.96 / 6.34 ms = 6.5 / 6.9x
                           refused      0                        10 / 6
  start-up, 10,000 games   exec->ready  2.05 / 2.44 s            2.68 / 2.78 s
                           of which     imports 1.2-1.4 s, warm_up 0.8-1.3 s, open_store
                                        3-14 ms, needing_attention + resume 14-52 ms
                           peak RSS     100 / 100 MB             133 / 133 MB
  growth, action p50       1k games     3.81 / 3.99 ms (15.7x)   7.17 / 8.42 ms (7.4 / 7.7x)
  (no render; ratio to     10k          2.99 / 4.03 ms (15.9x)   7.57 / 8.20 ms (7.5 / 7.9x)
  the floor)               100k         2.91 / 5.40 ms (15.4x)   8.41 / 8.66 ms (7.6 / 8.1x)
                           log 100      2.08 / 3.42 ms (12-15x)  5.47 / 7.46 ms (6.5 / 6.9x)
                           log 1k       2.84 / 3.21 ms (12-15x)  7.50 ms (6.8x)
                           log 10k      2.81 / 2.64 ms (12x)     6.86 ms (6.5x)
                           log 100k     2.63 / 2.14 ms (12x)     5.09 ms (6.4x)

  PostgreSQL, 2 processes x 50 channels: render 112 / 73 actions/s in all (52 + 60 /
  32 + 41; p50 694 and 656 / 1385 and 1074 ms, p99 2356 and 1984 / 2771 and 2427 ms,
  11 / 32 refused); no render 163 / 121 actions/s (83 + 80 / 64 + 56; p50 561 and 479 /
  704 and 809 ms, p99 1420 and 1854 / 1998 and 2042 ms, 3 / 8 refused).

What they say. The cost of an action does not grow with the games stored (1k to 100k)
or with its game's log (100 to 100k events): its ratio to the floor stays put, within
the run-to-run drift (every read is by index, the log is only appended to). 100
channels clicking without pause saturate the box: the p50 is mostly the wait behind
the 99 others (a real channel clicks every few seconds, not back to back), and
actions/s is the figure. With the render an action costs ~1.3x a bare encode of its
board on both stores: the render is the bill, the store a small part. Without it,
SQLite's single-writer thread gives twice PostgreSQL's rate in one process: PostgreSQL's
server runs on the same two cores, and each save there is several round trips. A second
process on PostgreSQL adds little or nothing here (two bots and the server share two
cores; run b had more load from other jobs): it is for availability or more cores, not
for speed on this box. PostgreSQL refuses some actions under this load ("busy, try
again"): PostgresStore holds a channel's advisory lock on a pool of 20 connections
(lock_connections), and with 100 channels acting at once a click can wait longer than
LOCK_WAIT (2 s) for a free one. SQLite's locks are in-process and never refuse. Start-up
with 10,000 games is ~2-3 s, nearly all imports and warm_up; finding the waiting games
reads ids only (14-52 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_sessions import Floor, pct, rss_mb
from bench.bench_tables import NullOutlet, click
from bench.bulk_games import lengthen_log, store_games
from bench.floors import encode_ms
from bot.core.errors import IllegalAction
from bot.sessions import Sessions
from bot.store import Store, Table, open_store
from tests.pg_server import NoServer, PgServer

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("sustained", "processes", "startup", "growth")
RENDERS = {"both": (True, False), "yes": (True,), "no": (False,)}
READY = "ready"
FLOOR_SAMPLES = 200
GROWTH_ACTIONS = 200
WARM_ACTIONS = 10
PG_FLOOR_TABLE = ("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY,"
                  " state_json TEXT)")
PG_FLOOR_ROW = "INSERT INTO bench_floor VALUES (1, '') ON CONFLICT DO NOTHING"
PG_FLOOR_WRITE = "UPDATE bench_floor SET state_json = $1 WHERE id = 1"


@dataclass
class Run:
    """What one driver saw: each action's ms, refusals (busy, stale), wall seconds."""

    took: list[float] = field(default_factory=list)
    refused: int = 0
    ended: int = 0
    wall: float = 0.0

    def line(self) -> str:
        rate = len(self.took) / self.wall if self.wall else 0.0
        return (f"{rate:7.0f} actions/s  p50 {statistics.median(self.took):7.2f} ms  "
                f"p99 {pct(self.took, .99):7.2f} ms  ({len(self.took)} actions, "
                f"{self.refused} refused, {self.ended} games ended)")


class PgFloor:
    """The PostgreSQL floor: json.dumps of the table and one UPDATE of those bytes in a
    transaction, on the store's own pool (+ a bare encode of the image, if any)."""

    def __init__(self, store: Any) -> None:
        self.pool = store.pool

    async def prepare(self) -> None:
        await self.pool.execute(PG_FLOOR_TABLE)
        await self.pool.execute(PG_FLOOR_ROW)

    async def measure(self, table: Table, image: bytes | None) -> float:
        envelope = table.envelope()
        t0 = time.perf_counter()
        state_json = json.dumps(envelope)
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(PG_FLOOR_WRITE, state_json)
        spent = (time.perf_counter() - t0) * 1000
        return spent + (encode_ms(image) if image is not None else 0.0)


def machine() -> str:
    one, five, _ = os.getloadavg()
    return (f"shared {os.cpu_count()}-core machine, other jobs running too "
            f"(load average {one:.2f} now, {five:.2f} over 5 min): read the ratios")


async def drive(sessions: Sessions, outlet: NullOutlet, channels: list[int],
                seconds: float) -> Run:
    """Every channel clicks its newest prompt again and again for `seconds`, each
    channel a task of its own (as players on many channels would)."""
    run = Run()
    stop = time.perf_counter() + seconds

    async def player(channel: int) -> None:
        n = channel
        while time.perf_counter() < stop:
            n += 7
            t0 = time.perf_counter()
            try:
                going = await click(sessions, outlet, channel, n)
            except IllegalAction:  # busy (another process holds the channel) or stale
                run.refused += 1
                outlet.last.pop(channel, None)
                continue
            if not going:
                run.ended += 1
                return
            run.took.append((time.perf_counter() - t0) * 1000)

    t0 = time.perf_counter()
    await asyncio.gather(*(player(c) for c in channels))
    run.wall = time.perf_counter() - t0
    return run


async def floor_of(store: Store, outlet: NullOutlet, channels: list[int],
                   measure: Callable[[Table, bytes | None], Awaitable[float]]) -> list[float]:
    """The floor on the bytes the run left: each channel's newest state and post."""
    found: list[float] = []
    for n in range(FLOOR_SAMPLES):
        channel = channels[n % len(channels)]
        table = await store.load_latest(channel)
        post = outlet.last.get(channel)
        if table is not None:
            found.append(await measure(table, post.image if post is not None else None))
    return found


def floor_measure(store: Store, tmp: Path) -> Callable[[Table, bytes | None],
                                                        Awaitable[float]]:
    """The backend's floor as one awaitable: PgFloor's, or Floor's (bench_sessions)."""
    if hasattr(store, "pool"):
        pg = PgFloor(store)

        async def on_pg(table: Table, image: bytes | None) -> float:
            return await pg.measure(table, image)

        return on_pg
    floor = Floor(tmp / f"floor-{time.monotonic_ns()}.sqlite3")

    async def on_sqlite(table: Table, image: bytes | None) -> float:
        return floor.measure(table, image)

    return on_sqlite


async def sustained(store: Store, channels: list[int], seconds: float, tmp: Path,
                    renders: tuple[bool, ...]) -> None:
    measure = floor_measure(store, tmp)
    if hasattr(store, "pool"):
        await PgFloor(store).prepare()
    for render in renders:
        outlet = NullOutlet()
        sessions = Sessions(store, outlet, render=render)
        await sessions.warm_up()
        run = await drive(sessions, outlet, channels, seconds)
        floors = await floor_of(store, outlet, channels, measure)
        label = "render   " if render else "no render"
        print(f"  {len(channels)} channels, {label}: {run.line()}")
        base = statistics.median(floors)
        each = run.wall * 1000 / len(run.took)  # the loop's time per action, saturated
        print(f"      floor p50 {base:.2f} ms  p99 {pct(floors, .99):.2f} ms; wall time per"
              f" action {each:.2f} ms = {each / base:.1f}x the floor (p50 waits for"
              f" {len(channels) - 1} others)")


async def worker(url: str, first: int, count: int, seconds: float, render: bool) -> None:
    """One of --processes: its channels for `seconds`, from when the parent says go
    (a line on stdin, once every process said it was ready)."""
    store = await open_store(url)
    outlet = NullOutlet()
    sessions = Sessions(store, outlet, render=render)
    await sessions.warm_up()
    channels = list(range(first, first + count))
    for channel in channels:  # untimed: the first action's connections and caches, as a
        await click(sessions, outlet, channel, channel)  # running bot has them already
    print(READY, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    run = await drive(sessions, outlet, channels, seconds)
    await store.close()
    print(json.dumps({"took": run.took, "refused": run.refused, "ended": run.ended,
                      "wall": run.wall}))


async def processes(url: str, channels: list[int], seconds: float, count: int,
                    render: bool) -> None:
    share = len(channels) // count
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", url, str(channels[0] + n * share), str(share),
        str(seconds), "1" if render else "0", cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        for n in range(count)]
    for proc in procs:  # every process warmed up before the clock starts
        assert proc.stdout is not None
        while (line := (await proc.stdout.readline()).decode()).strip() != READY:
            if not line:  # the worker ended before it was ready: say so, do not spin
                raise RuntimeError(f"a bench worker exited ({await proc.wait()}) before ready")
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    runs = []
    for proc in procs:
        out, _ = await proc.communicate()
        got = json.loads(out.decode().strip().splitlines()[-1])
        runs.append(Run(got["took"], got["refused"], got["ended"], got["wall"]))
    total = sum(len(r.took) for r in runs) / max(r.wall for r in runs)
    label = "render" if render else "no render"
    print(f"  {count} processes x {share} channels, {label}: total {total:.0f} actions/s")
    for n, run in enumerate(runs):
        print(f"      process {n}: {run.line()}")


async def startup_probe(target: str) -> None:
    """The bot's start-up work without Discord, in this fresh process (--startup-probe)."""
    t0 = time.perf_counter()
    store = await open_store(target)
    t1 = time.perf_counter()
    sessions = Sessions(store, NullOutlet())
    await sessions.warm_up()
    t2 = time.perf_counter()
    waiting = await store.needing_attention()
    for game_id, channel_id in waiting:
        await sessions.resume(channel_id, game_id)
    t3 = time.perf_counter()
    games = await store.count_games()
    await store.close()
    print(json.dumps({"open_ms": (t1 - t0) * 1000, "warm_ms": (t2 - t1) * 1000,
                      "attend_ms": (t3 - t2) * 1000, "waiting": len(waiting),
                      "games": games, "rss_mb": rss_mb()}))


def startup(target: str) -> None:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--startup-probe", target], cwd=ROOT,
                         capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    wall = (time.perf_counter() - t0) * 1000
    got = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"  start-up with {got['games']} games: exec to ready {wall:.0f} ms (imports "
          f"{wall - got['open_ms'] - got['warm_ms'] - got['attend_ms']:.0f}, open_store "
          f"{got['open_ms']:.0f}, Sessions + warm_up {got['warm_ms']:.0f}, "
          f"needing_attention + resume {got['attend_ms']:.0f} ms for {got['waiting']} "
          f"waiting), peak RSS {got['rss_mb']:.0f} MB")


async def one_by_one(store: Store, channels: list[int], actions: int,
                     measure: Callable[[Table, bytes | None], Awaitable[float]]
                     ) -> tuple[float, float]:
    """p50 of `actions` single actions (no render) spread over `channels`, and of the
    floor on the same bytes."""
    outlet = NullOutlet()
    sessions = Sessions(store, outlet, render=False)
    took: list[float] = []
    floors: list[float] = []
    for n in range(WARM_ACTIONS):  # untimed: the first actions' caches and connections
        await click(sessions, outlet, channels[n % len(channels)], n)
    for n in range(actions):
        channel = channels[(n * 7919) % len(channels)]
        t0 = time.perf_counter()
        if not await click(sessions, outlet, channel, n):
            continue
        took.append((time.perf_counter() - t0) * 1000)
        table = await store.load_latest(channel)
        assert table is not None
        floors.append(await measure(table, None))
    return statistics.median(took), statistics.median(floors)


async def growth(fresh: Callable[[], Awaitable[Store]], sizes: list[int], logs: list[int],
                 seed: int, tmp: Path) -> None:
    for size in sizes:
        store = await fresh()
        t0 = time.perf_counter()
        channels = await store_games(store, size, seed)
        made = time.perf_counter() - t0
        if hasattr(store, "pool"):
            await PgFloor(store).prepare()
        p50, floor = await one_by_one(store, channels, GROWTH_ACTIONS,
                                      floor_measure(store, tmp))
        print(f"  {size:>7} games stored ({made:.1f} s to make): action p50 {p50:.2f} ms, "
              f"floor {floor:.2f} ms, ratio {p50 / floor:.1f}x")
        await store.close()
    for events in logs:
        store = await fresh()
        channels = await store_games(store, 100, seed)
        long_game = channels[-1]
        await lengthen_log(store, long_game, events)
        if hasattr(store, "pool"):
            await PgFloor(store).prepare()
        p50, floor = await one_by_one(store, [long_game], GROWTH_ACTIONS // 2,
                                      floor_measure(store, tmp))
        print(f"  a log of {events:>6} events: action p50 {p50:.2f} ms, floor {floor:.2f} ms,"
              f" ratio {p50 / floor:.1f}x")
        await store.close()


async def backend(name: str, args: argparse.Namespace, tmp: Path,
                  server: PgServer | None) -> None:
    counter = iter(range(1_000_000))

    async def fresh() -> Store:
        if server is not None:
            await server.reset()
            return await open_store(server.url)
        return await open_store(tmp / f"{name}-{next(counter)}.sqlite3")

    print(f"{name}: {machine()}")
    wanted = set(args.only.split(",")) if args.only else set(SECTIONS)
    if wanted & {"sustained", "processes", "startup"}:
        store = await fresh()
        t0 = time.perf_counter()
        channels = await store_games(store, args.games, args.seed)
        print(f"  stored {args.games} games in {time.perf_counter() - t0:.1f} s")
        active = channels[:args.channels]
        target = server.url if server is not None else str(tmp / f"{name}-0.sqlite3")
        if "startup" in wanted:
            await store.close()
            startup(target)
            store = await open_store(target)
        if "sustained" in wanted:
            await sustained(store, active, args.seconds, tmp, RENDERS[args.render])
        await store.close()
        if "processes" in wanted and server is not None:
            for render in RENDERS[args.render]:
                await processes(server.url, active, args.seconds, args.processes, render)
    if "growth" in wanted:
        await growth(fresh, [int(s) for s in args.growth.split(",")],
                     [int(s) for s in args.events.split(",")], args.seed, tmp)
    print(f"  peak RSS of the bench process {rss_mb():.0f} MB")


async def main(args: argparse.Namespace) -> None:
    names = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    with tempfile.TemporaryDirectory(prefix="hk-scale-") as tmp:
        for name in names:
            if name == "sqlite":
                await backend(name, args, Path(tmp), None)
                continue
            try:
                server = PgServer.start()
            except NoServer as exc:
                print(f"postgres: skipped ({exc})")
                continue
            try:
                await backend(name, args, Path(tmp), server)
            finally:
                server.stop()


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--growth", default="1000,10000,100000", help="games stored")
    parser.add_argument("--events", default="100,1000,10000,100000", help="a game's log")
    parser.add_argument("--only", default="", help=f"some of {','.join(SECTIONS)}")
    parser.add_argument("--render", choices=sorted(RENDERS), default="both",
                        help="sustained and processes: with the board render, without, both")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        url, first, count, seconds, render = sys.argv[2:7]
        asyncio.run(worker(url, int(first), int(count), float(seconds), render == "1"))
    elif sys.argv[1:2] == ["--startup-probe"]:
        asyncio.run(startup_probe(sys.argv[2]))
    else:
        asyncio.run(main(parse()))
