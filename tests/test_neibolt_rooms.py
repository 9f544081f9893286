"""The four rooms of Betrayal at the Neibolt House (seed 000, "IT Chapter Two-Inspired
Room Tiles"), in games with {"expansion": "neibolt"}: bot/games/neibolt/rooms.py.

Houses are arranged by hand (test_betrayal_engine_helpers.put), the dice scripted
(`dice`); the haunt-time rules (attacks, the traitor's free crossing) use the rigged
haunt of tests/betrayal_haunt_rig.py, played in the Neibolt edition.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from bot.core.events import PUBLIC
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, content, editions, effects
from bot.games.betrayal.cards import PASSIVES, HandPassive, passive
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.house import rotated_doors
from bot.games.betrayal.links import walkable
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt import encounters
from tests.betrayal_haunt_rig import DARRIN, JENNY, MISSY, rig_plugin, rigged, spawn
from tests.test_betrayal_engine_helpers import (
    OX,
    TRIO,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    put,
    stack_top,
)
from tests.test_betrayal_engine_property import check

__all__ = ["dice", "rig_plugin"]

NEIBOLT = "neibolt"
NO_EVENTS = "_test_no_events"  # a flag passive: its explorer may not draw events


@passive(NO_EVENTS)
class NoEvents(HandPassive):
    """Stands in for seed 000's Idol omen: "anything [that] prevents you from drawing
    an Event card"."""

    def prevents_draw(self, state: BetrayalState, seat: int, deck: str, ref: Any) -> bool:
        return deck == "event"


def nb_game(seed: int = 5) -> BetrayalState:
    state, _ = GAME.setup([PlayerInfo(f"P{i}") for i in range(3)], seed,
                          {"explorers": TRIO, "today": "10-01", "expansion": NEIBOLT})
    assert state.edition == NEIBOLT
    return state


def discover(state: BetrayalState, room: str, *, basement: bool = False,
             ) -> tuple[BetrayalState, list[str]]:
    """Ox explores north (from the Entrance Hall, or the Basement Landing) into `room`."""
    if basement:
        at(state, OX, "basement_landing")
    stack_top(state, room)
    state, events = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.kind == "rotate":
        state, more = choose(state, 0)
        events += more
    assert state.tiles[-1].room == room
    return state, events


def first(events: list[str], text: str) -> int:
    return next(i for i, e in enumerate(events) if text in e)


# ---------------------------------------------------------------- Darkened Hallway

