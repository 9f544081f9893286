"""What a replay costs (issue 24): a benchmark script, not a test.

Plays seeded Betrayal games of six (the engine through the real sessions layer, a SQLite
store, every decision the AI's) until one lasts at least `--turns` turns, then makes its replay
as /game replay does, timing each part against floors measured in the same run on the
same pictures:

    rebuild   the game played again from its stored moves (bot/replay.py's rebuild)
    draw      each chosen state's board rendered and halved to 550 x 350 (pictures/s)
    encode    the animation made: WebP and GIF, the smaller kept (renderers/animation.py)
    floor     the same boards saved once more as PNG (bench/floors.py's encode_ms): what
              writing the pictures costs at all on this machine, whatever the load
    loop      the event loop's worst lag while a replay is drawn in its own process (as
              the bot does), on a thread, and while nothing is: how long a game's click
              may wait for it

    .venv/bin/python bench/bench_replay.py
    .venv/bin/python bench/bench_replay.py --turns 20 --seeds 3

Times on the shared machine drift with its load (printed); compare the ratios.

Recorded on the shared 2-core box, defaults (seed 6: 63 turns, 339 moves, exact), two
runs, at load averages 10.4 and 3.7:

    rebuild  521 / 151 ms (1.54 / 0.44 ms a move)
    draw     90 boards, 19.7 / 38.9 pictures/s; draw/floor 7.2x / 7.1x
    encode   91 pictures, 10.7 / 46.5 pictures/s; encode/floor 13.5x / 6.0x (the first
             run encoded WebP at method 4, the second at 2)
    replay   GIF, 1208 KB, 29.3 s long; made in 13.6 / 4.4 s (21.5x / 13.6x the floor)
    loop     worst lag in its process 117 / 46 ms, on a thread 308 / 87 ms, idle 14 / 4 ms
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.floors import encode_ms
from bot import replay
from bot import table as table_rules
from bot.core.actions import Action
from bot.replay import Progress
from bot.replays import Replays
from bot.store import ACTIVE, SqliteStore, Table, open_store
from renderers import animation, render_public
from tests.golden_states import CHANNEL, HOST, play_step, sessions_on


def machine() -> str:
    one, five, _ = os.getloadavg()
    return (f"shared {os.cpu_count()}-core machine, other jobs running too "
            f"(load average {one:.2f} now, {five:.2f} over 5 min): read the ratios")


async def finished_game(store: SqliteStore, seed: int, seats: int) -> Table:
    """A Betrayal table of a human and `seats` - 1 AI seats, played to its end."""
    sessions = sessions_on(store)
    await sessions.open(CHANNEL, 1, HOST, "betrayal", seed)
    for _ in range(seats - 1):
        await sessions.act(CHANNEL, HOST, Action(table_rules.ADD_AI))
    table = (await sessions.act(CHANNEL, HOST, Action(table_rules.START))).table
    while table.status == ACTIVE:
        table = await play_step(sessions, table)
    return table


def turns(rebuilt: replay.Rebuilt) -> int:
    return len({m.turn for m in rebuilt.moments})


async def lag_ms(seconds: float, work: asyncio.Future[object] | None = None) -> float:
    """The loop's worst lag over 10 ms sleeps, for `seconds` or until `work` is done."""
    worst = 0.0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop and not (work is not None and work.done()):
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        worst = max(worst, (time.perf_counter() - before - 0.01) * 1000)
    return worst


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=60, help="the game's turns at least")
    parser.add_argument("--seeds", type=int, default=12, help="seeds tried at most")
    parser.add_argument("--seats", type=int, default=6, help="the table's seats")
    args = parser.parse_args()
    print(f"replay of a Betrayal game: {machine()}")
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.sqlite3")
        try:
            found = None
            for seed in range(1, args.seeds + 1):
                table = await finished_game(store, seed, args.seats)
                moves = await store.moves(table.id or 0)
                if turns(replay.rebuild(table, moves)) >= args.turns:
                    found = (seed, table, moves)
                    break
                await store.execute("DELETE FROM moves")
            if found is None:
                print(f"no seed of 1-{args.seeds} lasted {args.turns} turns")
                return
            await measure(store, *found)
        finally:
            await store.close()


async def measure(store: SqliteStore, seed: int, table: Table,
                  moves: list[tuple[int, list[dict[str, object]]]]) -> None:
    t0 = time.perf_counter()
    rebuilt = replay.rebuild(table, moves)
    rebuild_ms = (time.perf_counter() - t0) * 1000
    shown = replay.chosen(rebuilt.moments)
    boards, pictures = [], []
    t0 = time.perf_counter()
    for step in shown:
        board = render_public(table.kind, step.state)
        boards.append(board)
        pictures.append(animation.frame(board))
    draw_s = time.perf_counter() - t0
    pictures.append(animation.card("end", replay.end_lines(table, rebuilt)))
    t0 = time.perf_counter()
    made = animation.animate(pictures)
    encode_s = time.perf_counter() - t0
    floor_ms = [encode_ms(board) for board in boards]
    floor_s = sum(floor_ms) / 1000
    print(f"  game: seed {seed}, {turns(rebuilt)} turns, {len(rebuilt.moments)} moves, "
          f"exact {rebuilt.exact}")
    print(f"  rebuild {rebuild_ms:.0f} ms  ({rebuild_ms / len(rebuilt.moments):.2f} ms a move)")
    print(f"  draw    {len(shown)} boards in {draw_s:.2f} s: {len(shown) / draw_s:.1f} pictures/s"
          f"  (floor: PNG encode median {statistics.median(floor_ms):.1f} ms, "
          f"{len(shown) / floor_s:.1f}/s; draw/floor {draw_s / floor_s:.1f}x)")
    print(f"  encode  {len(pictures)} pictures in {encode_s:.2f} s: "
          f"{len(pictures) / encode_s:.1f} pictures/s  (encode/floor {encode_s / floor_s:.1f}x)")
    total = rebuild_ms / 1000 + draw_s + encode_s
    print(f"  replay  {made.format}, {len(made.data) / 1024:.0f} KB, {made.seconds:.1f} s long;"
          f" made in {total:.2f} s ({total / floor_s:.1f}x the floor)")
    quiet = await lag_ms(2.0)
    lags = {}
    for where, replays in (("thread", Replays(in_process=False)), ("process", Replays())):
        work = asyncio.ensure_future(replays.draw(store, table, Progress()))
        lags[where] = await lag_ms(120.0, work)
        await work
        replays.close()
    print(f"  loop    worst lag {lags['process']:.1f} ms while a replay is drawn in its own "
          f"process, {lags['thread']:.1f} ms on a thread, {quiet:.1f} ms while nothing is")
    print(f"  after:  {machine()}")


if __name__ == "__main__":
    asyncio.run(main())
