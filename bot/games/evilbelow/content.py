"""IT: Evil Below content from data/evilbelow/, read once per process.

Everything a player reads and every designed number lives in YAML so that a group
owning the printed components can swap ours out; this module is the only place that
knows the file layout, and it turns names into the indexes the state stores.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import yaml_files
from bot.locales import per_language
from bot.paths import DATA
from bot.texts import TextBook

BALLOON, HAND, HEART = "balloon", "hand", "heart"
TOTEMS_PER_LOCATION = 7  # seed 001: 49 totem cards, 7 locations x 7 totems


def _load(name: str) -> dict[str, Any]:
    return yaml_files.mapping(DATA / "evilbelow" / f"{name}.yaml")


@dataclass(frozen=True)
class Board:
    keys: tuple[str, ...]
    names: tuple[str, ...]
    links: tuple[tuple[int, int], ...]
    bikes: tuple[int, ...]
    circles: int
    letters: tuple[str, ...]
    victims: int
    attack_tokens: int
    influence_length: int
    influence_attacks: tuple[int, ...]  # 1-based spaces
    strength_length: int
    drainpipe: str
    colours: tuple[str, ...] = ()  # location -> "#rrggbb", as the board prints it

    def neighbours(self, where: int) -> list[int]:
        return sorted([b for a, b in self.links if a == where]
                      + [a for a, b in self.links if b == where])


@per_language
def board() -> Board:
    raw = _load("board")
    keys = tuple(str(loc["key"]) for loc in raw["locations"])
    index = {k: i for i, k in enumerate(keys)}
    return Board(
        keys=keys,
        names=tuple(str(loc["name"]) for loc in raw["locations"]),
        links=tuple((index[a], index[b]) for a, b in raw["adjacency"]["links"]),
        bikes=tuple(index[k] for k in raw["bikes"]),
        circles=int(raw["circles"]["per_location"]),
        letters=tuple(str(x) for x in raw["circles"]["letters"]),
        victims=int(raw["victims"]["total"]),
        attack_tokens=int(raw["victims"]["attack_tokens"]),
        influence_length=int(raw["evil_influence"]["length"]),
        influence_attacks=tuple(int(x) for x in raw["evil_influence"]["attack_spaces"]),
        strength_length=int(raw["strength"]["length"]),
        drainpipe=str(raw["drainpipe"]),
        colours=tuple(str(loc.get("colour", "#808080")) for loc in raw["locations"]),
    )


@per_language
def dice_faces() -> tuple[tuple[str, ...], ...]:
    """Die i's six faces; die i belongs to location i."""
    faces = _load("dice")["faces"]
    return tuple(tuple(str(f) for f in faces[key]) for key in board().keys)


@dataclass(frozen=True)
class CharacterInfo:
    key: str
    name: str
    start: int
    ability: str


@per_language
def characters() -> tuple[CharacterInfo, ...]:
    index = {k: i for i, k in enumerate(board().keys)}
    return tuple(CharacterInfo(str(c["key"]), str(c["name"]), index[str(c["start"])],
                               str(c["ability"]))
                 for c in _load("characters")["characters"])


@per_language
def character_keys() -> tuple[str, ...]:
    return tuple(c.key for c in characters())


def character(key: str) -> CharacterInfo:
    return characters()[character_keys().index(key)]


# ---------------------------------------------------------------- totem cards

@per_language
def totem_keys() -> tuple[str, ...]:
    return tuple(str(k) for k in _load("cards")["totems"]["keys"])


@per_language
def totem_names() -> tuple[str, ...]:
    return tuple(str(k) for k in _load("cards")["totems"]["names"])


def totem_marks() -> tuple[str, ...]:
    """The letter each totem shows on the board (a hand's cards are face up)."""
    return tuple(str(k) for k in _load("cards")["totems"]["marks"])


def totem_count() -> int:
    return len(board().keys) * TOTEMS_PER_LOCATION


def card_location(card: int) -> int:
    return card // TOTEMS_PER_LOCATION


def card_totem(card: int) -> int:
    return card % TOTEMS_PER_LOCATION


def card_name(card: int) -> str:
    """A totem card as players read it: 'Rock (The Barrens)'."""
    return evil_below_line("labels.card", totem=totem_names()[card_totem(card)],
                           location=board().names[card_location(card)])


@per_language
def specials() -> dict[int, str]:
    """Special totem card id -> the character whose presence moves the Strength token."""
    raw = _load("cards")["specials"]["cards"]
    locs = {k: i for i, k in enumerate(board().keys)}
    tots = {k: i for i, k in enumerate(totem_keys())}
    return {locs[loc] * TOTEMS_PER_LOCATION + tots[tot]: str(who)
            for who, (loc, tot) in raw.items()}


def special_reward() -> int:
    return int(_load("cards")["specials"]["reward"])


# ---------------------------------------------------------------- attack cards

@dataclass(frozen=True)
class AttackCard:
    key: str
    lines: tuple[tuple[tuple[str, int], ...], ...]  # [0/A, B, C] -> ordered effects


@per_language
def attacks() -> tuple[AttackCard, ...]:
    return tuple(AttackCard(str(a["key"]),
                            tuple(tuple((str(k), int(v)) for k, v in line.items())
                                  for line in a["lines"]))
                 for a in _load("cards")["attacks"])


def attack_ids() -> list[int]:
    """Attack cards are numbered after the 49 totems, so one Fight Stack holds both."""
    return [totem_count() + i for i in range(len(attacks()))]


def is_attack(card: int) -> bool:
    return card >= totem_count()


def attack_card(card: int) -> AttackCard:
    return attacks()[card - totem_count()]


# ---------------------------------------------------------------- weaknesses

@dataclass(frozen=True)
class Weakness:
    key: str
    reward: int
    condition: tuple[tuple[str, Any], ...]
    bravery: int = 0


@per_language
def weaknesses() -> tuple[Weakness, ...]:
    found = []
    for w in _load("cards")["weaknesses"]:
        cond = dict(w["condition"])
        if "among" in cond:
            tots = {k: i for i, k in enumerate(totem_keys())}
            cond["among"] = tuple(tots[t] for t in cond["among"])
        found.append(Weakness(str(w["key"]), int(w["reward"]), tuple(cond.items()),
                              int(w.get("bravery", 0))))
    return tuple(found)


def weakness_keys() -> tuple[str, ...]:
    return tuple(w.key for w in weaknesses())


@per_language
def weakness(key: str) -> Weakness:
    """Kept by key: the AI weighs every face-up weakness against thousands of imagined
    draws a turn."""
    return weaknesses()[weakness_keys().index(key)]


def rules_topics() -> dict[str, str]:
    return yaml_files.topics(DATA / "evilbelow" / "rules.yaml")


def rules_titles() -> dict[str, str]:
    return yaml_files.titles(DATA / "evilbelow" / "rules.yaml")


_TEXTS = TextBook(DATA / "evilbelow" / "texts.yaml")


def command_words() -> dict[str, str]:
    """The words of the game's own commands (texts.yaml's `commands`), in the language
    spoken (Game.command_words)."""
    return _TEXTS.lines("commands")


def evil_below_line(key: str, **kw: Any) -> str:
    """A player-facing line: the template for `key` filled with `kw`."""
    return _TEXTS.say(key, **kw)
