"""Betrayal: the 13 omens and the 22 items do what seed 003 says (lines 322-512, FAQ).

Every card has a test here, whether a handler of cards/omens.py and cards/items.py
does its work or plain steps do: its gains on pick-up and the reverse on loss, its
rolls' bands (the dice are scripted by the `dice` fixture), once-a-turn use, and the
restrictions (companions never change hands). Haunt-time combat (the Ring, the weapons'
attack dice, the Dynamite, the Druidic Charm's flash, the Bell's use) is checked as far
as exploration reaches: the data and what the card must *not* do before the haunt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import bot.games.betrayal.cards.items as card_items
import bot.games.betrayal.cards.omens as card_omens
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event, to_player
from bot.games.betrayal import GAME, content, decks, effects, rolls
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.links import connect
from bot.games.betrayal.state import HAUNT, BetrayalState, Frame
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
    same,
    stack_top,
    tile,
    value,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]

TRAITS = ("speed", "might", "sanity", "knowledge")
OMENS = ["bite", "book", "crystal_ball", "dog", "girl", "holy_symbol", "madman", "mask",
         "medallion", "ring", "skull", "spear", "spirit_board"]
ITEMS = ["adrenaline_shot", "amulet_of_the_ages", "angel_feather", "armor", "axe", "bell",
         "blood_dagger", "bottle", "candle", "druidic_charm", "dynamite", "healing_salve",
         "lucky_stone", "medical_kit", "mystic_coin", "puzzle_box", "rabbits_foot",
         "revolver", "rope", "skeleton_key", "smelling_salts", "toy_monkey"]


# ---------------------------------------------------------------- helpers

def act(state: BetrayalState, kind: str, **args: Any) -> tuple[BetrayalState, list[Event]]:
    """Like helpers.apply, but the events keep their audience."""
    seat = GAME.to_act(state)
    assert seat is not None
    return GAME.apply(state, seat, Action(kind, args))


def pick(state: BetrayalState, label: str) -> tuple[BetrayalState, list[Event]]:
    assert state.pending is not None, "nothing to choose"
    index = next(i for i, x in enumerate(state.pending.labels) if label in x)
    return act(state, "choose", pick=index)


def engine(state: BetrayalState, fn: Callable[[Ctx], None]) -> tuple[BetrayalState, list[str]]:
    """Run an engine call (a card leaving a hand, a card joining one) on a copy."""
    new = GAME.copy_state(state)
    ctx = Ctx(new)
    fn(ctx)
    effects.run(ctx)
    return new, [e.text for e in ctx.events]


def refused(state: BetrayalState, kind: str, **args: Any) -> str:
    before = GAME.copy_state(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, kind, **args)
    assert same(state, before)
    return err.value.message


def lying(state: BetrayalState, room: str, *cards: str) -> None:
    """Cards lying in a room's pile (taken out of their decks)."""
    for card in cards:
        deck = content.card(card).deck
        if card in state.decks[deck]:
            state.decks[deck].remove(card)
        state.tiles[tile(state, room)].items.append(card)


def idx(state: BetrayalState, seat: int = OX) -> dict[str, int]:
    return dict(state.explorers[seat].traits)


def set_all(state: BetrayalState, seat: int, index: int) -> None:
    for t in TRAITS:
        state.explorers[seat].traits[t] = index


def outcome_for(steps: tuple[dict[str, Any], ...], total: int) -> list[dict[str, Any]]:
    """The `do` of the first roll in `steps` that a roll of `total` picks."""
    roll = next(s["roll"] for s in steps if "roll" in s)
    for outcome in roll["outcomes"]:
        if int(outcome.get("min", -99)) <= total <= int(outcome.get("max", 99)):
            return list(outcome.get("do") or [])
    raise AssertionError(f"no outcome for {total}")


def alone(state: BetrayalState) -> None:
    """Missy and Peter step out of the Entrance Hall (no one else to heal)."""
    at(state, MISSY, "foyer")
    at(state, PETER, "foyer")


def next_turn_of_ox(state: BetrayalState) -> BetrayalState:
    for _ in range(3):
        state, _ = apply(state, "end_turn")
    assert state.turn.seat == OX and state.pending is None
    return state


