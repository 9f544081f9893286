"""Commands where they belong, through the real discord.py and the fake Discord: a game's
commands from a DM act on the caller's game; any explorer's sheet; /game join redraws
the lobby's own message; /help's clickable mentions; a burst of clicks refused once."""

from __future__ import annotations

import re

import pytest

from bot import games
from bot.games.betrayal import sheet_view
from bot.texts import say
from cogs import click_limit
from cogs.common import DM_REMINDER
from renderers.betrayal import render_sheet
from tests.conftest import BotFactory
from tests.e2e_helpers import PNG_SIGNATURE, latest_turn, said, to_move, unlinked, use_first
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def _cthulhu(fd: FakeDiscord, start: BotFactory, name: str = "table",
                   users: list[FakeUser] | None = None) -> tuple[int, list[FakeUser]]:
    channel = fd.add_channel(name)
    players = users or [fd.add_user("host"), fd.add_user("guest")]
    await (await fd.slash(players[0], channel, "game", "new", game="cthulhu", seed=21)).wait()
    for user in players[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(players[0], channel, "game", "start")).wait()
    return channel, players


async def _lobby(fd: FakeDiscord, start: BotFactory
                 ) -> tuple[int, FakeMessage, tuple[FakeUser, FakeUser, FakeUser]]:
    """A Cthulhu lobby the host opened; a guest and a latecomer to join it."""
    await start()
    channel = fd.add_channel("lobby")
    host, guest, late = fd.add_user("host"), fd.add_user("guest"), fd.add_user("late")
    lobby = (await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()).response
    assert lobby is not None
    return channel, lobby, (host, guest, late)


async def test_a_cthulhu_move_from_a_dm_plays_in_the_users_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    channel, players = await _cthulhu(fd, start_hauntkeeper)
    post = latest_turn(fd, channel)
    mover = next(u for u in players if u.id == to_move(post))
    dm = fd.open_dm(mover)
    before = await bot.store.load(channel)
    assert before is not None
    characters = await fd.autocomplete(mover, dm, "cthulhu", "move", focused="character")
    assert characters, "autocomplete in the DM reads the user's game"
    character = characters[0]["value"]
    rooms = await fd.autocomplete(mover, dm, "cthulhu", "move", focused="room",
                                  character=character)
    done = await (await fd.slash(mover, dm, "cthulhu", "move", character=character,
                                 room=rooms[0]["value"])).wait()
    assert done.ephemeral_texts() == ["Done — the game's message shows it."]
    after = await bot.store.load(channel)
    assert after is not None and after.version > before.version
    shown = latest_turn(fd, channel)  # the table's channel shows the new turn
    assert shown.id == post.id and shown.history and shown.text != said(post.history[0])


