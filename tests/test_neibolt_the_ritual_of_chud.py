"""The Ritual of Chüd (seed 000, scenario 4): a cooperative haunt where the house plays
Pennywise the Clown (bot/games/neibolt/scenarios/the_ritual_of_chud.py).

The rig: the haunt begun on seed 1's Neibolt house (4 players, revealer Jenny, seat 2),
everyone emptied of cards and put in the Upper Landing unless a test says otherwise;
the ground floor's three start rooms lie in a line joined by doors: the Grand
Staircase (W), the Foyer, the Entrance Hall. A room is "discovered" by running the
engine's own `_symbol` step for its tile (what exploring into it runs).
"""

from __future__ import annotations

import json

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content, effects, links, traits
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.haunting import combat, death, monsters, sides
from bot.games.betrayal.house import DIRS, cell_of, doors, step
from bot.games.betrayal.state import BetrayalState, Monster
from bot.games.neibolt.scenarios import the_ritual_of_chud as rc
from tests.betrayal_haunt_helpers import begin, outcome, played, seed_for, started
from tests.betrayal_haunt_rig import fixed, tile
from tests.neibolt_rig import DARRIN, JENNY, LONGFELLOW, MISSY, answered, rig_house
from tests.test_betrayal_engine_helpers import apply, deck_top, hold, put

__all__ = ["fixed"]  # a fixture, used by name

KEY = rc.KEY


def clown(state: BetrayalState) -> Monster:
    found = rc.pennywise(state)
    assert found is not None
    return found


def rig(seat: int = DARRIN, clown_at: str = "grand_staircase", card: int | None = None,
        **where: str) -> BetrayalState:
    """The rig, the Monster Card with `card` if given."""
    state = rig_house(KEY, rc.pennywise, seat, clown_at, where)
    assert state.haunt is not None
    if card is not None:
        state.haunt.progress["card"] = card
    return state


def play(state: BetrayalState, kind: str, **args: object) -> tuple[BetrayalState, list[str]]:
    return answered(*apply(state, kind, **args))


def discover(state: BetrayalState, seat: int, tile_id: int) -> tuple[BetrayalState, list[str]]:
    """What exploring into this room runs once it is placed: its symbol's draw."""
    state = GAME.copy_state(state)
    ctx = Ctx(state)
    state.explorers[seat].tile = tile_id
    ctx.push([{"_symbol": {"tile": tile_id}}], seat)
    effects.run(ctx)
    return state, [e.text for e in ctx.events]


def event_room(state: BetrayalState) -> int:
    """A placed room with an Event symbol that is no ritual room (whichever the seed's
    house holds)."""
    return next(i for i, t in enumerate(state.tiles)
                if content.room(t.room).symbol == "event" and t.room not in rc.ritual_rooms())


def altar_at(state: BetrayalState, room: str) -> int:
    where = tile(state, room)
    assert state.haunt is not None
    state.haunt.progress["altar"] = where
    state.tiles[where].tokens.append({"kind": rc.ALTAR, "card": "", "haunt": KEY})
    return where


# ---------------------------------------------------------------- setup

def test_setup_follows_seed_000() -> None:
    """Seed 000: "Take each player's hero token and set them aside." "Place the
    Pennywise the Clown figure on the haunt revealer's tile." "Give the Monster Card to
    the player to the left of the haunt revealer." "The player to the left of the haunt
    revealer will take the first turn after setup." """
    state, events = started(KEY)
    assert state.haunt is not None and state.haunt.traitor is None
    assert all(a["at"] == rc.ASIDE for a in rc.artifacts(state).values())
    assert len(rc.artifacts(state)) == 4
    assert clown(state).tile == state.explorers[state.haunt.revealer].tile
    left = (state.haunt.revealer + 1) % 4
    assert rc.holder(state) == left and state.turn.seat == left
    books = [e for e in events if e.kind == "book"]
    assert len(books) == 1 and books[0].audience.is_public
    assert not any("traitor" in e.text.lower() for e in events if e.kind in ("haunt", "book"))
    assert "Monster Card" in rc.TheRitualOfChud().board_note(state)


