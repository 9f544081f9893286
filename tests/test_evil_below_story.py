"""IT: Evil Below's end-of-game story counts the turns the table played."""

from __future__ import annotations

import pytest

from bot.core.story import LogLine
from bot.games.base import PlayerInfo
from bot.games.evilbelow.content import HEART
from bot.games.evilbelow.effects import finish
from bot.games.evilbelow.state import LOSS_EMPTY
from bot.games.evilbelow.story import first_sentence
from tests.evil_below_helpers import APARTMENT, GAME, act, actions_phase, arrange, take


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_story_counts_the_turn_the_game_ended_in(seed: int) -> None:
    """Every end comes during a turn (a fight, a sighting, a lost Bravery): the board's
    header reads "Turn N" then, and the story's "after N turns" must say the same N,
    the number of turns the table was told began."""
    state, events = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(4)], seed, {})
    log = [LogLine(e.kind, "public", e.text) for e in events]
    for _ in range(3000):
        seat = GAME.to_act(state)
        if seat is None:
            break
        state, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
        log += [LogLine(e.kind, "public", e.text) for e in events]
    assert GAME.is_over(state)
    begun = sum(1 for line in log if line.kind == "turn")
    outcome = GAME.story(state, log).outcome
    assert f"after {begun} turn" in outcome, (begun, outcome)


def test_the_last_rescue_is_told_without_the_count_it_had_then() -> None:
    """A rescue's line counts the children still on the track at that moment ("8 still
    on the Evil Influence track"); quoted at the end of a game lost on a full track, it
    contradicted the ending. The story keeps who brought a child back, and where."""
    state = actions_phase(arrange(["bev", "ben"]), {APARTMENT: HEART})
    take(state, 2, (APARTMENT,))
    state, events = act(state, 0, "courage", die=APARTMENT, what="rescue")
    log = [LogLine(e.kind, "public", e.text) for e in events]
    finish(state, LOSS_EMPTY, events)  # then lost, the track full again
    rescues = [line.text for line in log if line.kind == "rescue"]
    assert rescues and "still on the Evil Influence track" in rescues[-1]
    told = " ".join(GAME.story(state, log).turning)
    assert "brings a child back" in told
    assert "still on the Evil Influence track" not in told


@pytest.mark.parametrize(("line", "first"), [
    ("Bev Marsh brings a child back to The Barrens. 8 still on the Evil Influence track.",
     "Bev Marsh brings a child back to The Barrens."),
    ("貝芙把一個孩子帶回荒原。邪惡影響軌上還有 8 個。", "貝芙把一個孩子帶回荒原。"),
])
def test_a_rescue_line_is_cut_after_its_first_sentence_in_either_language(
        line: str, first: str) -> None:
    assert first_sentence(line) == first
