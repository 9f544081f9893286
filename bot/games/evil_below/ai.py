"""The AI teammate: a careful friend at the table, not a racer.

It decides from its seat's view (knowledge.py), handed to it by the game: what anyone
at the table could know, the Fight Stack's unseen cards dealt anew; it never draws
from the game's Rng. On its turn it puts totems into the Fight
Stack wherever it can, spends its dice where they help most (rescue where victims run
low, Bravery when someone is shaky, cards to feed the Fight Stack, moves toward where
its cards or a fight are), and fights only with a healthy stack and a friend beside it.
In a fight it reveals while the next card is worth more than it risks. Out of turn it
rides a Bike to make up a fight and slips in cards (Eddie, a rider).
"""

from __future__ import annotations

from collections import deque
from functools import cache

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.rng import Rng
from bot.core.views import require_view
from bot.games.evil_below import (
    abilities,
    actions,
    attacks,
    content,
    effects,
    fight,
    weaknesses,
)
from bot.games.evil_below.content import HAND, HEART
from bot.games.evil_below.state import ACTIONS, FIGHT, ROLL, EvilBelowState

# Weights, tuned with bench/evil_below_balance.py.
PLACE_NEAR = 3.0  # a card in hand, by how close its location is
RESCUE_BASE = 5.0
DRAW_VALUE = 3.5
BIKE_VALUE = 1.5
FIGHT_SPOT = 6.0  # standing where a fight can happen
MIN_TOTEMS = 9  # totems in the stack before a fight is worth it
GOOD_STACK = 0.7  # share of totems that makes a fight worth starting
FLUSH_AT = 8  # attack cards in the stack that make a fight necessary anyway
PLAN_DEPTH = 4  # steps of a turn planned ahead
MOVE_COST = 0.3  # a small price on each move, so a plan does not wander
LOOKAHEAD = 4  # cards a fighter thinks ahead
SAMPLES = 24  # draws sampled for each look


@cache
def distances() -> tuple[tuple[int, ...], ...]:
    board = content.board()
    count = len(board.keys)
    table = []
    for start in range(count):
        dist = [99] * count
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in board.neighbours(here):
                if dist[there] > dist[here] + 1:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        table.append(tuple(dist))
    return tuple(table)


def _first(state: EvilBelowState, seat: int, kind: str) -> Action | None:
    return next((f.action for f in actions.legal(state, seat) if f.action.kind == kind), None)


def choose(state: EvilBelowState, seat: int) -> Action:
    """The acting seat's action (the active player, or the one making a choice), from
    the seat's view (knowledge.py)."""
    require_view(state)
    if state.pending is not None:
        return Action(CHOOSE, {"pick": _pick(state)})
    place = _first(state, seat, actions.PLACE)
    if place is not None:
        return place
    if state.phase == ROLL:
        return Action(actions.ROLL_K)
    if state.phase == FIGHT:
        return _fight_step(state, seat)
    assert state.phase == ACTIONS
    return _turn_step(state, seat)


def offer(state: EvilBelowState, seat: int) -> Action | None:
    """An out-of-turn action worth taking now, or None, from the seat's view."""
    require_view(state)
    if state.over or state.pending is not None or seat == state.turn:
        return None
    place = _first(state, seat, actions.PLACE)
    if place is not None:
        return place
    hero = state.heroes[seat]
    active = state.heroes[state.turn]
    if (hero.bike and state.phase == ACTIONS and active.location == state.pennywise
            and hero.location != active.location and len(state.at(active.location)) == 1
            and stack_is_good(state)):
        return Action(actions.RIDE, {"to": active.location})
    return None


# ---------------------------------------------------------------- choices

def _pick(state: EvilBelowState) -> int:
    pending = state.pending
    assert pending is not None
    targets = pending.payload["targets"]
    if pending.kind == attacks.PICK_BRAVERY:
        return max(range(len(targets)), key=lambda i: state.heroes[int(targets[i])].bravery)
    if pending.kind == attacks.PICK_DISCARD:
        def useless(i: int) -> int:
            seat, card = targets[i]
            here = state.heroes[int(seat)].location
            return distances()[here][content.card_location(int(card))]
        return max(range(len(targets)), key=useless)
    # Pennywise's tie: where he can be fought soonest.
    me = state.heroes[state.turn].location

    def fightable(i: int) -> tuple[int, int]:
        where = int(targets[i])
        return (len(state.at(where)), -distances()[me][where])
    return max(range(len(targets)), key=fightable)


# ---------------------------------------------------------------- fights

def attacks_in(state: EvilBelowState) -> int:
    return sum(1 for c in state.fight_stack if content.is_attack(c))


def stack_is_good(state: EvilBelowState) -> bool:
    size = len(state.fight_stack)
    if not size:
        return False
    share = (size - attacks_in(state)) / size
    return (share >= GOOD_STACK and size - attacks_in(state) >= MIN_TOTEMS) \
        or attacks_in(state) >= FLUSH_AT


