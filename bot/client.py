"""The discord.py bot: opens the store, loads the cogs, registers persistent components.

Slash commands are registered with Discord on purpose, not at every start: `python -m bot
sync` syncs them globally (or to one guild) and exits (`sync_once`). A start syncs only
to the dev guild, when HAUNTKEEPER_DEV_GUILD is set, so a developer's edits show at once;
a global sync at every start would rewrite every server's commands for nothing and
count against Discord's daily limit of command creations.

Once connected it tends to the games that wait for the bot (RoboDanny's way with its
timers: the store says which, the bot acts): deliveries a crash or an outage left owed,
and AI turns a restart interrupted. It reads ids only, so a start with thousands of
stored games costs little, and works through them a few at a time beside live clicks.
The turn timers' dispatcher (bot/timers.py) starts then too, and fires the timers that
fell due while the bot was down. The renderers warm up in the background from the end
of setup_hook, while discord.py connects (`_warm_up`), so a start's own work is the
imports, the store and the cogs, then that first pass. After it, the boards of the games
played last are drawn ahead in the background (`_warm_boards`), so their next click
draws only what it changes.

A delivery Discord failed for now (a 5xx, a rate limit discord.py could not wait out)
is tried again soon, `RETRY_SOON` apart, before the attend loop's periodic retry takes
over (`_retry_soon`): a short burst of errors is caught up in seconds even if nobody
clicks. Each try is the sessions' `resume`, under the channel's delivery lock (bot/
channel_locks.py), so it never runs beside another delivery of the channel; one chain
of tries per channel at a time.

Every background task (the attend/retry loop, the heartbeat, the timers' dispatcher, the
metrics' count, the forgetting of servers the bot left) survives an error in one pass
(bot/loops.py), and `close` stops each within a bounded time and never raises what one
died of, so a stop always reaches the Discord connection and the store.

The store is opened in `login`, before Discord is asked anything: a database that
cannot be opened stops the start with one line, never after a login.

When the bot is removed from a server (`on_guild_remove`) that server's data is
deleted after a grace period (HAUNTKEEPER_FORGET_AFTER_DAYS), kept as a due time in the
store so a restart in between changes nothing; coming back within it (`on_guild_join`,
or finding the server there at a start) keeps everything. Meanwhile nothing is sent
there (cogs/outlet_refusals.py's `refusal`). A game whose channel is deleted ends at once
(`on_game_channel_gone`): nothing could be shown there again.

An interaction comes in once (`_interaction`). Discord's gateway replays a resumed
session's missed events ("the gateway will send the missed events in order"), and one
the bot had dispatched before the drop may come again; Discord takes one answer per
interaction, so the copy could only act without answering: a lobby's Add AI seat
pressed once made two seats, then the copy's answer was refused (40060), an error in
the log. The latest ids taken in are kept, bounded (`SEEN_INTERACTIONS`), and a copy is
dropped before discord.py hands it to a command or a button. In memory, per process:
Discord sends a guild's events to one shard, so a copy comes to the same process.

Metrics for its operators (bot/metrics.py) are off unless a port is given
(HAUNTKEEPER_METRICS_PORT): then prometheus_client's HTTP server starts on its own thread
in setup_hook, the sessions get the recorder, and the open games are counted every few
seconds; `close` stops the server.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands

from bot import collector, games, health, retention
from bot.command_translator import CommandWords
from bot.config import GRACE_DAYS, METRICS_ADDR
from bot.core.lru import RecentDict, RecentSet
from bot.loops import bounded, keep_running, stop_task
from bot.metrics import (
    NO_METRICS,
    OPEN_GAMES_SECONDS,
    Metrics,
    MetricsServer,
    Recorder,
    keep_open_games,
)
from bot.metrics import serve as serve_metrics
from bot.replays import REPLAYS
from bot.sessions import Sessions
from bot.shards import Shards
from bot.store import ChannelBusy, Store, StoreUnavailable, open_store
from bot.store.guard import guarded
from bot.texts import say
from bot.timers import TimerDispatcher
from cogs.common import say_ephemeral
from cogs.components import DYNAMIC_ITEMS
from cogs.game_log import LogPage
from cogs.outlet import DiscordOutlet
from cogs.rights import table_check

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.lobby", "cogs.secret", "cogs.moderation", "cogs.help",
              "cogs.stats")  # the table's own cogs
COGS = "cogs"  # the package holding each game's cog, cogs/<key>.py
ATTEND_WORKERS = 4  # games resumed side by side after a start
# The recent games' boards wait this long after the first resume pass: the timers that
# fell due while the bot was down fire first (bench/bench_startup.py: drawn at once, the
# boards doubled the resume's wall time, 300 -> 600-770 ms).
WARM_BOARDS_AFTER = 3.0
RETRY_SECONDS = 30.0  # how often deliveries that failed are tried again
# Seconds before each quick retry of a delivery Discord failed for now, one after the
# other (2, 7 and 22 s after the failure), before the periodic retry takes over: a
# burst of 5xx answers is caught up soon, a longer outage asked a few times, not
# hammered. Only those shorter than the periodic retry are made.
RETRY_SOON = (2.0, 5.0, 15.0)
# A channel's quick retries start at most once in this many seconds: in a long outage
# each periodic retry fails too, and would start them again (four tries every 30 s, in
# every channel Discord fails, instead of one).
SOON_REST = 300.0
SOON_KEPT = 10_000  # channels whose last quick retries are remembered (~100 bytes each)
SWITCH_SECONDS = 0.0005
FORGET_SECONDS = 3600.0  # how often servers left long enough ago are forgotten
DAY = 86400.0
# Interaction ids remembered to drop a copy (an interaction is answerable for 15 minutes,
# and a replay repeats only the moments before a drop): well under a megabyte.
SEEN_INTERACTIONS = 10_000


def extensions() -> list[str]:
    """The table's cogs, then the cog of every registered game that has one (found by
    the game's key, in key order): adding a game adds no line here."""
    found = [f"{COGS}.{key}" for key in sorted(games.all_games()) if key.isidentifier()]
    return [*EXTENSIONS, *(name for name in found
                           if name not in EXTENSIONS and importlib.util.find_spec(name))]


