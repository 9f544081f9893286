"""Wail of the Banshee (haunt #6): the Spirit Board calls up a banshee.

Seed 003 names only the haunt and its summoning; the rest is designed and described
in data/betrayal/haunts/wail_of_the_banshee.yaml. The banshee has no Might, so seed
003's own rule (a trait a monster lacks cannot be used on it) leaves Sanity as the
only way to fight her; she attacks with Sanity too (`monster_attack_trait`).
progress: "successes" (banishing rolls made).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    MAX_DICE,
    AIHooks,
    BetrayalState,
    Cause,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    Offer,
    Reason,
    TurnHooks,
    change,
    content,
    dice,
    flow,
    monsters,
    register,
    sides,
    step,
    traits,
)

BANSHEE = "banshee"
BOARD = "spirit_board"
FOCI: tuple[str, ...] = (BOARD, "holy_symbol")  # either adds one die to the rite (designed)


@register("wail_of_the_banshee")
class WailOfTheBanshee(HauntPlugin, TurnHooks, CombatHooks, AIHooks):
    def setup(self, ctx: Ctx) -> None:
        """The banshee rises where the Spirit Board is (whoever holds it), else beside
        the traitor who called her."""
        state = ctx.state
        traitor = sides.traitor(state)
        assert traitor is not None
        holder = next((s for s, e in enumerate(state.explorers)
                       if e.alive and BOARD in e.cards), traitor)
        home = state.explorers[holder].tile
        monsters.spawn(ctx, BANSHEE, home, quiet=True)
        self.say(ctx, "summoned", room=ctx.room_name(home))

    def banshee(self, state: BetrayalState) -> Monster | None:
        found = sides.monsters(state, BANSHEE)
        return found[0] if found else None

    # ---- fighting her
    def attack_traits(self, state: BetrayalState, seat: int) -> set[str]:
        return set() if sides.is_traitor(state, seat) else {"sanity"}

    def can_fight_with(self, state: BetrayalState, monster: Monster, trait: str) -> bool:
        """Her books: "She can only be fought with Sanity". Her Speed moves her; it is
        no way to fight her (the Revolver, the Toy Monkey)."""
        return monster.kind != BANSHEE or trait == "sanity"

    def monster_attack_trait(self, state: BetrayalState, monster: Monster) -> str:
        return "sanity" if monster.kind == BANSHEE else "might"

    # ---- the rite
    def focus(self, state: BetrayalState, seat: int) -> str:
        """The card that lends this hero a die for the rite, if any."""
        return next((k for k in FOCI if k in state.explorers[seat].cards), "")

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        banshee = self.banshee(state)
        if sides.is_traitor(state, seat) or banshee is None \
                or banshee.tile != state.explorers[seat].tile:
            return []
        return [self.offer(state, "rite", target=self.value(state, "target"))]

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        target = self.value(state, "target")
        card = self.focus(state, seat)
        extra = self.text("rite_extra", card=content.card(card).name) if card else ""
        self.say(ctx, "rite", who=ctx.who(seat), target=target, extra=extra)
        ctx.push([{"roll": {"trait": "knowledge", "purpose": "haunt", "then": [
            {"_banshee_rite": {"target": target}}]}}], seat, "haunt",
            vars={"extra_dice": 1 if card else 0})

    # ---- the wail
    def end_monsters(self, ctx: Ctx) -> None:
        """After the monsters' turn the banshee wails over her whole floor, unless a
        stun cost her that turn (or she is stunned now). Each hero rolls bare Sanity,
        as in a defence: the wail is the banshee's doing, not a trait roll a card
        could bend, and it asks nobody anything."""
        state = ctx.state
        banshee = self.banshee(state)
        if banshee is None:
            return
        if banshee.skip or banshee.stunned:
            self.say(ctx, "wail_silent")
            return
        floor = state.tiles[banshee.tile].floor
        target = self.value(state, "wail")
        self.say(ctx, "wail", floor=content.betrayal_line(f"floors.{floor}"), target=target)
        for seat in sides.heroes(state):
            if state.tiles[state.explorers[seat].tile].floor != floor:
                continue
            count = max(1, min(MAX_DICE, traits.value(state, seat, "sanity")))
            rolled = dice.roll_betrayal(state.rng, count)
            self.say(ctx, "wail_roll", kind="roll", who=ctx.who(seat),
                     dice=" ".join(map(str, rolled)), total=sum(rolled),
                     data={"seat": seat, "dice": rolled, "total": sum(rolled)})
            if sum(rolled) >= target:
                self.say(ctx, "wail_holds", who=ctx.who(seat))
                continue
            self.say(ctx, "wail_hurts", who=ctx.who(seat))
            change(ctx, seat, "sanity", -1, Cause("engine", self.key))

    # ---- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        if int(state.haunt.progress.get("successes", 0)) >= self.value(state, "banish"):
            return sides.HERO, self.reason("reason_banished")
        dead = [s for s in sides.heroes(state, alive=False) if not state.explorers[s].alive]
        if len(dead) >= self.value(state, "claimed"):
            return sides.EVIL, self.reason("reason_claimed", count=len(dead))
        return None

    # ---- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Heroes go to the banshee for the rite; the traitor hunts (the default)."""
        banshee = self.banshee(state)
        if sides.is_traitor(state, seat) or banshee is None:
            return set()
        if state.at(seat).floor == "basement" and flow.basement_cut_off(state) \
                and state.tiles[banshee.tile].floor != "basement":
            return set()  # no way up (the Coal Chute goes down only): explore for one
        return {banshee.tile}


@step("_banshee_rite")
def _banshee_rite(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    flow.tally(ctx, frame, int(arg["target"]), "banish", "rite_success", "rite_fail")
