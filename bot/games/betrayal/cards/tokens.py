"""Tokens events leave in rooms, and what they do there.

- Blessing (A Moment of Hope) +1 die for heroes (never the traitor), Drip -1, Smoke -2
  on trait rolls made in the room (never fewer than 1 die). RULING: before the haunt
  every explorer counts as a hero for the Blessing (nobody is a traitor yet); in the
  haunt none of the three touches the traitor's rolls (seed 003: cards that do no
  damage do not affect it).
- Smoke also blocks line of sight "like a wall" (seed 003): a shot from afar neither
  reaches into its room nor passes through it, nor leaves it (SightPassive.walls_off,
  haunting/combat.sight_lines); in the haunt the traitor sees through it, as its dice
  leave the traitor's rolls alone.
- Secret Passage and Secret Stairs are links between their two tokens (links.py).
- Closet, Safe, Skeletons, Slide and Wall Switch offer their card's `use` steps to an
  explorer in the room, once a turn each (a chosen roll, seed 003). The steps run with
  `frame.vars["token_tile"]`/`["token_index"]` set, for `remove_token`. The Slide and
  the Wall Switch are ways out of the room: they need a move left and cost what
  leaving by a door costs (`way_out_cost`: 1 Speed, and in the haunt 1 more for each
  opponent in the room). The Slide always takes its user out, so it costs as it is
  used; the Wall Switch only when its roll finds the switch (0-2 finds nothing, and
  seed 003 counts Speed by the rooms entered).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal import content, hooks
from bot.games.betrayal.cards import (
    Link,
    Offer,
    RollPassive,
    RoomPassive,
    SightPassive,
    TurnPassive,
    passive,
)
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.links import LINK_TOKENS
from bot.games.betrayal.movement import can_spend, slowed
from bot.games.betrayal.rolls import is_trait_roll
from bot.games.betrayal.state import BetrayalState


def _token(state: BetrayalState, ref: Any) -> dict[str, Any]:
    tile: int
    index: int
    tile, index = ref
    return state.tiles[tile].tokens[index]


class RoomDice(RollPassive):
    """A token's dice on the trait rolls made in its room. In the haunt the traitor's
    rolls keep their dice: the three cards do no damage, and seed 003 says such a card
    does not affect the traitor, whoever laid the token (sides.unaffected)."""
    delta = 0

    def roll_dice(self, state: BetrayalState, seat: int, roll: dict[str, Any],
                  ref: Any) -> int:
        if not is_trait_roll(roll) or sides.unaffected(state, seat, self.name, None):
            return 0
        return self.delta


@passive("a_moment_of_hope")
class Blessing(RoomDice):
    """Seed 003: the extra die is a hero's, so once there is a traitor it rolls without
    it: the card's own words, whatever haunt runs (RoomDice also keeps every token's
    dice off the traitor's rolls in a haunt; before the haunt everyone is a hero)."""

    delta = 1

    def roll_dice(self, state: BetrayalState, seat: int, roll: dict[str, Any],
                  ref: Any) -> int:
        return 0 if sides.is_traitor(state, seat) else super().roll_dice(state, seat, roll, ref)


@passive("drip_drip_drip")
class Drip(RoomDice):
    delta = -1


@passive("smoke")
class Smoke(RoomDice, SightPassive):
    """Seed 003: the smoke blocks sight like a wall; no one outside its room sees
    what is in it. As with its dice, not the traitor's sight in the haunt (a card that
    does no damage: sides.unaffected)."""

    delta = -2

    def walls_off(self, state: BetrayalState, tile: int, viewer: int | None, ref: Any) -> bool:
        return viewer is None or not sides.unaffected(state, viewer, self.name, None)


class LinkToken(RoomPassive):
    """The way from a linked token to its twin. In a split room a token lies by one of
    its doors (`side`; seed 003: 玩家只可將標記放在其中一度門扉前 [the token goes before one
    of its doors]): one leaves by it from that side, and arrives by it at its twin's
    side (經由這些特殊通道到達這房間的人物，若要前進至另一門扉時仍需通過能力考驗 [who comes
    by such a passage still rolls to reach the other door])."""

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        token = _token(state, ref)
        if token["kind"] not in LINK_TOKENS or token.get("link") is None:
            return []
        there = int(token["link"])
        twin = next((t for t in state.tiles[there].tokens
                     if t["kind"] == token["kind"] and t.get("link") == tile), {})
        return [Link(token["kind"], there, side=token.get("side"), arrive=twin.get("side"))]


