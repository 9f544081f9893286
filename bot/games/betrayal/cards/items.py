"""The items whose effect the step vocabulary cannot say (items.yaml `custom:`), seed 003.

- Armor (`armor`): the 1 point off each physical damage is its data modifier
  (`on: damage, kind: physical, reduce: 1`, applied by effects.py); what the passive
  adds is that it cannot be stolen (`cannot_be_stolen`, which cards/attacks.py's steal reads).
- Bell, Book and Candle (`bell_book_candle`, on the Candle): holding all three gives
  +2 in every trait; once the explorer no longer holds all three, -2 in every trait.
  Each time the set is completed / broken (items.yaml's note). While the bonus is on,
  the explorer's `flags` hold `bell_book_candle`, which keeps this passive watching even
  after the Candle itself has gone.
- Healing Salve, Smelling Salts, Medical Kit: on their user or on an explorer in the
  same room (and on the same side of a split room, RULING, as for a trade); never on
  the dead. The Salve lifts Might and Speed, the Salts Knowledge, back to their starting
  values. The Kit's Knowledge roll (its user's) restores 3 / 2 / 1 / 0 points of Might
  and Speed (8+ / 6-7 / 4-5 / 0-3), never above the starting values; the explorer being
  healed places each point (items.yaml's note).
- Mystic Coin (`mystic_coin_edge`, on a 0): lose 1 Might or Speed and 1 Knowledge or
  Sanity.

Plain steps do the rest (the Amulet, the Bottle, the Puzzle Box...); roll-bending items
live in rolls.py, the Rope and the Skeleton Key in basics.py. Haunt-time combat (the
Revolver, the Blood Dagger) is haunting/combat.py's; the Dynamite, the Druidic Charm's
flash and the Bell's use are cards/haunt_cards.py's; the Toy Monkey has its own module.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, items, traits
from bot.games.betrayal.cards import Cause, HandPassive, handler, passive, resumer
from bot.games.betrayal.cards.omens import card_name
from bot.games.betrayal.content import PHYSICAL, TRAITS
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import change, change_label, heal, pause, step
from bot.games.betrayal.state import BetrayalState, Frame

# ---------------------------------------------------------------- Armor

@passive("armor")
class Armor(HandPassive):
    """Its -1 physical damage is the card's `modifiers` entry (effects.py applies it);
    the heavy suit cannot be stolen (seed 003)."""

    def cannot_be_stolen(self, state: BetrayalState, seat: int, ref: Any) -> bool:
        return True


# ---------------------------------------------------------------- Bell, Book and Candle

SET: tuple[str, ...] = ("bell", "book", "candle")
SET_FLAG = "bell_book_candle"  # the passive's own name: it stays attached through flags
SET_BONUS = 2


def holds_set(state: BetrayalState, seat: int) -> bool:
    return all(k in state.explorers[seat].cards for k in SET)


@passive(SET_FLAG)
class BellBookCandle(HandPassive):
    def cards_changed(self, ctx: Ctx, seat: int, ref: Any) -> None:
        flags = ctx.state.explorers[seat].flags
        whole = holds_set(ctx.state, seat)
        if whole and not flags.get(SET_FLAG):
            flags[SET_FLAG] = True
            ctx.say("events.set_complete", who=ctx.who(seat))
            sign = 1
        elif not whole and flags.get(SET_FLAG):
            flags.pop(SET_FLAG)
            ctx.say("events.set_broken", who=ctx.who(seat))
            sign = -1
        else:
            return
        for t in TRAITS:  # the set's bonus is the Candle's (an item card)
            change(ctx, seat, t, sign * SET_BONUS, Cause("item", "candle"))


# ---------------------------------------------------------------- healing

def patients(state: BetrayalState, seat: int) -> list[int]:
    """Who a healing item may be used on: its user, then the living explorers with it."""
    found = [seat] if state.explorers[seat].alive else []
    return found + [o for o in range(len(state.explorers)) if items.together(state, seat, o)]


def with_patient(ctx: Ctx, frame: Frame, then: dict[str, Any]) -> None:
    """Run the step `then` next, with `"patient": seat` added (asking who, if others
    stand with the user)."""
    found = patients(ctx.state, frame.seat)
    name, arg = next(iter(then.items()))
    if not found:
        return
    if len(found) == 1:
        frame.steps.insert(0, {name: {**arg, "patient": found[0]}})
        return
    pause(ctx, frame, {"_patient": {"seats": found, "then": then}}, "patient_pick",
          content.betrayal_line("prompts.patient", card=card_name(frame.source)),
          [ctx.who(s) for s in found])


@resumer("patient_pick")
def _patient_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_patient"]
    name, arg = next(iter(spec["then"].items()))
    frame.steps.insert(0, {name: {**arg, "patient": spec["seats"][pick]}})


@step("_restore")
def _restore(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Traits below their starting values go back up to them."""
    seat = int(arg["patient"])
    healed = [heal(ctx, seat, t, Cause.of(frame)) for t in arg["traits"]]
    if not any(healed):
        ctx.say("events.nothing_to_heal", who=ctx.who(seat), card=card_name(frame.source))