async def test_a_dm_command_tells_of_the_games_failed_dms(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A DM the game could not send is owed to its channel; a command used from the DM
    with the bot acts on that game, so it is the one that says so, privately, once."""
    await start_hauntkeeper()
    host, shy = fd.add_user("host"), fd.add_user("shy", dms_open=False)
    channel, _ = await _cthulhu(fd, start_hauntkeeper, users=[host, shy])
    notices = [m for m in fd.channel_messages(channel) if f"<@{shy.id}>" in m.text
               and "couldn't send" in m.text]
    secret = f"</secret:{fd.command('secret')['id']}>"  # type: ignore[index]
    assert notices and all(secret in m.text for m in notices)  # the way out, clickable
    for _ in range(10):  # the host's turn, by buttons, until it is the shy player's
        if to_move(latest_turn(fd, channel)) == shy.id:
            break
        await use_first(fd, host, latest_turn(fd, channel))
    assert to_move(latest_turn(fd, channel)) == shy.id
    dm = fd.open_dm(shy)
    character = (await fd.autocomplete(shy, dm, "cthulhu", "move",
                                       focused="character"))[0]["value"]
    room = (await fd.autocomplete(shy, dm, "cthulhu", "move", focused="room",
                                  character=character))[0]["value"]
    done = await (await fd.slash(shy, dm, "cthulhu", "move", character=character,
                                 room=room)).wait()
    assert unlinked(done.ephemeral_texts()[-1]) == DM_REMINDER
    status = await (await fd.slash(shy, channel, "game", "status")).wait()
    assert DM_REMINDER not in map(unlinked, status.ephemeral_texts())  # told once, from wherever


async def test_a_dm_command_without_a_game_or_with_several_is_refused(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    loner = fd.add_user("loner")
    refused = await (await fd.slash(loner, fd.open_dm(loner), "cthulhu", "move",
                                    character="Cthulhu", room="Hall")).wait()
    assert [*map(unlinked, refused.ephemeral_texts())] == [
        say("commands.no_dm_game", game="Cthulhu in the House")]

    host, guest = fd.add_user("host"), fd.add_user("guest")
    first, _ = await _cthulhu(fd, start_hauntkeeper, "one", [host, guest])
    second, _ = await _cthulhu(fd, start_hauntkeeper, "two", [host, guest])
    several = await (await fd.slash(host, fd.open_dm(host), "cthulhu", "move",
                                    character="Cthulhu", room="Hall")).wait()
    [text] = several.ephemeral_texts()
    assert f"<#{first}>" in text and f"<#{second}>" in text
    in_server = await (await fd.slash(loner, fd.add_channel("empty"), "cthulhu", "move",
                                      character="Cthulhu", room="Hall")).wait()
    assert in_server.ephemeral_texts() == ["There's no Cthulhu in the House game running here."]


async def test_lobby_commands_stay_out_of_dms(fd: FakeDiscord,
                                              start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    user = fd.add_user("someone")
    with pytest.raises(PermissionError):  # Discord hides a guild-only command in DMs
        await fd.slash(user, fd.open_dm(user), "game", "status")
    assert fd.command("betrayal") is not None
    assert set(fd.command("betrayal")["contexts"]) == {0, 1}  # type: ignore[index]


async def test_the_sheet_of_an_ai_explorer(fd: FakeDiscord,
                                           start_hauntkeeper: BotFactory) -> None:
    bot = await start_hauntkeeper()
    channel = fd.add_channel("house")
    ann, ben = fd.add_user("ann"), fd.add_user("ben")
    lobby = (await (await fd.slash(ann, channel, "game", "new", game="betrayal",
                                   seed=4)).wait()).response
    assert lobby is not None
    await (await fd.slash(ben, channel, "game", "join")).wait()
    ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    await (await fd.click(ann, fd.message(lobby.id), ai)).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.seats[2].ai
    state = games.get("betrayal").load(table.state or {})

    offered = await fd.autocomplete(ann, channel, "betrayal", "sheet", focused="explorer",
                                    explorer=table.seats[2].name[:3])
    assert [c["value"] for c in offered] == ["2"]
    shown = await (await fd.slash(ann, channel, "betrayal", "sheet",
                                  explorer=offered[0]["value"])).wait()
    image = shown.messages[-1].attachments[0][1]
    assert image.startswith(PNG_SIGNATURE)
    assert image == render_sheet(sheet_view(state, 2))
    own = await (await fd.slash(ann, channel, "betrayal", "sheet")).wait()
    assert own.messages[-1].attachments[0][1] == render_sheet(sheet_view(state, 0))
    unknown = await (await fd.slash(ann, channel, "betrayal", "sheet",
                                    explorer="nobody at all")).wait()
    assert "No explorer called 'nobody at all'" in unknown.ephemeral_texts()[0]
    for typed in ("3", "9" * 40, "-1"):  # no such seat: a name, matching no one
        beyond = await (await fd.slash(ann, channel, "betrayal", "sheet",
                                       explorer=typed)).wait()
        assert beyond.ephemeral_texts()[0].startswith("No explorer called"), typed
    outsider = await (await fd.slash(fd.add_user("eve"), channel, "betrayal", "sheet")).wait()
    assert outsider.ephemeral_texts() == [say("commands.name_an_explorer")]
    with pytest.raises(ValueError):  # Discord's client refuses it: the option's length
        await fd.slash(ann, channel, "betrayal", "sheet", explorer="x" * 101)
    from_dm = await (await fd.slash(ben, fd.open_dm(ben), "betrayal", "sheet",
                                    explorer="2")).wait()
    assert from_dm.messages[-1].attachments[0][1] == image


async def test_game_join_by_command_redraws_the_lobby_message(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, lobby, (host, guest, late) = await _lobby(fd, start_hauntkeeper)
    public = [m.id for m in fd.channel_messages(channel) if not m.ephemeral]
    joined = await (await fd.slash(guest, channel, "game", "join")).wait()
    assert joined.ephemeral_texts()
    assert f"<@{guest.id}>" in fd.message(lobby.id).text and "2/" in fd.message(lobby.id).text
    await start_hauntkeeper()  # the lobby's message is remembered across a restart
    await (await fd.slash(late, channel, "game", "join")).wait()
    assert f"<@{late.id}>" in fd.message(lobby.id).text
    assert [m.id for m in fd.channel_messages(channel) if not m.ephemeral] == public
    await (await fd.slash(host, channel, "game", "start")).wait()
    assert not any(c.startswith("hk:") for c in fd.message(lobby.id).custom_ids())


async def test_help_lists_commands_as_mentions(fd: FakeDiscord,
                                               start_hauntkeeper: BotFactory) -> None:
    await start_hauntkeeper()
    user = fd.add_user("reader")
    shown = await (await fd.slash(user, fd.add_channel("any"), "help")).wait()
    [message] = shown.messages
    assert message.ephemeral
    text = message.text
    game_id = fd.command("game")["id"]  # type: ignore[index]
    betrayal_id = fd.command("betrayal")["id"]  # type: ignore[index]
    assert f"</game new:{game_id}>" in text and f"</betrayal sheet:{betrayal_id}>" in text
    assert "Betrayal at House on the Hill" in text and "Cthulhu in the House" in text
    assert "</gm " not in text  # moderators' commands: only for those who may use them
    assert all(len(f["value"]) <= 1024 for e in message.embeds for f in e.get("fields", []))
    in_dm = (await (await fd.slash(user, fd.open_dm(user), "help")).wait()).messages[0].text
    assert f"</cthulhu move:{fd.command('cthulhu')['id']}>" in in_dm  # type: ignore[index]
    assert "</game " not in in_dm  # hidden in DMs by Discord, so not offered there
    mentions = re.findall(r"</([\w -]+):(\d+)>", text)
    assert mentions and all(fd.command(n.split()[0])["id"] == i  # type: ignore[index]
                            for n, i in mentions)


async def test_a_burst_of_clicks_is_refused_once_and_the_game_untouched(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await start_hauntkeeper()
    channel, players = await _cthulhu(fd, start_hauntkeeper)
    now = [100.0]
    limit = click_limit.ClickLimit(clock=lambda: now[0])
    monkeypatch.setattr(click_limit, "CLICKS", limit)
    post = latest_turn(fd, channel)
    mover = next(u for u in players if u.id == to_move(post))
    secret = next(c for c in post.custom_ids() if "view.secret" in c)
    for _ in range(limit.clicks):  # the mover's bucket filled (by clicks just applied)
        await limit.admit(mover.id, None)
    shown = await (await fd.click(mover, post, secret)).wait()
    assert shown.ephemeral_texts() != [say("commands.slow_down")]  # reading stays free
    before = await bot.store.load(channel)
    refused = await use_first(fd, mover, post)  # a move, by button or select
    assert refused.ephemeral_texts() == [say("commands.slow_down")]
    quiet = await use_first(fd, mover, post)
    assert quiet.ephemeral_texts() == [] and quiet.callback_type == 6
    after = await bot.store.load(channel)
    assert before is not None and after is not None and after.version == before.version
    other = next(u for u in players if u.id != mover.id)
    assert (await (await fd.click(other, post, secret)).wait()).ephemeral_texts()  # per user
    now[0] += limit.seconds
    await use_first(fd, mover, post)
    played = await bot.store.load(channel)
    assert played is not None and played.version > before.version


async def test_a_deleted_lobby_message_is_posted_again_and_then_redrawn(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, lobby, (_host, guest, late) = await _lobby(fd, start_hauntkeeper)
    fd.message(lobby.id).deleted = True  # someone removed the lobby's message
    await (await fd.slash(guest, channel, "game", "join")).wait()
    [again] = [m for m in fd.channel_messages(channel) if m.embeds]
    assert again.id != lobby.id and f"<@{guest.id}>" in again.text
    await (await fd.slash(late, channel, "game", "join")).wait()
    assert [m.id for m in fd.channel_messages(channel) if m.embeds] == [again.id]
    assert f"<@{late.id}>" in fd.message(again.id).text