# ---------------------------------------------------------------- the 35 cards' data

def test_the_decks_hold_the_13_omens_and_22_items() -> None:
    c = content.get()
    assert sorted(c.deck("omen")) == sorted(OMENS)
    assert sorted(c.deck("item")) == sorted(ITEMS)


def test_only_the_dog_the_girl_and_the_madman_are_companions() -> None:
    c = content.get()
    assert {k for k in OMENS + ITEMS if c.cards[k].companion} == {"dog", "girl", "madman"}
    assert not any(c.cards[k].tradeable for k in ("dog", "girl", "madman", "bite"))


def test_weapons_and_their_attack_dice() -> None:
    """Spear +2, Axe +1, Blood Dagger +3 with Might; Revolver +1 with Speed (seed 003)."""
    c = content.get()
    assert {k for k in OMENS + ITEMS if c.cards[k].weapon} == {"spear", "axe", "blood_dagger",
                                                                "revolver"}
    attack = {k: [(tuple(m["traits"]), int(str(m["dice"]))) for m in c.cards[k].modifiers
                  if m["on"] == "attack"] for k in ("spear", "axe", "blood_dagger", "revolver")}
    assert attack == {"spear": [(("might",), 2)], "axe": [(("might",), 1)],
                      "blood_dagger": [(("might",), 3)], "revolver": [(("speed",), 1)]}


def test_haunt_only_cards() -> None:
    c = content.get()
    assert {k for k in OMENS + ITEMS if c.cards[k].haunt_only} == {"bell", "bottle", "dynamite"}


# Seed 003: what getting the card does, and what losing it does, to the 4 traits.
GAIN: dict[str, dict[str, int]] = {
    "book": {"knowledge": 2},
    "dog": {"might": 1, "sanity": 1},
    "girl": {"sanity": 1, "knowledge": 1},
    "holy_symbol": {"sanity": 2},
    "madman": {"might": 2, "sanity": -1},
    "amulet_of_the_ages": {t: 1 for t in TRAITS},
    "bell": {"sanity": 1},
    "druidic_charm": {"speed": 1},
    "toy_monkey": {"speed": 1, "knowledge": 1},
}
LOSS: dict[str, dict[str, int]] = {
    "book": {"knowledge": -2},
    "dog": {"might": -1, "sanity": -1},
    "girl": {"sanity": -1, "knowledge": -1},
    "holy_symbol": {"sanity": -2},
    "madman": {"might": -2, "sanity": 1},
    "amulet_of_the_ages": {t: -3 for t in TRAITS},
    "bell": {"sanity": -1},
    "druidic_charm": {"speed": -1},
    "toy_monkey": {"speed": -1, "knowledge": -1},
}


@pytest.mark.parametrize("key", [k for k in OMENS + ITEMS if k != "bite"])
def test_gains_on_getting_the_card_and_the_reverse_on_losing_it(key: str) -> None:
    state = new_game()
    set_all(state, OX, 3)
    deck = content.card(key).deck
    deck_top(state, deck, key)
    state, _ = run_steps(state, [{"draw": {"deck": deck, "count": 1}}])
    assert key in state.explorers[OX].cards
    got = {t: 3 + GAIN.get(key, {}).get(t, 0) for t in TRAITS}
    assert idx(state) == got
    state, _ = engine(state, lambda ctx: decks.take_card(ctx, OX, key))
    assert key not in state.explorers[OX].cards and key in state.discards[deck]
    assert idx(state) == {t: got[t] + LOSS.get(key, {}).get(t, 0) for t in TRAITS}


def test_picking_up_and_dropping_run_the_gain_and_the_loss() -> None:
    state = new_game()  # Ox: Speed 4, Might 5, Sanity 3, Knowledge 3 (indexes 4, 2, 2, 2)
    lying(state, "entrance_hall", "amulet_of_the_ages", "book")
    state, _ = apply(state, "pickup", card="amulet_of_the_ages")
    state, _ = apply(state, "pickup", card="book")
    assert idx(state) == {"speed": 5, "might": 3, "sanity": 3, "knowledge": 5}
    state, _ = apply(state, "drop", card="amulet_of_the_ages")
    assert idx(state) == {"speed": 2, "might": 0, "sanity": 0, "knowledge": 2}
    state, _ = apply(state, "drop", card="book")
    assert idx(state)["knowledge"] == 0  # before the haunt, never below the lowest value
    assert state.tiles[tile(state, "entrance_hall")].items == ["amulet_of_the_ages", "book"]


