"""Betrayal's AI, second pass: two weaknesses bench/bench_ai_balance.py showed, each in
a rigged position.

- A split room's crossing roll was made whenever it could pass at all: in a Neibolt
  game (3 players, seed 14) an explorer on the near side of the Catacombs rolled 3 dice
  for Sanity 6+ (all three must show 2: 1 in 27) turn after turn, with the Basement
  Landing it came from, a room to explore from, one step back. The roll is now priced
  by its odds (ai_ways.crossing_price) against the walk round.
- A win the seat's side could take now was put off (22 of 240 all-AI games): the
  traitor's monsters finished their moves before the end of the turn that won, a hero
  attacked before the step into the refuge. The AI now plays each of its options on a
  copy of its own view (playing.py), and takes one that wins there and in other deals
  of what it cannot see (ai.win_now).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, ai, ai_ways, playing
from bot.games.betrayal.haunting import base, sides
from bot.games.betrayal.haunting.actions import monster_stage
from bot.games.betrayal.haunting.monsters import M_END
from bot.games.betrayal.haunting.plugins.better_with_friends import refuge
from bot.games.betrayal.house import plan
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import answer_pending, begin, house
from tests.test_betrayal_engine_helpers import OX, at, new_game, put, value

# ---------------------------------------------------------------- crossing rolls


def catacombs_house(sanity: int, speed: int = 3) -> BetrayalState:
    """Ox on the near (south) side of the Catacombs, just come up from the Basement
    Landing, whose east, south and west doors still open onto unexplored space; the
    Catacombs' far (north) door does too. `sanity` and `speed`: Ox's clips (track
    indexes)."""
    state = new_game()
    state.ai = [True] * len(state.ai)
    put(state, "catacombs", "basement", 0, -1)  # doors N S: its S onto the Landing's N
    at(state, OX, "catacombs", "S")
    state.explorers[OX].traits["sanity"] = sanity
    state.explorers[OX].traits["speed"] = speed
    return state


def test_the_odds_of_a_roll() -> None:
    """Each Betrayal die shows 0, 1 or 2 alike: 3 dice make 6 only as three 2s."""
    assert ai_ways.odds(3, 6) == pytest.approx(1 / 27)
    assert ai_ways.odds(1, 3) == 0
    assert ai_ways.odds(2, 0) == 1
    assert ai_ways.odds(4, 3) == pytest.approx(1 - (1 + 4 + 10) / 81)  # totals 0, 1, 2


def test_an_explorer_walks_back_rather_than_roll_what_it_seldom_passes() -> None:
    """Seed 003, the Catacombs: 若人物要由另一門扉離開，則人物需以神志Sanity作能力考驗
    trait roll。若骰數總和大於或等於6，人物成功通過這房間。否則人物必須停止移動。
    [to leave by the other door, a Sanity roll; 6 or more passes; else the movement
    stops]. Ox's 3 dice pass once in 27 tries: one step back to the Landing, a room to
    explore from, is the cheaper way (the old AI made the roll every turn)."""
    state = catacombs_house(sanity=2)
    assert value(state, OX, "sanity") == 3
    labels = [o.label for o in GAME.options(state, OX)]
    assert "Explore north (cross first: Sanity 6+)" in labels
    assert GAME.ai_action(state, OX) == Action("move", {"dir": "S"})
    state, _ = GAME.apply(state, OX, Action("move", {"dir": "S"}))
    assert GAME.ai_action(state, OX).kind == "explore"  # and it explores from there


def test_a_roll_it_mostly_passes_is_still_made() -> None:
    """7 dice pass Sanity 6+ three times in four, and a failure costs a slow explorer
    little: cheaper than the step back."""
    state = catacombs_house(sanity=7, speed=0)
    assert (value(state, OX, "sanity"), value(state, OX, "speed")) == (7, 2)
    assert GAME.ai_action(state, OX) == Action("explore", {"dir": "N"})


def test_a_roll_stays_the_way_when_there_is_no_other() -> None:
    """The Landing closed in (no door of it left to explore through, no other way up):
    the 1-in-27 roll is the only way on, so it is made."""
    state = catacombs_house(sanity=2)
    for room, x, y, rotation in (("storeroom", 0, 1, 2), ("pentagram_chamber", -1, 0, 2),
                                 ("larder", 1, 0, 0)):
        put(state, room, "basement", x, y, rotation)
    landing = state.tile_of("basement_landing")
    assert landing is not None and len(plan(state).exits[landing]) == 1
    assert GAME.ai_action(state, OX) == Action("explore", {"dir": "N"})


# ---------------------------------------------------------------- a win taken now


def _last_round_monsters() -> BetrayalState:
    """It's Alive! (its data: the traitor wins when the last round runs out), the
    monsters' turn of the last round, two antibodies with moves to make."""
    state = answer_pending(begin(house(4, 1), "its_alive")[0])
    for _ in range(12):  # every explorer ends its turn: the monsters' turn comes
        if monster_stage(state):
            break
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, Action("end_turn"))
        state = answer_pending(state)
    assert monster_stage(state) and state.haunt is not None
    last = base.for_state(state).last_round(state)
    assert last is not None
    state.haunt.round = last
    return state


