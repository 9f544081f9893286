"""Pay the Piper (haunt #3): rats, and a ritual in the Pentagram Chamber.

Seed 003's outline and what we designed are in data/betrayal/haunts/pay_the_piper.yaml.
progress: "successes" (ritual rolls made), "entered" (the traitor has set foot in the
Pentagram Chamber: from then on killing the traitor does not win the heroes the game).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    Ctx,
    Frame,
    HauntPlugin,
    MovementHooks,
    Offer,
    Reason,
    TurnHooks,
    explore,
    flow,
    monsters,
    register,
    sides,
    step,
)

CHAMBER = "pentagram_chamber"


@register("pay_the_piper")
class PayThePiper(HauntPlugin, TurnHooks, MovementHooks, AIHooks):
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        traitor = sides.traitor(state)
        assert traitor is not None
        home = state.explorers[traitor].tile
        rooms = [home, *monsters.neighbours(state, home)]
        count = self.value(state, "rats")
        for i in range(count):
            monsters.spawn(ctx, "rat", rooms[i % len(rooms)], quiet=True)
        self.say(ctx, "rats_arrive", count=count, room=ctx.room_name(home))
        self._note_entered(ctx)
        if state.tile_of(CHAMBER) is None and CHAMBER in explore.unplaced(state):
            ctx.push([{"_piper_chamber": {}}], traitor, "haunt")

    def start_round(self, ctx: Ctx) -> None:
        """The swarm: more rats every round where the living traitor stands."""
        state = ctx.state
        traitor = sides.traitor(state)
        if state.haunt is None or state.haunt.round <= 1 or traitor is None \
                or not state.explorers[traitor].alive:
            return
        count = self.value(state, "swarm")
        home = state.explorers[traitor].tile
        for _ in range(count):
            monsters.spawn(ctx, "rat", home, quiet=True)
        self.say(ctx, "swarm", room=ctx.room_name(home), count=count)

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if not sides.is_traitor(state, seat) or state.at(seat).room != CHAMBER:
            return []
        return [self.offer(state, "ritual", target=self.value(state, "target"))]

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        target = self.value(ctx.state, "target")
        self.say(ctx, "ritual", who=ctx.who(seat), target=target)
        ctx.push([{"roll": {"trait": "sanity", "purpose": "haunt", "then": [
            {"_piper_ritual": {"target": target}}]}}], seat, "haunt")

    def entered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """Seed 003: the heroes win by killing the traitor *before* she enters the
        Pentagram Chamber. Noted the moment she sets foot in it, however she came:
        she may chant and walk out again within the same turn."""
        self._note_entered(ctx)

    def end_turn(self, ctx: Ctx, seat: int) -> None:
        # Also at a turn's end: a game stored mid-turn before `entered` was noted on
        # entering has the traitor standing in the chamber unnoted.
        self._note_entered(ctx)

    def _note_entered(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        if traitor is None or state.haunt.progress.get("entered"):
            return
        if state.explorers[traitor].alive and state.at(traitor).room == CHAMBER:
            state.haunt.progress["entered"] = True
            self.say(ctx, "entered", who=ctx.who(traitor))

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        progress = state.haunt.progress
        if int(progress.get("successes", 0)) >= self.value(state, "successes"):
            return sides.EVIL, self.reason("reason_ritual")
        if not sides.monsters(state, "rat"):
            return sides.HERO, self.reason("reason_rats")
        traitor = sides.traitor(state)
        if traitor is not None and not state.explorers[traitor].alive \
                and not progress.get("entered"):
            return sides.HERO, self.reason("reason_traitor")
        return None

    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        if sides.is_traitor(state, seat):
            tile = state.tile_of(CHAMBER)
            return {tile} if tile is not None else set()
        return {m.tile for m in sides.monsters(state, "rat")}


@step("_piper_ritual")
def _piper_ritual(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    flow.tally(ctx, frame, int(arg["target"]), "successes", "ritual_success", "ritual_fail")


@step("_piper_chamber")
def _piper_chamber(ctx: Ctx, frame: Frame, arg: Any) -> None:
    frame.steps.insert(0, {"_piper_chamber_said": {}})
    explore.explore_like(frame, "basement", move=False, room=CHAMBER)


@step("_piper_chamber_said")
def _piper_chamber_said(ctx: Ctx, frame: Frame, arg: Any) -> None:
    if ctx.state.tile_of(CHAMBER) is not None:
        PayThePiper().say(ctx, "chamber_placed")
