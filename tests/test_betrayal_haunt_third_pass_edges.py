"""A third pass over the eight classic haunts: each side's win at its edges, and the
corners of seed 003's four play reports (lines 1-140) the earlier passes left, each
driven through the engine.

Seed 003 line 313: 「奸徒Traitor或英雄Hero中，一旦一方完成其勝利條件，遊戲即時完結。」 [once
either side meets its goal, the game ends at once]. The engine's own goal for the
traitor's side (docs/rulings.md, The haunt: the traitor wins when no hero is left) stands
beside each haunt's.
"""

from __future__ import annotations

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, death, monsters, sides
from bot.games.betrayal.haunting.plugins.offspring import SPORES, plant_tile, token
from bot.games.betrayal.haunting.plugins.pay_the_piper import CHAMBER
from bot.games.betrayal.state import MONSTERS, BetrayalState
from bot.games.betrayal.traitor import choose_traitor
from tests.betrayal_haunt_helpers import answer_pending, begin, house, put, started, turn_of
from tests.betrayal_haunt_rig import joined, set_trait
from tests.test_betrayal_engine_helpers import dice
from tests.test_betrayal_haunt_its_alive import move_spear

__all__ = ["dice"]  # a fixture, used by name

CLASSIC = ("the_mummy_walks", "its_alive", "pay_the_piper", "a_little_night_murder",
           "offspring", "wail_of_the_banshee", "the_ghost_bride", "better_with_friends")
# The haunts with monsters that attack, and the kind to attack with.
ATTACKERS = {"its_alive": "antibody", "pay_the_piper": "rat",
             "a_little_night_murder": "servant", "the_mummy_walks": "mummy",
             "wail_of_the_banshee": "banshee", "better_with_friends": "friend"}


def _last_hero_standing(key: str) -> tuple[BetrayalState, int, int]:
    """The haunt `key` begun, every hero dead but the last (the one whose death meets
    the traitor's goal: the Banshee's claims), who stands with the traitor one step
    above the skull on every track, in the haunt's last round (its deadline:
    the edge where the clock could hand the heroes the game)."""
    state, _ = started(key)
    assert state.haunt is not None
    traitor = sides.traitor(state)
    assert traitor is not None
    *others, last = sides.heroes(state)
    plugin = base.for_state(state)
    ctx = Ctx(state)
    for seat in others:  # all but the one whose death meets the traitor's goal
        state.explorers[seat].alive = False
        done = plugin.winner(state) is not None
        state.explorers[seat].alive = True
        if done:
            last = seat
            break
        death.die(ctx, seat)
    assert not state.over and plugin.winner(state) is None
    put(state, state.explorers[traitor].tile, traitor, last)
    state.explorers[last].traits.update(speed=0, might=0, sanity=0, knowledge=0)
    state.explorers[traitor].cards.clear()  # no weapon to ask about
    limit = base.for_state(state).last_round(state)
    assert limit is not None
    state.haunt.round = limit
    return state, traitor, last


@pytest.mark.parametrize("key", CLASSIC)
def test_the_last_hero_killed_on_the_traitors_turn_is_the_traitors_win(
        key: str, dice: list[int]) -> None:
    """Seed 003 line 313: the game ends the moment a side meets its goal. The last hero
    dying to the traitor's attack in the haunt's last round is the traitor's win at
    once, whatever the round's end would have brought."""
    state, traitor, last = _last_hero_standing(key)
    turn_of(state, traitor)
    mine = combat.attack_dice(state, traitor, "might", "")
    dice += [2] * mine + [0] * traits.value(state, last, "might")
    state, _ = GAME.apply(state, traitor, Action("attack", {"target": last, "trait": "might"}))
    state = answer_pending(state)
    assert not state.explorers[last].alive
    assert state.over and state.haunt is not None and state.haunt.winner == sides.EVIL


@pytest.mark.parametrize("key", sorted(ATTACKERS))
def test_the_last_hero_killed_by_a_monster_is_the_traitors_win(
        key: str, dice: list[int]) -> None:
    """Seed 003 line 313 with lines 293-294 (the monsters take their turn after the
    traitor's): a monster's attack that kills the last hero ends the game there, in
    the traitor's favour, even in the last round (A Little Night Murder's dawn, line
    98: the heirs must live until dawn, 「在天亮前活下來」)."""
    state, traitor, last = _last_hero_standing(key)
    turn_of(state, traitor)
    state, _ = GAME.apply(state, traitor, Action("end_turn"))
    state = answer_pending(state)
    assert state.haunt is not None and state.haunt.stage == MONSTERS and not state.over
    found = sides.monsters(state, ATTACKERS[key])[0]
    found.tile, found.stunned, found.skip, found.attacked = \
        state.explorers[last].tile, False, False, False
    trait = base.hooks(state, combat.CombatHooks).monster_attack_trait(state, found)
    theirs = combat.monster_trait(state, found, trait)
    assert theirs is not None
    dice += [2] * min(8, theirs) + [0] * traits.value(state, last, trait)
    state, _ = GAME.apply(state, traitor, Action(monsters.M_ATTACK,
                                                 {"m": found.id, "target": last}))
    state = answer_pending(state)
    assert not state.explorers[last].alive
    assert state.over and state.haunt is not None and state.haunt.winner == sides.EVIL


