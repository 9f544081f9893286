"""Turn timers' harder cases through the real discord.py and the fake Discord: a timer a
moderator turned off while it was armed; the AI's takeover (and /gm skip) on a turn of
several decisions (IT: Evil Below: the roll, each die, the end of the turn); a choice
asked out of turn (Eddie's) and a turn played from DMs, each timing its own chooser;
pause and resume; a limit due while the bot was down; many channels due at once, and
channels that cannot be shown keeping the others' timers waiting.

Nobody waits a minute: the timers' due times are moved into the past in the store (as
the minutes going by would), then the dispatcher is woken (tests/test_e2e_timers.py).
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress

import pytest

from bot import table as T
from bot import timers
from bot.client import HauntBot
from bot.core.actions import Action
from bot.courier import owes
from bot.games.evilbelow import sightings
from bot.guild_settings import AI_PLAYS, SKIP, GuildSettings
from bot.store import END_TIMER, REMIND_TIMER, Table
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.evil_below_helpers import pennywise_jumps_to_eddie_then_leaves
from tests.fakediscord import FakeDiscord, FakeUser
from tests.helpers import team_game
from tests.test_e2e_timers import fall_due, reminders, started_with_timers, wait_until

TIMED = GuildSettings(remind_minutes=1, act_minutes=2, timer_end=AI_PLAYS)
RAN_OUT = (say("timers.ai_plays", name="\0").split("\0")[0],
           say("timers.skip_by_ai", name="\0").split("\0")[0])


async def loaded(bot: HauntBot, channel: int) -> Table:
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    return table


async def let_fall_due(fd: FakeDiscord, bot: HauntBot, channel: int, kind: str, *,
                       moves: bool = False) -> None:
    """The timer's minutes are up; the dispatcher claims it (its row goes) and does what
    it does: a reminder's post (which `settle` waits for), or, `moves`, the turn's save
    (waited for) and post."""
    table = await loaded(bot, channel)
    armed = {t.kind for t in await bot.store.timers_of(table.id or 0)
             if t.version == table.version}
    assert kind in armed
    await fall_due(bot, kind)
    bot.timers.wake()
    for _ in range(500):
        now = await bot.store.timers_of(table.id or 0)
        claimed = not any(t.kind == kind and t.version == table.version for t in now)
        if claimed and (not moves or (await loaded(bot, channel)).version > table.version):
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError("the timer was never claimed, or the turn never moved")
    await fd.settle()


async def fire_now(fd: FakeDiscord, bot: HauntBot, channel: int, kind: str) -> None:
    """The timer as its minutes run out, fired where the dispatcher fires it, awaited to
    its end (nothing moves its due time, so the dispatcher leaves it alone)."""
    table = await loaded(bot, channel)
    [timer] = [t for t in await bot.store.timers_of(table.id or 0) if t.kind == kind]
    await bot.sessions.fire_timer(timer)
    await fd.settle()


async def ran_out_lines(bot: HauntBot, table: Table) -> list[str]:
    """The public lines of the game that say a turn timer ran out."""
    logged = await bot.store.log(table.id or 0, limit=10_000)
    return [e.text for e in logged if e.text.startswith(RAN_OUT)]


# ---------------------------------------------------------------- settings changed mid-turn

async def test_a_reminder_turned_off_while_armed_does_not_fire(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "`remind_minutes:` / `act_minutes:` (0 turns them off ...)". A moderator
    turns the reminder off while the turn's reminder is armed: it stays silent."""
    bot, channel, _host, _guest = await started_with_timers(fd, start_hauntkeeper, TIMED)
    mod = fd.add_user("mod", manage_channels=True)
    await (await fd.slash(mod, channel, "gm", "settings", remind_minutes=0)).wait()
    await fire_now(fd, bot, channel, REMIND_TIMER)
    assert reminders(fd, channel) == []


