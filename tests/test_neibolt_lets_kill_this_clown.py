"""Let's Kill This Clown (seed 000, scenario 5): a cooperative haunt where the house
plays Pennywise the Spider (bot/games/neibolt/scenarios/lets_kill_this_clown.py).

The rig: the haunt begun on seed 1's Neibolt house (4 players, revealer Jenny, seat 2),
everyone emptied of cards and put in the three start rooms of the ground floor, which
lie in a line joined by doors: the Grand Staircase (W), the Foyer, the Entrance Hall.
"""

from __future__ import annotations

from bot.games.betrayal import GAME, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, sides
from bot.games.betrayal.house import cell_of
from bot.games.betrayal.state import BetrayalState, Monster, Turn
from bot.games.neibolt import encounters
from bot.games.neibolt.scenarios import lets_kill_this_clown as lk
from tests.betrayal_haunt_helpers import outcome, played, seed_for, started
from tests.betrayal_haunt_rig import fixed, tile
from tests.neibolt_rig import DARRIN, LONGFELLOW, MISSY, answered, rig_house
from tests.test_betrayal_engine_helpers import apply, choose, hold, put

__all__ = ["fixed"]  # a fixture, used by name

KEY = lk.KEY


def clown(state: BetrayalState) -> Monster:
    found = lk.pennywise(state)
    assert found is not None
    return found


