"""A Chinese (zh-TW) reader reads lists joined the Chinese way, "A、B" and "A；B", not
code's English ", " and "; " (bot/texts.py's `listed` and `grouped`, data/texts.yaml's
`lists`). README, Languages: "Public posts use the server's language; ephemeral answers
and DMs use the user's own locale". The game sweeps (tests/test_zh_tw_reads_chinese.py)
hold the games' lines to it; these hold the table's own lines the sweeps never reach:
/gm undo's line, a refusal that lists what may be picked, the permissions a channel
lacks.
"""

from __future__ import annotations

from bot import table as T
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.guild_settings import GuildSettings
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Sessions
from bot.store import SqliteStore
from cogs.bot_permissions import names_text
from cogs.common import pick_option
from tests.test_sessions import CHANNEL, GUILD, RecordingOutlet
from tests.test_zh_tw_reads_chinese import ENGLISH_JOIN

ANN, BO = T.Actor(1, "ann", language=CHINESE), T.Actor(2, "bo", language=CHINESE)
MOD = T.Actor(3, "mod", moderator=True, language=CHINESE)


async def _two_moves_undone(store: SqliteStore, language: str) -> tuple[list[str], str]:
    """Two moves of a two-player Cthulhu game, then both undone at once: the moves'
    public lines in the server's language, and the undo's line."""
    await store.set_guild_settings(GUILD, GuildSettings(language=language).to_dict())
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    await sessions.open(CHANNEL, GUILD, ANN, "cthulhu", 3)
    await sessions.act(CHANNEL, BO, Action(T.JOIN))
    await sessions.act(CHANNEL, ANN, Action(T.START))
    moved: list[str] = []
    for _ in range(2):
        table = await store.load(CHANNEL)
        assert table is not None
        prompt = sessions.prompt(table)
        assert prompt is not None
        mover = ANN if prompt.user_id == ANN.user_id else BO
        outcome = await sessions.act(CHANNEL, mover, prompt.options[0].action,
                                     version=table.version)
        moved.append(next(e for e in outcome.events if e.audience.is_public).text_in(language))
    outlet.clear()
    await sessions.undo(CHANNEL, MOD, 2)
    [undone] = [line for line in outlet.lines if "mod" in line]
    return moved, undone


async def test_two_moves_undone_are_named_the_chinese_way(store: SqliteStore) -> None:
    """/gm undo of two moves on a Chinese server quoted them joined with "; ": "圖書室。;
    bo 把…". Each is a sentence that ends with its own "。", so in Chinese one follows
    the other (data/texts.zh-TW.yaml's `moderation.undone_between`)."""
    moved, undone = await _two_moves_undone(store, CHINESE)
    assert undone.endswith(f"{moved[0]}{moved[1]}"), undone
    assert not ENGLISH_JOIN.search(undone), undone


async def test_two_moves_undone_are_named_as_before_in_english(store: SqliteStore) -> None:
    moved, undone = await _two_moves_undone(store, ENGLISH)
    assert undone.endswith(f"{moved[0]}; {moved[1]}"), undone


def _which(options: list[str]) -> str:
    """The refusal when typed words fit several options: it quotes them."""
    offered = [Option(label, Action("pick", {"n": n})) for n, label in enumerate(options)]
    try:
        pick_option(offered, "", nothing="", which=lambda labels: labels)
    except IllegalAction as refused:
        return str(refused)
    raise AssertionError("a choice among several was taken")


def test_the_options_a_refusal_quotes_are_joined_in_the_language_read() -> None:
    with speaking(CHINESE):
        assert _which(["前進", "後退"]) == "前進；後退"
    with speaking(ENGLISH):
        assert _which(["Go on", "Go back"]) == "Go on; Go back"


def test_the_permissions_a_channel_lacks_are_listed_in_the_language_read() -> None:
    wanted = ["view_channel", "send_messages", "attach_files"]
    with speaking(CHINESE):
        assert not ENGLISH_JOIN.search(names_text(wanted)), names_text(wanted)
    with speaking(ENGLISH):
        assert names_text(wanted) == "View Channel, Send Messages and Attach Files"
