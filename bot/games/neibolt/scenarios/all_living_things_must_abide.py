"""All Living Things Must Abide (seed 000, scenario 3): It takes form after form; the
heroes learn each form's weakness, stun it and banish it until It is dead for good.

Seed 000 prints the heroes' side (the number track, the forms, the clue rooms and
three actions); the traitor's side, the forms' traits and weaknesses, how a form is
stunned and how the next one comes are designed (data/neibolt/haunts/
all_living_things_must_abide.yaml, `note`).

Secrets: every form's weakness is told to the traitor alone (a `to_player` event at
setup, and `private_notes` for /secret). A weakness becomes public only when a hero
discovers it (then the table hears it and the map's footer shows it).

progress: "left" (the number track: It's remaining forms), "taken" (the forms It has
worn, in order), "revealed" and "banished" (form kinds), "supply" (Searched tokens
not yet on the board).
"""

from __future__ import annotations

from typing import Any

from bot.core.events import to_player
from bot.games.betrayal.plugin_api import (
    AIHooks,
    BetrayalState,
    BoardHooks,
    CombatHooks,
    Ctx,
    Frame,
    HauntPlugin,
    Monster,
    Offer,
    Reason,
    TurnHooks,
    attack_dice,
    combat,
    content,
    decks,
    dice,
    load_data,
    monsters,
    pause,
    register,
    resumer,
    rolls,
    sides,
    step,
    traits,
    turn,
    weapon_dice,
)
from bot.games.neibolt import names
from bot.games.neibolt.encounters import bury

KEY = "all_living_things_must_abide"
SEARCHED = "searched"
CLUE_ROOMS = names.rooms("Ritual Room", "Library", "Specimen Room", "Gallery", "Laboratory")
TRIPLE = names.rooms("triple room tile")
LOOK_DECKS: tuple[str, ...] = ("item", "omen")
LOOK_AT = 3  # seed 000: the top three cards
# The AI's worth, in dice, of a fight that meets the form's known weakness (any win
# stuns): pressed against a form up to this much stronger. Heroes' wins of 200 at 4
# players (seeds 0-199): 104 with 2, 103 with 1, 105 with 3, 106 with none: fighting
# into the weakness on purpose costs nothing and reads as a table would play.
MET_WORTH = 2


def forms_data() -> dict[str, dict[str, Any]]:
    """Form kind -> its weakness (`kind`, `value`, `text`, `short`), in data order."""
    return {str(k): dict(v) for k, v in (load_data(KEY).raw.get("forms") or {}).items()}


def progress(state: BetrayalState) -> dict[str, Any]:
    assert state.haunt is not None
    return state.haunt.progress


def form(state: BetrayalState) -> Monster | None:
    """The form It inhabits now (on the board), if any."""
    kinds = forms_data()
    return next((m for m in sides.monsters(state) if m.kind in kinds), None)


def form_name(kind: str) -> str:
    return load_data(KEY).monsters[kind].name


def has_token(state: BetrayalState, tile_id: int) -> bool:
    return any(t.get("kind") == SEARCHED and t.get("haunt") == KEY
               for t in state.tiles[tile_id].tokens)


def token_tiles(state: BetrayalState) -> list[int]:
    return [i for i in range(len(state.tiles)) if has_token(state, i)]


def _add_token(state: BetrayalState, tile_id: int) -> None:
    state.tiles[tile_id].tokens.append({"kind": SEARCHED, "card": "", "haunt": KEY})


def _remove_token(state: BetrayalState, tile_id: int) -> None:
    tokens = state.tiles[tile_id].tokens
    for i, t in enumerate(tokens):
        if t.get("kind") == SEARCHED and t.get("haunt") == KEY:
            del tokens[i]
            return


def clue_tiles(state: BetrayalState) -> set[int]:
    """The clue rooms in the house that have no Searched token."""
    return {i for i, t in enumerate(state.tiles)
            if t.room in CLUE_ROOMS and not has_token(state, i)}


