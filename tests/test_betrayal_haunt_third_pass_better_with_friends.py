"""A third pass over Better with Friends (haunt #8) against seed 003's note on it.

Seed 003 line 979: 「冒險者的勝利條件是找到獨木舟並且『所有人』到達高塔。也因為『所有人』這個
條件讓冒險者可能憤而殺害自己同伴的(XD)狀況發生。」 [the heroes win by finding the canoe and
*everyone* reaching the Tower; and because of that "everyone", explorers may end up
killing their own companions]. So in this haunt a hero may attack another hero, and the
heroes' goal counts the living only (its book: "the canoe and every living hero are in
the Tower"). Seed 003 line 298 lets each side attack the other in every haunt; only here
does a companion's death bring a side's goal nearer, so only here may heroes fight.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.haunting.plugins.better_with_friends import refuge
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import answer_pending, put, started, turn_of
from tests.test_betrayal_engine_helpers import dice

__all__ = ["dice"]  # a fixture, used by name


def _companions(key: str = "better_with_friends") -> tuple[BetrayalState, int, int]:
    """The haunt `key` begun; two heroes side by side in a dry room above the basement,
    the first to play."""
    state, _ = started(key)
    first, second = sides.heroes(state)[:2]
    room = next(i for i, t in enumerate(state.tiles) if t.floor != "basement"
                and not t.tokens and i != refuge(state)) if key == "better_with_friends" \
        else state.explorers[first].tile
    put(state, room, first, second)
    turn_of(state, first)
    return state, first, second


def test_a_hero_may_attack_a_companion() -> None:
    """Seed 003 line 979: the heroes of this haunt may kill their own companions."""
    state, first, second = _companions()
    assert second in [c.target for c in combat.choices(state, first)]
    assert any(o.action.kind == "attack" and o.action.args["target"] == second
               for o in GAME.options(state, first))


def test_a_companion_killed_rises_as_a_drowned_friend(dice: list[int]) -> None:
    """Seed 003 line 979 (a hero may kill a companion) with the heroes' book: "Every hero
    who dies rises as a Drowned Friend"; a companion's death leaves one hero fewer who
    must reach the Tower."""
    state, first, second = _companions()
    state.explorers[second].traits.update(speed=0, might=0)  # a step above the skull
    friends = len(sides.monsters(state, "friend"))
    count = combat.attack_dice(state, first, "might", "")
    dice += [2] * count + [0] * 8  # the attack, then the companion's Might roll
    state, _ = GAME.apply(state, first, Action("attack", {"target": second,
                                                          "trait": "might"}))
    state = answer_pending(state)
    assert not state.explorers[second].alive
    assert len(sides.monsters(state, "friend")) == friends + 1
    assert second not in sides.heroes(state)


def test_the_ai_never_attacks_a_companion() -> None:
    """The heroes' AI plays for the heroes' side: a fight with a companion is there for
    a player to choose, never for the AI."""
    state, first, second = _companions()
    state.explorers[first].traits["might"] = 7  # the strongest in the room by far
    state.explorers[second].traits["might"] = 0
    action = GAME.ai_action(state, first)
    assert not (action.kind == "attack" and action.args.get("target") == second)


def test_heroes_of_another_haunt_do_not_fight_each_other() -> None:
    """Seed 003 line 298: 「敵對雙方的人物/怪物……亦可對另一方的人物/怪物進行襲擊」 [each
    side may attack the other side's explorers and monsters]: elsewhere a hero has no
    attack on a hero."""
    state, first, second = _companions("pay_the_piper")
    assert second not in [c.target for c in combat.choices(state, first)]
