"""Attacks in the haunt (seed 003, "Attacks"): who may attack whom, with what, and how
a fight with a monster ends.

Once per turn an explorer may attack one opponent in its room: Might against Might,
or another trait where a card (the Ring: Sanity; the Revolver: Speed) or the haunt
allows it, never a trait the target lacks (nor one its haunt refuses:
CombatHooks.can_fight_with). One weapon at a time, 8 dice at most. The
Revolver also shoots along a straight line with no wall between, through any number of
doors, and across the barrier of a split room (seed 003, the Catacombs, the Chasm, the
Tower: no attack on the other side of it, a distance attack excepted); losing such a
ranged attack hurts no one, and it can steal nothing. A room may bend line of sight
(SightPassive.sight_half: only one half of it is seen through a door, and then its
halves do not see each other either; stops_sight: the line goes no further;
walls_off: the line neither enters nor leaves it, the Smoke). Explorers on two sides
of a split room are never together, so no fight but such a shot crosses the barrier.
Fights between explorers are cards/attacks.py's duel (the loser splits its damage; a
winner by 2 or more may steal a card instead). A monster that loses is stunned, or
killed if its haunt says so; an explorer that loses to a monster takes the damage.
Every stun, a fight's or a card's (the Druidic Charm), goes through `stun`, where the
haunt may refuse it or answer it (CombatHooks.can_stun, on_stunned).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.events import PUBLIC, Event
from bot.games.betrayal import content, hooks, items, traits
from bot.games.betrayal.cards import SightPassive, resumer
from bot.games.betrayal.cards.attacks import (
    ask_weapon,
    attack_dice,
    pick_weapon,
    weapon_dice,
    weapon_steps,
)
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.dice import roll_betrayal
from bot.games.betrayal.effects import step
from bot.games.betrayal.haunting import base, sides
from bot.games.betrayal.haunting.parts import CombatHooks
from bot.games.betrayal.haunting.words import haunt_line, tell
from bot.games.betrayal.house import DIRS, opposite, through_door
from bot.games.betrayal.rolls import MAX_DICE
from bot.games.betrayal.state import BetrayalState, Frame, Monster

# The kind of the line that tells a monster is slain: the story counts each seat's by it.
SLAIN = "slain"

ATTACKED = "attacked"  # turn flag: this explorer has made its attack this turn
REVOLVER = "revolver"  # the one weapon that shoots from afar (seed 003)


@dataclass(frozen=True)
class AttackChoice:
    target: int | str  # a seat, or "m<id>" for a monster
    trait: str
    weapon: str = ""
    ranged: bool = False

    def args(self) -> dict[str, int | str]:
        found: dict[str, int | str] = {"target": self.target, "trait": self.trait}
        if self.weapon:
            found["weapon"] = self.weapon
        if self.ranged:
            found["ranged"] = 1
        return found


def target_name(state: BetrayalState, target: int | str) -> str:
    if isinstance(target, str):
        found = sides.monster(state, target)
        return monster_name(state, found) if found else target
    return content.explorer(state.explorers[target].key).name


def monster_name(state: BetrayalState, monster: Monster) -> str:
    return numbered_name(state, monster.kind, monster_number(state, monster))


def monster_number(state: BetrayalState, monster: Monster) -> int:
    """The number a monster is told apart by: its id while others of its kind are
    about, else 0 (none: "the Rat", not "the Rat 3")."""
    return monster.id if len(sides.monsters(state, monster.kind)) > 1 else 0


def numbered_name(state: BetrayalState, kind: str, number: int) -> str:
    """A monster of `kind` named as the table reads it, in the language spoken, with
    its `number` (`monster_number`) when it has one: a move kept to be told later
    (monsters.py's `move_words`) keeps the kind and number, not the name."""
    found = base.for_state(state).data.monsters.get(kind)
    name = found.name if found else kind
    return f"{name} {number}" if number else name


def monster_trait(state: BetrayalState, monster: Monster, trait: str) -> int | None:
    """A monster's trait, or None when it has none (it cannot be attacked with it)."""
    kind = base.for_state(state).data.monsters.get(monster.kind)
    if kind is None or trait not in kind.traits:
        return None
    return base.hooks(state, CombatHooks).monster_trait(state, monster, trait, kind.traits[trait])


def attack_traits(state: BetrayalState, seat: int) -> set[str]:
    found = {"might"} | base.hooks(state, CombatHooks).attack_traits(state, seat)
    if hooks.holds_custom(state, seat, "ring"):
        found.add("sanity")
    return found


def sight_half(state: BetrayalState, tile_id: int, door: str) -> str | None:
    """The side of this room that line of sight through `door` reaches (a room split
    for the eye: Passive.sight_half); None: the whole room, as in seed 003."""
    for passive, ref in hooks.of_tile(state, tile_id, SightPassive):
        half = passive.sight_half(state, tile_id, door, ref)
        if half is not None:
            return half
    return None


def stops_sight(state: BetrayalState, tile_id: int) -> bool:
    return any(p.stops_sight(state, tile_id, ref)
               for p, ref in hooks.of_tile(state, tile_id, SightPassive))


def walled_off(state: BetrayalState, tile_id: int, viewer: int | None = None) -> bool:
    """No line of sight of `viewer`'s (None: anyone's) enters or leaves this room (the
    Smoke: "like a wall")."""
    return any(p.walls_off(state, tile_id, viewer, ref)
               for p, ref in hooks.of_tile(state, tile_id, SightPassive))


def split_for_the_eye(state: BetrayalState, tile_id: int) -> bool:
    """A room that shows only one half of itself through a door (sight_half: the
    Winding Tunnels) has no line of sight between its halves either. The classic split
    rooms are not: seed 003 lets a distance attack cross their barrier."""
    return any(sight_half(state, tile_id, d) is not None for d in DIRS)


def looks_out(state: BetrayalState, tile_id: int, side: str | None, door: str) -> bool:
    """Whether one standing on `side` of this room sees (or throws) out through `door`."""
    half = sight_half(state, tile_id, door)
    return half is None or half == side


def facing_half(state: BetrayalState, tile_id: int, from_tile: int) -> str | None:
    """The side of `tile_id` that a door from `from_tile` opens on (None: all of it)."""
    for d in DIRS:
        if through_door(state, tile_id, d) == from_tile:
            return sight_half(state, tile_id, d)
    return None


def line_of_sight(state: BetrayalState, tile_id: int, side: str | None = None,
                  viewer: int | None = None) -> list[int]:
    """Rooms in a straight line from this one (seen from `side` of it, by `viewer`)
    through doors, no wall between."""
    return [t for t, _ in sight_lines(state, tile_id, side, viewer)]


def sight_lines(state: BetrayalState, tile_id: int, side: str | None = None,
                viewer: int | None = None) -> list[tuple[int, str | None]]:
    """`line_of_sight`, each room with the side of it seen (None: the whole room). A
    room may stop the line, or show only one half of itself (Passive.sight_half,
    stops_sight), or hide itself altogether from `viewer` (walls_off; None: anyone).
    RULING: the Smoke says no one outside sees into its room, "like a wall"; a wall
    blocks both ways, so from within a smoky room no line of sight leads out either."""
    found: list[tuple[int, str | None]] = []
    if walled_off(state, tile_id, viewer):
        return found
    for d in DIRS:
        if not looks_out(state, tile_id, side, d):
            continue
        here = tile_id
        for _ in range(len(state.tiles)):
            nxt = through_door(state, here, d)
            if nxt is None or walled_off(state, nxt, viewer):
                break
            found.append((nxt, sight_half(state, nxt, opposite(d))))
            if stops_sight(state, nxt):
                break
            here = nxt
    return found


def _targets_in(state: BetrayalState, seat: int, tile_id: int, near: bool,
                half: str | None = None) -> list[int | str]:
    """Foes in this room (and allies, where the haunt lets this explorer fight them:
    CombatHooks.attacks_allies): with `near`, only those beside the attacker (the same
    side of a split room); else, with a `half`, only the explorers on that side of it."""
    side = sides.side_of(state, seat)
    allies = base.hooks(state, CombatHooks).attacks_allies(state, seat)
    found: list[int | str] = []
    for other, explorer in enumerate(state.explorers):
        if other == seat or not explorer.alive or explorer.tile != tile_id:
            continue
        if sides.side_of(state, other) == side and not allies:
            continue
        if near and not items.together(state, seat, other):
            continue
        if half is not None and explorer.side != half:
            continue
        found.append(other)
    if side == sides.HERO:
        found += [f"m{m.id}" for m in sides.monsters(state) if m.tile == tile_id]
    return found


def across_the_barrier(state: BetrayalState, seat: int) -> list[int]:
    """The foes in this explorer's split room on the other side of its barrier, when
    the room lets its halves see each other (not split_for_the_eye): seed 003 refuses
    every attack on them but a distance attack."""
    here = state.explorers[seat].tile
    if split_for_the_eye(state, here):
        return []
    return [t for t in _targets_in(state, seat, here, near=False)
            if isinstance(t, int) and not items.together(state, seat, t)]


def monsters_in(state: BetrayalState, tile_id: int) -> list[Monster]:
    """The living monsters in this room (a split room's halves alike: a monster has no
    side)."""
    return [m for m in sides.monsters(state) if m.tile == tile_id]


def card_targets(state: BetrayalState, seat: int, tile_id: int, trait: str) -> list[Monster]:
    """The monsters here that a card's forced attack with `trait` can reach (the Toy
    Monkey, Bloody Vision): seed 003 never attacks with a trait the target lacks, and
    the haunt may shield some (`can_attack`: the Heart and the Brain)."""
    return [m for m in monsters_in(state, tile_id)
            if fought_with(state, m, trait)
            and base.hooks(state, CombatHooks).can_attack(state, str(seat), f"m{m.id}")]


def fought_with(state: BetrayalState, monster: Monster, trait: str) -> bool:
    """Whether an attack with `trait` may be made on this monster: never with a trait it
    lacks (seed 003), nor one its haunt refuses (CombatHooks.can_fight_with)."""
    return monster_trait(state, monster, trait) is not None \
        and base.hooks(state, CombatHooks).can_fight_with(state, monster, trait)


def target_trait(state: BetrayalState, target: int | str, trait: str) -> int | None:
    """A fighter's `trait`: an explorer's value (a seat), or a monster's ("m<id>"; None
    when it is gone or has no such trait)."""
    if isinstance(target, str):
        found = sides.monster(state, target)
        return None if found is None else monster_trait(state, found, trait)
    return traits.value(state, target, trait)


def _has_trait(state: BetrayalState, target: int | str, trait: str) -> bool:
    """Whether `trait` may be used against this fighter (an explorer has every trait)."""
    if isinstance(target, int):
        return True
    found = sides.monster(state, target)
    return found is not None and fought_with(state, found, trait)


def choices(state: BetrayalState, seat: int) -> list[AttackChoice]:
    """Every attack this explorer may make now (its turn, in the haunt, none made yet)."""
    if state.haunt is None or state.over or state.turn.flags.get(ATTACKED) \
            or not state.explorers[seat].alive or hooks.blocked(state, seat):
        return []
    here = state.explorers[seat].tile
    # A weapon that fought this turn (a card's forced attack) fights no more (seed 003
    # line 249: each object's effect once a turn; cards/attacks.weapon_steps).
    cards = [k for k in state.explorers[seat].cards if k not in state.turn.used]
    found: list[AttackChoice] = []
    for target in _targets_in(state, seat, here, near=True):
        if not base.hooks(state, CombatHooks).can_attack(state, str(seat), str(target)):
            continue
        for trait in sorted(attack_traits(state, seat)):
            if not _has_trait(state, target, trait):
                continue
            found.append(AttackChoice(target, trait))
            found += [AttackChoice(target, trait, w) for w in cards
                      if w != REVOLVER and weapon_dice(w, trait) > 0]
        if REVOLVER in cards and _has_trait(state, target, "speed"):
            found.append(AttackChoice(target, "speed", REVOLVER))
    if REVOLVER in cards:
        for target in within_shot(state, seat):
            if base.hooks(state, CombatHooks).can_attack(state, str(seat), str(target)) \
                    and _has_trait(state, target, "speed"):
                found.append(AttackChoice(target, "speed", REVOLVER, ranged=True))
    return found


def within_shot(state: BetrayalState, seat: int) -> list[int | str]:
    """The foes a shot from afar by this explorer would reach, whether it may shoot them
    or not: across its split room's barrier, and along its lines of sight (as it sees
    them: the Smoke)."""
    here = state.explorers[seat].tile
    found: list[int | str] = list(across_the_barrier(state, seat))
    for tile_id, half in sight_lines(state, here, state.explorers[seat].side, seat):
        found += _targets_in(state, seat, tile_id, near=False, half=half)
    return found


def label(state: BetrayalState, seat: int, choice: AttackChoice) -> str:
    dice = attack_dice(state, seat, choice.trait, choice.weapon)
    weapon = haunt_line("labels.with_weapon", card=content.card(choice.weapon).name) \
        if choice.weapon else ""
    key = "labels.shoot" if choice.ranged else "labels.attack"
    return haunt_line(key, target=target_name(state, choice.target),
                      trait=content.trait_name(choice.trait),
                      dice=dice, weapon=weapon)


def start(ctx: Ctx, seat: int, choice: AttackChoice) -> None:
    """Push the attack; it is this turn's one attack whatever comes of it."""
    ctx.state.turn.flags[ATTACKED] = True
    if isinstance(choice.target, int):
        ctx.push([{"_duel": {"defender": choice.target, "trait": choice.trait,
                             "weapon": choice.weapon, "ranged": choice.ranged}}],
                 seat, "attack", "engine")
        return
    ctx.push([{"_strike_monster": {"monster": choice.target, "trait": choice.trait,
                                   "weapon": choice.weapon, "ranged": choice.ranged}}],
             seat, "attack", "engine")


# ---------------------------------------------------------------- explorer vs monster

@step("_strike_monster")
def _strike_monster(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None or not state.explorers[seat].alive:
        return
    trait, weapon = str(arg["trait"]), str(arg.get("weapon", ""))
    count = attack_dice(state, seat, trait, weapon)
    with_weapon = haunt_line("labels.with_weapon", card=content.card(weapon).name) if weapon else ""
    tell(ctx, "events.attack_monster", kind="attack", who=ctx.who(seat),
         monster=monster_name(state, monster), trait=content.trait_name(trait), dice=count,
         weapon=with_weapon, data={"attacker": seat, "monster": monster.id, "trait": trait})
    ctx.push_child(frame, [*weapon_steps(state, weapon),
                           {"roll": {"dice": count, "purpose": "attack", "then": [
                               {"_monster_defends": dict(arg)}]}}])


@step("_monster_defends")
def _monster_defends(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None:
        return
    trait = str(arg["trait"])
    margin = int(frame.vars.get("roll", 0)) - _monster_rolls(ctx, monster, trait)
    if margin == 0:
        tell(ctx, "events.fight_tie", who=ctx.who(frame.seat),
             other=monster_name(state, monster))
    elif margin > 0:
        hurt_monster(ctx, monster, margin, str(frame.seat), str(arg.get("weapon", "")))
    elif arg.get("ranged"):
        tell(ctx, "events.ranged_miss", who=ctx.who(frame.seat),
             other=monster_name(state, monster))
    else:
        tell(ctx, "events.fight_lost", who=ctx.who(frame.seat),
             other=monster_name(state, monster), amount=-margin)
        kind = "physical" if trait in ("might", "speed") else "mental"
        ctx.push([{"damage": {"kind": kind, "amount": -margin}}], frame.seat, "attack")


def _dice(state: BetrayalState, count: int) -> list[int]:
    """A fight's dice: at least 1, at most 8 (seed 003)."""
    return roll_betrayal(state.rng, max(1, min(MAX_DICE, count)))


def _monster_rolls(ctx: Ctx, monster: Monster, trait: str) -> int:
    """The monster rolls its `trait` in defence, for all to see; its total."""
    dice = _dice(ctx.state, monster_trait(ctx.state, monster, trait) or 0)
    tell(ctx, "events.monster_rolls", kind="roll", monster=monster_name(ctx.state, monster),
         dice=" ".join(map(str, dice)), total=sum(dice),
         data={"dice": dice, "total": sum(dice)})
    return sum(dice)


def hurt_monster(ctx: Ctx, monster: Monster, amount: int, attacker: str, weapon: str,
                 by: str | None = None) -> None:
    """A monster lost a fight: its haunt may decide; else it is stunned or killed.
    `by`: the seat a stun is owed to when no explorer struck (the Toy Monkey's holder);
    else the attacker."""
    state = ctx.state
    plugin = base.for_state(state)
    if base.hooks(state, CombatHooks).hurt_monster(ctx, monster, amount, attacker, weapon):
        return
    kind = plugin.data.monsters.get(monster.kind)
    if kind is not None and kind.on_hit == "kill":
        kill_monster(ctx, monster, attacker)
        return
    stun(ctx, monster, attacker if by is None else by)


def stun(ctx: Ctx, monster: Monster, by: str = "") -> bool:
    """Stun a monster: the one door for every stun (a lost fight, the Dynamite, the
    Druidic Charm), so that its haunt may refuse it (CombatHooks.can_stun) or answer it
    as its book says (CombatHooks.on_stunned). `by`: the seat that stunned it (digits), or
    "" when no seat did. Whether it is stunned now."""
    state = ctx.state
    combat_hooks = base.hooks(state, CombatHooks)
    name = monster_name(state, monster)
    if not combat_hooks.can_stun(state, monster):
        tell(ctx, "events.not_stunned", monster=name, data={"monster": monster.id})
        return False
    monster.stunned = True
    tell(ctx, "events.stunned", kind="monster", monster=name, data={"monster": monster.id})
    combat_hooks.on_stunned(ctx, monster, by)
    return True


def kill_monster(ctx: Ctx, monster: Monster, by: str = "") -> None:
    """`by`: the seat whose explorer struck the blow (digits; "" when none did), the
    slayer the story credits: a monster that loses its own attack dies by its target's
    hand, on its master's move (Event.seat)."""
    name = monster_name(ctx.state, monster)
    monster.alive = False
    ctx.events.append(Event(haunt_line("events.monster_killed", monster=name), PUBLIC, SLAIN,
                            {"monster": monster.id}, seat=int(by) if by.isdigit() else None))


# ---------------------------------------------------------------- monster vs explorer

def monster_attack(ctx: Ctx, monster: Monster, seat: int, trait: str = "might") -> None:
    """Push a monster's attack on an explorer (the traitor's player makes it)."""
    monster.attacked = True
    ctx.push([{"_monster_strikes": {"monster": f"m{monster.id}", "trait": trait}}], seat,
             "monster", "engine")


@step("_monster_strikes")
def _monster_strikes(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None or not state.explorers[frame.seat].alive:
        return
    trait = str(arg.get("trait", "might"))
    dice = _dice(state, monster_trait(state, monster, trait) or 0)
    tell(ctx, "events.monster_attacks", kind="attack", monster=monster_name(state, monster),
         who=ctx.who(frame.seat), trait=content.trait_name(trait), dice=" ".join(map(str, dice)),
         total=sum(dice), data={"monster": monster.id, "seat": frame.seat,
                                "total": sum(dice)})
    ctx.push_child(frame, [{"roll": {"trait": trait, "purpose": "defense", "then": [
        {"_monster_strike_result": {"monster": arg["monster"], "total": sum(dice),
                                    "trait": trait}}]}}])


@step("_monster_strike_result")
def _monster_strike_result(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    monster = sides.monster(state, str(arg["monster"]))
    margin = int(arg["total"]) - int(frame.vars.get("roll", 0))
    name = monster_name(state, monster) if monster else str(arg["monster"])
    if margin == 0:
        tell(ctx, "events.fight_tie", who=name, other=ctx.who(frame.seat))
    elif margin > 0:
        tell(ctx, "events.fight_lost", who=ctx.who(frame.seat), other=name, amount=margin)
        kind = "physical" if arg["trait"] in ("might", "speed") else "mental"
        ctx.push_child(frame, [{"damage": {"kind": kind, "amount": margin}}])
    elif monster is not None:
        hurt_monster(ctx, monster, -margin, str(frame.seat), "")


# ---------------------------------------------------------------- a card's explorer vs monster

def strike(ctx: Ctx, seat: int, monster: Monster, trait: str, source: str, origin: str) -> None:
    """Push an attack on a monster that a card forces on `seat` (Bloody Vision): not
    the turn's own attack; on its own turn the explorer may add a weapon, as in a duel
    with an explorer (cards/attacks.py)."""
    ctx.push([{"_card_strike": {"monster": f"m{monster.id}", "trait": trait}}], seat, source,
             origin)


@step("_card_strike")
def _card_strike(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None or not state.explorers[seat].alive:
        return
    spec = dict(arg)
    if "weapon" not in spec and ask_weapon(ctx, frame, "_card_strike", spec, "strike_weapon",
                                           monster_name(state, monster)):
        return
    ctx.push_child(frame, [{"_strike_monster": {"monster": spec["monster"],
                                                "trait": str(spec["trait"]),
                                                "weapon": str(spec.get("weapon", ""))}}])


@resumer("strike_weapon")
def _strike_weapon(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    pick_weapon(raw["_card_strike"], pick)


# ---------------------------------------------------------------- a card's thing vs monster

def thing_strikes(ctx: Ctx, seat: int, monster: Monster, thing: str, trait: str, dice: int,
                  source: str, origin: str) -> None:
    """Push an attack of `dice` dice (rolled for a card's thing: the Toy Monkey) on a
    monster's `trait`, under `seat`'s frame (the card's holder)."""
    ctx.push([{"_thing_strikes": {"monster": f"m{monster.id}", "thing": thing,
                                  "trait": trait, "dice": dice}}], seat, source, origin)


@step("_thing_strikes")
def _thing_strikes(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The thing's dice against the monster's own: a monster that loses is hurt as in
    any fight (no explorer struck it, so no hero is credited with the blow, but a stun
    is owed to the thing's holder: the Mummy's Girl runs to it); a thing that loses is
    not hurt (the Toy Monkey "is not damaged by being beaten")."""
    state = ctx.state
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None:
        return
    trait, thing = str(arg["trait"]), str(arg["thing"])
    ours = _dice(state, int(arg["dice"]))
    name = monster_name(state, monster)
    tell(ctx, "events.thing_attacks_monster", kind="attack", thing=thing, monster=name,
         strength=len(ours), trait=content.trait_name(trait), dice=" ".join(map(str, ours)),
         total=sum(ours), data={"monster": monster.id, "dice": ours, "total": sum(ours)})
    margin = sum(ours) - _monster_rolls(ctx, monster, trait)
    if margin > 0:
        hurt_monster(ctx, monster, margin, "", "", by=str(frame.seat))
    else:
        tell(ctx, "events.thing_fended", monster=name, thing=thing)
