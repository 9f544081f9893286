"""A game in progress through everything Discord's gateway does to a connection, with
the real bot and discord.py against the fake Discord (tests/fakediscord/gateway.py).

Discord's gateway docs (https://discord.com/developers/docs/events/gateway):
- "Discord may send the app a Reconnect (opcode 7) event ... The app should reconnect
  and resume immediately."
- "Invalid Session (opcode 9) ... the inner d key is a boolean that indicates whether
  the session may be resumable"; if not, the app must IDENTIFY a new session.
- "If a client does not receive a heartbeat ACK between its attempts at sending
  heartbeats, this may be due to a failed or 'zombied' connection. The client should
  then immediately terminate the connection ... and reconnect and attempt to Resume."
- "When resuming ... If successful, the gateway will send the missed events in order,
  finishing with a Resumed event": a click made while the bot was away reaches it then,
  and must be answered once (not lost, and not played twice).
- Close codes: "4004 Authentication failed ... 4014 Disallowed intent(s)" are among
  those after which the app must not reconnect: the process says why and ends non-zero.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import HauntBot
from bot.core.actions import Action
from cogs import reply
from cogs.components import STEP
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, press_direct, to_move, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.fakediscord.faults import drop_gateway
from tests.test_e2e_crash import BotProcess
from tests.test_e2e_faults import Game, started

QUICK_BEAT = 250  # ms: HELLO's heartbeat interval here (Discord's is about 41 s)
ZOMBIE_SECONDS = 1.5  # discord.py's heartbeat_timeout here (60 s by default)
EXIT_SECONDS = 20.0  # a refused bot ends well within this


async def no_wait(self: HauntBot, shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 s before an IDENTIFY after the first (Discord's identify
    limit, which the fake does not keep)."""


