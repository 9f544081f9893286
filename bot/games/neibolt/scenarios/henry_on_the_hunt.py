"""Henry on the Hunt (COME HOME TO EVIL, scenario 1, seed 000): the traitor is Henry
Bowers, out of Juniper Hill with a switchblade, a kill list and the corpse of Patrick
Hockstetter; the heroes win when Henry is dead.

Seed 000 prints the heroes' side (the Searched tokens, the two actions, the goal); the
traitor's side is designed and written down in data/neibolt/haunts/henry_on_the_hunt.yaml
(`note`). The turn order needs nothing here: the haunt engine already starts each
round with the hero on the traitor's left (sides.heroes). The kill list is public (seed
000's hero tokens lie on the board), so it is told to the table and shown on the map's
footer (`board_note`). Searched tokens are haunt tokens on the searched rooms; the ones
left are the five less those on the board. progress: "list" (the listed seats, in turn
order), "crossed" (the listed seats dead, in the order they died).
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    BoardHooks,
    Cause,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    Offer,
    Reason,
    TurnHooks,
    attack_dice,
    change,
    content,
    decks,
    explorer_name,
    monsters,
    pause,
    register,
    resumer,
    sides,
    step,
    traits,
)
from bot.games.neibolt.encounters import bury
from bot.texts import listed as joined

KEY = "henry_on_the_hunt"
HOCKSTETTER = "hockstetter"
SEARCHED = "searched"
ITEM = "item"
SEARCH_TRAITS = ("speed", "knowledge")  # seed 000: "make a Speed or Knowledge roll"
GUARD_RANGE = 2  # designed (AI): Hockstetter runs back to Henry when a hero is this near


def hockstetter(state: BetrayalState) -> Monster | None:
    found = sides.monsters(state, HOCKSTETTER)
    return found[0] if found else None


def searched(state: BetrayalState, tile_id: int) -> bool:
    return any(t.get("kind") == SEARCHED and t.get("haunt") == KEY
               for t in state.tiles[tile_id].tokens)


def searched_count(state: BetrayalState) -> int:
    return sum(1 for t in state.tiles for k in t.tokens
               if k.get("kind") == SEARCHED and k.get("haunt") == KEY)


def kill_list(state: BetrayalState) -> list[int]:
    assert state.haunt is not None
    return [int(s) for s in state.haunt.progress.get("list", [])]


def crossed(state: BetrayalState) -> list[int]:
    assert state.haunt is not None
    return [int(s) for s in state.haunt.progress.get("crossed", [])]


def hunted(state: BetrayalState) -> list[int]:
    """The heroes of the list still alive: Henry's prey."""
    return [s for s in kill_list(state) if state.explorers[s].alive]


def shields(state: BetrayalState) -> bool:
    """Seed 000: "Hockstetter can help protect Bowers". Designed: while he stands awake
    (not stunned) in Henry's room, no hero can attack Henry."""
    traitor = sides.traitor(state)
    found = hockstetter(state)
    return traitor is not None and found is not None and not found.stunned \
        and found.tile == state.explorers[traitor].tile


def armed(state: BetrayalState, seat: int) -> bool:
    return any(content.card(k).weapon for k in state.explorers[seat].cards)


