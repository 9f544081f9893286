"""What a language still lacks: every English string players read that its mirror does
not say (`python -m bot.locales missing`; tests/test_locales.py keeps the list empty for
every data file but those its UNTRANSLATED_YET names, and the slash commands).

Which strings are words, not structure, is judged as the mirror rules say: names, texts,
labels, titles, topics, templates, prompts, story lines and books are words; keys, ids,
steps, numbers, symbols, colours and `custom:` names are not. A string is taken for a
word unless its field is a structural one (`STRUCTURAL`), it sits in a step of the
rules (`STEP_WORDS` excepted), or it reads like an identifier or a colour."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.resources.abc import Traversable
from typing import Any

from bot import locales, yaml_files
from bot.paths import DATA

# Fields whose values are never words: names of things in the code, not for players.
STRUCTURAL = frozenset({
    "key", "keys", "id", "custom", "colour", "color", "hex", "symbol", "glyph", "step",
    "kind", "deck", "edition", "note", "designed", "scenario", "on_hit", "trait", "traits",
    "floors", "doors", "start", "marks", "letters", "links", "adjacency", "bikes",
    "drainpipe", "faces", "rooms_key", "traitor", "chart", "names", "room", "rooms_of",
    "monster", "side", "sides", "token", "tokens_of", "target", "stat", "who", "if",
    "unless", "then", "else", "when", "layout", "place", "to", "from", "at", "where",
    "source", "facts",  # where a fact comes from: the developers' citations
})
# In a step of the rules (a mapping with `step:`), only these fields are words.
STEP_WORDS = frozenset({"text", "say", "label", "prompt", "line", "name", "title"})
IDENTIFIER = re.compile(r"^[a-z0-9_.:+\-/|{}]*$|^#[0-9a-fA-F]{3,8}$|^[A-Z0-9_]+$")


PLACEHOLDER = re.compile(r"\{[^{}]*\}")
MARKUP = re.compile(r"<[^<>]*>")  # Discord's mentions and times: <@{user}>, <t:{ts}:R>


def is_word(text: str) -> bool:
    """A string a player reads, as opposed to a key, a colour or a code; a template of
    placeholders and marks alone ("{player} {points}", " [AI]") has no words either."""
    bare = text.strip()
    if not bare or IDENTIFIER.match(bare):
        return False
    letters = MARKUP.sub("", PLACEHOLDER.sub("", bare))
    return any(c.islower() or (c.isalpha() and not c.isascii()) for c in letters)


def word_paths(english: Any, mirror: Any, where: str) -> Iterator[str]:
    """The places of English words the mirror does not say (by the mirror rules: a
    mapping by its keys, a list of mappings by each item's key, a list of strings by
    place)."""
    if isinstance(english, dict):
        in_step = "step" in english
        for key, value in english.items():
            name = str(key)
            if name in STRUCTURAL or name.endswith("_note") or (
                    in_step and name not in STEP_WORDS):
                continue
            other = mirror.get(key) if isinstance(mirror, dict) else None
            yield from word_paths(value, other, f"{where}.{name}")
    elif isinstance(english, list):
        by_place = isinstance(mirror, list) and len(mirror) == len(english)
        for n, value in enumerate(english):
            if by_place:
                label, other = str(n), mirror[n]
            elif isinstance(value, dict):
                label = locales.item_key(value)
                other = mirror.get(label) if isinstance(mirror, dict) else None
            else:
                label, other = str(n), None
            yield from word_paths(value, other, f"{where}[{label}]")
    elif isinstance(english, str) and is_word(english) and not isinstance(mirror, str):
        yield where


def english_files(root: Traversable = DATA) -> list[Traversable]:
    """Every English data file (a mirror is not one), in a stable order."""
    found: list[Traversable] = []

    def walk(folder: Traversable) -> None:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                walk(entry)
            elif entry.name.endswith(".yaml") and not any(
                    entry.name.endswith(suffix) for suffix in locales.SUFFIX.values()):
                found.append(entry)

    walk(root)
    return found


def has_mirror(path: Traversable, language: str) -> bool:
    found = yaml_files.mirror_path(path, language)
    return found is not None and found.is_file()


def missing(path: Traversable, language: str) -> list[str]:
    """`path`'s English words that its mirror in `language` does not say."""
    return list(word_paths(yaml_files.read_english(path), yaml_files.mirror(path, language),
                           _name(path)))


def _name(path: Traversable) -> str:
    text = str(path)
    root = str(DATA)
    return text[len(root) + 1:] if text.startswith(root) else getattr(path, "name", text)


def report(language: str, *, only_mirrored: bool = False) -> list[str]:
    """Every English word with no version in `language`, file by file (`only_mirrored`:
    only in the files that have a mirror yet)."""
    lines: list[str] = []
    for path in english_files():
        if only_mirrored and not has_mirror(path, language):
            continue
        lines.extend(missing(path, language))
    return lines
