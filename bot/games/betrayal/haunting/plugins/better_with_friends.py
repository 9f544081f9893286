"""Better with Friends (haunt #8): the house floods; the heroes need the canoe and the
Tower, the drowned girl wants them to stay.

Seed 003 gives only the outline (the flood, the canoe, everyone to the Tower); the rest
is designed and written down in data/betrayal/haunts/better_with_friends.yaml.

The water is a `water` token on each flooded room: the basement at once, then `rise`
rooms at the start of each round from round 2, lowest floor first and nearest the
water first, the refuge (the Tower, else the Upper Landing) last; the round the refuge
would flood, the traitor wins. progress: "canoe" (the tile whose flotsam hides it: the
traitor's secret), "carrier" (the seat carrying it, or None), "found", "drowned" (the
water reached the refuge). A canoe lying loose is a `canoe` token.
"""

from __future__ import annotations

from typing import Any

from bot.core.events import Audience, to_player
from bot.core.rng import Rng
from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    BoardHooks,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    Offer,
    Reason,
    TurnHooks,
    content,
    explore,
    flow,
    monsters,
    register,
    sides,
    step,
    together,
)
from bot.texts import listed

KEY = "better_with_friends"
TOWER, LANDING = "tower", "upper_landing"
WATER, FLOTSAM, CANOE = "water", "flotsam", "canoe"
FRIEND = "friend"
STAIRS = flow.STAIRS
FLOOR_ORDER: tuple[str, ...] = ("basement", "ground", "upper")  # the water's way up


def has_token(state: BetrayalState, tile_id: int, kind: str) -> bool:
    return any(t.get("kind") == kind and t.get("haunt") == KEY
               for t in state.tiles[tile_id].tokens)


def add_token(state: BetrayalState, tile_id: int, kind: str) -> None:
    state.tiles[tile_id].tokens.append({"kind": kind, "card": "", "haunt": KEY})


def remove_token(state: BetrayalState, tile_id: int, kind: str) -> None:
    tokens = state.tiles[tile_id].tokens
    for i, t in enumerate(tokens):
        if t.get("kind") == kind and t.get("haunt") == KEY:
            del tokens[i]
            return


def flooded(state: BetrayalState, tile_id: int) -> bool:
    return has_token(state, tile_id, WATER)


def refuge(state: BetrayalState) -> int | None:
    """Where the heroes must gather: the Tower, or the Upper Landing without one."""
    tower = state.tile_of(TOWER)
    return tower if tower is not None else state.tile_of(LANDING)


def canoe_tile(state: BetrayalState) -> int | None:
    """Where the canoe is, once found: with its carrier, or lying in a room."""
    assert state.haunt is not None
    carrier = state.haunt.progress.get("carrier")
    if carrier is not None and state.explorers[int(carrier)].alive:
        return state.explorers[int(carrier)].tile
    return next((i for i in range(len(state.tiles)) if has_token(state, i, CANOE)), None)


def carrier(state: BetrayalState) -> int | None:
    assert state.haunt is not None
    found = state.haunt.progress.get("carrier")
    return None if found is None else int(found)





def next_to_flood(state: BetrayalState) -> int | None:
    """The next room the water takes: on the lowest floor still partly dry, the one
    nearest the water (then the lowest id); never the refuge (None: only it is dry)."""
    shelter = refuge(state)
    dry = [i for i in range(len(state.tiles)) if not flooded(state, i) and i != shelter]
    if not dry:
        return None
    lowest = min(FLOOR_ORDER.index(state.tiles[i].floor) for i in dry)
    dry = [i for i in dry if FLOOR_ORDER.index(state.tiles[i].floor) == lowest]
    wet = {i for i in range(len(state.tiles)) if flooded(state, i)}
    far = len(state.tiles) + 1
    dist = monsters.distances(state, wet) if wet else {}
    return min(dry, key=lambda i: (dist.get(i, far), i))