def use_endpoints(api: str | None, gateway: str | None) -> None:
    """Talk to Discord through other addresses: an API proxy shared by shards, or the
    test suite's fake Discord. Unset, discord.py's own defaults stay."""
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class HauntBot(commands.Bot):
    open_games_seconds = OPEN_GAMES_SECONDS  # how often the metrics count the open games
    retry_seconds = RETRY_SECONDS  # how often owed deliveries are tried again
    retry_soon = RETRY_SOON  # the quick retries after Discord failed a delivery for now
    forget_seconds = FORGET_SECONDS  # how often due deletions of servers' data run
    sweep_seconds = retention.SWEEP_SECONDS  # how often finished games past their time go
    warm_boards_after = WARM_BOARDS_AFTER  # seconds from the first resume pass to the boards

    def __init__(self, *, db_path: str, dev_guild: int | None = None,
                 sync_commands: bool = True, serve: bool = True,
                 health_file: str | None = None, metrics_port: int | None = None,
                 metrics_addr: str = METRICS_ADDR, forget_after_days: float = GRACE_DAYS,
                 **options: Any) -> None:
        """`sync_commands`: sync to the dev guild at start (if there is one). `serve`
        False: only the commands are loaded (to sync them), no store, no games.
        `metrics_port`: serve the Prometheus metrics there (0: any free port); None:
        no metrics, and recording them costs nothing. `forget_after_days`: how long a
        server's data outlives the bot's removal from it."""
        # No voice here: discord.py's two warnings about missing voice libraries would
        # only bury a start's real first lines.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()  # no privileged intents: slash commands only
        options.setdefault("chunk_guilds_at_startup", False)
        # Every message the bot sends may quote what someone typed (a refusal names the
        # topic or seat asked for, a seat's name is a display name): never let that
        # ping everyone or a role. A message that pings its players lists them itself.
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False,
                                                                       roles=False))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **options)
        # Every interaction enters through this one parser, commands and components alike:
        # a copy of one already taken is dropped here (`_interaction`).
        self._seen: RecentSet[int] = RecentSet(SEEN_INTERACTIONS)
        self._parse_interaction = self._connection.parsers["INTERACTION_CREATE"]
        self._connection.parsers["INTERACTION_CREATE"] = self._interaction
        self.db_path = db_path
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self.serve = serve
        self._store: Store | None = None
        self._tending: set[asyncio.Task[None]] = set()  # owed work retried as the store is back
        self._soon: dict[int, asyncio.Task[None]] = {}  # each channel's quick retries
        self._soon_began: RecentDict[int, float] = RecentDict(SOON_KEPT)  # when, last
        self._sessions: Sessions | None = None
        self._outlet: DiscordOutlet | None = None
        self._attending: asyncio.Task[None] | None = None
        self._heartbeat = health.Heartbeat(Path(health_file), self._connected) \
            if health_file else None
        self._timers: TimerDispatcher | None = None
        self.metrics_port = metrics_port
        self.metrics_addr = metrics_addr
        self._metrics: Recorder = NO_METRICS
        self.metrics_server: MetricsServer | None = None
        self._counting: asyncio.Task[None] | None = None
        self.forget_after = forget_after_days * DAY
        self._forgetting: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._resumed_at_start = False  # the first full pass (AI turns too) has run
        self._warming: asyncio.Task[None] | None = None  # the renderers' warm-up
        # The recent games' boards, drawn after the first resume pass (`_warm_boards`).
        self._warming_boards: asyncio.Task[None] | None = None

    @property
    def store(self) -> Store:
        assert self._store is not None, "setup_hook has not run"
        return self._store

    @property
    def sessions(self) -> Sessions:
        assert self._sessions is not None, "setup_hook has not run"
        return self._sessions

    @property
    def timers(self) -> TimerDispatcher:
        assert self._timers is not None, "setup_hook has not run"
        return self._timers

    @property
    def metrics(self) -> Recorder:
        """What the operators' metrics are told (a recorder of nothing when off)."""
        return self._metrics

    @property
    def outlet(self) -> DiscordOutlet:
        assert self._outlet is not None, "setup_hook has not run"
        return self._outlet

    async def login(self, token: str) -> None:
        """The store first: a database that cannot be opened is found before Discord is
        asked anything (discord.py runs setup_hook only after its login)."""
        if self.serve and self._store is None:
            self._store = guarded(await open_store(self.db_path))  # outages told once
        await super().login(token)

    async def setup_hook(self) -> None:
        # Descriptions and choices in each user's language (names stay English): before
        # any sync, which asks it for every string.
        await self.tree.set_translator(CommandWords())
        if not self.serve:
            for extension in extensions():
                await self.load_extension(extension)
            return
        if self._store is None:
            self._store = guarded(await open_store(self.db_path))  # outages told once
        self._outlet = DiscordOutlet(self, self._store)
        self._start_metrics()
        self._sessions = Sessions(self._store, self._outlet, metrics=self._metrics)
        self._timers = TimerDispatcher(self._store, self._sessions.fire_timer)
        self._sessions.on_timer_armed = self._timers.armed
        self._sessions.when_store_back(self._tend_soon)
        self._sessions.courier.owed_soon = self._retry_soon
        self.add_dynamic_items(LogPage, *DYNAMIC_ITEMS)
        for extension in extensions():
            await self.load_extension(extension)
        # discord.py types these hooks as methods, to override in a subclass of the
        # tree; set on the instance they work the same.
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = table_check  # type: ignore[method-assign]
        if self.sync_commands and self.dev_guild:
            await self.sync_tree(self.dev_guild)
        # The renderers warm up while discord.py connects and waits for the guilds (two
        # seconds at least), not before: it was half the bot's own start-up
        # (bench/bench_startup.py).
        self._warming = asyncio.create_task(self._warm_up(), name="hauntkeeper-warm-up")
        if self._heartbeat is not None:
            self._heartbeat.start()
        # Rules and renders run on a worker thread; the event loop waits for the GIL each
        # time it wakes. A shorter switch interval than the 5 ms default gets it back
        # sooner: the loop's p99 lag with 50 channels acting at once fell from 21-23 ms
        # to 15-17 ms at 1 ms (bench/bench_tables.py); at 0.5 ms, with 200 channels at
        # once (bench/bench_channels.py, three of its games, two runs each against 1 ms),
        # the lightest game's fell from 23.0 / 26.4 to 15.4 / 15.6 ms and its longest
        # wait from 40-52 to 31-43 ms (the other two: 33-53 to 24-29 ms), with as many
        # actions a second within 5% (the lightest game 215 / 237 against 227 / 241, the
        # other two 3-13% more).
        sys.setswitchinterval(SWITCH_SECONDS)
        # What is loaded now (content, texts, cogs) lives as long as the process: kept
        # out of the collector's sight, its full passes stay short (60-100 ms pauses of
        # the event loop without this, measured in bench_tables). The warm-up's caches
        # join them when it is done. A run loaded all this with the collector off
        # (bot/__main__.py's main): it is on from here, at a long-running server's pace
        # (bot/collector.py: its full passes were the loop's longest stalls).
        gc.freeze()
        collector.pace()
        gc.enable()

    async def _warm_up(self) -> None:
        """Draw a board of every game once, in the background (Sessions.warm_up), so the
        first players' clicks find the renderers' palettes fitted and their caches
        filled; then freeze what they hold, as setup_hook froze the rest. A click or an
        owed delivery that comes first draws cold, as it would have without a warm-up;
        a warm-up that fails costs only that, and the click's own render says why."""
        started = time.perf_counter()
        try:
            await self.sessions.warm_up()
        except Exception:
            log.warning("the renderers' warm-up failed; the first boards draw cold",
                        exc_info=True)
            return
        gc.freeze()
        log.info("renderers warmed up in %.0f ms", (time.perf_counter() - started) * 1000)

    async def _warm_boards(self) -> None:
        """A little after the first pass over the waiting games (so it never slows the
        resume, nor the timers that fell due meanwhile), draw the boards of the games
        played last (Sessions.warm_boards): their next
        click draws only what it changes. A failure costs only that."""
        await asyncio.sleep(self.warm_boards_after)
        started = time.perf_counter()
        try:
            drawn = await self.sessions.warm_boards()
        except Exception:
            log.warning("drawing the recent games' boards ahead failed; their first "
                        "boards draw whole", exc_info=True)
            return
        log.info("drew the boards of the %d games played last in %.0f ms", drawn,
                 (time.perf_counter() - started) * 1000)

    def _start_metrics(self) -> None:
        """The Prometheus endpoint and the open games' count, if a port is set."""
        if self.metrics_port is None:
            return
        recorder = Metrics()
        try:
            self.metrics_server = serve_metrics(recorder, self.metrics_port, self.metrics_addr)
        except OSError as exc:  # the port taken, the address not this machine's: say which
            raise OSError(exc.errno, f"the metrics endpoint {self.metrics_addr}:"
                          f"{self.metrics_port} (HAUNTKEEPER_METRICS_PORT/_ADDR): "
                          f"{exc.strerror}") from exc
        self._metrics = recorder
        self._counting = asyncio.create_task(keep_open_games(recorder, self.store.count_open,
                                                             self.open_games_seconds),
                                             name="hauntkeeper-metrics")
        log.info("metrics at http://%s:%d/metrics", self.metrics_addr,
                 self.metrics_server.port)

    async def sync_tree(self, guild_id: int | None = None) -> list[app_commands.AppCommand]:
        """Register the slash commands: globally, or copied to one guild (shown there at
        once; a global sync can take up to an hour to reach every client)."""
        if guild_id:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d slash commands%s", len(synced),
                 f" to guild {guild_id}" if guild_id else " globally")
        return synced

    async def clear_tree(self, guild_id: int | None = None) -> None:
        """Remove the registered commands: a guild's copy (left by `sync --guild` or a
        dev guild, it shows every command twice there beside the global ones), or the
        global ones."""
        if guild_id:
            await self.tree.sync(guild=discord.Object(guild_id))  # it holds none here
        else:
            self.tree.clear_commands(guild=None)
            await self.tree.sync()
        log.info("cleared the slash commands%s",
                 f" of guild {guild_id}" if guild_id else " registered globally")

    def _interaction(self, data: dict[str, Any]) -> None:
        """The gateway's INTERACTION_CREATE, let through the first time its id comes."""
        interaction_id = int(data["id"])
        if interaction_id in self._seen:
            log.info("interaction %s came again from the gateway; dropped", interaction_id)
            return
        self._seen.add(interaction_id)
        self._parse_interaction(data)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self._attending is None:  # READY comes again after every reconnect
            self._attending = asyncio.create_task(
                keep_running("tending the waiting games", self._attend, log,
                             retry=self.retry_seconds), name="hauntkeeper-attend")
        if self._forgetting is None:
            self._forgetting = asyncio.create_task(
                keep_running("forgetting the servers left", self._forget_due, log,
                             retry=self.forget_seconds), name="hauntkeeper-forget")
        if self._sweeping is None:
            self._sweeping = asyncio.create_task(
                keep_running("sweeping the finished games past their time", self._sweep,
                             log, retry=self.sweep_seconds), name="hauntkeeper-sweep")
        self.timers.start()  # once: a second start is a no-op

    async def _attend(self) -> float:
        """One pass: at the start every game that waits for the bot (AI turns too),
        until such a pass has worked once; then the owed deliveries."""
        await self.resume_games(ai_turns=not self._resumed_at_start)
        if not self._resumed_at_start:
            self._warming_boards = asyncio.create_task(
                self._warm_boards(), name="hauntkeeper-warm-boards")
        self._resumed_at_start = True
        return self.retry_seconds

    # -- servers the bot leaves ---------------------------------------------------------

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (kicked, banned, the server deleted): its data goes
        after the grace period, unless the bot is back by then."""
        await self.store.schedule_forget(guild.id, time.time() + self.forget_after)
        log.info("left server %s; its data is deleted in %.1f days unless the bot "
                 "returns", guild.id, self.forget_after / DAY)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server: if it is one the bot left within the grace, keep its data."""
        if await self.store.cancel_forget(guild.id):
            log.info("back in server %s: its data is kept", guild.id)

    # -- a game's channel deleted ---------------------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.on_game_channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.on_game_channel_gone(payload.thread_id)  # a game played in a thread

    async def on_game_channel_gone(self, channel_id: int) -> None:
        """A channel was deleted (the gateway said so, or, deleted while the bot was away,
        the outlet met Discord's unknown channel): a game played there ends, rather than
        playing on unseen with its timers and retries (Sessions.channel_gone)."""
        try:
            await self.sessions.channel_gone(channel_id)
        except (ChannelBusy, StoreUnavailable) as exc:  # the next post there says it again
            log.info("the game of deleted channel %s is closed later: %s", channel_id, exc)

    def runs_guild(self, guild_id: int) -> bool:
        """Whether this process receives this server's events (its shard is ours)."""
        return True

    async def _forget_due(self) -> float:
        """Delete the data of the servers left a grace period ago. Only a server this
        process would hear of: one it finds itself in again (a rejoin while the bot was
        down) is kept instead; another process's shard is that process's to judge."""
        for guild_id in await self.store.forgets_due(time.time()):
            if not self.runs_guild(guild_id):
                continue
            if self.get_guild(guild_id) is not None:
                await self.store.cancel_forget(guild_id)
                log.info("back in server %s: its data is kept", guild_id)
                continue
            count = await self.store.forget_guild(guild_id)
            log.info("forgot server %s: %d games, its settings and what it played",
                     guild_id, count)
        return self.forget_seconds

    async def _sweep(self) -> float:
        """The finished games each server keeps no longer (/gm settings keep)."""
        await retention.sweep(self.store, time.time(), self.runs_guild)
        return self.sweep_seconds

    async def resume_games(self, *, ai_turns: bool = True) -> int:
        """Deliver what is owed and (at a start) play the AI turns a restart interrupted,
        a few games at a time; returns how many games were looked at."""
        started = time.perf_counter()
        # First the whispers a crash cut off after their delivery was marked (the DM
        # tail, bot/courier.py): each player's before any newer whisper to them.
        try:
            await self.sessions.courier.resume_tails()
        except StoreUnavailable:
            log.info("the DM tails wait for the store")
        waiting = await self.store.needing_attention(ai_turns=ai_turns)
        queue: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        for item in waiting:
            queue.put_nowait(item)

        async def worker() -> None:
            while not queue.empty():
                game_id, channel_id = queue.get_nowait()
                try:
                    await self.sessions.resume(channel_id, game_id)
                except ChannelBusy:  # another process is in the channel; it tends to it
                    log.info("game %s in channel %s is busy elsewhere; later", game_id,
                             channel_id)
                except StoreUnavailable:  # told once by the store; tried again when back
                    log.info("game %s waits for the store", game_id)
                except Exception:
                    log.exception("could not resume game %s in channel %s", game_id,
                                  channel_id)

        await asyncio.gather(*(worker() for _ in range(min(ATTEND_WORKERS, len(waiting)))))
        if ai_turns or waiting:
            log.info("tended %d waiting games in %.0f ms", len(waiting),
                     (time.perf_counter() - started) * 1000)
        return len(waiting)

    def _tend_soon(self) -> None:
        """The store is back after an outage: deliver what stayed owed now, and look at
        the turn timers again."""
        if self.is_closed():
            return
        if self._timers is not None:
            self._timers.wake()
        task = asyncio.create_task(self._tend_owed(), name="hauntkeeper-store-back")
        self._tending.add(task)
        task.add_done_callback(self._tending.discard)

    def _retry_soon(self, channel_id: int, game_id: int | None) -> None:
        """Discord failed this channel's delivery for now: try it again after each of
        `retry_soon` (those shorter than the periodic retry). A chain under way for the
        channel goes on (its own tries failing call this again), and a channel's chain
        starts at most once in SOON_REST seconds (its periodic retry failing calls this
        too)."""
        delays = [d for d in self.retry_soon if d < self.retry_seconds]
        now = time.monotonic()
        if self.is_closed() or channel_id in self._soon or not delays \
                or now - self._soon_began.get(channel_id, -SOON_REST) < SOON_REST:
            return
        self._soon_began[channel_id] = now
        task = asyncio.create_task(self._retries(channel_id, game_id, delays),
                                   name=f"hauntkeeper-retry-{channel_id}")
        self._soon[channel_id] = task
        task.add_done_callback(lambda done: self._soon.pop(channel_id, None)
                               if self._soon.get(channel_id) is done else None)

    async def _retries(self, channel_id: int, game_id: int | None,
                       delays: list[float]) -> None:
        for delay in delays:
            await asyncio.sleep(delay)
            try:
                outcome = await self.sessions.resume(channel_id, game_id)
            except ChannelBusy:  # another process holds the channel; it tends to it
                return
            except StoreUnavailable:  # the store's return tends to it (`_tend_soon`)
                return
            except Exception:
                log.exception("could not retry the delivery in channel %s", channel_id)
                return
            if outcome is None or outcome.delivered or outcome.refused is not None:
                return  # shown, or refused (the periodic retry and the gate's to tend)

    async def _tend_owed(self) -> None:
        try:
            await self.resume_games()  # an AI chain cut by the outage goes on too
        except StoreUnavailable:
            log.info("the store went away again before the owed posts went out")

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Refusals discord.py makes itself (a check, an option out of range) are the
        caller's to read; anything else is our bug, logged."""
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            log.info("slash command refused: %s", error)
            text = say("errors.not_here" if isinstance(error, app_commands.CheckFailure)
                       else "errors.bad_option")
        else:
            log.error("slash command failed", exc_info=error)
            self.metrics.failed()
            text = say("errors.oops")
        with suppress(discord.HTTPException):
            await say_ephemeral(interaction, text)

    def _connected(self) -> bool:
        return self.is_ready() and not self.is_closed() and self.ws is not None \
            and self.ws.open

    async def close(self) -> None:
        """Every step bounded, none raising: the tasks first (so none writes to a
        closing store), then Discord, then the store."""
        if self._sessions is not None:  # the interactions under way answered first
            await self._sessions.drain()
        REPLAYS.close()  # a replay still drawn stops at its next picture
        if self._heartbeat is not None:
            await self._heartbeat.stop()
        attending, forgetting, counting = self._attending, self._forgetting, self._counting
        for retrying in list(self._soon.values()):
            await stop_task(retrying, "a delivery's quick retries", log)
        await stop_task(self._warming, "the renderers' warm-up", log)
        await stop_task(self._warming_boards, "the recent games' boards", log)
        await stop_task(attending, "the attend loop", log)
        await stop_task(forgetting, "the forget loop", log)
        await stop_task(self._sweeping, "the retention sweep", log)
        if self._timers is not None:
            await bounded(self._timers.stop(), "stopping the turn timers", log)
        await stop_task(counting, "the open games' count", log)
        if self.metrics_server is not None:
            server, self.metrics_server = self.metrics_server, None
            await bounded(asyncio.to_thread(server.close), "closing the metrics endpoint",
                          log)
        await bounded(super().close(), "closing the Discord connection", log)
        if self._store is not None:
            store, self._store = self._store, None
            await bounded(store.close(), "closing the store", log)


