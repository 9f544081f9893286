"""Moderation meets the rules: random legal play of every game, through the one door
(bot.sessions.Sessions over a real SQLite store), interleaved with the moderators' tools
and the table's own events: /gm undo of 1..n moves, a player leaving or kicked (their
seat to the AI), an AI seat handed to a member (/gm seat: back to its player or to
another), /gm pause and /gm resume, /gm skip, and a turn timer falling due (the AI plays
the turn, or the turn is skipped), a timer of an older version too.

After every step, whatever the game:
- a refused step changed nothing (the table's version stands);
- the game's own invariants hold (each game's property test's checks), and exactly the
  right seats are asked to act (tests/test_property_third_pass.py's `acting_seats`);
- a running game, not paused, waits for a human (the AI chain ran to its end);
- every event's audience is one the game defines, and no whisper nor team message
  reaches a member who holds no seat of it now (a kicked player reads nothing more);
- an undo gives back exactly the game as it stood before the undone move (who holds each
  seat as now: RULES.md, "/gm undo ... Who holds each seat ... stay as they are"), and
  the same move played again gives the same state as it did then (the seeded Rng is in
  the state: the same dice);
- a stale timer (armed for an older version) changes nothing;
- the replay of the recorded moves (bot/replay.py) ends in the stored state, exactly.
At the end a moderator's /gm skip (the AI plays the turn) ends every game within a bound.

Bounded: a few examples per variant, each one game of at most OPS steps.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot import games, replay
from bot import table as T
from bot.core import choices
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal.haunting import base
from bot.games.betrayal.house import cell_of
from bot.guild_settings import AI_PLAYS, SKIP, GuildSettings
from bot.locales import ENGLISH, speaking
from bot.sessions import Sessions
from bot.store import END_TIMER, REMIND_TIMER, Store, Table, TurnTimer, open_store
from bot.table_record import ACTIVE, OVER, UNDO_KEPT
from bot.table_seats import split_teams
from tests.betrayal_haunt_helpers import begin, edition_of, house
from tests.test_betrayal_engine_property import check as betrayal_check
from tests.test_betrayal_engine_property import last_round, what_the_moved
from tests.test_cthulhu_property import check_invariants as cthulhu_invariants
from tests.test_evil_below_property import check_invariants as eb_invariants
from tests.test_property_third_pass import CLASSIC, NEIBOLT, acting_seats, check_audiences
from tests.test_sessions import RecordingOutlet

CHANNEL = 700
GUILD = 11
MOD = T.Actor(1, "Mod", moderator=True)
FIRST_USER = 100
START = 1_000_000.0  # the fake clock's start (epoch seconds)

# HK_AUDIT_EXAMPLES: more examples for a hunt by hand (the suite keeps a few).
HUNT = int(os.environ.get("HK_AUDIT_EXAMPLES", "0"))
SETTINGS = settings(max_examples=HUNT or 3, deadline=None,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OPS = int(os.environ.get("HK_AUDIT_OPS", "60"))  # steps before the end is played out
FINISH_CAP = 400  # /gm skips that must end any game (the AI plays each turn)
REPLAY_EVERY = 10  # steps between two replays checked
DEBUG = bool(os.environ.get("HK_AUDIT_DEBUG"))  # each game's steps, printed (-s)


def game_only(game: Game[Any], state: Any) -> dict[str, Any]:
    """The state as a replay compares it (bot/replay.py's `same_game`)."""
    return choices.game_only(game.dump(state))


@dataclass
class Point:
    """A player's move as the model keeps it: the game before and after (the AI chain
    after it played), who held each seat then, and the move."""

    version: int
    before: dict[str, Any]
    seats: list[tuple[int | None, str, bool]]
    actor: T.Actor
    action: Action
    after: dict[str, Any]


class ThreadOutlet(RecordingOutlet):
    """The tests' outlet with team threads kept as cogs/outlet_teams.py keeps them: a
    thread opens with the team's users and adds each user a message names; `members`
    makes it hold exactly the team's holders. Each team message is recorded with every
    member who reads it (a private thread's members read all of it)."""

    def __init__(self) -> None:
        super().__init__()
        self.threads: dict[str, set[int]] = {}

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        readers = self.threads.setdefault(team, set())
        readers |= set(user_ids)
        return await super().team(table, team, sorted(readers), text, key=key)

    async def members(self, table: Table, teams: dict[str, list[int]]) -> None:
        for team, users in teams.items():
            if team in self.threads:
                self.threads[team] = set(users)


def holders(table: Table) -> list[tuple[int | None, str, bool]]:
    return [(s.user_id, s.name, s.ai) for s in table.seats]


@dataclass
class Driver:
    """One game through the sessions, with the model of its undo points."""

    sessions: Sessions
    store: Store
    outlet: ThreadOutlet
    game: Game[Any]
    kind: str
    users: list[T.Actor]
    data: st.DataObject
    clock: list[float]
    replayable: bool = True
    points: list[Point] = field(default_factory=list)
    uprooted: frozenset[int] = frozenset()
    check_state: Any = None
    steps: int = 0
    told: int = 0  # whispers and team messages checked
    split: int = 0  # seats passed on by the table (a kick, a leave, /gm seat, a split)
    log: list[str] = field(default_factory=list)

    async def load(self) -> Table:
        table = await self.store.load(CHANNEL) or await self.store.load_latest(CHANNEL)
        assert table is not None
        return table

    def state(self, table: Table) -> Any:
        assert table.state is not None
        return self.game.load(table.state)

    def actor_of(self, user: int) -> T.Actor:
        return next(a for a in self.users if a.user_id == user)

    # ------------------------------------------------------------------ the checks

    async def check(self, before: Table, after: Table, events: list[Event],
                    chained: bool = True) -> None:
        """`chained` False: the AI chain was held back (an undo, checked before it)."""
        state = self.state(after)
        old = self.state(before) if before.state is not None else state
        if self.check_state is not None:
            self.check_state(old, state, events)
        check_audiences(self.game, old, state, events)
        if after.status == ACTIVE:
            acting_seats(self.game, state)
            if chained and not after.paused:
                assert not T.ai_to_act(after), "the AI chain stopped with an AI to act"
            team_of = {seat: team for team, seats in self.game.teams(state).items()
                       for seat in seats}
            for user in {s.user_id for s in after.seats if s.is_human}:
                sides = {team_of[seat] for seat in after.seats_of(user or 0) if seat in team_of}
                assert len(sides) <= 1, ("seats on two teams", user, self.log[-3:])
            assert after.seat_of(after.host_id) is not None or not any(
                s.is_human for s in after.seats), "the host holds no seat"
        self.split += sum(e.kind == T.SEATS_MOVED for e in events)
        await self.timers_armed(after)
        self.secrets_kept(after)
        if self.replayable and (self.steps % REPLAY_EVERY == 0 or after.status == OVER):
            await self.replayed(after)

    async def timers_armed(self, table: Table) -> None:
        """The timers stand for the version now and the human it waits for, if any."""
        armed = await self.store.timers_of(table.id or 0)
        seat = T.to_act_seat(table)
        if table.paused or seat is None or not table.seats[seat].is_human:
            assert armed == [], (armed, self.log[-3:])
            return
        # the turn's end always (the server's ending plays or skips it), its reminder
        # while its moment is still to come
        assert END_TIMER in {t.kind for t in armed}, (armed, self.log[-3:])
        for timer in armed:
            assert (timer.version, timer.seat, timer.user_id) == (
                table.version, seat, table.seats[seat].user_id), (timer, self.log[-3:])

    def secrets_kept(self, table: Table) -> None:
        """Whispers and team messages reach only the members who hold the seats now."""
        seated = {s.user_id for s in table.seats if s.is_human}
        self.told += len(self.outlet.whispers) + len(self.outlet.teams)
        for user, text in self.outlet.whispers:
            assert user in seated, (user, text[:80], self.log[-3:])
        if table.state is not None:
            teams = self.game.teams(self.state(table))
            for team, users, text in self.outlet.teams:
                allowed = {table.seats[s].user_id for s in teams.get(team, [])
                           if table.seats[s].is_human}
                assert set(users) <= allowed, (team, users, text[:80], self.log[-3:])
        self.outlet.clear()

    async def replayed(self, table: Table) -> None:
        moves = await self.store.moves(table.id or 0)
        points = await self.store.undo_points(table.id or 0, limit=UNDO_KEPT)
        rebuilt = replay.rebuild(table, moves, points)
        assert rebuilt.exact, (rebuilt.why, self.log[-5:])

    # ------------------------------------------------------------------ the steps

    async def act(self, actor: T.Actor, action: Action) -> bool:
        """One action through the door; False when refused (and then nothing changed)."""
        before = await self.load()
        try:
            outcome = await self.sessions.act(CHANNEL, actor, action)
        except IllegalAction:
            assert (await self.load()).version == before.version
            return False
        after = await self.load()
        assert after.version >= outcome.table.version
        await self.check(before, after, outcome.events)
        return True

    async def move(self) -> None:
        """A human seat asked to act plays one of its options."""
        table = await self.load()
        state = self.state(table)
        seats = [s for s in [T.to_act_seat(table), *T.out_of_turn_seats(table)]
                 if s is not None and table.seats[s].is_human]
        if not seats:
            return
        seat = self.data.draw(st.sampled_from(seats), label="seat")
        options = self.game.options(state, seat)
        option = self.data.draw(st.sampled_from(options), label="option")
        action = option.action if seat == T.to_act_seat(table) else T.for_seat(option.action,
                                                                                seat)
        actor = self.actor_of(table.seats[seat].user_id or 0)
        self.log.append(f"move {seat} {action.kind} {action.args}")
        if table.paused:
            assert not await self.act(actor, action), "a move played while paused"
            return
        played = await self.act(actor, action)
        assert played, f"a legal option was refused: {action}"
        after = await self.load()
        self.points.append(Point(table.version, game_only(self.game, state), holders(table),
                                 actor, action, game_only(self.game, self.state(after))))
        del self.points[:-UNDO_KEPT]
        if after.status == OVER:
            self.points.clear()  # a finished game drops its undo points

    async def undo(self) -> None:
        table = await self.load()
        kept = await self.store.undo_points(table.id or 0, limit=UNDO_KEPT)
        assert len(kept) == len(self.points), (len(kept), len(self.points), self.log[-5:])
        if not self.points:
            return
        steps = self.data.draw(st.integers(1, len(self.points)), label="undo")
        self.log.append(f"undo {steps}")
        self.sessions.ai_chain = False  # the state the undo left, before any AI moves
        try:
            outcome = await self.sessions.undo(CHANNEL, MOD, steps)
        finally:
            self.sessions.ai_chain = True
        undone_all = self.points[-steps:]
        undone = undone_all[0]
        del self.points[-steps:]
        after = await self.load()
        expected = self.game.load(undone.before)
        now = holders(after)
        for seat, (was, held) in enumerate(zip(undone.seats, now, strict=True)):
            if was != held:
                expected = self.game.set_player(expected, seat, PlayerInfo(held[1], held[2]))
        assert game_only(self.game, self.state(after)) == game_only(self.game, expected), \
            self.log[-5:]
        # A seat that changed hands since then: its holder reads its secrets as restored.
        for seat, (was, held) in enumerate(zip(undone.seats, now, strict=True)):
            if held[0] is not None and not held[2] and (held[0] != was[0] or was[2]):
                with speaking(after.seats[seat].language or ENGLISH):
                    view = self.game.private_view(self.state(after), seat)
                assert (held[0], view) in self.outlet.whispers, (seat, self.log[-5:])
        # what the undo's own delivery sent, then the AI seats' moves after it
        await self.check(table, after, outcome.events, chained=False)
        resumed = await self.sessions.resume(CHANNEL)
        after2 = await self.load()
        await self.check(after, after2, resumed.events if resumed else [])
        # The same moves again: the same dice, the same game, move by move while nothing
        # else changed (no seat changed hands, no skip or timer played in between).
        if after2.paused or not self.data.draw(st.booleans(), label="redo"):
            return
        for point in undone_all:
            now_table = await self.load()
            if (now_table.status != ACTIVE or holders(now_table) != point.seats
                    or game_only(self.game, self.state(now_table)) != point.before):
                break
            self.log.append(f"redo {point.action.kind} {point.action.args}")
            assert await self.act(point.actor, point.action), "the undone move is refused"
            again = await self.load()
            assert game_only(self.game, self.state(again)) == point.after, self.log[-5:]
            self.points.append(point)
            if again.status == OVER:
                self.points.clear()
                break

    async def leave_or_kick(self, kick: bool) -> None:
        table = await self.load()
        users = sorted({s.user_id for s in table.seats if s.is_human and s.user_id})
        if len(users) < 2:
            return  # the last player: the game would close, not go on
        user = self.data.draw(st.sampled_from(users), label="who goes")
        self.log.append(f"{'kick' if kick else 'leave'} {user}")
        if kick:
            assert await self.act(MOD, Action(T.KICK, {"user": user}))
        else:
            assert await self.act(self.actor_of(user), Action(T.LEAVE))
        after = await self.load()
        assert after.seats_of(user) == []
        seat = T.to_act_seat(after)
        if seat is not None and not after.paused:  # their seat's buttons are not theirs now
            options = self.game.options(self.state(after), seat)
            action = T.for_seat(options[0].action, seat) if options else Action("pass")
            assert not await self.act(self.actor_of(user), action)

    async def seat(self) -> None:
        """An AI seat handed to a member: its player back, or another without a seat."""
        table = await self.load()
        ai_seats = [i for i, s in enumerate(table.seats) if s.ai]
        if not ai_seats:
            return
        seat = self.data.draw(st.sampled_from(ai_seats), label="seat to hand")
        most = self.game.seats_per_player
        free = [a.user_id or 0 for a in self.users
                if len(table.seats_of(a.user_id or 0)) < most]
        if not free:
            return
        user = self.data.draw(st.sampled_from(free), label="taker")
        self.log.append(f"seat {seat} to {user}")
        handed = await self.act(MOD, Action(T.SEAT, {"seat": seat, "user": user,
                                                     "name": self.actor_of(user or 0).name}))
        if handed:
            assert seat in (await self.load()).seats_of(user or 0)

    async def pause_or_resume(self) -> None:
        table = await self.load()
        self.log.append("resume" if table.paused else "pause")
        kind = T.RESUME if table.paused else T.PAUSE
        assert await self.act(MOD, Action(kind))
        after = await self.load()
        assert after.paused != table.paused
        if after.paused:
            assert await self.store.timers_of(after.id or 0) == [], "a paused game's timer"

    async def skip(self) -> None:
        table = await self.load()
        self.log.append("skip")
        await self.act(MOD, Action(T.SKIP, {T.WHOLE_TURN: 1}))
        if table.paused:
            assert (await self.load()).version == table.version

    async def timer(self) -> None:
        """The turn's timers fall due: the reminder, then the turn's end."""
        table = await self.load()
        armed = await self.store.timers_of(table.id or 0)
        if table.paused or T.to_act_seat(table) is None:
            assert armed == []
            return
        self.log.append("timer")
        assert {t.version for t in armed} <= {table.version}
        for kind in (REMIND_TIMER, END_TIMER):
            for timer in [t for t in armed if t.kind == kind]:
                self.clock[0] = max(self.clock[0], timer.due_at)
                outcome = await self.sessions.fire_timer(timer)
                after = await self.load()
                if kind == REMIND_TIMER:
                    assert outcome is None and after.version == table.version
                else:
                    assert after.version > table.version
                    await self.check(table, after, outcome.events if outcome else [])

    async def stale_timer(self, old: list[TurnTimer]) -> None:
        """A timer armed for an older version fires nothing."""
        table = await self.load()
        for timer in old:
            if timer.version != table.version:
                self.clock[0] = max(self.clock[0], timer.due_at)
                assert await self.sessions.fire_timer(timer) is None
                assert (await self.load()).version == table.version

    async def host(self) -> None:
        table = await self.load()
        users = sorted({s.user_id for s in table.seats if s.is_human and s.user_id})
        user = self.data.draw(st.sampled_from(users), label="new host")
        self.log.append(f"host {user}")
        handed = await self.act(MOD, Action(T.HOST, {"user": user}))
        assert handed == (user != table.host_id)
        assert (await self.load()).host_id == user

    async def end(self) -> None:
        """The host or a moderator ends the game: it is over, undo reaches it no more."""
        table = await self.load()
        self.log.append("end")
        by = self.data.draw(st.sampled_from([MOD, self.actor_of(table.host_id)]), label="ender")
        assert await self.act(by, Action(T.END))
        assert (await self.load()).status == OVER
        try:
            await self.sessions.undo(CHANNEL, MOD, 1)
            raise AssertionError("an ended game was undone")
        except IllegalAction:
            pass
        self.points.clear()

    async def finish(self) -> None:
        for _ in range(FINISH_CAP):
            table = await self.load()
            if table.status == OVER:
                return
            self.steps += 1
            if table.paused:
                await self.pause_or_resume()
                continue
            await self.skip()
        assert (await self.load()).status == OVER, "the game did not end"

    async def run(self) -> None:
        for _ in range(OPS):
            table = await self.load()
            if table.status == OVER:
                break
            self.steps += 1
            old = await self.store.timers_of(table.id or 0)
            op = self.data.draw(st.sampled_from(
                ["move"] * 10 + ["undo"] * 3 + ["leave", "kick", "seat", "seat", "pause",
                                                "skip", "timer", "timer", "stale", "host"]
                + ["end"] * (self.steps > OPS * 3 // 4)), label="op")
            if op == "move":
                await self.move()
            elif op == "undo":
                await self.undo()
            elif op in ("leave", "kick"):
                await self.leave_or_kick(op == "kick")
            elif op == "seat":
                await self.seat()
            elif op == "pause":
                await self.pause_or_resume()
            elif op == "skip":
                await self.skip()
            elif op == "host":
                await self.host()
            elif op == "end":
                await self.end()
            elif op == "timer":
                await self.timer()
            else:
                await self.stale_timer(old)
        await self.finish()
        end = await self.load()
        if self.replayable:
            await self.replayed(end)
        if DEBUG:
            print(self.kind, self.steps, self.told, self.split, bool(self.game.teams(
                self.state(end))), end.ended_reason[:60], " | ".join(
                f"{k}:{sum(1 for x in self.log if x.startswith(k))}"
                for k in ("move", "undo", "redo", "kick", "leave", "seat", "pause",
                          "resume", "skip", "timer", "host", "end")))


async def driven(kind: str, count: int, seed: int, data: st.DataObject,
                 options: dict[str, Any] | None = None, check_state: Any = None,
                 rig: Any = None) -> Driver:
    """A table of `count` human seats, started, then played as the module says."""
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "audit.sqlite3")
        try:
            clock = [START]
            outlet = ThreadOutlet()
            sessions = Sessions(store, outlet, render=False, workers=1,
                                clock=lambda: clock[0])
            ending = data.draw(st.sampled_from([AI_PLAYS, SKIP]), label="timer end")
            await store.set_guild_settings(GUILD, GuildSettings(
                remind_minutes=1, act_minutes=2, timer_end=ending).to_dict())
            # Each member in English or in Chinese (every step is then said in both).
            users = [T.Actor(FIRST_USER + i, f"U{i}", language=data.draw(
                st.sampled_from([None, "zh-TW"]), label=f"U{i}'s language"))
                for i in range(count + 2)]
            await sessions.open(CHANNEL, GUILD, users[0], kind, seed, options)
            # Seats the AI plays from the start, and (some games let one person play two
            # seats) the host's second.
            ais = data.draw(st.integers(0, count - 1), label="AI seats")
            second = games.get(kind).seats_per_player > 1 and count - ais > 1 and data.draw(
                st.booleans(), label="second seat")
            for guest in users[1:count - ais - second]:
                await sessions.act(CHANNEL, guest, Action(T.JOIN))
            if second:
                await sessions.act(CHANNEL, users[0], Action(T.SECOND))
            for _ in range(ais):
                await sessions.act(CHANNEL, users[0], Action(T.ADD_AI))
            await sessions.act(CHANNEL, users[0], Action(T.START))
            game = T.game_of(await store.load(CHANNEL))  # type: ignore[arg-type]
            driver = Driver(sessions, store, outlet, game, kind, users, data, clock,
                            check_state=check_state)
            if rig is not None:
                await rig(driver)
                driver.replayable = False
            outlet.clear()
            with speaking(ENGLISH):
                await driver.run()
            return driver
        finally:
            await store.close()


# ---------------------------------------------------------------- the games

def cthulhu_check(before: Any, after: Any, events: list[Event]) -> None:
    cthulhu_invariants(after)


def eb_check(before: Any, after: Any, events: list[Event]) -> None:
    eb_invariants(after)


class BetrayalWatch:
    def __init__(self) -> None:
        self.uprooted: frozenset[int] = frozenset()

    def __call__(self, before: Any, after: Any, events: list[Event]) -> None:
        if before is not None and len(before.tiles) <= len(after.tiles):
            self.uprooted |= what_the_moved([cell_of(t) for t in before.tiles], after, events)
        betrayal_check(after, self.uprooted)


@SETTINGS
@given(seed=st.integers(0, 2**32), count=st.integers(2, 6), data=st.data())
def test_cthulhu_with_moderators(seed: int, count: int, data: st.DataObject) -> None:
    asyncio.run(driven("cthulhu", count, seed, data, check_state=cthulhu_check))


@pytest.mark.parametrize("count", [2, 7])
@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_evil_below_with_moderators(count: int, seed: int, data: st.DataObject) -> None:
    asyncio.run(driven("evilbelow", count, seed, data, check_state=eb_check))


@SETTINGS
@given(seed=st.integers(0, 2**32), count=st.integers(3, 6), data=st.data())
def test_betrayal_exploring_with_moderators(seed: int, count: int,
                                            data: st.DataObject) -> None:
    with mock.patch.object(base.HauntPlugin, "last_round", last_round):
        asyncio.run(driven("betrayal", count, seed, data, check_state=BetrayalWatch()))


def haunt_rig(key: str, count: int, revealer: int) -> Any:
    async def rig(driver: Driver) -> None:
        """The haunt begun on a house AI play built, saved as the table's game."""
        table = await driver.load()
        state, _ = begin(house(count, 1, 25, edition_of(key)), key, revealer)
        for seat, held in enumerate(table.seats):
            state = driver.game.set_player(state, seat, PlayerInfo(held.name, held.ai))
        # as a haunt begun in play is: one person's two seats split between the sides
        state, _ = split_teams(table, driver.game, state, None)
        table.state = driver.game.dump(state)
        await driver.store.save(table, [], expected_version=table.version, actor_id=None,
                                action=None)
        await driver.sessions.resume(CHANNEL)  # an AI seat to act plays, as after a start
    return rig


def haunt_with_moderators(key: str, data: st.DataObject) -> None:
    count = data.draw(st.integers(3, 6), label="players")
    revealer = data.draw(st.integers(0, count - 1), label="revealer")
    options = {"expansion": edition_of(key)}
    with mock.patch.object(base.HauntPlugin, "last_round", last_round):
        asyncio.run(driven("betrayal", count, 1, data, options,
                           check_state=BetrayalWatch(), rig=haunt_rig(key, count, revealer)))


@pytest.mark.parametrize("key", CLASSIC)
@settings(SETTINGS, max_examples=HUNT or 2)
@given(data=st.data())
def test_classic_haunt_with_moderators(key: str, data: st.DataObject) -> None:
    haunt_with_moderators(key, data)


@pytest.mark.parametrize("key", NEIBOLT)
@settings(SETTINGS, max_examples=HUNT or 2)
@given(data=st.data())
def test_neibolt_scenario_with_moderators(key: str, data: st.DataObject) -> None:
    haunt_with_moderators(key, data)
