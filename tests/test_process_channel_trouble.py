"""kill -9 of the real bot (`python -m bot`, tests/test_e2e_crash.py's `BotProcess`)
against the fake Discord while one of several channels is in trouble, then a restart on
the same file: one channel's routes answered with a storm of 429s (Discord's rate limit,
https://discord.com/developers/docs/topics/rate-limits), or its permissions taken away
while its move is owed, and another channel's move in flight at the kill.

What must hold (README): "Many channels play at once: nothing one channel does may fail
or slow another"; a move saved is shown, once (docs/architecture.md: "nothing is ever
saved while a delivery is owed: what is owed always goes out under the key of the
version it was saved at", and each message's nonce makes a resend show once). So after
the restart every channel's moves appear exactly once and in order, the troubled
channel's owed move as soon as Discord takes it, and the others play on at once.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from functools import partial

import pytest

from bot.store import POSTS_BACK, POSTS_REFUSED, open_store
from bot.texts import say
from tests.channel_trouble_helpers import Game
from tests.e2e_helpers import game_components, latest_turn, press_move, turn_messages, turn_posts
from tests.fakediscord import FakeDiscord, InteractionHandle
from tests.fakediscord.faults import Fault
from tests.test_e2e_crash import BotProcess, pings
from tests.test_e2e_crash import bot as bot  # the fixture: the process, its log checked

pytestmark = pytest.mark.slow

ANSWER = 20.0  # a click's answer from the process, a loaded machine included
# An untroubled channel's move, clicked and shown: at once, whatever the troubled one
# waits on (well under the seconds a storm holds it; generous for a loaded machine).
PROMPT = 3.0
VERSION = re.compile(r"^hks?:\d+:(\d+):")  # a control's custom_id: the version it was drawn at


async def games(fd: FakeDiscord, count: int) -> list[Game]:
    """`count` channels, each a started two-player Cthulhu game of its own players,
    opened and started through the bot process by slash commands."""
    out: list[Game] = []
    for n in range(count):
        channel = fd.add_channel(f"table-{n}")
        first, second = fd.add_user(f"p{n}a"), fd.add_user(f"p{n}b")
        await (await fd.slash(first, channel, "game", "new", game="cthulhu",
                              seed=40 + n)).wait(ANSWER, settle=False)
        await (await fd.slash(second, channel, "game", "join")).wait(ANSWER, settle=False)
        await (await fd.slash(first, channel, "game", "start")).wait(ANSWER, settle=False)
        await fd.wait_until(partial(turn_posts, fd, channel), timeout=ANSWER,
                            what=f"channel {n}'s first turn")
        out.append(Game(channel, {first.id: first, second.id: second}))
    return out


async def play(fd: FakeDiscord, game: Game) -> InteractionHandle:
    """The player to move plays the live message's first control; the click answered."""
    handle = await press_move(fd, game.mover(fd), latest_turn(fd, game.channel))
    return await handle.wait(ANSWER, settle=False)


async def press_stale(fd: FakeDiscord, game: Game) -> InteractionHandle:
    """The player to move presses the live message's first control, drawn before the
    game's owed move: stale, it sets off the owed delivery (and plays nothing)."""
    message = latest_turn(fd, game.channel)
    comp = game_components(message)[0]
    values = [comp["options"][0]["value"]] if comp["type"] == 3 else None
    return await fd.click(game.mover(fd), message, comp["custom_id"]) if values is None \
        else await fd.select(game.mover(fd), message, comp["custom_id"], values)


async def shown_within(fd: FakeDiscord, game: Game, count: int, seconds: float) -> None:
    """The channel shows its `count`th delivery within `seconds`."""
    await fd.wait_until(lambda: turn_posts(fd, game.channel) >= count, timeout=seconds,
                        what=f"channel {game.channel}'s delivery {count}")


async def plays_at_once(fd: FakeDiscord, game: Game) -> None:
    """An untroubled channel's move is answered and shown within PROMPT seconds."""
    count = turn_posts(fd, game.channel) + 1
    loop = asyncio.get_running_loop()
    began = loop.time()
    await play(fd, game)
    await shown_within(fd, game, count, PROMPT)
    took = loop.time() - began
    assert took < PROMPT, f"channel {game.channel} took {took:.2f}s"


