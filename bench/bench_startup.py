"""The bot's own start-up with 10,000 stored games: a benchmark script, run on demand,
never a test.

    python bench/bench_startup.py                  # 10,000 games, two runs
    python bench/bench_startup.py --games 1000 --runs 1

A store as a busy bot's file holds it (bench/stored_games.py): games of every kind and
stage (60 % finished, 28 % under way, 12 % lobbies) with their whole event logs and undo
points, copied from real tables played through the sessions layer; of them, some owe
their last delivery, some finished ones their end, some were cut while an AI was to
act, and some running games have turn timers armed, a few due already. Then, in a fresh
process each (bench/startup_probe.py), the real bot starts on a fresh copy of that file
against the fake Discord served here, and its start is timed from the exec:

  imports      the interpreter and what `python -m bot run` imports
  login        the store opened (migrations checked, the sweep of old undo points),
               then Discord's login (two REST calls to the fake)
  setup        setup_hook: the sessions, the cogs and their games, the warm-up
  resume       from on_ready to the end of the first pass over the waiting games
               (owed deliveries, AI turns) with every due turn timer fired
  ours         all of it but discord.py's part between setup_hook and on_ready (the
               gateway, READY, the wait for the guilds), which is Discord's, not ours
  peak RSS     of the bot's process when it is done (VmHWM)

The fake answers at once (no latency): what the resume pass waits on it is the fake's
own work on the other core, counted in ours. The floor, measured in the same run: a
fresh process that imports discord, aiosqlite and PIL and reads every row of the same
file's games table (sqlite3); its wall time and peak RSS. The ratio is the figure: the
machine is shared and absolute times drift. After each start the bench checks the copy:
nothing left owed, no due timer left.

The CPU the bot's process spent (every thread's: `resource.getrusage`) is printed beside
the wall time, by step, and the floor's beside it: on a shared machine the wall time
stretches with the load (here two or three times the CPU time), the CPU time far less.
Between setup_hook's end and on_ready the bot waits for Discord; what it spends there is
its renderers' warm-up, in the background.

Targets (issue 23): ours under 1 s, peak RSS under 120 MB.

Recorded on the shared 2-core box, 10,000 games, two runs each (load average 10-11, the
other helpers' jobs: the wall times are two to three times the CPU times):

  at the start of this branch's work (the warm-up already in the background):
      ours 2023 / 2354 ms = 3.97x / 2.36x the floor (509 / 999 ms); peak RSS 98 MB
      (2.1x the floor's 46 MB); load average 3.0-3.2
  before the collector was kept off while loading (--version already lazy):
      ours 2022 / 2869 ms = 1.28x / 2.00x the floor; CPU 1092 / 1247 ms = 3.12x /
      4.16x the floor's (350 / 300 ms); peak RSS 98 MB
  now:
      ours 1843 / 1893 ms = 3.11x / 2.50x the floor (593 / 758 ms); peak RSS 98 MB
      CPU 942 / 933 ms = 3.28x / 3.49x the floor's (288 / 267 ms), of which imports
      328 / 311, login 8 / 7, setup 102 / 103, the warm-up in the background 279 / 273
      (done before on_ready), the resume pass 226 / 240 (6 waiting games, 10 due timers,
      37 REST requests); so the bot's own work but the warm-up is about 0.66 s of CPU,
      0.94 s with it
  after merging main (/game history, /stats): ours 1728 / 1667 ms = 2.33x / 2.72x the
      floor (742 / 612 ms); CPU 969 / 953 ms = 3.55x / 3.39x (imports 336 / 350, setup
      107 / 100, warm-up 279 / 256, resume 239 / 239); peak RSS 107 / 98 MB

  issue 23, 2026-12-06, two runs each, load average 3.0-3.2 (other helpers' jobs):
      before: ours 1266 / 977 ms = 2.87x / 2.58x the floor (440 / 378 ms); imports
      538 / 516 ms wall, CPU 1038 / 1031 ms; peak RSS 95 MB
      a SQLite bot no longer imports asyncpg (bot/store/__init__.py loads the
      PostgreSQL module for a PostgreSQL URL only): ours 766 / 703 ms = 3.05x / 2.36x
      the floor (251 / 298 ms); imports 323 / 312 ms wall; CPU 954 / 932 ms (imports
      319 / 308, setup 86 / 90, warm-up in the background 268 / 270, resume 274 /
      256); peak RSS 92 MB. Both targets met at that load.
  later the same day, load average 0.4: the warm-up reads every language (content,
      words, faces, every haunt's data) and the boards of the 48 games played last (200 since
      the evening: bot/sessions_start.py's WARM_BOARDS) are
      drawn 3 s after the resume pass (drawn at once they doubled its wall time: ours
      1390 / 1521 ms, resume 769 / 610): ours 663 / 642 ms = 2.24x the floor (291 ms);
      CPU 1077 / 1038 ms (imports 303 / 303, setup 88 / 86, warm-up in the background
      408 / 382, done 811 / 783 ms from the exec, before on_ready, resume 270 / 259);
      peak RSS 105 MB (the second language's content and faces: +13 MB).

The imports are near their floor: discord, aiosqlite and PIL take about 0.26 s of CPU
here, with prometheus_client, yaml and dotenv (which the bot imports whatever its
settings) a little more; asyncpg (about 0.1 s) only for PostgreSQL. The resume pass's CPU is
mostly its boards (a delivery's plan draws one), and so is the warm-up's.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stored_games import Built, Plan, build
from bot.store import rows as Q
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
PROBE = Path(__file__).resolve().parent / "startup_probe.py"
FLOOR = """
import resource, sqlite3, sys, time
import discord, aiosqlite, PIL
imported = time.time()
db = sqlite3.connect(sys.argv[1])
rows = 0
for row in db.execute("SELECT * FROM games"):
    rows += 1
