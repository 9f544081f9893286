"""An in-process fake Discord that the real, unmodified discord.py client talks to.

Usage (see tests/test_fakediscord_selfcheck.py for a complete example)::

    fd = FakeDiscord()
    await fd.start()
    general = fd.add_channel("general")
    alice = fd.add_user("alice", manage_channels=True)
    with discord_errors() as logged:
        async with running_bot(MyBot(), fd) as bot:  # login, connect, ready, tree sync
            h = await fd.slash(alice, general, "game", "new", game="cthulhu", seed=5)
            await h.wait()  # the bot answered and went idle
            assert h.callback_type == 4 and "Arkham" in h.response.text
            board = fd.channel_messages(general)[-1]
            await (await fd.click(alice, board, "move:attic")).wait()
    assert logged == [] and fd.unhandled == []
    await fd.stop()

More servers: `fd.add_guild("Other")`, then `add_channel(..., guild=)`, `add_user(...,
guild=)` and `join_guild(user, guild)`; an interaction carries the guild of its channel
and the member's permissions there. `fd.forge(user, message, custom_id)` sends a click
whose component was rewritten, as a modified client can (see test_fakediscord_rules.py).
`fd.set_bot_permissions(channel, deny=["send_messages"])` takes rights from the bot in one
channel, refused as Discord refuses them (permissions.py; `clear_bot_permissions` gives
them back), and `await fd.permissions_reached(bot, channel)` waits until the bot knows.
`fd.add_channel(name, kind=2)` makes another kind of channel (voice 2, announcement 5,
stage 13, forum 15, media 16: channel_types.py says what each takes and refuses), and
`fd.add_thread(parent, name, owner=user, private=True)` a member's thread of the type its
parent makes; the bot sees a private one once `fd.add_thread_member(tid, fd.bot_user)`.
`await fd.delete_channel(cid)` and `await fd.set_thread(tid, archived=True, locked=True)`
are a moderator's (or Discord's) doing; `fd.advance_clock(seconds)` ages interactions.
Discord's rate limits are kept (buckets.py): every answer carries its bucket's headers
and a request past one gets Discord's 429, in windows shrunk by `rate_window_scale`
(`FakeDiscord(rate_window_scale=1.0)` for Discord's own sizes).
The gateway does to the bot what Discord's may (gateway.py): op 7 (`reconnect_bot`), op 9
(`invalidate_session(resumable=)`), a zombied socket (`stall_gateway`), a close code
(`close_gateway(4014)`, `revoke_token()` for 4004), a cut (faults.py `drop_gateway(fd,
cut=True)`); events sent while the bot is away are replayed at its RESUME, and
`async with fd.hold_gateway():` keeps it away meanwhile (`heartbeat_interval`, ms, is
settable so a zombie is found quickly).
"""

from .models import FakeChannel, FakeMessage, FakeUser, InteractionHandle, flat_components
from .runner import discord_errors, running_bot, start_bot, stop_bot
from .server import FakeDiscord

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeMessage",
    "FakeUser",
    "InteractionHandle",
    "discord_errors",
    "flat_components",
    "running_bot",
    "start_bot",
    "stop_bot",
]
