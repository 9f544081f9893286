"""The lobby message's words: its embed (the game, who sits where with their picks, the
setup chosen, what it needs before Start), in the server's language. Its buttons are
cogs/lobby_buttons.py's `lobby_view`; both are redrawn by every lobby click."""

from __future__ import annotations

import discord

from bot import games
from bot import table as table_rules
from bot.locales import ENGLISH, speaking
from bot.store import ACTIVE, LOBBY, Table
from bot.texts import say


def lobby_embed(table: Table, language: str = ENGLISH) -> discord.Embed:
    """The lobby message's embed, in the server's `language` (a public message)."""
    with speaking(language):
        return _lobby_embed(table)


def _lobby_embed(table: Table) -> discord.Embed:
    game = games.get(table.kind)
    if table.status == LOBBY:
        title = say("lobby.title", game=table_rules.title(table))
    else:
        title = say("lobby.title_active" if table.status == ACTIVE else "lobby.title_ended",
                    game=table_rules.title(table))
    lines = []
    picked = game.seat_choices()
    for index, seat in enumerate(table.seats, start=1):
        first = table.seats_of(seat.user_id or 0)[:1] == [index - 1]
        is_host = seat.user_id == table.host_id and not seat.ai
        tags = say("lobby.host_tag") if is_host and first else ""
        tags += say("lobby.ai_tag") if seat.ai else ""
        tags += say("lobby.second_tag") if not seat.ai and not first else ""
        name = f"<@{seat.user_id}>" if seat.user_id and not seat.ai else seat.name
        for pick, value in seat.picks.items():
            tags += f" · {dict(picked.get(pick, [])).get(value, value)}"
        lines.append(say("lobby.roster_line", index=index, name=name, tags=tags))
    roster = "\n".join(lines) or say("lobby.empty_seat")
    description = "\n\n".join(part for part in (about(table), roster) if part)
    embed = discord.Embed(title=title, description=description,
                          colour=discord.Colour.dark_purple())
    offered = game.setup_choices()
    for name, value in table.options.items():
        if name in offered:
            label = dict(offered[name]).get(str(value), str(value))
            embed.add_field(name=game.option_label(name).capitalize(), value=label)
    if table.options.get(table_rules.SEEDED):  # said openly: the table knows (cogs/lobby.py)
        embed.add_field(name=say("lobby.seeded_title"), value=say("lobby.seeded"),
                        inline=False)
    embed.set_footer(text=_footer(table))
    return embed


def about(table: Table) -> str:
    """What the game is, for whoever meets the lobby: its few words (`Game.about`, the
    edition's where the setup picks one), players and length; nothing for a game
    without them."""
    game = games.get(table.kind)
    words = game.about(game.edition_of(table.options))
    if words is None:
        return ""
    line = say("lobby.about_line", min=game.min_players, max=game.max_players,
               length=words.length)
    return f"{words.text.strip()}\n*{line}*"


def _footer(table: Table) -> str:
    """The lobby's footer as the table is now: what it needs before Start, and after
    it no longer "needs 2 to start"."""
    game = games.get(table.kind)
    if table.status == ACTIVE:  # a paused game waits for a moderator, not a turn
        return say("lobby.footer_paused" if table.paused else "lobby.footer_active",
                   count=len(table.seats))
    if table.status != LOBBY:
        return say("lobby.footer_ended")
    return say("lobby.footer", count=len(table.seats), max=game.max_players,
               min=game.min_players)
