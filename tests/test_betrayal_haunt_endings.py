"""Every haunt ends (issue 8). AI-only games of every haunt at every table size reach a
winner, and no later than the haunt's last round: each haunt's data names one
(`last_round`), and the engine ends the game for the side it names once that round is
over with no side having won (flow.out_of_time). The books tell both sides.

Seed 003 gives one such limit, A Little Night Murder's: the heirs win by living until
dawn, "就是在天亮前活下來！(也就是稱過10回合)" (survive until dawn, that is, through 10
turns). The others are designed (marked so in data), set past the rounds AI games reach:
bench/haunt_endings.py plays the same games over 500 seeds per table size and records
the figures in its docstring.
"""

from __future__ import annotations

from unittest import mock

import pytest

from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import base, flow, sides
from bot.games.betrayal.state import BetrayalState
from tests.betrayal_haunt_helpers import begin, house, play_out, played, started

KEYS = sorted(haunts(""))
COUNTS = (3, 4, 5, 6)

# key -> (who wins when the last round is over, the side whose book is quoted, the line
# that book reads at 4 players, quoted from data/betrayal/haunts/<key>.yaml)
LAST_ROUNDS: dict[str, tuple[str, str, str]] = {
    "a_little_night_murder": (
        "heroes", "heroes",
        "At least one hero is still alive when dawn comes (when haunt round 10 ends)."),
    "better_with_friends": (
        "traitor", "heroes",
        "Be quick: if you have not floated away when round 25 ends, the house has filled "
        "and the traitor wins."),
    "its_alive": (
        "traitor", "traitor",
        "3 heroes are dead (the house has digested them), or the house is still alive at "
        "the end of round 12."),
    "offspring": (
        "traitor", "heroes",
        "Be quick: if the plant still lives when round 20 ends, the spores have choked the "
        "house and the traitor wins."),
    "pay_the_piper": (
        "traitor", "heroes",
        "Be quick: if rats still run when round 20 ends, the swarm has the house and the "
        "traitor wins."),
    "the_ghost_bride": (
        "heroes", "traitor",
        "If you are still not wed when round 15 is over, dawn breaks and the heroes win."),
    "the_mummy_walks": (
        "heroes", "heroes",
        "Hold out: if the wedding is not done when round 20 ends, the tomb's seals pull the "
        "Mummy back to sleep and you win."),
    "wail_of_the_banshee": (
        "traitor", "heroes",
        "Be quick: if she has not been banished when round 20 ends, her song has the house "
        "and the traitor wins."),
}


def test_every_haunt_has_a_last_round() -> None:
    assert sorted(LAST_ROUNDS) == KEYS
    for key in KEYS:
        limit = base.load_data(key).last_round
        assert limit is not None, key
        assert limit.winner == LAST_ROUNDS[key][0], key
        # designed everywhere but where seed 003 gives it (the night's 10 turns)
        assert limit.designed == (key != "a_little_night_murder"), key


# ---------------------------------------------------------------- AI games end

@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("key", KEYS)
def test_ai_games_reach_a_winner(key: str, players: int) -> None:
    state, events = played(key, 1, players)
    assert state.over and state.haunt is not None, (state.haunt and state.haunt.round)
    assert state.haunt.winner in (sides.HERO, sides.EVIL) and state.haunt.reason
    last = base.for_state(state).last_round(state)
    assert last is not None and state.haunt.round <= last + 1
    told = [e for e in events if e.kind == "game_over"]
    assert len(told) == 1 and told[0].audience.is_public
    assert told[0].data == {"winner": state.haunt.winner, "reason": state.haunt.reason}


# ---------------------------------------------------------------- the last round

@pytest.mark.parametrize("key", KEYS)
def test_the_books_tell_the_last_round(key: str) -> None:
    state, _ = started(key)
    _, side, line = LAST_ROUNDS[key]
    assert line in flow.book_text(state, side)


@pytest.mark.parametrize("key", KEYS)
def test_the_last_round_over_hands_the_game_to_its_side(key: str) -> None:
    state, _ = started(key)
    plugin = base.for_state(state)
    limit, last = plugin.data.last_round, plugin.last_round(state)
    assert limit is not None and last is not None and state.haunt is not None
    state.haunt.round = last  # the last round is being played: nothing yet
    assert not flow.out_of_time(Ctx(state)) and not state.over
    state.haunt.round = last + 1
    ctx = Ctx(state)
    assert flow.out_of_time(ctx)
    assert state.over and state.haunt.winner == limit.winner
    assert state.haunt.reason == plugin.text(limit.reason, **plugin.numbers(state))
    public = [e.text for e in ctx.events if e.audience.is_public]
    if limit.said:
        assert plugin.text(limit.said) in public
    assert any(state.haunt.reason in t for t in public)  # who won, and why
    assert not flow.out_of_time(Ctx(state))  # once over, it stays over


def _ran_out(key: str) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    """An AI game of the haunt with its last round brought forward to round 1, on the
    first seed's house where no side wins within that round."""
    for seed in range(1, 30):
        with mock.patch.object(base.HauntPlugin, "last_round", lambda self, state: 1):
            state, first = begin(house(4, seed), key)
            state, more = play_out(state, 800)
        limit, plugin = base.load_data(key).last_round, base.PLUGINS[key]
        assert limit is not None
        said = plugin.text(limit.reason, **{**plugin.numbers(state), limit.rounds: 1})
        if state.haunt is not None and state.haunt.reason == said:  # "... round 1 ends"
            return state, [*first, *more]
    raise AssertionError(f"every AI game of {key} was won within its first round")


@pytest.mark.parametrize("key", KEYS)
def test_the_rounds_run_out_in_play(key: str) -> None:
    """Through the engine's own rounds: the warning as the last round begins (where
    the haunt has one), then the end as the next would begin, with the side the data
    names winning and saying why."""
    state, events = _ran_out(key)
    limit = base.load_data(key).last_round
    assert limit is not None and state.haunt is not None
    assert state.over and state.haunt.winner == limit.winner and state.haunt.round == 2
    plugin = base.PLUGINS[key]
    public = [e for e in events if e.audience.is_public]
    texts = [e.text for e in public]
    rounds = [i for i, e in enumerate(public) if e.kind == "turn" and "round" in e.data]
    over = [i for i, e in enumerate(public) if e.kind == "game_over"]
    assert len(rounds) == 1 and len(over) == 1  # round 2 never began
    lines = [rounds[0]]
    if limit.warn:
        lines.append(texts.index(plugin.text(limit.warn)))
    if limit.said:
        lines.append(texts.index(plugin.text(limit.said)))
    assert lines == sorted(lines) and lines[-1] < over[0]
    assert state.haunt.reason in texts[over[0]]
