"""Betrayal engine: exploring, drawing the room's card, and moving within Speed."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.games.betrayal import content
from bot.games.betrayal.house import cell_of
from tests.test_betrayal_engine_helpers import (
    OX,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
)

__all__ = ["dice"]


def test_tiles_for_other_floors_are_discarded() -> None:
    state = new_game()
    stack_top(state, "larder", "wine_cellar", "kitchen")  # two basement-only rooms first
    state, events = apply(state, "explore", dir="N")
    if state.pending:
        state, _ = choose(state, 0)
    assert cell_of(state.tiles[-1]) == ("ground", 0, -1) and state.tiles[-1].room == "kitchen"
    assert state.room_discard == ["larder", "wine_cellar"]
    assert any("Larder, Wine Cellar" in e for e in events)


def test_an_empty_stack_takes_the_shuffled_discards() -> None:
    state = new_game()
    rest = [r for r in state.stack if r != "larder"]
    state.stack = ["larder"]
    state.room_discard = rest
    state, events = apply(state, "explore", dir="S")
    assert any("shuffled into a new stack" in e for e in events)
    assert len(state.tiles) + len(state.stack) + len(state.room_discard) == 47
    if state.pending:
        state, _ = choose(state, 0)
    total = len(state.tiles) + len(state.stack) + len(state.room_discard)
    assert total == 47 and "ground" in content.room(state.tiles[-1].room).floors


def test_no_room_left_for_a_floor_means_no_exploring() -> None:
    state = new_game()
    state.stack = [r for r in state.stack if "ground" not in content.room(r).floors]
    assert not any(label.startswith("Explore") for label in labels(state))


def test_an_omen_room_draws_an_omen_and_ends_movement() -> None:
    state = new_game()
    stack_top(state, "servants_quarters")  # basement/upper: not the ground
    stack_top(state, "dining_room")
    deck_top(state, "omen", "holy_symbol")
    state, _ = apply(state, "explore", dir="N")
    if state.pending:
        state, _ = choose(state, 0)
    explorer = state.explorers[OX]
    assert explorer.cards == ["holy_symbol"] and state.omens_drawn == 1
    assert state.turn.omen == "holy_symbol" and state.turn.omen_room == "dining_room"
    assert state.turn.movement_over
    assert not any(label.startswith(("Move", "Explore")) for label in labels(state))


def test_an_item_room_draws_an_item() -> None:
    state = new_game()
    stack_top(state, "bloody_room")
    deck_top(state, "item", "axe")
    state, events = apply(state, "explore", dir="N")
    assert state.explorers[OX].cards == ["axe"]
    assert any("draws an item: Axe" in e for e in events)


def test_an_event_room_reads_the_event_and_discards_it(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    stack_top(state, "ballroom")
    deck_top(state, "event", "night_view")  # Knowledge roll: 5+ gains 1 Knowledge
    dice.extend([2, 2, 1])  # Ox rolls 3 dice for Knowledge 3
    state, events = apply(state, "explore", dir="N")
    assert state.discards["event"] == ["night_view"] and not state.resolving
    assert any("gains 1 step of Knowledge" in e or "Knowledge moves 1 step up" in e for e in events)
    # The card ends his movement; holding nothing, he has nothing left to do, and his
    # turn ends by itself (docs/rulings.md, Turns 12).
    assert any("nothing left to do" in e for e in events) and state.turn.seat != OX


def test_a_room_without_a_symbol_lets_you_move_on() -> None:
    state = new_game()
    stack_top(state, "creaky_hallway")
    state, _ = apply(state, "explore", dir="N")
    assert not state.turn.movement_over and state.turn.moves == 1
    assert "Explore north" in labels(state)


def test_the_underground_lake_lies_in_the_basement() -> None:
    state = new_game()
    at(state, OX, "upper_landing")
    stack_top(state, "underground_lake")
    deck_top(state, "event", "the_voice")
    state, events = apply(state, "explore", dir="E")
    while state.pending is not None and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    lake = tile(state, "underground_lake")
    assert state.tiles[lake].floor == "basement"
    assert state.explorers[OX].tile == lake
    assert any("lies on the basement" in e for e in events)


def test_movement_within_speed() -> None:
    state = new_game()  # Ox: Speed 4
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    put(state, "bedroom", "upper", 1, 0)  # doors E W
    state, _ = apply(state, "move", dir="W")  # Foyer
    state, _ = apply(state, "move", dir="W")  # Grand Staircase
    state, _ = apply(state, "move", via="stairs_up", to=tile(state, "upper_landing"))
    state, _ = apply(state, "move", dir="E")  # Bedroom: the fourth room entered
    assert state.turn.moves == 4
    assert not any(label.startswith(("Move", "Explore")) for label in labels(state))
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="no Speed left"):
        apply(state, "move", dir="W")
    assert state.to_dict() == before


def test_a_new_turn_resets_movement() -> None:
    state = new_game()
    state, _ = apply(state, "move", dir="W")
    state, _ = apply(state, "end_turn")
    assert state.turn.seat != OX and state.turn.moves == 0 and state.turn.number == 2


# ---------------------------------------------------------------- a named room, as if explored

def _explore_named(state, floor: str, room: str, fallback=None):  # type: ignore[no-untyped-def]
    """Run explore.explore_like(frame, floor, room=...) as a card's step would."""
    from bot.games.betrayal import GAME, effects
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.explore import explore_like
    from bot.games.betrayal.state import Frame

    new = GAME.copy_state(state)
    ctx = Ctx(new)
    frame = Frame([], OX, "the_beckoning", "event")
    explore_like(frame, floor, room=room, fallback=fallback)
    new.script.append(frame)
    effects.run(ctx)
    said = [e.text for e in ctx.events]
    while new.pending and new.pending.kind in ("spot", "spot_cell", "rotate"):
        new, more = choose(new, 0)
        said += more
    return new, said


@pytest.mark.parametrize("pile", ["stack", "room_discard"])
def test_explore_like_places_a_named_room(pile: str) -> None:
    state = new_game()
    if pile == "room_discard":
        state.stack.remove("attic")
        state.room_discard.append("attic")
    else:
        stack_top(state, "gymnasium")  # not drawn: the named room is searched out
    deck_top(state, "event", "night_view")
    state, events = _explore_named(state, "upper", "attic")
    attic = tile(state, "attic")
    assert state.tiles[attic].floor == "upper" and state.explorers[OX].tile == attic
    assert "attic" not in state.stack + state.room_discard
    assert any("discovers the Attic" in e for e in events)
    assert "night_view" not in state.decks["event"]  # its card symbol is drawn


@pytest.mark.parametrize(("floor", "room"), [
    ("basement", "attic"),  # the Attic is an upper room only
    ("ground", "foyer"),  # already in the house
])
def test_explore_like_a_named_room_that_cannot_come(floor: str, room: str) -> None:
    state = new_game()
    before = list(state.stack)
    state, _ = _explore_named(state, floor, room, [{"move": {"to": "upper_landing"}}])
    assert state.explorers[OX].tile == tile(state, "upper_landing")  # the fallback
    assert state.stack == before and len(state.tiles) == 5


def test_the_beckoning_uses_the_public_explore_function() -> None:
    """No card reaches into explore.py's private placing step."""
    from tests.test_betrayal_engine_helpers import ENGINE

    for path in (ENGINE / "cards").glob("*.py"):
        assert "_place_spot" not in path.read_text(encoding="utf-8"), path.name
