"""bot/metrics.py: the operators' metrics, counted by the sessions layer over a real
SQLite store, served over HTTP on localhost, and off (recording nothing) by default.

Each test has a registry of its own (`Metrics()`), so counts start at zero and are
read back with `registry.get_sample_value`, never by parsing copied text."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import pytest

from bot import metrics as M
from bot import table as T
from bot.config import METRICS_ADDR, ConfigError, load_settings
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.sessions import Sessions
from bot.store import OVER, SqliteStore, Store
from tests.test_sessions import (
    BOB,
    CHANNEL,
    GAME,
    GUILD,
    HOST,
    KIND,
    SEED,
    STRANGER,
    RecordingOutlet,
    human_actor,
    open_game,
    state_of,
)


def sample(metrics: M.Metrics, name: str, **labels: str) -> float:
    """A sample's value; 0 for one never recorded (prometheus_client says None)."""
    return metrics.registry.get_sample_value(name, labels) or 0.0


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.status == 200
        return response.read().decode()


# ---------------------------------------------------------------- through the sessions

async def test_actions_refusals_latency_and_renders_are_counted_by_game_and_kind(
        store: SqliteStore) -> None:
    metrics = M.Metrics()
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, metrics=metrics)
    table = await open_game(sessions, BOB)  # opened (not an action), joined, started
    assert sample(metrics, "hauntkeeper_actions_total", game=KIND, kind=T.JOIN) == 1
    assert sample(metrics, "hauntkeeper_actions_total", game=KIND, kind=T.START) == 1

    seat = GAME.to_act(state_of(table))
    assert seat is not None
    mover = human_actor(table, seat)
    idle = BOB if mover.user_id == HOST.user_id else HOST
    option = GAME.options(state_of(table), seat)[0]
    with pytest.raises(IllegalAction):  # not their turn
        await sessions.act(CHANNEL, idle, option.action, version=table.version)
    with pytest.raises(IllegalAction):  # not seated at all
        await sessions.act(CHANNEL, STRANGER, option.action, version=table.version)
    with pytest.raises(IllegalAction):  # no game in that channel: no game to name
        await sessions.act(CHANNEL + 1, HOST, Action(T.JOIN))
    assert (await store.load(CHANNEL)) == table  # refusals leave the game untouched
    await sessions.act(CHANNEL, mover, option.action, version=table.version)

    assert sample(metrics, "hauntkeeper_actions_total", game=KIND,
                  kind=option.action.kind) == 1
    assert sample(metrics, "hauntkeeper_refusals_total", game=KIND) == 2
    assert sample(metrics, "hauntkeeper_refusals_total", game=M.NO_GAME) == 1
    assert sample(metrics, "hauntkeeper_errors_total") == 0
    played = 3  # join, start, the move; refusals are not timed
    assert sample(metrics, "hauntkeeper_action_seconds_count", game=KIND) == played
    assert sample(metrics, "hauntkeeper_action_seconds_sum", game=KIND) > 0
    assert sample(metrics, "hauntkeeper_action_seconds_bucket", game=KIND, le="+Inf") == played
    # one render per post with a board: the start's and the move's
    boards = [post for _, post in outlet.posts if post.image is not None]
    assert len(boards) == 2
    assert sample(metrics, "hauntkeeper_render_seconds_count", game=KIND) == len(boards)
    assert sample(metrics, "hauntkeeper_render_seconds_sum", game=KIND) > 0

    await sessions.board(await store.load(CHANNEL) or table)  # /game map draws one more
    assert sample(metrics, "hauntkeeper_render_seconds_count", game=KIND) == len(boards) + 1


async def test_no_render_no_render_sample(store: SqliteStore) -> None:
    metrics = M.Metrics()
    sessions = Sessions(store, RecordingOutlet(), render=False, metrics=metrics)
    await open_game(sessions, BOB)
    assert sample(metrics, "hauntkeeper_action_seconds_count", game=KIND) == 2
    assert metrics.registry.get_sample_value("hauntkeeper_render_seconds_count",
                                             {"game": KIND}) is None


