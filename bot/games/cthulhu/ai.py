"""The AI for Cthulhu in the House: plays for one "keeper" and uses the other as cover.

Only the better of a seat's two characters scores, so the AI backs one of them (the
keeper) and treats the other (the decoy) much like a stranger: it will expose the decoy
or throw it out, so watching which characters it protects does not give both away.
Each action is scored (keep the keeper out of crowded rooms, prefer fights that put
others out over shuffling, fear an abyss only where it could swallow the keeper) plus
seeded noise. The noise comes from an Rng derived from the state and the seat, so the
AI is deterministic for a given state and never draws from the game's own Rng.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.rng import Rng
from bot.games.cthulhu.rules import (
    FIGHT,
    MOVE,
    PICK_ABYSS,
    PICK_DESTINATION,
    PICK_TELEPORTER,
    legal_fights,
    legal_moves,
    removal_points,
)
from bot.games.cthulhu.state import LAST_STANDING_POINTS, CthulhuState

T = TypeVar("T")

FIGHT_BONUS = 3.0  # throwing someone out beats wandering about
SETUP_BONUS = 1.0  # bringing two strangers together invites the next fight
EXPOSED = 0.8  # share of the stake lost when the keeper ends the turn in company
ABYSS_RISK = 0.5  # chance, unseen, that a portal is an abyss
WIN_BONUS = 100.0
NEVER = -1000.0
NOISE = 2.0
DECOY_GUARD_CHANCE = 0.3  # how often the decoy is shielded a little, as a bluff


@dataclass(frozen=True)
class Mind:
    """What the AI brings to one decision: whom it plays for, and its mood this time."""

    keeper: int | None
    decoy: int | None
    stake: float  # what the keeper would lose by going out next
    decoy_bias: float  # added to throwing out its own decoy: sometimes it does
    guard_decoy: bool  # this time, keep the decoy out of crowds too
    rng: Rng


def keeper_and_decoy(state: CthulhuState, seat: int) -> tuple[int | None, int | None]:
    """The character this seat plays for, and the other one.

    While both are in the house the keeper is picked by a hash fixed for the rumble, so
    the AI does not change its mind between turns. Once one is out, the one still in
    the house is the keeper: it will leave later, so it scores at least as much.
    """
    pair = state.secrets[seat]
    inside = [c for c in pair if state.location[c] is not None]
    if len(inside) == 2:
        first = Rng.from_seed(f"keeper:{seat}:{state.rumble}:{pair[0]}:{pair[1]}").below(2)
        return pair[first], pair[1 - first]
    if len(inside) == 1:
        return inside[0], next(c for c in pair if c != inside[0])
    return None, None


def choose_action(state: CthulhuState, seat: int) -> Action:
    """A legal action for `seat`, which must be the seat the game waits for."""
    mind = _mind(state, seat)
    if state.pending is not None:
        return Action(CHOOSE, {"pick": _choose_pick(state, mind)})
    actions: list[tuple[Action, float]] = [
        (Action(MOVE, {"character": c, "room": r}), _move_value(state, mind, c, r))
        for c, r in legal_moves(state)]
    actions += [(Action(FIGHT, {"room": r, "remove": c}), _fight_value(state, mind, r, c))
                for r, c in legal_fights(state)]
    return _best(mind.rng, actions)


def _mind(state: CthulhuState, seat: int) -> Mind:
    pending = state.pending.kind if state.pending else ""
    rng = Rng.from_seed(f"ai:{state.rng.state}:{seat}:{state.rumble}:{state.turns_played}:"
                        f"{len(state.removed)}:{pending}")
    keeper, decoy = keeper_and_decoy(state, seat)
    stake = LAST_STANDING_POINTS - removal_points(len(state.removed) + 1)
    return Mind(keeper, decoy, float(stake), decoy_bias=-2.5 + 3.5 * rng.random(),
                guard_decoy=rng.random() < DECOY_GUARD_CHANCE, rng=rng)


def _best(rng: Rng, scored: Sequence[tuple[T, float]]) -> T:
    """The highest value after noise; the noise is what keeps the AI unreadable."""
    noisy = [(value + NOISE * rng.random(), i) for i, (_, value) in enumerate(scored)]
    return scored[max(noisy)[1]][0]


def _crowd_after_move(state: CthulhuState, who: int, c: int, target: int) -> int:
    """How many characters share `who`'s room once `c` has moved to `target`."""
    room = target if who == c else state.location[who]
    assert room is not None, "only characters in the house are weighed"
    return sum(1 for x in state.in_room(room) if x != c) + (room == target)


