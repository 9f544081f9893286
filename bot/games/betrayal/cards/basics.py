"""Shared step handlers and the passives that bend the house's own rules.

`discard_self`, `remove_token` and `may_decline` are plumbing many cards use. The
Rope, the Skull, the Medallion and the Skeleton Key change how rooms, links and damage
work, which is the engine's business, so they live here rather than with the cards.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, decks, hooks
from bot.games.betrayal.cards import (
    DamagePassive,
    Link,
    Offer,
    Passive,
    RoomPassive,
    handler,
    passive,
    resumer,
)
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause
from bot.games.betrayal.links import BELOW_COLLAPSED, token_side
from bot.games.betrayal.state import BetrayalState, Frame


@handler("discard_self")
def discard_self(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The card whose steps these are leaves its holder for the discard pile."""
    key = frame.source
    explorer = ctx.state.explorers[frame.seat]
    if key in explorer.cards or key in explorer.lasting:
        ctx.say("events.discarded", who=ctx.who(frame.seat), card=content.card(key).name)
        decks.take_card(ctx, frame.seat, key, to="discard")


@handler("remove_token")
def remove_token(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The token whose use these steps are (a Closet, a Safe) is taken off the room."""
    tile, index = frame.vars.get("token_tile"), frame.vars.get("token_index")
    if tile is None or index is None:
        return
    tokens = ctx.state.tiles[int(tile)].tokens
    if int(index) < len(tokens) and tokens[int(index)].get("card") == frame.source:
        token = tokens.pop(int(index))
        ctx.say("events.token_removed", token=content.token_name(token["kind"]),
                room=ctx.room_name(int(tile)))


@handler("may_decline")
def may_decline(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The rest of this card is optional: the explorer says yes or no."""
    pause(ctx, frame, {"_decline": {}}, "decline",
          content.betrayal_line("prompts.may_decline", card=_source(frame.source)),
          [content.betrayal_line("labels.do_it"), content.betrayal_line("labels.leave_it")])


def _source(key: str) -> str:
    return content.card(key).name if key in content.get().cards else key


@resumer("decline")
def _decline(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    if pick == 1:
        frame.steps.clear()
        ctx.say("events.declined", who=ctx.who(frame.seat), card=_source(frame.source))


@passive("rope")
class Rope(DamagePassive, RoomPassive):
    """Climb back up where others can only jump or slide down, at no Speed cost (the
    jumps down are free and unhurt too: see cards/rooms.py)."""

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        here = state.tiles[tile].room
        found = []
        if here == "basement_landing" and (chute := state.tile_of("coal_chute")) is not None:
            found.append(Link("rope_chute", chute, cost=0))
        if here == "ballroom" and (gallery := state.tile_of("gallery")) is not None:
            found.append(Link("rope_up", gallery, cost=0))
        for i, t in enumerate(state.tiles):
            if t.room == "collapsed_room" and t.flags.get("below") == tile:
                # The hole is by the Below Collapsed Room token: in a split room, one
                # climbs from that door (from the other, one crosses first).
                found.append(Link("rope_up", i, cost=0,
                                  side=token_side(state, tile, BELOW_COLLAPSED)))
        return found

    def shields(self, state: BetrayalState, seat: int, source: str, ref: Any) -> bool:
        return source == "mystic_slide"


@passive("skull")
class Skull(DamagePassive):
    def damage_offers(self, ctx: Ctx, frame: Frame, damage: dict[str, Any],
                      ref: Any) -> list[Offer]:
        # Held fast by Webs or Debris, the explorer can use nothing, the Skull included.
        if damage.get("kind") != "mental" or hooks.blocked(ctx.state, frame.seat):
            return []
        return [Offer("skull", content.betrayal_line("labels.skull"))]

    def damage_apply(self, ctx: Ctx, frame: Frame, damage: dict[str, Any], offer: Offer,
                     ref: Any) -> None:
        damage["kind"] = "physical"
        ctx.say("events.skull", who=ctx.who(frame.seat))


MEDALLION_ROOMS: frozenset[str] = frozenset({"pentagram_chamber", "crypt", "graveyard"})


@passive("medallion")
class Medallion(RoomPassive):
    def immune(self, state: BetrayalState, seat: int, room: str, ref: Any) -> bool:
        return room in MEDALLION_ROOMS


@passive("skeleton_key")
class SkeletonKey(Passive):
    """Opens the Vault and the Locked Safe without a roll: the Vault (cards/rooms.py) and
    the Safe's token (cards/tokens.py) look for it and offer a keyed opening."""
