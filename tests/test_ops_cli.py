"""The operator's command line, run as a real subprocess the way an operator meets it:
HAUNTKEEPER_DB refused in one line (exit 2) before anything is created or Discord is
asked, the no-token hint that works, --version, `backup` while the database is written,
and `forget-guild`."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.core.events import Event
from bot.store import SqliteStore
from tests.test_e2e_crash import ROOT
from tests.test_store_contract import GUILD, HOST, new_table

# Discord at an address where nothing listens: a bot that logged in before opening its
# store would fail there ("could not start", exit 1) instead of naming the database.
NOWHERE = "http://127.0.0.1:9/api/v10"


def _cli(*args: str, cwd: Path, path: str | None = None,
         **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "HAUNTKEEPER_", "PYTHON", "XDG_"))}
    env.update(HOME=str(cwd), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               HAUNTKEEPER_DISCORD_API=NOWHERE, **settings)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _one_line(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("value, says", [
    ("sqlite:///hk.db", "sqlite://"),
    ("mysql://u:hunter2@host/db", "mysql://"),
    ("postgresql://u:hunter2@host:port/db", "port must be a number"),
])
def test_a_database_url_of_another_kind_stops_the_start_in_one_line(
        tmp_path: Path, value: str, says: str) -> None:
    line = _one_line(_cli(cwd=tmp_path, DISCORD_TOKEN="t", HAUNTKEEPER_DB=value))
    assert "HAUNTKEEPER_DB" in line and says in line and "hunter2" not in line
    assert list(tmp_path.iterdir()) == []  # no folder named after the URL


def test_a_database_path_that_cannot_be_made_names_itself_before_discord(
        tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    db = tmp_path / "a-file" / "games" / "hk.sqlite3"
    line = _one_line(_cli(cwd=tmp_path, DISCORD_TOKEN="t", HAUNTKEEPER_DB=str(db)))
    assert str(db) in line and "HAUNTKEEPER_DB" in line and "not a directory" in line


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """Paths made read-only even for root (chattr +i: the tests may run as root, whom
    file modes do not stop); skips where the file system cannot."""
    made: list[Path] = []
    yield made
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def _freeze(path: Path, made: list[Path]) -> None:
    try:
        subprocess.run(["chattr", "+i", str(path)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot make a file read-only here: {exc}")
    made.append(path)


def test_a_read_only_database_file_or_folder_says_so(tmp_path: Path,
                                                     immutable: list[Path]) -> None:
    db = tmp_path / "hk.sqlite3"
    with sqlite3.connect(db) as made:
        made.execute("CREATE TABLE t (x)")
    made.close()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP)
    _freeze(db, immutable)
    line = _one_line(_cli(cwd=tmp_path, DISCORD_TOKEN="t", HAUNTKEEPER_DB=str(db)))
    assert str(db) in line and "HAUNTKEEPER_DB" in line and "read-only" in line
    folder = tmp_path / "locked"
    folder.mkdir()
    _freeze(folder, immutable)
    line = _one_line(_cli(cwd=tmp_path, DISCORD_TOKEN="t",
                          HAUNTKEEPER_DB=str(folder / "hk.sqlite3")))
    assert f"its folder {folder} is not writable" in line


def test_the_no_token_hint_is_a_command_that_works_here(tmp_path: Path) -> None:
    bare = _one_line(_cli(cwd=tmp_path, path="/nonexistent"))
    assert f"{sys.executable} -m bot demo" in bare
    command = bare[bare.index(sys.executable):].split(" --game")[0].split()
    shown = subprocess.run([*command, "--help"], cwd=tmp_path, capture_output=True,
                           text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                           timeout=60, check=False)
    assert shown.returncode == 0 and "--players" in shown.stdout  # it runs as printed
    tools = tmp_path / "bin"
    tools.mkdir()
    script = tools / "hauntkeeper"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    assert "run: hauntkeeper demo" in _one_line(_cli(cwd=tmp_path, path=str(tools)))


def test_version_prints_the_projects_version(tmp_path: Path) -> None:
    with open(ROOT / "pyproject.toml", "rb") as file:
        expected = tomllib.load(file)["project"]["version"]
    result = _cli("--version", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == f"hauntkeeper {expected}"


def test_only_version_reads_the_version(tmp_path: Path) -> None:
    """tomllib and importlib.metadata are what --version needs; every other command
    (a `run` above all, whose start bench/bench_startup.py times) parses its arguments
    without them."""
    code = ("import sys; from bot.__main__ import main; main(['health']); "
            "print([n for n in ('tomllib', 'importlib.metadata') if n in sys.modules])")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HAUNTKEEPER_", "PYTHON"))}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=dict(env, PYTHONPATH=str(ROOT)))
    assert done.stdout.strip().splitlines()[-1] == "[]", (done.stdout, done.stderr)


def test_a_command_other_than_run_turns_the_collector_back_on(tmp_path: Path) -> None:
    """main() reads its arguments with the collector off (a run's bot turns it on once
    loaded: tests/test_e2e_startup.py); any other command has it on again."""
    code = ("import gc, sys; from bot.__main__ import main; main(['health']); "
            "print(gc.isenabled())")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HAUNTKEEPER_", "PYTHON"))}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=dict(env, PYTHONPATH=str(ROOT)))
    assert done.stdout.strip().splitlines()[-1] == "True", (done.stdout, done.stderr)


# ---------------------------------------------------------------- backup

async def _games(path: Path, count: int, channel: int = 1) -> None:
    store = SqliteStore(path)
    await store.open()
    try:
        for n in range(count):
            await store.create(new_table(channel + n), [Event("hello")], HOST, None)
    finally:
        await store.close()


def test_a_backup_taken_while_another_connection_writes_opens_and_holds_the_games(
        tmp_path: Path) -> None:
    db = tmp_path / "hk.sqlite3"
    asyncio.run(_games(db, 5))
    stop = threading.Event()
    written: list[int] = []

    def write() -> None:  # another process's writes, as the running bot's would be
        with sqlite3.connect(db, isolation_level=None) as conn:
            conn.execute("PRAGMA busy_timeout=5000")
            while not stop.is_set():
                conn.execute("INSERT INTO played_content VALUES (?, 'k', ?, 0)",
                             (GUILD, f"c{len(written)}"))
                written.append(1)
        conn.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        result = _cli("backup", str(tmp_path / "copy.sqlite3"), cwd=tmp_path,
                      HAUNTKEEPER_DB=str(db))
    finally:
        stop.set()
        writer.join()
    assert result.returncode == 0, result.stderr
    assert "5 games" in result.stdout
    copy = SqliteStore(tmp_path / "copy.sqlite3")

    async def look() -> tuple[int, int]:
        await copy.open()
        try:
            rows = await copy.execute("SELECT COUNT(*) FROM played_content")
            return await copy.count_games(), int(rows[0][0])
        finally:
            await copy.close()

    games, played = asyncio.run(look())
    assert games == 5 and 20 <= played <= len(written)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_a_backup_of_nothing_or_of_postgresql_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    line = _one_line(_cli("backup", str(tmp_path / "b.sqlite3"), cwd=tmp_path,
                          HAUNTKEEPER_DB=str(missing)), code=1)
    assert str(missing) in line and not missing.exists()
    assert not (tmp_path / "b.sqlite3").exists()
    line = _one_line(_cli("backup", "b.sqlite3", cwd=tmp_path,
                          HAUNTKEEPER_DB="postgresql://u:hunter2@db/hk"))
    assert "pg_dump" in line and "hunter2" not in line


def test_forget_guild_deletes_that_servers_games_now(tmp_path: Path) -> None:
    db = tmp_path / "hk.sqlite3"
    asyncio.run(_games(db, 3))
    result = _cli("forget-guild", str(GUILD), cwd=tmp_path, HAUNTKEEPER_DB=str(db))
    assert result.returncode == 0, result.stderr
    assert "3 games" in result.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    conn.close()
    bad = _cli("forget-guild", "soon", cwd=tmp_path, HAUNTKEEPER_DB=str(db))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    typo = tmp_path / "hk.sqlite"
    line = _one_line(_cli("forget-guild", str(GUILD), cwd=tmp_path,
                          HAUNTKEEPER_DB=str(typo)), code=1)
    assert str(typo) in line and not typo.exists()  # no empty database made


def _image_env() -> dict[str, str]:
    """The ENV the Dockerfile sets (KEY=value pairs, continued lines joined)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            env.update(pair.split("=", 1) for pair in line[4:].split())
    return env


def test_the_images_heartbeat_lands_where_its_user_may_write_on_either_backend() -> None:
    """The image's working folder /app is root's, its user is not: the beat must go to
    the /data volume (SQLite) or the temporary folder (PostgreSQL), never a relative
    path that the working folder would resolve."""
    env = dict(_image_env(), DISCORD_TOKEN="t")
    assert env["HAUNTKEEPER_DB"].startswith("/data/")
    sqlite_beat = load_settings(env, ()).health_file or ""
    assert sqlite_beat.startswith("/data/")
    env["HAUNTKEEPER_DB"] = "postgresql://hk:secret@db/hk"
    pg_beat = Path(load_settings(env, ()).health_file or "")
    assert pg_beat.is_absolute() and pg_beat.parent == Path(tempfile.gettempdir())
