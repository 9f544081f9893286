"""Better with Friends (haunt #8): seed 003's outline (the house floods; the heroes find
the canoe and all reach the Tower; the little girl is the traitor) and our design
(data/betrayal/haunts/better_with_friends.yaml): the rising water, deep-water rolls,
flotsam hiding the canoe, Drowned Friends, holding a hero under, the water reaching
the Tower."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, effects
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, death, flow, monsters, sides
from bot.games.betrayal.haunting.plugins.better_with_friends import (
    CANOE,
    FLOOR_ORDER,
    FLOTSAM,
    FRIEND,
    STAIRS,
    TOWER,
    BetterWithFriends,
    add_token,
    flooded,
    has_token,
    refuge,
)
from bot.games.betrayal.state import HEROES, TRAITOR, BetrayalState, Turn
from tests.betrayal_haunt_helpers import (
    SEEDS,
    answer_pending,
    begin,
    house,
    outcome,
    played,
    seed_for,
)

KEY = "better_with_friends"
PLUGIN = BetterWithFriends()
GIRLS = ("zoe_ingstrom", "missy_dubourde")


def _start(players: int = 4, seed: int = 1) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    state, events = begin(house(players, seed), KEY)
    return answer_pending(state), events


def _turn(state: BetrayalState, seat: int, tile_id: int) -> BetrayalState:
    """`seat` stands in `tile_id` at the start of its own haunt turn."""
    state.explorers[seat].tile = tile_id
    state.explorers[seat].side = None
    state.turn = Turn(seat=seat, number=state.turn.number + 1)
    assert state.haunt is not None
    state.haunt.stage = TRAITOR if sides.is_traitor(state, seat) else HEROES
    return state


def _dice(monkeypatch: pytest.MonkeyPatch, total: int) -> None:
    """Every trait roll totals `total` (the first die shows it, the rest blanks)."""
    monkeypatch.setattr("bot.games.betrayal.rolls.roll_betrayal",
                        lambda rng, n, cap=8: [total] + [0] * (max(1, n) - 1))


def _physical(state: BetrayalState, seat: int) -> int:
    t = state.explorers[seat].traits
    return t["might"] + t["speed"]


def _room_name(key: str) -> str:
    return content.room(key).name


def _hero(state: BetrayalState) -> int:
    return sides.heroes(state)[0]


def _traitor(state: BetrayalState) -> int:
    seat = sides.traitor(state)
    assert seat is not None
    return seat


def _options(state: BetrayalState, seat: int) -> list[Action]:
    return [o.action for o in GAME.options(state, seat)]


def _answer(state: BetrayalState) -> BetrayalState:
    """Take each pending damage point on the first trait offered."""
    for _ in range(10):
        if state.pending is None:
            break
        state, _ = GAME.apply(state, state.pending.seat, Action("choose", {"pick": 0}))
    return state


def _run(state: BetrayalState, seat: int, steps: list[dict[str, Any]]) -> BetrayalState:
    ctx = Ctx(state)
    ctx.push(steps, seat, "haunt")
    effects.run(ctx)
    flow.after_action(ctx)
    return state


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_floods_the_basement_and_hides_the_canoe(players: int) -> None:
    state, events = _start(players)
    traitor = _traitor(state)
    basement = [i for i, t in enumerate(state.tiles) if t.floor == "basement"]
    assert basement and all(flooded(state, i) for i in basement)
    assert not any(flooded(state, i) for i, t in enumerate(state.tiles)
                   if t.floor != "basement")
    friends = sides.monsters(state, FRIEND)
    assert len(friends) == PLUGIN.value(state, "friends")
    assert {m.tile for m in friends} == {state.explorers[traitor].tile}
    piles = [i for i in range(len(state.tiles)) if has_token(state, i, FLOTSAM)]
    assert 1 <= len(piles) <= PLUGIN.value(state, "flotsam")
    assert all(state.tiles[i].floor != "basement" for i in piles)
    assert not {state.explorers[h].tile for h in sides.heroes(state)} & set(piles)
    assert state.haunt.progress["canoe"] in piles
    assert state.haunt.progress["carrier"] is None
    shelter = refuge(state)
    assert shelter is not None and not flooded(state, shelter)
    assert state.tile_of(TOWER) is not None  # searched out and placed when missing
    assert not flow.no_way_up(state)
    # The canoe's pile is the traitor's secret.
    secret = PLUGIN.text("canoe_secret",
                         room=_room_name(state.tiles[state.haunt.progress["canoe"]].room))
    told = [e for e in events if e.text == secret]
    assert [e.audience.encode() for e in told] == [f"player:{traitor}"]


def test_the_stairs_are_placed_when_nothing_leads_up_out_of_the_basement() -> None:
    built = house(4, 1)
    assert flow.no_way_up(built) and built.tile_of(STAIRS) is None
    state, _ = _start(4, 1)
    stairs = state.tile_of(STAIRS)
    assert stairs is not None and flooded(state, stairs)
    assert not flow.no_way_up(state)


def test_a_tower_already_in_the_house_stays_where_it_is() -> None:
    built = house(4, 9)
    tower = built.tile_of(TOWER)
    assert tower is not None
    state, _ = _start(4, 9)
    assert state.tile_of(TOWER) == tower == refuge(state)


@pytest.mark.parametrize("seed", [1, 10, 2])
def test_the_traitor_is_the_little_girl_else_the_revealer(seed: int) -> None:
    built = house(4, seed)
    state, _ = begin(built, KEY)
    keys = [e.key for e in state.explorers]
    girls = [i for i, k in enumerate(keys) if k in GIRLS]
    assert state.haunt is not None
    assert state.haunt.traitor == (girls[0] if girls else state.haunt.revealer)


def test_the_seeds_cover_both_traitor_rules() -> None:
    with_girl = [any(e.key in GIRLS for e in house(4, s).explorers) for s in (1, 10, 2)]
    assert with_girl == [True, True, False]


# ---------------------------------------------------------------- the water

def test_the_water_rises_floor_by_floor_and_the_tower_floods_last() -> None:
    state, _ = _start()
    shelter = refuge(state)
    assert state.haunt is not None
    order: list[int] = []
    for number in range(2, 2 + len(state.tiles)):
        wet = {i for i in range(len(state.tiles)) if flooded(state, i)}
        state.haunt.round = number
        PLUGIN.start_round(Ctx(state))
        new = sorted((i for i in range(len(state.tiles)) if flooded(state, i) and i not in wet),
                     key=lambda i: (i == shelter, FLOOR_ORDER.index(state.tiles[i].floor), i))
        if number == 2:
            assert len(new) == PLUGIN.value(state, "rise")
            # The nearest dry room of the lowest dry floor goes first.
            dist = monsters.distances(state, wet)
            floor = min((state.tiles[i].floor for i in new), key=FLOOR_ORDER.index)
            dry = [i for i, t in enumerate(state.tiles) if t.floor == floor and i not in wet]
            assert min(dist.get(i, 99) for i in new) == min(dist.get(i, 99) for i in dry)
        order += new
        if state.haunt.progress.get("drowned"):
            break
    assert order[-1] == shelter
    assert all(flooded(state, i) for i in range(len(state.tiles)))
    floors = [FLOOR_ORDER.index(state.tiles[i].floor) for i in order[:-1]]
    assert floors == sorted(floors)
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text(
        "reason_flood", room=_room_name(state.tiles[shelter].room)))


def test_no_water_rises_in_round_one() -> None:
    state, _ = _start()
    wet = sum(flooded(state, i) for i in range(len(state.tiles)))
    state.haunt.round = 1
    PLUGIN.start_round(Ctx(state))
    assert sum(flooded(state, i) for i in range(len(state.tiles))) == wet


@pytest.mark.parametrize(("total", "lost"), [(3, 0), (2, 1)])
def test_deep_water_needs_a_might_roll(monkeypatch: pytest.MonkeyPatch, total: int,
                                       lost: int) -> None:
    state, _ = _start()
    hero = _hero(state)
    state.explorers[hero].tile = next(i for i in range(len(state.tiles)) if flooded(state, i))
    before = _physical(state, hero)
    _dice(monkeypatch, total)
    state = _answer(_run(state, hero, [{"_bwf_swim": {"target": PLUGIN.value(state, "swim")}}]))
    assert before - _physical(state, hero) == lost


def test_the_round_makes_heroes_in_water_roll_and_spares_the_traitor() -> None:
    state, _ = _start()
    hero, traitor = _hero(state), _traitor(state)
    wet = next(i for i in range(len(state.tiles)) if flooded(state, i))
    state.explorers[hero].tile = state.explorers[traitor].tile = wet
    state.haunt.round = 2
    ctx = Ctx(state)
    PLUGIN.start_round(ctx)
    swimmers = [f.seat for f in state.script if any("_bwf_swim" in s for s in f.steps)]
    assert hero in swimmers and traitor not in swimmers


# ---------------------------------------------------------------- the canoe

def _at_pile(state: BetrayalState, canoe: bool) -> tuple[BetrayalState, int, int]:
    hero = _hero(state)
    hidden = state.haunt.progress["canoe"]
    piles = [i for i in range(len(state.tiles)) if has_token(state, i, FLOTSAM)]
    pile = hidden if canoe else next(i for i in piles if i != hidden)
    return _turn(state, hero, pile), hero, pile


@pytest.mark.parametrize(("canoe", "total", "cleared", "carried"),
                         [(True, 4, True, True), (False, 4, True, False),
                          (True, 3, False, False)])
def test_searching_the_flotsam(monkeypatch: pytest.MonkeyPatch, canoe: bool, total: int,
                               cleared: bool, carried: bool) -> None:
    state, _ = _start(4, 1)
    assert PLUGIN.value(state, "flotsam") >= 2
    state, hero, pile = _at_pile(state, canoe)
    search = Action("act", {"what": "search"})
    assert search in _options(state, hero)
    _dice(monkeypatch, total)
    after, events = GAME.apply(state, hero, search)
    assert has_token(after, pile, FLOTSAM) is not cleared
    assert (after.haunt.progress["carrier"] == hero) is carried
    assert after.haunt.progress.get("found", False) is carried
    assert any("searches the flotsam" in e.text for e in events if e.audience.is_public)
    assert search not in _options(after, hero)  # once a turn


def test_no_search_without_flotsam() -> None:
    state, _ = _start()
    hero = _hero(state)
    bare = next(i for i in range(len(state.tiles)) if not has_token(state, i, FLOTSAM))
    state = _turn(state, hero, bare)
    assert Action("act", {"what": "search"}) not in _options(state, hero)


def test_the_canoe_drops_where_its_carrier_dies_and_a_friend_rises() -> None:
    state, _ = _start()
    hero = _hero(state)
    state.haunt.progress.update({"carrier": hero, "found": True})
    where = state.explorers[hero].tile
    friends = len(sides.monsters(state, FRIEND))
    death.die(Ctx(state), hero)
    assert state.haunt.progress["carrier"] is None
    assert has_token(state, where, CANOE)
    assert len(sides.monsters(state, FRIEND)) == friends + 1
    assert sides.monsters(state, FRIEND)[-1].tile == where


def test_taking_up_and_handing_on_the_canoe() -> None:
    state, _ = _start()
    first, second = sides.heroes(state)[:2]
    room = state.explorers[first].tile
    add_token(state, room, CANOE)
    state.haunt.progress["found"] = True
    state.explorers[second].tile = room
    state = _turn(state, first, room)
    take = Action("act", {"what": "take"})
    assert take in _options(state, first)
    state, _ = GAME.apply(state, first, take)
    assert state.haunt.progress["carrier"] == first
    assert not has_token(state, room, CANOE)
    give = Action("act", {"what": f"give-{second}"})
    assert give in _options(state, first)
    state, events = GAME.apply(state, first, give)
    assert state.haunt.progress["carrier"] == second
    assert any("hands the canoe" in e.text for e in events if e.audience.is_public)


# ---------------------------------------------------------------- the traitor

@pytest.mark.parametrize(("total", "hurt"), [(4, False), (3, True)])
def test_holding_a_hero_under(monkeypatch: pytest.MonkeyPatch, total: int, hurt: bool) -> None:
    state, _ = _start()
    hero, traitor = _hero(state), _traitor(state)
    wet = next(i for i in range(len(state.tiles)) if flooded(state, i))
    state.explorers[hero].tile, state.explorers[hero].side = wet, None  # beside her
    state = _turn(state, traitor, wet)
    hold = Action("act", {"what": f"hold-{hero}"})
    assert hold in _options(state, traitor)
    before = _physical(state, hero)
    _dice(monkeypatch, total)
    state, events = GAME.apply(state, traitor, hold)
    assert any("tries to hold" in e.text for e in events if e.audience.is_public)
    if hurt:
        assert state.pending is not None and state.pending.seat == hero
    state = _answer(state)
    assert before - _physical(state, hero) == (2 if hurt else 0)


def test_holding_under_is_once_a_turn_not_once_a_hero(monkeypatch: pytest.MonkeyPatch) -> None:
    """The traitor's book: "once a turn, in a flooded room, pick a hero in your room".
    With two heroes in her room she holds one of them under, not both."""
    state, _ = _start()
    first, second = sides.heroes(state)[:2]
    traitor = _traitor(state)
    wet = next(i for i in range(len(state.tiles)) if flooded(state, i))
    state.explorers[first].tile = state.explorers[second].tile = wet
    state.explorers[first].side = state.explorers[second].side = None  # beside her
    state = _turn(state, traitor, wet)
    assert Action("act", {"what": f"hold-{second}"}) in _options(state, traitor)
    _dice(monkeypatch, 4)
    state, _ = GAME.apply(state, traitor, Action("act", {"what": f"hold-{first}"}))
    state = _answer(state)
    assert Action("act", {"what": f"hold-{second}"}) not in _options(state, traitor)


def test_no_holding_under_on_dry_land() -> None:
    state, _ = _start()
    hero, traitor = _hero(state), _traitor(state)
    dry = next(i for i in range(len(state.tiles)) if not flooded(state, i))
    state.explorers[hero].tile = dry
    state = _turn(state, traitor, dry)
    assert Action("act", {"what": f"hold-{hero}"}) not in _options(state, traitor)


def test_the_traitor_may_attack_with_sanity() -> None:
    state, _ = _start()
    hero, traitor = _hero(state), _traitor(state)
    assert PLUGIN.attack_traits(state, traitor) == {"sanity"}
    assert PLUGIN.attack_traits(state, hero) == set()
    room = state.explorers[hero].tile
    state = _turn(state, traitor, room)
    state.explorers[traitor].side = state.explorers[hero].side  # a split room: beside it
    traits = {c.trait for c in combat.choices(state, traitor) if c.target == hero}
    assert {"might", "sanity"} <= traits


# ---------------------------------------------------------------- winning

def test_the_heroes_win_with_the_canoe_and_everyone_in_the_tower() -> None:
    state, _ = _start()
    shelter = refuge(state)
    assert shelter is not None
    heroes = sides.heroes(state)
    state.haunt.progress["carrier"] = heroes[0]
    for hero in heroes:
        state.explorers[hero].tile = shelter
    reason = PLUGIN.text("reason_escape", room=_room_name(state.tiles[shelter].room))
    assert PLUGIN.winner(state) == ("heroes", reason)
    straggler = heroes[-1]
    state.explorers[straggler].tile = 0
    assert PLUGIN.winner(state) is None  # every living hero must be there
    state.explorers[straggler].alive = False
    assert PLUGIN.winner(state) == ("heroes", reason)  # the dead do not count
    state.haunt.progress["carrier"] = None
    assert PLUGIN.winner(state) is None  # no canoe, no escape
    add_token(state, shelter, CANOE)
    assert PLUGIN.winner(state) == ("heroes", reason)  # the canoe lying there will do


# ---------------------------------------------------------------- AI games

@pytest.mark.parametrize("winner", ["heroes", "traitor"])
def test_seeded_ai_games_reach_either_winner(winner: str) -> None:
    """Each side wins some AI game of the first seeds (searched, not pinned)."""
    state = outcome(KEY, seed_for(KEY, winner))
    assert state.over and state.haunt.winner == winner
    assert state.haunt.round <= 15


def test_the_water_can_win_it_for_the_traitor() -> None:
    flooded = next((s for s in SEEDS if outcome(KEY, s).haunt.reason.startswith(
        PLUGIN.text("reason_flood", room="\0").split("\0")[0])), None)
    assert flooded is not None, "no AI game of the first seeds was won by the water"
    state = outcome(KEY, flooded)
    shelter = refuge(state)
    assert shelter is not None
    assert state.haunt.reason == PLUGIN.text(
        "reason_flood", room=_room_name(state.tiles[shelter].room))


# ---------------------------------------------------------------- secrets

def test_books_and_the_canoe_go_to_their_side_only() -> None:
    state, everything = played(KEY, 2)
    traitor = _traitor(state)
    books = [e for e in everything if e.kind == "book" and not e.audience.is_public]
    assert {e.audience.encode() for e in books} == {f"player:{traitor}", "team:heroes"}
    end = next(i for i, e in enumerate(everything) if e.kind == "game_over")
    evil = flow.book_text(state, sides.EVIL)
    good = flow.book_text(state, sides.HERO)
    secret = [line.strip("• ").strip() for line in evil.splitlines()]
    secret = [line for line in secret if len(line) > 25 and line not in good
              and not line.startswith("**")]
    assert secret
    canoe = PLUGIN.text("canoe_secret", room="x").split(". ")[-1]  # "Only you know it."
    for event in everything[:end]:
        if event.audience.is_public or event.audience.encode() == "team:heroes":
            assert not [line for line in secret if line in event.text]
            assert canoe not in event.text
