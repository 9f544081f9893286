"""The sessions' layer for a start and a stop (bot/sessions.py is the door; bot/client.py
calls these). A start reads every language's words and draws a board of every kind
(`warm_up`), then the boards of the games played last (`warm_boards`), in the background
and after the players' clicks, so no player's first click pays for them. A stop
(`drain`) refuses new work and waits for the interactions under way (`serving`), so
nobody is left without a reply. They are apart from the door because neither plays a
move."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from bot import games
from bot.guild_settings import GuildSettings
from bot.locales import ENGLISH, LANGUAGES, speaking
from bot.sessions_channel import LOGGER, SERVING
from bot.sessions_reading import Reading

log = logging.getLogger(LOGGER)

# Boards a start draws ahead (`warm_boards`): the open games played last, as many as the
# busiest servers we measure have channels at play (issue 23's 200), and what the band
# cache keeps warm for them (renderers.budgets: 200 haunts held 16 of its 20 MB).
# bench/bench_channels.py, 200 haunt channels: the first actions' p50 against the floor
# 4.07-4.18x with 48 drawn ahead, 2.97-3.01x with 200 (their max 11-15x, 7.4x), for
# ~10 MB more RSS once drawn, which those channels' first clicks would take anyway. Each
# board waits for the clicks under way (~2 s of a worker's time for 200 cold boards).
WARM_BOARDS = 200
DRAIN_SECONDS = 5.0  # a stop waits this long at most for the interactions under way


class StartAndStop(Reading):
    """A start's warm-up, off the players' way, and a clean stop that answers
    every interaction under way."""

    # -- a start --------------------------------------------------------------------------

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
        token = SERVING.set(True)
        try:
            yield
        finally:
            SERVING.reset(token)
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
