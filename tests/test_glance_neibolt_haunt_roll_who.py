"""Neibolt's haunt roll that does not begin the haunt says whose roll it was.

Seed 000: "A haunt roll of 5+ triggers the haunt!"; classic Betrayal's line already says
whose roll fell short ("Ox Bellows's haunt roll: 3, ..."); Neibolt's said only "Haunt
roll: 4. Not yet (it needs 5+).", and with AI seats rolling in a row the table could
not tell whose it was. It names the explorer, in English and zh-TW.
"""

from __future__ import annotations

import pytest

from bot.locales import CHINESE, ENGLISH, speaking
from tests.test_neibolt_encounters import dice, face_up, meet, nb_game

__all__ = ["dice"]  # the fixture: scripted dice

SAID = {ENGLISH: "Ox Bellows's haunt roll: 4. Not yet (it needs 5+).",
        CHINESE: "大牛·貝洛斯的作祟擲骰：4。還沒（需要 5+）。"}


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_haunt_roll_short_of_five_names_its_roller(dice: list[int], language: str) -> None:
    """Three encounters face up: three dice (2 + 1 + 1 = 4), short of 5+."""
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink")
    with speaking(language):
        state, said = meet(state, dice, "floating_lights", [2, 2], then=[2, 1, 1])
    assert SAID[language] in said, said
    assert state.haunt is None
