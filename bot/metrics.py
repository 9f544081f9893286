"""Metrics for the people who run the bot: a Prometheus endpoint, off by default.

What they want to see at a glance: how many actions the tables play, of which kind, how
many are refused, how many interactions hit a bug, how long an action and a board
render take, and how many games are open. The shared layers are told a `Recorder`
(Sessions takes one in its constructor) and never import a global one: `NO_METRICS`,
the default, records nothing and costs a method call, so a bot without metrics pays
next to nothing (bench/bench_metrics.py measures both).

`Metrics` keeps its own registry, not prometheus_client's global one, so each test (or
a second bot in one process) counts from zero. `serve` starts prometheus_client's HTTP
server on its own thread; it only reads the registry, never the event loop. The open
games are counted by the store every OPEN_GAMES_SECONDS (`keep_open_games`): a scrape
from the HTTP thread cannot await the store, and a count a few seconds old is enough.
It is the whole store's: bots sharing one PostgreSQL database each report the same
figure (take the max), while the counters and histograms are each process's own (sum).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from threading import Thread
from typing import Any
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.metrics import MetricWrapperBase

from bot.loops import keep_running

log = logging.getLogger(__name__)

OPEN_GAMES_SECONDS = 15.0  # how often the open games are counted (Prometheus' usual scrape)
NO_GAME = "none"  # the game label of a refusal before any table was found
# Seconds: an action is a few ms (bench/bench_sessions.py), a slow one with Discord's
# round trips a few hundred; a render 1-20 ms.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Recorder:
    """What the bot tells its metrics. This one records nothing: metrics are off."""

    enabled = False

    def acted(self, game: str, kind: str, seconds: float) -> None:
        """An action was played (saved and delivered) in `seconds`."""

    def refused(self, game: str) -> None:
        """An action was refused (IllegalAction): bad input, wrong turn, a stale click."""

    def failed(self) -> None:
        """An interaction hit an unexpected exception (a bug, or Discord misbehaving)."""

    def rendered(self, game: str, seconds: float) -> None:
        """A board (and its extra images) was drawn in `seconds`."""

    def open_games(self, count: int) -> None:
        """The store holds `count` unfinished games (lobbies and running games)."""


NO_METRICS = Recorder()


class Metrics(Recorder):
    """The metric objects, on a registry of their own."""

    enabled = True

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.actions = Counter("hauntkeeper_actions", "Actions played, by game and kind.",
                               ["game", "kind"], registry=self.registry)
        self.refusals = Counter("hauntkeeper_refusals", "Actions refused, by game.",
                                ["game"], registry=self.registry)
        self.errors = Counter("hauntkeeper_errors",
                              "Interactions that failed with an unexpected exception.",
                              registry=self.registry)
        self.action_seconds = Histogram(
            "hauntkeeper_action_seconds",
            "An action through the sessions layer: lock, load, rules, save, AI turns, "
            "delivery.", ["game"], buckets=BUCKETS, registry=self.registry)
        self.render_seconds = Histogram("hauntkeeper_render_seconds",
                                        "A delivery's board and extra images drawn.",
                                        ["game"], buckets=BUCKETS, registry=self.registry)
        self.open = Gauge("hauntkeeper_open_games", "Unfinished games in the store.",
                          registry=self.registry)

        # Each series' child, found once: `labels()` takes a lock and builds a key at
        # every call, a third of the cost of recording (bench/bench_metrics.py).
        self._children: dict[tuple[object, ...], Any] = {}

    def _child(self, metric: MetricWrapperBase, *labels: str) -> Any:
        key = (metric, *labels)
        child = self._children.get(key)
        if child is None:
            child = self._children.setdefault(key, metric.labels(*labels))
        return child

    def acted(self, game: str, kind: str, seconds: float) -> None:
        self._child(self.actions, game, kind).inc()
        self._child(self.action_seconds, game).observe(seconds)

    def refused(self, game: str) -> None:
        self._child(self.refusals, game).inc()

    def failed(self) -> None:
        self.errors.inc()

    def rendered(self, game: str, seconds: float) -> None:
        self._child(self.render_seconds, game).observe(seconds)

    def open_games(self, count: int) -> None:
        self.open.set(count)


@dataclass
class MetricsServer:
    """prometheus_client's HTTP server for one registry, on its own thread."""

    server: WSGIServer
    thread: Thread

    @property
    def port(self) -> int:
        """The port it listens on (the one the OS chose, when asked for port 0)."""
        return int(self.server.server_port)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def serve(metrics: Metrics, port: int, addr: str) -> MetricsServer:
    """Serve `metrics` at http://addr:port/metrics (port 0: any free port)."""
    server, thread = start_http_server(port, addr, registry=metrics.registry)
    return MetricsServer(server, thread)


async def keep_open_games(recorder: Recorder, count: Callable[[], Awaitable[int]],
                          every: float = OPEN_GAMES_SECONDS) -> None:
    """Count the open games now, then every `every` seconds, until cancelled. A failed
    count (the database away for a moment) keeps the last figure and tries again."""
    async def once() -> float:
        recorder.open_games(await count())
        return every

    await keep_running("counting the open games for the metrics", once, log, retry=every)
