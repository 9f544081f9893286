"""The actions the haunt adds to a turn: attacking, the haunt's own special actions,
and, in the monsters' turn, moving the monsters and their attacks.

Kinds: `attack` (target=<seat>|m<id>, trait, weapon?, ranged?), `act` with a haunt
offer's id (what=<id>: the same kind as a room's voluntary roll), and the monster
kinds of monsters.py (mmove, mattack, mend).
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.games.betrayal import hooks
from bot.games.betrayal.cards import Offer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, flow, monsters
from bot.games.betrayal.haunting.parts import TurnHooks
from bot.games.betrayal.haunting.words import haunt_line
from bot.games.betrayal.state import MONSTERS, BetrayalState

ATTACK = "attack"


def monster_stage(state: BetrayalState) -> bool:
    return state.haunt is not None and state.haunt.stage == MONSTERS and not state.over


def attacks(state: BetrayalState, seat: int) -> list[tuple[Action, str]]:
    return [(Action(ATTACK, c.args()), combat.label(state, seat, c))
            for c in combat.choices(state, seat)]


def offers(state: BetrayalState, seat: int) -> list[Offer]:
    """The haunt's special actions open now, each once a turn. An explorer held fast
    (Webs, Debris: seed 003 line 674, 「保有這咭牌期間，人物不可進行任何行動」 [while it holds
    the card, the explorer may take no action]) has none, as it has no attack."""
    if not flow.is_haunt(state) or not state.explorers[seat].alive \
            or hooks.blocked(state, seat):
        return []
    return [o for o in base.hooks(state, TurnHooks).offers(state, seat)
            if o.id not in state.turn.rolls]


def perform_attack(ctx: Ctx, seat: int, action: Action) -> None:
    choice = next(c for c in combat.choices(ctx.state, seat) if Action(ATTACK, c.args()) == action)
    combat.start(ctx, seat, choice)


def perform_offer(ctx: Ctx, seat: int, offer: Offer) -> None:
    ctx.state.turn.rolls.append(offer.id)
    base.hooks(ctx.state, TurnHooks).act(ctx, seat, offer)


def perform_monsters(ctx: Ctx, action: Action) -> None:
    if not monsters.perform(ctx, action):
        flow.end_monsters(ctx)


def attack_refusal(state: BetrayalState, seat: int) -> str:
    """Why this attack is not allowed, as a player should read it."""
    if not flow.is_haunt(state):
        return haunt_line("errors.no_attack_yet")
    if state.turn.flags.get(combat.ATTACKED):
        return haunt_line("errors.attacked")
    return haunt_line("errors.bad_attack")
