"""Betrayal engine: trait tracks, damage and its split, and every roll modifier."""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import GAME, effects, rolls, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.state import HAUNT, BetrayalState, Frame
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    choose,
    deck_top,
    dice,
    hold,
    new_game,
    stack_top,
    value,
)

__all__ = ["dice"]


def run_steps(state: BetrayalState, steps: list[dict[str, Any]], seat: int = OX,
              source: str = "", origin: str = "engine") -> tuple[BetrayalState, list[str]]:
    """Run steps through the interpreter on a copy (as a card would)."""
    new = GAME.copy_state(state)
    ctx = Ctx(new)
    ctx.push(steps, seat, source, origin)
    effects.run(ctx)
    return new, [e.text for e in ctx.events]


# ---------------------------------------------------------------- tracks

def test_value_is_the_track_at_the_clip() -> None:
    state = new_game()
    # Ox: Speed 2 2 2 3 [4] 5 5 6, Might 4 5 [5] 6 6 7 8 8
    assert value(state, OX, "speed") == 4 and value(state, OX, "might") == 5
    state.explorers[OX].traits["might"] = 7
    assert value(state, OX, "might") == 8


def test_gains_stop_at_the_top_and_losses_at_the_lowest_value() -> None:
    state = new_game()
    state, events = run_steps(state, [{"gain": {"trait": "speed", "amount": 9}}])
    assert state.explorers[OX].traits["speed"] == 7 and value(state, OX, "speed") == 6
    state, events = run_steps(state, [{"lose": {"trait": "speed", "amount": 20}}])
    assert state.explorers[OX].traits["speed"] == 0  # before the haunt: never the skull
    state, events = run_steps(state, [{"lose": {"trait": "speed", "amount": 1}}])
    assert any("already at its lowest" in e for e in events)


def test_after_the_haunt_the_skull_is_reachable() -> None:
    state = new_game()
    state.phase = HAUNT
    assert traits.shift(state, OX, "sanity", -9) == -3
    assert state.explorers[OX].traits["sanity"] == -1 and value(state, OX, "sanity") == 0


def test_gain_with_a_choice_pauses() -> None:
    state = new_game()
    state, _ = run_steps(state, [{"gain": {"choose": ["might", "speed"], "amount": 1}}])
    assert state.pending and state.pending.kind == "trait_pick"
    assert state.pending.labels == ["Might (5 → 6)", "Speed (4 → 5)"]
    state, _ = choose(state, 1)
    assert value(state, OX, "speed") == 5 and state.pending is None


def test_heal_back_to_start() -> None:
    state = new_game()
    state.explorers[OX].traits.update(might=0, speed=6)
    state, _ = run_steps(state, [{"heal": {"traits": ["might", "speed"], "to": "start"}}])
    assert state.explorers[OX].traits["might"] == 2 and state.explorers[OX].traits["speed"] == 6


# ---------------------------------------------------------------- damage

def test_damage_is_split_in_one_choice() -> None:
    state = new_game()  # Ox: Might 5 5 at the top of its track, Speed 4 then 3 below
    state, _ = run_steps(state, [{"damage": {"kind": "physical", "amount": 2}}])
    assert state.pending and state.pending.kind == "damage_split"
    assert "2 physical damage" in state.pending.prompt
    assert state.pending.labels == ["All 2 to Might (5 → 4)",
                                    "1 to Might (stays 5), 1 to Speed (4 → 3)",
                                    "All 2 to Speed (4 → 2)"]
    before = dict(state.explorers[OX].traits)
    state, _ = choose(state, 1)
    after = state.explorers[OX].traits
    assert after["might"] == before["might"] - 1 and after["speed"] == before["speed"] - 1
    assert state.pending is None  # one pick took both points


def test_mental_and_general_damage_reach_their_traits() -> None:
    state = new_game()
    state, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 1}}])
    assert [label.split(" (")[0] for label in state.pending.labels] == ["Sanity", "Knowledge"]
    state = new_game()
    state, _ = run_steps(state, [{"damage": {"kind": "general", "amount": 1}}])
    assert len(state.pending.labels) == 4
    state = new_game()  # 7 general damage: 120 splits, so the first trait's share first
    state, _ = run_steps(state, [{"damage": {"kind": "general", "amount": 7}}])
    assert state.pending.labels[0].startswith("7 to Speed") and "then the rest" in \
        state.pending.labels[0] and state.pending.labels[-1] == "None to Speed, then the rest"
    assert len(state.pending.labels) == 8


