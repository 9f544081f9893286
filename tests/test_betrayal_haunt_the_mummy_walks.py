"""The Mummy Walks (haunt #1, designed): a Mummy rises in the Catacombs and wants the
Girl for its bride; the heroes must burn it. Setup (the tomb, the Girl, a fire room),
torches and the Candle, burning and its failure, the Mummy seizing the Girl and the
wedding nights, freeing her by stunning it, every way to win, AI games won by each side,
and the books' secrecy (data/betrayal/haunts/the_mummy_walks.yaml,
haunting/plugins/the_mummy_walks.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, effects, rolls
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, flow, sides
from bot.games.betrayal.haunting.plugins import the_mummy_walks as mw
from bot.games.betrayal.state import HEROES, BetrayalState, Frame, Monster
from bot.texts import fill
from tests.betrayal_haunt_helpers import (
    house,
    played,
    started,
)
from tests.test_betrayal_engine_helpers import dice

__all__ = ["dice"]  # a fixture, used by name

KEY = "the_mummy_walks"
PLUGIN = base.PLUGINS[KEY]


def start(players: int = 4, seed: int = 1, tiles: int = 25,
          prepare: Callable[[BetrayalState], None] | None = None,
          ) -> tuple[BetrayalState, list[Any]]:
    return started(KEY, players, seed, tiles, prepare)


def move_card(state: BetrayalState, key: str, seat: int | None) -> None:
    """Take a card from wherever it is; give it to `seat` (None: its deck)."""
    for explorer in state.explorers:
        if key in explorer.cards:
            explorer.cards.remove(key)
    for pile in (*state.decks.values(), *state.discards.values(), state.omen_table,
                 *(t.items for t in state.tiles)):
        if key in pile:
            pile.remove(key)
    if seat is None:
        state.decks["omen" if key == "girl" else "item"].append(key)
    else:
        state.explorers[seat].cards.append(key)


def the_mummy(state: BetrayalState) -> Monster:
    found = mw.mummy(state)
    assert found is not None
    return found


def hero_turn(state: BetrayalState) -> int:
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    return seat


def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def texts(events: list[Any]) -> list[str]:
    return [e.text for e in events]


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_mummy_rises_in_the_catacombs(players: int) -> None:
    state, events = start(players, seed=2)
    assert state.haunt is not None
    tomb = state.tile_of("catacombs")
    assert tomb is not None and state.tiles[tomb].floor == "basement"
    mummy = the_mummy(state)
    assert mummy.tile == tomb == state.haunt.progress["tomb"]
    assert len(sides.monsters(state)) == 1
    assert PLUGIN.data.monsters["mummy"].large
    assert "The lid of a stone coffin grinds aside in the Catacombs: a Mummy climbs out." \
        in texts(events)


def test_missing_rooms_are_searched_out() -> None:
    before = house(4, 1, tiles=10)
    assert all(before.tile_of(r) is None for r in ("catacombs", "furnace_room", "chapel"))
    state, events = start(4, 1, tiles=10)
    for room in ("catacombs", "furnace_room"):
        tile = state.tile_of(room)
        assert tile is not None and state.tiles[tile].floor == "basement", room
    assert the_mummy(state).tile == state.tile_of("catacombs")
    said = texts(events)
    assert "The Catacombs are found in the basement." in said
    assert "The Furnace Room is found in the basement." in said
    assert not flow.no_way_up(state)


def test_the_girl_runs_from_the_traitor_to_the_first_hero() -> None:
    state, events = start(seed=2, prepare=lambda s: move_card(s, "girl", s.turn.seat))
    traitor = sides.traitor(state)
    assert traitor is not None and state.haunt is not None
    assert traitor == state.haunt.revealer  # the revealer turns traitor in this haunt
    first = sides.heroes(state)[0]
    assert mw.girl_holder(state) == first
    assert "girl" not in state.explorers[traitor].cards
    assert any(t.startswith("The Girl screams and runs to") for t in texts(events))


def test_the_girl_found_nowhere_yet_runs_to_the_first_hero() -> None:
    state, _ = start(seed=2, prepare=lambda s: move_card(s, "girl", None))
    assert mw.girl_holder(state) == sides.heroes(state)[0]
    assert "girl" not in state.decks["omen"]


def test_a_hero_keeps_the_girl() -> None:
    def prepare(state: BetrayalState) -> None:
        move_card(state, "girl", (state.turn.seat + 2) % len(state.players))

    state, events = start(seed=2, prepare=prepare)
    assert state.haunt is not None
    assert mw.girl_holder(state) == (state.haunt.revealer + 2) % 4
    assert not any(t.startswith("The Girl screams") for t in texts(events))


# ---------------------------------------------------------------- fire

def test_torches_are_lit_in_the_furnace_room_or_the_chapel() -> None:
    state, _ = start(4, 1, tiles=10)
    seat = hero_turn(state)
    furnace = state.tile_of("furnace_room")
    assert furnace is not None
    move_card(state, "candle", None)
    assert offer_ids(state, seat) == []  # no fire room here
    state.explorers[seat].tile = furnace
    assert offer_ids(state, seat) == ["torch"]
    state, events = GAME.apply(state, seat, Action("act", {"what": "torch"}))
    assert state.haunt is not None and state.haunt.progress["torches"] == [seat]
    assert any(t.endswith("lights a torch in the Furnace Room.") for t in texts(events))
    assert offer_ids(state, seat) == []  # fire already; the Mummy is elsewhere
    traitor = sides.traitor(state)
    assert traitor is not None
    state.explorers[traitor].tile = furnace
    assert PLUGIN.offers(state, traitor) == []


def test_the_candle_is_fire_and_burning_needs_the_mummys_room() -> None:
    state, _ = start(seed=2)
    seat = hero_turn(state)
    move_card(state, "candle", seat)
    assert PLUGIN.has_fire(state, seat)
    state.explorers[seat].tile = the_mummy(state).tile
    state.explorers[seat].side = None
    assert offer_ids(state, seat) == ["burn"]
    label = next(o.label for o in GAME.options(state, seat)
                 if o.action.args.get("what") == "burn")
    assert label == f"Burn the Mummy (Speed roll, {PLUGIN.value(state, 'burn')}+)"


def _burning(state: BetrayalState) -> int:
    seat = hero_turn(state)
    assert state.haunt is not None
    move_card(state, "candle", None)
    state.haunt.progress["torches"] = [seat]
    state.explorers[seat].tile = the_mummy(state).tile
    state.explorers[seat].side = None
    return seat


def _speed_dice(state: BetrayalState, seat: int) -> int:
    return rolls.dice_for(state, Frame([], seat, KEY, "engine"),
                          {"trait": "speed", "purpose": "haunt"})


def test_burning_the_mummy_wins(dice: list[int]) -> None:
    state, _ = start(seed=2)
    seat = _burning(state)
    dice += [2] * _speed_dice(state, seat)
    state, events = GAME.apply(state, seat, Action("act", {"what": "burn"}))
    assert state.over and state.haunt is not None
    assert (state.haunt.winner, state.haunt.reason) == ("heroes", "the Mummy has burned to ashes.")
    assert "The Mummy's wrappings catch fire!" in texts(events)


def test_a_failed_burn_puts_the_torch_out_and_the_mummy_strikes(dice: list[int]) -> None:
    state, _ = start(seed=2)
    seat = _burning(state)
    might = combat.attack_dice(state, seat, "might", "")
    dice += [0] * _speed_dice(state, seat) + [0] * 6 + [0] * might  # miss, then a tie
    state, events = GAME.apply(state, seat, Action("act", {"what": "burn"}))
    assert not state.over and state.haunt is not None
    assert state.haunt.progress["torches"] == []
    said = texts(events)
    assert "The flame misses the wrappings." in said
    assert any(t.startswith("The Mummy lashes out at") for t in said)
    assert any(t.startswith("The Mummy attacks") for t in said)
    assert offer_ids(state, seat) == []  # no fire left


# ---------------------------------------------------------------- the bride

def _girl_with_mummy(state: BetrayalState) -> tuple[int, Monster]:
    holder = mw.girl_holder(state)
    assert holder is not None
    mummy = the_mummy(state)
    mummy.tile = state.explorers[holder].tile
    mummy.skip = mummy.stunned = False
    return holder, mummy


def test_the_mummy_seizes_the_girl_at_the_end_of_its_turn() -> None:
    state, _ = start(seed=2)
    holder, _ = _girl_with_mummy(state)
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    effects.run(ctx)
    assert state.haunt is not None and state.haunt.progress["carried"]
    assert "girl" not in state.explorers[holder].cards and "girl" in state.omen_table
    assert any(t.startswith("The Mummy seizes the Girl") for t in texts(ctx.events))


@pytest.mark.parametrize("flag", ["stunned", "skip"])
def test_a_stunned_mummy_seizes_nothing(flag: str) -> None:
    state, _ = start(seed=2)
    holder, mummy = _girl_with_mummy(state)
    setattr(mummy, flag, True)
    PLUGIN.end_monsters(Ctx(state))
    assert state.haunt is not None and not state.haunt.progress["carried"]
    assert "girl" in state.explorers[holder].cards


def test_the_mummy_takes_the_girl_from_the_floor() -> None:
    state, _ = start(seed=2)
    holder, mummy = _girl_with_mummy(state)
    state.explorers[holder].cards.remove("girl")
    state.tiles[mummy.tile].items.append("girl")
    PLUGIN.end_monsters(Ctx(state))
    assert state.haunt is not None and state.haunt.progress["carried"]
    assert "girl" not in state.tiles[mummy.tile].items


def test_wedding_nights_in_the_tomb_win_for_the_traitor() -> None:
    state, _ = start(seed=2)
    assert state.haunt is not None
    progress = state.haunt.progress
    move_card(state, "girl", None)
    state.decks["omen"].remove("girl")
    state.omen_table.append("girl")
    progress["carried"] = True
    mummy = the_mummy(state)
    mummy.tile = next(i for i in range(len(state.tiles)) if i != progress["tomb"])
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    assert progress["nights"] == 0  # not in its tomb
    mummy.tile = progress["tomb"]
    PLUGIN.end_monsters(ctx)
    assert progress["nights"] == 1 and PLUGIN.winner(state) is None
    assert "The Mummy lies in its tomb with its bride: night 1 of 2." in texts(ctx.events)
    PLUGIN.end_monsters(ctx)
    assert PLUGIN.winner(state) == ("traitor", "the Mummy has wed its bride in its tomb.")


def test_stunning_the_mummy_frees_the_girl() -> None:
    state, _ = start(seed=2)
    assert state.haunt is not None
    progress = state.haunt.progress
    holder, mummy = _girl_with_mummy(state)
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    effects.run(ctx)
    progress["nights"] = 1
    rescuer = next(h for h in sides.heroes(state) if h != holder)
    combat.hurt_monster(ctx, mummy, 2, str(rescuer), "")
    effects.run(ctx)
    assert mummy.stunned and not progress["carried"] and progress["nights"] == 0
    assert mw.girl_holder(state) == rescuer and "girl" not in state.omen_table
    assert any(t.startswith("The Mummy lets go of the Girl") for t in texts(ctx.events))


# ---------------------------------------------------------------- the AI

def test_ai_goals() -> None:
    state, _ = start(4, 1, tiles=10)
    assert state.haunt is not None
    seat = hero_turn(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    move_card(state, "candle", None)
    fire = {t for t in (state.tile_of("furnace_room"), state.tile_of("chapel")) if t is not None}
    assert PLUGIN.goals(state, seat) == fire
    state.haunt.progress["torches"] = [seat]
    mummy = the_mummy(state)
    assert PLUGIN.goals(state, seat) == {mummy.tile}
    assert PLUGIN.goals(state, traitor) == {state.explorers[seat].tile}
    holder = mw.girl_holder(state)
    assert holder is not None
    assert PLUGIN.monster_goals(state, mummy) == {state.explorers[holder].tile}
    state.haunt.progress["carried"] = True
    assert PLUGIN.monster_goals(state, mummy) == {state.haunt.progress["tomb"]}



# ---------------------------------------------------------------- secrets

def test_the_books_stay_secret() -> None:
    state, events = played(KEY, 3)
    traitor = sides.traitor(state)
    assert traitor is not None
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert [e.audience.encode() for e in books] == [f"player:{traitor}", "team:heroes"]
    book = PLUGIN.data.books["traitor"]
    values = {n: PLUGIN.value(state, n) for n in PLUGIN.data.values}
    secret = [fill(str(book["win"]).strip(), **values),
              *(fill(str(r), **values) for r in book["rules"])]
    over = next(i for i, e in enumerate(events) if e.kind == "game_over")
    for e in events[:over]:
        if e.audience.is_public:
            assert not any(s in e.text for s in secret), e.text
    assert flow.book_text(state, "traitor") in books[0].text
