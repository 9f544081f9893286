"""A second pair of eyes on the session's change: /gm undo's line names the move it takes
back in the words the table read, not in English on a Chinese server.

README.md, Languages: "A server's public posts follow the server's language"; `/gm undo`:
"the channel is told who undid what". The move's summary was kept in English (the
engine's own words, `Event.text`) and quoted as it was inside the Chinese line.
"""

from __future__ import annotations

from bot import table as T
from bot.core.actions import Action
from bot.guild_settings import GuildSettings
from bot.locales import CHINESE, ENGLISH
from bot.sessions import Sessions
from bot.store import SqliteStore
from tests.test_sessions import CHANNEL, GUILD, RecordingOutlet

ANN, BO = T.Actor(1, "ann", language=CHINESE), T.Actor(2, "bo", language=CHINESE)
MOD = T.Actor(3, "mod", moderator=True, language=CHINESE)


async def _moved_and_undone(store: SqliteStore, language: str) -> tuple[str, str]:
    """One player's move in a two-player Cthulhu game, then one undo: the move's public
    line in the server's language, and the undo's line."""
    await store.set_guild_settings(GUILD, GuildSettings(language=language).to_dict())
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    await sessions.open(CHANNEL, GUILD, ANN, "cthulhu", 3)
    await sessions.act(CHANNEL, BO, Action(T.JOIN))
    await sessions.act(CHANNEL, ANN, Action(T.START))
    table = await store.load(CHANNEL)
    assert table is not None
    prompt = sessions.prompt(table)
    assert prompt is not None
    mover = ANN if prompt.user_id == ANN.user_id else BO
    outlet.clear()
    outcome = await sessions.act(CHANNEL, mover, prompt.options[0].action,
                                 version=table.version)
    moved = next(e for e in outcome.events if e.audience.is_public).text_in(language)
    outlet.clear()
    await sessions.undo(CHANNEL, MOD, 1)
    [undone] = [line for line in outlet.lines if "mod" in line]
    return moved, undone


async def test_an_undo_on_a_chinese_server_names_the_move_in_chinese(
        store: SqliteStore) -> None:
    moved, undone = await _moved_and_undone(store, CHINESE)
    assert undone.endswith(moved), undone


async def test_an_undo_on_an_english_server_names_the_move_in_english(
        store: SqliteStore) -> None:
    moved, undone = await _moved_and_undone(store, ENGLISH)
    assert undone.endswith(moved), undone
