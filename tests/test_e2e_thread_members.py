"""Nobody keeps what they left (issue 19): in a Betrayal haunt, a hero kicked by a
moderator, or one who leaves, is taken out of the heroes' private thread (its history
and what the team posts later are closed to them); a member the seat is handed to with
/gm seat is added, and gets the seat's secrets by DM. A restart between the two keeps it
right: whom the bot put in is the store's record, not the bot's memory (Discord lists a
thread's members only with a privileged intent: test_e2e_thread_members_without_intent.py)."""

from __future__ import annotations

from bot.games.betrayal.haunting import sides
from tests.conftest import BotFactory
from tests.fakediscord import FakeDiscord
from tests.test_e2e_betrayal_haunt import haunt_begins


async def test_a_kicked_hero_leaves_the_thread_and_the_new_holder_joins(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, _bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    [thread] = fd.threads(channel)
    heroes = sides.heroes(state)
    kicked_seat, leaver_seat = heroes[0], heroes[1]
    kicked, leaver = by_seat[kicked_seat], by_seat[leaver_seat]
    assert fd.can_read(kicked, thread.id) and fd.can_read(leaver, thread.id)
    mod = fd.add_user("mod", manage_channels=True)

    done = await (await fd.slash(mod, channel, "gm", "kick", player=kicked)).wait()
    assert "played by the AI" in done.ephemeral_texts()[-1]
    assert kicked.id not in fd.channels[thread.id].member_ids
    assert not fd.can_read(kicked, thread.id) and fd.can_read(leaver, thread.id)

    await start_hauntkeeper()  # a restart: the bot's memory of who it added is gone
    newbie = fd.add_user("newbie")
    seated = await (await fd.slash(mod, channel, "gm", "seat", seat=str(kicked_seat + 1),
                                   member=newbie)).wait()
    assert seated.ephemeral_texts(), "no answer to /gm seat"
    members = fd.channels[thread.id].member_ids
    assert newbie.id in members and kicked.id not in members
    assert fd.can_read(newbie, thread.id) and not fd.can_read(kicked, thread.id)
    assert fd.dms(newbie), "the new holder gets the seat's secrets by DM"
    joined = [m.content for m in fd.channel_messages(thread.id) if "newbie" in m.content]
    assert joined, "the team is told who joined"

    left = await (await fd.slash(leaver, channel, "game", "leave")).wait()
    assert left.ephemeral_texts()
    assert not fd.can_read(leaver, thread.id) and fd.can_read(newbie, thread.id)
    assert fd.channels[thread.id].member_ids - {fd.bot_user.id} == {
        by_seat[s].id if s != kicked_seat else newbie.id
        for s in heroes if s not in (leaver_seat,)}
