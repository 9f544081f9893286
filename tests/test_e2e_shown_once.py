"""Nothing shown twice at the Discord layer: a turn reminder sent again after a kill -9,
through the real bot and the fake Discord.

Discord's developer docs, "Create Message": `enforce_nonce` "If true and nonce is
present, it will be checked for uniqueness in the past few minutes. If another message
was created by the same author with the same nonce, that message will be returned and
no new message will be created." bot/timers.py: a firing "takes its row out with what it
did ..., so a process killed half way leaves it to fire again": a reminder that reached
Discord before the kill was sent again after the restart, a second ping. It now goes
under a nonce made from its timer's row (bot/delivery.py's `timer_key`).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from bot import courier
from bot.client import HauntBot
from bot.guild_settings import GuildSettings
from bot.store import REMIND_TIMER, SqliteStore
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, to_move, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.test_e2e_crash import BotProcess
from tests.test_e2e_crash import bot as bot  # the fixture: the process, its log checked
from tests.test_fake_spec import call

# What only a reminder says (the live message's "your turn" ping says the rest too).
REMINDER = say("timers.remind", mention="", elapsed="\0").split("\0")[1]


def reminders(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and REMINDER in m.text]


async def with_reminders(path: str, guild: int) -> None:
    """The server reminds a player after a minute (set before the bot first starts)."""
    store = SqliteStore(path)
    await store.open()
    try:
        await store.set_guild_settings(guild, GuildSettings(remind_minutes=1).to_dict())
    finally:
        await store.close()


def fall_due(path: str) -> None:
    """The reminder's minute is up, while no bot runs."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE turn_timers SET due_at = ? WHERE kind = ?",
                   (time.time() - 1, REMIND_TIMER))


async def test_a_reminder_killed_after_discord_made_it_shows_once(
        fd: FakeDiscord, bot: BotProcess) -> None:
    """The reminder's request reached Discord, which made the message; the process was
    killed before it heard back (its timer row still stored). The restarted bot fires
    the timer again: Discord answers with the first message, and the player is pinged
    once."""
    await with_reminders(bot.db, fd.guild_id)
    channel = fd.add_channel("timed")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    await bot.start()
    await open_and_start(fd, channel, [host, guest], "cthulhu", 21)
    waiting = to_move(latest_turn(fd, channel))
    await fd.settle()
    await bot.stop()
    fall_due(bot.db)

    hold = fd.hold_next_send(channel, after=True)
    await bot.start()  # the timer that fell due meanwhile fires at once
    await asyncio.wait_for(hold.reached.wait(), 20)
    await bot.kill()
    hold.release.set()  # Discord answers a socket no one holds any more
    assert len(reminders(fd, channel)) == 1
    repeats = fd.nonce_repeats

    await bot.start()
    await fd.wait_until(lambda: fd.nonce_repeats > repeats or len(reminders(fd, channel)) > 1,
                        timeout=20, what="the reminder fired again")
    await fd.settle(quiet=0.5, timeout=20)
    [reminder] = reminders(fd, channel)
    assert reminder.pinged == [waiting]
    assert fd.nonce_repeats == repeats + 1  # Discord returned the first one


async def test_a_reminder_sent_again_after_its_mark_keeps_itself(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Killed after the reminder was sent and remembered as the channel's last ping, but
    before its timer row went: the firing again gets the same message back from Discord,
    and must not delete it as "the previous ping" (the outlet deletes the last ping when
    it sends a new one)."""
    channel = fd.add_channel("timed")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start_hauntkeeper()
    await bot.store.set_guild_settings(fd.guild_id, GuildSettings(remind_minutes=1).to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    await open_and_start(fd, channel, [host, guest], "cthulhu", 21)
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    [timer] = await bot.store.timers_of(table.id)
    await bot.timers.stop()  # the test fires it by hand

    claim = bot.store.claim_timer
    killed = []

    async def dies_before_the_claim(t: object) -> None:
        killed.append(t)
        raise RuntimeError("killed before the timer's row went")

    bot.store.claim_timer = dies_before_the_claim  # type: ignore[assignment,method-assign]
    with pytest.raises(RuntimeError):
        await bot.sessions.fire_timer(timer)
    bot.store.claim_timer = claim  # type: ignore[method-assign]
    assert killed and len(reminders(fd, channel)) == 1

    await bot.sessions.fire_timer(timer)  # the restarted process fires it again
    await fd.settle()
    assert len(reminders(fd, channel)) == 1  # the same message, still there
    assert await bot.store.timers_of(table.id) == []


async def test_the_fake_returns_the_first_message_only_under_enforce_nonce(
        fd: FakeDiscord) -> None:
    """The fake keeps Discord's rule as written (see the module's docstring): a nonce
    alone is only echoed back; with `enforce_nonce` a repeat by the same author, in any
    channel, returns the message made first and makes none."""
    general, other = fd.add_channel("general"), fd.add_channel("other")
    path = f"/channels/{general}/messages"
    plain = [await call(fd, "POST", path, {"content": "hi", "nonce": "k.1"}) for _ in (1, 2)]
    assert [status for status, _ in plain] == [200, 200]
    assert plain[0][1]["id"] != plain[1][1]["id"] and fd.nonce_repeats == 0

    body = {"content": "once", "nonce": "k.2", "enforce_nonce": True}
    _, first = await call(fd, "POST", path, body)
    _, again = await call(fd, "POST", path, {**body, "content": "changed"})
    _, elsewhere = await call(fd, "POST", f"/channels/{other}/messages", body)
    assert again["id"] == elsewhere["id"] == first["id"] and again["content"] == "once"
    assert fd.nonce_repeats == 2
    assert [m.text for m in fd.channel_messages(general)] == ["hi", "hi", "once"]
    assert fd.channel_messages(other) == []


async def _a_lobby(fd: FakeDiscord, start_hauntkeeper: BotFactory
                   ) -> tuple[int, FakeUser, HauntBot, FakeMessage, str]:
    """A Cthulhu lobby its host opened: the channel, the host, the bot, the lobby's
    message and its Add AI seat button's custom_id."""
    channel = fd.add_channel("lobby")
    host = fd.add_user("host")
    bot = await start_hauntkeeper()
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu",
                                   seed=3)).wait()).response
    assert lobby is not None
    return channel, host, bot, lobby, next(c for c in lobby.custom_ids()
                                           if c.endswith(":lobby.ai"))