@pytest.mark.parametrize("key", ["dog", "girl", "madman"])
def test_companions_cannot_be_traded_or_dropped(key: str) -> None:
    state = new_game()
    hold(state, OX, key, "axe")
    name = content.card(key).name
    found = labels(state)
    assert "Drop the Axe" in found and "Give the Axe to Missy Dubourde" in found
    assert not any(name in x for x in found if x.startswith(("Give", "Drop", "Offer")))
    assert "can't trade" in refused(state, "trade", **{"with": MISSY, "give": key})
    assert "can't drop" in refused(state, "drop", card=key)
    state.explorers[OX].cards.remove(key)  # Missy's now: Ox cannot ask for it either
    hold(state, MISSY, key, "holy_symbol")
    assert "Offer your Axe to Missy Dubourde for the Holy Symbol" in labels(state)
    assert not any(name in x for x in labels(state))
    refused(state, "trade", **{"with": MISSY, "give": "axe", "take": key})


USES: dict[str, tuple[list[int], list[str]]] = {  # the dice, then the answers to settle
    "crystal_ball": ([0, 0, 0], []),
    "dog": ([], []),
    "mask": ([0, 0, 0], []),
    "spirit_board": ([], []),
    "medical_kit": ([0, 0, 0], []),
    "mystic_coin": ([1], ["Sanity"]),
    "puzzle_box": ([0, 0, 0], []),
}


@pytest.mark.parametrize("key", sorted(USES))
def test_use_once_a_turn_and_no_trade_after(dice, key: str) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    alone(state)
    hold(state, OX, key)
    name = content.card(key).name
    assert f"Use the {name}" in labels(state)
    faces, answers = USES[key]
    dice.extend(faces)
    state, _ = apply(state, "use", card=key)
    for answer in answers:
        state, _ = choose(state, answer)
    assert state.pending is None and key in state.explorers[OX].cards
    assert f"Use the {name}" not in labels(state)
    assert "once a turn" in refused(state, "use", card=key)
    if content.card(key).tradeable:  # seed 003 FAQ: used this turn, kept this turn
        assert "can't drop" in refused(state, "drop", card=key)
    state = next_turn_of_ox(state)
    assert f"Use the {name}" in labels(state)


# ---------------------------------------------------------------- omens

def test_bite_is_a_might_4_attack_lost_as_physical_damage(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "spear")  # a weapon is for attacking: it adds nothing to a defence
    deck_top(state, "omen", "bite")
    dice.extend([2, 2, 2, 1, 1, 1, 1, 0, 0])  # the bite: 4 dice = 7; Ox's Might 5: 3
    state, events = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}])
    assert any("attacks Ox Bellows: 4 dice against Might, 2 2 2 1 = 7" in e for e in events)
    assert "Ox Bellows rolls Might: 1 1 1 0 0 = 3." in events
    assert any("takes 4 physical damage" in e for e in events)
    assert state.pending.kind == "damage_split"
    state, _ = choose(state, "All 4 to Speed")
    assert idx(state)["speed"] == 0 and idx(state)["might"] == 2
    assert state.omen_table == ["bite"] and state.omens_drawn == 1
    assert "bite" not in state.explorers[OX].cards


