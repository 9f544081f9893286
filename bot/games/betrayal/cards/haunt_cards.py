"""The cards' haunt halves, and the house's favours to the traitor (seed 003).

Cards (items.yaml / omens.yaml `custom:`):

- Dynamite (`dynamite`): it counts as the turn's attack (combat.ATTACKED), so its
  passive keeps it off the buttons once an attack is made. Thrown through a door into
  the next room (a door of the thrower's own half, in a room split for the eye; into
  such a room, only the half behind that door: combat.looks_out, facing_half):
  everyone there rolls Speed, explorers of either side and monsters;
  0-4: an explorer takes 4 physical damage, a monster is hit (combat.hurt_monster:
  stunned, or what its haunt says); 5+: unhurt. A monster without Speed, without
  Might, or of a kind marked `incorporeal: true` in its haunt's data is untouched
  (the card's own words).
- Druidic Charm (`druidic_charm_flash`): every monster in the room is stunned, through
  combat.stun like any stun, so the haunt may refuse it or answer it.
- Bell (`bell_gather_heroes` on 5+, `bell_draw_monsters` on 0-4) and the Spirit
  Board's haunt half (omens.py): heroes, or monsters, move 1 room toward the card's
  user, one at a time, as long as their chooser likes. The Bell's user moves the
  heroes, but not one held fast by a card (hooks.blocked: "those who cannot act
  because of a special event"); the traitor moves the monsters (a choice for the
  traitor's seat); with no traitor, every monster must move. The Bell's 0-4 does
  nothing when the traitor rings it (the card); the Spirit Board's traitor may be its
  holder (its card).

The house is the traitor's home (seed 003, "Haunt": the traitor and the monsters are
not affected by rolls or cards that cause no damage; the traitor may choose not to be
affected by an event it draws; they choose the Mystic Elevator's result instead of
rolling):

- `house_is_home`, a passive on the traitor (its flag is set when the haunt begins):
  a room's rule that is a roll and can do no damage (the Attic's, the Junk Room's)
  does not touch the traitor; a room's gains and its damage still do.
- `_traitor_event`: an event the traitor draws in the haunt first asks "resolve it or
  ignore it" (decks.resolve_card pushes it); resolved, the traitor bears all of it.
- `reached`: an event another explorer drew that does no damage (events.yaml
  `does_damage: false`: Rotten, Footsteps, Image in the Mirror...) passes the traitor
  by (sides.unaffected), and the channel hears it; a card that does damage still hits.
  The tokens such cards leave (Drip, Smoke, the Blessing) leave the traitor's dice alone
  (cards/tokens.RoomDice).
- `_elevator_choose`: the traitor picks the Mystic Elevator's floor (cards/rooms.py).
Monsters already meet no room rule or card but those the haunt's engine applies.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bot.core.choices import PendingChoice
from bot.core.plain import copy_plain
from bot.games.betrayal import content, hooks, movement
from bot.games.betrayal import dice as betrayal_dice
from bot.games.betrayal.cards import HandPassive, Passive, RoomPassive, handler, passive, resumer
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import pause, resume, step
from bot.games.betrayal.haunting import base, combat, monsters, sides
from bot.games.betrayal.house import DIRS, door_targets, through_door
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import BetrayalState, Frame, Monster

DYNAMITE_DAMAGE = 4  # the card: 0-4 on Speed, 4 physical damage
DYNAMITE_SAFE = 5


def card_name(key: str) -> str:
    return content.card(key).name if key in content.get().cards else key


# ---------------------------------------------------------------- Dynamite

def blast_rooms(state: BetrayalState, seat: int) -> list[int]:
    """The rooms through a door of the thrower's room (in a room split for the eye,
    a door of the thrower's own side: combat.looks_out)."""
    explorer = state.explorers[seat]
    found = []
    for d in DIRS:
        target = through_door(state, explorer.tile, d)
        if target is not None and target not in found \
                and combat.looks_out(state, explorer.tile, explorer.side, d):
            found.append(target)
    return found


@passive("dynamite")
class Dynamite(HandPassive):
    """Offered only while the turn's attack is still to make, with a door to throw it
    through."""

    def can_use(self, state: BetrayalState, seat: int, key: str) -> bool:
        return not state.turn.flags.get(combat.ATTACKED) and bool(blast_rooms(state, seat))


