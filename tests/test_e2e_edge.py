"""Issue 8 through the real discord.py and the fake Discord: nobody acts or reads where
they do not belong, refusals are private everywhere, and bad input gets one readable
line. Crafted custom_ids are sent with `fd.forge` (a real message, its component
rewritten), as a modified client would send them.
"""

from __future__ import annotations

import pytest

from bot.games.base import PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.haunting import sides
from bot.texts import say
from tests.betrayal_haunt_helpers import haunted
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.edge_helpers import private_answer, snapshot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

MANAGE = "16"  # the Manage Channels bit, as Discord writes it in an overwrite
OTHER_CHANNEL = say("errors.other_channel")
NOT_YOURS = say("errors.not_your_game")
UNREADABLE = say("errors.unreadable")


async def _lobby(fd: FakeDiscord, user: FakeUser, channel: int, **options: object) -> FakeMessage:
    opened = await (await fd.slash(user, channel, "game", "new", **options)).wait()
    assert opened.response is not None and not opened.response.ephemeral
    return opened.response


async def _start(fd: FakeDiscord, host: FakeUser, channel: int, *guests: FakeUser,
                 ai: int = 0) -> FakeMessage:
    """A Cthulhu game in `channel`: the host's lobby, guests join, AI seats, start."""
    lobby = await _lobby(fd, host, channel, game="cthulhu", seed=21)
    for guest in guests:
        await (await fd.slash(guest, channel, "game", "join")).wait()
    ai_button = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    for _ in range(ai):
        await (await fd.click(host, lobby, ai_button)).wait()
    await (await fd.slash(host, channel, "game", "start")).wait()
    return lobby


async def test_a_custom_id_naming_another_channel_or_server_does_nothing(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game, side = fd.add_channel("game"), fd.add_channel("side")
    elsewhere = fd.add_guild("Elsewhere")
    away = fd.add_channel("away", guild=elsewhere)
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)  # a moderator of this server
    rival = fd.add_user("rival", guild=elsewhere, manage_channels=True)  # of the other one
    bot = await start_hauntkeeper()
    await _lobby(fd, host, game, game="cthulhu", seed=21)
    here = await _lobby(fd, mod, side, game="cthulhu")  # buttons the attackers can see
    there = await _lobby(fd, rival, away, game="cthulhu")

    async def refused(user: FakeUser, message: FakeMessage, custom_id: str,
                      values: list[str] | None = None) -> None:
        before = await snapshot(bot, game)
        handle = await (await fd.forge(user, message, custom_id, values=values)).wait()
        assert private_answer(handle) == OTHER_CHANNEL
        assert await snapshot(bot, game) == before

    for user, message in ((mod, here), (rival, there)):
        await refused(user, message, f"hk:{game}:0:lobby.join")
    await (await fd.slash(guest, game, "game", "join")).wait()
    await (await fd.slash(host, game, "game", "start")).wait()
    for user, message in ((mod, here), (rival, there)):
        for action in ("table.end", "gm.skip", "lobby.join", "view.secret"):
            await refused(user, message, f"hk:{game}:0:{action}")
        await refused(user, message, f"hks:{game}:0:0", ["table.end"])
    assert (await snapshot(bot, side))[0] == (await snapshot(bot, away))[0] == 1


