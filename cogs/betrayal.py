"""`/betrayal ...`: a turn of Betrayal at House on the Hill typed as commands.

Every command picks one of the engine's own legal options (the same list the buttons
show), matched by what autocomplete offered or by what was typed, so the cog never
decides what is legal and a typed command and a click always do the same thing.
In a DM the commands act on the caller's game (the traitor's turn arrives there).
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot import table as table_rules
from bot.command_translator import english_words
from bot.core import wire
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.games.betrayal import content, sheet_view
from bot.games.betrayal.context import explorer_name
from bot.games.betrayal.state import BetrayalState
from bot.store import Table
from bot.texts import grouped, listed, say
from cogs.click_limit import FREE, LIMITS
from cogs.common import (
    acknowledgement,
    handling,
    pick_option,
    say_ephemeral,
    sessions_of,
)
from cogs.rights import command_actor, command_table
from renderers.betrayal import render_sheet

KIND = "betrayal"
WORDS = english_words(KIND)  # the commands' words (texts.yaml's `commands`)
ATTACK = {"attack"}
END_TURN = Action("end_turn")  # the engine's one End turn: it takes no arguments
HAUNT_ACTS = {"act", "mmove", "mattack", "mend"}  # haunt and room actions, the monsters' turn
TRAITS = [app_commands.Choice(name=WORDS[f"traits.{t}"], value=t)
          for t in ("might", "speed", "sanity", "knowledge")]
DIRECTION_VALUES = ("N", "E", "S", "W")
DIRECTIONS = [app_commands.Choice(name=WORDS[f"directions.{v}"], value=v)
              for v in DIRECTION_VALUES]


async def _table(interaction: discord.Interaction) -> Table:
    return await command_table(interaction, KIND, content.betrayal_line("cog.no_game"))


async def _options(interaction: discord.Interaction,
                   kinds: set[str]) -> tuple[Table, list[Option]]:
    table = await _table(interaction)
    seat = table_rules.acting_seat(table, interaction.user.id)
    if seat is None:
        raise IllegalAction(say("errors.not_seated"))
    game = games.get(KIND)
    state = game.load(table.state or {})
    if game.to_act(state) != seat:
        raise IllegalAction(content.betrayal_line("cog.not_your_turn"))
    return table, [o for o in game.options(state, seat) if o.action.kind in kinds]


def pick(options: list[Option], typed: str, command: str) -> Action:
    """The option autocomplete sent back, or the one whose label holds the typed words;
    none open: the refusal of this `command` (texts.yaml, cog.none_open)."""
    return pick_option(options, typed, nothing=content.betrayal_line(f"cog.none_open.{command}"),
                       which=lambda listed: content.betrayal_line("cog.say_which", options=listed))


async def _choices(interaction: discord.Interaction, kinds: set[str],
                   current: str) -> list[app_commands.Choice[str]]:
    try:
        _, options = await _options(interaction, kinds)
    except IllegalAction:
        return []
    needle = current.lower()
    return [app_commands.Choice(name=o.label[:100], value=o.action.encode()[:100])
            for o in options if needle in o.label.lower()][:25]


async def _send(interaction: discord.Interaction, table: Table, action: Action) -> None:
    """Play the action (deferred: the map render and DMs may take a moment)."""
    actor = await command_actor(interaction, table)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await sessions_of(interaction).act(table.channel_id, actor, action)
    await interaction.followup.send(acknowledgement(outcome, content.betrayal_line("cog.done")),
                                    ephemeral=True)


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class BetrayalCog(commands.GroupCog, group_name="betrayal", group_extras=LIMITS,
                  group_description=WORDS["group"]):
    async def _play(self, interaction: discord.Interaction, command: str, kinds: set[str],
                    typed: str) -> None:
        async with handling(interaction, f"betrayal {command}"):
            table, options = await _options(interaction, kinds)
            await _send(interaction, table, pick(options, typed, command))

    @app_commands.command(name="move", description=WORDS["move"])
    @app_commands.describe(direction=WORDS["move_direction"], room=WORDS["move_room"])
    @app_commands.choices(direction=DIRECTIONS)
    async def move(self, interaction: discord.Interaction,
                   direction: app_commands.Choice[str] | None = None,
                   room: str | None = None) -> None:
        if direction is not None:
            await self._by_direction(interaction, "move", direction.value)
        else:
            await self._play(interaction, "move", {"move"}, room or "")

    @move.autocomplete("room")
    async def _move_room(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"move"}, current)

    @app_commands.command(name="explore", description=WORDS["explore"])
    @app_commands.describe(direction=WORDS["explore_direction"])
    @app_commands.choices(direction=DIRECTIONS)
    async def explore(self, interaction: discord.Interaction,
                      direction: app_commands.Choice[str]) -> None:
        await self._by_direction(interaction, "explore", direction.value)

    async def _by_direction(self, interaction: discord.Interaction, kind: str,
                            direction: str) -> None:
        async with handling(interaction, f"betrayal {kind}"):
            if direction not in DIRECTION_VALUES:  # a stale registration's choice
                raise IllegalAction(say("errors.option_misfit", option="direction"))
            table, options = await _options(interaction, {kind})
            match = [o for o in options if o.action.args.get("dir") == direction]
            if not match:
                raise IllegalAction(content.betrayal_line(f"cog.no_way.{kind}",
                                                          direction=content.betrayal_line(f"dirs.{direction}")))
            await _send(interaction, table, match[0].action)

    @app_commands.command(name="rotate", description=WORDS["rotate"])
    @app_commands.describe(rotation=WORDS["rotate_rotation"])
    async def rotate(self, interaction: discord.Interaction, rotation: str) -> None:
        await self._play(interaction, "rotate", {"choose"}, rotation)

    @app_commands.command(name="choose", description=WORDS["choose"])
    @app_commands.describe(option=WORDS["choose_option"])
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._play(interaction, "choose", {"choose"}, option)

    @app_commands.command(name="use", description=WORDS["use"])
    @app_commands.describe(item=WORDS["use_item"])
    async def use(self, interaction: discord.Interaction, item: str) -> None:
        await self._play(interaction, "use", {"use", "act"}, item)

    @app_commands.command(name="trade", description=WORDS["trade"])
    @app_commands.describe(offer=WORDS["trade_offer"])
    async def trade(self, interaction: discord.Interaction, offer: str) -> None:
        await self._play(interaction, "trade", {"trade"}, offer)

    @app_commands.command(name="drop", description=WORDS["drop"])
    @app_commands.describe(item=WORDS["drop_item"])
    async def drop(self, interaction: discord.Interaction, item: str) -> None:
        await self._play(interaction, "drop", {"drop"}, item)

    @app_commands.command(name="pickup", description=WORDS["pickup"])
    @app_commands.describe(item=WORDS["pickup_item"])
    async def pickup(self, interaction: discord.Interaction, item: str) -> None:
        await self._play(interaction, "pickup", {"pickup"}, item)

    @app_commands.command(name="end-turn", description=WORDS["end_turn"])
    async def end_turn(self, interaction: discord.Interaction) -> None:
        # The action itself, as autocomplete sends one: a label is in the player's own
        # language, so no typed word finds it in every language.
        await self._play(interaction, "end-turn", {"end_turn"}, END_TURN.encode())

    @rotate.autocomplete("rotation")
    async def _rotation(self, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"choose"}, current)

    @choose.autocomplete("option")
    async def _option(self, interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"choose"}, current)

    @use.autocomplete("item")
    async def _use(self, interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"use", "act"}, current)

    @trade.autocomplete("offer")
    async def _trade(self, interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"trade"}, current)

    @drop.autocomplete("item")
    async def _drop(self, interaction: discord.Interaction,
                    current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"drop"}, current)

    @pickup.autocomplete("item")
    async def _pickup(self, interaction: discord.Interaction,
                      current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, {"pickup"}, current)

    @app_commands.command(name="sheet", description=WORDS["sheet"], extras=FREE)
    @app_commands.describe(explorer=WORDS["sheet_explorer"])
    async def sheet(self, interaction: discord.Interaction,
                    explorer: app_commands.Range[str, 1, 100] | None = None) -> None:
        async with handling(interaction, "betrayal sheet"):
            table = await _table(interaction)
            state: BetrayalState = games.get(KIND).load(table.state or {})
            seat = sheet_seat(table, state, interaction.user.id, explorer)
            await interaction.response.defer(ephemeral=True, thinking=True)
            image = await asyncio.to_thread(render_sheet, sheet_view(state, seat))
            await say_ephemeral(interaction, "",
                                file=discord.File(io.BytesIO(image), filename="sheet.png"))

    @sheet.autocomplete("explorer")
    async def _sheet_explorer(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        try:
            table = await _table(interaction)
        except IllegalAction:
            return []
        state: BetrayalState = games.get(KIND).load(table.state or {})
        needle = current.strip().lower()
        named = [(i, _explorer_label(state, i)) for i in range(len(state.explorers))]
        return [app_commands.Choice(name=label[:100], value=str(i)) for i, label in named
                if needle in label.lower()][:25]

    @app_commands.command(name="attack", description=WORDS["attack"])
    @app_commands.describe(target=WORDS["attack_target"], trait=WORDS["attack_trait"],
                           weapon=WORDS["attack_weapon"])
    @app_commands.choices(trait=TRAITS)
    async def attack(self, interaction: discord.Interaction, target: str,
                     trait: app_commands.Choice[str] | None = None,
                     weapon: str | None = None) -> None:
        async with handling(interaction, "betrayal attack"):
            table, options = await _options(interaction, ATTACK)
            chosen = pick_attack(options, target, trait.value if trait else None, weapon)
            await _send(interaction, table, chosen)

    @attack.autocomplete("target")
    async def _attack_target(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        try:
            _, options = await _options(interaction, ATTACK)
        except IllegalAction:
            return []
        seen: dict[str, str] = {}
        for o in options:
            seen.setdefault(str(o.action.args["target"]), _target_label(o))
        return [app_commands.Choice(name=label[:100], value=ref) for ref, label in seen.items()
                if current.lower() in label.lower()][:25]

    @attack.autocomplete("weapon")
    async def _attack_weapon(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        try:
            _, options = await _options(interaction, ATTACK)
        except IllegalAction:
            return []
        weapons = sorted({str(o.action.args["weapon"]) for o in options
                          if o.action.args.get("weapon")})
        return [app_commands.Choice(name=w.replace("_", " "), value=w) for w in weapons
                if current.lower() in w][:25]

    @app_commands.command(name="act", description=WORDS["act"])
    @app_commands.describe(action=WORDS["act_action"])
    async def act(self, interaction: discord.Interaction, action: str) -> None:
        await self._play(interaction, "act", HAUNT_ACTS, action)

    @act.autocomplete("action")
    async def _act(self, interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
        return await _choices(interaction, HAUNT_ACTS, current)


def _target_label(option: Option) -> str:
    """"Attack Ox Bellows: Might (4 dice)" -> "Ox Bellows"."""
    label = option.label
    head = label.split(":", 1)[0]
    for prefix in ("Attack ", "Shoot "):
        if head.startswith(prefix):
            head = head[len(prefix):]
    return head.replace(" from afar", "")


def pick_attack(options: list[Option], target: str, trait: str | None,
                weapon: str | None) -> Action:
    """The attack option for this target (a ref from autocomplete, or a typed name),
    trait (Might when left out, if that is open) and weapon (none when left out)."""
    if not options:
        raise IllegalAction(content.betrayal_line("cog.no_attack"))
    typed = target.strip().lower()
    mine = [o for o in options if str(o.action.args["target"]) == target.strip()]
    if not mine:
        mine = [o for o in options if typed and typed in _target_label(o).lower()]
    if not mine:
        names = sorted({_target_label(o) for o in options})
        raise IllegalAction(content.betrayal_line("cog.out_of_reach", targets=listed(names)))
    wanted_weapon = (weapon or "").strip().lower().replace(" ", "_")
    fits = [o for o in mine if str(o.action.args.get("weapon", "")) == wanted_weapon]
    if trait:
        fits = [o for o in fits if o.action.args["trait"] == trait]
    elif len({o.action.args["trait"] for o in fits}) > 1:
        fits = [o for o in fits if o.action.args["trait"] == "might"] or fits
    if not fits:
        raise IllegalAction(content.betrayal_line("cog.no_combination",
                                                  options=grouped([o.label for o in mine[:8]])))
    return min(fits, key=lambda o: bool(o.action.args.get("ranged"))).action


def _explorer_label(state: BetrayalState, seat: int) -> str:
    """"Ox Bellows (ann)": the explorer, then who plays them (an AI seat too)."""
    return f"{explorer_name(state, seat)} ({state.players[seat]})"


def sheet_seat(table: Table, state: BetrayalState, user_id: int, typed: str | None) -> int:
    """The seat whose sheet to show: the caller's own when left out, else an explorer
    by autocomplete's seat number or by a part of the name only one of them has."""
    if typed is None or not typed.strip():
        seat = table_rules.acting_seat(table, user_id)
        if seat is None:
            seats = table.seats_of(user_id)
            if not seats:
                raise IllegalAction(say("commands.name_an_explorer"))
            seat = seats[0]
        return seat
    count = len(state.explorers)
    index = wire.index_of(typed.strip(), count)
    if index is not None:
        return index
    wanted = typed.strip().lower()
    hits = [i for i in range(count) if wanted in _explorer_label(state, i).lower()]
    if len(hits) != 1:
        known = listed([_explorer_label(state, i) for i in range(count)])
        raise IllegalAction(say("commands.no_explorer", name=typed.strip()[:40], known=known))
    return hits[0]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BetrayalCog())