def rig(seat: int = DARRIN, clown_at: str = "grand_staircase", **where: str) -> BetrayalState:
    """The haunt at the start of `seat`'s turn, Pennywise in `clown_at`, every hero in
    the Upper Landing unless `where` (seat name -> room) says otherwise. Darrin holds
    the red balloon, whoever the seeded game made the revealer (its left takes it)."""
    state = rig_house(KEY, lk.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    state.haunt.progress["balloon"] = DARRIN
    return state


def top(state: BetrayalState, key: str) -> None:
    deck = state.decks[encounters.DECK]
    deck.remove(key)
    deck.insert(0, key)


def end_turn(state: BetrayalState) -> tuple[BetrayalState, list[str]]:
    return answered(*apply(state, "end_turn"))


# ---------------------------------------------------------------- setup

def test_setup_follows_seed_000() -> None:
    """Seed 000: "Set the number track to {5/6/7/8}." "Shuffle the Pennywise Encounter
    cards to form a deck of 10 cards." "Place the Pennywise the Spider figure on the
    haunt revealer's tile." "The player to the left of the haunt revealer takes the red
    balloon token." "The player to the left of the haunt revealer will take the first
    turn after setup." """
    state, events = started(KEY)
    assert state.haunt is not None and state.haunt.traitor is None and not state.over
    assert state.haunt.progress["track"] == 6
    assert len(state.decks[encounters.DECK]) == 10 and state.discards[encounters.DECK] == []
    assert clown(state).tile == state.explorers[state.haunt.revealer].tile
    left = (state.haunt.revealer + 1) % 4
    assert state.haunt.progress["balloon"] == left and state.turn.seat == left
    assert set(GAME.teams(state)) == {sides.HERO} and len(GAME.teams(state)[sides.HERO]) == 4
    books = [e for e in events if e.kind == "book"]
    assert len(books) == 1 and books[0].audience.is_public  # the one book, to the channel
    assert not any("traitor" in e.text.lower() for e in events
                   if e.kind in ("haunt", "book", "game_over"))
    note = lk.LetsKillThisClown().board_note(state)
    assert "Red balloon" in note and "track 6" in note


# ---------------------------------------------------------------- the house's turn

def test_the_house_plays_after_every_turn_with_no_seat_for_it(fixed: list[int]) -> None:
    """Seed 000: "Pennywise Takes a Turn After Each Player's Turn." No seat plays him:
    his turn happens inside the apply that ended the hero's turn."""
    state = rig(DARRIN, "grand_staircase", darrin="entrance_hall")
    top(state, "hometown_horrors")  # lurk
    state, lines = end_turn(state)
    assert "— The house's turn —" in lines
    assert any("Pennywise draws **HOMETOWN HORRORS**" in t for t in lines)
    assert state.discards[encounters.DECK] == ["hometown_horrors"]
    assert GAME.to_act(state) == MISSY and state.turn.seat == MISSY
    state, lines = end_turn(state)  # after Missy too
    assert "— The house's turn —" in lines and GAME.to_act(state) == LONGFELLOW


def test_move_rolls_three_dice_toward_the_balloon(fixed: list[int]) -> None:
    """Seed 000: "If Pennywise needs to move, roll 3 dice. He can move up to that many
    spaces, and he always moves toward the hero with the red balloon token." """
    state = rig(DARRIN, "grand_staircase", darrin="entrance_hall")
    top(state, "a_stretching_hall")  # move
    fixed.extend([1, 0, 0])
    state, lines = end_turn(state)
    assert clown(state).tile == tile(state, "foyer")  # one room, toward Darrin
    assert any("rolls 1 0 0 = 1" in t for t in lines)


def test_a_zero_does_not_move_him(fixed: list[int]) -> None:
    """RULES.md section 2: scenario 5's Pennywise moves up to his 3-dice total (a 0 does
    not move him)."""
    state = rig(DARRIN, "grand_staircase", darrin="entrance_hall")
    top(state, "a_stretching_hall")
    fixed.extend([0, 0, 0])
    state, lines = end_turn(state)
    assert clown(state).tile == tile(state, "grand_staircase")
    assert any("he stays where he is" in t for t in lines)


def test_attack_strikes_the_balloon_holder_in_his_room(fixed: list[int]) -> None:
    """Seed 000: "Pennywise will move toward them and attack them when instructed to do
    so by a Pennywise Encounter card." """
    state = rig(DARRIN, "foyer", darrin="foyer", missy="foyer")
    top(state, "blood_tendrils")  # attack (the holder)
    fixed.extend([2, 2, 2, 2, 2, 2])  # Pennywise's 6 dice: 12
    state, lines = end_turn(state)
    assert any("attacks Darrin" in t for t in lines)
    assert not any("attacks Missy" in t for t in lines)


def test_stunning_him_puts_a_token_on_the_deck_and_he_draws_nothing(fixed: list[int]) -> None:
    """Seed 000: "If you stun Pennywise, put a large monster token facedown on top of
    the Pennywise Encounter deck." "If Pennywise is stunned, don't draw a card. Instead,
    remove the large monster token from the Pennywise Encounter deck." """
    state = rig(DARRIN, "foyer", darrin="foyer")
    fixed.extend([2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0])  # Darrin's Might dice, then his 6
    attack = next(o.action for o in GAME.options(state, DARRIN) if o.action.kind == "attack")
    state, lines = apply(state, "attack", **attack.args)
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert clown(state).stunned and state.haunt is not None and state.haunt.progress["token"]
    deck = list(state.decks[encounters.DECK])
    state, lines = end_turn(state)
    assert state.decks[encounters.DECK] == deck  # nothing drawn
    assert not clown(state).stunned and not state.haunt.progress["token"]
    assert any("no card is drawn" in t for t in lines)


def test_deadlights_stun_everyone_in_sight_who_then_spends_a_turn(fixed: list[int]) -> None:
    """Seed 000: "If Pennywise uses the Deadlights, each player with line of sight to
    Pennywise is stunned." "If you were stunned by the Deadlights, you spend your whole
    turn recovering... Pennywise still takes a turn after you." """
    state = rig(DARRIN, "grand_staircase", darrin="entrance_hall", missy="foyer")
    top(state, "time_to_sink")  # deadlights
    deck_next = state.decks[encounters.DECK][1]
    state, lines = end_turn(state)
    assert state.explorers[DARRIN].flags.get(lk.DEADLIT)
    assert any(t.startswith("Missy Dubourde sees the Deadlights") for t in lines)
    assert not state.explorers[LONGFELLOW].flags.get(lk.DEADLIT)  # upstairs: out of sight
    # Missy's turn is spent; Pennywise still plays after it; Longfellow is next.
    assert any("spends the whole turn recovering" in t for t in lines)
    assert deck_next in state.discards[encounters.DECK]
    assert GAME.to_act(state) == LONGFELLOW and not state.explorers[MISSY].flags.get(lk.DEADLIT)


def tunnels_beside_the_landing(state: BetrayalState) -> tuple[int, str, str]:
    """The Winding Tunnels (doors E W) laid beside the Basement Landing: its id, the
    half whose door opens on the landing, and the far half."""
    landing = state.tiles[tile(state, "basement_landing")]
    taken = {cell_of(t) for t in state.tiles}
    dx, near, far = next((dx, near, far) for dx, near, far in ((1, "W", "E"), (-1, "E", "W"))
                         if ("basement", landing.x + dx, landing.y) not in taken)
    return put(state, "winding_tunnels", "basement", landing.x + dx, landing.y), near, far


def test_each_half_of_the_winding_tunnels_sees_out_of_its_own_door(fixed: list[int]) -> None:
    """Seed 000, the Winding Tunnels: "The rooms do not have line of sight to each
    other, and line of sight does not continue through this tile." That parts the
    halves; it does not blind them: a hero on the half whose door faces Pennywise has
    line of sight to him (Taunt; the Deadlights: "each player with line of sight to
    Pennywise is stunned"), one on the far half has none."""
    state = rig(DARRIN, "basement_landing")
    middle, near, far = tunnels_beside_the_landing(state)
    for seat, half in ((DARRIN, near), (MISSY, far)):
        state.explorers[seat].tile, state.explorers[seat].side = middle, half
    assert any("Taunt Pennywise" in o.label for o in GAME.options(state, DARRIN))
    missy = GAME.copy_state(state)
    missy.turn = Turn(seat=MISSY, number=state.turn.number)
    assert not any("Taunt Pennywise" in o.label for o in GAME.options(missy, MISSY))
    top(state, "time_to_sink")  # deadlights
    state, lines = end_turn(state)
    assert any(t.startswith('Darrin "Flash" Williams sees the Deadlights') for t in lines)
    assert not state.explorers[MISSY].flags.get(lk.DEADLIT)


def test_he_rolls_8_dice_against_a_stunned_hero(fixed: list[int]) -> None:
    """Seed 000: "If Pennywise attacks a stunned player, he rolls 8 dice." """
    state = rig(MISSY, "foyer", darrin="foyer", missy="entrance_hall")
    state.explorers[DARRIN].flags[lk.DEADLIT] = True
    top(state, "blood_tendrils")
    state, lines = end_turn(state)
    attack = next(t for t in lines if "attacks Darrin" in t)
    assert len(attack.split(":")[1].split("=")[0].split()) == 8
    assert not clown(state).flags.get(lk.FRENZY)


def test_taunt_takes_the_balloon_and_lowers_the_track(fixed: list[int]) -> None:
    """Seed 000: "While in line of sight to Pennywise, make a Knowledge or Sanity roll.
    Add 1 to your roll if you're on the same tile as the player with the red balloon
    token. 4+ Take the red balloon token. Move the number track down one space, but not
    below 1." """
    state = rig(MISSY, "grand_staircase", darrin="entrance_hall", missy="entrance_hall")
    labels = [o.label for o in GAME.options(state, MISSY)]
    assert any("Taunt Pennywise with Knowledge" in t and "+1" in t for t in labels)
    fixed.extend([1, 1, 1, 0, 0, 0, 0, 0])  # 3, +1 beside Darrin = 4
    state, _ = apply(state, "act", what="taunt-knowledge")
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert state.haunt is not None
    assert state.haunt.progress["balloon"] == MISSY and state.haunt.progress["track"] == 5
    assert not any(o.action.args.get("what", "").startswith("taunt")
                   for o in GAME.options(state, MISSY))  # once a turn
    state.haunt.progress["track"] = 1
    state.turn = Turn(seat=MISSY, number=state.turn.number + 1)
    fixed.extend([2, 2, 2, 2, 2, 2, 2, 2])
    state, _ = apply(state, "act", what="taunt-sanity")
    while state.pending is not None:
        state, _ = choose(state, 0)
    assert state.haunt.progress["track"] == 1  # not below 1


def test_a_failed_taunt_ends_the_turn(fixed: list[int]) -> None:
    """Seed 000: "0-3 End your turn." Out of sight, there is no taunt at all."""
    state = rig(MISSY, "grand_staircase", missy="entrance_hall")
    fixed.extend([0, 0, 0, 0, 0, 0, 0, 0])
    state, _ = apply(state, "act", what="taunt-sanity")
    while state.pending is not None and state.pending.seat == MISSY \
            and state.turn.seat == MISSY:
        state, _ = choose(state, 0)
    assert state.turn.seat != MISSY
    far = rig(MISSY, "grand_staircase", missy="upper_landing")
    assert not any("Taunt" in o.label for o in GAME.options(far, MISSY))


def test_crush_needs_him_stunned_and_wins_on_5(fixed: list[int]) -> None:
    """Seed 000: "While on the same tile as Pennywise, make a Might roll. Add 1 to your
    roll for each other hero on the tile... Subtract the number on the number track from
    your result. You can only do this if Pennywise is stunned. 5+ The heroes win!" """
    state = rig(DARRIN, "foyer", darrin="foyer", missy="foyer")
    assert not any("Crush" in o.label for o in GAME.options(state, DARRIN))
    clown(state).stunned = True
    assert state.haunt is not None
    state.haunt.progress["track"] = 1
    hold(state, DARRIN, "axe")  # no item may change it: plain dice, one per Might
    might = traits.value(state, DARRIN, "might")
    fixed.extend([2] * might)
    state, lines = apply(state, "act", what="crush")
    assert any(f"+1 for the heroes beside, -1 for the track: {2 * might}" in t for t in lines)
    assert state.over and state.haunt.winner == sides.HERO
    assert any("The heroes win" in t for t in lines)


def test_a_failed_crush_takes_the_balloon_and_raises_the_track(fixed: list[int]) -> None:
    """Seed 000: "0-4 Take the red balloon token. Move the number track up one space." """
    state = rig(MISSY, "foyer", missy="foyer")
    clown(state).stunned = True
    fixed.extend([0] * 8)
    state, _ = apply(state, "act", what="crush")
    assert state.haunt is not None and not state.over
    assert state.haunt.progress["balloon"] == MISSY and state.haunt.progress["track"] == 7


def test_the_balloon_passes_left_on_death() -> None:
    """Seed 000: "If a hero dies while they have the red balloon token, pass the token
    to the next remaining player to the left." """
    state = rig(DARRIN, "foyer")
    state.explorers[MISSY].alive = False
    death.die(Ctx(state), DARRIN)
    assert state.haunt is not None and state.haunt.progress["balloon"] == LONGFELLOW


def test_the_deck_is_reshuffled_when_it_runs_out(fixed: list[int]) -> None:
    """RULING: when the deck runs out, the drawn ten are shuffled into a new deck."""
    state = rig(DARRIN, "grand_staircase", darrin="upper_landing")
    state.discards[encounters.DECK] = list(state.decks[encounters.DECK])
    state.decks[encounters.DECK] = []
    state, lines = end_turn(state)
    assert any("shuffled again" in t for t in lines)
    assert len(state.decks[encounters.DECK]) == 9 and len(state.discards[encounters.DECK]) == 1


def test_lurking_cards_make_him_cower_up_to_the_tables_rank() -> None:
    """DESIGNED (issue 21): a lurking card whose cower rank is within the haunt's
    `cowers` value plays its cower line; every other card keeps its own line."""
    assert lk.line_for("hometown_horrors", 1)["do"] == ["cower"]
    assert lk.line_for("floating_lights", 1)["do"] == ["lurk"]
    assert lk.line_for("knife_in_the_dark", 3)["do"] == ["cower"]
    assert lk.line_for("knife_in_the_dark", 0)["do"] == ["lurk"]
    assert lk.line_for("blood_tendrils", 3)["do"] == ["attack"]
    state = rig(DARRIN)
    assert lk.LetsKillThisClown().value(state, "cowers") == 1  # 4 players


def test_a_cowering_card_stuns_him_for_his_next_turn(fixed: list[int]) -> None:
    """He cowers: stunned as if a hero had stunned him (a large monster token goes on
    the deck), so the next hero in his room may crush him. At 4 players KNIFE IN THE
    DARK (rank 3) still only lurks."""
    state = rig(DARRIN, "grand_staircase", darrin="upper_landing")
    top(state, "hometown_horrors")
    state, lines = end_turn(state)
    assert state.haunt is not None
    assert clown(state).stunned and state.haunt.progress["token"]
    assert any("cowers, stunned" in t for t in lines)
    assert any("loses his next turn" in t for t in lines)
    calm = rig(DARRIN, "grand_staircase", darrin="upper_landing")
    top(calm, "knife_in_the_dark")
    calm, lines = end_turn(calm)
    assert not clown(calm).stunned and any("Pennywise waits" in t for t in lines)


def test_the_ai_leaves_him_be_while_a_cowering_card_is_to_come() -> None:
    """Track at 1, a hero with help in his room: it attacks him only once the
    card that makes him cower has been drawn this deck (the drawn cards lie face up)."""
    state = rig(DARRIN, "foyer", darrin="foyer", missy="foyer")
    assert state.haunt is not None
    state.haunt.progress["track"] = 1
    assert "hometown_horrors" in state.decks[encounters.DECK]
    assert GAME.ai_action(state, DARRIN).kind != "attack"
    state.decks[encounters.DECK].remove("hometown_horrors")
    state.discards[encounters.DECK].append("hometown_horrors")
    assert GAME.ai_action(state, DARRIN).kind == "attack"


# ---------------------------------------------------------------- whole games

def test_both_sides_win_seeded_ai_games() -> None:
    heroes = outcome(KEY, seed_for(KEY, sides.HERO))
    lost = seed_for(KEY, sides.EVIL)
    house = outcome(KEY, lost)
    assert heroes.over and house.over
    assert heroes.haunt is not None and heroes.haunt.progress.get("crushed")
    assert house.haunt is not None and house.haunt.winner == sides.EVIL
    said = [e.text for e in played(KEY, lost)[1] if e.kind in ("game_over", "book")]
    assert any(t.startswith("💀 The house wins") for t in said)
    assert not any("traitor" in t.lower() for t in said)
    assert GAME.status_text(house).lower().count("traitor") == 0