def test_bite_fended_off_does_nothing(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    deck_top(state, "omen", "bite")
    before = idx(state)
    dice.extend([1, 1, 0, 0, 2, 1, 1, 0, 0])  # 2 against 4: fended off
    state, events = run_steps(state, [{"draw": {"deck": "omen", "count": 1}}])
    assert any("fends it off" in e for e in events) and state.pending is None
    assert idx(state) == before and state.omen_table == ["bite"]
    assert state.turn.omen == "bite"  # it counts for the haunt roll


def test_book_changes_hands_with_its_knowledge() -> None:
    state = new_game()  # Missy: Might 3 Sanity 3 Knowledge 4 (indexes 3, 2, 3)
    hold(state, OX, "book")
    state, _ = apply(state, "trade", **{"with": MISSY, "give": "book"})
    assert state.explorers[MISSY].traits["knowledge"] == 5
    assert state.explorers[OX].traits["knowledge"] == 0


CRYSTAL_BANDS = [([0, 0, 0], 0, 2), ([1, 0, 0], 1, 1), ([2, 1, 0], 3, 1)]  # 0: -2, 1-3: -1


@pytest.mark.parametrize(("faces", "total", "lost"), CRYSTAL_BANDS)
def test_crystal_ball_low_rolls_cost_sanity(dice, faces: list[int], total: int,  # type: ignore[no-untyped-def]
                                            lost: int) -> None:
    state = new_game()
    hold(state, OX, "crystal_ball")
    dice.extend(faces)
    state, events = apply(state, "use", card="crystal_ball")  # Knowledge 3: 3 dice
    assert f"Ox Bellows rolls Knowledge: {' '.join(map(str, faces))} = {total}." in events
    assert idx(state)["sanity"] == 2 - lost
    assert state.pending is None
    assert state.decks["item"] == new_game().decks["item"]
    assert state.decks["event"] == new_game().decks["event"]


@pytest.mark.parametrize("faces", [[2, 2, 0], [2, 2, 2]])
def test_crystal_ball_4_or_more_puts_a_chosen_card_on_top(dice, faces: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "crystal_ball")
    before = list(state.decks["event"])
    dice.extend(faces)
    state, _ = act(state, "use", card="crystal_ball")
    assert state.pending.kind == "crystal_ball_deck"
    assert state.pending.labels == ["The item deck", "The event deck"]
    state, _ = pick(state, "The event deck")
    names = state.pending.labels
    assert names == sorted(names) and len(names) == len(before) and "Webs" in names
    assert state.pending.private  # the deck's cards: for the chooser's eyes only
    state, events = pick(state, "Webs")
    assert state.decks["event"][0] == "webs"
    assert Counter(state.decks["event"]) == Counter(before)
    assert idx(state)["sanity"] == 2  # no Sanity lost
    secret = [e for e in events if "Webs" in e.text]
    assert secret and all(e.audience == to_player(OX) for e in secret)
    assert any(e.audience.is_public and "Crystal Ball" in e.text for e in events)


def test_crystal_ball_searches_the_only_deck_left(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "crystal_ball")
    state.discards["item"] = state.decks["item"]
    state.decks["item"] = []
    dice.extend([2, 2, 2])
    state, _ = apply(state, "use", card="crystal_ball")
    assert state.pending.kind == "crystal_ball_card"
    assert "Lights Out" in state.pending.labels and "Axe" not in state.pending.labels


def corridor(state: BetrayalState) -> list[str]:
    """Seven rooms north of the Entrance Hall, 1 to 7 rooms away."""
    rooms = ["gardens", "statuary_corridor", "creaky_hallway", "dusty_hallway", "ballroom",
             "bloody_room", "charred_room"]
    for i, room in enumerate(rooms, start=1):
        put(state, room, "ground", 0, -i)
    return rooms


def test_dog_fetches_a_card_from_a_room_away(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    corridor(state)
    hold(state, OX, "dog")
    lying(state, "creaky_hallway", "holy_symbol")
    lying(state, "gardens", "axe")
    state, _ = apply(state, "use", card="dog")
    assert state.pending.kind == "tile_pick"  # Ox has nothing to send: only where
    assert state.pending.labels == ["Gardens", "Creaky Hallway"]  # something lies
    state, _ = choose(state, "Creaky Hallway")
    assert state.pending.kind == "dog_errand"
    assert state.pending.labels == ["Bring back the Holy Symbol", "Nothing: call it back"]
    state, events = choose(state, "Bring back the Holy Symbol")
    assert state.explorers[OX].cards == ["dog", "holy_symbol"]
    assert state.tiles[tile(state, "creaky_hallway")].items == []
    assert idx(state)["sanity"] == 4  # the Holy Symbol's gain
    assert any("Dog runs to the Creaky Hallway and brings back the Holy Symbol" in e
               for e in events)
    assert state.explorers[OX].tile == tile(state, "entrance_hall")  # Ox did not move


def test_dog_carries_a_card_there_and_leaves_it(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    corridor(state)
    hold(state, OX, "dog", "holy_symbol", "madman")
    state.explorers[OX].traits["sanity"] = 4
    state, _ = apply(state, "use", card="dog")
    assert "Bloody Room" in state.pending.labels and "Charred Room" not in state.pending.labels
    state, _ = choose(state, "Gardens")
    assert state.pending.labels == ["Carry your Holy Symbol there", "Nothing: call it back"]
    state, _ = choose(state, "Carry your Holy Symbol")
    assert state.tiles[tile(state, "gardens")].items == ["holy_symbol"]
    assert state.explorers[OX].cards == ["dog", "madman"] and idx(state)["sanity"] == 2


def test_dog_runs_6_rooms_at_most() -> None:
    state = new_game()
    rooms = corridor(state)
    hold(state, OX, "dog")
    lying(state, "bloody_room", "axe")  # 6 rooms away
    lying(state, "charred_room", "rope")  # 7
    reach = card_omens.dog_range(state, OX)
    assert [reach[tile(state, r)] for r in rooms[:6]] == [1, 2, 3, 4, 5, 6]
    assert tile(state, "charred_room") not in reach
    state, _ = apply(state, "use", card="dog")  # one room to go to: no question
    assert state.pending.prompt == "What does the Dog do in the Bloody Room?"
    assert state.pending.labels[0] == "Bring back the Axe"


def test_dog_takes_no_one_way_passage_but_stairs_and_secret_passages() -> None:
    state = new_game()
    hold(state, OX, "dog")
    put(state, "coal_chute", "ground", 0, 1)  # below the Entrance Hall: a door apart
    lying(state, "basement_landing", "axe")  # down the chute only
    state, events = apply(state, "use", card="dog")
    assert state.pending is None and any("finds nothing to fetch or carry" in e for e in events)
    hold(state, OX, "rope")  # the Rope is its explorer's, not the Dog's
    reach = card_omens.dog_range(state, OX)
    assert tile(state, "basement_landing") not in reach
    assert reach[tile(state, "coal_chute")] == 1
    assert reach[tile(state, "upper_landing")] == 3  # the stairs go both ways
    state = new_game()
    hold(state, OX, "dog")
    lying(state, "basement_landing", "axe")
    connect(state, "secret_passage", tile(state, "entrance_hall"),
            tile(state, "basement_landing"), "secret_passage")
    state, _ = apply(state, "use", card="dog")
    assert state.pending.prompt == "What does the Dog do in the Basement Landing?"


def test_dog_does_not_pass_a_revolving_wall() -> None:
    state = new_game()
    hold(state, OX, "dog")
    cellar = put(state, "wine_cellar", "ground", 1, 0)  # no door faces the hall
    connect(state, "wall_switch", tile(state, "entrance_hall"), cellar, "revolving_wall")
    lying(state, "wine_cellar", "axe")
    assert cellar not in card_omens.dog_range(state, OX)  # only a roll gets through
    state, events = apply(state, "use", card="dog")
    assert state.pending is None and any("finds nothing" in e for e in events)


def test_dog_does_not_fetch_what_was_dropped_this_turn() -> None:
    state = new_game()
    corridor(state)
    hold(state, OX, "dog")
    lying(state, "gardens", "axe")
    state.turn.dropped.append("axe")
    state, events = apply(state, "use", card="dog")
    assert state.pending is None and any("finds nothing" in e for e in events)


def test_mask_on_and_off(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()  # Ox: Sanity 3, Knowledge 3 (indexes 2, 2)
    alone(state)
    hold(state, OX, "mask")
    dice.extend([2, 1, 0])  # 3: no change this turn
    state, _ = apply(state, "use", card="mask")
    assert idx(state)["knowledge"] == 2 and idx(state)["sanity"] == 2
    assert "mask_worn" not in state.explorers[OX].flags
    state = next_turn_of_ox(state)
    dice.extend([2, 2, 0])  # 4: on
    state, events = apply(state, "use", card="mask")
    assert any("puts on the Mask" in e for e in events)
    assert idx(state)["knowledge"] == 4 and idx(state)["sanity"] == 0
    state = next_turn_of_ox(state)
    dice.extend([2, 2])  # Sanity 2 now: 2 dice, 4: off
    state, events = apply(state, "use", card="mask")
    assert any("takes off the Mask" in e for e in events)
    assert idx(state)["knowledge"] == 2 and idx(state)["sanity"] == 2
    assert "mask_worn" not in state.explorers[OX].flags


def test_mask_worn_comes_off_when_it_leaves(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "mask")
    dice.extend([2, 2, 0])
    state, _ = apply(state, "use", card="mask")
    assert idx(state)["knowledge"] == 4
    state = next_turn_of_ox(state)
    state, events = apply(state, "trade", **{"with": MISSY, "give": "mask"})
    assert any("Mask leaves Ox Bellows while worn" in e for e in events)
    assert idx(state)["knowledge"] == 2 and idx(state)["sanity"] == 2
    assert idx(state, MISSY) == new_game().explorers[MISSY].traits  # she gets it off
    assert not state.explorers[OX].flags and not state.explorers[MISSY].flags


@pytest.mark.parametrize(("room", "floor", "x", "y", "rot", "how"), [
    ("pentagram_chamber", "basement", -1, 0, 0, "E"),
    ("graveyard", "ground", 0, -1, 0, "S"),
    ("crypt", "basement", 1, 0, 3, "end"),
])
def test_medallion_spares_its_holder_three_rooms(dice, room: str, floor: str, x: int,  # type: ignore[no-untyped-def]
                                                 y: int, rot: int, how: str) -> None:
    state = new_game()
    put(state, room, floor, x, y, rot)
    at(state, OX, room)
    dice.extend([0] * 16)

    def go(s: BetrayalState) -> tuple[BetrayalState, list[str]]:
        return apply(s, "end_turn") if how == "end" else apply(s, "move", dir=how)

    hurt, events = go(state)
    assert hurt.pending is not None or hurt.explorers[OX].traits != state.explorers[OX].traits
    hold(state, OX, "medallion")
    spared, events = go(state)
    assert not any("rolls" in e or "damage" in e for e in events)
    assert spared.explorers[OX].traits == state.explorers[OX].traits
    assert spared.pending is None


def test_ring_is_no_weapon_and_changes_no_roll_before_the_haunt() -> None:
    state = new_game()
    card = content.card("ring")
    assert card.custom == "ring" and not card.weapon and card.tradeable and not card.modifiers
    frame = Frame([], OX, "", "event")
    before = [rolls.dice_for(state, frame, {"trait": t}) for t in TRAITS]
    hold(state, OX, "ring")
    assert [rolls.dice_for(state, frame, {"trait": t}) for t in TRAITS] == before


def test_skull_may_take_all_mental_damage_as_physical() -> None:
    state = new_game()
    hold(state, OX, "skull")
    hurt, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 2}}])
    assert hurt.pending.kind == "damage_offer"
    assert hurt.pending.labels == ["Take 2 mental damage",
                                   "Take it as physical damage instead (Skull)"]
    skull, _ = choose(hurt, "Skull")
    skull, _ = choose(skull, "All 2 to Might")
    assert idx(skull)["might"] == 0 and idx(skull)["sanity"] == 2
    plain, _ = choose(hurt, "Take 2 mental")
    plain, _ = choose(plain, "All 2 to Sanity")
    assert idx(plain)["sanity"] == 0 and idx(plain)["might"] == 2
    physical, _ = run_steps(state, [{"damage": {"kind": "physical", "amount": 1}}])
    assert physical.pending.kind == "damage_split"  # no offer for physical damage