def versions_shown(fd: FakeDiscord, channel: int) -> list[int]:
    """The table versions the channel's turn messages showed, each posting and edit in
    the order made (read from their controls' custom_ids; a version shown by a post and
    then left on it by an edit that only took controls away counts once)."""
    out: list[int] = []
    for message in turn_messages(fd, channel):
        for version in (*message.history, message.snapshot()):
            found = {int(m[1]) for c in _ids(version) if (m := VERSION.match(c))}
            if len(found) == 1 and (not out or out[-1] != min(found)):
                out.append(min(found))
    return out


def _ids(version: dict[str, object]) -> list[str]:
    ids: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            custom = node.get("custom_id")
            if isinstance(custom, str):
                ids.append(custom)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(version.get("components"))
    return ids


def in_order(fd: FakeDiscord, game: Game) -> None:
    """Each version the channel showed is newer than the one before: nothing shown twice,
    nothing older shown after something newer."""
    shown = versions_shown(fd, game.channel)
    assert shown == sorted(set(shown)), (game.channel, shown)


@dataclass
class Storm:
    """Discord answering every message route of one channel with a 429 until `end`."""

    faults: list[Fault]

    @classmethod
    def on(cls, fd: FakeDiscord, channel: int, retry_after: float = 1.0) -> Storm:
        return cls([fd.faults.rate_limited(method, path, times=10**6, retry_after=retry_after)
                    for method, path in (("PATCH", rf"/channels/{channel}/messages/\d+"),
                                         ("POST", rf"/channels/{channel}/messages"),
                                         ("DELETE", rf"/channels/{channel}/messages/\d+"))])

    @property
    def hits(self) -> int:
        """Requests the storm answered."""
        return sum(f.hits for f in self.faults)

    def end(self) -> None:
        for fault in self.faults:
            fault.times = 0


async def test_a_kill_while_one_channel_waits_out_a_429_storm_loses_and_doubles_nothing(
        fd: FakeDiscord, bot: BotProcess) -> None:
    """Channel A's move is saved but its board refused (owed), and its catch-up meets a
    storm of 429s; channel B's next move is on its way to Discord; the process is killed.
    Restarted, the storm still on: B's move is shown once by the start's catch-up, C
    plays at once; the storm over, A's owed move is shown once, and A plays on. Every
    channel shows each version once, in order."""
    await bot.start()
    troubled, held, free = await games(fd, 3)
    posts = {g.channel: turn_posts(fd, g.channel) for g in (troubled, held, free)}

    fd.hold_next_edit(troubled.channel).drop()  # Discord refuses the move's board
    owed = await play(fd, troubled)
    assert owed.ephemeral_texts() == [say("delivery_owed")], owed.ephemeral_texts()
    storm = Storm.on(fd, troubled.channel)
    # A click on A's live message (drawn at the version before the owed move: stale)
    # sets off the owed delivery, which meets the storm: its board may go as the
    # click's own answer (an edit of the clicked message), its ping waits on the 429s.
    stale = await press_stale(fd, troubled)
    await fd.wait_until(lambda: storm.hits > 0, timeout=ANSWER,
                        what="the owed delivery met the storm")
    await plays_at_once(fd, held)  # B is not held up by A's storm
    await plays_at_once(fd, free)
    posts[held.channel] += 1
    posts[free.channel] += 1
    await stale.wait(ANSWER, settle=False)  # answered, in time, whatever A waits on

    hold = fd.hold_next_edit(held.channel)  # B's next move: its edit on its way
    await press_move(fd, held.mover(fd), latest_turn(fd, held.channel))
    await asyncio.wait_for(hold.reached.wait(), ANSWER)
    await bot.kill()  # A's delivery still in the storm
    hold.drop()  # cut off with the process: Discord changed nothing
    assert turn_posts(fd, troubled.channel) <= posts[troubled.channel] + 1
    assert turn_posts(fd, held.channel) == posts[held.channel]

    await bot.start()  # the storm still on
    await shown_within(fd, held, posts[held.channel] + 1, ANSWER)  # B's lost move
    await plays_at_once(fd, free)
    posts[free.channel] += 1

    storm.end()
    # A's owed delivery goes out at A's next click (or the 30 s retry): a stale click
    # if its board is not shown yet, else the next move, which sends what is owed first.
    if turn_posts(fd, troubled.channel) == posts[troubled.channel]:
        await (await press_stale(fd, troubled)).wait(ANSWER, settle=False)
    await shown_within(fd, troubled, posts[troubled.channel] + 1, ANSWER)
    await play(fd, troubled)  # and A plays on
    await shown_within(fd, troubled, posts[troubled.channel] + 2, ANSWER)
    await plays_at_once(fd, held)
    await fd.settle(quiet=0.5, timeout=20)

    assert turn_posts(fd, troubled.channel) == posts[troubled.channel] + 2
    assert turn_posts(fd, held.channel) == posts[held.channel] + 2
    assert turn_posts(fd, free.channel) == posts[free.channel]
    for game in (troubled, held, free):
        in_order(fd, game)
        pinged = pings(fd, game.channel)  # the one ping, to the player to move
        assert len(pinged) == 1 and f"<@{game.mover(fd).id}>" in pinged[0].content, \
            (game.channel, [m.content for m in pinged])
    assert fd.late_answers == []


