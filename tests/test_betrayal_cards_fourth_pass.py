"""Betrayal cards, fourth pass: the sentences of seed 003's omen and item cards that no
test drove yet (the sweep read every card's text, line by line, against the tests of
tests/test_betrayal_cards_*.py, test_betrayal_content_*.py and the haunt's).

- Spirit Board: in the haunt, with no traitor every monster must come; a traitor who
  holds the board moves the monsters itself.
- Dog: opponents and monsters on its way do not slow it.
- Ring: the loser of a Sanity attack takes mental damage, the attacker too.
- Revolver: no use against a foe without Speed.
- Angel Feather, Lucky Stone: "any roll", an attack's dice and a damage roll included.
- Rope: down the Collapsed Room's hole unhurt, at no Speed, and back up.
- It is meant to be: a pile down to one card is still looked at (the defect this pass
  fixed: nothing was shown or said); an empty pile says so.

Rigged haunts (tests/betrayal_haunt_rig.py, `fixed` scripts the dice) and explore-phase
games (tests/test_betrayal_engine_helpers.py, `dice`).
"""

from __future__ import annotations

import pytest

import bot.games.betrayal.cards.omens as card_omens
from bot.core.events import to_player
from bot.games.betrayal.haunting.base import MonsterKind
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    KINDS,
    act,
    attacks,
    fixed,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
)
from tests.test_betrayal_cards_omens_items import act as act_seen
from tests.test_betrayal_engine_helpers import (
    OX,
    apply,
    at,
    choose,
    dice,
    hold,
    labels,
    new_game,
    put,
    tile,
    value,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice", "fixed", "rig_plugin"]


# ---------------------------------------------------------------- Spirit Board

def test_spirit_board_with_no_traitor_every_monster_must_come() -> None:
    """Seed 003, 靈板Spirit Board: 「若故事情節中並無奸徒Traitor，則所有怪物monster都必須
    往玩家的人物移動一步」 [with no traitor in the haunt, every monster must move 1 room
    toward the user's explorer]: no one is asked, each monster comes."""
    state = rigged(DARRIN)
    assert state.haunt is not None
    state.haunt.traitor = None
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "spirit_board")
    east = spawn(state, "brute", "entrance_hall")
    west = spawn(state, "rat", "grand_staircase")
    state, events = act(state, "use", card="spirit_board")
    assert state.pending is None
    foyer = tile(state, "foyer")
    assert [m.tile for m in state.monsters if m.id in (east.id, west.id)] == [foyer, foyer]
    assert sum("is drawn 1 room toward" in e for e in events) == 2


def test_a_traitor_with_the_spirit_board_moves_the_monsters_itself() -> None:
    """Seed 003, 靈板Spirit Board: 「奸徒Traitor(可以是這物件的持有人)可選擇移動任何數目的
    怪物monster往玩家的人物行一步」 [the traitor, who may be the board's holder, may move
    any number of monsters 1 room toward the user]."""
    state = rigged(JENNY)
    place(state, "foyer", JENNY)
    hold(state, JENNY, "spirit_board")
    brute = spawn(state, "brute", "entrance_hall")
    state, _ = act(state, "use", card="spirit_board")
    assert state.pending is not None and state.pending.seat == JENNY
    assert state.pending.labels == ["Brute: Entrance Hall → Foyer", "That is all"]
    state, _ = choose(state, "Brute")
    assert next(m for m in state.monsters if m.id == brute.id).tile == tile(state, "foyer")


# ---------------------------------------------------------------- Dog

def test_the_dog_runs_past_opponents_and_monsters() -> None:
    """Seed 003, 髒狗Dog: 「敵對的人物/怪物不會對牠的移動構成妨礙」 [opposing explorers and
    monsters do not hinder its movement]: the traitor and a monster in the room between
    cost it nothing, and it still fetches from the room beyond."""
    state = rigged(DARRIN)
    place(state, "grand_staircase", DARRIN)
    hold(state, DARRIN, "dog")
    hall = tile(state, "entrance_hall")
    state.tiles[hall].items.append("axe")
    clear = card_omens.dog_range(state, DARRIN)
    assert clear[hall] == 2
    place(state, "foyer", JENNY)  # the traitor, in the way
    spawn(state, "brute", "foyer")
    spawn(state, "rat", "entrance_hall")
    assert card_omens.dog_range(state, DARRIN) == clear
    state, _ = act(state, "use", card="dog")
    assert state.pending is not None
    assert state.pending.prompt == "What does the Dog do in the Entrance Hall?"
    state, _ = choose(state, "Bring back the Axe")
    assert "axe" in state.explorers[DARRIN].cards and state.tiles[hall].items == []