def test_damage_goes_where_it_can() -> None:
    state = new_game()
    state.explorers[OX].traits["might"] = 0
    state, _ = run_steps(state, [{"damage": {"kind": "physical", "amount": 2}}])
    assert state.pending is None and state.explorers[OX].traits["speed"] == 2
    state.explorers[OX].traits["speed"] = 0
    state, _ = run_steps(state, [{"damage": {"kind": "physical", "amount": 2}}])
    assert state.pending is None  # nothing left to lose before the haunt


def test_damage_dice(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2])
    state, events = run_steps(state, [{"damage": {"kind": "physical", "dice": 1}}])
    assert any("takes 2 physical damage" in e for e in events)


def test_armor_takes_one_off_physical_damage() -> None:
    state = new_game()
    hold(state, OX, "armor")
    state, events = run_steps(state, [{"damage": {"kind": "physical", "amount": 1}}])
    assert state.pending is None and any("Armor soaks up 1" in e for e in events)
    state, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 1}}])
    assert state.pending is not None  # mental damage goes through


def test_the_skull_turns_mental_damage_physical() -> None:
    state = new_game()
    hold(state, OX, "skull")
    state, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 1}}])
    assert state.pending and state.pending.kind == "damage_offer"
    state, _ = choose(state, "Skull")
    assert state.pending and state.pending.labels[0].startswith("Might")


def test_an_unseen_attack(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 2, 1])  # the attacker: 7
    dice.extend([1, 1, 0, 0, 1])  # Ox's Might 5 dice: 3
    state, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert any("7" in e and "attacks" in e for e in events)
    assert state.pending and "4 physical damage" in state.pending.prompt
    state = new_game()
    dice.extend([0, 0, 0, 1, 2, 2, 0, 0, 0])
    state, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert state.pending is None and any("fends it off" in e for e in events)


# ---------------------------------------------------------------- roll modifiers

def _dice(state: BetrayalState, trait: str, origin: str = "engine", seat: int = OX,
          **spec: Any) -> int:
    return rolls.dice_for(state, Frame([], seat, "", origin), {"trait": trait, **spec})


def test_trait_roll_dice_and_their_bounds() -> None:
    state = new_game()
    assert _dice(state, "might") == 5
    state.explorers[OX].traits["might"] = 7  # 8
    state.tiles[state.explorers[OX].tile].tokens.append({"kind": "blessing",
                                                         "card": "a_moment_of_hope"})
    assert _dice(state, "might") == 8  # never more than 8
    state = new_game()
    state.tiles[state.explorers[OX].tile].tokens.append({"kind": "smoke", "card": "smoke"})
    state.explorers[OX].traits["speed"] = 0  # 2
    assert _dice(state, "speed") == 1  # never fewer than 1


def test_room_tokens_change_trait_rolls() -> None:
    state = new_game()
    here = state.tiles[state.explorers[OX].tile]
    here.tokens.append({"kind": "blessing", "card": "a_moment_of_hope"})
    assert _dice(state, "sanity") == 4
    here.tokens.append({"kind": "drip", "card": "drip_drip_drip"})
    assert _dice(state, "sanity") == 3
    assert _dice(state, "might", purpose="defense") == 5  # attacks are not trait rolls
    assert _dice(state, "sanity", seat=MISSY) == 3  # Missy stands there too


def test_the_candle_helps_event_rolls_only() -> None:
    state = new_game()
    hold(state, OX, "candle")
    assert _dice(state, "sanity") == 3
    assert _dice(state, "sanity", origin="event") == 4


def test_extra_dice_a_card_asks_for() -> None:
    state = new_game()
    frame = Frame([], OX, "groundskeeper", "event", {"extra_dice": -2})
    assert rolls.dice_for(state, frame, {"trait": "knowledge"}) == 1


