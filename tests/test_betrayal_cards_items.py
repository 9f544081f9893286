"""Betrayal cards: the 22 items do what seed 003 says (lines 322-512, FAQ): each item's
handler (cards/items.py, cards/rolls.py) or plain steps, gains on pick-up and the
reverse on loss, rolls' bands, once-a-turn use, and what haunt-time items must *not*
do before the haunt (the weapons' attack dice, the Dynamite, the Bell's use).

The shared helpers and the cards' data are in test_betrayal_cards_omens_items.
"""

from __future__ import annotations

import pytest

import bot.games.betrayal.cards.items as card_items
import bot.games.betrayal.cards.omens as card_omens
from bot.games.betrayal import GAME, content, decks, rolls
from bot.games.betrayal.cards.attacks import explorer_attack
from bot.games.betrayal.state import HAUNT, Frame
from tests import betrayal_haunt_rig as rig
from tests.betrayal_haunt_rig import fixed, rig_plugin
from tests.test_betrayal_cards_omens_items import (
    TRAITS,
    alone,
    corridor,
    engine,
    idx,
    lying,
    next_turn_of_ox,
    outcome_for,
    refused,
    set_all,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    deck_top,
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


# ---------------------------------------------------------------- items

def test_adrenaline_shot_adds_4_to_a_trait_roll_then_goes(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "crystal_ball", "adrenaline_shot")
    dice.extend([0, 0, 0])
    state, _ = apply(state, "use", card="crystal_ball")
    assert state.pending.kind == "roll_pre"
    state, events = choose(state, "Adrenaline")
    assert "Ox Bellows rolls Knowledge: 0 0 0 +4 = 4." in events
    assert state.pending.kind == "crystal_ball_deck"  # 4+: the peek
    assert "adrenaline_shot" in state.discards["item"]
    plain = new_game()
    hold(plain, OX, "adrenaline_shot")
    plain, _ = run_steps(plain, [{"roll": {"dice": 2}}])
    assert plain.pending is None  # a plain roll is no trait roll: no offer


def test_angel_feather_picks_any_roll_then_goes() -> None:
    state = new_game()
    hold(state, OX, "mystic_coin", "angel_feather")
    state, _ = apply(state, "use", card="mystic_coin")
    state, _ = choose(state, "Angel Feather")
    assert state.pending.labels == [str(v) for v in range(9)]
    state, events = choose(state, "2")
    assert any("does not roll" in e for e in events)
    assert state.pending.kind == "trait_pick"  # 2: gain 1 Might or Speed
    state, _ = choose(state, "Might")
    assert idx(state)["might"] == 3 and "angel_feather" in state.discards["item"]


def test_armor_takes_1_off_each_physical_damage(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "armor")
    hit, events = run_steps(state, [{"damage": {"kind": "physical", "amount": 3}}])
    assert any("Armor soaks up 1" in e for e in events)
    assert any("takes 2 physical damage" in e for e in events)
    hit, _ = choose(hit, "All 2 to Speed")
    assert idx(hit)["speed"] == 2
    dice.extend([1])
    hit, events = run_steps(state, [{"damage": {"kind": "physical", "dice": 1}}])
    assert hit.pending is None and "Ox Bellows takes no damage." in events
    assert not any("0 physical damage" in e for e in events)
    hit, events = run_steps(state, [{"damage": {"kind": "mental", "amount": 2}}])
    assert any("takes 2 mental damage" in e for e in events)
    assert not any("soaks" in e for e in events)


def test_armor_cannot_be_stolen_but_can_be_traded() -> None:
    from bot.games.betrayal import hooks
    from bot.games.betrayal.cards.attacks import stealable

    state = new_game()
    hold(state, OX, "armor", "axe")
    assert hooks.unstealable(state, OX) == {"armor"}
    assert stealable(state, OX) == ["axe"]
    assert "Give the Armor to Missy Dubourde" in labels(state)


def test_the_steal_asks_the_cards_passive(monkeypatch: pytest.MonkeyPatch) -> None:
    """cards/attacks.py reads HandPassive.cannot_be_stolen (False by default), not a list
    of its own: a card's passive alone decides, and only a passive that watches the hand
    is asked (the Rope does not)."""
    from bot.games.betrayal.cards import PASSIVES, HandPassive
    from bot.games.betrayal.cards.attacks import stealable

    state = new_game()
    hold(state, OX, "armor", "rope", "axe")
    assert not HandPassive().cannot_be_stolen(state, OX, "axe")
    assert PASSIVES["armor"].cannot_be_stolen(state, OX, "armor")
    assert not isinstance(PASSIVES["rope"], HandPassive)
    assert stealable(state, OX) == ["rope", "axe"]
    monkeypatch.setattr(type(PASSIVES["armor"]), "cannot_be_stolen",
                        lambda self, state, seat, ref: False)
    assert stealable(state, OX) == ["armor", "rope", "axe"]


def test_axe_spear_revolver_blood_dagger_are_weapons_for_the_haunt() -> None:
    for key in ("axe", "spear", "revolver", "blood_dagger"):
        card = content.card(key)
        assert card.weapon and not card.use and not card.haunt_only


def test_blood_dagger_cannot_be_traded_or_dropped() -> None:
    state = new_game()
    hold(state, OX, "blood_dagger", "axe")
    assert not content.card("blood_dagger").tradeable
    assert content.card("blood_dagger").raw["tradeable"] is False  # items.yaml says so
    shown = labels(state)
    assert "Drop the Blood Dagger" not in shown and "Drop the Axe" in shown
    assert not [x for x in shown if "Blood Dagger" in x]  # nor given, nor offered
    refused(state, "drop", card="blood_dagger")
    refused(state, "trade", **{"with": MISSY, "give": "blood_dagger"})


def test_the_dog_does_not_carry_the_blood_dagger() -> None:
    state = new_game()
    corridor(state)
    hold(state, OX, "dog", "blood_dagger", "axe")
    assert card_omens.carryable(state, OX) == ["axe"]
    state, _ = apply(state, "use", card="dog")
    state, _ = choose(state, "Gardens")
    assert state.pending.labels == ["Carry your Axe there", "Nothing: call it back"]
    alone = new_game()
    corridor(alone)
    hold(alone, OX, "dog", "blood_dagger")
    assert card_omens.carryable(alone, OX) == [] and card_omens.dog_targets(alone, OX) == []


def test_a_weapon_that_fought_is_not_traded_or_dropped_that_turn(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003 line 252 (again in its FAQ): 「在同一回合中，玩家行使某物件的效用後，即不可
    主動轉交或丟棄該物件」 [the turn an explorer uses an object's effect, it may not hand
    that object over or drop it]. The Axe's effect is its die in an attack (line 401:
    以力量作襲擊時，可多擲1顆 [attacking with Might, roll 1 more die]): once it has struck,
    it stays with its explorer until the next turn; a weapon left out of the fight does
    not."""
    state = new_game()
    hold(state, OX, "axe", "spear")
    state, _ = engine(state, lambda ctx: explorer_attack(ctx, OX, MISSY, "might",
                                                         "bloody_vision", "event"))
    assert state.pending.kind == "duel_weapon"
    dice.extend([0] * 6 + [0] * 3)  # Ox's 5 Might and the Axe's die; Missy's 3: a tie
    state, _ = choose(state, "The Axe")
    assert not dice and state.pending is None
    shown = labels(state)
    assert not [x for x in shown if "Axe" in x]  # neither given nor dropped
    assert "Drop the Spear" in shown and "Give the Spear to Missy Dubourde" in shown
    refused(state, "drop", card="axe")
    refused(state, "trade", **{"with": MISSY, "give": "axe"})
    state = next_turn_of_ox(state)
    assert "Drop the Axe" in labels(state)


def test_a_weapon_that_struck_a_monster_stays_that_turn(fixed: list[int]) -> None:
    """The same rule in the haunt, against a monster (seed 003 line 252): the Axe that
    fought cannot be handed over or dropped before the next turn."""
    state = rig.rigged(rig.DARRIN)
    rig.place(state, "foyer", rig.DARRIN, rig.MISSY)
    brute = rig.spawn(state, "brute", "foyer")  # Might 5
    rig.set_trait(state, rig.DARRIN, "might", 4)
    hold(state, rig.DARRIN, "axe")
    fixed.extend([0] * 5 + [0] * 5)  # Darrin's 4 dice and the Axe's; the brute's 5: a tie
    state, _ = rig.act(state, "attack", target=f"m{brute.id}", trait="might", weapon="axe")
    assert not fixed and state.pending is None
    assert not [x for x in rig.labels(state) if "Axe" in x]


def test_a_weapon_fights_once_a_turn(fixed: list[int]) -> None:
    """Seed 003 line 249: 「在玩家回合中，每件物件的效用僅可行使一次」 [on a player's turn,
    each object's effect may be used only once]. An attack a card forces (Bloody Vision)
    is not the turn's own attack, so an explorer may fight twice in a turn: the Axe that
    struck in the first fight adds no die to the second, whichever comes first."""
    state = rig.rigged(rig.DARRIN)
    rig.place(state, "foyer", rig.DARRIN, rig.JENNY, rig.MISSY)
    rig.set_trait(state, rig.DARRIN, "might", 4)
    rig.set_trait(state, rig.JENNY, "might", 4)
    hold(state, rig.DARRIN, "axe", "spear")
    assert {a.get("weapon") for a in rig.attacks(state)} >= {"axe", "spear"}
    state, _ = engine(state, lambda ctx: explorer_attack(ctx, rig.DARRIN, rig.MISSY, "might",
                                                         "bloody_vision", "event"))
    assert state.pending.labels == ["No weapon (4 dice)", "The Axe (5 dice)",
                                    "The Spear (6 dice)"]
    fixed.extend([0] * 5 + [0] * 3)  # with the Axe, against Missy's 3: a tie
    state, _ = rig.choose(state, "The Axe")
    assert not fixed and state.pending is None
    weapons = {a.get("weapon") for a in rig.attacks(state)}
    assert "spear" in weapons and "axe" not in weapons  # the turn's own attack
    fixed.extend([0] * 6 + [0] * 4)  # with the Spear, against Jenny's 4: a tie
    state, _ = rig.act(state, "attack", target=rig.JENNY, trait="might", weapon="spear")
    assert not fixed and state.pending is None
    fixed.extend([0] * 4 + [0] * 3)  # a second forced fight: bare hands, no question
    state, _ = engine(state, lambda ctx: explorer_attack(ctx, rig.DARRIN, rig.MISSY, "might",
                                                         "bloody_vision", "event"))
    assert not fixed and state.pending is None


def test_bell_use_waits_for_the_haunt_and_its_bands() -> None:
    state = new_game()
    hold(state, OX, "bell")
    assert "Use the Bell" not in labels(state)
    refused(state, "use", card="bell")
    use = content.card("bell").use
    assert use[0]["roll"]["trait"] == "sanity"
    assert all(outcome_for(use, t) == [{"custom": "bell_gather_heroes"}] for t in range(5, 17))
    assert all(outcome_for(use, t) == [{"custom": "bell_draw_monsters"}] for t in range(0, 5))
    state.phase = HAUNT
    assert "Use the Bell" in labels(state)


BOTTLE: list[tuple[list[int], dict[str, int]]] = [
    ([2, 2, 1], {"might": 5, "speed": 5}),
    ([2, 2, 0], {"knowledge": 5, "sanity": 5}),
    ([2, 1, 0], {"knowledge": 4, "might": 2}),
    ([2, 0, 0], {"knowledge": 1, "sanity": 1}),
    ([1, 0, 0], {"might": 1, "speed": 1}),
    ([0, 0, 0], {t: 1 for t in TRAITS}),
]


@pytest.mark.parametrize(("faces", "changed"), BOTTLE)
def test_bottle_in_the_haunt(dice, faces: list[int], changed: dict[str, int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "bottle")
    set_all(state, OX, 3)
    refused(state, "use", card="bottle")  # haunt only
    state.phase = HAUNT
    dice.extend(faces)
    state, events = apply(state, "use", card="bottle")
    assert f"Ox Bellows rolls 3 dice: {' '.join(map(str, faces))} = {sum(faces)}." in events
    assert idx(state) == {t: changed.get(t, 3) for t in TRAITS}
    assert "bottle" in state.discards["item"] and state.pending is None


def test_bottle_6_goes_to_any_room(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "bottle")
    state.phase = HAUNT
    dice.extend([2, 2, 2])
    state, _ = apply(state, "use", card="bottle")
    assert state.pending.kind == "tile_pick"
    state, _ = choose(state, "Upper Landing")
    assert state.explorers[OX].tile == tile(state, "upper_landing")
    assert "bottle" in state.discards["item"]


def test_candle_adds_a_die_to_event_trait_rolls_only() -> None:
    state = new_game()
    hold(state, OX, "candle")
    for origin, extra in (("event", 1), ("room", 0), ("item", 0), ("omen", 0)):
        frame = Frame([], OX, "", origin)
        assert [rolls.dice_for(state, frame, {"trait": t}) for t in TRAITS] == [
            value(state, OX, t) + extra for t in TRAITS]
    state.explorers[OX].traits["sanity"] = 7  # Sanity 7: 8 dice at most
    assert rolls.dice_for(state, Frame([], OX, "", "event"), {"trait": "sanity"}) == 8


def test_bell_book_and_candle_together(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    set_all(state, OX, 3)
    hold(state, OX, "bell", "book")
    lying(state, "entrance_hall", "candle")
    state, events = apply(state, "pickup", card="candle")
    assert any("holds the Bell, the Book and the Candle" in e for e in events)
    assert idx(state) == {t: 5 for t in TRAITS}
    state, events = apply(state, "drop", card="bell")  # -1 Sanity (the Bell), -2 all (the set)
    assert any("no longer holds" in e for e in events)
    assert idx(state) == {"speed": 3, "might": 3, "sanity": 2, "knowledge": 3}
    state, _ = engine(state, lambda ctx: decks.give_card(ctx, OX, "bell"))
    assert idx(state) == {t: 5 for t in TRAITS}  # completed again: +2 again (designed)
    state, _ = apply(state, "drop", card="candle")  # the Candle itself leaving breaks it
    assert idx(state) == {t: 3 for t in TRAITS}
    assert "bell_book_candle" not in state.explorers[OX].flags


def test_two_of_the_three_give_nothing() -> None:
    state = new_game()
    set_all(state, OX, 3)
    hold(state, OX, "book")
    lying(state, "entrance_hall", "candle", "bell")
    state, _ = apply(state, "pickup", card="candle")
    assert idx(state) == {t: 3 for t in TRAITS}
    state, _ = apply(state, "pickup", card="bell")
    assert idx(state) == {"speed": 5, "might": 5, "sanity": 6, "knowledge": 5}


def test_druidic_charm_is_smashed_and_discarded(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    lying(state, "entrance_hall", "druidic_charm")
    state, _ = apply(state, "pickup", card="druidic_charm")
    assert idx(state)["speed"] == 5
    assert [s.get("custom") for s in content.card("druidic_charm").use] == [
        "druidic_charm_flash", "discard_self"]
    state, _ = apply(state, "use", card="druidic_charm")
    assert "druidic_charm" in state.discards["item"] and idx(state)["speed"] == 4


def test_dynamite_waits_for_the_haunt_and_is_used_up() -> None:
    state = new_game()
    hold(state, OX, "dynamite")
    assert "Use the Dynamite" not in labels(state)
    refused(state, "use", card="dynamite")
    assert [s.get("custom") for s in content.card("dynamite").use] == ["dynamite",
                                                                       "discard_self"]


def test_healing_salve_on_yourself() -> None:
    state = new_game()
    alone(state)
    hold(state, OX, "healing_salve")
    ox = state.explorers[OX].traits
    ox.update(might=0, speed=1, sanity=0, knowledge=0)
    state, events = apply(state, "use", card="healing_salve")  # alone: no question
    assert idx(state) == {"speed": 4, "might": 2, "sanity": 0, "knowledge": 0}
    assert any("Might recovers to its starting value" in e for e in events)
    assert "healing_salve" in state.discards["item"] and not state.explorers[OX].cards


def test_healing_salve_on_someone_in_the_room_never_lowers() -> None:
    state = new_game()
    at(state, PETER, "foyer")
    hold(state, OX, "healing_salve")
    state.explorers[MISSY].traits.update(might=0, speed=5)  # Missy: starts 3 and 2
    state, _ = apply(state, "use", card="healing_salve")
    assert state.pending.labels == ["Ox Bellows", "Missy Dubourde"]  # not Peter, away
    state, _ = choose(state, "Missy")
    assert state.explorers[MISSY].traits["might"] == 3
    assert state.explorers[MISSY].traits["speed"] == 5
    assert "healing_salve" in state.discards["item"]


def test_healing_salve_with_nothing_to_heal_is_still_used_up() -> None:
    state = new_game()
    alone(state)
    hold(state, OX, "healing_salve")
    state, events = apply(state, "use", card="healing_salve")
    assert any("nothing the Healing Salve can restore" in e for e in events)
    assert idx(state) == new_game().explorers[OX].traits
    assert "healing_salve" in state.discards["item"]


def test_healing_items_are_not_for_the_dead() -> None:
    state = new_game()
    state.explorers[MISSY].alive = False
    assert card_items.patients(state, OX) == [OX, PETER]


def test_lucky_stone_rerolls_then_goes(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "crystal_ball", "lucky_stone")
    dice.extend([0, 1, 0])
    state, _ = apply(state, "use", card="crystal_ball")
    assert state.pending.kind == "roll_post"
    state, _ = choose(state, "Lucky Stone")
    for die in (1, 2, 3):
        state, _ = choose(state, f"Pick die {die}")
    dice.extend([2, 2, 2])
    state, events = choose(state, "Reroll the picked dice: 0 1 0")
    assert any("rerolls: 2 2 2 = 6" in e for e in events)
    assert state.pending.kind == "crystal_ball_deck"  # 6 now: the peek
    assert "lucky_stone" in state.discards["item"]


def test_lucky_stone_rerolls_any_number_of_the_dice_picked(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003 (幸運石): 「使用這幸運石塊，玩家可選擇重擲任何數目的骰子一次，從而改變結果。」
    The player may reroll any number of the dice, once: the dice they pick, one at a
    time (a button a die), not one of three preset sets. Here the 1 alone, keeping the
    blank (no preset set did that)."""
    state = new_game()
    hold(state, OX, "lucky_stone")
    dice.extend([2, 1, 0])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    state, _ = choose(state, "Lucky Stone")
    assert state.pending.kind == "lucky_pick"
    assert state.pending.labels == ["Reroll nothing (keep the stone)", "Pick die 1: 2",
                                    "Pick die 2: 1", "Pick die 3: 0"]
    state, _ = choose(state, "Pick die 3")
    state, _ = choose(state, "Pick die 2")
    assert state.pending.labels[0] == "Reroll the picked dice: 1 0"
    state, _ = choose(state, "Drop die 3")  # changed its mind: the blank stays
    assert state.pending.labels == ["Reroll the picked dice: 1", "Pick die 1: 2",
                                    "Drop die 2: 1 (picked)", "Pick die 3: 0"]
    dice.extend([2])
    state, events = choose(state, "Reroll the picked dice")
    assert not dice and any("rerolls: 2 2 0 = 4" in e for e in events)
    assert state.pending is None and "lucky_stone" in state.discards["item"]


def test_lucky_stone_rerolling_nothing_keeps_it(dice) -> None:  # type: ignore[no-untyped-def]
    """Using the stone is the player's choice (seed 003: 「即可選擇使用這物品」, they may
    choose to use it): picking no die rerolls nothing, and the stone stays in hand."""
    state = new_game()
    hold(state, OX, "lucky_stone")
    dice.extend([2, 2, 2])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    state, _ = choose(state, "Lucky Stone")
    state, events = choose(state, "Reroll nothing")
    assert state.pending is None and "lucky_stone" in state.explorers[OX].cards
    assert not any("rerolls" in e for e in events)


def test_lucky_stone_prompt_stays_within_discords_buttons() -> None:
    """Eight dice (the most a roll has) give 9 options: one a die and the reroll, well
    under Discord's 25 buttons a message."""
    state = new_game()
    hold(state, OX, "lucky_stone")
    state.explorers[OX].traits["might"] = 7  # Might 8: 8 dice
    state, _ = run_steps(state, [{"roll": {"trait": "might"}}])
    state, _ = choose(state, "Lucky Stone")
    assert len(state.pending.labels) == 9 <= 25


def test_the_ai_rerolls_the_blanks_with_the_lucky_stone(dice) -> None:  # type: ignore[no-untyped-def]
    """The AI picks every blank, then rerolls them; with no blank it keeps the stone."""
    state = new_game()
    hold(state, OX, "lucky_stone")
    dice.extend([0, 2, 0])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    state, _ = choose(state, "Lucky Stone")
    for _ in range(2):
        state, _ = apply(state, "choose", pick=GAME.ai_action(state, OX).args["pick"])
    assert state.pending.labels[0] == "Reroll the picked dice: 0 0"
    assert GAME.ai_action(state, OX).args["pick"] == 0
    dice.extend([1, 2])
    state, events = apply(state, "choose", pick=0)
    assert any("rerolls: 1 2 2 = 5" in e for e in events)
    hold(state, OX, "lucky_stone")
    dice.extend([2, 1, 1])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    state, _ = choose(state, "Lucky Stone")
    assert GAME.ai_action(state, OX).args["pick"] == 0  # no blank: nothing rerolled


MEDICAL: list[tuple[list[int], int]] = [
    ([2, 2, 2, 2, 0, 0], 3), ([2, 2, 2, 1, 0, 0], 2), ([2, 2, 2, 0, 0, 0], 2),
    ([2, 2, 1, 0, 0, 0], 1), ([2, 2, 0, 0, 0, 0], 1), ([2, 1, 0, 0, 0, 0], 0),
    ([0, 0, 0, 0, 0, 0], 0)]


@pytest.mark.parametrize(("faces", "points"), MEDICAL)
def test_medical_kit_bands(dice, faces: list[int], points: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    alone(state)
    hold(state, OX, "medical_kit")
    state.explorers[OX].traits.update(knowledge=7, speed=0)  # Knowledge 6: 6 dice
    dice.extend(faces)
    state, events = apply(state, "use", card="medical_kit")
    assert f"Ox Bellows rolls Knowledge: {' '.join(map(str, faces))} = {sum(faces)}." in events
    assert idx(state)["speed"] == points and idx(state)["might"] == 2
    assert "medical_kit" in state.explorers[OX].cards  # not used up
    assert any("no good" in e for e in events) == (points == 0)


def test_medical_kit_the_patient_places_the_points(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "medical_kit")
    state.explorers[OX].traits["knowledge"] = 7
    state.explorers[MISSY].traits.update(might=1, speed=0)  # starts: Might 3, Speed 2
    state, _ = apply(state, "use", card="medical_kit")
    assert state.pending.kind == "patient_pick"
    dice.extend([2, 2, 2, 2, 0, 0])
    state, _ = choose(state, "Missy")
    assert state.pending.kind == "medical_kit_point" and GAME.to_act(state) == MISSY
    assert state.pending.labels == ["Might (stays 3)", "Speed (3 → 4)"]  # a step, same value
    state, _ = choose(state, "Might")
    state, _ = choose(state, "Might")  # Might back at its start: the last point is Speed's
    assert state.pending is None and GAME.to_act(state) == OX
    assert state.explorers[MISSY].traits["might"] == 3
    assert state.explorers[MISSY].traits["speed"] == 1


def test_medical_kit_never_above_the_start(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    alone(state)
    hold(state, OX, "medical_kit")
    state.explorers[OX].traits.update(knowledge=7, might=1, speed=6)
    dice.extend([2, 2, 2, 2, 0, 0])  # 3 points, only 1 can be used
    state, _ = apply(state, "use", card="medical_kit")
    assert state.pending is None
    assert idx(state)["might"] == 2 and idx(state)["speed"] == 6


@pytest.mark.parametrize(("face", "labels_"), [(2, ["Might", "Speed"]),
                                               (1, ["Knowledge", "Sanity"])])
def test_mystic_coin_heads_and_tails(dice, face: int, labels_: list[str]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "mystic_coin")
    dice.extend([face])
    state, _ = apply(state, "use", card="mystic_coin")
    assert [x.split(" ")[0] for x in state.pending.labels] == labels_
    state, _ = choose(state, labels_[1])
    assert idx(state)[labels_[1].lower()] == new_game().explorers[OX].traits[
        labels_[1].lower()] + 1
    assert "mystic_coin" in state.explorers[OX].cards


def test_mystic_coin_on_its_edge(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "mystic_coin")
    dice.extend([0])
    state, events = apply(state, "use", card="mystic_coin")
    assert any("lands on its edge" in e for e in events)
    assert [x.split(" ")[0] for x in state.pending.labels] == ["Might", "Speed"]
    state, _ = choose(state, "Speed")
    assert [x.split(" ")[0] for x in state.pending.labels] == ["Knowledge", "Sanity"]
    state, _ = choose(state, "Knowledge")
    assert idx(state) == {"speed": 3, "might": 2, "sanity": 2, "knowledge": 1}


def test_puzzle_box_opens_on_6(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box")
    deck_top(state, "item", "axe", "rope")
    dice.extend([2, 2, 1])
    shut, _ = apply(state, "use", card="puzzle_box")
    assert shut.explorers[OX].cards == ["puzzle_box"]
    dice.extend([2, 2, 2])
    opened, _ = apply(state, "use", card="puzzle_box")
    assert opened.explorers[OX].cards == ["axe", "rope"]
    assert "puzzle_box" in opened.discards["item"]


def test_rabbits_foot_rerolls_one_die_once_a_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "crystal_ball", "rabbits_foot")
    dice.extend([2, 1, 0])
    state, _ = apply(state, "use", card="crystal_ball")
    assert state.pending.labels[1:] == ["Use the Rabbit's Foot: reroll a 0",
                                        "Use the Rabbit's Foot: reroll a 1",
                                        "Use the Rabbit's Foot: reroll a 2"]
    dice.extend([2])
    state, events = choose(state, "reroll a 0")
    assert any("rerolls: 2 1 2 = 5" in e for e in events)
    assert state.pending.kind == "crystal_ball_deck"
    assert "rabbits_foot" in state.explorers[OX].cards
    state, _ = choose(state, "item")
    state, _ = choose(state, "Axe")
    dice.extend([0, 0, 0])
    again, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    assert again.pending is None  # once a turn


def test_rabbits_foot_rerolls_any_one_die_a_2_too(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003 (兔足): 「玩家可選擇重擲其中一顆骰子一次，從而改變結果。」 The player may
    reroll any one of the dice, once: a die showing 2 as well (the Foot used to offer
    only the 0s and 1s)."""
    state = new_game()
    hold(state, OX, "rabbits_foot")
    dice.extend([2, 2, 2])
    state, _ = run_steps(state, [{"roll": {"trait": "knowledge"}}])
    assert state.pending.labels == ["Keep it: 2 2 2 = 6", "Use the Rabbit's Foot: reroll a 2"]
    dice.extend([1])
    state, events = choose(state, "reroll a 2")
    assert not dice and any("rerolls: 1 2 2 = 5" in e for e in events)
    assert state.pending is None and "rabbits_foot" in state.turn.used


def test_rope_climbs_where_others_only_fall() -> None:
    state = new_game()
    put(state, "coal_chute", "ground", 0, 1)
    at(state, OX, "basement_landing")
    assert not any("Rope" in x for x in labels(state))
    hold(state, OX, "rope")
    assert "Climb the Rope up to the Coal Chute" in labels(state)
    state, _ = apply(state, "move", via="rope_chute", to=tile(state, "coal_chute"))
    assert state.explorers[OX].tile == tile(state, "coal_chute")  # no slide back yet
    assert state.turn.moves == 0  # rope moves cost no Speed


def test_rope_lets_you_down_from_the_gallery_unhurt() -> None:
    state = new_game()
    put(state, "gallery", "upper", 0, -1)
    put(state, "ballroom", "ground", 0, -1)
    at(state, OX, "gallery")
    assert "Jump down into the Ballroom (1 die of damage)" in labels(state)
    hold(state, OX, "rope")
    assert "Go down the Rope to the Ballroom" in labels(state)
    state, events = apply(state, "move", via="rope_down", to=tile(state, "ballroom"))
    assert state.explorers[OX].tile == tile(state, "ballroom")
    assert not any("damage" in e for e in events) and state.pending is None
    assert "Climb the Rope up to the Gallery" in labels(state)


def test_rope_spares_the_mystic_slide() -> None:
    state = new_game()
    hold(state, OX, "rope")
    state, events = run_steps(state, [{"damage": {"kind": "physical", "amount": 2}}],
                              source="mystic_slide")
    assert state.pending is None and any("Rope spares" in e for e in events)


def test_skeleton_key_opens_the_vault_and_the_safe_without_rolling() -> None:
    state = new_game()
    put(state, "vault", "upper", 0, 1)  # its N door meets the Upper Landing
    at(state, OX, "vault")
    assert "Try to open the Vault (Knowledge 6+)" in labels(state)
    hold(state, OX, "skeleton_key")
    assert "Open the Vault with the Skeleton Key" in labels(state)
    opened, events = apply(state, "act", what="vault")
    assert not any("rolls" in e for e in events) and len(opened.explorers[OX].cards) == 3
    state.tiles[tile(state, "vault")].tokens.append({"kind": "safe", "card": "locked_safe"})
    state.tiles[tile(state, "vault")].flags["vault_empty"] = True
    safe, events = apply(state, "act", what="locked_safe-0-key")
    assert not any("rolls" in e for e in events) and len(safe.explorers[OX].cards) == 3


def test_smelling_salts_restore_knowledge_only() -> None:
    state = new_game()
    at(state, PETER, "foyer")
    hold(state, OX, "smelling_salts")
    state.explorers[MISSY].traits.update(knowledge=0, sanity=0)  # Knowledge starts at 3
    state, _ = apply(state, "use", card="smelling_salts")
    state, events = choose(state, "Missy")
    assert state.explorers[MISSY].traits["knowledge"] == 3
    assert state.explorers[MISSY].traits["sanity"] == 0
    assert any("Knowledge recovers to its starting value" in e for e in events)
    assert "smelling_salts" in state.discards["item"]


def test_toy_monkey_gains_and_its_handler_name() -> None:
    card = content.card("toy_monkey")
    assert card.custom == "toy_monkey" and not card.companion and card.tradeable
    assert list(card.on_gain) == [{"gain": {"trait": "speed", "amount": 1}},
                                  {"gain": {"trait": "knowledge", "amount": 1}}]