def test_the_traitor_ends_its_monsters_turn_when_that_wins() -> None:
    """Seed 003: 奸徒Traitor或英雄Hero中，一旦一方完成其勝利條件，遊戲即時完結。 [once a
    side meets its goal the game ends at once]. The end of the monsters' turn ends the
    last round, which wins it for the traitor; the old AI moved its antibodies first."""
    state = _last_round_monsters()
    seat = GAME.to_act(state)
    assert seat is not None and sides.is_traitor(state, seat)
    options = [o.action for o in GAME.options(state, seat)]
    assert any(a.kind == "mmove" for a in options) and Action(M_END) in options
    assert GAME.ai_action(state, seat) == Action(M_END)
    after, _ = GAME.apply(state, seat, Action(M_END))
    assert after.over and after.haunt is not None and after.haunt.winner == "traitor"


def _one_step_from_the_refuge() -> tuple[BetrayalState, int, Action]:
    """Better with Friends: every hero but the one to act in the Tower (the refuge); it
    carries the canoe one door from it, beside a feeble traitor it could attack."""
    state = answer_pending(begin(house(4, 1), "better_with_friends")[0])
    shelter = refuge(state)
    traitor = sides.traitor(state)
    hero = state.turn.seat
    assert shelter is not None and traitor is not None and not sides.is_traitor(state, hero)
    step = next((t, d) for t, exits in enumerate(plan(state).exits)
                for d, there in exits.items() if there == shelter)
    for seat in sides.heroes(state):
        at(state, seat, state.tiles[shelter].room)
    state.haunt.progress["carrier"] = hero  # type: ignore[union-attr]
    state.explorers[hero].tile = state.explorers[traitor].tile = step[0]
    state.explorers[traitor].traits = dict.fromkeys(state.explorers[traitor].traits, 1)
    return state, hero, Action("move", {"dir": step[1]})


def test_a_hero_steps_into_the_refuge_rather_than_attack() -> None:
    """The heroes win with the canoe and every living hero in the Tower (its book): the
    step in wins at once (seed 003, as above); the old AI attacked the traitor first."""
    state, hero, into = _one_step_from_the_refuge()
    options = [o.action for o in GAME.options(state, hero)]
    assert into in options and any(a.kind == "attack" for a in options)
    assert GAME.ai_action(state, hero) == into
    after, _ = GAME.apply(state, hero, into)
    assert after.over and after.haunt is not None and after.haunt.winner == "heroes"


def test_the_look_ahead_is_bounded_and_plays_on_copies_of_the_view() -> None:
    """At most WIN_TRIES options a decision are played out, each on a copy of the seat's
    view (never the state), a win checked in WORLDS more deals; the view is left as it
    was."""
    state = _last_round_monsters()
    state.haunt.round = 1  # type: ignore[union-attr]  # no win to be had now
    seat = GAME.to_act(state)
    assert seat is not None
    played: list[int] = []
    real = playing.play

    def counting(view: BetrayalState, who: int, action: Action) -> Any:
        played.append(id(view))
        return real(view, who, action)

    wide = [Action("mmove", {"m": 1, "to": 5})] * (ai.WIN_TRIES + 10)
    view = GAME.seat_view(state, seat)
    before = GAME.dump(view)
    with mock.patch.object(playing, "play", counting):
        assert ai.win_now(view, seat, wide) is None
        GAME.ai_action(state, seat)
    assert len(played) <= ai.WIN_TRIES + len(GAME.options(state, seat))
    assert played[:ai.WIN_TRIES] == [id(view)] * ai.WIN_TRIES
    assert GAME.dump(view) == before
