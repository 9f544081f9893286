"""An AI's turn, read at a glance: the live message shows what it did, not only that its
turn ended by itself.

A delivery that starts a new turn keeps the first and newest of its headlines (bot/
live_message.py, `glance`). A turn that ends by itself (docs/rulings.md, Betrayal "Turns
and movement" 12 and Evil Below 14: "the engine ends the turn as the click would ... with
one line more that says why") said its "nothing left to do" as a headline, so that line
became the newest and pushed the seat's real last action (a card dropped, a move) off
the live message. The line is the game's log detail, as "ends the turn." already is:
/game log keeps it, the live message shows the deed.
"""

from __future__ import annotations

from bot.core.actions import Action, Option
from bot.core.events import Event
from bot.delivery import Post, Prompt
from bot.games.base import Game
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.evilbelow.state import ROLL
from bot.live_message import step
from bot.store import ACTIVE, Table
from tests.evil_below_helpers import BARRENS, NEIBOLT, PHARMACY, SQUARE, act
from tests.evil_below_helpers import GAME as EVIL_BELOW
from tests.test_betrayal_engine_helpers import MISSY, OX, hold, new_game
from tests.test_turn_ends_by_itself import last_die_left

NOTHING_LEFT = "nothing left to do"


def _live_text(game: Game, kind: str, events: list[Event]) -> str:
    """The live message one delivery of these events posts for the next turn (a human's
    "your move" below it), as bot/delivery.py sorts them into headlines and detail."""
    public = [e for e in events if e.audience.is_public]
    detail, whole = game.detail_kinds(), game.whole_kinds()
    post = Post(key="9.1", lines=[e.text for e in public],
                image=None, chapter="c", turn="next",
                seqs=list(range(1, len(public) + 1)),
                headlines=[e.kind not in detail for e in public],
                whole=[e.kind in whole for e in public],
                prompt=Prompt(1, 42, "Bo", [Option("Go", Action("go"))], 5))
    table = Table(channel_id=1, guild_id=2, kind=kind, host_id=42, seed=1, status=ACTIVE)
    return step(None, table, post, ping_user=42).text


def test_a_betrayal_turn_that_ends_by_itself_shows_its_last_deed() -> None:
    """Ox drops the Book, then the Rope, his movement over: nothing is left and his turn
    ends by itself. The live message shows both drops (the delivery's first and newest
    deeds); the "nothing left to do" line stays in the log."""
    state = new_game()
    hold(state, OX, "rope", "book")
    state.turn.movement_over = True
    state, first = BETRAYAL.apply(state, OX, Action("drop", {"card": "book"}))
    assert state.turn.seat == OX
    state, second = BETRAYAL.apply(state, OX, Action("drop", {"card": "rope"}))
    assert state.turn.seat == MISSY
    events = [*first, *second]
    assert any(NOTHING_LEFT in e.text for e in events)  # the log keeps it
    text = _live_text(BETRAYAL, "betrayal", events)
    assert "Rope" in text, text
    assert NOTHING_LEFT not in text, text


def test_an_evil_below_turn_that_ends_by_itself_shows_its_last_deed() -> None:
    """Seed 001, step 5: "After all actions have been taken ... the turn ends". Bill
    spends his last two dice on a walk to the Barrens and back: the live message shows
    both moves, not "nothing left to do" in place of the second."""
    state = last_die_left()
    state.dice_used[SQUARE] = False
    state, there = act(state, 0, "move", die=SQUARE, to=BARRENS)
    assert state.turn == 0
    state, back = act(state, 0, "move", die=PHARMACY, to=NEIBOLT)
    assert state.turn == 1 and state.phase == ROLL
    events = [*there, *back]
    assert any(NOTHING_LEFT in e.text for e in events)  # the log keeps it
    text = _live_text(EVIL_BELOW, "evilbelow", events)
    assert back[0].text in text, text
    assert NOTHING_LEFT not in text, text
