"""Cards that bend a roll: before the dice (Angel Feather, Adrenaline Shot, a foreseen
roll from It Is Meant To Be) or after them (Lucky Stone, Rabbit's Foot).

They are offered by rolls.py when their holder rolls (see its stages). The Candle's
extra die is plain data (`modifiers: on: event_roll`). A passive's `roll_apply` may
ask a follow-up question (which value, which dice) but must not push steps while it
asks: the card is discarded by the follow-up's resumer instead.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from bot.core.events import to_player
from bot.games.betrayal import content, decks
from bot.games.betrayal.cards import Offer, RollPassive, handler, passive, resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import ask, pause, step
from bot.games.betrayal.rolls import AFTER_TURN, ask_value, is_trait_roll, reroll, total_of
from bot.games.betrayal.state import Frame
from bot.texts import listed

TOP = 8  # the Angel Feather's highest pick (seed 003: 0 to 8)


def _discard(ctx: Ctx, seat: int, key: str) -> None:
    if key in ctx.state.explorers[seat].cards:
        ctx.say("events.discarded", who=ctx.who(seat), card=content.card(key).name)
        decks.take_card(ctx, seat, key, to="discard")


@passive("angel_feather")
class AngelFeather(RollPassive):
    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        if stage != "pre":
            return []
        return [Offer("angel_feather", content.betrayal_line("labels.angel_feather"))]

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        roll["feather"] = ref
        ask_value(ctx, frame, "roll_value", content.betrayal_line("prompts.angel_feather"), TOP)


@resumer("roll_value")
def _roll_value(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_roll"]
    spec["fixed"] = pick
    _discard(ctx, frame.seat, spec.pop("feather"))


@passive("adrenaline_shot")
class AdrenalineShot(RollPassive):
    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        if stage != "pre" or not is_trait_roll(roll):
            return []
        return [Offer("adrenaline_shot", content.betrayal_line("labels.adrenaline"))]

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        roll["bonus"] = int(roll.get("bonus", 0)) + 4
        _discard(ctx, frame.seat, ref)


PICKED = "stone_picked"  # the paused roll's dice (positions) picked for the Lucky Stone


@passive("lucky_stone")
class LuckyStone(RollPassive):
    """After any roll, once: reroll any number of its dice, the ones the player picks
    (seed 003, not a preset set). The dice are picked one at a time (a button each: 8
    dice at most, so 9 options), then rerolled together; rerolling none keeps the stone."""

    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        if stage != "post":
            return []
        return [Offer("lucky_stone", content.betrayal_line("labels.lucky_stone"))]

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        roll["stone"] = ref
        roll[PICKED] = []
        _ask_lucky(ctx, frame, roll)


def _ask_lucky(ctx: Ctx, frame: Frame, spec: dict[str, Any]) -> None:
    """Option 0 rerolls the picked dice (none picked: keeps the stone); option i picks
    die i, or drops it again if it was picked, and asks again."""
    rolled = list(spec.get("rolled", []))
    picked = spec[PICKED]
    first = (content.betrayal_line("labels.lucky_reroll",
                                   dice=" ".join(str(rolled[i]) for i in picked))
             if picked else content.betrayal_line("labels.lucky_none"))
    dice = [content.betrayal_line("labels.lucky_die_picked" if i in picked else "labels.lucky_die",
                                  n=i + 1, face=face) for i, face in enumerate(rolled)]
    ask(ctx, frame.seat, "lucky_pick",
        content.betrayal_line("prompts.lucky_stone", dice=" ".join(map(str, rolled))), [first,
                                                                                        *dice])


@resumer("lucky_pick")
def _lucky_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = raw["_roll"]
    picked: list[int] = spec[PICKED]
    if pick:
        die = pick - 1
        spec[PICKED] = [i for i in picked if i != die] if die in picked else sorted(
            [*picked, die])
        _ask_lucky(ctx, frame, spec)
        return
    del spec[PICKED]
    stone = spec.pop("stone")
    if not picked:
        return  # not used after all: the roll's other offers come back, the stone stays
    reroll(ctx, spec, picked)
    ctx.say("events.rerolled", who=ctx.who(frame.seat), dice=" ".join(map(str, spec["rolled"])),
            total=total_of(spec))
    _discard(ctx, frame.seat, stone)


@passive("rabbits_foot")
class RabbitsFoot(RollPassive):
    """On its holder's turn, once: reroll one die of a roll just made, any die (seed
    003: a 2 too, though that can only lower the total). Dice of one face are alike,
    so it offers one reroll a face shown (3 options at most). Seed 003: 人物在其回合中
    [during its turn]: not the haunt roll, made once the turn is over (AFTER_TURN)."""

    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        turn = ctx.state.turn
        if stage != "post" or turn.seat != frame.seat or ref in turn.used \
                or roll.get(AFTER_TURN):
            return []
        faces = sorted(set(roll.get("rolled", [])))
        return [Offer(f"rabbit-{face}", content.betrayal_line("labels.rabbits_foot", face=face),
                      {"face": face}) for face in faces]

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        ctx.state.turn.used.append(ref)
        rolled = roll.get("rolled", [])
        roll["used"] = [*roll.get("used", []), *(f"rabbit-{f}" for f in (0, 1, 2))]
        reroll(ctx, roll, [rolled.index(offer.data["face"])])
        ctx.say("events.rerolled", who=ctx.who(frame.seat),
                dice=" ".join(map(str, roll["rolled"])), total=total_of(roll))


# ---------------------------------------------------------------- It Is Meant To Be

MEANT = "it_is_meant_to_be"
PEEK_SOURCES: tuple[str, ...] = ("item", "event", "omen", "rooms")


@handler(MEANT)
def it_is_meant_to_be(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Choose: order the top 3 of a deck (or the room stack), or roll 4 dice and keep
    the total to play later instead of a roll."""
    pause(ctx, frame, {"_meant": {}}, "meant_choice", content.betrayal_line("prompts.meant"),
          [content.betrayal_line(f"labels.meant_{s}") for s in PEEK_SOURCES]
          + [content.betrayal_line("labels.meant_roll")])