def test_outcomes_pick_by_total(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    roll = {"roll": {"dice": 2, "outcomes": [
        {"min": 4, "do": [{"gain": {"trait": "sanity", "amount": 1}}]},
        {"min": 1, "max": 3, "do": [{"gain": {"trait": "knowledge", "amount": 1}}]},
        {"max": 0, "do": [{"lose": {"trait": "might", "amount": 1}}]}]}}
    dice.extend([1, 2])
    new, _ = run_steps(state, [roll])
    assert new.explorers[OX].traits["knowledge"] == 3
    dice.extend([0, 0])
    new, _ = run_steps(state, [roll])
    assert new.explorers[OX].traits["might"] == 1


def test_angel_feather_picks_the_result() -> None:
    state = new_game()
    hold(state, OX, "angel_feather")
    state, _ = run_steps(state, [{"roll": {"trait": "might", "outcomes": [
        {"min": 8, "do": [{"gain": {"trait": "might", "amount": 1}}]}]}}])
    assert state.pending and state.pending.kind == "roll_pre"
    state, _ = choose(state, "Angel Feather")
    assert state.pending.kind == "roll_value" and state.pending.labels[-1] == "8"
    state, events = choose(state, 8)
    assert state.explorers[OX].traits["might"] == 3
    assert "angel_feather" in state.discards["item"] and not state.explorers[OX].cards
    assert any("does not roll" in e for e in events)


def test_adrenaline_shot_adds_four(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "adrenaline_shot")
    state, _ = run_steps(state, [{"roll": {"dice": 2}}])
    assert state.pending is None  # not a trait roll: no offer
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge", "outcomes": [
        {"min": 5, "do": [{"gain": {"trait": "knowledge", "amount": 1}}]}]}}])
    dice.extend([1, 0, 0])
    state, events = choose(state, "Adrenaline")
    assert any("+4 = 5" in e for e in events)
    assert state.explorers[OX].traits["knowledge"] == 3
    assert "adrenaline_shot" in state.discards["item"]


def test_lucky_stone_rerolls_blanks(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "lucky_stone")
    dice.extend([0, 2, 0])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    assert state.pending.kind == "roll_post" and state.pending.labels[0] == "Keep it: 0 2 0 = 2"
    state, _ = choose(state, "Lucky Stone")
    state, _ = choose(state, "Pick die 1")
    state, _ = choose(state, "Pick die 3")
    dice.extend([2, 1])
    state, events = choose(state, "Reroll the picked dice: 0 0")
    assert any("rerolls: 2 2 1 = 5" in e for e in events)
    assert state.pending is None and "lucky_stone" in state.discards["item"]


def test_rabbits_foot_once_a_turn_on_your_own_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "rabbits_foot")
    hold(state, MISSY, "angel_feather")
    dice.extend([0, 2, 1])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    assert [label for label in state.pending.labels] == [
        "Keep it: 0 2 1 = 3", "Use the Rabbit's Foot: reroll a 0",
        "Use the Rabbit's Foot: reroll a 1", "Use the Rabbit's Foot: reroll a 2"]
    dice.extend([2])
    state, events = choose(state, "reroll a 0")
    assert any("rerolls: 2 2 1 = 5" in e for e in events) and state.pending is None
    assert "rabbits_foot" in state.turn.used and "rabbits_foot" in state.explorers[OX].cards
    dice.extend([0, 0, 0])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    assert state.pending is None  # used this turn
    hold(state, MISSY, "rabbits_foot")
    state, _ = run_steps(state, [{"roll": {"dice": 1}}], seat=MISSY)
    assert all("Rabbit" not in label for label in state.pending.labels)  # not Missy's turn


def test_it_is_meant_to_be_keeps_a_roll_for_later(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 2, 1])
    state, _ = run_steps(state, [{"custom": "it_is_meant_to_be"}], source="it_is_meant_to_be")
    state, _ = choose(state, "Roll 4 dice")
    assert state.explorers[OX].flags["it_is_meant_to_be"] == 7
    state, _ = run_steps(state, [{"roll": {"trait": "sanity"}}])
    state, events = choose(state, "foreseen roll: 7")
    assert "it_is_meant_to_be" not in state.explorers[OX].flags
    assert any("the result is 7" in e for e in events)


def test_it_is_meant_to_be_orders_a_pile() -> None:
    state = new_game()
    stack_top(state, "attic", "tower", "vault")
    state, _ = run_steps(state, [{"custom": "it_is_meant_to_be"}])
    state, _ = choose(state, "room stack")
    assert len(state.pending.labels) == 6
    state, _ = choose(state, "Vault, Tower, Attic")
    assert state.stack[:3] == ["vault", "tower", "attic"]


def test_a_held_card_is_offered_through_a_real_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "angel_feather")
    stack_top(state, "ballroom")
    deck_top(state, "event", "night_view")
    state, _ = apply(state, "explore", dir="N")
    assert state.pending.kind == "roll_pre"
    state, _ = choose(state, "Roll 3 dice")
    assert state.pending is None and "angel_feather" in state.explorers[OX].cards
