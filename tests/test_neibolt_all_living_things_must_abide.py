"""All Living Things Must Abide (seed 000, scenario 3; the traitor's side designed):
the number track, It's forms and their secret weaknesses, the three actions (Discover
the Monster's Weakness, Search for Something to Kill It, Banish It's Form) with rigged
dice, the weakness stun, the next form, every way to win, AI games won by each side,
and the secrets (data/neibolt/haunts/all_living_things_must_abide.yaml,
bot/games/neibolt/scenarios/all_living_things_must_abide.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, rolls, shown, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, flow, sides
from bot.games.betrayal.haunting.ai import monster_action
from bot.games.betrayal.state import HEROES, BetrayalState, Frame, Monster
from bot.games.neibolt.scenarios import all_living_things_must_abide as al
from tests.betrayal_haunt_helpers import played, seed_for, started
from tests.betrayal_haunt_rig import fixed, set_trait, turn_of

__all__ = ["fixed"]  # a fixture, used by name

KEY = al.KEY
PLUGIN = al.PLUGIN


def start(players: int = 4, seed: int = 1) -> BetrayalState:
    return started(KEY, players, seed)[0]


def the_form(state: BetrayalState) -> Monster:
    found = al.form(state)
    assert found is not None
    return found


def hero_turn(state: BetrayalState) -> int:
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    state.explorers[seat].cards.clear()  # no card steps into the rigged rolls
    return seat


def faces(count: int, total: int) -> list[int]:
    """`count` dice showing `total` (0 to 2 a die)."""
    assert 0 <= total <= 2 * count
    found = []
    for _ in range(count):
        die = min(2, total - sum(found))
        found.append(max(0, die))
    return found


def tile_of(state: BetrayalState, rooms: frozenset[str]) -> int:
    return next(i for i, t in enumerate(state.tiles) if t.room in rooms)


def put(state: BetrayalState, seat: int, tile: int) -> None:
    state.explorers[seat].tile = tile
    state.explorers[seat].side = None


def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


def act(state: BetrayalState, seat: int, what: str) -> tuple[BetrayalState, list[str]]:
    new, events = GAME.apply(state, seat, Action("act", {"what": what}))
    return new, [e.text for e in events]


def pick(state: BetrayalState, index: int) -> tuple[BetrayalState, list[str]]:
    assert state.pending is not None
    new, events = GAME.apply(state, state.pending.seat, Action("choose", {"pick": index}))
    return new, [e.text for e in events]


def trait_dice(state: BetrayalState, seat: int, trait: str) -> int:
    return rolls.dice_for(state, Frame([], seat, KEY, "engine"),
                          {"trait": trait, "purpose": "haunt"})


def weakness(kind: str) -> str:
    return str(al.forms_data()[kind]["text"])


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize(("players", "track"), [(3, 2), (4, 3), (5, 4), (6, 5)])
def test_the_number_track_and_the_first_form(players: int, track: int) -> None:
    """Seed 000: "Set the number track to {2/3/4/5}." The first form (designed) appears
    in the traitor's room."""
    state = start(players)
    assert state.haunt is not None
    traitor = sides.traitor(state)
    assert traitor == state.haunt.revealer  # Traitor: HAUNT REVEALER
    notes = state.haunt.progress
    assert notes["left"] == track and notes["supply"] == 5
    form = the_form(state)
    assert form.tile == state.explorers[traitor].tile
    assert notes["taken"] == [form.kind] and PLUGIN.data.monsters[form.kind].large
    assert len(sides.monsters(state)) == 1


def test_eight_forms_each_with_a_weakness() -> None:
    """Seed 000's tokens: Stan's Head, Demon, Demon Dog, Georgie's Ghost, Zombie, Ghost
    Shark, Werewolf, Vampire; "Each monster has a weakness"."""
    names = [PLUGIN.data.monsters[k].name for k in al.forms_data()]
    assert names == ["Stan's Head", "Demon", "Demon Dog", "Georgie's Ghost", "Zombie",
                     "Ghost Shark", "Werewolf", "Vampire"]
    for spec in al.forms_data().values():
        assert spec["text"] and spec["short"] and spec["kind"]
    assert PLUGIN.data.designed and PLUGIN.last_round(start()) == 14


