"""The Pennywise Encounter deck against seed 000 ("How to Play"): who makes an
encounter's haunt roll, with how many dice, and each card's scare as the engine
resolves it."""

from __future__ import annotations

import json

import pytest

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import run
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt import encounters
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    TRIO,
    apply,
    at,
    choose,
    deck_top,
    hold,
    script_dice,
    stack_top,
    value,
)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return script_dice(monkeypatch)


def nb_game(seed: int = 5) -> BetrayalState:
    """Ox, Missy and Peter in the Neibolt House; Ox plays first (Oct 1), Missy next."""
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], seed,
                          {"explorers": TRIO, "today": "10-01", "expansion": "neibolt"})
    return state


def face_up(state: BetrayalState, *cards: str) -> None:
    for card in cards:
        state.decks[encounters.DECK].remove(card)
        state.discards[encounters.DECK].append(card)


def rolls_said(said: list[str]) -> list[str]:
    """The lines that announce an encounter's haunt roll, whoever makes it."""
    return [line for line in said
            if line.startswith("Haunt roll for") or "makes its haunt roll now" in line]


def missy_meets_it_on_ox_s_turn(dice: list[int], card: str = "floating_lights"
                                ) -> BetrayalState:
    """Ox, in the basement, draws the Mystic Slide: it passes left to Missy, who fails
    her Might roll and falls into a new basement room, the Gymnasium (an omen room),
    where she meets `card` (its trait roll 0). It is still Ox's turn."""
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink")  # two face up before hers
    at(state, OX, "basement_landing")
    stack_top(state, "gymnasium")
    deck_top(state, "event", "mystic_slide")
    deck_top(state, encounters.DECK, card)
    trait = content.card(card).raw["on_draw"][0]["roll"]["trait"]
    # Missy's Might roll (0), the slide's die of damage (0), her scare's roll (0s).
    dice.extend([0] * value(state, MISSY, "might") + [0]
                + [0] * value(state, MISSY, trait))
    ctx = Ctx(state)
    ctx.push([{"draw": {"deck": "event", "count": 1}}], OX)
    run(ctx)
    while state.pending:
        state, _ = choose(state, 0)
    assert state.turn.seat == OX
    assert state.tiles[state.explorers[MISSY].tile].room == "gymnasium"
    assert encounters.face_up(state) == ["knife_in_the_dark", "time_to_sink", card]
    dice.clear()
    return state


def ox_meets_a_stretching_hall(state: BetrayalState, dice: list[int]) -> BetrayalState:
    """Ox, on his turn, meets A STRETCHING HALL (its Knowledge roll all 0s)."""
    deck_top(state, encounters.DECK, "a_stretching_hall")
    dice.extend([0] * value(state, OX, "knowledge"))
    ctx = Ctx(state)
    ctx.push([{"_nb_encounter": {}}], OX)
    run(ctx)
    while state.pending:
        state, _ = choose(state, 0)
    return state


def test_an_encounter_met_on_another_s_turn_is_rolled_for_by_the_one_who_met_it(
        dice: list[int]) -> None:
    """Seed 000: each encounter "will have you make a haunt roll after resolving it,
    similar to an Omen card", and "you roll 3 dice when you draw the third one" (the
    one who drew it rolls, with the count it made). Seed 003, for an omen: 每當一名玩家
    翻開一張預兆牌後，在該玩家完結其回合後，必須試圖揭露真相 (the player who turned it up
    rolls after ending their own turn) and 擲骰的玩家即是揭露者 (the roller is the
    revealer). So Ox, who met nothing, rolls nothing; Missy, who met the 3rd, rolls 3
    dice as her own turn ends, and she reveals the haunt."""
    state = missy_meets_it_on_ox_s_turn(dice)
    state, said = apply(state, "end_turn")  # Ox's turn ends: he met nothing
    assert rolls_said(said) == [] and state.haunt is None
    assert state.turn.seat == MISSY
    dice[:] = [2, 2, 1]
    state, said = apply(state, "end_turn")
    rolls = rolls_said(said)
    assert len(rolls) == 1 and "FLOATING LIGHTS" in rolls[0] and "(3)" in rolls[0]
    assert dice == []
    assert state.haunt is not None
    assert (state.haunt.revealer, state.haunt.omen, state.haunt.key) == (
        MISSY, "floating_lights", "the_ritual_of_chud")