def test_one_ritual_room_goes_back_when_all_five_are_in_the_house() -> None:
    """Seed 000: "If the Old Well, Ancient Den, Ritual Room, Nursery, and Bloody Room
    have all been discovered, shuffle one of them into the tile stack." """
    base = GAME.copy_state(started(KEY)[0])
    base.haunt = None
    base.monsters = []
    for n, room in enumerate(sorted(rc.ritual_rooms())):
        put(base, room, "basement", 10 + 2 * n, 10)  # apart from the house, no doors needed
    state, events = begin(base, KEY, revealer=JENNY)
    placed = {t.room for t in state.tiles}
    assert len(rc.ritual_rooms() - placed) == 1
    assert (rc.ritual_rooms() - placed) <= set(state.stack)
    assert any("goes back into the room stack" in e.text for e in events)
    assert all(0 <= e.tile < len(state.tiles) for e in state.explorers)


def _five_ritual_rooms_with_a_leaf() -> tuple[BetrayalState, int]:
    """The seed's house with all five ritual rooms: the Bloody Room moved to a dead end
    beside a ground-floor door (its going cuts nothing off), the others apart, and
    something in every one of them (so none is empty). Returns the house and the tile
    the Bloody Room hangs from."""
    house = GAME.copy_state(started(KEY)[0])
    house.haunt, house.monsters = None, []
    bloody = tile(house, "bloody_room")
    taken = {cell_of(t) for t in house.tiles}

    def free(cell: tuple[str, int, int]) -> bool:
        return cell not in taken and all(step(cell, d) not in taken or step(cell, d) == here
                                         for d in DIRS)

    reached = links.reachable(house)
    for i, t in enumerate(house.tiles):
        if t.floor != "ground" or i == bloody or i not in reached:
            continue
        for d in doors(t):
            here = cell_of(t)
            cell = step(here, d)
            if free(cell):
                house.tiles[bloody].floor, house.tiles[bloody].x, house.tiles[bloody].y = cell
                break
        else:
            continue
        break
    for n, room in enumerate(sorted(rc.ritual_rooms() - {"bloody_room"})):
        put(house, room, "basement", 10 + 2 * n, 10)
    for t in house.tiles:
        if t.room in rc.ritual_rooms():
            t.items.append(house.decks["item"].pop(0))
    return house, i


def test_a_ritual_room_goes_back_even_with_something_in_it() -> None:
    """Seed 000: "shuffle one of them into the tile stack. Reorganize the house if
    needed. Choose the tile that disrupts the house the least." No ritual room is empty:
    the one whose going cuts nothing off goes, and what it held moves next door."""
    house, beside = _five_ritual_rooms_with_a_leaf()
    bloody = tile(house, "bloody_room")
    held = list(house.tiles[bloody].items)
    house.explorers[MISSY].tile = bloody
    state, events = begin(house, KEY, revealer=JENNY)
    assert state.tile_of("bloody_room") is None and "bloody_room" in state.stack
    assert any("everything in the Bloody Room moves to the" in e.text for e in events)
    room = house.tiles[beside].room
    assert state.explorers[MISSY].tile == tile(state, room)
    assert set(held) <= set(state.tiles[tile(state, room)].items)
    assert {t.room for t in state.tiles} >= rc.ritual_rooms() - {"bloody_room"}


def test_no_ritual_room_goes_back_if_each_would_cut_the_house_apart() -> None:
    house, _ = _five_ritual_rooms_with_a_leaf()
    house.tiles[tile(house, "bloody_room")].x += 40  # apart too: nothing hangs from it
    state, events = begin(house, KEY, revealer=JENNY)
    assert {t.room for t in state.tiles} >= rc.ritual_rooms()
    assert any("they all stay" in e.text for e in events)


# ---------------------------------------------------------------- the Monster Card, the house

