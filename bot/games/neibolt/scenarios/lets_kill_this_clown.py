"""Let's Kill This Clown (seed 000, scenario 5): a cooperative haunt. No traitor; the
bot plays Pennywise the Spider, and the heroes taunt him small, then crush him.

Seed 000's rules, as played here (data in data/neibolt/haunts/lets_kill_this_clown.yaml):
- Setup: the number track at {5/6/7/8}; the Monster Card aside (Pennywise takes a turn
  after EVERY player: `house_turn_after`); the ten Pennywise Encounter cards (the
  face-up row and the rest of the deck) shuffled into one deck; Pennywise on the
  revealer's tile; the red balloon to the player on the revealer's left (his target).
- His turn (the house's, haunting/house.py): stunned, he draws nothing and the large
  monster token comes off the deck (he recovers); else he draws the top encounter and
  does its `pennywise` line (data/neibolt/encounters.yaml, designed): move (3 dice, up
  to that many rooms toward the balloon; a 0 does not move him), attack (the balloon's
  holder, if in his room), attack_all (every hero in his room), deadlights (every hero
  with line of sight to him is stunned: their next turn is spent recovering), lurk,
  cower (DESIGNED, issue 21: he is stunned, as if a hero had stunned him; a lurking
  card ranked within the haunt's `cowers` value for the table size plays its `cower`
  line instead: small tables, whose crush has few heroes to help it, get more).
  RULING: when the deck runs out, the drawn ten are shuffled into a new deck.
- "If Pennywise attacks a stunned player, he rolls 8 dice." No Mystic Elevator (a
  monster never rides it).
- Taunt (line of sight; Knowledge or Sanity; +1 beside the balloon's holder): 4+ takes
  the balloon and moves the track down 1 (not below 1); 0-3 ends the turn.
- Crush (his room, him stunned): Might dice +1 per other hero there, minus the
  track; no item or omen can change it, an event's token in the room still does
  (`crush_dice`): 5+ the heroes win; 0-4 takes the balloon, track up 1.
- The balloon passes on death to the next living hero on the left.

progress: "track", "balloon" (the holder's seat), "token" (a large monster token lies
on the deck), "crushed".
"""

from __future__ import annotations

from typing import Any

from bot.games.betrayal.plugin_api import (
    MAX_DICE,
    AIHooks,
    BetrayalState,
    BoardHooks,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    HouseHooks,
    Monster,
    Offer,
    Reason,
    RollPassive,
    TurnHooks,
    combat,
    content,
    dice,
    explorer_name,
    hooks,
    monsters,
    register,
    sides,
    step,
    traits,
    turn,
)
from bot.games.neibolt import encounters
from bot.games.neibolt.rooms import same_tile

KEY = "lets_kill_this_clown"
KIND = "pennywise"
DEADLIT = "deadlit"  # explorer flag: stunned by the Deadlights
FRENZY = "frenzy"  # monster flag: this attack is on a stunned hero (8 dice)
FRENZY_DICE = 8
MOVE_DICE = 3
TRAITS = ("knowledge", "sanity")
CRUSH_ODDS = 0.5  # a crush before the track is down is made only at these odds or better


def line_for(key: str, cowers: int) -> dict[str, Any]:
    """What this card makes him do at this table: its `pennywise` line, or its `cower`
    line when the card's cower rank is within `cowers` (the haunt's value)."""
    line = encounters.pennywise_line(key)
    cower = line.get("cower")
    if isinstance(cower, dict) and int(cower.get("rank", 0)) <= cowers:
        return {"do": ["cower"], "text": str(cower.get("text", ""))}
    return line


def pennywise(state: BetrayalState) -> Monster | None:
    return sides.first_monster(state, KIND)


def holder(state: BetrayalState) -> int | None:
    if state.haunt is None:
        return None
    seat = state.haunt.progress.get("balloon")
    return int(seat) if seat is not None else None


def sees(state: BetrayalState, tile: int, side: str | None = None) -> set[int]:
    """The rooms in line of sight of this one (itself too), seen from `side` of it (a
    hero's half of the Winding Tunnels: seed 000's "line of sight does not continue
    through this tile" parts the halves, and each half still sees out of its own
    door; with no side, a split room sees out of neither)."""
    return {tile, *combat.line_of_sight(state, tile, side)}


def crush_dice(state: BetrayalState, seat: int) -> int:
    """The Crush's dice: Might, and the dice the room's tokens give or take. Seed 000
    bars "any items or omens" from the roll, no more; an event's token (the Blessing,
    the Drip, the Smoke) touches 「任何能力考驗」 [any trait roll] in its room (seed 003)."""
    roll = {"trait": "might", "purpose": "haunt"}
    here = state.explorers[seat].tile
    extra = sum(p.roll_dice(state, seat, roll, ref)
                for p, ref in hooks.of_tile(state, here, RollPassive))
    return max(1, min(MAX_DICE, traits.value(state, seat, "might") + extra))