async def test_an_interaction_delivered_twice_acts_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Discord's gateway docs: after a RESUME "the gateway will send the missed events
    in order"; a replay overlapping what the bot had already dispatched hands it the
    same INTERACTION_CREATE (same id and token) again. Discord takes one answer per
    interaction ("Interaction has already been acknowledged", 40060). The lobby's Add AI
    seat button names no version, so the copy added a second AI seat and then failed
    its answer (an ERROR in the log)."""
    channel, host, bot, lobby, add_ai = await _a_lobby(fd, start_hauntkeeper)
    handle = await (await fd.click(host, lobby, add_ai)).wait()
    await fd.dispatch("INTERACTION_CREATE", handle.payload)  # the replayed copy
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None and sum(seat.ai for seat in table.seats) == 1


async def test_a_copy_arriving_before_the_first_is_answered_acts_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The copy comes while the first is still under way (both in one replayed burst):
    one AI seat, and no error."""
    channel, host, bot, lobby, add_ai = await _a_lobby(fd, start_hauntkeeper)
    handle = await fd.click(host, lobby, add_ai)
    await fd.dispatch("INTERACTION_CREATE", handle.payload)
    await handle.wait()
    await fd.settle()
    table = await bot.store.load(channel)
    assert table is not None and sum(seat.ai for seat in table.seats) == 1


def closed_notes(fd: FakeDiscord, channel: int, user: int) -> list[FakeMessage]:
    """The channel's lines saying a DM did not reach `user` (the post's, or a note)."""
    said = say("dm_failed", mention=f"<@{user}>")
    return [m for m in fd.channel_messages(channel) if said in unlinked(m.text)]


async def test_a_dm_that_fails_after_the_post_is_named_in_the_channel_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """bot/courier.py: the post "names whom a DM did not reach"; a whisper still waiting
    on Discord after WHISPER_GRACE is not waited for, and one that then failed (closed
    DMs, 50007) was named nowhere public: only the player's next click heard of it. Now
    the channel is told in the post's own words, naming no secret, once until a DM
    reaches them again."""
    monkeypatch.setattr(courier, "WHISPER_GRACE", 0.0)  # every whisper comes after the post
    channel = fd.add_channel("haunted")
    host, guest = fd.add_user("host", dms_open=False), fd.add_user("guest")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", 21)
    await fd.settle()
    start = latest_turn(fd, channel)
    assert fd.dms(host) == [] and fd.dms(guest)  # each was sent a secret
    assert say("dm_failed", mention=f"<@{host.id}>") not in unlinked(start.text)
    [note] = closed_notes(fd, channel, host.id)  # the late failure, told in the channel
    assert note.id != start.id and note.pinged == []  # named, not pinged
    assert closed_notes(fd, channel, guest.id) == []

    table = await bot.store.load(channel)
    assert table is not None
    await bot.outlet.dms_missed(table, [host.id], key="again")  # still closed: told once
    assert len(closed_notes(fd, channel, host.id)) == 1
    host.dms_open = True  # they open their DMs, and the next one reaches them
    assert await bot.outlet.whisper(table, host.id, "a secret", key="w")
    host.dms_open = False
    await bot.outlet.dms_missed(table, [host.id], key="closed.again")
    assert len(closed_notes(fd, channel, host.id)) == 2  # closed again: told again
