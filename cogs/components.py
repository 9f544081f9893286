"""What a click on a component does, and the door to the components: the rest of the
bot imports them from here (`__all__`). Each kind of component is made and read in
cogs/component_items.py; a prompt's rows are laid out in cogs/prompt_rows.py; the
lobby message's buttons (its words: cogs/lobby_embed.py) and the end's are in
cogs/lobby_buttons.py.

A click on an action's button or select is played through the sessions layer
(`run_action`); one that only shows its clicker something (their secrets, their
private choices, a two-step choice's second half, the rules) is answered here,
privately, and so is Play again, which opens a new lobby in a message of its own.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import discord

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.errors import IllegalAction
from bot.locales import speaking
from bot.sessions import GameExists, Prompt
from bot.store import LOBBY, OVER, Table
from bot.texts import clip, listed, say
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
from cogs.component_items import (
    ACTION_CLICKS,
    ANY_VERSION,
    HOW_TO_PLAY,
    PLAY_AGAIN,
    PRIVATE_CHOICES,
    REPLAY,
    SECRET,
    STEP,
    WHOLE_HOUSE,
    ActionButton,
    ActionSelect,
    ReplayButton,
    Stray,
    Unreadable,
    WholeHouse,
    in_callers_words,
)
from cogs.lobby_buttons import lobby_view, play_again_rows
from cogs.lobby_embed import lobby_embed
from cogs.moderation_views import channel_list
from cogs.prompt_rows import (
    LIVE_ROWS,
    MAX_ROWS,
    OWN_ROWS,
    PER_ROW,
    PER_SELECT,
    ControlRow,
    buttons_view,
    first_steps,
    live_rows,
    prompt_rows,
    prompt_view,
    rows_view,
)
from cogs.reply import answered, answering
from cogs.rights import click_actor
from cogs.sending import THREAD_ARCHIVED
from cogs.topics import how_to_play

__all__ = ["ANY_VERSION", "CHANNEL_ONLY", "DYNAMIC_ITEMS", "HOW_TO_PLAY", "LIVE_ROWS",
           "LOBBY_KINDS", "MAX_ROWS", "OWN_ROWS", "PER_ROW", "PER_SELECT", "PLAY_AGAIN",
           "PRIVATE_CHOICES", "REPLAY", "SECRET", "SHOWS_ONLY", "STEP", "WHOLE_HOUSE",
           "ActionButton", "ActionSelect", "ControlRow", "ReplayButton", "Stray",
           "Unreadable", "WholeHouse", "first_steps", "in_callers_words", "invited",
           "live_rows", "lobby_view", "play_again_rows", "prompt_rows", "prompt_view",
           "rows_view", "run_action"]

# Clicks that only show their clicker something (no table changes): free of the click
# limit, which counts changes (cogs/click_limit.py), as a reading command is.
SHOWS_ONLY = frozenset({SECRET, PRIVATE_CHOICES, HOW_TO_PLAY, STEP})
# What only the game channel's own messages carry (the lobby's buttons and selects, the
# end's Play again): each answers by redrawing the message clicked or posting a lobby
# there, so from a DM (a forged id: no DM shows them) it is refused, not played.
LOBBY_KINDS = frozenset({table_rules.JOIN, table_rules.LEAVE, table_rules.ADD_AI,
                         table_rules.REMOVE_AI, table_rules.START, table_rules.PICK,
                         table_rules.SECOND})
CHANNEL_ONLY = LOBBY_KINDS | {PLAY_AGAIN}


@ACTION_CLICKS.handled_by
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
                        view=buttons_view(channel_id, prompt.version, under))


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
        # Its refusal first sends what the game owes (so the newest controls show), and
        # Discord may hold that up (a rate limit, a slow answer): deferred after
        # PATIENCE, as a move's click is, so the click is still answered within 3 s.
        raise await answering(interaction, sessions.refuse_stale(table))
    prompt = sessions.prompt(table)
    if prompt is None or prompt.user_id != interaction.user.id:
        raise IllegalAction(say("errors.not_your_choice"))
    return prompt


async def _how_to_play(interaction: discord.Interaction, channel_id: int) -> None:
    table = await sessions_of(interaction).table(channel_id, latest=True)
    if table is None:
        raise IllegalAction(say("errors.no_game"))
    await say_ephemeral(interaction, clip(how_to_play(table.kind, table.options), 1900))


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
        text = say("lobby.again_invite", players=listed([f"<@{u}>" for u in others]),
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
