"""The Pennywise Encounter deck card by card (seed 000, "How to Play"; each card's
effect is DESIGNED, data/neibolt/encounters.yaml, RULES.md section 2): both roll bands
of every card at their edges (4 and 3), who the card touches (its drawer alone), the
card lying face up, and the omen room after the haunt.

The expected effects below are read off each card's printed text (its `text`, in
English and zh-TW), not its steps, so that a card whose steps drift from its words
fails here."""

from __future__ import annotations

import re

import pytest
import yaml

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import run
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt import encounters
from bot.games.neibolt.words import FOLDER
from tests.betrayal_haunt_rig import DARRIN, rigged
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    TRIO,
    apply,
    choose,
    deck_top,
    hold,
    put,
    script_dice,
    stack_top,
)
from tests.test_neibolt_encounter_rolls import missy_meets_it_on_ox_s_turn

NEIBOLT = "neibolt"
OMEN = "skull"  # an omen that touches no trait when drawn
# A card Ox holds so that his turn waits for its "End turn" once the encounter is
# over (a turn with nothing left to do ends by itself: docs/rulings.md, Turns 12).
SPARE = "bottle"
# What each card says it does (data/neibolt/encounters.yaml `text`, RULES.md section 2:
# designed): the trait rolled, then the 4+ band and the 0-3 band, each as
# (what, which, how much): gain/lose a trait's step, damage (kind, points; a die of
# damage is scripted to 1 here), omen (one drawn), nothing.
Effect = tuple[str, str, int]
CARDS: dict[str, tuple[str, Effect, Effect]] = {
    "a_pop_of_red": ("sanity", ("omen", "", 1), ("damage", "mental", 1)),
    "knife_in_the_dark": ("speed", ("gain", "speed", 1), ("damage", "physical", 1)),
    "a_stretching_hall": ("knowledge", ("gain", "knowledge", 1), ("lose", "speed", 1)),
    "blood_tendrils": ("might", ("gain", "might", 1), ("damage", "physical", 2)),
    "time_to_sink": ("speed", ("none", "", 0), ("damage", "physical", 1)),
    "thats_a_good_boy": ("sanity", ("gain", "sanity", 1), ("damage", "mental", 1)),
    "swirling_visions": ("knowledge", ("omen", "", 1), ("damage", "mental", 1)),
    "floating_lights": ("sanity", ("gain", "knowledge", 1), ("lose", "sanity", 1)),
    "the_eater_of_worlds": ("might", ("gain", "sanity", 1), ("damage", "mental", 1)),
    "hometown_horrors": ("knowledge", ("gain", "might", 1), ("damage", "mental", 1)),
}
KINDS = {"physical": ("might", "speed"), "mental": ("sanity", "knowledge")}


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return script_dice(monkeypatch)


def nb_game(seed: int = 5) -> BetrayalState:
    """Ox, Missy and Peter in the Neibolt House; Ox plays first (Oct 1)."""
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], seed,
                          {"explorers": TRIO, "today": "10-01", "expansion": NEIBOLT})
    return state


def faces(total: int, count: int) -> list[int]:
    """`count` dice showing `total` (each die 0-2)."""
    out = []
    for _ in range(count):
        face = min(2, total)
        out.append(face)
        total -= face
    assert total == 0
    return out


def clips(state: BetrayalState) -> list[dict[str, int]]:
    return [{t: traits.index(state, seat, t) for t in content.TRAITS}
            for seat in range(len(state.explorers))]


def meet(state: BetrayalState, dice: list[int], card: str, total: int
         ) -> tuple[BetrayalState, list[str]]:
    """Ox explores north into the Dining Room (an omen room) and meets `card`, its
    trait roll showing `total`; a die of damage shows 1."""
    stack_top(state, "dining_room")
    deck_top(state, encounters.DECK, card)
    trait = CARDS[card][0]
    dice.extend([*faces(total, traits.value(state, OX, trait)), 1])
    state, said = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.seat == OX:
        state, more = choose(state, 0)
        said += more
    return state, said


def expected(before: dict[str, int], effect: Effect) -> dict[str, int] | tuple[str, int]:
    """The drawer's clips after `effect`: exact, or (damage kind, points) to be shared
    out between the kind's two traits as the drawer chose."""
    what, which, amount = effect
    after = dict(before)
    if what == "gain":
        after[which] += amount
    elif what == "lose":
        after[which] -= amount
    elif what == "damage":
        return which, amount
    return after


