"""Custom handlers: behaviour the step vocabulary of data/betrayal/README.md cannot say.

Two kinds of `custom:` name appear in the content files:

- a `custom:` *step* inside a step list (`- custom: mask_toggle`) runs in order with the
  other steps. Register it with `@handler("mask_toggle")`: a function
  `(ctx, frame, args) -> None` that may change the state, push more steps
  (`ctx.push_child(frame, [...])`) or pause on a choice (see effects.pause).
- a card-level or room-level `custom:` names a *passive*: something that watches for
  its moment (a roll, damage, the end of a turn, a room's links). Register a class with
  `@passive("rope")` that names the parts it watches (`RollPassive`, `DamagePassive`,
  `TurnPassive`, `HandPassive`, `RoomPassive`, `SightPassive`) and overrides only the
  hooks it needs in them.

A passive is consulted when its card is held (in `cards` or `lasting`), when an
explorer's `flags` holds its name (a saved roll, say), when a token placed by its card
lies in a room, or when its room is placed. Every hook has a neutral default, so a
card with no handler yet simply does nothing special.

This package's `__init__` is only the registry, at the bottom of the engine: it imports
none of the card modules beside it (they import it to register). Betrayal's loader,
loading.py, imports them all (rules.py runs it), so every handler is in place before a
game is played.

What a handler can use (all plain data, so a paused card survives a save):

- `frame.seat` (the explorer the steps act on: set it to pass a card on), `frame.source`
  (the card key), `frame.vars`: "roll" (the last total of this card's rolls), "chosen"
  (a trait picked), "token:<kind>" (tile where this card laid that token), "token_tile"
  / "token_index" (the token being used), "placed" (tile a new room went to),
  "extra_dice" (set it before a roll: "2 dice fewer in the Gardens").
- `state.turn.flags`: "last_roll", "last_attack" ({"seat", "damage"}), "arrived_by",
  "card_rolls" (every roll of a card's resolution: read it with `rolls.card_rolls`).
- `explorer.flags` for a card's own memory (the Mask worn); a key named like a passive
  attaches that passive to the explorer.
- Steps: `ctx.push_child(frame, [...])` to run steps next; `effects.pause` / `ask` and
  `@resumer` for choices; `movement.ask_tile` (pick a placed room), `place_explorer`;
  `explore.explore_like` (a new room as if explored, or a named one), `draw_room`;
  `decks.take_card`, `give_card`, `draw_top`, `resolve_card`; `links.connect` (a
  linked pair of tokens); `hooks.holds_custom`, `hooks.of_explorer`;
  `rolls.card_rolls` (the totals of this card's rolls so far).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.betrayal.context import Ctx
    from bot.games.betrayal.state import BetrayalState, Frame

HANDLERS: dict[str, Callable[..., None]] = {}
PASSIVES: dict[str, Passive] = {}
RESUMERS: dict[str, Callable[..., None]] = {}


def handler(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a `custom:` step handler `(ctx, frame, args) -> None`."""
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        HANDLERS[name] = fn
        return fn
    return register


