"""A Betrayal character card's colour is a word of the reader's language (the lobby's
pick, the refusal of a card's second side), while the engine keeps comparing the
English key of explorers.yaml. English reads as before: "Ox Bellows (red)"."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games.betrayal import GAME, content
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.setup import choose_explorers
from bot.locales import CHINESE, ENGLISH, speaking


def same_card_pair() -> tuple[str, str, str]:
    """Two explorers of one card, and its colour key."""
    by_colour: dict[str, list[str]] = {}
    for key, info in sorted(content.get().explorers.items()):
        by_colour.setdefault(info.colour, []).append(key)
    colour, (first, second) = sorted(by_colour.items())[0]
    return first, second, colour


def test_every_card_colour_has_a_word_in_each_language() -> None:
    colours = {e.colour for e in content.get().explorers.values()}
    for colour in colours:
        with speaking(ENGLISH):
            english = betrayal_line(f"colours.{colour}")
        with speaking(CHINESE):
            chinese = betrayal_line(f"colours.{colour}")
        assert english == colour  # English reads as the key always did
        assert chinese != colour and colour not in chinese


def test_the_lobby_offers_explorers_with_their_colour_in_each_language() -> None:
    with speaking(ENGLISH):
        english = dict(GAME.seat_choices()["explorer"])
        known = content.get().explorers
        assert english == {k: f"{e.name} ({e.colour})" for k, e in known.items()}
    with speaking(CHINESE):
        chinese = dict(GAME.seat_choices()["explorer"])
        for key, info in content.get().explorers.items():
            assert chinese[key] == betrayal_line("explorer_choice", name=info.name,
                                                 colour=betrayal_line(f"colours.{info.colour}"))
            assert f"({info.colour})" not in chinese[key]
    assert set(english) == set(chinese)


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_cards_second_side_is_refused_naming_its_colour_in_the_readers_words(
        language: str) -> None:
    first, second, colour = same_card_pair()
    with speaking(language):
        word = betrayal_line(f"colours.{colour}")
        with pytest.raises(IllegalAction) as picked:
            GAME.check_pick([{"explorer": first}, {}], 1, "explorer", second)
        with pytest.raises(IllegalAction) as set_up:
            choose_explorers([first, second], 3, Rng(1))
    assert word in str(picked.value) and word in str(set_up.value)
    if language == CHINESE:
        assert colour not in str(picked.value) and colour not in str(set_up.value)
