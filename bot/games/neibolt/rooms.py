"""The four rooms of seed 000 (data/neibolt/rooms.yaml `custom:`).

Each room's rule is a passive registered with the Betrayal core's card registry
(cards.passive), as the classic rooms are; `load` is called once by edition.py.

- Darkened Hallway (`darkened_hallway`): its event symbol draws two events (both off
  the deck before either is resolved), resolved one at a time in the order drawn;
  whatever stops an event being drawn (Passive.prevents_draw, seed 000's Idol) stops
  both.
- Old Well (`old_well`): before the symbol's item, a Knowledge roll. 4+: an extra item.
  0-3: the explorer buries an item it already holds (its pick); holding none, nothing
  is buried, and the item found here is kept all the same. Omens are not items.
- Ancient Den (`ancient_den`): its omen symbol shows the top two cards of the deck the
  symbol draws from (before the haunt: the Pennywise Encounter deck, as the edition's
  draw says), and the explorer keeps one and buries the other. The kept encounter is
  resolved like any encounter (so it makes its haunt roll at the turn's end). One card
  left: it is taken; none: nothing.
- Winding Tunnels (`winding_tunnels`): a split room (the core's `side`), crossed on a
  Knowledge roll of 4+ (a failed roll ends the movement, as in the classic split rooms:
  RULES.md section 2); monsters have no side and the traitor crosses without a roll
  (movement.crossing_for). The halves are adjacent: crossing to the other half is a
  move of its own (a link to the same tile, `cross_over`). No line of sight between the
  halves nor through the tile (Passive.sight_half, stops_sight: the Revolver, the
  Dynamite's throw), and explorers on different halves are never together, so no
  attack that needs the same room or line of sight crosses the line. Nor is anything
  else the scenarios ask of heroes "on the same tile" (`same_tile`).

The AI answers a pending choice with its first option, so each choice here lists the
AI's pick first: the Den's better card, the Well's least missed item.
"""

from __future__ import annotations

from typing import Any

from bot.core.events import to_player
from bot.games.betrayal.plugin_api import (
    BetrayalState,
    Ctx,
    Frame,
    Link,
    RoomPassive,
    SightPassive,
    content,
    decks,
    doors,
    hooks,
    passive,
    pause,
    resumer,
    step,
    traits,
)
from bot.games.neibolt import encounters
from bot.games.neibolt.words import neibolt_line, tell

EVENT, ITEM, OMEN = "event", "item", "omen"
WELL_TRAIT, WELL_TARGET = "knowledge", 4  # seed 000: "a Knowledge roll 4+"
TUNNEL_TRAIT, TUNNEL_TARGET = "knowledge", 4  # seed 000: "a Knowledge roll 4+ to cross"
CROSS = "cross_over"  # the link from one half of the tunnels to the other
# The AI's liking among omens (best first; the Bite, which attacks its drawer, last).
OMEN_LIKING: tuple[str, ...] = ("spear", "book", "holy_symbol", "girl", "madman", "skull",
                                "ring", "medallion", "dog", "crystal_ball", "mask",
                                "spirit_board", "bite")


