"""A turn's limit runs from the turn's start, as moderators are told: `/gm settings` shows
"Turn limit: after {minutes} min", and README says the reminder comes "after N minutes
of a human's turn" and the limit "after M minutes (counted from the start of the turn
too)", and that a move "counts the next turn's afresh". A Betrayal turn is several moves
(move, explore, end the turn): each of them re-armed both timers from zero, so a player
who moved once a minute never met a two-minute limit. Driven through the real discord.py
and the fake Discord, with the sessions' clock moved by hand (the dispatcher keeps real
time, so nothing here falls due while the test runs)."""

from __future__ import annotations

from typing import Any

from bot import table as table_rules
from bot import timers as turn_timers
from bot.client import HauntBot
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, REMIND, GuildSettings
from bot.store import END_TIMER, REMIND_TIMER, Table, TurnTimer
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeUser

MINUTE = 60.0


class Clock:
    """The sessions' clock, moved by hand from the real time of the test's start."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _started(fd: FakeDiscord, start: BotFactory, settings: GuildSettings
                   ) -> tuple[HauntBot, int, FakeUser, Clock]:
    """A Betrayal table of one human and two AI seats, the human's turn waiting."""
    channel = fd.add_channel("timed")
    ann = fd.add_user("ann")
    bot = await start()
    clock = Clock(bot.sessions.clock())
    bot.sessions.clock = clock
    await bot.store.set_guild_settings(fd.guild_id, settings.to_dict())
    bot.sessions.settings.forget(fd.guild_id)
    opened = await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   seed=11)).wait()
    assert opened.response is not None
    add_ai = next(c for c in opened.response.custom_ids() if "lobby.ai" in c)
    for _ in range(2):
        await (await fd.click(ann, opened.response, add_ai)).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    assert to_move(latest_turn(fd, channel)) == ann.id
    return bot, channel, ann, clock


async def _timers(bot: HauntBot, channel: int) -> dict[str, TurnTimer]:
    table = await bot.store.load(channel)
    assert table is not None
    return {t.kind: t for t in await bot.store.timers_of(table.id or 0)}


def _turn(table: Table | None) -> tuple[int, str | None]:
    assert table is not None
    seat = table_rules.to_act_seat(table)
    assert seat is not None
    return seat, table_rules.game_of(table).turn_name(table_rules.game_state(table))


async def _move_within_the_turn(fd: FakeDiscord, channel: int, ann: FakeUser) -> None:
    """Press the live message's plain move (to a room already found): the turn goes on."""
    live = latest_turn(fd, channel)
    for comp in game_components(live):
        if comp["type"] == 2 and ":move~" in comp["custom_id"]:
            await (await fd.click(ann, live, comp["custom_id"])).wait()
            return
        if comp["type"] == 3:
            values: list[Any] = [o["value"] for o in comp["options"]
                                 if Action.decode(o["value"]).kind == "move"]
            if values:
                await (await fd.select(ann, live, comp["custom_id"], values[:1])).wait()
                return
    raise AssertionError("no plain move on the live message")


async def test_a_move_within_the_turn_does_not_restart_its_limit(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Two minutes a turn: a move at 90 s leaves the limit where the turn's start put
    it (30 s on), not two minutes after the move; the reminder due at one minute had its
    moment already and does not ping the player who just moved."""
    bot, channel, ann, clock = await _started(
        fd, start_hauntkeeper, GuildSettings(remind_minutes=1, act_minutes=2,
                                             timer_end=AI_PLAYS))
    began = clock.now
    first = await _timers(bot, channel)
    assert first[END_TIMER].due_at == began + 2 * MINUTE
    before = _turn(await bot.store.load(channel))
    clock.now = began + 90
    await _move_within_the_turn(fd, channel, ann)
    assert _turn(await bot.store.load(channel)) == before  # the same turn goes on
    armed = await _timers(bot, channel)
    assert set(armed) == {END_TIMER}
    assert armed[END_TIMER].due_at == began + 2 * MINUTE
    assert armed[END_TIMER].armed_at == began  # "so far" counts from the turn's start


async def test_a_move_before_the_reminder_keeps_its_moment(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A move before the reminder's minute leaves it due at the turn's first minute."""
    bot, channel, ann, clock = await _started(
        fd, start_hauntkeeper, GuildSettings(remind_minutes=1, act_minutes=5,
                                             timer_end=REMIND))
    began = clock.now
    clock.now = began + 30
    await _move_within_the_turn(fd, channel, ann)
    armed = await _timers(bot, channel)
    assert armed[REMIND_TIMER].due_at == began + MINUTE
    assert armed[END_TIMER].due_at == began + 5 * MINUTE


async def test_the_next_turn_counts_afresh(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Ending the turn hands it on; when it is the player's again, its minutes start
    from then."""
    bot, channel, ann, clock = await _started(
        fd, start_hauntkeeper, GuildSettings(remind_minutes=1, act_minutes=2,
                                             timer_end=AI_PLAYS))
    began = clock.now
    clock.now = began + 100
    table = await bot.store.load(channel)
    assert table is not None
    live = latest_turn(fd, channel)
    end = next(c["custom_id"] for c in game_components(live)
               if c["type"] == 2 and ":end_turn" in c["custom_id"])
    await (await fd.click(ann, live, end)).wait()
    after = await bot.store.load(channel)
    assert _turn(after) != _turn(table)
    assert to_move(latest_turn(fd, channel)) == ann.id  # the AI seats played theirs
    armed = await _timers(bot, channel)
    assert armed[END_TIMER].due_at == began + 100 + 2 * MINUTE


def test_the_arming_rule_alone() -> None:
    """The pure rule: timers of a turn begun at `since`; a reminder whose moment passed
    is not armed again; a limit whose moment passed is armed at once (the turn is up)."""
    host = table_rules.Actor(1, "Ann")
    table, _ = table_rules.new_table("cthulhu", 5, 6, host, seed=3)
    table, _ = table_rules.apply(table, host, Action(table_rules.ADD_AI))
    table, _ = table_rules.apply(table, host, Action(table_rules.START))
    settings = GuildSettings(remind_minutes=1, act_minutes=2, timer_end=AI_PLAYS)
    seat = table_rules.to_act_seat(table)
    if seat is None or table.seats[seat].ai:
        return  # the AI starts: nothing to arm (the sessions play it first)
    fresh = turn_timers.arm(table, settings, 1000.0)
    assert [(t.kind, t.due_at, t.armed_at) for t in fresh] == [
        (REMIND_TIMER, 1060.0, 1000.0), (END_TIMER, 1120.0, 1000.0)]
    later = turn_timers.arm(table, settings, 1090.0, since=1000.0)
    assert [(t.kind, t.due_at, t.armed_at) for t in later] == [(END_TIMER, 1120.0, 1000.0)]
    late = turn_timers.arm(table, settings, 1200.0, since=1000.0)
    assert [(t.kind, t.due_at) for t in late] == [(END_TIMER, 1120.0)]
