"""What the pictures of a Betrayal game show, as plain data.

The engine builds these views from its state and the renderer draws them, so the two
can change independently and the renderer can never read more than the table sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FLOORS: tuple[str, ...] = ("upper", "ground", "basement")


@dataclass(frozen=True)
class TileView:
    key: str
    name: str
    floor: str  # "upper" | "ground" | "basement"
    x: int  # grid column on its floor (grows to the east)
    y: int  # grid row on its floor (grows to the south)
    doors: tuple[str, ...]  # open sides after rotation: subset of ("N", "E", "S", "W")
    symbol: str = ""  # "omen" | "event" | "item" | ""
    tokens: tuple[str, ...] = ()  # e.g. "secret_passage", "blessing", "vault_empty"
    item_pile: tuple[str, ...] = ()  # names of cards lying in the room
    barrier: bool = False  # a split room (Catacombs, Chasm, Tower, Vault)
    start: bool = False  # a start tile (Entrance Hall, Foyer, Grand Staircase, landings)


@dataclass(frozen=True)
class ExplorerView:
    seat: int
    name: str  # the explorer's name ("Ox Bellows")
    player: str  # the player's name
    colour: str  # "#rrggbb"
    floor: str
    x: int
    y: int
    alive: bool = True
    acting: bool = False  # whose turn it is


@dataclass(frozen=True)
class MapView:
    tiles: tuple[TileView, ...]
    explorers: tuple[ExplorerView, ...]
    header: str  # e.g. "Turn 12 · Ox Bellows (Ann) to play"
    omens: int  # omen cards drawn so far (the haunt roll needs more than this)
    footer: str = ""  # e.g. "The haunt has begun: The Mummy Walks"
    links: tuple[tuple[str, str], ...] = ()  # special links to mark, as pairs of room keys


@dataclass(frozen=True)
class TraitView:
    track: tuple[int, ...]  # the 8 values above the skull, lowest first
    index: int  # where the clip is now (-1 = the skull)
    start: int  # the starting index


@dataclass(frozen=True)
class CardView:
    name: str
    kind: str  # "omen" | "item" | "event"
    text: str


@dataclass(frozen=True)
class SheetView:
    name: str
    player: str
    colour: str
    traits: dict[str, TraitView]  # speed, might, sanity, knowledge
    cards: tuple[CardView, ...] = ()
    room: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
