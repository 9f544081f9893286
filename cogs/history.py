"""`/game history`: the finished games of this channel (or the whole server), newest
first, in pages; and any one of them opened, its story as the table read it at the end.

Everything is read from the rows the save that ended each game wrote (bot/summary.py,
the store's game_results): no game's events are replayed. A game is opened only in the
server it was played in; any other id gets one short private line.
"""

from __future__ import annotations

import math

import discord

from bot import games
from bot.core.errors import IllegalAction
from bot.core.story import HEROES, HOUSE, NO_SIDE
from bot.core.wire import read_number
from bot.discord_limits import CONTENT_MAX
from bot.locales import current
from bot.store import GameResult, SeatResult
from bot.summary import logged_summary
from bot.texts import clip, listed, say
from cogs.common import bot_of, say_ephemeral
from cogs.components import ReplayButton

PAGE_SIZE = 8  # games a page lists: each entry is two short lines
# How long each name of an entry may be, tried in turn until the entry fits its share of
# a page (None: whole). Six, with "…", still tells players apart at a glance.
NAME_CUTS: tuple[int | None, ...] = (None, 16, 10, 6)
HERE, SERVER = "here", "server"
GAME_ID_LIMIT = 2**63  # the store's ids are BIGINT


def title_of(kind: str, edition: str = "") -> str:
    """The game's name as it was played (its edition's: Game.title_of); a kind no longer
    installed is named by its key."""
    return games.get(kind).title_of(edition) if kind in games.all_games() else kind


def length_text(result: GameResult) -> str:
    minutes = max(0, round((result.ended_at - result.started_at) / 60))
    if minutes < 60:
        return say("history.minutes", minutes=minutes)
    return say("history.hours", hours=minutes // 60, minutes=minutes % 60)


def each_once(seats: list[SeatResult]) -> list[str]:
    """The seats' names, a player holding two seats (`Game.seats_per_player`) named
    once: seats are told apart by their user, an AI's by its seat."""
    named: dict[int, str] = {}
    for seat in seats:
        named.setdefault(seat.user_id if seat.user_id is not None and not seat.ai
                         else -1 - seat.seat, seat.name)
    return list(named.values())


def entry(result: GameResult, room: int = CONTENT_MAX) -> str:
    """One game of the list: what, when, who, who won, how long. Names are listed the
    way the reader's language lists them, each player once (one may hold two seats).
    An entry longer than `room`, its share of a page (a page of six-player games whose
    names are as long as Discord allows runs past a message), has its names cut
    shorter (NAME_CUTS) until it fits: the opened story names them whole."""
    text = ""
    for cut in NAME_CUTS:
        text = _entry(result, cut)
        if len(text) <= room:
            break
    return text


def _entry(result: GameResult, cut: int | None) -> str:
    players, winners = (listed([name if cut is None else clip(name, cut)
                                for name in each_once(seats)])
                        for seats in (result.seats, result.winners))
    return say("history.entry", id=result.game_id, game=title_of(result.kind, result.edition),
               date=f"<t:{int(result.ended_at)}:d>", players=players or "-",
               result=result_text(result, winners), turns=result.turns,
               length=length_text(result))


def result_text(result: GameResult, winners: str) -> str:
    """Who won; or, where no seat did, why: a game ended before its end (its seats took
    no side), a cooperative table beaten by the game, else nobody. A list that said
    "won: nobody" for all three read as if nothing had happened."""
    if winners:
        return say("history.won", winner=winners)
    sides = {seat.side for seat in result.seats}
    if sides == {NO_SIDE}:
        return say("history.ended_early")
    if sides in ({HOUSE}, {HEROES}):  # one side, all beaten: the game (the house) won
        return say("history.lost_together")
    return say("history.won", winner=say("history.no_winner"))




def page_text(results: list[GameResult], page: int, pages: int, where: str) -> str:
    """A page of the list, every game on it whole, then how to open one: the page is
    shared out among its games, each entry within its share (`entry`)."""
    head = say(f"history.heading_{where}", page=page, pages=pages)
    tail = say("history.open_one")
    room = (CONTENT_MAX - len(head) - len(tail)) // max(1, len(results)) - 2
    lines = [head, *(entry(r, room) for r in results), tail]
    return "\n".join(lines)[:CONTENT_MAX]


def summary_text(result: GameResult, story: str | None = None) -> str:
    """The story of one game as the table read it (`story`: in the reader's language,
    else the stored English), under a line saying which game."""
    head = say("history.opened", id=result.game_id,
               game=title_of(result.kind, result.edition),
               date=f"<t:{int(result.ended_at)}:f>", length=length_text(result))
    return f"{head}\n{result.summary if story is None else story}"[:CONTENT_MAX]


def replay_view(result: GameResult) -> discord.ui.View:
    """The controls under an opened game's story: its "Replay" (cogs/replay.py), the same
    button the game's end post carries, so any past game can be watched again."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(result.game_id))
    return view


def read_game_id(text: str) -> int:
    """A game's number as typed: digits only, within the store's ids."""
    try:
        return read_number(text.strip().lstrip("#"), GAME_ID_LIMIT, low=1)
    except IllegalAction:
        raise IllegalAction(say("history.bad_id", text=text[:20])) from None


async def show(interaction: discord.Interaction, where: str, game: str | None,
               page: int | None) -> None:
    """The list's page (the newest first), or the one game asked for."""
    store = bot_of(interaction).store
    guild_id = interaction.guild_id
    if guild_id is None:
        raise IllegalAction(say("history.server_only"))
    if game is not None:
        game_id = read_game_id(game)
        result = await store.result(game_id)
        if result is None or result.guild_id != guild_id:
            raise IllegalAction(say("history.no_such_game", id=game_id))
        told = await logged_summary(store, game_id)  # the story in each language it was told
        story = told.text_in(current()) if told is not None else None
        await say_ephemeral(interaction, summary_text(result, story), view=replay_view(result))
        return
    channel_id = None if where == SERVER else interaction.channel_id
    count = await store.count_results(guild_id, channel_id)
    if count == 0:
        raise IllegalAction(say(f"history.none_{where}"))
    pages = math.ceil(count / PAGE_SIZE)
    page = page or 1
    if page > pages:
        raise IllegalAction(say("history.no_such_page", pages=pages))
    results = await store.results(guild_id, channel_id, limit=PAGE_SIZE,
                                  offset=(page - 1) * PAGE_SIZE)
    await say_ephemeral(interaction, page_text(results, page, pages, where))
