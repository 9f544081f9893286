"""Cards in hand: using, trading, dropping and picking up (seed 003, "items").

- Use: a card with `use` steps, once per turn each; haunt-only cards wait for the haunt.
- Trade: once per turn, hand one card to an explorer in the same room (the same side of
  a split room). One card moves, and only one (seed 003: 玩家僅可將1張卡片...轉交給與其人物
  同處同一房間的其他人物): no swap, so a trade never asks the other explorer anything.
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
from bot.games.betrayal.cards import HandPassive, resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.rolls import forget_rolls
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame


@dataclass(frozen=True)
class Trade:
    """One card handed to another explorer: seed 003 moves exactly one card a trade."""

    other: int
    give: str


def usable(state: BetrayalState, seat: int) -> list[str]:
    """The held cards with a `use` the explorer may make now: once a turn each, the
    haunt-only ones in the haunt, and only when the card's passive agrees (`can_use`:
    the Spirit Board before moving)."""
    if hooks.blocked(state, seat):
        return []
    passives = {ref: p for p, ref in hooks.of_explorer(state, seat, HandPassive)}
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
    """Each card this explorer may hand to each explorer with it, while the turn's one
    trade is unspent."""
    if state.turn.traded:
        return []
    mine = givable(state, seat)
    return [Trade(other, give) for other in range(len(state.explorers))
            if together(state, seat, other) for give in mine]


def droppable(state: BetrayalState, seat: int) -> list[str]:
    return givable(state, seat)


def pickable(state: BetrayalState, seat: int) -> list[str]:
    """Cards lying here this explorer may take. A companion (Dog, Girl, Madman) left
    by the dead is never picked up: it follows the first explorer to walk in (seed 003,
    haunting/companions.py)."""
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
    """Spend the turn's trade: the one card changes hands (its loss, then its gain)."""
    ctx.state.turn.traded = True
    ctx.say("events.give", kind="trade", who=ctx.who(seat), other=ctx.who(deal.other),
            card=content.card(deal.give).name,
            data={"from": seat, "to": deal.other, "card": deal.give})
    decks.take_card(ctx, seat, deal.give, to="none")
    decks.give_card(ctx, deal.other, deal.give)


@resumer("trade_answer")
def _lapsed_swap(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    """A swap offered in a game saved before a trade moved one card (seed 003): it
    lapses whatever the answer, no card moves, and the turn's trade stays spent."""
    arg = frame.steps.pop(0)["_trade_offer"]
    ctx.say("events.swap_lapsed", who=ctx.who(int(arg["from"])), other=ctx.who(frame.seat))


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
