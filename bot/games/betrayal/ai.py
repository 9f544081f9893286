"""An AI explorer for the exploration phase: it explores, picks things up, uses the
safe items, rests in rooms that strengthen it, and ends its turn. Always legal: it
only ever picks one of `options()`. A healing card (HEALS) is kept until it heals
someone on the seat's side, then used on whoever it helps most, in the haunt too.

Decisions are deterministic (the same view gives the same action), which keeps the
replays exact and the tests stable; the seat's view (knowledge.py) is all it is
handed. It walks the cheapest way to a door onto unexplored space (over doors and the
house's links, ai_ways.costs_to), and every move it makes leaves it strictly less to
go, so it never walks back and forth. A split room's crossing roll is priced by its
odds (a failure ends the turn's movement): it rolls when the roll is the cheaper way,
and walks round when a roll it seldom passes is not (3 dice for Sanity 6+ pass once
in 27 tries). Held by Webs or Debris it tries to break free (and frees others held
where it stands); with no room to explore in reach it takes the Revolving Wall's
switch or rides the Mystic Elevator. Together these keep AI-only games from running for ever
(tests/test_betrayal_engine_ai.py); haunt_roll.stalled is the last safety net. A turn
about to end in a room that hurts then (the Crypt, the Furnace Room) ends a plain step
away instead when that hurt would kill, or when nothing keeps it there (`_out_of_harm`).

Once the haunt has begun, before anything else, it looks for a win its side can take
now (`win_now`): each of its options (at most WIN_TRIES, those that end a turn first)
is played on a copy of its view (playing.py), and one that wins there and in WORLDS
other deals of what the seat cannot see is taken. Still only the view: the copies are
of it, and their dice come from its Rng or from other worlds'.
"""

from __future__ import annotations

from typing import Any

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.core.views import require_view
from bot.games.betrayal import (
    ai_ways,
    content,
    damage_split,
    explore,
    knowledge,
    movement,
    playing,
    traits,
)
from bot.games.betrayal.actions import Legal, legal
from bot.games.betrayal.cards.items import patients
from bot.games.betrayal.cards.rolls import PICKED
from bot.games.betrayal.content import PHYSICAL
from bot.games.betrayal.haunting import ai as haunt_ai
from bot.games.betrayal.haunting import base, monsters, sides
from bot.games.betrayal.haunting.parts import AIHooks
from bot.games.betrayal.house import DIRS
from bot.games.betrayal.links import distances_to
from bot.games.betrayal.state import BetrayalState

SAFE_USES: frozenset[str] = frozenset({"puzzle_box", "mystic_coin", "healing_salve",
                                       "smelling_salts", "medical_kit"})
SAFE_ACTS: tuple[str, ...] = ("vault", "closet_door")
# The Mystic Coin's edge (a 0 on its die): 1 off one trait of each pair, its holder's pick.
COIN, COIN_EDGE = "mystic_coin", (("might", "speed"), ("knowledge", "sanity"))
HELD_SELF, HELD_OTHER = "-self", "-free-"  # the offers of cards/events_a_to_l.Held
LIFT = "mystic_elevator"
WIN_TRIES = 40  # the most actions a decision plays out on copies, looking for a win now
WORLDS = 2  # other deals of what the seat cannot see that such a win must hold in
TURN_ENDS: frozenset[str] = frozenset({"end_turn", monsters.M_END})
# The healing cards and the traits each restores (seed 003: only up to the starting value).
HEALS: dict[str, tuple[str, ...]] = {"healing_salve": PHYSICAL, "smelling_salts": ("knowledge",),
                                     "medical_kit": PHYSICAL}


def choose_action(state: BetrayalState, seat: int) -> Action:
    """The seat's action, decided from its view (knowledge.py): the haunt's AI first
    (haunting/ai.py), then the explorer's."""
    require_view(state)
    if state.pending is not None:
        options = state.pending.options()
        won = win_now(state, seat, [o.action for o in options])
        return won if won is not None else options[_pick(state, seat)].action
    entries = legal(state, seat)  # what options() lists, found once for the whole decision
    won = win_now(state, seat, [e.action for e in entries])
    if won is not None:
        return won
    heal = _healing(state, seat, entries)
    if heal is not None:
        return heal
    return _out_of_harm(state, seat, entries, _decide(state, seat, entries))


def _decide(state: BetrayalState, seat: int, entries: list[Legal]) -> Action:
    """The haunt's AI's action, else the explorer's."""
    if state.haunt is not None and state.haunt.key:
        chosen = haunt_ai.choose(state, seat, entries)
        if chosen is not None:
            return chosen
    kinds = {e.action.kind: e.action for e in reversed(entries)}
    room = content.room(state.at(seat).room)
    resting = room.once_per_explorer and room.key not in state.explorers[seat].benefits
    for e in entries:
        if e.action.kind == "pickup":
            return e.action
    for e in entries:
        if e.action.kind == "use" and e.action.args["card"] in SAFE_USES \
                and e.action.args["card"] not in HEALS \
                and not _use_may_kill(state, seat, str(e.action.args["card"])):
            return e.action
    for e in entries:
        if e.action.kind == "act" and str(e.action.args["what"]).startswith(SAFE_ACTS):
            return e.action
    for e in entries:  # held fast (Webs, Debris): try to break free; or free the held
        what = str(e.action.args.get("what", "")) if e.action.kind == "act" else ""
        if what.endswith(HELD_SELF) or HELD_OTHER in what:
            return e.action
    if resting:
        return Action("end_turn")
    explores = [(movement.crossing_for(state, seat, str(e.action.args["dir"])), e.action)
                for e in entries if e.action.kind == "explore"]
    plain = [a for crossing, a in explores if crossing is None]
    if plain:
        return plain[0]
    step = _towards_frontier(state, seat, entries, [(c, a) for c, a in explores if c])
    if step is not None:
        return step
    return kinds.get("end_turn", entries[0].action)


