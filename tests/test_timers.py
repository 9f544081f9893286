"""Turn timers (bot/timers.py): which saves arm which timers, the store's claim (once, by
whoever asks first, across a reopen), firing through Sessions under a clock the test
moves, and the dispatcher waking, sleeping and surviving a failing channel.

No test sleeps for real: the clocks are injected, and the dispatcher is woken (or finds
its timers already due) instead of waiting out minutes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import table as T
from bot import timers
from bot import worker as worker_module
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, REMIND, SKIP, GuildSettings
from bot.sessions import Sessions
from bot.store import (
    END_TIMER,
    OVER,
    REMIND_TIMER,
    SqliteStore,
    Table,
    TimerArm,
    TurnTimer,
    open_store,
)
from bot.texts import say
from tests.test_sessions import BOB, CAT, CHANNEL, GUILD, HOST, MOD, SEED, RecordingOutlet

KIND = "cthulhu"
START = 1_700_000_000.0
TIMERS = GuildSettings(remind_minutes=10, act_minutes=30, timer_end=AI_PLAYS)


class Clock:
    """Epoch seconds that move only when the test says."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += minutes * 60


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def outlet() -> RecordingOutlet:
    return RecordingOutlet()


@pytest.fixture
def sessions(store: SqliteStore, outlet: RecordingOutlet, clock: Clock) -> Sessions:
    return Sessions(store, outlet, render=False, clock=clock)


async def set_timers(store: SqliteStore, settings: GuildSettings = TIMERS,
                     guild: int = GUILD) -> None:
    await store.set_guild_settings(guild, settings.to_dict())


async def started(sessions: Sessions, *guests: T.Actor, kind: str = KIND,
                  channel: int = CHANNEL) -> Table:
    await sessions.open(channel, GUILD, HOST, kind, SEED)
    for guest in guests:
        await sessions.act(channel, guest, Action(T.JOIN))
    await sessions.act(channel, HOST, Action(T.START))
    table = await sessions.store.load(channel)
    assert table is not None
    return table


def pure_table(*names: str, ai: tuple[int, ...] = ()) -> Table:
    """A started game built by the pure table rules alone (no store)."""
    table, _ = T.new_table(KIND, CHANNEL, GUILD, T.Actor(1, names[0]), SEED)
    for n, name in enumerate(names[1:], start=2):
        table, _ = T.apply(table, T.Actor(n, name), Action(T.JOIN))
    table, _ = T.apply(table, T.Actor(1, names[0]), Action(T.START))
    for seat in ai:
        table.seats[seat].ai = True
    table.id, table.version = 7, 4
    return table


def to_act_user(table: Table) -> int:
    seat = T.to_act_seat(table)
    assert seat is not None
    user = table.seats[seat].user_id
    assert user is not None
    return user


async def play_first(sessions: Sessions, table: Table, channel: int = CHANNEL) -> Table:
    """The player to act plays their first option."""
    seat = T.to_act_seat(table)
    assert seat is not None
    prompt = sessions.prompt(table)
    assert prompt is not None
    holder = table.seats[seat]
    await sessions.act(channel, T.Actor(holder.user_id, holder.name), prompt.options[0].action,
                       version=table.version)
    after = await sessions.store.load(channel)
    assert after is not None
    return after


async def armed(store: SqliteStore, table: Table) -> dict[str, TurnTimer]:
    return {t.kind: t for t in await store.timers_of(table.id or 0)}


# ---------------------------------------------------------------- arming (pure)

def test_a_humans_turn_arms_both_timers_counted_from_its_start() -> None:
    table = pure_table("Ann", "Bo")
    arms = timers.arm(table, TIMERS, START)
    seat = T.to_act_seat(table)
    assert [(a.kind, a.seat, a.user_id, a.due_at) for a in arms] == [
        (REMIND_TIMER, seat, to_act_user(table), START + 600),
        (END_TIMER, seat, to_act_user(table), START + 1800),
    ]
    only_end = GuildSettings(act_minutes=5, timer_end=SKIP)
    assert [(a.kind, a.due_at) for a in timers.arm(table, only_end, START)] == [
        (END_TIMER, START + 300)]


