"""A turn that has nothing left to decide ends by itself, in every game that has such turns.

Seed 003 (Betrayal, line 219): 「玩家決定其回合完結後，若遊戲尚未結束，則輪至其左方的玩家
繼續遊戲」 [once the player is done with their turn, if the game is not over, the player
on their left plays]; line 223: 「玩家可只執行部份活動，或完全不作任何活動，因此玩家必須公告
其回合是否完結」 [a player may do only some of the activities, or none, so the player must
say whether the turn is over]: the announcement is there because the player might still
do something. Seed 001 (IT: Evil Below), step 5: "After all actions have been taken and
effects have been resolved for the turn, the turn ends and the active player passes the
dice to the player on their left to start a new turn." RULES.md, section 3: "a player
who rides a Bike on another's turn may put totems into the Fight Stack there"; and
docs/rulings.md (Evil Below 7, "Bikes"): "on any player's turn": while the active player
rolls or acts. So while anyone may still ride, or put a card in, the turn waits for
them. docs/rulings.md, Betrayal "Turns and movement" 12 and Evil Below 14, says the rest.

So when the seat whose turn it is may only end it, and no one may act out of turn, the
engine ends the turn as the "End turn" click would (the same events, the same dice),
and says so in one line. A turn with anything else left keeps its button. A game stored
while waiting on a lone "End turn" still takes the click.
"""

from __future__ import annotations

from bot import moves as recorded
from bot import table as T
from bot.core.actions import Action
from bot.core.events import Event
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.state import MONSTERS, BetrayalState
from bot.games.evilbelow.state import ACTIONS, ROLL, EvilBelowState
from tests.betrayal_haunt_rig import DARRIN, JENNY, place, rig_plugin, rigged, spawn
from tests.evil_below_helpers import (
    BARRENS,
    GAME,
    NEIBOLT,
    PHARMACY,
    SQUARE,
    STANDPIPE,
    act,
    actions_phase,
    arrange,
)
from tests.test_betrayal_engine_helpers import (
    MISSY,
    OX,
    apply,
    dice,
    hold,
    labels,
    new_game,
)

__all__ = ["dice", "rig_plugin"]  # the fixtures: scripted dice, the rigged haunt

NOTHING_LEFT = "nothing left to do"


# ---------------------------------------------------------------- Betrayal

def _ox_done_but_for(card: str, omen: bool = False) -> BetrayalState:
    """Ox's turn with its movement over, holding only `card` (dropping it is all he
    may still do, besides ending the turn)."""
    state = new_game()
    hold(state, OX, card)
    state.turn.movement_over = True
    if omen:  # drawn this turn: the haunt roll follows the turn's end
        state.turn.omen, state.turn.omen_room = card, "entrance_hall"
        state.omens_drawn += 1
    assert labels(state) == [f"Give the {_name(card)} to Missy Dubourde",
                             f"Give the {_name(card)} to Peter Akimoto",
                             f"Drop the {_name(card)}", "End turn"]
    return state


def _name(card: str) -> str:
    return {"rope": "Rope", "book": "Book"}[card]


def _dropped_by_hand(state: BetrayalState, card: str) -> BetrayalState:
    """The state the drop leaves, made by hand (but for what losing the card does to
    its holder's traits: the Book's Knowledge): a game stored waiting on a lone End
    turn, as the engine left it before turns ended by themselves."""
    state = BETRAYAL.copy_state(state)
    state.explorers[OX].cards.remove(card)
    state.at(OX).items.append(card)
    state.turn.dropped.append(card)
    assert labels(state) == ["End turn"]
    return state


def test_a_betrayal_turn_with_only_its_end_left_ends_by_itself() -> None:
    """Seed 003 line 219: once the player is done, play passes to the left. Ox, his
    movement over, drops his last card: nothing is left to decide, so his turn ends
    and Missy's begins, and the log says why."""
    state = _ox_done_but_for("rope")
    state, events = apply(state, "drop", card="rope")
    assert any(f"Ox Bellows has {NOTHING_LEFT}" in e for e in events), events
    assert "Ox Bellows ends the turn." in events
    assert state.turn.seat == MISSY and state.turn.number == 2 and state.pending is None


def test_the_turn_that_ends_by_itself_is_the_clicked_one() -> None:
    """The end comes exactly as the click would make it: the same state after it, the
    same lines, the one line more that says why."""
    state = _ox_done_but_for("rope")
    by_itself, events = BETRAYAL.apply(state, OX, Action("drop", {"card": "rope"}))
    clicked, click_events = BETRAYAL.apply(_dropped_by_hand(state, "rope"), OX,
                                           Action("end_turn"))
    assert BETRAYAL.dump(by_itself) == BETRAYAL.dump(clicked)
    said = [e.text for e in events]
    line = next(n for n, text in enumerate(said) if NOTHING_LEFT in text)
    assert said[line + 1:] == [e.text for e in click_events]


