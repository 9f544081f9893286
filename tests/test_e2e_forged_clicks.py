"""Bad input at the Discord layer that the other edge tests leave out, through the real
discord.py and the fake Discord. The standard (docs/architecture.md, "The edge reads
and refuses"): bad input from anyone, garbage or huge numbers in a custom_id too, gets
a short, clear, ephemeral answer, and the game is untouched. So each forged id below is
answered once, privately, in the unreadable line, nothing is logged as an error (the
`start_hauntkeeper` fixture fails a test on any), and the stored game stays as it was."""

from __future__ import annotations

from bot.client import HauntBot
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, unlinked
from tests.edge_helpers import private_answer, snapshot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

UNREADABLE = say("errors.unreadable")
TOO_BIG = "9" * 19  # 19 digits: past the store's BIGINT ids (2**63 - 1 has 19 too)


async def _playing(fd: FakeDiscord, start_hauntkeeper: BotFactory
                   ) -> tuple[HauntBot, int, FakeUser]:
    """A Cthulhu game of two under way in a channel; its host, who has its DMs."""
    game = fd.add_channel("game")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start_hauntkeeper()
    await (await fd.slash(host, game, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(guest, game, "game", "join")).wait()
    await (await fd.slash(host, game, "game", "start")).wait()
    return bot, game, host


async def _all_unreadable(fd: FakeDiscord, bot: HauntBot, game: int, user: FakeUser,
                          forged: list[tuple[FakeMessage, str]]) -> None:
    before = await snapshot(bot, game)
    for message, custom_id in forged:
        handle = await (await fd.forge(user, message, custom_id)).wait()
        assert private_answer(handle) == UNREADABLE, custom_id
    assert await snapshot(bot, game) == before


async def test_a_forged_log_page_id_is_answered_not_left_to_fail(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """`/game log`'s Older and Newer carry `hklog:<page>:<word>`; any other id under
    that prefix matched no template, so discord.py left the click unanswered and the
    player read Discord's "This interaction failed"."""
    bot, game, host = await _playing(fd, start_hauntkeeper)
    post = latest_turn(fd, game)
    await _all_unreadable(fd, bot, game, host, [
        (post, custom_id) for custom_id in ("hklog:x", "hklog:", "hklog:1", "hklog:1:X",
                                            "hklog:1:older:2", "hklog:" + "9" * 7 + ":x")])


async def test_a_replay_id_past_the_stores_ids_is_unreadable(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Replay's id (`hkr:1:<game>`) took any 19 digits: one past 2**63 reached the store,
    which could not read it, and the player got "Something went wrong" (an error in
    the log)."""
    bot, game, host = await _playing(fd, start_hauntkeeper)
    post = latest_turn(fd, game)
    await _all_unreadable(fd, bot, game, host, [
        (post, f"hkr:1:{TOO_BIG}"), (post, f"hkr:1:{2**63}"), (post, "hkr:1:0"),
        (post, "hkr:1:007")])


async def test_a_whole_house_id_past_discords_ids_is_unreadable_in_a_dm(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Whole house (`hkh:1:<channel>`) took any 20 digits: clicked in a DM, where the
    channel is looked up as a game the user sits in, one past 2**63 reached the store
    and the player got "Something went wrong"."""
    bot, game, host = await _playing(fd, start_hauntkeeper)
    dm = fd.dms(host)[0]
    await _all_unreadable(fd, bot, game, host, [
        (dm, f"hkh:1:{TOO_BIG}"), (dm, "hkh:1:" + "9" * 20), (dm, f"hkh:1:{2**63}"),
        (dm, "hkh:1:0"), (latest_turn(fd, game), f"hkh:1:0{game}")])


async def test_lobby_and_play_again_clicks_from_a_dm_are_refused(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby's buttons and the end's Play again live on the game channel's messages
    only, but a modified client can send them from a DM (where a click is taken for a
    game the user sits in). There the bot answered by editing the DM it was made on
    into the lobby (the channel's lobby message left as it was), and Play again opened
    a lobby with no server, posted in the DM, past the check that the bot may post in
    the channel. Now such a click is refused like one from another channel."""
    bot, game, host = await _playing(fd, start_hauntkeeper)
    side = fd.add_channel("side")
    lobby = (await (await fd.slash(host, side, "game", "new", game="cthulhu")).wait()).response
    assert lobby is not None
    dm = fd.dms(host)[0]
    seen = (fd.message(dm.id).text, len(fd.message(dm.id).history))
    drawn = (fd.message(lobby.id).text, len(fd.message(lobby.id).history))
    before = await snapshot(bot, side)
    for kind in ("lobby.ai", "lobby.leave", "lobby.start", "lobby.join"):
        handle = await (await fd.forge(host, dm, f"hk:{side}:0:{kind}")).wait()
        assert private_answer(handle) == say("errors.other_channel"), kind
    assert await snapshot(bot, side) == before
    assert (fd.message(dm.id).text, len(fd.message(dm.id).history)) == seen
    assert (fd.message(lobby.id).text, len(fd.message(lobby.id).history)) == drawn

    await (await fd.slash(host, game, "game", "end")).wait()
    ended = await snapshot(bot, game)
    fd.set_bot_permissions(game, deny=["send_messages"])
    await fd.permissions_reached(bot, game)
    table = await bot.store.load_latest(game)
    assert table is not None
    again = await (await fd.forge(host, dm, f"hk:{game}:0:table.again~game={table.id}")).wait()
    assert private_answer(again) == say("errors.other_channel")
    assert await snapshot(bot, game) == ended  # no lobby opened
    assert (fd.message(dm.id).text, len(fd.message(dm.id).history)) == seen


async def test_a_moderators_change_to_a_lobby_redraws_its_message(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A lobby change shows in the lobby's own message (cogs/lobby.py: "a slash command
    redraws that same message"), and a lobby change makes no post of its own. `/gm kick`
    and `/gm host` in a lobby changed the table but left the message showing the seats
    and the host as they were: the table read a roster nobody held."""
    channel = fd.add_channel("lobby")
    host, guest, third = fd.add_user("host"), fd.add_user("guest"), fd.add_user("third")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()
    lobby = opened.response
    assert lobby is not None
    for user in (guest, third):
        await (await fd.slash(user, channel, "game", "join")).wait()
    assert third.mention in fd.message(lobby.id).text

    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=third)).wait()
    assert kicked.ephemeral_texts()
    assert third.mention not in fd.message(lobby.id).text
    handed = await (await fd.slash(mod, channel, "gm", "host", member=guest)).wait()
    assert handed.ephemeral_texts()
    table = await bot.store.load(channel)
    assert table is not None and table.host_id == guest.id
    hosted = say("lobby.roster_line", index=2, name=guest.mention, tags=say("lobby.host_tag"))
    assert hosted in fd.message(lobby.id).text


async def test_a_closed_lobbys_buttons_do_not_act_on_the_next_lobby(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Lobby buttons name the channel, not the lobby (version 0: joining must work
    whatever happened since). A click on the message of a lobby that was closed joined
    the lobby opened after it and redrew the old message as that one: two messages
    showed the new lobby, and the one the table watched missed the player. The old
    message shows the lobby closed, and its buttons (from a client that has not redrawn
it) are stale, answered privately, the new lobby untouched."""
    channel = fd.add_channel("lobby")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    old = (await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()).response
    assert old is not None
    buttons = old.custom_ids()  # as a client that has not redrawn the message sends them
    await (await fd.slash(mod, channel, "gm", "end")).wait()
    new = (await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()).response
    assert new is not None
    before, drawn = await snapshot(bot, channel), fd.message(new.id).text
    for kind in ("lobby.join", "lobby.ai", "lobby.start"):
        button = next(c for c in buttons if c.endswith(kind))
        handle = await (await fd.forge(guest if kind == "lobby.join" else host, old,
                                       button)).wait()
        assert unlinked(private_answer(handle)) == say("errors.old_lobby"), kind
    assert await snapshot(bot, channel) == before
    assert fd.message(new.id).text == drawn
    closed = fd.message(old.id)  # shown as closed when it closed, its buttons gone
    assert closed.text.splitlines()[0] == say("lobby.title_ended", game="Cthulhu in the House")
    assert closed.custom_ids() == []

    join = next(c for c in fd.message(new.id).custom_ids() if c.endswith("lobby.join"))
    joined = await (await fd.click(guest, new, join)).wait()  # the open lobby's own: plays
    assert joined.ephemeral_texts() == [] and guest.mention in fd.message(new.id).text
