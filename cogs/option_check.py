"""Every slash option checked against what the command declares, before it runs.

Discord keeps a value inside its option's declared choices and range, but only for the
registration it holds: after an upgrade without `python -m bot sync` it still sends what
the old registration allowed, and discord.py checks neither a range nor a string's
length. So the tree's check (cogs/rights.table_check) reads the command's own
declaration, the one in this process, and refuses a value outside it in one line, before
any cog or game sees it. The cogs and Sessions check what they depend on again (undo
steps, a setting), so nothing relies on this one gate.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

NUMBER_TYPES = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)


def misfit(command: object, values: dict[str, Any]) -> str | None:
    """The name of the first option whose value is outside the command's declaration
    (its choices, its range, its length), or None when every value fits."""
    if not isinstance(command, app_commands.Command):
        return None
    for param in command.parameters:
        if param.display_name not in values:
            continue
        if not fits(param, values[param.display_name]):
            return param.display_name
    return None


def fits(param: app_commands.Parameter, value: Any) -> bool:
    """One value against one option's declaration."""
    if value is None:
        return True
    if isinstance(value, app_commands.Choice):
        value = value.value
    if param.choices and not param.autocomplete \
            and value not in {choice.value for choice in param.choices}:
        return False
    low, high = param.min_value, param.max_value
    if param.type in NUMBER_TYPES:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if param.type is discord.AppCommandOptionType.integer and not isinstance(value, int):
            return False
        measure: float = value
    elif param.type is discord.AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        measure = len(value)
    else:
        return True
    return (low is None or measure >= low) and (high is None or measure <= high)


def given(interaction: discord.Interaction) -> dict[str, Any]:
    """The options the interaction carries, by their Discord names, as Discord sent them."""
    return dict(iter(interaction.namespace))