def test_the_last_hero_choked_by_the_spores_is_the_traitors_win() -> None:
    """Seed 003 line 163 (Offspring): 「至於剩下的另一位，在充滿惡毒空氣下劇烈運動而中毒身亡。
    叛徒獲得全面的勝利」 [the last one left died of the poisoned air: a complete win for
    the traitor]: the last hero, ending a turn among the spores, dies of them, and the
    traitor has won."""
    state, _, last = _last_hero_standing("offspring")
    state.haunt.round = 2  # type: ignore[union-attr]
    room = next(i for i in range(len(state.tiles)) if i != plant_tile(state))
    state.tiles[room].tokens.append(token(SPORES))
    put(state, room, last)
    turn_of(state, last)
    state, _ = GAME.apply(state, last, Action("end_turn"))
    state = answer_pending(state)
    assert not state.explorers[last].alive
    assert state.over and state.haunt is not None and state.haunt.winner == sides.EVIL
    assert state.haunt.reason == base.PLUGINS["offspring"].text("reason_dead")


# ---------------------------------------------------------------- Pay the Piper

def _traitor_in_the_chamber(state: BetrayalState) -> None:
    """Before the haunt: the Pentagram Chamber is in the house and the explorer who will
    turn traitor stands in it (Ox Bellows revealed the haunt there)."""
    seat = choose_traitor(state, "pay_the_piper", state.turn.seat)
    assert seat is not None
    put(state, joined(state, CHAMBER, "basement"), seat)


def test_a_traitor_who_begins_in_the_pentagram_chamber_has_entered_it() -> None:
    """Seed 003 line 75: 「因為大牛本身就是觸發劇本的人，而觸發劇本的地點又剛好是五芒星堂，
    也就是叛徒一出場就是待在五芒星堂」 [Ox revealed the haunt in the Pentagram Chamber, so
    the traitor stood in it from the start] made the heroes' second way to win (line 73:
    kill the traitor before she enters the chamber) no use to them: killing her now
    wins nothing; killing every rat still does."""
    state, _ = begin(house(4, 1), "pay_the_piper", prepare=_traitor_in_the_chamber)
    state = answer_pending(state)
    traitor = sides.traitor(state)
    assert traitor is not None and state.at(traitor).room == CHAMBER
    assert state.haunt is not None and state.haunt.progress.get("entered")
    plugin = base.PLUGINS["pay_the_piper"]
    state.explorers[traitor].alive = False
    assert plugin.winner(state) is None
    for rat in sides.monsters(state, "rat"):
        rat.alive = False
    assert plugin.winner(state) == (sides.HERO, plugin.text("reason_rats"))


def test_the_ritual_is_once_a_turn(dice: list[int]) -> None:
    """Seed 003 line 81: each ritual roll in the Pentagram Chamber is one more Sanity
    success towards five (「如果通過就+1個Sanity roll，滿5個就可以招喚」); its book: "once a
    turn" (seed 003 line 245: a voluntary roll is made once a turn)."""
    state, _ = begin(house(4, 1), "pay_the_piper", prepare=_traitor_in_the_chamber)
    state = answer_pending(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    turn_of(state, traitor)
    dice += [2] * 8
    state, _ = GAME.apply(state, traitor, Action("act", {"what": "ritual"}))
    state = answer_pending(state)
    assert state.haunt is not None and state.haunt.progress.get("successes") == 1
    assert not any(o.action.kind == "act" and o.action.args.get("what") == "ritual"
                   for o in GAME.options(state, traitor))


# ---------------------------------------------------------------- It's Alive!

def test_might_3_with_the_spear_rolls_5_dice_against_the_hearts_7() -> None:
    """Seed 003 line 29: 「由於我神父力量3，拿槍可以多投兩顆骰子，所以總共投5顆」 [my priest has
    Might 3; the Spear adds two dice: 5 in all], and line 30: the Heart rolled 7."""
    state, _ = started("its_alive", seed=2)
    heart = sides.monsters(state, "heart")[0]
    hero = next((h for h in sides.heroes(state) if 3 in content.explorer(
        state.explorers[h].key).traits["might"].values), None)
    assert hero is not None, "a hero whose Might track shows a 3"
    move_spear(state, hero)
    put(state, heart.tile, hero)
    set_trait(state, hero, "might", 3)
    turn_of(state, hero)
    label = next(o.label for o in GAME.options(state, hero)
                 if o.action.args.get("what") == f"pierce-{heart.id}")
    assert "5 dice against 7" in label


# ---------------------------------------------------------------- A Little Night Murder

def test_the_ring_stuns_a_servant_with_sanity(dice: list[int]) -> None:
    """Seed 003 lines 94 and 103: the Ring lets the boy attack with Sanity
    (「這只戒指讓小男孩可以已精神波攻擊」) and a servant falls stunned under it
    (「在小男孩強大的精神波攻擊下陷入暈迷狀態」): a servant has Sanity to be fought with, and a
    hit only stuns it."""
    state, _ = started("a_little_night_murder")
    servant = sides.monsters(state, "servant")[0]
    hero = sides.heroes(state)[0]
    put(state, servant.tile, hero)
    state.explorers[hero].cards = ["ring"]
    turn_of(state, hero)
    ref = f"m{servant.id}"
    assert any(c.target == ref and c.trait == "sanity" for c in combat.choices(state, hero))
    mine = combat.attack_dice(state, hero, "sanity", "")
    dice += [2] * mine + [0] * 8
    state, _ = GAME.apply(state, hero, Action("attack", {"target": ref, "trait": "sanity"}))
    state = answer_pending(state)
    found = sides.monster(state, ref)
    assert found is not None and found.stunned