def check_band(card: str, total: int, band: Effect, dice: list[int]) -> None:
    state = nb_game()
    hold(state, OX, SPARE)
    deck_top(state, "omen", OMEN)
    before = clips(state)
    omens = list(state.decks["omen"])
    state, _ = meet(state, dice, card, total)
    after = clips(state)
    want = expected(before[OX], band)
    if isinstance(want, tuple):
        kind, points = want
        lost = {t: before[OX][t] - after[OX][t] for t in content.TRAITS}
        assert sum(lost[t] for t in KINDS[kind]) == points, (card, total, lost)
        assert all(lost[t] == 0 for t in content.TRAITS if t not in KINDS[kind])
    else:
        assert after[OX] == want, (card, total, before[OX], after[OX])
    # Its drawer alone: no one else's trait moves.
    assert after[1:] == before[1:]
    drew_omen = band[0] == "omen"
    assert state.explorers[OX].cards == ([SPARE, OMEN] if drew_omen else [SPARE])
    assert state.decks["omen"] == (omens[1:] if drew_omen else omens)
    # "Keep the Pennywise Encounter cards faceup as you draw them."
    assert encounters.face_up(state) == [card]
    assert card not in state.decks[encounters.DECK]
    assert state.turn.flags[encounters.DRAWN] == [card]
    assert dice in ([], [1]), dice  # the trait roll took the dice it should


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_at_four_takes_its_four_plus_band(card: str, dice: list[int]) -> None:
    """Seed 000: "draw and resolve a card from the Pennywise Encounter deck"; each
    card's text (designed, RULES.md section 2) says "4+: ...": a total of exactly 4
    takes that band, and only its drawer is touched."""
    check_band(card, 4, CARDS[card][1], dice)


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_at_three_takes_its_zero_to_three_band(card: str, dice: list[int]) -> None:
    """Each card's text (designed, RULES.md section 2) says "0-3: ...": a total of 3
    takes that band (as does 0)."""
    check_band(card, 3, CARDS[card][2], dice)


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_at_zero_takes_its_zero_to_three_band(card: str, dice: list[int]) -> None:
    """Each card's "0-3" band starts at 0: a roll of all blanks takes it too."""
    check_band(card, 0, CARDS[card][2], dice)


TRAIT_WORDS = {"en": {"might": "Might", "speed": "Speed", "knowledge": "Knowledge",
                      "sanity": "Sanity"},
               "zh": {"might": "力量", "speed": "速度", "knowledge": "知識", "sanity": "神志"}}


def _zh_texts() -> dict[str, str]:
    raw = yaml.safe_load((FOLDER / "encounters.zh-TW.yaml").read_text(encoding="utf-8"))
    return {k: str(v["text"]) for k, v in raw["encounters"].items()}


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_card_s_steps_say_what_its_text_says(card: str) -> None:
    """RULES.md section 2: the cards' effects are designed; what the players read (both
    languages) must be what the engine does: the trait rolled and the bands 4+ / 0-3,
    each band's numbers."""
    raw = content.card(card).raw
    roll = raw["on_draw"][0]["roll"]
    trait, high, low = CARDS[card]
    assert roll["trait"] == trait
    bands = {("min" if "min" in o else "max"): (o.get("min", o.get("max")), o["do"])
             for o in roll["outcomes"]}
    assert bands["min"][0] == 4 and bands["max"][0] == 3
    english = str(raw["text"])
    chinese = _zh_texts()[card]
    assert f"Roll {TRAIT_WORDS['en'][trait]}. 4+:" in english and "0-3:" in english
    assert f"進行{TRAIT_WORDS['zh'][trait]}檢定。4+：" in chinese and "0-3：" in chinese
    for band, text_en, text_zh in (
            (high, english.split("4+:")[1].split("0-3:")[0],
             chinese.split("4+：")[1].split("0-3：")[0]),
            (low, english.split("0-3:")[1], chinese.split("0-3：")[1])):
        what, which, amount = band
        numbers_en = re.findall(r"\d+", text_en)
        numbers_zh = re.findall(r"\d+", text_zh)
        if what in ("gain", "lose", "damage"):
            assert numbers_en == [str(amount)] and numbers_zh == [str(amount)], card
        else:
            assert numbers_en == [] and numbers_zh == [], card
        if what in ("gain", "lose"):
            assert f"{what} {amount} {TRAIT_WORDS['en'][which]}" in text_en
            assert TRAIT_WORDS["zh"][which] in text_zh
        if what == "omen":
            assert "draw an omen" in text_en and "預兆牌" in text_zh


def test_an_omen_an_encounter_hands_out_makes_no_haunt_roll_of_its_own(
        dice: list[int]) -> None:
    """Seed 000: "If that card tells you to draw an Omen card, draw an Omen card as
    normal" and "count only the number of faceup Pennywise Encounter cards instead of
    Omens"; RULES.md section 2: "an omen an encounter hands out adds no roll of its
    own". A POP OF RED at 4 hands Ox an omen: one haunt roll, of one die."""
    state = nb_game()
    deck_top(state, "omen", OMEN)
    state, _ = meet(state, dice, "a_pop_of_red", 4)
    assert state.explorers[OX].cards == [OMEN]
    dice[:] = [2]
    state, said = apply(state, "end_turn")
    rolls = [line for line in said if line.startswith("Haunt roll for")]
    assert len(rolls) == 1 and "A POP OF RED" in rolls[0] and "(1)" in rolls[0]
    assert dice == [] and state.haunt is None


