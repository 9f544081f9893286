"""Boards drawn in English, then Chinese, then English again by one process keep each
render's words in its own language: no renderer cache hands a board pieces, layouts or
a palette made while another language was spoken.

Each render is compared, byte for byte, with the same board drawn from empty caches in
its language (the reference). Between the renders of the sequence nothing is emptied:
the caches are what is tested.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot import games
from bot.games.base import PlayerInfo
from bot.locales import CHINESE, ENGLISH, speaking
from renderers import describe_public, render_public, render_whole
from renderers.betrayal import tiles
from renderers.betrayal.map import map_ink
from renderers.betrayal.words import word
from renderers.common import font_signature
from tests.zh_labels import forget_drawn_words

STEPS = 40  # AI moves played before the board is drawn: pieces of every kind in play
# Tokens lying in rooms: the Betrayal tiles name them by key, in words looked up as the
# tile is drawn (and a long label falls back to its code).
TOKENS = ("secret_passage", "blessing", "smoke", "skeletons", "wall_switch")


def played(kind: str, seed: int, options: dict[str, Any]) -> Any:
    """A game of `kind` after STEPS moves of its AI, four seats."""
    game = games.get(kind)
    state, _ = game.setup([PlayerInfo(f"Player {i + 1}", ai=True) for i in range(4)], seed,
                          options)
    for _ in range(STEPS):
        seat = game.to_act(state)
        if game.is_over(state) or seat is None:
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    return state


def with_tokens(state: Any) -> Any:
    """A Betrayal state whose every room holds two tokens more (the chat board shows one
    floor: each floor has some)."""
    tiles = [replace(tile, tokens=[*tile.tokens, {"kind": TOKENS[i % len(TOKENS)]},
                                   {"kind": TOKENS[(i + 2) % len(TOKENS)]}])
             for i, tile in enumerate(state.tiles)]
    return replace(state, tiles=tiles)


def drawn(kind: str, state: Any) -> tuple[bytes, bytes, str]:
    """Everything a board post carries: the chat board, the whole board, its alt text."""
    return render_public(kind, state), render_whole(kind, state), describe_public(kind, state)


CASES = {
    "cthulhu": lambda: played("cthulhu", 3, {}),
    "evilbelow": lambda: played("evilbelow", 3, {}),
    "betrayal": lambda: with_tokens(played("betrayal", 3, {})),
    "neibolt": lambda: with_tokens(played("betrayal", 5, {"expansion": "neibolt"})),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_board_drawn_in_turns_of_language_keeps_each_language(case: str) -> None:
    state = CASES[case]()
    kind = "betrayal" if case == "neibolt" else case
    reference = {}
    for language in (ENGLISH, CHINESE):
        forget_drawn_words()
        with speaking(language):
            reference[language] = drawn(kind, state)
    assert reference[ENGLISH][0] != reference[CHINESE][0]  # the board has words to check
    forget_drawn_words()
    for language in (ENGLISH, CHINESE, ENGLISH, CHINESE):
        with speaking(language):
            board, whole, alt = drawn(kind, state)
        assert board == reference[language][0], f"{language} board"
        assert whole == reference[language][1], f"{language} whole board"
        assert alt == reference[language][2], f"{language} alt text"


def test_a_tile_strip_names_its_tokens_in_the_language_spoken() -> None:
    """A tile's look names its tokens by key, and the same look (a room whose name reads
    the same in both languages) is laid out and drawn in each language's words."""
    look = ("Room", "ground", ("N",), "", ("secret_passage",), 0, False, False, (), ())
    labels = {}
    for language in (ENGLISH, CHINESE, ENGLISH, CHINESE):
        with speaking(language):
            placed, _ = tiles.strip_layout(look, 160, 12)
            sprite = tiles.tile_sprite(map_ink(1200), look, 160, 12, font_signature())
            labels.setdefault(language, (word("tokens.secret_passage"), sprite.image.tobytes()))
            assert [text for what, text, *_ in placed if what.startswith("token:")] == \
                [labels[language][0]]
            assert sprite.image.tobytes() == labels[language][1]
    assert labels[ENGLISH] != labels[CHINESE]


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_alt_text_joins_its_sentences_as_its_language_writes(case: str) -> None:
    """English sentences follow one another after a space; Chinese ones after their
    full stop, with no space (a space there reads as a gap in the middle of a line)."""
    state = CASES[case]()
    kind = "betrayal" if case == "neibolt" else case
    with speaking(ENGLISH):
        english = describe_public(kind, state)
    with speaking(CHINESE):
        chinese = describe_public(kind, state)
    assert ". " in english
    assert "。" in chinese
    assert "。 " not in chinese and " 。" not in chinese
