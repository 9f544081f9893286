"""What each seat may know, checked on the engines: a seat's view (the only thing its AI
is handed) must not tell apart two states that differ only in what the seat may not
know (bot/games/base.py, `Game.seat_view`)."""

from __future__ import annotations

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME
from bot.games.betrayal.knowledge import house_view
from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_traits import run_steps

LOOKER, OTHER = 1, 0


def _looking(state: BetrayalState) -> BetrayalState:
    """The looker's explorer at the Neibolt den: the top two omens, one to keep."""
    looked, _ = run_steps(state, [{"_nb_den": {"deck": "omen", "steps": []}}], seat=LOOKER)
    assert looked.pending is not None and looked.pending.private
    assert looked.pending.seat == LOOKER
    return looked


def test_a_private_look_at_a_decks_top_is_not_in_anothers_view() -> None:
    """bot/games/base.py, `seat_view`: "Two states that differ only in what this seat may
    not know give the same view"; bot/games/betrayal/knowledge.py: "A choice pending
    for another seat that only its chooser may read (a Crystal Ball's look) shows no
    labels in the view". Seed 000's den: the explorer looks at the top two cards of a
    deck, keeps one and buries the other, unseen by the others. Two games alike but for
    which omens lie on top give every other seat the same view while the choice waits:
    the paused step's own record of the two cards too."""
    state, _ = GAME.setup([PlayerInfo(f"P{i}", True) for i in range(3)], 7,
                          {"today": "06-01", "expansion": "neibolt"})
    other = GAME.copy_state(state)
    deck = other.decks["omen"]
    deck[:2], deck[2:4] = deck[2:4], deck[:2]
    mine, theirs = _looking(state), _looking(other)
    assert mine.pending is not None and theirs.pending is not None
    assert mine.pending.labels != theirs.pending.labels  # the looker sees two others
    assert GAME.dump(GAME.seat_view(mine, OTHER)) == GAME.dump(GAME.seat_view(theirs, OTHER))
    assert GAME.dump(house_view(mine)) == GAME.dump(house_view(theirs))  # the house's
    looker = GAME.seat_view(mine, LOOKER)
    assert looker.pending is not None and looker.pending.labels == mine.pending.labels
    assert looker.script == mine.script  # the chooser's own view keeps its step
