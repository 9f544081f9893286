"""A Little Night Murder (haunt #4): seed 003's outline (the widow and her servants hunt
the heirs; the heroes win by living until dawn, 10 turns; the servants grow stronger and
faster as the night goes on) and our design (data/betrayal/haunts/a_little_night_murder.yaml)."""

from __future__ import annotations

import pytest

from bot.core.events import Event
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, flow, sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.a_little_night_murder import (
    LANDINGS,
    SERVANT,
    ALittleNightMurder,
)
from bot.games.betrayal.state import BetrayalState
from bot.texts import fill
from tests.betrayal_haunt_helpers import answer_pending, begin, house, played, seed_for

KEY = "a_little_night_murder"
PLUGIN = ALittleNightMurder()


def _start(players: int = 4, seed: int = 1) -> tuple[BetrayalState, list[Event]]:
    return begin(house(players, seed), KEY)


def _played(seed: int) -> tuple[BetrayalState, tuple[Event, ...]]:
    return played(KEY, seed)  # shared with the other tests' games of the same seed


def _public(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [e.text for e in events if e.audience.is_public]


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_puts_a_servant_on_each_floor_and_the_rest_with_the_traitor(players: int) -> None:
    state, events = _start(players)
    servants = sides.monsters(state, SERVANT)
    assert len(servants) == PLUGIN.value(state, "servants") >= 3
    landings = [state.tile_of(key) for key in LANDINGS]
    assert [m.tile for m in servants[:3]] == landings
    assert {state.tiles[m.tile].floor for m in servants[:3]} == {"basement", "ground", "upper"}
    traitor = sides.traitor(state)
    assert traitor is not None
    assert all(m.tile == state.explorers[traitor].tile for m in servants[3:])
    assert any("servants come out" in t for t in _public(events))


def test_the_traitor_is_jenny_or_else_the_revealer() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    keys = [e.key for e in state.explorers]
    assert traitor == (keys.index("jenny_leclerc") if "jenny_leclerc" in keys
                       else state.haunt.revealer)


# ---------------------------------------------------------------- the night

def test_servants_grow_stronger_and_faster_as_the_night_wears_on() -> None:
    state, _ = _start()
    servant = sides.monsters(state, SERVANT)[0]
    seen = []
    for number in range(1, 11):
        state.haunt.round = number
        seen.append((combat.monster_trait(state, servant, "might"),
                     combat.monster_trait(state, servant, "speed"),
                     combat.monster_trait(state, servant, "sanity"),
                     combat.monster_trait(state, servant, "knowledge")))
    mights, speeds = [s[0] for s in seen], [s[1] for s in seen]
    assert mights[0] == 2 and speeds[0] == 2
    assert mights == sorted(mights) and speeds == sorted(speeds)
    every_m, every_s = PLUGIN.value(state, "might_every"), PLUGIN.value(state, "speed_every")
    assert mights[-1] == 2 + 9 // every_m and speeds[-1] == 2 + 9 // every_s
    assert {s[2] for s in seen} == {3}  # Sanity does not grow (the Ring still stuns them)
    assert {s[3] for s in seen} == {None}  # no Knowledge: it cannot be attacked with


def test_the_monsters_roll_their_grown_speed() -> None:
    from bot.games.betrayal.haunting import monsters

    state, _ = _start()
    state.haunt.round = 10
    ctx = Ctx(state)
    monsters.start_turn(ctx)
    roll = next(e for e in ctx.events if e.data.get("kind") == SERVANT and "dice" in e.data)
    assert len(roll.data["dice"]) == PLUGIN.strength(state, "speed") > 2


def test_a_hit_only_stuns_a_servant() -> None:
    state, _ = _start()
    servant = sides.monsters(state, SERVANT)[0]
    combat.hurt_monster(Ctx(state), servant, 3, "0", "")
    assert servant.stunned and servant.alive


def test_the_dawn_clock_is_told_to_everyone_each_round() -> None:
    state, events = _start()
    state = answer_pending(state, events)  # seed 1's basement is cut off: stairs first
    clock = [e for e in events if e.data.get("dawn") == 10]
    assert len(clock) == 1 and clock[0].audience.is_public and clock[0].data["left"] == 9
    assert "round 1 of 10" in clock[0].text and "Might 2, Speed 2" in clock[0].text
    state.haunt.round = 10
    ctx = Ctx(state)
    PLUGIN.start_round(ctx)
    assert len(ctx.events) == 1 and "last round before dawn" in ctx.events[0].text
    assert not state.over
    _, played = _played(seed_for(KEY, "heroes"))
    told = [e.data["round"] for e in played if e.data.get("dawn") == 10]
    assert told == list(range(1, 11))


# ---------------------------------------------------------------- winning

def test_dawn_comes_only_when_the_tenth_round_ends() -> None:
    state, _ = _start()
    for number in range(1, 10):
        state.haunt.round = number
        PLUGIN.end_monsters(Ctx(state))
        assert PLUGIN.winner(state) is None
    state.haunt.round = 10
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_dawn"))
    assert any("Dawn breaks" in t for t in _public(ctx.events))


def test_dawn_without_a_monsters_turn_still_ends_the_night() -> None:
    state, _ = _start()
    for servant in state.monsters:
        servant.alive = False
    state.haunt.round = 11
    assert flow.out_of_time(Ctx(state))
    assert state.over and state.haunt.winner == "heroes"


def test_every_hero_dead_before_dawn_is_the_traitors_win() -> None:
    state, _ = _start()
    for seat in sides.heroes(state):
        state.explorers[seat].alive = False
    state.haunt.progress["dawn"] = True  # the dead do not inherit, even at dawn
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_dead"))


def test_killing_the_traitor_does_not_end_the_night() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    state.explorers[traitor].alive = False
    assert PLUGIN.winner(state) is None


# ---------------------------------------------------------------- AI games

@pytest.mark.parametrize("winner", ["heroes", "traitor"])
def test_seeded_ai_games_reach_either_winner(winner: str) -> None:
    """Each side wins some AI game of the first seeds: the heroes only at dawn, the
    traitor before it."""
    state, _ = _played(seed_for(KEY, winner))
    assert state.over and state.haunt.winner == winner
    if winner == "heroes":
        assert state.haunt.round == 10
        assert state.haunt.reason == PLUGIN.text("reason_dawn")
    else:
        assert state.haunt.round <= 10 and not state.haunt.progress.get("dawn")


def test_hero_ai_keeps_away_from_the_servants() -> None:
    state, _ = _start()
    hero = sides.heroes(state)[0]
    goals = PLUGIN.goals(state, hero)
    threats = {m.tile for m in sides.monsters(state)}
    assert goals and not goals & threats
    traitor = sides.traitor(state)
    assert traitor is not None and PLUGIN.goals(state, traitor) == set()


# ---------------------------------------------------------------- secrets

def test_books_go_to_their_side_only_and_the_traitors_stays_secret() -> None:
    state, events = _played(seed_for(KEY, "heroes"))
    traitor = sides.traitor(state)
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert {e.audience.encode() for e in books} == {f"player:{traitor}", "team:heroes"}
    evil = next(e for e in books if e.audience.encode() == f"player:{traitor}")
    book = load_data(KEY).books["traitor"]
    values = {n: PLUGIN.value(state, n) for n in load_data(KEY).values}
    secret = [fill(str(book["win"]).strip(), **values),
              *[fill(str(line), **values) for line in book["rules"]]]
    assert all(line in evil.text for line in secret)
    end = next(i for i, e in enumerate(events) if e.kind == "game_over")
    before = _public(events[:end])
    for line in secret:
        assert not any(line in text for text in before), line