def test_he_plays_after_the_holder_and_no_one_else(fixed: list[int]) -> None:
    """Seed 000: "Whoever has the Monster Card is the target of Pennywise. Pennywise
    takes a turn after that player." No seat plays him."""
    state = rig(MISSY, card=DARRIN, missy="entrance_hall", darrin="foyer")
    state, lines = play(state, "end_turn")
    assert "— The house's turn —" not in lines and GAME.to_act(state) == LONGFELLOW
    state = rig(DARRIN, card=DARRIN, darrin="entrance_hall")
    fixed.extend([1, 0, 0, 0])  # his Speed 4 dice: one room
    state, lines = play(state, "end_turn")
    assert "— The house's turn —" in lines and GAME.to_act(state) == MISSY
    assert clown(state).tile == tile(state, "foyer")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_he_hunts_from_his_first_turn(fixed: list[int], players: int) -> None:
    """Seed 000: "On Pennywise's turn, he moves toward his target, and attacks them if
    he reaches their tile." RULES.md section 2: "the bot plays Pennywise by the rules
    printed there", which give him no turns to wait (issue 21's designed wait in the
    shadows is gone, at every table size)."""
    begun, events = started(KEY, players=players)
    state = GAME.copy_state(begun)
    seat = rc.holder(state)
    assert seat is not None and state.turn.seat == seat  # the holder plays first, then he does
    state.explorers[seat].tile = clown(state).tile
    state.pending = None
    fixed.extend([0, 0, 0, 0] + [2] * 5)  # no move (0 = 1, he stays), then Might 5
    state, lines = play(state, "end_turn")
    assert "— The house's turn —" in lines
    assert any(f"attacks {explorer_name(state, seat)}" in t for t in lines)
    assert "shadows" not in rc.progress(begun)
    assert not any("shadows" in e.text for e in events if e.kind == "book")


def test_a_game_stored_while_he_waited_loads_and_he_acts_on_his_next_turn(
        fixed: list[int]) -> None:
    """A table stored in format 1, Pennywise with 2 turns still to wait in the shadows:
    the count is kept in the haunt's progress but nothing reads it (the board's note
    is as without it), and on his next turn he attacks his target in his room, as seed
    000 says."""
    state = rig(DARRIN, "foyer", card=DARRIN, darrin="foyer")
    raw = json.loads(json.dumps(GAME.dump(state)))
    raw["format"] = 1
    for explorer in raw["explorers"]:  # format 1 had no owed omens (`omens_owed`)
        del explorer["owed_omen"], explorer["owed_omen_room"]
    raw["haunt"]["progress"]["shadows"] = 2
    back = GAME.load(raw)
    assert rc.TheRitualOfChud().board_note(back) == rc.TheRitualOfChud().board_note(state)
    fixed.extend([0, 0, 0, 0] + [2] * 5)
    back, lines = play(back, "end_turn")
    assert any("attacks Darrin" in t for t in lines)


def test_taking_the_card_moves_his_turn_even_after_he_played(fixed: list[int]) -> None:
    """Seed 000: "If another hero takes the Monster Card... Pennywise now takes his turn
    after the new player, even if Pennywise has already taken a turn this round." An
    event room hands the card over."""
    state = rig(MISSY, card=DARRIN, missy="entrance_hall")
    state, lines = discover(state, MISSY, event_room(state))
    assert rc.holder(state) == MISSY
    state, lines = answered(state, lines)
    state.turn.movement_over = True
    state, lines = play(state, "end_turn")
    assert "— The house's turn —" in lines


def test_he_moves_by_his_speed_and_attacks_only_his_target(fixed: list[int]) -> None:
    """RULES.md section 2: he moves as a monster does (dice by Speed, at least 1) and
    attacks with Might. Seed 000: "he moves toward his target, and attacks them if he
    reaches their tile." """
    state = rig(DARRIN, "foyer", card=DARRIN, darrin="foyer", missy="foyer")
    fixed.extend([0, 0, 0, 0, 2, 2, 2, 2, 2])  # no move (0 = 1, he stays), then Might 5
    state, lines = play(state, "end_turn")
    assert any("attacks Darrin" in t for t in lines)
    assert not any("attacks Missy" in t for t in lines)


