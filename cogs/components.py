"""Persistent buttons and selects, and the views built from a game's prompt.

Every component is a DynamicItem whose custom_id carries the channel, the table version
it was posted at and the action, so it works after a restart (nothing in memory) and
a click on an old turn's message is refused as stale instead of acting twice.
Lobby buttons carry version 0: joining must work whatever happened since; so does the
end's Play again, which names the game that ended instead. The lobby
message's buttons are built here too, since a click redraws it (its words: cogs/lobby_embed.py).

The templates match every custom_id a client could send (bot/core/wire.py reads them
strictly afterwards), and one more catches all the others: discord.py leaves an
interaction no template matches unanswered, and from_custom_id may not raise, so what
does not read becomes an Unreadable item that says so, privately.
"""

from __future__ import annotations

import io
import re
from collections import OrderedDict
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import discord

from bot import games
from bot import table as table_rules
from bot.core import wire
from bot.core.actions import Action, Option
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.locales import ENGLISH, language_of, speaking
from bot.sessions import GameExists, Prompt
from bot.store import LOBBY, OVER, Table
from bot.texts import say
from cogs import bot_permissions, click_limit
from cogs.common import (
    acknowledgement,
    bot_of,
    handling,
    public_language,
    refuse,
    say_ephemeral,
    say_whole_ephemeral,
    sessions_of,
    start_warning,
)
from cogs.lobby_embed import lobby_embed
from cogs.moderation_views import channel_list
from cogs.replay import GAME_ID_LIMIT
from cogs.replay import post as post_replay
from cogs.reply import answered, answering
from cogs.rights import click_actor
from cogs.sending import THREAD_ARCHIVED
from cogs.topics import how_to_play
from renderers import shows_part

ANY_VERSION = 0
SECRET = "view.secret"
PRIVATE_CHOICES = "view.choices"
HOW_TO_PLAY = "view.how_to_play"  # the lobby's: the rules' overview, privately
PLAY_AGAIN = "table.again"  # the end's: a new lobby, the same seats invited
STEP = "view.step"  # the first half of a two-step choice: n is an option's index
# Clicks that only show their clicker something (no table changes): free of the click
# limit, which counts changes (cogs/click_limit.py), as a reading command is.
SHOWS_ONLY = frozenset({SECRET, PRIVATE_CHOICES, HOW_TO_PLAY, STEP})
MAX_ROWS = 5
PER_ROW = 5
PER_SELECT = 25
OWN_ROWS = 2  # other seats that always get a row each (the turn keeps at least three)
LIVE_ROWS = 8  # the live message's rows at most, within Components v2's 40 components
# What only the game channel's own messages carry (the lobby's buttons and selects, the
# end's Play again): each answers by redrawing the message clicked or posting a lobby
# there, so from a DM (a forged id: no DM shows them) it is refused, not played.
LOBBY_KINDS = frozenset({table_rules.JOIN, table_rules.LEAVE, table_rules.ADD_AI,
                         table_rules.REMOVE_AI, table_rules.START, table_rules.PICK,
                         table_rules.SECOND})
