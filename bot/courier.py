"""Takes what a save owes to the outlet, then tells the store it was delivered.

A save writes its events to the game's log (the outbox: `last_seq` moves, `delivered_seq`
does not). A delivery sends every event owed, in one go: its plan is made from the table
as the store saved it (bot/delivery.py's `plan`, in a worker thread: the board is drawn
there; or, for a move nothing but its save came before, made in the move's own trip for
the table the save left: bot/worker.py's `Ahead`), then the outlet sends it, in this
order: the team threads' members when a seat changed hands or a team got its book, each
player's lines one whisper each, each team's lines as one message, the public post (which
names whom a DM did not reach), then the documents that wait for the post (a side's
secret book, which the post announces). Once all that is done, `mark_delivered` moves
`delivered_seq`. The whispers to different players go side by side, and the post waits
for them only `WHISPER_GRACE`: a player's DM channel has one Discord rate limit for all
their games, and their busy DMs must not hold up another channel's post.

Nor the channel's next move: the mark waits for no whisper still on its way. A delivery
whose whispers (or whose player's secret book) still wait on Discord is marked with its
*DM tail* (the store's `dm_tails`: from which event on whispers may be owed, written with
the mark), and the whispers go on in the background; their end closes the tail
(`store.whispered`). Each player's whispers keep their order through a lane per player
(`_lane`: a later delivery's DM to them queues behind the earlier one's), and each
game's tails close in order (`_tails`: a tail closes only after the one before it). A
crash before a tail closed leaves its row: the next start sends its events' whispers
again under their own keys (`resume_tails`), so what got through shows once. Whom a
DM missed after the post went (the post names only whom it knew of) the channel is told
in a line of its own, in the post's words (`_tell_missed`).

A delivery is named by its key (`delivery_key`: the game at its version) and each
whisper by its event's place in the log, and the outlet turns them into Discord nonces:
a delivery cut short (a crash, Discord failing) is sent again under the same keys, so
what got through shows once. The key is the version's, so nothing may be saved while a
delivery is owed: the sessions layer delivers what is owed before it saves anything
new (bot/sessions_channel.py's `_ready`).

A delivery speaks the server's language (bot/languages.py's `server_language`): the
plan picks each line's text for its reader, and the outlet's own words (the live
message's footer, a notice) are made under `speaking` it.

The sessions layer calls `deliver` with the channel's delivery lock held and its
channel lock let go (bot/channel_locks.py): a slow Discord holds up no other action of
the channel. What can go wrong is told in the `Outcome`, never raised: the move was
saved either way, and what stayed owed is sent again later (the next click, the 30 s
retry, the store coming back; after Discord failed it for now, the bot's quick retries:
`owed_soon`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from bot.core.events import Event
from bot.delivery import (
    ChannelGate,
    DeliveryFailed,
    LateNotes,
    MemberKeeper,
    Outlet,
    Post,
    PostRefused,
    Sequenced,
    delivery_key,
    is_late,
    late,
    whisper_key,
    whispers_of,
)
from bot.languages import server_language
from bot.locales import speaking
from bot.settings_cache import SettingsCache
from bot.store import LiveMessage, Store, StoreUnavailable
from bot.table_record import Table
from bot.worker import Ahead, Worker

log = logging.getLogger(__name__)

# Seconds the public post waits for the delivery's whispers, which normally take one
# round trip: past it (a player's DM channel waiting out Discord's rate limit, emptied
# by their whispers from other games) the post goes first and the whispers follow, still
# before the delivery is marked; a DM that then fails is told to its player privately
# at their next click, as a late document's is.
WHISPER_GRACE = 1.0


@dataclass
class Outcome:
    """What an action came to: the table as saved, the events delivered (or owed), the
    post made."""

    table: Table
    events: list[Event]
    post: Post | None = None
    delivered: bool = True  # False: saved, but the post is still owed (retried later)
    lobby_only: bool = False  # a lobby change: the lobby message shows it, no post
    # Not delivered because the channel refuses the bot's posts: the permissions missing
    # (Discord's names; empty when unknown), for the line the actor reads.
    refused: list[str] | None = None
    # Why, when it is no permission's want but a thread's (bot/delivery.py's
    # NOT_IN_THREAD, THREAD_LOCKED): the remedy the actor reads is another.
    refused_cause: str = ""
    # Not delivered, but the live message shows the post: only what follows it failed
    # for now (DeliveryFailed.shown); the retry sends the delivery again, under its
    # nonces, so what went shows once.
    shown: bool = False

    @property
    def dm_failed(self) -> list[int]:
        return self.post.dm_failed if self.post else []


def owes(table: Table) -> bool:
    """Whether the table has events not delivered yet (the outbox is not empty)."""
    return table.delivered_seq < table.last_seq


class Courier:
    """Delivers a table's owed events through the outlet (see the module's docstring)."""

    def __init__(self, store: Store, outlet: Outlet, worker: Worker, settings: SettingsCache,
                 *, render: bool = True) -> None:
        self.store = store
        self.outlet = outlet
        self.worker = worker
        self.settings = settings  # the server's play_by_play, read per delivery
        self.render = render
        # What the outlet can do beyond the Outlet protocol, asked once: an isinstance
        # check of a runtime-checkable protocol costs ~25 us, on the loop, each delivery.
        self._gate = outlet if isinstance(outlet, ChannelGate) else None
        self._members = outlet if isinstance(outlet, MemberKeeper) else None
        self._notes = outlet if isinstance(outlet, LateNotes) else None
        # Each player's DM lane: their whispers one at a time, in the order asked for.
        self._lanes: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        # Each game's DM tail still under way in this process (the newest), by game id.
        self._tails: dict[int, asyncio.Task[None]] = {}
        # Told of a delivery Discord failed for now (channel id, game id), so it can be
        # tried again soon (bot/client.py's quick retries); None: the periodic retry only.
        self.owed_soon: Callable[[int, int | None], None] | None = None

    async def deliver(self, table: Table, owed: Sequenced | None = None,
                      ahead: Ahead | None = None) -> Outcome:
        """Everything `table` owes, under the key of its version, then marked delivered.
        `owed`: the events of the saves just made, when the caller has them; they are
        all that is owed when nothing was owed before those saves, else (and when not
        given) the owed events are read from the store. `ahead`: the plan the move's
        trip made for them (bot/worker.py), used when it is the one this delivery
        would make."""
        if owed is None or not _all_owed(table, owed):
            owed, ahead = await self._owed(table), None
        events = [event for _, event in owed]
        key = delivery_key(table.id or 0, table.version)
        try:
            language = await self.language(table)
            if ahead is not None and not ahead.fits(table, key, language, self.render):
                ahead = None
            with speaking(language):
                post, live, tail = await self._send(table, owed, key, language, ahead)
        except PostRefused as exc:  # stays owed; the outlet told the moderators once
            log.info("channel %s refuses the game's posts (%s); they stay owed",
                     table.channel_id, exc)
            return Outcome(table, events, None, delivered=False, refused=exc.missing,
                           refused_cause=exc.cause)
        except StoreUnavailable:  # the outage is logged once, by the store
            log.info("delivery in channel %s waits for the store", table.channel_id)
            return Outcome(table, events, None, delivered=False)
        except DeliveryFailed as exc:  # Discord, for now: one line, no traceback
            log.warning("delivery in channel %s failed (%s); it stays owed",
                        table.channel_id, exc)
            if self.owed_soon is not None:
                self.owed_soon(table.channel_id, table.id)
            return Outcome(table, events, None, delivered=False, shown=exc.shown)
        except Exception:
            log.warning("delivery in channel %s failed; it stays owed", table.channel_id,
                        exc_info=True)
            return Outcome(table, events, None, delivered=False)
        await self._mark_delivered(table, live, tail, owed[0][0] if owed else None,
                                   named=post.dm_failed, key=key)
        return Outcome(table, events, post)

    async def _owed(self, table: Table) -> Sequenced:
        """The events the store has not seen delivered, with their places in the log."""
        if table.id is None or not owes(table):
            return []
        return [(e.seq, e.event()) for e in await self.store.undelivered(table.id)]

    async def _mark_delivered(self, table: Table, live: LiveMessage | None,
                              tail: asyncio.Task[list[int]] | None = None,
                              first: int | None = None, *, named: Sequence[int] = (),
                              key: str = "") -> None:
        """The store hears the delivery is done, and the live message it left, in one
        write. Should that fail, the delivery is sent again later under the same keys,
        and shows once. `tail`: its whispers still on their way (from event `first`
        on): the same write opens the game's DM tail, closed when they went; so it is
        when an earlier tail of the game is still under way, which closes first.
        `named`: whom the post named already as missed by a DM; `key`: the delivery's."""
        if table.id is None:
            if tail is not None:
                await tail
            return
        before = self._tails.get(table.id)
        chained = tail is not None or before is not None
        try:
            if not owes(table):
                if live is not None:
                    await self.store.set_live(table.id, live)
                if tail is not None:  # nothing was owed: no row to keep, only the order
                    self._follow(table, before, tail, None, named, key)
                return
            if chained and first is not None:
                await self.store.mark_delivered(table.id, table.last_seq, live,
                                                dm_from=first)
            else:
                await self.store.mark_delivered(table.id, table.last_seq, live)
            table.delivered_seq = table.last_seq
        except StoreUnavailable:  # sent; sent again under the same keys, shown once
            log.info("game %s is marked delivered when the store is back", table.id)
            chained = False
        except Exception:  # sent already; at worst sent again under the same keys
            log.exception("could not mark game %s delivered", table.id)
            chained = False
        if chained:
            self._follow(table, before, tail, table.last_seq, named, key)
        elif tail is not None:  # unmarked: sent again with the delivery; keep the order
            self._follow(table, before, tail, None, named, key)

    def _follow(self, table: Table, before: asyncio.Task[None] | None,
                whispering: asyncio.Task[list[int]] | None, upto: int | None,
                named: Sequence[int] = (), key: str = "") -> None:
        """The game's newest DM tail: once the one before it and `whispering` are done,
        every whisper up to event `upto` went (None: nothing to tell the store). Whom
        they missed (but the post, `named`, did not name) the channel is told first, so
        a kill before the close tells it again under the same key (the tail's last
        event's, else the delivery's `key`): shown once."""
        game_id = table.id or 0
        note_key = f"{whisper_key(game_id, upto)}.m" if upto is not None else f"{key}.m"

        async def closing() -> None:
            try:
                if before is not None:
                    await asyncio.gather(before, return_exceptions=True)
                if whispering is not None:
                    [missed] = await asyncio.gather(whispering, return_exceptions=True)
                    if isinstance(missed, list):
                        await self._tell_missed(
                            table, [u for u in missed if u not in named], note_key,
                            await self.language(table))
                if upto is not None:
                    await self.store.whispered(game_id, upto)
            except StoreUnavailable:  # the row stays: sent again, under the same keys
                log.info("game %s: its DM tail closes when the store is back", game_id)
            except Exception:
                log.exception("could not close the DM tail of game %s", game_id)
            finally:
                if self._tails.get(game_id) is task:
                    del self._tails[game_id]

        task = asyncio.create_task(closing(), name=f"hauntkeeper-dm-tail-{game_id}")
        self._tails[game_id] = task

    async def tails_done(self, timeout: float | None = None) -> bool:
        """Wait up to `timeout` for the DM tails under way in this process (a stop, a
        test), never cutting one short (one left keeps its row); True when none is."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._tails:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return False
            await asyncio.wait(list(self._tails.values()), timeout=left)
        return True

    async def resume_tails(self) -> int:
        """At a start (and each retry): the whispers a crash cut off in a DM tail, sent
        again in order under their own keys (Discord shows what got through once), then
        the tail closed. A tail under way in this process is its own. How many tails
        were taken up."""
        taken = 0
        for game_id, _channel, first, last in await self.store.dm_tails():
            if game_id in self._tails:
                continue
            table = await self.store.load_game(game_id)
            events = await self.store.tail_events(game_id, first, last)
            if table is None or not events:
                await self.store.whispered(game_id, last)
                continue
            with speaking(await self.language(table)):
                whispers = whispers_of(table, [(e.seq, e.event()) for e in events])
            whispering = asyncio.create_task(self._whisper(table, whispers))
            self._follow(table, None, whispering, last)
            taken += 1
        return taken

    async def language(self, table: Table) -> str:
        """The language of the table's public posts now (read per delivery, so a change
        of `/gm settings language` reaches a running game at its next move)."""
        settings = await self.settings.get(table.guild_id) if table.guild_id else None
        return server_language(table, settings)

    async def _send(self, table: Table, owed: Sequenced, key: str, language: str,
                    ahead: Ahead | None = None
                    ) -> tuple[Post, LiveMessage | None, asyncio.Task[list[int]] | None]:
        """Private lines one whisper each, as they came (each player's in order, the
        players side by side); a team's lines as one message per team (a team's thread
        reads like the channel: one post per move, not a line each); then the public
        post, which names whom a DM did not reach (a whisper still waiting on Discord
        after WHISPER_GRACE is not waited for: the post goes, the whisper follows); then
        the private and team documents (a secret book), which the post announces. The
        whispers still on their way are returned (the DM tail, see the module's
        docstring): the mark does not wait for them.
        Nothing at all while the outlet knows the channel refuses the post: the lines
        would go out again with the post, once it can be made."""
        if self._gate is not None:
            refused = await self._gate.refusal(table)
            if refused is not None:
                raise refused
        plan = ahead.plan if ahead is not None else await self.worker.plan(
            table, owed, key, render=self.render, language=language)
        if plan.members is not None and self._members is not None:
            # before any team line: who left must not read this delivery's
            await self._members.members(table, plan.members)
        whispering = asyncio.create_task(self._whisper(table, plan.whispers))
        try:
            done, _ = await asyncio.wait({whispering}, timeout=WHISPER_GRACE)
            failed: list[int] = whispering.result() if done else []
            for team, users, text, team_key in plan.teams:
                failed += await self.outlet.team(table, team, users, text, key=team_key)
            post = Post(lines=plan.lines, image=plan.image, prompt=plan.prompt,
                        dm_failed=list(dict.fromkeys(failed)), documents=plan.documents,
                        key=key, chapter=plan.chapter, turn=plan.turn, seqs=plan.seqs,
                        alt=plan.alt, headlines=plan.headlines, whole=plan.whole,
                        turns=plan.turns, play_by_play=await self._play_by_play(table),
                        own_prompt=plan.own_prompt, image_hash=plan.image_hash)
            live = await self.outlet.publish(table, post)
            try:
                missed, books = await self._send_late(table, owed, key, language,
                                                      wait=bool(done))
            except DeliveryFailed as exc:  # after the post: the board is shown
                raise DeliveryFailed(str(exc), shown=True) from exc
        except BaseException:  # the delivery stays owed: sent again, under the same nonces
            whispering.cancel()
            await asyncio.gather(whispering, return_exceptions=True)
            raise
        tail: asyncio.Task[list[int]] | None = None
        if books is not None and not done:  # behind the whispers on their way
            tail = asyncio.create_task(_both(whispering, books))
        elif books is not None:
            tail = books
        elif not done:
            tail = whispering
        missed = [u for u in missed if u not in post.dm_failed]
        if missed:
            await self._tell_missed(table, missed, f"{key}.l", language)
            post = replace(post, dm_failed=[*post.dm_failed, *dict.fromkeys(missed)])
        return post, live, tail

    async def _tell_missed(self, table: Table, users: list[int], key: str,
                           language: str) -> None:
        """DMs that failed after the post went, told in the channel as the post tells
        the ones it knows of (an outlet with LateNotes; the others' players hear it at
        their next click). A failure to tell is logged: the DMs' record goes on."""
        if self._notes is None or not users:
            return
        try:
            with speaking(language):
                await self._notes.dms_missed(table, list(dict.fromkeys(users)), key=key)
        except Exception:
            log.warning("could not tell channel %s whom a DM missed", table.channel_id,
                        exc_info=True)

    async def _whisper(self, table: Table, whispers: list[tuple[int, str, str]]) -> list[int]:
        """Each player's whispers in order, the players side by side: one player's DMs
        waiting on Discord (their DM channel's rate limit, emptied by their other games'
        whispers) hold up nobody else's. The users a whisper did not reach, in order."""
        lines: dict[int, list[tuple[str, str]]] = {}
        for user_id, text, whisper in whispers:
            lines.setdefault(user_id, []).append((text, whisper))

        async def one(user_id: int) -> bool:
            reached = True
            async with self._lane(user_id):  # behind the player's earlier whispers
                for text, whisper in lines[user_id]:
                    reached = await self.outlet.whisper(table, user_id, text, key=whisper) \
                        and reached
            return reached

        reached = await asyncio.gather(*(one(u) for u in lines))
        return [u for u, ok in zip(lines, reached, strict=True) if not ok]

    def _lane(self, user_id: int) -> asyncio.Lock:
        """The player's DM lane (kept while someone holds or waits for it)."""
        lane = self._lanes.get(user_id)
        if lane is None:
            lane = asyncio.Lock()
            self._lanes[user_id] = lane
        return lane

    async def _play_by_play(self, table: Table) -> bool:
        """Whether this delivery's lines go to the game's play-by-play thread too: the
        server turned it on (read per delivery, so a change reaches a running game at
        its next move), and the game has begun (a lobby's end opens no thread)."""
        if table.state is None or table.guild_id is None:
            return False
        return (await self.settings.get(table.guild_id)).play_by_play is True

    async def _send_late(self, table: Table, owed: Sequenced, key: str, language: str, *,
                         wait: bool) -> tuple[list[int], asyncio.Task[list[int]] | None]:
        """The documents that wait for the post (delivery.late), the users they could
        not reach, and the private ones still on their way (a task, None when none is).
        The private ones go first, each in its player's lane after their whispers:
        waited for up to WHISPER_GRACE when the whispers went (`wait`: one round trip,
        as a whisper's), not waited for when they did not (a DM tail already); then the
        team ones. The post went first, so it cannot name whom they missed: `_send` tells
        the channel in a line of its own (`_tell_missed`), the outcome names them, and
        the outlet tells them privately at their next click."""
        if not any(is_late(event) for _, event in owed):
            return [], None
        whispers, teams = late(table, owed, key, language)
        books = asyncio.create_task(self._whisper(table, whispers)) if whispers else None
        failed: list[int] = []
        try:
            if books is not None and wait:
                finished, _ = await asyncio.wait({books}, timeout=WHISPER_GRACE)
                if finished:
                    failed += books.result()
                    books = None
            for team, users, text, team_key in teams:
                failed += await self.outlet.team(table, team, users, text, key=team_key)
        except BaseException:
            if books is not None:
                books.cancel()
                await asyncio.gather(books, return_exceptions=True)
            raise
        return failed, books


async def _both(first: asyncio.Task[list[int]], then: asyncio.Task[list[int]]) -> list[int]:
    """Whom either missed: a delivery's whispers and its books, one DM tail."""
    return [*await first, *await then]


def _all_owed(table: Table, owed: Sequenced) -> bool:
    """Whether these events are exactly what the table owes: from the first after the
    last delivered to the last written."""
    if not owed:
        return not owes(table)
    return owed[0][0] == table.delivered_seq + 1 and owed[-1][0] == table.last_seq
