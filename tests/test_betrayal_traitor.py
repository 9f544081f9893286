"""Betrayal: who turns traitor when the haunt begins (bot/games/betrayal/traitor.py), by
seed 003's rules: a named explorer in the game (by name, not colour), else the revealer,
the highest / lowest in a trait (ties: nearest the revealer going left, the revealer
first), the player left of the revealer, or none; and the public line that names them."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.core.actions import Action
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, traits
from bot.games.betrayal.haunt_roll import chart, haunts
from bot.games.betrayal.state import BetrayalState
from bot.games.betrayal.traitor import RULES, by_rule, choose_traitor, from_revealer
from tests.test_betrayal_engine_helpers import (
    apply,
    choose,
    deck_top,
    dice,
    new_game,
    same,
    stack_top,
)

__all__ = ["dice"]

FOUR = ["ox_bellows", "missy_dubourde", "peter_akimoto", "madame_zostra"]


def set_value(state: BetrayalState, seat: int, trait: str, value: int) -> None:
    """Put the explorer's clip on the first index of its track with this value."""
    values = content.explorer(state.explorers[seat].key).traits[trait].values
    assert value in values, (state.explorers[seat].key, trait, value)
    state.explorers[seat].traits[trait] = values.index(value)
    assert traits.value(state, seat, trait) == value


BASE = {"speed": 6, "might": 5, "sanity": 5, "knowledge": 5}  # on every track of FOUR


def level(state: BetrayalState, trait: str, value: int | None = None) -> None:
    """Every explorer at the same value in this trait."""
    for seat in range(len(state.explorers)):
        set_value(state, seat, trait, BASE[trait] if value is None else value)


def step_from(state: BetrayalState, seat: int, trait: str, up: bool) -> None:
    """Move the explorer to the next value above (or below) the one it has."""
    now = traits.value(state, seat, trait)
    values = content.explorer(state.explorers[seat].key).traits[trait].values
    set_value(state, seat, trait, min(v for v in values if v > now) if up
              else max(v for v in values if v < now))


# ---------------------------------------------------------------- the rules

def test_the_rule_kinds() -> None:
    assert set(RULES) == {"revealer", "left_of_revealer", "none"} | {
        f"{side}_{t}" for side in ("highest", "lowest") for t in content.TRAITS}


def test_from_revealer_goes_left_and_wraps() -> None:
    state = new_game(FOUR)
    assert from_revealer(state, 0) == [0, 1, 2, 3]
    assert from_revealer(state, 2) == [2, 3, 0, 1]
    assert from_revealer(state, 3) == [3, 0, 1, 2]


@pytest.mark.parametrize("revealer", [0, 1, 2, 3])
def test_revealer_left_and_none(revealer: int) -> None:
    state = new_game(FOUR)
    assert by_rule(state, revealer, {"else": "revealer"}) == revealer
    assert by_rule(state, revealer, {"else": "left_of_revealer"}) == (revealer + 1) % 4
    assert by_rule(state, revealer, {"else": "none"}) is None


def test_left_of_the_last_seat_is_the_first() -> None:
    state = new_game(FOUR)
    assert by_rule(state, 3, {"else": "left_of_revealer"}) == 0
    state = new_game()  # three players
    assert by_rule(state, 2, {"else": "left_of_revealer"}) == 0


@pytest.mark.parametrize("trait", content.TRAITS)
def test_highest_and_lowest_in_each_trait(trait: str) -> None:
    state = new_game(FOUR)
    level(state, trait)
    step_from(state, 2, trait, up=True)
    step_from(state, 1, trait, up=False)
    assert by_rule(state, 0, {"else": f"highest_{trait}"}) == 2
    assert by_rule(state, 0, {"else": f"lowest_{trait}"}) == 1
    assert by_rule(state, 3, {"else": f"highest_{trait}"}) == 2  # no tie: seat order moot
    assert by_rule(state, 3, {"else": f"lowest_{trait}"}) == 1


def test_values_not_clip_positions_are_compared() -> None:
    state = new_game(FOUR)  # Might tracks differ from explorer to explorer
    for seat, index in enumerate([0, 2, 7, 7]):
        state.explorers[seat].traits["might"] = index
    assert [traits.value(state, s, "might") for s in range(4)] == [4, 3, 8, 6]
    assert by_rule(state, 0, {"else": "lowest_might"}) == 1  # Missy's 3, not Ox's index 0
    # Peter and Zostra share the top index; Peter alone has the highest Might
    assert by_rule(state, 3, {"else": "highest_might"}) == 2


