"""Memory over time while channels play: a benchmark script, run on demand, never a test.

N channels (default 4) each play real games in this process through the whole door
(`Sessions`: lock, load, rules, save with the outbox, the board render, delivery to an
outlet that keeps only sizes), one human seat and three AI seats per game, the AI
deciding for the human too, as the demo does. Channel i plays KINDS[i % 4] (Cthulhu,
Betrayal, Betrayal at the Neibolt House, IT: Evil Below); when a game ends (or reaches
--cap actions and is ended) the channel opens the next one at once with a new seed, so
the load stays steady for the whole run. Every channel has its own game: no two share
a state.

Every --every seconds (default 60) it prints one line of the curve: minutes, RSS (now,
from /proc), the Python heap tracemalloc traces (unless --no-trace), the bytes the
renderers' caches hold beside their budget, live objects, actions and games so far.
At the end: the curve again as "minute: RSS MB", and with tracing the top growers
between the first and the last sample (what grew, by line).

    python bench/bench_memory.py                           # 4 busy channels, 30 minutes
    python bench/bench_memory.py --minutes 5 --channels 50
    python bench/bench_memory.py --minutes 3 --sweep 4,50,200   # one process per size

Recorded on the shared 2-core box (busy: five other engineers' tests), 4 channels, the
defaults (tracemalloc on: it costs ~30 MB of RSS itself), minute: RSS MB:

    before (caches counted at a fraction of their cost, 232 MB allowed), 7,463 actions:
      0: 81, 1: 199, 2: 234, 3: 248, 4: 255, 5: 275, still rising
    byte budgets (120 MB allowed, renderers/budgets.py), no trim, 43,150 actions:
      0: 101, 5: 222, 10: 237, 15: 269, 17: 280, 20: 282, 25: 284, 30: 292; the caches full
      (99.7 MB) from minute 17 on
    the same without tracemalloc, 5 min (~5,000 actions a minute): 72, 169, 191, 211, 225,
      228; with --trim: 70, 161, 180, 190, 186, 187 (hence renderers/heap.py)
    byte budgets and the heap trimmed every 200 boards, 33,276 actions (a busier box):
      0: 82, 5: 190, 10: 217, 15: 236, 16: 241, 18: 243, 20: 246, 22: 248, 24: 247, 26: 255,
      28: 255, 30: 251; flat within 241..256 from minute 16 on, the caches 95..99 MB

Issue 23, 100 busy channels, 20,000 actions in all (`--channels 100 --actions 20000
--no-trace`), actions: RSS MB, load average 6-10 (two runs, every cache by bytes, one
worker thread, 128 MB allowed, 82 MB held at the end):
    0: 72, 1801: 136, 5829: 162, 9385: 173, 13152: 175, 16894: 180, 20017: 184, 20099: 179
    0: 72, 1644: 131, 5784: 162, 9041: 169, 12484: 175, 16108: 176, 19486: 182, 20099: 180

Issue 23, the collector's pace (`--channels 100 --minutes 2 --every 30 --no-trace --gc
default|bot`), one run after the other, load average 1.4-2.3, actions: RSS MB (live
objects at the last sample of the run):
    CPython (700, 10, 10):     0: 73, 4545: 158, 8375: 170, 12061: 179, 15593: 182 (106k)
    bot (20_000, 50, 100):     0: 74, 4299: 159, 7899: 178, 11613: 183, 16048: 189 (221k)
up to ~110,000 more objects wait for a pass at the bot's pace; 7 MB more RSS at 2 min.

Issue 23, later the same day (`--channels 100 --actions 20000 --no-trace --every 30`),
actions: RSS MB at the end, one run each, load average 0.6-1.1: every language's boards
drawn ahead at the start, 198 / 199 (195 / 197 with the kept rows, bot/store/kept.py,
off); English's only, 184; English's boards and every language's words (as now), 184,
and 185 / 187 with English's words only.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import gc
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.quiet import QuietOutlet
from bot import collector, games
from bot import table as table_rules
from bot.core.actions import Action
from bot.sessions import Post, Sessions
from bot.store import Table, open_store
from bot.table_record import ACTIVE
from renderers import budgets

KINDS: tuple[tuple[str, dict[str, str]], ...] = (
    ("cthulhu", {}), ("betrayal", {}), ("betrayal", {"expansion": "neibolt"}),
    ("evilbelow", {}))
PLAYERS = 4
FIRST_CHANNEL = 10_000
TOP = 12  # growers listed at the end
LIBC = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


@dataclass
class SizeOutlet(QuietOutlet):
    """Keeps what a post's images weighed, nothing else (a bench must not grow)."""

    images: int = 0
    image_bytes: int = 0

    async def publish(self, table: Table, post: Post) -> None:
        if post.image is not None:
            self.images += 1
            self.image_bytes += len(post.image)


