"""Renders when many channels take turns: a benchmark script, not a test.

N channels (default 50, up to 200 or more with --channels) each play their own game,
and take turns round-robin, the way a busy bot renders: after each action of one
channel comes an action of the next, so no channel's render finds its own last
render in a cache unless that cache holds every channel. Channel i plays kind
KINDS[i % 3] (or --kind for all of them):

    cthulhu    a real game through the pure engine (AI seats, one action a turn,
               random and built-in houses; a new game when one ends)
    exploring  a Betrayal house growing from the start tiles to 47 tiles, a room every
               3 turns (bench_render_betrayal.game_views), 3..6 explorers picked at
               random per channel; each channel starts at a random turn of its game so
               houses of every size are in play at once
    haunt      the full house in the haunt: 20 monsters moving and being stunned, a
               haunt token every 10th turn (bench_render_betrayal.haunt_views), the
               channel's own explorers

One warm-up round (not counted) lets the caches reach the state they are in after a
bot has run a while; then --rounds rounds are timed. Per render it times the render
(renderers.render_public for Cthulhu, renderers.betrayal.render_map of the turn's view
for Betrayal: draw + quantize + encode) and, right after, the floor: `Image.save` of
the very image it produced (decoded from its PNG, so the same P-mode pixels and palette)
with the renderer's own PNG settings. The ratio is taken per render; it prints per kind
the median / p99 of render, floor and ratio, the PNG size, then the hit rate of every
renderer cache during the timed rounds, and the process's RSS (now and peak).
(For Betrayal, render_public first builds the view from the state, bot.games.betrayal.
views.map_view: ~1 ms for a full house on this box, not timed here.)

    .venv/bin/python bench/bench_render_rr.py                  # 50 channels
    .venv/bin/python bench/bench_render_rr.py --channels 200 --rounds 4
    .venv/bin/python bench/bench_render_rr.py --kind haunt --channels 200

Target (issue 8): render <= 1.25x floor for each kind. Recorded on the shared 2-core
box (busy: 4-5 other jobs, so a floor is 5..15 ms where a quiet box encodes a full house
in ~2.5 ms; ratios are taken render by render in one run), 1200 px, seed 0. Channels
are mixed (a third of each kind) unless --kind; ms, median / p99:

    BEFORE: palette keyed by the explorers' colours, per-channel RGB layers (6 kept),
    tile sprites by exact tile size, a full RGB quantize and one zlib stream a render
      50 ch     cthulhu    render 14.4 / 24.3  floor 5.9 / 10.1  ratio 2.34x / 4.47x
                exploring  render 45.8 / 82.8  floor 7.4 / 11.8  ratio 6.25x / 15.7x
                haunt      render 51.2 / 92.5  floor 9.5 / 13.9  ratio 6.16x / 14.5x
                RSS 209 MB (222 peak), 44 MB before the first render
      200 ch    cthulhu    render 13.8 / 31.3  floor 4.9 / 12.2  ratio 2.42x / 6.06x
                exploring  render 36.1 / 79.4  floor 6.0 / 18.7  ratio 5.79x / 15.0x
                haunt      render 49.0 / 95.8  floor 7.4 / 17.4  ratio 6.67x / 12.2x
                RSS 224 MB (255 peak), 55 MB before the first render
      200 of one kind: cthulhu 2.48x / 6.29x, exploring 5.93x / 18.1x, haunt 6.06x / 12.5x
      hit rates (200 ch): Betrayal palette 24-43 %, house layer 36-43 %, tile sprites
      22-35 %; Cthulhu house layer 79 %

    AFTER: one palette per width whoever plays, every board composed in it from pieces
    all games share (nothing quantized per render), tiles in 13 sizes, the PNG written
    in 32-row bands with the bands drawn before reused (renderers/canvas.py, png.py)
      50 ch     cthulhu    render  3.2 / 12.2  floor 8.5 / 16.8  ratio 0.55x / 1.81x
                exploring  render  8.4 / 27.0  floor 9.1 / 33.9  ratio 0.90x / 3.01x
                haunt      render  9.8 / 29.4  floor 10.6 / 20.9 ratio 0.91x / 2.28x
                RSS 104 MB, 44 MB before the first render
      200 ch    cthulhu    render  3.2 / 13.0  floor 8.4 / 18.7  ratio 0.48x / 1.77x
                exploring  render  8.9 / 25.6  floor 9.5 / 22.0  ratio 0.97x / 3.98x
                haunt      render  9.6 / 33.9  floor 10.6 / 25.7 ratio 0.88x / 2.95x
                RSS 170 MB, 56 MB before the first render
      200 of one kind: cthulhu 0.47x / 1.70x, exploring 0.94x / 2.77x, haunt 0.88x / 1.81x
      hit rates (200 ch): palettes 100 %, tiles 98-100 %, words 97-100 %, bands 89 %
      (cthulhu), 66 % (exploring), 81 % (haunt)
      --no-band-reuse (pieces shared, every band drawn and compressed): 50 ch 1.33x,
      1.69x, 1.58x; 200 ch 1.34x, 1.49x, 1.61x (median; cthulhu, exploring, haunt)

Issue 19 (every cache bounded by bytes weighed at their real cost, renderers/budgets.py;
indexed pieces kept without a palette), 8 rounds, before and after run back to back, median
ms cthulhu / exploring / haunt, hit rates unchanged to the per cent:
      50 ch     before 2.84 / 4.20 / 4.97   RSS 109 MB    after 2.86 / 3.79 / 4.67   RSS 99 MB
      200 ch    before 3.21 / 5.12 / 6.38   RSS 185 MB    after 2.70 / 3.89 / 5.04   RSS 166 MB
      hits (200 ch): bands 79 / 75 / 90 %, tiles 98 / 100 %, words 100 / 99 / 100 %
      tiles at 24 MB instead of 40: tiles 83 / 84 %, and bands 57 / 61 % (a tile drawn again
      is a new piece, so its bands are new too)

The p99s are the renders that reuse few bands: a new game, or a house whose layout
changed (a fifth of exploring turns re-lay the panels), now and then with tile sizes
not yet drawn. The floor is Pillow encoding the whole image in one stream; a render
that reuses bands compresses only the rest, hence ratios under 1.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


import renderers
from bench.bench_render_betrayal import game_views, haunt_views, percentile
from bench.floors import encode_ms
from bot.games.base import PlayerInfo
from bot.games.betrayal.pictures import MapView
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.state import CthulhuState
from renderers import betrayal, budgets, canvas, common
from tests.test_render_betrayal import COLOURS, EXPLORERS, PLAYERS

KINDS = ("cthulhu", "exploring", "haunt")
Render = Callable[[], bytes]


def cthulhu_turns(seed: int) -> Iterator[Render]:
    """A channel playing Cthulhu forever: one AI action a turn, a new game when one
    ends (2..6 players, the house built-in or random as the engine picks)."""
    game = 0
    while True:
        players = 2 + (seed + game) % 5
        state, _ = CTHULHU.setup([PlayerInfo(f"Player {i + 1}", ai=True)
                                  for i in range(players)], seed * 1000 + game, {})
        while True:
            yield _cthulhu_render(state)
            if CTHULHU.is_over(state):
                break
            seat = CTHULHU.to_act(state)
            assert seat is not None
            state, _ = CTHULHU.apply(state, seat, CTHULHU.ai_action(state, seat))
        game += 1


def _cthulhu_render(state: CthulhuState) -> Render:
    return lambda: renderers.render_public("cthulhu", state)


def cast(view: MapView, chosen: list[int]) -> MapView:
    """The view with seat s played by explorer chosen[s] (name, player and colour)."""
    return replace(view, explorers=tuple(
        replace(e, name=EXPLORERS[chosen[e.seat]], player=PLAYERS[chosen[e.seat]],
                colour=COLOURS[chosen[e.seat]])
        for e in view.explorers if e.seat < len(chosen)))


def betrayal_turns(seed: int, haunt: bool) -> Iterator[Render]:
    """A channel playing Betrayal: its own house, its own 3..6 explorers; exploring
    starts at a random turn of the game (and starts over after 47 tiles). The first
    game's turns are made now, so the RSS before rendering counts them."""
    rng = random.Random(seed)
    chosen = rng.sample(range(len(COLOURS)), rng.randint(3, 6))

    def game(n: int) -> list[MapView]:
        if haunt:
            views = [v for v, _ in haunt_views(seed * 100 + n, 100)]
        else:
            views = [v for v, _ in game_views(seed * 100 + n, len(chosen), 3)]
        return [cast(view, chosen) for view in views]

    first = game(0)
    return _turns(first[rng.randrange(len(first)):], game)


