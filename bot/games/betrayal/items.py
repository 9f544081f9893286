"""Cards in hand: using, trading, dropping and picking up (seed 003, "items").

- Use: a card with `use` steps, once per turn each; haunt-only cards wait for the haunt.
- Trade: once per turn, hand one card to an explorer in the same room (the same side of
  a split room). Ours: you may ask for one of theirs back; a swap needs their yes, and
  a refused offer still spends the turn's trade (RULING).
- Drop: into the room's item pile. Pick up: from the pile, any number.
- Companions (Dog, Girl, Madman) and cards that say so are never traded or dropped; a
  card used this turn cannot be traded or dropped until the next (seed 003 FAQ).
- RULING: a card dropped this turn cannot be picked up again the same turn (it would
  only replay its gain and loss).
While a lasting event holds the explorer (Webs, Debris), none of this is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.games.betrayal import content, decks, hooks
from bot.games.betrayal.cards import resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, step
from bot.games.betrayal.rolls import forget_rolls
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame


@dataclass(frozen=True)
class Trade:
    other: int
    give: str
    take: str = ""


def usable(state: BetrayalState, seat: int) -> list[str]:
    """The held cards with a `use` the explorer may make now: once a turn each, the
    haunt-only ones in the haunt, and only when the card's passive agrees (`can_use`:
    the Spirit Board before moving)."""
    if hooks.blocked(state, seat):
        return []
    passives = {ref: p for p, ref in hooks.of_explorer(state, seat)}
    result = []
    for key in state.explorers[seat].cards:
        card = content.card(key)
        if not card.use or key in state.turn.used:
            continue
        if card.haunt_only and state.phase == EXPLORE:
            continue
        if key in passives and not passives[key].can_use(state, seat, key):
            continue
        result.append(key)
    return result


def givable(state: BetrayalState, seat: int) -> list[str]:
    """Cards this explorer may trade or drop now."""
    if hooks.blocked(state, seat):
        return []
    return [k for k in state.explorers[seat].cards
            if content.card(k).tradeable and k not in state.turn.used]


def together(state: BetrayalState, a: int, b: int) -> bool:
    """Same room, and the same side of a split room."""
    ea, eb = state.explorers[a], state.explorers[b]
    return a != b and eb.alive and ea.tile == eb.tile and (ea.side == eb.side)


def trades(state: BetrayalState, seat: int) -> list[Trade]:
    if state.turn.traded:
        return []
    mine = givable(state, seat)
    result = []
    for other in range(len(state.explorers)):
        if not together(state, seat, other):
            continue
        theirs = [k for k in state.explorers[other].cards if content.card(k).tradeable]
        for give in mine:
            result.append(Trade(other, give))
            result += [Trade(other, give, take) for take in theirs]
    return result


def droppable(state: BetrayalState, seat: int) -> list[str]:
    return givable(state, seat)


def pickable(state: BetrayalState, seat: int) -> list[str]:
    """Cards lying here this explorer may take. A companion (Dog, Girl, Madman) left
    by the dead is never picked up: it follows the first explorer to walk in (seed 003,
    haunting/death.companions_follow)."""
    if hooks.blocked(state, seat):
        return []
    return [k for k in state.at(seat).items
            if k not in state.turn.dropped and not content.card(k).companion]


def use(ctx: Ctx, seat: int, key: str) -> None:
    card = content.card(key)
    ctx.state.turn.used.append(key)
    forget_rolls(ctx.state, key)
    ctx.say("events.use", kind="use", who=ctx.who(seat), card=card.name,
            data={"seat": seat, "card": key})
    ctx.push(list(card.use), seat, key, card.deck)


def trade(ctx: Ctx, seat: int, deal: Trade) -> None:
    ctx.state.turn.traded = True
    if not deal.take:
        _hand_over(ctx, seat, deal.other, deal.give)
        return
    ctx.say("events.trade_offer", who=ctx.who(seat), other=ctx.who(deal.other),
            give=content.card(deal.give).name, take=content.card(deal.take).name)
    ctx.push([{"_trade_offer": {"from": seat, "give": deal.give, "take": deal.take}}],
             deal.other)


def _hand_over(ctx: Ctx, giver: int, taker: int, key: str) -> None:
    ctx.say("events.give", kind="trade", who=ctx.who(giver), other=ctx.who(taker),
            card=content.card(key).name, data={"from": giver, "to": taker, "card": key})
    decks.take_card(ctx, giver, key, to="none")
    decks.give_card(ctx, taker, key)


@step("_trade_offer")
def _trade_offer(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    pause(ctx, frame, {"_trade_offer": arg}, "trade_answer",
          content.say("prompts.trade", who=ctx.who(int(arg["from"])),
                      give=content.card(arg["give"]).name, take=content.card(arg["take"]).name),
          [content.say("labels.accept"), content.say("labels.decline")])


@resumer("trade_answer")
def _trade_answer(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    arg = frame.steps.pop(0)["_trade_offer"]
    giver, taker = int(arg["from"]), frame.seat
    if pick == 1:
        ctx.say("events.trade_declined", who=ctx.who(taker), other=ctx.who(giver))
        return
    ctx.say("events.trade_done", who=ctx.who(giver), other=ctx.who(taker),
            give=content.card(arg["give"]).name, take=content.card(arg["take"]).name)
    decks.take_card(ctx, giver, arg["give"], to="none")
    decks.take_card(ctx, taker, arg["take"], to="none")
    decks.give_card(ctx, taker, arg["give"])
    decks.give_card(ctx, giver, arg["take"])


def drop(ctx: Ctx, seat: int, key: str) -> None:
    ctx.state.turn.dropped.append(key)
    ctx.say("events.drop", kind="drop", who=ctx.who(seat), card=content.card(key).name,
            room=ctx.room_name(ctx.state.explorers[seat].tile))
    decks.take_card(ctx, seat, key, to="pile")


def pick_up(ctx: Ctx, seat: int, key: str) -> None:
    ctx.state.turn.picked.append(key)
    ctx.state.at(seat).items.remove(key)
    ctx.say("events.pick_up", kind="pickup", who=ctx.who(seat), card=content.card(key).name)
    decks.give_card(ctx, seat, key)
