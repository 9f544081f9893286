"""The step interpreter: runs the step lists of data/betrayal/ (README.md's vocabulary).

`state.script` is a stack of frames (state.Frame); the top frame's first step runs
next. A step may push more frames (an outcome's `do`, a drawn card's effect), which
then run before the rest of its own frame. A step that needs a decision puts itself
back first in its frame and sets `state.pending` (`pause`); the choice's resumer
(`cards.RESUMERS[kind]`) finds it there, updates or pops it, and `run` goes on. So the
continuation is plain data: a game saved in the middle of a card resumes exactly.

Discipline: a step either pushes frames or pauses, never both (the paused step must be
first in the top frame). Engine-internal steps start with `_`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.choices import PendingChoice
from bot.games.betrayal import content, damage_split, hooks, traits
from bot.games.betrayal import dice as betrayal_dice
from bot.games.betrayal.cards import (
    HANDLERS,
    RESUMERS,
    Cause,
    DamagePassive,
    HandPassive,
    Offer,
    resumer,
)
from bot.games.betrayal.content import TRAITS
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death
from bot.games.betrayal.links import LINK_TOKENS, join_last
from bot.games.betrayal.state import Frame

STEPS: dict[str, Callable[[Ctx, Frame, Any], None]] = {}
# The vocabulary of data/betrayal/README.md; `move` and `token` are registered by
# movement.py, which builds on this module.
README_STEPS: tuple[str, ...] = ("roll", "gain", "lose", "damage", "heal", "draw", "move",
                                 "attack", "token", "lasting", "custom")
RUN_LIMIT = 10_000  # no real card chain comes near this; it catches a runaway loop


def step(name: str) -> Callable[[Callable[[Ctx, Frame, Any], None]],
                                Callable[[Ctx, Frame, Any], None]]:
    def register(fn: Callable[[Ctx, Frame, Any], None]) -> Callable[[Ctx, Frame, Any], None]:
        STEPS[name] = fn
        return fn
    return register


def run(ctx: Ctx) -> None:
    """Run steps until the script is empty, a choice is pending, or the game is over."""
    state = ctx.state
    for _ in range(RUN_LIMIT):
        if state.pending is not None or state.over or not state.script:
            return
        frame = state.script[-1]
        if not frame.steps:
            state.script.pop()
            continue
        raw = frame.steps.pop(0)
        if state.haunt is not None and death.skips(state, frame.seat, raw, frame.source):
            continue  # nothing more happens to the dead (haunting/death.py)
        execute(ctx, frame, raw)
    raise RuntimeError("the step interpreter did not settle")


def execute(ctx: Ctx, frame: Frame, raw: dict[str, Any]) -> None:
    if len(raw) != 1:
        raise ValueError(f"a step has exactly one key: {raw!r}")
    ((kind, arg),) = raw.items()
    fn = STEPS.get(kind)
    if fn is None:
        raise ValueError(f"unknown step {kind!r}")
    fn(ctx, frame, arg)


def ask(ctx: Ctx, seat: int, kind: str, prompt: str, labels: list[str],
        payload: dict[str, Any] | None = None, *, private: bool = False) -> None:
    """Set a pending choice (the paused step must already be first in the top frame).

    `private`: the labels show hidden cards (a deck's top), so only the chooser sees them.
    """
    ctx.state.pending = PendingChoice(seat, prompt, kind, labels, payload or {}, private)
    ctx.say("events.choosing", kind="choice", who=ctx.who(seat), prompt=prompt)


def pause(ctx: Ctx, frame: Frame, raw: dict[str, Any], kind: str, prompt: str,
          labels: list[str], payload: dict[str, Any] | None = None,
          seat: int | None = None, *, private: bool = False) -> None:
    """Put `raw` back first in its frame and ask its explorer (or `seat`) to choose."""
    frame.steps.insert(0, raw)
    ask(ctx, frame.seat if seat is None else seat, kind, prompt, labels, payload,
        private=private)


def resume(ctx: Ctx, pick: int) -> None:
    """Apply a pick to the paused step and go on running."""
    state = ctx.state
    pending = state.pending
    assert pending is not None
    state.pending = None
    ctx.resumed = pending
    frame = state.script[-1]
    RESUMERS[pending.kind](ctx, frame, frame.steps[0], pick)
    ctx.resumed = None
    run(ctx)


def offer_data(offer: Offer, passive: str, ref: Any) -> dict[str, Any]:
    """An offer as plain data for a pending payload."""
    return {"id": offer.id, "label": offer.label, "data": offer.data, "passive": passive,
            "ref": list(ref) if isinstance(ref, tuple) else ref}


def offer_from(raw: dict[str, Any]) -> tuple[Offer, str, Any]:
    ref = raw["ref"]
    return (Offer(raw["id"], raw["label"], dict(raw["data"])), raw["passive"],
            tuple(ref) if isinstance(ref, list) else ref)


# ---------------------------------------------------------------- traits

def change(ctx: Ctx, seat: int, trait: str, amount: int, cause: Cause) -> None:
    """Gain (amount > 0) or lose (< 0) steps on a track because of `cause` (the card or
    room whose steps these are), say so, and tell the explorer's passives."""
    before = traits.value(ctx.state, seat, trait)
    moved = traits.shift(ctx.state, seat, trait, amount)
    after = traits.value(ctx.state, seat, trait)
    key = "gain" if amount > 0 else "lose"
    if moved == 0:  # at the end of its track: the line says so, not "4 → 4"
        ctx.say(f"events.{key}_none", kind="trait", who=ctx.who(seat),
                trait=content.trait_name(trait), amount=abs(amount), value=after)
        return
    line = f"events.{key}" if before != after else f"events.{key}_same"  # a repeated value
    if traits.index(ctx.state, seat, trait) < 0:
        line = "events.lose_skull"  # 0 there is death: the line says where it fell
    ctx.say(line, kind="trait", who=ctx.who(seat), trait=content.trait_name(trait),
            amount=abs(moved), before=before, after=after, value=after,
            data={"seat": seat, "trait": trait, "moved": moved})
    trait_moved(ctx, seat, trait, moved, cause)
    if traits.index(ctx.state, seat, trait) < 0:
        death.die(ctx, seat)


def heal(ctx: Ctx, seat: int, trait: str, cause: Cause) -> bool:
    """Raise a trait below its starting value back to it (say so, tell the passives);
    False when it was not below."""
    before = traits.value(ctx.state, seat, trait)
    moved = traits.heal(ctx.state, seat, trait)
    if not moved:
        return False
    after = traits.value(ctx.state, seat, trait)
    ctx.say("events.heal" if before != after else "events.heal_same", kind="trait",
            who=ctx.who(seat), trait=content.trait_name(trait), before=before, after=after,
            data={"seat": seat, "trait": trait, "moved": moved})
    trait_moved(ctx, seat, trait, moved, cause)
    return True


def trait_moved(ctx: Ctx, seat: int, trait: str, moved: int, cause: Cause) -> None:
    """Every trait change goes through here: the explorer's passives hear of it."""
    for passive, ref in list(hooks.of_explorer(ctx.state, seat, HandPassive)):
        passive.trait_changed(ctx, seat, trait, moved, cause, ref)


def change_label(trait: str, before: int, after: int, *, stuck: str = "") -> str:
    """A choice's label for a trait about to change: "Might (3 → 4)"; a step onto the
    same value, or none at all at an end of the track (`stuck`: "highest"/"lowest"),
    is said in words rather than as "4 → 4"."""
    name = content.trait_name(trait)
    if stuck:
        return content.betrayal_line(f"labels.trait_{stuck}", trait=name, before=before)
    if before == after:
        return content.betrayal_line("labels.trait_same", trait=name, before=before)
    return content.betrayal_line("labels.trait_change", trait=name, before=before, after=after)


def _trait_labels(ctx: Ctx, seat: int, names: list[str], amount: int) -> list[str]:
    labels = []
    for t in names:
        before = traits.value(ctx.state, seat, t)
        probe = traits.index(ctx.state, seat, t)
        after_i = max(traits.floor_index(ctx.state), min(traits.TOP, probe + amount))
        after = 0 if after_i < 0 else traits.track(ctx.state, seat, t).values[after_i]
        stuck = "" if after_i != probe else "highest" if amount > 0 else "lowest"
        labels.append(change_label(t, before, after, stuck=stuck))
    return labels


def _movable(names: list[str], ctx: Ctx, seat: int, sign: int) -> list[str]:
    """The traits a gain (sign > 0) or loss would move: one at the end of its track
    changes nothing, so it is offered only when every one is (the first stands in)."""
    index = {t: traits.index(ctx.state, seat, t) for t in names}
    moving = [t for t in names if (index[t] < traits.TOP if sign > 0
                                   else traits.can_lower(ctx.state, seat, t))]
    return moving or names[:1]


def _gain_or_lose(ctx: Ctx, frame: Frame, arg: dict[str, Any], sign: int) -> None:
    amount = int(arg.get("amount", 1)) * sign
    if "choose" in arg:
        names = _movable([t for t in arg["choose"] if t in TRAITS], ctx, frame.seat, sign)
        if len(names) == 1:  # no choice left: a trait stuck at its end is not offered
            frame.vars["chosen"] = names[0]
            change(ctx, frame.seat, names[0], amount, Cause.of(frame))
            return
        pause(ctx, frame, {"_trait_pick": {"traits": names, "amount": amount}},
              "trait_pick",
              content.betrayal_line("prompts.gain" if sign > 0 else "prompts.lose",
                                    amount=abs(amount)),
              _trait_labels(ctx, frame.seat, names, amount))
        return
    trait = arg.get("trait")
    if trait == "chosen":
        trait = frame.vars.get("chosen")
    if trait == "all":
        for t in TRAITS:
            change(ctx, frame.seat, t, amount, Cause.of(frame))
        return
    change(ctx, frame.seat, str(trait), amount, Cause.of(frame))


@step("gain")
def _gain(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    _gain_or_lose(ctx, frame, arg, 1)


@step("lose")
def _lose(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    _gain_or_lose(ctx, frame, arg, -1)


@resumer("trait_pick")
def _trait_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    spec = raw["_trait_pick"]
    trait = spec["traits"][pick]
    frame.vars["chosen"] = trait
    change(ctx, frame.seat, trait, int(spec["amount"]), Cause.of(frame))


@step("heal")
def _heal(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    for t in arg.get("traits", TRAITS):
        heal(ctx, frame.seat, t, Cause.of(frame))


# ---------------------------------------------------------------- damage

@step("damage")
def _damage_step(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    kind = str(arg.get("kind", "general"))
    if "dice" in arg:
        ctx.push_child(frame, [{"roll": {"dice": int(arg["dice"]), "purpose": "damage",
                                         "then": [{"_damage": {"kind": kind,
                                                               "from_roll": True}}]}}])
        return
    ctx.push_child(frame, [{"_damage": {"kind": kind, "amount": int(arg.get("amount", 1))}}])


@step("_damage")
def _damage(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    spec = dict(arg)
    if spec.pop("from_roll", False):
        spec["amount"] = int(frame.vars.get("roll", 0))
    seat = frame.seat
    shield = next((ref for p, ref in hooks.of_explorer(ctx.state, seat, DamagePassive)
                   if p.shields(ctx.state, seat, frame.source, ref)), None)
    if shield is not None and spec["amount"] > 0:
        ctx.say("events.damage_shielded", who=ctx.who(seat), card=content.card(shield).name
                if shield in content.get().cards else shield)
        return
    if not spec.get("offered"):
        spec["offered"] = True
        offers = [offer_data(o, p.name, ref)
                  for p, ref in hooks.of_explorer(ctx.state, seat, DamagePassive)
                  for o in p.damage_offers(ctx, frame, spec, ref)]
        if offers and spec["amount"] > 0:
            labels = [content.betrayal_line("labels.damage_as_is", amount=spec["amount"],
                                            kind=content.damage_name(spec["kind"]))]
            labels += [o["label"] for o in offers]
            spec["offers"] = offers
            pause(ctx, frame, {"_damage": spec}, "damage_offer",
                  content.betrayal_line("prompts.damage_offer", amount=spec["amount"],
                                        kind=content.damage_name(spec["kind"])),
                  labels)
            return
    if not spec.get("reduced"):
        spec["reduced"] = True
        for key in ctx.state.explorers[seat].cards:
            for m in content.card(key).modifiers:
                if m.get("on") == "damage" and m.get("kind", spec["kind"]) == spec["kind"] \
                        and spec["amount"] > 0:
                    cut = min(spec["amount"], int(m.get("reduce", 0)))
                    spec["amount"] -= cut
                    ctx.say("events.damage_reduced", who=ctx.who(seat),
                            card=content.card(key).name, amount=cut)
        line = "events.damage" if spec["amount"] > 0 else "events.damage_none"  # not "0"
        ctx.say(line, kind="damage", who=ctx.who(seat), amount=spec["amount"],
                damage=content.damage_name(spec["kind"]),
                data={"seat": seat, "amount": spec["amount"]})
    split_damage(ctx, frame, spec)


def split_damage(ctx: Ctx, frame: Frame, spec: dict[str, Any]) -> None:
    """The damaged explorer splits the damage among the traits in one pick (seed 003: the
    loser splits); see damage_split.py for how a long list is asked in two steps."""
    seat, amount = frame.seat, int(spec["amount"])
    allowed = list(spec.get("traits", traits.DAMAGE_TRAITS[spec["kind"]]))
    lowerable = [t for t in allowed if traits.can_lower(ctx.state, seat, t)]
    if amount <= 0 or not lowerable or not ctx.state.explorers[seat].alive:
        return  # the dead (seed 003, the haunt) take no more of it
    options = damage_split.choices(ctx.state, seat, lowerable, amount)
    if len(options) == 1:  # one way only (one trait left, or every trait takes its all)
        _take_split(ctx, frame, options[0])
        return
    labels = [damage_split.label(ctx.state, seat, c, amount, lowerable[0]) for c in options]
    spec = {**spec, "traits": lowerable, "choices": [damage_split.to_data(c) for c in options]}
    pause(ctx, frame, {"_damage": spec}, "damage_split",
          content.betrayal_line("prompts.damage_split", amount=amount,
                                kind=content.damage_name(spec["kind"])), labels)


def _take_split(ctx: Ctx, frame: Frame, choice: damage_split.Choice) -> None:
    """Lower each trait by its share, in order; one that kills stops the rest."""
    for trait, points in choice.parts:
        if not ctx.state.explorers[frame.seat].alive:
            return
        change(ctx, frame.seat, trait, -points, Cause.of(frame))


@resumer("damage_split")
def _damage_split(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    """A whole split ends the step; a first share lowers that trait and leaves the rest
    of the damage, on the other traits, to be split next."""
    spec = raw["_damage"]
    choice = damage_split.from_data(spec["choices"][pick])
    _take_split(ctx, frame, choice)
    if not choice.partial:
        frame.steps.pop(0)
        return
    spec["amount"] = int(spec["amount"]) - sum(p for _, p in choice.parts)
    spec["traits"] = list(spec["traits"])[1:]
    if spec["amount"] <= 0:
        frame.steps.pop(0)


@resumer("damage_offer")
def _damage_offer(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    """0 takes the damage as it is; otherwise the passive (the Skull) edits the step."""
    spec = raw["_damage"]
    offers = spec.pop("offers", [])
    if pick > 0:
        offer, name, ref = offer_from(offers[pick - 1])
        hooks.named(name, DamagePassive).damage_apply(ctx, frame, spec, offer, ref)


# ---------------------------------------------------------------- cards, moves, tokens

@step("draw")
def _draw(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    ctx.push_child(frame, [{"_draw_card": {"deck": arg["deck"]}}
                           for _ in range(int(arg.get("count", 1)))])


def put_token(ctx: Ctx, frame: Frame, arg: dict[str, Any], tile_id: int) -> None:
    """Lay a token; frame.vars["token:<kind>"] remembers where, for the card's next steps
    (a Secret Passage's other end links back to it)."""
    tile = ctx.state.tiles[tile_id]
    token: dict[str, Any] = {"kind": arg["kind"], "card": arg.get("card", frame.source)}
    explorer = ctx.state.explorers[frame.seat]
    if explorer.tile == tile_id and explorer.side:
        token["side"] = explorer.side
    tile.tokens.append(token)
    previous = frame.vars.get(f"token:{arg['kind']}")
    if arg["kind"] in LINK_TOKENS and previous is not None and previous != tile_id:
        join_last(ctx.state, arg["kind"], int(previous), tile_id)
    frame.vars[f"token:{arg['kind']}"] = tile_id
    ctx.say("events.token", kind="token", token=content.token_name(arg["kind"]),
            room=ctx.room_name(tile_id), data={"tile": tile_id, "token": arg["kind"]})


@step("lasting")
def _lasting(ctx: Ctx, frame: Frame, arg: Any) -> None:
    key = frame.source
    if key in ctx.state.resolving:
        ctx.state.resolving.remove(key)
        ctx.state.explorers[frame.seat].lasting.append(key)
        ctx.say("events.lasting", kind="card", who=ctx.who(frame.seat),
                card=content.card(key).name)


@step("custom")
def _custom(ctx: Ctx, frame: Frame, arg: Any) -> None:
    name, args = (arg, None) if isinstance(arg, str) else next(iter(dict(arg).items()))
    fn = HANDLERS.get(name)
    if fn is None:
        ctx.say("events.not_ready", source=_source_name(frame.source), name=name)
        return
    fn(ctx, frame, args)


def _source_name(key: str) -> str:
    if key in content.get().cards:
        return content.card(key).name
    if key in content.get().rooms:
        return content.room(key).name
    return key


# ---------------------------------------------------------------- attacks

@step("attack")
def _attack(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """An unseen thing attacks: its dice (rolled for it) against the explorer's trait.
    The winner's margin is the loser's damage; only the explorer can be hurt."""
    trait = str(arg.get("trait", "might"))
    dice = betrayal_dice.roll_betrayal(ctx.state.rng, int(arg.get("dice", 4)))
    ctx.say("events.attack", kind="roll", who=ctx.who(frame.seat), strength=len(dice),
            trait=content.trait_name(trait), dice=" ".join(map(str, dice)), total=sum(dice),
            data={"dice": dice, "total": sum(dice)})
    ctx.push_child(frame, [{"roll": {"trait": trait, "purpose": "defense",
                                     "then": [{"_attack_result": {"attacker": sum(dice),
                                                                  "trait": trait}}]}}])


@step("_attack_result")
def _attack_result(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    margin = int(arg["attacker"]) - int(frame.vars.get("roll", 0))
    ctx.state.turn.flags["last_attack"] = {"seat": frame.seat, "damage": max(0, margin)}
    if margin <= 0:
        ctx.say("events.attack_fended", who=ctx.who(frame.seat))
        return
    kind = "physical" if arg["trait"] in ("might", "speed") else "mental"
    ctx.push_child(frame, [{"_damage": {"kind": kind, "amount": margin}}])