@passive("secret_passage")
class SecretPassage(LinkToken):
    """Two Secret Passage tokens join their rooms (registered under the card's name)."""


@passive("secret_stairs")
class SecretStairs(LinkToken):
    """Two Secret Stairs tokens join rooms on different floors."""


def way_out_cost(state: BetrayalState, seat: int) -> int:
    """The Speed a way out of the room by a token (the Slide, the Wall Switch) costs:
    entering one room, 1 (seed 003: 經由特殊通道在兩個房間往返，皆只算作進入一間房間計算
    [a special passage counts as entering one room]), and in the haunt 1 more for each
    opponent in the room (房中每有一名敵手，人物則必須多耗用1點速度離開房間 [each opponent
    in the room costs 1 more Speed to leave it]), as by a door."""
    return 1 + slowed(state, seat)


class TokenUse(TurnPassive):
    """Offers the token card's `use` steps to whoever stands in its room."""

    moves_out = False  # using it is a way out of the room (needs a move left)
    pays_on_use = True  # a way out is paid as it is used (else by its own steps)
    keyed = False  # the Skeleton Key opens it without a roll

    def actions(self, state: BetrayalState, seat: int, ref: Any) -> list[Offer]:
        tile, index = ref
        token = _token(state, ref)
        card = content.card(token["card"])
        if state.explorers[seat].tile != tile or not card.use:
            return []
        if self.moves_out and not can_spend(state, seat, 1, slowed(state, seat)):
            return []
        data = {"tile": tile, "index": index}
        offers = [Offer(f"{card.key}-{index}", content.betrayal_line(
            "labels.token_use", token=content.token_name(token["kind"]), card=card.name), data)]
        if self.keyed and hooks.holds_custom(state, seat, "skeleton_key"):
            offers.append(Offer(f"{card.key}-{index}-key", content.betrayal_line(
                "labels.token_key", token=content.token_name(token["kind"])),
                {**data, "key": True}))
        return offers

    def act(self, ctx: Ctx, seat: int, offer: Offer, ref: Any) -> None:
        token = _token(ctx.state, ref)
        card = content.card(token["card"])
        steps = list(card.use)
        if offer.data.get("key"):
            steps = _best_outcome(steps)
        if self.moves_out and self.pays_on_use:
            ctx.state.turn.moves += way_out_cost(ctx.state, seat)
        ctx.push(steps, seat, card.key, card.deck,
                 {"token_tile": offer.data["tile"], "token_index": offer.data["index"]})


def _best_outcome(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Skeleton Key: the steps of the roll's best outcome, without rolling."""
    for s in steps:
        if "roll" in s:
            outcomes = s["roll"].get("outcomes", [])
            best = max(outcomes, key=lambda o: int(o.get("min", -1)))
            return list(best.get("do") or [])
    return steps


@passive("closet_door")
class ClosetDoor(TokenUse):
    """The Closet token offers its card's `use` roll (see TokenUse)."""


@passive("skeletons")
class Skeletons(TokenUse):
    """The Skeletons token offers a search: its card's `use` roll (see TokenUse)."""


@passive("locked_safe")
class LockedSafe(TokenUse):
    keyed = True


@passive("mystic_slide")
class MysticSlide(TokenUse):
    """A way down: never offered in a basement room (its room moved there, the What
    the...? card or the Mystic Elevator), where it leads nowhere lower."""

    moves_out = True

    def actions(self, state: BetrayalState, seat: int, ref: Any) -> list[Offer]:
        tile, _ = ref
        if state.tiles[tile].floor == "basement":
            return []
        return super().actions(state, seat, ref)


@passive("revolving_wall")
class RevolvingWall(TokenUse, RoomPassive):
    """Its two Wall Switch tokens (laid with links.connect) join two rooms, but only a
    Knowledge roll gets you through: the link is listed for the map and the house's
    connectivity, and crossing it is the token's use, paid only when the roll finds the
    switch (token_events.revolving_wall_pass)."""

    moves_out = True
    pays_on_use = False

    def links(self, state: BetrayalState, seat: int, tile: int, ref: Any) -> list[Link]:
        token = _token(state, ref)
        if token.get("link") is None:
            return []
        return [Link(token["kind"], int(token["link"]), walkable=False)]
