"""Tiles taken out of the house in a Neibolt haunt's setup (seed 000): Separate
Nightmares shuffles every tile but the start tiles and the heroes' and monsters' back
into the stack, The Ritual of Chüd one of its five ritual rooms. A tile's id is its
index (bot/games/betrayal/state.py), so both go through `house.take_out`, which moves
every id naming a tile; the map letters a link by the order links first appeared
(`links_seen`), so a link that stays keeps its letter (links.ordered_links: "A link
that has gone keeps its ordinal, so no other link's changes")."""

from __future__ import annotations

import pytest

from bot.games.betrayal import GAME, links
from bot.games.betrayal.house import GONE_LINK, take_out
from bot.games.betrayal.state import BetrayalState, Frame, Monster
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import begin, edition_of, house, started
from tests.test_betrayal_engine_helpers import put

SN = "separate_nightmares"


def neibolt_house() -> BetrayalState:
    """Seed 1's Neibolt house of 25 rooms: the Grand Staircase (2) and Upper Landing (3)
    joined by stairs, the Coal Chute (5) into the Basement Landing (4), the Collapsed
    Room (12) over the Storeroom (13)."""
    state = GAME.copy_state(house(4, 1, 25, edition_of(SN)))
    assert [state.tiles[i].room for i in (2, 3, 4, 5, 12, 13)] == [
        "grand_staircase", "upper_landing", "basement_landing", "coal_chute",
        "collapsed_room", "storeroom"]
    assert state.tiles[12].flags.get("below") == 13
    return state


def passage(state: BetrayalState, a: int, b: int) -> None:
    """A Secret Passage's two tokens, joining these tiles."""
    state.tiles[a].tokens.append({"kind": "secret_passage", "card": "secret_passage", "link": b})
    state.tiles[b].tokens.append({"kind": "secret_passage", "card": "secret_passage", "link": a})


def letters(state: BetrayalState) -> dict[tuple[str, str], int]:
    """Each link the map shows, by its rooms: its ordinal (which picks its letter)."""
    return {tuple(sorted((state.tiles[a].room, state.tiles[b].room))): n  # type: ignore[misc]
            for a, b, n in links.ordered_links(state)}


# ---------------------------------------------------------------- the shared helper

def test_take_out_moves_every_id_that_names_a_tile() -> None:
    """state.py: "Ids are indexes: ... placed tile t is `tiles[t]`": taking the Coal
    Chute (5) and the Game Room (10) out moves every later id down, and what named a
    room gone goes with it."""
    state = neibolt_house()
    rooms = [t.room for t in state.tiles]
    passage(state, 8, 20)   # both stay: 7 and 18 after
    passage(state, 10, 21)  # into the Game Room, which goes
    links.remember(state)
    assert state.links_seen == [[2, 3], [4, 5], [12, 13], [8, 20], [10, 21]]
    before = letters(state)
    for seat, tile in enumerate((21, 10, 24, 3)):
        state.explorers[seat].tile, state.explorers[seat].side = tile, None
    state.explorers[1].side = "N"
    state.monsters = [Monster(id=1, kind="x", tile=24), Monster(id=2, kind="x", tile=5)]
    state.turn.walked, state.turn.placed = [5, 8, 21], 10
    state.script = [Frame(steps=[], seat=0, vars={"placed": 21, "token_tile": 10,
                                                  "token:smoke": 8, "roll": 5})]

    new = take_out(state, {5, 10}, refuge=0)

    assert [t.room for t in state.tiles] == [r for i, r in enumerate(rooms) if i not in (5, 10)]
    assert new[21] == 19 and new[4] == 4 and 5 not in new
    assert [state.tiles[e.tile].room for e in state.explorers] == [
        rooms[21], "entrance_hall", rooms[24], "upper_landing"]
    assert state.explorers[1].side is None
    assert [state.tiles[m.tile].room for m in state.monsters] == [rooms[24], "entrance_hall"]
    assert state.tiles[7].tokens[-1]["link"] == 18 and state.tiles[18].tokens[-1]["link"] == 7
    assert not any(t.get("link") is not None for t in state.tiles[19].tokens)
    assert state.tiles[10].room == "collapsed_room" and state.tiles[10].flags["below"] == 11
    assert state.tiles[11].room == "storeroom"
    assert state.links_seen == [[2, 3], list(GONE_LINK), [10, 11], [7, 18], list(GONE_LINK)]
    after = letters(state)
    assert after == {pair: n for pair, n in before.items()
                     if "coal_chute" not in pair and "game_room" not in pair}
    assert [state.tiles[t].room for t in state.turn.walked] == [rooms[8], rooms[21]]
    assert state.turn.placed == -1
    assert state.script[0].vars == {"placed": 19, "token:smoke": 7, "roll": 5}


def test_take_out_closes_a_hole_into_a_room_gone() -> None:
    """The Collapsed Room's hole (`below`) into the Storeroom, taken out: closed."""
    state = neibolt_house()
    take_out(state, {13})
    assert state.tiles[12].room == "collapsed_room" and "below" not in state.tiles[12].flags


def test_take_out_with_someone_inside_and_no_refuge_changes_nothing() -> None:
    state = neibolt_house()
    state.explorers[0].tile = 10
    kept = state.to_dict()
    with pytest.raises(ValueError):
        take_out(state, {10})
    assert state.to_dict() == kept


# ---------------------------------------------------------------- the two setups

def test_separate_nightmares_keeps_each_surviving_links_letter() -> None:
    """Seed 000, Separate Nightmares: "Take all tiles except the starting tiles and tiles
    with a hero or monster and shuffle them back into the stack." The stairs and a Secret
    Passage between two heroes' rooms stay, and keep their letters on the map; the
    Coal Chute's and the Collapsed Room's links go."""
    def prepare(state: BetrayalState) -> None:
        for seat, tile in enumerate((21, 21, 22, 22)):  # a hero in each, whoever betrays
            state.explorers[seat].tile, state.explorers[seat].side = tile, None
        passage(state, 21, 22)
        links.remember(state)
        seen.update(letters(state))

    seen: dict[tuple[str, str], int] = {}
    state, _ = started(SN, prepare=prepare)
    kept = {t.room for t in state.tiles}
    assert len(state.tiles) == 7 and len(seen) == 4
    assert letters(state) == {pair: n for pair, n in seen.items() if set(pair) <= kept}
    now = {(min(a, b), max(a, b)) for a, b, _ in links.house_links(state)}
    stale = [p for p in state.links_seen if p != list(GONE_LINK) and tuple(p) not in now]
    assert not stale  # no pair noted names two rooms no link joins


def test_ritual_room_sent_back_leaves_later_links_letters_alone() -> None:
    """Seed 000, The Ritual of Chüd: "shuffle one of them into the tile stack". A link
    once seen into the room that goes keeps its place in the order, so a link seen
    after it keeps its letter."""
    base = GAME.copy_state(started(rc.KEY)[0])
    base.haunt, base.monsters = None, []
    for n, room in enumerate(sorted(rc.ritual_rooms())):
        put(base, room, "basement", 10 + 2 * n, 10)  # apart from the house, no doors needed
    last = len(base.tiles) - 1  # the last placed goes first
    base.links_seen.append([0, last])  # a link into it, seen once, gone since
    passage(base, 1, 3)
    links.remember(base)
    before = letters(base)
    state, _ = begin(base, rc.KEY)
    assert base.tiles[last].room in state.stack
    assert letters(state) == before