def test_the_weaknesses_go_to_the_traitor_alone() -> None:
    state, events = started(KEY)
    traitor = sides.traitor(state)
    assert traitor is not None
    secret = [e for e in events if e.kind == "secret"]
    assert [e.audience.encode() for e in secret] == [f"player:{traitor}"]
    for kind in al.forms_data():
        assert weakness(kind) in secret[0].text
        assert weakness(kind) in PLUGIN.private_notes(state, traitor)[0]
    for hero in sides.heroes(state):
        assert PLUGIN.private_notes(state, hero) == []


# ---------------------------------------------------------------- discover

def _in_clue_room(state: BetrayalState) -> int:
    seat = hero_turn(state)
    here = tile_of(state, al.CLUE_ROOMS)
    state.tiles[here].tokens.clear()  # no Smoke in the way of the rigged roll
    put(state, seat, here)
    return seat


def test_discover_the_weakness(fixed: list[int]) -> None:
    """Seed 000: "5+ Place a Searched token in the room if there are any left. The
    traitor reveals the weakness of the form they currently inhabit." """
    state = start()
    seat = _in_clue_room(state)
    here = state.explorers[seat].tile
    assert "discover" in offer_ids(state, seat)
    kind = the_form(state).kind
    fixed += [2] * trait_dice(state, seat, "knowledge")
    state, said = act(state, seat, "discover")
    assert state.haunt is not None
    assert state.haunt.progress["revealed"] == [kind]
    assert al.has_token(state, here) and state.haunt.progress["supply"] == 4
    assert any(weakness(kind) in t for t in said)
    assert "discover" not in offer_ids(state, seat)  # once a turn, and the room is searched
    short = str(al.forms_data()[kind]["short"])
    assert short in shown.map_view(state).footer  # revealed: public now


def test_a_failed_discovery(fixed: list[int]) -> None:
    """Seed 000: "0-4 Nothing useful. Keep looking!" """
    state = start()
    seat = _in_clue_room(state)
    fixed += [0] * trait_dice(state, seat, "knowledge")
    state, said = act(state, seat, "discover")
    assert state.haunt is not None and state.haunt.progress["revealed"] == []
    assert "Nothing useful. Keep looking!" in said
    assert not al.token_tiles(state)


def test_discover_needs_a_monster_and_an_unsearched_clue_room() -> None:
    """Seed 000: "You can only do this if there's a monster on the board." """
    state = start()
    seat = _in_clue_room(state)
    here = state.explorers[seat].tile
    al._add_token(state, here)
    assert "discover" not in offer_ids(state, seat)
    al._remove_token(state, here)
    the_form(state).alive = False
    assert "discover" not in offer_ids(state, seat)
    put(state, seat, tile_of(state, frozenset({"organ_room", "wine_cellar", "vault"})))
    assert PLUGIN.offers(state, seat) == []


# ---------------------------------------------------------------- search

def _at_the_start(state: BetrayalState) -> int:
    seat = hero_turn(state)
    here = state.tile_of("entrance_hall") or 0
    state.tiles[here].tokens.clear()
    put(state, seat, here)
    return seat


def test_search_for_something_to_kill_it(fixed: list[int]) -> None:
    """Seed 000: "Subtract the number on the number track from your result. 4+ Place a
    Searched token in the room. Then look at the top three cards of the Item or Omen
    deck. Take one of them and bury the rest." """
    state = start()
    seat = _at_the_start(state)
    assert state.haunt is not None
    state.haunt.progress["left"] = 1  # the track: a roll of 5+ will do
    here = state.explorers[seat].tile
    assert "search" in offer_ids(state, seat)
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    top = list(state.decks["item"][:3])
    fixed += [2] * trait_dice(state, seat, best)  # 2 a die: 6+ on 3+ dice
    state, said = act(state, seat, "search")
    assert state.pending is not None and state.pending.kind == "roll_trait"
    state, said = pick(state, 0)
    assert any(t.startswith("A Searched token goes in the Entrance Hall") for t in said)
    assert state.pending is not None and state.pending.kind == "alta_deck"
    state, _ = pick(state, 0)  # the Item deck
    assert state.pending is not None and state.pending.private
    chosen = state.script[-1].steps[0]["_alta_card"]["cards"][0]
    state, said = pick(state, 0)
    assert chosen in state.explorers[seat].cards
    rest = [k for k in top if k != chosen]
    assert state.decks["item"][-len(rest):] == rest  # buried: the bottom of the deck
    assert al.has_token(state, here) and "search" not in offer_ids(state, seat)