@pytest.mark.parametrize("key", ["spear", "axe", "blood_dagger", "revolver"])
def test_weapons_add_nothing_to_trait_rolls(key: str) -> None:
    state = new_game()
    frame = Frame([], OX, "", "event")
    before = [rolls.dice_for(state, frame, {"trait": t}) for t in TRAITS]
    hold(state, OX, key)
    assert [rolls.dice_for(state, frame, {"trait": t}) for t in TRAITS] == before
    defence = {"trait": "might", "purpose": "defense"}
    assert rolls.dice_for(state, frame, defence) == value(state, OX, "might")


def test_spirit_board_shows_its_holder_the_top_room_before_moving() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    stack_top(state, "attic")
    stack = list(state.stack)
    state, events = act(state, "use", card="spirit_board")
    private = [e for e in events if "Attic" in e.text]
    assert [e.audience for e in private] == [to_player(OX)]
    assert any(e.audience.is_public and "Spirit Board" in e.text for e in events)
    assert state.stack == stack and "spirit_board" in state.turn.used


def test_spirit_board_only_before_moving() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    stack_top(state, "attic")
    state, _ = apply(state, "move", dir="W")
    state, events = act(state, "use", card="spirit_board")
    assert not any("Attic" in e.text for e in events)
    assert any("only answers before you move" in e.text for e in events)
    assert "spirit_board" not in state.turn.used
    assert "Drop the Spirit Board" in labels(state)  # not spent: it may still be dropped


