"""Betrayal content from data/betrayal/ and each edition's folders, read once per process.

The engine only ever sees these frozen records, never the YAML, so the content files
can grow (new fields, new cards) without touching the rules. Every sentence a player
reads comes from texts.yaml through `say`, so it stays in our own words.

An edition (editions.py) may bring a folder of its own, laid out like data/betrayal/
(rooms, card files, haunts), with decks of its own (`add_folder`). Every record is
tagged with the edition whose folder holds it ("" for data/betrayal/, which every
edition plays with), and the content the engine looks cards and rooms up in is the
union of all folders: keys are unique across editions, so a restored game finds its
cards whatever edition it plays. Which cards and rooms go into a game's decks and
stack is the edition's choice (`deck`, `discoverable` with its key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Any, TypeVar

from bot import yaml_files
from bot.locales import per_language
from bot.paths import DATA
from bot.texts import TextBook

TRAITS: tuple[str, ...] = ("speed", "might", "sanity", "knowledge")
PHYSICAL: tuple[str, ...] = ("might", "speed")
MENTAL: tuple[str, ...] = ("sanity", "knowledge")
DAMAGE_KINDS: tuple[str, ...] = ("physical", "mental", "general")
FLOORS: tuple[str, ...] = ("upper", "ground", "basement")
DECKS: tuple[str, ...] = ("omen", "item", "event")
CARD_FILES: dict[str, str] = {"omen": "omens", "item": "items", "event": "events"}


@dataclass(frozen=True)
class Track:
    values: tuple[int, ...]  # the 8 values above the skull, lowest first
    start: int  # index of the starting value


@dataclass(frozen=True)
class ExplorerInfo:
    key: str
    name: str
    colour: str  # the character card: two explorers of one colour never play together
    hex: str
    birthday: str  # "MM-DD"
    traits: dict[str, Track]


@dataclass(frozen=True)
class RoomInfo:
    key: str
    name: str
    floors: tuple[str, ...]
    doors: tuple[str, ...]  # as printed, N = top before rotation
    symbol: str  # "omen" | "event" | "item" | "" (none)
    start: bool = False
    barrier: bool = False
    text: str = ""
    on_leave: tuple[dict[str, Any], ...] = ()
    on_enter: tuple[dict[str, Any], ...] = ()
    on_discover: tuple[dict[str, Any], ...] = ()
    on_end_turn: tuple[dict[str, Any], ...] = ()
    once_per_explorer: bool = False
    custom: str = ""
    edition: str = ""  # the edition whose folder holds the room ("" = data/betrayal/)


@dataclass(frozen=True)
class CardInfo:
    key: str
    name: str
    deck: str  # "omen" | "item" | "event"
    text: str = ""
    keep: bool = True
    companion: bool = False
    weapon: bool = False
    haunt_only: bool = False
    on_gain: tuple[dict[str, Any], ...] = ()
    on_lose: tuple[dict[str, Any], ...] = ()
    on_draw: tuple[dict[str, Any], ...] = ()
    use: tuple[dict[str, Any], ...] = ()
    modifiers: tuple[dict[str, Any], ...] = ()
    lasting: bool = False
    custom: str = ""
    designed: bool = False
    edition: str = ""  # the edition whose folder holds the card ("" = data/betrayal/)
    own_tradeable: bool = True  # the card's `tradeable:` (false: the Blood Dagger)
    # An event's `does_damage:` (seed 003: the traitor is not affected by a card that
    # does no damage). Missing means it may: a card spares the traitor only if it says so.
    does_damage: bool = True
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def tradeable(self) -> bool:
        """Whether the card may be handed over or dropped (traded, dropped, carried off
        by the Dog, given up to the Shrieking Wind): companions never are (seed 003),
        and a card may say so itself (`tradeable: false`, the Blood Dagger)."""
        return self.keep and not self.companion and self.own_tradeable


@dataclass(frozen=True)
class Content:
    explorers: dict[str, ExplorerInfo]
    rooms: dict[str, RoomInfo]
    cards: dict[str, CardInfo]

    def deck(self, deck: str, edition: str | None = None) -> list[str]:
        """Card keys of one deck in file order (the engine shuffles them): of every
        folder, or of data/betrayal/ and `edition`'s own."""
        return [c.key for c in self.cards.values()
                if c.deck == deck and _of(c.edition, edition)]

    def discoverable(self, edition: str | None = None) -> list[str]:
        """The room tiles that go into the stack (everything but the start tiles), of
        every folder or of data/betrayal/ and `edition`'s own."""
        return [r.key for r in self.rooms.values() if not r.start and _of(r.edition, edition)]


