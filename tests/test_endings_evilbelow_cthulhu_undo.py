"""IT: Evil Below and Cthulhu in the House played to their end through /gm undo: the story
the table reads at the end (bot/summary.py) tells the game that was played, not the moves
taken back."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.sessions import Sessions
from bot.store import ACTIVE, OVER, Store, open_store
from bot.summary import SUMMARY_KIND
from tests.test_sessions import HOST, MOD, RecordingOutlet

CHANNEL, GUILD, SEED = 7300, 73, 4


async def _summary(store: Store, kind: str, undo_after: set[int]) -> tuple[str, int]:
    """Hana and an AI seat, Hana's moves the AI's choice, to the game's own end; a
    moderator takes back Hana's last move after each of her moves counted in
    `undo_after` (she plays it again: the same state, the same choice). The final post's
    summary, and the number of turns the engine played."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    await sessions.open(CHANNEL, GUILD, HOST, kind, SEED)
    await sessions.act(CHANNEL, HOST, Action(T.ADD_AI))
    outcome = await sessions.act(CHANNEL, HOST, Action(T.START))
    for played in range(1, 1000):
        table = outcome.table
        if table.status != ACTIVE:
            break
        seat = T.to_act_seat(table)
        assert seat == 0
        action = T.game_of(table).ai_action(T.game_state(table), seat)
        outcome = await sessions.act(CHANNEL, HOST, T.for_seat(action, seat),
                                     version=table.version)
        if played in undo_after and outcome.table.status == ACTIVE:
            outcome = await sessions.undo(CHANNEL, MOD, 1)
    table = outcome.table
    assert table.status == OVER
    logged = await store.log(table.id or 0, limit=10**6, public_only=False)
    (summary,) = [e for e in logged if e.kind == SUMMARY_KIND]
    return summary.text, T.game_state(table).turns_played


@pytest.mark.parametrize("kind", ["cthulhu", "evilbelow"])
async def test_moves_taken_back_are_not_told_in_the_story(tmp_path: Path, kind: str) -> None:
    """README, /gm undo: "take back the last players' moves (and the AI moves after
    them)". The story at the end read the whole log, the moves taken back too: its
    heading counted their turns (a Cthulhu game of 84 turns told as one of 123, an Evil
    Below game "after 28 turns" headed "42 turns"), and its deeds counted their fights
    and rescues (each seat's, and "N victims rescued in all"). Every third move of Hana's
    undone and played again (the same state, the same choice) reaches the same end, and
    is told as the game played without the undos is."""
    straight = await open_store(tmp_path / "straight.db")
    undone = await open_store(tmp_path / "undone.db")
    try:
        told, turns = await _summary(straight, kind, set())
        told_again, turns_again = await _summary(undone, kind, set(range(2, 200, 3)))
    finally:
        await straight.close()
        await undone.close()
    assert turns_again == turns
    assert told_again == told