CHANNEL_ONLY = LOBBY_KINDS | {PLAY_AGAIN}

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def run_action(interaction: discord.Interaction, channel_id: int, action: Action,
                     version: int | None, label: str) -> None:
    """A click or a choice: play it through the sessions layer, its answer the edit of
    the clicked message when that is what it changes (cogs/reply.py; deferred only when
    it runs long), and report DM trouble. Too many clicks at once are not applied
    (cogs/click_limit.py); a click that only shows its clicker something (`SHOWS_ONLY`)
    does not count, as a reading command does not."""
    verdict = click_limit.Verdict.GO if action.kind in SHOWS_ONLY else \
        await click_limit.CLICKS.admit(interaction.user.id, bot_of(interaction).store)
    if verdict is click_limit.Verdict.REFUSE:
        with in_callers_words(interaction):
            slow_down = say("commands.slow_down")
        await refuse(interaction, label, slow_down)
        return
    if verdict is click_limit.Verdict.QUIET:
        await interaction.response.defer()
        return
    async with handling(interaction, label, channel_id=channel_id):
        actor = await click_actor(interaction, channel_id)
        if action.kind in CHANNEL_ONLY and interaction.channel_id != channel_id:
            raise IllegalAction(say("errors.other_channel"))
        if action.kind == SECRET:
            bot_of(interaction).outlet.take_undelivered(channel_id, interaction.user.id)
            text = await sessions_of(interaction).secret(channel_id, interaction.user.id)
            await say_whole_ephemeral(interaction, text)
            return
        if action.kind == PRIVATE_CHOICES:
            await _show_private_choices(interaction, channel_id, version)
            return
        if action.kind == HOW_TO_PLAY:
            await _how_to_play(interaction, channel_id)
            return
        if action.kind == PLAY_AGAIN:
            await _play_again(interaction, channel_id, action, actor)
            return
        if action.kind == STEP:
            await _show_second_step(interaction, channel_id, version, action.int_arg("n"))
            return
        if action.kind in LOBBY_KINDS:
            await _on_its_lobby(interaction, channel_id)
        starting = action.kind == table_rules.START  # in its channel (CHANNEL_ONLY)
        if starting:  # the lobby's Start: only where the bot can show the game
            await bot_permissions.cannot_play(interaction, lobby=False)
        # Not deferred first: a refusal is the click's own ephemeral answer, and an edit
        # of the clicked message answers it as UPDATE_MESSAGE (cogs/reply.py); a slow
        # action is deferred after reply.PATIENCE.
        outcome = await answering(interaction, sessions_of(interaction).act(
            channel_id, actor, action,
            version=None if version == ANY_VERSION else version,
        ))
        public = public_language(interaction, outcome.table)
        closed = action.kind in LOBBY_KINDS and outcome.table.state is None  # its last left
        if outcome.lobby_only or closed:  # a lobby change: redraw the lobby message in place
            await _redraw(interaction, embed=lobby_embed(outcome.table, public),
                          view=lobby_view(outcome.table, public))
        elif action.kind == table_rules.START:
            await _redraw(interaction, embed=lobby_embed(outcome.table, public), view=None)
        if not outcome.delivered:
            await say_ephemeral(interaction, acknowledgement(outcome, ""))
        warning = await start_warning(interaction, outcome.table.kind) if starting else None
        if warning:
            await say_ephemeral(interaction, warning)
        await answered(interaction, say("view.step_done"))  # the result was posted elsewhere


async def _on_its_lobby(interaction: discord.Interaction, channel_id: int) -> None:
    """Lobby buttons name the channel, not the lobby (their version is ANY_VERSION), so
    one left on the message of a lobby that closed would act on the lobby opened after
    it, and redraw that old message as the new one: refused as stale instead. A lobby
    whose message is not known (opened before it was kept) is not checked."""
    table = await sessions_of(interaction).table(channel_id)
    message = interaction.message
    if table is None or table.status != LOBBY or message is None:
        return  # the table's rules refuse it in their own words
    shown = await bot_of(interaction).store.lobby_message(table.id or 0)
    if shown is not None and shown != message.id:
        raise IllegalAction(say("errors.old_lobby"))


