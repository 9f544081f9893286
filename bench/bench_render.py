"""How long the Cthulhu board render takes: a benchmark script, not a test.

Plays AI-only games through the pure engine (GAME.setup / GAME.ai_action / GAME.apply;
2..6 players in turn, seeds from --seed), keeping each game's first state and every
--stride-th one after it until --renders states are collected. Those are rendered in
play order, as the bot does after actions, timing the two halves separately:

    draw    renderers.cthulhu.compose (the board's pieces in its palette)
    encode  Canvas.png (the PNG band by band; unchanged bands reused)

(Until issue 8, draw was an RGB drawing over a cached house layer and encode a palette
mapping plus one zlib stream; the figures below are from then.)

and prints median / p90 / p99 / max of each, of their sum (wall clock and thread CPU
time) and of render_board in a second pass, plus the PNG sizes. The first board of each
game pays for drawing its house, as in the bot; the very first render of the process
also fits the PNG palette and loads fonts (reported on its own, and included).

    .venv/bin/python bench/bench_render.py                 # 200 renders at 1100 px
    .venv/bin/python bench/bench_render.py --renders 400 --width 600

Budget (issue 2): one action including the render <= 10 ms median and <= 40 ms p99 on
the 2-core box; rules + SQLite take ~1.2 ms, so render_board should stay <= ~7 ms median.
Recorded on that box (quiet), defaults (200 renders at 1200 px, 7 games, seed 0), ms:

    before: full redraw every time, fast-octree palette fitted to each board, zlib 6
      draw    median  9.9  p90 10.8  p99 12.0
      encode  median 16.8  p90 17.4  p99 20.3
      total   median 26.6  p90 28.0  p99 31.5   first render 45   PNG median 34 KB, max 36
    after: cached house layer, cached glyphs, banded rounded boxes, palette fitted once
    per look (flat fills exact), zlib 3
      draw    median  1.2  p90  1.4  p99  4.1   (p99: a new game's house drawn)
      encode  median  3.9  p90  3.9  p99  4.1   (~1.3 mapping + ~2.5 zlib)
      total   median  5.1  p90  5.3  p99  8.0   first render 52   PNG median 42 KB, max 45
      render_board, second pass: median 5.0, p99 5.5
    issue 20: the chat-shaped board (1100 x 700 for the whole game, was 1200 x 1087), on
    the box busy with five other engineers' tests, the two run one after the other:
      thread CPU of draw + encode median 2.98 ms (was 4.51), p99 5.89 (was 10.03);
      PNG median 41.3 KB (was 44.6), max 44.7 (was 48.4)
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.state import CthulhuState
from renderers import cthulhu


def collect_states(count: int, seed: int, stride: int = 3,
                   cap: int = 5000) -> tuple[list[CthulhuState], int]:
    """`count` states from real play, in play order, and how many games they came from:
    each game's start and every `stride`-th state after it, 2..6 players in turn."""
    states: list[CthulhuState] = []
    game = 0
    while len(states) < count:
        players = 2 + game % 5
        state, _ = GAME.setup([PlayerInfo(f"Player {i + 1}", ai=True) for i in range(players)],
                              seed + game, {})
        states.append(state)
        actions = 0
        while not GAME.is_over(state) and actions < cap and len(states) < count:
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
            actions += 1
            if actions % stride == 0 or GAME.is_over(state):
                states.append(state)
        game += 1
    return states, game


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def line(label: str, values: list[float], unit: str = "ms") -> str:
    return (f"{label:<8} median {statistics.median(values):6.2f}  p90 {percentile(values, 90):6.2f}"
            f"  p99 {percentile(values, 99):6.2f}  max {max(values):6.2f}  {unit}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200, help="boards to render")
    parser.add_argument("--width", type=int, default=cthulhu.BASE_WIDTH, help="board width")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    parser.add_argument("--stride", type=int, default=3,
                        help="keep every n-th state of a game (default 3)")
    args = parser.parse_args(argv)

    states, games = collect_states(args.renders, args.seed, args.stride)
    layouts = len({(tuple((r.col, r.row) for r in s.rooms), tuple(s.passages))
                   for s in states})

    draw_ms: list[float] = []
    encode_ms: list[float] = []
    total_ms: list[float] = []
    cpu_ms: list[float] = []
    sizes: list[int] = []
    gc.collect()
    for state in states:
        c0 = time.thread_time()
        t0 = time.perf_counter()
        board = cthulhu.compose(state, args.width, cthulhu.board_ink(state, args.width))
        t1 = time.perf_counter()
        data = board.png()
        t2 = time.perf_counter()
        cpu_ms.append((time.thread_time() - c0) * 1000)
        draw_ms.append((t1 - t0) * 1000)
        encode_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        sizes.append(len(data))

    # The same through the public entry point, to check it adds nothing.
    board_ms: list[float] = []
    for state in states:
        t0 = time.perf_counter()
        cthulhu.render_board(state, width=args.width)
        board_ms.append((time.perf_counter() - t0) * 1000)

    print(f"{len(states)} renders at {args.width} px: {games} AI games (seeds {args.seed}.."
          f"{args.seed + games - 1}, 2..{min(6, games + 1)} players), {layouts} distinct "
          f"houses, every {args.stride} actions")
    print(f"first render {total_ms[0]:.1f} ms (draw {draw_ms[0]:.1f}, encode "
          f"{encode_ms[0]:.1f}): one-off set-up, included below")
    print(line("draw", draw_ms))
    print(line("encode", encode_ms))
    print(line("total", total_ms))
    print(line("cpu", cpu_ms) + "  (thread CPU time of draw + encode: less noisy on a busy box)")
    print(line("board", board_ms) + "  (render_board, second pass)")
    kb = [s / 1000 for s in sizes]
    print(f"PNG      median {statistics.median(kb):6.1f}  p90 {percentile(kb, 90):6.1f}"
          f"  p99 {percentile(kb, 99):6.1f}  max {max(kb):6.1f}  KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
