"""The sessions' lowest layer (bot/sessions.py is their door): a channel's game under its
lock. Every way in (a click, /gm undo, a timer, a resume) takes these steps, so they are
written once, here, and the layers above read as what they do with them: the channel's
lock (`_locked`), the game loaded owing nothing (`_ready`; what an earlier delivery left
owed goes out first, `_catch_up`), one save (`_save`: the new table, its events, the
undo point and the turn timers, in one transaction), the languages a step is said in
(`_languages`), and the delivery with the lock let go (`_deliver`).

The sessions' state is made here too, in their one constructor, so no layer's state
hides in another's module: each layer reads its part."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace

from bot import table as table_rules
from bot import timers as turn_timers
from bot.channel_locks import ChannelLocks, DeliveryTurn
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.courier import Courier, Outcome, owes
from bot.delivery import Outlet, Sequenced
from bot.games.base import PLAYED
from bot.guild_settings import GuildSettings
from bot.languages import needed, server_language
from bot.locales import ENGLISH, OTHER_LANGUAGES
from bot.metrics import NO_GAME, NO_METRICS, Recorder
from bot.settings_cache import SettingsCache
from bot.store import (
    ChannelBusy,
    GameResult,
    StaleVersion,
    Store,
    StoreUnavailable,
    TimerArm,
    UndoWrite,
)
from bot.store.guard import guarded
from bot.summary import LOG_ALL, played_entries
from bot.table_record import ACTIVE, OVER, Table
from bot.texts import say
from bot.worker import WORKERS, Ahead, Played, Worker

# Every layer logs as the door: an operator's filter or level on "bot.sessions" keeps
# reaching every line the sessions log, whichever module now holds it.
LOGGER = "bot.sessions"
log = logging.getLogger(LOGGER)

# Times a click finds its game owing a delivery and has it sent before it plays: more
# than once only when another move was saved in between; past this, "busy".
CATCH_UPS = 3
# Set inside an interaction under way (bot/sessions_start.py's `serving`): a stop lets it
# finish. Read here, where the channel's lock refuses new work once stopping.
SERVING: contextvars.ContextVar[bool] = contextvars.ContextVar("hk_serving", default=False)


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


class ChannelGames:
    """A channel's game under its lock, as every way in meets it: loaded owing
    nothing, changed by one save, delivered with the lock let go. The sessions' state
    is made here, in their one constructor; each layer above reads its part."""

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

    # -- the channel's lock and its game --------------------------------------------------

    @asynccontextmanager
    async def _locked(self, channel_id: int, *, refuse_busy: bool = True
                      ) -> AsyncIterator[None]:
        """The channel's lock, this process's and then the store's (across processes).
        A user's action held up too long is refused "busy" (`refuse_busy`); the bot's
        own work sees ChannelBusy: another process holds the channel and tends it."""
        if self._draining and not SERVING.get():  # what was under way goes on
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

    async def _load(self, channel_id: int, game_id: int | None = None) -> Table | None:
        """The channel's open game; or the game `game_id` if it was played there."""
        if game_id is None:
            return await self.store.load(channel_id)
        table = await self.store.load_game(game_id)
        return table if table is not None and table.channel_id == channel_id else None

    # -- a save ---------------------------------------------------------------------------

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

    async def _told(self, played: Played) -> GameResult | None:
        """The story of the game `played` ends (bot/summary.py): its summary joins the
        save's events, in place, since every caller delivers `played.events` (so it
        reaches the final post, and the log), and its result goes into the same save. A
        story that fails is logged and left out: the game still ends."""
        if played.table.id is None:
            return None
        try:
            entries = played_entries(
                await self.store.log(played.table.id, limit=LOG_ALL, public_only=False),
                await self.store.moves(played.table.id))
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

    # -- the words and the delivery -------------------------------------------------------

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

    async def _deliver(self, turn: DeliveryTurn, saved: Table, owed: Sequenced,
                       ahead: Ahead | None = None) -> Outcome:
        """What the saves owe, sent in the channel's delivery turn, the channel's lock let
        go (`ahead`: its plan, made with the move, bot/worker.py). No turn (another
        process kept the delivery lock past the store's wait, or the store is away): it
        stays owed, and the retry or the next click sends it."""
        if not turn.held:
            return Outcome(saved, [event for _, event in owed], delivered=False)
        return await self.courier.deliver(saved, owed, ahead)
