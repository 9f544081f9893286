"""renderers/stats_card.py: the /stats card at Discord's inline size, every text
legible there (at least 9 px as shown, as the boards' legibility tests ask), long
names cut rather than spilled, and the picture drawn from the card alone."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from renderers import common, stats_card
from renderers.stats_card import Bar, Card, Panel, render_card
from tests.zh_labels import is_chinese, zh

SHOWN = (550, 350)
READ_PX = 9


def _card(rows: int, name: str = "Ann", words: Callable[[str], str] = str) -> Card:
    """A card; `words` turns each of its texts into another language's (tests/zh_labels.py
    `zh`: made-up Chinese no shorter than the English)."""
    bars = [Bar(words(f"{name} {n}"), n + 1, n // 2) for n in range(rows)]
    return Card(words(f"{name}'s games"), words("12 games played, 5 won"),
                (Panel(words("By game"), bars), Panel(words("By side"), bars[:3])),
                (words("played"), words("won")),
                [words(t) for t in ("Best score 31", "Favourite: Ox Bellows (4 times)",
                                    "Longest game: #12, 80 turns", "a fourth line")])


@pytest.mark.parametrize("language", ["en", "zh-TW"])
@pytest.mark.parametrize("rows", [0, 3, 20])
def test_every_text_is_legible_at_chat_size(rows: int, language: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = common.font

    def recording(size: int, bold: bool = False) -> common.Font:
        sizes.append(size)
        return real(size, bold)

    monkeypatch.setattr(stats_card, "font", recording)
    words = zh if language == "zh-TW" else str
    card = _card(rows, "A very long player name" * 3, words)
    if language == "zh-TW":
        assert is_chinese(card.title) and not any(c.isascii() and c.isalpha()
                                                  for c in card.title)
    image = Image.open(io.BytesIO(render_card(card)))
    scale = min(SHOWN[0] / image.size[0], SHOWN[1] / image.size[1], 1.0)
    assert image.size == SHOWN
    assert sizes and min(sizes) * scale >= READ_PX


def test_the_bars_show_played_and_won_in_their_colours() -> None:
    image = Image.open(io.BytesIO(render_card(_card(3)))).convert("RGB")
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    assert stats_card.PLAYED in colours and stats_card.WON in colours
    empty = Image.open(io.BytesIO(render_card(_card(0)))).convert("RGB")
    inside = empty.crop((20, 100, 260, 250))  # the first panel's rows: no bar drawn
    assert stats_card.PLAYED not in {c for _, c in inside.getcolors(maxcolors=1 << 20)}