def test_spirit_board_in_the_haunt_is_refused_politely() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    state.phase = HAUNT
    state, events = act(state, "use", card="spirit_board")
    assert any("not in the bot yet" in e.text for e in events)
    assert "spirit_board" not in state.turn.used and state.pending is None


def test_spirit_board_with_no_room_tiles_left() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    state.room_discard += state.stack
    state.stack = []
    state, events = apply(state, "use", card="spirit_board")
    assert any("No room tiles are left" in e for e in events)


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
    assert hit.pending is None and any("takes 0 physical damage" in e for e in events)
    hit, events = run_steps(state, [{"damage": {"kind": "mental", "amount": 2}}])
    assert any("takes 2 mental damage" in e for e in events)
    assert not any("soaks" in e for e in events)


def test_armor_cannot_be_stolen_but_can_be_traded() -> None:
    state = new_game()
    hold(state, OX, "armor", "axe")
    assert card_items.cannot_be_stolen(state, OX, "armor")
    assert not card_items.cannot_be_stolen(state, OX, "axe")
    assert "Give the Armor to Missy Dubourde" in labels(state)


def test_axe_spear_revolver_blood_dagger_are_weapons_for_the_haunt() -> None:
    for key in ("axe", "spear", "revolver", "blood_dagger"):
        card = content.card(key)
        assert card.weapon and not card.use and not card.haunt_only