@handler("healing_salve")
def healing_salve(ctx: Ctx, frame: Frame, args: Any) -> None:
    with_patient(ctx, frame, {"_restore": {"traits": list(PHYSICAL)}})


@handler("smelling_salts")
def smelling_salts(ctx: Ctx, frame: Frame, args: Any) -> None:
    with_patient(ctx, frame, {"_restore": {"traits": ["knowledge"]}})


MEDICAL_BANDS: tuple[tuple[int, int, int], ...] = ((8, 99, 3), (6, 7, 2), (4, 5, 1), (-99, 3, 0))


@handler("medical_kit")
def medical_kit(ctx: Ctx, frame: Frame, args: Any) -> None:
    with_patient(ctx, frame, {"_medical_kit_roll": {}})


@step("_medical_kit_roll")
def _medical_kit_roll(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    patient = int(arg["patient"])
    outcomes = [{"min": low, "max": high,
                 "do": [{"_medical_kit": {"patient": patient, "points": points}}]}
                for low, high, points in MEDICAL_BANDS]
    ctx.push_child(frame, [{"roll": {"trait": "knowledge", "outcomes": outcomes}}])


@step("_medical_kit")
def _medical_kit(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    patient, points, given = int(arg["patient"]), int(arg["points"]), int(arg.get("given", 0))
    if points <= 0 and not given:
        ctx.say("events.medical_kit_fail", who=ctx.who(patient))
        return
    below = [t for t in PHYSICAL if traits.below_start(state, patient, t)]
    if points <= 0 or not below:
        if not given:
            ctx.say("events.nothing_to_heal", who=ctx.who(patient),
                    card=card_name("medical_kit"))
        return
    if len(below) == 1:
        t = below[0]
        gap = traits.track(state, patient, t).start - traits.index(state, patient, t)
        change(ctx, patient, t, min(points, gap), Cause.of(frame))
        return
    labels = []
    for t in below:
        probe = traits.index(state, patient, t)
        values = traits.track(state, patient, t).values
        labels.append(change_label(t, traits.value(state, patient, t), values[probe + 1]))
    pause(ctx, frame, {"_medical_kit": {"patient": patient, "points": points, "given": given,
                                        "traits": below}},
          "medical_kit_point", content.betrayal_line("prompts.medical_kit", points=points), labels,
          seat=patient)


@resumer("medical_kit_point")
def _medical_kit_point(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_medical_kit"]
    patient = int(spec["patient"])
    change(ctx, patient, spec["traits"][pick], 1, Cause.of(frame))
    if int(spec["points"]) > 1:
        frame.steps.insert(0, {"_medical_kit": {"patient": patient,
                                                "points": int(spec["points"]) - 1,
                                                "given": int(spec["given"]) + 1}})


# ---------------------------------------------------------------- Mystic Coin

@handler("mystic_coin_edge")
def mystic_coin_edge(ctx: Ctx, frame: Frame, args: Any) -> None:
    ctx.say("events.coin_edge")
    ctx.push_child(frame, [{"lose": {"choose": list(PHYSICAL), "amount": 1}},
                           {"lose": {"choose": ["knowledge", "sanity"], "amount": 1}}])