def test_the_card_passes_left_on_death_and_artifacts_lie_there() -> None:
    """Seed 000: "If a hero dies while they have the Monster Card, pass the card to the
    next remaining player to the left." The artifacts the dead carried lie where they
    fell; any hero may take them there."""
    state = rig(MISSY, card=DARRIN, darrin="foyer", missy="foyer")
    rc._set(state, DARRIN, rc.HELD, DARRIN)
    death.die(Ctx(state), DARRIN)
    assert rc.holder(state) == MISSY
    assert rc.artifacts(state)[str(DARRIN)] == {"at": rc.TILE, "where": tile(state, "foyer")}
    assert any(t.get("kind") == rc.ARTIFACT for t in state.tiles[tile(state, "foyer")].tokens)
    assert any("Take the artifacts" in o.label for o in GAME.options(state, MISSY))
    state, _ = play(state, "act", what="take")
    assert rc.carried(state, MISSY) == [DARRIN]
    assert not any(t.get("kind") == rc.ARTIFACT for t in state.tiles[tile(state, "foyer")].tokens)
    # Seed 000: "Artifacts cannot be traded to another player unless the hero they
    # belong to is dead."
    rc._set(state, MISSY, rc.HELD, MISSY)
    state.explorers[LONGFELLOW].tile = tile(state, "foyer")
    gives = [o.action.args["what"] for o in GAME.options(state, MISSY)
             if str(o.action.args.get("what", "")).startswith("give")]
    assert gives == [f"give-{DARRIN}-{LONGFELLOW}"]
    state, _ = play(state, "act", what=gives[0])
    assert rc.carried(state, LONGFELLOW) == [DARRIN] and rc.carried(state, MISSY) == [MISSY]


# ---------------------------------------------------------------- exploring

def test_an_event_room_gives_the_card_and_drops_the_highest_die(fixed: list[int]) -> None:
    """Seed 000: "When you discover a tile with an Event symbol... Take the Monster Card.
    ... If you need to make any rolls on the Event card, ignore the highest die of the
    roll." """
    state = rig(MISSY, card=DARRIN)
    deck_top(state, "event", "night_view")  # Knowledge 5+: gain 1
    fixed.extend([2] + [1] * 7)
    state, lines = discover(state, MISSY, event_room(state))
    fixed.clear()
    assert rc.holder(state) == MISSY
    assert any("highest die (2) does not count" in t for t in lines)
    roll = next(t for t in lines if "rolls Knowledge" in t)
    kept = roll.split(":")[1].split("=")[0].split()
    assert "2" not in kept and roll.endswith(f"= {len(kept)}.")
    state.turn.movement_over = True
    state, _ = play(state, "end_turn")
    assert rc.EVENT_FLAG not in state.explorers[MISSY].flags


def test_every_roll_on_the_event_drops_its_highest_die_and_no_roll_after(
        fixed: list[int]) -> None:
    """Seed 000: "If you need to make any rolls on the Event card, ignore the highest
    die of the roll." The defence against the card's attack is a roll on it too (Creepy
    Puppet: "a Might 4 attack"); a roll made after the card is resolved is not."""
    state = rig(MISSY, card=DARRIN)
    deck_top(state, "event", "creepy_puppet")
    might = traits.value(state, MISSY, "might")
    fixed.extend([0, 0, 0, 0] + [2] * might)  # the puppet's 4 dice, then Missy's Might
    state, lines = discover(state, MISSY, event_room(state))
    state, lines = answered(state, lines)
    assert any("highest die (2) does not count" in t for t in lines)
    assert any(t.startswith("Missy Dubourde rolls Might:") and t.endswith(f"= {2 * might - 2}.")
               for t in lines)
    assert rc.EVENT_FLAG not in state.explorers[MISSY].flags
    # Later the same turn, a roll on another event card (a Closet Door left in the house,
    # say) keeps every die.
    fixed.clear()
    fixed.extend([2, 2])
    ctx = Ctx(state)
    ctx.push([{"roll": {"dice": 2}}], MISSY, "closet_door", "event")
    effects.run(ctx)
    said = [e.text for e in ctx.events]
    assert not any("does not count" in t for t in said)
    assert any(t.endswith("= 4.") for t in said)


