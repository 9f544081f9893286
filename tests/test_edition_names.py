"""Betrayal at the Neibolt House is its own box (seed 000's cover: "Betrayal at the
Neibolt House: The Evil of Pennywise"), played here as Betrayal's `expansion:neibolt`.
Wherever players read the game's name for a table that plays it (the lobby and /game
status, the line that starts it, the play-by-play thread, Play again, /game history and
the story it opens, /stats, /help's section for this channel's game, the replay) they
read that edition's name, in English and in zh-TW, and a classic table still reads
Betrayal at House on the Hill. Driven through the real discord.py and the fake Discord."""

from __future__ import annotations

from bot import games
from bot import table as table_rules
from bot.core.actions import Action
from bot.locales import CHINESE, speaking
from bot.store import OVER
from bot.texts import and_list, say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

NEIBOLT = "Betrayal at the Neibolt House"
NEIBOLT_ZH = "山屋驚魂：尼伯特街鬼屋"
CLASSIC = "Betrayal at House on the Hill"


def _title(message: FakeMessage) -> str:
    return str(message.embeds[0].get("title", ""))


def _id(message: FakeMessage, kind: str) -> str:
    return next(c for c in message.custom_ids() if kind in c)


async def _started_and_ended(fd: FakeDiscord, channel: int, host: FakeUser,
                             **options: str) -> FakeMessage:
    """A Betrayal lobby of `options`, two AI seats, started, then ended by its host: its
    lobby message."""
    opened = await (await fd.slash(host, channel, "game", "new", game="betrayal",
                                   **options)).wait()
    assert opened.response is not None
    for _ in range(2):
        await (await fd.click(host, opened.response, _id(opened.response, "lobby.ai"))).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    await (await fd.slash(host, channel, "game", "end")).wait()
    return fd.message(opened.response.id)


def test_the_game_names_its_edition() -> None:
    """The rule under the words: the edition a table's options pick, and its name in
    each language; the classic game and an unknown option read as the game."""
    game = games.get("betrayal")
    assert game.edition_of({"expansion": "neibolt"}) == "neibolt"
    assert game.edition_of({"expansion": "classic"}) == game.edition_of({}) == ""
    assert game.title_of("neibolt") == NEIBOLT and game.title_of("") == CLASSIC
    assert game.title_of("gone") == CLASSIC
    with speaking(CHINESE):
        assert game.title_of("neibolt") == NEIBOLT_ZH
    assert games.get("cthulhu").title_of(games.get("cthulhu").edition_of({})) == \
        games.get("cthulhu").title


async def test_the_lobby_status_and_start_name_the_neibolt_house(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby's title, /game status (a zh-TW reader's in zh-TW), the refusal naming
    the game and the line that starts it say the edition; a classic lobby the game."""
    bot = await start_hauntkeeper()
    channel, classic = fd.add_channel("neibolt"), fd.add_channel("hill")
    ann, bo = fd.add_user("ann"), fd.add_user("bo", locale="zh-TW")
    opened = await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   expansion="neibolt")).wait()
    assert opened.response is not None
    assert _title(opened.response) == say("lobby.title", game=NEIBOLT)
    hill = await (await fd.slash(bo, classic, "game", "new", game="betrayal")).wait()
    assert hill.response is not None and _title(hill.response) == say("lobby.title",
                                                                       game=CLASSIC)
    status = await (await fd.slash(bo, channel, "game", "status")).wait()
    assert status.response is not None
    with speaking(CHINESE):
        assert _title(status.response) == say("lobby.title", game=NEIBOLT_ZH)
    again = await (await fd.slash(bo, channel, "game", "new", game="cthulhu")).wait()
    assert unlinked(again.ephemeral_texts()[-1]).startswith(NEIBOLT_ZH)  # bo reads zh-TW
    too_few = await (await fd.slash(ann, channel, "game", "start")).wait()
    assert too_few.ephemeral_texts()[-1].startswith(NEIBOLT)
    for _ in range(2):
        await (await fd.click(ann, opened.response, _id(opened.response, "lobby.ai"))).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    assert _title(fd.message(opened.response.id)) == say("lobby.title_active", game=NEIBOLT)
    table = await bot.store.load(channel)
    assert table is not None and table.id is not None
    logged = [e.text for e in await bot.store.log(table.id, limit=50)]
    names = and_list([s.name for s in table.seats])
    assert say("lobby.started", game=NEIBOLT, players=names) in logged


async def test_history_stats_help_and_play_again_name_the_neibolt_house(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A finished Neibolt game is listed and opened in /game history under its own
    name, counted apart from the classic game's in /stats (a member's and the
    server's), headed so in /help in its channel, and its Play again names it."""
    bot = await start_hauntkeeper()
    channel, classic = fd.add_channel("neibolt"), fd.add_channel("hill")
    ann = fd.add_user("ann")
    await _started_and_ended(fd, channel, ann, expansion="neibolt")
    status = await (await fd.slash(ann, channel, "game", "status")).wait()
    assert status.response is not None
    assert _title(status.response) == say("lobby.title_ended", game=NEIBOLT)
    await _started_and_ended(fd, classic, ann)
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == OVER

    listed = await (await fd.slash(ann, channel, "game", "history",
                                   where="server")).wait()
    [page] = listed.ephemeral_texts()
    assert f"**{NEIBOLT}**" in page and f"**{CLASSIC}**" in page
    opened = await (await fd.slash(ann, channel, "game", "history",
                                   game=str(ended.id))).wait()
    assert opened.ephemeral_texts()[0].startswith(f"**Game #{ended.id}: {NEIBOLT}**")

    for sub in ("player", "server"):
        handle = await (await fd.slash(ann, channel, "stats", sub)).wait(20)
        (card,) = [m for m in handle.messages if m.attachments]
        alt = card.descriptions[0] or ""
        assert say("stats.bar", label=NEIBOLT, won=0, played=1) in alt, alt
        assert say("stats.bar", label=CLASSIC, won=0, played=1) in alt, alt

    shown = await (await fd.slash(ann, channel, "help")).wait()
    headings = [f["name"] for m in shown.messages for e in m.embeds
                for f in e.get("fields", [])]
    assert say("help.this_game", game=NEIBOLT) in headings

    end = latest_turn(fd, channel)
    again = await (await fd.click(ann, end, _id(end, "table.again"))).wait()
    assert again.response is not None
    assert say("lobby.again_alone", host=f"<@{ann.id}>", game=NEIBOLT) in again.response.text
    assert _title(again.response) == say("lobby.title", game=NEIBOLT)


