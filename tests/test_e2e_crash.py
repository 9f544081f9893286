"""kill -9 between the save and the post: the real bot, in its own process, against the
fake Discord, killed while its post is in flight and started again on the same file.

Every post arrives exactly once (the DMs too), and after the restart the newest
controls work. Two moments are tried: the post's request reached Discord but its answer
never came back (Discord made the message: the resend, under the same nonce, must not
make another), and the request never reached Discord (the resend must make it).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.texts import say
from cogs import reply
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    latest_turn,
    open_and_start,
    press_move,
    to_move,
    turn_messages,
    turn_posts,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 30.0  # a cold interpreter imports discord.py, Pillow and the games


class BotProcess:
    """`python -m bot` as an operator runs it, pointed at the fake Discord."""

    def __init__(self, fd: FakeDiscord, workdir: Path, *, db: str | None = None,
                 args: tuple[str, ...] = (), name: str = "bot",
                 env: dict[str, str] | None = None) -> None:
        """`db`: HAUNTKEEPER_DB (a file in `workdir` if None); `args`: after `-m bot`;
        `env`: more settings."""
        self.fd = fd
        self.workdir = workdir
        self.db = db or str(workdir / "hauntkeeper.sqlite3")
        self.args = args
        self.name = name
        self.env = env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.logs: list[Path] = []

    async def start(self, *, ready: bool = True) -> None:
        """Start it; `ready=False` returns as soon as it has identified on the gateway,
        when it already serves clicks but its catch-up pass (after READY's guilds, about
        2 s later) has not begun."""
        identified = self.fd.identify_count
        log = self.workdir / f"{self.name}-{len(self.logs)}.log"
        self.logs.append(log)
        env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="fake-token",
                   HAUNTKEEPER_DEV_GUILD=str(self.fd.guild_id),  # a start syncs only there
                   HAUNTKEEPER_DB=self.db,
                   HAUNTKEEPER_DISCORD_API=self.fd.base_url + "/api/v10",
                   HAUNTKEEPER_DISCORD_GATEWAY=self.fd.ws_url, **self.env)
        with open(log, "wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", *self.args, cwd=self.workdir, env=env,
                stdout=out, stderr=asyncio.subprocess.STDOUT)
        await self.fd.wait_until(lambda: self.fd.identify_count > identified
                                 and self.fd.command("game") is not None
                                 and (not ready or "ready as" in log.read_text()),
                                 timeout=START_TIMEOUT, what="the bot connected")

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)  # no cleanup, no close: a crash
        await self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()
            self.proc = None

    def errors(self) -> list[str]:
        return [line for log in self.logs for line in log.read_text().splitlines()
                if " ERROR " in line or "Traceback" in line]


@pytest.fixture
async def bot(fd: FakeDiscord, tmp_path: Path) -> AsyncIterator[BotProcess]:
    process = BotProcess(fd, tmp_path)
    try:
        yield process
    finally:
        await process.stop()
    assert process.errors() == []


def posts_saying(fd: FakeDiscord, channel: int, text: str) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel) if text in m.content]


async def wait_for_turn_post(fd: FakeDiscord, channel: int, count: int) -> FakeMessage:
    await fd.wait_until(lambda: turn_posts(fd, channel) >= count, timeout=20,
                        what=f"turn post {count}")
    return latest_turn(fd, channel)


async def click_first(fd: FakeDiscord, user: FakeUser, message: FakeMessage, *,
                      answered: bool = True) -> None:
    """Play the message's first control; `answered`: wait for the click's answer (not
    when the test holds the edit: the click on the live message is answered by that
    edit, cogs/reply.py)."""
    handle = await press_move(fd, user, message)
    if answered:
        await handle.wait(15, settle=False)


@dataclass
class Lobby:
    """A Cthulhu lobby alice opened and bob joined, in a new channel: ready to start."""

    channel: int
    alice: FakeUser
    by_id: dict[int, FakeUser]
    message: FakeMessage
    start_id: str


async def two_seat_lobby(fd: FakeDiscord, bot: BotProcess, seed: int) -> Lobby:
    """Start the bot process, open a lobby and seat two: the e2e fault tests' first
    steps, written once."""
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    await bot.start()
    lobby = (await (await fd.slash(alice, channel, "game", "new", game="cthulhu",
                                   seed=seed)).wait(20, settle=False)).response
    assert lobby is not None
    join_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.join"))
    await (await fd.click(bob, lobby, join_id)).wait(20, settle=False)
    await fd.wait_until(lambda: "2/" in (fd.message(lobby.id).embeds or [{}])[0]
                        .get("footer", {}).get("text", ""), timeout=10, what="two seated")
    start_id = next(c for c in fd.message(lobby.id).custom_ids()
                    if c.endswith(":lobby.start"))
    return Lobby(channel, alice, {u.id: u for u in (alice, bob)}, lobby, start_id)


async def test_a_kill_between_save_and_post_delivers_every_post_once(
        fd: FakeDiscord, bot: BotProcess) -> None:
    channel = fd.add_channel("haunted")
    alice, bob, carol = (fd.add_user(n) for n in ("alice", "bob", "carol"))
    by_id = {u.id: u for u in (alice, bob, carol)}
    await bot.start()
    opened = await (await fd.slash(alice, channel, "game", "new", game="cthulhu",
                                   seed=21)).wait(15, settle=False)
    lobby = opened.response
    assert lobby is not None
    join_id = next(c for c in lobby.custom_ids() if c.endswith(":lobby.join"))
    for user in (bob, carol):
        await (await fd.click(user, lobby, join_id)).wait(15, settle=False)
    await fd.wait_until(lambda: "3/" in (fd.message(lobby.id).embeds or [{}])[0]
                        .get("footer", {}).get("text", ""), timeout=10, what="three seated")

    # 1. The start's post reaches Discord, but the bot dies before it hears back. The
    #    secrets went by DM first.
    hold = fd.hold_next_send(channel, after=True)
    start_id = next(c for c in fd.message(lobby.id).custom_ids() if c.endswith(":lobby.start"))
    await fd.click(alice, lobby, start_id)
    await asyncio.wait_for(hold.reached.wait(), 20)
    await bot.kill()
    hold.release.set()  # Discord answers a socket no one holds any more
    dms = {u.id: len(fd.dms(u)) for u in (alice, bob, carol)}
    assert all(dms.values())  # each secret arrived before the crash
    assert len(turn_messages(fd, channel)) == 1
    await bot.start()
    await fd.wait_until(lambda: fd.nonce_repeats >= 1, timeout=20,
                        what="the bot delivered the start again")
    await fd.settle(quiet=0.5, timeout=20)
    assert len(turn_messages(fd, channel)) == 1  # Discord kept the first one
    assert {u.id: len(fd.dms(u)) for u in (alice, bob, carol)} == dms  # no secret twice
    first = latest_turn(fd, channel)

    # 2. The newest controls work after the restart; this move's edit of the live message
    #    never reaches Discord before the crash.
    mover = by_id[to_move(first) or 0]
    before = first.content
    hold = fd.hold_next_edit(channel)
    await click_first(fd, mover, first, answered=False)
    await asyncio.wait_for(hold.reached.wait(), 20)
    await bot.kill()
    hold.drop()  # the request was cut off: Discord changed nothing
    await asyncio.sleep(0.2)
    assert turn_posts(fd, channel) == 1 and fd.message(first.id).content == before
    await bot.start()
    second = await wait_for_turn_post(fd, channel, 2)
    await fd.settle(quiet=0.5, timeout=20)
    assert turn_posts(fd, channel) == 2  # the lost edit, once
    assert second.id == first.id and to_move(second) not in (None, mover.id)
    assert len(pings(fd, channel)) == 1  # the next player's, the first one deleted

    # 3. ...and its buttons are the live ones; an edit Discord made but the bot never
    #    heard of is made again, the same.
    hold = fd.hold_next_edit(channel, after=True)
    await click_first(fd, by_id[to_move(second) or 0], second, answered=False)
    await asyncio.wait_for(hold.reached.wait(), 20)
    made = fd.message(first.id).content
    await bot.kill()
    hold.release.set()
    await bot.start()
    await fd.settle(quiet=0.5, timeout=20)
    assert turn_posts(fd, channel) == 3
    assert fd.message(first.id).content == made and turn_messages(fd, channel) == [second]
    assert len(pings(fd, channel)) == 1


def pings(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel) if "it's your turn:" in m.content]


async def test_a_post_discord_refuses_is_owed_said_and_sent_later(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord refuses the post (a 503): the player hears their move stands and its
    board follows; the retry posts it, once, and its buttons work. The click is
    deferred first (a slow action's path), so the refused edit is the PATCH."""
    monkeypatch.setattr(reply, "PATIENCE", 0.0)
    channel = fd.add_channel("haunted")
    alice, bob = fd.add_user("alice"), fd.add_user("bob")
    by_id = {u.id: u for u in (alice, bob)}
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [alice, bob], "cthulhu", 3)
    first = latest_turn(fd, channel)
    mover = by_id[to_move(first) or 0]

    fd.hold_next_edit(channel).drop()  # the next edit of the live message is refused
    handle = await (await press_move(fd, mover, first)).wait()
    assert handle.ephemeral_texts() == [say("delivery_owed")]
    assert turn_posts(fd, channel) == 1
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq < table.last_seq

    assert await bot.resume_games(ai_turns=False) == 1  # the bot's periodic retry
    await fd.settle()
    posts = turn_messages(fd, channel)
    assert turn_posts(fd, channel) == 2 and to_move(posts[-1]) is not None
    table = await bot.store.load(channel)
    assert table is not None and table.delivered_seq == table.last_seq
    nxt = by_id[to_move(posts[-1]) or 0]
    await click_first(fd, nxt, posts[-1])
    await fd.settle()
    assert turn_posts(fd, channel) == 3
