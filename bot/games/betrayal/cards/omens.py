"""The omens whose effect the step vocabulary cannot say (omens.yaml `custom:`), seed 003.

- Crystal Ball (`crystal_ball_peek`, on a Knowledge roll of 4+): search the item or the
  event deck, set one card aside, shuffle the deck and put that card back on top. Only
  the deck itself is searched, not its discards (RULING); the card chosen is told to its
  explorer alone.
- Dog (`dog_fetch`): the Dog runs to a room up to 6 rooms away and comes back, fetching
  one card lying there or carrying one of its explorer's cards there. It goes through
  doors and two-way links (stairs, secret passages) only: no one-way passage (the Coal
  Chute, the jumps from the Gallery and the Collapsed Room), no Revolving Wall. It makes
  no rolls, so a split room does not stop it (RULING). Omens lying about count as items
  for it (seed 003 calls both "objects"); companions are never carried, and a card
  dropped or used this turn is not carried (the FAQ, as for a drop by hand).
- Mask (`mask_toggle` on a Sanity roll of 4+, `mask_lost` when it leaves): put on,
  +2 Knowledge -2 Sanity; taken off, the reverse. Whether it is worn is a note in the
  wearer's `flags`; a worn Mask that leaves its explorer comes off (omens.yaml's note).
- Spirit Board (`spirit_board`): before its explorer moves, a private look at the top
  room tile; its passive (`can_use`) keeps it from being offered once the explorer has
  moved. In the haunt the traitor may then move monsters towards the user
  (cards/haunt_cards.py).

The Book, the Girl, the Holy Symbol and the Madman are plain `on_gain`/`on_lose` steps;
Bite is an `attack` step; the Spear a modifier; the Skull and the Medallion live in
basics.py; the Ring is haunt-time combat (haunting/combat.py).
"""

from __future__ import annotations

from typing import Any

from bot.core.events import to_player
from bot.games.betrayal import content, decks, hooks, items
from bot.games.betrayal.cards import Cause, HandPassive, RoomPassive, handler, passive, resumer
from bot.games.betrayal.cards.haunt_cards import draw_toward
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import change, pause, step
from bot.games.betrayal.house import door_targets
from bot.games.betrayal.movement import ask_tile
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame


def card_name(key: str) -> str:
    return content.card(key).name


# ---------------------------------------------------------------- Crystal Ball

PEEK_DECKS: tuple[str, ...] = ("item", "event")


@handler("crystal_ball_peek")
def crystal_ball_peek(ctx: Ctx, frame: Frame, args: Any) -> None:
    found = [d for d in PEEK_DECKS if ctx.state.decks[d]]
    if not found:
        ctx.say("events.crystal_ball_empty")
        return
    if len(found) == 1:
        frame.steps.insert(0, {"_crystal_ball": {"deck": found[0]}})
        return
    pause(ctx, frame, {"_crystal_ball_deck": {"decks": found}}, "crystal_ball_deck",
          content.betrayal_line("prompts.crystal_ball_deck"),
          [content.betrayal_line("labels.crystal_ball_deck", deck=d) for d in found])


