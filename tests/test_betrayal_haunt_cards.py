"""Betrayal haunt: the cards' haunt halves (cards/haunt_cards.py) and the house's favours
to the traitor (seed 003, "Haunt": the traitor and the monsters are not affected by
rolls or cards that do no damage; a traitor may ignore an event it draws; they choose
the Mystic Elevator's result instead of rolling).

- Dynamite: counts as the turn's attack; everyone in the next room rolls Speed; 0-4:
  explorers take 4 physical damage, monsters are stunned (an incorporeal one is not
  touched); 5+ unhurt.
- Druidic Charm: every monster in the room is stunned.
- Bell: 5+ its user moves heroes 1 room toward it; 0-4 the traitor may move monsters 1
  room toward it. The Spirit Board in the haunt: the traitor may then move monsters.

Rigged states (tests/betrayal_haunt_rig.py); `fixed` scripts the dice.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import GAME, effects, movement
from bot.games.betrayal.cards import haunt_cards, rooms
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    LONGFELLOW,
    MISSY,
    act,
    attacks,
    choose,
    fixed,
    hold,
    joined,
    labels,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    tile,
)
from tests.test_betrayal_engine_helpers import deck_top

__all__ = ["fixed", "rig_plugin"]


def _monster(state: BetrayalState, monster_id: int):  # type: ignore[no-untyped-def]
    found = sides.monster(state, f"m{monster_id}")
    assert found is not None
    return found


# ---------------------------------------------------------------- Dynamite

def _dynamite() -> BetrayalState:
    """Darrin in the Foyer with the Dynamite; Missy and the traitor next door, in the
    Entrance Hall, with a Brute and a Ghost (incorporeal)."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    place(state, "entrance_hall", MISSY, JENNY)
    hold(state, DARRIN, "dynamite")
    set_trait(state, MISSY, "speed", 3)
    set_trait(state, JENNY, "speed", 4)
    return state


def test_dynamite_blasts_everyone_in_the_next_room(fixed: list[int]) -> None:
    state = _dynamite()
    brute = spawn(state, "brute", "entrance_hall").id
    ghost = spawn(state, "ghost", "entrance_hall").id
    near = spawn(state, "brute", "foyer").id  # in the thrower's room: untouched
    assert "Use the Dynamite" in labels(state)
    state, _ = act(state, "use", card="dynamite")
    assert state.pending is not None and state.pending.kind == "tile_pick"
    assert state.pending.seat == DARRIN and "Entrance Hall" in state.pending.labels
    fixed.extend([0, 1, 1, 2, 2, 1, 1, 1, 0, 0])  # Brute 2; Missy 5; Jenny 2
    state, events = choose(state, "Entrance Hall")
    assert any("throws it into the Entrance Hall" in e for e in events)
    assert _monster(state, brute).stunned
    assert not _monster(state, ghost).stunned
    assert any("passes through the Ghost" in e for e in events)
    assert not _monster(state, near).stunned
    assert any("Missy Dubourde dives clear" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == JENNY and pending.kind == "damage_split"
    assert "4 physical" in pending.prompt
    state, _ = choose(state, pending.labels[0])  # a split that keeps her alive
    assert state.explorers[JENNY].alive
    assert "dynamite" in state.discards["item"] and "dynamite" not in state.explorers[DARRIN].cards
    assert state.turn.flags.get(combat.ATTACKED)  # it was the turn's attack
    assert attacks(state) == [] and state.turn.seat == DARRIN


def test_dynamite_is_not_offered_once_the_attack_is_made(fixed: list[int]) -> None:
    state = _dynamite()
    brute = spawn(state, "brute", "foyer").id
    fixed.extend([1, 1, 0, 0, 1, 1, 0, 0, 0])  # a tie with the Brute
    set_trait(state, DARRIN, "might", 4)
    state, _ = act(state, "attack", target=f"m{brute}", trait="might")
    assert "Use the Dynamite" not in labels(state)
    assert not haunt_cards.Dynamite().can_use(state, DARRIN, "dynamite")


def test_dynamite_kills_what_its_haunt_says_a_hit_kills(fixed: list[int]) -> None:
    state = _dynamite()
    place(state, "upper_landing", MISSY, JENNY)
    rat = spawn(state, "rat", "entrance_hall").id
    state, _ = act(state, "use", card="dynamite")
    fixed.extend([1, 0, 0, 0])  # the Rat rolls 1
    state, events = choose(state, "Entrance Hall")
    assert sides.monster(state, f"m{rat}") is None
    assert any("The Rat is destroyed" in e for e in events)


# ---------------------------------------------------------------- Druidic Charm

def test_the_druidic_charm_stuns_every_monster_in_the_room() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "druidic_charm")
    here = [spawn(state, "brute", "foyer").id, spawn(state, "rat", "foyer").id]
    away = spawn(state, "brute", "entrance_hall").id
    state, events = act(state, "use", card="druidic_charm")
    assert all(_monster(state, m).stunned for m in here)
    assert not _monster(state, away).stunned
    assert "druidic_charm" in state.discards["item"]
    assert any("smashes the Druidic Charm" in e for e in events)