def _exposure(mind: Mind, crowd_after: int) -> float:
    return -mind.stake * EXPOSED if crowd_after >= 2 else 0.0


def _move_value(state: CthulhuState, mind: Mind, c: int, target: int) -> float:
    value = SETUP_BONUS if state.in_room(target) and c != mind.keeper else 0.0
    if mind.keeper is not None:
        value += _exposure(mind, _crowd_after_move(state, mind.keeper, c, target))
    if mind.guard_decoy and mind.decoy is not None and state.location[mind.decoy] is not None \
            and _crowd_after_move(state, mind.decoy, c, target) >= 2:
        value -= 0.3 * mind.stake
    return value


def _fight_value(state: CthulhuState, mind: Mind, room: int, victim: int) -> float:
    keeper = mind.keeper
    if victim == keeper:
        return NEVER
    value = FIGHT_BONUS
    if victim == mind.decoy:
        value += mind.decoy_bias
    if keeper is None:
        return value
    here = state.in_room(room)
    # An abyss in a room of two would take the keeper instead; with three or more
    # the AI itself picks the replacement.
    risk = ABYSS_RISK if keeper in here and len(here) == 2 and state.room_portals[room] else 0.0
    if len(state.remaining()) == 2:
        value += WIN_BONUS * (1.0 - risk)
    value -= risk * mind.stake
    keeper_room = state.location[keeper]
    assert keeper_room is not None, "a keeper is always in the house"
    return value + _exposure(mind, sum(1 for x in state.in_room(keeper_room) if x != victim))


def _choose_pick(state: CthulhuState, mind: Mind) -> int:
    pending = state.pending
    assert pending is not None
    payload = pending.payload
    if pending.kind == PICK_ABYSS:
        candidates = [int(c) for c in payload["candidates"]]
        return _best(mind.rng, [(i, _victim_value(mind, c)) for i, c in enumerate(candidates)])
    if pending.kind == PICK_TELEPORTER:
        candidates = [int(c) for c in payload["candidates"]]
        room = int(payload["room"])
        scored = [(i, _teleporter_value(state, mind, room, c)) for i, c in enumerate(candidates)]
        return _best(mind.rng, [*scored, (len(candidates), 0.5)])
    if pending.kind == PICK_DESTINATION:
        c = int(payload["character"])
        targets = [int(r) for r in payload["targets"]]
        return _best(mind.rng, [(i, _destination_value(state, mind, c, r))
                                for i, r in enumerate(targets)])
    return 0


def _victim_value(mind: Mind, c: int) -> float:
    if c == mind.keeper:
        return NEVER
    return mind.decoy_bias if c == mind.decoy else 0.0


def _teleporter_value(state: CthulhuState, mind: Mind, room: int, c: int) -> float:
    keeper = mind.keeper
    crowd = len(state.in_room(room))
    if keeper is None or state.location[keeper] != room:
        return SETUP_BONUS  # send a stranger off to start trouble elsewhere
    if crowd == 1:
        return -SETUP_BONUS  # the keeper is alone here already
    if c == keeper or crowd == 2:  # either way the keeper ends up alone
        return mind.stake * EXPOSED
    return SETUP_BONUS


def _destination_value(state: CthulhuState, mind: Mind, c: int, target: int) -> float:
    crowd = len(state.in_room(target)) + 1
    keeper = mind.keeper
    if keeper is not None and (c == keeper or state.location[keeper] == target):
        return _exposure(mind, crowd) + (SETUP_BONUS if crowd == 1 else 0.0)
    return SETUP_BONUS if crowd >= 2 else 0.0