def hero_sees(state: BetrayalState, seat: int) -> set[int]:
    """The rooms this hero has line of sight to, from where it stands."""
    explorer = state.explorers[seat]
    return sees(state, explorer.tile, explorer.side)


@register(KEY)
class LetsKillThisClown(HauntPlugin, TurnHooks, HouseHooks, CombatHooks, BoardHooks, AIHooks):
    cooperative = True

    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        assert state.haunt is not None
        deck = state.decks.setdefault(encounters.DECK, [])
        deck.extend(state.discards.get(encounters.DECK, []))
        state.discards[encounters.DECK] = []
        state.rng.shuffle(deck)
        self.say(ctx, "deck_ready")
        tile = state.explorers[state.haunt.revealer].tile
        monsters.spawn(ctx, KIND, tile, quiet=True)
        first = sides.heroes(state)[0]
        state.haunt.progress.update({"track": self.value(state, "track"), "balloon": first,
                                     "token": False, "crushed": False})
        self.say(ctx, "setup", room=ctx.room_name(tile), track=self.value(state, "track"),
                 who=ctx.who(first), data={"balloon": first})

    # ---------------------------------------------------------------- the house
    def house_turn_after(self, state: BetrayalState, seat: int) -> bool:
        return True  # seed 000: "Pennywise takes a turn after EVERY player"

    def house_turn(self, ctx: Ctx, frame: Frame) -> None:
        state = ctx.state
        assert state.haunt is not None
        found = pennywise(state)
        if found is None:
            return
        if found.stunned:
            found.stunned = False
            state.haunt.progress["token"] = False
            self.say(ctx, "recovers", data={"monster": found.id})
            return
        deck = state.decks.setdefault(encounters.DECK, [])
        if not deck:  # RULING: the drawn ten make a new deck
            deck.extend(state.discards.get(encounters.DECK, []))
            state.discards[encounters.DECK] = []
            state.rng.shuffle(deck)
            self.say(ctx, "reshuffled")
        if not deck:
            return
        key = deck.pop(0)
        state.discards.setdefault(encounters.DECK, []).append(key)
        line = line_for(key, self.value(state, "cowers"))
        self.say(ctx, "draws", card=content.card(key).name, text=str(line.get("text", "")),
                 data={"card": key, "do": list(line.get("do", []))})
        ctx.push_child(frame, [{"_pw_do": {"what": str(w)}} for w in line.get("do", [])])

    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        """Stunned (seed 003), and a large monster token goes on top of the deck."""
        assert ctx.state.haunt is not None
        if monster.kind == KIND and not monster.stunned:
            combat.stun(ctx, monster)
            ctx.state.haunt.progress["token"] = True
            self.say(ctx, "stunned")
        return True

    def monster_trait(self, state: BetrayalState, monster: Monster, trait: str,
                      base: int) -> int:
        return FRENZY_DICE if trait == "might" and monster.flags.get(FRENZY) else base

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        seat = holder(state)
        return {state.explorers[seat].tile} if seat is not None else set()

    def can_attack(self, state: BetrayalState, attacker: str, target: str) -> bool:
        """His own attacks come from the cards alone (`_pw_attack`)."""
        return not attacker.startswith("m")

    # ---------------------------------------------------------------- the heroes
    def skips_turn(self, ctx: Ctx, seat: int) -> bool:
        explorer = ctx.state.explorers[seat]
        if not explorer.flags.pop(DEADLIT, False):
            return False
        self.say(ctx, "spends_turn", who=ctx.who(seat), data={"seat": seat})
        return True

    def on_death(self, ctx: Ctx, seat: int) -> None:
        state = ctx.state
        state.explorers[seat].flags.pop(DEADLIT, None)
        if holder(state) != seat:
            return
        heir = sides.next_hero_left(state, seat)
        assert state.haunt is not None
        state.haunt.progress["balloon"] = heir
        if heir is not None:
            self.say(ctx, "balloon_passes", who=ctx.who(heir), data={"balloon": heir})

    def taunt_bonus(self, state: BetrayalState, seat: int) -> int:
        """+1 on the tile of the red balloon's holder (another hero): on the same half
        of the Winding Tunnels, two tiles in seed 000's words (`same_tile`)."""
        other = holder(state)
        return int(other is not None and other != seat and same_tile(state, seat, other))

    def crush_others(self, state: BetrayalState, seat: int) -> int:
        """The other heroes on the crusher's tile (its half of the Winding Tunnels)."""
        return sum(1 for h in sides.heroes(state) if h != seat and same_tile(state, seat, h))

    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        found = pennywise(state)
        if found is None:
            return []
        assert state.haunt is not None
        here = state.explorers[seat].tile
        done = state.turn.rolls
        offers: list[Offer] = []
        if found.tile in hero_sees(state, seat) and not any(r.startswith("taunt") for r in done):
            bonus = self.taunt_bonus(state, seat)
            offers += [self.offer(state, f"taunt-{t}", trait=content.trait_name(t),
                                  target=self.value(state, "taunt"),
                                  bonus=" +1" if bonus else "") for t in TRAITS]
        if found.tile == here and found.stunned:
            offers.append(self.offer(state, "crush", dice=crush_dice(state, seat),
                                     others=self.crush_others(state, seat),
                                     track=int(state.haunt.progress["track"]),
                                     target=self.value(state, "crush")))
        return offers

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        assert state.haunt is not None
        if offer.id.startswith("taunt"):
            trait = offer.id.split("-", 1)[1]
            bonus = self.taunt_bonus(state, seat)
            self.say(ctx, "taunt", who=ctx.who(seat), trait=content.trait_name(trait),
                     bonus=self.text("taunt_bonus") if bonus else "")
            ctx.push([{"roll": {"trait": trait, "purpose": "haunt", "then": [
                {"_pw_taunted": {"bonus": bonus}}]}}], seat, KEY)
            return
        # Crush: no item or omen touches it; the room's tokens do (crush_dice).
        rolled = dice.roll_betrayal(state.rng, crush_dice(state, seat))
        others = self.crush_others(state, seat)
        track = int(state.haunt.progress["track"])
        total = sum(rolled) + others - track
        self.say(ctx, "crush", kind="roll", who=ctx.who(seat),
                 dice=" ".join(map(str, rolled)), rolled=sum(rolled), others=others,
                 track=track, total=total, data={"dice": rolled, "total": total})
        if total >= self.value(state, "crush"):
            state.haunt.progress["crushed"] = True
            self.say(ctx, "crushed", who=ctx.who(seat))
            return
        state.haunt.progress["balloon"] = seat
        state.haunt.progress["track"] = track + 1
        self.say(ctx, "crush_miss", who=ctx.who(seat), track=track + 1,
                 data={"balloon": seat, "track": track + 1})

    # ---------------------------------------------------------------- winning, the board
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        assert state.haunt is not None
        if state.haunt.progress.get("crushed"):
            return sides.HERO, self.reason("reason_crushed")
        return None

    def board_note(self, state: BetrayalState) -> str:
        assert state.haunt is not None
        seat = holder(state)
        found = pennywise(state)
        name = explorer_name(state, seat) if seat is not None else "-"
        return self.text("note", holder=name, track=state.haunt.progress.get("track", 0),
                         stunned=self.text("note_stunned") if found and found.stunned else "")

    # ---------------------------------------------------------------- the AI
    def ready(self, state: BetrayalState) -> bool:
        """The heroes go for the crush once the track is down to 1."""
        assert state.haunt is not None
        return int(state.haunt.progress.get("track", 0)) <= 1

    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        found = pennywise(state)
        if found is None:
            return set()
        if self.ready(state):
            return {found.tile}
        # In sight of him to taunt, but out of his claws' reach: as far off as the
        # line of sight allows (two rooms or more when there are such).
        near = monsters.distances(state, {found.tile})
        seen = {t for t in range(len(state.tiles))
                if t != found.tile and found.tile in sees(state, t)}
        far = {t for t in seen if near.get(t, 99) >= 2}
        return far or seen or {found.tile}

    def cower_to_come(self, state: BetrayalState) -> bool:
        """Whether a card that makes him cower is still in the deck. The drawn cards lie
        face up until the deck is used up (then all ten come back), so every seat may
        count them: only the order is hidden."""
        deck = state.decks.get(encounters.DECK, []) or state.discards.get(encounters.DECK, [])
        cowers = self.value(state, "cowers")
        return any(line_for(k, cowers)["do"] == ["cower"] for k in deck)

    def ai_presses(self, state: BetrayalState, seat: int, target: int | str) -> bool:
        """Once the track is down: stun him, if this hero is strong or has help. Not
        while a card that makes him cower is still to come this deck: that stun costs
        nothing, where a lost fight against his 6 dice costs Might the crush needs."""
        return isinstance(target, str) and self.ready(state) and not self.cower_to_come(state) \
            and (traits.value(state, seat, "might") >= 4 or self.crush_others(state, seat) >= 1)

    def crush_odds(self, state: BetrayalState, seat: int) -> float:
        """The chance this hero's crush wins now: its dice, the other heroes on the tile
        and the track, all on the table."""
        assert state.haunt is not None
        need = self.value(state, "crush") + int(state.haunt.progress.get("track", 0)) \
            - self.crush_others(state, seat)
        return dice.odds(crush_dice(state, seat), need)

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """A crush that may win once the track is down, or earlier at CRUSH_ODDS: a miss
        moves the track up, undoing a taunt, so one that cannot win is never made."""
        crush = next((o for o in offers if o.id == "crush"), None)
        if crush is not None:
            odds = self.crush_odds(state, seat)
            if odds > 0 and (self.ready(state) or odds >= CRUSH_ODDS):
                return crush
        taunts = [o for o in offers if o.id.startswith("taunt")]
        if not taunts or self.ready(state):
            return None
        found = pennywise(state)
        if found is not None and found.tile == state.explorers[seat].tile \
                and not state.turn.movement_over and state.turn.moves == 0:
            return None  # step out of his room first, then taunt from there
        return max(taunts, key=lambda o: (traits.value(state, seat, o.id.split("-", 1)[1]),
                                          o.id))