@pytest.fixture(autouse=True)
def quick_gateway(fd: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    """Short heartbeats, no wait to IDENTIFY again, and clicks deferred first and then
    edited (`Game` of test_e2e_faults.py reads a move's answer so)."""
    fd.heartbeat_interval = QUICK_BEAT
    monkeypatch.setattr(HauntBot, "before_identify_hook", no_wait)
    monkeypatch.setattr(reply, "PATIENCE", 0.0)


def zombie_check_in(bot: HauntBot, seconds: float) -> None:
    """Shorten discord.py's zombie check (`heartbeat_timeout`, a Client option, 60 s
    unless given) on the running connection and the next ones."""
    bot._connection.heartbeat_timeout = seconds
    assert bot.ws is not None and bot.ws._keep_alive is not None
    bot.ws._max_heartbeat_timeout = seconds
    bot.ws._keep_alive.heartbeat_timeout = seconds


async def move_ready(game: Game) -> Callable[[], Awaitable[InteractionHandle]]:
    """The press that plays the next move, made later (not waited for); a two-step
    choice's first half is pressed now, so the later press is its second half."""
    live = game.live
    user = game.users[to_move(live) or 0]
    comp = game_components(live)[0]
    if STEP not in comp["custom_id"] and comp["type"] == 2:
        return lambda: game.fd.click(user, live, comp["custom_id"])
    if comp["type"] == 3 and Action.decode(comp["options"][0]["value"]).kind != STEP:
        return lambda: press_direct(game.fd, user, live)
    first = await (await press_move_first_half(game.fd, user, live, comp)).wait(10)
    private = [m for m in first.messages if m.ephemeral and game_components(m)][-1]
    return lambda: press_direct(game.fd, user, private)


async def press_move_first_half(fd: FakeDiscord, user: FakeUser, live: FakeMessage,
                                comp: dict[str, Any]) -> InteractionHandle:
    if comp["type"] == 2:
        return await fd.click(user, live, comp["custom_id"])
    return await fd.select(user, live, comp["custom_id"], [comp["options"][0]["value"]])


def acknowledged_twice(fd: FakeDiscord) -> list[object]:
    """Discord's answer to a second callback for one interaction (40060), or to one
    after its 3 seconds (10062)."""
    return [e for e in fd.errors if e[2].get("code") in (40060, 10062)]


Fault = Callable[[FakeDiscord, HauntBot], Awaitable[None]]


async def op7(fd: FakeDiscord, bot: HauntBot) -> None:
    await fd.reconnect_bot()


async def op9_resumable(fd: FakeDiscord, bot: HauntBot) -> None:
    await fd.invalidate_session(resumable=True)


async def closed_4000(fd: FakeDiscord, bot: HauntBot) -> None:
    await drop_gateway(fd)


async def cut(fd: FakeDiscord, bot: HauntBot) -> None:
    await drop_gateway(fd, cut=True)


async def zombie(fd: FakeDiscord, bot: HauntBot) -> None:
    zombie_check_in(bot, ZOMBIE_SECONDS)
    fd.stall_gateway()


RESUMABLE: dict[str, Fault] = {"op 7": op7, "op 9 true": op9_resumable,
                               "closed 4000": closed_4000, "socket cut": cut,
                               "missed ACKs": zombie}


@pytest.mark.parametrize("fault", list(RESUMABLE), ids=list(RESUMABLE))
async def test_a_click_and_a_command_made_while_away_are_answered_once_after_resume(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, fault: str) -> None:
    """The bot loses its socket mid-game and comes back by RESUME (the same session: no
    second IDENTIFY); the move pressed and the /game status asked meanwhile are
    replayed to it and each answered once, the move played once, and the newest
    controls play on."""
    game = await started(fd, start_hauntkeeper)
    press = await move_ready(game)
    posts = turn_posts(fd, game.channel)
    identified, resumed = fd.identify_count, fd.resume_count
    async with fd.hold_gateway():
        await RESUMABLE[fault](fd, game.bot)
        await fd.wait_until(lambda: fd._live_session() is None, timeout=10,
                            what="the bot lost its socket")
        move = await press()
        alice = next(iter(game.users.values()))
        status = await fd.slash(alice, game.channel, "game", "status")
    await fd.wait_until(lambda: fd.resume_count > resumed, timeout=10, what="RESUME")
    await move.wait(10)
    await status.wait(10)
    assert move.callback_type is not None and status.callback_type is not None
    assert fd.replayed >= 2 and fd.identify_count == identified
    assert turn_posts(fd, game.channel) == posts + 1  # the move played once
    assert acknowledged_twice(fd) == []
    await game.ends_well()
    assert acknowledged_twice(fd) == []


async def test_a_click_received_just_before_the_socket_is_cut_is_not_played_again(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The click reaches the bot and the socket is cut at once, its answer still under
    way: the RESUME (from the last event the bot saw) does not send it again, so it is
    answered and played once."""
    game = await started(fd, start_hauntkeeper)
    press = await move_ready(game)
    posts = turn_posts(fd, game.channel)
    resumed = fd.resume_count
    move = await press()
    await fd.wait_until(lambda: move.callback_type is not None, what="the click's defer")
    await drop_gateway(fd, cut=True)
    await fd.wait_until(lambda: fd.resume_count > resumed, timeout=10, what="RESUME")
    await move.wait(10)
    await fd.settle()
    assert turn_posts(fd, game.channel) == posts + 1
    assert acknowledged_twice(fd) == []
    await game.ends_well()


async def test_an_invalid_session_not_resumable_identifies_anew_and_the_game_plays_on(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Op 9 with d false: a new IDENTIFY (a new READY, the guilds again); the buttons
    drawn before it and the slash commands work on the new session."""
    game = await started(fd, start_hauntkeeper)
    identified, resumed = fd.identify_count, fd.resume_count
    await fd.invalidate_session(resumable=False)
    await fd.wait_until(lambda: fd.identify_count > identified, timeout=10,
                        what="a new IDENTIFY")
    await fd.wait_until(lambda: game.bot.is_ready() and fd._live_session() is not None,
                        timeout=10, what="ready again")
    assert fd.resume_count == resumed
    alice = next(iter(game.users.values()))
    status = await (await fd.slash(alice, game.channel, "game", "status")).wait(10)
    assert status.callback_type is not None
    await game.ends_well()
    assert latest_turn(fd, game.channel) is not None
    assert acknowledged_twice(fd) == []


SHARDED = ("--shards", "0", "--shard-count", "1")  # discord.py's AutoShardedBot path


@pytest.mark.parametrize("code,reason,args", [(4004, "token", ()), (4014, "intent", ()),
                                              (4014, "intent", SHARDED)],
                         ids=["4004 auth failed", "4014 disallowed intents",
                              "4014 sharded"])
async def test_a_close_code_that_forbids_reconnecting_ends_the_process_saying_why(
        fd: FakeDiscord, tmp_path: Path, code: int, reason: str, args: tuple[str, ...]
        ) -> None:
    """The running bot, in its own process: Discord closes its gateway with a code
    after which it must not reconnect. It says in one line what Discord said (the code
    and what it means) and ends with a failure status, without trying again."""
    bot = BotProcess(fd, tmp_path, args=args)
    await bot.start()
    identified, resumed = fd.identify_count, fd.resume_count
    if code == 4004:
        await fd.revoke_token()
    else:
        await fd.close_gateway(code)
    assert bot.proc is not None
    returncode = await asyncio.wait_for(bot.proc.wait(), EXIT_SECONDS)
    bot.proc = None
    assert returncode != 0
    assert (fd.identify_count, fd.resume_count) == (identified, resumed)  # no retry
    lines = bot.logs[-1].read_text().splitlines()
    told = [line for line in lines if line.startswith("hauntkeeper:")]
    assert len(told) == 1, lines[-20:]
    assert str(code) in told[0] and reason in told[0].lower(), told
    assert "could not start" not in told[0]  # it had started: it stopped