async def _redraw(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the clicked message: as the click's answer while it is open, else through
    the interaction's webhook (the click was deferred). In a thread a moderator locked,
    Discord refuses a public answer (50083, tests/fakediscord/routes_interactions.py's
    LOCKED_ANSWER): the change was saved all the same, and the clicker reads so,
    privately (an ephemeral answer still goes through)."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)
    except discord.HTTPException as exc:
        if exc.code != THREAD_ARCHIVED:
            raise
        await say_ephemeral(interaction, say("permissions.refused_thread_locked",
                                             channel=f"<#{interaction.channel_id}>"))


async def _show_private_choices(interaction: discord.Interaction, channel_id: int,
                                version: int | None) -> None:
    """The options only the chooser may see, as an ephemeral message of buttons."""
    prompt = await _own_prompt(interaction, channel_id, version)
    # Flat here: a first step names an option by its place in the whole prompt.
    private = Prompt(prompt.seat, prompt.user_id, prompt.name,
                     [replace(o, first="", then="") for o in prompt.options if o.private],
                     prompt.version)
    # Buttons are named only by their answers (two cards' names: which is kept?), so
    # the question is said above them; a select says it as its placeholder.
    asked = {o.group for o in private.options if o.action.kind == CHOOSE}
    words = say("view.private_only")
    if len(asked) == 1 and len(private.options) <= PER_ROW:
        words += "\n" + say("view.choice_heading", question=asked.pop())
    await say_ephemeral(interaction, words,
                        view=prompt_view(channel_id, private, with_secret=False,
                                         reveal_private=True))


async def _show_second_step(interaction: discord.Interaction, channel_id: int,
                            version: int | None, n: int) -> None:
    """The second half of a two-step choice (which die, once the player said where), to
    the chooser alone: nothing is played until they pick one."""
    prompt = await _own_prompt(interaction, channel_id, version)
    if not 0 <= n < len(prompt.options) or not prompt.options[n].first:
        raise IllegalAction(say("errors.stale"))
    picked = prompt.options[n]
    under = [replace(o, label=o.then or o.label, first="", then="")
             for o in prompt.options if o.group == picked.group and o.first == picked.first]
    await say_ephemeral(interaction, say("view.second_step", first=picked.first),
                        view=_buttons_view(channel_id, prompt.version, under))


def _buttons_view(channel_id: int, version: int, options: list[Option]) -> discord.ui.View:
    """A second step's options as buttons, five a row: the message holds nothing else,
    so up to 25 fit and each is one click (a menu would take two: open, pick)."""
    view = discord.ui.View(timeout=None)
    if len(options) > PER_ROW * MAX_ROWS:
        view.add_item(_select(channel_id, version, [0], options[0].group, options[:PER_SELECT],
                              0))
        return view
    for n, option in enumerate(options):
        view.add_item(ActionButton(
            channel_id, version, option.action, label=option.label,
            style=_STYLES.get(option.style, discord.ButtonStyle.secondary), row=n // PER_ROW,
        ))
    return view


async def _own_prompt(interaction: discord.Interaction, channel_id: int,
                      version: int | None) -> Prompt:
    """The prompt of the game in this channel, if it is this user's and still current."""
    sessions = sessions_of(interaction)
    table = await sessions.table(channel_id)
    if table is None:
        raise IllegalAction(say("errors.game_over"))
    if not table.seats_of(interaction.user.id):
        raise IllegalAction(say("errors.not_seated"))
    if version not in (None, ANY_VERSION) and version != table.version:
        raise await sessions.refuse_stale(table)
    prompt = sessions.prompt(table)
    if prompt is None or prompt.user_id != interaction.user.id:
        raise IllegalAction(say("errors.not_your_choice"))
    return prompt


def in_callers_words(interaction: discord.Interaction) -> AbstractContextManager[str]:
    """The clicker's own language for words made before `handling` speaks it: discord.py
    reads a custom_id (`from_custom_id`) before any callback runs, and a refusal of an
    id that does not read is made there."""
    return speaking(language_of(interaction.locale))


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
            label=_clip(label, 80), style=style, row=row, custom_id=custom_id,
        ))
        self.channel_id = channel_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ActionButton | Unreadable:
        try:
            with in_callers_words(interaction):
                if not isinstance(item, discord.ui.Button):
                    raise IllegalAction(say("errors.unreadable"))
                ref = wire.read_button_id(match.group(0))
        except IllegalAction as exc:
            return Unreadable(item, exc.message)
        return cls(ref.channel_id, ref.version, Action(ref.kind, ref.args),
                   label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_action(interaction, self.channel_id, self.action, self.version,
                         f"button {self.action.kind}")


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"(?s)hks:.*",
):
    def __init__(self, channel_id: int, version: int, n: int, *, placeholder: str,
                 options: list[discord.SelectOption], row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=wire.SelectId(channel_id, version, n).encode(),
            placeholder=_clip(placeholder, 150), options=options, row=row,
            min_values=1, max_values=1,
        ))
        self.channel_id = channel_id
        self.version = version

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ActionSelect | Unreadable:
        try:
            with in_callers_words(interaction):
                if type(item) is not discord.ui.Select:  # a string select, not a user's
                    raise IllegalAction(say("errors.unreadable"))
                ref = wire.read_select_id(match.group(0))
        except IllegalAction as exc:
            return Unreadable(item, exc.message)
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
        await run_action(interaction, self.channel_id, action, self.version,
                         f"select {action.kind}")