def test_a_failed_search_still_leaves_a_token(fixed: list[int]) -> None:
    """Seed 000: "0-3 Put a Searched token in the room. Nothing here, keep looking!" """
    state = start()
    seat = _at_the_start(state)
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    fixed += [0] * trait_dice(state, seat, best)
    state, _ = act(state, seat, "search")
    state, said = pick(state, 0)
    assert "Nothing here. Keep looking!" in said
    assert al.has_token(state, state.explorers[seat].tile) and state.pending is None


def test_the_search_is_offered_on_a_searched_room_too(fixed: list[int]) -> None:
    """Seed 000: "While on the triple room tile, make a Knowledge or Sanity roll." Unlike
    the scenario's other two actions, the search sets no condition on Searched tokens:
    with all three rooms of the triple room tile searched, it is still offered (once a
    turn), and another token goes in the room."""
    state = start()
    seat = _at_the_start(state)
    assert state.haunt is not None
    triple = sorted(al.search_tiles(state))
    assert {state.tiles[i].room for i in triple} == {"entrance_hall", "foyer",
                                                      "grand_staircase"}
    for tile in triple:
        al._add_token(state, tile)
    state.haunt.progress["supply"] = 2
    here = state.explorers[seat].tile
    assert "search" in offer_ids(state, seat)
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    fixed += [0] * trait_dice(state, seat, best)
    state, _ = act(state, seat, "search")
    state, said = pick(state, 0)
    assert "Nothing here. Keep looking!" in said
    assert state.haunt is not None and state.haunt.progress["supply"] == 1
    assert sum(t.get("kind") == al.SEARCHED for t in state.tiles[here].tokens) == 2
    assert "search" not in offer_ids(state, seat)  # once during your turn


def test_with_no_token_left_the_traitor_moves_one(fixed: list[int]) -> None:
    """Seed 000: "If there are no more Searched tokens, the traitor takes one from the
    board and puts it on your tile." """
    state = start()
    seat = _at_the_start(state)
    assert state.haunt is not None
    clue = tile_of(state, al.CLUE_ROOMS)
    foyer = state.tile_of("foyer")
    assert foyer is not None
    al._add_token(state, clue)
    al._add_token(state, foyer)
    state.haunt.progress["supply"] = 0
    best = max(("knowledge", "sanity"), key=lambda t: traits.value(state, seat, t))
    fixed += [0] * trait_dice(state, seat, best)
    state, _ = act(state, seat, "search")
    state, _ = pick(state, 0)
    assert state.pending is not None and state.pending.seat == sides.traitor(state)
    assert state.pending.labels[0] == "Foyer"  # the AI's pick: the triple room tile first
    state, said = pick(state, 1)
    assert not al.has_token(state, clue) and al.has_token(state, foyer)
    assert al.has_token(state, state.explorers[seat].tile)
    assert any(t.startswith("No Searched tokens are left: the traitor moves one") for t in said)


# ---------------------------------------------------------------- stunning

def _form_as(state: BetrayalState, kind: str, tile: int) -> Monster:
    form = the_form(state)
    form.kind, form.tile, form.stunned = kind, tile, False
    return form


def _stunned(state: BetrayalState, form: Monster, amount: int, seat: int,
             weapon: str = "") -> bool:
    ctx = Ctx(state)
    combat.hurt_monster(ctx, form, amount, str(seat), weapon)
    return form.stunned


def test_the_weakness_stuns_on_any_win() -> None:
    """Seed 000: "Each monster has a weakness, a specific circumstance that will result
    in it being stunned." Designed: any won fight stuns when it is met."""
    state = start()
    seat = hero_turn(state)
    here = state.explorers[seat].tile
    zombie = _form_as(state, "zombie", here)
    assert not _stunned(state, zombie, 1, seat)  # no weapon: shrugged off
    assert _stunned(state, zombie, 1, seat, "axe")
    shark = _form_as(state, "ghost_shark", here)
    assert _stunned(state, shark, 1, seat) == (state.tiles[here].floor == "upper")
    head = _form_as(state, "stans_head", here)
    away = next(i for i in range(len(state.tiles)) if i != here)
    others = [h for h in sides.heroes(state) if h != seat]
    for other in others:
        put(state, other, away)
    assert not _stunned(state, head, 1, seat)
    other = others[0]
    put(state, other, here)
    assert _stunned(state, head, 1, seat)
    vampire = _form_as(state, "vampire", here)
    state.explorers[seat].cards.append("candle")
    assert _stunned(state, vampire, 1, seat)
    assert zombie.alive  # never killed by a fight


