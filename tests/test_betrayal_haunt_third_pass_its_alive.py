"""A third pass over It's Alive! (haunt #2) against seed 003's play report of it (lines
1-50): what its setup places, and what waits to be found.

Seed 003 line 26: 「因為我英雄的目的就是要攻擊大宅的心臟和大腦，不過這兩個地方的房間都還沒打開，
沒辦法，只好先繼續探索房間了。」 [our aim was to strike the house's Heart and Brain, but neither
of their rooms had been found yet: nothing for it but to keep exploring], then lines 27-29:
「神父往左邊走...」我翻開下一張版圖，「風琴室！」幸運！馬上就找到心臟了。「看我聖槍一戳！」 [the
priest goes left... I turn the next tile: the Organ Room! Lucky, the Heart at once. "Have
my Spear!"]. The Organ Room is found by exploring, as the Attic is; the Spear's holder who
finds it strikes the Heart that same turn.
"""

from __future__ import annotations

from bot.games.betrayal import GAME, explore
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, sides
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import answer_pending, begin, house, put, started, turn_of
from tests.test_betrayal_engine_helpers import apply, deck_top, stack_top
from tests.test_betrayal_haunt_its_alive import move_spear

KEY = "its_alive"


def _without_organ_room() -> BetrayalState:
    """It's Alive! begun on a small house with neither the Organ Room nor the Attic."""
    before = house(4, 3, tiles=10)
    assert before.tile_of("organ_room") is None and before.tile_of("attic") is None
    state, _ = begin(before, KEY)
    return answer_pending(state)


def test_the_organ_room_not_yet_found_is_left_to_be_found() -> None:
    """Seed 003 line 26: neither room had been opened when the haunt began, so the heroes
    had to keep exploring: the setup does not lay the Organ Room, and no Heart beats yet
    (its books: the Heart appears "as soon as" its room is in the house)."""
    state = _without_organ_room()
    assert state.tile_of("organ_room") is None
    assert "organ_room" in explore.unplaced(state)
    assert not sides.monsters(state, "heart") and not sides.monsters(state, "brain")


def test_finding_the_organ_room_with_the_spear_strikes_the_heart_that_turn() -> None:
    """Seed 003 lines 27-29: the priest turns the next tile, the Organ Room, finds the
    Heart there at once and drives the Spear in (「看我聖槍一戳！」) in the same turn."""
    state = _without_organ_room()
    hero = sides.heroes(state)[0]
    move_spear(state, hero)
    ways = [(i, d) for i, t in enumerate(state.tiles) if t.floor == "ground"
            for d in "NESW" if explore.can_explore_from(state, i, d)]
    assert ways, "the house must have a ground floor door onto unexplored space"
    where, way = ways[0]
    state.explorers[hero].tile, state.explorers[hero].side = where, None
    turn_of(state, hero)
    stack_top(state, "organ_room")
    deck_top(state, "event", "drip_drip_drip")  # the Organ Room's event: it asks nothing
    state, _ = apply(state, "explore", hero, dir=way)
    state = answer_pending(state)
    room = state.tile_of("organ_room")
    assert room is not None and state.explorers[hero].tile == room
    hearts = sides.monsters(state, "heart")
    assert [m.tile for m in hearts] == [room]
    assert state.turn.seat == hero
    offers = [str(o.action.args["what"]) for o in GAME.options(state, hero)
              if o.action.kind == "act"]
    assert f"pierce-{hearts[0].id}" in offers


def test_the_spear_falls_with_its_dead_holder_and_serves_the_next_hero() -> None:
    """Seed 003 line 265: 「人物死亡後，其保有的物件皆會掉在其死處……其他人物可自由拿取其遺物」
    [a dead explorer's cards fall where it died; others may take them], and line 253: an
    explorer may pick up what lies in its room. The Spear dropped by a hero dying at the
    Heart is still the Spear: the next hero to take it up drives it home that turn."""
    state, _ = started(KEY, seed=2)
    heart = sides.monsters(state, "heart")[0]
    first, second = sides.heroes(state)[:2]
    move_spear(state, first)
    put(state, heart.tile, first, second)
    death.die(Ctx(state), first)
    assert "spear" in state.tiles[heart.tile].items
    turn_of(state, second)
    state, _ = apply(state, "pickup", second, card="spear")
    offers = [str(o.action.args["what"]) for o in GAME.options(state, second)
              if o.action.kind == "act"]
    assert f"pierce-{heart.id}" in offers
