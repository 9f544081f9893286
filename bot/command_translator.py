"""The slash commands in the user's language: discord.py's `app_commands.Translator`,
reading data/commands.zh-TW.yaml (English string -> its Chinese) and, for the words a
game says itself (its title, the `/game new game:` choice, its setup options'
descriptions, and its own commands' words: `Game.command_words`), the game's own texts:
a game brings them in its own data/<key>/ mirror, so adding one adds no line to the
shared file (tests/test_command_words_of_games.py). A game's cog writes its commands
in the English of those texts (`english_words`).

Discord shows a command's localized descriptions and choice names to a user whose
client is in that locale; the tree is synced with them (`tree.sync` asks the translator
for every string). Command, group and option NAMES stay English on purpose: a typed
command is the same for everyone, so `/game new` in the docs, /help and every line of
data/ works whatever the reader's language (Discord matches a typed name in either).

Every string is keyed by its English words, whatever its place (a description, a choice
name), so one entry serves each place it appears. A string with no entry is shown in
English (Discord's own fallback); `words_missing` lists them, and a test keeps it empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from importlib.resources.abc import Traversable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import games, yaml_files
from bot.games.base import Game
from bot.locales import CHINESE, ENGLISH, speaking, supported
from bot.paths import DATA

FILES = {CHINESE: DATA / "commands.zh-TW.yaml"}
# What keeps its English: every name a user types.
NAMES = frozenset({Where.command_name, Where.group_name, Where.parameter_name})
DESCRIPTION_MAX = 100  # Discord: a description's and a choice name's length, 1-100
COMMAND_TREE_NAMES = (1, 32)


@cache
def words(language: str) -> dict[str, str]:
    """English -> the language's words for the command tree (empty for English): the
    shared file's, then each game's own (`game_words`)."""
    path: Traversable | None = FILES.get(language)
    if path is None or not path.is_file():
        return {}
    raw = yaml_files.read_english(path) or {}
    found = {str(k): str(v) for k, v in (raw.get("strings") or {}).items()}
    found.update(game_words(language))
    return found


def game_words(language: str) -> dict[str, str]:
    """English -> `language` for what each game says in the command tree: its title, its
    setup options' descriptions (`Game.setup_option_help`) and its own commands' words
    (`Game.command_words`), each read from the game's texts in both languages. A line
    its texts do not translate is left out (the shared file may still give it; else
    `words_missing` names it)."""
    found: dict[str, str] = {}
    for game in games.all_games().values():
        with speaking(ENGLISH):
            english = _said(game)
        with speaking(language):
            spoken = _said(game)
        found.update({english[key]: text for key, text in spoken.items()
                      if key in english and text and text != english[key]})
    return found


def _said(game: Game[Any]) -> dict[str, str]:
    """A game's words in the command tree, in the language spoken, keyed by where they
    are in the game (so its two languages pair up)."""
    return {"title": game.title,
            **{f"option.{name}": text for name, text in game.setup_option_help().items()},
            **{f"command.{key}": text for key, text in game.command_words().items()}}


def english_words(kind: str) -> dict[str, str]:
    """The words of game `kind`'s own commands as its cog writes them into the tree: in
    English, whatever the language of the moment (the translator gives the others)."""
    with speaking(ENGLISH):
        return games.get(kind).command_words()


def translated(english: str, language: str) -> str:
    """A command string in `language` (English where it has none): /help reads
    descriptions through it."""
    if language == ENGLISH:
        return english
    return words(language).get(english, english)


class CommandWords(app_commands.Translator):
    """Descriptions and choice names in each locale we speak; names stay English."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = supported(locale)
        if language is None or language == ENGLISH or context.location in NAMES:
            return None
        found = words(language).get(string.message)
        return found[:DESCRIPTION_MAX] if found else None


def tree_strings(tree: app_commands.CommandTree) -> Iterator[tuple[str, str]]:
    """Every string of the tree a user reads, with where it is (for the tests and the
    missing list): descriptions of commands, groups and options, and choice names."""
    for command in tree.walk_commands():
        where = command.qualified_name
        if isinstance(command, app_commands.Group | app_commands.Command):
            yield where, command.description
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                yield f"{where} {parameter.name}", parameter.description
                for choice in parameter.choices:
                    yield f"{where} {parameter.name} choice", choice.name
    for menu in tree.get_commands(type=discord.AppCommandType.user):
        yield menu.name, menu.name


def words_missing(tree: app_commands.CommandTree, language: str) -> list[str]:
    """The tree's strings with no words in `language`, each once, as `where: English`."""
    known = words(language)
    seen: dict[str, str] = {}
    for where, english in tree_strings(tree):
        if english and english not in known and english not in seen:
            seen[english] = where
    return [f"{where}: {english}" for english, where in seen.items()]
