"""The AI teammate: a careful friend at the table, not a racer.

It decides from its seat's view (knowledge.py), handed to it by the game: what anyone
at the table could know, the Fight Stack's unseen cards dealt anew; it never draws
from the game's Rng. On its turn it puts totems into the Fight Stack wherever it can,
spends its dice where they help most (rescue where victims run low, Bravery when
someone is shaky, cards to feed the Fight Stack, moves toward where its cards or a
fight are), and fights with a friend beside it when the fight is worth seeking
(`stack_is_good`: a bigger table waits for a healthy stack, a small one takes any fight
that is not a bad bet). What a fight promises (`outlook`) is imagined from what the
seat knows of the Fight Stack: the totems it saw go in, the unseen ones drawn from the
cards they may be; a counterattack is weighed by the Bravery the Losers there can spare.
In a fight it reveals while the next card is worth more than it risks. Out of turn it
rides a Bike to make up a fight and slips in cards (Eddie, a rider).
"""

from __future__ import annotations

import math
from collections import deque
from functools import cache, lru_cache
from typing import Any

from bot.core.actions import Action
from bot.core.choices import CHOOSE
from bot.core.rng import Rng
from bot.core.views import require_view
from bot.games.evilbelow import (
    actions,
    attacks,
    content,
    effects,
    fight,
    sightings,
    weaknesses,
)
from bot.games.evilbelow.content import HAND, HEART
from bot.games.evilbelow.state import ACTIONS, FIGHT, ROLL, EvilBelowState

# Weights, tuned with bench/evil_below_balance.py.
PLACE_NEAR = 3.0  # a card in hand, by how close its location is
RESCUE_BASE = 5.0
DRAW_VALUE = 3.5
BIKE_VALUE = 1.5
FIGHT_SPOT = 6.0  # standing where a fight can happen
FIGHT_GAIN = -0.5  # below this (fight_gain, in Strength) a small table's fight is a bad bet
SMALL_TABLE = 3  # Losers at most at a table that takes any fight not a bad bet
MIN_TOTEMS = 9  # totems in the stack before a bigger table fights
GOOD_STACK = 0.7  # share of totems that makes a bigger table's stack healthy
FLUSH_AT = 8  # attack cards in the stack that make a fight necessary anyway
WIN_SHOT = 0.5  # a fight promising this share of the Strength still needed: any table
BRAVERY_COST = 0.5  # a point of Bravery lost, in Strength
CARD_COST = 0.25  # a totem lost from a hand or the Fight Stack, in Strength
LOSS_COST = 8.0  # a Loser falling: the game (more than the whole Strength track)
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
    if pending.kind == sightings.PICK_EDDIE:
        return 0  # as out of turn (`offer`): Eddie's allowance is always spent
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
    """Whether a fight where Pennywise stands is worth seeking now. Any fight flushes
    the Fight Stack once its attack cards pile up (FLUSH_AT), before they fill it. A
    bigger table can make up a fight whenever it likes, so it waits for a healthy stack
    (MIN_TOTEMS totems, GOOD_STACK of it), which meets weaknesses several at once. A
    small one (SMALL_TABLE Losers or fewer) rarely gets two of them beside Pennywise, so
    it takes any fight that is not a bad bet (`fight_gain` at least FIGHT_GAIN). Any
    table takes a fight that promises a good share of what is left to win (WIN_SHOT):
    waiting for a healthier stack only gives Pennywise more turns."""
    count = attacks_in(state)
    if count >= FLUSH_AT:
        return True
    if fight_gain(state) >= WIN_SHOT * strength_needed(state):
        return True  # a fight that may well end the game is not put off for a bigger one
    if len(state.players) <= SMALL_TABLE:
        return fight_gain(state) >= FIGHT_GAIN
    totems = len(state.fight_stack) - count
    return totems >= MIN_TOTEMS and totems / len(state.fight_stack) >= GOOD_STACK


def fight_gain(state: EvilBelowState) -> float:
    """What a fight where Pennywise stands promises, as the seat can imagine the Fight
    Stack (`outlook` from the first card); nothing where he cannot be fought. A turn's
    plan asks it of one view again and again: the last answer is kept (as one tuple,
    read once, so AI threads of other tables never see a half-written answer)."""
    last = _last_gain[0]
    if last is not None and last[0] is state:
        return float(last[1])
    where = state.pennywise
    gain = -math.inf
    if where >= 0 and any(not content.is_attack(c) for c in state.fight_stack):
        gain = outlook(state, where, [])
    _last_gain[0] = (state, gain)
    return gain


_last_gain: list[tuple[Any, float] | None] = [None]  # (the view, its fight_gain)


def strength_needed(state: EvilBelowState) -> int:
    """Spaces the Strength token still has to go: the most any fight is worth, since
    reaching the end wins the game (seed 001) and spaces beyond it buy nothing."""
    return content.board().strength_length - state.strength


def _value(state: EvilBelowState, revealed: list[int]) -> int:
    return _met(tuple(fight.face_up(state)), tuple(revealed))


def _met(weak: tuple[str, ...], revealed: tuple[int, ...]) -> int:
    """The Strength the face-up weaknesses `weak` pay for these revealed cards."""
    return sum(content.weakness(k).reward for k in weak if weaknesses.met(k, list(revealed)))