def _turns(views: list[MapView], game: Callable[[int], list[MapView]]) -> Iterator[Render]:
    n = 0
    while True:
        for view in views:
            yield lambda v=view: betrayal.render_map(v)
        n += 1
        views = game(n)


@dataclass
class Channel:
    kind: str
    turns: Iterator[Render]


@dataclass
class Tally:
    render: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    ratio: list[float] = field(default_factory=list)
    size: list[int] = field(default_factory=list)
    hits: dict[str, list[int]] = field(default_factory=dict)  # cache -> [hits, misses]


def png_options() -> dict[str, object]:
    """The PNG settings the renderers encode with (the floor uses the same)."""
    return dict(common.PNG_OPTIONS)


def caches() -> dict[str, Callable[[], object]]:
    """name -> cache_info of every cache the loaded renderer modules hold."""
    return {name: cache.cache_info for name, cache in budgets.caches().items()}


def counts(infos: dict[str, Callable[[], object]]) -> dict[str, tuple[int, int]]:
    out = {}
    for name, info in infos.items():
        ci = info()
        out[name] = (int(getattr(ci, "hits", 0)), int(getattr(ci, "misses", 0)))
    return out


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident set size of this process, MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return (int(fields.get("VmRSS", "0 kB").split()[0]) / 1024,
            int(fields.get("VmHWM", "0 kB").split()[0]) / 1024)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=50, help="channels taking turns")
    parser.add_argument("--rounds", type=int, default=6, help="timed rounds (a render each)")
    parser.add_argument("--warmup", type=int, default=1, help="untimed rounds first")
    parser.add_argument("--kind", choices=KINDS, help="every channel plays this kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-band-reuse", action="store_true",
                        help="forget the PNG bands before each render: pieces shared, every "
                             "band drawn and compressed (what the bands save)")
    args = parser.parse_args(argv)

    channels = []
    for i in range(args.channels):
        kind = args.kind or KINDS[i % len(KINDS)]
        seed = args.seed * 10_000 + i
        turns = (cthulhu_turns(seed) if kind == "cthulhu" else
                 betrayal_turns(seed, haunt=kind == "haunt"))
        channels.append(Channel(kind, turns))
    options = png_options()
    gc.collect()
    setup_rss, _ = rss_mb()
    for _ in range(args.warmup):
        for ch in channels:
            next(ch.turns)()
    infos = caches()
    tallies = {kind: Tally() for kind in KINDS}
    gc.collect()
    started = time.perf_counter()
    for _ in range(args.rounds):
        for ch in channels:
            render = next(ch.turns)
            if args.no_band_reuse:
                canvas.BANDS.cache_clear()
            before = counts(infos)
            t0 = time.perf_counter()
            data = render()
            ms = (time.perf_counter() - t0) * 1000
            after = counts(infos)
            floor = encode_ms(data)
            tally = tallies[ch.kind]
            tally.render.append(ms)
            tally.floor.append(floor)
            tally.ratio.append(ms / floor)
            tally.size.append(len(data))
            for name, (h, m) in after.items():
                h0, m0 = before.get(name, (0, 0))
                if h != h0 or m != m0:
                    acc = tally.hits.setdefault(name, [0, 0])
                    acc[0] += h - h0
                    acc[1] += m - m0
    elapsed = time.perf_counter() - started
    now, peak = rss_mb()

    print(f"{args.channels} channels round-robin, {args.rounds} timed rounds after "
          f"{args.warmup} warm-up, PNG {options}, {elapsed:.0f} s"
          + (", no band reused" if args.no_band_reuse else ""))
    print(f"{'kind':<10} {'n':>4}  {'render ms':>14}  {'floor ms':>14}  {'ratio':>13}  "
          f"{'PNG KB':>6}")
    print(f"{'':<10} {'':>4}  {'median   p99':>14}  {'median   p99':>14}  "
          f"{'median  p99':>13}")
    for kind, t in tallies.items():
        if not t.render:
            continue
        print(f"{kind:<10} {len(t.render):>4}  {statistics.median(t.render):6.2f} "
              f"{percentile(t.render, 99):6.2f}  {statistics.median(t.floor):6.2f} "
              f"{percentile(t.floor, 99):6.2f}  {statistics.median(t.ratio):5.2f}x "
              f"{percentile(t.ratio, 99):5.2f}x  {statistics.median(t.size) / 1000:6.0f}")
    shown = [kind for kind, t in tallies.items() if t.render]
    print("cache hit rates in the timed rounds, hits / lookups (lookups per render), and "
          "what each holds at the end (KB, of its budget):")
    print(f"  {'cache':<44}" + "".join(f"{kind:>18}" for kind in shown) + "     held KB / budget")
    for name in sorted({n for kind in shown for n in tallies[kind].hits}):
        cells = []
        for kind in shown:
            h, m = tallies[kind].hits.get(name, (0, 0))
            per = (h + m) / len(tallies[kind].render)
            cells.append(f"{h / (h + m):>8.0%} ({per:>6.1f})" if h + m else f"{'-':>18}")
        info = infos[name]()
        held = getattr(info, "currbytes", None)
        budget = getattr(info, "maxbytes", None)
        cells.append(f"  {held / 1024:10.0f} / {budget / 1024:.0f}" if held is not None
                     and budget else "")
        print(f"  {name:<44}" + "".join(cells))
    print(f"RSS {now:.0f} MB now, {peak:.0f} MB peak; {setup_rss:.0f} MB before the first "
          f"render (the channels' games and views)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