def test_without_the_weakness_a_big_win_stuns() -> None:
    """Seed 000: "You do not need to know the monster's weakness ahead of time to stun
    it, but the task of stunning it will be easier if you do." Designed: a win by
    {overpower} or more stuns any form."""
    state = start()
    seat = hero_turn(state)
    zombie = _form_as(state, "zombie", state.explorers[seat].tile)
    assert not _stunned(state, zombie, 1, seat)
    assert _stunned(state, zombie, PLUGIN.value(state, "overpower"), seat)


def test_an_attack_that_meets_the_weakness_stuns(fixed: list[int]) -> None:
    state = start()
    seat = hero_turn(state)
    here = state.explorers[seat].tile
    zombie = _form_as(state, "zombie", here)
    state.explorers[seat].cards.append("axe")
    choice = next(c for c in combat.choices(state, seat)
                  if c.target == f"m{zombie.id}" and c.weapon == "axe")
    from bot.games.betrayal.cards.attacks import attack_dice

    ours = attack_dice(state, seat, "might", "axe")
    theirs = combat.monster_trait(state, zombie, "might") or 0
    fixed += [1] * ours + faces(theirs, ours - 1)  # won by 1
    state, events = GAME.apply(state, seat, Action("attack", choice.args()))
    said = [e.text for e in events]
    assert the_form(state).stunned, said
    assert any("struck home" in t for t in said)  # not revealed yet: no weakness named
    assert not any(weakness("zombie") in t for t in said)


# ---------------------------------------------------------------- banish

def _beside_stunned(state: BetrayalState) -> tuple[int, Monster]:
    seat = hero_turn(state)
    form = the_form(state)
    form.tile, form.stunned = state.explorers[seat].tile, True
    return seat, form