REPLAY = re.compile(r"(?s)hkr:1:(.*)")  # format 1: the finished game's id


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?s)hkr:.*",
):
    """The end's "Replay" (cogs/replay.py): the game that ended, by its id, so the
    button replays that game whatever the channel has played since."""

    def __init__(self, game_id: int, *, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=say("replay.button"), style=discord.ButtonStyle.secondary, row=row,
            custom_id=f"hkr:1:{game_id}",
        ))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> ReplayButton | Unreadable:
        read = REPLAY.fullmatch(match.group(0))
        try:
            with in_callers_words(interaction):
                if read is None or not isinstance(item, discord.ui.Button):
                    raise IllegalAction(say("errors.unreadable"))
                # Within the store's ids: a larger one would fail in the store, not here.
                game_id = wire.read_number(read.group(1), GAME_ID_LIMIT, low=1)
        except IllegalAction as exc:
            return Unreadable(item, exc.message)
        return cls(game_id, row=item.row)

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
        super().__init__(discord.ui.Button(
            label=say("view.whole_house"), style=discord.ButtonStyle.secondary, row=row,
            custom_id=f"hkh:1:{channel_id}",
        ))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # see Unreadable
            cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
            match: re.Match[str]) -> WholeHouse | Unreadable:
        read = WHOLE_HOUSE.fullmatch(match.group(0))
        try:
            with in_callers_words(interaction):
                if read is None or not isinstance(item, discord.ui.Button):
                    raise IllegalAction(say("errors.unreadable"))
                # A Discord id, as every other custom_id's channel: in a DM it is looked
                # up in the store, whose ids end below 2**63.
                channel_id = wire.read_snowflake(read.group(1))
        except IllegalAction as exc:
            return Unreadable(item, exc.message)
        return cls(channel_id, row=item.row)

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


def _group(options: list[Option]) -> OrderedDict[str, list[Option]]:
    groups: OrderedDict[str, list[Option]] = OrderedDict()
    for option in options:
        groups.setdefault(option.group, []).append(option)
    return groups


def first_steps(prompt: Prompt, options: list[Option]) -> list[Option]:
    """A group's options as the table first sees them: a two-step group (options with a
    `first`) shows each `first` once, and one that leads to a single option is that
    option itself (one click, not two); the others stay as they are. A group that fits
    in one row of buttons stays flat: one click each already."""
    if len(options) <= PER_ROW:
        return options
    under: OrderedDict[str, list[int]] = OrderedDict()
    shown: list[Option | str] = []
    for option in options:
        if not option.first:
            shown.append(option)
            continue
        if option.first not in under:
            shown.append(option.first)
        under.setdefault(option.first, []).append(_index(prompt, option))
    steps: list[Option] = []
    for item in shown:
        if isinstance(item, Option):
            steps.append(item)
            continue
        picks = under[item]
        head = prompt.options[picks[0]]
        steps.append(head if len(picks) == 1 else
                     Option(item, Action(STEP, {"n": picks[0]}), group=head.group,
                            style=head.style))
    return steps