def search_tiles(state: BetrayalState) -> set[int]:
    """The rooms of the triple room tile, searched or not: seed 000's search ("While on
    the triple room tile, make a Knowledge or Sanity roll") sets no condition on
    Searched tokens, where the scenario's other actions do."""
    return {i for i, t in enumerate(state.tiles) if t.room in TRIPLE}


def could_find(state: BetrayalState, seat: int, target: int) -> bool:
    """Whether this hero's search could reach `target` after the number track is
    subtracted, with the better of its Knowledge and Sanity dice all showing 2."""
    need = target + int(progress(state).get("left", 0))
    return any(rolls.could_pass(state, seat, (trait, need)) for trait in ("knowledge", "sanity"))


def weakness_met(state: BetrayalState, monster: Monster, seat: int, weapon: str) -> bool:
    """Whether the form's weakness holds as it loses a fight to this hero."""
    return weak_at(state, monster.kind, seat, monster.tile, weapon)


def weak_at(state: BetrayalState, form_kind: str, seat: int, tile_id: int,
            weapon: str) -> bool:
    """Whether this form's weakness would hold in a fight with this hero in that room
    (the traitor's AI asks it of rooms the form is not in yet)."""
    spec = forms_data().get(form_kind)
    if spec is None:
        return False
    kind, value = str(spec.get("kind")), spec.get("value")
    tile = state.tiles[tile_id]
    cards = state.explorers[seat].cards
    if kind == "company":
        return any(h != seat and state.explorers[h].tile == tile_id
                   for h in sides.heroes(state))
    if kind == "omen":
        return any(content.card(k).deck == "omen" for k in cards)
    if kind == "symbol":
        return content.room(tile.room).symbol == str(value)
    if kind == "floor":
        return tile.floor == str(value)
    if kind == "weapon":
        return bool(weapon)
    if kind == "cards":
        return any(k in cards for k in (value or []))
    return False