def test_the_haunt_roll_follows_a_turn_that_ended_by_itself() -> None:
    """Seed 003, Haunt: 「每當一名玩家翻開一張預兆牌後，在該玩家完結其回合後，必須試圖揭露
    真相」 [whoever turned up an omen makes the haunt roll after finishing their turn]: a
    turn that ends by itself is finished too, and the roll comes with the same dice the
    click would have rolled."""
    state = _ox_done_but_for("book", omen=True)
    by_itself, events = BETRAYAL.apply(state, OX, Action("drop", {"card": "book"}))
    clicked, click_events = BETRAYAL.apply(_dropped_by_hand(state, "book"), OX,
                                           Action("end_turn"))
    said = [e.text for e in events]
    assert any("the haunt roll" in text for text in said)
    line = next(n for n, text in enumerate(said) if NOTHING_LEFT in text)
    assert said[line + 1:] == [e.text for e in click_events]  # the dice fell alike
    assert by_itself.rng.state == clicked.rng.state
    assert by_itself.turn == clicked.turn and by_itself.omens_drawn == clicked.omens_drawn


def test_a_betrayal_turn_with_more_to_do_keeps_its_button() -> None:
    """Seed 003 line 223: the player may stop at any time, so "End turn" stays one
    button among others, and clicking it still ends the turn."""
    state = new_game()
    hold(state, OX, "rope")
    state, events = apply(state, "drop", card="rope")  # he may still walk on
    assert state.turn.seat == OX and not any(NOTHING_LEFT in e for e in events)
    assert "End turn" in labels(state) and len(labels(state)) > 1
    state, events = apply(state, "end_turn")
    assert state.turn.seat == MISSY and not any(NOTHING_LEFT in e for e in events)


def test_a_stored_betrayal_game_waiting_on_a_lone_end_turn_takes_the_click() -> None:
    """A game saved before this change, waiting on its lone "End turn": the click is
    still the option, and plays as it always did."""
    state = _dropped_by_hand(_ox_done_but_for("rope"), "rope")
    state, events = apply(state, "end_turn")
    assert state.turn.seat == MISSY and "Ox Bellows ends the turn." in events
    assert not any(NOTHING_LEFT in e for e in events)


def test_the_monsters_turn_with_nothing_to_do_ends_by_itself(dice: list[int]) -> None:
    """Seed 003 line 295: 「怪物monster的遊戲回合完結後，則輪回奸徒Traitor左方的英雄Hero繼續
    遊戲」 [after the monsters' turn, the hero on the traitor's left plays]. A stunned
    Brute only recovers in its turn (seed 003, Monsters): with no move and no attack
    left, the monsters' turn ends as the traitor's turn does, and the next round
    begins with Darrin."""
    state = rigged(JENNY)
    brute = spawn(state, "brute", "foyer")
    brute.stunned = True
    place(state, "foyer", DARRIN)
    dice.extend([2, 2, 2])
    assert state.haunt is not None
    round_was = state.haunt.round
    state, events = apply(state, "end_turn")
    said = [e for e in events]
    assert any("The Brute shakes off its stun" in e for e in said)
    assert any(f"The monsters have {NOTHING_LEFT}" in e for e in said), said
    assert any("The monsters are done for this round." in e for e in said)
    assert state.haunt is not None and state.haunt.round == round_was + 1
    assert state.turn.seat == DARRIN and state.haunt.stage != MONSTERS


# ---------------------------------------------------------------- IT: Evil Below

def last_die_left() -> EvilBelowState:
    """Bill's actions step with one die (the Pharmacy's) left, no one holding a Bike
    or a card: moving with it is all he may still do, besides ending the turn."""
    state = actions_phase(arrange(["bill", "bev", "ben"],
                                  {0: NEIBOLT, 1: BARRENS, 2: STANDPIPE}), {})
    for hero in state.heroes:
        hero.hand, hero.bike = [], False
    state.dice_used = [True] * 7
    state.dice_used[PHARMACY] = False
    assert GAME.out_of_turn(state) == []
    return state


def _moved_by_hand(state: EvilBelowState) -> EvilBelowState:
    """The state Bill's move to the Barrens leaves, made by hand: a game stored waiting
    on its lone End turn."""
    state = GAME.copy_state(state)
    state.dice_used[PHARMACY] = True
    state.heroes[0].location = BARRENS
    assert [o.action.kind for o in GAME.options(state, 0)] == ["end_turn"]
    return state


