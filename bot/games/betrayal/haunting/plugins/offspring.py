"""Offspring (haunt #5): an evil plant's spores fill the house; rare plants can kill it.

Seed 003's outline and what we designed are in data/betrayal/haunts/offspring.yaml.
progress: "plant" (the evil plant's tile), "carriers" (seats of living heroes carrying a
rare plant), "successes" (Knowledge roll successes made at the plant). On the tiles:
a "plant" token, "spores" tokens (one a room, never removed), "rare_plant" tokens (a
dead carrier's plant, waiting to be picked up) and "withered" tokens (the successes).

Spores hurt a hero who walks into them or ends a turn in them. The engine tells a
haunt nothing of rooms entered, so each hero carries the flag `offspring_spores`, which
attaches the `Spores` passive below to that explorer (cards/__init__.py: a flag named
like a passive): its `entered` and `end_turn` hooks run inside the hero's own turn, so
the damage (and the hero's choice of trait) happens where it should.
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    Ctx,
    Frame,
    HauntPlugin,
    Offer,
    Reason,
    TurnHooks,
    TurnPassive,
    explore,
    flow,
    monsters,
    passive,
    register,
    sides,
    step,
)
from bot.texts import listed

KEY = "offspring"
PLANT_ROOMS: tuple[str, ...] = ("gardens", "graveyard", "conservatory")  # placing order
SPORES_FLAG = "offspring_spores"
HURT = "offspring_hurt"  # turn flag: seats the spores have hurt on entering, this turn
PLANT, SPORES, RARE, WITHERED = "plant", "spores", "rare_plant", "withered"


def token(kind: str) -> dict[str, str]:
    return {"kind": kind, "card": "", "haunt": KEY}


def has_token(state: BetrayalState, tile_id: int, kind: str) -> bool:
    return any(t.get("kind") == kind and t.get("haunt") == KEY
               for t in state.tiles[tile_id].tokens)


def tiles_with(state: BetrayalState, kind: str) -> list[int]:
    return [i for i in range(len(state.tiles)) if has_token(state, i, kind)]


def carriers(state: BetrayalState) -> list[int]:
    assert state.haunt is not None
    return [int(s) for s in state.haunt.progress.get("carriers", [])]


def plant_tile(state: BetrayalState) -> int:
    assert state.haunt is not None
    return int(state.haunt.progress["plant"])


@register(KEY)
class Offspring(HauntPlugin, TurnHooks, AIHooks):
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        assert traitor is not None
        home = state.explorers[traitor].tile
        state.haunt.progress.update(plant=home, carriers=[], successes=0)
        state.tiles[home].tokens += [token(PLANT), token(SPORES)]
        self.say(ctx, "plant_grows", room=ctx.room_name(home), data={"tile": home})
        heroes = sides.heroes(state)
        for seat in heroes:
            state.explorers[seat].flags[SPORES_FLAG] = True
        if heroes and not any(state.tile_of(r) is not None for r in PLANT_ROOMS):
            missing = [r for r in PLANT_ROOMS if r in explore.unplaced(state)]
            if missing:
                ctx.push([{"_offspring_garden": {"rooms": missing}}], heroes[0], "haunt")
        if flow.basement_cut_off(state) and flow.STAIRS in explore.unplaced(state):
            # Seed 003 places the Stairs from Basement when monsters could not leave the
            # basement; the spores (and the heroes' errand) need the same way through.
            ctx.push([{"_offspring_stairs": {}}], traitor, "haunt")

    # ---- the spores
    def start_round(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        if state.haunt.round < 2:
            return
        spored = set(tiles_with(state, SPORES))
        ways = monsters.graph(state)  # the house looked up once, not once a spored room
        new = sorted({n for t in spored for n in ways[t]} - spored)
        if not new:  # nowhere left to go: the spores fill the house
            state.haunt.progress["full"] = True
            self.say(ctx, "spores_full", data={"tiles": len(spored)})
            flow.settle(ctx)
            return
        for tile in new:
            state.tiles[tile].tokens.append(token(SPORES))
        self.say(ctx, "spores_spread", count=len(new),
                 rooms=listed([ctx.room_name(t) for t in new]), data={"tiles": new})

    def hurt(self, ctx: Ctx, seat: int, amount: int) -> None:
        if amount <= 0:
            return
        self.say(ctx, "spores_hurt", who=ctx.who(seat),
                 room=ctx.room_name(ctx.state.explorers[seat].tile), data={"seat": seat})
        ctx.push([{"damage": {"kind": "physical", "amount": amount}}], seat, "", "engine")

    # ---- the heroes' actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if sides.is_traitor(state, seat):
            return []
        here = state.explorers[seat].tile
        found: list[Offer] = []
        if seat in carriers(state):
            if here == plant_tile(state):
                found.append(self.offer(state, "wither", target=self.value(state, "kill")))
            return found
        if has_token(state, here, RARE):
            found.append(self.offer(state, "take"))
        if state.tiles[here].room in PLANT_ROOMS:
            found.append(self.offer(state, "search", target=self.value(state, "find")))
        return found

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        assert state.haunt is not None
        here = state.explorers[seat].tile
        if offer.id == "take":
            state.tiles[here].tokens.remove(token(RARE))
            state.haunt.progress["carriers"] = [*carriers(state), seat]
            self.say(ctx, "taken", who=ctx.who(seat), data={"seat": seat})
            return
        if offer.id == "search":
            target = self.value(state, "find")
            self.say(ctx, "search", who=ctx.who(seat), room=ctx.room_name(here), target=target)
            then = "_offspring_search"
        else:
            target = self.value(state, "kill")
            self.say(ctx, "wither", who=ctx.who(seat), target=target)
            then = "_offspring_wither"
        ctx.push([{"roll": {"trait": "knowledge", "purpose": "haunt", "then": [
            {then: {"target": target}}]}}], seat, "haunt")

    def on_death(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        assert state.haunt is not None
        if seat not in carriers(state):
            return
        state.haunt.progress["carriers"] = [s for s in carriers(state) if s != seat]
        tile = state.explorers[seat].tile
        state.tiles[tile].tokens.append(token(RARE))
        self.say(ctx, "dropped", who=ctx.who(seat), room=ctx.room_name(tile),
                 data={"seat": seat, "tile": tile})

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        if int(state.haunt.progress.get("successes", 0)) >= self.value(state, "successes"):
            return sides.HERO, self.reason("reason_plant")
        if not sides.heroes(state):
            return sides.EVIL, self.reason("reason_dead")
        if state.haunt.progress.get("full"):
            return sides.EVIL, self.reason("reason_full")
        return None

    # ---- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        if sides.is_traitor(state, seat):  # hunt whoever carries a rare plant
            return {state.explorers[s].tile for s in carriers(state)}
        if seat in carriers(state):
            return {plant_tile(state)}
        rooms = {t for r in PLANT_ROOMS if (t := state.tile_of(r)) is not None}
        return rooms | set(tiles_with(state, RARE))


@step("_offspring_search")
def _offspring_search(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state, seat = ctx.state, frame.seat
    assert state.haunt is not None
    plugin = Offspring()
    if int(frame.vars.get("roll", 0)) < int(arg["target"]) or not state.explorers[seat].alive:
        plugin.say(ctx, "not_found", who=ctx.who(seat))
        return
    state.haunt.progress["carriers"] = [*carriers(state), seat]
    plugin.say(ctx, "found", who=ctx.who(seat), data={"seat": seat})


@step("_offspring_wither")
def _offspring_wither(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    if flow.tally(ctx, frame, int(arg["target"]), "successes", "withered", "not_withered"):
        ctx.state.tiles[plant_tile(ctx.state)].tokens.append(token(WITHERED))


@step("_offspring_garden")
def _offspring_garden(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """None of the three rooms is in the house: the first that can be placed on the
    ground floor is searched out of the stack and placed as if explored."""
    rooms = [str(r) for r in arg["rooms"]]
    if not rooms:
        return
    room, rest = rooms[0], rooms[1:]
    frame.steps.insert(0, {"_offspring_garden_said": {"room": room}})
    explore.explore_like(frame, "ground", move=False, room=room,
                         fallback=[{"_offspring_garden": {"rooms": rest}}])


@step("_offspring_garden_said")
def _offspring_garden_said(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    tile = ctx.state.tile_of(str(arg["room"]))
    if tile is not None:
        Offspring().say(ctx, "garden_placed", room=ctx.room_name(tile), data={"tile": tile})


@step("_offspring_stairs")
def _offspring_stairs(ctx: Ctx, frame: Frame, arg: Any) -> None:
    Offspring().say(ctx, "stairs_placed")
    explore.explore_like(frame, "basement", move=False, room=flow.STAIRS)


def _running(state: BetrayalState) -> bool:
    return state.haunt is not None and state.haunt.key == KEY and not state.over


@passive(SPORES_FLAG)
class Spores(TurnPassive):
    """A hero's lungs: hurt on walking into spores (once a turn) and on ending a turn
    among them. Attached by the flag the setup gives every hero."""

    def entered(self, ctx: Ctx, seat: int, tile: int, ref: Any) -> None:
        state = ctx.state
        if not _running(state) or sides.is_traitor(state, seat) \
                or not has_token(state, tile, SPORES):
            return
        hurt = state.turn.flags.setdefault(HURT, [])
        if seat in hurt:
            return
        hurt.append(seat)
        plugin = Offspring()
        plugin.hurt(ctx, seat, plugin.value(state, "enter_damage"))

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        state = ctx.state
        if not _running(state) or sides.is_traitor(state, seat) \
                or not has_token(state, state.explorers[seat].tile, SPORES):
            return
        plugin = Offspring()
        plugin.hurt(ctx, seat, plugin.value(state, "end_damage"))
