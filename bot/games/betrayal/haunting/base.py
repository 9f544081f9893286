"""What a haunt is: its data (data/betrayal/haunts/<key>.yaml) and its plugin.

The engine runs everything seed 003 says of every haunt (the split, turn order,
combat, death, monsters, winning when one side meets its goal). A haunt adds only what
its two books add: the setup ("Right Now"), its special actions, what happens at the
start of a round or after the monsters' turn, and when each side has won. Each haunt
is one `HauntPlugin` subclass in `haunting/plugins/<key>.py`, registered with
`@register`, next to its data file. HauntPlugin holds what every haunt has (its data, its
setup, its winner); the hooks a haunt may add come in small parts (parts.py), each with a
neutral default, and a plugin names the parts it fills in.

The data file (schema in data/betrayal/README.md, "Haunts"):

    key, name            as in data/betrayal/haunts.yaml
    designed, note       what is ours where seed 003 only outlines the haunt
    monsters:            kind -> {name, traits: {speed, might, sanity, knowledge}
                         (a missing trait cannot be attacked with), on_hit: stun|kill,
                         glyph: one letter for the map, large: bool,
                         incorporeal: bool (the Dynamite passes through it; read
                         from `raw` by cards/haunt_cards.py)}
    tokens:              kind -> {name, glyph}
    values:              name -> {3: n, 4: n, 5: n, 6: n}  (numbers by player count)
    books:               traitor / heroes -> {story, know, win, rules: [..], ending}
    texts:               the haunt's own lines, `bot.texts.fill` templates
    actions:             offer id -> button label (a template)
    last_round:          {rounds: a name in values, winner: heroes|traitor, reason,
                         said, warn: keys of texts, designed: bool}: when that round
                         is over and no side has won, `winner` wins (flow.out_of_time)
    progress:            the map's progress row: public counters as format labels
                         (`HauntPlugin.counters`)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, TypeVar

from bot import yaml_files
from bot.core.events import PUBLIC, Audience, Event
from bot.games.betrayal import content
from bot.games.betrayal.cards import Offer
from bot.games.betrayal.haunting.parts import BoardHooks
from bot.games.betrayal.haunting.words import haunt_line
from bot.locales import per_language
from bot.paths import DATA
from bot.texts import fill

if TYPE_CHECKING:
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.state import BetrayalState

HAUNT_DIR = DATA / "betrayal" / "haunts"


def haunt_file(key: str) -> Traversable:
    """A haunt's data file: in data/betrayal/haunts/, else in the `haunts/` folder of
    the edition folder that holds it (content.FOLDERS). Looked up once per key and set
    of folders, so `/secret` does not touch the disk."""
    # mypy takes a Traversable (a Protocol) for unhashable; every real one hashes.
    return _haunt_file(key, HAUNT_DIR, tuple(content.FOLDERS[1:]))  # type: ignore[arg-type]


@cache
def _haunt_file(key: str, first: Traversable, folders: tuple[content.Folder, ...]) -> Traversable:
    for folder in (first, *(f.path / "haunts" for f in folders)):
        if (folder / f"{key}.yaml").is_file():
            return folder / f"{key}.yaml"
    return first / f"{key}.yaml"
BOOK_PARTS: tuple[str, ...] = ("story", "know", "win", "rules", "ending")


@dataclass(frozen=True)
class MonsterKind:
    key: str
    name: str
    traits: dict[str, int]  # a trait the monster lacks cannot be used to attack it
    on_hit: str = "stun"  # "stun" (seed 003) | "kill" (the haunt says a hit kills it)
    glyph: str = "M"
    large: bool = False


@dataclass(frozen=True)
class LastRound:
    """The haunt's last round. Every haunt has one, so that every game ends: seed 003
    gives A Little Night Murder's dawn; where it is silent the limit is designed, set
    past the rounds AI games reach. Names refer to the haunt's `values` and `texts`."""

    rounds: str  # the value that holds the last round's number, by player count
    winner: str  # "heroes" | "traitor": who wins when that round is over
    reason: str  # the text that says why, as the winner line reads
    said: str = ""  # the text read out when the time is up
    warn: str = ""  # the text read out as the last round begins
    designed: bool = True


@dataclass(frozen=True)
class HauntData:
    key: str
    name: str
    designed: bool
    monsters: dict[str, MonsterKind]
    tokens: dict[str, dict[str, str]]
    values: dict[str, dict[int, int]]
    books: dict[str, dict[str, Any]]
    texts: dict[str, str]
    actions: dict[str, str]
    raw: dict[str, Any] = field(default_factory=dict, compare=False)
    last_round: LastRound | None = None