def resumer(kind: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register what a pending choice of this `kind` does with the pick:
    `(ctx, frame, step, pick) -> None`, where `step` is the paused step, still first in
    `frame.steps` (pop it, or change it and leave it to run again)."""
    def register(fn: Callable[..., None]) -> Callable[..., None]:
        RESUMERS[kind] = fn
        return fn
    return register


@dataclass(frozen=True)
class Link:
    """A way out of a room other than a door (seed 003: it costs one room of Speed)."""

    kind: str  # e.g. "stairs_up", "chute", "secret_passage"
    target: int  # tile id
    cost: int = 1
    steps: tuple[dict[str, Any], ...] = ()  # run on arrival (a jump's damage)
    side: str | None = None  # in a split room: the door the link starts from
    walkable: bool = True  # False: only a roll gets you through (the Revolving Wall)
    arrive: str | None = None  # in a split room: the side one stands on, arriving by it


@dataclass(frozen=True)
class Cause:
    """What moved a trait: the steps of a card or a room (`origin` is the card's deck,
    "room", or "engine"), as Passive.trait_changed hears of it."""

    origin: str = "engine"  # "omen" | "item" | "event" | "room" | "engine"
    source: str = ""  # the card or room key

    @classmethod
    def of(cls, frame: Frame) -> Cause:
        """The card or room whose steps `frame` runs."""
        return cls(frame.origin, frame.source)


@dataclass(frozen=True)
class Offer:
    """Something a passive lets the explorer do now: a button."""

    id: str
    label: str
    data: dict[str, Any] = field(default_factory=dict)


class Passive:
    """A card-level or room-level custom handler that watches the game: it fills in the
    parts below that its card or room changes (`class Rope(DamagePassive, HandPassive)`),
    and the engine asks only the passives of the part it is in (hooks.py's `of_explorer`,
    `of_tile`, `around` take the part). tests/test_passive_parts.py refuses a hook
    written in a part not named.

    `ref` is what the passive is attached to: a card key (held, lasting or flag), or a
    tile id (a room, or the room holding the passive's token).
    """

    name = ""


class RollPassive(Passive):
    """Rolls (rolls.py): offers before and after the dice, extra dice, the highest die
    ignored."""

    def roll_offers(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], stage: str,
                    ref: Any) -> list[Offer]:
        return []

    def roll_apply(self, ctx: Ctx, frame: Frame, roll: dict[str, Any], offer: Offer,
                   ref: Any) -> None:
        return None

    def roll_dice(self, state: BetrayalState, seat: int, roll: dict[str, Any],
                  ref: Any) -> int:
        """Extra (or fewer) dice for a roll made by `seat` (tokens: Blessing, Drip)."""
        return 0

    def drops_highest(self, state: BetrayalState, frame: Frame, roll: dict[str, Any],
                      ref: Any) -> bool:
        """Whether this roll of `frame`'s explorer ignores its highest die (a haunt's
        rule for the rolls an event asks for)."""
        return False


class DamagePassive(Passive):
    """Damage (effects.py): offers when damage is taken, and damage a card or room does not
    do."""

    def damage_offers(self, ctx: Ctx, frame: Frame, damage: dict[str, Any],
                      ref: Any) -> list[Offer]:
        return []

    def damage_apply(self, ctx: Ctx, frame: Frame, damage: dict[str, Any], offer: Offer,
                     ref: Any) -> None:
        return None

    def shields(self, state: BetrayalState, seat: int, source: str, ref: Any) -> bool:
        """Damage from this card or room does not touch the explorer (the Rope and the
        Mystic Slide)."""
        return False


class TurnPassive(Passive):
    """The turn (turn.py, movement.py, actions.py): its start and end, how far and whether
    the explorer may move, the things to do here, entering a room."""

    def start_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        return None

    def end_turn(self, ctx: Ctx, seat: int, ref: Any) -> None:
        return None

    def speed_cap(self, state: BetrayalState, seat: int, ref: Any) -> int | None:
        return None

    def blocks(self, state: BetrayalState, seat: int, ref: Any) -> bool:
        """True while the explorer may do nothing but end its turn (Webs, Debris)."""
        return False

    def actions(self, state: BetrayalState, seat: int, ref: Any) -> list[Offer]:
        """Voluntary things to do here (open the Vault, use a token)."""
        return []

    def act(self, ctx: Ctx, seat: int, offer: Offer, ref: Any) -> None:
        return None

    def entered(self, ctx: Ctx, seat: int, tile: int, ref: Any) -> None:
        """The holder (or anyone, for a room passive) entered a room."""
        return None


class HandPassive(Passive):
    """The explorer's cards and traits: when a card may be used, a hand or trait that
    changed, a card safe from a steal, a deck it may not draw from."""

    def can_use(self, state: BetrayalState, seat: int, key: str) -> bool:
        """Whether the held card `key` (this passive's card) may be used now, beyond the
        engine's own limits (once a turn, haunt-only): "only before you move" (the
        Spirit Board). items.usable consults it, so a card that may not be used is not
        offered."""
        return True

    def cards_changed(self, ctx: Ctx, seat: int, ref: Any) -> None:
        """The explorer's hand changed (a set like Bell, Book and Candle)."""
        return None

    def trait_changed(self, ctx: Ctx, seat: int, trait: str, moved: int, cause: Cause,
                      ref: Any) -> None:
        """One of the explorer's traits moved `moved` steps (signed, never 0) because of
        `cause` (a gain, a loss, damage, a heal; effects.change and effects.heal call
        it): Grave Dirt ends when an item card raises a trait."""
        return None

    def cannot_be_stolen(self, state: BetrayalState, seat: int, ref: Any) -> bool:
        """The held card `ref` is safe from a steal (the Armor); cards/attacks.py asks."""
        return False

    def prevents_draw(self, state: BetrayalState, seat: int, deck: str, ref: Any) -> bool:
        """The explorer may not draw a card of `deck` now (a card that forbids it):
        decks._draw_card asks, and so does anything drawing several at once."""
        return False


class RoomPassive(Passive):
    """Rooms and tokens (links.py, explore.py): ways between rooms, a room rule ignored, a
    split room's crossing, where a found room goes and what its symbol draws."""

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        return []

    def immune(self, state: BetrayalState, seat: int, room: str, ref: Any) -> bool:
        """The explorer ignores this room's rule (the Medallion)."""
        return False

    def crossing(self) -> tuple[str, int] | None:
        """A split room's crossing roll: (trait, target)."""
        return None

    def placement_floor(self, state: BetrayalState, floor: str) -> str | None:
        """A room discovered from `floor` that is placed on another (Underground Lake)."""
        return None

    def symbol_steps(self, state: BetrayalState, seat: int, tile: int, symbol: str,
                     steps: list[dict[str, Any]], ref: Any) -> list[dict[str, Any]] | None:
        """A room whose discovery draws its card its own way (two cards, a roll first,
        a pick of two): the steps to run instead of `steps`, the edition's draw for the
        room's `symbol` (explore._symbol asks); None keeps the edition's."""
        return None


class SightPassive(Passive):
    """Line of sight (haunting/combat.py: the Revolver; the Dynamite's throw)."""

    def sight_half(self, state: BetrayalState, tile: int, door: str, ref: Any) -> str | None:
        """A room split for the eye: the side (an explorer's `side`) that line of sight
        through `door` reaches, into or out of this room; None: the whole room."""
        return None

    def stops_sight(self, state: BetrayalState, tile: int, ref: Any) -> bool:
        """Line of sight reaches this room but goes no further through it."""
        return False

    def walls_off(self, state: BetrayalState, tile: int, viewer: int | None, ref: Any) -> bool:
        """For `viewer` (a seat; None: anyone), line of sight neither enters this room
        nor leaves it, as if walls stood at its doors (the Smoke): nothing in it is seen
        from outside, nor seen through."""
        return False


# Every part a passive may fill in.
PASSIVE_PARTS: tuple[type[Passive], ...] = (
    RollPassive, DamagePassive, TurnPassive, HandPassive, RoomPassive, SightPassive)


def passive(name: str) -> Callable[[type[Passive]], type[Passive]]:
    """Register a Passive subclass under a `custom:` name (one instance is kept)."""
    def register(cls: type[Passive]) -> type[Passive]:
        obj = cls()
        obj.name = name
        PASSIVES[name] = obj
        return cls
    return register


def handled(name: str) -> bool:
    return name in HANDLERS or name in PASSIVES