@dataclass
class Tally:
    actions: int = 0
    games: int = 0
    capped: int = 0
    errors: list[str] = field(default_factory=list)


def rss_mb() -> float:
    """The resident set now (not the peak: the curve is the point)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cache_bytes() -> tuple[int, int]:
    """(bytes held, bytes allowed) over every renderer cache that counts bytes."""
    held = allowed = 0
    for cache in budgets.caches().values():
        got = cache.cache_info()
        if hasattr(got, "currbytes"):
            held += got.currbytes
            allowed += got.maxbytes or 0
    return held, allowed


async def play_channel(sessions: Sessions, channel: int, seed: int, cap: int,
                       stop_at: float, tally: Tally, most: int = 0) -> None:
    """Games one after another in `channel` until `stop_at` (or, given `most`, until
    the channels have played that many actions in all)."""
    kind, options = KINDS[(channel - FIRST_CHANNEL) % len(KINDS)]
    game = games.get(kind)
    host = table_rules.Actor(channel * 10, "Host")
    n = 0
    while time.monotonic() < stop_at and not (most and tally.actions >= most):
        await sessions.open(channel, 1, host, kind, seed * 1000 + n, options)
        n += 1
        for _ in range(PLAYERS - 1):
            await sessions.act(channel, host, Action(table_rules.ADD_AI))
        outcome = await sessions.act(channel, host, Action(table_rules.START))
        played = 0
        while outcome is not None and outcome.table.status == ACTIVE:
            if time.monotonic() >= stop_at or (most and tally.actions >= most):
                return
            table = outcome.table
            if played >= cap:
                await sessions.act(channel, host, Action(table_rules.END))
                tally.capped += 1
                break
            if table_rules.ai_due(table):
                outcome = await sessions.ai_step(channel)
            else:
                seat = table_rules.to_act_seat(table)
                assert seat is not None and table.state is not None
                action = game.ai_action(game.load(table.state), seat)
                outcome = await sessions.act(channel, host, action, version=table.version)
            played += 1
            tally.actions += 1
        tally.games += 1


async def run(args: argparse.Namespace) -> None:
    if args.trace:
        tracemalloc.start(1)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "bench.sqlite3")
        outlet = SizeOutlet()
        sessions = Sessions(store, outlet, ai_chain=False)
        await sessions.warm_up()
        gc.collect()
        if args.gc == "bot":
            collector.pace()  # as the bot runs (bot/client.py)
        tally = Tally()
        started = time.monotonic()
        stop_at = started + args.minutes * 60
        print(f"{args.channels} channels, {args.minutes:g} min, samples every {args.every:g} s"
              f", collector thresholds {gc.get_threshold()}"
              f"{', tracemalloc on' if args.trace else ''}", flush=True)
        print(f"{'min':>6} {'RSS MB':>7} {'traced MB':>9} {'caches MB':>9} {'of MB':>6} "
              f"{'objects':>8} {'actions':>8} {'games':>6}", flush=True)
        curve: list[tuple[float, float, int]] = []
        first: tracemalloc.Snapshot | None = None

        def sample() -> None:
            nonlocal first
            minutes = (time.monotonic() - started) / 60
            if args.trim:
                LIBC.malloc_trim(0)
            rss = rss_mb()
            traced = tracemalloc.get_traced_memory()[0] / 2**20 if args.trace else 0.0
            held, allowed = cache_bytes()
            curve.append((minutes, rss, tally.actions))
            print(f"{minutes:6.1f} {rss:7.1f} {traced:9.1f} {held / 2**20:9.1f} "
                  f"{allowed / 2**20:6.0f} {len(gc.get_objects()):8d} {tally.actions:8d} "
                  f"{tally.games:6d}", flush=True)
            if args.trace and first is None and minutes > 0:
                first = tracemalloc.take_snapshot()

        async def sampler() -> None:
            sample()
            while True:
                await asyncio.sleep(args.every)
                sample()

        ticking = asyncio.create_task(sampler())
        players = [play_channel(sessions, FIRST_CHANNEL + c, args.seed + c, args.cap,
                                stop_at, tally, args.actions) for c in range(args.channels)]
        results = await asyncio.gather(*players, return_exceptions=True)
        ticking.cancel()
        sample()
        failed = [r for r in results if isinstance(r, BaseException)]
        for err in failed:
            print(f"a channel stopped on {type(err).__name__}: {err}", flush=True)
        print(f"{tally.actions} actions, {tally.games} games ({tally.capped} ended at the cap), "
              f"{outlet.images} images, {outlet.image_bytes / 2**20:.0f} MB of PNG")
        print("caches at the end: entries, KB held / KB allowed, hit rate")
        for name, cache in budgets.caches().items():
            got = cache.cache_info()
            if not hasattr(got, "currbytes"):
                continue
            held = getattr(got, "currbytes", None)
            allowed = getattr(got, "maxbytes", None)
            looked = got.hits + got.misses
            size = f"{held / 1024:9.0f} / {allowed / 1024:.0f}" if allowed else f"{'-':>9}"
            print(f"  {name:<36} "
                  f"{got.currsize:7d} {size:>18} "
                  f"{got.hits / looked if looked else 0:6.0%}")
        print("curve (minute: RSS MB): " + ", ".join(f"{m:.0f}: {r:.0f}" for m, r, _ in curve))
        print("curve (actions: RSS MB): " + ", ".join(f"{n}: {r:.0f}" for _, r, n in curve))
        if args.trace and first is not None:
            grown = tracemalloc.take_snapshot().compare_to(first, "lineno")
            print(f"top {TOP} growers since the first sample:")
            for stat in grown[:TOP]:
                frame = stat.traceback[0]
                print(f"  {stat.size_diff / 2**20:+7.2f} MB  {stat.size / 2**20:7.2f} MB  "
                      f"{stat.count_diff:+8d} blocks  {frame.filename}:{frame.lineno}")
        await store.close()
        if failed:
            raise SystemExit(1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--actions", type=int, default=0,
                        help="stop after this many actions in all (0: run --minutes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=3000,
                        help="actions after which a game is ended and the next one opened")
    parser.add_argument("--no-trace", dest="trace", action="store_false",
                        help="leave tracemalloc off (RSS only, full speed)")
    parser.add_argument("--trim", action="store_true",
                        help="hand freed heap back to the OS (glibc malloc_trim) before each "
                             "sample: how much of the RSS is memory freed but kept")
    parser.add_argument("--gc", choices=("bot", "default"), default="bot",
                        help="the collector's pace: the bot's (bot/collector.py) or "
                             "CPython's default, to compare")
    parser.add_argument("--sweep", type=str, default="",
                        help="channel counts, comma separated: one fresh process each")
    args = parser.parse_args(argv)
    if args.sweep:
        for count in [int(c) for c in args.sweep.split(",") if c.strip()]:
            cmd = [sys.executable, __file__, "--channels", str(count), "--minutes",
                   str(args.minutes), "--every", str(args.every), "--seed", str(args.seed),
                   "--actions", str(args.actions), "--gc", args.gc,
                   "--cap", str(args.cap)] + ([] if args.trace else ["--no-trace"]) + (
                       ["--trim"] if args.trim else [])
            done = subprocess.run(cmd, check=False)
            if done.returncode:
                return done.returncode
        return 0
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
