"""Every kind of component the bot posts, as the persistent DynamicItems discord.py
makes again from a click's custom_id: a prompt's `ActionButton` and `ActionSelect`,
the end's `ReplayButton`, the live message's `WholeHouse`, and `Unreadable` (with
`Stray`, which catches every id that is none of ours) for one that does not read. It
exists apart so how each kind's custom_id is written and read sits in one place; the
rows they are laid out in are cogs/prompt_rows.py's and cogs/lobby_buttons.py's, and
what a click on an action does is cogs/components.py's (the door).

Every action's component carries the channel, the table version it was posted at and
the action, so it works after a restart (nothing in memory) and a click on an old
turn's message is refused as stale instead of acting twice. Lobby buttons carry
version 0 (`ANY_VERSION`): joining must work whatever happened since; so does the
end's Play again, which names the game that ended instead.

The templates match every custom_id a client could send (bot/core/wire.py reads them
strictly afterwards), and one more catches all the others: discord.py leaves an
interaction no template matches unanswered, and from_custom_id may not raise, so what
does not read becomes an Unreadable item that says so, privately.
"""

from __future__ import annotations

import io
import re
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import discord

from bot.core import wire
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.locales import language_of, speaking
from bot.texts import clip, say
from cogs.common import handling, refuse, sessions_of
from cogs.replay import GAME_ID_LIMIT
from cogs.replay import post as post_replay
from cogs.rights import click_actor

ANY_VERSION = 0
# The actions only the components make (no game's): each shows its clicker something,
# or opens a lobby.
SECRET = "view.secret"
PRIVATE_CHOICES = "view.choices"
HOW_TO_PLAY = "view.how_to_play"  # the lobby's: the rules' overview, privately
PLAY_AGAIN = "table.again"  # the end's: a new lobby, the same seats invited
STEP = "view.step"  # the first half of a two-step choice: n is an option's index

# What a click on an action's button or select runs: (interaction, channel, action,
# version, what to call it in the log).
Run = Callable[[discord.Interaction, int, Action, int | None, str], Awaitable[None]]
R = TypeVar("R", bound=Run)


class ActionClicks:
    """Where a click on an action's button or select goes: cogs/components.py's
    `run_action`. Its answers are views made of these items, so this module cannot
    import it; it is handed over here (`handled_by`) as that module is imported, which
    the bot does before it registers these items (bot/client.py's DYNAMIC_ITEMS)."""

    def __init__(self) -> None:
        self.run: Run | None = None

    def handled_by(self, run: R) -> R:
        self.run = run
        return run

    async def handle(self, interaction: discord.Interaction, channel_id: int,
                     action: Action, version: int | None, label: str) -> None:
        if self.run is None:
            raise RuntimeError("no click handler: cogs/components.py was not imported")
        await self.run(interaction, channel_id, action, version, label)


ACTION_CLICKS = ActionClicks()


def in_callers_words(interaction: discord.Interaction) -> AbstractContextManager[str]:
    """The clicker's own language for words made before `handling` speaks it: discord.py
    reads a custom_id (`from_custom_id`) before any callback runs, and a refusal of an
    id that does not read is made there."""
    return speaking(language_of(interaction.locale))


T = TypeVar("T")


def _read_click(interaction: discord.Interaction, item: discord.ui.Item[Any], fits: bool,
                read: Callable[[], T]) -> T | Unreadable:
    """What `read` makes of a click's custom_id, its refusal in the clicker's words, or
    an Unreadable in the item's place: when the id does not read, or the item is not of
    the kind its id names (`fits` false)."""
    try:
        with in_callers_words(interaction):
            if not fits:
                raise IllegalAction(say("errors.unreadable"))
            return read()
    except IllegalAction as exc:
        return Unreadable(item, exc.message)


class Unreadable(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?s).*"):
    """Stands in for a component whose custom_id did not read: a click only says so.

    The `from_custom_id`s below answer with one in place of their own class, which
    discord.py runs as it would its own (it only calls the item's callback), though its
    type hints promise the class itself: hence their type: ignore[override]."""

    def __init__(self, item: discord.ui.Item[Any], reason: str) -> None:
        super().__init__(item)
        self.reason = reason

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse(interaction, "unreadable component", self.reason)


