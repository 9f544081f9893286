"""Shared fixtures: a fake Discord server, the real bot started against it, and the
stores (SQLite, and PostgreSQL on a server the tests start themselves). And the `slow`
marker: which tests the fast subset (`python -m pytest -m "not slow"`) leaves to CI."""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import discord
import pytest

from bot.client import HauntBot
from bot.store import SqliteStore, Store, open_store
from cogs import click_limit
from tests.e2e_helpers import seeding_as_moderator
from tests.fakediscord import FakeDiscord, discord_errors, start_bot, stop_bot
from tests.pg_pair import HeldStore
from tests.pg_server import NoServer, PgServer

BotFactory = Callable[[], Awaitable[HauntBot]]
STORE_FILE = "store.sqlite3"  # the `store` fixture's database, in the test's tmp_path
# Set (to 1) where PostgreSQL must be tested (.ci/run): no server is then a failure.
REQUIRE_PG = "HAUNTKEEPER_REQUIRE_PG"
BACKENDS = ("sqlite", "postgres")

# -- the fast part and the rest ------------------------------------------------------------
# `python -m pytest -m "not slow"` runs the fast part (a minute or two); plain
# `python -m pytest` (CI, .ci/run) runs everything. A test is slow when it runs the real
# bot against the fake Discord (an e2e file, or the `fd` fixture), starts a process or a
# PostgreSQL server, draws boards, or plays many cases or whole games (a Hypothesis
# property, a name saying it plays AI games, a file of them). Decided here by file,
# fixture and name, so a new test in a slow file, or one using those fixtures, is slow
# without a mark of its own (tests/README.md says which is which).
SLOW_FILES = (
    "test_e2e_*.py", "*_e2e.py",  # the real bot through the fake Discord
    "test_fake_spec.py", "test_fakediscord_*.py", "test_evil_below_cog.py",
    "test_game_log.py", "test_outlet_live.py",
    "test_bench_*.py", "test_demo_*.py", "test_health.py", "test_install.py",  # processes
    "test_ops_cli.py", "test_ops_walk.py", "test_sync_cli.py", "test_sessions_exactly_once.py",
    "test_store_outage.py",  # a database stopped and started again
    "test_render_*.py", "test_boards_at_chat_size.py",  # boards drawn and measured
    "*_property.py", "test_live_message_fit.py", "test_wire.py",  # many random cases
    "test_plain_copy.py", "test_sessions_concurrency.py",
    "test_betrayal_engine_ai.py", "test_betrayal_haunt_ai_games.py",  # whole AI games
    "test_betrayal_haunt_endings.py", "test_betrayal_haunt_secrets.py",
    "test_neibolt_rooms.py", "test_neibolt_scenarios.py", "test_turn_text.py",
    "test_cthulhu_ai.py", "test_evil_below_ai.py", "test_betrayal_house_plan.py",
    "test_replay_games.py",  # whole games played, then drawn
    "test_code_quality.py",  # ruff, and each module imported in a subprocess
    "test_mypy.py",  # mypy over the source trees
)
SLOW_FIXTURES = frozenset({"fd", "start_hauntkeeper", "pg_server", "stores"})
AI_GAMES = re.compile(r"ai_games?|ai_plays")  # a test named for the AI games it plays


def is_slow(item: pytest.Item) -> bool:
    if any(fnmatch(item.path.name, pattern) for pattern in SLOW_FILES):
        return True
    if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return True  # a property test: a hundred examples or more
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("backend") == "postgres":
        return True
    return bool(AI_GAMES.search(getattr(item, "originalname", item.name)))


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    """A fresh SQLite store in the test's own folder (tmp_path / STORE_FILE)."""
    s = await open_store(tmp_path / STORE_FILE)
    yield s
    await s.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server (and database) for the whole session; tests empty it with
    `reset`. Without PostgreSQL binaries its tests skip, saying why, unless REQUIRE_PG."""
    try:
        server = PgServer.start()
    except NoServer as exc:
        if os.environ.get(REQUIRE_PG) == "1":
            pytest.fail(f"{REQUIRE_PG}=1 but no PostgreSQL server could start: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    yield server
    server.stop()


@dataclass(frozen=True)
class Backend:
    """Where a contract test's store lives: `open` gives another store on the same data
    (a reopen after a restart, or a second process's connection)."""

    name: str
    target: str
    server: PgServer | None = None

    async def open(self) -> Store:
        return await open_store(self.target)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "postgres":
        server: PgServer = request.getfixturevalue("pg_server")
        return Backend("postgres", server.url, server)
    return Backend("sqlite", str(tmp_path / STORE_FILE))


@pytest.fixture
async def any_store(backend: Backend) -> AsyncIterator[Store]:
    """A fresh, open store of each backend in turn (PostgreSQL's emptied first)."""
    if backend.server is not None:
        await backend.server.reset()
    s = await backend.open()
    yield s
    await s.close()


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    server.slash = seeding_as_moderator(server)  # type: ignore[method-assign]
    await server.start()
    yield server
    await server.stop()
    assert server.unhandled == [], server.unhandled


@pytest.fixture
async def start_hauntkeeper(fd: FakeDiscord, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[BotFactory]:
    """Start (or restart: a new bot object, the same database) the real bot.

    Any error discord.py only logs (in a button callback, say) or any slash command error
    fails the test, so a broken handler cannot pass by timing out quietly. Scripted
    players click at machine speed, so the per-user click limit is lifted (a test of the
    limit sets its own).
    """
    monkeypatch.setattr(click_limit, "CLICKS", click_limit.ClickLimit(clicks=10**9))
    # A test that fails a delivery retries it itself (resume_games), step by step; the
    # bot's quick retries (2 s on) would race it on a loaded machine. A test of them
    # sets its own (tests/test_retry_soon.py).
    monkeypatch.setattr(HauntBot, "retry_soon", ())
    running: list[tuple[HauntBot, asyncio.Task[None]]] = []
    failures: list[BaseException] = []
    db = tmp_path / "hauntkeeper.sqlite3"

    async def start() -> HauntBot:
        if running:
            bot, task = running.pop()
            await stop_bot(bot, task)
        bot = HauntBot(db_path=str(db), sync_commands=False)

        original = bot.on_app_command_error

        async def on_error(interaction: discord.Interaction,
                           error: discord.app_commands.AppCommandError) -> None:
            failures.append(error)
            await original(interaction, error)

        task = await start_bot(bot, fd)
        bot.tree.on_error = on_error  # type: ignore[method-assign]
        running.append((bot, task))
        return bot

    ours = ErrorCollector()
    logging.getLogger().addHandler(ours)
    try:
        with discord_errors() as logged:
            yield start
            while running:
                bot, task = running.pop()
                await stop_bot(bot, task)
    finally:
        logging.getLogger().removeHandler(ours)
    assert failures == [], failures
    assert logged == [], [r.getMessage() for r in logged]
    assert ours.records == [], [r.getMessage() for r in ours.records]


class ErrorCollector(logging.Handler):
    """Our own handlers log unexpected exceptions instead of raising: collect them."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("discord"):
            self.records.append(record)


@pytest.fixture
async def stores(pg_server: PgServer) -> AsyncIterator[tuple[HeldStore, HeldStore]]:
    """Two processes' stores on one fresh PostgreSQL database (tests/pg_pair.py)."""
    await pg_server.reset()
    first, second = HeldStore(pg_server.url), HeldStore(pg_server.url, lock_wait=0.3)
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()