def _texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def test_an_evil_below_turn_with_only_its_end_left_ends_by_itself() -> None:
    """Seed 001, step 5: "After all actions have been taken and effects have been
    resolved for the turn, the turn ends and the active player passes the dice to the
    player on their left". Bill spends his last die: the dice pass to Bev."""
    state, events = act(last_die_left(), 0, "move", die=PHARMACY, to=BARRENS)
    said = _texts(events)
    assert any(f"Ann has {NOTHING_LEFT}" in e for e in said), said
    assert state.turn == 1 and state.phase == ROLL
    assert any(e.startswith("It's Bo's turn") for e in said[said.index(next(
        e for e in said if NOTHING_LEFT in e)):])


def test_the_evil_below_turn_that_ends_by_itself_is_the_clicked_one() -> None:
    """The same state and lines as the click on the lone "End turn", one line more."""
    state = last_die_left()
    by_itself, events = act(state, 0, "move", die=PHARMACY, to=BARRENS)
    clicked, click_events = act(_moved_by_hand(state), 0, "end_turn")
    assert GAME.dump(by_itself) == GAME.dump(clicked)
    said = _texts(events)
    line = next(n for n, text in enumerate(said) if NOTHING_LEFT in text)
    assert said[line + 1:] == _texts(click_events)


def test_a_bike_someone_may_still_ride_keeps_the_turn_waiting() -> None:
    """Seed 001, Bikes: a Bike may be ridden "on any player's turn" (RULES.md, docs/
    rulings.md Evil Below 7: while the active player acts). Bev holds one: Bill's turn
    waits on his "End turn" while she may still ride; once she has ridden (and may
    put no card in), nothing is left to anyone, and the turn ends by itself."""
    state = last_die_left()
    state.heroes[1].bike = True
    state, events = act(state, 0, "move", die=PHARMACY, to=BARRENS)
    assert state.turn == 0 and state.phase == ACTIONS
    assert not any(NOTHING_LEFT in e for e in _texts(events))
    assert [o.action.kind for o in GAME.options(state, 0)] == ["end_turn"]
    assert GAME.out_of_turn(state) == [1]
    state, events = act(state, 1, "ride", to=PHARMACY)
    assert any(f"Ann has {NOTHING_LEFT}" in e for e in _texts(events)), _texts(events)
    assert state.turn == 1 and state.phase == ROLL


def test_an_evil_below_turn_with_more_to_do_keeps_its_button() -> None:
    """A die still free (any die moves, seed 001): "End turn" is one button among
    others, and the turn waits for the player."""
    state = last_die_left()
    state.dice_used[SQUARE] = False
    state, events = act(state, 0, "move", die=PHARMACY, to=BARRENS)
    assert state.turn == 0 and not any(NOTHING_LEFT in e for e in _texts(events))
    assert len(GAME.options(state, 0)) > 1


def test_a_stored_evil_below_game_waiting_on_a_lone_end_turn_takes_the_click() -> None:
    state, events = act(_moved_by_hand(last_die_left()), 0, "end_turn")
    assert state.turn == 1 and not any(NOTHING_LEFT in e for e in _texts(events))


# ---------------------------------------------------------------- the table around it

HOST, BOB = T.Actor(1, "Hana"), T.Actor(2, "Bob")


def test_the_end_comes_with_the_move_it_followed() -> None:
    """/gm undo takes back a player's move, and a replay plays the moves recorded: the
    turn that ends by itself is part of the move before it, one recorded move (the
    click), which the engine plays again to the same table."""
    table, _ = T.new_table("evilbelow", 42, 7, HOST, 1234)
    table, _ = T.apply(table, BOB, Action(T.JOIN))
    table, _ = T.apply(table, HOST, Action(T.START))
    state = GAME.load(table.state)
    waiting = last_die_left()
    waiting.heroes, waiting.players, waiting.ai = waiting.heroes[:2], state.players, state.ai
    waiting.turn = 0
    table.state, table.moves = GAME.dump(waiting), []
    before = table.copy()
    actor = HOST if table.seats[0].user_id == HOST.user_id else BOB
    move = Action("move", {"die": PHARMACY, "to": BARRENS})
    after, events = T.apply(table, actor, move)
    assert any(NOTHING_LEFT in e.text for e in events)
    assert GAME.load(after.state).turn == 1
    assert after.moves == [recorded.action_move(0, move)]  # one move, one undo point
    again, _ = recorded.take(GAME, GAME.load(before.state), after.moves[0], lambda v: None)
    assert GAME.dump(again) == after.state
