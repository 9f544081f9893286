"""A team's private thread locked (or closed: archived and locked) by a moderator mid-game,
while other channels play: through the real discord.py against the fake Discord, which
refuses as Discord does (tests/fakediscord/permissions.py: a post in a locked thread by
a bot without Manage Threads is 403 160005 "Thread is locked", 400 50083 "Thread is
archived" while it is archived too; the API docs' "JSON Error Codes" and "Threads":
"Users (including bot users) without the MANAGE_THREADS permission ... won't be able to
create or update messages in locked threads").

What must hold: a team's lines are secret from the other team, so they never go to the
public channel; whom the thread cannot reach gets them by DM, and a player whose DMs
are closed too is told in the channel to use /secret (data/texts.yaml, `dm_failed`);
the game goes on, and "nothing one channel does may fail or slow another" (README).
"""

from __future__ import annotations

import asyncio

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.texts import say
from tests.channel_trouble_helpers import delivered, games, others_play
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.helpers import team_game


def _signal_id(message: FakeMessage) -> str:
    [custom_id] = [c["custom_id"] for c in message.flat_components()
                   if c["type"] == 2 and c["label"] == "Signal 1"]
    return str(custom_id)


@pytest.mark.parametrize("archived", [False, True])
async def test_a_locked_team_thread_keeps_its_secret_from_the_channel_while_others_play(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, archived: bool) -> None:
    """The red team's thread is locked (and archived: "close and lock") and the host, red,
    has closed their DMs: red's line reaches the other red players by DM, the host is
    told in the channel to use /secret, no red line shows in any public message, the
    move is delivered, and the other channels' moves are answered and shown at once."""
    fd.revoke_bot_permissions("manage_threads")
    with team_game.registered():
        bot, others = await games(fd, start_hauntkeeper, count=2)
        channel = fd.add_channel("teams")
        host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
        host_actor = T.Actor(host.id, "host")
        await bot.sessions.open(channel, fd.guild_id, host_actor, team_game.KEY, 1)
        for user in (tom, rita):
            await (await fd.slash(user, channel, "game", "join")).wait()
        await bot.sessions.act(channel, host_actor, Action(T.ADD_AI))
        await (await fd.slash(host, channel, "game", "start")).wait()
        threads = {t.name.split(" — ")[0]: t for t in fd.threads(channel)}
        red = threads["red"]
        reds = [u for u in (host, tom, rita) if u.id in red.member_ids]
        assert host in reds and len(reds) >= 2
        said = len(fd.channel_messages(red.id))
        dms = {u.id: len(fd.dms(u)) for u in reds}

        host.dms_open = False
        await fd.set_thread(red.id, locked=True, archived=archived)
        clicking = asyncio.create_task(
            _click(fd, host, latest_turn(fd, channel)))
        await others_play(fd, bot, others, rounds=2)
        await clicking
        await fd.settle()

        code = 50083 if archived else 160005
        assert any(e[2].get("code") == code for e in fd.errors), fd.errors
        assert len(fd.channel_messages(red.id)) == said  # nothing posted in the thread
        secret = team_game.team_lines("host", "red", 1, 1)
        public = [m.text for c in (channel, *(t.id for t in threads.values() if t != red))
                  for m in fd.channel_messages(c)]
        assert not [t for t in public if any(line in t for line in secret)], public
        for user in reds:
            if user is host:
                assert len(fd.dms(user)) == dms[user.id]  # closed
            else:
                assert any(all(line in m.text for line in secret)
                           for m in fd.dms(user)[dms[user.id]:]), [m.text for m in fd.dms(user)]
        told = say("dm_failed", mention=host.mention)
        assert any(told.split(".")[0] in m.text for m in fd.channel_messages(channel)), \
            [m.text for m in fd.channel_messages(channel)]
        assert await delivered(bot, channel)
        await others_play(fd, bot, others, rounds=1)


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage) -> None:
    await (await fd.click(user, message, _signal_id(message))).wait(10, settle=False)
