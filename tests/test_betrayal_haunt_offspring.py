"""Offspring (haunt #5): seed 003's outline (an evil plant spreads spores that hurt the
heroes and cannot be destroyed; rare plants found in the Conservatory, Gardens or
Graveyard, taken to the plant, give Knowledge successes: {2/2/3/3} kill it; the traitor
wins when every hero is dead) and our design (data/betrayal/haunts/offspring.yaml)."""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.betrayal import GAME, content, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, flow, monsters, sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.offspring import (
    PLANT,
    PLANT_ROOMS,
    RARE,
    SPORES,
    SPORES_FLAG,
    WITHERED,
    Offspring,
    carriers,
    has_token,
    plant_tile,
    tiles_with,
    token,
)
from bot.games.betrayal.house import DIRS, through_door
from bot.games.betrayal.state import BetrayalState
from bot.texts import fill
from tests.betrayal_haunt_helpers import answer_pending, begin, house, played, seed_for

KEY = "offspring"
PLUGIN = Offspring()
SEARCH, WITHER, TAKE = (Action("act", {"what": w}) for w in ("search", "wither", "take"))


def _start(players: int = 4, seed: int = 1, tiles: int = 25) -> tuple[BetrayalState, list[Event]]:
    state, events = begin(house(players, seed, tiles), KEY)
    return _settle(state, events)


def _settle(state: BetrayalState, events: list[Event]) -> tuple[BetrayalState, list[Event]]:
    """Let the AI make any pending choice (where a room goes, which trait takes damage)."""
    events = list(events)
    return answer_pending(state, events), events


def _played(seed: int) -> tuple[BetrayalState, tuple[Event, ...]]:
    return played(KEY, seed)  # shared with the other tests' games of the same seed


