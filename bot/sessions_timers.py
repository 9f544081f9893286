"""The sessions' layer for turn timers (bot/timers.py decides them; bot/sessions.py is
the door). It is apart so a timer's life reads in one place: armed by a save, fired by
the dispatcher, a reminder sent once.

A save that hands the turn to a human arms the server's timers in the same transaction
(bot/sessions_channel.py's `_arm`, called by its `_save`), and every save replaces them,
so any action cancels them; a save that leaves the same turn waiting arms them again
from that turn's start. `fire_timer` fires one as a click would play, only if the table
is still at the version the timer was armed for. The server's settings come from
`settings` (read once; /gm settings writes through it)."""

from __future__ import annotations

import logging

from bot import timers as turn_timers
from bot.channel_locks import DeliveryTurn
from bot.courier import Outcome
from bot.delivery import Sequenced, sequenced, timer_key
from bot.locales import speaking
from bot.sessions_ai import AiChain
from bot.sessions_channel import LOGGER, Behind
from bot.store import TurnTimer
from bot.table_record import Table
from bot.worker import Ahead

log = logging.getLogger(LOGGER)


class TurnTimers(AiChain):
    """The turn timers a save arms, and one that falls due: a reminder, or the
    turn's end played as the server says (then the AI chain, as after a click)."""

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
