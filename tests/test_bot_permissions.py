"""The bot's own permissions: which it needs, how the missing ones are named, and how
the refusal reads to the actor and in /gm log (cogs/bot_permissions.py, cogs/common.py,
cogs/moderation_views.py). The end-to-end side is tests/test_e2e_permissions.py."""

from __future__ import annotations

import discord
import pytest

from bot.sessions import Outcome
from bot.store import POSTS_BACK, POSTS_REFUSED, LoggedEvent, Notice, Table
from bot.texts import say
from cogs import bot_permissions as bp
from cogs.common import acknowledgement
from cogs.moderation_views import log_text

EVERYTHING = discord.Permissions.all()


def _without(*names: str) -> discord.Permissions:
    perms = discord.Permissions.all()
    perms.administrator = False
    for name in names:
        setattr(perms, name, False)
    return perms


def test_nothing_is_missing_with_every_permission_or_administrator() -> None:
    assert bp.missing(_without(), bp.CHANNEL) == []
    admin = discord.Permissions(administrator=True)  # no other bit: Administrator is all
    assert bp.missing(admin, bp.CHANNEL + bp.TEAM_THREADS) == []


@pytest.mark.parametrize(("taken", "named"), [
    (("attach_files",), ["attach_files"]),
    (("embed_links",), ["embed_links"]),
    # the bot reads no history (it edits its own messages by id): never asked
    (("read_message_history",), []),
    # Discord takes Embed Links and Attach Files away with Send Messages: one name is enough
    (("send_messages", "embed_links", "attach_files"), ["send_messages"]),
    # and everything with View Channel
    (("view_channel", "send_messages", "attach_files"), ["view_channel"]),
])
def test_the_missing_ones_are_named_once_each(taken: tuple[str, ...],
                                              named: list[str]) -> None:
    assert bp.missing(_without(*taken), bp.CHANNEL) == named


def test_a_game_in_a_thread_needs_send_messages_in_threads_instead() -> None:
    assert "send_messages" not in bp.needed(thread=True)
    assert bp.missing(_without("send_messages"), bp.needed(thread=True)) == []
    assert bp.missing(_without("send_messages_in_threads"), bp.needed(thread=True)) == [
        "send_messages_in_threads"]


def test_a_thread_is_known_by_its_type_even_when_only_partly_known() -> None:
    class Partial:
        def __init__(self, kind: discord.ChannelType) -> None:
            self.type = kind

    assert bp.in_a_thread(Partial(discord.ChannelType.private_thread))
    assert not bp.in_a_thread(Partial(discord.ChannelType.text))
    assert not bp.in_a_thread(None)


def test_only_games_with_teams_want_the_thread_permissions() -> None:
    assert bp.has_teams("betrayal")
    assert not bp.has_teams("cthulhu") and not bp.has_teams("evilbelow")
    assert not bp.has_teams("no such game")


def test_names_read_as_discord_shows_them() -> None:
    assert bp.names_text(["send_messages"]) == "Send Messages"
    assert bp.names_text(["embed_links", "attach_files"]) == "Embed Links and Attach Files"
    assert bp.names_text(["view_channel", "send_messages", "attach_files"]) == \
        "View Channel, Send Messages and Attach Files"
    assert bp.names_text([]) == say("permissions.some_permission")
    for name in bp.NAMED:  # every one the checks may name has words in data/
        assert bp.names_text([name]) != say("permissions.some_permission")


def _outcome(refused: list[str] | None, delivered: bool = False) -> Outcome:
    return Outcome(Table(channel_id=42, guild_id=1, kind="cthulhu", host_id=7, seed=1), [],
                   delivered=delivered, refused=refused)


def test_the_actor_reads_why_the_move_is_not_shown_yet() -> None:
    assert acknowledgement(_outcome(None, delivered=True), "Moved.") == "Moved."
    assert acknowledgement(_outcome(None), "Moved.") == say("delivery_owed")
    assert acknowledgement(_outcome(["attach_files"]), "Moved.") == say(
        "permissions.refused", channel="<#42>", missing="Attach Files")
    assert acknowledgement(_outcome([]), "Moved.") == say(
        "permissions.refused_unknown", channel="<#42>")


def test_the_moderators_log_shows_the_bots_notices_among_their_actions_by_time() -> None:
    kicked = LoggedEvent(seq=3, version=2, ts=200.0, actor_id=9, audience="public",
                         text="bob's seat is now played by the AI.")
    notices = [Notice(100.0, POSTS_REFUSED, "send_messages,not_a_permission"),
               Notice(300.0, POSTS_BACK)]
    text = log_text([kicked], notices, bot_id=5)
    lines = text.splitlines()
    assert lines[0] == say("moderation.log_title")
    assert lines[1:] == [
        say("moderation.log_line", ts=100, user=5,
            text=say("permissions.log_refused", missing="Send Messages")),
        say("moderation.log_line", ts=200, user=9, text=kicked.text),
        say("moderation.log_line", ts=300, user=5, text=say("permissions.log_back")),
    ]
    assert log_text([], []) == say("moderation.log_empty")
