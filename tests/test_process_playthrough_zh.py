"""Betrayal, the Neibolt House and IT: Evil Below on a zh-TW server, played by clicks
alone as an independent checker plays them: the real `python -m bot` process
(tests/test_process_playthrough.py's checker) against the fake Discord, killed with -9
once mid-game and started again. README, Languages: "Public posts use the server's
language; ephemeral answers and DMs use the user's own locale": the server's preferred
locale is zh-TW and so is every member's Discord app, so every word the bot shows any
of them is Chinese.

What is read: every version of every message the bot made in the channel, its threads
and the players' DMs (deleted and private ones too), their controls' labels,
placeholders and options, their pictures' alt text, each click's private answers,
/game status, /game log, /gm end's answer and /gm log, /game history and the ended
game's story.
No English word in any of it (tests/test_zh_tw_reads_chinese.py's `english_in`), no
list joined the English way (its `joined_in_english`), no blank, no key, no message
that says nothing or only "…". What may stay in Latin letters: the members' names, a
mention, a command and its options (the same in every language), "AI" and the words
the zh-TW data keeps in Latin letters by design ("Discord").
"""

from __future__ import annotations

import re
import time
from typing import Any

from bot.games.betrayal import GAME as BETRAYAL
from bot.store import open_store
from tests.fakediscord import FakeDiscord, FakeMessage, flat_components
from tests.test_e2e_crash import BotProcess
from tests.test_e2e_crash import bot as bot  # the fixture: the process, its log checked
from tests.test_process_playthrough import (
    ANSWER_WAIT,
    PLACEHOLDER,
    QUIET,
    Game,
    check_private_reads,
    open_game,
    play,
    report,
    slash_privately,
)
from tests.test_zh_tw_reads_chinese import english_in, joined_in_english

ZH = "zh-TW"
# Latin letters a Chinese line may hold: a mention, a channel, a command mention, a
# custom emoji, a link, a command and its options as typed ("/game new", "game:<編號>"),
# a game's number (`#12`), the members' names, and the words data/*.zh-TW.yaml keeps in
# Latin letters by design.
NOT_WORDS = re.compile(r"<[@#][!&]?\d+>|</[\w -]+:\d+>|<a?:\w+:\d+>|https?://\S+"
                       r"|/[a-z]+(?: [a-z-]+){0,2}|`#\d+`|\b[a-z_]+:(?=<)"
                       r"|(?<![A-Za-z])(?:ann|bob|mod|Discord)(?![A-Za-z])")
EMPTY = frozenset({"", "…", "...", "……"})
CHUNK = 4  # presses between looks at the store for the haunt
UNDER_WAY = 30  # presses into Evil Below when /game status and /game log are read


async def zh_game(fd: FakeDiscord, bot: BotProcess, name: str, **kwargs: Any) -> Game:
    """A zh-TW server (its preferred locale, as a community server sets it) and members
    whose Discord app is in zh-TW."""
    fd.guilds[fd.guild_id].locale = ZH
    return await open_game(fd, bot, name, locale=ZH, **kwargs)


async def haunted(bot: BotProcess, channel: int) -> bool:
    """Whether the game's haunt (a Neibolt scenario) has begun, as the store has it."""
    store = await open_store(bot.db)
    try:
        table = await store.load(channel)
    finally:
        await store.close()
    assert table is not None and table.state is not None
    return BETRAYAL.load(table.state).haunt is not None


async def play_into_haunt(game: Game, *, before: int, after: int, restart_at: int) -> bool:
    """Press until the haunt begins (within `before` presses), then `after` more; True if
    the game ended. `restart_at` < 0: the kill -9 comes on the third press of the haunt."""
    ended = False
    while not ended and game.actions < before and not await haunted(game.bot, game.channel):
        ended = await play(game, limit=game.actions + CHUNK, restart_at=restart_at)
    assert ended or await haunted(game.bot, game.channel), "no haunt within the presses"
    at = game.actions
    if not ended:
        ended = await play(game, limit=at + after,
                           restart_at=at + 3 if restart_at < 0 else restart_at)
    print(f"\nthe haunt began at press {at}")
    return ended


