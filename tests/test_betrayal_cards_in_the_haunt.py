"""Betrayal: the cards (items, omens, events) once the haunt has begun, where seed 003's
rules for every haunt change how they work (lines 248-262 "objects" and "attacks",
lines 281-313 the haunt and its monsters): stealing, trading, dropping, the Blood
Dagger, the Armor against a monster, no haunt roll in the haunt; and the AI, which in
the haunt must not pay a card's price with its life (the Blood Dagger's Speed, the
Mystic Coin's edge) when the skull is one step away.

Rigged states (tests/betrayal_haunt_rig.py); the dice are scripted (`fixed`): the
attacker's dice first, then the defender's.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import GAME, items
from bot.games.betrayal.haunting import monsters
from tests.betrayal_haunt_rig import (
    DARRIN,
    JENNY,
    MISSY,
    act,
    choose,
    fixed,
    hold,
    place,
    rig_plugin,
    rigged,
    set_trait,
    spawn,
    trait,
)
from tests.test_betrayal_engine_helpers import deck_top
from tests.test_betrayal_engine_traits import run_steps
from tests.test_betrayal_haunt_combat import duel

__all__ = ["fixed", "rig_plugin"]


# ---------------------------------------------------------------- stealing

def test_the_traitor_beating_a_hero_by_two_may_steal_too(fixed: list[int]) -> None:
    """Seed 003 line 261: 「每當人物成功造成2點或以上的損傷時，玩家可選擇偷竊對方身上的一件
    物件」 [whenever an explorer deals 2 or more damage, it may steal one of the other's
    objects instead]: the traitor is an explorer too."""
    state = rigged(JENNY)
    place(state, "foyer", DARRIN, JENNY)
    set_trait(state, DARRIN, "might", 4)
    set_trait(state, JENNY, "might", 4)
    hold(state, DARRIN, "axe")
    fixed.extend([2, 2, 0, 0, 1, 1, 0, 0])  # 4 against 2
    state, _ = act(state, "attack", target=DARRIN, trait="might")
    pending = state.pending
    assert pending is not None and pending.seat == JENNY and pending.kind == "duel_spoils"
    state, _ = choose(state, "Take the Axe")
    assert "axe" in state.explorers[JENNY].cards and "axe" not in state.explorers[DARRIN].cards


def test_a_stolen_blood_dagger_costs_its_loser_two_dice_of_damage(fixed: list[int]) -> None:
    """Blood Dagger (seed 003): 「這物品不可轉交或丟棄。若這物品遭到偷竊，失主需擲骰2顆，其點數
    總和即人物受到的肉體損傷」 [it cannot be handed over nor dropped; if it is stolen, its
    loser rolls 2 dice and takes that much physical damage]."""
    state = duel()
    hold(state, JENNY, "blood_dagger")
    fixed.extend([2, 2, 0, 0, 1, 1, 0, 0])  # 4 against 2
    state, _ = act(state, "attack", target=JENNY, trait="might")
    assert state.pending is not None and state.pending.kind == "duel_spoils"
    fixed.extend([1, 1])  # the loser's 2 dice: 2 physical damage
    state, _ = choose(state, "Take the Blood Dagger")
    assert "blood_dagger" in state.explorers[DARRIN].cards
    pending = state.pending
    assert pending is not None and pending.seat == JENNY and pending.kind == "damage_split"


def test_the_blood_dagger_is_never_traded_nor_dropped_in_the_haunt() -> None:
    """Blood Dagger: 「這物品不可轉交或丟棄」 [it cannot be handed over nor dropped]."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, MISSY)
    hold(state, DARRIN, "blood_dagger", "axe")
    assert {t.give for t in items.trades(state, DARRIN)} == {"axe"}
    assert items.droppable(state, DARRIN) == ["axe"]


# ---------------------------------------------------------------- the Armor

def test_the_armor_takes_a_point_off_a_monsters_blow(fixed: list[int]) -> None:
    """Armor (seed 003): 「每當人物受到肉體損傷physical damage時，其損傷可獲減低1點」 [each
    time the explorer takes physical damage, it takes 1 less]: a monster's blow too."""
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer").id
    place(state, "foyer", DARRIN)
    set_trait(state, DARRIN, "might", 4)
    hold(state, DARRIN, "armor")
    fixed.extend([0, 0, 0])
    state, _ = act(state, "end_turn")
    fixed.extend([1, 1, 0, 0, 0, 0, 0, 0, 0])  # the Brute's 5 dice: 2; Darrin's 4: 0
    state, events = act(state, monsters.M_ATTACK, m=brute, target=DARRIN)
    pending = state.pending
    # 2 points less 1 for the Armor: one step off one physical trait.
    assert pending is not None and pending.kind == "damage_split", events
    assert pending.labels == ["Might (4 → 3)", "Speed (6 → 5)"], pending.labels
    assert any("Armor" in e for e in events), events


