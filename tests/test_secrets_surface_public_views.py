"""Every public surface a game's state makes is blind to what the table may not know.

The product's standard: "Hidden information never shows in the channel, the map, /game
log or /game status". The public surfaces drawn from a state are `/game status`
(`Game.status_text`), the board and its alt text (the renderer's view, and Betrayal's
whole house for `/game map` and its sheets for `/betrayal sheet`), the chapter and
turn names, and the buttons and selects of the live message (each seat's non-private
options: labels, groups, descriptions and the actions their custom_ids carry). A state
and its shadow (tests/test_ai_views.py: the same game with everything face down dealt
otherwise: other players' secret characters, portals, decks, stacks, a haunt's secret)
must show the same on each, in both languages.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.rng import Rng
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.shown import map_view, sheet_text, sheet_view
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.locales import CHINESE, ENGLISH, speaking
from renderers import describe_public, fingerprint, renderer_of
from tests.betrayal_haunt_helpers import answer_pending, begin, edition_of, house
from tests.test_ai_views import betrayal_shadow, cthulhu_shadow, eb_shadow, eb_states

SECRET_HAUNTS = ["the_ghost_bride", "better_with_friends", "separate_nightmares",
                 "all_living_things_must_abide"]


def surfaces(game: Game[Any], state: Any) -> dict[str, Any]:
    """What the table reads of `state`, in each language the bot speaks."""
    out: dict[str, Any] = {}
    for language in (ENGLISH, CHINESE):
        with speaking(language):
            out[f"{language}.status"] = game.status_text(state)
            out[f"{language}.alt"] = describe_public(game.key, state)
            out[f"{language}.names"] = (game.chapter(state), game.turn_name(state))
            acting = game.to_act(state)
            for seat in ([acting] if acting is not None else []) + game.out_of_turn(state):
                options = game.options(state, seat)
                out[f"{language}.options.{seat}"] = [
                    (o.label, o.action.encode(), o.group, o.description, o.first, o.then)
                    for o in options if not o.private]
                out[f"{language}.private.{seat}"] = sum(o.private for o in options)
            view_of = getattr(renderer_of(game.key), "board_view", None)
            if view_of is not None:
                out[f"{language}.board"] = fingerprint(game.key, view_of(state))
            if game is BETRAYAL:
                seats = range(len(state.players))
                out[f"{language}.map"] = fingerprint(game.key, map_view(state))
                out[f"{language}.sheets"] = [(fingerprint(game.key, sheet_view(state, s)),
                                              sheet_text(state, s)) for s in seats]
    return out


def _same(game: Game[Any], state: Any, shadow: Any) -> None:
    shown, hidden = surfaces(game, state), surfaces(game, shadow)
    assert shown.keys() == hidden.keys()
    for key in shown:
        assert shown[key] == hidden[key], key


@pytest.mark.parametrize("seed", [3, 8, 11])
def test_cthulhu_shows_no_secret_character_and_no_portal(seed: int) -> None:
    """Seed 002: each player's two characters are secret until a rumble is scored; the
    portals lie face down."""
    count = 2 + seed % 5
    state, _ = CTHULHU.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed, {})
    picks = Rng(seed)
    for step in range(120):
        seat = CTHULHU.to_act(state)
        if seat is None:
            break
        if step % 4 == 0:
            _same(CTHULHU, state, cthulhu_shadow(state, (seat + 1) % count, Rng(step)))
        action = CTHULHU.ai_action(state, seat) if step % 2 else \
            picks.choice(CTHULHU.options(state, seat)).action
        state, _ = CTHULHU.apply(state, seat, action)


@pytest.mark.parametrize("seed", [1, 6])
def test_evil_below_shows_nothing_that_lies_face_down(seed: int) -> None:
    """Seed 001: the Fight Stack's unseen cards and order, the decks, the victims still
    face down, each weakness stack under its top card."""
    for n, state in enumerate(eb_states(2 + seed % 4, seed)):
        if n > 240:
            break
        if n % 6 == 0:
            _same(EVIL_BELOW, state, eb_shadow(state, Rng(n + seed)))


@pytest.mark.parametrize("key", SECRET_HAUNTS)
def test_betrayal_shows_no_deck_no_stack_and_no_haunts_secret(key: str) -> None:
    """Seed 003: the decks and the room stack are face down; a haunt's secret (the lover
    the ghost names, where the canoe lies, the traitor's nightmares) is the traitor's
    book's alone. The shadow of the house's view (seat None) deals all of it otherwise
    (the forms' weaknesses of All Living Things Must Abide are its data's, not dealt:
    there, the decks and the stack)."""
    state = answer_pending(begin(house(4, 1, edition=edition_of(key)), key)[0])
    for n in range(400):
        if state.over:
            break
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        if n % 5 == 0:
            _same(BETRAYAL, state, betrayal_shadow(state, None, Rng(n + 1)))
        state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))


@pytest.mark.parametrize("seed", [2, 5])
def test_betrayal_exploring_shows_no_deck_and_no_stack(seed: int) -> None:
    """Before the haunt (the classic game and Neibolt's, its Encounter deck too)."""
    count = 3 + seed % 4
    expansion = "neibolt" if seed % 2 else "classic"
    state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed,
                              {"today": "06-01", "expansion": expansion})
    for n in range(200):
        if state.over:
            break
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        if n % 5 == 0:
            _same(BETRAYAL, state, betrayal_shadow(state, None, Rng(n + 1)))
        state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))