def _out_of_harm(state: BetrayalState, seat: int, entries: list[Legal],
                 action: Action) -> Action:
    """A turn about to end in a room that hurts at a turn's end (the Crypt, the Furnace
    Room) ends one plain step away instead, in a room that does not (the one with the
    fewest foes): always when that hurt would kill the seat, else when the room is not
    one its haunt sends it to (nothing to gain there). A plain step goes through a door
    with no roll, never by a jump (the Collapsed Room's, the Gallery's: their fall
    hurts) nor into the Mystic Elevator (it may hurt all inside)."""
    here = state.explorers[seat].tile
    if action.kind != "end_turn" or ai_ways.end_damage(state, seat, here) is None:
        return action
    if not ai_ways.end_kills(state, seat, here) and here in haunt_ai.goals_of(state, seat):
        return action
    side = sides.side_of(state, seat)
    best: tuple[int, Action] | None = None
    for m, step in ai_ways.moves(state, seat, entries):
        if m.dir and m.crossing is None and state.tiles[m.target].room != LIFT \
                and ai_ways.end_damage(state, seat, m.target) is None:
            foes = sides.opponents_in(state, m.target, side)
            if best is None or foes < best[0]:
                best = (foes, step)
    return best[1] if best is not None else action


def _use_may_kill(state: BetrayalState, seat: int, card: str) -> bool:
    """Whether a "safe" use may kill its user: only once the skull can be reached (seed
    003 line 264; before the haunt no trait falls below its lowest value), and only the
    Mystic Coin's edge, when both traits of one of its pairs are on their lowest values
    (its 1 point then takes one of them to the skull, for a gain of 1 on a 1 or a 2)."""
    if card != COIN or traits.floor_index(state) >= 0:
        return False
    return any(all(traits.index(state, seat, t) <= 0 for t in pair) for pair in COIN_EDGE)


def _healing(state: BetrayalState, seat: int, entries: list[Legal]) -> Action | None:
    """A healing card's use when it heals a friend now (before anything else: it costs no
    movement, and Might back before an attack counts); never when it would heal no one,
    for the Salve and the Salts are discarded all the same."""
    for e in entries:
        card = str(e.action.args.get("card", "")) if e.action.kind == "use" else ""
        if card in HEALS and any(_need(state, p, HEALS[card]) for p in _friends(state, seat)):
            return e.action
    return None


def _friends(state: BetrayalState, seat: int) -> list[int]:
    """Whom this seat's healing may reach that is on its side (all, before the haunt)."""
    side = sides.side_of(state, seat)
    return [p for p in patients(state, seat) if sides.side_of(state, p) == side]


def _need(state: BetrayalState, seat: int, names: tuple[str, ...]) -> int:
    """The steps these traits are below their starting values."""
    return sum(max(0, traits.track(state, seat, t).start - traits.index(state, seat, t))
               for t in names)


def _patient_pick(state: BetrayalState, spec: dict[str, Any]) -> int:
    """The friend the healing helps most (the healer itself on a tie: it is listed first)."""
    then = spec.get("then", {})
    names = tuple(then["_restore"]["traits"]) if "_restore" in then else PHYSICAL
    chooser = state.pending.seat if state.pending is not None else 0
    seats = [int(s) for s in spec["seats"]]
    side = sides.side_of(state, chooser)
    scores = [_need(state, s, names) if sides.side_of(state, s) == side else -1 for s in seats]
    return scores.index(max(scores))


def win_now(state: BetrayalState, seat: int, actions: list[Action]) -> Action | None:
    """An action that ends the game won by the seat's side now, played on a copy of the
    view (playing.py) and found winning there and in WORLDS other deals of all the seat
    cannot see (other dice too): taken before anything else, so monsters do not finish
    their moves before the end of turn that wins, nor a hero attack before the step that
    does. At most WIN_TRIES actions are tried, those that end a turn first."""
    haunt = state.haunt
    if haunt is None or not haunt.key or state.over:
        return None
    side = sides.side_of(state, seat)
    tried = sorted(actions, key=lambda a: a.kind not in TURN_ENDS)[:WIN_TRIES]
    for action in tried:
        if _wins(state, seat, action, side) and all(
                _wins(knowledge.dealt_otherwise(state, seat, Rng.from_seed(
                    f"win:{n}:{state.rng.state}")), seat, action, side)
                for n in range(WORLDS)):
            return action
    return None


