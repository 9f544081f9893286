"""The real bot process (tests/test_process_playthrough.py's checker) on the two settings
an operator and a server pick: its store on PostgreSQL (HAUNTKEEPER_DB=postgresql://...,
the test's own server, tests/pg_server.py), killed with -9 mid-game and started again;
and a server whose preferred locale is zh-TW with players whose Discord app is in zh-TW
("Public posts use the server's language; ephemeral answers and DMs use the user's own
locale", issue 25), where every line a player reads is Chinese and legible.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.betrayal import GAME as BETRAYAL
from bot.store import PostgresStore
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.pg_server import PgServer
from tests.test_e2e_crash import BotProcess
from tests.test_e2e_crash import bot as bot  # the fixture: the process, its log checked
from tests.test_process_playthrough import (
    PLACEHOLDER,
    Game,
    bot_messages,
    check_history,
    check_private_reads,
    end_by_moderator,
    open_game,
    play,
    report,
    slash_privately,
)
from tests.test_process_playthrough_zh import read_words

HAUNT_BY = 120  # presses: seed 4's house turns to its haunt well before this
IN_THE_HAUNT = 12  # presses played into the haunt, the crash among them
CHUNK = 4  # presses between looks at the store for the haunt


@pytest.fixture
async def pg_bot(fd: FakeDiscord, pg_server: PgServer, tmp_path: Path
                 ) -> AsyncIterator[BotProcess]:
    """`python -m bot` with HAUNTKEEPER_DB on a fresh PostgreSQL database; its log
    checked for errors at the end."""
    await pg_server.reset()
    process = BotProcess(fd, tmp_path, db=pg_server.url)
    try:
        yield process
    finally:
        await process.stop()
    assert process.errors() == []


@pytest.fixture
async def look(pg_server: PgServer) -> AsyncIterator[PostgresStore]:
    """The test's own read of the shared database (as a tool's would be)."""
    store = PostgresStore(pg_server.url)
    await store.open()
    yield store
    await store.close()


async def haunted(store: PostgresStore, channel: int) -> bool:
    table = await store.load(channel)
    assert table is not None and table.state is not None
    return BETRAYAL.load(table.state).haunt is not None


async def test_betrayal_on_postgres_played_into_its_haunt_through_a_crash(
        fd: FakeDiscord, pg_bot: BotProcess, look: PostgresStore) -> None:
    began = time.monotonic()
    game = await open_game(fd, pg_bot, "betrayal", seed=4, ai_seats=1, prefer=("explore",))
    ended = False
    while not ended and game.actions < HAUNT_BY and not await haunted(look, game.channel):
        ended = await play(game, limit=game.actions + CHUNK, restart_at=-1)
    assert ended or await haunted(look, game.channel), "no haunt within the presses"
    at = game.actions
    if not ended:  # into the haunt, killed a few presses in (the traitor's book sent)
        ended = await play(game, limit=at + IN_THE_HAUNT, restart_at=at + 3)
    report(f"betrayal on PostgreSQL (haunt at press {at})", game, began)
    assert len(pg_bot.logs) == 2, "the process was not killed and started again"
    if not ended:
        await end_by_moderator(game)
    await check_private_reads(game, game.humans[0])
    await check_history(game)


async def test_evil_below_on_postgres_played_through_a_crash(
        fd: FakeDiscord, pg_bot: BotProcess, look: PostgresStore) -> None:
    began = time.monotonic()
    game = await open_game(fd, pg_bot, "evilbelow", seed=7, ai_seats=2)
    assert await look.load(game.channel) is not None  # kept on PostgreSQL, not a file
    ended = await play(game, limit=300, restart_at=4)
    report("evilbelow on PostgreSQL", game, began)
    assert ended and len(pg_bot.logs) == 2
    await check_private_reads(game, game.humans[0])
    await check_history(game)


# -- Chinese ------------------------------------------------------------------------------

ZH = "zh-TW"
NAMES = frozenset({"ann", "bob", "mod"})  # the members' own names, as Discord has them
# What may stay in Latin letters in a Chinese line: a mention, a command and its
# options (their names are the same in every language, data/commands.zh-TW.yaml:
# "/game new", "game:<編號>"), a custom emoji, a link.
NOT_WORDS = re.compile(r"<[@#][!&]?\d+>|</[\w -]+:\d+>|<a?:\w+:\d+>|https?://\S+"
                       r"|/[a-z]+(?: [a-z-]+){0,2}|`#\d+`|\b[a-z_]+:(?=<)")
LATIN = re.compile(r"[A-Za-z][A-Za-z'_.]*(?:[ ,;:!?-]+[A-Za-z][A-Za-z'_.]*)*")


def english_in(text: str) -> list[str]:
    """Runs of Latin-letter words longer than a name: an English word or sentence, or a
    data key, left in a Chinese line."""
    plain = NOT_WORDS.sub(" ", text)
    return [run for run in LATIN.findall(plain)
            if run.lower() not in NAMES and (" " in run or len(run) > 3 or "." in run
                                             or "_" in run)]


def every_version(message: FakeMessage) -> list[dict[str, Any]]:
    return [*message.history, message.snapshot()]


def check_chinese(texts: dict[str, list[str]]) -> None:
    """Each text read is Chinese (no English run) and filled in (no blank, no key)."""
    leaks: dict[str, set[str]] = {}
    for where, pieces in texts.items():
        for piece in pieces:
            found = PLACEHOLDER.search(piece)
            assert found is None, f"{where}: {found.group(0)!r} in {piece[:300]!r}"
            for run in english_in(piece):
                leaks.setdefault(run, set()).add(f"{where}: {piece[:160]!r}")
    assert not leaks, "English in a Chinese game:\n" + "\n".join(
        f"{run!r} in {sorted(places)[:2]}" for run, places in sorted(leaks.items()))


def read_by_players(game: Game) -> dict[str, list[str]]:
    """Everything the game showed: the channel's and DMs' messages in every version,
    and each click's private answers."""
    out: dict[str, list[str]] = {}
    for message in bot_messages(game):
        where = "DM" if message.channel_id != game.channel else "channel"
        for version in every_version(message):
            out.setdefault(where, []).extend(read_words(version))
    for handle in game.handles:
        for message in handle.messages:
            if message.ephemeral:
                for version in every_version(message):
                    out.setdefault("private answer", []).extend(read_words(version))
    return out


async def test_cthulhu_in_chinese_reads_chinese_throughout(
        fd: FakeDiscord, bot: BotProcess) -> None:
    """A zh-TW server, zh-TW players: the live message, its DMs, each private answer,
    /game status, /game log and /game history all Chinese, every blank filled."""
    began = time.monotonic()
    fd.guilds[fd.guild_id].locale = ZH
    game = await open_game(fd, bot, "cthulhu", seed=7, ai_seats=1, prefer=("fight",),
                           locale=ZH)
    ended = await play(game, limit=300, restart_at=4)
    report("cthulhu in Chinese", game, began)
    assert ended and len(bot.logs) == 2
    reads = read_by_players(game)
    assert {"channel", "DM", "private answer"} <= reads.keys(), reads.keys()
    ann = game.humans[0]
    for path in (("game", "status"), ("game", "log"), ("game", "history")):
        answer = await slash_privately(game, ann, *path)
        reads[f"/{' '.join(path)}"] = read_words(answer.snapshot())
    found = re.search(r"`#(\d+)`", reads["/game history"][0])
    assert found, reads["/game history"]
    story = await slash_privately(game, ann, "game", "history",
                                  options={"game": found.group(1)})
    reads["/game history game"] = read_words(story.snapshot())
    check_chinese(reads)