@per_language
def load_data(key: str) -> HauntData:
    raw = yaml_files.read(haunt_file(key)) or {}
    monsters = {k: MonsterKind(k, str(m["name"]), {t: int(v) for t, v in m["traits"].items()},
                               str(m.get("on_hit", "stun")), str(m.get("glyph", "M")),
                               bool(m.get("large", False)))
                for k, m in (raw.get("monsters") or {}).items()}
    values = {name: {int(n): int(v) for n, v in by.items()}
              for name, by in (raw.get("values") or {}).items()}
    last = raw.get("last_round")
    return HauntData(str(raw["key"]), str(raw["name"]), bool(raw.get("designed", False)),
                     monsters, dict(raw.get("tokens") or {}), values,
                     dict(raw.get("books") or {}), {k: str(v) for k, v in
                                                   (raw.get("texts") or {}).items()},
                     {k: str(v) for k, v in (raw.get("actions") or {}).items()}, raw,
                     LastRound(**last) if last else None)


def has_data(key: str) -> bool:
    return haunt_file(key).is_file()


class HauntPlugin:
    """A haunt's own rules. Fighters are named by refs: "3" is seat 3, "m2" monster 2."""

    key = ""
    # A haunt with no traitor (seed 000's scenarios 4 and 5): every explorer is a hero
    # and the house itself is the other side: its monsters take turns of their own,
    # played by the engine (`house_turn_after`, `house_turn`), never by a seat. It
    # wins under the evil side's id (sides.EVIL), told as the house's win.
    cooperative = False

    @property
    def data(self) -> HauntData:
        return load_data(self.key)

    # ---- helpers for subclasses
    def value(self, state: BetrayalState, name: str) -> int:
        """A number of the haunt's `values` for this many players (3 to 6)."""
        by = self.data.values[name]
        return by[max(min(len(state.players), max(by)), min(by))]

    def numbers(self, state: BetrayalState) -> dict[str, int]:
        """Every one of the haunt's `values` for this many players, by name."""
        return {name: self.value(state, name) for name in self.data.values}

    def last_round(self, state: BetrayalState) -> int | None:
        """The number of the haunt's last round (None: the haunt has no limit)."""
        limit = self.data.last_round
        return None if limit is None else self.value(state, limit.rounds)

    def text(self, key: str, **kw: Any) -> str:
        return fill(self.data.texts[key], **kw)

    def reason(self, key: str, names: dict[str, tuple[str, str]] | None = None,
               **kw: Any) -> Reason:
        """A line of the haunt's texts saying why a side won (`winner`), its words kept
        to say it again in any language: `kw` are plain values (counts), `names` what is
        named in the language spoken, as (what, key): ("monster", a kind of this
        haunt's) or ("room", a room's key)."""
        return said_reason({"haunt": self.key, "key": key, "values": dict(kw),
                            "names": {slot: list(ref) for slot, ref in (names or {}).items()}})

    def say(self, ctx: Ctx, key: str, kind: str = "haunt", audience: Audience = PUBLIC,
            data: dict[str, Any] | None = None, **kw: Any) -> None:
        ctx.events.append(Event(self.text(key, **kw), audience, kind, data or {}))

    def offer(self, state: BetrayalState, offer_id: str, **kw: Any) -> Offer:
        """An action button, labelled from `actions` (its id doubles as the label key
        unless `label` is given in kw)."""
        label_key = kw.pop("label", offer_id.split("-")[0])
        return Offer(offer_id, fill(self.data.actions[label_key], **kw), dict(kw))

    # ---- what every haunt has (its other hooks are in the parts it names: parts.py)
    def setup(self, ctx: Ctx) -> None:
        """The traitor's "Right Now": place monsters and tokens, change traits. What
        the table would see is said publicly; the books are sent by the engine."""

    def progress(self, state: BetrayalState) -> list[str]:
        """The haunt's progress in short public words, for the map's progress row (the
        status text says the same at length): its name, its round (of the last round,
        when it has one), then `counters`. Empty before the first round, and for a
        haunt the chart did not name."""
        found = state.haunt
        if found is None or found.round < 1 or not self.data_known():
            return []
        limit = self.last_round(state)
        line = content.betrayal_line("views.progress_round_of", round=found.round, last=limit) \
            if limit else content.betrayal_line("views.progress_round", round=found.round)
        return [self.data.name, line, *self.counters(state)]

    def counters(self, state: BetrayalState) -> list[str]:
        """The haunt's public counters ("rite 2/6", "rats left 3"): by default the data
        file's `progress` labels, each a `str.format` template over `p` (the haunt's
        progress notes, a list counted by its length), `v` (its values for this many
        players) and `m` (living monsters by kind). A label with `when: <note>` shows
        only while that note is set; one that cannot be filled in is left out. Only
        what a label names is shown, so secret notes (the ghost's lover) never are. A
        count not kept yet reads 0 (no rite roll made: "rite 0/6"); `m[all]` counts every
        living monster. A haunt with no labels shows its `board_note` (public by its
        contract), cut at its " · "."""
        if state.haunt is None or not self.data_known():
            return []
        if not self.data.raw.get("progress"):  # no labels: the board note, part by part
            note = self.board_note(state) if isinstance(self, BoardHooks) else ""
            return [part for part in note.split(" · ") if part.strip()]
        notes = _Counts({k: len(v) if isinstance(v, list) else v
                         for k, v in state.haunt.progress.items()})
        living = _Counts(dict.fromkeys(self.data.monsters, 0))
        for m in state.monsters:
            if m.alive:
                living[m.kind] += 1
                living["all"] += 1
        lines = []
        for label in self.data.raw.get("progress") or []:
            text, when = (label, "") if isinstance(label, str) else \
                (str(label["text"]), str(label.get("when") or ""))
            if when and not notes.get(when):
                continue
            try:
                lines.append(text.format(p=notes, v=self.numbers(state), m=living))
            except (KeyError, IndexError, ValueError):
                continue
        return lines

    def data_known(self) -> bool:
        """Whether this haunt has a data file (the neutral haunt has none)."""
        return bool(self.key) and has_data(self.key)

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        """("heroes" | "traitor", why) once a side has met its goal; None while the
        game goes on. Checked after every action. Why is a `Reason` (`self.reason`, a
        line of the haunt's texts, or `common_reason`), never a plain line: its words
        are kept so that every reader is told it in their own language later. When
        this returns None the engine still ends a game with no living hero (the
        traitor wins) or no one left at all."""
        return None



