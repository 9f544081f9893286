"""The stories of past games and the commands that read a game back, third pass: games
played to their ends (and paused, and opened) through the real discord.py and the fake
Discord, read as a player reads them in the channel, in English and in Traditional
Chinese: /game history's list and its opened story, /game status, /game log."""

from __future__ import annotations

import re
from dataclasses import replace

from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.core.events import Event
from bot.core.story import LogLine
from bot.discord_limits import CONTENT_MAX
from bot.games.betrayal import GAME
from bot.games.betrayal import story as betrayal_story
from bot.games.betrayal.content import betrayal_line
from bot.games.betrayal.context import explorer_name
from bot.games.betrayal.haunting import sides
from bot.games.neibolt.scenarios.henry_on_the_hunt import kill_list
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Sessions
from bot.store import OVER, GameResult, SeatResult, SqliteStore
from bot.texts import say
from tests.betrayal_haunt_helpers import started
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_sessions import HOST, RecordingOutlet
from tests.test_store_contract import new_table
from tests.test_story_endings import ai_plays_out, played_to_its_end

ALL = 10**6
LONGEST_NAME = 32  # Discord's longest display name


async def _answer(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                  **options: object) -> list[str]:
    """The private answers as read: text, embeds' words, commands written plainly."""
    handle = await (await fd.slash(user, channel, *path, **options)).wait(20)
    return [re.sub(r"</([^:>]+):\d+>", r"/\1", m.text) for m in handle.messages
            if m.ephemeral]


def _user_and_actor(fd: FakeDiscord, name: str, language: str) -> tuple[FakeUser, T.Actor]:
    user = fd.add_user(name, locale="zh-TW" if language == CHINESE else "en-US")
    return user, T.Actor(user.id, name, language=language, guild_language=language)


async def test_a_lobby_opened_on_a_chinese_server_logs_its_first_line_in_each_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README, Languages: "/game log ... answer privately, in the caller's language", and
    the engines' English is the truth the log keeps (docs/architecture.md). The lobby's
    first line (its host sitting down) was made once, in the host's language, and kept
    as the English: an English reader's log of a game a Chinese host opened began "ann
    加入了牌桌。", and on an English server a Chinese reader's began "ann joined the
    table." among Chinese lines."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    await start_hauntkeeper()
    ann, bob, cat = (fd.add_user(name, locale="zh-TW") for name in ("ann", "bob", "cat"))
    eve = fd.add_user("eve", locale="en-US")
    channel = fd.add_channel("haunted")
    await open_and_start(fd, channel, [ann, bob, cat], "betrayal", seed=2)
    for reader, language in ((ann, CHINESE), (eve, ENGLISH)):
        (page,) = await _answer(fd, reader, channel, "game", "log", page=1)
        with speaking(language):
            joined = [say("lobby.joined", name=name) for name in ("ann", "bob", "cat")]
        opening = page.splitlines()[2:5]
        assert opening == joined, (language, page)


