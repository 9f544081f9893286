"""IT: Evil Below: the die a move spends when the player names none.

Seed 001: "Plan your turn to use as many dice as possible" and "any die may be used to
move your Character mover to an adjacent location". A typed move (and the first die the
buttons offer under a place) must not spend the die of the place the mover arrives at,
since that die is the one they can use next.
"""

from __future__ import annotations

from bot.games.evilbelow.actions import MOVE, legal, spare_die
from tests.evil_below_helpers import (
    BALLOON,
    BARRENS,
    HAND,
    HEART,
    NEIBOLT,
    SQUARE,
    act,
    actions_phase,
    arrange,
)


def test_a_move_named_without_a_die_keeps_the_die_of_where_it_arrives() -> None:
    """The rulebook's example: Ben in The Barrens 'uses the first die to move to House on
    Neibolt Street ... Next he uses a die showing a red hand symbol to draw a Totem
    Encounter card.' Moving without naming a die spent the Neibolt die (nobody stood
    there yet), so the draw the example makes next was lost; the die of the Barrens,
    which nobody can use once Ben has left, is the one to spend."""
    state = arrange(["ben", "richie"], {0: BARRENS, 1: SQUARE})
    state = actions_phase(state, {NEIBOLT: HAND, BARRENS: HEART, SQUARE: BALLOON})
    state.dice_used[SQUARE] = True  # the balloon was a sighting
    free = [d for d in range(7) if not state.dice_used[d]]
    die = spare_die(state, free, 0, NEIBOLT)
    assert die == BARRENS
    state, _ = act(state, 0, MOVE, die=die, to=NEIBOLT)
    state, _ = act(state, 0, "pickup", die=NEIBOLT, what="draw")
    assert len(state.heroes[0].hand) == 1


def test_the_buttons_offer_the_spare_die_first_under_each_place() -> None:
    """'Plan your turn to use as many dice as possible': under 'To Neibolt' the first die
    is not Neibolt's own (Ben will stand there) but the one of the Barrens he leaves."""
    state = arrange(["ben", "richie"], {0: BARRENS, 1: SQUARE})
    state = actions_phase(state, {NEIBOLT: HAND, BARRENS: HEART})
    to_neibolt = [f.action.int_arg("die") for f in legal(state, 0)
                  if f.action.kind == MOVE and f.action.int_arg("to") == NEIBOLT]
    assert to_neibolt[0] == BARRENS and to_neibolt[-1] in (NEIBOLT, SQUARE)
    # Someone staying behind keeps the die of the place left useful: it is not first.
    state = arrange(["ben", "richie"], {0: BARRENS, 1: BARRENS})
    state = actions_phase(state, {NEIBOLT: HAND, BARRENS: HEART})
    to_neibolt = [f.action.int_arg("die") for f in legal(state, 0)
                  if f.action.kind == MOVE and f.action.int_arg("to") == NEIBOLT]
    assert to_neibolt[0] not in (BARRENS, NEIBOLT)
