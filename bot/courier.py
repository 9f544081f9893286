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

A delivery is named by its key (`delivery_key`: the game at its version) and each
whisper by its event's place in the log, and the outlet turns them into Discord nonces:
a delivery cut short (a crash, Discord failing) is sent again under the same keys, so
what got through shows once. The key is the version's, so nothing may be saved while a
delivery is owed: the sessions layer delivers what is owed before it saves anything
new (bot/sessions.py's `_ready`).

A delivery speaks the server's language (bot/languages.py's `server_language`): the
plan picks each line's text for its reader, and the outlet's own words (the live
message's footer, a notice) are made under `speaking` it.

The sessions layer calls `deliver` with the channel's delivery lock held and its
channel lock let go (bot/channel_locks.py): a slow Discord holds up no other action of
the channel. What can go wrong is told in the `Outcome`, never raised: the move was
saved either way, and what stayed owed is sent again later (the next click, the 30 s
retry, the store coming back).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace

from bot.core.events import Event
from bot.delivery import (
    ChannelGate,
    DeliveryFailed,
    MemberKeeper,
    Outlet,
    Post,
    PostRefused,
    Sequenced,
    delivery_key,
    is_late,
    late,
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
                post, live = await self._send(table, owed, key, language, ahead)
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
            return Outcome(table, events, None, delivered=False)
        except Exception:
            log.warning("delivery in channel %s failed; it stays owed", table.channel_id,
                        exc_info=True)
            return Outcome(table, events, None, delivered=False)
        await self._mark_delivered(table, live)
        return Outcome(table, events, post)

    async def _owed(self, table: Table) -> Sequenced:
        """The events the store has not seen delivered, with their places in the log."""
        if table.id is None or not owes(table):
            return []
        return [(e.seq, e.event()) for e in await self.store.undelivered(table.id)]

    async def _mark_delivered(self, table: Table, live: LiveMessage | None) -> None:
        """The store hears the delivery is done, and the live message it left, in one
        write. Should that fail, the delivery is sent again later under the same keys,
        and shows once."""
        if table.id is None:
            return
        try:
            if not owes(table):
                if live is not None:
                    await self.store.set_live(table.id, live)
                return
            await self.store.mark_delivered(table.id, table.last_seq, live)
            table.delivered_seq = table.last_seq
        except StoreUnavailable:  # sent; sent again under the same keys, shown once
            log.info("game %s is marked delivered when the store is back", table.id)
        except Exception:  # sent already; at worst sent again under the same keys
            log.exception("could not mark game %s delivered", table.id)

    async def language(self, table: Table) -> str:
        """The language of the table's public posts now (read per delivery, so a change
        of `/gm settings language` reaches a running game at its next move)."""
        settings = await self.settings.get(table.guild_id) if table.guild_id else None
        return server_language(table, settings)

    async def _send(self, table: Table, owed: Sequenced, key: str, language: str,
                    ahead: Ahead | None = None) -> tuple[Post, LiveMessage | None]:
        """Private lines one whisper each, as they came (each player's in order, the
        players side by side); a team's lines as one message per team (a team's thread
        reads like the channel: one post per move, not a line each); then the public
        post, which names whom a DM did not reach (a whisper still waiting on Discord
        after WHISPER_GRACE is not waited for: the post goes, the whisper follows before
        the mark); then the private and team documents (a secret book), which the post
        announces.
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
            held = [] if done else await whispering  # sent before the mark, all the same
        except BaseException:  # the delivery stays owed: sent again, under the same nonces
            whispering.cancel()
            await asyncio.gather(whispering, return_exceptions=True)
            raise
        missed = [u for u in [*held, *await self._send_late(table, owed, key, language)]
                  if u not in post.dm_failed]
        if missed:
            post = replace(post, dm_failed=[*post.dm_failed, *dict.fromkeys(missed)])
        return post, live

    async def _whisper(self, table: Table, whispers: list[tuple[int, str, str]]) -> list[int]:
        """Each player's whispers in order, the players side by side: one player's DMs
        waiting on Discord (their DM channel's rate limit, emptied by their other games'
        whispers) hold up nobody else's. The users a whisper did not reach, in order."""
        lines: dict[int, list[tuple[str, str]]] = {}
        for user_id, text, whisper in whispers:
            lines.setdefault(user_id, []).append((text, whisper))

        async def one(user_id: int) -> bool:
            reached = True
            for text, whisper in lines[user_id]:
                reached = await self.outlet.whisper(table, user_id, text, key=whisper) \
                    and reached
            return reached

        reached = await asyncio.gather(*(one(u) for u in lines))
        return [u for u, ok in zip(lines, reached, strict=True) if not ok]

    async def _play_by_play(self, table: Table) -> bool:
        """Whether this delivery's lines go to the game's play-by-play thread too: the
        server turned it on (read per delivery, so a change reaches a running game at
        its next move), and the game has begun (a lobby's end opens no thread)."""
        if table.state is None or table.guild_id is None:
            return False
        return (await self.settings.get(table.guild_id)).play_by_play is True

    async def _send_late(self, table: Table, owed: Sequenced, key: str,
                         language: str) -> list[int]:
        """The documents that wait for the post (delivery.late); the users they could not
        reach. The post went first, so it cannot name them: the outcome does, and the
        outlet tells them privately at their next click."""
        if not any(is_late(event) for _, event in owed):
            return []
        whispers, teams = late(table, owed, key, language)
        failed: list[int] = []
        for user_id, text, whisper in whispers:
            if not await self.outlet.whisper(table, user_id, text, key=whisper):
                failed.append(user_id)
        for team, users, text, team_key in teams:
            failed += await self.outlet.team(table, team, users, text, key=team_key)
        return failed


def _all_owed(table: Table, owed: Sequenced) -> bool:
    """Whether these events are exactly what the table owes: from the first after the
    last delivered to the last written."""
    if not owed:
        return not owes(table)
    return owed[0][0] == table.delivered_seq + 1 and owed[-1][0] == table.last_seq
