"""The AI seats' fairness, second pass: what tests/test_ai_views.py's shadows leave out.

The first pass proves the door (every AI decides from its seat's view) and that a
state and its shadow (decks, stacks, others' secrets and the Rng dealt otherwise) give
the same view and the same move. This pass adds the hidden things those shadows keep:

- Cthulhu's seat salts (knowledge.py: "a number dealt to the seat at setup that no one
  is shown"): another seat's salt seeds that seat's bluffs, so reading it would let an
  AI replay another AI's choices and name its pair;
- All Living Things Must Abide's weaknesses: data, not state (so no shadow can deal
  them otherwise), "told to the traitor alone" (RULES.md: "It's forms and their
  weaknesses, known to the traitor alone"): a hero's AI may use a weakness only once a
  hero has revealed it;
- the haunts' AI hooks (haunting/parts.py, AIHooks), Neibolt's scenarios' included: each
  is handed a seat's (or the house's) view, never the state, whoever calls it;
- the game's Rng alone, and the AIs' own memory: a decision does not hang on the dice
  to come, nor on what the process decided before (the AIs' caches).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from functools import cache
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import bench_ai_balance as bench
from bot.core.actions import Action
from bot.core.rng import Rng
from bot.core.views import is_view
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import base as haunt_base
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.haunting.parts import AIHooks
from bot.games.betrayal.state import BetrayalState
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.state import CthulhuState
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.games.neibolt.scenarios import all_living_things_must_abide as alta
from tests.betrayal_haunt_helpers import answer_pending, begin, edition_of, house
from tests.test_ai_views import cthulhu_shadow

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
HAUNTS = sorted(haunts())


def ai_states(game: Game[Any], state: Any, limit: int) -> Iterator[Any]:
    """The states an all-AI table passes through from `state`, up to `limit` of them."""
    for _ in range(limit):
        if game.is_over(state):
            return
        yield state
        seat, action = bench.step(game, state)
        state, _ = game.apply(state, seat, action)


def start(game: Game[Any], players: int, seed: int) -> Any:
    options = {"today": "06-01"} if game is BETRAYAL else {}
    return game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed,
                      options)[0]


# ---------------------------------------------------------------- Cthulhu: the salts

def salted_shadow(state: CthulhuState, seat: int, rng: Rng) -> CthulhuState:
    """The first pass's shadow, and every other seat's salt dealt otherwise too."""
    new = cthulhu_shadow(state, seat, rng)
    new.salts = [salt if s == seat else rng.next_u64() for s, salt in enumerate(new.salts)]
    return new


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 280), other=st.integers(1, 10**6))
def test_cthulhu_ai_ignores_the_other_seats_salts(seed: int, steps: int, other: int) -> None:
    """knowledge.py: the salt is "a number dealt to the seat at setup that no one is
    shown" (a view keeps its own and blanks the others')."""
    count = 2 + seed % 5
    states = list(ai_states(CTHULHU, start(CTHULHU, count, seed), steps + 1))
    state = states[-1]
    seat = CTHULHU.to_act(state)
    assert seat is not None
    shadow = salted_shadow(state, seat, Rng(other))
    assert shadow.salts != state.salts or count == 1
    view = CTHULHU.seat_view(state, seat)
    assert [s for i, s in enumerate(view.salts) if i != seat] == [0] * (count - 1)
    assert CTHULHU.dump(view) == CTHULHU.dump(CTHULHU.seat_view(shadow, seat))
    assert CTHULHU.ai_action(state, seat) == CTHULHU.ai_action(shadow, seat)


# ---------------------------------------------------------------- the weaknesses

def permuted_weaknesses(state: BetrayalState, rng: Rng) -> dict[str, dict[str, Any]]:
    """The forms' weaknesses with those no hero has revealed dealt among the unrevealed
    forms otherwise: what a hero cannot tell from the truth."""
    forms = alta.forms_data()
    assert state.haunt is not None
    known = set(state.haunt.progress.get("revealed", []))
    hidden = [k for k in forms if k not in known]
    specs = [forms[k] for k in hidden]
    rng.shuffle(specs)
    return {**forms, **dict(zip(hidden, specs, strict=True))}


def _decided_under(forms: dict[str, dict[str, Any]], state: BetrayalState,
                   seat: int) -> Action:
    with mock.patch.object(alta, "forms_data", lambda: forms):
        return BETRAYAL.ai_action(state, seat)


@cache
def alta_games() -> list[BetrayalState]:
    """States of All Living Things Must Abide played by the AI, at 3-5 seats."""
    found: list[BetrayalState] = []
    for players, seed in ((4, 1), (3, 2), (5, 3)):
        state = answer_pending(begin(house(players, seed, edition="neibolt"), alta.KEY)[0])
        found += list(ai_states(BETRAYAL, state, 600))
    return found


