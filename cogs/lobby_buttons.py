"""The lobby message's buttons and selects, and the end's Play again and Replay. It
exists apart from a turn's controls (cogs/prompt_rows.py): these name the channel, or
the game that ended, not a table version, and a click on one redraws the lobby message
(its words: cogs/lobby_embed.py) or opens a new lobby (cogs/components.py).
"""

from __future__ import annotations

import discord

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.locales import ENGLISH, speaking
from bot.store import LOBBY, OVER, Table
from bot.texts import clip, say
from cogs.component_items import (
    ANY_VERSION,
    HOW_TO_PLAY,
    PLAY_AGAIN,
    ActionButton,
    ActionSelect,
    ReplayButton,
)
from cogs.prompt_rows import MAX_ROWS, PER_SELECT, ControlRow


def lobby_view(table: Table, language: str = ENGLISH) -> discord.ui.View | None:
    """The lobby's buttons, labelled in the server's `language`."""
    with speaking(language):
        return _lobby_view(table)


def _lobby_view(table: Table) -> discord.ui.View | None:
    if table.status != LOBBY:
        return None
    view = discord.ui.View(timeout=None)
    for kind, label, style in (
        (table_rules.JOIN, "lobby.join", discord.ButtonStyle.success),
        (table_rules.LEAVE, "lobby.leave", discord.ButtonStyle.secondary),
        (table_rules.ADD_AI, "lobby.add_ai", discord.ButtonStyle.secondary),
        (table_rules.START, "lobby.start", discord.ButtonStyle.primary),
    ):
        view.add_item(ActionButton(table.channel_id, ANY_VERSION, Action(kind), label=say(label),
                                   style=style, row=0))
    game = games.get(table.kind)
    if game.seats_per_player > 1:
        view.add_item(ActionButton(table.channel_id, ANY_VERSION, Action(table_rules.SECOND),
                                   label=say("lobby.second"), row=0))
    # a row for the buttons, one for taking AI seats out, one for How to play
    picks = list(game.seat_choices().items())[:MAX_ROWS - 3]
    for n, (name, values) in enumerate(picks):
        view.add_item(ActionSelect(
            table.channel_id, ANY_VERSION, n,
            placeholder=say("lobby.pick_placeholder", name=game.option_label(name)),
            options=[discord.SelectOption(label=label[:100], value=Action(
                table_rules.PICK, {"name": name, "value": value}).encode())
                for value, label in values[:25]],
            row=n + 1,
        ))
    rows = len(picks) + 1
    ais = [n for n, seat in enumerate(table.seats) if seat.ai][:PER_SELECT]
    if ais:  # Add AI seat's way back: the host (or a moderator) picks the seat
        view.add_item(ActionSelect(
            table.channel_id, ANY_VERSION, len(picks),
            placeholder=say("lobby.remove_ai_placeholder"),
            options=[discord.SelectOption(
                label=clip(say("lobby.roster_line", index=n + 1, name=table.seats[n].name,
                                tags=""), 100),
                value=table_rules.remove_ai_action(table, n).encode()) for n in ais],
            row=rows,
        ))
        rows += 1
    view.add_item(ActionButton(table.channel_id, ANY_VERSION, Action(HOW_TO_PLAY),
                               label=say("lobby.how_to_play"), row=rows))
    return view


def play_again_rows(table: Table) -> list[ControlRow]:
    """The end's buttons: Play again and Replay. Each names the game that ended (its
    id), not a version: the table's version means nothing once the game is over; Play
    again is refused by that id once another game has begun here, Replay shows it."""
    if table.status != OVER or table.id is None or table.state is None:
        return []
    return [ControlRow([ActionButton(table.channel_id, ANY_VERSION,
                                     Action(PLAY_AGAIN, {"game": table.id}),
                                     label=say("lobby.play_again"),
                                     style=discord.ButtonStyle.success),
                        ReplayButton(table.id)])]
