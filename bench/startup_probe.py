"""The bot's own start-up, in a fresh process of its own: run by bench/bench_startup.py,
never by hand.

It imports what `python -m bot run` imports (bot/__main__.py's modules, then, with the
collector off as its main() has it, bot/client.py) and nothing of the bench's, so the
time and the memory it reports are the bot's. It starts the real bot (`HauntBot`, the
settings read from the environment as the command line reads them) against the fake
Discord the bench serves, and marks the moments of a start: imported; `login` (the store
opened, then Discord's login); `setup_hook` begun and done (the cogs, the warm-up);
`on_ready` (discord.py has connected and waited for the guilds: Discord's part, which
the bench leaves out); the first pass over the waiting games done (owed deliveries, AI
turns) and every turn timer that was due fired; and, where the bot warms its renderers
in the background, when it says that is done. Then it prints the marks (wall-clock
seconds, so the bench can set them against the moment it started the process), its CPU
time when done and its peak RSS as one JSON line.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import resource
import sys
import time
from pathlib import Path
from typing import Any

import bot.__main__  # noqa: F401  (what `python -m bot` imports before bot.client)

gc.disable()  # as bot/__main__.py's main() does before it loads the games and the bot

from bot.client import HauntBot, use_endpoints  # noqa: E402
from bot.config import load_settings  # noqa: E402
from bot.store import TurnTimer  # noqa: E402

IMPORTED = time.time()
IMPORTED_CPU = resource.getrusage(resource.RUSAGE_SELF)
TIMEOUT = 120.0  # a start that takes this long has hung: the bench says so


class WarmedUp(logging.Handler):
    """Marks when the bot says its renderers' warm-up is done (in the background)."""

    def __init__(self, marks: dict[str, float]) -> None:
        super().__init__(logging.INFO)
        self.marks = marks

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("renderers warmed up"):
            self.marks.setdefault("warmed", record.created)


class ProbeBot(HauntBot):
    """The bot, with the moments of its start marked."""

    def __init__(self, due: int, **options: Any) -> None:
        super().__init__(**options)
        self.marks: dict[str, float] = {"imported": IMPORTED}
        # the CPU time at each mark (so the steps' CPU, the warm-up's among them)
        self.cpu_marks: dict[str, float] = {
            "imported": IMPORTED_CPU.ru_utime + IMPORTED_CPU.ru_stime}
        self.due = due  # turn timers due at the start: each fires once
        self.fired = 0
        self.waiting = -1
        self.cpu = 0.0
        self.started = asyncio.Event()

    async def login(self, token: str) -> None:
        self.marks["login"] = time.time()
        await super().login(token)

    async def setup_hook(self) -> None:
        self.marks["setup"] = time.time()
        self.cpu_marks["setup"] = cpu_seconds()
        await super().setup_hook()
        self.marks["setup_done"] = time.time()
        self.cpu_marks["setup_done"] = cpu_seconds()
        fire = self.timers.fire

        async def counted(timer: TurnTimer) -> object:
            try:
                return await fire(timer)
            finally:
                self.fired += 1
                self._check()

        self.timers.fire = counted

    async def on_ready(self) -> None:
        if "ready" not in self.marks:
            self.marks["ready"] = time.time()
            self.cpu_marks["ready"] = cpu_seconds()
        await super().on_ready()

    async def resume_games(self, *, ai_turns: bool = True) -> int:
        waiting = await super().resume_games(ai_turns=ai_turns)
        if ai_turns and "resumed" not in self.marks:
            self.marks["resumed"] = time.time()
            self.waiting = waiting
            self._check()
        return waiting

    def _check(self) -> None:
        if "resumed" in self.marks and self.fired >= self.due and not self.started.is_set():
            self.marks["done"] = time.time()
            self.cpu = self.cpu_marks["done"] = cpu_seconds()
            self.started.set()


def cpu_seconds() -> float:
    """The CPU time this process has spent (every thread's: the warm-up's and the
    renders' too), which a busy machine stretches far less than the wall time."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def peak_mb() -> float:
    """This process's peak RSS: VmHWM, its own memory's high-water mark (ru_maxrss would
    count the bench's, which it is started from, after an exec)."""
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) / 1024


async def main(due: int, guild_wait: float) -> None:
    settings = load_settings()
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    use_endpoints(settings.api_base, settings.gateway)
    probe = ProbeBot(due, db_path=settings.db_path, health_file=settings.health_file,
                     guild_ready_timeout=guild_wait)
    logging.getLogger("bot.client").addHandler(WarmedUp(probe.marks))
    async with probe:
        running = asyncio.create_task(probe.start(settings.token))
        waiting = asyncio.create_task(probe.started.wait())
        await asyncio.wait({running, waiting}, timeout=TIMEOUT,
                           return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            running.result()  # the start failed: say why
        print(json.dumps({"marks": probe.marks, "waiting": probe.waiting,
                          "fired": probe.fired, "peak_mb": peak_mb(),
                          "cpu": probe.cpu,
                          "cpu_marks": probe.cpu_marks}), flush=True)
        running.cancel()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
