"""The three decks: drawing a card, keeping it, letting it go.

Omens and items are kept (their `on_gain` runs); Bite is an omen that is not carried
(it lies on the omen table, only to be counted); events are read out (`resolving`)
and discarded, unless a `lasting` step keeps them in front of the explorer. Every
omen drawn counts towards the haunt roll, and is marked for the roll of the explorer
who drew it (seed 003: that player rolls as its own turn ends): on the turn when it is
that explorer's, else on the explorer, until its own turn ends.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, hooks
from bot.games.betrayal.cards import HandPassive
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.rolls import forget_rolls
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame


def draw_top(ctx: Ctx, deck: str) -> str | None:
    """The top card of a deck; an empty deck takes its shuffled discards first."""
    state = ctx.state
    if not state.decks[deck] and state.discards[deck]:
        state.decks[deck] = state.discards[deck]
        state.discards[deck] = []
        state.rng.shuffle(state.decks[deck])
        ctx.say("events.deck_reshuffled", deck=deck)
    if not state.decks[deck]:
        ctx.say("events.deck_empty", deck=deck)
        return None
    return state.decks[deck].pop(0)


@step("_draw_card")
def _draw_card(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    deck = str(arg["deck"])
    if hooks.draw_prevented(ctx.state, frame.seat, deck):
        ctx.say("events.draw_prevented", who=ctx.who(frame.seat), deck=deck)
        return
    key = draw_top(ctx, deck)
    if key is None:
        return
    resolve_card(ctx, frame.seat, key)


def resolve_card(ctx: Ctx, seat: int, key: str) -> None:
    """A card just drawn by this explorer: say it, then run what it does."""
    state = ctx.state
    card = content.card(key)
    forget_rolls(state, key)
    ctx.say(f"events.draw_{card.deck}", kind="card", who=ctx.who(seat), card=card.name,
            stop=content.stop_after(card.name), text=card.text,
            data={"seat": seat, "card": key, "deck": card.deck})
    if card.deck == "omen":
        state.omens_drawn += 1
        state.last_omen, state.last_omen_room = key, state.at(seat).room
        note_omen(state, seat, key, state.last_omen_room)
        state.quiet_turns = 0
    # After the card's own steps, `_finish_card` puts an unkept card where it belongs.
    if card.keep and card.deck != "event":
        state.explorers[seat].cards.append(key)
        ctx.push([{"_cards_changed": {}}], seat, key, card.deck)
        ctx.push([*card.on_draw, *card.on_gain], seat, key, card.deck)
    else:
        state.resolving.append(key)
        ctx.push([{"_finish_card": {"card": key}}], seat, key, card.deck)
        steps = list(card.on_draw)
        if card.deck == "event" and sides.traitor_at_home(state, seat):
            # seed 003: a traitor who draws an event may choose not to be affected by it
            # (the `_traitor_event` step of cards/haunt_cards.py asks)
            steps.insert(0, {"_traitor_event": {}})
        ctx.push(steps, seat, key, card.deck)


def note_omen(state: BetrayalState, seat: int, key: str, room: str) -> None:
    """Mark an omen for the haunt roll of the explorer who drew it (seed 003: 每當一名玩家
    翻開一張預兆牌後，在該玩家完結其回合後…): drawn on its own turn, the turn rolls for it;
    drawn on another's (a Mystic Slide passed to it), the explorer owes the roll until
    its own turn ends. Before the haunt only: after it no haunt roll is made."""
    if seat == state.turn.seat:
        state.turn.omen, state.turn.omen_room = key, room
    elif state.phase == EXPLORE:
        explorer = state.explorers[seat]
        explorer.owed_omen, explorer.owed_omen_room = key, room


@step("_finish_card")
def _finish_card(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    key = str(arg["card"])
    state = ctx.state
    if key not in state.resolving:
        return  # kept in front of someone (lasting) or passed on by its handler
    state.resolving.remove(key)
    if content.card(key).deck == "omen":
        state.omen_table.append(key)
    else:
        state.discards[content.card(key).deck].append(key)


def give_card(ctx: Ctx, seat: int, key: str) -> None:
    """A card joins an explorer's hand (picked up, traded): its on_gain runs."""
    ctx.state.explorers[seat].cards.append(key)
    card = content.card(key)
    ctx.push([{"_cards_changed": {}}], seat, key, card.deck)
    ctx.push(list(card.on_gain), seat, key, card.deck)


def take_card(ctx: Ctx, seat: int, key: str, to: str = "discard",
              tile: int | None = None) -> None:
    """A card leaves an explorer's hand: to its discard pile, a room's item pile
    (`to="pile"`), back into its deck (`to="deck"`, shuffled) or nowhere (`to="none"`:
    the caller puts it somewhere). Its on_lose runs."""
    state = ctx.state
    explorer = state.explorers[seat]
    if key in explorer.cards:
        explorer.cards.remove(key)
    elif key in explorer.lasting:
        explorer.lasting.remove(key)
    card = content.card(key)
    if to == "pile":
        state.tiles[explorer.tile if tile is None else tile].items.append(key)
    elif to == "deck":
        state.decks[card.deck].append(key)
        state.rng.shuffle(state.decks[card.deck])
    elif to == "discard":
        state.discards[card.deck].append(key)
    ctx.push([{"_cards_changed": {}}], seat, key, card.deck)
    ctx.push(list(card.on_lose), seat, key, card.deck)


@step("_cards_changed")
def _cards_changed(ctx: Ctx, frame: Frame, arg: Any) -> None:
    for passive, ref in list(hooks.of_explorer(ctx.state, frame.seat, HandPassive)):
        passive.cards_changed(ctx, frame.seat, ref)


def all_cards(state: Any) -> list[str]:
    """Every deck card wherever it is (for the conservation checks)."""
    found = [k for d in state.decks.values() for k in d]
    found += [k for d in state.discards.values() for k in d]
    found += [k for e in state.explorers for k in [*e.cards, *e.lasting]]
    found += [k for t in state.tiles for k in t.items]
    found += [*state.omen_table, *state.resolving]
    return found
