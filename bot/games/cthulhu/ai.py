"""The AI for Cthulhu in the House: plays for one "keeper" and uses the other as cover.

Only the better of a seat's two characters scores, so the AI backs one of them (the
keeper) and treats the other (the decoy) much like a stranger: it will expose the decoy
or throw it out, so watching which characters it protects does not give both away.
Each action is scored (keep the keeper out of crowded rooms, prefer fights that put
others out over shuffling, fear an abyss only where it could swallow the keeper) plus
seeded noise. It decides from its seat's view (knowledge.py): the others' secrets and
the portals dealt anew, and an Rng of the view's own, from which the noise is drawn, so
the AI is deterministic for what its seat knows and never draws from the game's Rng.

A rumble only ends through fights, so when no fight is available a move is also
scored by how much closer it brings the moved character to the others (shortest paths
over the passages, see `gathering`): the AI herds strangers and its decoy together and
walks its keeper towards company more reluctantly. In that score a step closer always
beats a step away by more than the noise, so lone characters close in instead of
wandering back and forth. The keeper only walks (or lets a stranger walk) into
company, where the next player could throw it out, when nothing else would make
progress; even then the exposure still counts, just for less.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.rng import Rng
from bot.core.views import require_view
from bot.games.cthulhu.knowledge import own_salt
from bot.games.cthulhu.moves import (
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
GATHER = 1.0  # per step a move brings a stranger (or the decoy) closer to a stranger
KEEPER_GATHER = 0.6  # the same for steps that bring the keeper and company closer
RETREAT = 2.0  # per step away, whoever the partner: a step closer always beats one away
HUDDLE = 0.25  # at most, for closing in on everyone at once rather than on one partner
ONLY_WAY = 0.25  # share of the exposure still feared when only exposing moves progress


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

    While both are in the house the keeper is picked by a hash fixed for the rumble
    (salted with the seat's own salt, or its pair would name its keeper), so the AI does
    not change its mind between turns. Once one is out, the one still in the house is
    the keeper: it will leave later, so it scores at least as much.
    """
    pair = state.secrets[seat]
    inside = [c for c in pair if state.location[c] is not None]
    if len(inside) == 2:
        salt = own_salt(state, seat)
        first = Rng.from_seed(
            f"keeper:{seat}:{salt}:{state.rumble}:{pair[0]}:{pair[1]}").below(2)
        return pair[first], pair[1 - first]
    if len(inside) == 1:
        return inside[0], next(c for c in pair if c != inside[0])
    return None, None


def choose_action(state: CthulhuState, seat: int) -> Action:
    """A legal action for `seat`, which must be the seat the game waits for, decided
    from the seat's view."""
    require_view(state)
    mind = _mind(state, seat)
    if state.pending is not None:
        return Action(CHOOSE, {"pick": _choose_pick(state, mind)})
    fights = legal_fights(state)
    distance = distances(state)
    # Closing in only matters while there is no fight to start: a fight is progress.
    moves = [(c, r, 0.0 if fights else gathering(state, mind, distance, c, r))
             for c, r in legal_moves(state)]
    # With no fight to start and no step closer that keeps the keeper out of company,
    # stalling would be the only alternative: then progress may expose the keeper.
    only_way = not fights and not any(
        gain > 0 and not _keeper_exposed(state, mind, c, r) for c, r, gain in moves)
    actions: list[tuple[Action, float]] = [
        (Action(MOVE, {"character": c, "room": r}),
         _move_value(state, mind, c, r, gain, only_way and gain > 0))
        for c, r, gain in moves]
    actions += [(Action(FIGHT, {"room": r, "remove": c}), _fight_value(state, mind, r, c))
                for r, c in fights]
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


Table = tuple[tuple[int, ...], ...]


TABLES_KEPT = 64  # distance tables kept: built-in houses share one each, random ones don't


@lru_cache(maxsize=TABLES_KEPT)
def _distance_table(rooms: int, passages: tuple[tuple[int, int], ...]) -> Table:
    """Shortest path lengths between all rooms; `rooms` stands for "unreachable".
    Kept per house (the key is the house itself), but only so many: every random
    house is new, and one process plays many games."""
    links: list[list[int]] = [[] for _ in range(rooms)]
    for a, b in passages:
        links[a].append(b)
        links[b].append(a)
    table = []
    for start in range(rooms):
        row = [rooms] * rooms
        row[start] = 0
        queue = deque([start])
        while queue:
            room = queue.popleft()
            for there in links[room]:
                if row[there] == rooms:
                    row[there] = row[room] + 1
                    queue.append(there)
        table.append(tuple(row))
    return tuple(table)


def distances(state: CthulhuState) -> Table:
    """distances(state)[a][b]: how many moves lead from room a to room b."""
    return _distance_table(len(state.rooms), tuple((a, b) for a, b in state.passages))


def gathering(state: CthulhuState, mind: Mind, distance: Sequence[Sequence[int]], c: int,
              target: int) -> float:
    """How much closer moving `c` to `target` brings it to its nearest partner, weighted.

    A stranger's (or the decoy's) partners are the other characters but the keeper: the
    AI wants those to meet and fight. The keeper's partners, or a stranger's when only
    the keeper is left to meet, are everyone, at the keeper's more reluctant weight.
    A step away costs RETREAT whoever the partner is. A small HUDDLE term (the mean
    change of distance to everyone) breaks ties, so two seats pulling one stranger
    to and fro between their favourite partners give way to moves that close in on all.
    Worst step closer: KEEPER_GATHER - HUDDLE; best step away: HUDDLE - RETREAT; they are
    more than NOISE apart.
    """
    source = state.location[c]
    assert source is not None, "only characters in the house move"
    others = [x for x in state.remaining() if x != c]
    strangers = [x for x in others if x != mind.keeper]
    partners, weight = (strangers, GATHER) if c != mind.keeper and strangers \
        else (others, KEEPER_GATHER)
    if not partners:
        return 0.0
    rooms = [state.location[x] for x in partners]
    before = min(distance[source][r] for r in rooms if r is not None)
    after = min(distance[target][r] for r in rooms if r is not None)
    everyone = [r for r in (state.location[x] for x in others) if r is not None]
    huddle = sum(distance[source][r] - distance[target][r] for r in everyone) / len(everyone)
    return (weight if after <= before else RETREAT) * (before - after) + HUDDLE * huddle


def _keeper_exposed(state: CthulhuState, mind: Mind, c: int, target: int) -> bool:
    """Whether the keeper ends this move in company, where the next player can fight."""
    return mind.keeper is not None and _crowd_after_move(state, mind.keeper, c, target) >= 2


def _crowd_after_move(state: CthulhuState, who: int, c: int, target: int) -> int:
    """How many characters share `who`'s room once `c` has moved to `target`."""
    room = target if who == c else state.location[who]
    assert room is not None, "only characters in the house are weighed"
    return sum(1 for x in state.in_room(room) if x != c) + (room == target)


def _exposure(mind: Mind, crowd_after: int) -> float:
    return -mind.stake * EXPOSED if crowd_after >= 2 else 0.0


def _move_value(state: CthulhuState, mind: Mind, c: int, target: int, gain: float,
                only_way: bool) -> float:
    """`gain` is the move's `gathering`; `only_way`: nothing safer makes progress."""
    value = SETUP_BONUS if state.in_room(target) and c != mind.keeper else 0.0
    value += gain
    if mind.keeper is not None:
        exposure = _exposure(mind, _crowd_after_move(state, mind.keeper, c, target))
        value += exposure * ONLY_WAY if only_way else exposure
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
