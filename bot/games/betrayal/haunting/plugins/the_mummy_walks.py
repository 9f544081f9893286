"""The Mummy Walks (haunt #1): a Mummy rises in the Catacombs and wants the Girl for its
bride; the heroes must burn it.

Seed 003 gives only the name and the chart entry; the whole design is ours and is in
data/betrayal/haunts/the_mummy_walks.yaml. While the Mummy carries the Girl her card lies
on the omen table (so every card stays somewhere; monsters carry nothing in seed 003, so
no hand can hold her). progress: "tomb" (the tile the Mummy rose in), "carried" (it
holds the Girl), "nights" (monsters' turns ended in the tomb with her), "torches"
(seats carrying a lit torch), "burned".
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    Offer,
    Reason,
    TurnHooks,
    combat,
    decks,
    explore,
    flow,
    monsters,
    register,
    sides,
    step,
)

KEY = "the_mummy_walks"
GIRL = "girl"
CANDLE = "candle"
TOMB = "catacombs"
FALLBACK_TOMB = "basement_landing"
FURNACE = "furnace_room"
FIRE_ROOMS = (FURNACE, "chapel")
STAIRS = flow.STAIRS




def mummy(state: BetrayalState) -> Monster | None:
    found = sides.monsters(state, "mummy")
    return found[0] if found else None


def girl_holder(state: BetrayalState) -> int | None:
    return next((s for s, e in enumerate(state.explorers) if e.alive and GIRL in e.cards),
                None)


def girl_pile(state: BetrayalState) -> int | None:
    return next((i for i, t in enumerate(state.tiles) if GIRL in t.items), None)


def awake(found: Monster) -> bool:
    """Neither stunned now nor only just recovered (a stunned monster loses its turn)."""
    return not found.stunned and not found.skip


@register(KEY)
class TheMummyWalks(HauntPlugin, TurnHooks, CombatHooks, AIHooks):
    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        owner = traitor if traitor is not None else state.haunt.revealer  # places rooms
        progress = state.haunt.progress
        progress.update({"carried": False, "nights": 0, "torches": [], "burned": False})
        self._girl_flees(ctx)
        steps: list[dict[str, Any]] = []
        if state.tile_of(TOMB) is None and TOMB in explore.unplaced(state):
            steps.append({"_mummy_place": {"room": TOMB, "text": "tomb_placed"}})
        steps.append({"_mummy_rises": {}})
        if not any(state.tile_of(r) is not None for r in FIRE_ROOMS) \
                and FURNACE in explore.unplaced(state):
            steps.append({"_mummy_place": {"room": FURNACE, "text": "furnace_placed"}})
        steps.append({"_mummy_place": {"room": STAIRS, "text": "stairs_placed",
                                       "only_if_cut_off": True}})
        ctx.push(steps, owner, KEY)

    def _girl_flees(self, ctx: Ctx) -> None:
        """Unless a hero has her, the Girl runs to the hero on the traitor's left (taken
        from the traitor's hand, a room's pile, the omen deck or its discards)."""
        state = ctx.state
        heroes = sides.heroes(state)
        holder = girl_holder(state)
        if not heroes or (holder is not None and not sides.is_traitor(state, holder)):
            return
        if holder is not None:
            decks.take_card(ctx, holder, GIRL, to="none")
        else:
            piles = [state.decks["omen"], state.discards["omen"], state.omen_table,
                     *(t.items for t in state.tiles)]
            pile = next((p for p in piles if GIRL in p), None)
            if pile is None:
                return
            pile.remove(GIRL)
        decks.give_card(ctx, heroes[0], GIRL)
        self.say(ctx, "girl_flees", who=ctx.who(heroes[0]))

    # ---------------------------------------------------------------- the monsters' turn
    def end_monsters(self, ctx: Ctx) -> None:
        """The wedding night, else the Mummy takes the Girl if she is in its room."""
        state = ctx.state
        assert state.haunt is not None
        progress = state.haunt.progress
        found = mummy(state)
        if found is None or not awake(found):
            return
        if progress.get("carried"):
            if found.tile == progress.get("tomb"):
                progress["nights"] = int(progress.get("nights", 0)) + 1
                self.say(ctx, "night", count=progress["nights"],
                         needed=self.value(state, "nights"))
            return
        holder = girl_holder(state)
        if holder is not None and state.explorers[holder].tile == found.tile:
            decks.take_card(ctx, holder, GIRL, to="none")
        elif GIRL in state.tiles[found.tile].items:
            state.tiles[found.tile].items.remove(GIRL)
        else:
            return
        state.omen_table.append(GIRL)
        progress["carried"] = True
        self.say(ctx, "seized", room=ctx.room_name(found.tile))

    def on_stunned(self, ctx: Ctx, monster: Monster, by: str) -> None:
        """Stunned by anything (a fight, the Dynamite, the Druidic Charm, the Toy
        Monkey), the Mummy lets the Girl go and the nights start over: she runs to the
        hero who stunned it; when no hero did (the traitor's Dynamite), to the hero on
        the traitor's left, as when the haunt began."""
        state = ctx.state
        assert state.haunt is not None
        progress = state.haunt.progress
        heroes = sides.heroes(state)
        if monster.kind != "mummy" or not progress.get("carried") \
                or GIRL not in state.omen_table or not heroes:
            return
        seat = int(by) if by.isdigit() and int(by) in heroes else heroes[0]
        state.omen_table.remove(GIRL)
        progress["carried"] = False
        progress["nights"] = 0
        decks.give_card(ctx, seat, GIRL)
        self.say(ctx, "freed", who=ctx.who(seat))

    # ---------------------------------------------------------------- fire
    def monster_trait(self, state: BetrayalState, monster: Monster, trait: str,
                      base: int) -> int:
        """The Mummy's Might by table size (`values.might`, designed: the heroes' side
        grows with the table and the burning roll alone moved too far)."""
        if monster.kind == "mummy" and trait == "might" and "might" in self.data.values:
            return self.value(state, "might")
        return base

    def has_fire(self, state: BetrayalState, seat: int) -> bool:
        assert state.haunt is not None
        return CANDLE in state.explorers[seat].cards \
            or seat in state.haunt.progress.get("torches", [])

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if sides.is_traitor(state, seat):
            return []
        found = mummy(state)
        here = state.explorers[seat].tile
        if not self.has_fire(state, seat):
            return [self.offer(state, "torch")] if state.tiles[here].room in FIRE_ROOMS \
                else []
        if found is not None and found.tile == here:
            return [self.offer(state, "burn", target=self.value(state, "burn"))]
        return []

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        assert state.haunt is not None
        if offer.id == "torch":
            state.haunt.progress.setdefault("torches", []).append(seat)
            self.say(ctx, "torch", who=ctx.who(seat), room=ctx.room_name(
                state.explorers[seat].tile))
            return
        target = self.value(state, "burn")
        self.say(ctx, "burn", who=ctx.who(seat), target=target)
        ctx.push([{"roll": {"trait": "speed", "purpose": "haunt", "then": [
            {"_mummy_burn": {"target": target}}]}}], seat, KEY)

    # ---------------------------------------------------------------- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        progress = state.haunt.progress
        if progress.get("burned"):
            return sides.HERO, self.reason("reason_burned")
        if int(progress.get("nights", 0)) >= self.value(state, "nights"):
            return sides.EVIL, self.reason("reason_wed")
        return None

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Heroes: fire first, then the Mummy. The traitor goes after fire-bearers."""
        found = mummy(state)
        if sides.is_traitor(state, seat):
            return {state.explorers[h].tile for h in sides.heroes(state)
                    if self.has_fire(state, h)}
        if self.has_fire(state, seat):
            return {found.tile} if found is not None else set()
        return {t for t in (state.tile_of(r) for r in FIRE_ROOMS) if t is not None}

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        assert state.haunt is not None
        if state.haunt.progress.get("carried"):
            return {int(state.haunt.progress["tomb"])}
        holder = girl_holder(state)
        if holder is not None:
            return {state.explorers[holder].tile}
        pile = girl_pile(state)
        return {pile} if pile is not None else set()


@step("_mummy_place")
def _mummy_place(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """A room the haunt needs is searched out of the room stack and set in the
    basement (the Stairs from Basement only when nothing leads up)."""
    state = ctx.state
    room = str(arg["room"])
    if state.tile_of(room) is not None or room not in explore.unplaced(state):
        return
    if arg.get("only_if_cut_off") and not flow.no_way_up(state):
        return
    frame.steps.insert(0, {"_mummy_placed": {"room": room, "text": arg["text"]}})
    explore.explore_like(frame, "basement", move=False, room=room)


@step("_mummy_placed")
def _mummy_placed(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    if ctx.state.tile_of(str(arg["room"])) is not None:
        TheMummyWalks().say(ctx, str(arg["text"]))


@step("_mummy_rises")
def _mummy_rises(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The Mummy rises in the Catacombs (else the Basement Landing, else the traitor's
    room): that is its tomb."""
    state = ctx.state
    assert state.haunt is not None
    tomb = state.tile_of(TOMB)
    if tomb is None:
        tomb = state.tile_of(FALLBACK_TOMB)
    if tomb is None:
        tomb = state.explorers[frame.seat].tile
    state.haunt.progress["tomb"] = tomb
    monsters.spawn(ctx, "mummy", tomb, quiet=True)
    TheMummyWalks().say(ctx, "rises", room=ctx.room_name(tomb))


@step("_mummy_burn")
def _mummy_burn(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    plugin = TheMummyWalks()
    state = ctx.state
    assert state.haunt is not None
    progress = state.haunt.progress
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        progress["burned"] = True
        plugin.say(ctx, "burned")
        return
    plugin.say(ctx, "burn_fails")
    torches = progress.setdefault("torches", [])
    if frame.seat in torches:
        torches.remove(frame.seat)
        plugin.say(ctx, "torch_out", who=ctx.who(frame.seat))
    found = mummy(state)
    if found is not None and not found.stunned and state.explorers[frame.seat].alive:
        plugin.say(ctx, "lashes", who=ctx.who(frame.seat))
        combat.monster_attack(ctx, found, frame.seat)