@resumer("crystal_ball_deck")
def _crystal_ball_deck(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_crystal_ball_deck"]
    frame.steps.insert(0, {"_crystal_ball": {"deck": spec["decks"][pick]}})


@step("_crystal_ball")
def _crystal_ball(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    deck = str(arg["deck"])
    cards = sorted(ctx.state.decks[deck], key=card_name)
    if not cards:
        ctx.say("events.crystal_ball_empty")
        return
    if len(cards) == 1:  # the deck's one card: "set one card aside" leaves no choice
        _on_top(ctx, frame, deck, cards[0])
        return
    pause(ctx, frame, {"_crystal_ball_card": {"deck": deck, "cards": cards}},
          "crystal_ball_card", content.betrayal_line("prompts.crystal_ball_card", deck=deck),
          [card_name(k) for k in cards], private=True)


@resumer("crystal_ball_card")
def _crystal_ball_card(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_crystal_ball_card"]
    _on_top(ctx, frame, str(spec["deck"]), str(spec["cards"][pick]))


def _on_top(ctx: Ctx, frame: Frame, deck: str, key: str) -> None:
    """The card set aside goes on top of its shuffled deck, for its finder to know."""
    pile = ctx.state.decks[deck]
    pile.remove(key)
    ctx.state.rng.shuffle(pile)
    pile.insert(0, key)
    ctx.say("events.crystal_ball", who=ctx.who(frame.seat), deck=deck)
    ctx.say("events.crystal_ball_top", audience=to_player(frame.seat), card=card_name(key),
            deck=deck)


# ---------------------------------------------------------------- Dog

DOG_RANGE = 6  # seed 003: up to 6 rooms away, and back


def two_way_links(state: BetrayalState) -> dict[int, set[int]]:
    """The house's walkable links that also lead back (stairs, secret passages): the
    one-way ones (the Coal Chute, the jumps) are left out."""
    out: dict[int, set[int]] = {}
    for tile_id in range(len(state.tiles)):
        for watcher, ref in hooks.of_tile(state, tile_id, RoomPassive):
            for link in watcher.links(state, -1, tile_id, ref):
                if link.walkable:
                    out.setdefault(tile_id, set()).add(link.target)
    return {a: {b for b in targets if a in out.get(b, set())} for a, targets in out.items()}


def dog_range(state: BetrayalState, seat: int) -> dict[int, int]:
    """Rooms the Dog reaches from its explorer's room -> how many rooms away (1..6)."""
    start = state.explorers[seat].tile
    links = two_way_links(state)
    dist = {start: 0}
    frontier = [start]
    for d in range(1, DOG_RANGE + 1):
        nxt = []
        for tile_id in frontier:
            doors = door_targets(state, tile_id)
            for t in [*doors, *sorted(links.get(tile_id, ()))]:
                if t not in dist:
                    dist[t] = d
                    nxt.append(t)
        frontier = nxt
    dist.pop(start)
    return dist


def carryable(state: BetrayalState, seat: int) -> list[str]:
    """The explorer's cards the Dog may take away: what could be dropped now."""
    return items.droppable(state, seat)


def fetchable(state: BetrayalState, tile_id: int) -> list[str]:
    """The cards lying in a room that the Dog may bring back: never a companion a dead
    explorer left there, which waits to follow the first explorer to walk in (seed 003;
    haunting/companions.py), as no one may pick it up by hand (items.pickable)."""
    return [k for k in state.tiles[tile_id].items
            if k not in state.turn.dropped and not content.card(k).companion]


def dog_targets(state: BetrayalState, seat: int) -> list[int]:
    reach = dog_range(state, seat)
    if carryable(state, seat):
        return sorted(reach)
    return sorted(t for t in reach if fetchable(state, t))


@handler("dog_fetch")
def dog_fetch(ctx: Ctx, frame: Frame, args: Any) -> None:
    targets = dog_targets(ctx.state, frame.seat)
    if not targets:
        ctx.say("events.dog_idle", who=ctx.who(frame.seat), range=DOG_RANGE)
        return
    ask_tile(ctx, frame, {"_dog_errand": {}}, content.betrayal_line("prompts.dog_where",
                                                                    range=DOG_RANGE),
             targets)


@step("_dog_errand")
def _dog_errand(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, tile_id = ctx.state, int(arg["tile"])
    choices = [["fetch", k] for k in fetchable(state, tile_id)]
    choices += [["carry", k] for k in carryable(state, frame.seat)]
    labels = [content.betrayal_line(f"labels.dog_{what}", card=card_name(k)) for what, k in choices]
    choices.append(["none", ""])
    labels.append(content.betrayal_line("labels.dog_nothing"))
    pause(ctx, frame, {"_dog_errand": {"tile": tile_id, "choices": choices}}, "dog_errand",
          content.betrayal_line("prompts.dog_errand", room=ctx.room_name(tile_id)), labels)


@resumer("dog_errand")
def _dog_errand_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_dog_errand"]
    state, seat, tile_id = ctx.state, frame.seat, int(spec["tile"])
    what, key = spec["choices"][pick]
    who, room = ctx.who(seat), ctx.room_name(tile_id)
    if what == "fetch":
        state.tiles[tile_id].items.remove(key)
        state.turn.picked.append(key)
        ctx.say("events.dog_fetch", kind="pickup", who=who, room=room, card=card_name(key),
                data={"seat": seat, "card": key, "tile": tile_id})
        decks.give_card(ctx, seat, key)
    elif what == "carry":
        state.turn.dropped.append(key)
        ctx.say("events.dog_carry", kind="drop", who=who, room=room, card=card_name(key),
                data={"seat": seat, "card": key, "tile": tile_id})
        decks.take_card(ctx, seat, key, to="pile", tile=tile_id)
    else:
        ctx.say("events.dog_back", who=who)


# ---------------------------------------------------------------- Mask

MASK_WORN = "mask_worn"  # in the wearer's flags
MASK_SHIFT = 2


def _mask(ctx: Ctx, seat: int, on: bool) -> None:
    flags = ctx.state.explorers[seat].flags
    if on:
        flags[MASK_WORN] = True
    else:
        flags.pop(MASK_WORN, None)
    sign = 1 if on else -1
    cause = Cause("omen", "mask")
    change(ctx, seat, "knowledge", sign * MASK_SHIFT, cause)
    change(ctx, seat, "sanity", -sign * MASK_SHIFT, cause)


@handler("mask_toggle")
def mask_toggle(ctx: Ctx, frame: Frame, args: Any) -> None:
    """A Sanity roll of 4+: on if it was off, off if it was on (seed 003: it can only be
    taken off once put on)."""
    on = not ctx.state.explorers[frame.seat].flags.get(MASK_WORN)
    ctx.say("events.mask_on" if on else "events.mask_off", who=ctx.who(frame.seat))
    _mask(ctx, frame.seat, on)


@handler("mask_lost")
def mask_lost(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The Mask leaves its explorer: a worn Mask comes off (designed, omens.yaml)."""
    if ctx.state.explorers[frame.seat].flags.get(MASK_WORN):
        ctx.say("events.mask_lost", who=ctx.who(frame.seat))
        _mask(ctx, frame.seat, False)


# ---------------------------------------------------------------- Spirit Board

def before_moving(state: BetrayalState, seat: int) -> bool:
    """On its own turn, before entering any room (seed 003: "before you move"); a turn
    whose movement is over (a failed crossing) counts as moved."""
    turn = state.turn
    return turn.seat == seat and not (turn.moves or turn.free_moves or turn.movement_over)


@passive("spirit_board")
class SpiritBoard(HandPassive):
    """The board is only offered before its holder moves (items.usable asks)."""

    def can_use(self, state: BetrayalState, seat: int, key: str) -> bool:
        return before_moving(state, seat)


@handler("spirit_board")
def spirit_board(ctx: Ctx, frame: Frame, args: Any) -> None:
    state, seat = ctx.state, frame.seat
    if state.phase != EXPLORE:
        # The haunt half: then the traitor (with no traitor, every monster) moves monsters
        # 1 room towards its user (cards/haunt_cards.py).
        draw_toward(frame, "monsters", state.explorers[seat].tile)
    if not state.stack:
        ctx.say("events.spirit_board_empty")
        return
    top = state.stack[0]
    ctx.say("events.spirit_board", who=ctx.who(seat))
    ctx.say("events.spirit_board_top", audience=to_player(seat), room=content.room(top).name,
            data={"room": top})