def _value(state: EvilBelowState, revealed: list[int]) -> int:
    return sum(content.weakness(k).reward for k in fight.face_up(state)
               if weaknesses.met(k, revealed))


def _counter_cost(state: EvilBelowState) -> float:
    assert state.fight is not None
    lines = attacks.lines_showing(state.missing(state.fight.location))
    shaky = any(state.heroes[s].bravery <= lines for s in state.at(state.fight.location))
    return 0.6 * lines + (3.0 if shaky else 0.0)


def stack_totems(state: EvilBelowState) -> tuple[list[int], int, list[int]]:
    """What a seat knows of the totems in the Fight Stack: those it saw go in, how many
    went in unseen (the six of setup), and the cards those may be (every totem it has
    not seen elsewhere: these and the totem deck)."""
    hidden = set(state.stack_hidden)
    totems = [c for c in state.fight_stack if not content.is_attack(c)]
    unseen = sorted(c for c in totems if c in hidden)
    return sorted(c for c in totems if c not in hidden), len(unseen), sorted(
        [*state.totem_deck, *unseen])


def _draw(sampler: Rng, known: list[int], unseen: int, pool: list[int], k: int) -> list[int]:
    """k totems off the stack as the seat can imagine them: each unseen one drawn from
    the cards it may be."""
    slots = sampler.sample([*known, *[-1] * unseen], k)
    blanks = slots.count(-1)
    guesses = iter(sampler.sample(pool, blanks)) if blanks else iter(())
    return [c if c >= 0 else next(guesses) for c in slots]


def reveal_worth(state: EvilBelowState) -> float:
    """How much better it is to go on than to stop now: for k more cards (k up to
    LOOKAHEAD), what the fight is worth if none of them is an attack, times the odds
    of that, less the counterattack otherwise. One card rarely meets a weakness alone,
    so looking one card ahead would always stop. The totems are imagined from what the
    seat knows (`stack_totems`), with an Rng of the AI's own, never the game's."""
    f = state.fight
    assert f is not None
    cost = _counter_cost(state)
    now = _value(state, f.revealed)
    known, unseen, pool = stack_totems(state)
    count = len(known) + unseen
    size = len(state.fight_stack)
    sampler = Rng(len(f.revealed) * 1000 + size * 31 + count)
    best = -cost
    for k in range(1, min(LOOKAHEAD, count) + 1):
        safe = 1.0
        for i in range(k):
            safe *= (count - i) / (size - i)
        worth = 0.0
        for _ in range(SAMPLES):
            drawn = _draw(sampler, known, unseen, pool, k)
            worth += _value(state, [*f.revealed, *drawn]) + content.special_reward() * sum(
                1 for c in drawn if content.specials().get(c) and _present(state, c))
        best = max(best, safe * worth / SAMPLES - (1 - safe) * cost)
    return best - now


def _present(state: EvilBelowState, card: int) -> bool:
    return abilities.special_bonus(state, card) is not None


def _fight_step(state: EvilBelowState, seat: int) -> Action:
    f = state.fight
    assert f is not None
    mike = _first(state, seat, actions.MIKE)
    if mike is not None:
        return mike
    if f.from_stack() < 1:
        return Action(actions.REVEAL)  # seed 001: at least one card from the stack
    if not state.fight_stack:
        return Action(actions.STOP)
    peek = _first(state, seat, actions.PEEK)
    if peek is not None:
        return peek
    if f.peek_at == len(f.revealed):  # Stan's look showed the very next card
        top = state.fight_stack[-1]
        return Action(actions.STOP if content.is_attack(top) else actions.REVEAL)
    return Action(actions.REVEAL if reveal_worth(state) > 0 else actions.STOP)


# ---------------------------------------------------------------- turns

def _rescue_value(state: EvilBelowState, where: int) -> float:
    """A rescue empties a space of the track, but taking a child off an attack space
    only lets the next child trigger that attack again: worth it then only to save a
    location about to be emptied."""
    if not state.track or not 0 < state.remaining(where) < len(state.circles[where]):
        return 0.0
    saves = 2.0 * (len(state.circles[where]) - state.remaining(where))
    board = content.board()
    if len(state.track) in board.influence_attacks \
            and len(state.track) < board.influence_length - 3:
        return saves - 2.0
    return RESCUE_BASE + saves + len(state.track) / 2


def _bravery_value(state: EvilBelowState, where: int, seat: int | None = None) -> float:
    """Courage for everyone there (the planner's own Loser too, once it arrives)."""
    there = set(state.at(where)) | ({seat} if seat is not None else set())
    return sum(3.0 * (5 - b) if (b := state.heroes[s].bravery) <= 3 else 0.0 for s in there)


def _draw_value(state: EvilBelowState, seat: int) -> float:
    limit = abilities_hand_room(state, seat)
    return DRAW_VALUE if limit else 0.0


