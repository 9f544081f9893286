"""Betrayal: seed 003's "故事揀選 Selecting the Haunt", for a server that has played the
haunt the chart gives (the haunts played reach the engine as the `played` setup option;
the lobby's `fresh` option turns the swap off)."""

from __future__ import annotations

from collections import Counter

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME, traits
from bot.games.betrayal.decks import all_cards
from bot.games.betrayal.haunt_roll import chart, other_omen_rooms
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    OX,
    apply,
    at,
    choose,
    deck_top,
    dice,
    new_game,
    put,
    stack_top,
)

__all__ = ["dice"]

RULE = ("檢視大宅中其他已放置而又印有預兆Omen(烏鴉)標記的房間。再次查看真相表Haunt Chart，"
        "以最近揭露者Haunt revealer的另一印有預兆標記的房間取代其正身處的房間。"
        "在預兆牌Omen card不變的情況下，翻查出新的故事。")
NEW_OMENS = ("如是者若所有印有預兆標記的房間皆不適用，則翻開新的預兆牌Omen card取代原先揭露者"
             "Haunt revealer翻開的一張。玩家可一直翻開新的預兆牌，直至找出新的故事。在揀選出新的"
             "故事後，揭露者只保有最後翻開的預兆牌，被取代的預兆牌需洗回牌疊中。")
SPEAR_ROOM = "abandoned_room"  # seed 003: the Spear there gives It's Alive!


def _other_room() -> str:
    """An omen room where the Spear gives another haunt than It's Alive!"""
    row = chart()["spear"]
    return next(r for r in sorted(row) if row[r] != row[SPEAR_ROOM])


def _reveal(state: BetrayalState, dice: list[int], *, next_omens: tuple[str, ...] = (),
            ) -> tuple[BetrayalState, list[Event]]:
    """Ox explores into the Abandoned Room, draws the Spear, and the haunt roll fails."""
    state.omens_drawn = 3
    stack_top(state, SPEAR_ROOM)
    deck_top(state, "omen", "spear", *next_omens)
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, 0)
    dice[:] = [0, 0, 1, 0, 1, 1]  # 3 < 4 omens: the haunt begins
    return GAME.apply(state, OX, Action("end_turn", {}))


def test_a_played_haunt_is_read_again_in_the_revealers_other_omen_room(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003: "檢視大宅中其他已放置而又印有預兆Omen(烏鴉)標記的房間。再次查看真相表
    Haunt Chart，以最近揭露者Haunt revealer的另一印有預兆標記的房間取代其正身處的房間。
    在預兆牌Omen card不變的情況下，翻查出新的故事。" In English: look at the other omen
    rooms in the house and read the chart again, with the same omen, in the omen room
    nearest the revealer instead of the room they are in. Turned off, the haunt stands."""
    assert "最近揭露者" in RULE  # the sentence, as written (seed 003, 故事揀選)
    other = _other_room()
    state = new_game()
    put(state, other, "upper", 2, 2)
    state.played = ["its_alive"]
    off = GAME.load(GAME.dump(state))
    state, events = _reveal(state, dice)
    assert state.haunt is not None and state.haunt.key == chart()["spear"][other]
    assert state.haunt.omen == "spear" and "spear" in state.explorers[OX].cards
    chart_event = next(e for e in events if e.data.get("played"))
    assert chart_event.data["played"] == state.haunt.key
    assert any(e.data.get("replaced") == "its_alive" for e in events)

    off.fresh = False
    off, events = _reveal(off, dice)
    assert off.haunt is not None and off.haunt.key == "its_alive"
    assert not any(e.data.get("replaced") for e in events)


def test_when_every_omen_room_is_played_new_omens_are_drawn(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003: "如是者若所有印有預兆標記的房間皆不適用，則翻開新的預兆牌Omen card取代
    原先揭露者Haunt revealer翻開的一張。……揭露者只保有最後翻開的預兆牌，被取代的預兆牌需洗回
    牌疊中。" In English: when no omen room gives a new haunt, draw new omens to replace
    the revealer's until one does; the revealer keeps the last one drawn, and the omens
    it replaced are shuffled back into the deck."""
    assert "直至找出新的故事" in NEW_OMENS
    other = _other_room()
    row = {o: chart()[o][SPEAR_ROOM] for o in chart()}
    played = sorted({chart()["spear"][SPEAR_ROOM], chart()["spear"][other]})
    stale = next(o for o in sorted(row) if o != "spear" and row[o] in played)
    fresh = "book"  # kept, +2 Knowledge while held
    assert row[fresh] not in played
    state = new_game()
    put(state, other, "upper", 2, 2)
    state.played = played
    before = Counter(all_cards(state))
    knowledge = traits.value(state, OX, "knowledge")
    state, events = _reveal(state, dice, next_omens=(stale, fresh))
    assert traits.value(state, OX, "knowledge") == knowledge + 2  # the Book's on_gain ran
    assert state.haunt is not None and state.haunt.key == row[fresh]
    assert state.haunt.omen == fresh
    held = state.explorers[OX].cards + state.omen_table
    assert fresh in held and "spear" not in held and stale not in held
    assert "spear" in state.decks["omen"] and stale in state.decks["omen"]
    assert Counter(all_cards(state)) == before  # no card made or lost
    assert any(e.data.get("omen") == fresh and e.data.get("replaced") for e in events)


def test_the_setup_options_carry_the_played_haunts_into_the_state() -> None:
    """The sessions layer hands the server's played haunts in as `played`; the lobby's
    `fresh` option (on by default) is declared for the lobby and kept in the state."""
    assert [v for v, _ in GAME.setup_choices()["fresh"]] == ["on", "off"]
    state = new_game()
    assert state.played == [] and state.fresh
    from_options = GAME.setup(
        [PlayerInfo(name) for name in "ABC"], 5,
        {"today": "10-01", "played": ["offspring", "its_alive"], "fresh": "off"})[0]
    assert from_options.played == ["its_alive", "offspring"] and not from_options.fresh
    back = GAME.load(GAME.dump(from_options))
    assert back.played == from_options.played and back.fresh is False
    raw = GAME.dump(state)
    del raw["played"], raw["fresh"]  # a game saved before this rule still loads
    old = GAME.load(raw)
    assert old.played == [] and old.fresh


def test_the_omen_rooms_are_tried_nearest_the_revealer_first() -> None:
    """Seed 003: "以最近揭露者Haunt revealer的另一印有預兆標記的房間" (the omen room nearest
    the revealer), then "次近" (the next nearest): by walking distance, not by when the
    room was placed; the room the chart was read in is not tried again."""
    row = chart()["spear"]
    far, near = [r for r in sorted(row) if r != SPEAR_ROOM][:2]
    state = new_game()
    put(state, far, "upper", 5, 5)  # placed first, reached by no door
    put(state, near, "upper", 2, 2)
    at(state, OX, near)  # the revealer stands in it: distance 0
    assert other_omen_rooms(state, OX, "spear", SPEAR_ROOM) == [near, far]
    assert other_omen_rooms(state, OX, "spear", near) == [far]