def _of(owner: str, edition: str | None) -> bool:
    return edition is None or owner in ("", edition)


def _steps(raw: Any) -> tuple[dict[str, Any], ...]:
    return tuple(dict(s) for s in raw or ())


def _read(folder: Traversable, name: str, required: bool = True) -> dict[str, Any]:
    path = folder / f"{name}.yaml"
    if not path.is_file() and not required:
        return {}
    raw = yaml_files.read(path) or {}
    if not isinstance(raw, dict):
        raise ValueError(f"{path} must hold a mapping")
    return raw


def load_content(folder: Traversable, edition: str = "",
                 decks: dict[str, str] | None = None) -> Content:
    """Read every content file of a folder laid out like data/betrayal/, its records
    tagged with `edition`; `decks` names card files beyond the three decks (deck ->
    file name). An edition's folder may leave out the explorers."""
    explorers = {}
    for e in _read(folder, "explorers", required=not edition).get("explorers", []):
        traits = {t: Track(tuple(int(v) for v in e["traits"][t]["track"]),
                           int(e["traits"][t]["start"])) for t in TRAITS}
        explorers[e["key"]] = ExplorerInfo(e["key"], e["name"], e["colour"], e["hex"],
                                           str(e["birthday"]), traits)
    rooms = {}
    for r in _read(folder, "rooms", required=not edition).get("rooms", []) or []:
        symbol = str(r.get("symbol") or "none")
        rooms[r["key"]] = RoomInfo(
            r["key"], r["name"], tuple(r["floors"]), tuple(r["doors"]),
            "" if symbol == "none" else symbol, bool(r.get("start", False)),
            bool(r.get("barrier", False)), str(r.get("text", "")),
            _steps(r.get("on_leave")), _steps(r.get("on_enter")),
            _steps(r.get("on_discover")), _steps(r.get("on_end_turn")),
            bool(r.get("once_per_explorer", False)), str(r.get("custom") or ""), edition)
    cards = {}
    for deck, filename in {**CARD_FILES, **(decks or {})}.items():
        for c in _read(folder, filename, required=False).get(filename, []) or []:
            cards[c["key"]] = CardInfo(
                c["key"], c["name"], deck, str(c.get("text", "")),
                bool(c.get("keep", deck != "event")), bool(c.get("companion", False)),
                bool(c.get("weapon", False)), bool(c.get("haunt_only", False)),
                _steps(c.get("on_gain")), _steps(c.get("on_lose")), _steps(c.get("on_draw")),
                _steps(c.get("use")), _steps(c.get("modifiers")), bool(c.get("lasting", False)),
                str(c.get("custom") or ""), bool(c.get("designed", False)), edition,
                bool(c.get("tradeable", True)), bool(c.get("does_damage", True)), dict(c))
    return Content(explorers, rooms, cards)


@dataclass(frozen=True)
class Folder:
    """A folder of content and the edition it belongs to ("" for every edition)."""

    edition: str
    path: Traversable
    decks: tuple[tuple[str, str], ...] = ()  # extra decks: (deck, card file name)


FOLDERS: list[Folder] = [Folder("", DATA / "betrayal")]


def add_folder(edition: str, path: Traversable, decks: dict[str, str] | None = None) -> None:
    """An edition's own content folder joins the content (called as the edition
    registers; registering twice changes nothing)."""
    folder = Folder(edition, path, tuple((decks or {}).items()))
    if folder not in FOLDERS:
        FOLDERS.append(folder)
        _default.cache_clear()


Info = TypeVar("Info")


