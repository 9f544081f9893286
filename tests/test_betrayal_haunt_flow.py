"""The haunt's frame (haunting/flow.py, sides.py): the split, the Stairs from Basement,
setup never killing anyone, turn order, the traitor playing from the DM, `/secret`
showing one's book, and play moving on when the explorer whose turn it is dies."""

from __future__ import annotations

from functools import cache

import pytest

from bot.games.betrayal import GAME, explore, traits
from bot.games.betrayal.cards import Cause
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import change
from bot.games.betrayal.haunting import death, flow, sides
from bot.games.betrayal.haunting.plugins.pay_the_piper import PayThePiper
from bot.games.betrayal.state import HEROES, MONSTERS, TRAITOR, BetrayalState
from tests.betrayal_haunt_helpers import answer_pending, begin, explored

KEY = "pay_the_piper"


@cache
def _house(seed: int = 4, tiles: int = 12) -> BetrayalState:
    return explored(4, seed, tiles)


def test_a_cut_off_basement_gets_the_stairs_from_basement() -> None:
    house = _house()
    assert flow.basement_cut_off(house)
    assert "stairs_from_basement" in explore.unplaced(house)
    state, _ = begin(house, KEY)
    said = []
    while state.pending is not None:  # the traitor places the rooms the haunt needs
        assert sides.is_traitor(state, state.pending.seat)
        state, events = GAME.apply(state, state.pending.seat,
                                   GAME.ai_action(state, state.pending.seat))
        said += [e.text for e in events]
    assert any("Stairs from Basement" in text for text in said)
    placed = state.tile_of("stairs_from_basement")
    assert placed is not None and state.tiles[placed].floor == "basement"
    assert state.haunt.round == 1 and state.haunt.stage == HEROES


def test_setup_stops_a_trait_just_above_the_skull(monkeypatch: pytest.MonkeyPatch) -> None:
    original = PayThePiper.setup

    def harsh(self: PayThePiper, ctx: Ctx) -> None:
        change(ctx, 0, "might", -20, Cause())
        original(self, ctx)

    monkeypatch.setattr(PayThePiper, "setup", harsh)
    state = answer_pending(begin(_house(), KEY)[0])
    assert state.explorers[0].alive
    assert traits.index(state, 0, "might") == 0
    ctx = Ctx(state)
    change(ctx, 0, "might", -1, Cause())  # in round 1 the skull is death
    assert not state.explorers[0].alive


def test_turn_order_heroes_from_the_traitors_left_then_traitor_then_monsters() -> None:
    state = answer_pending(begin(_house(), KEY)[0])
    traitor = sides.traitor(state)
    assert traitor is not None
    expected = [(traitor + i) % 4 for i in range(1, 4)]
    assert sides.heroes(state) == expected
    seen = []
    for _ in range(40):
        if state.haunt.round > 1:
            break
        stage = state.haunt.stage
        if not seen or seen[-1] != (stage, state.turn.seat):
            seen.append((stage, state.turn.seat))
        seat = GAME.to_act(state)
        assert seat is not None
        from bot.core.actions import Action

        action = Action("mend") if stage == MONSTERS else Action("end_turn")
        if state.pending is not None:
            action = GAME.ai_action(state, seat)
        state, _ = GAME.apply(state, seat, action)
    assert [s for s in seen if s[0] != MONSTERS] == [(HEROES, s) for s in expected] + [
        (TRAITOR, traitor)]
    assert seen[-1] == (MONSTERS, traitor)


def test_the_traitor_plays_from_the_dm_and_teams_split_the_books() -> None:
    state = answer_pending(begin(_house(), KEY)[0])
    traitor = sides.traitor(state)
    assert traitor is not None
    assert GAME.prompt_private(state, traitor)
    assert not any(GAME.prompt_private(state, s) for s in sides.heroes(state))
    assert GAME.teams(state) == {"heroes": sides.heroes(state, alive=False),
                                 "traitor": [traitor]}
    mine = GAME.private_view(state, traitor)
    theirs = GAME.private_view(state, sides.heroes(state)[0])
    assert "Traitor's Tome" in mine and "Secrets of Survival" not in mine
    assert "Secrets of Survival" in theirs and "Traitor's Tome" not in theirs


def test_before_the_haunt_nobody_plays_from_the_dm() -> None:
    house = _house()
    assert not any(GAME.prompt_private(house, s) for s in range(4))
    assert GAME.teams(house) == {}


def test_an_explorer_dying_on_its_own_turn_ends_it() -> None:
    state = answer_pending(begin(_house(), KEY)[0])
    first = state.turn.seat
    assert state.haunt.stage == HEROES
    ctx = Ctx(state)
    death.die(ctx, first)
    flow.after_action(ctx)
    assert state.turn.seat != first
    assert any("dead" in e.text for e in ctx.events)
    assert first not in sides.heroes(state)


def test_nothing_more_happens_to_an_explorer_who_dies_mid_card() -> None:
    """The rest of a card's steps for the dead are dropped; the card still goes to its
    discard pile (found by random play: a Mystic Slide went on sliding a dead man)."""
    from bot.games.betrayal import effects

    state = answer_pending(begin(_house(), KEY)[0])
    hero = sides.heroes(state)[0]
    state.explorers[hero].traits["might"] = 0
    sanity = traits.index(state, hero, "sanity")
    card = state.decks["event"].pop(0)
    state.resolving.append(card)
    ctx = Ctx(state)
    ctx.push([{"_finish_card": {"card": card}}], hero, card, "event")
    ctx.push([{"lose": {"trait": "might", "amount": 1}},
              {"gain": {"trait": "sanity", "amount": 1}}], hero, card, "event")
    effects.run(ctx)
    assert not state.explorers[hero].alive
    assert traits.index(state, hero, "sanity") == sanity
    assert card in state.discards["event"] and card not in state.resolving


def test_a_companion_of_the_dead_is_not_picked_up_but_follows_the_next_to_arrive() -> None:
    from bot.games.betrayal import items, movement

    state = answer_pending(begin(_house(), KEY)[0])
    hero, other = sides.heroes(state)[:2]
    here = state.explorers[hero].tile
    state.explorers[hero].cards.append("dog")
    ctx = Ctx(state)
    death.die(ctx, hero)
    assert "dog" in state.tiles[here].items
    state.explorers[other].tile = here
    assert "dog" not in items.pickable(state, other)
    away = next(t for t in range(len(state.tiles)) if t != here)
    state.explorers[other].tile = away
    movement.place_explorer(ctx, other, here)
    assert "dog" in state.explorers[other].cards and "dog" not in state.tiles[here].items


def test_split_room_crossings_do_not_stop_the_traitor() -> None:
    from bot.games.betrayal import movement

    state = answer_pending(begin(_house(), KEY)[0])
    traitor = sides.traitor(state)
    hero = sides.heroes(state)[0]
    assert traitor is not None
    for seat in (traitor, hero):
        state.explorers[seat].side = "N"
    catacombs = next((i for i, t in enumerate(state.tiles) if t.room == "catacombs"), 0)
    state.tiles[catacombs].room = "catacombs"
    for seat in (traitor, hero):
        state.explorers[seat].tile = catacombs
    assert movement.crossing_for(state, hero, "S") is not None
    assert movement.crossing_for(state, traitor, "S") is None