def _index(prompt: Prompt, option: Option) -> int:
    return next(i for i, o in enumerate(prompt.options) if o is option)


@dataclass
class ControlRow:
    """One row of a prompt's controls, and the words above it where the layout has room
    for them (the live message names the other seat whose row it is)."""

    items: list[discord.ui.Item[Any]]
    heading: str = ""

    @property
    def components(self) -> int:
        """What it costs of a Components v2 message's 40: the row, its items, its name."""
        return 1 + len(self.items) + bool(self.heading)


def prompt_rows(channel_id: int, prompt: Prompt | None, *, with_secret: bool = True,
                reveal_private: bool = False, main: bool = True, others: bool = True,
                kind: str = "", max_rows: int = MAX_ROWS, headings: bool = False,
                keep_mine: bool = False) -> list[ControlRow]:
    """Buttons for small groups of options, selects for large ones, within `max_rows`.

    Private options (their labels show hidden cards) never go on a public message: it
    gets one button that shows them to the chooser alone. After the turn's controls
    (`main`), each other seat that may act now (`prompt.others`, if `others`) gets a
    row of its own: its buttons name its seat, so the table refuses them to anyone else.
    With `headings` its player's name stands above the row; else each label starts
    with it. A game of `kind` whose board shows part of the house gets "Whole house"
    beside "My secrets", in a last row that the others leave free with `keep_mine`
    (else it comes only where a row is left).
    """
    rows: list[ControlRow] = []
    selects = [0]
    if with_secret and keep_mine:
        max_rows -= 1
    if prompt is not None:
        extra = [o for o in (prompt.others if others else ()) if _public(o.options)]
        # Each other seat gets a row of its own while that leaves the turn's own
        # controls the rows they need (or at least three); past that, all the other
        # seats share one select, so the player whose turn it is never loses a control.
        split = len(extra) <= OWN_ROWS or \
            len(extra) <= max_rows - _rows_needed(prompt, reveal_private)
        taken = (len(extra) if split else 1) if extra else 0
        limit = max_rows - min(taken, max_rows - 1) if main else 0
        if main:
            _turn_rows(rows, channel_id, prompt, limit, selects, reveal_private, headings)
        if split:
            for other in extra:
                if len(rows) >= max_rows:
                    break
                _other_row(rows, channel_id, other, selects, headings)
        elif len(rows) < max_rows:
            _others_select(rows, channel_id, extra, selects)
    if with_secret and (keep_mine or len(rows) < max_rows):
        mine: list[discord.ui.Item[Any]] = [ActionButton(
            channel_id, ANY_VERSION, Action(SECRET), label=say("view.my_secrets"),
            style=discord.ButtonStyle.secondary)]
        if kind and shows_part(kind):
            mine.append(WholeHouse(channel_id))
        rows.append(ControlRow(mine))
    return rows


def prompt_view(channel_id: int, prompt: Prompt | None, *, with_secret: bool = True,
                reveal_private: bool = False, main: bool = True,
                others: bool = True, kind: str = "") -> discord.ui.View:
    """`prompt_rows` as a classic message's view (a DM's, an ephemeral's): five rows at
    most, each other seat's labels starting with its player's name."""
    return rows_view(prompt_rows(channel_id, prompt, with_secret=with_secret,
                                 reveal_private=reveal_private, main=main, others=others,
                                 kind=kind))


