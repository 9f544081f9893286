"""The Ritual of Chud (seed 000, scenario 4): a cooperative haunt. No traitor; the bot
plays Pennywise the Clown, and the heroes find their artifacts and perform the ritual.

Seed 000's rules, as played here (data in data/neibolt/haunts/the_ritual_of_chud.yaml):
- Setup: each hero's artifact set aside (found later); Pennywise on the revealer's
  tile; the Monster Card to the player on the revealer's left (his target; he takes
  his turn right after the holder's: `house_turn_after`); if the five ritual rooms are
  all in the house, one goes back into the room stack (`_shuffle_back`).
- His turn (the house's, the engine's default: haunting/house.py): he moves as a
  monster does (dice by his Speed, at least 1) toward the holder and attacks them with
  Might (RULES.md section 2; `can_attack` lets him strike the holder alone). He cannot
  be stunned: damage dealt to him drives him that many rooms away from the attacker,
  who picks the way (`_chud_push`). No Mystic Elevator (a monster never rides it).
- Exploring (edition.py asks `symbol_steps`): an event room hands the discoverer the
  Monster Card and its event's rolls ignore their highest die, defence rolls too (the
  `nb_chud_event` flag's passive, `drops_highest`, up while that event is resolved
  and no longer); an item or omen room may give up the discoverer's
  artifact (or a dead hero's not yet found) instead of its card; a ritual room hands
  over the Monster Card and takes the altar if it is not placed yet.
- Face Pennywise: a Sanity roll of 5+ lets the hero enter his room and attack him this
  turn (`can_enter`, `can_attack`); once a turn. Offered wherever facing him would let
  the hero at him: in his room or the next, or with the Revolver in line of sight of
  him (`within_reach`).
- Deposit an Artifact, Complete the Ritual: as the book says. A dead hero's artifacts
  lie where they fell (Take the artifacts, no roll).
- The Monster Card passes on death to the next living hero on the left.
- He acts from his first turn: seed 000 prints his turn ("he moves toward his target,
  and attacks them if he reaches their tile") and no wait, and RULES.md has the bot
  play him by the rules printed. (Issue 21's designed wait in the shadows is gone: a
  balance number may not override a printed rule. A game stored while he waited keeps
  a "shadows" count in its progress, which nothing reads: he acts on his next turn.)

progress: "artifacts" (owner seat as text -> {"at": aside|held|tile|done, "where":
seat or tile}), "card" (the holder), "altar" (its tile, or None), "ritual" (done).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    BoardHooks,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    HouseHooks,
    Monster,
    MovementHooks,
    Offer,
    Reason,
    RollPassive,
    TurnHooks,
    TurnPassive,
    combat,
    content,
    dice,
    explorer_name,
    house,
    links,
    monsters,
    passive,
    pause,
    register,
    resumer,
    sides,
    step,
    traits,
    turn,
)
from bot.games.neibolt.names import rooms
from bot.games.neibolt.rooms import same_tile

KEY = "the_ritual_of_chud"
KIND = "pennywise"
ALTAR = "altar"
ARTIFACT = "artifact"
FACED = "chud_faced"  # turn flag: this hero succeeded on the Sanity roll to face him
EVENT_FLAG = "nb_chud_event"  # explorer flag: discovered an event room this turn
RITUAL_NAMES = ("Old Well", "Ancient Den", "Ritual Room", "Nursery", "Bloody Room")
ASIDE, HELD, TILE, DONE = "aside", "held", "tile", "done"
DRIVE_OFF = True  # the AI faces him, when it is a match for him, to drive him off
DRIVE_OFF_RANGE = 2  # rooms from the Monster Card's holder at which he is driven off


def ritual_rooms() -> frozenset[str]:
    return rooms(*RITUAL_NAMES)


def pennywise(state: BetrayalState) -> Monster | None:
    return sides.first_monster(state, KIND)


def progress(state: BetrayalState) -> dict[str, Any]:
    assert state.haunt is not None
    return state.haunt.progress


def artifacts(state: BetrayalState) -> dict[str, dict[str, Any]]:
    return dict(progress(state).get("artifacts", {}))


def holder(state: BetrayalState) -> int | None:
    seat = progress(state).get("card")
    return int(seat) if seat is not None else None


def altar(state: BetrayalState) -> int | None:
    tile = progress(state).get("altar")
    return int(tile) if tile is not None else None


def carried(state: BetrayalState, seat: int) -> list[int]:
    """The owners whose artifacts this hero carries, its own first."""
    found = [int(o) for o, a in artifacts(state).items() if a["at"] == HELD and a["where"] == seat]
    return sorted(found, key=lambda o: (o != seat, o))


def findable(state: BetrayalState, seat: int) -> list[int]:
    """Artifacts this hero may find in an item or omen room: its own, if still aside,
    then those of dead heroes nobody has found."""
    found = []
    for owner, a in sorted(artifacts(state).items(), key=lambda kv: int(kv[0])):
        o = int(owner)
        if a["at"] == ASIDE and (o == seat or not state.explorers[o].alive):
            found.append(o)
    return sorted(found, key=lambda o: (o != seat, o))


def lying(state: BetrayalState, seat: int) -> list[int]:
    """Artifacts lying in this hero's room that it may take (its own, or the dead's)."""
    here = state.explorers[seat].tile
    return [int(o) for o, a in artifacts(state).items() if a["at"] == TILE
            and a["where"] == here and (int(o) == seat or not state.explorers[int(o)].alive)]


def within_reach(state: BetrayalState, seat: int, found: Monster) -> bool:
    """Whether facing him would let this hero at him this turn (seed 000: "you cannot
    move onto Pennywise's tile or attack him unless you first succeed on a Sanity roll
    of 5+"): he is in its room or the next (the way in), or it holds a weapon that
    strikes from afar and he stands in its line of sight (the Revolver's shot along a
    straight line through doors: combat.within_shot), no attack made yet this turn."""
    explorer = state.explorers[seat]
    here = explorer.tile
    if found.tile == here or found.tile in links.walkable(state, here):
        return True
    return (combat.REVOLVER in explorer.cards and not state.turn.flags.get(combat.ATTACKED)
            and combat.monster_trait(state, found, "speed") is not None
            and f"m{found.id}" in combat.within_shot(state, seat))


def all_done(state: BetrayalState) -> bool:
    return all(a["at"] == DONE for a in artifacts(state).values())


def _set(state: BetrayalState, owner: int, at: str, where: int | None = None) -> None:
    """Where an artifact is now; one lying in a room shows there as a token."""
    found = dict(progress(state).get("artifacts", {}))
    old = found.get(str(owner), {})
    if old.get("at") == TILE:
        tokens = state.tiles[int(old["where"])].tokens
        mine = next((t for t in tokens if t.get("kind") == ARTIFACT and t.get("owner") == owner),
                    None)
        if mine is not None:
            tokens.remove(mine)
    if at == TILE and where is not None:
        state.tiles[where].tokens.append({"kind": ARTIFACT, "card": "", "haunt": KEY,
                                          "owner": owner})
    found[str(owner)] = {"at": at, "where": where}
    progress(state)["artifacts"] = found



@register(KEY)
class TheRitualOfChud(HauntPlugin, TurnHooks, HouseHooks, MovementHooks, CombatHooks,
                      BoardHooks, AIHooks):
    cooperative = True

    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        progress(state).update({"artifacts": {str(s): {"at": ASIDE, "where": None}
                                              for s in range(len(state.players))},
                                "altar": None, "ritual": False})
        self.say(ctx, "artifacts_aside")
        _shuffle_back(ctx, self)
        tile = state.explorers[state.haunt.revealer].tile
        monsters.spawn(ctx, KIND, tile, quiet=True)
        first = sides.heroes(state)[0]
        progress(state)["card"] = first
        self.say(ctx, "setup", room=ctx.room_name(tile), who=ctx.who(first),
                 data={"card": first})

    # ---------------------------------------------------------------- the Monster Card
    def give_card(self, ctx: Ctx, seat: int) -> None:
        """Seed 000: "Take the Monster Card. Pennywise takes his turn after you now!" """
        if holder(ctx.state) == seat:
            return
        progress(ctx.state)["card"] = seat
        self.say(ctx, "card_to", who=ctx.who(seat), data={"card": seat})

    def house_turn_after(self, state: BetrayalState, seat: int) -> bool:
        return holder(state) == seat

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        if attacker.startswith("m"):
            return target == str(holder(state))
        return not target.startswith("m") or bool(state.turn.flags.get(FACED))

    def can_enter(self, state: BetrayalState, seat: int, tile: int) -> bool:
        found = pennywise(state)
        return found is None or found.tile != tile or bool(state.turn.flags.get(FACED))

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        seat = holder(state)
        return {state.explorers[seat].tile} if seat is not None else set()

    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        """Seed 000: "Pennywise cannot be stunned, but if you deal damage to him, move
        him that many spaces" (away from the attacker, who picks the way)."""
        state = ctx.state
        seat = int(attacker) if attacker.isdigit() else state.turn.seat
        origin = state.explorers[seat].tile
        self.say(ctx, "pushed", count=amount)
        ctx.push([{"_chud_push": {"left": amount, "from": origin}}], seat, KEY)
        return True

    def can_stun(self, state: BetrayalState, monster: Monster) -> bool:
        """Seed 000: "Pennywise cannot be stunned", by a fight or by anything else (the
        Druidic Charm's flash)."""
        return monster.kind != KIND

    def on_death(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        where = state.explorers[seat].tile
        for owner in carried(state, seat):
            _set(state, owner, TILE, where)
            self.say(ctx, "dropped", owner=explorer_name(state, owner), room=ctx.room_name(where))
        if holder(state) == seat:
            heir = sides.next_hero_left(state, seat)
            progress(state)["card"] = heir
            if heir is not None:
                self.say(ctx, "card_passes", who=ctx.who(heir), data={"card": heir})

    # ---------------------------------------------------------------- exploring
    def symbol_steps(self, state: BetrayalState, symbol: str,
                     steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if symbol == "event":
            return [{"_chud_event_room": {}}, {"_chud_ritual_room": {}}, *steps,
                    {"_chud_event_done": {}}]
        if symbol in ("item", "omen"):
            return [{"_chud_ritual_room": {}}, {"_chud_find": {"steps": steps}}]
        return [{"_chud_ritual_room": {}}, *steps]

    # ---------------------------------------------------------------- actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        found = pennywise(state)
        here = state.explorers[seat].tile
        at_altar = altar(state) == here
        offers: list[Offer] = []
        if at_altar and all_done(state):
            offers.append(self.offer(state, "ritual", count=len(sides.heroes(state))))
        held = carried(state, seat)
        if at_altar and held and (found is None or found.tile != here):
            offers.append(self.offer(state, "deposit", owner=explorer_name(state, held[0]),
                                     target=self.value(state, "deposit")))
        if lying(state, seat):
            offers.append(self.offer(state, "take"))
        # Seed 000: "Artifacts cannot be traded to another player unless the hero they
        # belong to is dead."
        for owner in held:
            if state.explorers[owner].alive:
                continue
            for other in sides.heroes(state):  # a trade: the same tile (and half)
                if other != seat and same_tile(state, seat, other):
                    offers.append(self.offer(state, f"give-{owner}-{other}",
                                             owner=explorer_name(state, owner),
                                             who=explorer_name(state, other)))
        if found is not None and not state.turn.flags.get(FACED) and within_reach(state, seat,
                                                                                   found):
            offers.append(self.offer(state, "face", target=self.value(state, "face")))
        return offers

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        if offer.id == "take":
            for owner in lying(state, seat):
                _set(state, owner, HELD, seat)
                self.say(ctx, "taken", who=ctx.who(seat), owner=explorer_name(state, owner))
            return
        if offer.id.startswith("give-"):
            _, whose, to = offer.id.split("-")
            _set(state, int(whose), HELD, int(to))
            self.say(ctx, "given", who=ctx.who(seat), owner=explorer_name(state, int(whose)),
                     other=ctx.who(int(to)))
            return
        if offer.id == "face":
            target = self.value(state, "face")
            self.say(ctx, "face", who=ctx.who(seat), target=target)
            ctx.push([{"roll": {"trait": "sanity", "purpose": "haunt", "then": [
                {"_chud_faced": {"target": target}}]}}], seat, KEY)
            return
        if offer.id == "deposit":
            owner = carried(state, seat)[0]
            target = self.value(state, "deposit")
            self.say(ctx, "deposit", who=ctx.who(seat), owner=explorer_name(state, owner),
                     target=target)
            ctx.push([{"roll": {"trait": "sanity", "purpose": "haunt", "then": [
                {"_chud_deposit": {"owner": owner, "target": target}}]}}], seat, KEY)
            return
        # Complete the Ritual.
        self.give_card(ctx, seat)
        count = len(sides.heroes(state))
        self.say(ctx, "ritual", who=ctx.who(seat), count=count)
        rolled = dice.roll_betrayal(state.rng, count)
        total = sum(rolled)
        self.say(ctx, "ritual_roll", kind="roll", dice=" ".join(map(str, rolled)),
                 total=total, count=count, data={"dice": rolled, "total": total})
        if total >= count:
            progress(state)["ritual"] = True
            self.say(ctx, "ritual_done")
            return
        self.say(ctx, "ritual_fails", who=ctx.who(seat), count=count)
        ctx.push([{"damage": {"kind": "mental", "amount": count}}], seat, KEY)

    # ---------------------------------------------------------------- winning, the board
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        if progress(state).get("ritual"):
            return sides.HERO, self.reason("reason_ritual")
        return None

    def board_note(self, state: BetrayalState) -> str:
        seat = holder(state)
        found = artifacts(state)
        where = altar(state)
        return self.text(
            "note", holder=explorer_name(state, seat) if seat is not None else "-",
            done=sum(1 for a in found.values() if a["at"] == DONE), total=len(found),
            altar=self.text("note_altar", room=content.room(state.tiles[where].room).name)
            if where is not None else "")

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Having faced him to drive him off, his room until the turn's attack is made
        (a face made from the next room is wasted unless the hero then steps in and
        fights); else the altar with an
        artifact to lay (or the ritual to do); else a dead hero's artifacts where they
        lie; else explore (an empty set: the exploring AI)."""
        found = pennywise(state)
        flags = state.turn.flags
        if found is not None and DRIVE_OFF and state.turn.seat == seat and flags.get(FACED) \
                and not flags.get(combat.ATTACKED) and self.drives_off(state, seat, found):
            return {found.tile}
        where = altar(state)
        if where is not None and (carried(state, seat) or all_done(state)):
            return {where}
        lying_about = artifacts(state)
        return {int(a["where"]) for o, a in lying_about.items() if a["at"] == TILE
                and (int(o) == seat or not state.explorers[int(o)].alive)}

    def ai_presses(self, state: BetrayalState, seat: int, target: int | str) -> bool:
        """Drive him off the altar."""
        return isinstance(target, str) and altar(state) == state.explorers[seat].tile

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        by = {o.id: o for o in offers}
        for pick in ("ritual", "deposit", "take"):
            if pick in by:
                return by[pick]
        found = pennywise(state)
        goals = self.goals(state, seat)
        if "face" in by and found is not None and (
                found.tile in goals or (DRIVE_OFF and self.drives_off(state, seat, found))):
            return by["face"]  # he stands where this hero must go, or it can drive him off
        return None

    def drives_off(self, state: BetrayalState, seat: int, found: Monster) -> bool:
        """Whether this hero should face him to drive him off the one he hunts: it is a
        match for his Might, and he is close to the Monster Card's holder (who may be
        itself). A weaker hero who faced him would only lose the fight."""
        target = holder(state)
        might = combat.monster_trait(state, found, "might") or 0
        if target is None or traits.value(state, seat, "might") < might:
            return False
        near = monsters.distances(state, {found.tile})
        return near.get(state.explorers[target].tile, 99) <= DRIVE_OFF_RANGE


# ---------------------------------------------------------------- setup: a room goes back

def _shuffle_back(ctx: Ctx, plugin: TheRitualOfChud) -> None:
    """Seed 000: "If the Old Well, Ancient Den, Ritual Room, Nursery, and Bloody Room
    have all been discovered, shuffle one of them into the tile stack... Choose the tile
    that disrupts the house the least": one with nobody, no monster, no item and no
    token in it, whose going leaves every other room as reachable as before; the last
    placed first. "Reorganize the house if needed": with none such, the one holding the
    least (explorers, monsters, items, tokens) whose going still cuts no room off; what
    it held moves to the room next to it (DESIGNED: the least that can move). Every
    ritual room cutting the house apart: the house stays as it is (said so)."""
    state = ctx.state
    wanted = ritual_rooms()
    placed = [i for i, t in enumerate(state.tiles) if t.room in wanted]
    if {state.tiles[i].room for i in placed} != set(wanted):
        return
    graph = _both_ways(links.graph_of(state))
    # What the house reaches is counted from the Entrance Hall, its way in.
    start = next((i for i, t in enumerate(state.tiles) if t.room == "entrance_hall"), 0)
    before = _reach(graph, start, None)
    busy = {e.tile for e in state.explorers} | {m.tile for m in state.monsters}
    linked = {int(tok["link"]) for t in state.tiles for tok in t.tokens if "link" in tok}
    for idx in sorted(placed, reverse=True):
        t = state.tiles[idx]
        if idx in busy or idx in linked or t.items or t.tokens or content.room(t.room).start:
            continue
        if _reach(graph, start, idx) != before - {idx}:
            continue
        _send_back(ctx, plugin, idx)
        return
    safe = [i for i in placed if i not in linked and not content.room(state.tiles[i].room).start
            and _reach(graph, start, i) == before - {i}
            and any(n in before and n != i for n in graph.get(i, []))]
    if not safe:
        plugin.say(ctx, "kept_all")
        return
    idx = min(sorted(safe, reverse=True), key=lambda i: _held(state, i))
    nearby = next(n for n in graph[idx] if n in before and n != idx)
    moved = state.tiles[idx]
    for e in state.explorers:
        if e.tile == idx:
            e.tile, e.side = nearby, None
    for m in state.monsters:
        if m.tile == idx:
            m.tile = nearby
    state.tiles[nearby].items.extend(moved.items)
    moved.items.clear()
    moved.tokens.clear()
    plugin.say(ctx, "reorganized", room=content.room(moved.room).name,
               to=content.room(state.tiles[nearby].room).name)
    _send_back(ctx, plugin, idx)


def _held(state: BetrayalState, idx: int) -> int:
    """How much a room holds that would have to move (explorers, monsters, cards, tokens)."""
    t = state.tiles[idx]
    return (sum(e.tile == idx for e in state.explorers) + sum(m.tile == idx
                                                             for m in state.monsters)
            + len(t.items) + len(t.tokens))


def _send_back(ctx: Ctx, plugin: TheRitualOfChud, idx: int) -> None:
    state = ctx.state
    room = state.tiles[idx].room
    house.take_out(state, [idx])
    state.stack.insert(state.rng.randint(0, len(state.stack)), room)
    plugin.say(ctx, "shuffled_back", room=content.room(room).name, data={"room": room})


def _both_ways(graph: dict[int, list[int]]) -> dict[int, list[int]]:
    """The house's ways walked either way (a room cut off is one no way leads to or
    from, as the engine's `links.reachable` counts it; the Coal Chute is one-way)."""
    both: dict[int, set[int]] = {tile: set(nexts) for tile, nexts in graph.items()}
    for tile, nexts in graph.items():
        for nxt in nexts:
            both.setdefault(nxt, set()).add(tile)
    return {tile: sorted(nexts) for tile, nexts in both.items()}


def _reach(graph: dict[int, list[int]], start: int, without: int | None) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        tile = todo.pop()
        for nxt in graph.get(tile, []):
            if nxt != without and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


# ---------------------------------------------------------------- steps

def _plugin() -> TheRitualOfChud:
    return TheRitualOfChud()


@step("_chud_event_room")
def _chud_event_room(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000: an event room: "Take the Monster Card." and "If you need to make any
    rolls on the Event card, ignore the highest die of the roll." The flag is up while
    the room's event cards are resolved (`_chud_event_done` lowers it after them): a
    count, as an event may lead into another event room (The Walls)."""
    _plugin().give_card(ctx, frame.seat)
    flags = ctx.state.explorers[frame.seat].flags
    flags[EVENT_FLAG] = int(flags.get(EVENT_FLAG, 0)) + 1


@step("_chud_event_done")
def _chud_event_done(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The event room's cards are resolved: rolls after them keep every die."""
    flags = ctx.state.explorers[frame.seat].flags
    left = int(flags.get(EVENT_FLAG, 0)) - 1
    if left > 0:
        flags[EVENT_FLAG] = left
    else:
        flags.pop(EVENT_FLAG, None)


@step("_chud_ritual_room")
def _chud_ritual_room(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 000: a ritual room: "Take the Monster Card." "Place the Altar token on your
    tile if it hasn't already been placed." """
    state = ctx.state
    tile = frame.vars.get("symbol_tile")
    if tile is None or state.tiles[int(tile)].room not in ritual_rooms():
        return
    plugin = _plugin()
    plugin.give_card(ctx, frame.seat)
    if altar(state) is None:
        progress(state)["altar"] = int(tile)
        state.tiles[int(tile)].tokens.append({"kind": ALTAR, "card": "", "haunt": KEY})
        plugin.say(ctx, "altar", room=ctx.room_name(int(tile)), data={"tile": int(tile)})


@step("_chud_find")
def _chud_find(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """An item or omen room: an artifact instead of the card, if the hero wants one."""
    state = ctx.state
    owners = findable(state, frame.seat)
    if not owners:
        ctx.push_child(frame, list(arg["steps"]))
        return
    plugin = _plugin()
    labels = [plugin.text("find_label", owner=explorer_name(state, o)) for o in owners]
    pause(ctx, frame, {"_chud_find": {**arg, "owners": owners}}, "chud_find",
          plugin.text("find_prompt"), [*labels, plugin.text("draw_label")])


@resumer("chud_find")
def _chud_find_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    spec = raw["_chud_find"]
    owners = list(spec["owners"])
    if pick >= len(owners):
        ctx.push_child(frame, list(spec["steps"]))
        return
    owner = int(owners[pick])
    _set(ctx.state, owner, HELD, frame.seat)
    _plugin().say(ctx, "found", who=ctx.who(frame.seat), owner=explorer_name(ctx.state, owner),
                  data={"owner": owner, "seat": frame.seat})


@step("_chud_faced")
def _chud_faced(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    plugin = _plugin()
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        ctx.state.turn.flags[FACED] = True
        plugin.say(ctx, "faced", who=ctx.who(frame.seat))
    else:
        plugin.say(ctx, "not_faced", who=ctx.who(frame.seat))


@step("_chud_deposit")
def _chud_deposit(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    plugin = _plugin()
    owner = int(arg["owner"])
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        _set(state, owner, DONE)
        found = artifacts(state)
        plugin.say(ctx, "deposited", owner=explorer_name(state, owner),
                   done=sum(1 for a in found.values() if a["at"] == DONE), total=len(found),
                   data={"owner": owner})
        return
    plugin.say(ctx, "deposit_fails", who=ctx.who(frame.seat))
    progress(state)["card"] = frame.seat
    if state.turn.seat == frame.seat and state.pending is None:
        turn.end_turn(ctx)


@step("_chud_push")
def _chud_push(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """One room of the push, away from where the blow came from; a choice of rooms
    goes to the attacker."""
    state = ctx.state
    found = pennywise(state)
    left = int(arg["left"])
    if found is None or left <= 0:
        return
    away = monsters.distances(state, {int(arg["from"])})
    now = away.get(found.tile, 0)
    options = [n for n in monsters.neighbours(state, found.tile) if away.get(n, 99) > now]
    if not options:
        return
    if len(options) == 1:
        _push_to(ctx, found, options[0])
        frame.steps.insert(0, {"_chud_push": {**arg, "left": left - 1}})
        return
    plugin = _plugin()
    pause(ctx, frame, {"_chud_push": {**arg, "options": options}}, "chud_push",
          plugin.text("push_prompt"), [ctx.room_name(n) for n in options])


@resumer("chud_push")
def _chud_push_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = dict(raw["_chud_push"])
    options = list(spec.pop("options"))
    frame.steps.pop(0)
    found = pennywise(ctx.state)
    if found is not None:
        _push_to(ctx, found, int(options[pick]))
    frame.steps.insert(0, {"_chud_push": {**spec, "left": int(spec["left"]) - 1}})


def _push_to(ctx: Ctx, found: Monster, tile: int) -> None:
    found.tile = tile
    _plugin().say(ctx, "pushed_to", room=ctx.room_name(tile), data={"tile": tile})


@passive(EVENT_FLAG)
class EventRoomDice(RollPassive, TurnPassive):
    """The discoverer of an event room, while its event is resolved: every roll the
    event card makes it roll ignores its highest die, a defence against the card's
    attack too (Creepy Puppet: it is the hero's roll on that card); nothing after the
    card does. A game stored with the flag up from before it was lowered after the card
    keeps it to the turn's end, as it did (`end_turn`)."""

    def drops_highest(self, state: BetrayalState, frame: Frame, roll: dict[str, Any],
                      ref: Any) -> bool:
        return frame.origin == "event" and bool(roll.get("rolled"))

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        ctx.state.explorers[seat].flags.pop(EVENT_FLAG, None)