def test_a_tie_goes_to_the_nearest_going_left() -> None:
    state = new_game(FOUR)
    level(state, "sanity", 5)
    set_value(state, 1, "sanity", 4)
    set_value(state, 3, "sanity", 4)  # seats 1 and 3 tied lowest
    assert by_rule(state, 0, {"else": "lowest_sanity"}) == 1  # 0 -> 1
    assert by_rule(state, 2, {"else": "lowest_sanity"}) == 3  # 2 -> 3
    assert by_rule(state, 3, {"else": "lowest_sanity"}) == 3  # the revealer is tied


def test_a_tie_wraps_around_the_table() -> None:
    state = new_game(FOUR)
    level(state, "knowledge", 5)
    set_value(state, 0, "knowledge", 6)
    set_value(state, 1, "knowledge", 6)  # seats 0 and 1 tied highest
    assert by_rule(state, 2, {"else": "highest_knowledge"}) == 0  # 2 -> 3 -> 0
    assert by_rule(state, 3, {"else": "highest_knowledge"}) == 0
    assert by_rule(state, 1, {"else": "highest_knowledge"}) == 1  # the revealer


def test_everyone_tied_means_the_revealer() -> None:
    state = new_game(FOUR)
    level(state, "speed")
    for revealer in range(4):
        assert by_rule(state, revealer, {"else": "highest_speed"}) == revealer
        assert by_rule(state, revealer, {"else": "lowest_speed"}) == revealer


def test_a_named_explorer_in_the_game_is_the_traitor() -> None:
    state = new_game(FOUR)
    level(state, "sanity", 5)
    set_value(state, 1, "sanity", 3)
    rule = {"named": ["ox_bellows"], "else": "lowest_sanity"}  # Pay the Piper
    assert by_rule(state, 2, rule) == 0  # Ox, though Missy has the lowest Sanity
    rule = {"named": ["madame_zostra"], "else": "revealer"}
    assert by_rule(state, 1, rule) == 3


def test_the_first_named_in_the_game_counts() -> None:
    state = new_game(["zoe_ingstrom", "peter_akimoto", "ox_bellows"])
    rule = {"named": ["jenny_leclerc", "ox_bellows", "zoe_ingstrom"], "else": "revealer"}
    assert by_rule(state, 1, rule) == 2  # Jenny is not playing; Ox is named before Zoe


def test_names_not_colours() -> None:
    """The other side of a named explorer's character card does not count."""
    state = new_game(["darrin_williams", "missy_dubourde", "peter_akimoto"])
    level(state, "sanity", 5)
    set_value(state, 2, "sanity", 4)
    rule = haunts("")["pay_the_piper"].traitor  # Ox Bellows; Darrin is Ox's other side
    assert by_rule(state, 0, rule) == 2  # no Ox: the lowest Sanity
    state = new_game(["heather_granville", "missy_dubourde", "peter_akimoto"])
    rule = haunts("")["a_little_night_murder"].traitor  # Jenny; Heather is her other side
    assert by_rule(state, 1, rule) == 1  # no Jenny: the revealer


@pytest.mark.parametrize("girl", ["zoe_ingstrom", "missy_dubourde"])
def test_better_with_friends_takes_either_side_of_the_little_girl(girl: str) -> None:
    state = new_game(["ox_bellows", "peter_akimoto", girl])
    assert choose_traitor(state, "better_with_friends", revealer=0) == 2


def test_an_unknown_rule_is_an_error() -> None:
    state = new_game()
    for bad in ("", "tallest", "highest_luck", "lowest_"):
        with pytest.raises(ValueError):
            by_rule(state, 0, {"else": bad})


# ---------------------------------------------------------------- every haunt

def test_every_haunt_rule_gives_a_traitor_for_any_table() -> None:
    for keys in (["ox_bellows", "missy_dubourde", "peter_akimoto"],
                 ["jenny_leclerc", "zoe_ingstrom", "vivian_lopez", "father_rhinehardt"],
                 ["darrin_williams", "heather_granville", "brandon_jaspers"]):
        state = new_game(keys)
        for key, haunt in haunts("").items():
            for revealer in range(len(keys)):
                found = choose_traitor(state, key, revealer=revealer)
                assert found is not None and 0 <= found < len(keys), key
                if haunt.traitor["else"] == "revealer" and not (
                        set(haunt.traitor.get("named", [])) & set(keys)):
                    assert found == revealer