def test_all_living_things_heroes_ignore_the_weaknesses_not_revealed() -> None:
    """RULES.md: "It's forms and their weaknesses, known to the traitor alone"; the
    scenario: "A weakness becomes public only when a hero discovers it". A hero's
    decision stays the same however the unrevealed weaknesses lie; the traitor's (who
    keeps It out of its weaknesses) does not, so the check reaches the AI."""
    heroes = traitor = traitor_moved = 0
    for i, state in enumerate(alta_games()):
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        truth = BETRAYAL.ai_action(state, seat)
        others = [_decided_under(permuted_weaknesses(state, Rng(100 * i + n)), state, seat)
                  for n in range(3)]
        if sides.is_traitor(state, seat):
            traitor += 1
            traitor_moved += any(move != truth for move in others)
        else:
            heroes += 1
            assert others == [truth] * 3, (i, seat, truth, others)
    assert heroes >= 200 and traitor >= 50
    assert traitor_moved > 0


# ---------------------------------------------------------------- the haunts' AI hooks

AI_HOOKS: tuple[str, ...] = tuple(name for name in vars(AIHooks) if not name.startswith("_"))


@pytest.mark.parametrize("key", HAUNTS)
def test_every_ai_hook_of_a_haunt_is_handed_a_view(key: str) -> None:
    """knowledge.py: an AI decides from its seat's view, the house from the house's;
    so each of a haunt's AI hooks (where to go, whom to attack, which special action,
    its own choices) only ever sees a view, whichever part of the engine asks."""
    plugin = haunt_base.PLUGINS[key]
    cls = type(plugin)
    handed: list[tuple[str, bool]] = []

    def spying(name: str) -> Callable[..., Any]:
        real = getattr(cls, name)

        def spy(self: Any, state: BetrayalState, *args: Any, **kwargs: Any) -> Any:
            handed.append((name, is_view(state)))
            return real(self, state, *args, **kwargs)
        return spy

    state = answer_pending(begin(house(4, 1, edition=edition_of(key)), key)[0])
    with ExitStack() as spies:
        for name in AI_HOOKS:
            spies.enter_context(mock.patch.object(cls, name, spying(name)))
        deque(ai_states(BETRAYAL, state, 800), maxlen=0)  # every decision, the hooks spied
    assert handed, key
    assert not [name for name, seen in handed if not seen], key
    assert {"goals", "ai_offer"} <= {name for name, _ in handed}


# ---------------------------------------------------------------- dice and memory

GAMES: tuple[tuple[Game[Any], int], ...] = ((CTHULHU, 4), (EVIL_BELOW, 4), (BETRAYAL, 4))


@pytest.mark.parametrize(("game", "players"), GAMES, ids=lambda g: getattr(g, "key", str(g)))
@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), other=st.integers(1, 10**6))
def test_the_dice_to_come_change_neither_the_view_nor_the_decision(
        game: Game[Any], players: int, seed: int, steps: int, other: int) -> None:
    """bot/core/views.py: "the view's Rng ... is seeded from what the seat knows, never
    from the game's Rng". The same table with another Rng (other dice to come) looks
    the same to the seat to act and to every seat offered an out-of-turn action."""
    state = list(ai_states(game, start(game, players, seed), steps + 1))[-1]
    if game.is_over(state):
        return
    other_dice = game.copy_state(state)
    other_dice.rng = Rng(other)
    seat = game.to_act(state)
    assert seat is not None
    assert game.dump(game.seat_view(state, seat)) == game.dump(game.seat_view(other_dice, seat))
    assert game.ai_action(state, seat) == game.ai_action(other_dice, seat)
    for offered in game.out_of_turn(state):
        assert game.ai_offer(state, offered) == game.ai_offer(other_dice, offered)


@pytest.mark.parametrize(("game", "players"), GAMES, ids=lambda g: getattr(g, "key", str(g)))
def test_a_decision_does_not_hang_on_what_the_ai_decided_before(game: Game[Any],
                                                                players: int) -> None:
    """The AIs keep caches (Evil Below's outlooks and its last fight gain, Cthulhu's
    distance tables): asked in another order, over states of two games, every seat
    decides the same, so nothing one table's AI saw reaches another's decision."""
    states = [s for seed in (3, 4) for s in ai_states(game, start(game, players, seed), 60)
              if game.to_act(s) is not None]
    assert len(states) >= 60

    def decisions(order: list[Any]) -> list[Action]:
        return [game.ai_action(s, game.to_act(s)) for s in order]  # type: ignore[arg-type]

    forward = decisions(states)
    assert decisions(states[::-1])[::-1] == forward
    assert decisions(states[1::2] + states[::2]) == forward[1::2] + forward[::2]

