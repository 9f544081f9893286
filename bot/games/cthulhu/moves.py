"""Cthulhu in the House (seed 002): the actions' names, which are legal, and what a
rumble scores, all pure.

Apart from rules.py (the Game) because the AI (ai.py) builds on these and rules.py asks
the AI for its moves: these sit below both.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.core.seats import clockwise_from, next_seat
from bot.games.cthulhu.state import LAST_STANDING_POINTS, CthulhuState

MOVE = "move"
FIGHT = "fight"

# PendingChoice kinds: what the engine does with the pick.
PICK_ABYSS = "abyss"
PICK_TELEPORTER = "teleport_who"
PICK_DESTINATION = "teleport_where"


# ---------------------------------------------------------------- scoring (pure)

def removal_points(position: int) -> int:
    """Points for the character that left the house `position`-th (1-based)."""
    return max(0, position - 2)


def rumble_points(removed: list[int], survivor: int, secrets: list[list[int]]) -> list[int]:
    """Each seat scores only its better character; the survivor's owner gets 10."""
    worth = {c: removal_points(i + 1) for i, c in enumerate(removed)}
    worth[survivor] = LAST_STANDING_POINTS
    return [max(worth.get(c, 0) for c in pair) for pair in secrets]


def next_starter(scores: list[int], previous: int) -> int:
    """Fewest points starts; RULING: ties go to the first tied seat clockwise after
    the previous starter (the previous starter itself comes last)."""
    low = min(scores)
    order = clockwise_from(next_seat(previous, len(scores)), len(scores))
    return next(seat for seat in order if scores[seat] == low)


def winners(scores: list[int]) -> list[int]:
    """RULING: everyone tied for the most points shares the win."""
    top = max(scores)
    return [seat for seat, points in enumerate(scores) if points == top]


# ---------------------------------------------------------------- legal actions (pure)

def is_alone(state: CthulhuState, character: int) -> bool:
    room = state.location[character]
    return room is not None and len(state.in_room(room)) == 1


def legal_moves(state: CthulhuState) -> list[tuple[int, int]]:
    """(character, room) for every character alone in its room, to each neighbour."""
    return [(c, room) for c in state.remaining() if is_alone(state, c)
            for room in state.neighbours(_where(state, c))]


def legal_fights(state: CthulhuState) -> list[tuple[int, int]]:
    """(room, character) for every character sharing its room with someone."""
    return [(room, c) for room in range(len(state.rooms))
            if len(here := state.in_room(room)) >= 2 for c in here]


def legal_actions(state: CthulhuState) -> list[Action]:
    """The active seat's legal actions when no choice is pending."""
    return ([Action(MOVE, {"character": c, "room": r}) for c, r in legal_moves(state)]
            + [Action(FIGHT, {"room": r, "remove": c}) for r, c in legal_fights(state)])


def _where(state: CthulhuState, character: int) -> int:
    room = state.location[character]
    assert room is not None, "character is out of the house"
    return room