@pytest.mark.parametrize("card", ["floating_lights", "a_stretching_hall"])
def test_a_losing_card_before_the_haunt_stops_above_the_skull(card: str,
                                                             dice: list[int]) -> None:
    """Seed 003 (the base game this expansion plays with): before the haunt no trait
    falls to the skull. FLOATING LIGHTS / A STRETCHING HALL at 0-3 take a step off a
    trait already at its lowest value: it stays there."""
    state = nb_game()
    lost = CARDS[card][2][1]
    state.explorers[OX].traits[lost] = 0
    state, _ = meet(state, dice, card, 0)
    assert traits.index(state, OX, lost) == 0
    assert encounters.face_up(state) == [card]


def test_a_card_met_on_another_s_turn_touches_the_one_who_met_it(dice: list[int]) -> None:
    """Seed 000: "whenever you discover a room with an Omen symbol on it, draw and
    resolve a card from the Pennywise Encounter deck": the one who discovered it. Missy,
    dropped by Ox's Mystic Slide into the Gymnasium on Ox's turn, meets FLOATING LIGHTS
    (0-3: "lose 1 Sanity"): her Sanity steps down, Ox's does not."""
    before = clips(nb_game())
    state = missy_meets_it_on_ox_s_turn(dice, "floating_lights")
    after = clips(state)
    assert state.turn.seat == OX
    assert after[MISSY]["sanity"] == before[MISSY]["sanity"] - 1
    assert after[OX] == before[OX]
    assert state.explorers[MISSY].flags[encounters.OWED] == [
        {"card": "floating_lights", "dice": 3}]


def test_the_ancient_den_s_kept_encounter_rolls_the_face_up_count_with_itself(
        dice: list[int]) -> None:
    """Seed 000: at the Ancient Den before the haunt "draw two Pennywise Encounter
    cards, and choose which card to keep. Bury the other one", and "you roll 3 dice
    when you draw the third one": two face up, the kept one is the third (the buried
    one is not face up and counts for nothing)."""
    state = nb_game()
    for card in ("knife_in_the_dark", "time_to_sink"):
        state.decks[encounters.DECK].remove(card)
        state.discards[encounters.DECK].append(card)
    deck_top(state, encounters.DECK, "a_stretching_hall", "blood_tendrils")
    hold(state, OX, SPARE)
    state.explorers[OX].tile = state.tile_of("basement_landing") or 0
    stack_top(state, "ancient_den")
    state, _ = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.kind != "nb_den":
        state, _ = choose(state, 0)
    dice.extend([2] * 8)
    state, _ = choose(state, "A STRETCHING HALL")
    assert encounters.face_up(state) == ["knife_in_the_dark", "time_to_sink",
                                         "a_stretching_hall"]
    assert state.decks[encounters.DECK][-1] == "blood_tendrils"
    dice[:] = [0, 0, 0]
    state, said = apply(state, "end_turn")
    rolls = [line for line in said if line.startswith("Haunt roll for")]
    assert len(rolls) == 1 and "(3)" in rolls[0] and dice == []


def test_after_the_haunt_an_omen_room_draws_an_omen_and_no_encounter() -> None:
    """Seed 000: "Once the haunt has begun, if you discover a room with an Omen symbol
    on it, draw an Omen card as normal." Driven through a discovery's symbol in a
    haunt of the Neibolt edition: the omen comes to the explorer, the encounter deck
    is untouched, and no encounter haunt roll is owed."""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    state.decks[encounters.DECK] = sorted(CARDS)[2:]  # a Neibolt game's encounters
    state.discards[encounters.DECK] = sorted(CARDS)[:2]
    deck_top(state, "omen", OMEN)
    pile = list(state.decks[encounters.DECK])
    up = list(encounters.face_up(state))
    room = put(state, "gymnasium", "basement", 40, 40)
    assert content.room("gymnasium").symbol == "omen"
    state.explorers[DARRIN].tile = room
    ctx = Ctx(state)
    ctx.push([{"_symbol": {"tile": room}}], DARRIN, "gymnasium", "room")
    run(ctx)
    assert OMEN in state.explorers[DARRIN].cards
    assert state.decks[encounters.DECK] == pile and encounters.face_up(state) == up
    assert encounters.DRAWN not in state.turn.flags
    assert all(encounters.OWED not in e.flags for e in state.explorers)
