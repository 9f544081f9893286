"""Cthulhu in the House (seed 002), a third rules audit, sentence by sentence: what the
first two passes left unquoted (whose characters a player may move or fight, which
portals flip and travel, where a teleport may go, how a rumble scores a seat whose
characters left early, that a turn is never passed). Each test quotes the sentence it
checks, and drives the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.cthulhu import GAME
from bot.games.cthulhu.moves import PICK_ABYSS, PICK_DESTINATION, PICK_TELEPORTER
from bot.games.cthulhu.state import ABYSS, TELEPORT
from tests.test_cthulhu_rules import (
    ATTIC,
    AVIATOR,
    BALLROOM,
    CELLAR,
    CRYPT,
    DETECTIVE,
    HEIRESS,
    KITCHEN,
    LIBRARY,
    MEDIUM,
    PAINTER,
    PROFESSOR,
    SAILOR,
    STUDY,
    arrange,
    assert_portals_conserved,
    choose,
    fight,
    move,
)


def test_a_player_may_move_a_character_that_is_not_theirs() -> None:
    """'Move a character, through a passageway, into an adjacent room. NOTE: It does not
    have to be one of your own characters'. Alice holds the Professor and the Heiress;
    she moves Bob's Medium."""
    state = arrange(secrets=[[PROFESSOR, HEIRESS], [MEDIUM, DETECTIVE], [SAILOR, AVIATOR]])
    target = state.neighbours(CELLAR)[0]
    new, _ = GAME.apply(state, 0, move(MEDIUM, target))
    assert new.location[MEDIUM] == target and new.turn == 1


def test_a_fight_may_remove_the_fighters_own_character() -> None:
    """'Start a fight, in a room containing at least two characters. Pick one of those
    characters and remove them from the house!' Any of them: Alice may throw out her
    own Professor (a bluff the rulebook's tip invites)."""
    state = arrange(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY, HEIRESS: ATTIC,
                           DETECTIVE: CELLAR},
                    secrets=[[PROFESSOR, HEIRESS], [MEDIUM, DETECTIVE], [SAILOR, AVIATOR]])
    offered = {o.action.args["remove"] for o in GAME.options(state, 0)
               if o.action.kind == "fight"}
    assert offered == {PROFESSOR, MEDIUM}
    new, _ = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    assert new.location[PROFESSOR] is None and new.removed[-1] == PROFESSOR


def test_a_fight_without_portals_in_its_room_flips_none() -> None:
    """'If you Start a fight in a room containing one or more portals, after the fight is
    resolved, you must flip over one of the portals in the room': a fight in a room
    without any flips nothing, and the portals elsewhere stay as they lay."""
    portals = {CELLAR: [ABYSS], ATTIC: [TELEPORT], CRYPT: [TELEPORT]}
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR,
                           DETECTIVE: ATTIC}, portals=portals)
    new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is None and not any(e.kind == "portal" for e in events)
    assert new.room_portals == state.room_portals and new.reserve == state.reserve


def test_only_the_fights_room_flips_a_portal() -> None:
    """'you must flip over one of the portals in the room' ... 'After resolving the effect
    of a revealed portal, shuffle it with the other 3 portals that are next to the house
    and draw a new one, placing it back in the same room (face down).' An abyss in the
    Library: the Library still holds one portal, the Cellar's and the Attic's are
    untouched, three lie beside the house."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR,
                           DETECTIVE: ATTIC},
                    portals={LIBRARY: [ABYSS], CELLAR: [TELEPORT], ATTIC: [ABYSS]})
    new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    flips = [e.data for e in events if e.kind == "portal" and "portal" in e.data]
    assert flips == [{"room": LIBRARY, "portal": ABYSS}]
    assert len(new.room_portals[LIBRARY]) == 1 and len(new.reserve) == 3
    assert new.room_portals[CELLAR] == [TELEPORT] and new.room_portals[ATTIC] == [ABYSS]
    assert_portals_conserved(new)


def test_a_carrier_adds_its_portals_to_those_of_the_room_it_enters() -> None:
    """'If a character Moves out of a room containing one or more portals, it must take
    all of those portals with them.' Into a room that has one already, both lie there;
    the room left keeps none."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: ATTIC, MEDIUM: CELLAR},
                    portals={LIBRARY: [ABYSS, TELEPORT], STUDY: [ABYSS]})
    assert STUDY in state.neighbours(LIBRARY)
    new, _ = GAME.apply(state, 0, move(PROFESSOR, STUDY))
    assert new.room_portals[LIBRARY] == []
    assert Counter(new.room_portals[STUDY]) == Counter({ABYSS: 2, TELEPORT: 1})
    assert_portals_conserved(new)


