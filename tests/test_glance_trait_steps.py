"""A trait's change says it moved steps on its track, not points.

Seed 003 (Betrayal) prints each trait as a track of values that are not evenly spaced
(Ox Bellows's Knowledge: 2 2 3 3 5 5 6 6), and a card's "gain 1 Knowledge" moves the
clip one step along it: from 3, one step up reads 5. "Ox Bellows gains 1 Knowledge
(3 → 5)" puzzles a newcomer, who counts 2. Each line of the family (a gain, a loss, at
either end of the track, onto the skull) names steps, in English and zh-TW alike (zh-TW
keeps seed 003's own word for a step, 級別: 「知識Knowledge即上升1個級別」, and says
it is the track's: 在能力軌).
"""

from __future__ import annotations

import pytest

from bot.games.betrayal.state import HAUNT
from bot.locales import CHINESE, ENGLISH, speaking
from tests.test_betrayal_engine_helpers import OX, new_game
from tests.test_betrayal_engine_traits import run_steps

# Ox Bellows's Knowledge track (data/betrayal/explorers.yaml): 2 2 3 3 5 5 6 6.
THREE, FIVE, TOP = 3, 4, 7
SAID = {
    ENGLISH: {
        "gain": "Ox Bellows gains 1 step of Knowledge (3 → 5).",
        "lose": "Ox Bellows loses 1 step of Knowledge (5 → 3).",
        "gain_none": "Ox Bellows gains 1 step of Knowledge, but it is already at its highest (6).",
        "lose_none": "Ox Bellows loses 2 steps of Knowledge, but it is already at its lowest (2): "
                     "it holds there before the haunt.",
        "lose_skull": "Ox Bellows loses 2 steps of Knowledge: it falls to the skull.",
    },
    CHINESE: {
        "gain": "大牛·貝洛斯的知識在能力軌上升 1 級（3 → 5）。",
        "lose": "大牛·貝洛斯的知識在能力軌下降 1 級（5 → 3）。",
        "gain_none": "大牛·貝洛斯的知識該在能力軌上升 1 級，但已經是最高了（6）。",
        "lose_none": "大牛·貝洛斯的知識該在能力軌下降 2 級，但已經是最低了（2）："
                     "作祟開始前它停在這裡。",
        "lose_skull": "大牛·貝洛斯的知識在能力軌下降 2 級：掉到了骷髏。",
    },
}
CASES = {  # line: (Knowledge's index before, the step, the haunt begun)
    "gain": (THREE, {"gain": {"trait": "knowledge", "amount": 1}}, False),
    "lose": (FIVE, {"lose": {"trait": "knowledge", "amount": 1}}, False),
    "gain_none": (TOP, {"gain": {"trait": "knowledge", "amount": 1}}, False),
    "lose_none": (0, {"lose": {"trait": "knowledge", "amount": 2}}, False),
    "lose_skull": (1, {"lose": {"trait": "knowledge", "amount": 2}}, True),
}


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
@pytest.mark.parametrize("line", sorted(CASES))
def test_a_trait_change_names_steps(language: str, line: str) -> None:
    start, step, haunted = CASES[line]
    state = new_game()
    if haunted:
        state.phase = HAUNT
    state.explorers[OX].traits["knowledge"] = start
    with speaking(language):
        _, events = run_steps(state, [step])
    assert events[0] == SAID[language][line]
