"""The heartbeat and `python -m bot health` (the container's HEALTHCHECK), and a clean
stop on SIGTERM (`docker stop`): the real bot in its own process against the fake
Discord beats while connected, and on SIGTERM closes its store, removes its heartbeat
and exits 0."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot import health
from bot.__main__ import main
from tests.fakediscord import FakeDiscord
from tests.test_e2e_crash import ROOT, BotProcess


def test_a_fresh_beat_is_healthy_and_a_stale_missing_or_garbled_one_is_not(
        tmp_path: Path) -> None:
    path = tmp_path / "beat"
    assert not health.healthy(path) and health.age(path) is None
    health.beat(path, now=1000.0)
    assert health.age(path, now=1010.0) == pytest.approx(10.0)
    assert health.healthy(path, now=1000.0 + health.FRESH - 1)
    assert not health.healthy(path, now=1000.0 + health.FRESH + 1)
    path.write_text("not a time\n")
    assert not health.healthy(path)
    assert not path.with_name("beat.tmp").exists()  # the scratch file was renamed away


def test_the_health_command_exits_0_only_on_a_fresh_beat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sub" / "beat"
    monkeypatch.setenv("HAUNTKEEPER_HEALTH_FILE", str(path))
    assert main(["health"]) == 1
    assert "no heartbeat" in capsys.readouterr().err
    health.beat(path)
    assert main(["health"]) == 0
    health.beat(path, now=time.time() - health.FRESH - 60)
    assert main(["health"]) == 1
    assert "s old" in capsys.readouterr().err


def test_the_heartbeat_goes_beside_the_database_by_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HAUNTKEEPER_HEALTH_FILE", raising=False)
    monkeypatch.setenv("HAUNTKEEPER_DB", str(tmp_path / "games.sqlite3"))
    health.beat(tmp_path / "games.sqlite3-heartbeat")
    assert main(["health"]) == 0


async def test_the_heartbeat_beats_only_while_connected_and_stops_with_its_file(
        tmp_path: Path) -> None:
    path = tmp_path / "beat"
    connected = asyncio.Event()
    heart = health.Heartbeat(path, connected.is_set, interval=0.01)
    heart.start()
    await asyncio.sleep(0.05)
    assert not path.exists()  # not connected yet: no beat
    connected.set()
    for _ in range(500):
        if path.exists():
            break
        await asyncio.sleep(0.01)
    assert health.healthy(path)
    await heart.stop()
    assert not path.exists()


async def _health_exit(env: dict[str, str], cwd: Path) -> int:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", cwd=cwd, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await proc.wait()


async def test_sigterm_stops_the_real_bot_cleanly(fd: FakeDiscord, tmp_path: Path) -> None:
    bot = BotProcess(fd, tmp_path)
    await bot.start()
    assert bot.proc is not None
    db = tmp_path / "hauntkeeper.sqlite3"
    beat = tmp_path / "hauntkeeper.sqlite3-heartbeat"
    env = dict(os.environ, PYTHONPATH=str(ROOT), HAUNTKEEPER_DB=str(db))
    env.pop("HAUNTKEEPER_HEALTH_FILE", None)
    try:
        await fd.wait_until(beat.exists, timeout=20, what="the first heartbeat")
        assert await _health_exit(env, tmp_path) == 0
        bot.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(bot.proc.wait(), 20)
    finally:
        if bot.proc.returncode is None:  # the signal went unheeded: do not leave it running
            await bot.stop()
    log = bot.logs[-1].read_text()
    assert code == 0, log
    assert "stopped on a signal" in log and bot.errors() == []
    assert not beat.exists() and await _health_exit(env, tmp_path) == 1
    assert db.exists() and not Path(f"{db}-wal").exists()  # every connection closed