def abilities_hand_room(state: EvilBelowState, seat: int) -> bool:
    limit = effects.hand_limit(state, seat)
    return limit is None or len(state.heroes[seat].hand) < limit


def _turn_step(state: EvilBelowState, seat: int) -> Action:
    legal = actions.legal(state, seat)
    kinds = {f.action.kind: f.action for f in legal}
    hero = state.heroes[seat]
    if actions.RICHIE in kinds and len(state.at(hero.location)) >= 2 and stack_is_good(state):
        return kinds[actions.RICHIE]
    ride = _ride_to_fight(state, seat)
    if ride is not None:
        return ride
    dice = [d for d, used in enumerate(state.dice_used) if not used and state.dice[d]]
    if not (fight.can_fight(state) and _fight_now(state, dice)):
        worth, first = _plan(state, seat, hero.location, tuple(dice),
                             frozenset(state.acted), frozenset(), PLAN_DEPTH)
        stay = _end_value(state, seat, hero.location)
        if first is not None and worth > stay:
            return first
    if actions.FIGHT_K in kinds and stack_is_good(state):
        return kinds[actions.FIGHT_K]
    return Action(actions.END_TURN)


def _end_value(state: EvilBelowState, seat: int, where: int) -> float:
    """What standing here is worth when the dice are spent: near the cards in hand,
    and beside Pennywise with a friend when the stack is ready."""
    hero = state.heroes[seat]
    near = distances()[where]
    value = sum(PLACE_NEAR / (2 + near[content.card_location(c)]) for c in hero.hand)
    if state.pennywise == where and stack_is_good(state):
        value += FIGHT_SPOT if [s for s in state.at(where) if s != seat] else FIGHT_SPOT / 3
    return value


def _plan(state: EvilBelowState, seat: int, where: int, dice: tuple[int, ...],
          acted: frozenset[int], placed: frozenset[int],
          depth: int) -> tuple[float, Action | None]:
    """The best worth reachable with the dice left (a few steps deep), and the first
    action toward it. Moves spend the die least likely to be wanted later (the one of
    the farthest location); the values are read from the real state, not updated."""
    hand = state.heroes[seat].hand
    gain = sum(PLACE_NEAR for c in hand if c not in placed
               and content.card_location(c) == where)
    placed = placed | {c for c in hand if content.card_location(c) == where}
    best: tuple[float, Action | None] = (gain + _end_value(state, seat, where), None)
    if depth == 0 or not dice:
        return best
    if where in dice and where not in acted:
        rest = tuple(d for d in dice if d != where)
        for value, action in _local(state, seat, where):
            worth, _ = _plan(state, seat, where, rest, acted | {where}, placed, depth - 1)
            if gain + value + worth > best[0]:
                best = (gain + value + worth, action)
    near = distances()[where]
    die = max(dice, key=lambda d: (near[d], d != where, d))
    rest = tuple(d for d in dice if d != die)
    for to in content.board().neighbours(where):
        worth, _ = _plan(state, seat, to, rest, acted, placed, depth - 1)
        if gain + worth - MOVE_COST > best[0]:
            best = (gain + worth - MOVE_COST, Action(actions.MOVE, {"die": die, "to": to}))
    return best


def _local(state: EvilBelowState, seat: int, where: int) -> list[tuple[float, Action]]:
    """The worthwhile actions the die of this location offers here."""
    face = state.dice[where]
    found: list[tuple[float, Action]] = []
    if face == HEART:
        rescue = _rescue_value(state, where)
        if rescue > 0:
            found.append((rescue, Action(actions.COURAGE, {"die": where,
                                                           "what": actions.RESCUE})))
        found.append((_bravery_value(state, where, seat),
                      Action(actions.COURAGE, {"die": where, "what": actions.BRAVERY})))
    elif face == HAND:
        if _draw_value(state, seat) and (state.totem_deck or state.totem_discard):
            found.append((_draw_value(state, seat),
                          Action(actions.PICKUP, {"die": where, "what": actions.DRAW})))
        if state.bikes[where] and not state.heroes[seat].bike:
            found.append((BIKE_VALUE, Action(actions.PICKUP, {"die": where,
                                                              "what": actions.BIKE})))
    return [(v, a) for v, a in found if v > 0]


def _fight_now(state: EvilBelowState, dice: list[int]) -> bool:
    """Fight before spending dice only when the dice could do nothing here anyway."""
    return stack_is_good(state) and not any(d == state.heroes[state.turn].location
                                            for d in dice)


def _ride_to_fight(state: EvilBelowState, seat: int) -> Action | None:
    hero = state.heroes[seat]
    target = state.pennywise
    if not hero.bike or target < 0 or hero.location == target or not stack_is_good(state):
        return None
    if [s for s in state.at(target) if s != seat]:
        return Action(actions.RIDE, {"to": target})
    return None
