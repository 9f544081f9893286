"""How long one action takes through the sessions layer, with many games stored.

Measures the whole door: per-channel lock, load from SQLite, rules, save (one
transaction with the version check) and the board render, as a player's click would.
Choosing the action (reading the legal options) happens outside the timed part.

    python bench/bench_sessions.py [--games 1000] [--actions 2000] [--seed 1]
    python bench/bench_sessions.py --game betrayal    # full 47-tile houses
    python bench/bench_sessions.py --game betrayal --haunt    # ...each in one of the 8 haunts

Targets: Cthulhu (issue 2): median <= 10 ms, p99 <= 40 ms, board PNG < 200 KB, RSS < 150
MB. Betrayal (issue 3): p99 <= 50 ms with a full house of 47 tiles, map PNG < 400 KB;
with --haunt the same houses are in the haunt (monsters, tokens, the dead on the map).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import table as table_rules
from bot.core.actions import Action
from bot.core.seats import Seat
from bot.sessions import Post, Sessions
from bot.store import Table, open_store

PLAYERS = 4


class CountingOutlet:
    """Discards what Discord would get, keeping the image sizes."""

    def __init__(self) -> None:
        self.png_sizes: list[int] = []

    async def publish(self, table: Table, post: Post) -> None:
        if post.image is not None:
            self.png_sizes.append(len(post.image))

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        return []


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def seed_games(store: object, count: int, seed: int, kind: str,
                     haunted: bool = False) -> None:
    """Started games with four human seats each, written straight to the store."""
    houses = full_houses(seed) if kind == "betrayal" else []
    if haunted:
        houses = in_haunts(houses)
    for n in range(count):
        channel = 10_000 + n
        host = table_rules.Actor(channel * 10, "P0")
        table, events = table_rules.new_table(kind, channel, 1, host, seed + n)
        table.seats = [Seat(f"P{i}", channel * 10 + i) for i in range(PLAYERS)]
        table, more = table_rules.apply(table, host, Action(table_rules.START))
        if houses:
            table.state = houses[n % len(houses)]
        await store.create(table, events + more, host.user_id, None)  # type: ignore[attr-defined]


def full_houses(seed: int, count: int = 12) -> list[dict[str, object]]:
    """Betrayal games played by the AI with the haunt held off until all 47 tiles lie."""
    from bot.games import betrayal
    from bot.games.base import PlayerInfo
    from bot.games.betrayal import haunt

    game = betrayal.GAME
    real = haunt.starts
    haunt.starts = lambda total, omens: False  # type: ignore[assignment]
    try:
        houses: list[dict[str, object]] = []
        tried = 0
        while len(houses) < count and tried < count * 4:
            state, _ = game.setup([PlayerInfo(f"P{i}") for i in range(PLAYERS)],
                                  seed + tried, {})
            tried += 1
            for _ in range(20_000):
                if len(state.tiles) >= 47 or game.is_over(state):
                    break
                seat = game.to_act(state)
                state, _ = game.apply(state, seat, game.ai_action(state, seat))
            if len(state.tiles) == 47:  # only complete houses: the target is stated for them
                houses.append(game.dump(state))
        print(f"built {len(houses)} full 47-tile houses by AI play ({tried} games tried)")
        return houses
    finally:
        haunt.starts = real  # type: ignore[assignment]


def in_haunts(houses: list[dict[str, object]]) -> list[dict[str, object]]:
    """Each house with one of the 8 haunts begun in it (in turn), the setup's choices
    answered by the AI."""
    from bot.games import betrayal
    from bot.games.betrayal import effects, haunt
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.haunting import flow

    game = betrayal.GAME
    keys = sorted(haunt.haunts())
    found = []
    for n, raw in enumerate(houses):
        state = game.load(raw)  # type: ignore[arg-type]
        ctx = Ctx(state)
        haunt.begin(ctx, state.turn.seat, state.last_omen or "book",
                    state.last_omen_room or state.tiles[0].room, 0,
                    chosen=haunt.haunts()[keys[n % len(keys)]])
        effects.run(ctx)
        flow.after_action(ctx)
        while state.pending is not None and not state.over:
            state, _ = game.apply(state, state.pending.seat,
                                  game.ai_action(state, state.pending.seat))
        found.append(game.dump(state))
    print(f"began {len(keys)} haunts over the {len(houses)} houses")
    return found


async def main(games: int, actions: int, seed: int, render: bool, kind: str,
               haunted: bool = False) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "bench.sqlite3")
        started = time.perf_counter()
        await seed_games(store, games, seed, kind, haunted)
        print(f"stored {games} games in {time.perf_counter() - started:.1f}s; "
              f"RSS {rss_mb():.0f} MB")
        outlet = CountingOutlet()
        sessions = Sessions(store, outlet, render=render)
        channels = [10_000 + n for n in range(games)]
        timings: list[float] = []
        for _ in range(actions):
            channel = rng.choice(channels)
            table = await store.load(channel)
            if table is None or table.status != "active":
                channels.remove(channel)
                continue
            prompt = sessions.prompt(table)
            assert prompt is not None and prompt.user_id is not None
            option = rng.choice(prompt.options)
            actor = table_rules.Actor(prompt.user_id, prompt.name)
            t0 = time.perf_counter()
            await sessions.act(channel, actor, option.action, version=table.version)
            timings.append((time.perf_counter() - t0) * 1000)
        await store.close()
    print(f"{len(timings)} actions through the sessions layer "
          f"({'with' if render else 'without'} the board render):")
    print(f"  median {statistics.median(timings):.2f} ms   p90 {pct(timings, 0.90):.2f} ms   "
          f"p99 {pct(timings, 0.99):.2f} ms   max {max(timings):.2f} ms")
    if outlet.png_sizes:
        print(f"  board PNG: median {statistics.median(outlet.png_sizes) / 1024:.1f} KB, "
              f"max {max(outlet.png_sizes) / 1024:.1f} KB")
    print(f"  peak RSS {rss_mb():.0f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-render", action="store_true")
    parser.add_argument("--game", choices=["cthulhu", "betrayal"], default="cthulhu")
    parser.add_argument("--haunt", action="store_true", help="betrayal: play in the haunts")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.actions, args.seed, not args.no_render, args.game,
                     args.haunt))