def test_an_ai_hero_smashes_the_charm_among_two_monsters_not_one() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "druidic_charm")
    spawn(state, "brute", "foyer")
    charm = Action("use", {"card": "druidic_charm"})
    assert GAME.ai_action(state, DARRIN) != charm  # one brute: not worth the charm
    spawn(state, "brute", "foyer")
    assert GAME.ai_action(state, DARRIN) == charm


def test_the_druidic_charm_with_no_monster_about() -> None:
    state = rigged(DARRIN)
    hold(state, DARRIN, "druidic_charm")
    _, events = act(state, "use", card="druidic_charm")
    assert any("No monster is there" in e for e in events)


# ---------------------------------------------------------------- Bell

def _bell() -> BetrayalState:
    """Darrin in the Foyer with the Bell (Sanity 5); Missy west of it on the Grand
    Staircase, Longfellow and the traitor upstairs."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    place(state, "grand_staircase", MISSY)
    hold(state, DARRIN, "bell")
    set_trait(state, DARRIN, "sanity", 5)
    return state


def test_the_bell_on_5_gathers_the_heroes_its_user_picks(fixed: list[int]) -> None:
    state = _bell()
    fixed.extend([1, 1, 1, 1, 1])
    state, _ = act(state, "use", card="bell")
    pending = state.pending
    assert pending is not None and pending.seat == DARRIN and pending.kind == "draw_toward"
    assert pending.labels == ["Missy Dubourde: Grand Staircase → Foyer",
                              "Professor Longfellow: Upper Landing → Grand Staircase",
                              "That is all"]  # heroes only: not the traitor
    state, events = choose(state, "Missy")
    assert state.explorers[MISSY].tile == tile(state, "foyer")
    assert any("Missy Dubourde is drawn 1 room toward" in e for e in events)
    assert state.pending is not None
    assert state.pending.labels == ["Professor Longfellow: Upper Landing → Grand Staircase",
                                    "That is all"]
    state, _ = choose(state, "That is all")
    assert state.pending is None
    assert state.explorers[LONGFELLOW].tile == tile(state, "upper_landing")


def test_the_bell_on_4_or_less_lets_the_traitor_draw_monsters(fixed: list[int]) -> None:
    state = _bell()
    far = spawn(state, "brute", "entrance_hall").id
    spawn(state, "brute", "foyer")  # already with the Bell: nowhere nearer to go
    fixed.extend([0, 0, 0, 0, 0])
    state, _ = act(state, "use", card="bell")
    pending = state.pending
    assert pending is not None and pending.seat == JENNY  # the traitor's choice
    assert pending.labels == ["Brute 1: Entrance Hall → Foyer", "That is all"]
    state, events = choose(state, "Brute 1")
    assert _monster(state, far).tile == tile(state, "foyer")
    assert any("is drawn 1 room toward Darrin" in e for e in events)
    assert state.pending is None  # nobody left to move
    assert state.turn.seat == DARRIN


def test_the_traitor_may_leave_the_monsters_where_they_are(fixed: list[int]) -> None:
    state = _bell()
    far = spawn(state, "brute", "entrance_hall").id
    fixed.extend([0, 0, 0, 0, 0])
    state, _ = act(state, "use", card="bell")
    state, _ = choose(state, "That is all")
    assert _monster(state, far).tile == tile(state, "entrance_hall") and state.pending is None


def test_with_no_traitor_every_monster_must_come(fixed: list[int]) -> None:
    state = _bell()
    assert state.haunt is not None
    state.haunt.traitor = None
    far = spawn(state, "brute", "entrance_hall").id
    fixed.extend([0, 0, 0, 0, 0])
    state, _ = act(state, "use", card="bell")
    assert state.pending is None and _monster(state, far).tile == tile(state, "foyer")


def test_the_spirit_board_in_the_haunt_draws_monsters_too() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "spirit_board")
    far = spawn(state, "brute", "entrance_hall").id
    state, events = act(state, "use", card="spirit_board")
    assert any("consults the Spirit Board" in e for e in events)
    assert state.pending is not None and state.pending.seat == JENNY
    state, _ = choose(state, "Brute")
    assert _monster(state, far).tile == tile(state, "foyer")


# ---------------------------------------------------------------- the house is their home

def test_the_traitor_ignores_room_rolls_that_do_no_damage() -> None:
    state = rigged(JENNY)
    assert state.explorers[JENNY].flags.get(sides.HOME)  # set when the haunt began
    assert haunt_cards.harmless_roll("graveyard") and haunt_cards.harmless_roll("attic")
    assert not haunt_cards.harmless_roll("crypt")  # damage: it still hurts the traitor
    assert not haunt_cards.harmless_roll("library")  # a gain, not a roll
    joined(state, "graveyard", "ground")
    place(state, "graveyard", JENNY, DARRIN)
    assert movement.leave_steps(state, JENNY) == []
    assert movement.leave_steps(state, DARRIN) != []  # a hero still rolls
    move = next(o.action for o in _options(state) if o.action.kind == "move")
    state, events = act(state, move.kind, **move.args)
    assert not any("rolls Sanity" in e for e in events)


def test_the_traitor_may_ignore_an_event_it_draws() -> None:
    for pick, kept in ((1, []), (0, ["axe"])):
        state = rigged(JENNY)
        deck_top(state, "event", "image_in_the_mirror_reversed")  # draw an item
        deck_top(state, "item", "axe")
        ctx = Ctx(state)
        ctx.push([{"draw": {"deck": "event"}}], JENNY)
        effects.run(ctx)
        pending = state.pending
        assert pending is not None and pending.seat == JENNY
        assert pending.labels == ["Resolve it", "Ignore it"]
        state, _ = choose(state, pick)
        assert state.explorers[JENNY].cards == kept
        assert "image_in_the_mirror_reversed" in state.discards["event"]


def test_a_hero_who_draws_an_event_has_no_such_choice() -> None:
    state = rigged(DARRIN)
    deck_top(state, "event", "image_in_the_mirror_reversed")
    deck_top(state, "item", "axe")
    ctx = Ctx(state)
    ctx.push([{"draw": {"deck": "event"}}], DARRIN)
    effects.run(ctx)
    assert state.pending is None and state.explorers[DARRIN].cards == ["axe"]


def test_the_traitor_chooses_where_the_mystic_elevator_goes() -> None:
    state = rigged(JENNY)
    lift = tile(state, "mystic_elevator")
    ctx = Ctx(state)
    movement.place_explorer(ctx, JENNY, lift)
    effects.run(ctx)
    pending = state.pending
    assert pending is not None and pending.seat == JENNY and pending.kind == "elevator_choose"
    assert pending.labels == ["upper floor", "ground floor", "basement"]
    assert not any("rolls 2 dice" in e.text for e in ctx.events)
    assert rooms.elevator_spots(state, lift, ("ground",)), "seed 1's house has room for it"
    state, events = choose(state, "ground")
    assert any("goes where they say, the ground floor" in e for e in events)
    for _ in range(5):
        if state.pending is None:
            break
        state, _ = choose(state, 0)
    assert state.pending is None and state.tiles[lift].floor == "ground"


def test_a_hero_in_the_mystic_elevator_rolls(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    ctx = Ctx(state)
    fixed.extend([0, 0])  # 0: it jolts and stays
    movement.place_explorer(ctx, DARRIN, tile(state, "mystic_elevator"))
    effects.run(ctx)
    assert any("rolls 2 dice" in e.text for e in ctx.events)
    assert any("jolts and shudders" in e.text for e in ctx.events)


def _options(state: BetrayalState) -> list:  # type: ignore[type-arg]
    from bot.games.betrayal import GAME

    seat = GAME.to_act(state)
    assert seat is not None
    return GAME.options(state, seat)


def test_an_ai_hero_throws_the_dynamite_at_a_pack_of_monsters(fixed: list[int]) -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "dynamite")
    pack = [spawn(state, "brute", "grand_staircase").id, spawn(state, "rat", "grand_staircase").id]
    spawn(state, "brute", "entrance_hall")  # one alone: the other room is not worth it
    dynamite = Action("use", {"card": "dynamite"})
    assert GAME.ai_action(state, DARRIN) == dynamite
    state, _ = GAME.apply(state, DARRIN, dynamite)
    assert state.pending is not None  # which room: the AI picks the pack's
    pick = GAME.ai_action(state, DARRIN)  # decided first: its look-ahead rolls dice too
    fixed.extend([0] * 7)  # the brute's 3 and the rat's 4 Speed dice: all blanks
    state, _ = GAME.apply(state, DARRIN, pick)
    hit = [m for m in state.monsters if m.id in pack]
    assert all(m.stunned or not m.alive for m in hit)


def test_no_dynamite_where_a_hero_would_be_caught() -> None:
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    place(state, "grand_staircase", MISSY)
    hold(state, DARRIN, "dynamite")
    spawn(state, "brute", "grand_staircase")
    spawn(state, "brute", "grand_staircase")
    assert GAME.ai_action(state, DARRIN) != Action("use", {"card": "dynamite"})