@register(KEY)
class HenryOnTheHunt(HauntPlugin, TurnHooks, CombatHooks, BoardHooks, AIHooks):
    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        """The switchblade, Hockstetter in Henry's room, the kill list (public)."""
        state = ctx.state
        assert state.haunt is not None
        traitor = sides.traitor(state)
        assert traitor is not None
        cause = Cause("engine", KEY)
        self.say(ctx, "henry_rises", who=ctx.who(traitor))
        change(ctx, traitor, "might", self.value(state, "blade"), cause)
        change(ctx, traitor, "speed", self.value(state, "legs"), cause)
        home = state.explorers[traitor].tile
        monsters.spawn(ctx, HOCKSTETTER, home, quiet=True)
        self.say(ctx, "hockstetter_rises", room=ctx.room_name(home))
        heroes = sides.heroes(state)
        picked = set(state.rng.sample(heroes, min(self.value(state, "listed"), len(heroes))))
        listed = [h for h in heroes if h in picked]  # in turn order
        state.haunt.progress.update({"list": listed, "crossed": []})
        self.say(ctx, "kill_list", names=joined([ctx.who(s) for s in listed]),
                 data={"list": listed})

    # ---------------------------------------------------------------- the table
    def board_note(self, state: BetrayalState) -> str:
        """The kill list (seed 000's hero tokens, public) and the Searched tokens left."""
        if state.haunt is None or "list" not in state.haunt.progress:
            return ""
        gone = set(crossed(state))
        names = [self.text("note_crossed", name=explorer_name(state, s)) if s in gone
                 else explorer_name(state, s) for s in kill_list(state)]
        return " · ".join([self.text("note_list", names=joined(names)),
                           self.text("note_searched", count=self.tokens_left(state))])

    def tokens_left(self, state: BetrayalState) -> int:
        return max(0, self.value(state, "searched") - searched_count(state))

    # ---------------------------------------------------------------- actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if sides.is_traitor(state, seat):
            return []
        here = state.explorers[seat].tile
        found: list[Offer] = []
        if content.room(state.tiles[here].room).symbol == ITEM and not searched(state, here) \
                and self.tokens_left(state) > 0:
            found.append(self.offer(state, "search", target=self.value(state, "weapon")))
        zombie = hockstetter(state)
        if zombie is not None and zombie.tile == here:
            found.append(self.offer(state, "banish", target=self.value(state, "banish")))
        return found

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        here = state.explorers[seat].tile
        if offer.id == "search":
            target = self.value(state, "weapon")
            self.say(ctx, "search", who=ctx.who(seat), room=ctx.room_name(here), target=target)
            # The better trait first: it is the explorer's choice, and the AI takes the first.
            order = sorted(SEARCH_TRAITS, key=lambda t: -traits.value(state, seat, t))
            ctx.push([{"roll": {"choose": order, "purpose": "haunt", "then": [
                {"_henry_search": {"tile": here, "target": target}}]}}], seat, KEY)
            return
        target = self.value(state, "banish")
        self.say(ctx, "banish", who=ctx.who(seat), target=target)
        ctx.push([{"roll": {"trait": "sanity", "purpose": "haunt", "then": [
            {"_henry_banish": {"target": target}}]}}], seat, KEY)

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        """Hockstetter shields Henry (designed): no hero attacks Henry past him."""
        traitor = sides.traitor(state)
        if traitor is None or target != str(traitor) or sides.side_of(state, attacker) \
                != sides.HERO:
            return True
        return not shields(state)

    # ---------------------------------------------------------------- death and winning
    def on_death(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        assert state.haunt is not None
        if seat not in kill_list(state) or seat in crossed(state):
            return
        state.haunt.progress.setdefault("crossed", []).append(seat)
        self.say(ctx, "crossed", who=ctx.who(seat), count=len(crossed(state)),
                 needed=self.value(state, "kills"))

    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        traitor = sides.traitor(state)
        if traitor is not None and not state.explorers[traitor].alive:
            return sides.HERO, self.reason("reason_dead")
        count = len(crossed(state))
        if count >= self.value(state, "kills"):
            return sides.EVIL, self.reason("reason_list", count=count)
        return None

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Henry hunts the heroes of his list. A hero arms itself first (an unsearched
        item room while tokens last), then hunts Henry; empty: explore."""
        traitor = sides.traitor(state)
        if traitor is None:
            return set()
        if seat == traitor:
            return self._prey(state, traitor)
        if not armed(state, seat) and self.tokens_left(state) > 0:
            rooms = {i for i, t in enumerate(state.tiles)
                     if content.room(t.room).symbol == ITEM and not searched(state, i)}
            if rooms:
                return rooms
        return {state.explorers[traitor].tile}

    def _prey(self, state: BetrayalState, traitor: int) -> set[int]:
        """The listed heroes Henry can take on (his best attack against their Might);
        none: back to Hockstetter's side while he walks, else the whole list."""
        prey = hunted(state)
        best = max(attack_dice(state, traitor, "might", w)
                   for w in ["", *state.explorers[traitor].cards])
        weak = [h for h in prey if traits.value(state, h, "might") <= best]
        if weak:
            return {state.explorers[h].tile for h in weak}
        zombie = hockstetter(state)
        if zombie is not None:
            return {zombie.tile}
        return {state.explorers[h].tile for h in prey}

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        """Hockstetter runs back to Henry when a hero is near him, else hunts the list."""
        traitor = sides.traitor(state)
        if traitor is None or not state.explorers[traitor].alive:
            return set()
        home = state.explorers[traitor].tile
        near = monsters.distances(state, {home})
        if any(near.get(state.explorers[h].tile, GUARD_RANGE + 1) <= GUARD_RANGE
               for h in sides.heroes(state)):
            return {home}
        prey = {state.explorers[h].tile for h in hunted(state)}
        return prey or {home}

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Banish Hockstetter first when he stands in the way, else search."""
        for wanted in ("banish", "search"):
            for offer in offers:
                if offer.id == wanted:
                    return offer
        return None



def _plugin() -> HenryOnTheHunt:
    return HenryOnTheHunt()


# ---------------------------------------------------------------- steps

@step("_henry_search")
def _henry_search(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Seed 000: the Searched token goes on the room either way; 3+ looks at the top
    three items, one is kept and the rest buried."""
    state = ctx.state
    plugin, seat, tile_id = _plugin(), frame.seat, int(arg["tile"])
    if not searched(state, tile_id) and plugin.tokens_left(state) > 0:
        state.tiles[tile_id].tokens.append({"kind": SEARCHED, "card": "", "haunt": KEY})
    if int(frame.vars.get("roll", 0)) < int(arg["target"]):
        plugin.say(ctx, "search_miss", who=ctx.who(seat), room=ctx.room_name(tile_id))
        return
    plugin.say(ctx, "search_hit", who=ctx.who(seat), room=ctx.room_name(tile_id))
    # Looked at where they lie (on top of the deck, so every card stays in a pile while
    # the choice waits); an empty deck takes its shuffled discards first, as a draw does.
    if not state.decks[ITEM] and state.discards[ITEM]:
        top = decks.draw_top(ctx, ITEM)  # reshuffles the discards, and says so
        if top is not None:
            state.decks[ITEM].insert(0, top)
    cards = list(state.decks[ITEM][:plugin.value(state, "peek")])
    if not cards:
        plugin.say(ctx, "peek_empty")
        return
    plugin.say(ctx, "peek", who=ctx.who(seat), count=len(cards))
    if len(cards) == 1:  # the deck's last card: "take one of them" leaves no choice
        _keep(ctx, frame, cards, 0)
        return
    # Weapons first (the AI takes the first choice); otherwise as they lay.
    cards.sort(key=lambda k: not content.card(k).weapon)
    pause(ctx, frame, {"_henry_keep": {"cards": cards}}, "henry_keep",
          plugin.text("peek_prompt"),
          [plugin.text("keep", card=content.card(k).name) for k in cards], private=True)


@step("_henry_keep")
def _henry_keep(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Only ever run through its choice (`henry_keep`)."""


@resumer("henry_keep")
def _henry_kept(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    frame.steps.pop(0)
    _keep(ctx, frame, [str(k) for k in raw["_henry_keep"]["cards"]], pick)


def _keep(ctx: Ctx, frame: Frame, cards: list[str], pick: int) -> None:
    """The card kept is resolved as drawn; the others are buried, unnamed."""
    state = ctx.state
    cards = list(cards)
    for key in cards:
        state.decks[ITEM].remove(key)
    kept = cards.pop(pick)
    for key in cards:
        bury(state, key)
    if cards:
        _plugin().say(ctx, "buried", who=ctx.who(frame.seat), count=len(cards))
    decks.resolve_card(ctx, frame.seat, kept)


@step("_henry_banish")
def _henry_banish(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """Seed 000: 5+ removes Hockstetter from the board; 0-4, 1 Mental damage."""
    plugin = _plugin()
    zombie = hockstetter(ctx.state)
    if int(frame.vars.get("roll", 0)) >= int(arg["target"]):
        if zombie is not None:
            zombie.alive = False
        plugin.say(ctx, "banished", data={"monster": zombie.id if zombie else None})
        return
    plugin.say(ctx, "banish_fails", who=ctx.who(frame.seat))
    ctx.push_child(frame, [{"damage": {"kind": "mental", "amount": 1}}])

