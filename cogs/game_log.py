"""`/game log`: every public line of the game, by turn, in pages.

The live message tells a turn in a few headlines (bot/headlines.py); the log is where
the rest is read: each line the table was told, under the number of its turn (a turn
begins with the game's "turn" event), newest page first, with Older and Newer buttons.
The buttons name only a page: they read the channel's game again when pressed, so they
keep working after a restart and always show the game as it is now.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.errors import IllegalAction
from bot.delivery import TURN_KIND
from bot.discord_limits import CONTENT_MAX
from bot.live_message import split_line
from bot.locales import current
from bot.store import LoggedEvent
from bot.texts import say
from cogs.common import bot_of, handling, sessions_of
from cogs.components import Unreadable, in_callers_words

LOG_EVENTS = 20_000  # more public lines than the longest game says
PAGE = CONTENT_MAX - 60  # a page's lines, leaving room for its heading


def turns(entries: list[LoggedEvent]) -> list[tuple[int, list[str]]]:
    """The log's lines grouped by turn, oldest first: (0, the setup's lines), then
    (n, the lines of turn n) for every turn opened by a "turn" event. Each line in the
    language spoken (the reader's: the log is answered privately), where it was said in
    it, else in English."""
    language = current()
    grouped: list[tuple[int, list[str]]] = [(0, [])]
    for entry in entries:
        if entry.kind == TURN_KIND:
            grouped.append((grouped[-1][0] + 1, []))
        grouped[-1][1].append(entry.text_in(language))
    return [(number, lines) for number, lines in grouped if lines]


def heading(number: int) -> str:
    return say("game_log.setup") if number == 0 else say("game_log.turn", number=number)


def pages(entries: list[LoggedEvent]) -> list[str]:
    """The log as pages of at most PAGE characters, oldest first; a turn that runs over
    a page goes on under its heading on the next one."""
    out: list[str] = []
    current: list[str] = []
    used = 0
    for number, lines in turns(entries):
        head = heading(number)
        room = PAGE - len(head) - 1  # a piece goes on a page under its turn's heading
        pieces = [head, *(p for line in lines for p in split_line(line, room))]
        for n, piece in enumerate(pieces):
            cost = len(piece) + 1
            if current and used + cost > PAGE:
                out.append("\n".join(current))
                current, used = ([], 0) if n == 0 else ([head], len(head) + 1)
            current.append(piece)
            used += cost
    if current:
        out.append("\n".join(current))
    return out


def page_text(all_pages: list[str], page: int) -> str:
    return f"{say('game_log.page', page=page, pages=len(all_pages))}\n{all_pages[page - 1]}"


def page_view(page: int, count: int) -> discord.ui.View | None:
    """Older / Newer, each off at its end of the log; none for a one-page log."""
    if count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    for label, to, disabled in ((say("game_log.older"), page - 1, page <= 1),
                                (say("game_log.newer"), page + 1, page >= count)):
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label, custom_id=LogPage.page_id(max(1, min(count, to)), label),
            disabled=disabled, style=discord.ButtonStyle.secondary)
        view.add_item(LogPage(button, max(1, min(count, to))))
    return view


async def read_pages(interaction: discord.Interaction) -> list[str]:
    """The pages of this channel's game (its public lines only)."""
    table = await sessions_of(interaction).table(interaction.channel_id or 0, latest=True)
    if table is None:
        raise IllegalAction(say("errors.no_game"))
    entries = await bot_of(interaction).store.log(table.id or 0, limit=LOG_EVENTS)
    return pages(entries)


def chosen(all_pages: list[str], page: int | None) -> int:
    """The page asked for (the newest when none); out of range is refused in words."""
    if not all_pages:
        raise IllegalAction(say("lobby.log_empty"))
    if page is None:
        return len(all_pages)
    if not 1 <= page <= len(all_pages):
        raise IllegalAction(say("errors.no_log_page", pages=len(all_pages)))
    return page


async def show(interaction: discord.Interaction, page: int | None) -> None:
    """Answer `/game log [page]` privately, with the buttons to turn the pages."""
    all_pages = await read_pages(interaction)
    n = chosen(all_pages, page)
    view = page_view(n, len(all_pages))
    if view is None:
        await interaction.response.send_message(page_text(all_pages, n), ephemeral=True)
    else:
        await interaction.response.send_message(page_text(all_pages, n), view=view,
                                                ephemeral=True)


PAGE_ID = re.compile(r"hklog:(?P<page>[0-9]{1,6}):[a-z]+")


class LogPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?s)hklog:.*"):
    """A page button of `/game log`: the page it opens, read anew when pressed.

    Its template takes every id under its prefix (which cogs/component_items.py's Stray
    leaves to it), so one that does not read is answered as unreadable, not left for
    Discord to call failed."""

    def __init__(self, item: discord.ui.Button[Any], page: int) -> None:
        super().__init__(item)
        self.page = page

    @staticmethod
    def page_id(page: int, label: str) -> str:
        """The page, and a word that keeps Older and Newer apart when both open one
        page (custom ids must differ within a message)."""
        return f"hklog:{page}:{re.sub('[^a-z]', '', label.lower()) or 'page'}"

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see component_items.Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> LogPage | Unreadable:
        read = PAGE_ID.fullmatch(match.group(0))
        if read is None or not isinstance(item, discord.ui.Button):
            with in_callers_words(interaction):
                return Unreadable(item, say("errors.unreadable"))
        return cls(item, int(read.group("page")))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "game log page"):
            all_pages = await read_pages(interaction)
            n = chosen(all_pages, min(self.page, len(all_pages)) if all_pages else None)
            await interaction.response.edit_message(
                content=page_text(all_pages, n), view=page_view(n, len(all_pages)))