class Stray(Unreadable, template=r"(?s)(?!hk[shr]?:|hklog:).*"):
    """Any custom_id that is none of ours (a button, a select, Whole house, Replay),
    nor a `/game log` page's (cogs/game_log.py)."""

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> Unreadable:
        with in_callers_words(interaction):
            return Unreadable(item, say("errors.unreadable"))


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?s)hk:.*",
):
    def __init__(self, channel_id: int, version: int, action: Action, *, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None) -> None:
        custom_id = wire.ButtonId(channel_id, version, action.kind, action.args).encode()
        super().__init__(discord.ui.Button(
            label=clip(label, 80), style=style, row=row, custom_id=custom_id,
        ))
        self.channel_id = channel_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ActionButton | Unreadable:
        ref = _read_click(interaction, item, isinstance(item, discord.ui.Button),
                          lambda: wire.read_button_id(match.group(0)))
        if isinstance(ref, Unreadable):
            return ref
        assert isinstance(item, discord.ui.Button)  # it fits
        return cls(ref.channel_id, ref.version, Action(ref.kind, ref.args),
                   label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await ACTION_CLICKS.handle(interaction, self.channel_id, self.action, self.version,
                                   f"button {self.action.kind}")


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"(?s)hks:.*",
):
    def __init__(self, channel_id: int, version: int, n: int, *, placeholder: str,
                 options: list[discord.SelectOption], row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=wire.SelectId(channel_id, version, n).encode(),
            placeholder=clip(placeholder, 150), options=options, row=row,
            min_values=1, max_values=1,
        ))
        self.channel_id = channel_id
        self.version = version

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ActionSelect | Unreadable:
        ref = _read_click(interaction, item,
                          type(item) is discord.ui.Select,  # a string select, not a user's
                          lambda: wire.read_select_id(match.group(0)))
        if isinstance(ref, Unreadable):
            return ref
        assert isinstance(item, discord.ui.Select)  # it fits
        return cls(ref.channel_id, ref.version, ref.n,
                   placeholder=item.placeholder or "", options=item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        try:
            with in_callers_words(interaction):
                if len(values) != 1:
                    raise IllegalAction(say("errors.pick_one"))
                action = Action.decode(values[0])
        except IllegalAction as exc:
            await refuse(interaction, "select", exc.message)
            return
        await ACTION_CLICKS.handle(interaction, self.channel_id, action, self.version,
                                   f"select {action.kind}")


def _id_button(label: str, custom_id: str, row: int | None) -> discord.ui.Button[Any]:
    """A button named by an id of its own (Replay's game, Whole house's channel)."""
    return discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=row,
                             custom_id=custom_id)


def _read_id(interaction: discord.Interaction, item: discord.ui.Item[Any],
             match: re.Match[str], form: re.Pattern[str],
             read: Callable[[str], int]) -> int | Unreadable:
    """The number a button's own id carries (`form`'s group, read by `read`), or an
    Unreadable in its place when the id or the item is not one of that button's."""
    found = form.fullmatch(match.group(0))
    return _read_click(interaction, item,
                       found is not None and isinstance(item, discord.ui.Button),
                       lambda: read(found.group(1) if found is not None else ""))


def _game_id(text: str) -> int:
    """Within the store's ids: a larger one would fail in the store, not here."""
    return wire.read_number(text, GAME_ID_LIMIT, low=1)


REPLAY = re.compile(r"(?s)hkr:1:(.*)")  # format 1: the finished game's id


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?s)hkr:.*",
):
    """The end's "Replay" (cogs/replay.py): the game that ended, by its id, so the
    button replays that game whatever the channel has played since."""

    def __init__(self, game_id: int, *, row: int | None = None) -> None:
        super().__init__(_id_button(say("replay.button"), f"hkr:1:{game_id}", row))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ReplayButton | Unreadable:
        game_id = _read_id(interaction, item, match, REPLAY, _game_id)
        return game_id if isinstance(game_id, Unreadable) else cls(game_id, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "replay button"):
            await post_replay(interaction, self.game_id)


WHOLE_HOUSE = re.compile(r"(?s)hkh:1:(.*)")  # format 1: the channel's id


class WholeHouse(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?s)hkh:.*",
):
    """The live message's "Whole house": the whole board at full size, privately, for a
    game whose chat board shows only the floor in play large. It reads the table as it
    is now, so it carries no table version; its id has a format version (hkh:1:)."""

    def __init__(self, channel_id: int, *, row: int | None = None) -> None:
        super().__init__(_id_button(say("view.whole_house"), f"hkh:1:{channel_id}", row))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> WholeHouse | Unreadable:
        # A Discord id, as every other custom_id's channel: in a DM it is looked up in
        # the store, whose ids end below 2**63.
        channel_id = _read_id(interaction, item, match, WHOLE_HOUSE, wire.read_snowflake)
        return channel_id if isinstance(channel_id, Unreadable) \
            else cls(channel_id, row=item.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with handling(interaction, "whole house", channel_id=self.channel_id):
            await click_actor(interaction, self.channel_id)  # in a DM: a seat's holder only
            sessions = sessions_of(interaction)
            table = await sessions.table(self.channel_id, latest=True)
            if table is None or table.state is None:
                raise IllegalAction(say("errors.no_board"))
            await interaction.response.defer(ephemeral=True, thinking=True)
            image = await sessions.board(table, whole=True)
            if image is None:
                raise IllegalAction(say("errors.no_board"))
            alt = await sessions.board_alt(table)
            await interaction.followup.send(
                file=discord.File(io.BytesIO(image), filename="house.png",
                                  description=alt or None), ephemeral=True)