def test_no_timers_without_settings_in_the_lobby_when_over_paused_or_for_an_ai() -> None:
    table = pure_table("Ann", "Bo")
    assert timers.arm(table, GuildSettings(), START) == []
    lobby, _ = T.new_table(KIND, CHANNEL, GUILD, T.Actor(1, "Ann"), SEED)
    assert timers.arm(lobby, TIMERS, START) == []
    over = table.copy()
    over.status = OVER
    assert timers.arm(over, TIMERS, START) == []
    paused = table.copy()
    paused.paused = True
    assert timers.arm(paused, TIMERS, START) == []
    seat = T.to_act_seat(table)
    assert seat is not None
    ai_turn = pure_table("Ann", "Bo", ai=(seat,))
    assert timers.arm(ai_turn, TIMERS, START) == []


def test_a_timer_applies_only_to_its_games_version_running_and_not_paused() -> None:
    table = pure_table("Ann", "Bo")
    arm = timers.arm(table, TIMERS, START)[0]
    timer = TurnTimer(table.id or 0, arm.kind, table.version, CHANNEL, arm.seat, arm.user_id,
                      arm.due_at, arm.armed_at)
    assert timers.fires(timer, table, TIMERS)
    newer = table.copy()
    newer.version += 1  # any action since: cancelled
    paused = table.copy()
    paused.paused = True
    other = table.copy()
    other.id = 99
    for changed in (newer, paused, other, None):
        assert not timers.fires(timer, changed, TIMERS)
    assert not timers.fires(timer, table, GuildSettings())  # the server turned timers off


def test_the_reminder_mentions_the_player_and_counts_the_minutes() -> None:
    timer = TurnTimer(1, REMIND_TIMER, 2, CHANNEL, 0, 55, START + 600, START)
    assert timers.reminder(timer, START + 600) == say(
        "timers.remind", mention="<@55>", elapsed=say("timers.minutes", n=10))
    assert "(1 minute so far)" in timers.reminder(timer, START + 61)


# ---------------------------------------------------------------- the store

async def test_each_save_replaces_the_games_timers_for_its_new_version(
        store: SqliteStore, sessions: Sessions) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    first = await armed(store, table)
    assert set(first) == {REMIND_TIMER, END_TIMER}
    assert {t.version for t in first.values()} == {table.version}
    assert {t.user_id for t in first.values()} == {to_act_user(table)}
    # A save that arms nothing (a caller without timers) still cancels them.
    await store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    assert await store.timers_of(table.id or 0) == []