# ---------------------------------------------------------------- his steps

def _plugin() -> LetsKillThisClown:
    found = LetsKillThisClown()
    return found


@step("_pw_taunted")
def _pw_taunted(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    assert state.haunt is not None
    plugin = _plugin()
    total = int(frame.vars.get("roll", 0)) + int(arg.get("bonus", 0))
    if arg.get("bonus"):
        plugin.say(ctx, "taunt_total", total=total)
    seat = frame.seat
    if total >= plugin.value(state, "taunt"):
        track = max(1, int(state.haunt.progress["track"]) - 1)
        state.haunt.progress.update({"balloon": seat, "track": track})
        plugin.say(ctx, "taunt_hit", who=ctx.who(seat), track=track,
                   data={"balloon": seat, "track": track})
        return
    plugin.say(ctx, "taunt_miss", who=ctx.who(seat))
    if state.turn.seat == seat and state.pending is None:
        turn.end_turn(ctx)


@step("_pw_do")
def _pw_do(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """One word of his card's line (data/neibolt/encounters.yaml `pennywise.do`)."""
    state = ctx.state
    assert state.haunt is not None
    plugin = _plugin()
    found = pennywise(state)
    if found is None or state.over:
        return
    what = str(arg["what"])
    if what == "move":
        rolled = dice.roll_betrayal(state.rng, MOVE_DICE)
        total = sum(rolled)
        if total <= 0:
            plugin.say(ctx, "no_move", kind="roll", dice=" ".join(map(str, rolled)))
            return
        found.moves = total
        found.skip = False
        state.haunt.rolled[KIND] = total
        plugin.say(ctx, "rolls_move", kind="roll", dice=" ".join(map(str, rolled)),
                   total=total, data={"dice": rolled, "moves": total})
        frame.steps.insert(0, {"_house_step": {"attack": False}})
    elif what in ("attack", "attack_all"):
        target = holder(state)
        seats = [s for s in sides.heroes(state) if state.explorers[s].tile == found.tile
                 and (what == "attack_all" or s == target)]
        if not seats:
            plugin.say(ctx, "no_target")
        for seat in reversed(seats):
            frame.steps.insert(0, {"_pw_attack": {"seat": seat}})
    elif what == "deadlights":
        plugin.say(ctx, "deadlights", room=ctx.room_name(found.tile))
        seen = [s for s in sides.heroes(state) if found.tile in hero_sees(state, s)]
        for seat in seen:
            state.explorers[seat].flags[DEADLIT] = True
            plugin.say(ctx, "deadlit", who=ctx.who(seat), data={"seat": seat})
        if not seen:
            plugin.say(ctx, "nobody_deadlit")
    elif what == "cower":
        combat.stun(ctx, found)
        state.haunt.progress["token"] = True
        plugin.say(ctx, "stunned")
    else:
        plugin.say(ctx, "lurks")


@step("_pw_attack")
def _pw_attack(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    found = pennywise(state)
    seat = int(arg["seat"])
    if found is None or not state.explorers[seat].alive \
            or state.explorers[seat].tile != found.tile:
        return
    stunned = bool(state.explorers[seat].flags.get(DEADLIT))
    found.flags[FRENZY] = stunned
    if stunned:
        _plugin().say(ctx, "frenzy", who=ctx.who(seat))
    frame.steps.insert(0, {"_pw_calm": {}})
    monsters.tell_moves(ctx)
    combat.monster_attack(ctx, found, seat)


@step("_pw_calm")
def _pw_calm(ctx: Ctx, frame: Frame, arg: Any) -> None:
    found = pennywise(ctx.state)
    if found is not None:
        found.flags.pop(FRENZY, None)
