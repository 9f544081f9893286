"""No input crashes it (issue 19): every slash option that declares choices or a range,
sent a value outside them, as Discord does from a stale registration (an upgrade
without `python -m bot sync`). The fake holds that registration: the synced commands
with every choice and range taken out, so it passes what the old one allowed. Each
value gets one short ephemeral line; nothing is posted; the game is untouched; no
traceback (the fixture fails the test on any logged error)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.fakediscord import FakeDiscord, FakeUser

DECLARED = ("choices", "min_value", "max_value", "min_length", "max_length")


def _stale(payload: Any) -> None:
    """The registration an older bot made: no choices, no ranges."""
    if isinstance(payload, dict):
        for key in DECLARED:
            payload.pop(key, None)
        for value in payload.values():
            _stale(value)
    elif isinstance(payload, list):
        for value in payload:
            _stale(value)


def _declares(param: app_commands.Parameter) -> bool:
    return bool(param.choices and not param.autocomplete) or param.min_value is not None \
        or param.max_value is not None


INT53 = 2**53 - 1  # the largest integer Discord's API carries


def _misfits(param: app_commands.Parameter) -> Iterator[Any]:
    """Values outside the option's declaration: out of its choices, past each end of its
    range (for a string, its length), and a number too big for any store."""
    if param.choices and not param.autocomplete:
        yield "stale-choice" if param.type is discord.AppCommandOptionType.string else 10**6
    if param.type is discord.AppCommandOptionType.string:
        if param.max_value is not None:
            yield "é" * (int(param.max_value) + 1)
        return
    # Discord sends no integer past +-(2^53 - 1), whatever was registered: the misfits
    # stay inside that, as a stale registration's values would.
    if param.min_value is not None and int(param.min_value) > -INT53:
        yield int(param.min_value) - 1
        yield -INT53
    if param.max_value is not None and int(param.max_value) < INT53:
        yield int(param.max_value) + 1
        yield INT53


def _fitting(param: app_commands.Parameter, fd: FakeDiscord, channel: int,
             member: FakeUser) -> Any:
    """A value that fits, for the other required options of the command."""
    kind = param.type
    if param.choices:
        return param.choices[0].value
    if kind is discord.AppCommandOptionType.user:
        return member
    if kind is discord.AppCommandOptionType.channel:
        return channel
    if kind is discord.AppCommandOptionType.boolean:
        return False
    if kind in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        return int(param.min_value or 1)
    return "1"


async def test_every_declared_option_is_checked_as_if_discord_did_not(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("stale")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    for commands in fd.commands.values():
        _stale(commands)
    before = await bot.store.load(channel)
    posted = len(fd.channel_messages(channel))
    tried: list[str] = []
    for command in bot.tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        path = command.qualified_name.split()
        for param in command.parameters:
            if not _declares(param):
                continue
            others = {p.display_name: _fitting(p, fd, channel, guest)
                      for p in command.parameters if p.required and p.name != param.name}
            for bad in _misfits(param):
                handle = await (await fd.slash(mod, channel, *path,
                                               **{param.display_name: bad}, **others)).wait()
                said = handle.ephemeral_texts()
                assert said == [say("errors.option_misfit", option=param.display_name)], (
                    command.qualified_name, param.name, bad, said)
                tried.append(f"{command.qualified_name} {param.name}")
    assert len(set(tried)) >= 10, tried  # /gm undo, /gm settings, /game new, /betrayal and more
    for needed in ("gm undo steps", "gm settings timer_end", "game new game",
                   "game new seed", "betrayal explore direction", "gm seat seat"):
        assert needed in tried, (needed, sorted(set(tried)))
    assert await bot.store.load(channel) == before
    assert len(fd.channel_messages(channel)) == posted
