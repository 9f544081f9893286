"""Command sync is an operator's explicit step: `python -m bot sync [--guild ID]` against
the fake Discord registers the commands and exits; a start no longer syncs globally."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.client import HauntBot
from tests.fakediscord import FakeDiscord, running_bot

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60.0  # a cold interpreter imports discord.py, Pillow and the games


async def _sync_cli(fd: FakeDiscord, tmp_path: Path, *args: str) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="fake-token",
               HAUNTKEEPER_DB=str(tmp_path / "unused.sqlite3"),
               HAUNTKEEPER_DISCORD_API=fd.base_url + "/api/v10",
               HAUNTKEEPER_DISCORD_GATEWAY=fd.ws_url)
    env.pop("HAUNTKEEPER_DEV_GUILD", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "sync", *args, cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    return proc.returncode or 0, out.decode(), err.decode()


def _names(fd: FakeDiscord, scope: int | None) -> set[str]:
    return {c["name"] for c in fd.commands.get(scope, [])}


async def test_sync_registers_the_commands_globally_or_in_one_guild(
        fd: FakeDiscord, tmp_path: Path) -> None:
    code, out, err = await _sync_cli(fd, tmp_path)
    assert code == 0, err
    names = _names(fd, None)
    assert {"game", "help", "betrayal", "cthulhu", "evilbelow"} <= names
    assert out.strip() == f"synced {len(names)} commands globally"
    assert fd.identify_count == 0  # it logs in over REST only: no gateway session
    code, out, err = await _sync_cli(fd, tmp_path, "--guild", str(fd.guild_id))
    assert code == 0, err
    assert _names(fd, fd.guild_id) == names
    assert out.strip() == f"synced {len(names)} commands to guild {fd.guild_id}"


async def test_sync_clear_removes_a_guilds_copy_or_the_global_commands(
        fd: FakeDiscord, tmp_path: Path) -> None:
    """A guild sync beside the global one shows every command twice there; --clear
    takes the guild's copy away and leaves the global ones."""
    for args in ((), ("--guild", str(fd.guild_id))):
        assert (await _sync_cli(fd, tmp_path, *args))[0] == 0
    names = _names(fd, None)
    assert _names(fd, fd.guild_id) == names
    code, out, err = await _sync_cli(fd, tmp_path, "--clear", "--guild", str(fd.guild_id))
    assert code == 0, err
    assert _names(fd, fd.guild_id) == set() and _names(fd, None) == names
    assert out.strip() == f"cleared the commands of guild {fd.guild_id}"
    code, out, err = await _sync_cli(fd, tmp_path, "--clear")
    assert code == 0, err
    assert _names(fd, None) == set()


async def test_a_start_syncs_only_to_the_dev_guild(fd: FakeDiscord, tmp_path: Path) -> None:
    plain = HauntBot(db_path=str(tmp_path / "a.sqlite3"))  # sync_commands left at its default
    async with running_bot(plain, fd, sync=False):
        assert fd.commands.get(None) is None and fd.commands.get(fd.guild_id) is None
    dev = HauntBot(db_path=str(tmp_path / "b.sqlite3"), dev_guild=fd.guild_id)
    async with running_bot(dev, fd, sync=False):
        assert "game" in _names(fd, fd.guild_id) and fd.commands.get(None) is None