def test_banish_it_and_the_next_form_comes(fixed: list[int]) -> None:
    """Seed 000: "If you win the attack, remove the monster from the board and move the
    number track down one space." Designed: the next form appears in the traitor's
    room at the start of the next round."""
    state = start()
    seat, form = _beside_stunned(state)
    assert "banish" in offer_ids(state, seat)
    first = form.kind
    sanity = combat.monster_trait(state, form, "sanity") or 0
    fixed += [2] * traits.value(state, seat, "sanity") + [0] * sanity
    state, said = act(state, seat, "banish")
    assert state.haunt is not None and al.form(state) is None
    assert state.haunt.progress["left"] == 2 and state.haunt.progress["banished"] == [first]
    assert any("is banished" in t for t in said) and not state.over
    ctx = Ctx(state)
    PLUGIN.start_round(ctx)
    nxt = the_form(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    assert nxt.kind != first and nxt.tile == state.explorers[traitor].tile
    assert any(e.text.startswith("It takes a new form") for e in ctx.events)


def test_banish_needs_a_stunned_form() -> None:
    state = start()
    seat, form = _beside_stunned(state)
    form.stunned = False
    assert "banish" not in offer_ids(state, seat)


def test_a_failed_banishment_ends_the_turn_unhurt(fixed: list[int]) -> None:
    """Seed 000: "If you lose the attack, you do not take any damage. End your turn." """
    state = start()
    seat, form = _beside_stunned(state)
    before = dict(state.explorers[seat].traits)
    sanity = combat.monster_trait(state, form, "sanity") or 0
    fixed += [0] * traits.value(state, seat, "sanity") + [2] * sanity
    state, said = act(state, seat, "banish")
    assert state.haunt is not None and state.haunt.progress["left"] == 3
    assert the_form(state).alive
    assert state.explorers[seat].traits == before
    assert state.turn.seat != seat  # the turn is over
    assert any("takes no damage, but the turn is over" in t for t in said)


def test_the_heroes_win_at_zero(fixed: list[int]) -> None:
    """Seed 000: "If the number track reaches 0, the heroes win!" """
    state = start()
    seat, form = _beside_stunned(state)
    assert state.haunt is not None
    state.haunt.progress["left"] = 1
    sanity = combat.monster_trait(state, form, "sanity") or 0
    fixed += [2] * traits.value(state, seat, "sanity") + [0] * sanity
    state, _ = act(state, seat, "banish")
    assert state.over and state.haunt is not None
    assert (state.haunt.winner, state.haunt.reason) == ("heroes", PLUGIN.text("reason_killed"))


def test_the_traitor_wins_when_every_hero_is_dead_or_time_runs_out() -> None:
    state = start()
    for hero in sides.heroes(state):
        state.explorers[hero].alive = False
    ctx = Ctx(state)
    flow.settle(ctx)
    assert state.over and state.haunt is not None and state.haunt.winner == "traitor"
    state = start()
    assert state.haunt is not None
    state.haunt.round = PLUGIN.last_round(state) + 1  # type: ignore[operator]
    ctx = Ctx(state)
    assert flow.out_of_time(ctx)
    assert state.haunt.winner == "traitor"
    assert state.haunt.reason == PLUGIN.text("reason_rounds", rounds=14)


# ---------------------------------------------------------------- the AI

def test_ai_goals() -> None:
    state = start()
    seat = hero_turn(state)
    form = the_form(state)
    form.stunned = True
    assert PLUGIN.goals(state, seat) == {form.tile}
    form.stunned = False
    clues = al.clue_tiles(state)
    knows = traits.value(state, seat, "knowledge") >= traits.value(state, seat, "might")
    assert PLUGIN.goals(state, seat) == (clues if knows else {form.tile})
    assert state.haunt is not None
    state.haunt.progress["revealed"].append(form.kind)
    assert PLUGIN.goals(state, seat) == {form.tile}
    form.alive = False
    hopeful = al.could_find(state, seat, PLUGIN.value(state, "search"))
    assert PLUGIN.goals(state, seat) == (al.search_tiles(state) if hopeful else set())
    traitor = sides.traitor(state)
    assert traitor is not None and PLUGIN.goals(state, traitor) == set()


def test_ai_searches_the_triple_room_tile_while_it_could_find_something() -> None:
    """The search may now be made every turn on the triple room tile, searched or not:
    the AI makes it (and goes there with no form on the board) only while its dice,
    every one showing 2, could still beat 4 after the number track is subtracted."""
    state = start()
    seat = _at_the_start(state)
    assert state.haunt is not None
    for tile in al.search_tiles(state):
        al._add_token(state, tile)
    the_form(state).alive = False
    best = max(trait_dice(state, seat, t) for t in ("knowledge", "sanity"))
    state.haunt.progress["left"] = 2 * best - PLUGIN.value(state, "search")
    assert GAME.ai_action(state, seat) == Action("act", {"what": "search"})
    assert PLUGIN.goals(state, seat) == al.search_tiles(state)
    state.haunt.progress["left"] += 1  # now out of reach
    assert "search" in offer_ids(state, seat)
    assert GAME.ai_action(state, seat) != Action("act", {"what": "search"})
    assert PLUGIN.goals(state, seat) == set()


def test_the_form_never_attacks_into_its_known_weakness() -> None:
    """The traitor knows every weakness: its form does not attack a hero who would stun
    it with any win (the Demon and a hero holding an omen), and does attack one who
    would not."""
    state = start()
    seat = hero_turn(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    here = state.explorers[seat].tile
    for other in sides.heroes(state):
        if other != seat:
            put(state, other, next(i for i in range(len(state.tiles)) if i != here))
    demon = _form_as(state, "demon", here)
    demon.attacked, demon.skip, demon.moves = False, False, 0
    attack = Action("mattack", {"m": demon.id, "target": seat})
    state.explorers[seat].cards.append("crystal_ball")  # an omen
    assert monster_action(GAME.seat_view(state, traitor)) != attack
    state.explorers[seat].cards.clear()
    assert monster_action(GAME.seat_view(state, traitor)) == attack


def test_the_form_keeps_out_of_rooms_that_meet_its_weakness() -> None:
    """Georgie's Ghost is stunned by any loss in the basement: it walks to the heroes
    elsewhere, and with every hero down there it keeps out of the basement."""
    state = start()
    hero_turn(state)
    heroes = sides.heroes(state)
    basement = next(i for i, t in enumerate(state.tiles) if t.floor == "basement")
    ground = next(i for i, t in enumerate(state.tiles) if t.floor == "ground")
    for hero in heroes:
        put(state, hero, basement)
    put(state, heroes[0], ground)
    ghost = _form_as(state, "georgies_ghost", ground)
    assert PLUGIN.monster_goals(state, ghost) == {ground}
    put(state, heroes[0], basement)
    goals = PLUGIN.monster_goals(state, ghost)
    assert goals == {ground}  # it stays where it stands, out of the basement
    ghost.tile = basement
    goals = PLUGIN.monster_goals(state, ghost)
    assert goals and all(state.tiles[i].floor != "basement" for i in goals)


def _alone_with(state: BetrayalState, seat: int, kind: str) -> Monster:
    """The form as `kind` in this hero's room, the other heroes away."""
    here = state.explorers[seat].tile
    away = next(i for i in range(len(state.tiles)) if i != here)
    for other in sides.heroes(state):
        if other != seat:
            put(state, other, away)
    return _form_as(state, kind, here)


def _attacks_it(state: BetrayalState, seat: int, form: Monster) -> bool:
    action = GAME.ai_action(state, seat)
    return action.kind == "attack" and action.args.get("target") == f"m{form.id}"


def test_a_hero_sets_up_the_known_weakness_and_presses_the_fight() -> None:
    """Issue 21: the AI sets a known weakness up on purpose. The Demon is stunned by any
    loss to a hero holding an omen: once the table knows that, the omen's holder fights
    it with fewer dice than it has; not knowing it, the hero does not."""
    state = start()
    hero_turn(state)
    names = ("might", "sanity", "knowledge")

    def weak(seat: int) -> bool:  # a track that can show fewer dice than its 4 in each
        track = content.explorer(state.explorers[seat].key).traits
        return all(min(track[name].values) < 4 for name in names)

    seat = next(s for s in sides.heroes(state) if weak(s))  # not Ox's Might, say
    turn_of(state, seat)
    hero_turn(state)
    demon = _alone_with(state, seat, "demon")
    state.explorers[seat].cards.append("crystal_ball")  # an omen
    track = content.explorer(state.explorers[seat].key).traits
    for name in names:  # fewer dice than its 4
        set_trait(state, seat, name, max(v for v in track[name].values if v < 4))
    assert state.haunt is not None
    assert not _attacks_it(state, seat, demon)
    state.haunt.progress["revealed"].append("demon")
    assert _attacks_it(state, seat, demon)
    state.explorers[seat].cards.remove("crystal_ball")  # no omen: no weakness to meet
    assert not _attacks_it(state, seat, demon)


def test_heroes_lacking_what_a_known_weakness_needs_go_and_find_it() -> None:
    """The Zombie gives way only to a weapon: once that is known, a hero without one
    explores for one (no goal of its own) while an armed hero goes to the form; a
    weakness any hero can meet (Stan's Head: company) sends everyone to it."""
    state = start()
    seat = hero_turn(state)
    zombie = _alone_with(state, seat, "zombie")
    assert state.haunt is not None
    state.haunt.progress["revealed"].append("zombie")
    zombie.tile = next(i for i in range(len(state.tiles))
                       if i != state.explorers[seat].tile)
    assert PLUGIN.goals(state, seat) == set()
    state.explorers[seat].cards.append("axe")
    assert PLUGIN.goals(state, seat) == {zombie.tile}
    state.explorers[seat].cards.clear()
    head = _form_as(state, "stans_head", zombie.tile)
    state.haunt.progress["revealed"].append("stans_head")
    assert PLUGIN.goals(state, seat) == {head.tile}


@pytest.mark.parametrize("side", ["heroes", "traitor"])
def test_ai_games_are_won_by_each_side(side: str) -> None:
    seed = seed_for(KEY, side)
    state, _ = played(KEY, seed)
    assert state.over and state.haunt is not None and state.haunt.winner == side


# ---------------------------------------------------------------- secrets

def _public_texts(events: Any) -> list[Any]:
    over = next(i for i, e in enumerate(events) if e.kind == "game_over")
    return [e for e in events[:over] if e.audience.is_public]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_no_weakness_is_public_before_it_is_revealed(seed: int) -> None:
    """A weakness is told publicly only by its discovery, and never before."""
    _, events = played(KEY, seed)
    revealed: set[str] = set()
    for e in _public_texts(events):
        if e.data.get("form") and e.text.startswith("The clues give it away"):
            revealed.add(str(e.data["form"]))
        for kind in al.forms_data():
            if kind not in revealed:
                assert weakness(kind) not in e.text, e.text
    assert all(e.audience.encode() != "public" for e in events if e.kind == "secret")


def test_the_map_and_status_show_no_weakness_until_revealed() -> None:
    state = start()
    kind = the_form(state).kind
    texts = [shown.map_view(state).footer, shown.status_text(state)]
    for hero in sides.heroes(state):
        texts.append(flow.private_text(state, hero, ""))
    for text in texts:
        for spec in al.forms_data().values():
            assert spec["text"] not in text and spec["short"] not in text
    assert state.haunt is not None
    state.haunt.progress["revealed"].append(kind)
    assert str(al.forms_data()[kind]["short"]) in shown.status_text(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    assert weakness(kind) in flow.private_text(state, traitor, "")
