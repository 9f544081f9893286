"""Betrayal cards: the lasting events A to L (events.yaml), seed 003 lines 627-902:
Debris and Webs hold their explorer until freed, Grave Dirt hurts at each turn's start,
Lights Out limits movement; each lasts until exactly its own end condition.

The helpers and the explorers' starting dice are those of test_betrayal_cards_events_a.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.betrayal import GAME, content
from bot.games.betrayal.cards import attacks, events_a_to_l  # noqa: F401  (they register)
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_cards_events_a import (
    alone,
    draw,
    ends,
    faces,
    idx,
    pin,
    said,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    dice,
    hold,
    labels,
    new_game,
    put,
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


# ---------------------------------------------------------------- Debris and Webs

@pytest.mark.parametrize(("total", "speed", "damage_dice", "held"), [
    (8, 1, [], False), (3, 1, [], False), (2, 0, [1], True), (1, 0, [2], True),
    (0, 0, [2, 1], True)])
def test_debris_bands(dice, total: int, speed: int, damage_dice: list[int],  # type: ignore[no-untyped-def]
                      held: bool) -> None:
    state = new_game()
    pin(state, OX, "might")  # physical damage goes to Speed
    before = idx(state, OX)["speed"]
    dice.extend(faces(total, 4) + damage_dice)
    state, _ = draw(state, "debris")
    assert not dice and state.pending is None
    assert idx(state, OX)["speed"] == before + speed - sum(damage_dice)
    assert (state.explorers[OX].lasting == ["debris"]) == held
    assert ("debris" in state.discards["event"]) == (not held)


@pytest.mark.parametrize(("total", "might", "held"), [(10, 1, False), (4, 1, False),
                                                     (3, 0, True), (0, 0, True)])
def test_webs_bands(dice, total: int, might: int, held: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["might"]
    dice.extend(faces(total, 5))
    state, _ = draw(state, "webs")
    assert not dice and idx(state, OX)["might"] == before + might
    assert (state.explorers[OX].lasting == ["webs"]) == held


def caught(dice: list[int], card: str) -> BetrayalState:
    """Ox is held by `card` in the Entrance Hall (with Missy); Peter is upstairs."""
    state = new_game()
    at(state, PETER, "upper_landing")
    hold(state, OX, "mystic_coin")
    dice.extend([0] * 5 if card == "webs" else [0] * 4 + [0, 0])
    state, _ = draw(state, card)
    assert state.explorers[OX].lasting == [card] and not dice
    return state


HELD = ("webs", "debris")


@pytest.mark.parametrize("card", HELD)
def test_held_fast_the_explorer_can_do_nothing(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = caught(dice, card)
    assert labels(state) == ["End turn"]  # no move, explore, item, trade, drop, nor try yet
    state = ends(state)
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == [card]
    name = content.card(card).name
    assert f"Try to free Ox Bellows from the {name} (Might 4+)" in labels(state)  # Missy


@pytest.mark.parametrize("card", HELD)
def test_someone_in_the_room_frees_the_held(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    dice.extend([2, 2, 0])  # Missy's Might 3 dice: 4
    state, events = apply(state, "act", what=f"{card}-free-{OX}")
    assert not dice and said(events, "is free of the")
    assert state.explorers[OX].lasting == [] and card in state.discards["event"]
    assert not state.tiles[tile(state, "entrance_hall")].tokens
    state = ends(ends(state))  # Peter, then Ox's turn: free to move
    assert state.turn.seat == OX and "Move west to the Foyer" in labels(state)


@pytest.mark.parametrize("card", HELD)
def test_three_failed_tries_free_the_held(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    offer = f"{card}-free-{OX}"
    dice.extend([1, 1, 1])  # Missy: 3, one short
    state, events = apply(state, "act", what=offer)
    assert said(events, "1 of 3 tries failed") and state.explorers[OX].lasting == [card]
    assert offer not in [o.action.args.get("what") for o in _options(state)]  # once a turn
    state = ends(state)  # Peter, upstairs: nothing to try
    assert not any("Try to free" in label for label in labels(state))
    state = ends(state)  # Ox
    self_try = f"Try to break free of the {content.card(card).name} (Might 4+)"
    assert labels(state) == [self_try, "End turn"]
    dice.extend([1, 1, 1, 0, 0])  # Ox: 3
    state, events = apply(state, "act", what=f"{card}-self")
    assert said(events, "2 of 3 tries failed") and state.explorers[OX].lasting == [card]
    # Held, he may do nothing more: his turn ends by itself (docs/rulings.md, Turns 12).
    assert said(events, "nothing left to do") and state.turn.seat == MISSY
    dice.extend([0, 0, 0])  # Missy fails again: the third
    state, events = apply(state, "act", what=offer)
    assert said(events, "After 3 failed tries, Ox Bellows works free")
    assert state.explorers[OX].lasting == [] and card in state.discards["event"]
    assert not state.explorers[OX].flags


@pytest.mark.parametrize("card", HELD)
def test_the_held_breaks_free_on_a_later_turn(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = caught(dice, card)
    at(state, MISSY, "upper_landing")
    state = ends(ends(ends(state)))  # Ox, Missy, Peter: back to Ox
    assert not any("Try to free" in label for label in labels(state, OX))
    dice.extend([2, 2, 0, 0, 0])
    state, _ = apply(state, "act", what=f"{card}-self")
    assert state.explorers[OX].lasting == [] and not dice
    assert "Move west to the Foyer" in labels(state)  # the rest of the turn is its own
    assert "Use the Mystic Coin" in labels(state)


@pytest.mark.parametrize("card", HELD)
def test_the_held_uses_no_roll_item_not_even_to_break_free(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    """Seed 003: while the card is kept, no actions and no items: the Angel Feather and
    the Lucky Stone are not offered on the held explorer's rolls, its own try to break
    free included. A foreseen roll (no card) still is."""
    state = caught(dice, card)
    hold(state, OX, "angel_feather", "lucky_stone")
    at(state, MISSY, "upper_landing")
    state = ends(ends(ends(state)))  # back to Ox: its own try
    dice.extend([1, 1, 0, 0, 0])  # Might 5: 2
    state, events = apply(state, "act", what=f"{card}-self")
    assert state.pending is None and not dice and said(events, "1 of 3 tries failed")
    state, _ = run_steps(state, [{"roll": {"trait": "sanity"}}], OX)  # any other roll
    assert state.pending is None
    state.explorers[OX].flags["it_is_meant_to_be"] = 7
    state, _ = run_steps(state, [{"roll": {"trait": "sanity"}}], OX)
    assert state.pending and state.pending.labels[1:] == ["Use your foreseen roll: 7"]


@pytest.mark.parametrize("card", HELD)
def test_a_rescuer_may_use_its_own_roll_items(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))  # Missy's turn, with Ox
    hold(state, MISSY, "angel_feather")
    state, _ = apply(state, "act", what=f"{card}-free-{OX}")
    assert state.pending and state.pending.seat == MISSY and state.pending.kind == "roll_pre"
    state, _ = choose(state, "Angel Feather")
    state, events = choose(state, "4")
    assert said(events, "is free of the") and state.explorers[OX].lasting == []


@pytest.mark.parametrize("card", HELD)
def test_no_rescue_from_another_room(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))
    at(state, MISSY, "foyer")
    assert not any("Try to free" in label for label in labels(state))
    at(state, MISSY, "entrance_hall")
    assert any("Try to free" in label for label in labels(state))


@pytest.mark.parametrize("card", HELD)
def test_a_rescuer_must_stand_on_the_same_side_of_a_split_room(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "tower", "upper", 1, 0)  # doors E W: W meets the Upper Landing
    at(state, OX, "tower", "W")
    at(state, MISSY, "tower", "E")
    at(state, PETER, "upper_landing")
    dice.extend([0] * 5 if card == "webs" else [0] * 4 + [0, 0])
    state, _ = draw(state, card)
    state = ends(state)
    assert state.turn.seat == MISSY
    assert not any("Try to free" in label for label in labels(state))
    state.explorers[MISSY].side = "W"
    assert any("Try to free" in label for label in labels(state))


@pytest.mark.parametrize("card", HELD)
def test_the_hold_follows_its_explorer_when_a_card_moves_it(dice, card: str) -> None:  # type: ignore[no-untyped-def]
    state = ends(caught(dice, card))  # Missy's turn; the token lies in the Entrance Hall
    state, _ = run_steps(state, [{"move": {"to": "foyer"}}], OX)  # a card carries Ox off
    assert [t["kind"] for t in state.at(OX).tokens] == [card]
    assert not state.tiles[tile(state, "entrance_hall")].tokens
    assert state.explorers[OX].lasting == [card]  # still held
    assert not any("Try to free" in label for label in labels(state))
    at(state, MISSY, "foyer")
    assert any("Try to free" in label for label in labels(state))


def _options(state: BetrayalState) -> list[Any]:

    seat = GAME.to_act(state)
    assert seat is not None
    return GAME.options(state, seat)


# ---------------------------------------------------------------- Grave Dirt

@pytest.mark.parametrize(("total", "might", "kept"), [(10, 1, False), (4, 1, False),
                                                     (3, 0, True), (0, 0, True)])
def test_grave_dirt_bands(dice, total: int, might: int, kept: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["might"]
    dice.extend(faces(total, 5))
    state, _ = draw(state, "grave_dirt")
    assert not dice and idx(state, OX)["might"] == before + might
    assert (state.explorers[OX].lasting == ["grave_dirt"]) == kept


def dirty(dice: list[int]) -> BetrayalState:
    state = new_game()
    pin(state, OX, "speed")  # its physical damage goes to Might
    dice.extend([0] * 5)
    state, _ = draw(state, "grave_dirt")
    assert state.explorers[OX].lasting == ["grave_dirt"]
    return state


def test_grave_dirt_hurts_as_each_turn_starts(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    might = idx(state, OX)["might"]
    state = ends(state)  # Ox ends in the Entrance Hall: kept, no harm yet
    assert idx(state, OX)["might"] == might and state.explorers[OX].lasting == ["grave_dirt"]
    state = ends(ends(state))  # Missy, Peter: Ox's turn starts
    assert state.turn.seat == OX and idx(state, OX)["might"] == might - 1
    state = ends(ends(ends(state)))
    assert idx(state, OX)["might"] == max(0, might - 2)
    assert idx(state, MISSY)["might"] == new_game().explorers[MISSY].traits["might"]


@pytest.mark.parametrize(("room", "floor"), [
    ("balcony", "upper"), ("gardens", "ground"), ("graveyard", "ground"),
    ("gymnasium", "upper"), ("larder", "basement"), ("patio", "ground"), ("tower", "upper")])
def test_grave_dirt_ends_in_the_open_rooms(dice, room: str, floor: str) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    put(state, room, floor, 5, 5)
    at(state, OX, room, "W" if room == "tower" else None)
    assert state.explorers[OX].lasting == ["grave_dirt"]  # only once the turn ends there
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "grave_dirt" in state.discards["event"]
    might = idx(state, OX)["might"]
    state = ends(ends(state))
    assert idx(state, OX)["might"] == might  # no more harm


def test_grave_dirt_stays_elsewhere(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    put(state, "kitchen", "ground", 5, 5)
    at(state, OX, "kitchen")
    state = ends(state)
    assert state.explorers[OX].lasting == ["grave_dirt"]


def test_grave_dirt_ends_when_an_item_raises_a_trait(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003: an item card that raises one of the holder's traits ends it at once."""
    state = dirty(dice)
    alone(state)
    state.explorers[OX].traits["might"] = 1  # below its start (2)
    hold(state, OX, "healing_salve")
    state, events = apply(state, "use", card="healing_salve")
    assert idx(state, OX)["might"] == 2
    assert state.explorers[OX].lasting == [] and "grave_dirt" in state.discards["event"]
    assert said(events, "is rid of the Grave Dirt")


