"""`/evilbelow ...`: a turn of IT: Evil Below typed as commands.

Each command picks one of the engine's own legal options for the caller's seat (the
same list the buttons show): the active player's turn, or the out-of-turn actions any
seat may take now (a Bike ride, cards into the Fight Stack). Autocomplete offers only
legal values, and anything typed by hand is matched against the same options, so the
cog never decides what is legal. In a DM the commands act on the caller's game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot import table as table_rules
from bot.command_translator import english_words
from bot.core import wire
from bot.core.actions import Action, Option
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.games.evilbelow import GAME, content
from bot.games.evilbelow import actions as moves
from bot.games.evilbelow.actions import spare_die
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import EvilBelowState
from bot.store import Table
from bot.texts import listed
from cogs.click_limit import LIMITS
from cogs.common import acknowledgement, handling, pick_option, sessions_of
from cogs.rights import command_actor, command_table

WORDS = english_words(GAME.key)  # the commands' words (texts.yaml's `commands`)
PICKUPS = [app_commands.Choice(name=WORDS["pickups.draw"], value=moves.DRAW),
           app_commands.Choice(name=WORDS["pickups.bike"], value=moves.BIKE)]
COURAGES = [app_commands.Choice(name=WORDS["courages.bravery"], value=moves.BRAVERY),
            app_commands.Choice(name=WORDS["courages.rescue"], value=moves.RESCUE)]
ABILITIES = {moves.RICHIE, moves.PEEK, moves.MIKE}


@dataclass(frozen=True)
class Seat:
    """The caller's seat in this channel's game and what it may do now."""

    table: Table
    state: EvilBelowState
    seat: int
    options: list[Option]

    def of(self, kind: str | set[str]) -> list[Action]:
        kinds = {kind} if isinstance(kind, str) else kind
        return [o.action for o in self.options if o.action.kind in kinds]

    def refusal(self, kind: str) -> IllegalAction:
        """Why this seat cannot take an action of `kind` now, in the engine's words."""
        return IllegalAction(GAME.refusal(self.state, self.seat, kind))


async def _seat(interaction: discord.Interaction) -> Seat:
    table = await command_table(interaction, GAME.key, evil_below_line("cog.no_game"))
    seat = table_rules.acting_seat(table, interaction.user.id)
    if seat is None:
        raise IllegalAction(evil_below_line("errors.not_playing"))
    state = GAME.load(table.state or {})
    return Seat(table, state, seat, GAME.options(state, seat))


def _names() -> tuple[str, ...]:
    return content.board().names


def location_index(typed: str) -> int:
    """A location from autocomplete (its index) or typed by hand: the whole name, or
    a unique start or part of it, any case, "the" left out."""
    names = _names()
    text = typed.strip()
    index = wire.index_of(text, len(names))
    if index is not None:
        return index
    wanted = text.lower().removeprefix("the ")
    plain = [n.lower().removeprefix("the ") for n in names]
    hits = [i for i, n in enumerate(plain) if n == wanted] or \
        [i for i, n in enumerate(plain) if wanted and n.startswith(wanted)] or \
        [i for i, n in enumerate(plain) if wanted and wanted in n]
    if len(hits) != 1:
        raise IllegalAction(evil_below_line("cog.unknown_location", typed=text[:40],
                                            known=listed(names)))
    return hits[0]


def card_index(typed: str, hand: list[int]) -> int:
    """A card from autocomplete (its id) or typed by hand (part of its name)."""
    text = typed.strip()
    if text.isascii() and text.isdigit() and len(text) <= 3 and int(text) in hand:
        return int(text)
    hits = sorted({c for c in hand if text and text.lower() in content.card_name(c).lower()})
    if len(hits) != 1:
        raise IllegalAction(evil_below_line("cog.unknown_card", typed=text[:40]))
    return hits[0]


