"""The five scenarios of COME HOME TO EVIL (seed 000) as the classic haunts are held to:
each is a haunt plugin beside its data, AI games of each end at every table size with a
winner no later than its last round, each side wins some seeded AI game, and in the
three with a traitor nothing the traitor's book alone says reaches the table before the
end (tests/test_betrayal_haunt_secrets.py's check). The games are the cached ones of
tests/betrayal_haunt_helpers.played, shared with the scenarios' own files."""

from __future__ import annotations

import json

import pytest

from bot.games.betrayal import GAME, map_view
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import base, flow, has_plugin
from tests.betrayal_haunt_helpers import outcome, played, seed_for, started
from tests.test_betrayal_haunt_secrets import check_secrets

KEYS = list(haunts("neibolt"))
TRAITORS = ["henry_on_the_hunt", "separate_nightmares", "all_living_things_must_abide"]
COOPERATIVE = ["the_ritual_of_chud", "lets_kill_this_clown"]


def test_the_five_scenarios_are_playable() -> None:
    # Seed 000: Scenario 1 Henry on the Hunt ... Scenario 5 Let's Kill This Clown.
    assert [*TRAITORS, *COOPERATIVE] == KEYS
    assert [k for k in KEYS if not has_plugin(k)] == []
    assert [haunts()[k].number for k in KEYS] == [1, 2, 3, 4, 5]
    for key in KEYS:
        data = base.load_data(key)
        assert data.last_round is not None and data.last_round.designed, key
        assert base.PLUGINS[key].cooperative == (key in COOPERATIVE), key


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("key", KEYS)
def test_ai_games_of_each_scenario_reach_a_winner(key: str, players: int) -> None:
    state, _ = played(key, 1, players)
    assert state.over and state.haunt is not None and state.haunt.winner, \
        (key, players, state.haunt and state.haunt.round)
    last = base.PLUGINS[key].last_round(state)
    assert last is not None and state.haunt.round <= last + 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("key", TRAITORS)
def test_no_scenario_leaks_the_traitors_book(key: str, players: int) -> None:
    state, events = played(key, 1, players)
    check_secrets(state, list(events))


@pytest.mark.parametrize("winner", ["heroes", "traitor"])
@pytest.mark.parametrize("key", KEYS)
def test_each_side_wins_some_ai_game_of_each_scenario(key: str, winner: str) -> None:
    state = outcome(key, seed_for(key, winner))
    assert state.over and state.haunt is not None
    assert state.haunt.winner == winner, state.haunt.reason


@pytest.mark.parametrize("key", KEYS)
def test_the_board_line_is_public_and_drawable(key: str) -> None:
    """The map's footer shows each scenario's board line (its track, who Pennywise
    hunts...) in characters the map's font draws: no emoji, which it would draw as
    boxes. It names the scenario and the encounter that woke It."""
    state, _ = played(key, 1, 4)
    footer = map_view(state).footer
    assert base.PLUGINS[key].board_note(state) in footer
    assert f"Scenario {haunts()[key].number}: {haunts()[key].name}" in footer
    assert all(ord(ch) < 0x2100 for ch in footer), [ch for ch in footer if ord(ch) >= 0x2100]


@pytest.mark.parametrize("key", COOPERATIVE)
def test_a_game_saved_mid_house_turn_plays_on_the_same(key: str) -> None:
    """A hero chooses (where damage goes) while the house plays Pennywise: the game
    saved and loaded then plays on exactly as the one never saved."""
    state, _ = started(key)
    for _ in range(1500):
        if state.over or (state.pending is not None and state.haunt is not None
                          and state.haunt.house is not None):
            break
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    assert state.haunt is not None and state.haunt.house is not None and state.pending
    back = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    a, b = state, back
    for _ in range(40):
        if a.over:
            break
        seat = GAME.to_act(a)
        assert seat is not None and seat == GAME.to_act(b)
        a, ea = GAME.apply(a, seat, GAME.ai_action(a, seat))
        b, eb = GAME.apply(b, seat, GAME.ai_action(b, seat))
        assert [e.text for e in ea] == [e.text for e in eb]
    assert GAME.dump(a) == GAME.dump(b)
    assert flow.is_haunt(a) or a.over
