"""The only door to a game. One click, top to bottom (`act`, then `_act`):

1. A delivery turn for the channel is opened (`self.locks.turn`, bot/channel_locks.py);
   nothing is held yet.
2. The channel's lock, with the game loaded (`_ready`): this process's lock, then the
   store's (PostgreSQL's advisory lock, across processes: "busy" rather than a click
   kept past Discord's patience). The rules keep nothing in memory between actions, so
   every process and a restarted bot see the same truth (a SQLite store answers the
   load from the rows it last read or wrote, since one process owns its file:
   bot/store/kept.py). A click drawn at another version is
   refused as stale. What an earlier delivery left owed goes out first, under its own
   key, with the lock let go (`_catch_up`), and the game is loaded again.
3. The rules, in a worker thread (`self.worker.move`, bot/worker.py), said in English
   and in every other language the table needs (`_languages`, bot/languages.py).
4. One transaction (`_save`): the new table, checked against the version loaded (a save
   that lost a race is refused "busy"), and its events (the outbox: owed until
   delivered), the undo point and the turn timers of the new version.
5. The AI seats play until a human is needed (`_ai_plays`), a few steps to a trip to the
   worker, each trip's steps saved together.
6. The delivery lock is taken (`turn.take`) before the channel's lock is let go, so the
   channel's deliveries keep the order of their saves, one at a time.
7. The channel's lock is let go. The delivery (`_deliver`, bot/courier.py) plans what
   the saves owe from the table as saved (or takes the plan that step 3, or the AI
   chain's last step in 5, made for the table its save was to leave, when the save left
   exactly that: bot/worker.py's `Ahead`), sends it through the `Outlet` (Discord, the
   demo or the tests), then marks it delivered. A slow Discord keeps no other click of
   the channel waiting; the delivery still runs in the click's own task, so the outlet's
   edit of the clicked message is the click's answer (cogs/reply.py).

Nothing is lost between the save and the post, and nothing shows twice: the store
remembers which events were delivered, a delivery is named by the game's version and
sent again under the same keys when cut short (Discord drops a message whose nonce it
has just seen), and nothing is saved while a delivery is owed (step 2), so the key of
what is owed is always the version now.

What a server has played (bot/games/base.py, PLAYED): an event naming content as it
comes into play is recorded for the table's server in the save that writes it, and a
game starting in that server gets the list in its setup options, so a game can avoid
what the server has seen. Sessions name no game: the keys are the game's own.

Turn timers (bot/timers.py): a save that hands the turn to a human arms the server's
timers in the same transaction, and every save replaces them, so any action cancels
them; a save that leaves the same turn waiting arms them again from that turn's start.
`fire_timer` fires one as a click would play, only if the table is still at the version
the timer was armed for. The server's settings come from `settings` (read
once; /gm settings writes through it).

Several seats may act at once (bot/games/base.py, out_of_turn): after each action, and
between the AI's moves in the chain, an AI seat with an out-of-turn offer plays it
before the AI to act moves, seats in order, at most MAX_OFFERS_IN_A_ROW (bot/worker.py)
offers between two moves of the seat to act (a game whose AI never declines cannot hold
the chain).

The operators' metrics (bot/metrics.py) are a `Recorder` given to the constructor, off
(recording nothing) unless the bot turns them on: users' actions played and refused, by
the table's kind, and how long actions and renders take.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from dataclasses import replace
from typing import Any

from bot import games
from bot import table as table_rules
from bot import timers as turn_timers
from bot.channel_locks import ChannelLocks, DeliveryTurn
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.courier import Courier, Outcome, owes
from bot.delivery import Outlet, Post, Prompt, Sequenced, prompt_of, sequenced, timer_key
from bot.games.base import PLAYED
from bot.guild_settings import GuildSettings
from bot.languages import heard, needed, said_in, server_language
from bot.locales import ENGLISH, LANGUAGES, OTHER_LANGUAGES, speaking
from bot.metrics import NO_GAME, NO_METRICS, Recorder
from bot.settings_cache import SettingsCache
from bot.store import (
    ChannelBusy,
    GameExists,
    GameResult,
    StaleVersion,
    Store,
    StoreUnavailable,
    TimerArm,
    TurnTimer,
    UndoPoint,
    UndoWrite,
)
from bot.store.guard import guarded
from bot.summary import LOG_ALL
from bot.table_record import ACTIVE, LOBBY, OVER, Table
from bot.texts import say
from bot.worker import WORKERS, Ahead, AiWork, Foresight, Played, Worker

log = logging.getLogger(__name__)

MAX_AI_STEPS = 500  # a chain of AI decisions longer than this means a bug, not a game
# Boards a start draws ahead (`warm_boards`): the open games played last, as many as the
# busiest servers we measure have channels at play (issue 23's 200), and what the band
# cache keeps warm for them (renderers.budgets: 200 haunts held 16 of its 20 MB).
# bench/bench_channels.py, 200 haunt channels: the first actions' p50 against the floor
# 4.07-4.18x with 48 drawn ahead, 2.97-3.01x with 200 (their max 11-15x, 7.4x), for
# ~10 MB more RSS once drawn, which those channels' first clicks would take anyway. Each
# board waits for the clicks under way (~2 s of a worker's time for 200 cold boards).
WARM_BOARDS = 200
DRAIN_SECONDS = 5.0  # a stop waits this long at most for the interactions under way
# Times a click finds its game owing a delivery and has it sent before it plays: more
# than once only when another move was saved in between; past this, "busy".
CATCH_UPS = 3
# Set inside an interaction under way (Sessions.serving): a stop lets it finish.
_SERVING: contextvars.ContextVar[bool] = contextvars.ContextVar("hk_serving", default=False)


class Behind(IllegalAction):
    """A click refused while its game owed a delivery that could not go out: `outcome`
    says how the try went (the channel refusing the bot's posts, say: the cogs tell the
    caller what is missing)."""

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
        self.worker = Worker(metrics, workers)  # rules, AI and renders, off the loop
        self.courier = Courier(self.store, outlet, self.worker, self.settings, render=render)
        self.locks = ChannelLocks(self.store)  # each channel's, to change and to deliver
        self._draining = False  # stopping: new work is refused, in-flight work ends
        self._serving = 0  # interactions under way (`serving`), each answered before a stop
        self._idle = asyncio.Event()
        self._idle.set()

    def when_store_back(self, listener: Callable[[], None]) -> None:
        """Call `listener` when a store outage ends (the bot then delivers what is owed
        at once rather than at its next retry)."""
        self.store.on_back.append(listener)  # type: ignore[attr-defined]

    # -- one click ------------------------------------------------------------------------

    async def act(self, channel_id: int, actor: table_rules.Actor, action: Action, *,
                  version: int | None = None) -> Outcome:
        """Apply one action by a user, then let AI seats play until a human is needed,
        then deliver it all. Counted and timed for the metrics by the table's kind:
        played or refused (an unexpected exception is the cogs' to count, where it is
        logged)."""
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
        """One click, in the order it happens (the module's docstring names each step)."""
        async with self.locks.turn(channel_id) as turn:
            async with self._ready(channel_id, version=version, acting=acting) as table:
                if table is None:
                    raise await self._no_game(channel_id)
                if table.status == LOBBY and action.kind == table_rules.START:
                    await self._hand_in_played(table)
                settings = await self.settings.get(table.guild_id)
                actor = replace(actor, public_language=self._server(table, actor, settings))
                played = await self.worker.move(
                    table, actor, action, await self._languages(table, actor, settings),
                    foresight=Foresight(self.courier.render, settings))
                lobby_only = table.status == LOBBY and played.table.status == LOBBY
                saved = await self._save(played, table, actor.user_id, action,
                                         delivered=lobby_only, undo=played.undo)
                if lobby_only:  # the lobby message shows it (cogs/lobby.py): nothing owed
                    return Outcome(saved, played.events, lobby_only=True)
                saved, owed, ahead = await self._ai_plays(
                    saved, played.ai, sequenced(saved, played.events), played.ahead)
                await turn.take()  # before the channel's lock goes: deliveries keep order
            return await self._deliver(turn, saved, owed, ahead)

    @asynccontextmanager
    async def _ready(self, channel_id: int, *, version: int | None = None,
                     game_id: int | None = None, refuse_busy: bool = True,
                     acting: Acting | None = None) -> AsyncIterator[Table | None]:
        """The channel's lock, held with its game loaded and owing nothing (None: no game
        open there; with `game_id`, that game, finished or not).

        A click drawn at another `version` is refused as stale. What an earlier delivery
        left owed (one still under way, a crash between the post and its mark, a post
        Discord refused for now) goes out first, under its own key and with the lock let
        go (`_catch_up`); then the game is loaded again. When it cannot go out, the
        action is refused (Behind, or StoreUnavailable) and the game is untouched.
        `acting` hears the game's kind once it is loaded (the metrics count a refusal
        by it)."""
        for _ in range(CATCH_UPS):
            async with self._locked(channel_id, refuse_busy=refuse_busy):
                table = await self._load(channel_id, game_id)
                if table is not None and acting is not None:
                    acting.game = table.kind
                stale = table is not None and version is not None and version != table.version
                if table is None or not (stale or owes(table)):
                    yield table
                    return
            # A stale click does not wait for a delivery under way: it plays nothing.
            caught_up = await self._catch_up(table, wait=not stale, refuse_busy=refuse_busy)
            if stale:
                raise self._stale(caught_up)
            self._caught_up(caught_up)
        if refuse_busy:
            raise IllegalAction(say("errors.held"))
        raise ChannelBusy(f"channel {channel_id} kept owing deliveries")

    async def _catch_up(self, seen: Table, *, wait: bool = True,
                        refuse_busy: bool = True) -> Outcome | None:
        """Deliver what `seen` owed, under its own key: the version's, since nothing is
        saved while a delivery is owed. (Were the owed lines sent with the next move's
        post instead, under its newer key, Discord's nonce check could not know a post
        sent before a crash, and they would show twice.) Done under the channel's
        delivery lock, its lock let go, as any delivery.

        None: nothing was left to do. Nothing was owed; or the game moved on meanwhile
        (a save after `seen` means what it owed went out first); or, not `wait`, another
        delivery of the channel is under way (it sends what is owed)."""
        if not owes(seen):
            return None
        try:
            async with self.locks.delivering(seen.channel_id, wait=wait):
                table = await self._load(seen.channel_id, seen.id)  # by id: an end owed too
                if table is None or table.version != seen.version or not owes(table):
                    return None
                return await self.courier.deliver(table)
        except ChannelBusy:
            if not wait:
                return None
            if refuse_busy:
                raise IllegalAction(say("errors.held")) from None
            raise

    def _caught_up(self, caught_up: Outcome | None) -> None:
        """Refuse the action whose game still owes a delivery: saving now would move the
        version on and lose the owed delivery's key. The store away says so."""
        if caught_up is None or (caught_up.delivered and not owes(caught_up.table)):
            return
        outage = self.store.outage  # type: ignore[attr-defined]
        if outage is not None:
            raise StoreUnavailable(outage)
        raise Behind(say("errors.still_owed"), caught_up)  # says why, if it knows

    @staticmethod
    def _stale(caught_up: Outcome | None) -> IllegalAction:
        """A click from a message older than the table. When the table owed a delivery
        the click tried it again (so the newest controls show), and a refusal says why
        the message is behind (Behind.outcome)."""
        if caught_up is None:
            return IllegalAction(say("errors.stale"))
        return Behind(say("errors.stale"), caught_up)

    async def _no_game(self, channel_id: int) -> IllegalAction:
        latest = await self.store.load_latest(channel_id)
        return IllegalAction(say("errors.game_over" if latest else "errors.no_game"))

    async def _load(self, channel_id: int, game_id: int | None = None) -> Table | None:
        """The channel's open game; or the game `game_id` if it was played there."""
        if game_id is None:
            return await self.store.load(channel_id)
        table = await self.store.load_game(game_id)
        return table if table is not None and table.channel_id == channel_id else None

    async def _hand_in_played(self, table: Table) -> None:
        """Before a start: the server's played content of this kind joins the table's
        options, which the game's setup reads (kept there, so the game replays exactly).
        Nothing is added when the server has played nothing or there is no server."""
        if table.guild_id is None:
            return
        keys = await self.store.played(table.guild_id, table.kind)
        if keys:
            table.options[PLAYED] = keys

    async def _save(self, played: Played, loaded: Table, actor_id: int | None,
                    action: Action | None, *, delivered: bool = False,
                    undo: UndoWrite | None = None) -> Table:
        """One transaction: the new table at the loaded version + 1 (a save that lost a
        race to another is refused "busy"), its events appended to the log (the outbox:
        owed until delivered, unless `delivered`), whether an AI is to act, the content
        it put in play, the undo point and the turn timers of the new version."""
        keys = [str(e.data[PLAYED]) for e in played.events if e.data.get(PLAYED)]
        timers = await self._arm(played, loaded)
        result = None
        if played.table.status == OVER and loaded.status != OVER:
            result = await self._told(played)
        try:
            saved = await self.store.save(played.table, played.events,
                                          expected_version=loaded.version, actor_id=actor_id,
                                          action=action.to_dict() if action else None,
                                          delivered=delivered, ai_turn=played.ai.any,
                                          envelope=played.envelope, played=keys,
                                          undo=undo, timers=timers, result=result,
                                          moves=played.moves)
        except StaleVersion:
            raise IllegalAction(say("errors.busy")) from None
        if timers and self.on_timer_armed is not None:
            self.on_timer_armed(min(t.due_at for t in timers))
        return saved

    async def _told(self, played: Played) -> GameResult | None:
        """The story of the game `played` ends (bot/summary.py): its summary joins the
        save's events, in place, since every caller delivers `played.events` (so it
        reaches the final post, and the log), and its result goes into the same save. A
        story that fails is logged and left out: the game still ends."""
        if played.table.id is None:
            return None
        try:
            entries = await self.store.log(played.table.id, limit=LOG_ALL, public_only=False)
            # Told in every language, not only the table's: /game history opens it
            # later for anyone, in their own (cogs/history.py).
            told = await self.worker.summary(played.table, entries, played.events,
                                             OTHER_LANGUAGES)
        except StoreUnavailable:
            raise
        except Exception:
            log.exception("the story of game %s could not be told", played.table.id)
            return None
        if told is None:
            return None
        event, result = told
        played.events.append(event)
        return result

    async def _ai_plays(self, table: Table, work: AiWork, owed: Sequenced,
                        ahead: Ahead | None = None
                        ) -> tuple[Table, Sequenced, Ahead | None]:
        """Let AI seats play until a human is needed, a few steps to a trip and each
        trip's steps saved together (bot/worker.py's `ai_moves`: a trip works a few ms at
        most, so other channels' work takes turns with a long chain); returns the table
        after the last, every event owed, `owed` and theirs, and the plan of their
        delivery when the last trip made it (`ahead`, the one made with `owed`'s save,
        when no AI played: bot/worker.py's Ahead). An AI seat's out-of-turn offer comes
        before the AI to act moves (at most bot/worker.py's MAX_OFFERS_IN_A_ROW between
        two moves of the seat to act: a game whose AI never declines cannot hold the
        chain). A failure in the chain after the user's action was saved must not hide
        that action: what was saved is delivered, and the chain is picked up again later
        (the store still says an AI is to act). The AI's steps are the same whichever
        trips take them: each is decided from the table the one before it left, and a
        crash before a trip's save leaves the AI to act, to take the same steps again."""
        steps = 0
        offers = 0  # offers played since the seat to act last moved
        while self.ai_chain and table.status == ACTIVE:
            if not work.any:
                break
            if steps >= MAX_AI_STEPS:
                log.error("AI chain in channel %s did not settle", table.channel_id)
                break
            ahead = None  # a plan made before these steps is no longer the delivery's
            try:
                settings = await self.settings.get(table.guild_id)
                chained = await self.worker.ai_moves(
                    table, work, languages=await self._languages(table, None, settings),
                    foresight=Foresight(self.courier.render, settings), owed=owed,
                    steps=MAX_AI_STEPS - steps, offers=offers,
                    public=self._server(table, None, settings))
                played = chained.played
                if played is not None:
                    table = await self._save(played, table, None, None)
            except StoreUnavailable:  # the outage is logged once, by the store
                log.info("an AI step in channel %s waits for the store", table.channel_id)
                break
            except Exception:
                log.exception("an AI step in channel %s failed; what was saved is delivered",
                              table.channel_id)
                break
            if played is not None:
                steps, offers = steps + chained.steps, chained.offers
                owed = [*owed, *sequenced(table, played.events)]
                work, ahead = played.ai, played.ahead
            if chained.failed is not None:
                log.error("an AI step in channel %s failed; what was saved is delivered",
                          table.channel_id, exc_info=chained.failed)
                break
            if played is None:  # no step was open to the AI (its offers ran out)
                break
        return table, owed, ahead

    async def _deliver(self, turn: DeliveryTurn, saved: Table, owed: Sequenced,
                       ahead: Ahead | None = None) -> Outcome:
        """What the saves owe, sent in the channel's delivery turn, the channel's lock let
        go (`ahead`: its plan, made with the move, bot/worker.py). No turn (another
        process kept the delivery lock past the store's wait, or the store is away): it
        stays owed, and the retry or the next click sends it."""
        if not turn.held:
            return Outcome(saved, [event for _, event in owed], delivered=False)
        return await self.courier.deliver(saved, owed, ahead)

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
        async with AsyncExitStack() as held:
            try:
                await held.enter_async_context(self.locks.acting(channel_id))
            except ChannelBusy:
                if not refuse_busy:
                    raise
                raise IllegalAction(say("errors.held")) from None
            yield

    async def _languages(self, table: Table, actor: table_rules.Actor | None = None,
                         settings: GuildSettings | None = None) -> tuple[str, ...]:
        """Every language besides English this table's next step must be said in: the
        server's and each seated player's, the actor's own included (bot/languages.py).
        `settings`: the server's, when the caller has them."""
        if settings is None:
            settings = await self.settings.get(table.guild_id)
        wanted = set(needed(table, self._server(table, actor, settings)))
        if actor is not None and actor.language and actor.language != ENGLISH:
            wanted.add(actor.language)
        return tuple(sorted(wanted))

    @staticmethod
    def _server(table: Table, actor: table_rules.Actor | None,
                settings: GuildSettings) -> str:
        """The language of the table's public posts, the acting interaction's report of
        the server's locale standing in for a table that has none yet."""
        if actor is not None and table.guild_language is None and actor.guild_language:
            return server_language(replace(table, guild_language=actor.guild_language),
                                   settings)
        return server_language(table, settings)

    # -- the other ways in ----------------------------------------------------------------

    async def open(self, channel_id: int, guild_id: int | None, host: table_rules.Actor,
                   kind: str, seed: int, options: dict[str, Any] | None = None) -> Outcome:
        """Open a lobby; raises GameExists when the channel already has an open game."""
        async with self._locked(channel_id):
            def opened() -> tuple[Table, list[Event]]:
                return table_rules.new_table(kind, channel_id, guild_id, host, seed, options)

            # Built once first to learn the languages it reads, which said_in then needs.
            with speaking(ENGLISH):
                table, _ = opened()
            heard(table, host.user_id, host.language, host.guild_language)
            # Its first line (the host sitting down) is said as every step is: in English,
            # the log's truth, and in each language the table reads (bot/languages.py).
            _, events = said_in(opened, await self._languages(table, host))
            table = await self.store.create(table, events, host.user_id,
                                            {"kind": "lobby.open", "args": {"game": kind}})
            return Outcome(table, events)

    async def channel_gone(self, channel_id: int) -> bool:
        """The channel was deleted (Discord said so, or refused a post there as an unknown
        channel): nothing can be shown there again, so its open game, lobby or running,
        ends now, its turn timers with it (every save replaces them), and nothing is
        left owed to be retried for ever: what it owed had nowhere to go. True when a
        game was closed. ChannelBusy: this process is stopping, or another holds the
        channel (the next post there meets the unknown channel again)."""
        gone = Action(table_rules.GONE)
        async with self._locked(channel_id, refuse_busy=False):
            table = await self._load(channel_id)
            if table is None:
                return False
            played = await self.worker.move(table, table_rules.AI_ACTOR, gone,
                                            await self._languages(table))
            saved = await self._save(played, table, None, gone, delivered=True)
            if saved.id is not None and owes(saved):
                await self.store.mark_delivered(saved.id, saved.last_seq)
        log.info("channel %s was deleted: game %s is closed", channel_id, saved.id)
        return True

    async def refuse_stale(self, table: Table) -> IllegalAction:
        """What a click from an older message gets (for a cog's own step that plays
        nothing, such as the first half of a two-step choice): as a move's click would."""
        if not owes(table):
            return self._stale(None)
        seen = await self._look(table.channel_id)
        return self._stale(await self._catch_up(seen, wait=False) if seen else None)

    async def _look(self, channel_id: int, game_id: int | None = None, *,
                    refuse_busy: bool = True) -> Table | None:
        """The game as it stands between two changes: loaded under the channel's lock,
        so no AI chain is half way (what it owes is whole, ready for `_catch_up`)."""
        async with self._locked(channel_id, refuse_busy=refuse_busy):
            return await self._load(channel_id, game_id)

    async def undo(self, channel_id: int, actor: table_rules.Actor, steps: int) -> Outcome:
        """Take back the last `steps` players' moves (and the AI moves after them): the
        table as it was before the oldest, saved as a new version (so the undone turns'
        buttons are stale), with one public line saying who undid what. Nothing already
        sent is recalled: what a DM revealed stays revealed. Only moves of the running
        game: the lobby and a finished game are out of reach."""
        steps = table_rules.undo_steps(steps)
        async with self.locks.turn(channel_id) as turn:
            async with self._ready(channel_id) as table:
                if table is None:
                    raise await self._no_game(channel_id)
                if not actor.moderator:
                    raise IllegalAction(say("errors.mod_only"))
                if table.status != ACTIVE:  # a lobby: no move of the game to take back
                    raise IllegalAction(say("errors.not_started"))
                points = await self.store.undo_points(table.id or 0, limit=steps)
                if not points:
                    raise IllegalAction(say("errors.undo_none"))
                if len(points) < steps:
                    raise IllegalAction(say("errors.undo_few", count=len(points)))
                point = points[steps - 1]
                played = await self.worker.undo(table, self._past(table, point), actor, steps,
                                                [p.summary for p in reversed(points)],
                                                await self._languages(table, actor))
                saved = await self._save(played, table, actor.user_id,
                                         Action(table_rules.UNDO, {"steps": steps}),
                                         undo=UndoWrite(drop_from=point.version))
                saved, owed, ahead = await self._ai_plays(saved, played.ai,
                                                          sequenced(saved, played.events))
                await turn.take()
            return await self._deliver(turn, saved, owed, ahead)

    @staticmethod
    def _past(table: Table, point: UndoPoint) -> Table:
        return Table.from_row(id=table.id or 0, channel_id=table.channel_id,
                              guild_id=table.guild_id, kind=table.kind, status=ACTIVE,
                              version=point.version, envelope=point.envelope)

    async def ai_step(self, channel_id: int) -> Outcome | None:
        """One AI decision, if an AI seat is to act (the demo drives games this way)."""
        async with self.locks.turn(channel_id) as turn:
            async with self._ready(channel_id) as table:
                if table is None or table.status != ACTIVE:
                    return None
                work = await self.worker.ai_work(table)
                if not work.any:
                    return None
                settings = await self.settings.get(table.guild_id)
                chained = await self.worker.ai_moves(
                    table, work, languages=await self._languages(table, None, settings),
                    steps=1, public=self._server(table, None, settings))
                if chained.failed is not None:
                    raise chained.failed
                played = chained.played
                if played is None:  # no step was open to the AI
                    return None
                saved = await self._save(played, table, None, None)
                await turn.take()
            return await self._deliver(turn, saved, sequenced(saved, played.events))

    async def resume(self, channel_id: int, game_id: int | None = None) -> Outcome | None:
        """After a restart (or a failed delivery): deliver what is owed and finish any AI
        turns a crash interrupted. `game_id` reaches a finished game whose end is owed.

        Several processes may try one game at once: the delivery lock takes them in
        turn, and the later one, loading afresh, finds nothing owed (the delivery marked;
        the posts' nonces and DM keys cover a crash between send and mark). ChannelBusy:
        another process holds the channel now, and tends to it."""
        seen = await self._look(channel_id, game_id, refuse_busy=False)
        caught_up = await self._catch_up(seen, refuse_busy=False) if seen else None
        if caught_up is not None and (not caught_up.delivered or owes(caught_up.table)):
            return caught_up  # still owed: tried again later, the AI waits
        try:
            async with self.locks.turn(channel_id) as turn:
                async with self._ready(channel_id, game_id=game_id,
                                       refuse_busy=False) as table:
                    if table is None:
                        return caught_up
                    work = await self.worker.ai_work(table)
                    if table.status != OVER and table.id is not None:
                        await self.store.settle_ai_turn(table.id, table.version, work.any)
                    if not (self.ai_chain and work.any):
                        return caught_up
                    saved, owed, ahead = await self._ai_plays(table, work, [])
                    if saved.version == table.version:  # the chain saved nothing
                        return caught_up
                    await turn.take()
                return await self._deliver(turn, saved, owed, ahead)
        except Behind as behind:  # owed again meanwhile, and not sent: tried again later
            return behind.outcome

    # -- turn timers ----------------------------------------------------------------------

    async def _arm(self, played: Played, loaded: Table) -> list[TimerArm]:
        """The turn timers this save arms (none while an AI is to act: the chain goes on),
        counted from the turn's start: a save that leaves waiting the turn `loaded`
        waited for (a move within it) arms them from when its timers were first armed
        (the store's, read only then), so a turn's limit is not put off by each move."""
        if played.ai.to_act or played.table.status != ACTIVE:
            return []
        settings = await self.settings.get(played.table.guild_id)
        if not settings.timer_on:
            return []
        now = self.clock()
        since = now
        turn = turn_timers.turn_of(played.table)
        if turn is not None and loaded.id is not None and turn == turn_timers.turn_of(loaded):
            since = turn_timers.turn_start(await self.store.timers_of(loaded.id), turn, now)
        return turn_timers.arm(played.table, settings, now, since)

    async def fire_timer(self, timer: TurnTimer) -> Outcome | None:
        """A turn timer fell due: if the table is still as it was armed, remind the
        player or end the turn as the server says; else it is dropped. It leaves the
        store only with what it did, so a process killed half way loses no firing: the
        turn's end goes with the save of its ending (every save replaces the game's
        timers), a reminder once it was sent (`_remind`). What is owed goes first; when
        it cannot, the timer stays and is tried again."""
        try:
            async with self.locks.turn(timer.channel_id) as turn:
                async with self._ready(timer.channel_id, refuse_busy=False) as table:
                    settings = await self.settings.get(table.guild_id if table else None)
                    if table is None or not turn_timers.fires(timer, table, settings):
                        await self.store.claim_timer(timer)  # fired already, or outlived
                        return None
                    reminding = turn_timers.reminds(timer, settings)
                    saved: Table = table
                    owed: Sequenced = []  # a reminder owes nothing
                    ahead: Ahead | None = None
                    if not reminding:  # the turn ends as the server says
                        ending = settings.timer_end
                        played = await self.worker.run_out(
                            table, ending, await self._languages(table, None, settings),
                            self._server(table, None, settings))
                        saved = await self._save(played, table, None,
                                                 turn_timers.ran_out_action(ending))
                        saved, owed, ahead = await self._ai_plays(
                            saved, played.ai, sequenced(saved, played.events))
                    # A reminder too: it takes the place of the live message's last ping.
                    await turn.take()
                if reminding:
                    await self._remind(turn, table, timer)
                    return None
                return await self._deliver(turn, saved, owed, ahead)
        except Behind:
            return None

    async def _remind(self, turn: DeliveryTurn, table: Table, timer: TurnTimer) -> None:
        """The player's reminder, in the channel's delivery turn (the outlet keeps the live
        message's last ping, which a delivery changes too)."""
        if not turn.held:
            log.info("a turn reminder in channel %s waits: no turn to send it",
                     table.channel_id)
            return
        # Claimed once sent, in the delivery turn: a firing that got here first sent it
        # already, and a kill before the claim leaves it to be sent again, under the
        # same nonce (the timer's row: `timer_key`), which Discord answers with the first.
        if not any((t.kind, t.version) == (timer.kind, timer.version)
                   for t in await self.store.timers_of(timer.game_id)):
            return
        # The reminder pings the player in the channel: a public line, in the server's
        # language (read now, as a delivery reads it), its jump link's words too.
        with speaking(await self.courier.language(table)):
            await self.outlet.remind(table, timer.user_id,
                                     turn_timers.reminder(timer, self.clock()),
                                     key=timer_key(timer.game_id, timer.kind, timer.version))
        await self.store.claim_timer(timer)

    # -- reading --------------------------------------------------------------------------

    async def table(self, channel_id: int, *, latest: bool = False) -> Table | None:
        if latest:
            return await self.store.load_latest(channel_id)
        return await self.store.load(channel_id)

    def prompt(self, table: Table) -> Prompt | None:
        """What the game waits for now (the cogs build buttons and autocomplete from it)."""
        return prompt_of(table)

    async def board(self, table: Table, *, whole: bool = False) -> bytes | None:
        """The public board image, rendered off the event loop; `whole`: the whole
        board at full size, where the chat board shows part of it (`render_whole`)."""
        if not self.render or table.state is None:
            return None
        return await self.worker.board(table.kind, table_rules.game_state(table), whole=whole,
                                       language=await self.courier.language(table))

    async def board_alt(self, table: Table) -> str:
        """The public board's alt text (what it shows, in words), made off the event
        loop like the board."""
        if table.state is None:
            return ""
        return await self.worker.board_alt(table.kind, table_rules.game_state(table),
                                           await self.courier.language(table))

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

    async def warm_up(self) -> None:
        """Read every language's content and draw a new game's board of every kind once
        in English and each language a server chose, off the loop: the renderers fit
        their palettes and fill their caches, and the words are read, now, not in the
        first player's click (a few hundred ms). The bot runs it in the background at
        its start (bot/client.py), so the registry is read once, as it is now: a game a
        test registers or drops meanwhile changes nothing here."""
        if not self.render:
            return
        known = list(games.all_games().items())
        drawn = await self.languages_drawn_ahead()
        for language in LANGUAGES:
            with speaking(language):
                for key, game in known:
                    await self.worker.warm_up(key, game, draw=language in drawn)

    async def languages_drawn_ahead(self) -> tuple[str, ...]:
        """The languages whose boards the start draws: English, and each language a
        server chose (/gm settings language), in the bot's order. Another's board
        faces (a player's own locale, a server's preferred locale it never chose) are
        drawn the first time a board in it is, about 100 ms of that click, off the loop:
        drawing every language's at every start held 14 MB more (bench/bench_memory.py,
        100 busy channels: 198-199 MB against 184 MB at 20,000 actions). Every
        language's words are read at the start all the same (1-2 MB): a step that leaves
        a choice waiting is said in each of them, whatever the table speaks
        (bot/languages.py)."""
        chosen = {GuildSettings.from_dict(raw).language
                  for _, raw in await self.store.all_guild_settings()}
        return tuple(lang for lang in LANGUAGES if lang == ENGLISH or lang in chosen)

    async def warm_boards(self, limit: int = WARM_BOARDS) -> int:
        """Draw the boards of the `limit` games played last, one at a time, off the loop,
        as their next move's delivery would: a channel's first move after a start then
        draws only what it changed, instead of the whole board and every piece of it
        (bench/bench_channels.py: the first actions' p50 against the floor went from
        5.7-6.2x to 3.1-3.2x). Run in the background at the start, after `warm_up`; each
        board waits for the interactions under way; a stop ends it. Returns how many
        boards it drew."""
        if not self.render or limit <= 0:
            return 0
        drawn = 0
        for table in await self.store.recently_played(limit):
            await self._idle.wait()  # the players' clicks first
            if self._draining:
                break
            if table.state is None:
                continue
            try:
                await self.board(table)
            except Exception:  # one game's board (a newer release's state, a bug) costs
                log.warning("could not draw game %s's board ahead", table.id,  # only it
                            exc_info=True)
                continue
            drawn += 1
        return drawn

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
        # A player's DMs still on their way (the DM tail, bot/courier.py): a tail cut
        # off keeps its row, and the next start sends it again.
        if not await self.courier.tails_done(timeout):
            log.info("stopping with DMs still on their way; the next start sends them")
        return self._serving


__all__ = ["WORKERS", "Acting", "Behind", "GameExists", "Outcome", "Outlet", "Post",
           "Prompt", "Sessions"]
