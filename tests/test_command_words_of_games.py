"""A game's words in the command tree (its title, the `/game new game:` choice, its
setup options' descriptions, and its own commands' words: `Game.command_words`) are read
from the game's own texts, in each language.

Why: they were also written, a second time, in the shared data/commands.zh-TW.yaml, so
adding a game meant a line in a shared file (CONTRIBUTING.md: "no line changes in a
shared module"), and the two copies had drifted apart (four setup options read one
Chinese in the game's texts and another in /game new). The shared file now names no
game's own words (tests/test_discovery.py is the same rule for the modules). A game's
cog wrote its commands' descriptions in code and their Chinese in the shared file too:
both are in the game's texts now, under `commands`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import games, yaml_files
from bot.client import HauntBot
from bot.command_translator import FILES, game_words, tree_strings, words
from bot.locales import CHINESE, ENGLISH, current, speaking
from tests.helpers.bell_game import BellGame, register


def _own_words(language: str) -> dict[str, str]:
    """Each game's title, setup options' descriptions and own commands' words, keyed by
    where they are."""
    found: dict[str, str] = {}
    with speaking(language):
        for key, game in games.all_games().items():
            found[f"{key}.title"] = game.title
            found.update({f"{key}.{name}": text
                          for name, text in game.setup_option_help().items()})
            found.update({f"{key}.commands.{name}": text
                          for name, text in game.command_words().items()})
    return found


def test_the_shared_commands_file_names_no_games_own_words() -> None:
    shared = yaml_files.read_english(FILES[CHINESE])["strings"]
    english = _own_words(ENGLISH)
    assert sorted(where for where, text in english.items() if text in shared) == []


def test_each_games_words_read_in_chinese_from_its_texts() -> None:
    english, chinese = _own_words(ENGLISH), _own_words(CHINESE)
    for where, text in english.items():
        assert words(CHINESE)[text] == chinese[where] != text, where


async def test_a_games_commands_are_written_in_its_texts_words() -> None:
    """Every string a game's own command group shows (`/cthulhu move`'s description, an
    option's, a choice's name) is one of the game's `command_words`, so its Chinese is
    the game's to give."""
    bot = HauntBot(db_path=":memory:", serve=False)
    await bot.setup_hook()
    try:
        for key, game in games.all_games().items():
            with speaking(ENGLISH):
                own = set(game.command_words().values())
            shown = {text for where, text in tree_strings(bot.tree)
                     if where.split()[0] == key}
            assert shown <= own, key
            assert bool(shown) == bool(own), key  # words for commands it does not have
    finally:
        await bot.close()


class _Lanterns(BellGame):
    """A game only this test knows, its title and its option's help in two languages."""

    key = "lanternwords"

    @property
    def title(self) -> str:  # type: ignore[override]
        return "燈籠" if current() == CHINESE else "Lanterns"

    def setup_choices(self) -> dict[str, list[tuple[str, str]]]:
        return {"wick": [("long", "long")]}

    def setup_option_help(self) -> dict[str, str]:
        return {"wick": "哪一種燈芯" if current() == CHINESE else "Which wick to burn"}

    def command_words(self) -> dict[str, str]:
        return {"light": "點亮燈籠" if current() == CHINESE else "Light the lantern"}


@pytest.fixture
def fresh_words() -> Iterator[None]:
    words.cache_clear()
    yield
    words.cache_clear()


def test_a_game_added_brings_its_command_words(monkeypatch: pytest.MonkeyPatch,
                                               fresh_words: None) -> None:
    register(monkeypatch)
    monkeypatch.setitem(games._GAMES, _Lanterns.key, _Lanterns())
    assert game_words(CHINESE)["Lanterns"] == "燈籠"
    assert words(CHINESE)["Which wick to burn"] == "哪一種燈芯"
    assert words(CHINESE)["Light the lantern"] == "點亮燈籠"
    assert "Bell Test" not in words(CHINESE)  # a title its texts do not translate
