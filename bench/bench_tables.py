"""Many tables at once: what an action costs beside its floor, and what many channels
acting together get through. A benchmark script, run on demand, never a test.

    python bench/bench_tables.py                         # Cthulhu, 50 channels
    python bench/bench_tables.py --game betrayal         # full 47-tile houses, exploring
    python bench/bench_tables.py --game betrayal --haunt # the same houses in the 8 haunts
    python bench/bench_tables.py --channels 200 --rounds 5
    python bench/bench_tables.py --startup 10000         # start-up time and RSS

Round robin: the channels take turns, one action at a time, each a click on the newest
post's options (as players would), through the whole door: lock, load, rules, save
with its outbox, the render, delivery to an outlet that discards, the outbox marked
done. Caches are as cold as they are in real use: 50+ channels interleave. Beside each
action, its floor, measured in the same run on the same bytes:
    a bare WAL transaction writing the same state_json (sqlite3, no aiosqlite),
    + json.dumps of the same table,
    + a bare PNG encode of the same palette image (decoded from the post, not timed).
The ratio (action / floor) is the figure: machines here are shared and absolute times
drift, ratios much less.

Concurrent: every channel clicks at once, again and again (asyncio.gather per round);
actions/s, p50/p99 per action, and the event loop's lag (a 5 ms ticker's overshoot) at
p99 while it happens.

--startup N: N stored open games (mixed), then a fresh process opens the store and
finds the games that wait for the bot as the bot does at start (ids only), timed, with
its RSS; and the old way (every state loaded) beside it.

Recorded on the shared 2-core machine (see the closing note of issue 8 for the runs).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sessions import Floor, Timed, seed_games

from bench.quiet import QuietOutlet
from bot import table as table_rules
from bot.client import SWITCH_SECONDS
from bot.sessions import WORKERS, Post, Prompt, Sessions
from bot.store import Table, open_store
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class NullOutlet(QuietOutlet):
    """Keeps the newest post per channel (its prompt is what the next click uses)."""

    last: dict[int, Post] = field(default_factory=dict)

    async def publish(self, table: Table, post: Post) -> None:
        self.last[table.channel_id] = post


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def click(sessions: Sessions, outlet: NullOutlet, channel: int, pick: int) -> bool:
    """The newest post's prompt, one of its options: False once the game is over."""
    post = outlet.last.get(channel)
    prompt: Prompt | None = post.prompt if post is not None else None
    if prompt is None:
        table = await sessions.table(channel)
        if table is None:
            return False
        prompt = sessions.prompt(table)
        if prompt is None:
            return False
    assert prompt.user_id is not None, "the bench seats humans only"
    option = prompt.options[pick % len(prompt.options)]
    actor = table_rules.Actor(prompt.user_id, prompt.name)
    await sessions.act(channel, actor, option.action, version=prompt.version)
    return True


async def clicks(sessions: Sessions, outlet: NullOutlet, channels: list[int],
                 rounds: int) -> AsyncIterator[tuple[int, int, float]]:
    """Round robin: each channel in turn clicks its newest prompt, `rounds` times over;
    a channel whose game is over drops out. Yields (round, channel, the click's ms) once
    each click is done: what the caller does before asking for the next is not timed."""
    live = list(channels)
    pick = 0
    for turn in range(rounds):
        for channel in list(live):
            pick += 7
            t0 = time.perf_counter()
            if not await click(sessions, outlet, channel, pick):
                live.remove(channel)
                continue
            yield turn, channel, (time.perf_counter() - t0) * 1000