@pytest.mark.xfail(strict=True, reason="items.yaml: the Blood Dagger lacks `tradeable: false`")
def test_blood_dagger_cannot_be_traded_or_dropped() -> None:
    state = new_game()
    hold(state, OX, "blood_dagger")
    assert not content.card("blood_dagger").tradeable
    assert "Drop the Blood Dagger" not in labels(state)


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
    dice.extend([2, 2, 2])
    state, events = choose(state, "Reroll all")
    assert any("rerolls: 2 2 2 = 6" in e for e in events)
    assert state.pending.kind == "crystal_ball_deck"  # 6 now: the peek
    assert "lucky_stone" in state.discards["item"]


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
    assert state.pending.labels == ["Might (3 → 3)", "Speed (3 → 4)"]
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
                                        "Use the Rabbit's Foot: reroll a 1"]
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


# ---------------------------------------------------------------- our texts

def test_our_lines_fill_their_placeholders() -> None:
    """Each proposed line formats with the fields its handler gives it."""
    fields = {"who": "Ox", "deck": "item", "card": "Axe", "room": "Attic", "range": 6,
              "points": 2}
    for key in card_omens.PROPOSED:
        text = card_omens.line(key, **fields)
        assert "{" not in text and text.strip(), key
    assert set(card_items.TEXTS) <= set(card_omens.PROPOSED)


def test_handlers_are_registered() -> None:
    from bot.games.betrayal.cards import HANDLERS, PASSIVES

    assert {"crystal_ball_peek", "dog_fetch", "mask_toggle", "mask_lost", "spirit_board",
            "healing_salve", "medical_kit", "mystic_coin_edge", "smelling_salts"} <= set(HANDLERS)
    assert {"armor", "bell_book_candle"} <= set(PASSIVES)
