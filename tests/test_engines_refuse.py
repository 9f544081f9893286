"""Every engine, given any action the wire form can carry, plays it or refuses it with
IllegalAction, and a refusal leaves the state it was given as it was.

Why: the reader at the edge (bot/core/wire.py) only promises well-formed actions; what
is well-formed but wrong (an unknown kind, a missing argument, a seat or room that does
not exist, a huge number) is the engine's to refuse, readably, untouched.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games
from bot.core import wire
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.base import PlayerInfo

KINDS = ("act", "attack", "choose", "drop", "end_turn", "explore", "fight", "mattack", "mend",
         "mmove", "move", "pickup", "trade", "use")
KEYS = ("card", "character", "dir", "give", "m", "pick", "ranged", "remove", "room", "take",
        "target", "to", "trait", "via", "weapon", "what", "with")
VALUES = (st.integers(0, 40) | st.sampled_from([2**31, 2**63 - 1])
          | st.sampled_from(["N", "E", "m1", "m9", "might", "revolver", "give-1", "dog", "x"]))


@cache
def _moments(kind: str) -> tuple[dict[str, Any], ...]:
    """Saved states along one AI game: a few dozen moments to try actions at."""
    game = games.get(kind)
    count = game.min_players + 1
    state, _ = game.setup([PlayerInfo(f"P{i}", True) for i in range(count)], 2,
                          {"today": "05-05"})
    moments = []
    for step in range(240):
        seat = game.to_act(state)
        if game.is_over(state) or seat is None:
            break
        if step % 8 == 0:
            moments.append(game.dump(state))
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    return tuple(moments)


@pytest.mark.parametrize("kind", sorted(games.all_games()))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_engine_plays_or_refuses_any_well_formed_action(kind: str,
                                                           data: st.DataObject) -> None:
    game = games.get(kind)
    moments = _moments(kind)
    raw = data.draw(st.sampled_from(moments))
    action = Action(data.draw(st.sampled_from(KINDS)),
                    data.draw(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=3)))
    assert wire.read_action(action.encode()) == (action.kind, action.args)  # it can arrive
    state = game.load(raw)
    waiting = game.to_act(state) or 0
    seat = data.draw(st.just(waiting) | st.integers(0, game.min_players))  # min + 1 seats
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        assert exc.message.strip()
        assert game.dump(state) == raw  # refused: untouched


@pytest.mark.parametrize("kind", sorted(games.all_games()))
def test_a_table_of_the_wrong_size_is_refused_in_the_games_own_words(kind: str) -> None:
    game = games.get(kind)
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(IllegalAction, match=f"{game.min_players}.*{game.max_players}"):
            game.setup([PlayerInfo(f"P{i}", True) for i in range(count)], 1, {})
