"""Team messages and a private turn through the real discord.py and the fake Discord.

The game is tests/helpers/team_game.py, registered for these tests only: "red" is every
seat but seat 1; seat 1 is "blue", alone, and plays its turn from DMs. `/game new` only
offers the games known when the lobby cog loaded, so the lobby is opened through the
sessions layer; joining, starting and every move go through Discord.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bot import table as T
from bot.client import HauntBot
from bot.core.actions import Action
from bot.texts import say
from cogs.common import DM_REMINDER
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE, game_components, latest_turn, to_move, unlinked
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.helpers import team_game
from tests.helpers.team_game import GAME, KEY, SECRET_LABEL, TeamState, team_lines


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with team_game.registered():
        yield


@dataclass
class Table:
    channel: int
    host: FakeUser  # seat 0, red
    tom: FakeUser  # seat 1, blue: plays from DMs
    rita: FakeUser  # seat 2, red; seat 3 is an AI, red
    bot: HauntBot


async def _started(fd: FakeDiscord, start: BotFactory, *, tom_dms: bool = True,
                   rita_dms: bool = True) -> Table:
    channel = fd.add_channel("teams")
    host = fd.add_user("host")
    tom = fd.add_user("tom", dms_open=tom_dms)
    rita = fd.add_user("rita", dms_open=rita_dms)
    bot = await start()
    host_actor = T.Actor(host.id, "host")
    await bot.sessions.open(channel, fd.guild_id, host_actor, KEY, 1)
    for user in (tom, rita):
        joined = await (await fd.slash(user, channel, "game", "join")).wait()
        assert joined.ephemeral_texts() == [say("lobby.joined", name=user.name)]
    await bot.sessions.act(channel, host_actor, Action(T.ADD_AI))
    started = await (await fd.slash(host, channel, "game", "start")).wait()
    [line] = started.ephemeral_texts()  # the game's post is public; the host gets one line
    assert "begins with" in line and DM_REMINDER not in line
    return Table(channel, host, tom, rita, bot)


async def _state(table: Table) -> tuple[int, TeamState]:
    saved = await table.bot.store.load_latest(table.channel)
    assert saved is not None and saved.state is not None
    return saved.version, GAME.load(saved.state)


def _button(message: FakeMessage, label: str) -> str:
    for comp in message.flat_components():
        if comp["type"] == 2 and comp["label"] == label:
            return str(comp["custom_id"])
    raise AssertionError(f"no button {label!r}: {[c['label'] for c in message.flat_components()]}")


async def _click(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                 label: str) -> InteractionHandle:
    return await (await fd.click(user, message, _button(message, label))).wait()


def _team_threads(fd: FakeDiscord, channel: int) -> dict[str, FakeChannel]:
    return {t.name.split(" — ")[0]: t for t in fd.threads(channel)}


def _texts(fd: FakeDiscord, channel: int) -> list[str]:
    return [m.text for m in fd.channel_messages(channel)]


def _thread_posts(fd: FakeDiscord) -> int:
    return sum(1 for r in fd.requests if r.startswith("POST /channels/") and
               r.endswith("/threads"))


async def test_team_lines_go_to_private_threads_and_the_blue_seat_plays_from_dms(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    t = await _started(fd, start_hauntkeeper)
    fd_bot = fd.bot_user.id

    # (a) one private thread per team, with exactly the team's humans (the AI gets nothing)
    threads = _team_threads(fd, t.channel)
    assert set(threads) == {"red", "blue"}
    red, blue = threads["red"], threads["blue"]
    for thread in (red, blue):
        assert thread.type == 12 and not thread.invitable and thread.parent_id == t.channel
    assert red.member_ids == {fd_bot, t.host.id, t.rita.id}
    assert blue.member_ids == {fd_bot, t.tom.id}
    assert _texts(fd, red.id) == ["You are the red team."]
    assert _texts(fd, blue.id) == ["You are the blue team, alone."]
    assert not any("red team" in text or "blue team" in text for text in _texts(fd, t.channel))
    assert all(fd.dms(u) == [] for u in (t.host, t.tom, t.rita))

    # a red move: both team lines in one thread message; the channel learns only the move
    turn = latest_turn(fd, t.channel)
    assert to_move(turn) == t.host.id
    await _click(fd, t.host, turn, "Signal 1")
    assert _texts(fd, red.id)[1:] == ["\n".join(team_lines("host", "red", 1, 1))]
    assert len(_texts(fd, blue.id)) == 1
    assert [m.text.split("\n")[0] for m in fd.dms(t.host)] == ["You gave signal 1."]

    # (c) blue's turn: the options go to tom's DMs; the channel shows none of them
    post = latest_turn(fd, t.channel)
    assert post.attachments and post.attachments[0][1].startswith(PNG_SIGNATURE)
    assert game_components(post) == []  # not even another seat's: only "My secrets"
    assert f"**<@{t.tom.id}>** is playing from their DMs." in post.text
    assert "your move" not in post.text
    for hidden in ("Signal", SECRET_LABEL):
        assert hidden not in post.text
    [prompt] = fd.dms(t.tom)
    assert f"<#{t.channel}>" in prompt.text
    labels = [c["label"] for c in game_components(prompt)]
    assert labels == ["Signal 1", "Signal 2", SECRET_LABEL]  # shown directly: a DM is private
    version, _ = await _state(t)

    clicked = await _click(fd, t.tom, prompt, SECRET_LABEL)
    assert clicked.ephemeral_texts() == []
    after, state = await _state(t)
    assert after == version + 1 and state.signals == [1, 3]  # the game advanced
    assert fd.message(prompt.id).custom_ids() == []  # the used prompt lost its buttons,
    assert fd.message(prompt.id).text == say("dm.prompt_used",  # and its "your move"
                                                channel=f"<#{t.channel}>")
    assert clicked.callback_type == 7  # the click's answer was that very edit
    assert _texts(fd, blue.id)[1:] == ["\n".join(team_lines("tom", "blue", 3, 1))]
    assert len(_texts(fd, red.id)) == 2
    everything_public = "\n".join(_texts(fd, t.channel) + _texts(fd, red.id))
    assert "tom made a move." in everything_public
    assert SECRET_LABEL not in everything_public and "signal 3" not in everything_public
    assert to_move(latest_turn(fd, t.channel)) == t.rita.id

    # rita, then the AI seat: red hears both moves in one message; then the host again
    await _click(fd, t.rita, latest_turn(fd, t.channel), "Signal 2")
    assert _texts(fd, red.id)[2:] == [
        "\n".join(team_lines("rita", "red", 2, 2) + team_lines(_ai_name(state), "red", 1, 3))
    ]
    await _click(fd, t.host, latest_turn(fd, t.channel), "Signal 2")
    second = fd.dms(t.tom)[-1]
    assert second.id != prompt.id and game_components(second)
    old_button = _button(second, "Signal 1")

    # (e) a restart: the bot forgets its memory, the threads come from the store
    t.bot = await start_hauntkeeper()
    assert _thread_posts(fd) == 2
    mod = fd.add_user("mod", manage_channels=True)
    skipped = await (await fd.slash(mod, t.channel, "gm", "skip")).wait()
    assert "skipped" in skipped.ephemeral_texts()[-1]
    assert _thread_posts(fd) == 2 and _team_threads(fd, t.channel) == threads
    assert blue.member_ids == {fd_bot, t.tom.id}
    assert len(_texts(fd, blue.id)) == 3  # the AI played blue's turn: same thread
    await _click(fd, t.rita, latest_turn(fd, t.channel), "Signal 1")
    assert red.member_ids == {fd_bot, t.host.id, t.rita.id}
    assert len(_texts(fd, red.id)) == 5 and _thread_posts(fd) == 2

    # (d) the DM prompt from before the restart lost its buttons (the store keeps it
    # with the live message); a client not redrawn yet is refused, privately
    assert game_components(fd.message(second.id)) == []
    version, before = await _state(t)
    stale = await (await fd.forge(t.tom, fd.message(second.id), old_button)).wait()
    assert stale.ephemeral_texts() == [say("errors.stale")]
    assert (await _state(t)) == (version, before)


def _ai_name(state: TeamState) -> str:
    return state.names[3]


async def test_without_private_threads_team_lines_arrive_by_dm(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    fd.revoke_bot_permissions("create_private_threads")
    t = await _started(fd, start_hauntkeeper, rita_dms=False)

    # (b) no thread was made; every team member with open DMs got the lines there
    assert fd.threads(t.channel) == [] and fd.threads() == []
    refused = [e for e in fd.errors if e[0].endswith("/threads")]
    assert [e[1] for e in refused] == [403, 403]  # one try per team, then no more
    [host_dm] = fd.dms(t.host)
    assert host_dm.text.startswith("*For the red only:*\nYou are the red team.")
    [tom_dm] = fd.dms(t.tom)
    assert tom_dm.text.startswith("*For the blue only:*\nYou are the blue team, alone.")
    assert fd.dms(t.rita) == []  # closed DMs: the channel says so, naming no secret
    start_post = latest_turn(fd, t.channel)
    assert say("dm_failed", mention=f"<@{t.rita.id}>") in unlinked(start_post.text)
    assert "red team" not in start_post.text

    await _click(fd, t.host, start_post, "Signal 2")
    lines = "\n".join(team_lines("host", "red", 2, 1))
    assert [m.text.split("\n-#")[0] for m in fd.dms(t.host)[1:]] == [
        "You gave signal 2.", f"*For the red only:*\n{lines}"]
    assert _thread_posts(fd) == 2  # not retried on every move
    # blue's turn still goes to tom's DMs (DMs are not threads)
    assert game_components(fd.dms(t.tom)[-1])


async def test_a_private_turn_falls_back_to_the_channel_when_dms_are_closed(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    t = await _started(fd, start_hauntkeeper, tom_dms=False)
    await _click(fd, t.host, latest_turn(fd, t.channel), "Signal 1")
    post = latest_turn(fd, t.channel)
    assert to_move(post) == t.tom.id
    assert say("dm_failed", mention=f"<@{t.tom.id}>") in unlinked(post.text)
    labels = [c["label"] for c in game_components(post)]
    assert labels == ["Choose privately", "Signal 1", "Signal 2"]  # the secret stays hidden
    assert SECRET_LABEL not in post.text and fd.dms(t.tom) == []
    # tom still hears his team in the blue thread (a thread is not a DM)
    assert "You are the blue team, alone." in _texts(fd, _team_threads(fd, t.channel)["blue"].id)

    shown = await _click(fd, t.tom, post, "Choose privately")
    private, reminder = shown.messages
    assert private.ephemeral and SECRET_LABEL in [c["label"] for c in game_components(private)]
    assert reminder.ephemeral and unlinked(reminder.text) == DM_REMINDER  # told once, privately
    await _click(fd, t.tom, private, SECRET_LABEL)
    _, state = await _state(t)
    assert state.signals == [1, 3]
    assert to_move(latest_turn(fd, t.channel)) == t.rita.id
