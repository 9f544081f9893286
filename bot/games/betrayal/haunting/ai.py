"""The AI in the haunt: heroes that pursue their book's goal, a traitor that pursues
its own, and the monsters the traitor moves.

Deterministic, like the exploring AI (same view, same action), and always one of the
listed options. The haunt tells it where to go (`HauntPlugin.goals`) and which special
action to take (`ai_offer`); otherwise heroes keep exploring (a room may hold what
they need) and the traitor hunts the nearest hero; with no way to its goals it waits
(a room it explored would help the heroes of several haunts: Separate Nightmares'
track, the rooms Offspring's spores and Better with Friends' flood must fill). An
explorer attacks when its dice are at least a match for the target's, never with a
weapon whose price would kill it (cards/attacks.price_kills), and a fight its haunt has
it press while behind only when losing it by as much would not kill it (`_loss_kills`);
monsters attack a hero in their room, else walk towards the nearest one.
"""

from __future__ import annotations

from bot.core.actions import Action
from bot.core.views import require_view
from bot.games.betrayal import traits
from bot.games.betrayal.actions import Legal, legal
from bot.games.betrayal.ai_ways import (
    by_room,
    cheapest_step,
    costs_to,
    end_kills,
    moves,
    split_prices,
    wall_switch,
)
from bot.games.betrayal.cards.attacks import attack_dice, price_kills
from bot.games.betrayal.cards.haunt_cards import blast_rooms, incorporeal
from bot.games.betrayal.content import PHYSICAL
from bot.games.betrayal.haunting import base, combat, monsters, sides
from bot.games.betrayal.haunting.actions import ATTACK, monster_stage, offers
from bot.games.betrayal.haunting.parts import AIHooks
from bot.games.betrayal.state import BetrayalState


def choose(state: BetrayalState, seat: int,
           entries: list[Legal] | None = None) -> Action | None:
    """The haunt's decision for this seat now; None: let the exploring AI decide.
    `entries` are the seat's legal actions when the caller has them already."""
    if monster_stage(state):
        return _monsters(state)
    entries = legal(state, seat) if entries is None else entries
    hints = base.hooks(state, AIHooks)
    pick = hints.ai_offer(state, seat, offers(state, seat))
    if pick is not None:
        return Action("act", {"what": pick.id})
    target = _dynamite_target(state, seat)
    if target is not None and any(e.action == DYNAMITE for e in entries):
        return DYNAMITE
    charm = Action("use", {"card": "druidic_charm"})
    here = state.explorers[seat].tile
    if any(e.action == charm for e in entries) and sum(
            1 for m in sides.monsters(state) if m.tile == here and not m.stunned) >= 2:
        return charm  # smash it when it stuns more than one
    attack = _best_attack(state, seat, entries)
    if attack is not None:
        return attack
    goals = goals_of(state, seat)
    if goals:
        step = _towards(state, seat, entries, goals)
        if step is not None:
            return step
        if state.explorers[seat].tile in goals or sides.is_traitor(state, seat):
            return Action("end_turn")
    return None


def goals_of(state: BetrayalState, seat: int) -> set[int]:
    """Where this explorer's AI heads in the haunt: its haunt's goals (AIHooks.goals), a
    traitor with none hunting the heroes; a goal where ending the turn would kill it
    (ai_ways.end_kills) is left out while there are others. Empty before the haunt."""
    if state.haunt is None or not state.haunt.key:
        return set()
    goals = base.hooks(state, AIHooks).goals(state, seat)
    if not goals and sides.is_traitor(state, seat):
        goals = {state.explorers[h].tile for h in sides.heroes(state)}
    safe = {g for g in goals if not end_kills(state, seat, g)}
    return safe or goals


DYNAMITE = Action("use", {"card": "dynamite"})


def _dynamite_target(state: BetrayalState, seat: int) -> int | None:
    """A room through a door holding two or more monsters it can hurt and no hero:
    worth a hero's Dynamite (the traitor keeps its own)."""
    if sides.is_traitor(state, seat):
        return None
    for tile in blast_rooms(state, seat):
        hit = [m for m in sides.monsters(state)
               if m.tile == tile and not m.stunned and not incorporeal(state, m)]
        heroes_there = [h for h in sides.heroes(state) if state.explorers[h].tile == tile]
        if len(hit) >= 2 and not heroes_there:
            return tile
    return None