def test_choose_traitor_reads_haunts_yaml() -> None:
    state = new_game(FOUR)  # Ox plays: Pay the Piper names him
    assert choose_traitor(state, "pay_the_piper", revealer=3) == 0
    assert choose_traitor(state, "its_alive", revealer=3) == 0  # left of the revealer
    assert choose_traitor(state, "the_mummy_walks", revealer=2) == 2
    level(state, "knowledge", 5)
    set_value(state, 3, "knowledge", 4)
    assert choose_traitor(state, "offspring", revealer=0) == 3  # lowest Knowledge
    assert choose_traitor(state, "no_such_haunt", revealer=0) is None
    with pytest.raises(ValueError):  # no revealer given, and no haunt recorded
        choose_traitor(state, "the_mummy_walks")


def test_choose_traitor_is_pure() -> None:
    state = new_game(FOUR)
    before = json.dumps(state.to_dict(), sort_keys=True)
    for key in haunts(""):
        choose_traitor(state, key, revealer=1)
    assert json.dumps(state.to_dict(), sort_keys=True) == before


def test_no_one_is_dead_before_the_haunt() -> None:
    """Dead explorers are not a thing yet: before the haunt a trait holds just above the
    skull, so everyone stays in the game and can be picked."""
    state = new_game(FOUR)
    level(state, "sanity", 5)
    assert traits.shift(state, 2, "sanity", -20) < 0
    assert state.explorers[2].traits["sanity"] == 0  # not the skull (-1)
    assert all(e.alive for e in state.explorers)
    assert by_rule(state, 0, {"else": "lowest_sanity"}) == 2


# ---------------------------------------------------------------- the haunt begins

def _table(explorers: list[str], names: list[str]) -> BetrayalState:
    state, _ = GAME.setup([PlayerInfo(n) for n in names], 5,
                          {"explorers": explorers, "today": "10-01"})
    return state


def _haunt_turn(state: BetrayalState, dice: list[int], room: str = "abandoned_room",
                omen: str = "spear") -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    """Force the haunt: the revealer (the first to play) finds the omen and rolls low."""
    seat = GAME.to_act(state)
    assert seat is not None
    state.omens_drawn = 3  # earlier omens
    stack_top(state, room)
    deck_top(state, "omen", omen)
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, 0)
    dice[:] = [0, 0, 1, 0, 1, 1]  # 3 < 4 omens: the haunt begins
    return GAME.apply(state, seat, Action("end_turn", {}))


def test_the_haunt_start_names_the_traitor(dice) -> None:  # type: ignore[no-untyped-def]
    state = _table(["ox_bellows", "madame_zostra", "peter_akimoto"], ["Ann", "Clara", "Bo"])
    revealer = GAME.to_act(state)
    assert revealer == 0  # Ox's birthday is nearest
    assert chart()["spear"]["abandoned_room"] == "its_alive"  # the left of the revealer
    state, events = _haunt_turn(state, dice)
    assert state.phase == "haunt" and state.haunt is not None
    assert (state.haunt.key, state.haunt.revealer, state.haunt.traitor) == ("its_alive", 0, 1)
    lines = [e.text for e in events]
    chart_at = next(i for i, t in enumerate(lines) if t.startswith("The chart gives"))
    assert lines[chart_at + 1] == "Madame Zostra (Clara) is the traitor."
    event = events[chart_at + 1]
    assert event.audience.is_public and event.kind == "haunt"  # the traitor is known to all
    assert event.data == {"traitor": 1}
    book = next(e for e in events if e.kind == "book" and e.audience.kind == "player")
    assert book.audience.ref == "1"  # the Traitor's Tome to Clara alone


def test_the_haunt_start_with_no_traitor(dice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    found = haunts()
    monkeypatch.setitem(found, "its_alive", dataclasses.replace(
        found["its_alive"], traitor={"else": "none", "designed": True, "note": "test"}))
    state, events = _haunt_turn(new_game(), dice)
    assert state.haunt is not None and state.haunt.key == "its_alive"
    assert state.haunt.traitor is None
    lines = [e.text for e in events]
    assert "There is no traitor: every explorer is a hero." in lines
    assert not any("is the traitor" in t for t in lines)
    assert state.over  # none of our haunts is written for a house with no traitor
    assert lines[-1] == content.betrayal_line("events.haunt_needs_traitor")


def test_the_traitor_round_trips(dice) -> None:  # type: ignore[no-untyped-def]
    state, _ = _haunt_turn(new_game(), dice)
    assert state.haunt is not None and state.haunt.traitor == 1
    raw = json.loads(json.dumps(state.to_dict()))
    assert raw["haunt"]["traitor"] == 1
    back = BetrayalState.from_dict(raw)
    assert same(back, state) and back.haunt == state.haunt
    del raw["haunt"]["traitor"]  # a game saved before the traitor was chosen still loads
    old = BetrayalState.from_dict(raw)
    assert old.haunt is not None and old.haunt.traitor is None