def test_the_darkened_hallway_draws_two_events_one_after_the_other(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "When you discover the Darkened Hallway, you draw two Event cards,
    resolving them one at a time in the order they were drawn.\""""
    state = nb_game()
    deck_top(state, "event", "creepy_crawlies", "night_view")
    dice.extend([2] * 16)
    state, events = discover(state, "darkened_hallway")
    assert state.discards["event"][-2:] == ["creepy_crawlies", "night_view"]
    crawlies, view = first(events, "Creepy Crawlies"), first(events, "Night View")
    assert crawlies < first(events, "rolls Sanity") < view  # the first resolved first
    assert view < first(events, "rolls Knowledge")
    # The cards end his movement; holding nothing, he has nothing left to do, and his
    # turn ends by itself (docs/rulings.md, Turns 12).
    assert first(events, "rolls Knowledge") < first(events, "nothing left to do")


def test_the_darkened_hallway_draws_both_events_before_resolving_either(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "Draw both events, resolve them one at a time in the order they were
    drawn." The first (The Walls) places a room with an event symbol, which draws its
    own card: the third from the top, the Hallway's two being off the deck already.
    While the first is resolved the second waits among the cards being read out."""
    state = nb_game()
    stack_top(state, "darkened_hallway", "gardens")
    deck_top(state, "event", "the_walls", "night_view", "creepy_crawlies")
    dice.extend([2] * 40)
    state, events = apply(state, "explore", dir="N")
    while state.pending is not None:
        if "night_view" in state.resolving:
            assert state.decks["event"][0] == "creepy_crawlies"
            check(state)  # every card somewhere, the waiting one too
        state, more = choose(state, 0)
        events += more
    assert first(events, "discovers the Gardens") < first(events, "Creepy Crawlies") \
        < first(events, "Night View")
    assert state.discards["event"][-3:] == ["creepy_crawlies", "the_walls", "night_view"]
    assert state.resolving == []


def test_anything_that_stops_an_event_stops_both() -> None:
    """Seed 000: "If anything prevents you from drawing an Event card (such as using
    the Idol omen), do not draw either Event card.\""""
    state = nb_game()
    deck_top(state, "event", "creepy_crawlies", "night_view")
    state.explorers[OX].flags[NO_EVENTS] = True
    state, events = discover(state, "darkened_hallway")
    assert state.decks["event"][:2] == ["creepy_crawlies", "night_view"]
    assert any("draws neither" in e for e in events)
    assert NO_EVENTS in PASSIVES


def test_a_forbidden_event_is_not_drawn_anywhere(dice) -> None:  # type: ignore[no-untyped-def]
    """The same hook stops an ordinary event room's one draw (the core's draw step)."""
    state = nb_game()
    deck_top(state, "event", "night_view")
    state.explorers[OX].flags[NO_EVENTS] = True
    stack_top(state, *[r for r in state.stack if content.room(r).symbol == "event"
                       and "ground" in content.room(r).floors
                       and not content.room(r).custom][:1])
    state, events = apply(state, "explore", dir="N")
    while state.pending is not None:
        state, more = choose(state, 0)
        events += more
    assert state.decks["event"][0] == "night_view"
    assert any("no event card is drawn" in e for e in events)


# ---------------------------------------------------------------- Old Well

def test_the_old_well_on_four_draws_an_extra_item(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "make a Knowledge roll 4+: Draw an extra item.\""""
    state = nb_game()
    deck_top(state, "item", "axe", "rope")
    dice.extend([2] * 8)
    state, events = discover(state, "old_well", basement=True)
    assert state.explorers[OX].cards == ["axe", "rope"]
    assert first(events, "rolls Knowledge") < first(events, "Axe")  # the roll comes first


def test_the_old_well_below_four_buries_an_item_held(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "0-3: Bury an item." and "remember to make the Knowledge roll
    indicated before you draw your Item": the item buried is one held before."""
    state = nb_game()
    hold(state, OX, "rope", "candle")
    deck_top(state, "item", "axe")
    dice.extend([0] * 8)
    state, _ = discover(state, "old_well", basement=True)
    assert state.pending is not None and state.pending.kind == "nb_bury_item"
    assert "Axe" not in state.pending.labels  # the item of the symbol is not drawn yet
    state, events = choose(state, "Rope")
    assert state.decks["item"][-1] == "rope"  # buried: the bottom of the item deck
    assert sorted(state.explorers[OX].cards) == ["axe", "candle"]
    assert any("buries the **Rope**" in e for e in events)


def test_the_old_well_with_no_item_keeps_the_one_found(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "If you don't have any Item cards, you still get to keep the one you
    find from the Item symbol." Omens are not items: they are never buried."""
    state = nb_game()
    hold(state, OX, "book")
    deck_top(state, "item", "axe")
    dice.extend([0] * 8)
    state, events = discover(state, "old_well", basement=True)
    assert state.pending is None
    assert state.explorers[OX].cards == ["book", "axe"]
    assert any("holds no item" in e for e in events)


def test_the_ai_buries_the_item_it_misses_least(dice) -> None:  # type: ignore[no-untyped-def]
    """The AI answers a choice with its first option: the least missed item."""
    state = nb_game()
    hold(state, OX, "axe", "amulet_of_the_ages", "candle")
    deck_top(state, "item", "rope")
    dice.extend([0] * 8)
    state, _ = discover(state, "old_well", basement=True)
    assert state.pending is not None
    state, _ = apply(state, "choose", pick=GAME.ai_action(state, OX).int_arg("pick"))
    assert state.decks["item"][-1] == "candle"
    assert "amulet_of_the_ages" in state.explorers[OX].cards


# ---------------------------------------------------------------- Ancient Den

def test_the_ancient_den_before_the_haunt_keeps_one_of_two_encounters(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "If you are playing COME HOME TO EVIL and you discover the Ancient Den
    before the haunt starts, draw two Pennywise Encounter cards, and choose which card
    to keep. Bury the other one." The one kept is an encounter like any: it lies face
    up and makes its haunt roll at the end of the turn."""
    state = nb_game()
    deck_top(state, encounters.DECK, "a_stretching_hall", "blood_tendrils")
    omens = list(state.decks["omen"])
    state, _ = discover(state, "ancient_den", basement=True)
    pending = state.pending
    assert pending is not None and pending.kind == "nb_den" and pending.private
    assert sorted(pending.labels) == ["A STRETCHING HALL", "BLOOD TENDRILS"]
    dice.extend([0] * 8)
    state, events = choose(state, "BLOOD TENDRILS")
    while state.pending is not None:  # the scare's damage, split
        state, more = choose(state, 0)
        events += more
    assert state.decks[encounters.DECK][-1] == "a_stretching_hall"  # buried
    assert "a_stretching_hall" not in state.decks[encounters.DECK][:-1]
    assert encounters.face_up(state) == ["blood_tendrils"]
    assert state.decks["omen"] == omens  # instead of the symbol's draw, not besides it
    # Holding nothing, he has nothing left to do: his turn ends by itself
    # (docs/rulings.md, Turns 12), and the kept encounter's roll comes with its end.
    assert first(events, "nothing left to do") < first(events, "Haunt roll for BLOOD TENDRILS")


def test_the_ancient_den_keeps_the_buried_card_secret() -> None:
    state = nb_game()
    deck_top(state, encounters.DECK, "a_stretching_hall", "blood_tendrils")
    state, _ = discover(state, "ancient_den", basement=True)
    new, events = GAME.apply(state, OX, GAME.ai_action(state, OX))
    public = [e.text for e in events if e.audience == PUBLIC]
    buried = new.decks[encounters.DECK][-1]
    name = content.card(buried).name
    assert not any(f"buried **{name}**" in e for e in public)
    assert any(f"You buried **{name}**" in e.text for e in events if e.audience != PUBLIC)


def test_the_ancient_den_in_the_haunt_looks_at_two_omens() -> None:
    """Seed 000: "look at the top two cards of the Omen deck and choose which to keep.
    Bury the other one." (after the haunt starts, the omen symbol draws omens)."""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    deck_top(state, "omen", "bite", "holy_symbol")
    den = put(state, "ancient_den", "basement", 40, 40)
    state.explorers[DARRIN].tile = den
    ctx = Ctx(state)
    ctx.push([{"_symbol": {"tile": den}}], DARRIN, "ancient_den", "room")  # its discovery
    effects.run(ctx)
    pending = state.pending
    assert pending is not None and pending.kind == "nb_den"
    assert pending.labels == ["Holy Symbol", "Bite"]  # the AI's keep listed first
    state, _ = apply(state, "choose", pick=GAME.ai_action(state, DARRIN).int_arg("pick"))
    assert "holy_symbol" in state.explorers[DARRIN].cards
    assert state.decks["omen"][-1] == "bite"


def test_the_ancient_den_with_one_card_left_takes_it() -> None:
    """With one card left there is no choice; with none, nothing is drawn."""
    state = nb_game()
    state.decks[encounters.DECK] = ["blood_tendrils"]
    state, _ = discover(state, "ancient_den", basement=True)
    while state.pending is not None and state.pending.kind != "nb_den":
        state, _ = choose(state, 0)
    assert state.pending is None or state.pending.kind != "nb_den"
    assert encounters.face_up(state) == ["blood_tendrils"]
    empty = nb_game()
    empty.decks[encounters.DECK] = []
    empty, events = discover(empty, "ancient_den", basement=True)
    assert empty.pending is None and any("deck is empty" in e for e in events)


def test_the_ai_keeps_the_encounter_it_rolls_best() -> None:
    state = nb_game()
    deck_top(state, encounters.DECK, "a_stretching_hall", "blood_tendrils")
    state, _ = discover(state, "ancient_den", basement=True)
    ctx_state = state
    from bot.games.betrayal import traits

    knowledge = traits.value(ctx_state, OX, "knowledge")
    might = traits.value(ctx_state, OX, "might")
    best = "BLOOD TENDRILS" if might > knowledge else "A STRETCHING HALL"
    assert state.pending is not None and state.pending.labels[0] == best


# ---------------------------------------------------------------- Winding Tunnels

def _room_with(state: BetrayalState, door: str, taken: list[str]) -> tuple[str, int]:
    """An unplaced plain room, and the turn that gives it a door on `door`."""
    for room in [*state.stack, *state.room_discard]:
        r = content.room(room)
        if room in taken or r.barrier or r.custom or r.key == "winding_tunnels":
            continue
        for rotation in range(4):
            if door in rotated_doors(room, rotation):
                return room, rotation
    raise AssertionError("no room left")


def tunnels(state: BetrayalState, floor: str = "basement") -> tuple[int, int, int]:
    """The Winding Tunnels (doors E W) far from the house, a room on each side:
    (west room, tunnels, east room)."""
    west_room, west_turn = _room_with(state, "E", [])
    east_room, east_turn = _room_with(state, "W", [west_room])
    west = put(state, west_room, floor, 40, 40, west_turn)
    middle = put(state, "winding_tunnels", floor, 41, 40)
    east = put(state, east_room, floor, 42, 40, east_turn)
    return west, middle, east


def test_the_winding_tunnels_cross_on_knowledge_four(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "This tile counts as two unconnected tiles. Make a Knowledge roll 4+ to
    cross to the other side." RULING: a failed crossing ends the movement, as the
    classic split rooms do."""
    state = nb_game()
    _, middle, east = tunnels(state)
    state.explorers[OX].tile, state.explorers[OX].side = middle, "W"
    found = labels(state)
    assert any(label.startswith("Move west") and "cross" not in label for label in found)
    assert any(label.startswith("Move east") and "(cross first: Knowledge 4+)" in label
               for label in found)
    dice.extend([0] * 8)
    stuck, events = apply(state, "move", dir="E")
    # Stopped, and holding nothing: his turn ends by itself (docs/rulings.md, Turns 12).
    assert stuck.explorers[OX].tile == middle and any("nothing left" in e for e in events)
    assert stuck.explorers[OX].side == "W"
    dice[:] = [2] * 8
    across, _ = apply(state, "move", dir="E")
    assert across.explorers[OX].tile == east


def test_the_halves_of_the_tunnels_are_adjacent(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 000: "The rooms are adjacent to each other": crossing to the other half is
    a move of its own (1 Speed), on the same roll."""
    state = nb_game()
    _, middle, _ = tunnels(state)
    state.explorers[OX].tile, state.explorers[OX].side = middle, "W"
    cross = "Cross to the other side of the Winding Tunnels (cross first: Knowledge 4+)"
    assert cross in labels(state)
    dice.extend([2] * 8)
    state, events = apply(state, "move", via="cross_over", to=middle)
    assert state.explorers[OX].tile == middle and state.explorers[OX].side == "E"
    assert state.turn.moves == 1
    assert any("crosses to the other side" in e for e in events)


def test_monsters_and_traitors_cross_without_a_roll() -> None:
    """Seed 000: "Monsters and traitors do not have to roll to cross from one side to
    the other.\""""
    state = rigged(JENNY)
    state.edition = NEIBOLT
    west, middle, east = tunnels(state)
    state.explorers[JENNY].tile, state.explorers[JENNY].side = middle, "W"
    found = labels(state)
    assert any(label.startswith("Move east") and "cross" not in label for label in found)
    state, _ = apply(state, "move", via="cross_over", to=middle)
    assert state.explorers[JENNY].side == "E" and not state.turn.movement_over
    assert {west, east} <= set(walkable(state, middle))  # a monster walks through


def _attacks(state: BetrayalState, seat: int) -> list[tuple[int | str, bool]]:
    return [(c.target, c.ranged) for c in combat.choices(state, seat)]


def test_no_attack_across_the_line() -> None:
    """Seed 000: "You cannot attack across the line unless you do not need to be on the
    same tile and do not need line of sight.\""""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    _, middle, _ = tunnels(state)
    for seat, side in ((DARRIN, "W"), (JENNY, "E")):
        state.explorers[seat].tile, state.explorers[seat].side = middle, side
    hold(state, DARRIN, "revolver")
    assert not any(t == JENNY for t, _ in _attacks(state, DARRIN))
    state.explorers[JENNY].side = "W"
    assert (JENNY, False) in _attacks(state, DARRIN)


def test_no_line_of_sight_between_the_halves_nor_through_the_tunnels() -> None:
    """Seed 000: "The rooms do not have line of sight to each other, and line of sight
    does not continue through this tile." The Revolver sees the near half only."""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    west, middle, east = tunnels(state)
    hold(state, DARRIN, "revolver")
    state.explorers[DARRIN].tile, state.explorers[DARRIN].side = west, None
    state.explorers[JENNY].tile, state.explorers[JENNY].side = middle, "W"
    assert (JENNY, True) in _attacks(state, DARRIN)  # the near half is in sight
    state.explorers[JENNY].side = "E"
    assert not any(t == JENNY for t, _ in _attacks(state, DARRIN))
    state.explorers[JENNY].tile, state.explorers[JENNY].side = east, None
    assert not any(t == JENNY for t, _ in _attacks(state, DARRIN))  # not through it
    assert (middle, "W") in combat.sight_lines(state, west)
    assert east not in combat.line_of_sight(state, west)
    # From the east half one sees out east, never west.
    seen = combat.line_of_sight(state, middle, "E")
    assert east in seen and west not in seen


def test_the_dynamite_lands_in_the_near_half_only(dice) -> None:  # type: ignore[no-untyped-def]
    """The Dynamite is thrown through a door (it needs no shared room, but a door to
    throw through: line of sight, our ruling): into the tunnels it reaches the half
    behind that door; from a half, only that half's door."""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    west, middle, east = tunnels(state)
    hold(state, DARRIN, "dynamite")
    state.explorers[DARRIN].tile = west
    state.explorers[JENNY].tile, state.explorers[JENNY].side = middle, "E"
    state.explorers[MISSY].tile, state.explorers[MISSY].side = middle, "W"
    from bot.games.betrayal.cards.haunt_cards import blast_rooms

    assert middle in blast_rooms(state, DARRIN)
    dice.extend([0] * 16)
    state, events = apply(state, "use", card="dynamite")
    while state.pending is not None and state.pending.kind == "tile_pick":
        state, more = choose(state, content.room("winding_tunnels").name)
        events += more
    rolled = [e for e in events if "rolls Speed" in e]
    assert any("Missy" in e for e in rolled) and not any("Jenny" in e for e in rolled)
    state2 = rigged(DARRIN)
    state2.edition = NEIBOLT
    west, middle, east = tunnels(state2)
    state2.explorers[DARRIN].tile, state2.explorers[DARRIN].side = middle, "E"
    assert blast_rooms(state2, DARRIN) == [east]


def test_a_monster_in_the_tunnels_is_no_one_s_side() -> None:
    """Monsters have no side (they cross freely): a hero on either half may fight one
    there, as in the classic split rooms."""
    state = rigged(DARRIN)
    state.edition = NEIBOLT
    _, middle, _ = tunnels(state)
    state.explorers[DARRIN].tile, state.explorers[DARRIN].side = middle, "W"
    brute = spawn(state, "brute", "winding_tunnels")
    assert (f"m{brute.id}", False) in _attacks(state, DARRIN)
    assert sides.side_of(state, f"m{brute.id}") == sides.EVIL


# ---------------------------------------------------------------- AI games

ROOMS = ("darkened_hallway", "old_well", "ancient_den", "winding_tunnels")


@pytest.mark.parametrize("seed", range(1, 21))
def test_ai_neibolt_games_reach_the_haunt_with_every_room(seed: int) -> None:
    """20 AI games of the Neibolt edition at 4 players: the haunt trigger is held back
    until the four rooms are placed (each discovered, its draw made), then the game
    goes on to the haunt (a scenario with no plugin yet ends the game there). Every
    invariant of the property test holds after every action, and both parts are
    bounded."""
    infos = [PlayerInfo(f"P{i}", ai=True) for i in range(4)]
    state, _ = GAME.setup(infos, seed, {"today": "06-01", "expansion": NEIBOLT})
    edition = editions.get(NEIBOLT)
    with mock.patch.object(edition, "turn_over", lambda ctx, frame: None), \
            mock.patch.object(edition, "stalled", lambda state: False):
        for _ in range(3000):
            if all(state.tile_of(r) is not None for r in ROOMS) and state.pending is None \
                    and not state.script:
                break
            state = _ai_step(state)
    assert all(state.tile_of(r) is not None for r in ROOMS)
    for _ in range(1500):
        if state.haunt is not None or state.over:
            break
        state = _ai_step(state)
    assert state.haunt is not None


def _ai_step(state: BetrayalState) -> BetrayalState:
    seat = GAME.to_act(state)
    assert seat is not None
    state, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
    assert all(e.text for e in events)
    check(state)
    return state


def test_the_room_passives_are_registered() -> None:
    for name in ("darkened_hallway", "old_well", "ancient_den", "winding_tunnels"):
        assert name in PASSIVES and content.room(name).custom == name
