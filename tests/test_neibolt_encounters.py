"""The Neibolt House edition: the Pennywise Encounter deck and its haunt roll (seed 000,
"How to Play"), the edition as a plugin of the Betrayal core, and the lobby's choice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageChops

from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, editions, map_view
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import run
from bot.games.betrayal.haunt_roll import STALL_ROUNDS
from bot.games.betrayal.state import HAUNT, BetrayalState
from bot.games.neibolt import encounters
from bot.games.neibolt.words import neibolt_line
from bot.paths import ROOT
from cogs.lobby import chosen_options
from renderers.betrayal import map_geometry, render_image
from tests.test_betrayal_engine_helpers import (
    OX,
    TRIO,
    apply,
    choose,
    deck_top,
    hold,
    script_dice,
    stack_top,
    value,
)

NEIBOLT = "neibolt"
# ../RULES.md section 2 (the names seed 000 gives the ten cards).
CARD_NAMES = ["A POP OF RED", "KNIFE IN THE DARK", "A STRETCHING HALL", "BLOOD TENDRILS",
              "TIME TO SINK!", "THAT'S A GOOD BOY", "SWIRLING VISIONS", "FLOATING LIGHTS",
              "THE EATER OF WORLDS", "HOMETOWN HORRORS"]
# Seed 000, each scenario's "Haunt Trigger".
PAIRS = {
    "a_pop_of_red": "henry_on_the_hunt", "knife_in_the_dark": "henry_on_the_hunt",
    "a_stretching_hall": "separate_nightmares", "blood_tendrils": "separate_nightmares",
    "time_to_sink": "all_living_things_must_abide",
    "thats_a_good_boy": "all_living_things_must_abide",
    "swirling_visions": "the_ritual_of_chud", "floating_lights": "the_ritual_of_chud",
    "the_eater_of_worlds": "lets_kill_this_clown", "hometown_horrors": "lets_kill_this_clown",
}
NEW_ROOMS = {"darkened_hallway", "old_well", "ancient_den", "winding_tunnels"}


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return script_dice(monkeypatch)


def nb_game(seed: int = 5, ai: bool = False) -> BetrayalState:
    """Ox, Missy and Peter in the Neibolt House; Ox plays first (Oct 1)."""
    state, _ = GAME.setup([PlayerInfo(f"P{i}", ai=ai) for i in range(3)], seed,
                          {"explorers": TRIO, "today": "10-01", "expansion": NEIBOLT})
    return state


def meet(state: BetrayalState, dice: list[int], card: str, faces: list[int],
         then: list[int] | None = None) -> tuple[BetrayalState, list[str]]:
    """Ox explores north into the Dining Room (an omen room) and meets `card`, its trait
    roll scripted as `faces` (padded to the trait's value). `then`: the haunt roll's
    dice, when his turn ends with the encounter (holding nothing, he has nothing left
    to do, and the turn ends by itself: docs/rulings.md, Turns 12)."""
    stack_top(state, "dining_room")
    deck_top(state, encounters.DECK, card)
    trait = content.card(card).raw["on_draw"][0]["roll"]["trait"]
    count = value(state, OX, trait)
    dice.extend((faces + [0] * count)[:count])
    dice.extend(then or [])
    state, said = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.seat == OX \
            and "Keep" not in " ".join(state.pending.labels):
        state, more = choose(state, 0)
        said += more
    return state, said


def end_turn(state: BetrayalState, dice: list[int], faces: list[int]
             ) -> tuple[BetrayalState, list[str]]:
    dice.extend(faces)
    state, said = apply(state, "end_turn")
    while state.pending is not None and state.haunt is None:
        state, more = choose(state, 0)
        said += more
    return state, said


def face_up(state: BetrayalState, *cards: str) -> None:
    for card in cards:
        state.decks[encounters.DECK].remove(card)
        state.discards[encounters.DECK].append(card)


# ---------------------------------------------------------------- setup

def test_the_expansion_adds_its_deck_and_four_rooms() -> None:
    # Seed 000: "shuffle the Pennywise Encounter deck during setup and set it to the side
    # with the Omen, Item, and Event decks" and "Add the four room tiles to the base game."
    state = nb_game()
    assert state.edition == NEIBOLT
    assert sorted(content.card(k).name for k in state.decks[encounters.DECK]) \
        == sorted(CARD_NAMES)
    assert set(state.stack) >= NEW_ROOMS
    assert [len(state.decks[d]) for d in ("omen", "item", "event")] == [13, 22, 45]
    assert all(content.card(k).designed for k in state.decks[encounters.DECK])


def _opening_story(options: dict[str, Any]) -> str:
    _, events = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], 5, options)
    first = events[0]
    assert first.kind == "setup" and first.audience.is_public
    return first.text


def test_a_neibolt_game_opens_with_the_come_home_to_evil_story() -> None:
    """Seed 000: "Read out the story on the COME HOME TO EVIL scenario card." The
    expansion's own story (ours: data/neibolt/texts.yaml), not the classic game's."""
    classic = _opening_story({})
    told = _opening_story({"expansion": NEIBOLT})
    assert told == neibolt_line("story.come_home_to_evil") and told != classic
    assert classic == content.betrayal_line("events.intro")
    assert "Derry" in told and "Neibolt" in told


def test_the_classic_game_has_neither_the_deck_nor_the_rooms() -> None:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], 5, {})
    assert state.edition == editions.DEFAULT and encounters.DECK not in state.decks
    assert not NEW_ROOMS & set(state.stack)


def test_the_lobby_offers_the_expansion_and_refuses_an_unknown_one() -> None:
    offered = dict(GAME.setup_choices()["expansion"])
    assert set(offered) == {"classic", NEIBOLT}
    with pytest.raises(Exception, match="no expansion `moon`"):
        GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], 5, {"expansion": "moon"})


def test_a_restored_game_keeps_its_edition() -> None:
    state = nb_game()
    raw = json.loads(json.dumps(GAME.dump(state)))
    back = GAME.load(raw)
    assert back.edition == NEIBOLT and editions.for_state(back).key == NEIBOLT
    assert back.decks[encounters.DECK] == state.decks[encounters.DECK]
    classic, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], 5, {})
    old = classic.to_dict()
    del old["edition"], old["notes"]  # a game saved before editions
    assert BetrayalState.from_dict(old).edition == editions.DEFAULT


# ---------------------------------------------------------------- drawing encounters

def test_an_omen_room_draws_an_encounter_instead_of_an_omen(dice: list[int]) -> None:
    # Seed 000: "Before the haunt begins, whenever you discover a room with an Omen symbol
    # on it, draw and resolve a card from the Pennywise Encounter deck instead."
    state = nb_game()
    omens = list(state.decks["omen"])
    state, said = meet(state, dice, "floating_lights", [2, 2])
    assert any("meets Pennywise: **FLOATING LIGHTS**" in line for line in said)
    assert state.decks["omen"] == omens and state.omens_drawn == 0
    assert state.explorers[OX].cards == []
    # "Keep the Pennywise Encounter cards faceup as you draw them."
    assert encounters.face_up(state) == ["floating_lights"]
    # The card ends his movement; holding nothing, he has nothing left to do, and his
    # turn ends by itself (docs/rulings.md, Turns 12).
    assert any("nothing left to do" in line for line in said) and state.turn.seat != OX


def test_an_encounter_hands_out_an_omen_only_if_it_says_so(dice: list[int]) -> None:
    # Seed 000: "If that card tells you to draw an Omen card, draw an Omen card as normal."
    state = nb_game()
    deck_top(state, "omen", "holy_symbol")
    state, _ = meet(state, dice, "a_pop_of_red", [2, 2])  # Sanity 4+: draw an omen
    assert state.explorers[OX].cards == ["holy_symbol"] and state.omens_drawn == 1
    state2 = nb_game()
    state2, _ = meet(state2, dice, "a_pop_of_red", [0, 0, 0])  # 0-3: 1 mental damage
    assert state2.explorers[OX].cards == [] and state2.omens_drawn == 0


def test_the_haunt_roll_counts_face_up_encounters(dice: list[int]) -> None:
    # Seed 000: "count only the number of faceup Pennywise Encounter cards instead of
    # Omens to determine how many dice to roll ... if there are three Pennywise Encounter
    # cards drawn this game, you roll 3 dice when you draw the third one, even if there's
    # only one Omen card out on the table."
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink")
    state.omen_table.append(state.decks["omen"].pop(0))  # one omen out on the table
    # His turn ends by itself with the encounter, and its roll with it: 3 dice: 4, not yet
    state, said = meet(state, dice, "floating_lights", [2, 2], then=[2, 1, 1])
    assert any("nothing left to do" in line for line in said) and dice == []
    assert any("(3)" in line and "FLOATING LIGHTS" in line for line in said)
    assert "Ox Bellows's haunt roll: 4. Not yet (it needs 5+)." in said and state.haunt is None


def test_each_haunt_roll_has_the_dice_its_encounter_was_drawn_with(dice: list[int]) -> None:
    """Seed 000: "if there are three Pennywise Encounter cards drawn this game, you roll
    3 dice when you draw the third one". RULES.md section 2: one roll per encounter
    drawn (ours made at the turn's end): of two drawn in one turn (a second omen room,
    as The Walls can place), the first rolls the count it made, the second one more."""
    state = nb_game()
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    face_up(state, "knife_in_the_dark")
    state, _ = meet(state, dice, "floating_lights", [2, 2])  # the 2nd drawn this game
    deck_top(state, encounters.DECK, "a_stretching_hall")  # the 3rd, the same turn
    dice.extend([2] * value(state, OX, "knowledge"))
    ctx = Ctx(state)
    ctx.push([{"_nb_encounter": {}}], OX)
    run(ctx)
    assert state.turn.flags[encounters.DRAWN] == ["floating_lights", "a_stretching_hall"]
    state, said = end_turn(state, dice, [0] * (2 + 3))  # 2 dice, then 3
    rolls = [line for line in said if line.startswith("Haunt roll for")]
    assert "FLOATING LIGHTS" in rolls[0] and "(2)" in rolls[0]
    assert "A STRETCHING HALL" in rolls[1] and "(3)" in rolls[1]
    assert said.count("Ox Bellows's haunt roll: 0. Not yet (it needs 5+).") == 2
    assert dice == []  # 2 dice, then 3: every scripted die rolled


def test_five_or_more_starts_the_haunt_and_the_card_picks_the_scenario(
        dice: list[int]) -> None:
    # Seed 000: "A haunt roll of 5+ triggers the haunt!" and "When the haunt is
    # triggered, refer to the COME HOME TO EVIL scenario card to determine which haunt
    # has been activated." (Swirling Visions / Floating Lights: The Ritual of Chüd.)
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink")
    state, said = meet(state, dice, "floating_lights", [2, 2], then=[2, 2, 1])
    assert state.haunt is not None and state.phase == HAUNT
    assert state.haunt.key == "the_ritual_of_chud" and state.haunt.omen == "floating_lights"
    assert state.haunt.revealer == OX
    assert any("**FLOATING LIGHTS** begins scenario 4, **The Ritual of Chüd**" in line
               for line in said)


@pytest.mark.parametrize("card", sorted(PAIRS))
def test_each_encounter_starts_its_scenario(card: str) -> None:
    assert encounters.scenario_of(card) == PAIRS[card]
    assert content.card(card).raw["pennywise"]["text"]  # its line for scenario 5


def test_the_haunt_roll_never_takes_more_than_eight_dice(dice: list[int]) -> None:
    state = nb_game()
    face_up(state, *[k for k in list(state.decks[encounters.DECK]) if k != "floating_lights"])
    assert len(encounters.face_up(state)) == 9
    state, said = meet(state, dice, "floating_lights", [2, 2], then=[0] * 8)
    assert any("(8)" in line for line in said) \
        and "Ox Bellows's haunt roll: 0. Not yet (it needs 5+)." in said


def test_a_turn_without_an_encounter_makes_no_haunt_roll(dice: list[int]) -> None:
    state = nb_game()
    face_up(state, "knife_in_the_dark")
    state, said = end_turn(state, dice, [])
    assert not any("Haunt roll" in line for line in said)


def test_after_the_haunt_begins_omen_rooms_draw_omens() -> None:
    # Seed 000: "Once the haunt has begun, if you discover a room with an Omen symbol on
    # it, draw an Omen card as normal."
    state = nb_game()
    edition = editions.for_state(state)
    assert edition.symbol_steps(state, "omen") == [{"_nb_encounter": {}}]
    state.phase = HAUNT
    assert edition.symbol_steps(state, "omen") == [{"_draw_card": {"deck": "omen"}}]
    assert edition.symbol_steps(state, "item") == [{"_draw_card": {"deck": "item"}}]


def test_an_empty_encounter_deck_draws_nothing() -> None:
    state = nb_game()
    face_up(state, *list(state.decks[encounters.DECK]))
    ctx = Ctx(state)
    ctx.push([{"_nb_encounter": {}}], OX)
    run(ctx)
    assert [e.text for e in ctx.events] == \
        ["The Pennywise Encounter deck is empty: nothing happens."]
    assert len(encounters.face_up(state)) == 10


def test_bury_puts_a_card_on_the_bottom_of_its_deck() -> None:
    # RULES.md section 2: "Bury" = put on the bottom of its deck.
    state = nb_game()
    card = state.decks[encounters.DECK].pop(0)
    encounters.bury(state, card)
    assert state.decks[encounters.DECK][-1] == card


def test_a_stalled_ai_table_starts_the_last_encounters_scenario() -> None:
    state = nb_game(ai=True)
    face_up(state, "knife_in_the_dark", "hometown_horrors")
    state.quiet_turns = STALL_ROUNDS * 3 - 1
    state, _ = apply(state, "end_turn")
    assert state.haunt is not None and state.haunt.key == "lets_kill_this_clown"
    assert state.haunt.roll == -1


# ---------------------------------------------------------------- the map and status

def test_the_map_tracks_the_face_up_encounters() -> None:
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink")
    track = map_view(state).track
    assert (track.label, track.filled, track.marks, track.note) == \
        ("Encounters", 2, 10, "2 face up")
    status = GAME.status_text(state)
    assert "KNIFE IN THE DARK, TIME TO SINK!" in status


# ---------------------------------------------------------------- the edition is a plugin

CORE = ("bot/games/betrayal", "renderers", "cogs", "bot/core", "bot/store")


def _core_files() -> list[Path]:
    found = [p for folder in CORE for p in (ROOT / folder).rglob("*.py")]
    return found + sorted((ROOT / "bot").glob("*.py"))


def test_the_expansion_is_named_in_no_core_module() -> None:
    """The issue: "the word neibolt appears in no Betrayal core module (only in the
    expansion's own package, its data and its tests)"."""
    named = [str(p.relative_to(ROOT)) for p in _core_files()
             if NEIBOLT in p.read_text(encoding="utf-8").lower()]
    assert named == []


def test_the_map_draws_one_mark_per_encounter_and_lights_the_face_up_ones() -> None:
    """The footer's track is the edition's: 10 marks for the ten encounters, the
    face-up ones lit; one more face-up card lights one more mark and nothing else."""
    state = nb_game()
    face_up(state, "knife_in_the_dark", "time_to_sink", "a_pop_of_red")
    three = map_view(state)
    face_up(state, "blood_tendrils")
    four = map_view(state)
    geo = map_geometry(three)
    assert len(geo.omen_track) == 10 and geo.track_widest == "10 face up"
    a, b = render_image(three), render_image(four)
    assert a.size == b.size
    box = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()
    assert box is not None
    x4, y4 = geo.omen_track[3]
    left, top, right, bottom = box
    assert top >= geo.footer[1]  # only the footer changed
    assert left <= x4 <= right and top <= y4 <= bottom
    ra, rb = a.convert("RGB"), b.convert("RGB")
    assert ra.getpixel((x4, y4)) != rb.getpixel((x4, y4))  # the 4th mark lit
    for x, y in (*geo.omen_track[:3], *geo.omen_track[4:]):  # the others as they were
        assert ra.getpixel((x, y)) == rb.getpixel((x, y))


def test_the_lobby_option_takes_the_key_the_name_or_a_part_only_one_has() -> None:
    assert chosen_options("betrayal", expansion="neibolt") == {"expansion": "neibolt"}
    assert chosen_options("betrayal", expansion="Neibolt House") == {"expansion": "neibolt"}
    assert chosen_options("betrayal", expansion="classic") == {"expansion": "classic"}
    with pytest.raises(IllegalAction, match="Unknown expansion 'the'"):
        chosen_options("betrayal", expansion="the")  # both names have it
    with pytest.raises(IllegalAction, match="has no `expansion` option"):
        chosen_options("cthulhu", expansion="neibolt")