async def test_sessions_record_nothing_by_default(store: SqliteStore) -> None:
    sessions = Sessions(store, RecordingOutlet(), render=False)
    assert sessions.metrics is M.NO_METRICS and not sessions.metrics.enabled
    await open_game(sessions, BOB)
    with pytest.raises(IllegalAction):
        await sessions.act(CHANNEL, STRANGER, Action(T.START))
    # each registry is its own: another recorder saw nothing of it
    assert sample(M.Metrics(), "hauntkeeper_actions_total", game=KIND, kind=T.JOIN) == 0


def test_the_no_op_recorder_has_every_method_metrics_has() -> None:
    """Metrics off must accept every call metrics on take (no AttributeError in a click)."""
    ours = {name for name in vars(M.Metrics) if not name.startswith("_")}
    assert ours - {"enabled"} <= {name for name in vars(M.Recorder)}


# ---------------------------------------------------------------- open games

async def test_the_store_counts_open_games_on_each_backend(any_store: Store) -> None:
    sessions = Sessions(any_store, RecordingOutlet(), render=False)
    assert await any_store.count_open() == 0
    await open_game(sessions, BOB)  # running
    await sessions.open(CHANNEL + 1, GUILD, HOST, KIND, SEED)  # a lobby
    await sessions.open(CHANNEL + 2, GUILD, HOST, KIND, SEED)
    await sessions.act(CHANNEL + 2, HOST, Action(T.LEAVE))  # its last human left: over
    closed = await any_store.load_latest(CHANNEL + 2)
    assert closed is not None and closed.status == OVER
    assert await any_store.count_open() == 2
    assert await any_store.count_games() == 3


async def test_the_open_games_gauge_follows_the_count_and_survives_a_failed_count() -> None:
    metrics = M.Metrics()
    answers: list[int | Exception] = [3, RuntimeError("database away"), 5]
    asked = asyncio.Event()

    async def count() -> int:
        answer = answers.pop(0)
        if not answers:
            asked.set()
        if isinstance(answer, Exception):
            assert sample(metrics, "hauntkeeper_open_games") == 3
            raise answer
        return answer

    task = asyncio.create_task(M.keep_open_games(metrics, count, every=0))
    await asyncio.wait_for(asked.wait(), 5)
    await asyncio.sleep(0)  # let it set the last answer
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sample(metrics, "hauntkeeper_open_games") == 5


# ---------------------------------------------------------------- the HTTP endpoint

async def test_the_endpoint_serves_the_registry_on_localhost_until_closed(
        store: SqliteStore) -> None:
    metrics = M.Metrics()
    sessions = Sessions(store, RecordingOutlet(), render=False, metrics=metrics)
    await open_game(sessions, BOB)
    with pytest.raises(IllegalAction):
        await sessions.act(CHANNEL, STRANGER, Action(T.START))
    metrics.failed()
    metrics.open_games(1)
    server = M.serve(metrics, 0, "127.0.0.1")
    url = f"http://127.0.0.1:{server.port}/metrics"
    try:
        assert server.port > 0
        text = await asyncio.to_thread(fetch, url)
    finally:
        server.close()
    assert f'hauntkeeper_actions_total{{game="{KIND}",kind="{T.START}"}} 1.0' in text
    assert "hauntkeeper_errors_total 1.0" in text
    assert "hauntkeeper_open_games 1.0" in text
    assert f'hauntkeeper_refusals_total{{game="{KIND}"}} 1.0' in text
    assert f'hauntkeeper_action_seconds_count{{game="{KIND}"}} 2.0' in text
    assert "# TYPE hauntkeeper_render_seconds histogram" in text  # no render: no sample
    with pytest.raises(urllib.error.URLError):
        await asyncio.to_thread(fetch, url)  # closed: nothing listens there any more


# ---------------------------------------------------------------- settings

def test_metrics_are_off_unless_a_port_is_set() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t"}, ())
    assert settings.metrics_port is None and settings.metrics_addr == METRICS_ADDR
    assert METRICS_ADDR == "127.0.0.1"
    on = load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_METRICS_PORT": " 9464 ",
                        "HAUNTKEEPER_METRICS_ADDR": "0.0.0.0"}, ())
    assert (on.metrics_port, on.metrics_addr) == (9464, "0.0.0.0")


@pytest.mark.parametrize("port", ["abc", "0", "65536", "-1", "9464.5"])
def test_a_bad_metrics_port_says_so_in_one_line(port: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_METRICS_PORT": port}, ())
    assert "HAUNTKEEPER_METRICS_PORT" in str(info.value) and "\n" not in str(info.value)