def pick_move(found: Seat, to: str, die: str | None) -> Action:
    legal = found.of(moves.MOVE)
    if not legal:
        raise found.refusal(moves.MOVE)
    where = location_index(to)
    fits = [a for a in legal if a.args["to"] == where]
    if not fits:
        targets = sorted({int(a.args["to"]) for a in legal})
        raise IllegalAction(evil_below_line("cog.move_targets",
                                            targets=listed([_names()[t] for t in targets])))
    dice = [int(a.args["die"]) for a in fits]
    chosen = location_index(die) if die else spare_die(found.state, dice, found.seat, where)
    if chosen not in dice:
        raise IllegalAction(evil_below_line("cog.die_used", die=_names()[chosen]))
    return next(a for a in fits if a.args["die"] == chosen)


def pick_what(found: Seat, kind: str, what: str) -> Action:
    fits = [a for a in found.of(kind) if a.args.get("what") == what]
    if not fits:
        raise found.refusal(kind)
    return fits[0]


def pick_place(found: Seat, card: str) -> Action:
    legal = found.of(moves.PLACE)
    if not legal:
        raise found.refusal(moves.PLACE)
    wanted = card_index(card, [int(a.args["card"]) for a in legal])
    return next(a for a in legal if a.args["card"] == wanted)


def pick_ride(found: Seat, to: str) -> Action:
    legal = found.of(moves.RIDE)
    if not legal:
        raise found.refusal(moves.RIDE)
    where = location_index(to)
    fits = [a for a in legal if a.args["to"] == where]
    if not fits:
        raise IllegalAction(evil_below_line("cog.ride_here", location=_names()[where]))
    return fits[0]


def pick_labelled(found: Seat, kinds: set[str], typed: str, refusal: str) -> Action:
    """An option of these kinds, as autocomplete sent it back or by its label's words."""
    return pick_option([o for o in found.options if o.action.kind in kinds], typed,
                       nothing=refusal, which=lambda listed: evil_below_line("cog.say_which",
                                                                             options=listed))


def only(found: Seat, kind: str) -> Action:
    legal = found.of(kind)
    if not legal:
        raise found.refusal(kind)
    return legal[0]


