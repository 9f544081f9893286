"""The whole state of a Betrayal game, as plain data that round-trips to JSON.

Ids are indexes: seat s plays `explorers[s]`, placed tile t is `tiles[t]` (a tile keeps
its id when the Mystic Elevator carries it elsewhere). Decks and the room stack are
lists whose index 0 is the top. Card piles never hold a card twice: each card of the
three decks is, at any moment, in exactly one of its deck, its discard pile, a hand
(`cards` or `lasting`), a room's item pile, the omen table or `resolving` (an event
being read out). `script` is the step interpreter's continuation: while a choice is
pending it holds the remaining steps, so a game can be saved mid-card and resumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.choices import PendingChoice, texts_kept
from bot.core.formats import Formats
from bot.core.rng import Rng
from bot.core.stored import restored, stored_dict

EXPLORE = "explore"
HAUNT = "haunt"


@dataclass
class Explorer:
    key: str
    traits: dict[str, int]  # trait -> index on its track (-1 would be the skull)
    tile: int  # the placed tile the explorer stands in
    side: str | None = None  # in a split room: the door (after rotation) it stands by
    cards: list[str] = field(default_factory=list)  # omens and items carried
    lasting: list[str] = field(default_factory=list)  # events kept in front of it
    benefits: list[str] = field(default_factory=list)  # once-per-explorer rooms used
    flags: dict[str, Any] = field(default_factory=dict)  # card handlers' own notes
    alive: bool = True
    # An omen it drew on another explorer's turn (a Mystic Slide passed to it), and the
    # room it turned up in: seed 003 has the one who drew it make the haunt roll, at the
    # end of its own turn (edition.py). "" when no roll is owed.
    owed_omen: str = ""
    owed_omen_room: str = ""


@dataclass
class Tile:
    room: str
    floor: str
    x: int
    y: int
    rotation: int = 0  # quarter turns clockwise from the printed tile
    tokens: list[dict[str, Any]] = field(default_factory=list)  # {"kind", "card", "link"...}
    items: list[str] = field(default_factory=list)  # the item pile lying here
    flags: dict[str, Any] = field(default_factory=dict)


@dataclass
class Turn:
    """What the active explorer has done this turn: the limits seed 003 puts on it."""

    seat: int
    number: int = 1
    moves: int = 0  # rooms entered (Speed spent)
    movement_over: bool = False  # a card was drawn on discovery, or a crossing failed
    free_moves: int = 0  # moves that cost no Speed (Coal Chute, Rope)
    used: list[str] = field(default_factory=list)  # cards used (each once a turn)
    traded: bool = False
    dropped: list[str] = field(default_factory=list)
    picked: list[str] = field(default_factory=list)
    rolls: list[str] = field(default_factory=list)  # voluntary rolls made (once a turn each)
    omen: str = ""  # the last omen drawn this turn by the explorer to play, and where
    omen_room: str = ""
    elevator: bool = False  # the Mystic Elevator moved this turn
    flags: dict[str, Any] = field(default_factory=dict)
    # What the turn changed, for the map to show (public, as on the table): the rooms
    # the explorer to play walked through this turn (where it stood first, then each
    # room entered), and the tile it placed (-1: none yet). A fresh Turn clears both.
    walked: list[int] = field(default_factory=list)
    placed: int = -1


@dataclass
class Frame:
    """Steps still to run, and for whom: the interpreter's unit of continuation."""

    steps: list[dict[str, Any]]
    seat: int  # the explorer the steps act on (and who makes their choices)
    source: str = ""  # the card or room key the steps come from
    origin: str = "engine"  # "omen" | "item" | "event" | "room" | "engine"
    vars: dict[str, Any] = field(default_factory=dict)


@dataclass
class Monster:
    """A monster token (seed 003, "Monsters"): it is stunned, not killed, unless its
    haunt says a hit kills it (then `alive` turns False and it leaves the board)."""

    id: int
    kind: str  # the haunt's monster key (data/betrayal/haunts/<haunt>.yaml `monsters`)
    tile: int
    stunned: bool = False
    alive: bool = True
    moves: int = 0  # rooms it may still enter this monster turn
    attacked: bool = False  # it has attacked this monster turn
    skip: bool = False  # stunned at the start of this monster turn: it only recovers
    flags: dict[str, Any] = field(default_factory=dict)


HEROES, TRAITOR, MONSTERS = "heroes", "traitor", "monsters"  # Haunt.stage


