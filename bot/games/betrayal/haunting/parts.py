"""The parts of a haunt plugin: small classes of hooks, each with a neutral default.

Why parts: a haunt implements only what its books change. A plugin class names the parts
it fills in (`class Wail(HauntPlugin, TurnHooks, CombatHooks)`), so reading its first
line says where it reaches into the engine, and the engine asks for one part at a time
(`base.hooks(state, CombatHooks)`), getting the running haunt when it has that part and
the neutral default when it does not. tests/test_haunt_parts.py checks that a plugin
never writes a hook of a part it did not name (it would never be called).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.betrayal.cards import Offer
from bot.games.betrayal.haunting import sides

if TYPE_CHECKING:
    from bot.core.rng import Rng
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.state import BetrayalState, Frame, Monster


class TurnHooks:
    """What a haunt adds to a turn and a round: its special actions, what happens as turns and
    rounds pass, and who still plays."""

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        """The haunt's special actions open to this explorer now (its own turn, nothing
        pending). Each offer id is used at most once a turn (the engine keeps count)."""
        return []

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        """Carry out an offer (it was just listed by `offers`): say it publicly, push
        steps (a `roll` whose `then` runs a step registered with effects.step) or
        change the state directly."""

    def start_round(self, ctx: Ctx) -> None:
        """A haunt round begins (before the first hero's turn; round 1 right after setup)."""

    def end_turn(self, ctx: Ctx, seat: int) -> None:
        """An explorer's haunt turn ends (hero or traitor)."""

    def end_monsters(self, ctx: Ctx) -> None:
        """The monsters' turn is over (the last turn of a round)."""

    def skips_turn(self, ctx: Ctx, seat: int) -> bool:
        """A hero's haunt turn is about to start: True when it is spent (the haunt says
        why; the turn passes on as if played: the house may still act after it)."""
        return False

    def on_death(self, ctx: Ctx, seat: int) -> None:
        """An explorer has just died (its cards already lie in the room)."""

    def traitor_plays(self, state: BetrayalState) -> bool:
        """Whether the traitor still takes turns (alive by default)."""
        seat = sides.traitor(state)
        return seat is not None and state.explorers[seat].alive


class HouseHooks:
    """A cooperative haunt's house: when it takes its own turn and what it does then (no seat
    plays it)."""

    def house_turn_after(self, state: BetrayalState, seat: int) -> bool:
        """Cooperative haunts: whether the house takes a turn now, right after this
        explorer's turn (dead or alive). Default: after the round's last hero."""
        order = [h for h in sides.heroes(state, alive=False)
                 if h == seat or state.explorers[h].alive]
        return bool(order) and order[-1] == seat

    def house_turn(self, ctx: Ctx, frame: Frame) -> None:
        """Cooperative haunts: the house's turn begins, under `frame` (the steps pushed
        with `ctx.push_child(frame, ...)` run before the turn passes on). Default: its
        monsters roll and move as in seed 003 ("Monsters"), the monster AI playing them
        (haunting/house.py's `_house_monsters`)."""
        ctx.push_child(frame, [{"_house_monsters": {}}])


class MovementHooks:
    """What a haunt changes in moving and exploring: rooms barred, tiles sent to another floor,
    a house torn apart."""

    def can_enter(self, state: BetrayalState, seat: int, tile: int) -> bool:
        """Whether this explorer may walk into that room now (a haunt's figure that
        bars the way until a roll is made)."""
        return True

    def whole_house(self, state: BetrayalState) -> bool:
        """Whether every placed room is meant to be reached from the start rooms (True in
        seed 003; a haunt that spreads the rooms apart says False)."""
        return True

    def explore_floor(self, state: BetrayalState, room: str, floor: str) -> str | None:
        """The floor a room found from `floor` goes on, whatever floors the tile shows and
        wherever the room itself would go (None: as printed, seed 003). A haunt that puts
        every tile on one floor answers that floor."""
        return None

    def symbol_steps(self, state: BetrayalState, symbol: str,
                     steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """What a discovered room's card symbol runs now (`steps`: the edition's draw).
        A haunt may change what a symbol does (move a track instead of drawing)."""
        return steps

    def discovered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """An explorer has just found and entered this room; what is pushed here runs
        before the room's own effects and its card symbol."""

    def entered(self, ctx: Ctx, seat: int, tile_id: int) -> None:
        """An explorer has just been put in this room, however it came (a door, a link,
        a discovery, a card's move), before anything entering it sets off: a haunt that
        must know who ever set foot where (Pay the Piper's Pentagram Chamber) notes it
        here, since the explorer may leave again before its turn ends."""

    def elevator_floors(self, state: BetrayalState, total: int,
                        floors: tuple[str, ...]) -> tuple[str, ...]:
        """The floors the Mystic Elevator may go to on this roll (`floors`: seed 003's
        for that total); none: it stays."""
        return floors


class CombatHooks:
    """What a haunt changes in a fight: who may attack whom, with which trait, and what a
    beaten monster does."""

    def attack_traits(self, state: BetrayalState, seat: int) -> set[str]:
        """Traits besides Might this explorer may attack with in this haunt."""
        return set()

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        """Whether this attack is allowed at all (refs as above)."""
        return True

    def attacks_allies(self, state: BetrayalState, seat: int) -> bool:
        """Whether this explorer may attack explorers of its own side too (seed 003 line
        298: each side attacks the other; a haunt whose goal a companion's death brings
        nearer says more: Better with Friends)."""
        return False

    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        """A monster lost a fight by `amount`. Return True when the plugin dealt with it;
        False lets the engine stun it (or kill it, `on_hit: kill`)."""
        return False

    def can_fight_with(self, state: BetrayalState, monster: Monster, trait: str) -> bool:
        """Whether an attack with `trait` may be made on this monster at all, an
        explorer's or a card's (seed 003 already refuses a trait the monster lacks): a
        haunt may refuse more (a banshee fought with Sanity alone keeps her Speed to
        move by)."""
        return True

    def can_stun(self, state: BetrayalState, monster: Monster) -> bool:
        """Whether this monster may be stunned at all, whatever stuns it (a lost fight,
        the Dynamite, the Druidic Charm: every stun comes through combat.stun)."""
        return True

    def on_stunned(self, ctx: Ctx, monster: Monster, by: str) -> None:
        """A monster has just been stunned, by whatever (combat.stun): the haunt answers
        as its book says. `by`: the seat that stunned it (digits), or "" (none did)."""

    def monster_trait(self, state: BetrayalState, monster: Monster, trait: str,
                      base: int) -> int:
        """A monster's trait now (servants that grow stronger each round)."""
        return base

    def monster_attack_trait(self, state: BetrayalState, monster: Monster) -> str:
        """The trait a monster attacks with (seed 003: Might unless the haunt says
        otherwise; a banshee's wail strikes the mind)."""
        return "might"


class BoardHooks:
    """What a haunt shows the table and keeps from it: the board's public note, a seat's own
    secrets, and how an AI's view deals anew what its seat was not told."""

    def board_note(self, state: BetrayalState) -> str:
        """A public line the map's footer and `/game status` add while the haunt runs
        (a number track, who Pennywise hunts): never a secret."""
        return ""

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        """Secrets this explorer holds beyond its book (`/secret` shows them): the
        lover the ghost named to the traitor. Only ever this seat's own secrets."""
        return []

    def hide(self, view: BetrayalState, seat: int | None, rng: Rng) -> None:
        """In `view`, a seat's view of the game (knowledge.py; None: the house's), deal
        anew each of this haunt's secrets that the seat was not told, judged by the
        audience the haunt tells it with (`Audience.reaches` over `sides.teams`), from
        what the seat cannot tell apart from it, drawing only from `rng` (the view's).
        A haunt with no secret has nothing to hide."""


class AIHooks:
    """How the AI plays this haunt: where explorers and monsters head, which attacks and
    special actions it takes, and its answers to the haunt's own choices."""

    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Tiles this explorer's AI should head for (empty: hunt the other side)."""
        return set()

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        """Tiles this monster's AI should head for (empty: the nearest hero)."""
        return set()

    def monster_attacks(self, state: BetrayalState, monster: Monster, seat: int) -> bool:
        """Whether this monster's AI attacks this hero in its room (default: always). A
        haunt says no where the fight would hand the heroes what the monster's side
        knows to fear."""
        return True

    def ai_presses(self, state: BetrayalState, seat: int, target: int | str) -> bool:
        """Whether this explorer's AI makes an attack on `target` even when its dice are
        fewer (a monster that must be stunned to be beaten); default: only at a match."""
        return False

    def ai_attack_worth(self, state: BetrayalState, seat: int, target: int | str,
                        weapon: str, edge: int) -> int:
        """What this attack is worth to this explorer's AI, in dice (`edge`: its dice
        over the target's): it makes the attack worth the most, if that is 0 or more. A
        haunt adds to a fight that gains more than a win usually does (default: edge)."""
        return edge

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Which special action the AI takes now, if any (default: the first)."""
        return offers[0] if offers else None

    def ai_pick(self, state: BetrayalState) -> int | None:
        """The AI's answer to the pending choice, when it is one of the haunt's own
        (None: the engine's usual answer)."""
        return None


# Every part, in the order a reader meets them in a turn.
PARTS: tuple[type, ...] = (TurnHooks, HouseHooks, MovementHooks, CombatHooks, BoardHooks, AIHooks)