def test_an_item_or_omen_room_may_give_the_artifact_instead(fixed: list[int]) -> None:
    """Seed 000: "You may find your artifact instead. Skip drawing a card and take your
    hero token." "If another hero is dead and doesn't have their artifact, you may find
    their artifact instead." """
    state = rig(MISSY, card=DARRIN)
    items = len(state.decks["item"])
    first, second = [i for i, t in enumerate(state.tiles)  # whichever the seed's house holds
                     if content.room(t.room).symbol in ("item", "omen")
                     and t.room not in rc.ritual_rooms()][:2]
    state, _ = discover(state, MISSY, first)
    assert state.pending is not None and state.pending.labels[-1] == "Draw the card"
    assert state.pending.labels[0] == "Find Missy Dubourde's artifact"
    state, _ = apply(state, "choose", pick=0)
    assert rc.carried(state, MISSY) == [MISSY] and len(state.decks["item"]) == items
    state.explorers[LONGFELLOW].alive = False
    state, _ = discover(state, MISSY, second)
    assert state.pending is not None and "Professor Longfellow" in state.pending.labels[0]
    state, _ = apply(state, "choose", pick=len(state.pending.labels) - 1)  # the card
    assert rc.artifacts(state)[str(LONGFELLOW)]["at"] == rc.ASIDE


def test_a_ritual_room_gives_the_card_and_takes_the_altar_once() -> None:
    """Seed 000: "When you discover a room where you can complete the ritual... Take the
    Monster Card. ... Place the Altar token on your tile if it hasn't already been
    placed." """
    state = rig(MISSY, card=DARRIN)
    state.stack = [r for r in state.stack if r != "bloody_room"]
    first = put(state, "bloody_room", "upper", 20, 20)
    state, _ = discover(state, MISSY, first)
    state, _ = answered(state, [])
    assert rc.holder(state) == MISSY and rc.altar(state) == first
    assert any(t.get("kind") == rc.ALTAR for t in state.tiles[first].tokens)
    second = put(state, "old_well", "basement", 20, 20)
    state, _ = discover(state, LONGFELLOW, second)
    state, _ = answered(state, [])
    assert rc.holder(state) == LONGFELLOW and rc.altar(state) == first


# ---------------------------------------------------------------- facing him

def test_his_room_is_barred_until_a_sanity_roll_of_5(fixed: list[int]) -> None:
    """Seed 000: "On your turn, you cannot move onto Pennywise's tile or attack him
    unless you first succeed on a Sanity roll of 5+. If you fail, you cannot try again
    until your next turn. If you succeed, you can both enter Pennywise's tile and attack
    him." """
    state = rig(MISSY, "foyer", card=DARRIN, missy="entrance_hall")
    assert not any("Foyer" in o.label for o in GAME.options(state, MISSY)
                   if o.action.kind == "move")
    fixed.extend([0] * 8)
    state, _ = play(state, "act", what="face")
    assert not any(o.action.args.get("what") == "face" for o in GAME.options(state, MISSY))
    assert not any("Foyer" in o.label for o in GAME.options(state, MISSY)
                   if o.action.kind == "move")
    state = rig(MISSY, "foyer", card=DARRIN, missy="entrance_hall")
    fixed.clear()
    fixed.extend([2, 2, 2] + [0] * 5)
    state, _ = play(state, "act", what="face")
    assert state.turn.flags.get(rc.FACED)
    move = next(o.action for o in GAME.options(state, MISSY)
                if o.action.kind == "move" and "Foyer" in o.label)
    state, _ = play(state, move.kind, **move.args)
    assert any(o.action.kind == "attack" for o in GAME.options(state, MISSY))