class ShardedHauntBot(HauntBot, commands.AutoShardedBot):
    """The same bot over several gateway connections, one per shard this process runs
    (`--shards`). Nothing here assumes the game is this process's: every click loads
    its game from the shared store under the channel's lock, and REST (posts, DMs)
    works from any process, so a DM click on shard 0 for a game whose channel is on
    another process's shard is played here all the same."""

    def runs_guild(self, guild_id: int) -> bool:
        count = self.shard_count or 1
        return (guild_id >> 22) % count in (self.shard_ids or range(count))

    def _connected(self) -> bool:
        shards = self.shards.values()
        return self.is_ready() and not self.is_closed() and bool(shards) \
            and not any(shard.is_closed() for shard in shards)


# Discord's gateway close codes after which a bot must not reconnect (discord.py stops
# on them instead of trying again), with what each means to the operator who must act.
REFUSALS = {
    4004: "authentication failed: the token is wrong or was reset; put the bot's current "
          "token (Developer Portal, Bot, Reset Token) in DISCORD_TOKEN",
    4010: "invalid shard: --shards names a shard outside --shard-count",
    4011: "sharding required: the bot is in too many servers for one connection; run it "
          "with --shard-count",
    4012: "invalid API version",
    4013: "invalid intents",
    4014: "disallowed intents: the bot asked for a privileged intent the Developer Portal "
          "does not allow it",
}