@register(KEY)
class AllLivingThingsMustAbide(HauntPlugin, TurnHooks, CombatHooks, BoardHooks, AIHooks):
    # ---------------------------------------------------------------- setup
    def setup(self, ctx: Ctx) -> None:
        state = ctx.state
        traitor = sides.traitor(state)
        assert traitor is not None
        progress(state).update({"left": self.value(state, "forms"), "taken": [],
                                "revealed": [], "banished": [],
                                "supply": self.value(state, "searched")})
        lines = "\n".join(self.text("secret_line", form=form_name(k), text=v["text"])
                          for k, v in forms_data().items())
        self.say(ctx, "secret_forms", kind="secret", audience=to_player(traitor), lines=lines)
        self._new_form(ctx, "first_form")

    def _new_form(self, ctx: Ctx, text: str) -> None:
        """It takes a form it has not worn yet, drawn at random, in the traitor's room
        (where the traitor fell, if dead)."""
        state = ctx.state
        notes = progress(state)
        traitor = sides.traitor(state)
        assert traitor is not None
        pool = [k for k in forms_data() if k not in notes["taken"]]
        if not pool or int(notes["left"]) <= 0:
            return
        kind = state.rng.choice(pool)
        notes["taken"].append(kind)
        home = state.explorers[traitor].tile
        monsters.spawn(ctx, kind, home, quiet=True)
        self.say(ctx, text, room=ctx.room_name(home), form=form_name(kind), left=notes["left"])

    def start_round(self, ctx: Ctx) -> None:
        """A form was banished: the next appears as the round begins."""
        if form(ctx.state) is None:
            self._new_form(ctx, "next_form")

    # ---------------------------------------------------------------- actions
    def offers(self, state: BetrayalState, seat: int) -> list[Offer]:
        if sides.is_traitor(state, seat):
            return []
        found = form(state)
        here = state.explorers[seat].tile
        room = state.tiles[here].room
        offers: list[Offer] = []
        if found is not None and found.stunned and found.tile == here:
            offers.append(self.offer(state, "banish", form=form_name(found.kind),
                                     dice=attack_dice(state, seat, "sanity", ""),
                                     strength=combat.monster_trait(state, found, "sanity")))
        if found is not None and room in CLUE_ROOMS and not has_token(state, here):
            offers.append(self.offer(state, "discover", target=self.value(state, "discover")))
        if here in search_tiles(state):
            offers.append(self.offer(state, "search", track=progress(state)["left"],
                                     target=self.value(state, "search")))
        return offers

    def act(self, ctx: Ctx, seat: int, offer: Offer) -> None:
        state = ctx.state
        here = state.explorers[seat].tile
        if offer.id == "discover":
            target = self.value(state, "discover")
            self.say(ctx, "discover", who=ctx.who(seat), room=ctx.room_name(here), target=target)
            ctx.push([{"roll": {"trait": "knowledge", "purpose": "haunt", "then": [
                {"_alta_discover": {"tile": here, "target": target}}]}}], seat, KEY)
            return
        if offer.id == "search":
            track = int(progress(state)["left"])
            target = self.value(state, "search")
            pair = sorted(("knowledge", "sanity"), key=lambda t: -traits.value(state, seat, t))
            self.say(ctx, "search", who=ctx.who(seat), room=ctx.room_name(here),
                     trait=self.text("search_traits"), track=track, target=target)
            ctx.push([{"roll": {"choose": pair, "purpose": "haunt", "then": [
                {"_alta_search": {"tile": here, "target": target, "track": track}}]}}],
                seat, KEY)
            return
        found = form(state)
        assert found is not None
        number = attack_dice(state, seat, "sanity", "")
        self.say(ctx, "banish", who=ctx.who(seat), form=form_name(found.kind), dice=number)
        ctx.push([{"roll": {"dice": number, "purpose": "attack", "then": [
            {"_alta_banish": {"monster": f"m{found.id}"}}]}}], seat, KEY)

    # ---------------------------------------------------------------- stunning
    def hurt_monster(self, ctx: Ctx, monster: Monster, amount: int, attacker: str,
                     weapon: str) -> bool:
        """A form is never killed by a fight; it is stunned when its weakness is met
        (any win) or when the hero wins by `overpower` or more."""
        state = ctx.state
        if monster.kind not in forms_data():
            return False
        name = form_name(monster.kind)
        met = attacker.isdigit() and weakness_met(state, monster, int(attacker), weapon)
        who = ctx.who(int(attacker)) if attacker.isdigit() else name
        if met:
            known = monster.kind in progress(state)["revealed"]
            if known:
                self.say(ctx, "weakness_hit", who=who, form=name)
            else:
                self.say(ctx, "struck_home")
        elif amount >= self.value(state, "overpower"):
            self.say(ctx, "overpowered", who=who, form=name)
        else:
            self.say(ctx, "shrugs", form=name)
            return True
        combat.stun(ctx, monster)
        return True

    # ---------------------------------------------------------------- winning
    def winner(self, state: BetrayalState) -> tuple[str, Reason] | None:
        if int(progress(state).get("left", 1)) <= 0:
            return sides.HERO, self.reason("reason_killed")
        return None

    # ---------------------------------------------------------------- what the table sees
    def board_note(self, state: BetrayalState) -> str:
        """The number track, the Searched tokens left, and the weakness of the form on
        the board once a hero has revealed it (never before)."""
        notes = progress(state)
        line = self.text("status", left=notes.get("left", 0), tokens=notes.get("supply", 0))
        found = form(state)
        if found is not None and found.kind in notes.get("revealed", []):
            line += " · " + self.text("status_form", form=form_name(found.kind),
                                      text=forms_data()[found.kind]["short"])
        return line

    def private_notes(self, state: BetrayalState, seat: int) -> list[str]:
        """The traitor alone knows every form's weakness."""
        if not sides.is_traitor(state, seat):
            return []
        notes = progress(state)
        lines = []
        for kind, spec in forms_data().items():
            key = ("banished_line" if kind in notes.get("banished", []) else
                   "revealed_line" if kind in notes.get("revealed", []) else "secret_line")
            lines.append(self.text(key, form=form_name(kind), text=spec["text"]))
        return [self.text("note_forms", lines="\n".join(lines))]

    # ---------------------------------------------------------------- the AI
    def goals(self, state: BetrayalState, seat: int) -> set[int]:
        """Heroes: a stunned form first (to banish it); while its weakness is unknown,
        those who know more than they hit go to a clue room; once it is known, those who
        lack the omen, weapon or card it needs explore for one; else to the form. With no
        form on the board, those whose search could find something go to the triple room
        tile (the others explore). The traitor hunts heroes."""
        if sides.is_traitor(state, seat):
            return set()
        found = form(state)
        if found is None:
            return search_tiles(state) if could_find(state, seat, self.value(
                state, "search")) else set()
        if found.stunned:
            return {found.tile}
        if found.kind in progress(state)["revealed"] and not self._could_meet(state, seat,
                                                                           found.kind):
            return set()  # explore: the omen, the weapon or the card it needs is out there
        clues = clue_tiles(state)
        if clues and found.kind not in progress(state)["revealed"] and \
                traits.value(state, seat, "knowledge") >= traits.value(state, seat, "might"):
            return clues
        return {found.tile}

    def ai_attack_worth(self, state: BetrayalState, seat: int, target: int | str,
                        weapon: str, edge: int) -> int:
        """Heroes set a known weakness up rather than hope for it: a fight that meets it
        (this hero, this room, this weapon) stuns the form on any win, so it is worth
        MET_WORTH dice more than another: the weapon attack before a bare one, the omen's
        holder before the others, and pressed against a stronger form."""
        found = sides.monster(state, target) if isinstance(target, str) else None
        if sides.is_traitor(state, seat) or found is None or found.stunned \
                or found.kind not in progress(state)["revealed"]:
            return edge
        return edge + (MET_WORTH if weak_at(state, found.kind, seat, found.tile, weapon)
                       else 0)

    def monster_attacks(self, state: BetrayalState, monster: Monster, seat: int) -> bool:
        """The traitor knows every weakness: the form does not attack a hero it would be
        stunned by on any loss (that hero's win hands the heroes a banishment)."""
        return monster.kind not in forms_data() or not weakness_met(state, monster, seat, "")

    def monster_goals(self, state: BetrayalState, monster: Monster) -> set[int]:
        """The form walks to heroes it can fight without its weakness (a room or a hero
        that would not meet it, armed heroes last for the form a weapon stuns); with
        none, it keeps to a room where its weakness cannot hold (its own if it is one):
        the traitor knows the weaknesses and does not walk It into one."""
        if monster.kind not in forms_data():
            return set()
        heroes = [h for h in sides.heroes(state) if state.explorers[h].alive]
        for armed_ok in (False, True):
            safe = {state.explorers[h].tile for h in heroes
                    if not weak_at(state, monster.kind, h, state.explorers[h].tile,
                                   "" if armed_ok else _weapon(state, h))}
            if safe:
                return safe
        if not self._room_weak(state, monster.kind, monster.tile):
            return {monster.tile}
        return {i for i in range(len(state.tiles))
                if not self._room_weak(state, monster.kind, i)}

    @staticmethod
    def _could_meet(state: BetrayalState, seat: int, form_kind: str) -> bool:
        """Whether this hero could meet the form's weakness somewhere: always, for a
        room's or company's; for an omen, a weapon or a card, only while holding one."""
        kind = str(forms_data().get(form_kind, {}).get("kind"))
        if kind not in ("omen", "weapon", "cards"):
            return True
        here = state.explorers[seat].tile
        return weak_at(state, form_kind, seat, here, _weapon(state, seat))

    @staticmethod
    def _room_weak(state: BetrayalState, form_kind: str, tile_id: int) -> bool:
        """Whether the room alone (its floor or symbol) meets this form's weakness."""
        spec = forms_data().get(form_kind, {})
        kind, value, tile = str(spec.get("kind")), str(spec.get("value")), state.tiles[tile_id]
        return (kind == "floor" and tile.floor == value) or (
            kind == "symbol" and content.room(tile.room).symbol == value)

    def ai_offer(self, state: BetrayalState, seat: int, offers: list[Offer]) -> Offer | None:
        """Banish whenever possible, then learn the weakness (not one already known),
        then search, unless even every die showing 2 would fall short once the number
        track is subtracted: the search may be made every turn on the triple room tile,
        and one that cannot find anything only moves Searched tokens around."""
        found = form(state)
        known = found is not None and found.kind in progress(state)["revealed"]
        for wanted in ("banish", "discover", "search"):
            if wanted == "discover" and known:
                continue
            if wanted == "search" and not could_find(state, seat, self.value(state, "search")):
                continue
            pick = next((o for o in offers if o.id == wanted), None)
            if pick is not None:
                return pick
        return None