async def test_a_turn_limit_turned_off_while_armed_does_not_end_the_turn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "`remind_minutes:` / `act_minutes:` (0 turns them off ...)". With the turn
    limit off (the reminder still on), the limit armed before does not let the AI play."""
    bot, channel, _host, _guest = await started_with_timers(fd, start_hauntkeeper, TIMED)
    mod = fd.add_user("mod", manage_channels=True)
    await (await fd.slash(mod, channel, "gm", "settings", act_minutes=0)).wait()
    before = await loaded(bot, channel)
    await fire_now(fd, bot, channel, END_TIMER)
    after = await loaded(bot, channel)
    assert after.version == before.version
    assert await ran_out_lines(bot, after) == []


# ---------------------------------------------------------------- the AI plays the turn

async def evil_below(fd: FakeDiscord, start: BotFactory,
                     settings: GuildSettings) -> tuple[HauntBot, int, list[FakeUser]]:
    """Three players of IT: Evil Below on a timed server, the first to act about to roll."""
    channel = fd.add_channel("derry")
    users = [fd.add_user(name) for name in ("ann", "bo", "cy")]
    bot = await start()
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)  # written around the cache: read it anew
    await open_and_start(fd, channel, users, "evilbelow", seed=5)
    await fd.settle()
    return bot, channel, users


@pytest.mark.parametrize("ending", [AI_PLAYS, SKIP])
async def test_at_the_limit_the_ai_plays_the_whole_turn_and_says_so_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, ending: str) -> None:
    """README: "after M minutes ... the server's choice applies: remind once more, let the
    AI play the turn, or skip it (the game's own end of turn where it has a plain one,
    else the AI plays it); the channel is told which." An Evil Below turn is several
    decisions (roll, spend the dice, end it): the AI plays them all, the turn passes to
    the next player, and the channel reads one line."""
    bot, channel, _users = await evil_below(fd, start_hauntkeeper,
                                            GuildSettings(act_minutes=1, timer_end=ending))
    table = await loaded(bot, channel)
    seat = T.to_act_seat(table)
    assert seat is not None and table.seats[seat].is_human
    await let_fall_due(fd, bot, channel, END_TIMER, moves=True)
    after = await loaded(bot, channel)
    assert T.to_act_seat(after) != seat  # the turn is over
    assert after.seats[seat].is_human  # and the seat still the player's
    assert len(await ran_out_lines(bot, after)) == 1


async def test_gm_skip_lets_the_ai_play_the_whole_turn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "`/gm skip` ... let the AI play the current turn"."""
    bot, channel, _users = await evil_below(fd, start_hauntkeeper, GuildSettings())
    mod = fd.add_user("mod", manage_channels=True)
    table = await loaded(bot, channel)
    seat = T.to_act_seat(table)
    skipped = await (await fd.slash(mod, channel, "gm", "skip")).wait()
    assert skipped.ephemeral_texts()
    await fd.settle()
    after = await loaded(bot, channel)
    assert T.to_act_seat(after) != seat
    assert after.seats[seat or 0].is_human


# ---------------------------------------------------------------- a choice asked out of turn

async def eddie_asked(fd: FakeDiscord, start: BotFactory,
                      settings: GuildSettings) -> tuple[HauntBot, int, list[FakeUser]]:
    """Bev's turn (ann); Pennywise came to Eddie (bo) and is about to leave him, so Eddie
    is asked, out of turn, for each card he places first (tests/test_evil_below_abilities
    .py's arrangement), with the timers a save would arm."""
    channel = fd.add_channel("neibolt")
    users = [fd.add_user("ann"), fd.add_user("bo")]
    bot = await start()
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    await open_and_start(fd, channel, users, "evilbelow", seed=5)
    await fd.settle()
    state, _ = pennywise_jumps_to_eddie_then_leaves()
    assert state.pending is not None and state.pending.kind == sightings.PICK_EDDIE
    table = await loaded(bot, channel)
    game = T.game_of(table)
    T.set_state(table, game, state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None,
                         action=None, timers=timers.arm(table, settings, time.time()))
    return bot, channel, users


