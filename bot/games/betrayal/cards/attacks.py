"""Attacks on explorers that cards call for before the haunt (seed 003, "Attacks").

Seed 003 lets explorers attack only once the haunt has begun, but a few cards force an
attack earlier: Bloody Vision (the explorer attacks someone), the Toy Monkey (it
attacks someone in the room, or its holder). Both go through here.

- `explorer_attack`: an explorer attacks another explorer with a trait. Both roll that
  trait; the higher total hits and the margin is the loser's damage (Might or Speed:
  physical; Sanity or Knowledge: mental); a tie hurts no one. Each loser splits its own
  damage (its own choice). On its own turn the attacker may add one weapon it holds for
  that trait (the `on: attack` dice of the Axe, Spear, Blood Dagger; the Blood Dagger
  costs 1 Speed); no weapon is a choice too. A weapon that fought is used for the
  turn: it cannot be traded or dropped until the next (`weapon_steps`). An attacker
  that beats the defender by 2 or more may take one of the defender's cards instead of
  hurting it (seed 003: only a card that could be handed over, and never the Armor); a
  stolen Blood Dagger costs its loser 2 dice of physical damage. Attacks are not trait
  rolls: no Blessing, Drip, Smoke or Candle dice, and no weapon when defending.
- `thing_attack`: something of fixed strength attacks an explorer (the Toy Monkey,
  Speed 3): the engine's `attack` step under the thing's name (its dice rolled for
  it, the explorer's bare trait against them); only the explorer can be hurt.

Before the haunt no one dies: damage stops at each trait's lowest value (traits.py).
Monsters exist only in the haunt; there these cards may strike them too, through the
haunt's own fights (haunting/combat.py: `thing_strikes`, `strike`).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, decks, hooks, items, traits
from bot.games.betrayal import dice as betrayal_dice
from bot.games.betrayal.cards import resumer
from bot.games.betrayal.content import PHYSICAL
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, step
from bot.games.betrayal.rolls import MAX_DICE
from bot.games.betrayal.state import BetrayalState, Frame

# What a weapon costs its user beyond its dice (the card's own words, not data yet).
WEAPON_COSTS: dict[str, tuple[dict[str, Any], ...]] = {
    "blood_dagger": ({"lose": {"trait": "speed", "amount": 1}},),
}
STOLEN_COSTS: dict[str, tuple[dict[str, Any], ...]] = {
    "blood_dagger": ({"damage": {"kind": "physical", "dice": 2}},),
}


def damage_kind(trait: str) -> str:
    return "physical" if trait in PHYSICAL else "mental"


def weapon_steps(state: BetrayalState, weapon: str) -> list[dict[str, Any]]:
    """What fighting with `weapon` (none: "") costs before the dice, and the weapon noted
    as used this turn: seed 003 line 252 (and its FAQ), 「玩家行使某物件的效用後，即不可主動
    轉交或丟棄該物件」 [once you have used an object's effect this turn, you may not hand
    it over or drop it], so an Axe that struck cannot be passed on until the next turn."""
    if not weapon:
        return []
    if weapon not in state.turn.used:
        state.turn.used.append(weapon)
    return list(WEAPON_COSTS.get(weapon, ()))


def price_kills(state: BetrayalState, seat: int, weapon: str) -> bool:
    """Whether fighting with `weapon` would kill this explorer before a die is rolled:
    its price (the Blood Dagger's 1 Speed) takes a trait already on its lowest value to
    the skull, once the skull can be reached. Seed 003 line 264 has an explorer die when
    a trait reaches the skull 若無可避免地 [unavoidably]; this death is the attacker's own
    choice, which the AI does not make."""
    if traits.floor_index(state) >= 0:
        return False
    return any(traits.index(state, seat, str(cost["lose"]["trait"])) < int(cost["lose"]["amount"])
               for cost in WEAPON_COSTS.get(weapon, ()) if "lose" in cost)


# ---------------------------------------------------------------- weapons and spoils

def weapon_dice(key: str, trait: str) -> int:
    """The extra dice a weapon adds to an attack with this trait (0: not for it)."""
    card = content.card(key)
    if not card.weapon:
        return 0
    return sum(int(str(m.get("dice", 0)).replace("+", "")) for m in card.modifiers
               if m.get("on") == "attack" and (not m.get("traits") or trait in m["traits"]))


def weapons(state: BetrayalState, seat: int, trait: str) -> list[str]:
    """The weapons this explorer may add to an attack with `trait` now: only on its own
    turn (seed 003: "when you attack with Might on your turn"), and only one that has not
    fought yet this turn (line 249: each object's effect once a turn)."""
    if state.turn.seat != seat:
        return []
    return [k for k in state.explorers[seat].cards
            if weapon_dice(k, trait) > 0 and k not in state.turn.used]


def attack_dice(state: BetrayalState, seat: int, trait: str, weapon: str) -> int:
    count = traits.value(state, seat, trait) + (weapon_dice(weapon, trait) if weapon else 0)
    return max(1, min(MAX_DICE, count))


def stealable(state: BetrayalState, seat: int) -> list[str]:
    """Cards that could be taken from this explorer: those that may change hands (no
    companion), never one whose passive says it cannot be stolen (the Armor,
    `Passive.cannot_be_stolen`); the Blood Dagger, which cannot be handed over, can be
    stolen (its own text)."""
    safe = hooks.unstealable(state, seat)
    found = []
    for key in state.explorers[seat].cards:
        card = content.card(key)
        if key in safe or card.companion:
            continue
        # `tradeable: false` (the Blood Dagger) only stops handing over and dropping:
        # the card itself says it may be stolen (and what that costs its loser).
        if card.tradeable or key in STOLEN_COSTS:
            found.append(key)
    return found


# ---------------------------------------------------------------- an explorer attacks

def explorer_attack(ctx: Ctx, attacker: int, defender: int, trait: str, source: str,
                    origin: str) -> None:
    """Push `attacker`'s attack on `defender` (they must still be together when it
    starts: the same room, the same side of a split room)."""
    ctx.push([{"_duel": {"defender": defender, "trait": trait}}], attacker, source, origin)


@step("_duel")
def _duel(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, attacker = ctx.state, frame.seat
    spec = dict(arg)
    defender, trait = int(spec["defender"]), str(spec["trait"])
    ranged = bool(spec.get("ranged"))
    if not state.explorers[attacker].alive or not state.explorers[defender].alive or (
            not ranged and not items.together(state, attacker, defender)):
        ctx.say("events.duel_gone", who=ctx.who(attacker), other=ctx.who(defender))
        return
    if "weapon" not in spec:
        if ask_weapon(ctx, frame, "_duel", spec, "duel_weapon", ctx.who(defender)):
            return
        spec["weapon"] = ""
    weapon = str(spec["weapon"])
    count = attack_dice(state, attacker, trait, weapon)
    with_weapon = content.betrayal_line("events.duel_weapon", card=content.card(weapon).name) \
        if weapon else ""
    ctx.say("events.duel", kind="attack", who=ctx.who(attacker), other=ctx.who(defender),
            trait=content.trait_name(trait), dice=count, weapon=with_weapon,
            data={"attacker": attacker, "defender": defender, "trait": trait, "weapon": weapon})
    ctx.push_child(frame, [*weapon_steps(state, weapon),
                           {"roll": {"dice": count, "purpose": "attack", "then": [
                               {"_duel_defend": {"defender": defender, "trait": trait,
                                                 "ranged": ranged}}]}}])


def ask_weapon(ctx: Ctx, frame: Frame, key: str, spec: dict[str, Any], kind: str,
               other: str) -> bool:
    """Ask the attacker (the frame's explorer) which weapon to fight with, or none, when
    it holds one for `spec["trait"]`: the step `key` waits with `spec`, and the resumer
    `kind` records the pick (`pick_weapon`). False when there is nothing to ask."""
    state, seat, trait = ctx.state, frame.seat, str(spec["trait"])
    options = weapons(state, seat, trait)
    if not options:
        return False
    spec["options"] = options
    labels = [content.betrayal_line("labels.duel_bare", dice=attack_dice(state, seat, trait, ""))]
    labels += [content.betrayal_line("labels.duel_with", card=content.card(k).name,
                                     dice=attack_dice(state, seat, trait, k)) for k in options]
    pause(ctx, frame, {key: spec}, kind,
          content.betrayal_line("prompts.duel_weapon", other=other,
                                trait=content.trait_name(trait)), labels)
    return True


def pick_weapon(spec: dict[str, Any], pick: int) -> None:
    """The answer to `ask_weapon`: option 0 is bare hands."""
    spec["weapon"] = "" if pick == 0 else spec["options"][pick - 1]


@resumer("duel_weapon")
def _duel_weapon(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    pick_weapon(raw["_duel"], pick)


@step("_duel_defend")
def _duel_defend(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The defender rolls its bare trait (its own roll: its own cards may bend it)."""
    total = int(frame.vars.get("roll", 0))
    ctx.push([{"roll": {"trait": arg["trait"], "purpose": "defense", "then": [
        {"_duel_result": {"attacker": frame.seat, "total": total, "trait": arg["trait"],
                          "ranged": bool(arg.get("ranged"))}}]}}],
        int(arg["defender"]), frame.source, frame.origin)


@step("_duel_result")
def _duel_result(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, defender = ctx.state, frame.seat
    attacker = int(arg["attacker"])
    margin = int(arg["total"]) - int(frame.vars.get("roll", 0))
    kind = damage_kind(str(arg["trait"]))
    if margin == 0:
        ctx.say("events.duel_tie", who=ctx.who(attacker), other=ctx.who(defender))
        return
    winner, loser = (attacker, defender) if margin > 0 else (defender, attacker)
    amount = abs(margin)
    ranged = bool(arg.get("ranged"))
    if ranged and loser == attacker:
        ctx.say("events.duel_missed", who=ctx.who(attacker), other=ctx.who(defender))
        return
    ctx.say("events.duel_hits", kind="attack", who=ctx.who(winner), other=ctx.who(loser),
            amount=amount, data={"winner": winner, "loser": loser, "amount": amount})
    cards = stealable(state, defender) if winner == attacker and amount >= 2 and not ranged \
        else []
    if cards:
        labels = [content.betrayal_line("labels.duel_hurt", amount=amount,
                                          kind=content.damage_name(kind))]
        labels += [content.betrayal_line("labels.duel_take",
                                         card=content.card(k).name) for k in cards]
        pause(ctx, frame, {"_duel_spoils": {"attacker": attacker, "amount": amount,
                                            "kind": kind, "cards": cards}},
              "duel_spoils",
              content.betrayal_line("prompts.duel_spoils", other=ctx.who(defender), amount=amount),
              labels, seat=attacker)
        return
    ctx.push([{"damage": {"kind": kind, "amount": amount}}], loser, frame.source, frame.origin)


@resumer("duel_spoils")
def _duel_spoils(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    """The attacker's pick: 0 hurts the defender (frame.seat); otherwise that card
    changes hands and the defender is not hurt."""
    spec = frame.steps.pop(0)["_duel_spoils"]
    defender, attacker = frame.seat, int(spec["attacker"])
    if pick == 0:
        ctx.push([{"damage": {"kind": spec["kind"], "amount": int(spec["amount"])}}], defender,
                 frame.source, frame.origin)
        return
    key = str(spec["cards"][pick - 1])
    ctx.say("events.duel_steal", kind="trade", who=ctx.who(attacker), other=ctx.who(defender),
            card=content.card(key).name, data={"from": defender, "to": attacker, "card": key})
    ctx.push(list(STOLEN_COSTS.get(key, ())), defender, key, content.card(key).deck)
    decks.take_card(ctx, defender, key, to="none")
    decks.give_card(ctx, attacker, key)


# ---------------------------------------------------------------- a thing attacks

def thing_attack(ctx: Ctx, seat: int, thing: str, trait: str, dice: int, source: str,
                 origin: str) -> None:
    """Push an attack of `dice` dice (rolled for the thing) against `seat`'s `trait`."""
    ctx.push([{"_thing_attack": {"thing": thing, "trait": trait, "dice": dice}}], seat, source,
             origin)


@step("_thing_attack")
def _thing_attack(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The engine's `attack` step, named: the thing's dice, then the explorer's defence
    roll and the engine's result (the margin hurts the explorer; `last_attack` noted)."""
    trait = str(arg["trait"])
    dice = betrayal_dice.roll_betrayal(ctx.state.rng, int(arg["dice"]))
    ctx.say("events.thing_attacks", kind="roll", thing=arg["thing"], who=ctx.who(frame.seat),
            strength=len(dice), trait=content.trait_name(trait), dice=" ".join(map(str, dice)),
            total=sum(dice), data={"seat": frame.seat, "dice": dice, "total": sum(dice)})
    ctx.push_child(frame, [{"roll": {"trait": trait, "purpose": "defense", "then": [
        {"_attack_result": {"attacker": sum(dice), "trait": trait}}]}}])
