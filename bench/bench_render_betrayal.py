"""How long the Betrayal map render takes: a benchmark script, not a test.

Plays out a made-up game the way the bot renders it: the house grows from the start
tiles to all 47 tiles (rooms placed at random through doors, as in
tests/test_render_betrayal.py), one room every --per-tile turns, and each turn an
explorer moves to a random explored room and the turn passes on. Every turn's view is
rendered in order, timing the two halves separately:

    draw    renderers.betrayal.map.compose (the map's pieces in its palette)
    encode  Canvas.png (the PNG band by band; unchanged bands reused)

(Until issue 8, draw was an RGB drawing over a cached per-game layer and encode a
palette mapping plus one zlib stream; the figures below are from then.
bench/bench_render_rr.py times renders the way many channels taking turns make them.)

It prints median / p90 / p99 / max of each and of their sum, split into turns that placed
a room (the static layer is redrawn, from cached tile sprites plus one new one) and
turns where explorers only moved (the cached layer is copied); then the full 47-tile
house rendered repeatedly (warm) and with every cache cleared (cold), and PNG sizes.
The very first render of the process also fits the PNG palette and loads fonts (shown
on its own). Last, the haunt: the full house with 20 monsters (three kinds, some
stunned, one kind large), haunt tokens, a traitor and two dead explorers, played for
--haunt-turns turns where a monster moves, one is stunned or recovers and the turn
passes on, with a new haunt token every 10th turn (that tile's sprite is redrawn).

    .venv/bin/python bench/bench_render_betrayal.py              # 1200 px
    .venv/bin/python bench/bench_render_betrayal.py --width 600 --per-tile 2
    .venv/bin/python bench/bench_render_betrayal.py --board     # the chat board

Target: < 20 ms a render at 1200 px. Recorded on the 2-core box, defaults (seed 0,
6 explorers, a room every 3 turns, 129 turns), ms:

    first render of the process (palette fit, fonts): draw 13, encode 34
    turns placing a room   total median  9.1  p90 16.0  p99 17.7   (new tile size: all
                           sprites redrawn; same size: one new sprite)
    turns moving only      total median  6.9  p90  7.3  p99  9.8   (draw 1.7, encode 5.2)
    full 47-tile house     warm median 6.6; every cache cleared median 9.8
    PNG sizes              median 55 KB, max 58 KB; full house 1200x1499, 62 KB
    at 600 px              moving 2.6, placing 4.4 (median); full house 32 KB
    haunt, 20 monsters     moving median 7.3 (draw 1.9, encode 5.5); a haunt token placed
                           median 9.0; PNG median 70 KB, max 71 KB; at 600 px moving 4.0,
                           token 5.4, 36 KB

Issue 20, the chat board (--board, 1100 x 700 whatever the house), against the whole
house at 1200 px measured in the same run (the box shared with other work: noisy), ms
median: moving only 10.0 (whole house 12.2), placing a room 14.7 (22.6), haunt moving
9.1 (8.7); PNG median 29 KB, max 33 KB (70 / 109); haunt PNG 38 / 41 KB (117 / 119).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.betrayal.pictures import ExplorerView, MapView, omen_track
from renderers import betrayal, canvas
from renderers.betrayal.board import compose_board
from renderers.betrayal.map import compose
from tests.test_render_betrayal import COLOURS, EXPLORERS, PLAYERS, full_view, grow_house
from tests.test_render_betrayal_haunt import haunt_view


def game_views(seed: int, players: int, per_tile: int) -> list[tuple[MapView, bool]]:
    """(view, placed a room this turn) for every turn of a made-up game."""
    rng = random.Random(seed)
    house = grow_house(seed)
    start = 5
    views: list[tuple[MapView, bool]] = []
    where = {seat: house[2] for seat in range(players)}  # everyone in the Entrance Hall
    turn = 0
    for placed in range(start, len(house) + 1):
        tiles = house[:placed]
        for k in range(per_tile):
            seat = turn % players
            where[seat] = tiles[-1] if k == 0 and placed > start else rng.choice(tiles)
            explorers = tuple(
                ExplorerView(seat=s, name=EXPLORERS[s], player=PLAYERS[s], colour=COLOURS[s],
                             floor=where[s].floor, x=where[s].x, y=where[s].y,
                             alive=not (s == 1 and turn > 60), acting=s == seat)
                for s in range(players))
            view = MapView(tiles=tuple(tiles), explorers=explorers,
                           header=f"Turn {turn + 1} · {EXPLORERS[seat]} ({PLAYERS[seat]}) to play",
                           track=omen_track(min(13, turn // 8)),
                           footer="" if turn < 80 else "Haunt 12")
            views.append((view, k == 0 and placed > start))
            turn += 1
    return views


def haunt_views(seed: int, turns: int) -> list[tuple[MapView, bool]]:
    """(view, a haunt token was placed) for every turn of a made-up haunt."""
    rng = random.Random(seed)
    view = haunt_view(seed + 7)
    tiles = list(view.tiles)
    views: list[tuple[MapView, bool]] = []
    for turn in range(turns):
        monsters = list(view.monsters)
        i = rng.randrange(len(monsters))
        to = rng.choice(tiles)
        monsters[i] = replace(monsters[i], floor=to.floor, x=to.x, y=to.y)
        j = rng.randrange(len(monsters))
        monsters[j] = replace(monsters[j], stunned=not monsters[j].stunned)
        placed = turn % 10 == 9
        if placed:
            k = rng.randrange(len(tiles))
            tiles[k] = replace(tiles[k], haunt_tokens=(*tiles[k].haunt_tokens,
                                                       ("B", "Blood pool")))
        seat = turn % len(view.explorers)
        explorers = tuple(replace(e, acting=e.seat == seat) for e in view.explorers)
        view = replace(view, tiles=tuple(tiles), monsters=tuple(monsters), explorers=explorers,
                       header=f"Haunt round {turn // 7 + 1} · the monsters (Chidi)")
        views.append((view, placed))
    return views


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:<8} (none)"
    return (f"  {name:<8} median {statistics.median(values):6.2f}  p90 "
            f"{percentile(values, 90):6.2f}  p99 {percentile(values, 99):6.2f}  max "
            f"{max(values):6.2f}  (n={len(values)})")


BOARD = [False]  # --board: time the chat board (renderers.betrayal.board) instead


def time_render(view: MapView, width: int) -> tuple[float, float, int]:
    """(draw ms, encode ms, PNG bytes): composing the map in its palette, then writing
    the PNG (band by band, unchanged bands reused), as render_map does; with --board
    the chat board, as the live message shows it (`width` is then BOARD_W)."""
    t0 = time.perf_counter()
    board = compose_board(view, betrayal.map_ink(betrayal.BOARD_W)) if BOARD[0] else \
        compose(view, width, betrayal.map_ink(width))
    t1 = time.perf_counter()
    data = board.png()
    t2 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000, len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--width", type=int, default=betrayal.BASE_WIDTH)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--per-tile", type=int, default=3, help="turns per room placed")
    parser.add_argument("--repeat", type=int, default=50, help="full-house renders")
    parser.add_argument("--haunt-turns", type=int, default=100, help="turns of the haunt")
    parser.add_argument("--board", action="store_true",
                        help="the chat board (1100 x 700) instead of the whole house")
    args = parser.parse_args()
    BOARD[0] = args.board
    if args.board:
        args.width = betrayal.BOARD_W

    views = game_views(args.seed, args.players, args.per_tile)
    gc.collect()
    first_draw, first_encode, _ = time_render(views[0][0], args.width)
    print(f"width {args.width}px, {len(views)} turns, {args.players} explorers")
    print(f"first render (palette fit, fonts): draw {first_draw:.1f} ms, "
          f"encode {first_encode:.1f} ms")

    draw: dict[bool, list[float]] = {True: [], False: []}
    encode: dict[bool, list[float]] = {True: [], False: []}
    sizes: list[int] = []
    for view, placed in views[1:]:
        d, e, n = time_render(view, args.width)
        draw[placed].append(d)
        encode[placed].append(e)
        sizes.append(n)
    for placed, label in ((True, "turns placing a room"), (False, "turns moving only")):
        print(label + ", ms:")
        print(summary("draw", draw[placed]))
        print(summary("encode", encode[placed]))
        print(summary("total", [a + b for a, b in zip(draw[placed], encode[placed],
                                                      strict=True)]))
    print(f"PNG sizes over the game: median {statistics.median(sizes) / 1000:.0f} KB, "
          f"max {max(sizes) / 1000:.0f} KB")

    full = full_view(args.seed + 7)
    geo = betrayal.map_geometry(full, args.width)
    totals = []
    for _ in range(args.repeat):
        d, e, n = time_render(full, args.width)
        totals.append(d + e)
    if args.board:
        bg = betrayal.board_geometry(full)
        print(f"full house ({len(full.tiles)} tiles) on the chat board, {bg.width}x{bg.height}, "
              f"tile {bg.map.tile}px, warm, ms:")
    else:
        print(f"full house ({len(full.tiles)} tiles, {geo.width}x{geo.height}, "
              f"tile {geo.tile}px, {geo.arrangement}), warm, ms:")
    print(summary("total", totals))
    cold = []
    for _ in range(max(3, args.repeat // 10)):
        canvas.clear_caches()
        t0 = time.perf_counter()
        data = betrayal.render_chat(full) if args.board else \
            betrayal.render_map(full, width=args.width)
        cold.append((time.perf_counter() - t0) * 1000)
    print("full house, every piece and band redrawn (caches cleared), ms:")
    print(summary("total", cold))
    print(f"full house PNG: {len(data) / 1000:.0f} KB")

    haunt = haunt_views(args.seed, args.haunt_turns)
    draw = {True: [], False: []}
    encode = {True: [], False: []}
    sizes = []
    for view, placed in haunt:
        d, e, n = time_render(view, args.width)
        draw[placed].append(d)
        encode[placed].append(e)
        sizes.append(n)
    print(f"haunt, {len(haunt[0][0].monsters)} monsters in the full house, ms:")
    for placed, label in ((True, "turns placing a haunt token"),
                          (False, "turns moving monsters only")):
        print("  " + label + ":")
        print(summary("draw", draw[placed]))
        print(summary("encode", encode[placed]))
        print(summary("total", [a + b for a, b in zip(draw[placed], encode[placed],
                                                      strict=True)]))
    print(f"haunt PNG sizes: median {statistics.median(sizes) / 1000:.0f} KB, "
          f"max {max(sizes) / 1000:.0f} KB")


if __name__ == "__main__":
    main()