async def test_the_play_by_play_thread_is_named_for_the_edition(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """/gm settings play_by_play: the game's public thread is named for the game its
    channel plays."""
    bot = await start_hauntkeeper()
    channel = fd.add_channel("neibolt")
    ann = fd.add_user("ann", manage_channels=True)
    await (await fd.slash(ann, channel, "gm", "settings", play_by_play="on")).wait()
    opened = await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   expansion="neibolt")).wait()
    assert opened.response is not None
    for _ in range(2):
        await (await fd.click(ann, opened.response, _id(opened.response, "lobby.ai"))).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None
    [thread] = fd.threads(channel)
    assert thread.name == say("play_by_play.thread_name", game=table.id, title=NEIBOLT)


def test_the_table_rules_name_the_edition_in_refusals() -> None:
    """A refusal of the table rules that names the game names the edition played."""
    host = table_rules.Actor(1, "Ann")
    table, _ = table_rules.new_table("betrayal", 5, 6, host, seed=1,
                                     options={"expansion": "neibolt"})
    table, _ = table_rules.apply(table, host, Action(table_rules.SECOND))
    assert table_rules.title(table) == NEIBOLT
    try:
        table_rules.apply(table, host, Action(table_rules.SECOND))
    except Exception as refused:  # IllegalAction
        assert str(refused).startswith(f"In {NEIBOLT} ")
    else:
        raise AssertionError("a third seat was taken")


def test_the_editions_are_offered_in_the_language_spoken() -> None:
    """The expansion option's labels (the lobby's field, /game new's list) are read when
    asked: a label read once as the module loaded stayed English on a zh-TW server."""
    game = games.get("betrayal")
    english = dict(game.setup_choices()["expansion"])
    with speaking(CHINESE):
        chinese = dict(game.setup_choices()["expansion"])
    assert english["neibolt"] == "Betrayal at the Neibolt House (Pennywise)"
    assert chinese["neibolt"].startswith(NEIBOLT_ZH)
    assert chinese["classic"] != english["classic"] and set(chinese) == set(english)


async def test_a_zh_tw_reader_sees_the_edition_field_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """/game status of a Neibolt lobby, read by a zh-TW user: its expansion field too."""
    await start_hauntkeeper()
    channel = fd.add_channel("neibolt")
    ann, bo = fd.add_user("ann"), fd.add_user("bo", locale="zh-TW")
    await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                          expansion="neibolt")).wait()
    status = await (await fd.slash(bo, channel, "game", "status")).wait()
    assert status.response is not None
    fields = [str(f.get("value", "")) for f in status.response.embeds[0].get("fields", [])]
    assert any(value.startswith(NEIBOLT_ZH) for value in fields), fields