def test_grave_dirt_ends_when_another_explorers_item_heals_its_holder(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    state.explorers[OX].traits["knowledge"] = 0
    state.turn.seat = MISSY
    hold(state, MISSY, "smelling_salts")
    state, _ = apply(state, "use", card="smelling_salts")
    state, _ = choose(state, "Ox Bellows")
    assert state.explorers[OX].lasting == []


def test_grave_dirt_ends_when_an_item_is_taken_that_raises_traits(dice) -> None:  # type: ignore[no-untyped-def]
    state = dirty(dice)
    state.explorers[OX].traits["speed"] = 0
    state.tiles[state.explorers[OX].tile].items.append("amulet_of_the_ages")
    state.decks["item"].remove("amulet_of_the_ages")
    state, _ = apply(state, "pickup", card="amulet_of_the_ages")
    assert state.explorers[OX].lasting == []


@pytest.mark.parametrize(("steps", "source", "origin"), [
    ([{"gain": {"trait": "might", "amount": 1}}], "night_view", "event"),  # not an item
    ([{"gain": {"trait": "might", "amount": 1}}], "holy_symbol", "omen"),
    ([{"gain": {"trait": "might", "amount": 1}}], "gymnasium", "room"),
    ([{"lose": {"trait": "might", "amount": 1}}], "amulet_of_the_ages", "item"),  # a loss
    ([{"heal": {"traits": ["sanity"]}}], "healing_salve", "item"),  # nothing to restore
])
def test_grave_dirt_stays_unless_an_item_raises_a_trait(dice, steps: list[dict[str, Any]],  # type: ignore[no-untyped-def]
                                                        source: str, origin: str) -> None:
    state = dirty(dice)
    state, _ = run_steps(state, steps, OX, source, origin)
    assert state.explorers[OX].lasting == ["grave_dirt"]


def test_the_trait_hook_hears_every_change_and_its_cause(dice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """HandPassive.trait_changed: gains, losses, heals and damage, with the card or room
    whose steps moved the trait (the Spirit Board watches the hand; the Rope does not)."""
    from bot.games.betrayal.cards import PASSIVES, Cause

    heard: list[tuple[str, int, Cause]] = []

    def listen(self, ctx, seat, trait, moved, cause, ref) -> None:  # type: ignore[no-untyped-def]
        heard.append((trait, moved, cause))

    monkeypatch.setattr(type(PASSIVES["spirit_board"]), "trait_changed", listen)
    monkeypatch.setattr(type(PASSIVES["rope"]), "trait_changed", listen, raising=False)
    state = new_game()
    hold(state, OX, "spirit_board", "rope")
    pin(state, OX, "speed")
    state.explorers[OX].traits["sanity"] = 0
    run_steps(state, [{"gain": {"trait": "might", "amount": 1}},
                      {"heal": {"traits": ["sanity"]}},
                      {"damage": {"kind": "physical", "amount": 2}},
                      {"lose": {"trait": "speed", "amount": 1}}], OX, "night_view", "event")
    night = Cause("event", "night_view")
    assert heard == [("might", 1, night), ("sanity", 2, night), ("might", -2, night)]
    heard.clear()
    hold(state, OX, "amulet_of_the_ages")
    state.explorers[OX].cards.remove("amulet_of_the_ages")
    state.tiles[state.explorers[OX].tile].items.append("amulet_of_the_ages")
    apply(state, "pickup", card="amulet_of_the_ages")
    assert [c for _, _, c in heard] == [Cause("item", "amulet_of_the_ages")] * 4


# ---------------------------------------------------------------- Lights Out

def dark(state: BetrayalState | None = None) -> BetrayalState:
    state, events = draw(state or new_game(), "lights_out")
    assert state.explorers[OX].lasting == ["lights_out"] and said(events, "keeps Lights Out")
    return state


def moves(state: BetrayalState) -> list[str]:
    return [label for label in labels(state) if label.startswith(("Move", "Explore"))]


def test_lights_out_one_room_a_turn() -> None:
    state = dark()
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    state, events = apply(state, "move", dir="W")
    # One room, and nothing else left to him: his turn ends by itself (docs/rulings.md,
    # Turns 12), alone in the Foyer: kept.
    assert state.explorers[OX].tile == tile(state, "foyer") and said(events, "nothing left")
    assert state.explorers[OX].lasting == ["lights_out"] and state.turn.seat == MISSY
    state = ends(ends(state))
    state, events = apply(state, "move", dir="W")
    assert said(events, "nothing left") and state.explorers[OX].lasting == ["lights_out"]


def gallery_and_rope() -> tuple[BetrayalState, int]:
    """Ox in the dark, alone in the Upper Landing with the Rope; the Gallery south of
    it, the Ballroom under the Gallery: the Ballroom's tile."""
    state = dark()
    alone(state)
    put(state, "gallery", "upper", 0, 1)
    ballroom = put(state, "ballroom", "ground", 0, 1)
    hold(state, OX, "rope")
    at(state, OX, "upper_landing")
    return state, ballroom


def test_lights_out_counts_a_room_entered_for_free() -> None:
    """Seed 003, Lights Out: 保有這咭牌期間，人物在其回合中移動時，只可進入一個房間 [while
    the card is kept, the explorer enters only one room when it moves on its turn]. A
    way that costs no Speed (the Rope down from the Gallery) still enters a room: after
    the Gallery, not the Ballroom too; after the Rope down, no door, nor the Rope up."""
    state, ballroom = gallery_and_rope()
    state, _ = apply(state, "move", dir="S")
    assert state.explorers[OX].tile == tile(state, "gallery")
    assert moves(state) == [] and "Go down the Rope to the Ballroom" not in labels(state)
    state, _ = gallery_and_rope()
    at(state, OX, "gallery")
    state, _ = apply(state, "move", via="rope_down", to=ballroom)
    assert state.explorers[OX].tile == ballroom
    assert moves(state) == [] and "Climb the Rope up to the Gallery" not in labels(state)


def test_lights_out_ends_with_company_at_the_end_of_the_turn() -> None:
    state = dark()  # Missy and Peter in the Entrance Hall too
    assert state.explorers[OX].lasting == ["lights_out"]  # not before the turn ends
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]
    state = ends(ends(state))
    state, _ = apply(state, "move", dir="W")
    assert moves(state)  # free to go on


def test_lights_out_ends_in_the_furnace_room() -> None:
    state = new_game()
    put(state, "furnace_room", "basement", 5, 5)
    at(state, OX, "furnace_room")
    state = dark(state)
    pin(state, OX, "speed")
    state, _ = apply(state, "end_turn")
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]


def test_lights_out_ends_at_once_with_the_candle() -> None:
    state = dark()
    at(state, MISSY, "upper_landing")
    at(state, PETER, "upper_landing")
    state.decks["item"].remove("candle")
    state.at(OX).items.append("candle")
    state, events = apply(state, "pickup", card="candle")
    assert state.explorers[OX].lasting == [] and said(events, "rid of the Lights Out")
    state, _ = apply(state, "move", dir="W")
    assert moves(state)


def test_lights_out_drawn_while_holding_the_candle_has_no_hold() -> None:
    state = new_game()
    hold(state, OX, "candle")
    alone(state)
    state = dark(state)
    state, _ = apply(state, "move", dir="W")
    assert moves(state)  # the Candle lights the way
    state = ends(state)
    assert state.explorers[OX].lasting == [] and "lights_out" in state.discards["event"]
