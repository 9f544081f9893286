"""The only door to a game: per-channel lock, load, apply, save, then delivery.

Every change to a game goes through `Sessions`. It holds no game in memory between
calls (each action loads from the store), so several processes or a restart see the
same truth, and the version check in the store refuses a write that raced another.
Its per-channel lock serialises a channel's actions in this process; the store's
`channel_lock`, taken next, does it across processes (PostgreSQL), answering "busy"
rather than keeping a click waiting past Discord's patience.
Delivery goes through an `Outlet`, so the same code serves Discord, the demo and tests.

Nothing is lost between the save and the post: a save writes its events, and the store
remembers which of them were delivered (the outbox). A delivery (bot/delivery.py plans
it) sends every event owed and then marks them delivered; one cut short by a crash is
sent again at the next start, under the same keys, so Discord (which drops a message
whose nonce it has just seen) shows it once.

What a server has played (bot/games/base.py, PLAYED): an event naming content as it
comes into play is recorded for the table's server in the save that writes it, and a
game starting in that server gets the list in its setup options, so a game can avoid
what the server has seen. Sessions name no game: the keys are the game's own.

Turn timers (bot/timers.py): a save that hands the turn to a human arms the server's
timers in the same transaction, and every save replaces them, so any action cancels
them. `fire_timer` fires one under the channel lock, only if the table is still at the
version the timer was armed for. The server's settings come from `settings` (read
once; /gm settings writes through it).

Several seats may act at once (bot/games/base.py, out_of_turn): after each action, and
between the AI's moves in the chain, an AI seat with an out-of-turn offer plays it
before the AI to act moves, seats in order, at most MAX_OFFERS_IN_A_ROW offers between
two moves of the seat to act (a game whose AI never declines cannot hold the chain).

The operators' metrics (bot/metrics.py) are a `Recorder` given to the constructor, off
(recording nothing) unless the bot turns them on: users' actions played and refused, by
the table's kind, and how long actions and renders take.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar

from bot import games
from bot import table as table_rules
from bot import timers as turn_timers
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.delivery import (
    ChannelGate,
    DeliveryFailed,
    MemberKeeper,
    Outlet,
    Plan,
    Post,
    PostRefused,
    Prompt,
    Sequenced,
    delivery_key,
    is_late,
    prompt_of,
    sequenced,
)
from bot.delivery import late as late_delivery
from bot.delivery import plan as plan_delivery
from bot.games.base import PLAYED, PlayerInfo
from bot.metrics import NO_GAME, NO_METRICS, Recorder
from bot.settings_cache import SettingsCache
from bot.store import (
    ACTIVE,
    LOBBY,
    OVER,
    ChannelBusy,
    GameExists,
    StaleVersion,
    Store,
    StoreUnavailable,
    Table,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.store.guard import guarded
from bot.texts import say
from renderers import describe_public, render_public, render_whole

log = logging.getLogger(__name__)

MAX_AI_STEPS = 500  # a chain of AI decisions longer than this means a bug, not a game
MAX_OFFERS_IN_A_ROW = 20  # AI out-of-turn actions between two moves of the seat to act
DRAIN_SECONDS = 5.0  # a stop waits this long at most for the interactions under way
WORKERS = 2
T = TypeVar("T")
# Set inside an interaction under way (Sessions.serving): a stop lets it finish.
_SERVING: contextvars.ContextVar[bool] = contextvars.ContextVar("hk_serving", default=False)


@dataclass
class Outcome:
    table: Table
    events: list[Event]
    post: Post | None = None
    delivered: bool = True  # False: saved, but the post is still owed (retried later)
    lobby_only: bool = False  # a lobby change: the lobby message shows it, no post
    # Not delivered because the channel refuses the bot's posts: the permissions missing
    # (Discord's names; empty when unknown), for the line the actor reads.
    refused: list[str] | None = None

    @property
    def dm_failed(self) -> list[int]:
        return self.post.dm_failed if self.post else []


@dataclass(frozen=True)
class Played:
    """A step of the rules and what its save needs, all worked out off the event loop."""

    table: Table
    events: list[Event]
    envelope: str  # the new table as the store keeps it (JSON)
    ai_turn: bool  # an AI seat is to act next, or has an out-of-turn offer
    plan: Plan | None = None  # its delivery, worked out ahead when nothing else comes first
    offer_next: bool = False  # an AI seat has an out-of-turn offer now
    ai_to_act: bool = False  # the seat to act is an AI's


class Behind(IllegalAction):
    """A stale click on a table whose delivery was behind: tried again, and `outcome`
    says how that went (still refused: the channel's permissions, for the caller)."""

    def __init__(self, message: str, outcome: Outcome) -> None:
        super().__init__(message)
        self.outcome = outcome


class Acting:
    """One user's action as the metrics see it: the game is known once the table is."""

    __slots__ = ("game", "started")

    def __init__(self) -> None:
        self.game = NO_GAME
        self.started = time.perf_counter()


class Sessions:
    def __init__(self, store: Store, outlet: Outlet, *, ai_chain: bool = True,
                 render: bool = True, workers: int = WORKERS,
                 clock: turn_timers.Clock = time.time,
                 metrics: Recorder = NO_METRICS) -> None:
        self.store = guarded(store)  # an outage is StoreUnavailable, told once
        self.metrics = metrics  # the operators' metrics (bot/metrics.py); off by default
        self.outlet = outlet
        self.settings = SettingsCache(self.store)  # each server's /gm settings, read once
        self.ai_chain = ai_chain
        self.render = render
        self.clock = clock  # when turn timers fall due (tests move their own clock)
        # Told the due time of every timer a save arms (the dispatcher's `armed`).
        self.on_timer_armed: Callable[[float], None] | None = None
        # Rules, AI and renders run here, off the event loop. Few threads on purpose:
        # they share the GIL with the loop, and each more one makes the loop wait
        # longer for it while many channels act at once (see bench/bench_tables.py).
        self._work = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hk-work")
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._draining = False  # stopping: new work is refused, in-flight work ends
        self._serving = 0  # interactions under way (`serving`), each answered before a stop
        self._idle = asyncio.Event()
        self._idle.set()

    def when_store_back(self, listener: Callable[[], None]) -> None:
        """Call `listener` when a store outage ends (the bot then delivers what is owed
        at once rather than at its next retry)."""
        self.store.on_back.append(listener)  # type: ignore[attr-defined]

    # -- a clean stop ---------------------------------------------------------------------

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """Around one interaction, from its arrival to its answer (cogs/common.py's
        `handling`): `drain` waits for it."""
        self._serving += 1
        self._idle.clear()
        token = _SERVING.set(True)
        try:
            yield
        finally:
            _SERVING.reset(token)
            self._serving -= 1
            if self._serving == 0:
                self._idle.set()

    async def drain(self, timeout: float = DRAIN_SECONDS) -> int:
        """Before a stop: refuse new work (a calm "try again in a moment"; the bot's own,
        resumes and timers, sees ChannelBusy), and wait up to `timeout` for the
        interactions under way to be played, delivered and answered, so nobody is left
        without a reply and nothing is cut off mid-way.
        Returns how many were still under way when the wait ended."""
        self._draining = True
        if self._serving:
            log.info("stopping: waiting for %d interaction(s) under way", self._serving)
        with suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)
        if self._serving:
            log.warning("stopping with %d interactions still under way", self._serving)
        return self._serving

    async def warm_up(self) -> None:
        """Draw a new game's board of every kind once, off the loop: the renderers fit
        their palettes and fill their caches at the start, not in the first player's
        click (a few hundred ms)."""
        if not self.render:
            return
        for key, game in games.all_games().items():
            players = [PlayerInfo(f"P{n}") for n in range(game.min_players)]
            state, _ = await self._off_loop(game.setup, players, 0, {})
            await self._off_loop(render_public, key, state)
            await self._off_loop(render_whole, key, state)  # /game map's own palette

    def _played(self, ahead: bool, step: Callable[..., tuple[Table, list[Event]]],
                table: Table, *args: Any) -> Played:
        """A step of the table rules, in a worker thread, with what its save needs (the
        JSON, whether an AI goes next) and, if `ahead` and its delivery will follow at
        once and owe nothing older, that delivery's plan too: one trip off the loop for
        a move.

        The plan is for the table as the store will have it: one version on, these
        events after the last. A save that lands (the version check passes) makes it so.
        """
        new, events = step(table, *args)
        ai_to_act, offer_next = table_rules.ai_work(new)
        ai_turn = ai_to_act or offer_next
        plan = None
        delivers = not (table.status == LOBBY and new.status == LOBBY)
        chains = self.ai_chain and ai_turn and new.status == ACTIVE
        if ahead and delivers and not chains and table.delivered_seq >= table.last_seq:
            saved = new.copy()
            saved.version, saved.last_seq = table.version + 1, table.last_seq + len(events)
            try:
                plan = plan_delivery(saved, sequenced(saved, events),
                                     delivery_key(saved.id or 0, saved.version),
                                     render=self.render)
                self._rendered(table.kind, plan)
            except Exception:  # a broken render must not refuse a legal move: the
                log.exception("planning a delivery failed")  # delivery tries again
                plan = None
        return Played(new, events, json.dumps(new.envelope()), ai_turn, plan,
                      offer_next=offer_next, ai_to_act=ai_to_act)

    async def _off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._work, fn, *args)

    @asynccontextmanager
    async def _locked(self, channel_id: int, *, refuse_busy: bool = True
                      ) -> AsyncIterator[None]:
        """The channel's lock, this process's and then the store's (across processes).
        A user's action held up too long is refused "busy" (`refuse_busy`); the bot's
        own work sees ChannelBusy: another process holds the channel and tends it."""
        if self._draining and not _SERVING.get():  # what was under way goes on
            if refuse_busy:
                raise IllegalAction(say("errors.stopping"))
            raise ChannelBusy("this process is stopping")
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        async with lock, AsyncExitStack() as held:  # then the store's, across processes
            try:
                await held.enter_async_context(self.store.channel_lock(channel_id))
            except ChannelBusy:
                if not refuse_busy:
                    raise
                raise IllegalAction(say("errors.held")) from None
            yield

    # -- reading --------------------------------------------------------------------------

    async def table(self, channel_id: int, *, latest: bool = False) -> Table | None:
        if latest:
            return await self.store.load_latest(channel_id)
        return await self.store.load(channel_id)

    async def board(self, table: Table, *, whole: bool = False) -> bytes | None:
        """The public board image, rendered off the event loop; `whole`: the whole
        board at full size, where the chat board shows part of it (`render_whole`)."""
        if not self.render or table.state is None:
            return None
        return await self._off_loop(self._drawn, table.kind, table_rules.game_state(table),
                                    whole)

    async def board_alt(self, table: Table) -> str:
        """The public board's alt text (what it shows, in words), made off the event
        loop like the board."""
        if table.state is None:
            return ""
        return await self._off_loop(describe_public, table.kind, table_rules.game_state(table))

    def _drawn(self, kind: str, state: Any, whole: bool = False) -> bytes:
        """The public board, its drawing timed for the metrics (in a worker thread)."""
        started = time.perf_counter()
        image = (render_whole if whole else render_public)(kind, state)
        self.metrics.rendered(kind, time.perf_counter() - started)
        return image

    def _rendered(self, kind: str, plan: Plan | None) -> None:
        """A delivery's images were drawn: how long they took, for the metrics."""
        if plan is not None and plan.render_seconds is not None:
            self.metrics.rendered(kind, plan.render_seconds)

    async def secret(self, channel_id: int, user_id: int) -> str:
        table = await self.store.load(channel_id) or await self.store.load_latest(channel_id)
        if table is None:
            raise IllegalAction(say("errors.no_game"))
        seats = table.seats_of(user_id)  # held now: not a seat handed to the AI
        if not seats:
            raise IllegalAction(say("errors.not_seated"))
        if table.state is None:
            raise IllegalAction(say("errors.not_started"))
        game, state = table_rules.game_of(table), table_rules.game_state(table)
        return "\n\n".join(game.private_view(state, seat) for seat in seats)

    # -- changing -------------------------------------------------------------------------

    async def open(self, channel_id: int, guild_id: int | None, host: table_rules.Actor,
                   kind: str, seed: int, options: dict[str, Any] | None = None) -> Outcome:
        """Open a lobby; raises GameExists when the channel already has an open game."""
        async with self._locked(channel_id):
            table, events = table_rules.new_table(kind, channel_id, guild_id, host, seed,
                                                  options)
            table = await self.store.create(table, events, host.user_id,
                                            {"kind": "lobby.open", "args": {"game": kind}})
            return Outcome(table, events)

    async def act(self, channel_id: int, actor: table_rules.Actor, action: Action, *,
                  version: int | None = None) -> Outcome:
        """Apply one action by a user, then let AI seats play until a human is needed.
        Counted and timed for the metrics by the table's kind: played or refused (an
        unexpected exception is the cogs' to count, where it is logged)."""
        acting = Acting()
        try:
            outcome = await self._act(channel_id, actor, action, version, acting)
        except IllegalAction:
            self.metrics.refused(acting.game)
            raise
        self.metrics.acted(acting.game, action.kind, time.perf_counter() - acting.started)
        return outcome

    async def _act(self, channel_id: int, actor: table_rules.Actor, action: Action,
                   version: int | None, acting: Acting) -> Outcome:
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None:
                latest = await self.store.load_latest(channel_id)
                raise IllegalAction(say("errors.game_over" if latest else "errors.no_game"))
            acting.game = table.kind
            if version is not None and version != table.version:
                raise await self._behind(table)
            table = await self._settle(table)
            was_lobby = table.status == LOBBY
            if was_lobby and action.kind == table_rules.START:
                await self._hand_in_played(table)
            owed_from = table.delivered_seq
            played, undo = await self._off_loop(self._played_move, table, actor, action)
            new, events = played.table, played.events
            lobby_only = was_lobby and new.status == LOBBY
            new = await self._save(played, table.version, actor.user_id, action,
                                   delivered=lobby_only, undo=undo)
            if lobby_only:
                return Outcome(new, events, lobby_only=True)
            return await self._continue(new, owed_from, sequenced(new, events),
                                        played.plan, (played.ai_to_act, played.offer_next))

    async def refuse_stale(self, table: Table) -> IllegalAction:
        """What a click from an older message gets (for a cog's own step that plays
        nothing, such as the first half of a two-step choice): as a move's click would."""
        return await self._behind(table)

    async def _behind(self, table: Table) -> IllegalAction:
        """A click from a message older than the table is refused as stale. If the table
        still owes a delivery (its channel refused the post, say), the click is the
        moment to try it again, so the newest controls show; a refusal then says why
        (`Behind.outcome`)."""
        if table.delivered_seq >= table.last_seq:
            return IllegalAction(say("errors.stale"))
        return Behind(say("errors.stale"), await self._deliver(table, table.delivered_seq, []))

    def _played_move(self, table: Table, actor: table_rules.Actor,
                     action: Action) -> tuple[Played, UndoWrite | None]:
        """A user's action, and (for a player's move in a running game) the undo point
        its save keeps: the table as it was before, for /gm undo."""
        played = self._played(True, table_rules.apply, table, actor, action)
        if (table.status != ACTIVE or actor.user_id is None
                or action.kind in table_rules.TABLE_KINDS):
            return played, None
        said = next((e.text for e in played.events if e.audience.is_public), action.kind)
        return played, UndoWrite(keep=True, summary=said[:200])

    async def undo(self, channel_id: int, actor: table_rules.Actor, steps: int) -> Outcome:
        """Take back the last `steps` players' moves (and the AI moves after them): the
        table as it was before the oldest, saved as a new version (so the undone turns'
        buttons are stale), with one public line saying who undid what. Nothing already
        sent is recalled: what a DM revealed stays revealed. Only moves of the running
        game: the lobby and a finished game are out of reach."""
        steps = table_rules.undo_steps(steps)
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None:
                latest = await self.store.load_latest(channel_id)
                raise IllegalAction(say("errors.game_over" if latest else "errors.no_game"))
            if not actor.moderator:
                raise IllegalAction(say("errors.mod_only"))
            points = await self.store.undo_points(table.id or 0, limit=steps)
            if not points:
                raise IllegalAction(say("errors.undo_none"))
            if len(points) < steps:
                raise IllegalAction(say("errors.undo_few", count=len(points)))
            point = points[steps - 1]
            table = await self._settle(table)
            owed_from = table.delivered_seq
            played = await self._off_loop(self._played, True, table_rules.restore, table,
                                          self._past(table, point), actor, steps,
                                          "; ".join(p.summary for p in reversed(points)))
            new = await self._save(played, table.version, actor.user_id,
                                   Action(table_rules.UNDO, {"steps": steps}),
                                   undo=UndoWrite(drop_from=point.version))
            return await self._continue(new, owed_from, sequenced(new, played.events),
                                        played.plan, (played.ai_to_act, played.offer_next))

    @staticmethod
    def _past(table: Table, point: UndoPoint) -> Table:
        return Table.from_row(id=table.id or 0, channel_id=table.channel_id,
                              guild_id=table.guild_id, kind=table.kind, status=ACTIVE,
                              version=point.version, envelope=point.envelope)

    async def _hand_in_played(self, table: Table) -> None:
        """Before a start: the server's played content of this kind joins the table's
        options, which the game's setup reads (kept there, so the game replays exactly).
        Nothing is added when the server has played nothing or there is no server."""
        if table.guild_id is None:
            return
        keys = await self.store.played(table.guild_id, table.kind)
        if keys:
            table.options[PLAYED] = keys

    async def ai_step(self, channel_id: int) -> Outcome | None:
        """One AI decision, if an AI seat is to act (the demo drives games this way)."""
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None or table.status != ACTIVE:
                return None
            ai_to_act, offer = await self._off_loop(table_rules.ai_work, table)
            if not (ai_to_act or offer):
                return None
            table = await self._settle(table)
            owed_from = table.delivered_seq
            step = table_rules.ai_offer_step if offer else table_rules.ai_step
            played = await self._off_loop(self._played, True, step, table)
            new = await self._save(played, table.version, None, None)
            return await self._deliver(new, owed_from, sequenced(new, played.events),
                                       played.plan)

    async def resume(self, channel_id: int, game_id: int | None = None) -> Outcome | None:
        """After a restart (or a failed delivery): deliver what is owed and finish any AI
        turns a crash interrupted. `game_id` reaches a finished game whose end is owed.

        Several processes may try one game at once: the channel lock takes them in turn,
        and the later one, loading afresh, finds nothing owed (the delivery marked; the
        posts' nonces and DM keys cover a crash between send and mark). ChannelBusy:
        another process holds the channel now, and tends to it."""
        async with self._locked(channel_id, refuse_busy=False):
            if game_id is None:
                table = await self.store.load(channel_id)
            else:
                table = await self.store.load_game(game_id)
                if table is not None and table.channel_id != channel_id:
                    table = None
            if table is None:
                return None
            settled: Outcome | None = None
            if table.delivered_seq < table.last_seq:  # first, under its own key
                settled = await self._deliver(table, table.delivered_seq, [])
                if not settled.delivered or settled.table.delivered_seq < table.last_seq:
                    return settled  # still owed: tried again later, the AI waits
                table = settled.table
            ai_turn = any(await self._off_loop(table_rules.ai_work, table))
            if table.status != OVER and table.id is not None:
                await self.store.settle_ai_turn(table.id, table.version, ai_turn)
            if not (self.ai_chain and ai_turn):
                return settled
            return await self._continue(table, table.delivered_seq, [])

    async def _settle(self, table: Table) -> Table:
        """Deliver what an earlier delivery left owed (a crash between the post and its
        mark, a post Discord refused for now) before anything new is saved.

        Owed events go out under the key they were first planned under: the table's
        version now, since nothing was saved after that delivery began. Were they sent
        with the next move's post instead, under its newer key, Discord's nonce check
        could not know a post sent before the crash, and the lines would show twice.
        When they cannot go out now, the new action is refused and the game is untouched:
        saving it would move the version on and lose the key."""
        if table.id is None or table.delivered_seq >= table.last_seq:
            return table
        outcome = await self._deliver(table, table.delivered_seq, [])
        if not outcome.delivered or outcome.table.delivered_seq < table.last_seq:
            outage = self.store.outage  # type: ignore[attr-defined]
            if outage is not None:  # the store, not Discord: say so
                raise StoreUnavailable(outage)
            raise Behind(say("errors.still_owed"), outcome)  # says why, if it knows
        return outcome.table

    async def _continue(self, table: Table, owed_from: int, batch: Sequenced,
                        plan: Plan | None = None,
                        work: tuple[bool, bool] | None = None) -> Outcome:
        """Let AI seats play until a human is needed, then deliver it all as one post.

        `work` is what `table_rules.ai_work` says of `table`, when the caller knows it.
        An AI seat's out-of-turn offer comes before the AI to act moves (bounded by
        MAX_OFFERS_IN_A_ROW). A failure in the chain after the user's action was saved
        must not hide that action: what was saved is delivered, and the chain is picked
        up again later (the store still says an AI is to act).
        """
        steps = 0
        offers = 0  # offers played since the seat to act last moved
        if self.ai_chain and table.status == ACTIVE and work is None:
            work = await self._off_loop(table_rules.ai_work, table)
        while self.ai_chain and table.status == ACTIVE and work is not None:
            ai_to_act, offer_next = work
            offer = offer_next and offers < MAX_OFFERS_IN_A_ROW
            if not (offer or ai_to_act):
                break
            steps += 1
            if steps > MAX_AI_STEPS:
                log.error("AI chain in channel %s did not settle", table.channel_id)
                break
            offers = offers + 1 if offer else 0
            try:
                step = table_rules.ai_offer_step if offer else table_rules.ai_step
                played = await self._off_loop(self._played, False, step, table)
                more = played.events
                table = await self._save(played, table.version, None, None)
                work = (played.ai_to_act, played.offer_next)
            except StoreUnavailable:  # the outage is logged once, by the store
                log.info("an AI step in channel %s waits for the store", table.channel_id)
                break
            except Exception:
                log.exception("an AI step in channel %s failed; what was saved is delivered",
                              table.channel_id)
                break
            batch.extend(sequenced(table, more))
            plan = None  # made for the user's move alone
        return await self._deliver(table, owed_from, batch, plan)

    async def _save(self, played: Played, expected: int, actor_id: int | None,
                    action: Action | None, *, delivered: bool = False,
                    undo: UndoWrite | None = None) -> Table:
        keys = [str(e.data[PLAYED]) for e in played.events if e.data.get(PLAYED)]
        timers = await self._arm(played)
        try:
            saved = await self.store.save(played.table, played.events,
                                          expected_version=expected, actor_id=actor_id,
                                          action=action.to_dict() if action else None,
                                          delivered=delivered, ai_turn=played.ai_turn,
                                          envelope=played.envelope, played=keys,
                                          undo=undo, timers=timers)
        except StaleVersion:
            raise IllegalAction(say("errors.busy")) from None
        if timers and self.on_timer_armed is not None:
            self.on_timer_armed(min(t.due_at for t in timers))
        return saved

    # -- turn timers ----------------------------------------------------------------------

    async def _arm(self, played: Played) -> list[TimerArm]:
        """The turn timers this save arms (none while an AI is to act: the chain goes on)."""
        if played.ai_to_act or played.table.status != ACTIVE:
            return []
        settings = await self.settings.get(played.table.guild_id)
        return turn_timers.arm(played.table, settings, self.clock())

    async def fire_timer(self, timer: TurnTimer) -> Outcome | None:
        """A turn timer fell due: claim it (once, whoever else tries), then, if the table
        is still as it was armed, remind the player or end the turn as the server says."""
        async with self._locked(timer.channel_id, refuse_busy=False):
            table = await self.store.load(timer.channel_id)
            if table is not None:
                try:  # what is owed goes first; unclaimed, the timer is tried again
                    table = await self._settle(table)
                except IllegalAction:
                    return None
            if await self.store.claim_timer(timer) is None:
                return None  # fired already, or a save replaced it
            settings = await self.settings.get(table.guild_id if table else None)
            if table is None or not turn_timers.fires(timer, table, settings):
                return None
            if turn_timers.reminds(timer, settings):
                await self.outlet.remind(table, timer.user_id,
                                         turn_timers.reminder(timer, self.clock()))
                return None
            owed_from = table.delivered_seq
            played = await self._off_loop(self._played, True, turn_timers.run_out, table,
                                          settings.timer_end)
            new = await self._save(played, table.version, None,
                                   turn_timers.ran_out_action(settings.timer_end))
            return await self._continue(new, owed_from, sequenced(new, played.events),
                                        played.plan, (played.ai_to_act, played.offer_next))

    async def _owed(self, table: Table, owed_from: int, batch: Sequenced) -> Sequenced:
        """Everything not yet delivered: what an earlier delivery (or a crash) left, then
        this batch."""
        first = batch[0][0] if batch else table.last_seq + 1
        if owed_from + 1 >= first or table.id is None:
            return batch
        earlier = [(e.seq, e.event()) for e in await self.store.undelivered(table.id)
                   if e.seq < first]
        return earlier + batch

    async def _deliver(self, table: Table, owed_from: int, batch: Sequenced,
                       plan: Plan | None = None) -> Outcome:
        """Private lines to their users, team lines to their teams, then one public post,
        then the private documents it announces; then the store hears it was delivered.

        A player's lines go one whisper each, as they come. A team's lines are joined
        into one message per team per delivery (the action and the AI turns it set off),
        so a team's thread reads like the channel: one post per move, not a line each.
        """
        owed = await self._owed(table, owed_from, batch)
        events = [event for _, event in owed]
        key = delivery_key(table.id or 0, table.version)
        if plan is not None and (plan.key != key or len(owed) != len(batch)):
            plan = None  # made for another version, or before older debts came to light
        try:
            post = await self._send(table, owed, key, plan)
        except PostRefused as exc:  # stays owed; the outlet told the moderators once
            log.info("channel %s refuses the game's posts (%s); they stay owed",
                     table.channel_id, exc)
            return Outcome(table, events, None, delivered=False, refused=exc.missing)
        except StoreUnavailable:  # the outage is logged once, by the store
            log.info("delivery in channel %s waits for the store", table.channel_id)
            return Outcome(table, events, None, delivered=False)
        except DeliveryFailed as exc:  # Discord, for now: one line, no traceback
            log.warning("delivery in channel %s failed (%s); it stays owed",
                        table.channel_id, exc)
            return Outcome(table, events, None, delivered=False)
        except Exception:
            log.warning("delivery in channel %s failed; it stays owed", table.channel_id,
                        exc_info=True)
            return Outcome(table, events, None, delivered=False)
        if table.id is not None and table.delivered_seq < table.last_seq:
            try:
                await self.store.mark_delivered(table.id, table.last_seq)
                table.delivered_seq = table.last_seq
            except StoreUnavailable:  # sent; sent again under the same keys, shown once
                log.info("game %s is marked delivered when the store is back", table.id)
            except Exception:  # sent already; at worst sent again under the same keys
                log.exception("could not mark game %s delivered", table.id)
        return Outcome(table, events, post)

    async def _send(self, table: Table, owed: Sequenced, key: str,
                    plan: Plan | None) -> Post:
        """Private lines one whisper each, as they came; a team's lines as one message
        per team; then the public post, which names whom a DM did not reach; then the
        private and team documents (a secret book), which the post announces.
        Nothing at all while the outlet knows the channel refuses the post: the lines
        would go out again with the post, once it can be made."""
        if isinstance(self.outlet, ChannelGate):
            refused = await self.outlet.refusal(table)
            if refused is not None:
                raise refused
        if plan is None:
            plan = await self._off_loop(partial(plan_delivery, render=self.render), table,
                                        owed, key)
            self._rendered(table.kind, plan)
        failed: list[int] = []
        if plan.members is not None and isinstance(self.outlet, MemberKeeper):
            # before any team line: who left must not read this delivery's
            await self.outlet.members(table, plan.members)

        def note(user_ids: list[int]) -> None:
            failed.extend(u for u in user_ids if u not in failed)

        for user_id, text, whisper in plan.whispers:
            if not await self.outlet.whisper(table, user_id, text, key=whisper):
                note([user_id])
        for team, users, text, team_key in plan.teams:
            note(await self.outlet.team(table, team, users, text, key=team_key))
        post = Post(lines=plan.lines, image=plan.image, prompt=plan.prompt, dm_failed=failed,
                    documents=plan.documents, key=key,
                    chapter=plan.chapter, turn=plan.turn, seqs=plan.seqs, alt=plan.alt,
                    headlines=plan.headlines, whole=plan.whole, turns=plan.turns,
                    play_by_play=await self._play_by_play(table))
        await self.outlet.publish(table, post)
        late = await self._send_late(table, owed, key)
        missed = list(dict.fromkeys(u for u in late if u not in failed))
        return replace(post, dm_failed=[*failed, *missed]) if missed else post

    async def _play_by_play(self, table: Table) -> bool:
        """Whether this delivery's lines go to the game's play-by-play thread too: the
        server turned it on (read per delivery, so a change reaches a running game at
        its next move), and the game has begun (a lobby's end opens no thread)."""
        if table.state is None or table.guild_id is None:
            return False
        return (await self.settings.get(table.guild_id)).play_by_play is True

    async def _send_late(self, table: Table, owed: Sequenced, key: str) -> list[int]:
        """The documents that wait for the post (delivery.late); the users they could not
        reach. The post went first, so it cannot name them: the outcome does, and the
        outlet tells them privately at their next click."""
        if not any(is_late(event) for _, event in owed):
            return []
        whispers, teams = late_delivery(table, owed, key)
        failed: list[int] = []
        for user_id, text, whisper in whispers:
            if not await self.outlet.whisper(table, user_id, text, key=whisper):
                failed.append(user_id)
        for team, users, text, team_key in teams:
            failed += await self.outlet.team(table, team, users, text, key=team_key)
        return failed

    def prompt(self, table: Table) -> Prompt | None:
        """What the game waits for now (the cogs build buttons and autocomplete from it)."""
        return prompt_of(table)


__all__ = ["Behind", "GameExists", "Outcome", "Outlet", "Post", "Prompt", "Sessions"]
