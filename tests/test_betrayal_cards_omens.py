"""Betrayal cards: the 13 omens do what seed 003 says (lines 322-512, FAQ): each
omen's handler (cards/omens.py: Crystal Ball, Dog, Mask, Spirit Board) or plain steps,
its rolls' bands (the dice are scripted by the `dice` fixture), once-a-turn use, and
the restrictions (companions never change hands).

The shared helpers and the cards' data are in test_betrayal_cards_omens_items.
"""

from __future__ import annotations

from collections import Counter

import pytest

import bot.games.betrayal.cards.omens as card_omens
from bot.core.events import to_player
from bot.games.betrayal import content, items, rolls
from bot.games.betrayal.links import connect
from bot.games.betrayal.state import HAUNT, BetrayalState, Frame
from tests.test_betrayal_cards_omens_items import (
    TRAITS,
    act,
    alone,
    corridor,
    idx,
    lying,
    next_turn_of_ox,
    pick,
    refused,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    at,
    choose,
    deck_top,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
    value,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]


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


def test_dog_does_not_fetch_a_companion_the_dead_left() -> None:
    """Seed 003 line 265: 「髒狗Dog、女孩Girl、瘋漢Madman則會跟上第一個到達這房間的人物」
    [the Dog, the Girl and the Madman follow the first explorer to reach the room]. A
    companion a dead explorer left waits for an explorer to walk in; the Dog is no
    explorer, and fetching (line 342: 這動物可撿拾...1件物件 [it may pick up one object])
    is no way round it. It still fetches an item lying beside the companion."""
    state = new_game()
    corridor(state)
    state.phase = HAUNT
    hold(state, OX, "dog")
    lying(state, "gardens", "girl", "madman")  # a dead explorer's companions
    assert card_omens.fetchable(state, tile(state, "gardens")) == []
    state, events = apply(state, "use", card="dog")
    assert state.pending is None and any("finds nothing" in e for e in events)
    state = new_game()
    corridor(state)
    state.phase = HAUNT
    hold(state, OX, "dog")
    lying(state, "gardens", "girl", "axe")
    state, _ = apply(state, "use", card="dog")
    assert state.pending.labels == ["Bring back the Axe", "Nothing: call it back"]


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


def test_a_held_explorer_cannot_use_the_skull() -> None:
    state = new_game()
    hold(state, OX, "skull")
    state.explorers[OX].lasting.append("webs")  # held fast: nothing can be used
    hurt, _ = run_steps(state, [{"damage": {"kind": "mental", "amount": 1}}])
    assert hurt.pending is None or hurt.pending.kind != "damage_offer"


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
    """Passive.can_use: once its holder has moved, the board is not offered at all."""
    state = new_game()
    hold(state, OX, "spirit_board")
    stack_top(state, "attic")
    assert "Use the Spirit Board" in labels(state)
    state, _ = apply(state, "move", dir="W")
    assert "Use the Spirit Board" not in labels(state)
    assert "only before you move" in refused(state, "use", card="spirit_board")
    assert "spirit_board" not in state.turn.used
    assert "Drop the Spirit Board" in labels(state)  # not spent: it may still be dropped


def test_spirit_board_not_on_another_explorers_turn_nor_after_a_failed_crossing() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    assert "spirit_board" in items.usable(state, OX)
    state.turn.movement_over = True  # a crossing roll failed: movement is over
    assert "spirit_board" not in items.usable(state, OX)
    state.turn.movement_over = False
    state.turn.free_moves = 1  # the Rope, the Coal Chute
    assert "spirit_board" not in items.usable(state, OX)
    state.turn.free_moves = 0
    state.turn.seat = MISSY
    assert "spirit_board" not in items.usable(state, OX)


def test_a_passive_can_refuse_a_use() -> None:
    """items.usable asks the card's passive; a HandPassive agrees unless it says no."""
    from bot.games.betrayal.cards import PASSIVES, HandPassive

    assert HandPassive().can_use(new_game(), OX, "axe")
    state = new_game()
    hold(state, OX, "spirit_board")
    board = PASSIVES["spirit_board"]
    assert content.card("spirit_board").custom == "spirit_board"
    assert board.can_use(state, OX, "spirit_board")
    state.turn.moves = 1
    assert not board.can_use(state, OX, "spirit_board")


def test_spirit_board_in_the_haunt_still_shows_the_top_room() -> None:
    """Its haunt half (monsters drawn toward its user) is in
    tests/test_betrayal_haunt_cards.py; with no monster about, only the peek."""
    state = new_game()
    hold(state, OX, "spirit_board")
    stack_top(state, "attic")
    state.phase = HAUNT
    state, events = act(state, "use", card="spirit_board")
    assert [e.audience for e in events if "Attic" in e.text] == [to_player(OX)]
    assert any("Nothing is drawn toward Ox Bellows" in e.text for e in events)
    assert "spirit_board" in state.turn.used and state.pending is None


def test_spirit_board_with_no_room_tiles_left() -> None:
    state = new_game()
    hold(state, OX, "spirit_board")
    state.room_discard += state.stack
    state.stack = []
    state, events = apply(state, "use", card="spirit_board")
    assert any("No room tiles are left" in e for e in events)