def gateway_refusal(exc: BaseException) -> str | None:
    """The operator's line for Discord closing the gateway for good (a close code after
    which reconnecting would only be refused again), or None for any other failure.
    discord.py's own words give a bare code ("WebSocket closed with 4004") or, for
    4014, no code at all."""
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        code: int | None = 4014
    elif isinstance(exc, discord.ConnectionClosed):
        code = exc.code
    else:
        return None
    meaning = REFUSALS.get(code or 0, "a close code discord.py does not reconnect after")
    return f"Discord closed the gateway with {code} ({meaning}); not reconnecting"


def make_bot(shards: Shards | None, **options: Any) -> HauntBot:
    """A plain bot (one connection; Discord's default of one shard) unless shards are
    named. Not AutoShardedBot with shard_ids=None for that: it would ask Discord how
    many shards to run, and a single process would change its behaviour."""
    if shards is None:
        return HauntBot(**options)
    return ShardedHauntBot(shard_ids=list(shards.ids), shard_count=shards.count, **options)


async def sync_once(token: str, guild_id: int | None = None, *, clear: bool = False) -> int:
    """Log in, register the commands (globally, or to one guild), log out: how many.
    `clear`: remove them there instead (0)."""
    bot = HauntBot(db_path=":memory:", serve=False)
    async with bot:
        await bot.login(token)
        if clear:
            await bot.clear_tree(guild_id)
            return 0
        return len(await bot.sync_tree(guild_id))
