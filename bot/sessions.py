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

This module is the sessions' door: the rest of the bot uses `Sessions` and the names it
re-exports (`__all__`). Every way in (a click, /gm undo, a resume, a timer) takes the
same steps, so they are built in layers, lowest first, each a class the next one
extends, and a newcomer can read one at a time: bot/sessions_channel.py (the channel's
lock, the game loaded owing nothing, a save, the delivery: steps 2, 4 and 7),
bot/sessions_ai.py (the AI chain: step 5), bot/sessions_timers.py (turn timers),
bot/sessions_reading.py (what the cogs read), bot/sessions_start.py (a start's warm-up
and a clean stop), and here the ways in: a click (`act`), a lobby's opening, a deleted
channel, /gm undo, and a resume after a restart.

What a server has played (bot/games/base.py, PLAYED): an event naming content as it
comes into play is recorded for the table's server in the save that writes it, and a
game starting in that server gets the list in its setup options, so a game can avoid
what the server has seen. Sessions name no game: the keys are the game's own.

The operators' metrics (bot/metrics.py) are a `Recorder` given to the constructor, off
(recording nothing) unless the bot turns them on: users' actions played and refused, by
the table's kind, and how long actions and renders take.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from bot import table as table_rules
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.courier import Outcome, owes
from bot.delivery import Outlet, Post, Prompt, sequenced
from bot.games.base import PLAYED
from bot.languages import heard, said_in
from bot.locales import ENGLISH, speaking
from bot.sessions_ai import MAX_AI_STEPS
from bot.sessions_channel import CATCH_UPS, LOGGER, Acting, Behind
from bot.sessions_start import DRAIN_SECONDS, WARM_BOARDS, StartAndStop
from bot.store import GameExists, UndoPoint, UndoWrite
from bot.table_record import ACTIVE, LOBBY, OVER, Table
from bot.texts import say
from bot.worker import WORKERS, Foresight

__all__ = ["CATCH_UPS", "DRAIN_SECONDS", "MAX_AI_STEPS", "WARM_BOARDS", "WORKERS", "Acting",
           "Behind", "GameExists", "Outcome", "Outlet", "Post", "Prompt", "Sessions"]

log = logging.getLogger(LOGGER)


class Sessions(StartAndStop):
    """The door: a user's click (`act`) and the other ways in, over the layers that
    lock, load, save, play the AI, fire the timers and deliver."""

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

    async def _no_game(self, channel_id: int) -> IllegalAction:
        latest = await self.store.load_latest(channel_id)
        return IllegalAction(say("errors.game_over" if latest else "errors.no_game"))

    async def _hand_in_played(self, table: Table) -> None:
        """Before a start: the server's played content of this kind joins the table's
        options, which the game's setup reads (kept there, so the game replays exactly).
        Nothing is added when the server has played nothing or there is no server."""
        if table.guild_id is None:
            return
        keys = await self.store.played(table.guild_id, table.kind)
        if keys:
            table.options[PLAYED] = keys

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
                if table.status != ACTIVE:  # a lobby or an ended game: nothing to take back
                    raise IllegalAction(table_rules.not_running(table))
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
