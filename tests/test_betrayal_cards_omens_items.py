"""Betrayal: the 13 omens and the 22 items do what seed 003 says (lines 322-512, FAQ).

Every card has a test, whether a handler of cards/omens.py and cards/items.py does its
work or plain steps do: its gains on pick-up and the reverse on loss, its rolls' bands
(the dice are scripted by the `dice` fixture), once-a-turn use, and the restrictions
(companions never change hands). Haunt-time combat (the Ring, the weapons' attack dice,
the Dynamite, the Druidic Charm's flash, the Bell's use) is checked as far as
exploration reaches: the data and what the card must *not* do before the haunt.

Here: the helpers the other two files share, the 35 cards' data and our texts; each
omen's behaviour is in test_betrayal_cards_omens, each item's in test_betrayal_cards_items.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.games.betrayal import GAME, content, decks, effects
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.state import BetrayalState
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
    tile,
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


def corridor(state: BetrayalState) -> list[str]:
    """Seven rooms north of the Entrance Hall, 1 to 7 rooms away."""
    rooms = ["gardens", "statuary_corridor", "creaky_hallway", "dusty_hallway", "ballroom",
             "bloody_room", "charred_room"]
    for i, room in enumerate(rooms, start=1):
        put(state, room, "ground", 0, -i)
    return rooms


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
    state.explorers[OX].cards.remove(key)  # Missy's now: no option names it at all
    hold(state, MISSY, key, "holy_symbol")
    assert not any(name in x for x in labels(state))


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


# ---------------------------------------------------------------- our texts

OUR_LINES = ("prompts.crystal_ball_deck", "prompts.crystal_ball_card",
             "labels.crystal_ball_deck", "events.crystal_ball", "events.crystal_ball_top",
             "events.crystal_ball_empty", "prompts.dog_where", "prompts.dog_errand",
             "labels.dog_fetch", "labels.dog_carry", "labels.dog_nothing", "events.dog_fetch",
             "events.dog_carry", "events.dog_back", "events.dog_idle", "events.mask_on",
             "events.mask_off", "events.mask_lost", "events.spirit_board",
             "events.spirit_board_top", "events.spirit_board_empty",
             "prompts.patient", "events.nothing_to_heal", "events.medical_kit_fail",
             "prompts.medical_kit", "events.set_complete", "events.set_broken",
             "events.coin_edge")


def test_our_lines_fill_their_placeholders() -> None:
    """Each line these cards say (texts.yaml) formats with the fields its handler gives."""
    fields = {"who": "Ox", "deck": "item", "card": "Axe", "room": "Attic", "range": 6,
              "points": 2}
    for key in OUR_LINES:
        text = content.betrayal_line(key, **fields)
        assert "{" not in text and text.strip(), key


def test_handlers_are_registered() -> None:
    from bot.games.betrayal.cards import HANDLERS, PASSIVES

    assert {"crystal_ball_peek", "dog_fetch", "mask_toggle", "mask_lost", "spirit_board",
            "healing_salve", "medical_kit", "mystic_coin_edge", "smelling_salts"} <= set(HANDLERS)
    assert {"armor", "bell_book_candle"} <= set(PASSIVES)