def test_a_teleport_may_reach_any_other_room_and_only_from_the_fight() -> None:
    """'Teleport portal: You may immediately move a character in the room to any other
    room in the house'. The characters offered are those left in the fight's room (not
    the one just thrown out); the rooms, all eleven others, passage or not."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR}, portals={LIBRARY: [TELEPORT]})
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is not None and new.pending.kind == PICK_TELEPORTER
    assert new.pending.payload["candidates"] == [PROFESSOR, MEDIUM]
    new, _ = GAME.apply(new, 0, choose(1))
    assert new.pending is not None and new.pending.kind == PICK_DESTINATION
    targets = new.pending.payload["targets"]
    assert sorted(targets) == [r for r in range(12) if r != LIBRARY]
    far = next(r for r in targets if r not in state.neighbours(LIBRARY))
    new, _ = GAME.apply(new, 0, choose(targets.index(far)))
    assert new.location[MEDIUM] == far and new.pending is None and new.turn == 1


def test_the_abyss_takes_a_different_character() -> None:
    """'Abyss portal: The character that was just removed goes back to the room, and the
    active player chooses a different character in the room to be removed from the
    house.' The one the fight threw out is not among the choices, and comes back."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: LIBRARY, SAILOR: CELLAR}, portals={LIBRARY: [ABYSS]})
    new, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    assert new.pending is not None and new.pending.kind == PICK_ABYSS
    assert new.pending.payload["candidates"] == [PROFESSOR, HEIRESS, DETECTIVE]
    assert new.location[MEDIUM] == LIBRARY
    new, _ = GAME.apply(new, 0, choose(2))
    assert new.location[DETECTIVE] is None and new.removed[-1] == DETECTIVE
    assert new.location[MEDIUM] == LIBRARY and MEDIUM not in new.removed


def test_a_seat_whose_characters_left_first_and_second_scores_nothing() -> None:
    """'The characters that left the house first and second score 0 points, the third
    scores 1, the fourth 2, and so on.' Cara's two left first and second: 0; Bob's
    better one left tenth: 8; Alice's lasted: 10."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY},
                    removed=[SAILOR, AVIATOR, 2, 3, 5, 6, 7, 8, 10, 11],
                    secrets=[[PROFESSOR, 6], [HEIRESS, 11], [SAILOR, AVIATOR]])
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.results[0].points == [10, 9, 0]
    state.removed = [SAILOR, AVIATOR, 2, 3, 5, 6, 7, 8, HEIRESS, 10]
    state.location[HEIRESS], state.location[11] = None, LIBRARY
    state.secrets = [[PROFESSOR, 6], [8, PAINTER], [SAILOR, AVIATOR]]
    new, _ = GAME.apply(state, 0, fight(LIBRARY, PAINTER))
    assert new.results[0].removed[-1] == PAINTER and new.results[0].points == [10, 9, 0]


def test_a_turn_is_a_move_or_a_fight_and_never_a_pass() -> None:
    """'During their turn, a player must perform one of the following actions: 1. Move a
    character ... OR 2. Start a fight'. The active seat is offered only moves and fights,
    always at least one, and anything else is refused."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: BALLROOM,
                           DETECTIVE: KITCHEN, SAILOR: STUDY})
    kinds = {o.action.kind for o in GAME.options(state, 0)}
    assert kinds == {"move", "fight"}
    for kind in ("pass", "end_turn", "choose"):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, Action(kind, {"pick": 0}))
    assert GAME.options(state, 1) == []


def test_characters_together_may_not_move_even_out_of_a_crowd() -> None:
    """'you can only move characters that begin the turn alone in a room.' Neither of
    two characters sharing a room is offered a move; a lone one in the same house is."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR})
    movers = {o.action.args["character"] for o in GAME.options(state, 0)
              if o.action.kind == "move"}
    assert movers == {MEDIUM}
    for c in (PROFESSOR, HEIRESS):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, move(c, state.neighbours(LIBRARY)[0]))
