"""/game history and /stats of games that ended before their own end, through the real
discord.py and the fake Discord: ended by `/gm end`, by everyone leaving, by their
channel deleted. Each is listed once, won by nobody; opened, its story says what ended
it; and /stats counts no side for it."""

from __future__ import annotations

import re

from bot.client import HauntBot
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.fakediscord import FakeDiscord, FakeUser


async def _answer(fd: FakeDiscord, user: FakeUser, channel: int, *path: str,
                  **options: object) -> list[str]:
    """The private answers, commands written plainly (the bot makes them clickable)."""
    handle = await (await fd.slash(user, channel, *path, **options)).wait(20)
    return [re.sub(r"</([^:>]+):\d+>", r"/\1", text) for text in handle.ephemeral_texts()]


async def _last_game(bot: HauntBot, channel: int) -> int:
    ended = await bot.store.load_latest(channel)
    assert ended is not None and ended.status == "over" and ended.id is not None
    return ended.id


async def test_games_ended_early_are_listed_once_say_why_and_count_no_side(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """README: `/game history` lists "this channel's finished games ... players, winner",
    and `game:<number>` "opens one's story as the table read it at the end"; `/stats
    player` counts "by game, by side". The story of a game cut short said only that it
    was ended before its end, the same words whoever or whatever ended it (a deleted
    channel's game had no other line anywhere), and /stats put Betrayal's explorers "On
    their own", a side Betrayal has none of."""
    bot = await start_hauntkeeper()
    mod = fd.add_user("mona", manage_channels=True)
    ann, bob, cat = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("cat")
    ended, left, gone, lobby = (fd.add_channel(name) for name in
                                ("ended", "left", "gone", "lobby"))
    await open_and_start(fd, ended, [ann, bob, cat], "betrayal", seed=3)
    await (await fd.slash(mod, ended, "gm", "end")).wait(20)
    await open_and_start(fd, left, [ann, bob, cat], "betrayal", seed=4)
    for user in (bob, cat, ann):
        await (await fd.slash(user, left, "game", "leave")).wait(20)
    await open_and_start(fd, gone, [ann, bob, cat], "betrayal", seed=5)
    games = {await _last_game(bot, ended): say("moderation.ended", name="mona"),
             await _last_game(bot, left): say("moderation.abandoned")}
    await fd.delete_channel(gone)
    await fd.settle()
    games[await _last_game(bot, gone)] = say("moderation.channel_gone")

    (listed,) = await _answer(fd, ann, lobby, "game", "history", where="server")
    for game_id, why in games.items():
        assert listed.count(f"`#{game_id}`") == 1
        (story,) = await _answer(fd, ann, lobby, "game", "history", game=str(game_id))
        assert say("summary.ended_early") in story and why in story, story
    # each says it ended early, not "won: nobody" (which a cooperative loss also read)
    assert listed.count(say("history.ended_early")) == 3
    assert say("history.no_winner") not in listed

    handle = await (await fd.slash(ann, lobby, "stats", "player")).wait(20)
    (card,) = [m for m in handle.messages if m.attachments]
    alt = card.descriptions[0] or ""
    assert say("stats.member_subtitle", played=3, won=0) in alt
    assert say("stats.side_solo") not in alt and say("stats.side_heroes") not in alt
