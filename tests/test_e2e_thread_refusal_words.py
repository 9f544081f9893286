"""A game in a thread whose posts Discord refuses mid-game, for a cause no permission
mends, through the real discord.py and the fake Discord: the bot taken out of the
private thread the game is in, or the thread locked by a moderator. The player whose
move could not be posted reads the real remedy (add the bot back to the thread; unlock
it), in their own language, not "a moderator grants View Channel" (which the bot has)."""

from __future__ import annotations

import pytest

from bot.courier import Outcome
from bot.delivery import NOT_IN_THREAD, THREAD_LOCKED
from bot.locales import CHINESE, ENGLISH, speaking
from bot.sessions import Behind
from bot.texts import say
from cogs.common import refusal_text
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, to_move
from tests.fakediscord import FakeDiscord, FakeUser
from tests.test_store_contract import new_table


async def _game_in_thread(fd: FakeDiscord, start_hauntkeeper: BotFactory, host: FakeUser,
                          *, private: bool) -> int:
    """An Evil Below game of the host and one AI seat in a member's thread (the bot added
    to it when private, as a mention does), started with the host (seat 1, the youngest)
    to roll."""
    fd.revoke_bot_permissions("manage_threads")
    parent = fd.add_channel("hall")
    thread = fd.add_thread(parent, "table", owner=host, private=private)
    if private:
        fd.add_thread_member(thread, fd.bot_user)
    await start_hauntkeeper()
    new = await (await fd.slash(host, thread, "game", "new", game="evilbelow",
                                youngest="1")).wait()
    lobby = new.response
    assert lobby is not None
    add_ai = next(c for c in lobby.custom_ids() if c.endswith(":lobby.ai"))
    await (await fd.click(host, lobby, add_ai)).wait()
    await (await fd.slash(host, thread, "game", "start")).wait()
    assert to_move(latest_turn(fd, thread)) == host.id
    return thread


async def _move_answer(fd: FakeDiscord, host: FakeUser, thread: int) -> list[str]:
    """The host's roll, typed (its answer is private: the live message is the
    channel's post to edit): what the host read."""
    handle = await (await fd.slash(host, thread, "evilbelow", "roll")).wait()
    return handle.ephemeral_texts()


@pytest.mark.parametrize("locale,language", [("en-US", ENGLISH), ("zh-TW", CHINESE)])
async def test_a_move_in_a_private_thread_the_bot_was_taken_out_of_says_add_it_back(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, locale: str, language: str) -> None:
    """Discord: "You must be invited to the thread to be able to view or participate in
    it, or be a moderator (MANAGE_THREADS permission)". The bot removed from the private
    thread mid-game keeps View Channel in the channel: the remedy is to add it back (a
    mention in the thread), and the move's answer says so, in the player's language."""
    host = fd.add_user("host", locale=locale)
    thread = await _game_in_thread(fd, start_hauntkeeper, host, private=True)
    fd.channels[thread].member_ids.discard(fd.bot_user.id)  # a member removed the bot
    answers = await _move_answer(fd, host, thread)
    with speaking(language):
        expected = say("permissions.refused_not_in_thread", channel=f"<#{thread}>")
    assert expected in answers, answers


@pytest.mark.parametrize("locale,language", [("en-US", ENGLISH), ("zh-TW", CHINESE)])
async def test_a_move_in_a_thread_locked_mid_game_says_unlock_it(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, locale: str, language: str) -> None:
    """Discord, "Threads": "Users (including bot users) without the MANAGE_THREADS
    permission ... won't be able to create or update messages in locked threads". A
    thread locked mid-game: the remedy is to unlock it, and the move's answer says so."""
    host = fd.add_user("host", locale=locale)
    thread = await _game_in_thread(fd, start_hauntkeeper, host, private=False)
    await fd.set_thread(thread, locked=True)
    await fd.settle()
    answers = await _move_answer(fd, host, thread)
    with speaking(language):
        expected = say("permissions.refused_thread_locked", channel=f"<#{thread}>")
    assert expected in answers, answers


@pytest.mark.parametrize("cause", [NOT_IN_THREAD, THREAD_LOCKED])
def test_a_click_behind_a_refusing_thread_names_the_threads_remedy(cause: str) -> None:
    """A click refused because the game still owes a post its thread refuses
    (sessions.Behind) reads the thread's remedy, as the move's answer does, not the
    permission Discord's Missing Access seemed to want."""
    table = new_table(77)
    behind = Behind(say("errors.stale"), Outcome(table, [], delivered=False,
                                                 refused=["view_channel"],
                                                 refused_cause=cause))
    for language in (ENGLISH, CHINESE):
        with speaking(language):
            assert refusal_text(behind) == say(f"permissions.behind_{cause}",
                                               channel="<#77>")
