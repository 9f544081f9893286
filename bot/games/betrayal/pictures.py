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
    # The haunt's own tokens lying here, as (glyph, name): kept apart from `tokens` so the
    # map can draw them as the haunt's (small squares with a letter) and name them.
    haunt_tokens: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ExplorerView:
    seat: int
    name: str  # the explorer's name ("Ox Bellows")
    player: str  # the player's name
    colour: str  # "#rrggbb"
    floor: str
    x: int
    y: int
    alive: bool = True  # False: died in the haunt; still drawn where it fell, as dead
    acting: bool = False  # whose turn it is
    traitor: bool = False  # the traitor is known to the whole table in Betrayal


@dataclass(frozen=True)
class MonsterView:
    """A living monster in a room. Dead monsters leave the board, so they have no view."""

    id: int
    name: str  # the kind's name ("Zombie"), shared by every monster of that kind
    glyph: str  # one letter drawn on the token
    floor: str
    x: int
    y: int
    stunned: bool = False  # knocked down: it recovers at the start of the monsters' turn
    large: bool = False  # a big monster gets a bigger token


@dataclass(frozen=True)
class TrackView:
    """The footer's track of cards, as the edition counts it."""

    label: str  # "Omens"
    filled: int  # marks filled in
    marks: int  # marks drawn (the cards of the deck: 13 omens)
    note: str = ""  # said after the marks ("3 drawn")
    widest: str = ""  # the widest note the track can show: the map keeps room for it


def omen_track(drawn: int) -> TrackView:
    """The classic game's track (13 omen cards), for sample maps and tests."""
    return TrackView("Omens", drawn, 13, f"{drawn} drawn", "13 drawn")


@dataclass(frozen=True)
class MapView:
    tiles: tuple[TileView, ...]
    explorers: tuple[ExplorerView, ...]
    header: str  # e.g. "Turn 12 · Ox Bellows (Ann) to play"
    track: TrackView  # the footer's card track (the edition's: omens drawn, encounters)
    footer: str = ""  # e.g. "The haunt has begun: The Mummy Walks"
    # What the map's footer row draws instead of `footer`, when the progress row already
    # shows the haunt's board note that `footer` begins with ("": `footer` itself).
    footer_shown: str = ""
    # Special links to mark, as pairs of room keys, in the order they first appeared in
    # the game (the map letters them in this order: see renderers.betrayal.tiles).
    links: tuple[tuple[str, str], ...] = ()
    # Each link's place in that order, for ever (a link gone keeps its place): its letter
    # is drawn from it. Empty: the links' own order.
    link_order: tuple[int, ...] = ()
    monsters: tuple[MonsterView, ...] = ()  # living monsters, by id
    # What this turn changed: the rooms the explorer to play walked through (in order,
    # where it stood first), the room it placed ("" none) and its seat (None: no move).
    walked: tuple[str, ...] = ()
    placed: str = ""
    mover: int | None = None
    # The haunt's progress in short words (its name, the round, its counters), public.
    progress: tuple[str, ...] = ()
    # Letters the link letters must never be: every initial an explorer or a token of
    # this game's haunts may show (fixed for the game, so the link letters are too).
    reserved: tuple[str, ...] = ()


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
    alive: bool = True  # a dead explorer's sheet says so
    traitor: bool = False  # marked on the sheet: the traitor is public on the table