done = time.time()
status = open("/proc/self/status").read().split("VmHWM:")[1].split()
used = resource.getrusage(resource.RUSAGE_SELF)
print(imported, done, rows, int(status[0]) / 1024, used.ru_utime + used.ru_stime)
"""
# A start after a crash that followed half an hour down: far more owed than a restart.
HEAVY = {"owed": 40, "owed_ends": 10, "ai_turns": 10, "due_reminders": 20, "due_ends": 10}
GUILD_WAIT = 2.0  # discord.py's guild_ready_timeout: its wait for more guilds after READY
STEPS = ("imports", "login", "setup", "discord", "resume")


@dataclass
class Start:
    """One start of the bot, in seconds from its exec."""

    steps: dict[str, float]
    ours: float
    peak_mb: float
    waiting: int
    fired: int
    requests: int
    left_owed: int
    left_due: int
    warmed: float | None  # when the background warm-up was done (None: in setup)
    ready: float  # when on_ready came
    cpu: float  # seconds of CPU at its end (every thread's, the warm-up's too)
    cpu_steps: dict[str, float]  # each step's CPU seconds (the first from the exec)


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


@dataclass
class Floor:
    """The floor's start, in seconds from its exec: its imports, then every games row."""

    imports: float
    seconds: float
    peak_mb: float
    cpu: float  # seconds of CPU at its end


async def floor(path: Path) -> Floor:
    """The floor process on `path`, started now."""
    started = time.time()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", FLOOR, str(path),
                                                stdout=asyncio.subprocess.PIPE)
    out, _ = await proc.communicate()
    imported, done, _, peak, cpu = out.decode().split()
    return Floor(float(imported) - started, float(done) - started, float(peak), float(cpu))


def left(path: Path) -> tuple[int, int]:
    """What the start left undone in its copy: games owing a delivery, timers due."""
    with sqlite3.connect(path) as db:
        owed = db.execute(Q.OWING).fetchall()
        due = db.execute("SELECT COUNT(*) FROM turn_timers WHERE due_at <= ?",
                         (time.time() - 5,)).fetchone()[0]
    db.close()
    return len(owed), int(due)


