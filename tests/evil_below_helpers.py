"""Arranging IT: Evil Below states for rules tests: who stands where, what was rolled."""

from __future__ import annotations

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.base import PlayerInfo
from bot.games.evilbelow import EvilBelowGame, attacks, content, rules, sightings
from bot.games.evilbelow.content import BALLOON, HAND, HEART
from bot.games.evilbelow.state import ACTIONS, SIGHTINGS, EvilBelowState

GAME = EvilBelowGame()
NEIBOLT, BARRENS, STANDPIPE, APARTMENT, SQUARE, BUTCHER, PHARMACY = range(7)
# A totem card's totem, by its index (data/evilbelow/cards.yaml's `totems`): `card`.
INHALER, ROCK, POSTCARD, BOAT, CAP, ARCADE, YEARBOOK = range(7)
# The two attack cards seed 001 prints (data/evilbelow/cards.yaml's `attacks`).
DEEP_WATER, FLOATING = content.attack_ids()[0], content.attack_ids()[1]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
ATTACK_TOKENS = content.board().attack_tokens


def card(location: int, totem: int) -> int:
    return location * content.TOTEMS_PER_LOCATION + totem


def arrange(characters: list[str], where: dict[int, int] | None = None, turn: int = 0,
            seed: int = 3) -> EvilBelowState:
    """A game with these characters (seat order), their movers moved as `where` says,
    and the victims known: children everywhere, except that the three attack tokens
    sit last in Town Square, the Butcher Shop and the Pharmacy."""
    state, _ = GAME.setup([PlayerInfo(NAMES[i]) for i in range(len(characters))], seed,
                          {"characters": characters, "youngest": turn})
    for seat, loc in (where or {}).items():
        state.heroes[seat].location = loc
    children = [t for t in range(content.board().victims) if t >= ATTACK_TOKENS]
    circles: list[list[int | None]] = []
    for loc in range(7):
        if loc < SQUARE:
            circles.append(list(children[:4]))
            del children[:4]
        else:
            circles.append([*children[:3], loc - SQUARE])
            del children[:3]
    state.circles = circles
    return state


def rolled(state: EvilBelowState, faces: dict[int, str]) -> tuple[EvilBelowState, list[Event]]:
    """The active player's roll came up with these faces (other dice: hands)."""
    new = GAME.copy_state(state)
    new.dice = [faces.get(d, HAND) for d in range(7)]
    new.dice_used = [False] * 7
    new.phase = SIGHTINGS
    events: list[Event] = []
    sightings.begin(new, events)
    rules.advance(new, events)
    return new, events


def actions_phase(state: EvilBelowState, faces: dict[int, str]) -> EvilBelowState:
    """Skip to the actions step with these dice and no balloons."""
    new = GAME.copy_state(state)
    new.dice = [faces.get(d, HAND) for d in range(7)]
    new.dice_used = [False] * 7
    new.phase = ACTIONS
    return new


def act(state: EvilBelowState, seat: int, kind: str, **args: int | str
        ) -> tuple[EvilBelowState, list[Event]]:
    return GAME.apply(state, seat, Action(kind, dict(args)))


def choose(state: EvilBelowState, pick: int) -> tuple[EvilBelowState, list[Event]]:
    assert state.pending is not None
    return GAME.apply(state, state.pending.seat, Action("choose", {"pick": pick}))


def kinds(state: EvilBelowState, seat: int) -> set[str]:
    return {o.action.kind for o in GAME.options(state, seat)}


__all__ = ["BALLOON", "HAND", "HEART"]


def ai_states(players: int, seed: int, every: int = 10, cap: int = 600) -> list[EvilBelowState]:
    """States along a whole AI game: the first, every `every`-th step, and the last
    (the render tests and bench/bench_render_evil_below.py read the same games)."""
    state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed, {})
    found = [state]
    for step in range(cap):
        seat = GAME.to_act(state)
        if seat is None:
            break
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        if step % every == 0:
            found.append(state)
    found.append(state)
    return found


def take(state: EvilBelowState, n: int,
         rows: tuple[int, ...] = (NEIBOLT, STANDPIPE, APARTMENT)) -> None:
    """Move n children onto the Evil Influence track, left to right from these rows."""
    for loc in rows:
        row = state.circles[loc]
        for i, t in enumerate(row):
            if n and t is not None:
                state.track.append(t)
                row[i] = None
                n -= 1


def fight_ready(characters: list[str], stack: list[int]) -> EvilBelowState:
    """Everyone with Pennywise in Town Square, the actions phase, this Fight Stack."""
    state = actions_phase(arrange(characters, {i: SQUARE for i in range(len(characters))}),
                          {})
    state.pennywise = SQUARE
    state.fight_stack = list(stack)
    state.attack_pile = [c for c in content.attack_ids() if c not in stack]
    state.totem_deck = [c for c in range(49) if c not in stack]
    return state



ROCK = 1  # the second totem of each location


def pennywise_jumps_to_eddie_then_leaves() -> tuple[EvilBelowState, list[Event]]:
    """Bev (seat 0, to act) and Eddie (seat 1) at the Pharmacy; the Barrens' balloon puts
    a child on an Evil Influence attack space, so Pennywise jumps to them (a one-Bravery
    attack, which Bev takes), and is about to leave for the Barrens, where he is
    strongest: Eddie, holding three cards, is asked first."""
    state = arrange(["bev", "eddie"], {0: PHARMACY, 1: PHARMACY})
    take(state, content.board().influence_attacks[0] - 1)
    state.circles[BARRENS][0] = None
    state.heroes[1].hand = [card(NEIBOLT, ROCK), card(BARRENS, ROCK), card(SQUARE, ROCK)]
    one_bravery = content.attack_ids()[6]  # 0/A: 'lower Bravery by 1'
    for pile in (state.attack_pile, state.fight_stack):
        if one_bravery in pile:
            pile.remove(one_bravery)
    state.attack_pile.append(one_bravery)
    state, events = rolled(state, {BARRENS: BALLOON})
    assert state.pending is not None and state.pending.kind == attacks.PICK_BRAVERY
    state, more = choose(state, 0)  # Bev takes the point
    return state, events + more
