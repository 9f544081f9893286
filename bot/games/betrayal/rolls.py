"""Rolls: trait rolls with every modifier, plain rolls, and the cards that bend them.

A roll is one step that runs in stages, so that a card may step in and the game can be
saved in between:

    start: count the dice (trait value + modifiers, 1 to 8 dice)
    pre:   cards usable *before* rolling (Angel Feather, Adrenaline Shot, a saved roll)
    post:  cards usable *after* (Lucky Stone, Rabbit's Foot)
    done:  the total picks an outcome (`min`/`max`, inclusive) and runs its `do`, then
           `then`; the total is in `frame.vars["roll"]` for those steps, and every
           total of a card's resolution is noted in the turn (`card_rolls`).

Dice modifiers, from the data: held cards' `modifiers` (`on: trait_roll` for every
trait roll, `on: event_roll` for trait rolls an event asks for, optional `traits`,
`dice: +N`, `reroll: blanks`), passives' `roll_dice` (tokens in the room, lasting
events) and `frame.vars["extra_dice"]` (a card's own "2 dice fewer in the Gardens").
Attacks are not trait rolls: the defender rolls its bare trait.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, hooks, traits
from bot.games.betrayal.cards import RollPassive, resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.dice import roll_betrayal
from bot.games.betrayal.effects import ask, offer_data, offer_from, pause, step
from bot.games.betrayal.state import BetrayalState, Frame

MAX_DICE = 8
CARD_ROLLS = "card_rolls"  # turn flag: card or room key -> the rolls of its resolution
# A roll's flag: made once its roller's turn is over (seed 003: the haunt roll comes
# 在該玩家完結其回合後, after the turn), so nothing that serves "on your turn" reaches it.
AFTER_TURN = "after_turn"


def card_rolls(state: BetrayalState, source: str) -> list[dict[str, Any]]:
    """Every roll made for this card (or room) since it was last drawn or used this
    turn, in order: {"seat", "trait" (None for plain dice), "purpose", "total"}. Kept
    in the turn's flags, so a choice pausing between the rolls (a roll item) loses
    nothing."""
    return list(state.turn.flags.get(CARD_ROLLS, {}).get(source, []))


def forget_rolls(state: BetrayalState, source: str) -> None:
    """A card starts a new resolution (drawn, used): its earlier rolls no longer count."""
    state.turn.flags.get(CARD_ROLLS, {}).pop(source, None)


def _note_roll(state: BetrayalState, frame: Frame, spec: dict[str, Any], total: int) -> None:
    if frame.source:
        state.turn.flags.setdefault(CARD_ROLLS, {}).setdefault(frame.source, []).append(
            {"seat": frame.seat, "trait": spec.get("trait"), "purpose": spec.get("purpose", ""),
             "total": total})


def _as_int(raw: Any) -> int:
    return int(str(raw).replace("+", "")) if raw is not None else 0


def is_trait_roll(spec: dict[str, Any]) -> bool:
    return bool(spec.get("trait")) and spec.get("purpose") != "defense"


def dice_for(state: BetrayalState, frame: Frame, spec: dict[str, Any]) -> int:
    """How many dice this roll uses now (1 to 8)."""
    seat = frame.seat
    if not spec.get("trait"):
        return max(1, min(MAX_DICE, int(spec.get("dice", 1))))
    trait = str(spec["trait"])
    count = traits.value(state, seat, trait)
    if is_trait_roll(spec):
        count += card_modifiers(state, seat, trait, frame.origin == "event")
        count += sum(p.roll_dice(state, seat, spec, ref)
                     for p, ref in hooks.around(state, seat, RollPassive))
        count += int(frame.vars.get("extra_dice", 0))
    return max(1, min(MAX_DICE, count))


def could_pass(state: BetrayalState, seat: int, crossing: tuple[str, int] | None) -> bool:
    """A split room's crossing roll (trait, target) the explorer could pass at all, with
    every die showing 2 (Sanity 6+ on 1 die never is); None, no roll, always passes.
    The AIs ask it before they try a crossing."""
    if crossing is None:
        return True
    trait, target = crossing
    return 2 * crossing_dice(state, seat, trait) >= target


def crossing_dice(state: BetrayalState, seat: int, trait: str) -> int:
    """The dice the explorer would roll for a crossing in its room now."""
    return dice_for(state, Frame([], seat, state.at(seat).room, "room"), {"trait": trait})


def card_modifiers(state: BetrayalState, seat: int, trait: str, from_event: bool) -> int:
    explorer = state.explorers[seat]
    total = 0
    for key in [*explorer.cards, *explorer.lasting]:
        for m in content.card(key).modifiers:
            on = m.get("on")
            applies = on == "trait_roll" or (on == "event_roll" and from_event)
            if applies and (not m.get("traits") or trait in m["traits"]):
                total += _as_int(m.get("dice"))
    return total


def rerolls_blanks(state: BetrayalState, seat: int, trait: str) -> bool:
    explorer = state.explorers[seat]
    return any(m.get("on") == "trait_roll" and m.get("reroll") == "blanks"
               and (not m.get("traits") or trait in m["traits"])
               for key in [*explorer.cards, *explorer.lasting]
               for m in content.card(key).modifiers)


def total_of(spec: dict[str, Any]) -> int:
    if spec.get("fixed") is not None:
        return int(spec["fixed"])
    rolled: list[int] = spec.get("rolled", [])
    return sum(rolled) + int(spec.get("bonus", 0))


@step("roll")
def _roll_public(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    spec = dict(arg)
    if "choose" in spec:  # the explorer picks the trait to roll (Spider, Possession)
        names = list(spec.pop("choose"))
        pause(ctx, frame, {"_roll_choose": {"traits": names, "roll": spec}}, "roll_trait",
              content.betrayal_line("prompts.roll_which"), [content.trait_name(t) for t in names])
        return
    spec["stage"] = "start"
    ctx.push_child(frame, [{"_roll": spec}])


@resumer("roll_trait")
def _roll_trait(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    spec = dict(raw["_roll_choose"]["roll"])
    trait = raw["_roll_choose"]["traits"][pick]
    frame.vars["chosen"] = trait
    spec.update(trait=trait, stage="start")
    ctx.push_child(frame, [{"_roll": spec}])


def _offers(ctx: Ctx, frame: Frame, spec: dict[str, Any], stage: str) -> list[dict[str, Any]]:
    """What the roller's passives offer at this stage. An explorer held fast (Webs,
    Debris: hooks.blocked) uses no card it holds, on any roll, its own try to break
    free included (seed 003: while the card is kept, no actions and no items); a
    foreseen roll (It Is Meant To Be) is no card, and stays on offer."""
    used = set(spec.get("used", []))
    state = ctx.state
    held = set(state.explorers[frame.seat].cards) if hooks.blocked(state, frame.seat) else set()
    return [offer_data(o, p.name, ref)
            for p, ref in hooks.of_explorer(state, frame.seat, RollPassive) if ref not in held
            for o in p.roll_offers(ctx, frame, spec, stage, ref) if o.id not in used]


@step("_roll")
def _roll(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    spec = dict(arg)
    state = ctx.state
    if spec["stage"] == "start":
        spec.update(count=dice_for(state, frame, spec), stage="pre", used=[], bonus=0)
    if spec["stage"] == "pre" and spec.get("fixed") is None:
        offers = [] if spec.get("go") else _offers(ctx, frame, spec, "pre")
        if offers:
            spec["offers"] = offers
            labels = [content.betrayal_line("labels.roll_now", count=spec["count"])]
            pause(ctx, frame, {"_roll": spec}, "roll_pre", _prompt(ctx, frame, spec),
                  labels + [o["label"] for o in offers])
            return
        spec["rolled"] = roll_betrayal(state.rng, int(spec["count"]))
        trait = spec.get("trait")
        if trait and is_trait_roll(spec) and rerolls_blanks(state, frame.seat, trait):
            spec["rolled"] = [d if d else roll_betrayal(state.rng, 1)[0] for d in spec["rolled"]]
        if any(p.drops_highest(state, frame, spec, ref)
               for p, ref in hooks.around(state, frame.seat, RollPassive)):
            rolled = list(spec["rolled"])
            highest = max(rolled)
            rolled.remove(highest)
            spec["rolled"] = rolled
            ctx.say("events.roll_drops_highest", who=ctx.who(frame.seat), die=highest)
        spec["stage"] = "post"
    if spec["stage"] == "post" and spec.get("fixed") is None and not spec.get("kept"):
        offers = _offers(ctx, frame, spec, "post")
        if offers:
            spec["offers"] = offers
            labels = [content.betrayal_line("labels.roll_keep", total=total_of(spec),
                                            dice=_dice_text(spec))]
            pause(ctx, frame, {"_roll": spec}, "roll_post", _prompt(ctx, frame, spec),
                  labels + [o["label"] for o in offers])
            return
    _finish(ctx, frame, spec)


def _prompt(ctx: Ctx, frame: Frame, spec: dict[str, Any]) -> str:
    what = content.trait_name(str(spec["trait"])) if spec.get("trait") else content.betrayal_line(
        "labels.plain_dice", count=spec["count"])
    if spec.get("rolled") is not None and spec["stage"] == "post":
        return content.betrayal_line("prompts.roll_after", what=what, total=total_of(spec))
    return content.betrayal_line("prompts.roll_before", what=what, count=spec["count"])


def _dice_text(spec: dict[str, Any]) -> str:
    return " ".join(str(d) for d in spec.get("rolled", []))


def _finish(ctx: Ctx, frame: Frame, spec: dict[str, Any]) -> None:
    total = total_of(spec)
    what = content.trait_name(str(spec["trait"])) if spec.get("trait") else content.betrayal_line(
        "labels.plain_dice", count=spec["count"])
    data = {"seat": frame.seat, "dice": list(spec.get("rolled", [])), "total": total,
            "trait": spec.get("trait")}
    if spec.get("fixed") is not None:
        ctx.say("events.roll_fixed", kind="roll", who=ctx.who(frame.seat), what=what,
                total=total, data=data)
    else:
        bonus = int(spec.get("bonus", 0))
        ctx.say("events.roll" if not bonus else "events.roll_bonus", kind="roll",
                who=ctx.who(frame.seat), what=what, dice=_dice_text(spec), total=total,
                bonus=bonus, data=data)
    ctx.state.turn.flags["last_roll"] = total
    _note_roll(ctx.state, frame, spec, total)
    if spec.get("then"):
        ctx.push_child(frame, spec["then"], roll=total)
    for outcome in spec.get("outcomes", []):
        if int(outcome.get("min", -99)) <= total <= int(outcome.get("max", 99)):
            ctx.push_child(frame, outcome.get("do") or [], roll=total)
            break


def _take_offer(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int, declined: str) -> None:
    """Pick 0 declines every offer (the roll goes on: `declined` is set); any other pick
    applies that card's offer to the roll."""
    spec = raw["_roll"]
    offers = spec.pop("offers", [])
    if pick == 0:
        spec[declined] = True
        return
    offer, name, ref = offer_from(offers[pick - 1])
    spec.setdefault("used", []).append(offer.id)
    hooks.named(name, RollPassive).roll_apply(ctx, frame, spec, offer, ref)


@resumer("roll_pre")
def _roll_pre(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    _take_offer(ctx, frame, raw, pick, "go")


@resumer("roll_post")
def _roll_post(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    _take_offer(ctx, frame, raw, pick, "kept")


def ask_value(ctx: Ctx, frame: Frame, kind: str, prompt: str, top: int) -> None:
    """A follow-up choice of a number 0..top for the paused roll (Angel Feather)."""
    ask(ctx, frame.seat, kind, prompt, [str(v) for v in range(top + 1)])


def reroll(ctx: Ctx, spec: dict[str, Any], positions: list[int]) -> None:
    """Roll again the dice at these positions of a paused roll."""
    rolled = list(spec.get("rolled", []))
    for i in positions:
        rolled[i] = roll_betrayal(ctx.state.rng, 1)[0]
    spec["rolled"] = rolled
