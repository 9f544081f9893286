"""A finished game's story, as its game tells it (Game.story), for the summary the
table reads at the end, `/game history` and `/stats`.

Plain data, so the store keeps it as JSON beside the game's row and a later release
reads it without the engine (the game's state may have changed shape since). A game
fills it in its own words; the shared layer (bot/summary.py) only arranges it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bot.texts import say

# The sides a seat may end on, counted by /stats: a game with teams says which team a
# seat played for; everyone else played for themselves (or all together, against the
# game: the house).
HEROES = "heroes"
TRAITOR = "traitor"
HOUSE = "house"  # a cooperative game: the table together against the game
SOLO = "solo"  # every player for themselves (a game each seat scores for itself)
SIDES = (HEROES, TRAITOR, HOUSE, SOLO)
# A seat of a game ended before its own end (a moderator, everyone gone, its channel
# deleted): it played no side to an end, and /stats counts it on none.
NO_SIDE = ""


@dataclass(frozen=True)
class LogLine:
    """One stored event as the story reads it: its kind, whom it was for and its text.
    Secrets are public by the end, so the story may read private lines too."""

    kind: str
    audience: str
    text: str
    seat: int | None = None  # the seat whose move made it (None: the table's own line)


@dataclass
class SeatStory:
    """One seat's part: the side it played and what it did, in the game's words."""

    side: str = SOLO
    won: bool = False
    score: int | None = None  # in a game that scores: the seat's final points
    character: str = ""  # who the seat played (an explorer, a Loser), "" if no one
    did: str = ""  # a short line: what this seat did


@dataclass
class Story:
    """Who won and how, the few turning points, and each seat's part (index = seat).
    `content` names the game's big piece of content played (a scenario's key), for
    the server's stats; `content_name` is its name as players read it."""

    outcome: str
    turning: list[str] = field(default_factory=list)
    seats: list[SeatStory] = field(default_factory=list)
    content: str = ""
    content_name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Story:
        return cls(outcome=str(raw["outcome"]), turning=[str(t) for t in raw["turning"]],
                   seats=[SeatStory(**s) for s in raw["seats"]],
                   content=str(raw.get("content", "")),
                   content_name=str(raw.get("content_name", "")))


def last_of(log: list[LogLine], kind: str) -> str:
    """The last public line of this kind ("" if none): a story's turning points are
    often the last fight, the last death."""
    for line in reversed(log):
        if line.kind == kind and line.audience == "public":
            return line.text
    return ""


def last_and_after(log: list[LogLine], kind: str, after: str) -> list[str]:
    """The last public line of `kind`, then the public lines of `after` told since ([]
    if none): a turning point whose sequel changes what it meant (a fight, then what
    its portal undid)."""
    found = next((i for i in range(len(log) - 1, -1, -1)
                  if log[i].kind == kind and log[i].audience == "public"), None)
    if found is None:
        return []
    return [log[found].text, *(line.text for line in log[found + 1:]
                               if line.kind == after and line.audience == "public")]


def first_of(log: list[LogLine], kind: str) -> str:
    """The first public line of this kind ("" if none)."""
    for line in log:
        if line.kind == kind and line.audience == "public":
            return line.text
    return ""


def count_of(log: list[LogLine], kind: str) -> int:
    """How many public lines of this kind the game told."""
    return sum(1 for line in log if line.kind == kind and line.audience == "public")


def deeds_of(log: list[LogLine], seat: int, kind: str) -> int:
    """How many public lines of this kind this seat's moves made: a player's deeds (rooms
    found, monsters slain, victims rescued). A game stored before events kept their seat
    counts none."""
    return sum(1 for line in log
               if line.seat == seat and line.kind == kind and line.audience == "public")


def with_deeds(did: str, deeds: list[str]) -> str:
    """A seat's line with its deeds after it ("alive, carrying 2 cards; found 4 rooms,
    slew 1 monster"), the deeds it has none of left out; joined by the punctuation of
    the language being spoken (a Chinese story reads 、 and ；)."""
    done = say("summary.deeds_between").join(d for d in deeds if d)
    return say("summary.deeds_after", did=did, deeds=done) if did and done else did or done