class Reason(str):
    """Why a side won, as said in the language spoken (the str itself: what `winner`
    returns and the game_over line quotes), with the words that say it again in any
    language (`words`: kept in the state as Haunt.reason_words). The state is saved in
    English, the engine's truth, and read back later in each reader's language
    (/game status, the story)."""

    words: dict[str, Any]

    def __new__(cls, text: str, words: dict[str, Any]) -> Reason:
        made = super().__new__(cls, text)
        made.words = words
        return made

    # str's stub promises (str,): a Reason's `__new__` takes its words too.
    def __getnewargs__(self) -> tuple[str, dict[str, Any]]:  # type: ignore[override]
        """What `__new__` is given again when a state holding a reason is copied
        (copy.deepcopy) or pickled: str's own arguments lack the words."""
        return str(self), self.words


def said_reason(words: dict[str, Any]) -> Reason:
    """A reason's kept words (`Reason.words`) said in the language spoken: a line of
    its haunt's texts, or of haunt_texts.yaml for a haunt of none ("haunt": "")."""
    haunt = str(words.get("haunt", ""))
    values = dict(words.get("values", {}))
    for slot, (what, key) in words.get("names", {}).items():
        values[slot] = _named(haunt, what, key)
    text = PLUGINS[haunt].text(words["key"], **values) if haunt in PLUGINS \
        else haunt_line(words["key"], **values)
    return Reason(text, words)


def _named(haunt: str, what: str, key: str) -> str:
    """A thing a reason names, in the language spoken: a monster kind of the haunt's,
    or a room."""
    if what == "monster":
        kind = load_data(haunt).monsters.get(key)
        return kind.name if kind is not None else key
    return content.room(key).name if key else ""


def reason_text(state: BetrayalState) -> str:
    """Why the game's winner won, in the language spoken; as the state keeps it (in
    English) for a game decided before the reason's words were kept."""
    haunt = state.haunt
    if haunt is None or not haunt.reason_words:
        return haunt.reason if haunt is not None else ""
    return str(said_reason(haunt.reason_words))


def common_reason(key: str, **kw: Any) -> Reason:
    """A reason every haunt may end with (haunt_texts.yaml's `reasons`)."""
    return said_reason({"haunt": "", "key": key, "values": dict(kw), "names": {}})


class _Counts(dict[str, Any]):
    """Notes read by the progress labels: a count not kept yet is 0."""

    def __missing__(self, key: str) -> int:
        return 0


PLUGINS: dict[str, HauntPlugin] = {}


def plugin(cls: type[HauntPlugin]) -> type[HauntPlugin]:
    """Register a haunt's plugin class under its key."""
    PLUGINS[cls.key] = cls()
    return cls


def register(key: str) -> Callable[[type[HauntPlugin]], type[HauntPlugin]]:
    def deco(cls: type[HauntPlugin]) -> type[HauntPlugin]:
        cls.key = key
        return plugin(cls)
    return deco


def for_state(state: BetrayalState) -> HauntPlugin:
    """The running haunt's plugin (a neutral one when the chart named no haunt)."""
    key = state.haunt.key if state.haunt else ""
    return PLUGINS.get(key) or _NEUTRAL


Part = TypeVar("Part")


def hooks(state: BetrayalState, part: type[Part]) -> Part:
    """The running haunt's hooks of one part (parts.py): the plugin itself when it named
    that part, else the part's neutral default, so the engine never asks a haunt for
    what its books do not change."""
    plugin = for_state(state)
    # mypy takes a class for unhashable (it reads object.__hash__ as unbound); it hashes.
    return plugin if isinstance(plugin, part) else _neutral(part)  # type: ignore[arg-type]


@cache
def _neutral(part: type[Part]) -> Part:
    return part()


_NEUTRAL = HauntPlugin()