PLUGIN = AllLivingThingsMustAbide()


def _weapon(state: BetrayalState, seat: int) -> str:
    """A weapon this hero holds (the first), or ""."""
    return next((k for k in state.explorers[seat].cards if content.card(k).weapon), "")


# ---------------------------------------------------------------- steps

@step("_alta_discover")
def _alta_discover(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """5+: a Searched token in the room (if any are left); the traitor reveals the
    weakness of the form on the board to all."""
    state = ctx.state
    found = form(state)
    if int(frame.vars.get("roll", 0)) < int(arg["target"]) or found is None:
        PLUGIN.say(ctx, "discover_fails")
        return
    notes = progress(state)
    tile = int(arg["tile"])
    if int(notes["supply"]) > 0:
        notes["supply"] = int(notes["supply"]) - 1
        _add_token(state, tile)
        PLUGIN.say(ctx, "token_placed", room=ctx.room_name(tile), left=notes["supply"])
    else:
        PLUGIN.say(ctx, "token_none", room=ctx.room_name(tile))
    if found.kind not in notes["revealed"]:
        notes["revealed"].append(found.kind)
    PLUGIN.say(ctx, "discovered", form=form_name(found.kind),
               text=forms_data()[found.kind]["text"], data={"form": found.kind})


@step("_alta_search")
def _alta_search(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The roll minus the number track: 4+ a look at three cards; either way a
    Searched token goes in the room."""
    total = int(frame.vars.get("roll", 0))
    track, target = int(arg["track"]), int(arg["target"])
    result = total - track
    PLUGIN.say(ctx, "search_roll", total=total, track=track, result=result)
    steps: list[dict[str, Any]] = [{"_alta_token": {"tile": int(arg["tile"])}}]
    if result >= target:
        PLUGIN.say(ctx, "search_found", who=ctx.who(frame.seat))
        steps.append({"_alta_look": {}})
    else:
        PLUGIN.say(ctx, "search_fails")
    ctx.push_child(frame, steps)


def _source_order(state: BetrayalState, tiles: list[int]) -> list[int]:
    """The traitor's first choice (the AI's) is a token of the triple room tile, then
    the rest, lowest tile first."""
    return sorted(tiles, key=lambda i: (state.tiles[i].room not in TRIPLE, i))


@step("_alta_token")
def _alta_token(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    state = ctx.state
    notes = progress(state)
    tile = int(arg["tile"])
    if int(notes["supply"]) > 0:
        notes["supply"] = int(notes["supply"]) - 1
        _add_token(state, tile)
        PLUGIN.say(ctx, "token_placed", room=ctx.room_name(tile), left=notes["supply"])
        return
    sources = _source_order(state, [i for i in token_tiles(state) if i != tile])
    traitor = sides.traitor(state)
    if not sources or traitor is None:
        PLUGIN.say(ctx, "token_none", room=ctx.room_name(tile))
        return
    if len(sources) == 1:  # one token on the board: the traitor has nothing to choose
        _move_token(ctx, sources[0], tile)
        return
    pause(ctx, frame, {"_alta_token_pick": {"tile": tile, "sources": sources}}, "alta_token",
          PLUGIN.text("token_pick", who=ctx.who(frame.seat)),
          [ctx.room_name(i) for i in sources], seat=traitor)


@resumer("alta_token")
def _alta_token_pick(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_alta_token_pick"]
    _move_token(ctx, int(spec["sources"][pick]), int(spec["tile"]))


def _move_token(ctx: Ctx, source: int, tile: int) -> None:
    _remove_token(ctx.state, source)
    _add_token(ctx.state, tile)
    PLUGIN.say(ctx, "token_moved", source=ctx.room_name(source), room=ctx.room_name(tile))


@step("_alta_look")
def _alta_look(ctx: Ctx, frame: Frame, arg: Any) -> None:
    found = [d for d in LOOK_DECKS if ctx.state.decks.get(d)]
    if not found:
        PLUGIN.say(ctx, "deck_empty", deck=PLUGIN.text("deck_name_both"))
        return
    if len(found) == 1:
        frame.steps.insert(0, {"_alta_cards": {"deck": found[0]}})
        return
    pause(ctx, frame, {"_alta_deck": {"decks": found}}, "alta_deck",
          PLUGIN.text("search_pick_deck"), [PLUGIN.text(f"deck_{d}") for d in found])


@resumer("alta_deck")
def _alta_deck(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_alta_deck"]
    frame.steps.insert(0, {"_alta_cards": {"deck": spec["decks"][pick]}})


def _card_order(cards: list[str]) -> list[str]:
    """Weapons first (the AI takes the first), then as they lay."""
    return sorted(cards, key=lambda k: -max(weapon_dice(k, "might"), 0))


@step("_alta_cards")
def _alta_cards(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    deck = str(arg["deck"])
    top = _card_order(ctx.state.decks[deck][:LOOK_AT])
    if not top:
        PLUGIN.say(ctx, "deck_empty", deck=PLUGIN.text(f"deck_name_{deck}"))
        return
    if len(top) == 1:  # the deck's last card: "take one of them" leaves no choice
        _take_card(ctx, frame, deck, top, 0)
        return
    pause(ctx, frame, {"_alta_card": {"deck": deck, "cards": top}}, "alta_card",
          PLUGIN.text("search_pick_card"), [content.card(k).name for k in top], private=True)


@resumer("alta_card")
def _alta_card(ctx: Ctx, frame: Frame, raw: dict[str, Any], pick: int) -> None:
    spec = frame.steps.pop(0)["_alta_card"]
    _take_card(ctx, frame, str(spec["deck"]), [str(k) for k in spec["cards"]], pick)


def _take_card(ctx: Ctx, frame: Frame, deck: str, cards: list[str], pick: int) -> None:
    """Take the chosen card; the rest go to the bottom of the deck (buried)."""
    state = ctx.state
    for key in cards:
        state.decks[deck].remove(key)
    chosen = cards[pick]
    rest = [k for k in cards if k != chosen]
    for key in rest:
        bury(state, key)
    PLUGIN.say(ctx, "search_buried" if rest else "search_took", who=ctx.who(frame.seat),
               count=len(rest), deck=PLUGIN.text(f"deck_name_{deck}"),
               card=content.card(chosen).name)
    decks.give_card(ctx, frame.seat, chosen)


@step("_alta_banish")
def _alta_banish(ctx: Ctx, frame: Frame, arg: dict[str, Any]) -> None:
    """The form defends with its Sanity. Won: it is removed and the track goes down
    one. Lost: no damage, and the hero's turn ends. A tie is neither (seed 003: on
    equal totals no one is hurt): nothing happens, and the turn goes on."""
    state = ctx.state
    monster = sides.monster(state, str(arg["monster"]))
    if monster is None:
        return
    name = form_name(monster.kind)
    rolled = dice.roll_betrayal(state.rng, max(1, combat.monster_trait(
        state, monster, "sanity") or 1))
    PLUGIN.say(ctx, "banish_rolls", kind="roll", form=name, dice=" ".join(map(str, rolled)),
               total=sum(rolled), data={"dice": rolled, "total": sum(rolled)})
    if int(frame.vars.get("roll", 0)) > sum(rolled):
        notes = progress(state)
        monster.alive = False
        notes["left"] = int(notes["left"]) - 1
        notes["banished"].append(monster.kind)
        PLUGIN.say(ctx, "banished", form=name, left=notes["left"],
                   data={"form": monster.kind, "left": notes["left"]})
        return
    if int(frame.vars.get("roll", 0)) == sum(rolled):
        PLUGIN.say(ctx, "banish_tie", form=name, who=ctx.who(frame.seat))
        return
    PLUGIN.say(ctx, "banish_fails", form=name, who=ctx.who(frame.seat))
    if state.turn.seat == frame.seat:
        turn.end_turn(ctx)
