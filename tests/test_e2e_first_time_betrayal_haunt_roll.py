"""What a first-time Betrayal table reads of a haunt roll that starts nothing: the live
message keeps a delivery's first and newest headlines (bot/headlines.py), so after a
human's move and an AI seat's omen turn it shows the move and the roll's result, the
announcement before it ("X drew an omen this turn: the haunt roll ...") cut. The result's
line must say on its own who rolled and what the roll had to beat. Read from the
engine's events, the headlines the live message chooses from."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.betrayal import GAME, content
from bot.games.betrayal.state import BetrayalState
from bot.locales import CHINESE, ENGLISH, speaking
from tests.test_betrayal_engine_helpers import OX, deck_top, dice, new_game, stack_top

__all__ = ["dice"]
OMEN_WORD = {ENGLISH: "omen", CHINESE: "預兆"}


def _omen_turn_ended(rolled: list[int]) -> tuple[BetrayalState, list[Event]]:
    """Ox explores north into the Dining Room, turns up the Holy Symbol (the first omen)
    and ends his turn: the haunt roll shows `rolled`."""
    state = new_game()
    assert GAME.to_act(state) == OX
    stack_top(state, "dining_room")
    deck_top(state, "omen", "holy_symbol")
    state, _ = GAME.apply(state, OX, Action("explore", {"dir": "N"}))
    while state.pending:
        state, _ = GAME.apply(state, OX, Action("choose", {"pick": 0}))
    rolled[:] = [1, 1, 1, 1, 1, 1]  # 6, not under 1 omen
    return GAME.apply(state, OX, Action("end_turn", {}))


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_a_haunt_roll_that_starts_nothing_names_its_roller(dice: list[int],
                                                            language: str) -> None:
    """Seed 003 (the haunt roll): a player who turned up an omen rolls six dice after
    their turn, and the haunt begins when the total is under the omens drawn. The
    channel read "Haunt roll 8, not under 1: the house holds its breath. Not yet." after
    an AI seat's turn, its omen cut from the live message: nothing said whose roll it
    was, or that the number to beat is the omens drawn."""
    with speaking(language):
        state, events = _omen_turn_ended(dice)
        name = content.explorer(state.explorers[OX].key).name
        detail = GAME.detail_kinds()
        shown = [e.text for e in events if e.audience.is_public and e.kind not in detail]
        rolls = [line for line in shown if "6" in line]  # the total: the roll's line
        assert rolls and name in rolls[-1], shown
        assert OMEN_WORD[language] in rolls[-1], rolls[-1]  # what the total had to beat
