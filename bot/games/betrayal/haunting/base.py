"""What a haunt is: its data (data/betrayal/haunts/<key>.yaml) and its plugin.

The engine runs everything seed 003 says of every haunt (the split, turn order,
combat, death, monsters, winning when one side meets its goal). A haunt adds only what
its two books add: the setup ("Right Now"), its special actions, what happens at the
start of a round or after the monsters' turn, and when each side has won. Each haunt
is one `HauntPlugin` subclass in `haunting/plugins/<key>.py`, registered with
`@plugin`, next to its data file. Every hook has a neutral default.

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
from typing import TYPE_CHECKING, Any

from bot import yaml_files
from bot.core.events import PUBLIC, Audience, Event
from bot.games.betrayal import content
from bot.games.betrayal.cards import Offer
from bot.games.betrayal.haunting import sides
from bot.paths import DATA
from bot.texts import fill

if TYPE_CHECKING:
    from bot.core.rng import Rng
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.state import BetrayalState, Frame, Monster

HAUNT_DIR = DATA / "betrayal" / "haunts"


def haunt_file(key: str) -> Traversable:
    """A haunt's data file: in data/betrayal/haunts/, else in the `haunts/` folder of
    the edition folder that holds it (content.FOLDERS). Looked up once per key and set
    of folders, so `/secret` does not touch the disk."""
    return _haunt_file(key, HAUNT_DIR, tuple(content.FOLDERS[1:]))


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


@cache
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

    def say(self, ctx: Ctx, key: str, kind: str = "haunt", audience: Audience = PUBLIC,
            data: dict[str, Any] | None = None, **kw: Any) -> None:
        ctx.events.append(Event(self.text(key, **kw), audience, kind, data or {}))

    def offer(self, state: BetrayalState, offer_id: str, **kw: Any) -> Offer:
        """An action button, labelled from `actions` (its id doubles as the label key
        unless `label` is given in kw)."""
        label_key = kw.pop("label", offer_id.split("-")[0])
        return Offer(offer_id, fill(self.data.actions[label_key], **kw), dict(kw))

    # ---- hooks
    def setup(self, ctx: Ctx) -> None:
        """The traitor's "Right Now": place monsters and tokens, change traits. What
        the table would see is said publicly; the books are sent by the engine."""

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        """The haunt's special actions open to this explorer now (its own turn, nothing
        pending). Each offer id is used at most once a turn (the engine keeps count)."""
        return []

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        """Carry out an offer (it was just listed by `offers`): say it publicly, push
        steps (a `roll` whose `then` runs a step registered with effects.step) or
        change the state directly."""

    def attack_traits(self, state: BetrayalState, seat: int) -> set[str]:
        """Traits besides Might this explorer may attack with in this haunt."""
        return set()

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        """Whether this attack is allowed at all (refs as above)."""
        return True

    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        """A monster lost a fight by `amount`. Return True when the plugin dealt with it;
        False lets the engine stun it (or kill it, `on_hit: kill`)."""
        return False

    def monster_trait(self, state: BetrayalState, monster: Monster, trait: str,
                      base: int) -> int:
        """A monster's trait now (servants that grow stronger each round)."""
        return base

    def monster_attack_trait(self, state: BetrayalState, monster: Monster) -> str:
        """The trait a monster attacks with (seed 003: Might unless the haunt says
        otherwise; a banshee's wail strikes the mind)."""
        return "might"

    def board_note(self, state: BetrayalState) -> str:
        """A public line the map's footer and `/game status` add while the haunt runs
        (a number track, who Pennywise hunts): never a secret."""
        return ""

    def progress(self, state: BetrayalState) -> list[str]:
        """The haunt's progress in short public words, for the map's progress row (the
        status text says the same at length): its name, its round (of the last round,
        when it has one), then `counters`. Empty before the first round, and for a
        haunt the chart did not name."""
        found = state.haunt
        if found is None or found.round < 1 or not self.data_known():
            return []
        limit = self.last_round(state)
        line = content.say("views.progress_round_of", round=found.round, last=limit) \
            if limit else content.say("views.progress_round", round=found.round)
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
            return [part for part in self.board_note(state).split(" · ") if part.strip()]
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

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        """Secrets this explorer holds beyond its book (`/secret` shows them): the
        lover the ghost named to the traitor. Only ever this seat's own secrets."""
        return []

    def hide(self, view: BetrayalState, seat: int | None, rng: Rng) -> None:
        """In `view`, a seat's view of the game (knowledge.py; None: the house's), deal
        anew each of this haunt's secrets that the seat was not told, judged by the
        audience the haunt tells it with (`Audience.reaches` over `sides.teams`), from
        what the seat cannot tell apart from it, drawing only from `rng` (the view's).
        A haunt with no secret has nothing to hide."""

    def on_death(self, ctx: Ctx, seat: int) -> None:
        """An explorer has just died (its cards already lie in the room)."""

    def start_round(self, ctx: Ctx) -> None:
        """A haunt round begins (before the first hero's turn; round 1 right after setup)."""

    def end_turn(self, ctx: Ctx, seat: int) -> None:
        """An explorer's haunt turn ends (hero or traitor)."""

    def end_monsters(self, ctx: Ctx) -> None:
        """The monsters' turn is over (the last turn of a round)."""

    def can_enter(self, state: BetrayalState, seat: int, tile: int) -> bool:
        """Whether this explorer may walk into that room now (a haunt's figure that
        bars the way until a roll is made)."""
        return True

    def skips_turn(self, ctx: Ctx, seat: int) -> bool:
        """A hero's haunt turn is about to start: True when it is spent (the haunt says
        why; the turn passes on as if played: the house may still act after it)."""
        return False

    # ---- the house (a cooperative haunt: no seat plays its monsters)
    def house_turn_after(self, state: BetrayalState, seat: int) -> bool:
        """Cooperative haunts: whether the house takes a turn now, right after this
        explorer's turn (dead or alive). Default: after the round's last hero."""
        order = [h for h in sides.heroes(state, alive=False)
                 if h == seat or state.explorers[h].alive]
        return bool(order) and order[-1] == seat

    def house_turn(self, ctx: Ctx, frame: Frame) -> None:
        """Cooperative haunts: the house's turn begins, under `frame` (the steps pushed
        with `ctx.push_child(frame, ...)` run before the turn passes on). Default: its
        monsters roll and move as in seed 003 ("Monsters"), the monster AI playing them
        (haunting/house.py's `_house_monsters`)."""
        ctx.push_child(frame, [{"_house_monsters": {}}])

    def traitor_plays(self, state: BetrayalState) -> bool:
        """Whether the traitor still takes turns (alive by default)."""
        seat = sides.traitor(state)
        return seat is not None and state.explorers[seat].alive

    def winner(self, state: BetrayalState) -> tuple[str, str] | None:
        """("heroes" | "traitor", the reason as players read it) once a side has met
        its goal; None while the game goes on. Checked after every action. When this
        returns None the engine still ends a game with no living hero (the traitor
        wins) or no one left at all."""
        return None

    # ---- the house while the haunt runs (seed 000's Separate Nightmares tears it apart)
    def whole_house(self, state: BetrayalState) -> bool:
        """Whether every placed room is meant to be reached from the start rooms (True in
        seed 003; a haunt that spreads the rooms apart says False)."""
        return True

    def explore_floor(self, state: BetrayalState, room: str, floor: str) -> str | None:
        """The floor a room found from `floor` goes on, whatever floors the tile shows and
        wherever the room itself would go (None: as printed, seed 003). A haunt that puts
        every tile on one floor answers that floor."""
        return None

    def symbol_steps(self, state: BetrayalState, symbol: str,
                     steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """What a discovered room's card symbol runs now (`steps`: the edition's draw).
        A haunt may change what a symbol does (move a track instead of drawing)."""
        return steps

    def discovered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """An explorer has just found and entered this room; what is pushed here runs
        before the room's own effects and its card symbol."""

    def elevator_floors(self, state: BetrayalState, total: int,
                        floors: tuple[str, ...]) -> tuple[str, ...]:
        """The floors the Mystic Elevator may go to on this roll (`floors`: seed 003's
        for that total); none: it stays."""
        return floors

    # ---- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Tiles this explorer's AI should head for (empty: hunt the other side)."""
        return set()

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        """Tiles this monster's AI should head for (empty: the nearest hero)."""
        return set()

    def monster_attacks(self, state: BetrayalState, monster: Monster, seat: int) -> bool:
        """Whether this monster's AI attacks this hero in its room (default: always). A
        haunt says no where the fight would hand the heroes what the monster's side
        knows to fear."""
        return True

    def ai_presses(self, state: BetrayalState, seat: int, target: int | str) -> bool:
        """Whether this explorer's AI makes an attack on `target` even when its dice are
        fewer (a monster that must be stunned to be beaten); default: only at a match."""
        return False

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Which special action the AI takes now, if any (default: the first)."""
        return offers[0] if offers else None

    def ai_pick(self, state: BetrayalState) -> int | None:
        """The AI's answer to the pending choice, when it is one of the haunt's own
        (None: the engine's usual answer)."""
        return None


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


_NEUTRAL = HauntPlugin()