# ---------------------------------------------------------------- Ring

def test_the_ring_s_attacker_who_loses_takes_mental_damage(fixed: list[int]) -> None:
    """Seed 003, 指環Ring: 「人物在其回合中可選擇以神志Sanity作襲擊，敗方所受到傷害即為精神
    損傷mental damage」 [on its turn the explorer may attack with Sanity; the loser's
    damage is mental]: the loser, whichever side, the Ring's own attacker included."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    hold(state, DARRIN, "ring")
    set_trait(state, DARRIN, "sanity", 4)
    set_trait(state, JENNY, "sanity", 4)
    fixed.extend([0, 0, 0, 0, 2, 2, 0, 0])  # Darrin 0, Jenny 4
    state, events = act(state, "attack", target=JENNY, trait="sanity")
    assert any("takes 4 mental damage" in e for e in events)
    pending = state.pending
    assert pending is not None and pending.seat == DARRIN and pending.kind == "damage_split"
    assert "mental" in pending.prompt
    assert all("Sanity" in label or "Knowledge" in label for label in pending.labels)


# ---------------------------------------------------------------- Revolver

def test_the_revolver_is_no_use_against_a_foe_without_speed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003, 手槍Revolver: 「在面對沒有速度Speed的目標時，這能力無效」 [against a target
    without Speed it does nothing]: no shot down the line at such a monster, and no
    Speed attack on one in the room (a bare Might attack stays)."""
    monkeypatch.setitem(KINDS, "statue", MonsterKind("statue", "Statue", {"might": 6},
                                                     "stun", "S"))
    state = rigged(DARRIN)
    place(state, "entrance_hall", DARRIN)
    hold(state, DARRIN, "revolver")
    spawn(state, "statue", "foyer")  # in line, through a door
    near = spawn(state, "statue", "entrance_hall")
    assert attacks(state) == [{"target": f"m{near.id}", "trait": "might"}]


# ---------------------------------------------------------------- Angel Feather, Lucky Stone

def test_the_angel_feather_serves_an_attack_roll(fixed: list[int]) -> None:
    """Seed 003, 翎毛Angel Feather: 「每當人物需要進行任何擲骰前，可選擇使用這物品。使用這
    純白羽毛後，玩家即不用擲骰，其結果作0至8點(玩家揀選)計算。使用後丟棄這牌」 [before any
    roll, use it: no dice, the result is 0 to 8, the player's pick; then discard it]. An
    attack's roll is a roll."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "might", 4)
    set_trait(state, JENNY, "might", 4)
    hold(state, DARRIN, "angel_feather")
    state, _ = act(state, "attack", target=JENNY, trait="might")
    assert state.pending is not None and state.pending.kind == "roll_pre"
    assert state.pending.seat == DARRIN
    state, _ = choose(state, "Angel Feather")
    assert state.pending is not None and state.pending.labels == [str(v) for v in range(9)]
    fixed.extend([1, 1, 0, 0])  # Jenny's 4 dice: 2
    state, events = choose(state, "8")
    assert any("does not roll" in e for e in events)
    assert any("beats Jenny LeClerc by 6" in e for e in events)
    assert "angel_feather" not in state.explorers[DARRIN].cards
    assert state.pending is not None and state.pending.seat == JENNY


def test_the_angel_feather_serves_a_damage_roll(dice: list[int]) -> None:
    """Seed 003, 翎毛Angel Feather: 「每當人物需要進行任何擲骰前」 [before any roll]: a card's
    "roll 1 die, take that much mental damage" is a roll too."""
    state = new_game()
    hold(state, OX, "angel_feather")
    state, _ = run_steps(state, [{"damage": {"kind": "mental", "dice": 1}}])
    assert state.pending is not None and state.pending.kind == "roll_pre"
    state, _ = choose(state, "Angel Feather")
    state, events = choose(state, "0")
    assert "Ox Bellows takes no damage." in events and state.pending is None
    assert state.explorers[OX].traits == new_game().explorers[OX].traits
    assert "angel_feather" in state.discards["item"]


def test_the_lucky_stone_serves_an_attack_roll(fixed: list[int]) -> None:
    """Seed 003, 幸運石Lucky Stone: 「每當人物需要進行任何擲骰，在擲出結果後，即可選擇使用
    這物品。使用這幸運石塊，玩家可選擇重擲任何數目的骰子一次……使用後丟棄這牌」 [after any
    roll, reroll any number of its dice once; then discard it]: an attack's dice too."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "might", 4)
    set_trait(state, JENNY, "might", 4)
    hold(state, DARRIN, "lucky_stone")
    fixed.extend([0, 0, 2, 0])
    state, _ = act(state, "attack", target=JENNY, trait="might")
    assert state.pending is not None and state.pending.kind == "roll_post"
    assert state.pending.labels[0] == "Keep it: 0 0 2 0 = 2"
    state, _ = choose(state, "Lucky Stone")
    state, _ = choose(state, "Pick die 1")
    state, _ = choose(state, "Pick die 4")
    fixed.extend([2, 2, 0, 0, 0, 0])  # the two dice again: 2 2; then Jenny's 4 dice: 0
    state, events = choose(state, "Reroll the picked dice")
    assert any("rerolls: 2 0 2 2 = 6" in e for e in events)
    assert any("beats Jenny LeClerc by 6" in e for e in events)
    assert "lucky_stone" in state.discards["item"]