def versions(message: FakeMessage) -> list[dict[str, Any]]:
    return [*message.history, message.snapshot()]


def read_words(version: dict[str, Any]) -> list[str]:
    """Every piece of text one version of a message shows: its content, embeds, text
    displays, its controls' labels, placeholders and options, its pictures' alt text."""
    parts = [str(version.get("content") or "")]
    for embed in version.get("embeds") or []:
        parts += [str(embed.get(key) or "") for key in ("title", "description")]
        parts += [str((embed.get(key) or {}).get(inner) or "")
                  for key, inner in (("footer", "text"), ("author", "name"))]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields", [])]
    for comp in flat_components(version.get("components") or []):
        parts += [str(comp.get(key) or "") for key in ("content", "label", "placeholder")]
        for option in comp.get("options") or []:
            parts += [str(option.get("label") or ""), str(option.get("description") or "")]
        parts += [str(item.get("description") or "") for item in comp.get("items") or []]
    parts += [str(d or "") for d in version.get("descriptions") or []]
    return [part for part in parts if part.strip()]


def shown(game: Game) -> list[FakeMessage]:
    """Every message the bot made where these members read: the channel (private
    answers and deleted messages too), its threads, the members' DMs."""
    fd = game.fd
    where = {game.channel, *(t.id for t in fd.threads(game.channel))}
    where |= {c for u in [*game.humans, game.mod] if (c := fd.dm_channel_id(u)) is not None}
    return [m for m in fd.messages.values()
            if m.channel_id in where and m.author_id == fd.bot_user.id]


def read_by_players(game: Game) -> dict[str, list[str]]:
    """Everything shown, by where: each version of each message, and the names of the
    threads the game opened."""
    out: dict[str, list[str]] = {"thread name": [t.name for t in game.fd.threads(game.channel)]}
    for message in shown(game):
        where = ("private answer" if message.ephemeral
                 else "channel" if message.channel_id == game.channel
                 else "DM" if game.fd.channels[message.channel_id].is_dm else "thread")
        for version in versions(message):
            words = read_words(version)
            said = "\n".join(words).strip()
            assert said not in EMPTY or version.get("attachments"), \
                f"{where}: a message that says nothing: {said!r}"
            out.setdefault(where, []).extend(words)
    return out


async def read_under_way(game: Game) -> dict[str, list[str]]:
    """/game status and /game log while the game is played (the haunt's sides, the
    rounds, a track), as the second player reads them."""
    out: dict[str, list[str]] = {}
    for path in (("game", "status"), ("game", "log")):
        answer = await slash_privately(game, game.humans[1], *path)
        out[f"/{' '.join(path)} under way"] = read_words(answer.snapshot())
    return out


async def read_commands(game: Game) -> dict[str, list[str]]:
    """/game status, /game log, /game history and the newest game's story, as a member
    reads them, and /gm log as the moderator does (privately)."""
    ann = game.humans[0]
    out: dict[str, list[str]] = {}
    for path in (("game", "status"), ("game", "log"), ("game", "history")):
        answer = await slash_privately(game, ann, *path)
        out[f"/{' '.join(path)}"] = read_words(answer.snapshot())
    found = re.search(r"`#(\d+)`", "\n".join(out["/game history"]))
    assert found, out["/game history"]
    story = await slash_privately(game, ann, "game", "history",
                                  options={"game": found.group(1)})
    assert found.group(1) in story.text, story.text  # the game's number, as it heads
    out["the story"] = read_words(story.snapshot())
    moderated = await slash_privately(game, game.mod, "gm", "log")
    out["/gm log"] = read_words(moderated.snapshot())
    return out