async def test_only_the_save_that_hands_the_turn_to_a_human_arms(
        store: SqliteStore, sessions: Sessions, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host plays against two AI seats: their moves are saves of their own (a trip
    of the AI chain takes one step when it may work no time at all), and only the
    last, back at the host's turn, leaves timers (for that version)."""
    monkeypatch.setattr(worker_module, "CHAIN_SECONDS", 0.0)
    await set_timers(store)
    await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
    for _ in range(2):
        await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    await sessions.act(CHANNEL, HOST, Action(T.START))
    table = await sessions.store.load(CHANNEL)
    assert table is not None and to_act_user(table) == HOST.user_id
    after = await play_first(sessions, table)
    assert after.version > table.version + 2  # the AI seats moved in between
    assert to_act_user(after) == HOST.user_id
    timers_now = await store.timers_of(after.id or 0)
    assert {(t.kind, t.version, t.user_id) for t in timers_now} == {
        (REMIND_TIMER, after.version, HOST.user_id), (END_TIMER, after.version, HOST.user_id)}




# ---------------------------------------------------------------- firing through Sessions

async def test_the_reminder_fires_once_and_pings_only_the_player(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    clock.advance(10)
    [due] = await store.timers_due(clock())
    assert due.kind == REMIND_TIMER
    assert await sessions.fire_timer(due) is None
    assert await sessions.fire_timer(due) is None  # claimed: never twice
    user = to_act_user(table)
    assert outlet.reminders == [(CHANNEL, user, timers.reminder(due, clock()))]
    assert f"<@{user}>" in outlet.reminders[0][2] and "10 minutes" in outlet.reminders[0][2]
    assert (await store.load(CHANNEL)) == table  # a reminder changes nothing


async def test_any_action_cancels_the_timers_of_the_turn_before(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    old = await armed(store, table)
    clock.advance(3)
    after = await play_first(sessions, table)
    new = await armed(store, after)
    assert {t.version for t in new.values()} == {after.version}
    assert new[REMIND_TIMER].due_at == clock() + 600  # counted from the new turn
    for timer in old.values():
        assert await sessions.fire_timer(timer) is None
    assert outlet.reminders == []
    assert await store.load(CHANNEL) == after


async def test_the_moderators_tools_cancel_and_rearm_the_turns_timers(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    """/gm pause, resume, seat and undo are saves through Sessions like any move: a pause
    leaves no timer, a resume arms the turn's anew (counted from then), a seat handed to
    another member times its new holder, and an undo the turn it brings back."""
    await set_timers(store)
    table = await started(sessions, BOB)
    before = await armed(store, table)
    await sessions.act(CHANNEL, MOD, Action(T.PAUSE))
    paused = await store.load(CHANNEL)
    assert paused is not None and paused.paused
    assert await store.timers_of(table.id or 0) == []
    for timer in before.values():  # the turn's timers are gone for good
        assert await sessions.fire_timer(timer) is None
    clock.advance(5)
    await sessions.act(CHANNEL, MOD, Action(T.RESUME))
    resumed = await store.load(CHANNEL)
    assert resumed is not None
    rearmed = await armed(store, resumed)
    assert {t.version for t in rearmed.values()} == {resumed.version}
    assert rearmed[REMIND_TIMER].due_at == clock() + 600

    seat = T.to_act_seat(resumed)
    assert seat is not None
    await sessions.act(CHANNEL, MOD, Action(T.SEAT, {"seat": seat, "user": 77, "name": "Dee"}))
    handed = await store.load(CHANNEL)
    assert handed is not None
    assert {t.user_id for t in (await armed(store, handed)).values()} == {77}

    moved = await play_first(sessions, handed)
    assert {t.version for t in (await armed(store, moved)).values()} == {moved.version}
    await sessions.undo(CHANNEL, MOD, 1)
    undone = await store.load(CHANNEL)
    assert undone is not None and undone.version > moved.version
    assert T.to_act_seat(undone) == seat
    back = await armed(store, undone)
    assert {(t.version, t.user_id) for t in back.values()} == {(undone.version, 77)}
    assert outlet.reminders == []


async def test_at_the_end_the_ai_plays_the_turn_and_says_so(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    seat = T.to_act_seat(table)
    assert seat is not None
    clock.advance(30)
    end = (await armed(store, table))[END_TIMER]
    outlet.clear()
    outcome = await sessions.fire_timer(end)
    assert outcome is not None and outcome.post is not None
    name = table.seats[seat].name
    assert outlet.lines[0] == say("timers.ai_plays", name=name)
    after = await store.load(CHANNEL)
    assert after is not None and after.version == table.version + 1
    assert after.seats[seat].is_human  # the seat stays the player's
    assert T.to_act_seat(after) != seat
    nxt = await armed(store, after)  # the next human's turn has its own timers
    assert {t.user_id for t in nxt.values()} == {to_act_user(after)}
    assert await sessions.fire_timer(end) is None  # claimed, and the table moved on
    logged = await store.log(after.id or 0, limit=3)
    assert any(e.text == say("timers.ai_plays", name=name) for e in logged)


async def test_a_remind_only_server_reminds_twice_and_never_plays(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store, GuildSettings(remind_minutes=10, act_minutes=20, timer_end=REMIND))
    table = await started(sessions, BOB)
    clock.advance(20)
    for timer in await store.timers_due(clock()):
        await sessions.fire_timer(timer)
    assert [text for _, _, text in outlet.reminders] == [
        say("timers.remind", mention=f"<@{to_act_user(table)}>",
            elapsed=say("timers.minutes", n=20))] * 2
    assert await store.load(CHANNEL) == table
    assert await store.timers_due(clock() + 10**6) == []


async def test_skip_falls_back_to_the_ai_where_the_game_has_no_plain_end_of_turn(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store, GuildSettings(act_minutes=1, timer_end=SKIP))
    table = await started(sessions, BOB)
    seat = T.to_act_seat(table)
    assert seat is not None
    clock.advance(1)
    outlet.clear()
    [end] = await store.timers_due(clock())
    await sessions.fire_timer(end)
    assert outlet.lines[0] == say("timers.skip_by_ai", name=table.seats[seat].name)


async def test_skip_ends_the_turn_where_the_game_offers_it(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store, GuildSettings(act_minutes=1, timer_end=SKIP))
    table = await started(sessions, BOB, CAT, kind="betrayal")
    seat = T.to_act_seat(table)
    assert seat is not None
    game, state = T.game_of(table), T.game_state(table)
    assert game.pass_turn(state, seat) is not None
    clock.advance(1)
    outlet.clear()
    [end] = await store.timers_due(clock())
    await sessions.fire_timer(end)
    assert outlet.lines[0] == say("timers.skipped", name=table.seats[seat].name)
    after = await store.load(CHANNEL)
    assert after is not None and T.to_act_seat(after) != seat
    assert after.seats[seat].is_human


async def test_settings_are_cached_until_invalidated(
        store: SqliteStore, sessions: Sessions) -> None:
    table = await started(sessions, BOB)  # read once: no timers
    await set_timers(store)
    table = await play_first(sessions, table)
    assert await store.timers_of(table.id or 0) == []
    sessions.settings.forget(GUILD)
    table = await play_first(sessions, table)
    assert set(await armed(store, table)) == {REMIND_TIMER, END_TIMER}


async def test_timers_of_a_server_that_turned_them_off_do_nothing(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    await set_timers(store, GuildSettings())
    sessions.settings.forget(GUILD)
    clock.advance(30)
    for timer in await store.timers_due(clock()):
        assert await sessions.fire_timer(timer) is None
    assert outlet.reminders == [] and await store.load(CHANNEL) == table


# ---------------------------------------------------------------- the dispatcher

async def wait_until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    """Poll (the dispatcher works in its own task); fail rather than hang."""
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.005)


async def test_the_dispatcher_fires_what_is_due_and_sleeps_past_the_rest(
        store: SqliteStore, sessions: Sessions, outlet: RecordingOutlet, clock: Clock) -> None:
    await set_timers(store)
    table = await started(sessions, BOB)
    dispatcher = timers.TimerDispatcher(store, sessions.fire_timer, clock=clock)
    dispatcher.start()
    try:
        await asyncio.sleep(0.05)
        assert outlet.reminders == []  # due in ten minutes
        clock.advance(10)
        dispatcher.wake()
        await wait_until(lambda: len(outlet.reminders) == 1)
        dispatcher.wake()  # looking again finds nothing new to do
        await asyncio.sleep(0.05)
        assert len(outlet.reminders) == 1
        assert set(await armed(store, table)) == {END_TIMER}
    finally:
        await dispatcher.stop()


async def test_a_save_arming_an_earlier_timer_wakes_the_dispatcher(
        store: SqliteStore, outlet: RecordingOutlet, clock: Clock) -> None:
    """The sessions' clock runs an hour behind the dispatcher's, so what a save arms is
    due at once for the dispatcher, asleep for an hour: only the save's wake-up can get
    it fired."""
    await set_timers(store, GuildSettings(remind_minutes=10))
    sessions = Sessions(store, outlet, render=False, clock=Clock(START - 3600))
    dispatcher = timers.TimerDispatcher(store, sessions.fire_timer, clock=clock)
    sessions.on_timer_armed = dispatcher.armed
    dispatcher.start()
    try:
        await asyncio.sleep(0.05)  # asleep: no timers at all yet
        table = await started(sessions, BOB)
        await wait_until(lambda: len(outlet.reminders) == 1)
        assert outlet.reminders[0][1] == to_act_user(table)
    finally:
        await dispatcher.stop()


async def test_a_slow_or_failing_channel_does_not_hold_the_others(
        store: SqliteStore, caplog: pytest.LogCaptureFixture) -> None:
    channels = (11, 12, 13)
    for channel in channels:
        table, events = T.new_table(KIND, channel, GUILD, HOST, SEED)
        table = await store.create(table, events, HOST.user_id, None)
        await store.save(table, [], expected_version=1, actor_id=None, action=None,
                         timers=[TimerArm(REMIND_TIMER, 0, 5, START - channel, START - 99)])
    fired: list[int] = []
    stuck = asyncio.Event()

    async def fire(timer: TurnTimer) -> None:
        if timer.channel_id == 12:
            raise RuntimeError("this channel is broken")  # before its claim: it stays
        assert await store.claim_timer(timer) is not None
        if timer.channel_id == 11:
            await stuck.wait()  # slow: never ends on its own
        fired.append(timer.channel_id)

    dispatcher = timers.TimerDispatcher(store, fire, clock=Clock())
    with caplog.at_level(logging.ERROR, logger="bot.timers"):
        dispatcher.start()
        try:
            await wait_until(lambda: fired == [13] and any(
                "channel 12 failed" in r.getMessage() for r in caplog.records))
            dispatcher.wake()
            await asyncio.sleep(0.05)
            assert fired == [13]  # the failed one rests; the slow one is not fired again
        finally:
            await dispatcher.stop()


async def test_a_timer_due_while_down_fires_once_after_the_restart(
        tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "restart.sqlite3"
    store = await open_store(path)
    await set_timers(store)
    outlet = RecordingOutlet()
    table = await started(Sessions(store, outlet, render=False, clock=clock), BOB)
    await store.close()  # down for half an hour: both timers fall due
    clock.advance(30)

    def ran_out() -> list[str]:
        return [line for line in outlet.lines if line.startswith(say(
            "timers.ai_plays", name="\0").split("\0")[0])]

    for restart in range(2):  # two starts in a row: each reads the store afresh
        store = await open_store(path)
        sessions = Sessions(store, outlet, render=False, clock=clock)
        dispatcher = timers.TimerDispatcher(store, sessions.fire_timer, clock=clock)
        dispatcher.start()
        try:
            if restart == 0:
                await wait_until(lambda: len(ran_out()) == 1)
            await asyncio.sleep(0.05)
        finally:
            await dispatcher.stop()
            await store.close()
    assert len(ran_out()) == 1
    # The reminder came first (due first), once; the end then played the turn.
    assert outlet.reminders == [(CHANNEL, to_act_user(table), timers.reminder(
        TurnTimer(0, REMIND_TIMER, 0, CHANNEL, 0, to_act_user(table), 0, START), clock()))]


def _evil_below_turn() -> tuple[Table, int]:
    """A two-player IT: Evil Below game at its first human turn, a turn of several
    decisions (the roll, the dice, the end)."""
    table, _ = T.new_table("evilbelow", CHANNEL, GUILD, T.Actor(1, "ann"), SEED)
    table, _ = T.apply(table, T.Actor(2, "ben"), Action(T.JOIN))
    table, _ = T.apply(table, T.Actor(1, "ann"), Action(T.START))
    seat = T.to_act_seat(table)
    assert seat is not None
    return table, seat


def _same_turn(before: Table, after: Table, seat: int) -> bool:
    game = T.game_of(before)
    return (T.to_act_seat(after) == seat and game.turn_name(T.game_state(after))
            == game.turn_name(T.game_state(before)))


def test_a_timer_and_a_skip_play_the_whole_turn_and_old_logs_replay_one_decision() -> None:
    """README: at the limit the AI "plays the turn", and /gm skip lets "the AI play the
    current turn": the whole of it. A game logged by an earlier release recorded one
    decision for each (no WHOLE_TURN in the action), and replays so (bot/replay.py)."""
    table, seat = _evil_below_turn()
    mod = T.Actor(9, "mod", True)
    assert timers.ran_out_action(AI_PLAYS).args.get(T.WHOLE_TURN)
    whole, _ = timers.run_out(table, AI_PLAYS)
    assert not _same_turn(table, whole, seat)
    one, _ = timers.run_out(table, AI_PLAYS, whole=False)
    assert _same_turn(table, one, seat)
    skipped, _ = T.apply(table, mod, Action(T.SKIP, {T.WHOLE_TURN: 1}))
    assert not _same_turn(table, skipped, seat)
    logged, _ = T.apply(table, mod, Action(T.SKIP))
    assert _same_turn(table, logged, seat)