def _choices(pairs: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    seen: dict[str, str] = {}
    for value, name in pairs:
        if needle in name.lower():
            seen.setdefault(value, name)
    return [app_commands.Choice(name=n[:100], value=v[:100]) for v, n in seen.items()][:25]


async def _complete(interaction: discord.Interaction, current: str,
                    make: Callable[[Seat], list[tuple[str, str]]]
                    ) -> list[app_commands.Choice[str]]:
    try:
        found = await _seat(interaction)
    except IllegalAction:
        return []
    try:
        return _choices(make(found), current)
    except IllegalAction:
        return []


def _values(found: Seat, kind: str, arg: str,
            name: Callable[[int], str]) -> list[tuple[str, str]]:
    """(value, name) of one argument over this seat's legal options of `kind`."""
    return [(str(a.args[arg]), name(int(a.args[arg]))) for a in found.of(kind)]


def _move_targets(found: Seat) -> list[tuple[str, str]]:
    return [(str(t), _names()[t]) for t in
            sorted({int(a.args["to"]) for a in found.of(moves.MOVE)})]


def _move_dice(found: Seat, to: object) -> list[tuple[str, str]]:
    legal = found.of(moves.MOVE)
    if to:
        where = location_index(str(to))
        legal = [a for a in legal if a.args["to"] == where]
    dice = sorted({int(a.args["die"]) for a in legal})
    return [(str(d), evil_below_line("labels.die", location=_names()[d],
                                     face=evil_below_line(f"faces.{found.state.dice[d]}")))
            for d in dice]


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class EvilBelowCog(commands.GroupCog, group_name="evilbelow", group_extras=LIMITS,
                   group_description=WORDS["group"]):
    async def _play(self, interaction: discord.Interaction, command: str,
                    make: Callable[[Seat], Action]) -> None:
        async with handling(interaction, f"evilbelow {command}"):
            found = await _seat(interaction)
            action = make(found)
            actor = await command_actor(interaction, found.table)
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await sessions_of(interaction).act(found.table.channel_id, actor, action)
            await interaction.followup.send(acknowledgement(outcome, evil_below_line("cog.done")),
                                            ephemeral=True)

    @app_commands.command(name="roll", description=WORDS["roll"])
    async def roll(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "roll", lambda f: only(f, moves.ROLL_K))

    @app_commands.command(name="move", description=WORDS["move"])
    @app_commands.describe(to=WORDS["move_to"], die=WORDS["move_die"])
    async def move(self, interaction: discord.Interaction, to: str,
                   die: str | None = None) -> None:
        await self._play(interaction, "move", lambda f: pick_move(f, to, die))

    @move.autocomplete("to")
    async def _move_to(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, _move_targets)

    @move.autocomplete("die")
    async def _move_die(self, interaction: discord.Interaction,
                        current: str) -> list[app_commands.Choice[str]]:
        to = getattr(interaction.namespace, "to", None)
        return await _complete(interaction, current, lambda f: _move_dice(f, to))

    @app_commands.command(name="pickup", description=WORDS["pickup"])
    @app_commands.describe(what=WORDS["pickup_what"])
    @app_commands.choices(what=PICKUPS)
    async def pickup(self, interaction: discord.Interaction,
                     what: app_commands.Choice[str]) -> None:
        await self._play(interaction, "pickup", lambda f: pick_what(f, moves.PICKUP, what.value))

    @app_commands.command(name="courage", description=WORDS["courage"])
    @app_commands.describe(what=WORDS["courage_what"])
    @app_commands.choices(what=COURAGES)
    async def courage(self, interaction: discord.Interaction,
                      what: app_commands.Choice[str]) -> None:
        await self._play(interaction, "courage", lambda f: pick_what(f, moves.COURAGE, what.value))

    @app_commands.command(name="place", description=WORDS["place"])
    @app_commands.describe(card=WORDS["place_card"])
    async def place(self, interaction: discord.Interaction, card: str) -> None:
        await self._play(interaction, "place", lambda f: pick_place(f, card))

    @place.autocomplete("card")
    async def _place_card(self, interaction: discord.Interaction,
                          current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, lambda f: _values(
            f, moves.PLACE, "card", content.card_name))

    @app_commands.command(name="ride", description=WORDS["ride"])
    @app_commands.describe(to=WORDS["ride_to"])
    async def ride(self, interaction: discord.Interaction, to: str) -> None:
        await self._play(interaction, "ride", lambda f: pick_ride(f, to))

    @ride.autocomplete("to")
    async def _ride_to(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, lambda f: _values(
            f, moves.RIDE, "to", lambda to: _names()[to]))

    @app_commands.command(name="fight", description=WORDS["fight"])
    async def fight(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "fight", lambda f: only(f, moves.FIGHT_K))

    @app_commands.command(name="reveal", description=WORDS["reveal"])
    async def reveal(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "reveal", lambda f: only(f, moves.REVEAL))

    @app_commands.command(name="stop", description=WORDS["stop"])
    async def stop(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "stop", lambda f: only(f, moves.STOP))

    @app_commands.command(name="end-turn", description=WORDS["end_turn"])
    async def end_turn(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "end-turn", lambda f: only(f, moves.END_TURN))

    @app_commands.command(name="choose", description=WORDS["choose"])
    @app_commands.describe(option=WORDS["choose_option"])
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        await self._play(interaction, "choose", lambda f: pick_labelled(
            f, {CHOOSE}, option, evil_below_line("cog.no_choice")))

    @choose.autocomplete("option")
    async def _choose_option(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, lambda f: [
            (o.action.encode(), o.label) for o in f.options if o.action.kind == CHOOSE])

    @app_commands.command(name="ability", description=WORDS["ability"])
    @app_commands.describe(ability=WORDS["ability_ability"])
    async def ability(self, interaction: discord.Interaction, ability: str) -> None:
        await self._play(interaction, "ability", lambda f: pick_labelled(
            f, ABILITIES, ability, evil_below_line("cog.no_ability")))

    @ability.autocomplete("ability")
    async def _ability(self, interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, lambda f: [
            (o.action.encode(), o.label) for o in f.options if o.action.kind in ABILITIES])


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EvilBelowCog())
