"""A lobby pick or setup option is named to players by a word of its game's texts in
the reader's language ("探險者" for the key "explorer"), never by its key, which stays
English in commands and state. English reads as before: the key itself."""

from __future__ import annotations

import pytest

from bot import games
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.locales import CHINESE, ENGLISH, speaking
from bot.table import PICK, Actor, apply, new_table
from cogs.components import ActionSelect, lobby_view
from cogs.lobby import chosen_options
from cogs.lobby_embed import lobby_embed
from renderers.cjk import needs_cjk

ANN = Actor(1, "Ann")


def option_names(kind: str) -> list[str]:
    game = games.get(kind)
    return [*game.seat_choices(), *game.setup_choices()]


@pytest.mark.parametrize("kind", sorted(games.all_games()))
def test_every_option_has_a_word_in_each_language(kind: str) -> None:
    game = games.get(kind)
    for name in option_names(kind):
        with speaking(ENGLISH):
            assert game.option_label(name) == name
        with speaking(CHINESE):
            chinese = game.option_label(name)
        assert needs_cjk(chinese) and name not in chinese


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
async def test_the_lobby_names_picks_and_options_in_the_servers_words(language: str) -> None:
    table, _ = new_table("betrayal", 5, 6, ANN, 1, {"expansion": "classic"})
    game = games.get("betrayal")
    with speaking(language):
        label = game.option_label("explorer")
        heading = game.option_label("expansion").capitalize()
    view = lobby_view(table, language)
    assert view is not None
    placeholders = [item.item.placeholder for item in view.children
                    if isinstance(item, ActionSelect)]
    embed = lobby_embed(table, language)
    assert len(placeholders) == 1 and label in str(placeholders[0])
    assert heading in [field.name for field in embed.fields]
    if language == CHINESE:
        assert "explorer" not in str(placeholders[0])
        assert not any("xpansion" in str(field.name) for field in embed.fields)
    else:
        assert placeholders[0] == "Choose your explorer…"
        assert "Expansion" in [field.name for field in embed.fields]


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_refusals_name_the_option_in_the_readers_words(language: str) -> None:
    table, _ = new_table("betrayal", 5, 6, ANN, 1)
    with speaking(language):
        word = games.get("betrayal").option_label("explorer")
        with pytest.raises(IllegalAction) as pick:
            apply(table, ANN, Action(PICK, {"name": "explorer", "value": "nobody"}))
        layout = games.get("cthulhu").option_label("layout")
        with pytest.raises(IllegalAction) as option:
            chosen_options("cthulhu", layout="no such house")
    assert word in str(pick.value) and layout in str(option.value)
    if language == CHINESE:
        assert "explorer" not in str(pick.value) and "layout" not in str(option.value)


def test_an_option_with_no_word_is_said_by_its_key() -> None:
    """A game built on one of ours may add an option its texts do not name."""
    with speaking(CHINESE):
        assert games.get("cthulhu").option_label("lantern") == "lantern"
