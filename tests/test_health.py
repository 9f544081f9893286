"""The heartbeat and `python -m bot health` (the container's HEALTHCHECK), and a clean
stop on SIGTERM (`docker stop`): the real bot in its own process against the fake
Discord beats while connected, and on SIGTERM closes its store, removes its heartbeat
and exits 0; also when its heartbeat cannot be written (logged once, the bot serving
on), and each shard process keeps a beat of its own."""

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


def test_each_shard_range_has_its_own_beat_and_health_checks_every_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = tmp_path / "beat"
    assert health.for_shards(base, None) == base
    assert health.for_shards(base, (0, 1, 2, 3, 6)).name == "beat-shards-0-3,6"
    assert health.for_shards(base, (5,)).name == "beat-shards-5"
    monkeypatch.setenv("HAUNTKEEPER_HEALTH_FILE", str(base))
    a, b = health.for_shards(base, (0, 1)), health.for_shards(base, (2, 3))
    health.beat(a)
    health.beat(b)
    assert health.beats(base) == [a, b]
    assert main(["health"]) == 0
    assert main(["health", "--shards", "2-3", "--shard-count", "4"]) == 0
    health.beat(b, now=time.time() - health.FRESH - 60)  # B stuck, or killed with -9
    assert main(["health"]) == 1
    assert main(["health", "--shards", "0-1", "--shard-count", "4"]) == 0
    b.unlink()  # B stopped cleanly: A alone is the whole truth
    assert main(["health"]) == 0
    assert main(["health", "--shards", "2-3", "--shard-count", "4"]) == 1
    assert main(["health", "--shards", "9", "--shard-count", "4"]) == 2


async def test_a_heartbeat_that_cannot_be_written_is_logged_and_never_blocks_the_stop(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    path = tmp_path / "a-file" / "beat"
    heart = health.Heartbeat(path, lambda: True, interval=0.01)
    heart.start()
    for _ in range(500):
        if len([r for r in caplog.records if "heartbeat" in r.getMessage()]) >= 3:
            break
        await asyncio.sleep(0.01)
    said = [r for r in caplog.records if "heartbeat" in r.getMessage()]
    assert [r.levelname for r in said[:3]] == ["ERROR", "WARNING", "WARNING"]
    await asyncio.wait_for(heart.stop(), 5)  # before the fix: re-raised the task's error


async def test_sigterm_stops_cleanly_though_the_heartbeat_cannot_be_written(
        fd: FakeDiscord, tmp_path: Path) -> None:
    """As in the image on PostgreSQL before the fix: the heartbeat's folder is not
    writable. The bot says so once, goes on serving, and on SIGTERM closes and exits 0
    (it used to print "could not start" and hang until SIGKILL)."""
    (tmp_path / "a-file").write_text("not a folder")
    bot = BotProcess(fd, tmp_path,
                     env={"HAUNTKEEPER_HEALTH_FILE": str(tmp_path / "a-file" / "beat")})
    await bot.start()
    assert bot.proc is not None
    log = bot.logs[-1]
    try:
        await fd.wait_until(lambda: "the heartbeat" in log.read_text(), timeout=20,
                            what="the heartbeat's failure logged")
        channel = fd.add_channel("haunted")
        alice = fd.add_user("alice")
        lobby = (await (await fd.slash(alice, channel, "game", "new", game="cthulhu")
                        ).wait(15)).response
        assert lobby is not None  # it serves on
        bot.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(bot.proc.wait(), 20)
    finally:
        if bot.proc.returncode is None:
            await bot.stop()
    text = log.read_text()
    assert code == 0, text
    assert "stopped on a signal" in text and "could not start" not in text
    assert text.count("Traceback") == 1 and text.count(" ERROR ") == 1  # said once


async def test_two_shard_processes_in_one_folder_keep_a_beat_each(
        fd: FakeDiscord, tmp_path: Path) -> None:
    """Stopping one leaves the other healthy (they used to share one file, which the
    first stop removed)."""
    beat = tmp_path / "heartbeat"
    a, b = (BotProcess(fd, tmp_path, db=str(tmp_path / f"{name}.sqlite3"), name=name,
                       args=("run", "--shards", shard, "--shard-count", "2"),
                       env={"HAUNTKEEPER_HEALTH_FILE": str(beat)})
            for name, shard in (("a", "0"), ("b", "1")))
    env = dict(os.environ, PYTHONPATH=str(ROOT), HAUNTKEEPER_HEALTH_FILE=str(beat))
    try:
        await a.start()
        await b.start()
        beats = [health.for_shards(beat, (0,)), health.for_shards(beat, (1,))]
        await fd.wait_until(lambda: all(p.exists() for p in beats), timeout=20,
                            what="both beats")
        assert not beat.exists() and await _health_exit(env, tmp_path) == 0
        await a.stop()
        assert not beats[0].exists() and beats[1].exists()
        assert await _health_exit(env, tmp_path) == 0  # B is still healthy
        await b.stop()
        assert await _health_exit(env, tmp_path) == 1
    finally:
        await asyncio.gather(a.stop(), b.stop())
    assert a.errors() == [] and b.errors() == []