def _public(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [e.text for e in events if e.audience.is_public]


def _hero_turn() -> tuple[BetrayalState, int]:
    """Round 1, the first hero to play, nothing pending."""
    state, _ = _start()
    seat = state.turn.seat
    assert state.pending is None and not sides.is_traitor(state, seat)
    return state, seat


def _options(state: BetrayalState, seat: int) -> list[Action]:
    return [o.action for o in GAME.options(state, seat)]


def _rig_dice(monkeypatch: pytest.MonkeyPatch, total: int) -> None:
    monkeypatch.setattr("bot.games.betrayal.rolls.roll_betrayal",
                        lambda rng, n: [total] + [0] * (n - 1))


def _physical(state: BetrayalState, seat: int) -> int:
    return sum(state.explorers[seat].traits[t] for t in ("might", "speed"))


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_roots_the_plant_in_the_traitors_room(players: int) -> None:
    state, events = _start(players)
    traitor = sides.traitor(state)
    assert traitor is not None
    home = state.explorers[traitor].tile
    assert plant_tile(state) == home
    assert has_token(state, home, PLANT) and tiles_with(state, SPORES) == [home]
    assert carriers(state) == [] and state.haunt.progress["successes"] == 0
    assert all(state.explorers[s].flags.get(SPORES_FLAG) for s in sides.heroes(state))
    assert SPORES_FLAG not in state.explorers[traitor].flags
    assert any("thorny vine" in t for t in _public(events))


def test_the_traitor_has_the_lowest_knowledge() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    lowest = min(traits.value(state, s, "knowledge") for s in range(len(state.players)))
    assert traits.value(state, traitor, "knowledge") == lowest


def test_a_missing_garden_and_a_closed_basement_are_placed() -> None:
    built = house(4, 4, 12)  # none of the three rooms; no way out of the basement
    assert not any(built.tile_of(r) is not None for r in PLANT_ROOMS)
    assert flow.basement_cut_off(built)
    state, events = _start(4, 4, 12)
    tile = state.tile_of("gardens")
    assert tile is not None and state.tiles[tile].floor == "ground"
    assert not flow.basement_cut_off(state)
    said = _public(events)
    assert any("Gardens is found" in t for t in said)
    assert any("Stairs from Basement" in t for t in said)


# ---------------------------------------------------------------- the spores

def test_spores_spread_to_every_neighbour_from_the_second_round() -> None:
    state, _ = _start()
    home = plant_tile(state)
    PLUGIN.start_round(Ctx(state))  # round 1: nothing yet
    assert tiles_with(state, SPORES) == [home]
    state.haunt.round = 2
    ctx = Ctx(state)
    PLUGIN.start_round(ctx)
    assert set(tiles_with(state, SPORES)) == {home, *monsters.neighbours(state, home)}
    assert any("drift on" in t for t in _public(ctx.events))
    for tile in tiles_with(state, SPORES):  # one token a room, however often they spread
        assert sum(t["kind"] == SPORES for t in state.tiles[tile].tokens) == 1


def test_spores_that_can_go_no_further_fill_the_house() -> None:
    state, _ = _start()
    for i, tile in enumerate(state.tiles):
        if not has_token(state, i, SPORES):
            tile.tokens.append(token(SPORES))
    state.haunt.round = 5
    PLUGIN.start_round(Ctx(state))
    assert state.over and state.haunt.winner == "traitor"
    assert state.haunt.reason == PLUGIN.text("reason_full")


def _corridor(state: BetrayalState, seat: int) -> tuple[int, str, int, str]:
    """A room A and two rooms B, C through doors (A -> B -> C), none with a rule of its
    own or the plant, for walking into spores."""
    plain = {i for i, t in enumerate(state.tiles)
             if not content.room(t.room).on_enter and not content.room(t.room).on_leave
             and not content.room(t.room).barrier and not content.room(t.room).custom
             and i != plant_tile(state)}
    for a in sorted(plain):
        for d1 in DIRS:
            b = through_door(state, a, d1)
            if b not in plain:
                continue
            for d2 in DIRS:
                c = through_door(state, b, d2)
                if c in plain and c != a:
                    return a, d1, c, d2
    raise AssertionError("no corridor of plain rooms")


def test_walking_into_spores_hurts_once_a_turn_and_ending_a_turn_there_again() -> None:
    state, seat = _hero_turn()
    a, d1, c, d2 = _corridor(state, seat)
    b = through_door(state, a, d1)
    assert b is not None
    for tile in (b, c):
        state.tiles[tile].tokens.append(token(SPORES))
    state.explorers[seat].tile, state.explorers[seat].side = a, None
    explorer = state.explorers[seat]
    explorer.traits["speed"] = 7  # the top of the track: Speed to spare
    for key in explorer.lasting:  # no Lights Out holding the walk to one room
        state.discards[content.card(key).deck].append(key)
    explorer.lasting.clear()
    before = _physical(state, seat)
    state, events = _settle(*GAME.apply(state, seat, Action("move", {"dir": d1})))
    assert state.explorers[seat].tile == b
    assert any("spores burn" in t for t in _public(events))
    assert _physical(state, seat) == before - 1
    state, events = _settle(*GAME.apply(state, seat, Action("move", {"dir": d2})))
    assert state.explorers[seat].tile == c
    assert not any("spores burn" in t for t in _public(events))  # once a turn
    assert _physical(state, seat) == before - 1
    state, events = _settle(*GAME.apply(state, seat, Action("end_turn")))
    assert any("spores burn" in t for t in _public(events))
    assert _physical(state, seat) == before - 2


def test_spores_never_hurt_the_traitor() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    ctx = Ctx(state)
    from bot.games.betrayal.haunting.plugins.offspring import Spores

    Spores().end_turn(ctx, traitor, SPORES_FLAG)
    Spores().entered(ctx, traitor, plant_tile(state), SPORES_FLAG)
    assert not ctx.events and not state.script


# ---------------------------------------------------------------- the heroes' steps

def _in_room(state: BetrayalState, seat: int, tile: int) -> None:
    state.explorers[seat].tile, state.explorers[seat].side = tile, None


@pytest.mark.parametrize(("total", "found"), [(4, True), (3, False)])
def test_a_knowledge_roll_in_a_garden_room_finds_a_rare_plant(
        monkeypatch: pytest.MonkeyPatch, total: int, found: bool) -> None:
    state, seat = _hero_turn()
    garden = state.tile_of("gardens")
    assert garden is not None
    _in_room(state, seat, garden)
    assert SEARCH in _options(state, seat)
    _rig_dice(monkeypatch, total)
    after, events = GAME.apply(state, seat, SEARCH)
    assert (seat in carriers(after)) is found
    assert any("searches the Gardens" in t for t in _public(events))
    assert SEARCH not in _options(after, seat)  # once a turn (and not with a plant)


def test_no_search_elsewhere_and_none_for_the_traitor() -> None:
    state, seat = _hero_turn()
    _in_room(state, seat, plant_tile(state))
    assert SEARCH not in _options(state, seat)
    traitor = sides.traitor(state)
    assert traitor is not None
    for room in PLANT_ROOMS:
        tile = state.tile_of(room)
        if tile is not None:
            _in_room(state, traitor, tile)
            assert PLUGIN.offers(state, traitor) == []


@pytest.mark.parametrize(("over", "gained"), [(0, 1), (-1, 0)])
def test_a_carrier_withers_the_plant_with_knowledge_rolls(
        monkeypatch: pytest.MonkeyPatch, over: int, gained: int) -> None:
    """A roll of {kill}+ is one success; one less is none (the target is a designed,
    tuned number: data/betrayal/haunts/offspring.yaml, so it is read, not pinned)."""
    state, seat = _hero_turn()
    total = PLUGIN.value(state, "kill") + over
    assert WITHER not in _options(state, seat)
    state.haunt.progress["carriers"] = [seat]
    assert WITHER not in _options(state, seat)  # only at the plant
    _in_room(state, seat, plant_tile(state))
    assert WITHER in _options(state, seat)
    _rig_dice(monkeypatch, total)
    after, events = GAME.apply(state, seat, WITHER)
    assert any("holds the rare plant up" in t for t in _public(events))  # declared
    assert after.haunt.progress["successes"] == gained
    assert has_token(after, plant_tile(after), WITHERED) is bool(gained)
    assert seat in carriers(after)  # the rare plant is kept
    assert WITHER not in _options(after, seat)  # once a turn


def test_a_dead_carriers_plant_falls_and_another_hero_takes_it() -> None:
    state, seat = _hero_turn()
    other = next(s for s in sides.heroes(state) if s != seat)
    state.haunt.progress["carriers"] = [other]
    where = state.explorers[other].tile
    ctx = Ctx(state)
    death.die(ctx, other)
    assert carriers(state) == [] and has_token(state, where, RARE)
    assert any("rare plant falls" in t for t in _public(ctx.events))
    _in_room(state, seat, where)
    assert TAKE in _options(state, seat)
    after, _ = GAME.apply(state, seat, TAKE)
    assert carriers(after) == [seat] and not has_token(after, where, RARE)


def test_the_ai_goes_for_plants_then_the_evil_plant_and_the_traitor_hunts_carriers() -> None:
    state, seat = _hero_turn()
    rooms = {state.tile_of(r) for r in PLANT_ROOMS} - {None}
    assert PLUGIN.goals(state, seat) == rooms
    state.haunt.progress["carriers"] = [seat]
    assert PLUGIN.goals(state, seat) == {plant_tile(state)}
    traitor = sides.traitor(state)
    assert traitor is not None
    assert PLUGIN.goals(state, traitor) == {state.explorers[seat].tile}


# ---------------------------------------------------------------- winning

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_plant_dies_at_the_number_of_successes(players: int) -> None:
    state, _ = _start(players)
    needed = {3: 2, 4: 2, 5: 3, 6: 3}[players]
    assert PLUGIN.value(state, "successes") == needed
    state.haunt.progress["successes"] = needed - 1
    assert PLUGIN.winner(state) is None
    state.haunt.progress["successes"] = needed
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_plant"))


def test_every_hero_dead_is_the_traitors_win() -> None:
    state, _ = _start()
    for seat in sides.heroes(state):
        state.explorers[seat].alive = False
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_dead"))


@pytest.mark.parametrize("winner", ["heroes", "traitor"])
def test_seeded_ai_games_reach_either_winner(winner: str) -> None:
    """Each side wins some AI game of the first seeds."""
    state, _ = _played(seed_for(KEY, winner))
    assert state.over and state.haunt.winner == winner
    if winner == "heroes":
        assert state.haunt.progress["successes"] >= PLUGIN.value(state, "successes")


# ---------------------------------------------------------------- secrets

@pytest.mark.parametrize("winner", ["heroes", "traitor"])
def test_books_go_to_their_side_only_and_the_traitors_stays_secret(winner: str) -> None:
    state, events = _played(seed_for(KEY, winner))
    traitor = sides.traitor(state)
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert {e.audience.encode() for e in books} == {f"player:{traitor}", "team:heroes"}
    evil = next(e for e in books if e.audience.encode() == f"player:{traitor}")
    data = load_data(KEY)
    values = {n: PLUGIN.value(state, n) for n in data.values}
    book = data.books["traitor"]
    secret = [fill(str(book["win"]).strip(), **values),
              *[fill(str(line), **values) for line in book["rules"]]]
    assert all(line in evil.text for line in secret)
    end = next(i for i, e in enumerate(events) if e.kind == "game_over")
    before = _public(events[:end])
    for line in secret:
        assert not any(line in text for text in before), line