def test_a_hero_with_the_revolver_may_face_him_from_afar(fixed: list[int]) -> None:
    """Seed 000: "you cannot move onto Pennywise's tile or attack him unless you first
    succeed on a Sanity roll of 5+." An attack from a distance (the Revolver, along a
    line of sight) is one too: the roll is offered wherever it would let the hero at
    him, and only there."""
    state = rig(DARRIN, "grand_staircase", card=MISSY, darrin="entrance_hall")
    assert not any(o.action.args.get("what") == "face" for o in GAME.options(state, DARRIN))
    hold(state, DARRIN, "revolver")  # the Foyer between them, in a line of doors
    assert any(o.action.args.get("what") == "face" for o in GAME.options(state, DARRIN))
    assert not any(o.action.kind == "attack" for o in GAME.options(state, DARRIN))
    fixed.extend([2] * traits.value(state, DARRIN, "sanity"))
    state, _ = play(state, "act", what="face")
    assert state.turn.flags.get(rc.FACED)
    assert any(o.action.kind == "attack" and "from afar" in o.label
               for o in GAME.options(state, DARRIN))
    unseen = rig(DARRIN, "grand_staircase", card=MISSY, darrin="dining_room")
    hold(unseen, DARRIN, "revolver")  # out of his sight: nothing to face
    assert not any(o.action.args.get("what") == "face" for o in GAME.options(unseen, DARRIN))


def test_damage_drives_him_away_and_never_stuns(fixed: list[int]) -> None:
    """Seed 000: "Pennywise cannot be stunned, but if you deal damage to him, move him
    that many spaces." RULES.md section 2: away from the attacker."""
    state = rig(LONGFELLOW, "foyer", card=DARRIN, longfellow="entrance_hall")
    state.turn.flags[rc.FACED] = True
    move = next(o.action for o in GAME.options(state, LONGFELLOW)
                if o.action.kind == "move" and "Foyer" in o.label)
    state, _ = play(state, move.kind, **move.args)
    attack = next(o.action for o in GAME.options(state, LONGFELLOW) if o.action.kind == "attack")
    might = traits.value(state, LONGFELLOW, "might")
    fixed.extend([2] * might + [0] * 5)  # he loses by 2*might
    state, lines = play(state, "attack", **attack.args)
    assert not clown(state).stunned
    steps = sum(1 for t in lines if t.startswith("Pennywise reels into"))
    away = monsters.distances(state, {tile(state, "foyer")})
    assert steps >= 1 and away[clown(state).tile] == steps  # each room farther off
    assert any("drives Pennywise back" in t for t in lines)


# ---------------------------------------------------------------- the ritual

def test_deposit_an_artifact(fixed: list[int]) -> None:
    """Seed 000: "While on the tile with the Altar token, make a Sanity roll. You may
    not do this if Pennywise is on your tile. 4+ Return your artifact to the box. 0-3
    Take the Monster Card and end your turn." """
    state = rig(MISSY, "grand_staircase", card=DARRIN, missy="entrance_hall")
    altar_at(state, "entrance_hall")
    rc._set(state, MISSY, rc.HELD, MISSY)
    fixed.extend([2, 2] + [0] * 6)
    state, _ = play(state, "act", what="deposit")
    assert rc.artifacts(state)[str(MISSY)]["at"] == rc.DONE
    state = rig(MISSY, "grand_staircase", card=DARRIN, missy="entrance_hall")
    altar_at(state, "entrance_hall")
    rc._set(state, MISSY, rc.HELD, MISSY)
    fixed.clear()
    fixed.extend([0] * 8)
    state, _ = play(state, "act", what="deposit")
    assert rc.holder(state) == MISSY and state.turn.seat != MISSY
    blocked = rig(MISSY, "entrance_hall", card=DARRIN, missy="entrance_hall")
    altar_at(blocked, "entrance_hall")
    rc._set(blocked, MISSY, rc.HELD, MISSY)
    assert not any("Deposit" in o.label for o in GAME.options(blocked, MISSY))


