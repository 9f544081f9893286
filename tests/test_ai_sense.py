"""AI seats that play sensibly: rigged positions where the sensible move is plain from
what the seat may see, and the AI's pick checked against it (bench/bench_ai_balance.py
watches whole games; these pin single decisions). Each AI still decides from its
seat's view only (`GAME.ai_action` hands it one).
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import GAME, traits
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.state import BetrayalState
from bot.games.neibolt.scenarios.lets_kill_this_clown import crush_dice, pennywise
from tests.betrayal_haunt_helpers import put, started, turn_of
from tests.test_betrayal_engine_helpers import MISSY, OX, hold, new_game

# ---------------------------------------------------------------- Betrayal: healing


def test_a_healing_card_is_kept_while_no_one_needs_it() -> None:
    """Seed 003, Healing Salve: 被醫治的人物若其力量Might及速度Speed中，任何一項或兩項低於
    其基本值，則低於基本值的能力即可回復至基本值。使用後丟棄這牌。 [Might or Speed below its
    starting value goes back up to it; then discard the card]; Smelling Salts the same
    for Knowledge. On turn 1 every trait is at its starting value: using either card
    heals nothing and throws it away (the old AI used both at once)."""
    state = new_game()
    state.ai = [True] * len(state.ai)
    hold(state, OX, "healing_salve", "smelling_salts")
    picked = GAME.ai_action(state, OX)
    assert picked.kind != "use", picked


def test_a_wounded_hero_heals_before_walking_on() -> None:
    """The same card in the haunt: a hero whose Might fell below its starting value
    holds a Healing Salve, which it may use on its turn (人物在其回合中可選擇在自己...身上
    使用這藥糊). Healing costs no movement and only helps; the old AI walked on towards
    its goal and never used it (the haunt's AI decided before the cards were looked at)."""
    state, _ = started("a_little_night_murder")
    hero = sides.heroes(state)[0]
    turn_of(state, hero)
    hold(state, hero, "healing_salve")
    state.explorers[hero].traits["might"] = 1
    assert traits.below_start(state, hero, "might")
    assert GAME.ai_action(state, hero) == Action("use", {"card": "healing_salve"})


def test_a_healing_card_goes_to_the_one_who_needs_it() -> None:
    """人物在其回合中可選擇在自己、或同處一室的其他人身上使用嗅鹽。 [on yourself or another
    explorer in your room]. Ox is well, Missy beside him has lost Knowledge: the salts
    are for her (the old AI gave them to Ox, healing nothing, and lost the card)."""
    state = new_game()
    state.ai = [True] * len(state.ai)
    hold(state, OX, "smelling_salts")
    state.explorers[MISSY].traits["knowledge"] -= 2
    assert traits.below_start(state, MISSY, "knowledge")
    used = GAME.ai_action(state, OX)
    assert used == Action("use", {"card": "smelling_salts"})
    state, _ = GAME.apply(state, OX, used)
    assert state.pending is not None and state.pending.kind == "patient_pick"
    state, _ = GAME.apply(state, OX, GAME.ai_action(state, OX))
    assert not traits.below_start(state, MISSY, "knowledge")


# ---------------------------------------------------------------- Neibolt: the Clown's crush


def clown_stunned(track: int, might: int) -> tuple[BetrayalState, int]:
    """Let's Kill This Clown: a hero's turn on Pennywise's tile, Pennywise stunned, the
    number track at `track`, the hero's Might clip at `might`."""
    state, _ = started("lets_kill_this_clown")
    hero = sides.heroes(state)[0]
    turn_of(state, hero)
    found = pennywise(state)
    assert found is not None and state.haunt is not None
    put(state, found.tile, hero)
    found.stunned = True
    state.haunt.progress["track"] = track
    state.explorers[hero].traits["might"] = might
    return state, hero


def test_no_crush_that_cannot_succeed() -> None:
    """Seed 000, Crush Pennywise: "make a Might roll. Add 1 to your roll for each other
    hero on the tile ... Subtract the number on the number track from your result.
    5+ The heroes win! 0-4 Take the red balloon token. Move the number track up one
    space." With the most its dice can show still under 5, a crush only moves the
    track up (the old AI crushed whenever it could, even with no chance at all)."""
    state, hero = clown_stunned(track=3, might=0)
    others = sum(1 for h in sides.heroes(state)
                 if h != hero and state.explorers[h].tile == state.explorers[hero].tile)
    assert 2 * crush_dice(state, hero) + others - 3 < 5  # every face a 2: still short
    assert GAME.ai_action(state, hero) != Action("act", {"what": "crush"})


def test_a_crush_that_may_win_is_still_made() -> None:
    """The same moment with the track at 1 and the hero at its strongest: the crush can
    win now, and is taken."""
    state, hero = clown_stunned(track=1, might=7)
    assert crush_dice(state, hero) >= 4
    assert GAME.ai_action(state, hero) == Action("act", {"what": "crush"})
