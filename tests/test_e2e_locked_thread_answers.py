"""A click's answer in a thread a moderator locked, through the real discord.py and the
fake Discord.

What Discord does: "Users (including bot users) without the MANAGE_THREADS permission
are more restricted in locked threads. Users won't be able to create or update messages
in locked threads" (developer docs, "Threads"); an interaction's answer is no exception:
a response or follow-up made after a moderator locked the thread is refused with
`{"message": "Thread is archived", "code": 50083}` (discord/discord-api-docs#6884, closed
by Discord as the intended behaviour; #5517, the callback in a locked and archived
thread). An ephemeral answer is the user's alone, and Discord's own context-menu answers
there are made ephemeral (#6884): those go through.

So a move clicked in a locked thread must not show on the live message: the click's
UPDATE_MESSAGE is refused, the bot's PATCH is refused (160005), the move is kept owed,
and the player reads why, privately; unlocked, the owed move is shown.
"""

from __future__ import annotations

from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, press_move, to_move
from tests.fakediscord import FakeDiscord


async def test_a_move_clicked_in_a_locked_thread_stays_owed_and_the_player_reads_why(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    fd.revoke_bot_permissions("manage_threads")
    parent = fd.add_channel("hall")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    thread = fd.add_thread(parent, "side game", owner=host)
    bot = await start_hauntkeeper()
    await open_and_start(fd, thread, [host, guest], "cthulhu", seed=21)
    live = latest_turn(fd, thread)
    mover = {host.id: host, guest.id: guest}[to_move(live) or 0]
    shown = [m.snapshot() for m in fd.channel_messages(thread)]
    await fd.set_thread(thread, locked=True)

    clicked = await (await press_move(fd, mover, live)).wait(15)
    assert [m.snapshot() for m in fd.channel_messages(thread)] == shown  # nothing shown
    assert any(e[2].get("code") == 160005 for e in fd.errors)  # the bot's edit refused
    texts = clicked.ephemeral_texts()
    assert texts and say("permissions.refused_thread_locked",
                         channel=f"<#{thread}>").split(":")[0] in texts[-1]
    owed = await bot.store.load(thread)
    assert owed is not None and owed.delivered_seq < owed.last_seq

    await fd.set_thread(thread, locked=False)
    await bot.resume_games(ai_turns=False)
    await fd.settle()
    sent = await bot.store.load(thread)
    assert sent is not None and sent.delivered_seq == sent.last_seq
    assert [m.snapshot() for m in fd.channel_messages(thread)] != shown


async def test_a_lobby_button_clicked_in_a_locked_thread_answers_privately(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby's Join answers by editing the lobby message (UPDATE_MESSAGE): refused
    in a locked thread (50083). The guest must read why, privately, not an error."""
    fd.revoke_bot_permissions("manage_threads")
    parent = fd.add_channel("hall")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    thread = fd.add_thread(parent, "side game", owner=host)
    bot = await start_hauntkeeper()
    opened = await (await fd.slash(host, thread, "game", "new", game="cthulhu")).wait()
    lobby = opened.response
    assert lobby is not None
    shown = fd.message(lobby.id).snapshot()
    await fd.set_thread(thread, locked=True)
    join = next(c for c in lobby.custom_ids() if c.endswith(":lobby.join"))
    clicked = await (await fd.click(guest, fd.message(lobby.id), join)).wait(15)
    assert any(e[2].get("code") == 50083 for e in fd.errors)  # the answer's edit refused
    assert fd.message(lobby.id).snapshot() == shown
    assert clicked.ephemeral_texts() == [say("permissions.refused_thread_locked",
                                             channel=f"<#{thread}>")]
    table = await bot.store.load(thread)  # the join was saved all the same
    assert table is not None and guest.id in [s.user_id for s in table.seats]