async def test_a_kill_while_one_channel_refuses_the_bot_delivers_its_move_once_it_may(
        fd: FakeDiscord, bot: BotProcess) -> None:
    """Channel A's moderators take Send Messages from the bot: A's move is saved and owed,
    its mover told why; channel B's next move is on its way to Discord; the process is
    killed. Restarted, the permission still missing: B's move is shown once, C plays at
    once, A shows nothing and its moderators are not told again (one notice per outage,
    cogs/outlet_refusals.py). The permission given back, A's next click shows the owed
    move, once, and A plays on; the outage closes with one notice."""
    await bot.start()
    troubled, held, free = await games(fd, 3)
    posts = {g.channel: turn_posts(fd, g.channel) for g in (troubled, held, free)}

    fd.set_bot_permissions(troubled.channel, deny=["send_messages"])
    await asyncio.sleep(0.5)  # the gateway's CHANNEL_UPDATE reaches the bot's cache
    refused = await play(fd, troubled)
    assert refused.ephemeral_texts()[-1] == say(
        "permissions.refused", channel=f"<#{troubled.channel}>", missing="Send Messages"), \
        refused.ephemeral_texts()
    await plays_at_once(fd, held)
    posts[held.channel] += 1

    hold = fd.hold_next_edit(held.channel)  # B's next move: its edit on its way
    await press_move(fd, held.mover(fd), latest_turn(fd, held.channel))
    await asyncio.wait_for(hold.reached.wait(), ANSWER)
    await bot.kill()
    hold.drop()

    await bot.start()  # Send Messages still denied in A
    await shown_within(fd, held, posts[held.channel] + 1, ANSWER)  # B's lost move
    await plays_at_once(fd, free)
    posts[free.channel] += 1
    await fd.wait_until(lambda: "tended" in bot.logs[-1].read_text(), timeout=ANSWER,
                        what="the start's catch-up pass")
    assert turn_posts(fd, troubled.channel) == posts[troubled.channel]

    fd.clear_bot_permissions(troubled.channel)
    await asyncio.sleep(0.5)
    await (await press_stale(fd, troubled)).wait(ANSWER, settle=False)
    await shown_within(fd, troubled, posts[troubled.channel] + 1, ANSWER)  # the owed move
    await play(fd, troubled)
    await shown_within(fd, troubled, posts[troubled.channel] + 2, ANSWER)
    await plays_at_once(fd, held)
    await fd.settle(quiet=0.5, timeout=20)

    assert turn_posts(fd, troubled.channel) == posts[troubled.channel] + 2
    assert turn_posts(fd, held.channel) == posts[held.channel] + 2
    assert turn_posts(fd, free.channel) == posts[free.channel]
    for game in (troubled, held, free):
        in_order(fd, game)
        pinged = pings(fd, game.channel)
        assert len(pinged) == 1 and f"<@{game.mover(fd).id}>" in pinged[0].content, \
            (game.channel, [m.content for m in pinged])

    await bot.stop()
    store = await open_store(bot.db)
    try:
        table = await store.load(troubled.channel)
        assert table is not None and table.id is not None
        kinds = [n.kind for n in await store.notices(table.id)]
    finally:
        await store.close()
    assert kinds == [POSTS_REFUSED, POSTS_BACK]  # one outage, told once across the kill
