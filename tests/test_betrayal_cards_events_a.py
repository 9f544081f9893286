"""Betrayal cards: every event A to L (events.yaml, by key) does what seed 003 says
(lines 627-902), every roll band and branch, choices handed to the right explorer. The
one-shot events are here, with the helpers the other two files share; the lasting
events (Debris, Webs, Grave Dirt, Lights Out) are in test_betrayal_cards_events_lasting,
the attacks (Bloody Vision, Creepy Puppet) and the Toy Monkey (items.yaml) in
test_betrayal_cards_events_attacks.

Explorers (see test_betrayal_engine_helpers): Ox Bellows, Missy Dubourde, Peter
Akimoto, all in the Entrance Hall at the start, Ox to play. Trait dice at the start:
Ox Speed 4, Might 5, Sanity 3, Knowledge 3; Missy Speed 5, Might 3, Sanity 3,
Knowledge 4; Peter Speed 4, Might 3, Sanity 4, Knowledge 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.betrayal import content, rolls
from bot.games.betrayal.cards import attacks, events_a_to_l  # noqa: F401  (they register)
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
    tile,
)
from tests.test_betrayal_engine_traits import run_steps

__all__ = ["dice"]

TRAIT_NAMES = ("speed", "might", "sanity", "knowledge")


# ---------------------------------------------------------------- helpers

def faces(total: int, count: int) -> list[int]:
    """`count` dice showing `total` (2s first)."""
    assert 0 <= total <= 2 * count, (total, count)
    out = []
    for _ in range(count):
        face = min(2, total)
        out.append(face)
        total -= face
    return out


def draw(state: BetrayalState, key: str, seat: int = OX) -> tuple[BetrayalState, list[str]]:
    """`seat` draws this event, as on discovering a room with an event symbol."""
    deck_top(state, "event", key)
    return run_steps(state, [{"draw": {"deck": "event", "count": 1}}], seat)


def idx(state: BetrayalState, seat: int) -> dict[str, int]:
    return dict(state.explorers[seat].traits)


def pin(state: BetrayalState, seat: int, *names: str) -> None:
    """Put these traits at their lowest, so damage of their kind goes to the other."""
    for name in names:
        state.explorers[seat].traits[name] = 0


def rolled(events: list[str], who: str, what: str) -> list[list[int]]:
    """The dice of each roll `who` made of `what` ("Might", "2 dice")."""
    found = []
    for e in events:
        head = f"{who} rolls {what}: "
        if e.startswith(head):
            found.append([int(d) for d in e[len(head):].split(" = ")[0].split()])
    return found


def said(events: list[str], fragment: str) -> bool:
    return any(fragment in e for e in events)


def ends(state: BetrayalState) -> BetrayalState:
    """End the current turn (no choices expected on the way)."""
    state, _ = apply(state, "end_turn")
    assert state.pending is None
    return state


def alone(state: BetrayalState, seat: int = OX) -> None:
    """Everyone else waits on the upper floor."""
    for other in (OX, MISSY, PETER):
        if other != seat:
            at(state, other, "upper_landing")


# ---------------------------------------------------------------- A Moment of Hope

def test_a_moment_of_hope_blesses_trait_rolls_in_its_room(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, events = draw(state, "a_moment_of_hope")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["blessing"]
    roll = [{"roll": {"trait": "might", "outcomes": []}}]
    _, events = run_steps(state, roll)
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [6]  # 5 + 1
    dice.extend([0, 0, 0, 0])  # an attack: the defence is not a trait roll
    _, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]
    at(state, OX, "foyer")
    _, events = run_steps(state, roll)
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]


def test_the_blessing_never_goes_past_eight_dice() -> None:
    state = new_game()
    state, _ = draw(state, "a_moment_of_hope")
    state.explorers[OX].traits["might"] = 7  # Might 8
    _, events = run_steps(state, [{"roll": {"trait": "might", "outcomes": []}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [8]


# ---------------------------------------------------------------- Angry Being

@pytest.mark.parametrize(("total", "speed", "mental", "physical"), [
    (8, 1, 0, 0), (5, 1, 0, 0), (4, 0, 1, 0), (2, 0, 1, 0), (1, 0, 1, 1), (0, 0, 1, 1)])
def test_angry_being(dice, total: int, speed: int, mental: int,  # type: ignore[no-untyped-def]
                     physical: int) -> None:
    state = new_game()
    pin(state, OX, "knowledge", "might")  # mental damage to Sanity, physical to Speed
    before = idx(state, OX)
    dice.extend(faces(total, 4))  # Speed 4
    dice.extend([1] * mental + [2] * physical)  # 1 die each: 1 mental, 2 physical
    state, events = draw(state, "angry_being")
    assert not dice and state.pending is None
    after = idx(state, OX)
    assert after["speed"] == before["speed"] + speed - 2 * physical
    assert after["sanity"] == before["sanity"] - mental
    assert said(events, "takes 1 mental damage") == bool(mental)


# ---------------------------------------------------------------- Burning Man

@pytest.mark.parametrize(("total", "sanity", "moved", "burnt"), [
    (6, 1, False, False), (4, 1, False, False), (3, 0, True, False), (2, 0, True, False),
    (1, 0, False, True), (0, 0, False, True)])
def test_burning_man(dice, total: int, sanity: int, moved: bool,  # type: ignore[no-untyped-def]
                     burnt: bool) -> None:
    state = new_game()
    at(state, OX, "foyer")
    pin(state, OX, "speed", "knowledge")
    before = idx(state, OX)
    dice.extend(faces(total, 3))
    if burnt:
        dice.extend([2, 1])  # 2 physical, then 1 mental
    state, _ = draw(state, "burning_man")
    assert not dice and state.pending is None
    after = idx(state, OX)
    assert state.explorers[OX].tile == tile(state, "entrance_hall" if moved else "foyer")
    assert after["sanity"] == before["sanity"] + sanity - (1 if burnt else 0)
    assert after["might"] == before["might"] - (2 if burnt else 0)


# ---------------------------------------------------------------- Closet Door

@pytest.mark.parametrize(("roll", "item", "event", "token_stays"), [
    ([2, 2], True, False, True), ([2, 1], False, True, True), ([1, 1], False, True, True),
    ([1, 0], False, True, False), ([0, 0], False, True, False)])
def test_closet_door(dice, roll: list[int], item: bool, event: bool,  # type: ignore[no-untyped-def]
                     token_stays: bool) -> None:
    state = new_game()
    state, _ = draw(state, "closet_door")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["closet"]
    deck_top(state, "item", "bottle")
    deck_top(state, "event", "night_view")
    dice.extend(roll)
    if event:
        dice.extend([0, 0, 0])  # Night View: Knowledge, nothing
    assert "Use the closet (Closet Door)" in labels(state)
    state, _ = apply(state, "act", what="closet_door-0")
    assert not dice and state.pending is None
    assert ("bottle" in state.explorers[OX].cards) == item
    assert ("night_view" in state.discards["event"]) == event
    assert bool(state.tiles[here].tokens) == token_stays
    assert "Use the closet (Closet Door)" not in labels(state)  # once a turn


# ---------------------------------------------------------------- Creepy Crawlies

@pytest.mark.parametrize(("total", "sanity"), [(6, 1), (5, 1), (4, -1), (1, -1), (0, -2)])
def test_creepy_crawlies(dice, total: int, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)["sanity"]
    dice.extend(faces(total, 3))
    state, _ = draw(state, "creepy_crawlies")
    assert not dice and idx(state, OX)["sanity"] == before + sanity


# ---------------------------------------------------------------- Disquieting Sounds

@pytest.mark.parametrize(("omens", "total", "gain"), [
    (2, 2, True), (2, 1, False), (2, 3, False), (0, 0, True), (0, 1, False), (5, 6, False),
    (5, 5, True)])
def test_disquieting_sounds_equal_to_the_omens(dice, omens: int, total: int,  # type: ignore[no-untyped-def]
                                               gain: bool) -> None:
    state = new_game()
    state.omens_drawn = omens
    pin(state, OX, "knowledge")
    before = idx(state, OX)["sanity"]
    dice.extend(faces(total, 6))
    if not gain:
        dice.append(1)  # 1 die of mental damage
    state, events = draw(state, "disquieting_sounds")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "6 dice")] == [6]
    assert idx(state, OX)["sanity"] == before + (1 if gain else -1)


# ---------------------------------------------------------------- Drip Drip Drip (drip_drip_drip)

def test_drip_takes_a_die_from_trait_rolls_here(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "drip_drip_drip")
    assert [t["kind"] for t in state.at(OX).tokens] == ["drip"]
    _, events = run_steps(state, [{"roll": {"trait": "might", "outcomes": []}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [4]
    pin(state, MISSY, "sanity")  # Missy's lowest Sanity is 1: still 1 die
    _, events = run_steps(state, [{"roll": {"trait": "sanity", "outcomes": []}}], MISSY)
    assert [len(d) for d in rolled(events, "Missy Dubourde", "Sanity")] == [1]
    dice.extend([0, 0, 0, 0])
    _, events = run_steps(state, [{"attack": {"trait": "might", "dice": 4}}])
    assert [len(d) for d in rolled(events, "Ox Bellows", "Might")] == [5]


# ---------------------------------------------------------------- Footsteps

def crypt_house(state: BetrayalState) -> None:
    """A Crypt west of the Basement Landing, joined by a door."""
    put(state, "crypt", "basement", -1, 0)  # doors N E: E meets the Landing


@pytest.mark.parametrize(("face", "trait", "change"), [(2, "sanity", -1), (1, "speed", -1)])
def test_footsteps_one_die(dice, face: int, trait: str, change: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.append(face)
    state, events = draw(state, "footsteps")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "1 die")] == [1]
    assert idx(state, OX)[trait] == before[0][trait] + change
    assert [idx(state, s) for s in (MISSY, PETER)] == before[1:]


def test_footsteps_zero_everyone_picks_a_trait(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.append(0)
    state, _ = draw(state, "footsteps")
    picks = {OX: "Might", MISSY: "Knowledge", PETER: "Speed"}
    for seat in (OX, MISSY, PETER):  # the drawer first, then clockwise
        assert state.pending and state.pending.seat == seat
        assert state.pending.kind == "trait_pick" and len(state.pending.labels) == 4
        state, _ = choose(state, picks[seat])
    assert state.pending is None
    for seat, trait in picks.items():
        assert idx(state, seat)[trait.lower()] == before[seat][trait.lower()] - 1


@pytest.mark.parametrize(("roll", "ox_might", "missy"), [
    ([2, 2], 1, ("might", 1)), ([2, 1], 1, ("sanity", -1))])
def test_footsteps_in_the_crypt_reach_the_nearest(dice, roll: list[int], ox_might: int,  # type: ignore[no-untyped-def]
                                                  missy: tuple[str, int]) -> None:
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, MISSY, "basement_landing")  # one move away; Peter far off upstairs
    at(state, PETER, "upper_landing")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.extend(roll)
    state, events = draw(state, "footsteps")
    assert not dice and [len(d) for d in rolled(events, "Ox Bellows", "2 dice")] == [2]
    assert idx(state, OX)["might"] == before[0]["might"] + ox_might
    assert idx(state, MISSY)[missy[0]] == before[1][missy[0]] + missy[1]
    assert idx(state, PETER) == before[2]


def test_footsteps_the_same_room_is_nearest_and_ties_are_the_drawers(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, PETER, "crypt")
    at(state, MISSY, "basement_landing")
    peter = idx(state, PETER)["might"]
    dice.extend([2, 2])
    state, _ = draw(state, "footsteps")
    assert idx(state, PETER)["might"] == peter + 1 and state.pending is None
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    at(state, MISSY, "basement_landing")
    at(state, PETER, "basement_landing")
    dice.extend([2, 2])
    state, _ = draw(state, "footsteps")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "footsteps_near"
    assert state.pending.labels == ["Missy Dubourde", "Peter Akimoto"]
    missy = idx(state, MISSY)["might"]
    state, _ = choose(state, "Missy")
    assert idx(state, MISSY)["might"] == missy + 1


def test_footsteps_two_with_two_dice_in_the_crypt(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    at(state, OX, "crypt")
    sanity = idx(state, OX)["sanity"]
    dice.extend([1, 1])
    state, _ = draw(state, "footsteps")
    assert idx(state, OX)["sanity"] == sanity - 1 and not dice


# ---------------------------------------------------------------- Funeral

@pytest.mark.parametrize(("total", "sanity"), [(6, 1), (4, 1), (3, -1), (2, -1)])
def test_funeral_bands(dice, total: int, sanity: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    before = idx(state, OX)
    dice.extend(faces(total, 3))
    state, _ = draw(state, "funeral")
    assert not dice and idx(state, OX)["sanity"] == before["sanity"] + sanity
    assert idx(state, OX)["might"] == before["might"]
    assert state.explorers[OX].tile == tile(state, "entrance_hall")


@pytest.mark.parametrize(("rooms", "lands"), [
    ((), "entrance_hall"), (("crypt",), "crypt"), (("graveyard",), "graveyard")])
def test_funeral_climbs_out_where_it_can(dice, rooms: tuple[str, ...],  # type: ignore[no-untyped-def]
                                         lands: str) -> None:
    state = new_game()
    if "crypt" in rooms:
        crypt_house(state)
    if "graveyard" in rooms:
        put(state, "graveyard", "ground", 0, -1, rotation=0)
    before = idx(state, OX)
    dice.extend([1, 0, 0])
    state, _ = draw(state, "funeral")
    assert state.pending is None and not dice
    assert idx(state, OX)["might"] == before["might"] - 1
    assert idx(state, OX)["sanity"] == before["sanity"] - 1
    assert state.explorers[OX].tile == tile(state, lands)


def test_funeral_with_both_rooms_the_explorer_picks(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    crypt_house(state)
    put(state, "graveyard", "ground", 0, -1)
    dice.extend([0, 0, 0])
    state, _ = draw(state, "funeral")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "tile_pick"
    assert sorted(state.pending.labels) == ["Crypt", "Graveyard"]
    state, _ = choose(state, "Graveyard")
    assert state.explorers[OX].tile == tile(state, "graveyard")


# ---------------------------------------------------------------- Groundskeeper

@pytest.mark.parametrize(("total", "item"), [(6, True), (4, True), (3, False), (2, False),
                                             (1, False), (0, False)])
def test_groundskeeper(dice, total: int, item: bool) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "speed")
    might = idx(state, OX)["might"]
    deck_top(state, "item", "bottle")
    dice.extend(faces(total, 3))  # Knowledge 3
    if not item:
        dice.extend([2, 2, 1, 0, 1, 0, 0, 0, 0])  # the gardener 5, then Ox's Might 1
    state, events = draw(state, "groundskeeper")
    assert not dice and state.pending is None
    assert ("bottle" in state.explorers[OX].cards) == item
    assert idx(state, OX)["might"] == (might if item else max(0, might - 4))
    assert said(events, "attacks Ox Bellows: 4 dice against Might") == (not item)


def test_groundskeeper_two_dice_fewer_in_the_gardens(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    put(state, "gardens", "ground", 0, -1)
    at(state, OX, "gardens")
    at(state, MISSY, "gardens")
    deck_top(state, "item", "bottle")
    dice.extend([2])  # 1 die (3 - 2): a 2 brings the attack
    dice.extend([0, 0, 0, 0] + [0] * 5)
    state, events = draw(state, "groundskeeper")
    assert [len(d) for d in rolled(events, "Ox Bellows", "Knowledge")] == [1] and not dice
    deck_top(state, "item", "rope")
    dice.extend([2, 2])  # Missy: Knowledge 4, 2 dice: 4 finds an item
    state, events = draw(state, "groundskeeper", MISSY)
    assert [len(d) for d in rolled(events, "Missy Dubourde", "Knowledge")] == [2]
    assert "rope" in state.explorers[MISSY].cards
    state.explorers[OX].traits["knowledge"] = 0  # Knowledge 2: still 1 die
    dice.extend([2, 0, 0, 0, 0, 2, 2, 2, 2, 2])  # 2: the gardener 0, Ox 10
    _, events = draw(state, "groundskeeper")
    assert [len(d) for d in rolled(events, "Ox Bellows", "Knowledge")] == [1]


# ---------------------------------------------------------------- Hanged Men

def hanged(state: BetrayalState, totals: dict[str, int], dice: list[int]
           ) -> tuple[BetrayalState, list[str]]:
    for trait in TRAIT_NAMES:  # the card's order: Speed, Might, Sanity, Knowledge
        dice.extend(faces(totals[trait], {"speed": 4, "might": 5, "sanity": 3,
                                          "knowledge": 3}[trait]))
    return draw(state, "hanged_men")


def test_hanged_men_all_firm_gains_a_trait_of_choice(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)
    state, _ = hanged(state, {t: 2 for t in TRAIT_NAMES}, dice)
    assert not dice and idx(state, OX) == before
    assert state.pending and state.pending.seat == OX and state.pending.kind == "trait_pick"
    assert len(state.pending.labels) == 4
    state, _ = choose(state, "Knowledge")
    assert idx(state, OX) == {**before, "knowledge": before["knowledge"] + 1}


@pytest.mark.parametrize("failed", TRAIT_NAMES)
@pytest.mark.parametrize("total", [1, 0])
def test_hanged_men_a_low_roll_loses_that_trait(dice, failed: str, total: int) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    before = idx(state, OX)
    totals = {t: 4 for t in TRAIT_NAMES}
    totals[failed] = total
    state, _ = hanged(state, totals, dice)
    assert not dice and state.pending is None  # no bonus
    assert idx(state, OX) == {**before, failed: before[failed] - 1}


def test_hanged_men_bonus_survives_a_roll_item_pausing_between_the_rolls(dice) -> None:  # type: ignore[no-untyped-def]
    """The Angel Feather asks before each roll: the card pauses between its rolls, and
    the totals are still all known (rolls.card_rolls)."""
    state = new_game()
    hold(state, OX, "angel_feather")
    state, _ = draw(state, "hanged_men")
    assert state.pending and state.pending.kind == "roll_pre"
    dice.extend(faces(2, 4))  # Speed: rolled, 2
    state, _ = choose(state, "Roll")
    assert state.pending.kind == "roll_pre"
    dice.extend(faces(3, 5))  # Might: rolled, 3
    state, _ = choose(state, "Roll")
    state, _ = choose(state, "Angel Feather")  # Sanity: picked, 2
    dice.extend(faces(2, 3))  # Knowledge: rolled, 2 (the feather is gone: no pause)
    state, _ = choose(state, "2")
    assert not dice
    assert state.pending and state.pending.kind == "trait_pick"  # the bonus
    totals = [(r["trait"], r["total"]) for r in rolls.card_rolls(state, "hanged_men")]
    assert totals == [("speed", 2), ("might", 3), ("sanity", 2), ("knowledge", 2)]


def test_hanged_men_bonus_counts_a_rerolled_total(dice) -> None:  # type: ignore[no-untyped-def]
    """The Lucky Stone asks after each roll: a low roll rerolled to 2+ counts as 2+."""
    state = new_game()
    hold(state, OX, "lucky_stone")
    dice.extend([0, 0, 0, 0])  # Speed: 0
    state, _ = draw(state, "hanged_men")
    assert state.pending.kind == "roll_post"
    state, _ = choose(state, "Lucky Stone")
    for die in (1, 2, 3, 4):
        state, _ = choose(state, f"Pick die {die}")
    dice.extend([2, 0, 0, 0])  # all rerolled: 2
    dice.extend(faces(2, 5) + faces(2, 3) + faces(2, 3))
    state, _ = choose(state, "Reroll the picked dice")
    assert not dice and state.pending and state.pending.kind == "trait_pick"
    assert idx(state, OX)["speed"] == new_game().explorers[OX].traits["speed"]


def test_hanged_men_bonus_needs_this_draws_rolls(dice) -> None:  # type: ignore[no-untyped-def]
    """Rolls of an earlier Hanged Men this turn (or of someone else) do not count."""
    state = new_game()
    state.turn.flags["card_rolls"] = {"hanged_men": [
        {"seat": OX, "trait": t, "purpose": "", "total": 4} for t in TRAIT_NAMES]}
    totals = {t: 4 for t in TRAIT_NAMES}
    totals["might"] = 1
    state, _ = hanged(state, totals, dice)
    assert state.pending is None and not dice


# ---------------------------------------------------------------- Hideous Shriek

@pytest.mark.parametrize(("total", "damage_dice"), [(6, []), (4, []), (3, [1]), (1, [2]),
                                                    (0, [2, 1])])
def test_hideous_shriek_bands(dice, total: int, damage_dice: list[int]) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "knowledge")
    alone(state)
    sanity = idx(state, OX)["sanity"]
    dice.extend(faces(total, 3) + damage_dice)
    dice.extend([2] * 3 + [2] * 4)  # Missy and Peter hold firm
    state, _ = draw(state, "hideous_shriek")
    assert not dice and state.pending is None
    assert idx(state, OX)["sanity"] == max(0, sanity - sum(damage_dice))


def test_hideous_shriek_everyone_rolls_and_bears_their_own(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    at(state, PETER, "upper_landing")  # wherever they are
    for seat in (OX, MISSY, PETER):
        pin(state, seat, "knowledge")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    dice.extend([2, 2, 0])  # Ox: 4, nothing
    dice.extend([1, 1, 1, 2])  # Missy: 3, then 1 die: 2
    dice.extend([0, 0, 0, 0, 2, 1])  # Peter: 0, then 2 dice: 3
    state, events = draw(state, "hideous_shriek")
    assert not dice and state.pending is None
    assert [rolled(events, who, "Sanity") for who in
            ("Ox Bellows", "Missy Dubourde", "Peter Akimoto")] == \
        [[[2, 2, 0]], [[1, 1, 1]], [[0, 0, 0, 0]]]  # the drawer first, then clockwise
    assert idx(state, OX) == before[0]
    assert idx(state, MISSY)["sanity"] == before[1]["sanity"] - 2
    assert idx(state, PETER)["sanity"] == max(0, before[2]["sanity"] - 3)


def test_hideous_shriek_each_splits_their_own_damage(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    dice.extend([2, 2, 0, 1, 1, 1, 1])  # Ox: 4, nothing; Missy: 3, then 1 die: 1
    state, _ = draw(state, "hideous_shriek")
    assert state.pending and state.pending.seat == MISSY and "1 mental" in state.pending.prompt
    dice.extend([2, 2, 0, 0])  # Peter: 4, nothing
    state, _ = choose(state, "Knowledge")
    assert state.pending is None and not dice


# ---------------------------------------------------------------- Image in the Mirror

def test_image_in_the_mirror_sends_an_item_back(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "bottle", "rope", "crystal_ball")  # an omen is not an item card
    knowledge = idx(state, OX)["knowledge"]
    state, _ = draw(state, "image_in_the_mirror_forward")
    assert state.pending and state.pending.seat == OX and state.pending.kind == "mirror_item"
    assert state.pending.labels == ["Bottle", "Rope"]
    state, _ = choose(state, "Rope")
    assert state.explorers[OX].cards == ["bottle", "crystal_ball"]
    assert "rope" in state.decks["item"] and idx(state, OX)["knowledge"] == knowledge + 1
    assert "image_in_the_mirror_forward" in state.discards["event"]


def test_image_in_the_mirror_passes_left_to_an_item_holder() -> None:
    state = new_game()
    hold(state, OX, "crystal_ball")
    hold(state, PETER, "bottle")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    state, events = draw(state, "image_in_the_mirror_forward")
    assert said(events, "the mirror turns to Peter Akimoto") and state.pending is None
    assert state.explorers[PETER].cards == [] and "bottle" in state.decks["item"]
    assert idx(state, PETER)["knowledge"] == before[2]["knowledge"] + 1
    assert [idx(state, s) for s in (OX, MISSY)] == before[:2]
    state = new_game()
    hold(state, MISSY, "bottle", "rope")
    state, _ = draw(state, "image_in_the_mirror_forward", PETER)  # Peter's left: Ox, then Missy
    assert state.pending and state.pending.seat == MISSY


def test_image_in_the_mirror_with_no_items_is_discarded() -> None:
    state = new_game()
    hold(state, MISSY, "crystal_ball")
    before = [idx(state, s) for s in (OX, MISSY, PETER)]
    state, events = draw(state, "image_in_the_mirror_forward")
    assert said(events, "goes dark") and state.pending is None
    assert [idx(state, s) for s in (OX, MISSY, PETER)] == before
    assert "image_in_the_mirror_forward" in state.discards["event"]


def test_image_in_the_mirror_reversed_gives_an_item() -> None:
    state = new_game()
    deck_top(state, "item", "rope")
    state, _ = draw(state, "image_in_the_mirror_reversed")
    assert state.explorers[OX].cards == ["rope"]


# ---------------------------------------------------------------- It is meant to be

def test_it_is_meant_to_be_reorders_the_top_three() -> None:
    state = new_game()
    deck_top(state, "omen", "bite", "book", "dog")
    state, _ = draw(state, "it_is_meant_to_be")
    assert state.pending and state.pending.seat == OX and len(state.pending.labels) == 5
    state, _ = choose(state, "omen deck")
    assert state.pending and len(state.pending.labels) == 6  # every order of the three
    state, events = choose(state, "Dog, Book, Bite")
    assert state.decks["omen"][:3] == ["dog", "book", "bite"]
    assert "Ox Bellows has glimpsed and reordered the top of the omen deck." in events
    state = new_game()
    top = state.stack[:3]
    state, _ = draw(state, "it_is_meant_to_be")
    state, _ = choose(state, "room stack")
    state, events = choose(state, len(state.pending.labels) - 1)
    assert state.stack[:3] == top[::-1]
    assert "Ox Bellows has glimpsed and reordered the top of the room stack." in events


def test_it_is_meant_to_be_keeps_a_roll_for_once_later(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    state, _ = draw(state, "it_is_meant_to_be")
    dice.extend([2, 2, 1, 0])
    state, _ = choose(state, "Roll 4 dice")
    roll = [{"roll": {"trait": "might", "outcomes": [
        {"min": 5, "do": [{"gain": {"trait": "sanity", "amount": 1}}]}, {"max": 4, "do": []}]}}]
    state, _ = run_steps(state, roll)
    assert state.pending and "Use your foreseen roll: 5" in state.pending.labels
    sanity = idx(state, OX)["sanity"]
    state, _ = choose(state, "foreseen")
    assert idx(state, OX)["sanity"] == sanity + 1 and not state.explorers[OX].flags
    dice.extend([0] * 5)
    again, _ = run_steps(state, roll)  # used once: the next roll is rolled
    assert again.pending is None and not dice and idx(again, OX)["sanity"] == sanity + 1


# ---------------------------------------------------------------- Jonah's Turn

def test_jonahs_turn_trades_the_box_and_the_monkey(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box", "toy_monkey", "axe")
    before = idx(state, OX)
    deck_top(state, "item", "bottle", "rope")
    state, _ = draw(state, "jonahs_turn")
    assert state.pending is None and state.explorers[OX].cards == ["axe", "bottle", "rope"]
    assert {"puzzle_box", "toy_monkey"} <= set(state.discards["item"])
    after = idx(state, OX)
    assert after["sanity"] == before["sanity"] + 2
    assert after["speed"] == before["speed"] - 1  # the monkey's own loss as it leaves
    assert after["knowledge"] == before["knowledge"] - 1


def test_jonahs_turn_one_card_one_item(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    hold(state, OX, "puzzle_box")
    before = idx(state, OX)
    deck_top(state, "item", "bottle", "rope")
    state, _ = draw(state, "jonahs_turn")
    assert state.explorers[OX].cards == ["bottle"]
    assert idx(state, OX) == {**before, "sanity": before["sanity"] + 1}


def test_jonahs_turn_holding_neither_hurts(dice) -> None:  # type: ignore[no-untyped-def]
    state = new_game()
    pin(state, OX, "knowledge")
    hold(state, MISSY, "toy_monkey")  # someone else's monkey does not count
    sanity = idx(state, OX)["sanity"]
    dice.append(1)
    state, _ = draw(state, "jonahs_turn")
    assert idx(state, OX)["sanity"] == sanity - 1 and not dice
    assert "toy_monkey" in state.explorers[MISSY].cards


# ---------------------------------------------------------------- Locked Safe

@pytest.mark.parametrize(("roll", "items", "damage_dice", "token_stays"), [
    ([2, 2, 2], 2, [], False), ([2, 2, 1], 2, [], False), ([2, 2, 0], 0, [1], True),
    ([1, 1, 0], 0, [2], True), ([1, 0, 0], 0, [1, 1], True), ([0, 0, 0], 0, [2, 0], True)])
def test_locked_safe(dice, roll: list[int], items: int, damage_dice: list[int],  # type: ignore[no-untyped-def]
                     token_stays: bool) -> None:
    state = new_game()
    state, _ = draw(state, "locked_safe")
    here = tile(state, "entrance_hall")
    assert [t["kind"] for t in state.tiles[here].tokens] == ["safe"]
    pin(state, OX, "speed")
    might = idx(state, OX)["might"]
    deck_top(state, "item", "bottle", "rope")
    dice.extend(roll + damage_dice)
    state, _ = apply(state, "act", what="locked_safe-0")
    assert not dice and state.pending is None
    assert len(state.explorers[OX].cards) == items
    assert idx(state, OX)["might"] == max(0, might - sum(damage_dice))
    assert bool(state.tiles[here].tokens) == token_stays


def test_locked_safe_opens_to_the_skeleton_key() -> None:
    state = new_game()
    hold(state, OX, "skeleton_key")
    state, _ = draw(state, "locked_safe")
    deck_top(state, "item", "bottle", "rope")
    state, events = apply(state, "act", what="locked_safe-0-key")
    assert state.explorers[OX].cards == ["skeleton_key", "bottle", "rope"]
    assert not any(" rolls " in e for e in events) and not state.at(OX).tokens


# ---------------------------------------------------------------- coverage of the deck

def test_every_event_a_to_l_is_covered_here() -> None:
    """Each event from A to L (by key) has a test naming it, here or in the lasting
    events' and the attacks' files."""
    keys = sorted(k for k in content.get().deck("event") if "a" <= k[0] <= "l")
    assert len(keys) == 22
    here = Path(__file__)
    source = "".join((here.parent / name).read_text(encoding="utf-8") for name in (
        here.name, "test_betrayal_cards_events_lasting.py",
        "test_betrayal_cards_events_attacks.py"))
    for key in keys:
        assert f'"{key}"' in source, key