def check_chinese(texts: dict[str, list[str]]) -> None:
    """Each text read is Chinese: no English word, no English list join, no blank or key,
    no label or line that is only "…"."""
    problems: list[str] = []
    for where, pieces in texts.items():
        for piece in pieces:
            if piece.strip() in EMPTY:
                problems.append(f"{where}: a text that says nothing: {piece!r}")
            found = PLACEHOLDER.search(piece)
            if found is not None:
                problems.append(f"{where}: {found.group(0)!r} in {piece[:200]!r}")
            plain = NOT_WORDS.sub(" ", piece)
            problems += [f"{where}: English: {line[:200]!r}" for line in english_in([plain])]
            problems += [f"{where}: joined in English: {line[:200]!r}"
                         for line in joined_in_english([plain])]
    assert not problems, "a Chinese game read otherwise:\n" + "\n".join(
        sorted(set(problems))[:60])


async def end_by_moderator(game: Game) -> list[str]:
    """/gm end: answered privately; what the moderator read."""
    handle = await (await game.fd.slash(game.mod, game.channel, "gm", "end")).wait(
        ANSWER_WAIT, settle=False)
    await game.fd.settle(quiet=QUIET, timeout=30)
    assert handle.messages and all(m.ephemeral for m in handle.messages)
    return [word for m in handle.messages for word in read_words(m.snapshot())]


async def finish_and_check(game: Game, ended: bool, name: str, began: float, *,
                           dms: bool = True, reads: dict[str, list[str]] | None = None
                           ) -> None:
    """/gm end if the game goes on; then everything read, checked. `dms`: the game sends
    some, by DM or in a thread (a book, a secret; Evil Below has none); `reads`: what
    was read before."""
    reads = dict(reads or {})
    if not ended:
        reads.update(await read_under_way(game))
        reads["/gm end"] = await end_by_moderator(game)
    report(name, game, began)
    assert len(game.bot.logs) == 2, "the process was not killed and started again"
    await check_private_reads(game, game.humans[0])
    reads.update(await read_commands(game))
    reads.update(read_by_players(game))
    assert {"channel", "private answer"} <= reads.keys(), reads.keys()
    assert not dms or {"DM", "thread"} & reads.keys(), reads.keys()
    check_chinese(reads)


async def test_betrayal_in_chinese_into_its_haunt(fd: FakeDiscord, bot: BotProcess) -> None:
    """Betrayal at House on the Hill on seed 4's house, into its haunt (the traitor's book
    by DM, the heroes' in a thread or DM), killed three presses into the haunt; then /gm
    end."""
    began = time.monotonic()
    game = await zh_game(fd, bot, "betrayal", seed=4, ai_seats=1, prefer=("explore",))
    ended = await play_into_haunt(game, before=120, after=10, restart_at=-1)
    await finish_and_check(game, ended, "betrayal in Chinese", began)


async def test_neibolt_in_chinese_into_its_scenario(fd: FakeDiscord, bot: BotProcess) -> None:
    """Betrayal with the Neibolt House expansion into a scenario, killed on the
    sixth press."""
    began = time.monotonic()
    game = await zh_game(fd, bot, "betrayal", seed=7, ai_seats=2, prefer=("explore",),
                         expansion="neibolt")
    ended = await play_into_haunt(game, before=120, after=8, restart_at=5)
    await finish_and_check(game, ended, "neibolt in Chinese", began)


async def test_evil_below_in_chinese_to_its_end(fd: FakeDiscord, bot: BotProcess) -> None:
    """IT: Evil Below played to its end, killed on the fifth press."""
    began = time.monotonic()
    game = await zh_game(fd, bot, "evilbelow", seed=7, ai_seats=2)
    ended = await play(game, limit=UNDER_WAY, restart_at=4)
    assert not ended
    under_way = await read_under_way(game)
    ended = await play(game, limit=300, restart_at=4)
    assert ended
    await finish_and_check(game, ended, "evilbelow in Chinese", began, dms=False,
                           reads=under_way)
