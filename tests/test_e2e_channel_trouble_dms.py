"""A player's DMs closed in the middle of a game while other channels play: through the
real discord.py against the fake Discord (a DM to a user who closed theirs meets Discord's
403 50007 "Cannot send messages to this user", developer docs, "JSON Error Codes").

What must hold (README): "Many channels play at once: nothing one channel does may fail
or slow another", and secrets stay secret: a private line, or a private turn's choices,
never reach the channel instead; the player is pointed to `/secret` and the channel's
"Choose privately", which answer them alone (tests/helpers/team_game.py: seat 1 plays
privately, from DMs, and each mover gets a private line).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot import table as T
from bot.core.actions import Action
from bot.texts import say
from tests.channel_trouble_helpers import Game, delivered, others_play, shown
from tests.conftest import BotFactory
from tests.e2e_helpers import game_components, latest_turn, open_and_start, to_move, unlinked
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.helpers import team_game
from tests.helpers.team_game import KEY, SECRET_LABEL


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with team_game.registered():
        yield


def _button(message: FakeMessage, label: str) -> str:
    for comp in message.flat_components():
        if comp["type"] == 2 and comp["label"] == label:
            return str(comp["custom_id"])
    raise AssertionError(f"no button {label!r}: {[c['label'] for c in message.flat_components()]}")


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 label: str) -> InteractionHandle:
    return await (await fd.click(user, message, _button(message, label))).wait(settle=False)


def _public_words(fd: FakeDiscord, channel: int) -> str:
    """Every public word of the channel and its public threads, every version."""
    out: list[str] = []
    for message in fd.messages.values():
        where = fd.channels.get(message.channel_id)
        if where is None or message.ephemeral or where.type == 12 or where.is_dm:
            continue
        if message.channel_id == channel or where.parent_id == channel:
            out += [str(v) for v in message.history] + [message.text, str(message.components)]
    return "\n".join(out)


async def test_dms_closed_mid_game_keep_the_secret_and_no_other_channel_waits(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Tom plays the private seat of a team game, and also sits at a table of his own
    in another channel. He closes his DMs mid-game, between his DM prompt and his
    click on it: his private line cannot reach him, and his next turn's prompt cannot
    either; the channel says so and offers "Choose privately", and nothing private
    shows there. Meanwhile the other channels' moves (his own table's too) are answered
    and shown at once."""
    channel = fd.add_channel("teams")
    host, tom, rita = fd.add_user("host"), fd.add_user("tom"), fd.add_user("rita")
    bot = await start_hauntkeeper()
    await bot.sessions.open(channel, fd.guild_id, T.Actor(host.id, "host"), KEY, 1)
    for user in (tom, rita):
        await (await fd.slash(user, channel, "game", "join")).wait()
    await bot.sessions.act(channel, T.Actor(host.id, "host"), Action(T.ADD_AI))
    await (await fd.slash(host, channel, "game", "start")).wait()
    others: list[Game] = []
    for n, players in enumerate(([tom, fd.add_user("ann")],
                                 [fd.add_user("bea"), fd.add_user("cal")])):
        other = fd.add_channel(f"other-{n}")
        await open_and_start(fd, other, players, "cthulhu", seed=50 + n)
        others.append(Game(other, {u.id: u for u in players}))
    await fd.settle()

    await (await fd.click(host, latest_turn(fd, channel),
                          _button(latest_turn(fd, channel), "Signal 1"))).wait()
    prompt = fd.dms(tom)[-1]  # his private turn, by DM
    assert SECRET_LABEL in [c["label"] for c in game_components(prompt)]
    dms_before = len(fd.dms(tom))
    tom.dms_open = False  # "Allow direct messages from server members": off

    await asyncio.gather(_click(fd, tom, prompt, SECRET_LABEL),
                         others_play(fd, bot, others, rounds=2))
    await shown(bot, channel)
    assert any(e[2]["code"] == 50007 for e in fd.errors)  # his private line: refused
    assert len(fd.dms(tom)) == dms_before
    assert to_move(latest_turn(fd, channel)) == rita.id
    await (await fd.click(rita, latest_turn(fd, channel),
                          _button(latest_turn(fd, channel), "Signal 1"))).wait()
    await (await fd.click(host, latest_turn(fd, channel),
                          _button(latest_turn(fd, channel), "Signal 2"))).wait()
    post = latest_turn(fd, channel)
    assert to_move(post) == tom.id  # his turn again: the prompt cannot go by DM
    assert say("dm_failed", mention=f"<@{tom.id}>") in unlinked(post.text)
    labels = [c["label"] for c in game_components(post)]
    assert "Choose privately" in labels and SECRET_LABEL not in labels

    choose, _ = await asyncio.gather(_click(fd, tom, post, "Choose privately"),
                                     others_play(fd, bot, others, rounds=1))
    private = [m for m in choose.messages if m.ephemeral and game_components(m)][-1]
    assert SECRET_LABEL in [c["label"] for c in game_components(private)]
    await _click(fd, tom, private, SECRET_LABEL)
    await shown(bot, channel)
    secret = await (await fd.slash(tom, channel, "secret")).wait()
    assert any("signal 3" in text for text in secret.ephemeral_texts()), \
        secret.ephemeral_texts()  # his private lines, to him alone
    public = _public_words(fd, channel)
    assert SECRET_LABEL not in public and "signal 3" not in public
    assert "You gave signal" not in public
    for game in others:
        assert await delivered(bot, game.channel)
