"""A server's table settings (`/gm settings`), kept in the store per server.

The stored form is a plain JSON object, read through `GuildSettings.from_dict`, which
drops what it does not know and clamps what is out of range: a setting written by an
older or newer bot never stops a server's games. Every field has the default a server
gets before anyone touched a setting: no moderator role beyond Manage Channels, no turn
timer, game commands anywhere, no play-by-play thread (a thread the bot opens in every
game's channel is a server's choice to make, not a surprise).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.locales import LANGUAGES

REMIND = "remind"  # the timer's end only reminds the player again
AI_PLAYS = "ai"  # the AI plays the turn and says so
SKIP = "skip"  # the turn is passed over (the game's own "end turn" where it has one)
TIMER_ENDS = (REMIND, AI_PLAYS, SKIP)
MAX_MINUTES = 7 * 24 * 60  # a week: the longest turn a timer may wait for
MAX_CHANNELS = 25
# How long a server keeps its finished games (/game history, /stats): forever (None, the
# default: a server's history is its own to delete), or one of these many days, after
# which the retention sweep (bot/client.py) deletes a game and every row of it.
KEEP_DAYS = (30, 90, 365)
FOREVER = "forever"


@dataclass(frozen=True)
class GuildSettings:
    mod_role: int | None = None  # members with this role moderate, beside Manage Channels
    remind_minutes: int | None = None  # mention the player to act after this long
    act_minutes: int | None = None  # then, after this long, `timer_end` applies
    timer_end: str = REMIND
    game_channels: tuple[int, ...] = field(default=())  # empty: game commands anywhere
    # Every public line of each game also goes to a public thread of its channel
    # (cogs/play_by_play.py), where the live message tells a turn in three lines.
    play_by_play: bool = False
    keep_days: int | None = None  # finished games kept this long (KEEP_DAYS); None: forever
    # The language of the server's public posts (bot/locales.LANGUAGES); None: the
    # server's own preferred locale, as Discord reports it (English where we do not
    # speak it).
    language: str | None = None

    @property
    def timer_on(self) -> bool:
        return self.remind_minutes is not None or self.act_minutes is not None

    def game_allowed_in(self, channel_id: int | None, parent_id: int | None = None) -> bool:
        """Game commands may be used here: anywhere when no channel is set, else in those
        channels and their threads."""
        if not self.game_channels:
            return True
        return channel_id in self.game_channels or (
            parent_id is not None and parent_id in self.game_channels)

    def misfit(self) -> str | None:
        """The first setting outside what it may hold, by name (None: all fit). Checked
        before a save: a bad value kept would break every /gm settings of the server
        until the cache forgot it (the text key is built from `timer_end`)."""
        for name in ("remind_minutes", "act_minutes"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 < value <= MAX_MINUTES):
                return name
        if self.timer_end not in TIMER_ENDS:
            return "timer_end"
        role = self.mod_role
        if role is not None and (isinstance(role, bool) or not isinstance(role, int)):
            return "mod_role"
        if len(self.game_channels) > MAX_CHANNELS or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in self.game_channels):
            return "game_channel"
        if not isinstance(self.play_by_play, bool):
            return "play_by_play"
        if self.keep_days is not None and self.keep_days not in KEEP_DAYS:
            return "keep"
        if self.language is not None and self.language not in LANGUAGES:
            return "language"
        return None

    @property
    def end_or_default(self) -> str:
        """`timer_end`, or the default for a value no bot wrote (never a missing text)."""
        return self.timer_end if self.timer_end in TIMER_ENDS else REMIND

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["game_channels"] = list(self.game_channels)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GuildSettings:
        def minutes(key: str) -> int | None:
            value = data.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                return None
            return min(value, MAX_MINUTES)

        role = data.get("mod_role")
        end = data.get("timer_end")
        channels = data.get("game_channels") or ()
        return cls(
            mod_role=role if isinstance(role, int) and not isinstance(role, bool) else None,
            remind_minutes=minutes("remind_minutes"),
            act_minutes=minutes("act_minutes"),
            timer_end=end if end in TIMER_ENDS else REMIND,
            game_channels=tuple(c for c in channels if isinstance(c, int))[:MAX_CHANNELS],
            play_by_play=data.get("play_by_play") is True,  # only a true a bot wrote
            # a value no bot wrote keeps everything: deleting is never a guess
            keep_days=keep if (keep := data.get("keep_days")) in KEEP_DAYS
            and not isinstance(keep, bool) else None,
            language=language if (language := data.get("language")) in LANGUAGES else None,
        )
