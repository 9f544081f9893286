"""The Ghost Bride (haunt #7): the traitor must kill her lover and keep his body in
the Chapel for three of her turns.

Seed 003 gives only that outline; the rest is designed and described in
data/betrayal/haunts/the_ghost_bride.yaml. The lover is a secret of the traitor's
book: drawn at random when the haunt begins and told to the traitor alone. Nothing
public names him: every hero who dies leaves a body alike, and the lines about bodies
name no one, so the heroes can only guess. Dawn (the heroes win once round {dawn} is
over) is the engine's `last_round` (data).

progress: "lover" (the lover's seat: the secret), "carried" (seat of the body the
traitor carries, or None), "laid" (the body she laid down in the Chapel, or that fell
there, or None), "vigil" (her vigil's count), "vigil_body" (whose body it is kept
over), "successes" (the heroes' rite).
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bot.core.events import Audience, to_player
from bot.core.rng import Rng
from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    BoardHooks,
    Cause,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Offer,
    Reason,
    TurnHooks,
    change,
    content,
    explore,
    explorer_name,
    flow,
    movement,
    register,
    sides,
    step,
    walkable,
)

CHAPEL = "chapel"
BODY = "body"
SYMBOL = "holy_symbol"  # adds a die to the rite (designed)
KEY = "the_ghost_bride"


@register(KEY)
class TheGhostBride(HauntPlugin, TurnHooks, CombatHooks, BoardHooks, AIHooks):
    def setup(self, ctx: Ctx) -> None:
        """The lover is drawn and whispered to the traitor; the ghost lends her Might;
        the Chapel is found if the house lacks it."""
        state = ctx.state
        traitor = sides.traitor(state)
        assert traitor is not None and state.haunt is not None
        heroes = sides.heroes(state)
        lover = state.rng.choice(heroes)
        state.haunt.progress.update({"lover": lover, "carried": None, "laid": None,
                                     "vigil": 0, "vigil_body": None, "successes": 0})
        self.say(ctx, "arrives", who=ctx.who(traitor))
        self.say(ctx, "lover", kind="secret", audience=self.told(state), who=ctx.who(lover),
                 data={"lover": lover})
        self.say(ctx, "strength", who=ctx.who(traitor))
        for trait in ("might", "sanity"):
            change(ctx, traitor, trait, self.value(state, trait), Cause("engine", KEY))
        steps: list[dict[str, Any]] = []
        if state.tile_of(CHAPEL) is None and CHAPEL in explore.unplaced(state):
            steps += [{"_bride_chapel": {"floor": "ground"}}, {"_bride_chapel_said": {}}]
        ctx.push([*steps, {"_bride_stairs": {}}], traitor, "haunt")

    # ---- the secret
    @staticmethod
    def told(state: BetrayalState) -> Audience:
        """Who is told the lover: the traitor alone."""
        traitor = sides.traitor(state)
        return to_player(traitor if traitor is not None else -1)

    def hide(self, view: BetrayalState, seat: int | None, rng: Rng) -> None:
        """The lover, for a seat not told: any hero at all (the ghost drew from them)."""
        lover = self.lover(view)
        if lover is None or self.told(view).reaches(seat, sides.teams(view)):
            return
        assert view.haunt is not None
        view.haunt.progress["lover"] = rng.choice(sides.heroes(view, alive=False))

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        lover = self.lover(state)
        if lover is None or not self.told(state).reaches(seat, sides.teams(state)):
            return []
        return [self.text("lover", who=explorer_name(state, lover))]

    @staticmethod
    def lover(state: BetrayalState) -> int | None:
        found = state.haunt.progress.get("lover") if state.haunt else None
        return None if found is None else int(found)

    @staticmethod
    def carried(state: BetrayalState) -> int | None:
        found = state.haunt.progress.get("carried") if state.haunt else None
        return None if found is None else int(found)

    # ---- bodies
    def on_death(self, ctx: Ctx, seat: int) -> None:
        """A hero leaves a body (every hero alike, so no body marks the lover); the
        traitor's death drops the body she carried. A hero who falls in the Chapel lies
        there as if laid down (seed 003: she stays in the Chapel with the body; it is
        there already), unless a body she laid down lies there still."""
        state = ctx.state
        assert state.haunt is not None
        tile = state.explorers[seat].tile
        if sides.is_traitor(state, seat):
            body = self.carried(state)
            if body is not None:
                self._lay(state, body, tile)
                self.say(ctx, "dropped", who=ctx.who(seat), room=ctx.room_name(tile))
            return
        self._lay(state, seat, tile)
        if tile == state.tile_of(CHAPEL) and self.laid(state) is None:
            state.haunt.progress["laid"] = seat
        self.say(ctx, "body", room=ctx.room_name(tile), data={"tile": tile})

    def _lay(self, state: BetrayalState, body: int, tile: int) -> None:
        assert state.haunt is not None
        state.tiles[tile].tokens.append({"kind": BODY, "card": "", "haunt": KEY, "seat": body})
        if self.carried(state) == body:
            state.haunt.progress["carried"] = None

    @staticmethod
    def bodies(state: BetrayalState, tile: int) -> list[int]:
        """Whose bodies lie in this room."""
        return [int(t["seat"]) for t in state.tiles[tile].tokens
                if t.get("haunt") == KEY and t.get("kind") == BODY]

    def attack_traits(self, state: BetrayalState, seat: int) -> set[str]:
        """The ghost's grip: the traitor may attack with Sanity as well as Might."""
        return {"sanity"} if sides.is_traitor(state, seat) else set()

    # ---- actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        here = state.explorers[seat].tile
        if sides.is_traitor(state, seat):
            # One lift a turn, whichever body (her book): one id a body would allow more.
            lifted = any(r.startswith("lift-") for r in state.turn.rolls)
            found = [self.offer(state, "lay")] if self.carried(state) is not None else [
                self.offer(state, f"lift-{body}", name=content.explorer(
                    state.explorers[body].key).name)
                for body in ([] if lifted else self.bodies(state, here))]
            chapel = state.tile_of(CHAPEL)
            if chapel is not None and chapel != here and not state.turn.moves \
                    and not state.turn.free_moves and not state.turn.movement_over:
                found.append(self.offer(state, "drift"))
            return found
        if state.tiles[here].room != CHAPEL:
            return []
        return [self.offer(state, "rite", target=self.value(state, "target"))]

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        assert state.haunt is not None
        here = state.explorers[seat].tile
        if offer.id.startswith("lift-"):
            body = int(offer.id.split("-")[1])
            tokens = state.tiles[here].tokens
            tokens.remove(next(t for t in tokens if t.get("haunt") == KEY
                               and t.get("kind") == BODY and int(t["seat"]) == body))
            state.haunt.progress["carried"] = body
            if state.haunt.progress.get("laid") == body:
                state.haunt.progress["laid"] = None
            self.say(ctx, "lift", who=ctx.who(seat), room=ctx.room_name(here))
            return
        if offer.id == "drift":
            chapel = state.tile_of(CHAPEL)
            assert chapel is not None
            self.say(ctx, "drift", who=ctx.who(seat), room=ctx.room_name(here))
            state.turn.movement_over = True
            movement.place_explorer(ctx, seat, chapel, forced=True)
            return
        if offer.id == "lay":
            carried = self.carried(state)
            assert carried is not None
            self._lay(state, carried, here)
            if state.tiles[here].room == CHAPEL:
                state.haunt.progress["laid"] = carried
            self.say(ctx, "lay", who=ctx.who(seat), room=ctx.room_name(here))
            return
        target = self.value(state, "target")
        card = SYMBOL if SYMBOL in state.explorers[seat].cards else ""
        extra = self.text("rite_extra", card=content.card(card).name) if card else ""
        self.say(ctx, "rite", who=ctx.who(seat), target=target, extra=extra)
        ctx.push([{"roll": {"trait": "knowledge", "purpose": "haunt", "then": [
            {"_bride_rite": {"target": target}}]}}], seat, "haunt",
            vars={"extra_dice": 1 if card else 0})

    # ---- the vigil
    def laid(self, state: BetrayalState) -> int | None:
        """The body laid down in the Chapel (or fallen there), while it lies there still."""
        chapel = state.tile_of(CHAPEL)
        laid = state.haunt.progress.get("laid") if state.haunt else None
        return int(laid) if chapel is not None and laid is not None \
            and int(laid) in self.bodies(state, chapel) else None

    def vigil_body(self, state: BetrayalState) -> int | None:
        """The body the traitor keeps vigil over now. Seed 003: she stays in the Chapel
        with the body (叛徒跟那個屍體待在教堂裡面), so only while she stands there: the one
        she carries, else the one laid down there."""
        traitor = sides.traitor(state)
        chapel = state.tile_of(CHAPEL)
        if traitor is None or chapel is None or not state.explorers[traitor].alive \
                or state.explorers[traitor].tile != chapel:
            return None
        carried = self.carried(state)
        return carried if carried is not None else self.laid(state)

    def end_turn(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        assert state.haunt is not None
        if not sides.is_traitor(state, seat):
            return
        progress = state.haunt.progress
        body = self.vigil_body(state)
        if body is None:
            if int(progress.get("vigil", 0)) > 0:
                self.say(ctx, "vigil_broken")
            progress["vigil"], progress["vigil_body"] = 0, None
            return
        count = int(progress.get("vigil", 0)) + 1 if progress.get("vigil_body") == body else 1
        progress["vigil"], progress["vigil_body"] = count, body
        needed = self.value(state, "vigil")
        if count >= needed and body != self.lover(state):
            self.say(ctx, "vigil_unanswered", who=ctx.who(seat))  # a bluff runs out
            return
        self.say(ctx, "vigil", who=ctx.who(seat), count=count, needed=needed)

    # ---- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        progress = state.haunt.progress
        lover = self.lover(state)
        if lover is not None and progress.get("vigil_body") == lover \
                and not state.explorers[lover].alive \
                and int(progress.get("vigil", 0)) >= self.value(state, "vigil"):
            return sides.EVIL, self.reason("reason_vigil")
        traitor = sides.traitor(state)
        if traitor is not None and not state.explorers[traitor].alive:
            return sides.HERO, self.reason("reason_traitor")
        if int(progress.get("successes", 0)) >= self.value(state, "rite"):
            return sides.HERO, self.reason("reason_rite")
        return None

    # ---- the AI
    def targets(self, state: BetrayalState, seat: int) -> set[int]:
        """Where this explorer's AI is headed. Heroes gather in the Chapel for the rite.
        The traitor hunts her lover, then goes to his body, then carries it to the
        Chapel, and keeps her vigil there (empty: the engine's hunt)."""
        chapel = state.tile_of(CHAPEL)
        if not sides.is_traitor(state, seat):
            return {chapel} if chapel is not None else set()
        lover = self.lover(state)
        if lover is None:
            return set()
        if state.explorers[lover].alive:
            return {state.explorers[lover].tile}
        if self.carried(state) == lover:
            return {chapel} if chapel is not None else set()
        if self.laid(state) == lover:
            return {chapel} if chapel is not None else set()
        return {t for t in range(len(state.tiles)) if lover in self.bodies(state, t)}

    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """The next room on a walk to the targets. The engine's AI measures distance as
        the monsters walk (up the Coal Chute too), which leads an explorer back and
        forth where it cannot follow; so the walk is planned here, and with no walk
        there is nothing to head for (a hero explores for a way; the traitor drifts)."""
        targets = self.targets(state, seat)
        here = state.explorers[seat].tile
        if not targets or here in targets:
            return targets
        nxt = walk_step(state, here, targets)
        return {nxt} if nxt is not None else set()

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Heroes always try the rite. The traitor lifts only her lover's body, lays it
        down in the Chapel, and lays down any other she holds; she drifts to the Chapel
        with his body, or when her lover is there, or when she cannot walk to what she
        is after."""
        if not sides.is_traitor(state, seat):
            return offers[0] if offers else None
        lover = self.lover(state)
        in_chapel = state.at(seat).room == CHAPEL
        laid = self.laid(state)
        for offer in offers:
            if offer.id == f"lift-{lover}" and not (in_chapel and laid == lover):
                return offer
            if offer.id == "lay" and (self.carried(state) != lover or in_chapel):
                return offer
        drift = next((o for o in offers if o.id == "drift"), None)
        if drift is None:
            return None
        targets = self.targets(state, seat)
        if self.carried(state) == lover or state.tile_of(CHAPEL) in targets:
            return drift
        here = state.explorers[seat].tile
        if targets and here not in targets and walk_step(state, here, targets) is None:
            return drift
        return None


def walk_step(state: BetrayalState, start: int, goals: set[int]) -> int | None:
    """The first room of a shortest walk from `start` to one of `goals`, as explorers
    walk: through doors and the house's links one way (the Coal Chute only down; no
    Revolving Wall, which needs its switch), never through a split room (its crossing
    is a roll). None when no such walk exists."""
    first: dict[int, int] = {}
    todo: deque[int] = deque([start])
    while todo:
        tile = todo.popleft()
        if tile != start and tile in goals:
            return first[tile]  # the nearest goal: the walk is breadth-first
        if tile != start and content.room(state.tiles[tile].room).barrier:
            continue  # a split room is not walked through
        for nxt in walkable(state, tile):
            if nxt != start and nxt not in first:
                first[nxt] = first.get(tile, nxt)
                todo.append(nxt)
    return None


@step("_bride_stairs")
def _bride_stairs(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Designed, after seed 003's rule for monsters: if no way leads up out of the
    basement while someone stands in it, the Stairs from Basement are placed, so both
    sides can reach the Chapel. Explorers cannot climb the Coal Chute (monsters can):
    a house whose only way down is the chute still has no way up."""
    state = ctx.state
    if not flow.no_way_up(state) or flow.STAIRS not in explore.unplaced(state) \
            or not any(e.alive and state.tiles[e.tile].floor == "basement"
                       for e in state.explorers):
        return
    TheGhostBride().say(ctx, "stairs")
    explore.explore_like(frame, "basement", move=False, room=flow.STAIRS)


@step("_bride_chapel")
def _bride_chapel(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The Chapel searched out of the room stack and placed: the ground floor first,
    else the upper floor (the floors its tile allows)."""
    floor = str(arg["floor"])
    fallback = [{"_bride_chapel": {"floor": "upper"}}] if floor == "ground" else []
    explore.explore_like(frame, floor, move=False, room=CHAPEL, fallback=fallback)


@step("_bride_chapel_said")
def _bride_chapel_said(ctx: Ctx, frame: Frame, arg: Any) -> None:
    tile = ctx.state.tile_of(CHAPEL)
    if tile is not None:
        TheGhostBride().say(ctx, "chapel_placed",
                            floor=content.betrayal_line(f"floors.{ctx.state.tiles[tile].floor}"))


@step("_bride_rite")
def _bride_rite(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    flow.tally(ctx, frame, int(arg["target"]), "rite", "rite_success", "rite_fail")