async def start(fd: FakeDiscord, path: Path, due: int, tmp: Path,
                guild_wait: float = GUILD_WAIT) -> Start:
    """The bot started on `path` in a fresh process, against `fd`."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="bench",
               HAUNTKEEPER_DB=str(path), HAUNTKEEPER_DISCORD_API=fd.base_url + "/api/v10",
               HAUNTKEEPER_DISCORD_GATEWAY=fd.ws_url,
               HAUNTKEEPER_HEALTH_FILE=str(tmp / "heartbeat"))
    before = len(fd.requests)
    log = tmp / "bot.log"
    started = time.time()
    with open(log, "wb") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(PROBE), str(due), str(guild_wait), cwd=tmp, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=err)
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        await proc.wait()
    if not line:
        raise RuntimeError("the bot did not start:\n" + log.read_text()[-3000:])
    got = json.loads(line)
    marks = got["marks"]
    if "done" not in marks:
        raise RuntimeError(f"the start did not finish: {got}\n" + log.read_text()[-3000:])
    points = [started, marks["imported"], marks["setup"], marks["setup_done"],
              marks["ready"], marks["done"]]
    steps = {name: points[n + 1] - points[n] for n, name in enumerate(STEPS)}
    owed, due_left = left(path)
    warmed = marks["warmed"] - started if "warmed" in marks else None
    return Start(steps, marks["done"] - started - steps["discord"], got["peak_mb"],
                 got["waiting"], got["fired"], len(fd.requests) - before, owed, due_left,
                 warmed, marks["ready"] - started, got["cpu"], cpu_steps(got["cpu_marks"]))


def cpu_steps(marks: dict[str, float]) -> dict[str, float]:
    """The CPU each step spent: the imports from the exec; between setup_hook's end and
    on_ready (Discord's part) the bot itself mostly waits, and what it spends there is
    the warm-up's, in the background."""
    order = ["imported", "setup", "setup_done", "ready", "done"]
    names = ["imports", "login", "setup", "discord", "resume"]
    points = [0.0, *(marks[name] for name in order)]
    return {name: points[n + 1] - points[n] for n, name in enumerate(names)}


def compiled() -> None:
    """Our modules' bytecode, as an installed bot has it (pip compiles it at install,
    the Docker image's too): a checkout run with PYTHONDONTWRITEBYTECODE=1 would compile
    every module at every start (~0.4 s here), which no deployed bot pays."""
    for tree in ("bot", "cogs", "renderers"):
        compileall.compile_dir(ROOT / tree, quiet=1)


async def main(args: argparse.Namespace) -> None:
    compiled()
    plan = Plan(games=args.games, seed=args.seed)
    if args.heavy:
        plan = Plan(games=args.games, seed=args.seed, **HEAVY)
    fd = FakeDiscord()
    await fd.start()
    try:
        users = [fd.add_user(name).id for name in ("hana", "gus")]
        channels = [fd.add_channel(f"game-{n}") for n in range(plan.touched)]
        with tempfile.TemporaryDirectory(prefix="hk-startup-") as folder:
            tmp = Path(folder)
            pristine = tmp / "pristine.sqlite3"
            t0 = time.perf_counter()
            built = await build(pristine, tmp, plan, channels, fd.guild_id, users)
            report(built, time.perf_counter() - t0)
            starts: list[Start] = []
            floors: list[Floor] = []
            for run in range(1, args.runs + 1):
                copy = tmp / f"run-{run}.sqlite3"
                shutil.copyfile(pristine, copy)
                os.sync()  # the copy written out: no writeback under the timed starts
                floors.append(await floor(copy))
                said = load()
                starts.append(await start(fd, copy, built.due_timers, tmp, args.guild_wait))
                print_run(run, starts[-1], floors[-1], said)
                copy.unlink()
            if args.runs > 1:
                ours = statistics.median(s.ours for s in starts)
                base = statistics.median(f.seconds for f in floors)
                cpu = statistics.median(s.cpu for s in starts)
                cpu_base = statistics.median(f.cpu for f in floors)
                print(f"median of {args.runs}: ours {ours * 1000:.0f} ms = "
                      f"{ours / base:.2f}x the floor ({base * 1000:.0f} ms); CPU "
                      f"{cpu * 1000:.0f} ms = {cpu / cpu_base:.2f}x the floor's "
                      f"({cpu_base * 1000:.0f} ms)")
    finally:
        await fd.stop()


def report(built: Built, seconds: float) -> None:
    statuses = ", ".join(f"{n} {s}" for s, n in sorted(built.by_status.items()))
    sizes = ", ".join(f"{k} {b / 1000:.1f} KB" for k, b in sorted(built.state_bytes.items()))
    print(f"stored {built.games} games ({statuses}) in {seconds:.1f} s: {built.events} "
          f"events, {built.undo_points} undo points, {built.timers} turn timers "
          f"({built.due_timers} due), {built.waiting} games waiting for the bot; a running "
          f"game's state: {sizes}; file {built.file_mb:.0f} MB")


def print_run(run: int, got: Start, base: Floor, said: str) -> None:
    steps = ", ".join(f"{name} {seconds * 1000:.0f}" for name, seconds in got.steps.items())
    cpu_said = ", ".join(f"{name} {seconds * 1000:.0f}"
                         for name, seconds in got.cpu_steps.items())
    print(f"run {run} ({said}):\n"
          f"  ours {got.ours * 1000:.0f} ms, peak RSS {got.peak_mb:.0f} MB   "
          f"(ms: {steps}; discord is Discord's part, not ours)\n"
          f"  floor {base.seconds * 1000:.0f} ms (imports {base.imports * 1000:.0f}), peak RSS "
          f"{base.peak_mb:.0f} MB   ->   time {got.ours / base.seconds:.2f}x, RSS "
          f"{got.peak_mb / base.peak_mb:.2f}x the floor\n"
          f"  CPU ours {got.cpu * 1000:.0f} ms (warm-up included), floor "
          f"{base.cpu * 1000:.0f} ms   ->   {got.cpu / base.cpu:.2f}x   (ms: {cpu_said}; "
          f"discord is the warm-up's, in the background)\n"
          f"{warm_line(got)}"
          f"  resumed {got.waiting} waiting games, fired {got.fired} due timers, "
          f"{got.requests} REST requests; left owed {got.left_owed}, due {got.left_due}")


def warm_line(got: Start) -> str:
    """Where the renderers' warm-up ran: in setup_hook (counted in it), or in the
    background, done before or after on_ready."""
    if got.warmed is None:
        return ""
    when = "before" if got.warmed <= got.ready else "after"
    return (f"  warm-up in the background, done {got.warmed * 1000:.0f} ms from the exec, "
            f"{when} on_ready ({got.ready * 1000:.0f} ms)\n")


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--guild-wait", type=float, default=GUILD_WAIT,
                        help="discord.py's wait for the guilds after READY (its default, "
                             "2 s); Discord's part, left out of ours")
    parser.add_argument("--heavy", action="store_true",
                        help="a start owing far more: 40 deliveries, 10 ends, 10 AI turns, "
                             "30 due timers")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse()))
