"""`/cthulhu move` and `/cthulhu fight`, with autocomplete drawn from the legal options.

The cog never decides legality: it offers what the engine lists, and anything typed
by hand still goes through the engine, which refuses it with a readable reason.
In a DM the commands act on the caller's game (cogs/rights.py says which).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot import table as table_rules
from bot.command_translator import english_words
from bot.core import wire
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.games.cthulhu import content
from bot.games.cthulhu.state import CthulhuState
from bot.store import Table
from cogs.click_limit import LIMITS
from cogs.common import acknowledgement, handling, sessions_of
from cogs.rights import command_actor, command_table

KIND = "cthulhu"
WORDS = english_words(KIND)  # the commands' words (texts.yaml's `commands`)


async def _state_and_options(interaction: discord.Interaction
                             ) -> tuple[Table, CthulhuState, list[Option]]:
    table = await command_table(interaction, KIND, content.cthulhu_line("cog.no_game"))
    game = games.get(KIND)
    state: CthulhuState = game.load(table.state or {})
    seat = table_rules.acting_seat(table, interaction.user.id)
    options = game.options(state, seat) if seat is not None else []
    return table, state, options


def _lookup(value: str, names: list[str], what: str) -> int:
    """An id from autocomplete, or a name typed by hand (case-insensitive, unique prefix)."""
    text = value.strip()
    index = wire.index_of(text, len(names))  # ASCII digits only: "²" passes isdigit()
    if index is not None:
        return index
    wanted = text.lower().removeprefix("the ")
    exact = [i for i, n in enumerate(names) if n.lower().removeprefix("the ") == wanted]
    if len(exact) == 1:
        return exact[0]
    prefix = [i for i, n in enumerate(names) if n.lower().removeprefix("the ").startswith(wanted)]
    if wanted and len(prefix) == 1:
        return prefix[0]
    raise IllegalAction(content.cthulhu_line("cog.unknown",
                                             what=content.cthulhu_line(f"cog.what_{what}"),
                                             text=text[:40]))


def _choices(values: list[int], names: list[str], current: str) -> list[app_commands.Choice[str]]:
    needle = current.lower()
    seen: list[int] = []
    for v in values:
        if v not in seen and needle in names[v].lower():
            seen.append(v)
    return [app_commands.Choice(name=names[v][:100], value=str(v)) for v in seen[:25]]


def _arg_values(options: list[Option], kind: str, arg: str, **fixed: int) -> list[int]:
    out: list[int] = []
    for option in options:
        a = option.action
        if a.kind != kind or any(a.args.get(k) != v for k, v in fixed.items()):
            continue
        value = a.args.get(arg)
        if isinstance(value, int):
            out.append(value)
    return out


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class CthulhuCog(commands.GroupCog, group_name="cthulhu", group_extras=LIMITS,
                 group_description=WORDS["group"]):
    async def _act(self, interaction: discord.Interaction, command: str,
                   make: Callable[[CthulhuState], Action]) -> None:
        async with handling(interaction, command):
            table, state, _ = await _state_and_options(interaction)
            action = make(state)
            actor = await command_actor(interaction, table)
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await sessions_of(interaction).act(table.channel_id, actor, action)
            await interaction.followup.send(
                acknowledgement(outcome, content.cthulhu_line("cog.done")), ephemeral=True)

    @app_commands.command(name="move", description=WORDS["move"])
    @app_commands.describe(character=WORDS["move_character"], room=WORDS["move_room"])
    async def move(self, interaction: discord.Interaction, character: str, room: str) -> None:
        def make(state: CthulhuState) -> Action:
            return Action("move", {
                "character": _lookup(character, _NAMES["character"](state), "character"),
                "room": _lookup(room, _NAMES["room"](state), "room"),
            })
        await self._act(interaction, "cthulhu move", make)

    @app_commands.command(name="fight", description=WORDS["fight"])
    @app_commands.describe(room=WORDS["fight_room"], remove=WORDS["fight_remove"])
    async def fight(self, interaction: discord.Interaction, room: str, remove: str) -> None:
        def make(state: CthulhuState) -> Action:
            return Action("fight", {
                "room": _lookup(room, _NAMES["room"](state), "room"),
                "remove": _lookup(remove, _NAMES["remove"](state), "character"),
            })
        await self._act(interaction, "cthulhu fight", make)

    @move.autocomplete("character")
    async def _move_character(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, "move", "character")

    @move.autocomplete("room")
    async def _move_room(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, "move", "room", after="character")

    @fight.autocomplete("room")
    async def _fight_room(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, "fight", "room")

    @fight.autocomplete("remove")
    async def _fight_remove(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, "fight", "remove", after="room")


_NAMES: dict[str, Callable[[CthulhuState], list[str]]] = {
    "character": lambda state: [c.name for c in state.characters],
    "remove": lambda state: [c.name for c in state.characters],
    "room": lambda state: [r.name for r in state.rooms],
}


async def _complete(interaction: discord.Interaction, current: str, kind: str, arg: str,
                    after: str | None = None) -> list[app_commands.Choice[str]]:
    """The legal values of `arg`, narrowed by the option typed before it (`after`)."""
    try:
        _, state, options = await _state_and_options(interaction)
    except IllegalAction:
        return []
    fixed: dict[str, int] = {}
    chosen = getattr(interaction.namespace, after, None) if after else None
    if after and chosen:
        try:
            fixed[after] = _lookup(str(chosen), _NAMES[after](state), after)
        except IllegalAction:
            return []
    return _choices(_arg_values(options, kind, arg, **fixed), _NAMES[arg](state), current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CthulhuCog())
