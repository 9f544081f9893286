"""Where a room goes, asked the way one says it: "Where in the basement should the
Underground Lake go?", not "Where does the Underground Lake go on the basement?".

Seed 003: a room that cannot lie on the floor it was found from lies on a floor its
tile allows (the Underground Lake is a basement room), and the explorer places it
there; the question that asks where named the floor with "on the" for every floor,
which reads wrong for the basement, and "does" for every room, which reads wrong for
a plural name ("the Stairs from Basement"). Each floor has its own question now, in
English and zh-TW, for every room.
"""

from __future__ import annotations

import pytest

from bot.games.betrayal import content
from bot.locales import CHINESE, ENGLISH, speaking
from tests.test_betrayal_engine_helpers import OX, apply, at, choose, deck_top, new_game, stack_top

ASKED = {ENGLISH: "Where in the basement should the Underground Lake go?",
         CHINESE: "地下湖要放在地下室的哪裡？"}
ODD = ("go on the basement", "does the Stairs", "does the ")


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_the_lake_is_asked_for_in_the_basement(language: str) -> None:
    state = new_game()
    at(state, OX, "upper_landing")
    stack_top(state, "underground_lake")
    deck_top(state, "event", "the_voice")
    with speaking(language):
        state, _ = apply(state, "explore", dir="E")
        assert state.pending is not None and state.pending.kind in ("spot", "spot_cell")
        assert state.pending.asked == ASKED[language]
        while state.pending is not None and state.pending.kind in ("spot", "spot_cell"):
            state, _ = choose(state, 0)
    assert state.tiles[state.explorers[OX].tile].floor == "basement"


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_every_room_on_every_floor_is_asked_plainly(language: str) -> None:
    with speaking(language):
        asked = [content.betrayal_line(f"prompts.where_room_{floor}", room=room.name)
                 for room in content.get().rooms.values() for floor in room.floors]
        floor_words = {floor: content.betrayal_line(f"floors.{floor}")
                       for floor in content.FLOORS}
    assert [line for line in asked if any(odd in line for odd in ODD)] == []
    if language == ENGLISH:
        assert content.betrayal_line("prompts.where_room_ground", room="Kitchen") \
            == "Where on the ground floor should the Kitchen go?"
        assert content.betrayal_line("prompts.where_room_upper", room="Stairs from Basement") \
            == "Where on the upper floor should the Stairs from Basement go?"
    for floor, word in floor_words.items():
        with speaking(language):
            line = content.betrayal_line(f"prompts.where_room_{floor}", room="X")
        assert word in line, (floor, line)
