"""Turn timers: which saves arm them, what a timer does when it runs out, and the one task
that waits for the next.

A server may set a turn timer (GuildSettings: remind_minutes, act_minutes, timer_end).
When a save hands the turn to a human, the sessions layer arms the turn's timers in that
same save (`arm`), both counted from the start of the turn: a reminder after
remind_minutes, and after act_minutes the server's ending (remind again, the AI plays
the turn, or the turn is skipped). Every save replaces the game's timers, and a timer is
good only at the table version it was armed for (`fires`); a save that leaves the same
turn waiting (a move within a turn of several, another seat's out-of-turn action) arms
them again from that turn's start (`turn_of`, `turn_start`), as /gm settings says: a
limit per turn, not per idle stretch. A reminder whose moment passed meanwhile is not
armed again (it was sent, or the player has just acted).

The timers live in the store, not in memory, so a restart loses none: the dispatcher
reads the earliest from the store when it starts, and one that fell due while the bot
was down fires right away, once. A firing takes its row out with what it did (the turn's
end in the save of its ending, a reminder once sent: Sessions.fire_timer), so a process
killed half way leaves it to fire again; the reminder goes under a Discord nonce made of
its row (bot/delivery.py's `timer_key`), so one that reached Discord before the kill
shows once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress

from bot import table as table_rules
from bot.core.actions import Action
from bot.core.events import Event
from bot.guild_settings import AI_PLAYS, SKIP, GuildSettings
from bot.loops import Failures
from bot.store import (
    ACTIVE,
    END_TIMER,
    REMIND_TIMER,
    ChannelBusy,
    Store,
    StoreUnavailable,
    Table,
    TimerArm,
    TurnTimer,
)
from bot.texts import say

log = logging.getLogger(__name__)

Clock = Callable[[], float]  # epoch seconds (time.time); tests pass a clock they move
MAX_SLEEP = 3600.0  # look at the store at least hourly, whatever the next timer says
BATCH = 100  # timers read per look
FIRING_AT_ONCE = 8  # timers fired side by side: one slow channel does not hold the rest
RETRY_AFTER = 60.0  # a timer just fired (or failed) is not tried again before this long
RAN_OUT = "timer.ran_out"  # the action the log records for a timer's ending


# -- arming and firing (pure) --------------------------------------------------------------

Turn = tuple[int, int, str | None]  # the seat to act, its holder, the game's turn name


def turn_of(table: Table) -> Turn | None:
    """The human turn a table waits for (None: not running, paused, or an AI's to act):
    two saves that leave the same one are moves within one turn."""
    if table.status != ACTIVE or table.paused:
        return None
    seat = table_rules.to_act_seat(table)
    if seat is None:
        return None
    holder = table.seats[seat]
    if holder.ai or holder.user_id is None:
        return None
    turn = table_rules.game_of(table).turn_name(table_rules.game_state(table))
    return seat, holder.user_id, turn


def turn_start(armed: Sequence[TurnTimer], turn: Turn, now: float) -> float:
    """When the turn under way began: what its timers armed so far say (a timer already
    fired is gone; its partner still knows), else `now`."""
    return min((t.armed_at for t in armed if (t.seat, t.user_id) == turn[:2]), default=now)


def arm(table: Table, settings: GuildSettings, now: float,
        since: float | None = None) -> list[TimerArm]:
    """The timers a save of `table` arms: none when the server has no timer, the game is
    not running (lobby, over), paused, or waits for nobody human (an AI is to act).
    Counted from `since`, the turn's start (`now` for a new turn). A reminder whose
    moment has passed is left out; the limit's is armed due at once: the turn is up."""
    if not settings.timer_on:
        return []
    turn = turn_of(table)
    if turn is None:
        return []
    seat, user, _ = turn
    began = now if since is None else min(since, now)
    arms = []
    for kind, minutes in ((REMIND_TIMER, settings.remind_minutes),
                          (END_TIMER, settings.act_minutes)):
        if minutes is None:
            continue
        due = began + minutes * 60.0
        only_reminds = kind == REMIND_TIMER or settings.timer_end not in (AI_PLAYS, SKIP)
        if due <= now and only_reminds:
            continue
        arms.append(TimerArm(kind, seat, user, due, began))
    return arms


def fires(timer: TurnTimer, table: Table | None, settings: GuildSettings) -> bool:
    """A timer due still applies: its game, unchanged since it was armed (any action
    makes a new version), running, not paused, and the server still has this timer (a
    moderator's 0 turns one off at once, the one armed already too)."""
    still_set = settings.remind_minutes if timer.kind == REMIND_TIMER \
        else settings.act_minutes
    return (table is not None and table.id == timer.game_id
            and table.version == timer.version and table.status == ACTIVE
            and not table.paused and still_set is not None)


def reminds(timer: TurnTimer, settings: GuildSettings) -> bool:
    """The timer only reminds: the first one, or the end of a server's reminders only."""
    return timer.kind == REMIND_TIMER or settings.timer_end not in (AI_PLAYS, SKIP)


def reminder(timer: TurnTimer, now: float) -> str:
    """The reminder line: the player's mention and how long the turn has waited."""
    minutes = max(1, round((now - timer.armed_at) / 60))
    elapsed = say("timers.minute") if minutes == 1 else say("timers.minutes", n=minutes)
    return say("timers.remind", mention=f"<@{timer.user_id}>", elapsed=elapsed)


def run_out(table: Table, ending: str, whole: bool = True,
            language: str | None = None) -> tuple[Table, list[Event]]:
    """The turn's time is up: the seat's turn is skipped (the game's plain end of turn,
    played for its holder) or its rest played by the AI for it, as /gm skip does; one
    public line says which. The seat stays its holder's. `whole` False: one decision,
    as an earlier release played it (a logged game replayed, bot/replay.py).
    `language`: the table's public posts' (bot/table_play.py's `play_decided`)."""
    seat = table_rules.to_act_seat(table)
    if seat is None:
        raise ValueError("a timer ran out in a game that waits for no one")
    game, name = table_rules.game_of(table), table.seats[seat].name
    passing = game.pass_turn(table_rules.game_state(table), seat) if ending == SKIP else None
    if passing is not None:
        holder = table_rules.Actor(table.seats[seat].user_id, name, public_language=language)
        new, events = table_rules.apply(table, holder, table_rules.for_seat(passing, seat))
        return new, [Event(say("timers.skipped", name=name)), *events]
    note = say("timers.skip_by_ai" if ending == SKIP else "timers.ai_plays", name=name)
    if whole:
        new, events = table_rules.play_turn(table, seat, language)
    else:
        new, events = table_rules.ai_step(table, language)
    return new, [Event(note), *events]


def ran_out_action(ending: str) -> Action:
    return Action(RAN_OUT, {"end": ending, table_rules.WHOLE_TURN: 1})


# -- the dispatcher -------------------------------------------------------------------------

class TimerDispatcher:
    """One task that sleeps until the earliest timer in the store is due, then fires it.

    RoboDanny's way (cogs/reminder.py): ask the store for the next timer, sleep until
    then, fire. The sleep is capped (MAX_SLEEP) and an asyncio.Event cuts it short when a
    save arms a timer due sooner (`armed`). Each firing runs as a task of its own, a few
    at once, so a slow or failing channel delays no other; a failure is logged and the
    dispatcher goes on. `fire` acts and takes the timer out (Sessions.fire_timer).
    """

    def __init__(self, store: Store, fire: Callable[[TurnTimer], Awaitable[object]], *,
                 clock: Clock = time.time) -> None:
        self.store = store
        self.fire = fire
        self.clock = clock
        self._wake = asyncio.Event()
        self._wake_at: float | None = None  # None while it reads the store: any arm wakes it
        self._task: asyncio.Task[None] | None = None
        self._firing: dict[tuple[int, str, int], asyncio.Task[None]] = {}
        self._resting: dict[tuple[int, str, int], float] = {}  # tried: not before then
        self._slots = asyncio.Semaphore(FIRING_AT_ONCE)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="hauntkeeper-timers")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._firing.values()) if t is not None]
        self._task = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError):
                await task

    def armed(self, due_at: float) -> None:
        """A save armed a timer: wake up if it is due before the dispatcher would."""
        if self._wake_at is None or due_at < self._wake_at:
            self._wake.set()

    def wake(self) -> None:
        """Look at the store again now (the clock moved, settings changed)."""
        self._wake.set()

    async def _run(self) -> None:
        failures = Failures("reading the turn timers", log)
        while True:
            self._wake.clear()  # before reading: an arm from here on wakes the sleep
            self._wake_at = None
            try:
                wait = await self._dispatch()
            except Exception as exc:
                failures.failed(exc)
                wait = RETRY_AFTER
            else:
                failures.worked()
            self._wake_at = self.clock() + wait
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def _dispatch(self) -> float:
        """Fire every timer due now; return how long to sleep before the next."""
        now = self.clock()
        nearest = now + MAX_SLEEP
        self._resting = {key: until for key, until in self._resting.items() if until > now}
        # The timers firing or resting are passed over below: read that many more, or
        # a batch of channels that cannot be shown (their timers kept, due earliest)
        # would hide every later timer for as long as they stay so.
        skipped = len(self._firing) + len(self._resting)
        for timer in await self.store.timers_due(nearest, limit=BATCH + skipped):
            key = (timer.game_id, timer.kind, timer.version)
            rest = self._resting.get(key, 0.0)
            if key in self._firing:
                continue  # its end wakes the dispatcher
            if timer.due_at <= now and rest <= now:
                self._resting.pop(key, None)
                task = asyncio.create_task(self._fire(key, timer))
                self._firing[key] = task
            else:
                nearest = min(nearest, max(timer.due_at, rest))
        return max(0.0, nearest - now)

    async def _fire(self, key: tuple[int, str, int], timer: TurnTimer) -> None:
        try:
            async with self._slots:
                await self.fire(timer)
        except ChannelBusy:  # another process is in the channel: try again after a rest
            log.info("turn timer %s of game %s waits: channel %s is busy elsewhere",
                     timer.kind, timer.game_id, timer.channel_id)
        except StoreUnavailable:  # told once by the store
            log.info("turn timer %s of game %s waits for the store", timer.kind,
                     timer.game_id)
        except Exception:
            log.exception("turn timer %s of game %s in channel %s failed", timer.kind,
                          timer.game_id, timer.channel_id)
        finally:
            # Fired or failed, it rests: a firing takes its row out with what it did, so
            # only one that failed is still stored, and it must not be tried in a tight loop.
            self._resting[key] = self.clock() + RETRY_AFTER
            self._firing.pop(key, None)
            self._wake.set()
