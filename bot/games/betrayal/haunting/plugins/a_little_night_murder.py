"""A Little Night Murder (haunt #4): the widow's servants hunt the heirs until dawn.

Seed 003's outline and what we designed are in
data/betrayal/haunts/a_little_night_murder.yaml. A "turn" of the night is a haunt round:
dawn comes when round `dawn` ends, so the clock is the engine's own round counter and
nothing else needs remembering but the moment dawn broke. Dawn breaks as the last
monsters' turn ends; with no monsters' turn to end the round, the engine's
`last_round` (data) brings it all the same.
progress: "dawn" (True once the last round of the night is over: the heroes have won).
"""

from __future__ import annotations

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    CombatHooks,
    Ctx,
    HauntPlugin,
    Monster,
    Reason,
    TurnHooks,
    monsters,
    register,
    sides,
)
from bot.texts import listed

SERVANT = "servant"
# One servant per floor at the start (seed 003), on the floor's landing: the three rooms
# every house has, so the setup never depends on what was explored.
LANDINGS: tuple[str, ...] = ("basement_landing", "foyer", "upper_landing")
GROWS: tuple[str, ...] = ("might", "speed")  # "stronger and faster" (seed 003)
FAR = 99  # a room no threat can reach


@register("a_little_night_murder")
class ALittleNightMurder(HauntPlugin, TurnHooks, CombatHooks, AIHooks):
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        traitor = sides.traitor(state)
        assert traitor is not None
        home = state.explorers[traitor].tile
        places = [t for key in LANDINGS if (t := state.tile_of(key)) is not None]
        count = self.value(state, "servants")
        places = (places + [home] * count)[:count]  # any more stand with the traitor
        for tile in places:
            monsters.spawn(ctx, SERVANT, tile, quiet=True)
        rooms = listed(list(dict.fromkeys(ctx.room_name(t) for t in places)))
        self.say(ctx, "servants_arrive", count=count, rooms=rooms,
                 data={"servants": [m.id for m in sides.monsters(state, SERVANT)]})

    # ---- the night wears on
    def strength(self, state: BetrayalState, trait: str) -> int:
        """A servant's trait this round: its printed value plus what the night added."""
        base = self.data.monsters[SERVANT].traits[trait]
        if trait not in GROWS or state.haunt is None:
            return base
        hours = max(0, state.haunt.round - 1)
        return base + hours // max(1, self.value(state, f"{trait}_every"))

    def monster_trait(self, state: BetrayalState, monster: Monster, trait: str,
                      base: int) -> int:
        if monster.kind != SERVANT or trait not in GROWS:
            return base
        return self.strength(state, trait)

    def start_round(self, ctx: Ctx) -> None:
        """The dawn clock, told to everyone each round (a round is one hour of night)."""
        state = ctx.state
        assert state.haunt is not None
        number, dawn = state.haunt.round, self.value(state, "dawn")
        self.say(ctx, "clock_last" if number == dawn else "clock", round=number, dawn=dawn,
                 left=dawn - number, might=self.strength(state, "might"),
                 speed=self.strength(state, "speed"),
                 data={"round": number, "dawn": dawn, "left": dawn - number})

    def end_monsters(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        if state.haunt.round >= self.value(state, "dawn"):
            self._dawn(ctx)

    def _dawn(self, ctx: Ctx) -> None:
        assert ctx.state.haunt is not None
        if not ctx.state.haunt.progress.get("dawn"):
            ctx.state.haunt.progress["dawn"] = True
            self.say(ctx, "dawn")

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        if not sides.heroes(state):
            return sides.EVIL, self.reason("reason_dead")
        if state.haunt.progress.get("dawn"):
            return sides.HERO, self.reason("reason_dawn")
        return None

    # ---- the AI: heroes keep as far from the servants and the widow as they can
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        if sides.is_traitor(state, seat):
            return set()
        threats = {m.tile for m in sides.monsters(state, SERVANT) if not m.stunned}
        traitor = sides.traitor(state)
        if traitor is not None and state.explorers[traitor].alive:
            threats.add(state.explorers[traitor].tile)
        danger = monsters.distances(state, threats)
        reach = monsters.distances(state, {state.explorers[seat].tile})
        best = max(danger.get(t, FAR) for t in reach)
        return {t for t in reach if danger.get(t, FAR) == best}

