"""Events A to L whose effect steps cannot say (events.yaml `custom:`), and the Toy
Monkey's passive (items.yaml), from seed 003 (events: lines 627-902; FAQ 903-945).

- Bloody Vision: a forced attack (cards/attacks.py; a monster: haunting/combat.py) on
  the lowest-Might explorer or monster here, else on one a single move away (the
  explorer steps in first).
- Creepy Puppet: after its Might 4 attack, the Spear's holder gains 2 Might if the
  drawer took physical damage.
- Webs and Debris keep their explorer from doing anything until freed; Lights Out caps
  movement at one room a turn; Grave Dirt hurts at the start of each turn. Each is
  discarded at its own end condition (below).
- Disquieting Sounds, Footsteps, Funeral, Groundskeeper, Hanged Men, Hideous Shriek,
  Image in the Mirror and Jonah's Turn: the parts of their cards steps cannot say.
- The Toy Monkey: entering a room with other explorers or monsters, roll 2 dice (3-4
  claps, 1-2 attacks one of them with Speed 3, 0 attacks its holder); at most one
  attack a turn. A monster it beats is hurt as in any fight (stunned, or killed if its
  haunt says so); it does nothing to a target without Speed (seed 003).

RULINGS (where seed 003 and events.yaml's notes leave it open):
- Webs, Debris: the held explorer's own Might 4+ try comes from its next turn on (the
  turn it was caught it has just failed that very roll); anyone else standing with it
  (the same side of a split room) may try once on each of their turns, as they enter
  or later. Every failed try, its own or another's, counts toward the 3. While held,
  the explorer's room shows a token of the card, so rescuers find it on the map. The
  held explorer uses no card on any roll, its own try included (seed 003: no items
  while the card is kept; rolls.py); a rescuer's roll is its own, with its own cards.
- Lights Out ends when its explorer ends its own turn with another living explorer (the
  same side of a split room) or in the Furnace Room, or holds the Candle (at once: the
  Candle also lifts the limit the moment it is held).
- Grave Dirt ends when its explorer ends its own turn in one of the seven rooms, or
  at once when an item card raises one of its traits: the item's own effect, whoever
  uses it (a Healing Salve on it, a Medical Kit) or when it is taken (the Amulet of the
  Ages, the Bell, Book and Candle's bonus); seed 003 says "using", we count every
  item's gain. A trait already at its top, or a heal with nothing to restore, raises
  nothing.
- Footsteps' "nearest" counts moves through the house's doors and walkable links from
  the drawer's room (an explorer in the same room is nearest); ties are the drawer's
  pick. On 0, every living explorer, the drawer first and then clockwise, picks.
- Creepy Puppet: "took physical damage" means some was dealt after the Armor's cut.
- Bloody Vision: a monster without Might cannot be struck with Might, so it is no one
  to attack (here or next door); a monster has no side in a split room.
- Toy Monkey: any monster here sets off its roll, the traitor's own too (the card
  says "other explorers or monsters"), but one without Speed is never its target; a
  monster it beats credits no hero (no explorer struck it: the Mummy keeps the Girl).
- Image in the Mirror: "item" means item cards (not omens); passing goes clockwise
  (seat + 1), the direction turns go, skipping the dead.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, decks, items
from bot.games.betrayal.cards import (
    Cause,
    HandPassive,
    Offer,
    TurnPassive,
    handler,
    passive,
    resumer,
)
from bot.games.betrayal.cards.attacks import explorer_attack, thing_attack
from bot.games.betrayal.cards.haunt_cards import reached
from bot.games.betrayal.content import TRAITS
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.effects import pause, step
from bot.games.betrayal.haunting import combat, sides
from bot.games.betrayal.house import DIRS, opposite, through_door
from bot.games.betrayal.links import distances, links_from
from bot.games.betrayal.movement import (
    arrival_side,
    ask_tile,
    crossing_for,
    place_explorer,
)
from bot.games.betrayal.rolls import card_rolls
from bot.games.betrayal.state import BetrayalState, Frame

CRYPT, GARDENS, FURNACE_ROOM = "crypt", "gardens", "furnace_room"
SPEAR, CANDLE = "spear", "candle"
PUZZLE_BOX, TOY_MONKEY = "puzzle_box", "toy_monkey"
GRAVE_DIRT_ROOMS: frozenset[str] = frozenset(
    {"balcony", "gardens", "graveyard", "gymnasium", "larder", "patio", "tower"})


def _name(key: str) -> str:
    return content.card(key).name


def _figure(ctx: Ctx, target: int | str) -> str:
    """An explorer's name (a seat) or a monster's ("m<id>")."""
    return ctx.who(target) if isinstance(target, int) else combat.target_name(ctx.state, target)


def _clockwise(state: BetrayalState, seat: int) -> list[int]:
    """Living explorers from `seat` round the table in turn order."""
    count = len(state.explorers)
    return [s for s in ((seat + i) % count for i in range(count)) if state.explorers[s].alive]


def _each(ctx: Ctx, frame: Frame, seats: list[int], steps: list[dict[str, Any]]) -> None:
    """Each of these explorers runs its own copy of `steps`, in this order; the traitor
    sits out a card that does no damage that another drew (seed 003: reached)."""
    for seat in reversed(reached(ctx, frame, seats)):  # the last pushed runs first
        ctx.push(steps, seat, frame.source, frame.origin)


def _discard_lasting(ctx: Ctx, seat: int, key: str) -> None:
    if key in ctx.state.explorers[seat].lasting:
        ctx.say("events.lasting_ends", kind="card", who=ctx.who(seat), card=_name(key),
                data={"seat": seat, "card": key})
        decks.take_card(ctx, seat, key, to="discard")


# ---------------------------------------------------------------- Bloody Vision

def _with(state: BetrayalState, seat: int) -> list[int]:
    return [s for s in range(len(state.explorers)) if items.together(state, seat, s)]


def _struck_here(state: BetrayalState, seat: int, tile: int, side: str | None) -> list[int | str]:
    """Whom a Bloody Vision attack could strike in this room, were `seat` there on
    `side`: the other living explorers on that side, and the monsters that have Might
    (seed 003: never an attack with a trait the target lacks)."""
    found: list[int | str] = [s for s, e in enumerate(state.explorers)
                              if s != seat and e.alive and e.tile == tile and e.side == side]
    return found + [f"m{m.id}" for m in combat.card_targets(state, seat, tile, "might")]


def _one_move(state: BetrayalState, seat: int) -> list[dict[str, Any]]:
    """Rooms one move away (a door, or a link one can walk, with no crossing roll) where
    someone to strike would be on arrival: [{"tile", "side", "steps"}]."""
    explorer = state.explorers[seat]
    ways: list[dict[str, Any]] = []
    for d in DIRS:
        target = through_door(state, explorer.tile, d)
        if target is not None and crossing_for(state, seat, d) is None:
            ways.append({"tile": target, "side": opposite(d), "steps": []})
    for link in links_from(state, seat):
        if link.walkable and crossing_for(state, seat, link.side) is None:
            ways.append({"tile": link.target, "side": link.arrive, "steps": list(link.steps)})
    found: list[dict[str, Any]] = []
    for way in ways:
        if any(w["tile"] == way["tile"] for w in found):
            continue
        side = arrival_side(state, way["tile"], way["side"])
        if _struck_here(state, seat, way["tile"], side):
            found.append(way)
    return found


def _here(state: BetrayalState, seat: int) -> list[int | str]:
    explorer = state.explorers[seat]
    return _struck_here(state, seat, explorer.tile, explorer.side)


def _might(state: BetrayalState, target: int | str) -> int:
    return combat.target_trait(state, target, "might") or 0


@handler("bloody_vision_attack")
def bloody_vision_attack(ctx: Ctx, frame: Frame, args: Any) -> None:
    """0-1: attack the lowest-Might explorer or monster here; with no one here, step
    into a room one move away where someone is (the drawer's pick among several) and
    attack there; with no one near, nothing happens."""
    state, seat = ctx.state, frame.seat
    if _here(state, seat):
        frame.steps.insert(0, {"_vision_target": {}})
        return
    ways = _one_move(state, seat)
    if not ways:
        ctx.say("events.vision_no_one", who=ctx.who(seat))
        return
    if len(ways) == 1:
        frame.steps.insert(0, {"_vision_step": ways[0]})
        return
    pause(ctx, frame, {"_vision_room": {"ways": ways}}, "vision_room",
          content.betrayal_line("prompts.vision_room"),
          [ctx.room_name(int(w["tile"])) for w in ways])


@resumer("vision_room")
def _vision_room(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    way = frame.steps.pop(0)["_vision_room"]["ways"][pick]
    frame.steps.insert(0, {"_vision_step": way})


@step("_vision_step")
def _vision_step(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Step in (a card's move: no Speed, no leaving roll; the room's entering rules and
    a link's own harm apply), then pick the target there."""
    tile = int(arg["tile"])
    ctx.say("events.vision_steps", kind="move", who=ctx.who(frame.seat),
            room=ctx.room_name(tile), data={"seat": frame.seat, "to": tile})
    ctx.push_child(frame, [{"_vision_target": {}}])
    ctx.push(list(arg.get("steps") or []), frame.seat, ctx.state.tiles[tile].room, "room")
    place_explorer(ctx, frame.seat, tile, side=arg.get("side"), via="card")


@step("_vision_target")
def _vision_target(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    here = _here(state, seat)
    if not here:
        ctx.say("events.vision_no_one", who=ctx.who(seat))
        return
    low = min(_might(state, t) for t in here)
    weakest = [t for t in here if _might(state, t) == low]
    if len(weakest) == 1:
        _vision_attack(ctx, frame, weakest[0])
        return
    pause(ctx, frame, {"_vision_pick": {"targets": weakest}}, "vision_target",
          content.betrayal_line("prompts.vision_target"),
          [content.betrayal_line("labels.explorer_might", who=_figure(ctx, t), might=low)
           for t in weakest])


@resumer("vision_target")
def _vision_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    _vision_attack(ctx, frame, _targets(frame.steps.pop(0)["_vision_pick"])[pick])


def _vision_attack(ctx: Ctx, frame: Frame, target: int | str) -> None:
    """A duel with an explorer, or the haunt's fight with a monster, with Might."""
    if isinstance(target, int):
        explorer_attack(ctx, frame.seat, target, "might", frame.source, frame.origin)
        return
    monster = sides.monster(ctx.state, target)
    if monster is not None:
        combat.strike(ctx, frame.seat, monster, "might", frame.source, frame.origin)


# ---------------------------------------------------------------- Creepy Puppet

def _physical_cut(state: BetrayalState, seat: int) -> int:
    """What the explorer's cards take off physical damage (the Armor)."""
    return sum(int(m.get("reduce", 0)) for key in state.explorers[seat].cards
               for m in content.card(key).modifiers
               if m.get("on") == "damage" and m.get("kind", "physical") == "physical")


@handler("creepy_puppet_spear")
def creepy_puppet_spear(ctx: Ctx, frame: Frame, args: Any) -> None:
    """If the puppet's attack hurt the drawer, the Spear's holder, if someone else,
    gains 2 Might."""
    state, seat = ctx.state, frame.seat
    last = state.turn.flags.get("last_attack") or {}
    if last.get("seat") != seat or int(last.get("damage", 0)) - _physical_cut(state, seat) <= 0:
        return
    holder = next((s for s, e in enumerate(state.explorers) if e.alive and SPEAR in e.cards),
                  None)
    if holder is None or holder == seat:
        return
    ctx.say("events.spear_feeds", who=ctx.who(holder))
    ctx.push([{"gain": {"trait": "might", "amount": 2}}], holder, frame.source, frame.origin)


# ---------------------------------------------------------------- Disquieting Sounds

@handler("disquieting_sounds")
def disquieting_sounds(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Roll 6 dice: exactly the number of omens drawn so far gains 1 Sanity; any other
    total brings 1 die of mental damage (seed 003's "equal to")."""
    omens = ctx.state.omens_drawn
    hurt = [{"damage": {"kind": "mental", "dice": 1}}]
    ctx.push_child(frame, [{"roll": {"dice": 6, "outcomes": [
        {"min": omens, "max": omens, "do": [{"gain": {"trait": "sanity", "amount": 1}}]},
        {"max": omens - 1, "do": hurt},
        {"min": omens + 1, "do": hurt}]}}])


# ---------------------------------------------------------------- Footsteps

def nearest(state: BetrayalState, seat: int) -> list[int]:
    """The living explorers fewest moves away from `seat` (doors and the house's
    walkable links; the same room is 0)."""
    dist = distances(state, {state.explorers[seat].tile})
    others = [(dist[e.tile], s) for s, e in enumerate(state.explorers)
              if s != seat and e.alive and e.tile in dist]
    if not others:
        return []
    best = min(d for d, _ in others)
    return [s for d, s in others if d == best]


@handler("footsteps")
def footsteps(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Roll 1 die (2 in the Crypt). 4: you and the nearest explorer gain 1 Might. 3: you
    gain 1 Might, the nearest loses 1 Sanity. 2: lose 1 Sanity. 1: lose 1 Speed. 0:
    everyone loses 1 in a trait of their own pick."""
    state = ctx.state
    count = 2 if state.at(frame.seat).room == CRYPT else 1
    might = {"gain": {"trait": "might", "amount": 1}}
    ctx.push_child(frame, [{"roll": {"dice": count, "outcomes": [
        {"min": 4, "do": [might, {"_footsteps_near": {"steps": [might]}}]},
        {"min": 3, "max": 3, "do": [might, {"_footsteps_near": {
            "steps": [{"lose": {"trait": "sanity", "amount": 1}}]}}]},
        {"min": 2, "max": 2, "do": [{"lose": {"trait": "sanity", "amount": 1}}]},
        {"min": 1, "max": 1, "do": [{"lose": {"trait": "speed", "amount": 1}}]},
        {"max": 0, "do": [{"_footsteps_all": {}}]}]}}])


@step("_footsteps_near")
def _footsteps_near(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    near = nearest(ctx.state, frame.seat)
    if not near:
        ctx.say("events.footsteps_alone")
        return
    if len(near) == 1:
        _each(ctx, frame, near, list(arg["steps"]))
        return
    pause(ctx, frame, {"_footsteps_pick": {"seats": near, "steps": arg["steps"]}},
          "footsteps_near", content.betrayal_line("prompts.nearest"), [ctx.who(s) for s in near])


@resumer("footsteps_near")
def _footsteps_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_footsteps_pick"]
    _each(ctx, frame, [int(spec["seats"][pick])], list(spec["steps"]))


@step("_footsteps_all")
def _footsteps_all(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    _each(ctx, frame, _clockwise(ctx.state, frame.seat),
          [{"lose": {"choose": list(TRAITS), "amount": 1}}])


# ---------------------------------------------------------------- Funeral

@handler("funeral_move")
def funeral_move(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Climb out in the Crypt or the Graveyard, whichever is placed (both: your pick)."""
    state = ctx.state
    tiles = [t for t in (state.tile_of(CRYPT), state.tile_of("graveyard")) if t is not None]
    if not tiles:
        ctx.say("events.funeral_nowhere", who=ctx.who(frame.seat))
        return
    ask_tile(ctx, frame, {"_move_to": {}}, content.betrayal_line("prompts.funeral"), tiles)


# ---------------------------------------------------------------- Groundskeeper

@handler("groundskeeper_gardens")
def groundskeeper_gardens(ctx: Ctx, frame: Frame, args: Any) -> None:
    """The Knowledge roll that follows uses 2 dice fewer in the Gardens (at least 1)."""
    if ctx.state.at(frame.seat).room == GARDENS:
        frame.vars["extra_dice"] = int(frame.vars.get("extra_dice", 0)) - 2


# ---------------------------------------------------------------- Hanged Men

@handler("hanged_men_bonus")
def hanged_men_bonus(ctx: Ctx, frame: Frame, args: Any) -> None:
    """All four rolls 2+: gain 1 in a trait of your choice. The totals are the card's
    own trait rolls by its drawer (rolls.card_rolls: a roll item pausing between them,
    or changing one, is counted as it came out)."""
    totals = {str(r["trait"]): int(r["total"]) for r in card_rolls(ctx.state, frame.source)
              if r["seat"] == frame.seat and r["trait"] in TRAITS
              and r["purpose"] not in ("defense", "attack")}
    if len(totals) < len(TRAITS) or min(totals.values()) < 2:
        return
    ctx.say("events.hanged_men_pass", who=ctx.who(frame.seat))
    ctx.push_child(frame, [{"gain": {"choose": list(TRAITS), "amount": 1}}])


# ---------------------------------------------------------------- Hideous Shriek

@handler("hideous_shriek")
def hideous_shriek(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Every explorer, the drawer first, rolls Sanity for itself: 4+ nothing; 1-3 1 die
    of mental damage; 0 2 dice."""
    _each(ctx, frame, _clockwise(ctx.state, frame.seat), [{"roll": {"trait": "sanity", "outcomes": [
        {"min": 4, "do": []},
        {"min": 1, "max": 3, "do": [{"damage": {"kind": "mental", "dice": 1}}]},
        {"max": 0, "do": [{"damage": {"kind": "mental", "dice": 2}}]}]}}])


# ---------------------------------------------------------------- Image in the Mirror

def item_cards(state: BetrayalState, seat: int) -> list[str]:
    return [k for k in state.explorers[seat].cards if content.card(k).deck == "item"]


@handler("image_in_the_mirror_pass")
def image_in_the_mirror_pass(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Only an explorer with an item card is affected: the card goes round the table
    from the drawer to the first who has one (the traitor, but for its own draw, is
    passed over: seed 003, reached); with no one, it is discarded."""
    state = ctx.state
    holder = next((s for s in _clockwise(state, frame.seat)
                   if item_cards(state, s) and reached(ctx, frame, [s])), None)
    if holder is None:
        ctx.say("events.mirror_no_one")
        frame.steps.clear()
        return
    if holder != frame.seat:
        ctx.say("events.mirror_passes", who=ctx.who(frame.seat), other=ctx.who(holder))
        frame.seat = holder


@handler("image_in_the_mirror_send")
def image_in_the_mirror_send(ctx: Ctx, frame: Frame, args: Any) -> None:
    """One of your item cards (your pick) goes back into the item deck, shuffled."""
    held = item_cards(ctx.state, frame.seat)
    if len(held) == 1:
        _send(ctx, frame.seat, held[0])
    elif held:
        pause(ctx, frame, {"_mirror_item": {"cards": held}}, "mirror_item",
              content.betrayal_line("prompts.mirror_item"), [_name(k) for k in held])


@resumer("mirror_item")
def _mirror_item(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    _send(ctx, frame.seat, str(frame.steps.pop(0)["_mirror_item"]["cards"][pick]))


def _send(ctx: Ctx, seat: int, key: str) -> None:
    ctx.say("events.mirror_sends", kind="card", who=ctx.who(seat), card=_name(key),
            data={"seat": seat, "card": key})
    decks.take_card(ctx, seat, key, to="deck")


# ---------------------------------------------------------------- Jonah's Turn

@handler("jonahs_turn")
def jonahs_turn(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Discard the Puzzle Box and the Toy Monkey you hold; for each, draw an item and
    gain 1 Sanity. Holding neither: 1 die of mental damage."""
    seat = frame.seat
    given = [k for k in (PUZZLE_BOX, TOY_MONKEY) if k in ctx.state.explorers[seat].cards]
    if not given:
        ctx.push_child(frame, [{"damage": {"kind": "mental", "dice": 1}}])
        return
    # pushed first, so they run after the cards are gone (and their on_lose has run)
    ctx.push_child(frame, [{"draw": {"deck": "item", "count": len(given)}},
                           {"gain": {"trait": "sanity", "amount": len(given)}}])
    for key in reversed(given):
        ctx.say("events.jonah_trade", who=ctx.who(seat), card=_name(key))
        decks.take_card(ctx, seat, key, to="discard")


# ---------------------------------------------------------------- Lights Out

@passive("lights_out")
class LightsOut(TurnPassive, HandPassive):
    """One room a turn, until its explorer ends a turn with another explorer or in the
    Furnace Room, or holds the Candle. The cap counts rooms entered, by a way that costs
    no Speed too (the Rope: movement.can_spend)."""

    def speed_cap(self, state: BetrayalState, seat: int, ref: Any) -> int | None:
        return None if CANDLE in state.explorers[seat].cards else 1

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        state = ctx.state
        if CANDLE in state.explorers[seat].cards or state.at(seat).room == FURNACE_ROOM \
                or _with(state, seat):
            _discard_lasting(ctx, seat, ref)

    def start_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        self.cards_changed(ctx, seat, ref)

    def cards_changed(self, ctx: Ctx, seat: int, ref: Any) -> None:
        if CANDLE in ctx.state.explorers[seat].cards:
            _discard_lasting(ctx, seat, ref)


# ---------------------------------------------------------------- Grave Dirt

@passive("grave_dirt")
class GraveDirt(TurnPassive, HandPassive):
    """1 physical damage as each of its explorer's turns starts, until an item card
    raises one of its traits (at once) or it ends a turn in the Balcony, Gardens,
    Graveyard, Gymnasium, Larder, Patio or Tower."""

    def trait_changed(self, ctx: Ctx, seat: int, trait: str, moved: int, cause: Cause,
                      ref: Any) -> None:
        if moved > 0 and cause.origin == "item":
            _discard_lasting(ctx, seat, ref)

    def start_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        ctx.say("events.grave_dirt", who=ctx.who(seat))
        ctx.push([{"damage": {"kind": "physical", "amount": 1}}], seat, ref, "event")

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        if ctx.state.at(seat).room in GRAVE_DIRT_ROOMS:
            _discard_lasting(ctx, seat, ref)


# ---------------------------------------------------------------- Webs and Debris

def _hold_flag(key: str) -> str:
    return f"{key}_hold"


class Held(TurnPassive):
    """A lasting card that holds its explorer fast (ref: the card key) and the token
    it leaves in the explorer's room (ref: (tile, index)), through which others in the
    room are offered the rescue. Flag `<card>_hold`: {"fails": failed tries so far}."""

    trait, target, tries = "might", 4, 3

    def blocks(self, state: BetrayalState, seat: int, ref: Any) -> bool:
        return isinstance(ref, str)

    # ---- noting the hold (there is no hook for "kept as lasting"): at the end of the
    # turn it was caught in, or at the start of its explorer's next turn if it was
    # caught in someone else's. From then on its own try is offered, and the token lies
    # in its room for the others.
    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        if isinstance(ref, str):
            self._note(ctx.state, seat, ref)

    def start_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        if isinstance(ref, str):
            self._note(ctx.state, seat, ref)

    def entered(self, ctx: Ctx, seat: int, tile: int, ref: Any) -> None:
        if isinstance(ref, str) and _hold_flag(ref) in ctx.state.explorers[seat].flags:
            _drop_tokens(ctx.state, seat, ref)
            ctx.state.tiles[tile].tokens.append({"kind": ref, "card": ref, "seat": seat})

    def _note(self, state: BetrayalState, seat: int, key: str) -> None:
        state.explorers[seat].flags.setdefault(_hold_flag(key), {"fails": 0})
        tile = state.explorers[seat].tile
        if not any(t.get("card") == key and t.get("seat") == seat
                   for t in state.tiles[tile].tokens):
            _drop_tokens(state, seat, key)
            state.tiles[tile].tokens.append({"kind": key, "card": key, "seat": seat})

    # ---- trying to get free
    def actions(self, state: BetrayalState, seat: int, ref: Any) -> list[Offer]:
        if isinstance(ref, str):
            if _hold_flag(ref) not in state.explorers[seat].flags:
                return []  # the turn it was caught in
            return [Offer(f"{ref}-self", content.betrayal_line("labels.held_self", card=_name(ref)),
                          {"held": seat, "card": ref})]
        tile, index = ref
        token = state.tiles[tile].tokens[index]
        key, held = str(token["card"]), int(token["seat"])
        if seat == held or key not in state.explorers[held].lasting \
                or not items.together(state, seat, held):
            return []
        return [Offer(f"{key}-free-{held}", content.betrayal_line("labels.held_other",
                                                                  card=_name(key),
                                                                  other=explorer_name(state, held)),
                      {"held": held, "card": key})]

    def act(self, ctx: Ctx, seat: int, offer: Offer, ref: Any) -> None:
        card = str(offer.data["card"])
        spec = {"held": int(offer.data["held"]), "card": card}
        ctx.push([{"roll": {"trait": self.trait, "outcomes": [
            {"min": self.target, "do": [{"_held_free": spec}]},
            {"max": self.target - 1, "do": [{"_held_fail": spec}]}]}}],
            seat, card, "event")


def _drop_tokens(state: BetrayalState, seat: int, key: str) -> None:
    for tile in state.tiles:
        tile.tokens[:] = [t for t in tile.tokens
                          if not (t.get("card") == key and t.get("seat") == seat)]


def _release(ctx: Ctx, seat: int, key: str, message: str) -> None:
    state = ctx.state
    _drop_tokens(state, seat, key)
    state.explorers[seat].flags.pop(_hold_flag(key), None)
    ctx.say(message, kind="card", who=ctx.who(seat), card=_name(key), tries=Held.tries,
            data={"seat": seat, "card": key})
    if key in state.explorers[seat].lasting:
        decks.take_card(ctx, seat, key, to="discard")


@step("_held_free")
def _held_free(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    _release(ctx, int(arg["held"]), str(arg["card"]), "events.held_free")


@step("_held_fail")
def _held_fail(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    held, key = int(arg["held"]), str(arg["card"])
    hold = ctx.state.explorers[held].flags.setdefault(_hold_flag(key), {"fails": 0})
    hold["fails"] = int(hold["fails"]) + 1
    if hold["fails"] >= Held.tries:
        _release(ctx, held, key, "events.held_worn")
        return
    ctx.say("events.held_fail", who=ctx.who(held), card=_name(key), fails=hold["fails"],
            tries=Held.tries)


@passive("webs")
class Webs(Held):
    """Webs hold their explorer exactly as Debris does; only the card differs."""


@passive("debris")
class Debris(Held):
    """Debris holds its explorer until freed (see Held)."""


# ---------------------------------------------------------------- the Toy Monkey

MONKEY_ATTACKED = "toy_monkey_attacked"  # turn flag: it has attacked this turn


@passive(TOY_MONKEY)
class ToyMonkey(TurnPassive):
    """Entering a room with other explorers or monsters, its holder rolls 2 dice: 3-4
    it claps; 1-2 it attacks one of them (the holder's pick) with Speed 3; 0 it attacks
    its holder. Once it has attacked this turn it only claps (no roll)."""

    def entered(self, ctx: Ctx, seat: int, tile: int, ref: Any) -> None:
        state = ctx.state
        if state.turn.flags.get(MONKEY_ATTACKED) or not (
                _with(state, seat) or combat.monsters_in(state, state.explorers[seat].tile)):
            return
        ctx.push([{"roll": {"dice": 2, "outcomes": [
            {"min": 3, "do": [{"_monkey": {"at": "none"}}]},
            {"min": 1, "max": 2, "do": [{"_monkey": {"at": "other"}}]},
            {"max": 0, "do": [{"_monkey": {"at": "holder"}}]}]}}], seat, ref, "item")


def _monkey_targets(state: BetrayalState, seat: int) -> list[int | str]:
    """Whom the monkey may attack on 1-2: the other explorers here, and the monsters
    here that have Speed (seed 003: it does nothing to a target without Speed)."""
    here = state.explorers[seat].tile
    found: list[int | str] = list(_with(state, seat))
    return found + [f"m{m.id}" for m in combat.card_targets(state, seat, here, "speed")]


@step("_monkey")
def _monkey(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    at = arg.get("at")
    if at == "holder":
        _monkey_attack(ctx, frame, seat)
        return
    targets = _monkey_targets(state, seat) if at == "other" else []
    if not targets:
        ctx.say("events.monkey_claps")
        return
    if len(targets) == 1:
        _monkey_attack(ctx, frame, targets[0])
        return
    pause(ctx, frame, {"_monkey_pick": {"targets": targets}}, "monkey_target",
          content.betrayal_line("prompts.monkey_target"),
          [_figure(ctx, t) for t in targets])


@resumer("monkey_target")
def _monkey_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    _monkey_attack(ctx, frame, _targets(frame.steps.pop(0)["_monkey_pick"])[pick])


def _targets(spec: dict[str, Any]) -> list[int | str]:
    """The figures a paused pick offered: `targets`, or `seats` in a game saved while
    such a pick waited, before monsters could be picked too."""
    return list(spec["targets"] if "targets" in spec else spec["seats"])


def _monkey_attack(ctx: Ctx, frame: Frame, target: int | str) -> None:
    """Speed 3 on an explorer (its defence roll) or on a monster (its own dice)."""
    ctx.state.turn.flags[MONKEY_ATTACKED] = True
    monster = sides.monster(ctx.state, target) if isinstance(target, str) else None
    if monster is not None:
        combat.thing_strikes(ctx, frame.seat, monster, _name(TOY_MONKEY), "speed", 3,
                             frame.source, frame.origin)
        return
    if isinstance(target, int):
        thing_attack(ctx, target, _name(TOY_MONKEY), "speed", 3, frame.source, frame.origin)