def _pile(ctx: Ctx, source: str) -> list[str]:
    return ctx.state.stack if source == "rooms" else ctx.state.decks[source]


def _name(source: str, key: str) -> str:
    return content.room(key).name if source == "rooms" else content.card(key).name


@resumer("meant_choice")
def _meant_choice(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    if pick == len(PEEK_SOURCES):
        frame.steps.insert(0, {"roll": {"dice": 4, "then": [{"_meant_keep": {}}]}})
        return
    source = PEEK_SOURCES[pick]
    top = _pile(ctx, source)[:3]
    if len(top) < 2:
        _glimpse_one(ctx, frame, source, top)
        return
    orders = [list(p) for p in permutations(top)]
    pause(ctx, frame, {"_meant_order": {"source": source, "orders": orders}}, "meant_order",
          content.betrayal_line("prompts.meant_order"),
          [listed([_name(source, k) for k in order]) for order in orders], private=True)


def _glimpse_one(ctx: Ctx, frame: Frame, source: str, top: list[str]) -> None:
    """A pile of one card has no order to choose, but its chooser still looks at the
    card (seed 003: 窺看 [peek]); an empty pile has nothing to look at, and says so."""
    pile = content.betrayal_line(f"piles.{source}")
    if not top:
        ctx.say("events.meant_empty", pile=pile)
        return
    ctx.say("events.meant_glimpsed", who=ctx.who(frame.seat), pile=pile)
    ctx.say("events.meant_top", audience=to_player(frame.seat), pile=pile,
            card=_name(source, top[0]))


@resumer("meant_order")
def _meant_order(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_meant_order"]
    pile = _pile(ctx, spec["source"])
    order = spec["orders"][pick]
    pile[: len(order)] = order
    ctx.say("events.meant_ordered", who=ctx.who(frame.seat),
            pile=content.betrayal_line(f"piles.{spec['source']}"))


@step("_meant_keep")
def _meant_keep(ctx: Ctx, frame: Frame, arg: Any) -> None:
    total = int(frame.vars.get("roll", 0))
    ctx.state.explorers[frame.seat].flags[MEANT] = total
    ctx.say("events.meant_kept", who=ctx.who(frame.seat), total=total)


@passive(MEANT)
class ForeseenRoll(RollPassive):
    """Attached through the explorer's flags: the kept total, once, instead of a roll."""

    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        saved = ctx.state.explorers[frame.seat].flags.get(MEANT)
        if stage != "pre" or saved is None:
            return []
        return [Offer(MEANT, content.betrayal_line("labels.meant_use", total=saved))]

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        roll["fixed"] = int(ctx.state.explorers[frame.seat].flags.pop(MEANT))