def _wins(state: BetrayalState, seat: int, action: Action, side: str) -> bool:
    try:
        after, _ = playing.play(state, seat, action)
    except IllegalAction:
        return False
    return after.over and after.haunt is not None and after.haunt.winner == side


def _pick(state: BetrayalState, seat: int) -> int:
    """A sensible answer to a pending choice."""
    pending = state.pending
    assert pending is not None
    step = state.script[-1].steps[0] if state.script and state.script[-1].steps else {}
    if pending.kind == "damage_split":
        return _split_pick(state, pending.seat, step["_damage"])
    if pending.kind == "trait_pick":
        spec = step["_trait_pick"]
        values = [traits.index(state, pending.seat, t) for t in spec["traits"]]
        target = min(values) if spec["amount"] > 0 else max(values)
        return values.index(target)
    if pending.kind == "lucky_pick":
        return _lucky_die(step["_roll"])
    if pending.kind == "patient_pick":
        return _patient_pick(state, step["_patient"])
    if state.haunt is not None:
        own = base.hooks(state, AIHooks).ai_pick(state)
        if own is not None:
            return own
        tile = haunt_ai.pick_tile(state)
        if tile is not None:
            return tile
    return 0


def _split_pick(state: BetrayalState, seat: int, spec: dict[str, Any]) -> int:
    """Point by point onto the trait highest up its track (a tie: the later one), as one
    split; a first share takes what that spread gives the first trait."""
    names = list(spec["traits"])
    left = {t: traits.index(state, seat, t) for t in names}
    floor = traits.floor_index(state)
    given = dict.fromkeys(names, 0)
    for _ in range(int(spec["amount"])):
        open_ = [t for t in names if left[t] > floor]
        if not open_:
            break
        top = max(open_, key=lambda t: (left[t], names.index(t)))
        left[top] -= 1
        given[top] += 1
    for i, raw in enumerate(spec["choices"]):
        parts = {str(t): int(p) for t, p in raw["parts"]}
        if raw.get("partial"):
            if parts.get(names[0], 0) == given[names[0]]:
                return i
        elif all(min(parts.get(t, 0), damage_split.room(state, seat, t)) == given[t]
                 for t in names):
            return i
    return 0


def _lucky_die(spec: dict[str, Any]) -> int:
    """The Lucky Stone's dice: pick every blank (a 0 can only gain), then reroll them;
    with no blank at all, option 0 rerolls nothing and the stone is kept."""
    picked = spec.get(PICKED, [])
    blanks = [i for i, d in enumerate(spec.get("rolled", [])) if d == 0 and i not in picked]
    return blanks[0] + 1 if blanks else 0


def _towards_frontier(state: BetrayalState, seat: int, entries: list[Legal],
                      crossing_explores: list[tuple[tuple[str, int], Action]],
                      ) -> Action | None:
    """The first step of the cheapest way to a door to explore through (ai_ways): a move,
    or a crossing roll to explore from here, each roll priced by its odds, so a roll
    that seldom passes gives way to a walk round (so, too, it never walks back and
    forth); else the Revolving Wall's switch, else a ride in the Mystic Elevator when
    no room to explore from can be reached."""
    prices = ai_ways.split_prices(state, seat)
    goals: dict[int, set[str] | None] = {
        t: ({d for d in DIRS if explore.can_explore_from(state, t, d)} if t in prices
            else None)
        for t in explore.frontier(state)}
    costs = ai_ways.costs_to(state, seat, goals, prices)
    moves = ai_ways.moves(state, seat, entries)
    step = ai_ways.cheapest_step(state, seat, costs, prices, moves, crossing_explores)
    if step is not None:
        return step
    to_goal = ai_ways.by_room(costs)
    here = state.explorers[seat].tile
    near = to_goal.get(here)
    wall = ai_ways.wall_switch(state, seat, entries, to_goal, near)
    if wall is not None:
        return wall
    if near is None:
        return _towards_elevator(state, seat, _moves(state, seat, entries), ai_ways.ways(state))
    return None


def _moves(state: BetrayalState, seat: int, entries: list[Legal],
           ) -> list[tuple[int, tuple[str, int] | None, Action]]:
    """The legal moves as (target tile, crossing roll or None, action)."""
    return [(m.target, m.crossing, action) for m, action in ai_ways.moves(state, seat, entries)]


def _towards_elevator(state: BetrayalState, seat: int,
                      moves: list[tuple[int, tuple[str, int] | None, Action]],
                      ways: dict[int, list[int]]) -> Action | None:
    """Nowhere to explore within reach: the Mystic Elevator may carry the explorer off
    (it moves as it is entered, once a turn)."""
    lift = state.tile_of(LIFT)
    if lift is None or state.explorers[seat].tile == lift:
        return None
    to_lift = distances_to(ways, {lift})
    best: tuple[int, int, Action] | None = None
    for target, crossing, action in moves:
        if crossing is not None:
            continue
        dist = to_lift.get(target)
        if dist is not None and (best is None or (dist, target) < best[:2]):
            best = (dist, target, action)
    return best[2] if best else None
