"""What players see while a moderator holds the game (/gm pause), through the real
discord.py and the fake Discord: the live message says the game is paused, by whom, and
that a moderator resumes it with /gm resume, and shows no move buttons (a click on one
would only be refused); a turn played from DMs keeps its DM prompt, which loses its
buttons, with no new DM (no notification) for the pause. On /gm resume the controls come
back and the player to act is notified once, as at a turn's start: a ping in the channel,
or a fresh DM prompt.

README (moderation): "/gm pause: no moves until resumed"; bot/table_moderation.py's `pause`:
"Players' moves, AI turns and (bot/timers.py) turn timers wait while paused".
"""

from __future__ import annotations

from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import sides
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import (
    game_components,
    latest_turn,
    open_and_start,
    press_old,
    to_move,
    unlinked,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.test_e2e_betrayal_haunt import (
    at_the_traitors_dm_turn,
    dm_prompt,
    play_action,
)

PAUSED = say("errors.paused")
SECRETS = "view.secret"  # "My secrets" stays: reading works while paused


def _pings(fd: FakeDiscord, channel: int, user: FakeUser) -> list[FakeMessage]:
    """Every channel message that notified `user`, deleted ones too (a notification
    was sent even if the ping was tidied away later)."""
    return [m for m in fd.messages.values()
            if m.channel_id == channel and not m.ephemeral and user.id in m.pinged]


def _says_paused(message: FakeMessage, mod: FakeUser) -> None:
    text = unlinked(message.text)
    assert f"<@{mod.id}>" in text and "/gm resume" in text, text
    assert "your move" not in text and "from their DMs" not in text, text


async def test_a_paused_public_turn_shows_no_moves_and_resume_pings_once(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Cthulhu: the player to act sees on the live message that the game is held and
    who holds it; no move control is left to be refused; My secrets still works. The
    pause sends no ping; the resume brings the controls back and pings the player once."""
    channel = fd.add_channel("held")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    mod = fd.add_user("mod", manage_channels=True)
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, [host, guest], "cthulhu", seed=21)
    await fd.settle()
    turn = latest_turn(fd, channel)
    mover = host if to_move(turn) == host.id else guest
    old_controls = game_components(turn)
    assert old_controls
    pinged = len(_pings(fd, channel, mover))

    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await fd.settle()
    live = latest_turn(fd, channel)
    assert live.id == turn.id  # the same message, edited: nothing new to notify
    _says_paused(live, mod)
    assert game_components(live) == []
    assert any(SECRETS in c for c in live.custom_ids())
    assert len(_pings(fd, channel, mover)) == pinged
    held = await bot.store.load(channel)
    assert held is not None and held.paused
    refused = await press_old(fd, mover, live, old_controls[0])  # a client not redrawn
    assert refused.ephemeral_texts() in ([PAUSED], [say("errors.stale")])
    typed = await (await fd.slash(mover, channel, "cthulhu", "move", character="0",
                                  room="1")).wait()
    assert typed.ephemeral_texts() == [PAUSED]
    assert await bot.store.load(channel) == held

    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    live = latest_turn(fd, channel)
    assert to_move(live) == mover.id and game_components(live)
    assert "/gm resume" not in unlinked(live.text).splitlines()[-1]
    assert len(_pings(fd, channel, mover)) == pinged + 1
    assert len([m for m in fd.channel_messages(channel) if mover.id in m.pinged]) == 1


async def test_a_paused_dm_turn_loses_its_buttons_and_resume_sends_one_prompt(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Betrayal, the traitor's turn after the haunt (played from DMs): the pause takes
    the DM prompt's buttons away by editing it (no new DM, no notification) and the
    channel says the game is paused; the resume sends one fresh DM prompt, which plays."""
    channel, bot, villain, mod, prompt = await at_the_traitors_dm_turn(fd, start_hauntkeeper)
    dms = len(fd.dms(villain))

    await (await fd.slash(mod, channel, "gm", "pause")).wait()
    await fd.settle()
    assert len(fd.dms(villain)) == dms  # no new DM: no notification for the pause
    held = fd.message(prompt.id)
    assert game_components(held) == []
    assert "paused" in held.text.lower()
    live = latest_turn(fd, channel)
    _says_paused(live, mod)
    assert game_components(live) == []

    await (await fd.slash(mod, channel, "gm", "resume")).wait()
    await fd.settle()
    assert len(fd.dms(villain)) == dms + 1  # one fresh prompt: one notification
    fresh = dm_prompt(fd, villain)
    assert fresh.id != prompt.id and game_components(fresh)
    assert game_components(fd.message(prompt.id)) == []
    assert f"<@{villain.id}>" in latest_turn(fd, channel).text
    saved = await bot.store.load(channel)
    assert saved is not None and not saved.paused
    state = GAME.load(saved.state or {})
    traitor = sides.traitor(state)
    assert traitor is not None
    await play_action(fd, villain, fresh, GAME.ai_action(state, traitor))
    after = await bot.store.load(channel)
    assert after is not None and after.version == saved.version + 1