def rows_view(rows: list[ControlRow]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for n, row in enumerate(rows):
        for item in row.items:
            item.row = n
            view.add_item(item)
    return view


def live_rows(channel_id: int, prompt: Prompt | None, *, budget: int, main: bool = True,
              kind: str = "", reveal_private: bool = False,
              others: bool = True) -> list[ControlRow]:
    """The controls of a Components v2 layout (the live message, a DM prompt): past the
    classic five rows while they fit in `budget` components, each other seat's row under
    its player's name, "My secrets" and "Whole house" always among them."""
    rows: list[ControlRow] = []
    for max_rows in range(LIVE_ROWS, MAX_ROWS - 1, -1):
        rows = prompt_rows(channel_id, prompt, main=main, kind=kind, max_rows=max_rows,
                           headings=True, reveal_private=reveal_private, others=others,
                           keep_mine=True)
        if sum(row.components for row in rows) <= budget:
            break
    return rows


def _turn_rows(rows: list[ControlRow], channel_id: int, prompt: Prompt, limit: int,
               selects: list[int], reveal_private: bool, headings: bool = False) -> None:
    """The turn's own controls, while there are fewer than `limit` rows. A waiting
    choice's buttons are named only by their answers ("Bev's Apartment", "No one"), and
    the line that asked it is in the log: with `headings` its question stands above them
    (a select says it as its placeholder)."""
    shown = [o for o in prompt.options if reveal_private or not o.private]
    if len(shown) < len(prompt.options) and len(rows) < limit:
        rows.append(ControlRow([ActionButton(
            channel_id, prompt.version, Action(PRIVATE_CHOICES),
            label=say("view.choose_privately"), style=discord.ButtonStyle.primary)]))
    for group, grouped in _group(shown).items():
        if len(rows) >= limit:
            break
        options = first_steps(prompt, grouped)
        if len(options) <= PER_ROW:
            asked = headings and all(o.action.kind == CHOOSE for o in options)
            rows.append(ControlRow([ActionButton(
                channel_id, prompt.version, option.action, label=option.label,
                style=_STYLES.get(option.style, discord.ButtonStyle.secondary),
            ) for option in options], say("view.choice_heading", question=group)
                if asked else ""))
            continue
        chunks = [options[i:i + PER_SELECT] for i in range(0, len(options), PER_SELECT)]
        for part, chunk in enumerate(chunks, start=1):
            if len(rows) >= limit:
                break
            suffix = f" ({part}/{len(chunks)})" if len(chunks) > 1 else ""
            rows.append(ControlRow([_select(channel_id, prompt.version, selects,
                                            f"{group}…{suffix}", chunk)]))


def _public(options: list[Option]) -> list[Option]:
    return [o for o in options if not o.private]


def _rows_needed(prompt: Prompt, reveal_private: bool) -> int:
    """The rows the turn's own controls take when nothing else competes for them."""
    shown = [o for o in prompt.options if reveal_private or not o.private]
    rows = int(len(shown) < len(prompt.options))
    for grouped in _group(shown).values():
        options = first_steps(prompt, grouped)
        rows += 1 if len(options) <= PER_ROW else -(-len(options) // PER_SELECT)
    return rows


def _others_select(rows: list[ControlRow], channel_id: int, extra: list[Prompt],
                   selects: list[int]) -> None:
    """Every other seat's out-of-turn options in one select, each labelled with whose it
    is (and pinned to that seat, so only its holder may pick it)."""
    labelled = [replace(o, label=f"{other.name}: {o.label}")
                for other in extra for o in _public(other.options)][:PER_SELECT]
    names = ", ".join(other.name for other in extra)
    rows.append(ControlRow([_select(channel_id, extra[0].version, selects,
                                    say("view.others_act", names=names), labelled)]))


def _other_row(rows: list[ControlRow], channel_id: int, other: Prompt, selects: list[int],
               heading: bool) -> None:
    """One row for another seat's out-of-turn options (never its private ones): buttons
    when they fit, else one select; whose they are is said above the row (`heading`) or
    at the start of every label."""
    shown = [o for o in other.options if not o.private][:PER_SELECT]
    if not shown:
        return
    prefix = "" if heading else f"{other.name}: "
    items: list[discord.ui.Item[Any]]
    if len(shown) <= PER_ROW:
        items = [ActionButton(
            channel_id, other.version, option.action, label=f"{prefix}{option.label}",
            style=_STYLES.get(option.style, discord.ButtonStyle.secondary),
        ) for option in shown]
    else:
        items = [_select(channel_id, other.version, selects,
                         f"{prefix}{shown[0].group}…", shown)]
    rows.append(ControlRow(items, say("view.other_heading", name=other.name)
                           if heading else ""))


def _select(channel_id: int, version: int, selects: list[int], placeholder: str,
            options: list[Option], row: int | None = None) -> ActionSelect:
    select = ActionSelect(
        channel_id, version, selects[0], placeholder=placeholder,
        options=[discord.SelectOption(
            label=_clip(o.label, 100), value=o.action.encode(),
            description=_clip(o.description, 100) or None,
        ) for o in options],
        row=row,
    )
    selects[0] += 1
    return select


# -- the lobby message ------------------------------------------------------------------

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
                label=_clip(say("lobby.roster_line", index=n + 1, name=table.seats[n].name,
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


async def _how_to_play(interaction: discord.Interaction, channel_id: int) -> None:
    table = await sessions_of(interaction).table(channel_id, latest=True)
    if table is None:
        raise IllegalAction(say("errors.no_game"))
    await say_ephemeral(interaction, _clip(how_to_play(table.kind, table.options), 1900))


def invited(ended: Table, host_id: int) -> list[int]:
    """The people who played the game that ended, but the new lobby's host."""
    return [u for u in dict.fromkeys(s.user_id for s in ended.seats if s.user_id and not s.ai)
            if u != host_id]


async def _play_again(interaction: discord.Interaction, channel_id: int, action: Action,
                      host: table_rules.Actor) -> None:
    """A new lobby of the same game and setup (a fresh seed, no chosen one), hosted by
    whoever clicked, in a new message that pings the others: each joins with one click.
    Refused when another game has opened here since (someone clicked first), and, as
    /game new is, outside the server's game channels."""
    sessions = sessions_of(interaction)
    ended = await sessions.table(channel_id, latest=True)
    if ended is None or ended.id != action.args.get("game") or ended.status != OVER:
        raise IllegalAction(say("errors.again_taken"))
    settings = await sessions.settings.get(interaction.guild_id)
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    if not settings.game_allowed_in(channel_id, parent):
        raise IllegalAction(say("errors.game_channels_only", channels=channel_list(settings)))
    await bot_permissions.cannot_play(interaction)
    offered = games.get(ended.kind).setup_choices()
    options: dict[str, Any] = {k: v for k, v in ended.options.items() if k in offered}
    options["today"] = datetime.now(UTC).strftime("%m-%d")
    try:
        outcome = await sessions.open(channel_id, interaction.guild_id, host, ended.kind,
                                      table_rules.fresh_seed(), options)
    except GameExists:
        raise IllegalAction(say("errors.again_taken")) from None
    table = outcome.table
    others = invited(ended, interaction.user.id)
    public = public_language(interaction, table)  # a public post: the server's language
    with speaking(public):
        words = {"host": f"<@{interaction.user.id}>", "game": table_rules.title(table)}
        text = say("lobby.again_invite", players=", ".join(f"<@{u}>" for u in others),
                   **words) if others else say("lobby.again_alone", **words)
    view = lobby_view(table, public)
    assert view is not None  # a table just made is a lobby
    sent = await interaction.response.send_message(
        text, embed=lobby_embed(table, public), view=view,
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in others]))
    if sent.message_id is not None:
        await bot_of(interaction).store.set_lobby_message(table.id or 0, sent.message_id)


DYNAMIC_ITEMS = (ActionButton, ActionSelect, WholeHouse, ReplayButton, Stray)
