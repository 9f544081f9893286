"""One channel's game losing what Discord held for it (the channel deleted: 404 Unknown
Channel 10003; the live message deleted by a moderator: 404 Unknown Message 10008) or
rate-limited on its own route (a 429 with retry_after), while other channels play side
by side: through the real discord.py against the fake Discord.

What must hold (README): "Many channels play at once: nothing one channel does may fail
or slow another"; a deleted channel's game is closed and nothing more is tried there; a
deleted live message comes back as a new one with the next move; a rate-limited
channel's move is shown once, later.
"""

from __future__ import annotations

import asyncio

from bot.core.actions import Action
from cogs.components import STEP
from tests.channel_trouble_helpers import (
    delivered,
    games,
    others_play,
    press_first,
    quiet,
    shown,
)
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle


async def test_a_channel_deleted_mid_move_closes_only_its_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The channel is deleted while its move's edit is on its way to Discord: its game
    closes, nothing more is sent there, and the other channels play on at once."""
    bot, (doomed, *others) = await games(fd, start_hauntkeeper)
    hold = fd.hold_next_edit(doomed.channel)
    clicking = asyncio.create_task(
        press_first(fd, doomed.mover(fd), latest_turn(fd, doomed.channel)))
    await asyncio.wait_for(hold.reached.wait(), 5)
    await fd.delete_channel(doomed.channel)
    await others_play(fd, bot, others, rounds=1)
    hold.drop()  # the edit never lands: the channel is gone
    await asyncio.gather(clicking, return_exceptions=True)
    await fd.settle()
    assert await bot.store.load(doomed.channel) is None
    ended = await bot.store.load_latest(doomed.channel)
    assert ended is not None and ended.status == "over"
    asked = sum(1 for r in fd.requests if f"/channels/{doomed.channel}" in r)
    await bot.resume_games(ai_turns=False)
    await others_play(fd, bot, others, rounds=1)
    await fd.settle()
    assert sum(1 for r in fd.requests if f"/channels/{doomed.channel}" in r) == asked


async def press_first_unwaited(fd: FakeDiscord, user: FakeUser,
                               message: FakeMessage) -> InteractionHandle:
    """The press that plays a move: a two-step choice's first half waited for, its
    second half (or a one-step control) sent and not waited for."""
    comp = game_components(message)[0]
    if comp["type"] == 2:
        return await fd.click(user, message, comp["custom_id"])
    value = comp["options"][0]["value"]
    handle = await fd.select(user, message, comp["custom_id"], [value])
    if Action.decode(value).kind != STEP:
        return handle
    await handle.wait(5, settle=False)
    private = [m for m in handle.messages if m.ephemeral and game_components(m)][-1]
    return await press_first_unwaited(fd, user, private)


async def test_a_live_message_deleted_unannounced_is_posted_anew_and_others_play(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator deletes the live message and the gateway's word of it is lost: the
    next move's edit meets 10008, and the move is posted as a new live message, once,
    whose controls play; the other channels' moves go on at once meanwhile."""
    bot, (tidied, *others) = await games(fd, start_hauntkeeper)
    old = latest_turn(fd, tidied.channel)
    mover = tidied.mover(fd)
    shown_before = old.snapshot()
    hold = fd.hold_next_edit(tidied.channel)  # the move's edit, on its way
    handle = await press_first_unwaited(fd, mover, old)
    await asyncio.wait_for(hold.reached.wait(), 5)
    fd.message(old.id).deleted = True  # unannounced: no MESSAGE_DELETE
    hold.release.set()  # the edit arrives after the delete: 10008
    await asyncio.gather(fd.settle(), others_play(fd, bot, others, rounds=2))
    assert any(e[2].get("code") == 10008 for e in fd.errors), fd.errors
    assert quiet(handle), handle.ephemeral_texts()
    await shown(bot, tidied.channel)
    new = latest_turn(fd, tidied.channel)
    assert new.id != old.id and new.snapshot() != shown_before
    again = await press_first(fd, tidied.mover(fd), new)
    assert quiet(again)
    await shown(bot, tidied.channel)


async def test_a_429_on_one_channel_s_route_keeps_others_at_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord answers one channel's message routes with 429s (retry_after 1.5 s) and
    its click's answer is held up with them: every other channel's moves are answered and
    shown at once; the limited one is shown once, later."""
    bot, (limited, *others) = await games(fd, start_hauntkeeper)
    posts = turn_posts(fd, limited.channel)
    storms = [fd.faults.rate_limited(method, path, times=2, retry_after=1.5)
              for method, path in (("PATCH", rf"/channels/{limited.channel}/messages/\d+"),
                                   ("POST", rf"/channels/{limited.channel}/messages"))]
    fd.hold_next_edit(limited.channel).drop()  # its next edit fails: owed, then retried
    await press_first(fd, limited.mover(fd), latest_turn(fd, limited.channel))
    retry = asyncio.create_task(bot.resume_games(ai_turns=False))
    await fd.wait_until(lambda: any(s.hits for s in storms), timeout=5, what="a 429")
    await others_play(fd, bot, others, rounds=2)
    await asyncio.wait_for(retry, 15)
    await shown(bot, limited.channel)
    await fd.settle()
    assert turn_posts(fd, limited.channel) == posts + 1
    for game in (limited, *others):
        assert await delivered(bot, game.channel)
    assert fd.nonce_repeats == 0
