"""AI seats that play sensibly, second pass (the first: tests/test_ai_sense.py): rigged
haunt positions where the sensible move is plain from what the seat may see, and the
AI's pick checked against it. Each AI still decides from its seat's view only
(`GAME.ai_action` hands it one).
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import GAME, ai_ways, traits
from bot.games.betrayal.haunting import base, combat, sides
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt import encounters
from bot.games.neibolt.scenarios.lets_kill_this_clown import (
    LetsKillThisClown,
    line_for,
    pennywise,
)
from tests.betrayal_haunt_helpers import put, started, turn_of
from tests.betrayal_haunt_rig import joined, tile

# ---------------------------------------------------------------- a traitor cut off


def stranded() -> tuple[BetrayalState, int]:
    """A Little Night Murder on the cached house, the traitor's turn, the traitor in a
    Crypt joined to the basement (where exploring could have put it) and every hero
    upstairs; the Stairs from Basement never found (its tile swapped for a Junk Room),
    so the only way between the floors leads down (the Collapsed Room's hole): no walk
    takes the traitor to a hero. It holds nothing."""
    state = GAME.copy_state(started("a_little_night_murder")[0])
    traitor = sides.traitor(state)
    assert traitor is not None
    turn_of(state, traitor)
    state.tiles[tile(state, "stairs_from_basement")].room = "junk_room"
    crypt = joined(state, "crypt", "basement")
    for hero in sides.heroes(state):
        state.explorers[hero].tile = tile(state, "upper_landing")
    state.explorers[traitor].tile = crypt
    state.explorers[traitor].cards.clear()
    state.tiles[crypt].items.clear()
    return state, traitor


def test_a_cut_off_traitor_does_not_wait_in_the_crypt() -> None:
    """Seed 003, Crypt: 遊戲回合完結時，若人物停留在這房間，則人物受到1點精神損傷mental
    damage。 [ending a turn there: 1 mental damage]. The traitor hunts the heroes, and no
    way leads up to them (如果一個角色陷落於地下室...直到找到地下室樓梯前他們將被困在地下室:
    stuck in the basement until the Stairs from Basement are found); it waits, as before,
    but not where the wait costs it Sanity or Knowledge each turn: a step out first. The
    old AI ended its turn in the Crypt (A Little Night Murder, seed 9 of
    bench/haunt_endings.py at 4 players: 4 turns running, 1 mental damage each)."""
    state, traitor = stranded()
    crypt = state.explorers[traitor].tile
    assert ai_ways.end_damage(state, traitor, crypt) == ("mental", 1)
    assert all(state.tiles[b].floor == "basement" for a, b, _ in house_links(state)
               if state.tiles[a].floor == "basement")  # no link leads up
    picked = GAME.ai_action(state, traitor)
    assert picked.kind == "move", picked
    after, _ = GAME.apply(state, traitor, picked)
    assert ai_ways.end_damage(after, traitor, after.explorers[traitor].tile) is None


def test_a_traitor_with_a_way_to_the_heroes_still_walks_it() -> None:
    """The same house with the Stairs from Basement in it (地下樓梯Stairs from Basement永遠連接
    門廳Foyer): the hunt goes on as before, a step on the way to the heroes."""
    state = GAME.copy_state(started("a_little_night_murder")[0])
    traitor = sides.traitor(state)
    assert traitor is not None
    turn_of(state, traitor)
    for hero in sides.heroes(state):
        state.explorers[hero].tile = tile(state, "foyer")
    state.explorers[traitor].tile = tile(state, "stairs_from_basement")
    assert GAME.ai_action(state, traitor) == Action(
        "move", {"via": "hidden_stairs_up", "to": tile(state, "foyer")})


# ---------------------------------------------------------------- a room that hurts


def in_the_furnace(brink: bool) -> tuple[BetrayalState, int]:
    """Pay the Piper, a hero's turn in the Furnace Room (joined to the basement where
    exploring could have put it) beside a stunned rat, the other rats elsewhere; with
    `brink`, its Might and Speed on their lowest values above the skull. It holds nothing."""
    state = GAME.copy_state(started("pay_the_piper")[0])
    hero = sides.heroes(state)[0]
    turn_of(state, hero)
    furnace = joined(state, "furnace_room", "basement")
    state.explorers[hero].tile = furnace
    state.explorers[hero].cards.clear()
    state.tiles[furnace].items.clear()
    rats = sides.monsters(state, "rat")
    assert len(rats) >= 2
    rats[0].tile, rats[0].stunned = furnace, True
    for rat in rats[1:]:
        rat.tile = tile(state, "upper_landing")
    if brink:
        state.explorers[hero].traits.update(might=0, speed=0)
    return state, hero


def test_no_turn_ends_where_its_end_kills() -> None:
    """Seed 003, Furnace Room: 遊戲回合完結時，若人物停留在這房間，則人物受到1點肉體損傷
    physical damage。 [ending a turn there: 1 physical damage]; 若無可避免地人物的某項能力
    下降到骷髏skull圖案，則該人物即已死亡 [a trait on the skull: the explorer is dead]. With
    Might and Speed both one step above the skull, the hero's turn may not end there: it
    walks out (or on to the other rats) first. The old AI stood by the stunned rat, its
    goal, ended its turn and died (A Little Night Murder, seed 3 of bench/haunt_endings.py
    at 4 players: Father Rhinehardt, in the room farthest from the servants)."""
    state, hero = in_the_furnace(brink=True)
    furnace = state.explorers[hero].tile
    assert traits.floor_index(state) < 0
    assert ai_ways.end_kills(state, hero, furnace)
    picked = GAME.ai_action(state, hero)
    assert picked.kind == "move", picked
    after, _ = GAME.apply(state, hero, picked)
    assert after.explorers[hero].tile != furnace


def test_a_turn_may_end_by_the_goal_where_it_only_hurts() -> None:
    """The same room with the hero well: 1 damage is a price it may pay to stay by its
    goal (the stunned rat): it stays (fighting the rat, or ending its turn there)."""
    state, hero = in_the_furnace(brink=False)
    assert not ai_ways.end_kills(state, hero, state.explorers[hero].tile)
    assert GAME.ai_action(state, hero).kind in ("attack", "end_turn")


# ---------------------------------------------------------------- Neibolt: a hopeless press


def clown_ready(might: int, speed: int) -> tuple[BetrayalState, int]:
    """Let's Kill This Clown with the number track down to 1 (the heroes go for the
    stun and the crush), a hero's turn on Pennywise's tile with another hero beside it
    (help for the crush), Pennywise awake, every card that would make him cower
    already drawn; the hero's Might and Speed clips at these steps, holding nothing."""
    state, _ = started("lets_kill_this_clown")
    state = GAME.copy_state(state)
    hero, friend = sides.heroes(state)[:2]
    turn_of(state, hero)
    found = pennywise(state)
    assert found is not None and state.haunt is not None
    put(state, found.tile, hero, friend)
    found.stunned = False
    state.haunt.progress["track"] = 1
    plugin = base.PLUGINS["lets_kill_this_clown"]
    assert isinstance(plugin, LetsKillThisClown)
    cowers = plugin.value(state, "cowers")
    deck = state.decks[encounters.DECK]
    drawn = [k for k in deck if line_for(k, cowers)["do"] == ["cower"]]
    state.decks[encounters.DECK] = [k for k in deck if k not in drawn]
    state.discards.setdefault(encounters.DECK, []).extend(drawn)
    state.explorers[hero].traits.update(might=might, speed=speed)
    state.explorers[hero].cards.clear()
    assert plugin.ready(state) and not plugin.cower_to_come(state)
    return state, hero