async def test_an_out_of_turn_choice_times_its_chooser_and_only_their_choice(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "after N minutes of a human's turn the bot mentions the player ... after M
    minutes ... let the AI play the turn". Eddie's question waits for Eddie's player
    (seed 001, Eddie: "you may place up to two cards"): the reminder mentions him, and
    at the limit the AI answers for him (each card), not for Bev, whose turn goes on
    with a timer of her own."""
    bot, channel, (ann, bo) = await eddie_asked(fd, start_hauntkeeper, TIMED)
    table = await loaded(bot, channel)
    assert {t.user_id for t in await bot.store.timers_of(table.id or 0)} == {bo.id}
    await let_fall_due(fd, bot, channel, REMIND_TIMER)
    await wait_until(lambda: len(reminders(fd, channel)) == 1)
    assert [m.pinged for m in reminders(fd, channel)] == [[bo.id]]
    await let_fall_due(fd, bot, channel, END_TIMER, moves=True)
    after = await loaded(bot, channel)
    state = T.game_state(after)
    assert state.pending is None and T.to_act_seat(after) == 0  # Bev's turn goes on
    assert len(state.heroes[1].hand) < 3  # the AI placed for Eddie
    assert await ran_out_lines(bot, after) == [say("timers.ai_plays", name="bo")]
    assert {(t.user_id, t.version) for t in await bot.store.timers_of(after.id or 0)} == {
        (ann.id, after.version)}


# ---------------------------------------------------------------- pause, resume, restart

async def test_pause_holds_the_timers_and_resume_counts_the_turn_afresh(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "a paused game runs none, and `/gm resume` starts the turn's minutes again
    from then." A limit that fell due during the pause does nothing; after the resume
    the turn has its full minutes again, and a restart keeps them."""
    bot, channel, _host, _guest = await started_with_timers(fd, start_hauntkeeper, TIMED)
    mod = fd.add_user("mod", manage_channels=True)
    table = await loaded(bot, channel)
    armed = await bot.store.timers_of(table.id or 0)
    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    assert await bot.store.timers_of(table.id or 0) == []
    for timer in armed:  # what was armed before the pause fires no more
        assert await bot.sessions.fire_timer(timer) is None
    await fd.settle()
    assert reminders(fd, channel) == []
    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    resumed = await loaded(bot, channel)
    again = await bot.store.timers_of(table.id or 0)
    now = time.time()
    assert sorted((t.kind, t.version) for t in again) == [
        (END_TIMER, resumed.version), (REMIND_TIMER, resumed.version)]
    for timer in again:
        minutes = TIMED.remind_minutes if timer.kind == REMIND_TIMER else TIMED.act_minutes
        assert now - 5 < timer.due_at - (minutes or 0) * 60 <= now
    bot = await start_hauntkeeper()  # a restart keeps them as they were
    assert await bot.store.timers_of(table.id or 0) == again
    await let_fall_due(fd, bot, channel, REMIND_TIMER)
    await wait_until(lambda: len(reminders(fd, channel)) == 1)


# ---------------------------------------------------------------- many channels at once

async def timed_cthulhu(fd: FakeDiscord, name: str) -> tuple[int, list[FakeUser]]:
    channel = fd.add_channel(name)
    users = [fd.add_user(f"{name}-a"), fd.add_user(f"{name}-b")]
    await open_and_start(fd, channel, users, "cthulhu", seed=21)
    return channel, users


async def test_channels_that_cannot_be_shown_do_not_starve_the_others_timers(
        fd: FakeDiscord, start_hauntkeeper: BotFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """README: "after M minutes ... the server's choice applies"; docs/operations.md:
    "Every process runs the timer dispatcher". Channels where the bot may no longer post
    keep their timers (each owes a delivery: its timer waits for it, and is tried again
    later). Were there more of them than the dispatcher reads at a time (here 2 for
    100), due earlier than a healthy channel's timer, that timer still fires."""
    monkeypatch.setattr(timers, "BATCH", 2)
    bot = await start_hauntkeeper()
    await bot.store.set_guild_settings(
        fd.guild_id, GuildSettings(act_minutes=1, timer_end=AI_PLAYS).to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    stuck = [await timed_cthulhu(fd, f"stuck{n}") for n in range(2)]
    healthy, _ = await timed_cthulhu(fd, "healthy")
    await fd.settle()
    for channel, users in stuck:  # a move there, whose post Discord refuses: owed
        fd.set_bot_permissions(channel, deny=["send_messages"])
        await fd.permissions_reached(bot, channel)
        table = await loaded(bot, channel)
        seat = T.to_act_seat(table)
        assert seat is not None
        mover = next(u for u in users if u.id == table.seats[seat].user_id)
        action = T.game_of(table).ai_action(T.game_state(table), seat)
        await bot.sessions.act(channel, T.Actor(mover.id, mover.name), action,
                               version=table.version)
        assert owes(await loaded(bot, channel))
    await fd.settle()
    for n, (channel, _) in enumerate([*stuck, (healthy, [])]):
        table = await loaded(bot, channel)
        await bot.store.execute("UPDATE turn_timers SET due_at = ? WHERE game_id = ?",
                                (time.time() - 100 + n, table.id))
    before = await loaded(bot, healthy)
    bot.timers.wake()
    for _ in range(300):
        if (await loaded(bot, healthy)).version != before.version:
            break
        await asyncio.sleep(0.01)
    await fd.settle()
    after = await loaded(bot, healthy)
    assert after.version > before.version
    assert await ran_out_lines(bot, after) == [
        say("timers.ai_plays", name=before.seats[T.to_act_seat(before) or 0].name)]
    for channel, _ in stuck:  # kept, to be tried again once the channel is shown
        table = await loaded(bot, channel)
        assert [t.version for t in await bot.store.timers_of(table.id or 0)] == [
            table.version]


# ---------------------------------------------------------------- a private turn

async def test_a_private_turns_reminder_links_to_its_dm_prompt_and_its_limit_plays_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "the bot mentions the player in the channel, with a link to the turn's
    buttons (the live message, or the player's DM on a turn played from DMs)". The team
    game's blue seat plays from DMs (tests/helpers/team_game.py): its reminder links
    the DM prompt, and at the limit the AI plays that turn, told once."""
    with team_game.registered():
        channel = fd.add_channel("teams")
        host, tom = fd.add_user("host"), fd.add_user("tom")
        bot = await start_hauntkeeper()
        await bot.store.set_guild_settings(fd.guild_id, TIMED.to_dict())
        bot.sessions.settings.forget(fd.guild_id)
        host_actor = T.Actor(host.id, "host")
        await bot.sessions.open(channel, fd.guild_id, host_actor, team_game.KEY, 1)
        await (await fd.slash(tom, channel, "game", "join")).wait()
        await bot.sessions.act(channel, host_actor, Action(T.ADD_AI))
        await (await fd.slash(host, channel, "game", "start")).wait()
        table = await loaded(bot, channel)
        assert T.to_act_seat(table) == 0
        action = T.game_of(table).ai_action(T.game_state(table), 0)
        await bot.sessions.act(channel, host_actor, action, version=table.version)
        await fd.settle()
        table = await loaded(bot, channel)
        assert T.to_act_seat(table) == team_game.BLUE_SEAT
        [prompt] = [m for m in fd.dms(tom) if m.components]
        await let_fall_due(fd, bot, channel, REMIND_TIMER)
        await wait_until(lambda: len(reminders(fd, channel)) == 1)
        [reminder] = reminders(fd, channel)
        assert reminder.pinged == [tom.id]
        assert f"/@me/{prompt.channel_id}/{prompt.id}" in reminder.text
        await let_fall_due(fd, bot, channel, END_TIMER, moves=True)
        after = await loaded(bot, channel)
        assert T.to_act_seat(after) != team_game.BLUE_SEAT
        assert await ran_out_lines(bot, after) == [say("timers.ai_plays", name="tom")]


# ---------------------------------------------------------------- a restart

async def test_a_limit_due_while_the_bot_was_down_plays_the_turn_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: "The timers are kept in the store: one that fell due while the bot was
    down fires once, right after it starts again." Both the reminder and the limit fell
    due meanwhile: after the start the AI plays the turn once, and neither a second
    look nor another restart plays or tells it again."""
    bot, channel, _host, _guest = await started_with_timers(fd, start_hauntkeeper, TIMED)
    before = await loaded(bot, channel)
    await fall_due(bot, REMIND_TIMER)
    await fall_due(bot, END_TIMER)
    bot = await start_hauntkeeper()
    for _ in range(500):
        if (await loaded(bot, channel)).version != before.version:
            break
        await asyncio.sleep(0.01)
    await fd.settle()
    after = await loaded(bot, channel)
    assert after.version == before.version + 1  # one turn, played once
    bot.timers.wake()
    bot = await start_hauntkeeper()
    await fd.settle()
    again = await loaded(bot, channel)
    assert again.version == after.version
    assert len(await ran_out_lines(bot, again)) == 1
    assert {t.version for t in await bot.store.timers_of(again.id or 0)} == {again.version}


async def test_many_channels_falling_due_at_once_all_play_and_the_loop_stays_free(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """docs/operations.md / bot/timers.py: timers fire "side by side: one slow channel
    does not hold the rest". Twelve channels' limits fall due together: each turn is
    played once, and the event loop keeps answering meanwhile (the AI thinks in the
    worker's threads)."""
    bot = await start_hauntkeeper()
    await bot.store.set_guild_settings(
        fd.guild_id, GuildSettings(act_minutes=1, timer_end=AI_PLAYS).to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    channels = []
    for n in range(12):
        channel = fd.add_channel(f"table{n}")
        users = [fd.add_user(f"p{n}a"), fd.add_user(f"p{n}b")]
        await open_and_start(fd, channel, users, ("cthulhu", "evilbelow")[n % 2], seed=n + 1)
        channels.append(channel)
    await fd.settle()
    before = {c: (await loaded(bot, c)).version for c in channels}
    await bot.store.execute("UPDATE turn_timers SET due_at = ?", (time.time() - 1,))
    gaps: list[float] = []

    async def ticking() -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    ticker = asyncio.create_task(ticking())
    try:
        bot.timers.wake()
        for _ in range(1000):
            versions = {c: (await loaded(bot, c)).version for c in channels}
            if all(versions[c] > before[c] for c in channels):
                break
            await asyncio.sleep(0.01)
        await fd.settle()
    finally:
        ticker.cancel()
        with suppress(asyncio.CancelledError):
            await ticker
    for channel in channels:
        table = await loaded(bot, channel)
        assert table.version == before[channel] + 1, channel
        assert len(await ran_out_lines(bot, table)) == 1
    assert max(gaps) < 1.0  # generous on a busy machine: no firing holds the loop