def test_an_owed_encounter_keeps_the_dice_it_was_drawn_with(dice: list[int]) -> None:
    """Seed 000: "if there are three Pennywise Encounter cards drawn this game, you roll
    3 dice when you draw the third one": Missy met the 3rd encounter; by her turn's end
    a 4th lies face up, and her roll still takes 3 dice."""
    state = missy_meets_it_on_ox_s_turn(dice)
    face_up(state, "hometown_horrors")  # the 4th, met after hers
    state, _ = apply(state, "end_turn")
    dice[:] = [0, 0, 0, 0]
    state, said = apply(state, "end_turn")
    rolls = rolls_said(said)
    assert len(rolls) == 1 and "(3)" in rolls[0] and dice == [0]


def test_the_active_explorer_s_own_encounter_counts_one_met_before_it_by_another(
        dice: list[int]) -> None:
    """Seed 000: "you roll 3 dice when you draw the third one": Missy met the 3rd on
    Ox's turn, then Ox meets the 4th; Ox rolls 4 dice for his, Missy 3 for hers."""
    state = missy_meets_it_on_ox_s_turn(dice)
    state = ox_meets_a_stretching_hall(state, dice)
    dice[:] = [0, 0, 0, 0]
    state, said = apply(state, "end_turn")
    rolls = rolls_said(said)
    assert len(rolls) == 1 and "A STRETCHING HALL" in rolls[0] and "(4)" in rolls[0]
    assert dice == []
    dice[:] = [0, 0, 0]
    state, said = apply(state, "end_turn")
    rolls = rolls_said(said)
    assert len(rolls) == 1 and "FLOATING LIGHTS" in rolls[0] and "(3)" in rolls[0]


def test_an_owed_encounter_survives_a_save(dice: list[int]) -> None:
    state = missy_meets_it_on_ox_s_turn(dice)
    state = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    state, _ = apply(state, "end_turn")
    dice[:] = [0, 0, 0]
    state, said = apply(state, "end_turn")
    assert len(rolls_said(said)) == 1 and dice == []


def test_no_owed_roll_is_made_once_the_haunt_has_begun(dice: list[int]) -> None:
    """Seed 000: "When the haunt is triggered, refer to the COME HOME TO EVIL scenario
    card": from then on no haunt roll is made, so Missy's owed one is dropped when Ox's
    own encounter starts the haunt first."""
    state = missy_meets_it_on_ox_s_turn(dice)
    state = ox_meets_a_stretching_hall(state, dice)
    dice[:] = [2, 2, 1, 0]
    state, _ = apply(state, "end_turn")
    assert state.haunt is not None and state.haunt.revealer == OX
    assert all(encounters.OWED not in e.flags for e in state.explorers)


def test_the_rabbits_foot_does_not_touch_an_encounter_s_haunt_roll(dice: list[int]) -> None:
    """Seed 000: an encounter "will have you make a haunt roll after resolving it,
    similar to an Omen card", and seed 003 makes that roll 在該玩家完結其回合後 (once
    the turn is over), while the Rabbit's Foot serves 人物在其回合中 (a roll during its
    holder's turn): the roll stands as the dice fell, as in the classic game."""
    state = nb_game()
    hold(state, OX, "rabbits_foot")
    state = ox_meets_a_stretching_hall(state, dice)
    dice[:] = [0]
    state, said = apply(state, "end_turn")
    assert len(rolls_said(said)) == 1 and dice == []
    assert state.pending is None, state.pending and state.pending.labels
    assert state.turn.seat == MISSY