def _add(mine: dict[str, Info], theirs: dict[str, Info]) -> None:
    twice = set(mine) & set(theirs)
    if twice:
        raise ValueError(f"content keys defined twice: {sorted(twice)}")
    mine.update(theirs)


def merge(parts: list[Content]) -> Content:
    """Several folders' content as one; a key met twice is a content error."""
    explorers: dict[str, ExplorerInfo] = {}
    rooms: dict[str, RoomInfo] = {}
    cards: dict[str, CardInfo] = {}
    for part in parts:
        _add(explorers, part.explorers)
        _add(rooms, part.rooms)
        _add(cards, part.cards)
    return Content(explorers, rooms, cards)


@per_language
def _default() -> Content:
    return merge([load_content(f.path, f.edition, dict(f.decks)) for f in FOLDERS])


_override: list[Content] = []


def get() -> Content:
    """The content the engine plays with: data/betrayal/, unless a test installed its own."""
    return _override[-1] if _override else _default()


# What the shipped content is, whatever its words' language: each language has a
# Content of its own (`_default`), but their rooms' doors, kinds and numbers are the same.
SHIPPED = object()


def source() -> object:
    """Which content the engine plays with, as a cache of what depends on its facts
    alone (the house's door map) keys it: the same object in every language for the
    shipped content (`SHIPPED`), the installed content itself for a test's."""
    return _override[-1] if _override else SHIPPED


class installed:
    """`with installed(content):` plays with other content (tests build small houses)."""

    def __init__(self, content: Content) -> None:
        self.content = content

    def __enter__(self) -> Content:
        _override.append(self.content)
        return self.content

    def __exit__(self, *exc: object) -> None:
        _override.pop()


def room(key: str) -> RoomInfo:
    return get().rooms[key]


def card(key: str) -> CardInfo:
    return get().cards[key]


def explorer(key: str) -> ExplorerInfo:
    return get().explorers[key]


_TEXTS = TextBook(DATA / "betrayal" / "texts.yaml")


def command_words() -> dict[str, str]:
    """The words of the game's own commands (texts.yaml's `commands`), in the language
    spoken (Game.command_words)."""
    return _TEXTS.lines("commands")


def _template(key: str) -> str:
    """One template from texts.yaml by dotted key ("errors.not_your_turn"). A key the
    file lacks is a KeyError: there is no other source of player-facing lines."""
    return _TEXTS.text(key)


def betrayal_line(key: str, **kw: Any) -> str:
    """A player-facing line: the template for `key` filled with `kw`."""
    return _TEXTS.say(key, **kw)


# The marks a card's name may end in ("Whoops!", "What the...?", 哎唷！).
OWN_MARKS = ".!?…。！？"


def stop_after(name: str) -> str:
    """What ends a sentence that ends in `name`: the language's stop (events.stop), or
    nothing after a name that brings its own mark, which read "What the...?." before."""
    return "" if name.rstrip().endswith(tuple(OWN_MARKS)) else betrayal_line("events.stop")


def trait_name(trait: str) -> str:
    """A trait's name as a line says it ("Speed"; 速度 in Chinese): the code names traits
    by their keys, and a line must not carry the key's English into another language."""
    return betrayal_line(f"trait_names.{trait}") if trait in TRAITS else trait.capitalize()


def damage_name(kind: str) -> str:
    """A kind of damage as a line says it ("physical"; 肉體 in Chinese), as `trait_name`."""
    return betrayal_line(f"damage_kinds.{kind}") if kind in DAMAGE_KINDS else kind


def token_name(kind: str) -> str:
    """A token's name as a line says it ("secret passage"; 隱藏甬道 in Chinese), from its
    key (data: token_names); a token not listed is named from its key."""
    try:
        return betrayal_line(f"token_names.{kind}")
    except KeyError:
        return kind.replace("_", " ")


def rules_topics() -> dict[str, str]:
    return yaml_files.topics(DATA / "betrayal" / "rules.yaml")


def rules_titles() -> dict[str, str]:
    return yaml_files.titles(DATA / "betrayal" / "rules.yaml")