@step("_nb_say")
def _say(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    tell(ctx, str(arg["key"]), who=ctx.who(frame.seat))


# ---------------------------------------------------------------- Darkened Hallway

@passive("darkened_hallway")
class DarkenedHallway(RoomPassive):
    def symbol_steps(self, state: BetrayalState, seat: int, tile: int, symbol: str,
                     steps: list[dict[str, Any]], ref: Any) -> list[dict[str, Any]] | None:
        if symbol != EVENT:
            return None
        return [{"_nb_hallway": {"steps": steps}}]


@step("_nb_hallway")
def _hallway(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Seed 000: "Draw both events, resolve them one at a time in the order they were
    drawn." Both come off the deck now, so nothing the first one does (a room it places
    drawing its own card) takes the second; the second waits with the cards being read
    out (`resolving`) until its turn. None if an event may not be drawn. (`arg["steps"]`,
    the plain draw this replaces, is kept for the games stored with it.)"""
    state = ctx.state
    if hooks.draw_prevented(state, frame.seat, EVENT):
        tell(ctx, "events.hallway_prevented", who=ctx.who(frame.seat))
        return
    tell(ctx, "events.hallway", who=ctx.who(frame.seat))
    drawn = [key for key in (decks.draw_top(ctx, EVENT), decks.draw_top(ctx, EVENT))
             if key is not None]
    state.resolving.extend(drawn)
    ctx.push_child(frame, [{"_nb_hallway_card": {"card": key}} for key in drawn])


@step("_nb_hallway_card")
def _hallway_card(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """One of the Hallway's two events, drawn already: resolved as any event drawn."""
    key = str(arg["card"])
    if key not in ctx.state.resolving:
        return
    ctx.state.resolving.remove(key)  # resolve_card lists it again while it is read out
    decks.resolve_card(ctx, frame.seat, key)


# ---------------------------------------------------------------- Old Well

@passive("old_well")
class OldWell(RoomPassive):
    def symbol_steps(self, state: BetrayalState, seat: int, tile: int, symbol: str,
                     steps: list[dict[str, Any]], ref: Any) -> list[dict[str, Any]] | None:
        if symbol != ITEM:
            return None
        extra = {"_draw_card": {"deck": ITEM}}
        return [{"_nb_say": {"key": "events.well"}},
                {"roll": {"trait": WELL_TRAIT, "outcomes": [
                    {"min": WELL_TARGET, "do": [*steps, extra]},
                    {"max": WELL_TARGET - 1, "do": [{"_nb_bury_item": {}}, *steps]}]}}]


def held_items(state: BetrayalState, seat: int) -> list[str]:
    """The item cards the explorer holds, least missed first (the AI's pick): a card
    whose loss takes back what it gave, a weapon, a card with a lasting rule, last."""
    def worth(key: str) -> tuple[int, str]:
        card = content.card(key)
        return (3 * bool(card.on_lose) + 2 * card.weapon
                + bool(card.modifiers or card.custom), card.name)

    found = [k for k in state.explorers[seat].cards if content.card(k).deck == ITEM]
    return sorted(found, key=worth)


@step("_nb_bury_item")
def _bury_item(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    held = held_items(ctx.state, frame.seat)
    if not held:
        tell(ctx, "events.well_nothing", who=ctx.who(frame.seat))
        return
    if len(held) == 1:
        _bury(ctx, frame.seat, held[0])
        return
    pause(ctx, frame, {"_nb_bury_item": {"cards": held}}, "nb_bury_item",
          neibolt_line("prompts.well_bury"), [content.card(k).name for k in held])


@resumer("nb_bury_item")
def _bury_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_nb_bury_item"]
    _bury(ctx, frame.seat, str(spec["cards"][pick]))


def _bury(ctx: Ctx, seat: int, key: str) -> None:
    tell(ctx, "events.well_bury", kind="card", who=ctx.who(seat), card=content.card(key).name,
         data={"seat": seat, "card": key})
    decks.take_card(ctx, seat, key, to="none")
    encounters.bury(ctx.state, key)


# ---------------------------------------------------------------- Ancient Den

@passive("ancient_den")
class AncientDen(RoomPassive):
    def symbol_steps(self, state: BetrayalState, seat: int, tile: int, symbol: str,
                     steps: list[dict[str, Any]], ref: Any) -> list[dict[str, Any]] | None:
        if symbol != OMEN:
            return None
        # The edition says what the omen symbol draws now: before the haunt, encounters.
        drawing_encounters = any("_nb_encounter" in s for s in steps)
        return [{"_nb_den": {"deck": encounters.DECK if drawing_encounters else OMEN,
                             "steps": steps}}]


def den_liking(state: BetrayalState, seat: int, cards: list[str]) -> list[str]:
    """The two cards, the AI's keep first: an encounter whose scare rolls the
    explorer's best trait; an omen high in OMEN_LIKING."""
    def worth(key: str) -> int:
        card = content.card(key)
        if card.deck == encounters.DECK:
            trait = next((s["roll"].get("trait") for s in card.on_draw if "roll" in s), None)
            return traits.value(state, seat, str(trait)) if trait in content.TRAITS else 0
        liked = OMEN_LIKING.index(key) if key in OMEN_LIKING else len(OMEN_LIKING) // 2
        return -liked

    return sorted(cards, key=worth, reverse=True)  # stable: draw order breaks ties


@step("_nb_den")
def _den(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    deck = str(arg["deck"])
    top = state.decks.get(deck, [])[:2]
    if len(top) < 2:
        # One card (or none, after the omens' reshuffle if any): the symbol's own draw.
        ctx.push_child(frame, list(arg["steps"]))
        return
    tell(ctx, "events.den_look", who=ctx.who(seat), deck=neibolt_line(f"decks.{deck}"))
    cards = den_liking(state, seat, top)
    pause(ctx, frame, {"_nb_den_pick": {"deck": deck, "cards": cards}}, "nb_den",
          neibolt_line("prompts.den_keep"), [content.card(k).name for k in cards], private=True)


@resumer("nb_den")
def _den_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_nb_den_pick"]
    state, seat = ctx.state, frame.seat
    deck, cards = str(spec["deck"]), [str(k) for k in spec["cards"]]
    keep, other = cards[pick], cards[1 - pick]
    pile = state.decks[deck]
    for key in (keep, other):
        if key in pile:
            pile.remove(key)
    encounters.bury(state, other)
    tell(ctx, "events.den_bury", who=ctx.who(seat), deck=neibolt_line(f"decks.{deck}"))
    tell(ctx, "events.den_buried", audience=to_player(seat), card=content.card(other).name)
    if deck == encounters.DECK:
        encounters.resolve(ctx, seat, keep)
    else:
        decks.resolve_card(ctx, seat, keep)


# ---------------------------------------------------------------- Winding Tunnels

def same_tile(state: BetrayalState, a: int, b: int) -> bool:
    """Whether two explorers are on the same tile, as the scenarios mean it: the same
    room, and in the Winding Tunnels the same half (seed 000: "This tile counts as two
    unconnected tiles"). A plain room has no halves (side None for all in it)."""
    first, second = state.explorers[a], state.explorers[b]
    return first.tile == second.tile and first.side == second.side


@passive("winding_tunnels")
class WindingTunnels(RoomPassive, SightPassive):
    def crossing(self) -> tuple[str, int] | None:
        return (TUNNEL_TRAIT, TUNNEL_TARGET)

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        """From one half to the other, without leaving (the halves are adjacent): an
        explorer's move only (the house's own links, seat -1, have none: monsters
        have no side)."""
        if seat < 0 or tile != ref or state.explorers[seat].tile != tile:
            return []
        side = state.explorers[seat].side
        others = [d for d in sorted(doors(state.tiles[tile])) if d != side]
        if side is None or not others:
            return []
        return [Link(CROSS, tile, side=others[0], arrive=others[0])]

    def sight_half(self, state: BetrayalState, tile: int, door: str, ref: Any) -> str | None:
        return door if tile == ref else None

    def stops_sight(self, state: BetrayalState, tile: int, ref: object) -> bool:
        return tile == ref
