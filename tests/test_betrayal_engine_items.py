"""Betrayal engine: using, trading, dropping and picking up cards (seed 003 + FAQ)."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    PETER,
    apply,
    at,
    choose,
    dice,
    hold,
    labels,
    new_game,
    put,
    same,
    value,
)

__all__ = ["dice"]


def refused(state: BetrayalState, kind: str, **args: object) -> str:
    before = GAME.copy_state(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, kind, **args)
    assert same(state, before)
    return err.value.message


def test_use_once_a_turn(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "mystic_coin")
    assert "Use the Mystic Coin" in labels(state)
    dice.extend([1])
    state, events = apply(state, "use", card="mystic_coin")
    assert any("uses the Mystic Coin" in e for e in events)
    state, _ = choose(state, 0)  # gain Knowledge or Sanity
    assert "Use the Mystic Coin" not in labels(state)
    assert "once a turn" in refused(state, "use", card="mystic_coin")


def test_haunt_only_cards_wait_for_the_haunt() -> None:
    state = new_game()
    hold(state, OX, "bottle")
    assert "Use the Bottle" not in labels(state)
    refused(state, "use", card="bottle")


def test_give_a_card_to_someone_in_the_room() -> None:
    state = new_game()
    hold(state, OX, "holy_symbol")
    state.explorers[OX].traits["sanity"] = 4  # as if the symbol's +2 had been gained
    assert "Give the Holy Symbol to Missy Dubourde" in labels(state)
    state, _ = apply(state, "trade", **{"with": MISSY, "give": "holy_symbol"})
    assert state.explorers[MISSY].cards == ["holy_symbol"] and not state.explorers[OX].cards
    assert state.explorers[OX].traits["sanity"] == 2  # its on_lose
    assert state.explorers[MISSY].traits["sanity"] == 4  # its on_gain
    hold(state, OX, "axe")
    assert not any(label.startswith("Give") for label in labels(state))  # once a turn
    assert "already traded" in refused(state, "trade", **{"with": PETER, "give": "axe"})


def test_no_trade_across_rooms_or_the_split() -> None:
    state = new_game()
    hold(state, OX, "axe")
    at(state, MISSY, "foyer")
    at(state, PETER, "foyer")
    assert not any(label.startswith("Give") for label in labels(state))
    refused(state, "trade", **{"with": MISSY, "give": "axe"})
    put(state, "chasm", "basement", 1, 0, rotation=0)
    at(state, OX, "chasm", side="W")
    at(state, MISSY, "chasm", side="E")
    assert not any(label.startswith("Give") for label in labels(state))
    at(state, MISSY, "chasm", side="W")
    assert "Give the Axe to Missy Dubourde" in labels(state)


def test_companions_never_change_hands() -> None:
    state = new_game()
    hold(state, OX, "dog", "axe")
    hold(state, MISSY, "girl")
    found = labels(state)
    assert "Give the Axe to Missy Dubourde" in found
    assert not any("Dog" in label and label.startswith(("Give", "Drop")) for label in found)
    assert not any("Girl" in label for label in found)
    assert "can't trade" in refused(state, "trade", **{"with": MISSY, "give": "dog"})
    assert "can't drop" in refused(state, "drop", card="dog")


def test_a_card_used_this_turn_stays(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box")
    dice.extend([0, 0, 0])
    state, _ = apply(state, "use", card="puzzle_box")  # stays shut
    assert "puzzle_box" in state.explorers[OX].cards
    refused(state, "drop", card="puzzle_box")
    refused(state, "trade", **{"with": MISSY, "give": "puzzle_box"})
    state, _ = apply(state, "end_turn")
    state.turn.seat = OX  # as if it came round again
    state.turn.used = []
    assert "Drop the Puzzle Box" in labels(state)


def test_a_trade_moves_exactly_one_card() -> None:
    """玩家僅可將1張卡片(髒狗Dog、女孩Girl、瘋漢Madman除外)，轉交給與其人物同處同一房間的其他人物。

    A player may hand only one card (not the Dog, Girl or Madman) to another explorer in
    the same room (seed 003, "items"). Once, the bot let a trade be a swap (a card for one
    of theirs): two cards in one trade. Now there is no swap to offer or ask for, and the
    turn's one trade moves one card, one way, with no answer awaited."""
    state = new_game()
    hold(state, OX, "axe", "rope")
    hold(state, MISSY, "armor")
    shown = labels(state)
    assert not any(label.startswith("Offer") or "Armor" in label for label in shown)
    refused(state, "trade", **{"with": MISSY, "give": "axe", "take": "armor"})
    state, _ = apply(state, "trade", **{"with": MISSY, "give": "axe"})
    assert state.pending is None and GAME.to_act(state) == OX  # no one is asked
    assert state.explorers[OX].cards == ["rope"]
    assert state.explorers[MISSY].cards == ["armor", "axe"]  # one card moved, one way
    assert "already traded" in refused(state, "trade", **{"with": MISSY, "give": "rope"})


def test_drop_and_pick_up() -> None:
    state = new_game()
    hold(state, OX, "holy_symbol")
    state.explorers[OX].traits["sanity"] = 4
    state, _ = apply(state, "drop", card="holy_symbol")
    hall = state.tiles[state.explorers[OX].tile]
    assert hall.items == ["holy_symbol"] and state.explorers[OX].traits["sanity"] == 2
    assert "Pick up the Holy Symbol" not in labels(state)
    assert "dropped this turn" in refused(state, "pickup", card="holy_symbol")
    state, _ = apply(state, "end_turn")  # Missy, in the same room
    assert GAME.to_act(state) == MISSY and "Pick up the Holy Symbol" in labels(state)
    state, _ = apply(state, "pickup", card="holy_symbol")
    assert state.explorers[MISSY].cards == ["holy_symbol"]
    assert state.tiles[state.explorers[MISSY].tile].items == []
    assert value(state, MISSY, "sanity") == 5  # Missy: Sanity 3 at index 2, +2


def test_pick_up_only_what_lies_here() -> None:
    state = new_game()
    state.tiles[state.explorers[OX].tile].items.append("axe")
    state.decks["item"].remove("axe")
    at(state, OX, "foyer")
    assert "isn't lying here" in refused(state, "pickup", card="axe")
    assert "no card" in refused(state, "drop", card="nonsense")


def test_a_swap_offered_in_a_game_saved_before_the_rule_lapses() -> None:
    """A game stored while a swap offer waited (the bot once let a trade be a swap)
    still answers: the offer lapses whatever the answer and no card moves, as a trade
    moves one card (seed 003)."""
    state = new_game()
    hold(state, OX, "axe")
    hold(state, MISSY, "armor")
    state.turn.traded = True
    raw = state.to_dict()
    raw["script"] = [{"steps": [{"_trade_offer": {"from": OX, "give": "axe", "take": "armor"}}],
                      "seat": MISSY, "source": "", "origin": "engine", "vars": {}}]
    raw["pending"] = {"seat": MISSY, "prompt": "Swap?", "kind": "trade_answer",
                      "labels": ["Accept", "Decline"], "payload": {}, "private": False,
                      "texts": {}}
    stored = BetrayalState.from_dict(raw)
    assert GAME.to_act(stored) == MISSY
    state, events = choose(stored, 0)  # "Accept": the swap no longer exists
    assert state.pending is None and not state.script
    assert state.explorers[OX].cards == ["axe"] and state.explorers[MISSY].cards == ["armor"]
    assert any("lapses" in e for e in events)
