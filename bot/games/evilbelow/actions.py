"""The move table: every action kind, the phases it belongs to, who may take it, what
makes it legal and what it does. `legal(state, seat)` is the single source of truth:
options() shows it and apply() accepts exactly what it lists.

Kinds (args): `roll`; `move` (die, to); `pickup` (die, what=draw|bike); `courage`
(die, what=bravery|rescue); `place` (card); `ride` (to); `richie`; `fight`; `reveal`;
`stop`; `peek` (Stan); `mike`; `end_turn`; and `choose` (pick) while a choice waits.
Out-of-turn kinds (`ride`, `place` after a ride or by Eddie) are offered to any seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.evilbelow import abilities, content, effects, fight, sightings, turns
from bot.games.evilbelow.content import HAND, HEART, evil_below_line
from bot.games.evilbelow.state import ACTIONS, FIGHT, ROLL, SIGHTINGS, EvilBelowState
from bot.texts import listed

ROLL_K, MOVE, PICKUP, COURAGE, PLACE, RIDE = ("roll", "move", "pickup", "courage", "place",
                                              "ride")
RICHIE, FIGHT_K, REVEAL, STOP, PEEK, MIKE, END_TURN = ("richie", "fight", "reveal", "stop",
                                                       "peek", "mike", "end_turn")
DRAW, BIKE, BRAVERY, RESCUE = "draw", "bike", "bravery", "rescue"


@dataclass(frozen=True)
class Legal:
    action: Action
    label: str
    group: str
    style: str = "secondary"
    first: str = ""  # a two-step choice: where (first), then which die (then)
    then: str = ""


Lister = Callable[[EvilBelowState, int], list[Legal]]
Doer = Callable[[EvilBelowState, int, Action, list[Event]], None]


@dataclass(frozen=True)
class Move:
    kind: str
    phases: tuple[str, ...]
    anyone: bool  # offered to seats other than the active one (out of turn)
    legal: Lister
    do: Doer


def _names() -> tuple[str, ...]:
    return content.board().names


def _here(state: EvilBelowState, seat: int) -> int:
    return state.heroes[seat].location


def _free_dice(state: EvilBelowState) -> list[int]:
    return [d for d, used in enumerate(state.dice_used) if not used and state.dice[d]]


def spare_die(state: EvilBelowState, dice: list[int], seat: int, to: int) -> int:
    """The die this seat's move to `to` spends when the player names none (a typed
    command): one no Loser could use where it belongs once the move is made, else the
    first."""
    return spare_order(state, dice, seat, to)[0]


def spare_order(state: EvilBelowState, dice: list[int], seat: int, to: int) -> list[int]:
    """Dice by how little this seat's move to `to` costs with them: first those of the
    places no Loser stands at once it is made. The mover stands at `to` then, so that
    die is the one they may want next (the rulebook's Ben moves to Neibolt, then draws
    with its die), and the one of the place they leave is free, unless someone stays."""
    standing = {hero.location for s, hero in enumerate(state.heroes) if s != seat} | {to}
    return sorted(dice, key=lambda d: (d in standing, d))


def _die(d: int, face: str) -> str:
    return evil_below_line("labels.die", location=_names()[d],
                           face=evil_below_line(f"faces.{face}"))


# ---------------------------------------------------------------- roll

def _roll_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    return [Legal(Action(ROLL_K), evil_below_line("labels.roll"), "turn", "primary")]


def _roll(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    """Seed 001: all seven dice, once, no rerolls."""
    state.dice = [state.rng.choice(faces) for faces in content.dice_faces()]
    state.dice_used = [False] * len(state.dice)
    state.last_roll, state.last_roller = list(state.dice), seat
    shown = listed([evil_below_line("events.roll_die", place=_names()[d],
                                    face=evil_below_line(f"faces.{f}"))
                    for d, f in enumerate(state.dice)])
    events.append(Event(evil_below_line("events.roll", character=effects.hero_name(state, seat),
                                        dice=shown), kind="roll", data={"dice": list(state.dice)}))
    state.phase = SIGHTINGS
    sightings.begin(state, events)


# ---------------------------------------------------------------- dice actions

def _move_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    """Where first, then which die: any free die moves, so under each place the die no
    Loser could use where it belongs once the move is made comes first (the one a typed
    move spends)."""
    here = _here(state, seat)
    free = _free_dice(state)
    return [Legal(Action(MOVE, {"die": d, "to": to}),
                  evil_below_line("labels.move", target=_names()[to],
                                  die=_die(d, state.dice[d])), "move",
                  first=evil_below_line("labels.move_where", target=_names()[to]),
                  then=_die(d, state.dice[d]))
            for to in content.board().neighbours(here)
            for d in spare_order(state, free, seat, to)]


def _move(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    state.dice_used[action.int_arg("die")] = True
    effects.move_hero(state, seat, action.int_arg("to"), events)


def _local_dice(state: EvilBelowState, seat: int, face: str) -> list[int]:
    """Dice of this face for the seat's location, if no action resolved there yet."""
    here = _here(state, seat)
    if here in state.acted:
        return []
    return [d for d in _free_dice(state) if d == here and state.dice[d] == face]


