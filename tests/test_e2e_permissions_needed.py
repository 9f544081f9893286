"""Which of its permissions the bot really needs to open and start a game, through the
real discord.py against the fake Discord (tests/fakediscord/permissions.py).

What each needs, by Discord's documentation: reading a channel's history (Get Channel
Messages, a reply's message_reference) needs Read Message History, and the bot does
neither: it edits its own messages by id. A bot's embeds in a message it posts or edits
with its own token need Embed Links (without it Discord shows none), but an
interaction's response and follow-ups are the interaction's webhook, whose Embed Links is
not the bot's ("`MENTION_EVERYONE`, `SEND_TTS_MESSAGES` and `USE_EXTERNAL_EMOJIS` are the
only permissions that will be affected by this change. In a previous version of this
changelog, it was indicated that `ATTACH_FILES` and `EMBED_LINKS` would be affected but
this is no longer the case": change log, 2022-06-29). The lobby is an embed, and `/game
join` and its kin redraw it with the bot's own PATCH: a lobby needs Embed Links. A
running game posts none (its live message is Components v2).
"""

from __future__ import annotations

from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, turn_posts
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser


async def _lobby(fd: FakeDiscord, channel: int, host: FakeUser, guest: FakeUser) -> FakeMessage:
    opened = await (await fd.slash(host, channel, "game", "new", game="cthulhu", seed=3)).wait()
    assert opened.ephemeral_texts() == []
    lobby = opened.response
    assert lobby is not None
    await (await fd.slash(guest, channel, "game", "join")).wait()
    return lobby


async def test_no_read_message_history_opens_starts_and_plays_a_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The bot reads no history (it edits its own messages by id): a channel that
    denies it Read Message History must not keep a game from opening or starting."""
    channel = fd.add_channel("no-history")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    fd.set_bot_permissions(channel, deny=["read_message_history"])
    bot = await start_hauntkeeper()
    await fd.permissions_reached(bot, channel)
    await _lobby(fd, channel, host, guest)
    started = await (await fd.slash(host, channel, "game", "start")).wait()
    assert not any("missing" in t for t in started.ephemeral_texts())
    table = await bot.store.load(channel)
    assert table is not None and table.status == "active"
    assert turn_posts(fd, channel) == 1 and latest_turn(fd, channel).attachments
    assert fd.errors == []


async def test_game_new_without_embed_links_is_refused_and_says_why(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The lobby is an embed the bot redraws with its own edits: `/game new` asks for
    Embed Links, and the line says what it is for."""
    channel = fd.add_channel("no-embeds")
    host = fd.add_user("host")
    fd.set_bot_permissions(channel, deny=["embed_links"])
    bot = await start_hauntkeeper()
    await fd.permissions_reached(bot, channel)
    refused = await (await fd.slash(host, channel, "game", "new", game="cthulhu")).wait()
    [text] = refused.ephemeral_texts()
    assert say("permissions.names.embed_links") in text
    assert say("permissions.why.embed_links") in text
    assert await bot.store.load(channel) is None


async def test_start_by_command_without_embed_links_starts_and_keeps_the_lobby_readable(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A running game posts no embed: Embed Links taken away after the lobby opened must
    not keep it from starting. The lobby's last edit then takes only its buttons away:
    an embed sent without the permission would be dropped, leaving an empty message."""
    channel = fd.add_channel("embeds-taken")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start_hauntkeeper()
    lobby = await _lobby(fd, channel, host, guest)
    fd.set_bot_permissions(channel, deny=["embed_links"])
    await fd.permissions_reached(bot, channel)
    started = await (await fd.slash(host, channel, "game", "start")).wait()
    assert not any("missing" in t for t in started.ephemeral_texts())
    table = await bot.store.load(channel)
    assert table is not None and table.status == "active"
    assert turn_posts(fd, channel) == 1
    shown = fd.message(lobby.id)
    assert shown.embeds, "the lobby lost its words"
    assert not [c for c in shown.custom_ids() if c.startswith("hk:")]  # no buttons left
    assert fd.errors == []


async def test_start_by_button_without_embed_links_starts(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The Start button's answer is the interaction's own edit (no Embed Links of the
    bot's needed): the game starts."""
    channel = fd.add_channel("embeds-taken-button")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    bot = await start_hauntkeeper()
    lobby = await _lobby(fd, channel, host, guest)
    fd.set_bot_permissions(channel, deny=["embed_links"])
    await fd.permissions_reached(bot, channel)
    start = next(c for c in fd.message(lobby.id).custom_ids() if c.endswith(":lobby.start"))
    clicked = await (await fd.click(host, fd.message(lobby.id), start)).wait()
    assert not any("missing" in t for t in clicked.ephemeral_texts())
    table = await bot.store.load(channel)
    assert table is not None and table.status == "active"
    assert fd.message(lobby.id).embeds
    assert fd.errors == []