class LagProbe:
    """How late a 5 ms sleep wakes up: the time the event loop was held by someone."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(max(0.0, (time.perf_counter() - t0 - 0.005) * 1000))

    def __enter__(self) -> LagProbe:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def round_robin(args: argparse.Namespace, tmp: Path) -> None:
    store = await open_store(tmp / "bench.sqlite3")
    await seed_games(store, args.channels, args.seed, args.game, args.haunt)
    outlet = NullOutlet()
    sessions = Sessions(store, outlet, render=not args.no_render, workers=args.workers)
    await sessions.warm_up()  # as the bot starts: palettes fitted, the heap frozen, the
    gc.freeze()  # GIL handed back to the loop sooner
    sys.setswitchinterval(SWITCH_SECONDS)
    floor = Floor(tmp / "floor.sqlite3")
    channels = [10_000 + n for n in range(args.channels)]
    timed = Timed()
    later: list[float] = []  # ratios after each channel's first action (its caches cold)
    async for turn, channel, spent in clicks(sessions, outlet, channels, args.rounds):
        table = await store.load_latest(channel)
        assert table is not None
        ratio = timed.add(spent, floor.measure(table, outlet.last[channel].image))
        if turn:
            later.append(ratio)
    actions, floors, ratios = timed.actions, timed.floors, timed.ratios
    print(f"round robin: {len(actions)} actions over {args.channels} channels "
          f"({args.game}{' haunt' if args.haunt else ''}"
          f"{', no render' if args.no_render else ''})")
    print(f"  action  p50 {statistics.median(actions):6.2f} ms  p99 {pct(actions, .99):6.2f} ms")
    print(f"  floor   p50 {statistics.median(floors):6.2f} ms  p99 {pct(floors, .99):6.2f} ms")
    print(f"  ratio   p50 {statistics.median(ratios):6.2f}x    p99 {pct(ratios, .99):6.2f}x   "
          f"(sum of actions / sum of floors {timed.overall():.2f}x)")
    if later:
        print(f"  after each channel's first action: ratio p50 {statistics.median(later):.2f}x"
              f"  p99 {pct(later, .99):.2f}x")

    # every channel clicks at once, round after round
    latencies: list[float] = []

    async def timed(channel: int, n: int) -> None:
        t0 = time.perf_counter()
        if await click(sessions, outlet, channel, n):
            latencies.append((time.perf_counter() - t0) * 1000)

    live = [c for c in channels if (await store.load(c)) is not None]
    with LagProbe() as probe:
        t0 = time.perf_counter()
        for r in range(args.rounds):
            await asyncio.gather(*(timed(c, r * 3 + i) for i, c in enumerate(live)))
        wall = time.perf_counter() - t0
    print(f"concurrent: {len(latencies)} actions, {len(live)} channels at once: "
          f"{len(latencies) / wall:.0f} actions/s")
    print(f"  per action p50 {statistics.median(latencies):.1f} ms  "
          f"p99 {pct(latencies, .99):.1f} ms")
    print(f"  event-loop lag p50 {statistics.median(probe.lags):.2f} ms  "
          f"p99 {pct(probe.lags, .99):.2f} ms  max {max(probe.lags):.2f} ms")
    print(f"  peak RSS {rss_mb():.0f} MB")
    await store.close()


STARTUP_PROBE = """
import asyncio, json, resource, sys, time
t0 = time.perf_counter()
from bot.store import open_store
async def main(path, old):
    store = await open_store(path)
    t1 = time.perf_counter()
    if old:
        found = len(await store.list_open())
    else:
        found = len(await store.needing_attention())
    t2 = time.perf_counter()
    await store.close()
    print(json.dumps({"open_ms": (t1 - t0) * 1000, "find_ms": (t2 - t1) * 1000,
                      "found": found,
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
asyncio.run(main(sys.argv[1], sys.argv[2] == "old"))
"""


async def whole_bot(path: Path, tmp: Path) -> None:
    """The real bot process on this file against the fake Discord: from exec to the
    end of its first pass over the waiting games, and its peak RSS."""
    fd = FakeDiscord()
    await fd.start()
    fd.add_channel("general")
    log = tmp / "bot.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="bench", HAUNTKEEPER_DB=str(path),
               HAUNTKEEPER_DISCORD_API=fd.base_url + "/api/v10",
               HAUNTKEEPER_DISCORD_GATEWAY=fd.ws_url)
    t0 = time.perf_counter()
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp,
                                                    env=env, stdout=out, stderr=out)
    try:
        await fd.wait_until(lambda: "tended" in log.read_text(), timeout=120,
                            what="the bot's first pass")
        spent = time.perf_counter() - t0
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmHWM"))
        tended = next(line for line in log.read_text().splitlines() if "tended" in line)
        print(f"  the whole bot: exec to first pass done {spent:.1f} s "
              f"(includes discord.py's 2 s wait for guilds), peak RSS {int(peak) / 1024:.0f} MB"
              f"\n    {tended.split(': ', 1)[-1]}")
    finally:
        proc.terminate()
        await proc.wait()
        await fd.stop()


async def startup(args: argparse.Namespace, tmp: Path) -> None:
    path = tmp / "startup.sqlite3"
    store = await open_store(path)
    t0 = time.perf_counter()
    # A few real games of each kind (Betrayal in full 47-tile houses), stored again and
    # again on other channels: N open games, as a busy bot's file holds them.
    await seed_games(store, 6, args.seed, "cthulhu")
    templates = [t for t in await store.list_open()]
    scratch = await open_store(tmp / "templates.sqlite3")
    await seed_games(scratch, 6, args.seed, "betrayal")
    templates += await scratch.list_open()
    await scratch.close()
    for n in range(args.startup - 6):
        copy = templates[n % len(templates)].copy()
        copy.channel_id, copy.id = 20_000 + n, None
        await store.create(copy, [], None, None)
    print(f"stored {await store.count_games()} open games in {time.perf_counter() - t0:.0f} s")
    latest = []
    for n in range(200):  # /game status, map and log: a channel's newest game
        t1 = time.perf_counter()
        await store.load_latest(20_000 + (n * 37) % (args.startup - 6))
        latest.append((time.perf_counter() - t1) * 1000)
    print(f"  load_latest (status, map, log) p50 {statistics.median(latest):.2f} ms "
          f"p99 {pct(latest, .99):.2f} ms")
    await store.close()
    await whole_bot(path, tmp)
    root = Path(__file__).resolve().parent.parent
    for mode in ("new", "old"):
        out = subprocess.run([sys.executable, "-c", STARTUP_PROBE, str(path), mode],
                             cwd=root, capture_output=True, text=True, check=True)
        got = json.loads(out.stdout)
        label = "ids only (the bot now)" if mode == "new" else "every state (before)"
        print(f"  {label:22}: open {got['open_ms']:.0f} ms, find {got['find_ms']:.0f} ms "
              f"({got['found']} games), RSS {got['rss_mb']:.0f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=["cthulhu", "betrayal", "evilbelow"], default="cthulhu")
    parser.add_argument("--haunt", action="store_true", help="betrayal: play in the haunts")
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help="threads for rules and renders (the bot's default)")
    parser.add_argument("--startup", type=int, default=0, metavar="N",
                        help="instead: start-up time and RSS with N stored games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(startup(args, Path(tmp)) if args.startup else round_robin(args, Path(tmp)))