def _pickup_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    found = []
    hero = state.heroes[seat]
    limit = effects.hand_limit(state, seat)
    for d in _local_dice(state, seat, HAND):
        if (limit is None or len(hero.hand) < limit) and (state.totem_deck
                                                          or state.totem_discard):
            found.append(Legal(Action(PICKUP, {"die": d, "what": DRAW}),
                               evil_below_line("labels.draw", die=_die(d, HAND)), "pickup"))
        if state.bikes[hero.location] and not hero.bike:
            found.append(Legal(Action(PICKUP, {"die": d, "what": BIKE}),
                               evil_below_line("labels.take_bike", die=_die(d, HAND)), "pickup"))
    return found


def _pickup(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    state.dice_used[action.int_arg("die")] = True
    hero = state.heroes[seat]
    state.acted.append(hero.location)
    if action.args.get("what") == DRAW:
        effects.draw_totem(state, seat, events)
        return
    state.bikes[hero.location] -= 1
    hero.bike = True
    events.append(Event(evil_below_line("events.take_bike", character=effects.hero_name(state,
                                                                                        seat),
                                        location=_names()[hero.location]), kind="bike"))


def _courage_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    found = []
    here = _here(state, seat)
    # Bravery only where it raises someone: a +1 for Losers all at the top changes nothing.
    raises = any(state.heroes[s].bravery < effects.MAX_BRAVERY for s in state.at(here))
    for d in _local_dice(state, seat, HEART):
        if raises:
            found.append(Legal(Action(COURAGE, {"die": d, "what": BRAVERY}),
                               evil_below_line("labels.bravery", die=_die(d, HEART)), "courage"))
        # Seed 001: no rescue once the location's Pennywise symbol shows (it is empty).
        if state.track and 0 < state.remaining(here) < len(state.circles[here]):
            found.append(Legal(Action(COURAGE, {"die": d, "what": RESCUE}),
                               evil_below_line("labels.rescue", die=_die(d, HEART)), "courage"))
    return found


def _courage(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    state.dice_used[action.int_arg("die")] = True
    here = _here(state, seat)
    state.acted.append(here)
    if action.args.get("what") == BRAVERY:
        effects.gain_bravery(state, state.at(here), events)
        return
    token = state.track.pop()
    circles = state.circles[here]
    space = max(i for i, t in enumerate(circles) if t is None)  # the rightmost open one
    circles[space] = token
    state.face_up.append(token)  # a rescued child goes back face up: the table saw it
    events.append(Event(evil_below_line("events.rescue", character=effects.hero_name(state, seat),
                                        location=_names()[here], left=len(state.track)),
                        kind="rescue"))


# ---------------------------------------------------------------- free actions

def placeable(state: EvilBelowState, seat: int) -> list[int]:
    """Cards this seat may put into the Fight Stack now: those of the location it
    stands in, on its turn or after riding a Bike on another's (RULES.md), and any
    card while Eddie's allowance lasts."""
    if state.phase == FIGHT and (state.fight is None or state.fight.shuffled):
        return []
    hero = state.heroes[seat]
    eddie = hero.character == "eddie" and state.eddie_left > 0
    matching = seat == state.turn or seat in state.rode
    return sorted({c for c in hero.hand
                   if eddie or (matching and content.card_location(c) == hero.location)})


def _place_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    return [Legal(Action(PLACE, {"card": c}), evil_below_line("labels.place",
                                                              card=content.card_name(c)),
                  "place") for c in placeable(state, seat)]


def _place(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    card = action.int_arg("card")
    hero = state.heroes[seat]
    matching = (seat == state.turn or seat in state.rode) \
        and content.card_location(card) == hero.location
    if not matching:
        state.eddie_left -= 1  # Eddie's ability, not the location, let it in
    effects.place_card(state, seat, card, events)


def _ride_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    hero = state.heroes[seat]
    if not hero.bike:
        return []
    return [Legal(Action(RIDE, {"to": to}), evil_below_line("labels.ride", target=_names()[to]),
                  "ride")
            for to in range(len(_names())) if to != hero.location]


def _ride(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    """Seed 001: anywhere, on any player's turn; the Bike stays where it arrives."""
    to = action.int_arg("to")
    state.heroes[seat].bike = False
    state.bikes[to] += 1
    if seat != state.turn and seat not in state.rode:
        state.rode.append(seat)
    effects.move_hero(state, seat, to, events, "ride")


def _richie_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    if not abilities.can_pull(state, seat):
        return []
    return [Legal(Action(RICHIE), evil_below_line("labels.richie",
                                                  location=_names()[state.pennywise]),
                  "ability")]


def _richie(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    state.richie_used = True
    effects.move_pennywise(state, _here(state, seat), events, "richie")


def _fight_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    if not fight.can_fight(state):
        return []
    return [Legal(Action(FIGHT_K), evil_below_line("labels.fight", size=len(state.fight_stack)),
                  "fight",
                  "danger")]


def _fight(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    fight.start(state, events)


def _reveal_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    if not state.fight_stack:
        return []
    return [Legal(Action(REVEAL), evil_below_line("labels.reveal", size=len(state.fight_stack)),
                  "fight",
                  "danger")]


def _stop_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    # Seed 001: "at least one card must be revealed from the Fight Stack" before
    # stopping; the card Mike adds comes from his hand, so it does not count.
    if state.fight is None or state.fight.from_stack() < 1:
        return []
    return [Legal(Action(STOP), evil_below_line("labels.stop"), "fight", "success")]


def _peek_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    if not abilities.can_peek(state):
        return []
    return [Legal(Action(PEEK), evil_below_line("labels.peek"), "ability")]


def _mike_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    if not abilities.can_add(state, seat):
        return []
    card = content.card_name(state.heroes[seat].hand[0])
    return [Legal(Action(MIKE), evil_below_line("labels.mike", card=card), "ability")]


def _end_legal(state: EvilBelowState, seat: int) -> list[Legal]:
    return [Legal(Action(END_TURN), evil_below_line("labels.end_turn"), "turn", "primary")]


def _end(state: EvilBelowState, seat: int, action: Action, events: list[Event]) -> None:
    turns.end_turn(state, events)


MOVES: tuple[Move, ...] = (
    Move(ROLL_K, (ROLL,), False, _roll_legal, _roll),
    Move(PLACE, (ROLL, ACTIONS, FIGHT), True, _place_legal, _place),
    Move(RIDE, (ROLL, ACTIONS), True, _ride_legal, _ride),
    Move(RICHIE, (ACTIONS,), False, _richie_legal, _richie),
    Move(PICKUP, (ACTIONS,), False, _pickup_legal, _pickup),
    Move(COURAGE, (ACTIONS,), False, _courage_legal, _courage),
    Move(MOVE, (ACTIONS,), False, _move_legal, _move),
    Move(FIGHT_K, (ACTIONS,), False, _fight_legal, _fight),
    Move(PEEK, (FIGHT,), False, _peek_legal, lambda s, _, a, e: fight.peek(s, e)),
    Move(MIKE, (FIGHT,), False, _mike_legal, lambda s, _, a, e: fight.add_mikes_card(s, e)),
    Move(REVEAL, (FIGHT,), False, _reveal_legal, lambda s, _, a, e: fight.reveal(s, e)),
    Move(STOP, (FIGHT,), False, _stop_legal, lambda s, _, a, e: fight.stop(s, e)),
    Move(END_TURN, (ACTIONS,), False, _end_legal, _end),
)
BY_KIND = {m.kind: m for m in MOVES}


def legal(state: EvilBelowState, seat: int) -> list[Legal]:
    """Every legal action of this seat now, out-of-turn ones included (no choice
    pending; the rules handle a pending choice before asking here)."""
    if state.over or state.pending is not None or not 0 <= seat < len(state.heroes):
        return []
    active = seat == state.turn
    return [found for m in MOVES if state.phase in m.phases and (active or m.anyone)
            for found in m.legal(state, seat)]