@register(KEY)
class BetterWithFriends(HauntPlugin, TurnHooks, CombatHooks, BoardHooks, AIHooks):
    # ---------------------------------------------------------------- setup

    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        assert traitor is not None
        basement = [i for i, t in enumerate(state.tiles) if t.floor == "basement"]
        for tile_id in basement:
            add_token(state, tile_id, WATER)
        self.say(ctx, "flood_start", count=len(basement))
        home = state.explorers[traitor].tile
        count = self.value(state, "friends")
        for _ in range(count):
            monsters.spawn(ctx, FRIEND, home, quiet=True)
        self.say(ctx, "friends_arrive", count=count, room=ctx.room_name(home))
        self._place_flotsam(ctx, traitor)
        state.haunt.progress.update({"carrier": None, "found": False, "drowned": False})
        if state.tile_of(TOWER) is None:
            ctx.push([{"_bwf_tower": {}}], traitor, "haunt")
        if flow.no_way_up(state) and STAIRS in explore.unplaced(state):
            ctx.push([{"_bwf_stairs": {}}], traitor, "haunt")

    def _place_flotsam(self, ctx: Ctx, traitor: int) -> None:
        """Flotsam in random dry rooms above the basement where no hero stands; the
        canoe under one of them, told to the traitor alone."""
        state = ctx.state
        assert state.haunt is not None
        heroes_at = {state.explorers[h].tile for h in sides.heroes(state)}
        rooms = [i for i, t in enumerate(state.tiles) if t.floor != "basement"
                 and t.room not in (TOWER, LANDING) and i not in heroes_at]
        if not rooms:  # a tiny house: any room but the refuge
            rooms = [i for i, t in enumerate(state.tiles) if t.room not in (TOWER, LANDING)]
        picked = sorted(state.rng.sample(rooms, min(self.value(state, "flotsam"), len(rooms))))
        for tile_id in picked:
            add_token(state, tile_id, FLOTSAM)
        canoe = state.rng.choice(picked)
        state.haunt.progress["canoe"] = canoe
        self.say(ctx, "flotsam", count=len(picked),
                 rooms=listed([ctx.room_name(t) for t in picked]))
        self.say(ctx, "canoe_secret", audience=self.told(state), room=ctx.room_name(canoe))

    @staticmethod
    def told(state: BetrayalState) -> Audience:
        """Who is told where the canoe lies: the traitor alone (until it is found)."""
        traitor = sides.traitor(state)
        return to_player(traitor if traitor is not None else -1)

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        """The traitor's `/secret` keeps what she was told once: which flotsam hides the
        canoe (until it is found, when all have seen it)."""
        assert state.haunt is not None
        hidden = state.haunt.progress.get("canoe")
        if hidden is None or state.haunt.progress.get("found") \
                or not self.told(state).reaches(seat, sides.teams(state)):
            return []
        return [self.text("canoe_secret", room=content.room(state.tiles[int(hidden)].room).name)]

    def hide(self, view: BetrayalState, seat: int | None, rng: Rng) -> None:
        """Where the canoe lies, for a seat not told: under any flotsam still unsearched."""
        assert view.haunt is not None
        progress = view.haunt.progress
        if progress.get("canoe") is None or progress.get("found") \
                or self.told(view).reaches(seat, sides.teams(view)):
            return
        flotsam = [i for i in range(len(view.tiles)) if has_token(view, i, FLOTSAM)]
        progress["canoe"] = rng.choice(flotsam) if flotsam else None

    # ---------------------------------------------------------------- the water

    def start_round(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        if state.haunt.round < 2:
            return
        self._rise(ctx)
        if state.haunt.progress.get("drowned"):
            return
        target = self.value(state, "swim")
        # Pushed last-first so the heroes roll in turn order.
        for hero in reversed(sides.heroes(state)):
            if flooded(state, state.explorers[hero].tile):
                ctx.push([{"_bwf_swim": {"target": target}}], hero, "haunt")

    def _rise(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        taken: list[int] = []
        floors_before = {state.tiles[i].floor for i in range(len(state.tiles))
                         if flooded(state, i)}
        for _ in range(self.value(state, "rise")):
            tile_id = next_to_flood(state)
            if tile_id is None:
                shelter = refuge(state)
                if shelter is not None:
                    add_token(state, shelter, WATER)
                    taken.append(shelter)
                state.haunt.progress["drowned"] = True
                break
            add_token(state, tile_id, WATER)
            taken.append(tile_id)
        if taken:
            self.say(ctx, "rises", rooms=listed([ctx.room_name(t) for t in taken]))
        for floor in dict.fromkeys(state.tiles[t].floor for t in taken):
            if floor not in floors_before:
                self.say(ctx, "rises_floor", floor=content.betrayal_line(f"floors.{floor}"))

    # ---------------------------------------------------------------- actions

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        assert state.haunt is not None
        here = state.explorers[seat].tile
        if sides.is_traitor(state, seat):
            # Once a turn, whichever hero (her book): one id a hero would allow one each.
            if not flooded(state, here) or any(r.startswith("hold-") for r in state.turn.rolls):
                return []
            # "A hero in your room": beside her, as for a fight (not across a split
            # room's barrier).
            return [self.offer(state, f"hold-{h}", other=content.explorer(
                        state.explorers[h].key).name, target=self.value(state, "hold"))
                    for h in sides.heroes(state) if together(state, seat, h)]
        found: list[Offer] = []
        if has_token(state, here, FLOTSAM):
            found.append(self.offer(state, "search", target=self.value(state, "search")))
        if carrier(state) is None and has_token(state, here, CANOE):
            found.append(self.offer(state, "take"))
        if carrier(state) == seat:
            # Handed over as a card is traded: to a hero beside the carrier.
            found += [self.offer(state, f"give-{h}", other=content.explorer(
                          state.explorers[h].key).name)
                      for h in sides.heroes(state) if together(state, seat, h)]
        return found

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        assert state.haunt is not None
        here = state.explorers[seat].tile
        kind, _, other = offer.id.partition("-")
        if kind == "search":
            target = self.value(state, "search")
            self.say(ctx, "search", who=ctx.who(seat), room=ctx.room_name(here), target=target)
            ctx.push([{"roll": {"trait": "knowledge", "purpose": "haunt", "then": [
                {"_bwf_search": {"tile": here, "target": target}}]}}], seat, "haunt")
        elif kind == "take":
            remove_token(state, here, CANOE)
            state.haunt.progress["carrier"] = seat
            self.say(ctx, "take", who=ctx.who(seat))
        elif kind == "give":
            state.haunt.progress["carrier"] = int(other)
            self.say(ctx, "give", who=ctx.who(seat), other=ctx.who(int(other)))
        elif kind == "hold":
            target = self.value(state, "hold")
            self.say(ctx, "hold", who=ctx.who(seat), other=ctx.who(int(other)), target=target)
            ctx.push([{"roll": {"trait": "might", "purpose": "haunt", "then": [
                {"_bwf_hold": {"target": target}}]}}], int(other), "haunt")

    def attack_traits(self, state: BetrayalState, seat: int) -> set[str]:
        return {"sanity"} if sides.is_traitor(state, seat) else set()

    def attacks_allies(self, state: BetrayalState, seat: int) -> bool:
        """Seed 003 line 979: because *everyone* must reach the Tower, heroes may kill
        their own companions (the goal counts the living only)."""
        return not sides.is_traitor(state, seat)

    # ---------------------------------------------------------------- death and winning

    def on_death(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        assert state.haunt is not None
        if sides.is_traitor(state, seat):
            return
        tile_id = state.explorers[seat].tile
        if carrier(state) == seat:
            state.haunt.progress["carrier"] = None
            add_token(state, tile_id, CANOE)
            self.say(ctx, "dropped", who=ctx.who(seat), room=ctx.room_name(tile_id))
        monsters.spawn(ctx, FRIEND, tile_id, quiet=True)
        self.say(ctx, "friend_rises", who=ctx.who(seat), room=ctx.room_name(tile_id))

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        shelter = refuge(state)
        # The refuge, named in the language spoken whenever the reason is read.
        names = {"room": ("room", state.tiles[shelter].room if shelter is not None else "")}
        if state.haunt.progress.get("drowned"):
            return sides.EVIL, self.reason("reason_flood", names=names)
        living = sides.heroes(state)
        if shelter is not None and living and canoe_tile(state) == shelter \
                and all(state.explorers[h].tile == shelter for h in living):
            return sides.HERO, self.reason("reason_escape", names=names)
        return None

    # ---------------------------------------------------------------- the AI

    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Heroes: the flotsam, then the loose canoe, then the refuge. The traitor: the
        canoe she knows of, then whoever carries it."""
        assert state.haunt is not None
        where = canoe_tile(state)
        if sides.is_traitor(state, seat):
            if where is None:
                hidden = state.haunt.progress.get("canoe")
                return {int(hidden)} if hidden is not None else set()
            return {where}
        shelter = refuge(state)
        if carrier(state) is not None and shelter is not None:
            return {shelter}
        if where is not None:
            return {where}
        return {i for i in range(len(state.tiles)) if has_token(state, i, FLOTSAM)}

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        """The Drowned Friends go for whoever carries the canoe (else the nearest hero)."""
        who = carrier(state)
        return {state.explorers[who].tile} if who is not None else set()

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Search, take up the canoe, hold the carrier under first; never hand it on."""
        useful = [o for o in offers if not o.id.startswith("give")]
        who = carrier(state)
        for offer in useful:
            if who is not None and offer.id == f"hold-{who}":
                return offer
        return useful[0] if useful else None


# ---------------------------------------------------------------- steps

def _plugin() -> BetterWithFriends:
    return BetterWithFriends()


@step("_bwf_swim")
def _bwf_swim(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """A hero in a flooded room at the start of the round: the Might roll."""
    if not ctx.state.explorers[frame.seat].alive or ctx.state.over:
        return
    target = int(arg["target"])
    _plugin().say(ctx, "swim", who=ctx.who(frame.seat), target=target)
    ctx.push_child(frame, [{"roll": {"trait": "might", "purpose": "haunt", "then": [
        {"_bwf_swim_result": {"target": target}}]}}])


@step("_bwf_swim_result")
def _bwf_swim_result(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        _plugin().say(ctx, "swim_ok", who=ctx.who(frame.seat))
        return
    _plugin().say(ctx, "swim_fail", who=ctx.who(frame.seat))
    ctx.push_child(frame, [{"damage": {"kind": "physical", "amount": 1}}])


@step("_bwf_search")
def _bwf_search(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    assert state.haunt is not None
    plugin, seat, tile_id = _plugin(), frame.seat, int(arg["tile"])
    if int(frame.vars.get("roll", 0)) < int(arg["target"]) or not has_token(
            state, tile_id, FLOTSAM):
        plugin.say(ctx, "search_fail", who=ctx.who(seat))
        return
    remove_token(state, tile_id, FLOTSAM)
    if state.haunt.progress.get("canoe") == tile_id and not state.haunt.progress.get("found"):
        state.haunt.progress.update({"found": True, "carrier": seat})
        plugin.say(ctx, "search_canoe", who=ctx.who(seat), room=ctx.room_name(tile_id))
        return
    plugin.say(ctx, "search_empty", who=ctx.who(seat), room=ctx.room_name(tile_id))


@step("_bwf_hold")
def _bwf_hold(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The hero held under made its Might roll (the frame is the hero's)."""
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        _plugin().say(ctx, "hold_ok", who=ctx.who(frame.seat))
        return
    _plugin().say(ctx, "hold_fail", who=ctx.who(frame.seat))
    ctx.push_child(frame, [{"damage": {"kind": "physical", "amount": 2}}])


@step("_bwf_tower")
def _bwf_tower(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Setup: the Tower searched out of the room stack and placed on the upper floor."""
    frame.steps.insert(0, {"_bwf_tower_said": {}})
    explore.explore_like(frame, "upper", move=False, room=TOWER)


@step("_bwf_stairs")
def _bwf_stairs(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Setup: no way up out of the basement, so the Stairs from Basement are placed."""
    frame.steps.insert(0, {"_bwf_stairs_said": {}})
    explore.explore_like(frame, "basement", move=False, room=STAIRS)


@step("_bwf_stairs_said")
def _bwf_stairs_said(ctx: Ctx, frame: Frame, arg: Any) -> None:
    tile_id = ctx.state.tile_of(STAIRS)
    if tile_id is not None:
        add_token(ctx.state, tile_id, WATER)
        _plugin().say(ctx, "stairs_placed")


@step("_bwf_tower_said")
def _bwf_tower_said(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """After the placing (or its failure): say where the heroes must gather."""
    if ctx.state.tile_of(TOWER) is not None:
        _plugin().say(ctx, "tower_placed")
    else:
        _plugin().say(ctx, "no_tower")
