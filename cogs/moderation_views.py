"""What /gm shows: the server's settings, the seats to choose from, the moderators' log.

Kept apart from the cog, which must hold every /gm subcommand in one class; these are
plain functions of the stored records, in the words of data/texts.yaml.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.core.errors import IllegalAction
from bot.discord_limits import CONTENT_MAX
from bot.guild_settings import (
    FOREVER,
    KEEP_DAYS,
    MAX_CHANNELS,
    MAX_MINUTES,
    TIMER_ENDS,
    GuildSettings,
)
from bot.locales import ENGLISH, LANGUAGES, current
from bot.store import POSTS_REFUSED, LoggedEvent, Notice, Table
from bot.texts import listed, say
from cogs.bot_permissions import NAMED, names_text

AUTOCOMPLETE_LIMIT = 25  # Discord: choices an autocomplete may offer
MESSAGE_LIMIT = CONTENT_MAX
# The keep setting's choices: forever, or a number of days (their words: settings.keep_*).
KEEP_CHOICES = (FOREVER, *(str(days) for days in KEEP_DAYS))
# The language setting's choices: the server's own (its preferred locale), or one we
# speak (their words: settings.language_choice_*).
SERVER_DEFAULT = "default"
LANGUAGE_CHOICES = (SERVER_DEFAULT, *LANGUAGES)
SWITCH = {"on": True, "off": False}  # an on/off setting's choices (their words: settings.switch_*)


def language_name(language: str) -> str:
    return say(f"settings.language_choice_{language}")


def settings_text(settings: GuildSettings, guild_language: str = ENGLISH) -> str:
    """The settings as a moderator reads them; `guild_language`: the server's own (its
    preferred locale), what its games speak unless a moderator chose another."""
    lines = [say("settings.title")]
    if settings.mod_role is not None:
        lines.append(say("settings.mod_role", role=f"<@&{settings.mod_role}>"))
    else:
        lines.append(say("settings.mod_role_none"))
    if settings.remind_minutes is not None:
        lines.append(say("settings.remind", minutes=settings.remind_minutes))
    else:
        lines.append(say("settings.remind_off"))
    if settings.act_minutes is not None:
        lines.append(say("settings.act", minutes=settings.act_minutes,
                         end=say(f"settings.end_{settings.end_or_default}")))
    else:
        lines.append(say("settings.act_off"))
    if settings.game_channels:
        lines.append(say("settings.channels", channels=channel_list(settings)))
    else:
        lines.append(say("settings.channels_any"))
    lines.append(say("settings.play_by_play_on" if settings.play_by_play is True
                     else "settings.play_by_play_off"))
    lines.append(say("settings.keep_forever") if settings.keep_days is None
                 else say("settings.keep", days=settings.keep_days))
    lines.append(say("settings.language", language=language_name(settings.language))
                 if settings.language is not None
                 else say("settings.language_default", language=language_name(guild_language)))
    return "\n".join(lines)


def channel_list(settings: GuildSettings) -> str:
    return listed([f"<#{c}>" for c in settings.game_channels])


def changed(current: GuildSettings, *, mod_role: int | None, remind_minutes: int | None,
            act_minutes: int | None, timer_end: str | None,
            game_channel: int | None, play_by_play: str | None = None,
            keep: str | None = None, language: str | None = None) -> GuildSettings:
    """The settings after one /gm settings call. A role or channel given again is taken
    off (a toggle: the one option both sets and clears); 0 minutes turns a timer off.
    A value outside its setting (a stale command registration sends any) is refused,
    before anything is saved."""
    for name, minutes in (("remind_minutes", remind_minutes), ("act_minutes", act_minutes)):
        if minutes is not None and not 0 <= minutes <= MAX_MINUTES:
            raise IllegalAction(say("errors.bad_setting", name=name))
    if timer_end is not None and timer_end not in TIMER_ENDS:
        raise IllegalAction(say("errors.bad_setting", name="timer_end"))
    if play_by_play is not None and play_by_play not in SWITCH:
        raise IllegalAction(say("errors.bad_setting", name="play_by_play"))
    if keep is not None and keep not in KEEP_CHOICES:
        raise IllegalAction(say("errors.bad_setting", name="keep"))
    if language is not None and language not in LANGUAGE_CHOICES:
        raise IllegalAction(say("errors.bad_setting", name="language"))
    new = current
    if language is not None:
        new = replace(new, language=None if language == SERVER_DEFAULT else language)
    if keep is not None:
        new = replace(new, keep_days=None if keep == FOREVER else int(keep))
    if mod_role is not None:
        new = replace(new, mod_role=None if mod_role == current.mod_role else mod_role)
    if remind_minutes is not None:
        new = replace(new, remind_minutes=remind_minutes or None)
    if act_minutes is not None:
        new = replace(new, act_minutes=act_minutes or None)
    if timer_end is not None:
        new = replace(new, timer_end=timer_end)
    if game_channel is not None:
        channels = current.game_channels
        if game_channel in channels:
            channels = tuple(c for c in channels if c != game_channel)
        elif len(channels) >= MAX_CHANNELS:
            raise IllegalAction(say("settings.too_many_channels", most=MAX_CHANNELS))
        else:
            channels = (*channels, game_channel)
        new = replace(new, game_channels=channels)
    if play_by_play is not None:
        new = replace(new, play_by_play=SWITCH[play_by_play])
    return new


def seat_label(table: Table, index: int) -> str:
    seat = table.seats[index]
    key = "moderation.seat_choice_ai" if seat.ai else "moderation.seat_choice"
    return say(key, seat=index + 1, name=seat.name)[:100]


def seat_choices(table: Table | None, typed: str) -> list[discord.app_commands.Choice[str]]:
    if table is None:
        return []
    words = typed.strip().lower()
    labels = [(i, seat_label(table, i)) for i in range(len(table.seats))]
    return [discord.app_commands.Choice(name=label, value=str(i + 1))
            for i, label in labels if words in label.lower()][:AUTOCOMPLETE_LIMIT]


def seat_index(table: Table, typed: str) -> int:
    """The seat autocomplete sent (its number), or the one seat whose label holds the
    typed words; else a refusal naming the seats."""
    text = typed.strip()[:100]
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(table.seats):
        return int(text) - 1
    hits = [i for i in range(len(table.seats)) if text and text.lower()
            in seat_label(table, i).lower()]
    if len(hits) == 1:
        return hits[0]
    raise IllegalAction(say("errors.no_such_seat", seat=text[:20] or "?",
                            count=len(table.seats)))


def notice_text(notice: Notice) -> str:
    """A notice of the bot's own (its posts refused, then taken again), in our words."""
    if notice.kind == POSTS_REFUSED:
        missing = [n for n in notice.detail.split(",") if n in NAMED]
        return say("permissions.log_refused", missing=names_text(missing))
    return say("permissions.log_back")


def log_text(entries: list[LoggedEvent], notices: Sequence[Notice] = (),
             bot_id: int = 0) -> str:
    """The moderators' actions and the bot's own notices, by time: a game that stands
    still because the bot cannot post shows why here. Each line in the reader's language
    where it was said in it (the store keeps English beside the table's others)."""
    said = [(e.ts, e.actor_id, e.text_in(current())) for e in entries]
    said += [(n.ts, bot_id, notice_text(n)) for n in notices]
    if not said:
        return say("moderation.log_empty")
    lines = [say("moderation.log_line", ts=int(ts), user=user, text=text[:300])
             for ts, user, text in sorted(said, key=lambda s: s[0])]
    text = "\n".join([say("moderation.log_title"), *lines])
    while len(text) > MESSAGE_LIMIT and len(lines) > 1:  # the newest matter most
        lines = lines[1:]
        text = "\n".join([say("moderation.log_title"), *lines])
    return text[:MESSAGE_LIMIT]