def test_no_press_whose_usual_loss_kills() -> None:
    """Seed 000, Crush Pennywise: "You can only do this if Pennywise is stunned."; seed
    003's fight: 被擊中的一方，其所受到傷害即兩者擲得點數的差額。 [the one hit takes the
    difference of the two totals as damage]; 若無可避免地人物的某項能力下降到骷髏skull圖案，
    則該人物即已死亡 [a trait on the skull: the explorer is dead]. A hero rolling 2 dice of
    Might against his 6, its Might two steps above the skull and its Speed one, wins 1
    such fight in 40 and loses it by 4 on average: the fight is its death. The old AI
    pressed it because another hero stood by (seed 0 of bench/haunt_endings.py at 4
    players: the hero died so); now it leaves the stun to the stronger."""
    state, hero = clown_ready(might=1, speed=0)
    found = pennywise(state)
    assert found is not None
    ours = traits.value(state, hero, "might")
    assert ours == 2 and (combat.monster_trait(state, found, "might") or 0) - ours == 4
    attack = Action("attack", {"target": f"m{found.id}", "trait": "might"})
    assert attack in [o.action for o in GAME.options(state, hero)]
    assert GAME.ai_action(state, hero) != attack


def test_a_press_that_leaves_the_hero_standing_is_still_made() -> None:
    """The same fight for a hero with room on its tracks (4 dice against his 6, two
    steps on each of Might and Speed above the skull): the stun is worth the risk, as
    before."""
    state, hero = clown_ready(might=3, speed=3)
    found = pennywise(state)
    assert found is not None
    attack = Action("attack", {"target": f"m{found.id}", "trait": "might"})
    assert GAME.ai_action(state, hero) == attack
