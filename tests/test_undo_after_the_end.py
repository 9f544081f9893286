"""/gm undo where no game runs says which: a lobby "hasn't started yet", but a game that
is over read the same line, as if it had never begun. A finished game's moves stand
(docs/architecture.md: a finished game is out of /gm undo's reach), and the refusal
now says the game is over."""

from __future__ import annotations

import json
from pathlib import Path

from bot import table as T
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.store import OVER
from bot.texts import say
from tests.golden_states import CHANNEL, GOLDEN, MODERATOR, restarted_with, sessions_on


async def test_undo_after_the_end_says_the_game_is_over(tmp_path: Path) -> None:
    golden = json.loads((GOLDEN / "0.1.0" / "cthulhu-midgame.json").read_text(encoding="utf-8"))
    store = await restarted_with(tmp_path / "ended.sqlite3", golden)
    try:
        sessions = sessions_on(store)
        ended = (await sessions.act(CHANNEL, MODERATOR, Action(T.END))).table
        assert ended.status == OVER
        try:
            await sessions.undo(CHANNEL, MODERATOR, 1)
        except IllegalAction as refused:
            assert refused.message == say("errors.game_over")
            assert refused.message != say("errors.not_started")
        else:
            raise AssertionError("an ended game was taken back")
    finally:
        await store.close()


def test_a_moderators_tool_on_an_ended_table_says_it_is_over() -> None:
    table, _ = T.new_table("cthulhu", 1, 2, T.Actor(3, "ann"), 7)
    assert T.not_running(table) == say("errors.not_started")
    table.status = OVER
    assert T.not_running(table) == say("errors.game_over")