# ---------------------------------------------------------------- Rope

def test_the_rope_goes_down_the_collapsed_room_unhurt_and_free(dice: list[int]) -> None:
    """Seed 003, 繩索Rope: 「人物可利用繩索於樓座Gallery、或崩塌的房間Collapsed Room中作上下
    攀爬而不會受到損傷」 [with the Rope one climbs up or down at the Gallery or the
    Collapsed Room unhurt] and 「使用繩索等同利用特殊通道移動，無需耗用人物的速度」 [a Rope
    move costs no Speed]. Without it, the hole is a jump for 1 die of damage."""
    state = new_game()
    collapsed = put(state, "collapsed_room", "upper", 1, 0)
    below = put(state, "wine_cellar", "basement", 0, -1)
    state.tiles[collapsed].flags["below"] = below
    at(state, OX, "collapsed_room")
    assert any("Jump" in label for label in labels(state))
    hold(state, OX, "rope")
    assert not any("Jump" in label for label in labels(state))
    speed = value(state, OX, "speed")
    state, events = apply(state, "move", via="rope_down", to=below)
    assert state.explorers[OX].tile == below and state.pending is None
    assert not any("damage" in e for e in events) and not dice
    assert state.turn.moves == 0 and value(state, OX, "speed") == speed
    state, _ = apply(state, "move", via="rope_up", to=collapsed)
    assert state.explorers[OX].tile == collapsed and state.turn.moves == 0



# ---------------------------------------------------------------- It is meant to be

def test_it_is_meant_to_be_shows_the_last_card_of_a_short_pile() -> None:
    """Seed 003, 窺視未來It is meant to be: 「玩家可窺看某一牌疊/房間。玩家抽取3張咭牌/房間，
    在檢視後即可改變其次序」 [the player may look at a deck or the room stack: take 3
    cards or rooms, look at them, reorder them]. A pile down to one card still lets its
    chooser look at that card (for its eyes only), and the table hears that it did; an
    empty pile is said to be empty."""
    state = new_game()
    state.discards["omen"] = [k for k in state.decks["omen"] if k != "dog"]
    state.decks["omen"] = ["dog"]
    state, _ = run_steps(state, [{"custom": "it_is_meant_to_be"}], source="it_is_meant_to_be")
    pick = state.pending.labels.index("Order the top of the omen deck")
    after, events = act_seen(state, "choose", pick=pick)
    seen = [e for e in events if "Dog" in e.text]
    assert seen and all(e.audience == to_player(OX) for e in seen)
    assert any(e.audience.is_public and "glimpsed the top of the omen deck" in e.text
               for e in events)
    assert after.decks["omen"] == ["dog"] and after.pending is None
    state.decks["item"], state.discards["item"] = [], state.decks["item"]
    pick = state.pending.labels.index("Order the top of the item deck")
    after, events = act_seen(state, "choose", pick=pick)
    assert [e.text for e in events] == ["The item deck is empty: there is nothing to glimpse."]
    assert after.decks["item"] == [] and after.pending is None
