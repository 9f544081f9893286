"""`/game replay [game]` and the end's Replay button: a finished game's animated replay,
posted in the channel (bot/replay.py rebuilds and draws it, bot/replays.py keeps the
limits).

What is refused (an id that does not read, a game of another server, a game not over,
one already being drawn here) is answered privately before anything is posted. Then
the answer comes at once, a public progress line well within Discord's 3 s, edited as
the drawing goes ("Drawing the replay: 40%") and at last carrying the image. The button
(cogs/component_items.py's ReplayButton) names the game it ended (its id), so it replays that
game after a restart and after another game has begun in the channel.
"""

from __future__ import annotations

import asyncio
import io

import discord

from bot import table as table_rules
from bot.core.errors import IllegalAction
from bot.core.wire import read_number
from bot.languages import server_language
from bot.locales import speaking
from bot.replay import Progress
from bot.replays import REPLAYS, Busy
from bot.store import OVER, Table
from bot.texts import say
from cogs import bot_permissions
from cogs.common import bot_of, sessions_of

EDIT_EVERY = 1.5  # seconds between two edits of the progress line (Discord's rate limit)
GAME_ID_LIMIT = 2**63  # the store's ids are BIGINT


def game_number(typed: str) -> int:
    """A game's number as a player types it (42, #42, as /game history lists it), read
    by bot/core/wire.py; anything else is refused in words."""
    try:
        return read_number(typed.strip().removeprefix("#"), GAME_ID_LIMIT, low=1)
    except IllegalAction:
        raise IllegalAction(say("replay.bad_id")) from None


async def finished(interaction: discord.Interaction, game_id: int | None) -> Table:
    """The game to replay: `game_id`, if it was played in this server, else this
    channel's last finished game. Only a game that started and is over."""
    store = bot_of(interaction).store
    if game_id is None:
        table = await store.load_last_over(interaction.channel_id or 0)
        if table is None:
            raise IllegalAction(say("replay.no_game"))
    else:
        table = await store.load_game(game_id)
        if table is None or table.guild_id is None or table.guild_id != interaction.guild_id:
            raise IllegalAction(say("replay.not_here", game=game_id))
    if table.status != OVER:
        raise IllegalAction(say("replay.not_over"))
    if table.state is None:
        raise IllegalAction(say("replay.never_started"))
    return table


async def post(interaction: discord.Interaction, game_id: int | None) -> None:
    """Answer with the progress line, draw the replay off the loop, then show it. Where
    the bot may not show a game (its permissions there), refused first, in words."""
    await bot_permissions.cannot_play(interaction, lobby=False)  # pictures, no embed
    table = await finished(interaction, game_id)
    try:
        with REPLAYS.slot(interaction.channel_id or 0):
            await _drawn(interaction, table)
    except Busy as busy:  # only ever from taking the slot: nothing was posted
        raise IllegalAction(busy.message) from None


async def _drawn(interaction: discord.Interaction, table: Table) -> None:
    """The replay is a public post: its progress line, its pictures and its words in the
    server's language (read now: a changed `/gm settings language` counts); only a
    refusal is the caller's, in theirs."""
    number = table.id or 0
    progress = Progress()
    settings = await sessions_of(interaction).settings.get(table.guild_id)
    language = server_language(table, settings)
    with speaking(language):
        drawing = say("replay.drawing", game=number, percent=0)
    await interaction.response.send_message(drawing)
    work = asyncio.ensure_future(REPLAYS.draw(bot_of(interaction).store, table, progress,
                                              language))
    shown = 0
    while not (await asyncio.wait({work}, timeout=EDIT_EVERY))[0]:
        percent = int(progress.done * 100)
        if percent != shown:
            shown = percent
            with speaking(language):
                drawing = say("replay.drawing", game=number, percent=percent)
            await interaction.edit_original_response(content=drawing)
    try:
        made = work.result()
    except ValueError:  # nothing under the upload limit
        with speaking(language):
            failed = say("replay.failed")
        await interaction.edit_original_response(content=failed)
        raise IllegalAction(say("replay.failed")) from None
    with speaking(language):
        title = table_rules.title(table)
        image = discord.File(io.BytesIO(made.data), filename=f"replay-{number}.{made.format}",
                             description=say("replay.alt", game=number, title=title))
        posted = say("replay.posted", game=number, title=title,
                     pictures=len(made.durations), seconds=round(made.seconds))
    await interaction.edit_original_response(content=posted, attachments=[image])
