"""The records the store keeps beside the table's own (bot/table_record.py, which it maps
to its rows): the logged events, undo points, turn timers, notices, the live message."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.events import Audience, Event


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    version: int
    ts: float
    actor_id: int | None
    audience: str
    text: str
    kind: str = "info"
    seat: int | None = None  # whose move made it (Event.seat)
    # The line in the table's other languages (language -> text); empty: English only.
    texts: dict[str, str] = field(default_factory=dict)

    def event(self) -> Event:
        """The event as the engine said it (what a delivery rebuilds after a crash), in
        every language it was said in."""
        return Event(self.text, Audience.decode(self.audience), self.kind, seat=self.seat,
                     texts=self.texts)

    def text_in(self, language: str) -> str:
        """The line in `language`, in English where it was not said in that one."""
        return self.texts.get(language, self.text)


@dataclass(frozen=True)
class ThreadMembers:
    """Whom the bot put in a team thread and has not taken out (cogs/outlet_teams.py), as it
    recorded them: Discord lists a thread's members only to a bot with the GUILD_MEMBERS
    privileged intent. `whole`: every one of them is recorded (a thread opened before
    the record was kept may hold others the bot put in then)."""

    users: frozenset[int]
    whole: bool


@dataclass(frozen=True)
class UndoPoint:
    """The table's envelope before a player's move (`version` is the table's version
    then), kept so /gm undo can restore it."""

    version: int
    envelope: dict[str, Any]
    actor_id: int | None
    summary: str  # what the move did, in the words of its first public event


@dataclass(frozen=True)
class UndoWrite:
    """What a save does to the undo points: `keep` the table as the store holds it before
    the save (copied row to row inside the transaction, so the state is neither
    serialised again nor sent twice to the writer) with its `summary`, and/or drop every
    point from version `drop_from` on (the moves an undo took back)."""

    keep: bool = False
    summary: str = ""
    drop_from: int | None = None


# The two turn timers a human's turn may have (bot/timers.py): the reminder, and the
# end of the turn's time, when the server's setting (GuildSettings.timer_end) applies.
REMIND_TIMER = "remind"
END_TIMER = "end"


@dataclass(frozen=True)
class TimerArm:
    """A turn timer a save arms: for the seat to act, due at `due_at` (epoch seconds).
    The save fills in the game, its channel and the version it was armed for."""

    kind: str
    seat: int
    user_id: int
    due_at: float
    armed_at: float


@dataclass(frozen=True)
class TurnTimer:
    """A turn timer as stored: one per game and kind, good only at `version`."""

    game_id: int
    kind: str
    version: int
    channel_id: int
    seat: int
    user_id: int
    due_at: float
    armed_at: float
# What a bot's notice says happened (bot_notices): Discord refused the game's channel posts
# for want of the bot's permissions there, and later took them again.
POSTS_REFUSED = "posts_refused"
POSTS_BACK = "posts_back"


@dataclass(frozen=True)
class Notice:
    """Something the bot itself met in a game that moderators should know (/gm log):
    no game event (nothing changed in the game), so it has no version or audience."""

    ts: float
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game, as /stats counts it: who held it, the side it
    played (bot/core/story.py's SIDES), whether it won, its score and character."""

    seat: int
    user_id: int | None  # None: a seat the AI played from the start
    name: str
    ai: bool
    side: str
    won: bool
    score: int | None = None
    character: str = ""


@dataclass(frozen=True)
class GameResult:
    """A finished game as `/game history` and `/stats` read it, written in the save that
    ends it (the game_results and result_seats tables), so neither replays a game's
    events. `story` is the story's JSON and `summary` the lines the table read at the
    end; `started_at` and `ended_at` are filled in by the store."""

    game_id: int
    guild_id: int | None
    channel_id: int
    kind: str
    turns: int
    content: str  # the big piece of content played (a haunt's key), "" if none
    outcome: str  # who won and how, one line
    story: str
    summary: str
    seats: list[SeatResult] = field(default_factory=list)
    started_at: float = 0.0
    ended_at: float = 0.0
    # The edition played (Game.edition_of: "" for the game's own), which names the game
    # in /game history and /stats (Game.title_of).
    edition: str = ""

    @property
    def winners(self) -> list[SeatResult]:
        return [s for s in self.seats if s.won]


@dataclass(frozen=True)
class PlayedSeat:
    """One seat one member (or anyone, for a server's table) held in a finished game,
    with the game's facts /stats counts by: a row of result_seats joined to its game."""

    game_id: int
    kind: str
    turns: int
    content: str
    started_at: float
    ended_at: float
    table_size: int
    seat: SeatResult
    edition: str = ""  # as GameResult's