def test_complete_the_ritual_wins_or_hurts_the_starter(fixed: list[int]) -> None:
    """Seed 000: "after all artifacts have been deposited, take the Monster Card and roll
    ... Each remaining hero takes a die and rolls it. If the combined total is less than
    the number of dice rolled, the player that started takes Mental damage equal to the
    total number of dice rolled... equal to or higher... the heroes win!" """
    state = rig(MISSY, "grand_staircase", card=DARRIN, missy="entrance_hall")
    altar_at(state, "entrance_hall")
    for seat in range(4):
        rc._set(state, seat, rc.DONE)
    fixed.extend([0, 0, 1, 0])  # 1 < 4 dice
    state, lines = play(state, "act", what="ritual")
    assert rc.holder(state) == MISSY and not state.over
    assert any("takes 4 mental damage" in t for t in lines)
    state = rig(MISSY, "grand_staircase", card=DARRIN, missy="entrance_hall")
    altar_at(state, "entrance_hall")
    for seat in range(4):
        rc._set(state, seat, rc.DONE)
    fixed.clear()
    fixed.extend([1, 1, 1, 1])
    state, lines = play(state, "act", what="ritual")
    assert state.over and state.haunt is not None and state.haunt.winner == sides.HERO


# ---------------------------------------------------------------- whole games

def test_both_sides_win_seeded_ai_games() -> None:
    won = outcome(KEY, seed_for(KEY, sides.HERO))
    assert won.haunt is not None and won.haunt.progress.get("ritual")
    lost = seed_for(KEY, sides.EVIL)
    assert outcome(KEY, lost).over
    said = [e.text for e in played(KEY, lost)[1] if e.kind in ("game_over", "book")]
    assert any(t.startswith("💀 The house wins") for t in said)
    assert not any("traitor" in t.lower() for t in said)


def test_a_hero_who_is_a_match_for_him_faces_him_to_drive_him_off() -> None:
    """He hunts the Monster Card's holder: a hero at least as mighty as he is faces him
    (then may fight him, and each point of damage drives him a room away); a weaker one
    keeps out of a fight it would lose."""
    state = rig(seat=DARRIN, clown_at="foyer", card=JENNY, darrin="entrance_hall",
                jenny="grand_staircase")
    might = traits.track(state, DARRIN, "might").values
    state.explorers[DARRIN].traits["might"] = len(might) - 1
    assert might[-1] >= 5  # his Might
    face = Action("act", {"what": "face"})
    assert GAME.ai_action(state, DARRIN) == face
    state.explorers[DARRIN].traits["might"] = 0
    assert GAME.ai_action(state, DARRIN) != face


def test_a_hero_who_faced_him_from_the_next_room_steps_in_and_fights() -> None:
    """The face is made from the next room too: the hero then walks into his room and
    attacks (before, it walked off about its errand and the face was wasted); once the
    turn's attack is made, its errand again."""
    state = rig(seat=DARRIN, clown_at="foyer", card=JENNY, darrin="entrance_hall",
                jenny="grand_staircase")
    might = traits.track(state, DARRIN, "might").values
    state.explorers[DARRIN].traits["might"] = len(might) - 1
    state.turn.flags[rc.FACED] = True
    clown = rc.pennywise(state)
    assert clown is not None
    assert rc.TheRitualOfChud().goals(state, DARRIN) == {clown.tile}
    state, _ = GAME.apply(state, DARRIN, GAME.ai_action(state, DARRIN))
    assert state.explorers[DARRIN].tile == clown.tile
    assert GAME.ai_action(state, DARRIN).kind == "attack"
    state.turn.flags[combat.ATTACKED] = True
    assert rc.TheRitualOfChud().goals(state, DARRIN) != {clown.tile}
