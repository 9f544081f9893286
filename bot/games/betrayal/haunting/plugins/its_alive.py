"""It's Alive! (haunt #2): the house is a body, and the Spear is the only thing that can
kill it, through its Heart (Organ Room) or its Brain (Attic).

Seed 003's outline and what we designed are in data/betrayal/haunts/its_alive.yaml.
The organs are monsters that never move (no Speed: the engine gives them no moves) and
never attack; ordinary attacks cannot reach them, so the Spear's holder strikes them with
a special action that is an attack with the Spear (combat's own fight, so a loss hurts
the hero as any lost attack does). An organ appears as soon as its room is in the house.
progress: "grown" (organ kinds placed so far), "slain" (the organ the Spear pierced).
The round limit (the traitor wins once round {rounds} is over) is the engine's
`last_round` (data).
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
    MovementHooks,
    Offer,
    Reason,
    TurnHooks,
    attack_dice,
    combat,
    explore,
    flow,
    monsters,
    register,
    sides,
    step,
)

KEY = "its_alive"
SPEAR = "spear"
ORGAN_ROOMS = {"heart": "organ_room", "brain": "attic"}  # vital organ -> its room
VITAL = tuple(ORGAN_ROOMS)
STAIRS = flow.STAIRS
MOUTH = "entrance_hall"  # the house's way out: Antibodies and Teeth start there




def spear_holder(state: BetrayalState) -> int | None:
    """The living explorer who carries the Spear, if any."""
    return next((s for s, e in enumerate(state.explorers) if e.alive and SPEAR in e.cards),
                None)


def spear_pile(state: BetrayalState) -> int | None:
    """The room whose item pile holds the Spear, if it lies somewhere."""
    return next((i for i, t in enumerate(state.tiles) if SPEAR in t.items), None)


def vital_organs(state: BetrayalState) -> list[Monster]:
    return [m for m in sides.monsters(state) if m.kind in VITAL]


@register(KEY)
class ItsAlive(HauntPlugin, TurnHooks, MovementHooks, CombatHooks, AIHooks):
    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        owner = traitor if traitor is not None else state.haunt.revealer  # places rooms
        state.haunt.progress["grown"] = []
        mouth = state.tile_of(MOUTH)
        home = mouth if mouth is not None else state.explorers[owner].tile
        count = self.value(state, "antibodies")
        for _ in range(count):
            monsters.spawn(ctx, "antibody", home, quiet=True)
        for _ in range(self.value(state, "teeth")):
            monsters.spawn(ctx, "teeth", home, quiet=True)
        self.say(ctx, "organs_wake", count=count, room=ctx.room_name(home))
        self._lay_spear(ctx)
        # An organ whose room is not in the house waits for it to be found (seed 003
        # line 26: neither room was open yet, so the heroes kept exploring).
        self._grow(ctx)
        if flow.no_way_up(state) and STAIRS in explore.unplaced(state):
            ctx.push([{"_alive_throat": {}}], owner, KEY)

    def _lay_spear(self, ctx: Ctx) -> None:
        """No hero holds the Spear: it is taken from the traitor, the omen deck or its
        discards and laid in the revealer's room (the first hero's if the revealer is
        the traitor); one already lying in a room stays there."""
        state = ctx.state
        assert state.haunt is not None
        finder = state.haunt.revealer
        if sides.is_traitor(state, finder) and sides.heroes(state):
            finder = sides.heroes(state)[0]
        home = state.explorers[finder].tile
        holder = spear_holder(state)
        if holder is not None and not sides.is_traitor(state, holder):
            return
        if holder is None and spear_pile(state) is not None:
            return
        found = holder is not None
        if holder is not None:
            state.explorers[holder].cards.remove(SPEAR)
        for pile in (state.decks["omen"], state.discards["omen"], state.omen_table):
            if SPEAR in pile:
                pile.remove(SPEAR)
                found = True
        if not found:  # a game without the Spear (a test's own content)
            return
        state.tiles[home].items.append(SPEAR)
        self.say(ctx, "spear_laid", room=ctx.room_name(home))

    def _grow(self, ctx: Ctx) -> None:
        """Each vital organ appears the first time its room is in the house."""
        state = ctx.state
        assert state.haunt is not None
        grown = state.haunt.progress.setdefault("grown", [])
        for kind, room in ORGAN_ROOMS.items():
            tile = state.tile_of(room)
            if kind in grown or tile is None:
                continue
            grown.append(kind)
            monsters.spawn(ctx, kind, tile, quiet=True)
            self.say(ctx, "organ_appears", organ=self.data.monsters[kind].name,
                     room=ctx.room_name(tile))

    # ---------------------------------------------------------------- the rounds
    def start_round(self, ctx: Ctx) -> None:
        self._grow(ctx)

    def end_turn(self, ctx: Ctx, seat: int) -> None:
        """The traitor cannot keep the Spear; a room found this turn may grow an organ."""
        state = ctx.state
        if sides.is_traitor(state, seat) and SPEAR in state.explorers[seat].cards:
            state.explorers[seat].cards.remove(SPEAR)
            state.at(seat).items.append(SPEAR)
            self.say(ctx, "spear_dropped", who=ctx.who(seat),
                     room=ctx.room_name(state.explorers[seat].tile))
        self._grow(ctx)

    def discovered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """An organ appears "as soon as its room is in the house" (its books): the hero
        who finds the Attic with the Spear may drive it into the Brain that same turn."""
        self._grow(ctx)

    # ---------------------------------------------------------------- fighting
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        # The Spear's effect works once a turn (seed 003 line 249): once it has fought
        # this turn (a card's forced attack: Bloody Vision), it drives into no organ.
        if sides.is_traitor(state, seat) or SPEAR not in state.explorers[seat].cards \
                or state.turn.flags.get(combat.ATTACKED) or SPEAR in state.turn.used:
            return []
        here = state.explorers[seat].tile
        dice = attack_dice(state, seat, "might", SPEAR)
        return [self.offer(state, f"pierce-{m.id}", organ=self.data.monsters[m.kind].name,
                           dice=dice, strength=combat.monster_trait(state, m, "might"))
                for m in vital_organs(state) if m.tile == here]

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        ref = "m" + offer.id.split("-")[1]
        organ = sides.monster(ctx.state, ref)
        assert organ is not None
        self.say(ctx, "pierce", who=ctx.who(seat), organ=self.data.monsters[organ.kind].name)
        combat.start(ctx, seat, combat.AttackChoice(ref, "might", SPEAR))

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        """The Heart and the Brain never attack, and only "Drive the Spear" reaches them."""
        for ref in (attacker, target):
            found = sides.monster(state, ref)
            if found is not None and found.kind in VITAL:
                return False
        return True

    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        if monster.kind not in VITAL:
            return False
        name = self.data.monsters[monster.kind].name
        assert ctx.state.haunt is not None
        if weapon != SPEAR:
            self.say(ctx, "no_effect", organ=name)
            return True
        ctx.state.haunt.progress["slain"] = monster.kind
        self.say(ctx, "slain", organ=name)
        return True

    # ---------------------------------------------------------------- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        progress = state.haunt.progress
        slain = progress.get("slain")
        if slain:
            return sides.HERO, self.reason("reason_slain", names={"organ": ("monster", slain)})
        dead = len(sides.heroes(state, alive=False)) - len(sides.heroes(state))
        if dead >= self.value(state, "digest"):
            return sides.EVIL, self.reason("reason_digest", count=dead)
        return None

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """The Spear's holder goes for an organ; the others fetch a Spear lying in a room,
        else wait by the organs (to take up the Spear if its holder falls there); the
        traitor goes after the holder. Empty: explore (or hunt)."""
        holder = spear_holder(state)
        here = state.explorers[seat].tile
        if sides.is_traitor(state, seat):
            return {state.explorers[holder].tile} if holder is not None \
                and not sides.is_traitor(state, holder) else set()
        if holder == seat:
            return {m.tile for m in vital_organs(state)}
        pile = spear_pile(state)
        if pile is not None:
            return set() if pile == here else {pile}
        if holder is not None and not sides.is_traitor(state, holder):
            return {m.tile for m in vital_organs(state)}
        return set()

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        holder = spear_holder(state)
        if monster.kind == "antibody" and holder is not None \
                and not sides.is_traitor(state, holder):
            return {state.explorers[holder].tile}
        return set()


@step("_alive_organ_room")
def _alive_organ_room(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The Organ Room searched out of the room stack and placed, trying the floors in
    order (a floor with no place for it passes to the next). The setup no longer asks
    for it (seed 003 line 26: the Organ Room is found by exploring); kept for a game
    stored in the middle of that setup, which resumes here."""
    floors = list(arg.get("floors", []))
    if ctx.state.tile_of("organ_room") is not None or not floors:
        return
    frame.steps.insert(0, {"_alive_organ_grown": {}})
    explore.explore_like(frame, floors[0], move=False, room="organ_room",
                         fallback=[{"_alive_organ_room": {"floors": floors[1:]}}])


@step("_alive_organ_grown")
def _alive_organ_grown(ctx: Ctx, frame: Frame, arg: Any) -> None:
    plugin = ItsAlive()
    state = ctx.state
    assert state.haunt is not None
    if state.tile_of("organ_room") is not None and "heart" not in state.haunt.progress.get(
            "grown", []):
        plugin.say(ctx, "organ_room_placed")
        plugin._grow(ctx)


@step("_alive_throat")
def _alive_throat(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """The house opens its throat: with no way up out of the basement, the Stairs from
    Basement are searched out of the room stack and placed there."""
    if not flow.no_way_up(ctx.state) or STAIRS not in explore.unplaced(ctx.state):
        return
    ItsAlive().say(ctx, "throat")
    explore.explore_like(frame, "basement", move=False, room=STAIRS)
