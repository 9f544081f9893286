"""The rows a prompt's controls are laid out in: buttons for small groups of options,
selects for large ones, each other seat's out-of-turn options in a row of its own, and
"My secrets" and "Whole house" last; as a classic message's view (a DM's, an
ephemeral's) or a Components v2 layout's rows (the live message's, cogs/live_layout.py).
It exists apart from the components themselves (cogs/component_items.py) and what a
click does (cogs/components.py): how many rows, which option where, is a question of
its own, and its tests read it without Discord.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.core.actions import Action, Option
from bot.core.choices import CHOOSE
from bot.sessions import Prompt
from bot.texts import clip, listed, say
from cogs.component_items import (
    ANY_VERSION,
    PRIVATE_CHOICES,
    SECRET,
    STEP,
    ActionButton,
    ActionSelect,
    WholeHouse,
)
from renderers import shows_part

MAX_ROWS = 5
PER_ROW = 5
PER_SELECT = 25
OWN_ROWS = 2  # other seats that always get a row each (the turn keeps at least three)
LIVE_ROWS = 8  # the live message's rows at most, within Components v2's 40 components

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


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
    names = listed([other.name for other in extra])
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
            label=clip(o.label, 100), value=o.action.encode(),
            description=clip(o.description, 100) or None,
        ) for o in options],
        row=row,
    )
    selects[0] += 1
    return select


def buttons_view(channel_id: int, version: int, options: list[Option]) -> discord.ui.View:
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
