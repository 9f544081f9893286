"""IT: Evil Below's roll line (seed 001: "roll all seven dice"): each die is named by
its location and the face it shows, in words of the table's language, from a template
in data/evilbelow/texts*.yaml (not code's "place face" with a space, which reads wrong
in Chinese: "尼伯特街鬼屋 勇氣")."""

from __future__ import annotations

import pytest

from bot.games.evilbelow import content
from bot.locales import CHINESE, ENGLISH, speaking
from tests.evil_below_helpers import act, arrange

FIRST = {ENGLISH: "{place} {face}", CHINESE: "{place}（{face}）"}


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_the_roll_line_names_each_die_in_the_tables_words(language: str) -> None:
    with speaking(language):
        state = arrange(["bill", "bev"])
        after, events = act(state, 0, "roll")
        line = next(e.text for e in events if e.kind == "roll")
        names = content.board().names
        faces = {f: content.evil_below_line(f"faces.{f}") for f in set(after.dice)}
    shown = [FIRST[language].format(place=names[d], face=faces[f])
             for d, f in enumerate(after.dice)]
    sep = "、" if language == CHINESE else ", "
    assert sep.join(shown) in line