def counter_cost(state: EvilBelowState, where: int) -> float:
    """What a counterattack in this location costs, in Strength, over the attack cards
    it may be (for all the seat knows, any): its lines by the victims missing there,
    a point of Bravery or a card each, and the game itself if the Losers there cannot
    take its Bravery between them without one of them falling (the AI lays each point
    on whoever has the most, so they fall only once every spare point is gone)."""
    lines = attacks.lines_showing(state.missing(where))
    spare = sum(state.heroes[s].bravery - 1 for s in state.at(where))
    return _counter(lines, spare)


@cache
def _counter(lines: int, spare: int) -> float:
    cost = 0.0
    for card in content.attacks():
        effects_ = [(effect, n) for line in card.lines[:lines] for effect, n in line]
        bravery = sum(n for effect, n in effects_ if effect == attacks.BRAVERY)
        cards = sum(n for effect, n in effects_ if effect != attacks.BRAVERY)
        cost += BRAVERY_COST * bravery + CARD_COST * cards + (LOSS_COST if bravery > spare
                                                              else 0.0)
    return cost / len(content.attacks())


def stack_totems(state: EvilBelowState) -> tuple[list[int], int, list[int]]:
    """What a seat knows of the totems in the Fight Stack: those it saw go in, how many
    went in unseen (the six of setup), and the cards those may be (every totem it has
    not seen elsewhere: these and the totem deck)."""
    hidden = set(state.stack_hidden)
    totems = [c for c in state.fight_stack if not content.is_attack(c)]
    unseen = sorted(c for c in totems if c in hidden)
    return sorted(c for c in totems if c not in hidden), len(unseen), sorted(
        [*state.totem_deck, *unseen])


def _draw(sampler: Rng, known: tuple[int, ...], unseen: int, pool: tuple[int, ...],
          k: int) -> list[int]:
    """k totems off the stack as the seat can imagine them: each unseen one drawn from
    the cards it may be."""
    slots = _some(sampler, [*known, *[-1] * unseen], k)
    blanks = slots.count(-1)
    guesses = iter(_some(sampler, list(pool), blanks))
    return [c if c >= 0 else next(guesses) for c in slots]


def _some(sampler: Rng, items: list[int], k: int) -> list[int]:
    """k of `items` at random (they are shuffled in place only as far as needed)."""
    for i in range(k):
        j = i + sampler.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def outlook(state: EvilBelowState, where: int, revealed: list[int]) -> float:
    """What turning more cards promises in a fight here, `revealed` already up: the
    best, over k more cards (k up to LOOKAHEAD), of what the fight is worth if none of
    them is an attack times the odds of that, less the counterattack otherwise. One
    card rarely meets a weakness alone, so looking one card ahead would always stop.
    The totems are imagined from what the seat knows (`stack_totems`)."""
    known, unseen, pool = stack_totems(state)
    paying = frozenset(c for c, who in content.specials().items()
                       if (seat := state.seat_of(who)) is not None
                       and state.heroes[seat].location == where)
    return _outlook(tuple(revealed), tuple(known), unseen, tuple(pool),
                    len(state.fight_stack), tuple(fight.face_up(state)), paying,
                    counter_cost(state, where), strength_needed(state))


@lru_cache(maxsize=4096)
def _outlook(revealed: tuple[int, ...], known: tuple[int, ...], unseen: int,
             pool: tuple[int, ...], size: int, weak: tuple[str, ...], paying: frozenset[int],
             cost: float, need: int) -> float:
    """`outlook` from what it depends on (kept: a turn asks it again and again), each
    draw worth at most the `need` spaces that win. The samples come from an Rng of the
    AI's own, never the game's."""
    count = len(known) + unseen
    sampler = Rng(len(revealed) * 1000 + size * 31 + count)
    special = content.special_reward()
    best = -math.inf
    for k in range(1, min(LOOKAHEAD, count) + 1):
        safe = 1.0
        for i in range(k):
            safe *= (count - i) / (size - i)
        worth = 0.0
        for _ in range(SAMPLES):
            drawn = _draw(sampler, known, unseen, pool, k)
            worth += min(need, _met(weak, (*revealed, *drawn))
                         + special * sum(1 for c in drawn if c in paying))
        best = max(best, safe * worth / SAMPLES - (1 - safe) * cost)
    return best


def reveal_worth(state: EvilBelowState) -> float:
    """How much better it is to go on than to stop now (`outlook`, against the
    weaknesses met already; at worst, the counterattack)."""
    f = state.fight
    assert f is not None
    ahead = max(outlook(state, f.location, f.revealed), -counter_cost(state, f.location))
    return ahead - min(strength_needed(state), _value(state, f.revealed))


def _fight_step(state: EvilBelowState, seat: int) -> Action:
    f = state.fight
    assert f is not None
    mike = _first(state, seat, actions.MIKE)
    if mike is not None:
        return mike
    if f.from_stack() < 1:
        return Action(actions.REVEAL)  # seed 001: at least one card from the stack
    if not state.fight_stack or _value(state, f.revealed) >= strength_needed(state):
        return Action(actions.STOP)  # nothing left, or a stop that wins the game
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
    if state.pennywise == where and fight_coming(state):
        value += FIGHT_SPOT if [s for s in state.at(where) if s != seat] else FIGHT_SPOT / 3
    return value


def fight_coming(state: EvilBelowState) -> bool:
    """Whether to end a turn beside Pennywise, where a fight can be made up. A small
    table waits there whenever there is a Fight Stack to fight with (its chances are
    few: a friend must be there when the stack is worth it); a bigger one gathers when
    the fight is worth seeking (`stack_is_good`)."""
    if len(state.players) > SMALL_TABLE:
        return stack_is_good(state)
    return any(not content.is_attack(c) for c in state.fight_stack)


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