def test_the_blood_dagger_costs_speed_against_a_monster(fixed: list[int]) -> None:
    """Blood Dagger: 「人物在其回合中選擇以力量Might作襲擊時，可多擲3顆遊戲骰……其速度Speed
    亦即時下降1個級別」 [attacking with Might on its turn, it rolls 3 more dice, and its
    Speed falls 1 at once]: a monster as much as an explorer."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    brute = spawn(state, "brute", "foyer").id
    set_trait(state, DARRIN, "might", 4)
    set_trait(state, DARRIN, "speed", 6)
    hold(state, DARRIN, "blood_dagger")
    speed = trait(state, DARRIN, "speed")
    fixed.extend([1] * 7 + [0] * 5)
    state, _ = act(state, "attack", target=f"m{brute}", trait="might", weapon="blood_dagger")
    assert trait(state, DARRIN, "speed") < speed



# ---------------------------------------------------------------- omens

def test_an_omen_drawn_in_the_haunt_makes_no_haunt_roll(fixed: list[int]) -> None:
    """Seed 003 line 265: 「遊戲進入作祟Haunt後，則無需再進行揭露真相Haunt Roll」 [once
    the haunt has begun, no more haunt rolls are made]: the omen is still kept."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    deck_top(state, "omen", "skull")
    state, _ = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}], DARRIN)
    assert "skull" in state.explorers[DARRIN].cards and state.turn.omen == "skull"
    state, events = act(state, "end_turn")
    assert not any("haunt roll" in e for e in events), events
    assert state.turn.seat != DARRIN and state.haunt is not None



def test_an_ai_hero_on_its_lowest_speed_does_not_die_by_the_blood_dagger() -> None:
    """Seed 003 line 264: 「若無可避免地人物的某項能力下降到骷髏skull圖案，則該人物即已死亡」
    [an explorer dies when a trait unavoidably falls to the skull] (docs/rulings.md, The
    haunt 1: it dies only when it is unavoidable); the Blood Dagger: 「其速度Speed亦即時
    下降1個級別。……玩家可選不使用這武器」 [its Speed falls 1 at once; the player may
    choose not to use it]. On its lowest Speed the dagger's price kills before a die is
    rolled: the AI fights bare-handed, and takes the dagger while Speed is to spare."""
    state = duel()
    hold(state, DARRIN, "blood_dagger")
    state.explorers[DARRIN].traits["speed"] = 0
    assert GAME.ai_action(state, DARRIN) == Action("attack", {"target": JENNY, "trait": "might"})
    state.explorers[DARRIN].traits["speed"] = 3
    assert GAME.ai_action(state, DARRIN) == Action(
        "attack", {"target": JENNY, "trait": "might", "weapon": "blood_dagger"})



def test_an_ai_hero_does_not_flip_the_coin_when_its_edge_would_kill() -> None:
    """Seed 003 line 264: in the haunt a trait that reaches the skull kills; the Mystic
    Coin: 「骰數是0，竟然豎直！人物的力量Might或速度Speed下降1個級別。知識Knowledge或神志
    Sanity亦同樣下降1個級別」 [a 0: it lands on its edge; lose 1 Might or Speed, and 1
    Knowledge or Sanity]. With Might and Speed both on their lowest values a 0 (one die in
    three) kills for a gain of 1 otherwise: the AI keeps the coin in its pocket; with
    one of them to spare the edge costs no life, and it flips."""
    coin = Action("use", {"card": "mystic_coin"})
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN)
    hold(state, DARRIN, "mystic_coin")
    state.explorers[DARRIN].traits.update(speed=0, might=0)
    assert GAME.ai_action(state, DARRIN) != coin
    state.explorers[DARRIN].traits["might"] = 1
    assert GAME.ai_action(state, DARRIN) == coin



# ---------------------------------------------------------------- weapons once a turn

def test_a_revolver_that_shot_from_afar_is_not_handed_over_that_turn(fixed: list[int]) -> None:
    """Seed 003 line 252: 「在同一回合中，玩家行使某物件的效用後，即不可主動轉交或丟棄該
    物件」 [once you have used an object's effect this turn, you may not hand it over or
    drop it]: a shot from afar, missed and harmless, still used the Revolver."""
    state = rigged(DARRIN)
    place(state, "foyer", DARRIN, MISSY)
    place(state, "entrance_hall", JENNY)
    hold(state, DARRIN, "revolver")
    fixed.extend([0] * 7 + [2] * 4)  # Darrin's 7 blanks, Jenny's 8
    state, events = act(state, "attack", target=JENNY, trait="speed", weapon="revolver",
                        ranged=1)
    assert any("nobody is hurt" in e for e in events), events
    assert items.trades(state, DARRIN) == [] and items.droppable(state, DARRIN) == []
    assert "revolver" in state.explorers[DARRIN].cards