@dataclass
class Haunt:
    revealer: int
    omen: str
    room: str
    roll: int
    omens: int
    key: str = ""  # the haunt the chart gives (haunts.yaml), "" if the chart has none
    number: int = 0  # its number on the chart
    traitor: int | None = None  # the traitor's seat (traitor.py); None: no traitor
    stage: str = HEROES  # whose turns these are: heroes, the traitor, the monsters
    round: int = 0  # haunt rounds begun (a round: every hero, the traitor, the monsters)
    progress: dict[str, Any] = field(default_factory=dict)  # the haunt plugin's own notes
    rolled: dict[str, int] = field(default_factory=dict)  # monster kind -> moves rolled
    # Monster moves not yet told the table, each as the words that tell it (the mover's
    # kind and number, the rooms' keys: monsters.move_words), not as a sentence: the
    # line is said when it is told, in each language the table reads.
    moved: list[dict[str, Any]] = field(default_factory=list)
    house: int | None = None  # a cooperative haunt: the house plays, after this seat's turn
    winner: str = ""  # "heroes" | "traitor" | "none" once the game is decided
    reason: str = ""  # why, in players' words (English, the engine's truth)
    # What it takes to say the reason in any language (haunting/base.py's Reason): the
    # book and key of its line and the line's values; {} for a game decided before.
    reason_words: dict[str, Any] = field(default_factory=dict)


@dataclass
class BetrayalState:
    players: list[str]  # seat -> display name, clockwise
    ai: list[bool]
    explorers: list[Explorer]
    tiles: list[Tile]
    stack: list[str]  # room tiles face down, index 0 on top
    room_discard: list[str]
    decks: dict[str, list[str]]  # "omen" | "item" | "event" -> face-down cards
    discards: dict[str, list[str]]
    turn: Turn
    first: int = 0  # the seat that played first
    today: str = "01-01"  # the game's start date, for birthdays
    omen_table: list[str] = field(default_factory=list)  # omens counted, not carried (Bite)
    resolving: list[str] = field(default_factory=list)  # events being read out
    omens_drawn: int = 0
    last_omen: str = ""  # the last omen drawn in the game, and the room it turned up in
    last_omen_room: str = ""
    quiet_turns: int = 0  # turns in a row with no room discovered and no omen drawn
    script: list[Frame] = field(default_factory=list)
    pending: PendingChoice | None = None
    phase: str = EXPLORE
    haunt: Haunt | None = None
    monsters: list[Monster] = field(default_factory=list)
    over: bool = False
    played: list[str] = field(default_factory=list)  # haunts this server has played
    fresh: bool = True  # seed 003, Selecting the Haunt: swap a played haunt for a new one
    edition: str = "classic"  # the edition played (editions.py): the classic game or an expansion
    notes: dict[str, Any] = field(default_factory=dict)  # the edition's own notes
    # The house's special links as [tile, tile] pairs (lower id first), in the order they
    # first appeared (links.remember): the map letters them in this order, so a link
    # keeps its letter for the whole game. One whose room has left the house is
    # [-1, -1] (house.take_out), so the links after it keep their places.
    links_seen: list[list[int]] = field(default_factory=list)
    rng: Rng = field(default_factory=lambda: Rng(0))

    def at(self, seat: int) -> Tile:
        return self.tiles[self.explorers[seat].tile]

    def tile_of(self, key: str) -> int | None:
        """The id of the placed tile for a room key, if it is in the house."""
        return next((i for i, t in enumerate(self.tiles) if t.room == key), None)

    def to_dict(self) -> dict[str, Any]:
        raw = stored_dict(self)
        return raw

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> BetrayalState:
        data = restored(raw)
        data["explorers"] = [Explorer(**e) for e in raw["explorers"]]
        data["tiles"] = [Tile(**t) for t in raw["tiles"]]
        data["turn"] = Turn(**raw["turn"])
        data["script"] = [Frame(**f) for f in raw.get("script", [])]
        data["haunt"] = Haunt(**raw["haunt"]) if raw.get("haunt") else None
        data["monsters"] = [Monster(**m) for m in raw.get("monsters", [])]
        return cls(**data)


def omens_owed(raw: dict[str, Any]) -> dict[str, Any]:
    """A game state's format step: an omen drawn on another explorer's turn makes its
    haunt roll at the end of the drawer's own turn (seed 003), so each explorer keeps
    the omen it owes a roll for (`owed_omen`, `owed_omen_room`). A game stored before
    marked every omen on the turn it was drawn in (`turn.omen`): that turn still rolls
    for it, and no explorer owes one."""
    for explorer in raw.get("explorers", []):
        explorer["owed_omen"] = ""
        explorer["owed_omen_room"] = ""
    return raw


def haunt_words_kept(raw: dict[str, Any]) -> dict[str, Any]:
    """A game state's format step: the haunt kept the monster moves it had still to tell,
    and why a side won, as English sentences, so a Chinese table read them in English;
    now it keeps their words (`Haunt.moved`, `Haunt.reason_words`), said in each
    language as they are told. A move stored before is told as it was stored
    ({"said": ...}); a reason stored before is read as it was (no `reason_words`)."""
    haunt = raw.get("haunt")
    if haunt:
        haunt["moved"] = [{"said": line} for line in haunt.get("moved", [])]
        haunt["reason_words"] = {}
    return raw


# Every shape the stored state has had (bot/core/formats.py): append, never edit.
STATE_FORMATS = Formats((texts_kept, omens_owed, haunt_words_kept))