async def test_a_dm_click_acts_only_on_a_game_the_user_is_seated_in(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game, other = fd.add_channel("game"), fd.add_channel("other")
    host, guest, stranger = fd.add_user("host"), fd.add_user("guest"), fd.add_user("stranger")
    bot = await start_hauntkeeper()
    await _start(fd, host, game, guest)
    await _start(fd, stranger, other, ai=1)  # the stranger's own game: their DMs
    dm = fd.dms(stranger)[0]
    before = await snapshot(bot, game)
    for custom_id, values in ((f"hk:{game}:0:view.secret", None),
                              (f"hk:{game}:0:table.end", None),
                              (f"hks:{game}:0:0", ["gm.skip"])):
        handle = await (await fd.forge(stranger, dm, custom_id, values=values)).wait()
        assert private_answer(handle) == NOT_YOURS
    assert await snapshot(bot, game) == before
    # A seated player's DM click does reach the game: their secret, privately.
    mine = await (await fd.forge(host, fd.dms(host)[0], f"hk:{game}:0:view.secret")).wait()
    assert "Your secret characters:" in private_answer(mine)


async def test_a_moderators_rights_are_read_in_the_games_channel(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = fd.add_channel("game")
    elsewhere = fd.add_guild("Elsewhere")
    host = fd.add_user("host")
    keeper = fd.add_user("keeper")  # Manage Channels in the game's channel only
    rival = fd.add_user("rival", guild=elsewhere, manage_channels=True)  # not here
    fd.join_guild(rival, fd.guild_id)
    barred = fd.add_user("barred", manage_channels=True)  # a manager, denied in this channel
    fd.channels[game].permission_overwrites = [
        {"id": str(keeper.id), "type": 1, "allow": MANAGE, "deny": "0"},
        {"id": str(barred.id), "type": 1, "allow": "0", "deny": MANAGE},
    ]
    bot = await start_hauntkeeper()
    await _start(fd, host, game, keeper, rival, barred)
    skip = f"hk:{game}:0:gm.skip"

    before = await snapshot(bot, game)
    for user in (rival, barred):
        handle = await (await fd.forge(user, fd.dms(user)[0], skip)).wait()
        assert private_answer(handle) == say("errors.mod_only")
    in_channel = await (await fd.forge(barred, latest_turn(fd, game), skip)).wait()
    assert private_answer(in_channel) == say("errors.mod_only")
    assert await snapshot(bot, game) == before

    done = await (await fd.forge(keeper, fd.dms(keeper)[0], skip)).wait()
    assert done.ephemeral_texts() == []  # acted: the channel tells it
    assert (await snapshot(bot, game))[0] > before[0]
    assert "keeper skipped" in latest_turn(fd, game).text


async def test_lobby_and_table_refusals_typed_as_commands_are_private(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel = fd.add_channel("table")
    host, guest, stranger = fd.add_user("host"), fd.add_user("guest"), fd.add_user("stranger")
    bot = await start_hauntkeeper()
    lobby = await _lobby(fd, host, channel, game="cthulhu", seed=3)
    in_lobby = [
        (guest, "start", say("errors.host_only", host="host")),
        (host, "join", say("errors.already_seated")),
        (stranger, "leave", say("errors.not_seated")),
        (stranger, "end", say("errors.host_or_mod")),
        (host, "start", say("errors.too_few", game="Cthulhu in the House", min=2, count=1)),
    ]
    in_play = [
        (stranger, "join", say("errors.not_lobby")),
        (guest, "start", say("errors.not_lobby")),
        (stranger, "end", say("errors.host_or_mod")),
        (stranger, "leave", say("errors.not_seated")),
    ]

    async def all_private(cases: list[tuple[FakeUser, str, str]]) -> None:
        for user, command, line in cases:
            public, before = fd.channel_messages(channel), await snapshot(bot, channel)
            handle = await (await fd.slash(user, channel, "game", command)).wait()
            assert private_answer(handle) == line, command
            assert fd.channel_messages(channel) == public  # the channel saw nothing
            assert await snapshot(bot, channel) == before

    await all_private(in_lobby)
    public = len(fd.channel_messages(channel))
    joined = await (await fd.slash(guest, channel, "game", "join")).wait()
    assert joined.ephemeral_texts() == [say("lobby.joined", name="guest")]
    assert guest.mention in fd.message(lobby.id).text  # the lobby, for all, redrawn
    assert len(fd.channel_messages(channel)) == public  # in place: no second lobby
    await (await fd.slash(host, channel, "game", "start")).wait()
    await all_private(in_play)


@pytest.mark.parametrize(("haunt", "how"), [("the_ghost_bride", "leave"),
                                             ("pay_the_piper", "kick")])
async def test_a_traitor_who_left_or_was_kicked_reads_no_secret(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, haunt: str, how: str) -> None:
    channel = fd.add_channel("haunted")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    table = await bot.store.load(channel)
    assert table is not None
    state = haunted(haunt, 4, seed=1)  # the haunt has begun: the traitor holds its secrets
    for i, held in enumerate(table.seats):
        state = BETRAYAL.set_player(state, i, PlayerInfo(held.name, False))
    table.state = BETRAYAL.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    seat = sides.traitor(state)
    assert seat is not None
    traitor = next(u for u in users if u.id == table.seats[seat].user_id)

    before = await (await fd.slash(traitor, channel, "secret")).wait()
    assert private_answer(before) == BETRAYAL.private_view(state, seat)[:2000]
    if how == "leave":
        await (await fd.slash(traitor, channel, "game", "leave")).wait()
    else:
        await (await fd.slash(mod, channel, "gm", "kick", player=traitor)).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.seats[seat].ai  # the AI holds the seat now

    after = await (await fd.slash(traitor, channel, "secret")).wait()
    assert private_answer(after) == say("errors.not_seated")
    button = next(c for c in latest_turn(fd, channel).custom_ids() if c.endswith("view.secret"))
    clicked = await (await fd.click(traitor, latest_turn(fd, channel), button)).wait()
    assert private_answer(clicked) == say("errors.not_seated")
    hero = next(u for u in users if u is not traitor)
    still = await (await fd.slash(hero, channel, "secret")).wait()
    assert private_answer(still) != say("errors.not_seated")  # the others keep theirs


async def test_garbage_custom_ids_and_options_get_one_polite_line(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    game = fd.add_channel("game")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start_hauntkeeper()
    await _start(fd, host, game, guest)
    before = await snapshot(bot, game)
    post = latest_turn(fd, game)
    buttons = [f"hk:{2**64}:0:lobby.join", f"hk:{game}:0:use~pick=²", f"hk:{game}:0:--1",
               "hk:٣:0:lobby.join", f"hk:{game}:x", "nonsense", f"hks:{game}:0:99",
               f"hk:{game}:0:choose~pick={2**64}", "hk:" + "9" * 200]
    for custom_id in buttons:
        handle = await (await fd.forge(host, post, custom_id)).wait()
        assert private_answer(handle) == UNREADABLE, custom_id
    for values in (["use~pick=²"], ["--1"], [], ["choose~pick=0", "choose~pick=1"]):
        handle = await (await fd.forge(host, post, f"hks:{game}:0:0", values=values)).wait()
        assert private_answer(handle) in (UNREADABLE, say("errors.pick_one")), values
    for user in (host, guest):
        for options in ({"character": "²", "room": "٣"}, {"character": str(2**64), "room": "0"},
                        {"character": "-1", "room": "--1"}):
            handle = await (await fd.slash(user, game, "cthulhu", "move", **options)).wait()
            assert private_answer(handle), options
        fight = await (await fd.slash(user, game, "cthulhu", "fight", room="²",
                                      remove="٣")).wait()
        assert private_answer(fight)
        offered = await fd.autocomplete(user, game, "cthulhu", "move", focused="room",
                                        character="²", room="٣")
        assert offered == []
    assert await snapshot(bot, game) == before
