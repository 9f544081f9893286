"""The sessions' layer for the AI seats (bot/sessions.py is the door; below this,
bot/sessions_channel.py): after a save, the AI seats play until a human is needed
(`_ai_plays`); the demo drives a game one AI decision at a time (`ai_step`). It is
apart so how a long chain shares the worker with other channels, and how a failure in
it keeps what was already saved, reads on its own.

Several seats may act at once (bot/games/base.py, out_of_turn): after each action, and
between the AI's moves in the chain, an AI seat with an out-of-turn offer plays it
before the AI to act moves, seats in order, at most MAX_OFFERS_IN_A_ROW (bot/worker.py)
offers between two moves of the seat to act (a game whose AI never declines cannot hold
the chain)."""

from __future__ import annotations

import logging

from bot.courier import Outcome
from bot.delivery import Sequenced, sequenced
from bot.sessions_channel import LOGGER, ChannelGames
from bot.store import StoreUnavailable
from bot.table_record import ACTIVE, Table
from bot.worker import Ahead, AiWork, Foresight

log = logging.getLogger(LOGGER)

MAX_AI_STEPS = 500  # a chain of AI decisions longer than this means a bug, not a game


class AiChain(ChannelGames):
    """The AI seats' moves: after a save, until a human is needed; or one decision
    at a time, as the demo drives a game."""

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