async def test_the_status_of_a_paused_game_says_it_waits_for_a_moderator(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: `/gm pause` holds the game, "no player's move and no AI turn until it
    resumes; status, map, log and /secret still work". /game status of a paused game
    read as any game in play ("In play · 3 seats · the game's own message shows the
    turn", the turn's player "to play"), with no word of the pause, in either
    language."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    await start_hauntkeeper()
    mod = fd.add_user("mona", manage_channels=True, locale="zh-TW")
    ann, bob, cat = (fd.add_user(name, locale="zh-TW") for name in ("ann", "bob", "cat"))
    eve = fd.add_user("eve", locale="en-US")
    channel = fd.add_channel("haunted")
    await open_and_start(fd, channel, [ann, bob, cat], "cthulhu", seed=5)
    for reader, language in ((ann, CHINESE), (eve, ENGLISH)):
        (status,) = await _answer(fd, reader, channel, "game", "status")
        with speaking(language):
            assert say("lobby.footer_paused") not in status
    await (await fd.slash(mod, channel, "gm", "pause")).wait(20)
    for reader, language in ((ann, CHINESE), (eve, ENGLISH)):
        (status,) = await _answer(fd, reader, channel, "game", "status")
        with speaking(language):
            assert say("lobby.footer_paused") in status, status
            assert say("lobby.footer_active", count=3) not in status, status
    await (await fd.slash(mod, channel, "gm", "resume")).wait(20)
    (status,) = await _answer(fd, eve, channel, "game", "status")
    assert say("lobby.footer_paused") not in status, status


async def test_a_chinese_status_of_the_neibolt_house_lists_its_encounters_in_chinese(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README, Languages: a reader's private answers are in their language; a Chinese
    list is joined with 、 (data/texts.zh-TW.yaml's `lists.sep`). /game status of a
    Neibolt game joined its face-up Pennywise Encounters with English commas:
    "正面朝上的潘尼懷斯遭遇牌（5）：一抹鮮紅, 暗處的刀, 漂浮的光"."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    bot = await start_hauntkeeper()
    ann, host = _user_and_actor(fd, "ann", CHINESE)
    channel = fd.add_channel("neibolt")
    await bot.sessions.open(channel, fd.guild_id, host, "betrayal", 1,
                            {"expansion": "neibolt"})
    for _ in range(2):
        await bot.sessions.act(channel, host, Action(T.ADD_AI))
    await ai_plays_out(bot.sessions, channel, host,
                       await bot.sessions.act(channel, host, Action(T.START)))
    await fd.settle()
    (status,) = await _answer(fd, ann, channel, "game", "status")
    (line,) = [x for x in status.splitlines() if "正面朝上的潘尼懷斯遭遇牌" in x]
    names = line.split("：", 1)[1]
    assert "、" in names and ", " not in names, line


async def _finished(bot: HauntBot, guild: int, channel: int, user: FakeUser,
                    players: int = 6) -> int:
    """A finished Betrayal game of six players with Discord's longest names, most of
    whom won, as the save that ends a game keeps it."""
    table = await bot.store.create(new_table(channel, guild_id=guild, kind="betrayal"),
                                   [Event("hi")], user.id, None)
    table.status = OVER
    seats = [SeatResult(n, user.id + n, f"{'W' * (LONGEST_NAME - 1)}{n}", False,
                        "heroes", n != 0, character="Ox Bellows") for n in range(players)]
    result = GameResult(table.id or 0, guild, channel, "betrayal", 7, "", "won", "{}",
                        "**The story**", seats)
    await bot.store.save(table, [Event("bye")], expected_version=1, actor_id=user.id,
                         action=None, result=result)
    return table.id or 0


async def test_a_history_page_of_big_tables_with_long_names_lists_every_game_on_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: `/game history` lists "this channel's finished games ... players,
    winner", in pages. A page of eight games of six players named as long as Discord
    lets them be ran past a message's length and was cut: page 1 of 2 showed four games
    and a half, so games 2 to 5 were on no page at all, nor the line saying how to open
    one. Another server's game is on no page of this one's."""
    bot = await start_hauntkeeper()
    ann = fd.add_user("ann")
    channel, elsewhere = fd.add_channel("table"), fd.add_channel("other")
    ids = [await _finished(bot, fd.guild_id, channel, ann) for _ in range(8)]
    ids.append(await _finished(bot, fd.guild_id, elsewhere, ann))
    theirs = await _finished(bot, fd.add_guild("Other"), channel + 99, ann)
    pages = [(await _answer(fd, ann, channel, "game", "history", where="server", page=n))[0]
             for n in (1, 2)]
    for text in pages:
        assert len(text) <= CONTENT_MAX
        assert say("history.open_one") in text, text[-200:]
        assert f"`#{theirs}`" not in text
    for game_id in ids:
        assert sum(f"`#{game_id}`" in text for text in pages) == 1, game_id
    (here,) = await _answer(fd, ann, channel, "game", "history")
    assert all(f"`#{game_id}`" in here for game_id in ids[:-1]) and f"`#{ids[-1]}`" not in here


async def test_a_cthulhu_story_names_each_rumbles_last_one_standing_as_one_item(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Seed 002: the game is three rumbles, each won by the last character standing. The
    story listed them as "Last one standing: rumble 1, the Reporter, rumble 2, the
    Occultist, rumble 3, the Heiress." (in Chinese "第 1 場混戰，記者、第 2 場混戰，神祕學家"):
    six items at a glance, a rumble and its survivor read as two names."""
    fd.guilds[fd.guild_id].locale = "zh-TW"
    bot = await start_hauntkeeper()
    ann, host = _user_and_actor(fd, "ann", CHINESE)
    eve = fd.add_user("eve", locale="en-US")
    channel = fd.add_channel("rumble")
    await bot.sessions.open(channel, fd.guild_id, host, "cthulhu", 5)
    for _ in range(2):
        await bot.sessions.act(channel, host, Action(T.ADD_AI))
    outcome = await ai_plays_out(bot.sessions, channel, host,
                                 await bot.sessions.act(channel, host, Action(T.START)))
    await fd.settle()
    rumbles = len(T.game_state(outcome.table).results)
    for reader, language in ((ann, CHINESE), (eve, ENGLISH)):
        (story,) = await _answer(fd, reader, channel, "game", "history",
                                 game=str(outcome.table.id))
        with speaking(language):
            sep = say("lists.sep")
        (line,) = [x for x in story.splitlines() if x.startswith("▸")][:1]
        items = line.split("：" if language == CHINESE else ": ", 1)[1].rstrip("。.")
        assert len(items.split(sep)) == rumbles, (language, line)


async def test_a_traitors_win_names_the_traitor_once_and_has_room_for_the_fight(
        store: SqliteStore) -> None:
    """The story tells a game's arc "in a few short lines" (bot/summary.py: at most three
    turning points). A traitor's win said who the traitor was twice, in its first line
    ("Heather Granville (ann) won as the traitor: ...") and again as a turning point
    ("▸ Heather Granville (ann) turned traitor."), which took the place of the last
    one (the monsters slain, or the rooms found)."""
    sessions = Sessions(store, RecordingOutlet(), render=False)
    table = await played_to_its_end(sessions, "betrayal", HOST, seed=2)
    state = T.game_state(table)
    assert state.haunt is not None
    traitor = 0 if state.haunt.traitor is None else state.haunt.traitor
    won = replace(state, haunt=replace(state.haunt, traitor=traitor, winner=sides.EVIL))
    entries = await store.log(table.id or 0, limit=ALL, public_only=False)
    log = [LogLine(e.kind, e.audience, e.text, e.seat) for e in entries]
    told = betrayal_story.story_of(won, log)
    turned = betrayal_line("story.haunt_traitor", explorer=explorer_name(won, traitor),
                           player=won.players[traitor])
    assert explorer_name(won, traitor) in told.outcome
    assert turned not in told.turning, told.turning
    slain = sum(1 for monster in won.monsters if not monster.alive)
    assert told.turning[-1] == (betrayal_line("story.slain", count=slain) if slain else
                                betrayal_line("story.rooms", count=len(won.tiles)))
    heroes_won = betrayal_story.story_of(
        replace(state, haunt=replace(state.haunt, traitor=traitor, winner=sides.HERO)), log)
    assert turned in heroes_won.turning  # the heroes' win does not name the traitor


def test_a_chinese_status_of_henrys_hunt_lists_his_kill_list_in_chinese() -> None:
    """Seed 000, Henry on the Hunt: "Hero Tokens: Henry Bowers' Kill List" lie on the
    board for all to read, and /game status reads them out in the reader's language. In
    Chinese the names were joined with English commas: "獵殺名單：希瑟·格蘭維爾（已劃掉）,
    彼得·秋本（已劃掉）"."""
    state, _ = started("henry_on_the_hunt", 4, 1)
    listed = kill_list(state)
    assert len(listed) >= 2
    with speaking(CHINESE):
        status = GAME.status_text(state)
        names = [explorer_name(state, seat) for seat in listed]
    (line,) = [x for x in status.splitlines() if names[0] in x and names[1] in x]
    assert "、".join(names) in line and ", " not in line, line