def pick_tile(state: BetrayalState) -> int | None:
    """The AI's answer to a room choice of the haunt's cards (Dynamite's blast)."""
    pending = state.pending
    if pending is None or pending.kind != "tile_pick" or not state.script:
        return None
    spec = state.script[-1].steps[0].get("_pick_tile", {}) if state.script[-1].steps else {}
    if "_dynamite_blast" not in spec.get("then", {}):
        return None
    target = _dynamite_target(state, pending.seat)
    tiles = list(spec.get("tiles", []))
    return tiles.index(target) if target in tiles else None


def _best_attack(state: BetrayalState, seat: int, entries: list[Legal]) -> Action | None:
    hints = base.hooks(state, AIHooks)
    best: tuple[int, Action] | None = None
    for e in entries:
        if e.action.kind != ATTACK:
            continue
        args = e.action.args
        trait, weapon = str(args["trait"]), str(args.get("weapon", ""))
        if price_kills(state, seat, weapon):
            continue  # the Blood Dagger's Speed would kill it before the dice
        ours = attack_dice(state, seat, trait, weapon)
        target = args["target"]
        if not isinstance(target, str) \
                and sides.side_of(state, int(target)) == sides.side_of(state, seat):
            continue  # a companion (a haunt may allow the fight): never the AI's choice
        if isinstance(target, str):
            found = sides.monster(state, target)
            theirs = (combat.monster_trait(state, found, trait) or 0) if found else 99
        else:
            theirs = traits.value(state, int(target), trait)
        edge = hints.ai_attack_worth(state, seat, target, weapon, ours - theirs)
        if edge < 0 and (not hints.ai_presses(state, seat, target)
                         or _loss_kills(state, seat, trait, target, theirs - ours)):
            continue
        if best is None or edge > best[0]:
            best = (edge, e.action)
    return best[1] if best else None


def _loss_kills(state: BetrayalState, seat: int, trait: str, target: int | str,
                behind: int) -> bool:
    """Whether a fight this explorer is `behind` in by that many dice would, lost by as
    much (about the loss to expect), kill it: more damage than the traits it falls on
    (Might and Speed for a physical fight, else Knowledge and Sanity) can take above
    the skull. A fight lost across rooms (the Revolver's) does no damage."""
    here = state.explorers[seat].tile
    where = sides.monster(state, target) if isinstance(target, str) else None
    foe_tile = where.tile if where is not None else (
        state.explorers[int(target)].tile if not isinstance(target, str) else here)
    if foe_tile != here or traits.floor_index(state) >= 0:
        return False
    kind = "physical" if trait in PHYSICAL else "mental"
    room = sum(max(0, traits.index(state, seat, t)) for t in traits.DAMAGE_TRAITS[kind])
    return behind > room


def _towards(state: BetrayalState, seat: int, entries: list[Legal],
             goals: set[int]) -> Action | None:
    """The first step of the cheapest way to one of `goals` (ai_ways: a split room's
    crossing roll priced by its odds, so a roll it seldom passes gives way to a walk
    round), else the Revolving Wall's switch (distance counts the wall as a way)."""
    prices = split_prices(state, seat)
    costs = costs_to(state, seat, dict.fromkeys(goals), prices)
    step = cheapest_step(state, seat, costs, prices, moves(state, seat, entries))
    if step is not None:
        return step
    to_goal = by_room(costs)
    return wall_switch(state, seat, entries, to_goal, to_goal.get(state.explorers[seat].tile))


def _monsters(state: BetrayalState) -> Action:
    return monster_action(state)


def monster_action(state: BetrayalState, *, attack: bool = True) -> Action:
    """Attack a hero in the room (one the haunt's `monster_attacks` allows), else step
    towards the nearest hero (or the haunt's `monster_goals`), else end; with `attack`
    False, steps only. The traitor's AI plays its monsters with it (from the traitor's
    view), and the engine plays a cooperative haunt's house (from the house's view)."""
    require_view(state)
    hints = base.hooks(state, AIHooks)
    for action in monsters.deeds(state):
        if attack and action.kind == monsters.M_ATTACK:
            monster = sides.monster(state, f"m{action.args['m']}")
            if monster is not None and hints.monster_attacks(
                    state, monster, int(action.args["target"])):
                return action
    ways: dict[int, list[int]] | None = None
    for monster in sides.monsters(state):
        if not monsters.can_step(state, monster):
            continue
        goals = hints.monster_goals(state, monster) or \
            {state.explorers[h].tile for h in sides.heroes(state)}
        if monster.tile in goals:
            continue
        ways = monsters.graph(state) if ways is None else ways
        target = monsters.toward(state, monster, goals, ways)
        if target is not None:
            return Action(monsters.M_MOVE, {"m": monster.id, "to": target})
    return Action(monsters.M_END)

