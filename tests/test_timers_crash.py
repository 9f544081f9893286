"""A turn timer's firing survives a kill -9 at any point of it: it either happened
whole (the turn ended and was saved, the reminder reached Discord) or it fires again
after the restart, once.

bot/timers.py: "The timers live in the store, not in memory, so a restart loses none:
... one that fell due while the bot was down fires right away, once." A process killed
between a timer's claim and the save (or the reminder) it claimed it for left neither:
the claim had taken the timer out of the store, and the table still waited.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

from bot import table as T
from bot import timers
from bot.core.actions import Action
from bot.guild_settings import AI_PLAYS, GuildSettings
from bot.sessions import Sessions
from bot.store import END_TIMER, REMIND_TIMER, SqliteStore, Table, TurnTimer
from bot.texts import say
from tests.test_sessions import BOB, CHANNEL, GUILD, HOST, SEED, RecordingOutlet
from tests.test_sessions_exactly_once import Fuse, Killed
from tests.test_timers import Clock

KIND = "cthulhu"
TIMERS = GuildSettings(remind_minutes=10, act_minutes=30, timer_end=AI_PLAYS)


class KillableStore(SqliteStore):
    """The process dies as the firing's save is about to be written."""

    fuse: Fuse

    async def save(self, table: Table, events: Any, **kwargs: Any) -> Table:
        self.fuse.tick("before the save")
        saved: Table = await super().save(table, events, **kwargs)
        return saved


class KillableOutlet(RecordingOutlet):
    """The process dies as the reminder is about to be sent."""

    def __init__(self) -> None:
        super().__init__()
        self.fuse = Fuse(0)

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        self.fuse.tick("before the reminder reached Discord")
        await super().remind(table, user_id, text, key=key)


async def _open(path: Path, outlet: KillableOutlet, clock: Clock,
                fuse: Fuse) -> tuple[KillableStore, Sessions]:
    store = KillableStore(path)
    store.fuse = fuse
    await store.open()
    return store, Sessions(store, outlet, render=False, clock=clock)


async def _started(path: Path, outlet: KillableOutlet, clock: Clock) -> Table:
    store, sessions = await _open(path, outlet, clock, Fuse(0))
    try:
        await store.set_guild_settings(GUILD, TIMERS.to_dict())
        await sessions.open(CHANNEL, GUILD, HOST, KIND, SEED)
        await sessions.act(CHANNEL, BOB, Action(T.JOIN))
        await sessions.act(CHANNEL, HOST, Action(T.START))
        table = await store.load(CHANNEL)
        assert table is not None
        return table
    finally:
        await store.close()


async def _killed_firing(path: Path, outlet: KillableOutlet, clock: Clock,
                         kind: str) -> None:
    """The `kind` timer falls due and its firing is killed at its first kill point."""
    fuse = Fuse(1)
    outlet.fuse = fuse
    store, sessions = await _open(path, outlet, clock, fuse)
    try:
        due = [t for t in await store.timers_due(clock()) if t.kind == kind]
        assert due, kind
        with suppress(Killed):
            await sessions.fire_timer(due[0])
        assert fuse.where, "the firing passed no kill point"
    finally:
        await store.close()
        outlet.fuse = Fuse(0)


async def _restarted_fires(path: Path, outlet: KillableOutlet, clock: Clock) -> Table:
    """The restarted process fires whatever the store holds due, as its dispatcher would."""
    store, sessions = await _open(path, outlet, clock, Fuse(0))
    try:
        for timer in await store.timers_due(clock()):
            await sessions.fire_timer(timer)
        after = await store.load(CHANNEL)
        assert after is not None
        return after
    finally:
        await store.close()


async def test_a_turns_end_killed_before_its_save_plays_after_the_restart(
        tmp_path: Path) -> None:
    """The turn's limit ran out (the server's ending: the AI plays the turn) and the
    process died before the save: after the restart the AI plays that turn, once."""
    path, clock, outlet = tmp_path / "t.sqlite3", Clock(), KillableOutlet()
    table = await _started(path, outlet, clock)
    seat = T.to_act_seat(table)
    assert seat is not None
    clock.advance(30)
    await _killed_firing(path, outlet, clock, END_TIMER)
    after = await _restarted_fires(path, outlet, clock)
    ran_out = say("timers.ai_plays", name=table.seats[seat].name)
    assert outlet.lines.count(ran_out) == 1, outlet.lines
    assert after.version > table.version and T.to_act_seat(after) != seat


async def test_a_reminder_killed_before_it_was_sent_is_sent_after_the_restart(
        tmp_path: Path) -> None:
    """The reminder fell due and the process died before it reached Discord: the
    restarted bot sends it, once, and the table is untouched."""
    path, clock, outlet = tmp_path / "t.sqlite3", Clock(), KillableOutlet()
    table = await _started(path, outlet, clock)
    clock.advance(10)
    await _killed_firing(path, outlet, clock, REMIND_TIMER)
    assert outlet.reminders == []
    after = await _restarted_fires(path, outlet, clock)
    user = table.seats[T.to_act_seat(table) or 0].user_id or 0
    expected = timers.reminder(
        TurnTimer(0, REMIND_TIMER, 0, CHANNEL, 0, user, 0, clock.now - 600), clock())
    assert outlet.reminders == [(CHANNEL, user, expected)]
    assert after == table
    again = await _restarted_fires(path, outlet, clock)  # a second start sends nothing
    assert len(outlet.reminders) == 1 and again == table