@handler("dynamite")
def dynamite(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    state.turn.flags[combat.ATTACKED] = True  # the card: it counts as your attack
    rooms = blast_rooms(state, frame.seat)
    if not rooms:
        ctx.say("events.dynamite_nowhere")
        return
    movement.ask_tile(ctx, frame, {"_dynamite_blast": {}},
                      content.betrayal_line("prompts.dynamite_where"),
                      rooms)


def incorporeal(state: BetrayalState, monster: Monster) -> bool:
    """The haunt's data marks this monster kind `incorporeal: true`."""
    kinds = base.for_state(state).data.raw.get("monsters") or {}
    return bool((kinds.get(monster.kind) or {}).get("incorporeal"))


def blast_proof(state: BetrayalState, monster: Monster) -> bool:
    """Seed 003: the Dynamite does nothing to a monster without Speed, without Might,
    or incorporeal."""
    return combat.monster_trait(state, monster, "speed") is None \
        or combat.monster_trait(state, monster, "might") is None


@step("_dynamite_blast")
def _dynamite_blast(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, tile = ctx.state, int(arg["tile"])
    ctx.say("events.dynamite", kind="attack", who=ctx.who(frame.seat), room=ctx.room_name(tile),
            data={"seat": frame.seat, "tile": tile})
    caught = [m for m in sides.monsters(state) if m.tile == tile]
    for monster in caught:
        name = combat.monster_name(state, monster)
        if incorporeal(state, monster):
            ctx.say("events.dynamite_passes", monster=name)
            continue
        if blast_proof(state, monster):
            ctx.say("events.dynamite_no_effect", monster=name)
            continue
        speed = combat.monster_trait(state, monster, "speed") or 0
        dice = betrayal_dice.roll_betrayal(state.rng, min(8, speed)) if speed > 0 else []
        ctx.say("events.dynamite_monster", kind="roll", monster=name,
                dice=" ".join(map(str, dice)) or "-", total=sum(dice),
                data={"monster": monster.id, "dice": dice, "total": sum(dice)})
        if sum(dice) < DYNAMITE_SAFE:
            combat.hurt_monster(ctx, monster, DYNAMITE_DAMAGE, str(frame.seat), frame.source)
        else:
            ctx.say("events.dynamite_dodged", monster=name)
    half = combat.facing_half(state, tile, state.explorers[frame.seat].tile)
    victims = [s for s, e in enumerate(state.explorers) if e.alive and e.tile == tile
               and (half is None or e.side == half)]  # only the side the door opens on
    if not victims and not caught:
        ctx.say("events.dynamite_empty")
    for seat in reversed(victims):  # pushed last runs first: seat order
        ctx.push([{"roll": {"trait": "speed", "outcomes": [
            {"max": DYNAMITE_SAFE - 1, "do": [
                {"damage": {"kind": "physical", "amount": DYNAMITE_DAMAGE}}]},
            {"min": DYNAMITE_SAFE, "do": [{"_say": {"key": "events.dynamite_unhurt"}}]}]}}],
            seat, frame.source, frame.origin)


# ---------------------------------------------------------------- Druidic Charm

@handler("druidic_charm_flash")
def druidic_charm_flash(ctx: Ctx, frame: Frame, args: Any) -> None:
    state = ctx.state
    here = state.explorers[frame.seat].tile
    ctx.say("events.charm_flash", who=ctx.who(frame.seat), room=ctx.room_name(here))
    dazzled = [m for m in sides.monsters(state) if m.tile == here]
    if not dazzled:
        ctx.say("events.charm_nothing")
    for monster in dazzled:
        combat.stun(ctx, monster, str(frame.seat))


# ---------------------------------------------------------------- drawn toward the user

def walk_graph(state: BetrayalState) -> dict[int, list[int]]:
    """Where an explorer can walk from each room: doors and the house's own links (no
    Revolving Wall, which only a roll crosses; the Coal Chute only downwards)."""
    graph: dict[int, list[int]] = {}
    for tile_id in range(len(state.tiles)):
        graph[tile_id] = door_targets(state, tile_id)
    for a, b, kind in house_links(state):
        if kind != "revolving_wall":
            graph[a].append(b)
    return graph


def explorer_toward(state: BetrayalState, start: int, goal: int) -> int | None:
    """The next room on a shortest walk from `start` to `goal` (None: there, or no way)."""
    if start == goal:
        return None
    graph = walk_graph(state)
    first: dict[int, int] = {}
    todo: deque[int] = deque()
    for n in graph.get(start, []):
        if n not in first:
            first[n] = n
            todo.append(n)
    while todo:
        tile = todo.popleft()
        if tile == goal:
            return first[tile]
        for n in graph.get(tile, []):
            if n not in first and n != start:
                first[n] = first[tile]
                todo.append(n)
    return None


def drawn(state: BetrayalState, what: str, user: int, goal: int,
          done: list[str]) -> list[tuple[str, int]]:
    """Who may still be moved 1 room toward `goal`: (ref, the room it would enter);
    refs as in combat ("m<id>" a monster, digits a seat)."""
    found: list[tuple[str, int]] = []
    if what == "monsters":
        for m in sides.monsters(state):
            target = monsters.toward(state, m, {goal})
            if f"m{m.id}" not in done and target is not None:
                found.append((f"m{m.id}", target))
        return found
    for seat in sides.heroes(state):
        if seat == user or str(seat) in done or hooks.blocked(state, seat):
            continue  # the Bell: "except those who cannot act because of an event"
        target = explorer_toward(state, state.explorers[seat].tile, goal)
        if target is not None:
            found.append((str(seat), target))
    return found


def _ref_name(ctx: Ctx, ref: str) -> str:
    return combat.target_name(ctx.state, ref if ref.startswith("m") else int(ref))


def draw_toward(frame: Frame, what: str, tile: int) -> None:
    """Run next in `frame`: heroes or monsters move 1 room toward `tile`."""
    frame.steps.insert(0, {"_draw_toward": {"what": what, "tile": tile, "done": []}})


@step("_draw_toward")
def _draw_toward(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, spec = ctx.state, dict(arg)
    what, goal = str(spec["what"]), int(spec["tile"])
    moves = drawn(state, what, frame.seat, goal, list(spec.get("done", [])))
    if not moves:
        if not spec.get("done"):
            ctx.say("events.drawn_nobody", who=ctx.who(frame.seat))
        return
    chooser = frame.seat
    if what == "monsters":
        traitor = sides.traitor(state)
        if traitor is None:  # the cards: with no traitor, every monster must move
            for ref, target in moves:
                _move_drawn(ctx, frame.seat, ref, target)
            return
        chooser = traitor
    spec["choices"] = [[ref, target] for ref, target in moves]
    labels = [content.betrayal_line("labels.drawn_move", name=_ref_name(ctx, ref),
                                    source=ctx.room_name(_tile_of(state, ref)),
                                    target=ctx.room_name(target)) for ref, target in moves]
    labels.append(content.betrayal_line("labels.drawn_done"))
    key = "prompts.draw_monsters" if what == "monsters" else "prompts.gather_heroes"
    pause(ctx, frame, {"_draw_toward": spec}, "draw_toward",
          content.betrayal_line(key, card=card_name(frame.source), who=ctx.who(frame.seat)), labels,
          seat=chooser)


def _tile_of(state: BetrayalState, ref: str) -> int:
    if ref.startswith("m"):
        found = sides.monster(state, ref)
        assert found is not None
        return found.tile
    return state.explorers[int(ref)].tile


def _move_drawn(ctx: Ctx, user: int, ref: str, target: int) -> None:
    state = ctx.state
    if ref.startswith("m"):
        found = sides.monster(state, ref)
        assert found is not None
        found.tile = target
        ctx.say("events.drawn_monster", kind="move", monster=combat.monster_name(state, found),
                who=ctx.who(user), room=ctx.room_name(target),
                data={"monster": found.id, "to": target})
        return
    seat = int(ref)
    ctx.say("events.drawn_hero", kind="move", other=ctx.who(seat), who=ctx.who(user),
            room=ctx.room_name(target), data={"seat": seat, "to": target})
    movement.place_explorer(ctx, seat, target, via="card")


@resumer("draw_toward")
def _draw_toward_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    """The last label ends it; any other moves that one and asks again."""
    spec = frame.steps.pop(0)["_draw_toward"]
    choices = spec.pop("choices")
    if pick >= len(choices):
        return
    ref, target = choices[pick]
    _move_drawn(ctx, frame.seat, str(ref), int(target))
    spec["done"] = [*spec.get("done", []), str(ref)]
    frame.steps.insert(0, {"_draw_toward": spec})


@handler("bell_gather_heroes")
def bell_gather_heroes(ctx: Ctx, frame: Frame, args: Any) -> None:
    draw_toward(frame, "heroes", ctx.state.explorers[frame.seat].tile)


@handler("bell_draw_monsters")
def bell_draw_monsters(ctx: Ctx, frame: Frame, args: Any) -> None:
    """Seed 003: 0-4 has no effect when the Bell's holder is the traitor."""
    if sides.is_traitor(ctx.state, frame.seat):
        ctx.say("events.bell_traitor", who=ctx.who(frame.seat))
        return
    draw_toward(frame, "monsters", ctx.state.explorers[frame.seat].tile)


# ---------------------------------------------------------------- cards combat reads

@passive("ring")
class Ring(Passive):
    """Attacks with Sanity on its holder's turn: haunting/combat.attack_traits."""


@passive("revolver")
class Revolver(Passive):
    """Speed attacks, +1 die, also along a line of doors: haunting/combat.choices."""


@passive("blood_dagger")
class BloodDagger(Passive):
    """Its Speed cost and its price when stolen: cards/attacks.py WEAPON_COSTS and
    STOLEN_COSTS."""


# ---------------------------------------------------------------- the house is their home

def harmless_roll(room: str) -> bool:
    """The room's rule is a roll that can do no damage (seed 003: such rolls do not
    touch the traitor or the monsters)."""
    info = content.room(room)
    steps = [*info.on_enter, *info.on_leave, *info.on_end_turn]
    kinds = set(_step_kinds(steps))
    return "roll" in kinds and not kinds & {"damage", "attack"}


def _step_kinds(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append(str(key))
            found += _step_kinds(value)
    elif isinstance(node, list | tuple):
        for item in node:
            found += _step_kinds(item)
    return found


@passive(sides.HOME)
class HouseIsHome(RoomPassive):
    """Seed 003: the traitor is not affected by rolls that do no damage (a room's)."""

    def immune(self, state: BetrayalState, seat: int, room: str, ref: Any) -> bool:
        return sides.is_traitor(state, seat) and not state.over and harmless_roll(room)


def reached(ctx: Ctx, frame: Frame, seats: list[int]) -> list[int]:
    """The seats a card drawn by `frame.seat` still touches. The traitor is left out of
    a card that does no damage (seed 003; sides.unaffected), and the channel hears that
    it ignored the card, so that no one waits for a roll that will not come."""
    touched: list[int] = []
    for seat in seats:
        if sides.unaffected(ctx.state, seat, frame.source, frame.seat):
            ctx.say("events.traitor_unaffected", who=ctx.who(seat),
                    card=card_name(frame.source), data={"seat": seat, "card": frame.source})
        else:
            touched.append(seat)
    return touched


@step("_traitor_event")
def _traitor_event(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Asked first in the event's steps: "Ignore it" clears them (the `decline`
    resumer of basics.py); the card is discarded as usual. Not asked when resolving
    it would end exactly as ignoring it (Whoops! with no item to lose, the Beckoning
    with no one in reach): then it is resolved, and its own lines say it did nothing."""
    raw: dict[str, Any] = {"_traitor_event": {}}
    if _resolving_is_ignoring(ctx, raw):
        return
    pause(ctx, frame, raw, "decline",
          content.betrayal_line("prompts.traitor_event", card=card_name(frame.source)),
          [content.betrayal_line("labels.resolve_it"), content.betrayal_line("labels.ignore_it")])


def _resolving_is_ignoring(ctx: Ctx, raw: dict[str, Any]) -> bool:
    """Both answers played out on copies of the house (its dice to come too): alike,
    and the resolved card told no one anything in private, the question is no question.
    A roll, a draw or a choice on the way makes them differ, so those are still asked."""
    ends: list[dict[str, Any]] = []
    for pick in (0, 1):
        trial = copy_plain(ctx.state)
        trial.script[-1].steps.insert(0, dict(raw))
        trial.pending = PendingChoice(trial.script[-1].seat, "", "decline", ["", ""])
        played = Ctx(trial)
        resume(played, pick)
        if any(not e.audience.is_public for e in played.events):
            return False
        ends.append(trial.to_dict())
    return ends[0] == ends[1]


ELEVATOR_CHOICES: tuple[tuple[str, int], ...] = (("upper", 3), ("ground", 2), ("basement", 1))


@step("_elevator_choose")
def _elevator_choose(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Seed 003: the traitor chooses the Mystic Elevator's result instead of rolling
    (a floor; the 2 dice's "any floor" is every one of these)."""
    pause(ctx, frame, {"_elevator_choose": dict(arg)}, "elevator_choose",
          content.betrayal_line("prompts.elevator_choose"),
          [content.betrayal_line(f"floors.{floor}") for floor, _ in ELEVATOR_CHOICES])


@resumer("elevator_choose")
def _elevator_chosen(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_elevator_choose"]
    floor, total = ELEVATOR_CHOICES[pick]
    ctx.say("events.elevator_chosen", who=ctx.who(frame.seat),
            floor=content.betrayal_line(f"floors.{floor}"))
    frame.vars["roll"] = total  # what the 2 dice would have had to show
    frame.steps.insert(0, {"_elevator": {"tile": int(spec["tile"])}})
