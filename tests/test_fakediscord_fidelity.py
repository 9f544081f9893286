"""The fake Discord refuses what Discord refuses where the bot depends on it: messages of
a deleted channel, a channel's threads going with it, locked and archived threads, a
channel of the wrong type, an empty message, and an interaction's deadlines.

Why: a fake more lenient than Discord lets a bot pass its tests that real Discord turns
away (a live message edited in a thread Discord archived after a quiet week, a game left
open in a thread whose channel was deleted). Each rule here is quoted from Discord's
developer documentation where it is written:

- Threads topic, "Locked Threads": "Users (including bot users) without the
  MANAGE_THREADS permission are more restricted in locked threads. Users won't be able
  to create or update messages in locked threads ... some user activity like deleting
  messages ... will *only* be allowed in locked threads if that thread is also active."
- Threads topic, "Active & Archived Threads": "Users cannot edit messages, add reactions,
  use application commands, or join archived threads. The only operation that should
  happen within an archived thread is messages being deleted. Sending a message will
  automatically unarchive the thread, unless the thread has been locked by a moderator."
- JSON error codes: 10003 Unknown channel, 10008 Unknown message, 50006 Cannot send an
  empty message, 50008 Cannot send messages in a non-text channel, 50024 Cannot execute
  action on this channel type, 50027 Invalid webhook token, 50083 "Tried to perform an
  operation on an archived thread, such as editing a message or adding a user to the
  thread", 160005 Thread is locked, 10062 Unknown interaction, 40060 Interaction has
  already been acknowledged.
- Receiving and Responding: "Interaction tokens are valid for 15 minutes ... but you
  must send an initial response within 3 seconds of receiving the event. If the 3
  second deadline is exceeded, the token will be invalidated."
- A channel's threads go with it; Discord sends CHANNEL_DELETE only ("THREAD_DELETE is
  not sent when you delete parent channels", discord.js pull request 10883; discord.py
  2.4 tells its own thread_delete for the threads it holds, pull request 9796).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, FakeUser, running_bot
from tests.fakediscord.routes_interactions import ANSWER_SECONDS, TOKEN_SECONDS

BUTTON_ROW = [{"type": 1, "components": [
    {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]


class Listener(discord.Client):
    """A bot that answers nothing: the test answers for it over REST, and reads which
    gateway events reached it and which thread deletions discord.py told."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), enable_debug_events=True)
        self.events: list[str] = []
        self.threads_deleted: list[int] = []

    async def on_socket_event_type(self, event_type: str) -> None:
        self.events.append(event_type)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.threads_deleted.append(payload.thread_id)


@pytest.fixture
async def fd() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()


async def call(fd: FakeDiscord, method: str, path: str,
               body: Any = None) -> tuple[int, Any]:
    """One raw request to the fake's REST API, as the bot: (status, decoded JSON)."""
    async with aiohttp.ClientSession() as http, http.request(
            method, fd.base_url + "/api/v10" + path,
            json=body if body is not None else None) as resp:
        text = await resp.text()
        return resp.status, (json.loads(text) if text else None)


async def expect(fd: FakeDiscord, method: str, path: str, body: Any,
                 status: int, code: int | None = None) -> Any:
    got, answer = await call(fd, method, path, body)
    assert got == status, (method, path, got, answer)
    if code is not None:
        assert answer["code"] == code, answer
    return answer


async def post(fd: FakeDiscord, channel: int, content: str = "hi",
               components: list[dict[str, Any]] | None = None) -> int:
    body: dict[str, Any] = {"content": content}
    if components is not None:
        body["components"] = components
    answer = await expect(fd, "POST", f"/channels/{channel}/messages", body, 200)
    return int(answer["id"])


def thread_under(fd: FakeDiscord, parent: int, owner: FakeUser) -> int:
    return fd.add_thread(parent, "talk", owner=owner)


async def test_a_deleted_channels_messages_are_unknown_with_it(fd: FakeDiscord) -> None:
    """Get, edit or delete a message of a deleted channel: 404 Unknown Channel (10003);
    a deleted message of a channel that is there: 404 Unknown Message (10008)."""
    general = fd.add_channel("general")
    kept, gone = await post(fd, general), await post(fd, general)
    await expect(fd, "DELETE", f"/channels/{general}/messages/{gone}", None, 204)
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        await expect(fd, method, f"/channels/{general}/messages/{gone}", body, 404, 10008)
    await expect(fd, "DELETE", f"/channels/{general}", None, 200)
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        await expect(fd, method, f"/channels/{general}/messages/{kept}", body, 404, 10003)
    await expect(fd, "POST", f"/channels/{general}/messages", {"content": "x"}, 404, 10003)
    await expect(fd, "POST", f"/channels/{general}/threads", {"name": "t", "type": 11},
                 404, 10003)
    assert not fd.message(kept).deleted and fd.message(kept).content == "hi"


async def test_a_channels_threads_go_with_it_told_by_channel_delete_alone(
        fd: FakeDiscord) -> None:
    """Deleting a channel deletes its threads: their routes answer 10003 from then on.
    The gateway says CHANNEL_DELETE for the channel and no THREAD_DELETE; discord.py
    tells raw_thread_delete itself for the active threads it holds, and for an archived
    one (not held) nothing at all."""
    hall, other = fd.add_channel("hall"), fd.add_channel("other")
    owner = fd.add_user("owner")
    active, archived = thread_under(fd, hall, owner), thread_under(fd, hall, owner)
    elsewhere = thread_under(fd, other, owner)
    fd.channels[archived].archived = True
    async with running_bot(Listener(), fd) as bot:
        said = await post(fd, active)
        bot.events.clear()
        await fd.delete_channel(hall)
        await fd.settle()
        assert bot.events == ["CHANNEL_DELETE"]
        assert bot.threads_deleted == [active]
    assert fd.threads(hall) == [] and [t.id for t in fd.threads()] == [elsewhere]
    await expect(fd, "POST", f"/channels/{active}/messages", {"content": "x"}, 404, 10003)
    await expect(fd, "PATCH", f"/channels/{active}/messages/{said}", {"content": "x"},
                 404, 10003)
    await expect(fd, "GET", f"/channels/{archived}", None, 404, 10003)
    await post(fd, elsewhere)


async def test_a_locked_thread_takes_posts_and_edits_from_a_thread_manager_only(
        fd: FakeDiscord) -> None:
    """Locked, active: without Manage Threads a post or an edit is 403 160005, a delete
    is taken; with it everything is. Locked and archived: without it a post, an edit
    and a delete are 400 50083."""
    hall = fd.add_channel("hall")
    thread = thread_under(fd, hall, fd.add_user("owner"))
    said = await post(fd, thread)
    fd.channels[thread].locked = True
    await post(fd, thread, "a moderator bot may")
    fd.revoke_bot_permissions("manage_threads")
    messages = f"/channels/{thread}/messages"
    await expect(fd, "POST", messages, {"content": "x"}, 403, 160005)
    await expect(fd, "PATCH", f"{messages}/{said}", {"content": "x"}, 403, 160005)
    doomed = await _made_before(fd, thread)
    await expect(fd, "DELETE", f"{messages}/{doomed}", None, 204)
    fd.channels[thread].archived = True
    await expect(fd, "POST", messages, {"content": "x"}, 400, 50083)
    await expect(fd, "PATCH", f"{messages}/{said}", {"content": "x"}, 400, 50083)
    await expect(fd, "DELETE", f"{messages}/{said}", None, 400, 50083)
    assert fd.channels[thread].archived and fd.message(said).content == "hi"
    fd.violations.clear()
    fd.errors.clear()


async def _made_before(fd: FakeDiscord, thread: int) -> int:
    """A message of the bot's in the thread, made while the thread let it post."""
    state = fd.channels[thread].locked, fd.bot_permissions
    fd.channels[thread].locked = False
    made = await post(fd, thread, "to delete")
    fd.channels[thread].locked, fd.bot_permissions = state
    return made


async def test_an_archived_thread_takes_a_post_that_wakes_it_and_no_edit(
        fd: FakeDiscord) -> None:
    """Archived, not locked: an edit is 400 50083 even for a thread manager, and adding
    a member too; a delete is taken; a post is taken and unarchives the thread, which
    the bot hears as THREAD_UPDATE."""
    hall = fd.add_channel("hall")
    owner, guest = fd.add_user("owner"), fd.add_user("guest")
    thread = thread_under(fd, hall, owner)
    said, doomed = await post(fd, thread), await post(fd, thread)
    fd.channels[thread].archived = True
    messages = f"/channels/{thread}/messages"
    await expect(fd, "PATCH", f"{messages}/{said}", {"content": "x"}, 400, 50083)
    await expect(fd, "PUT", f"/channels/{thread}/thread-members/{guest.id}", None, 400, 50083)
    await expect(fd, "DELETE", f"{messages}/{doomed}", None, 204)
    async with running_bot(Listener(), fd) as bot:
        bot.events.clear()
        await post(fd, thread, "awake")
        await fd.settle()
        assert not fd.channels[thread].archived
        assert "THREAD_UPDATE" in bot.events
    await expect(fd, "PATCH", f"{messages}/{said}", {"content": "edited"}, 200)
    await expect(fd, "PUT", f"/channels/{thread}/thread-members/{guest.id}", None, 204)
    fd.errors.clear()


async def test_a_category_holds_no_messages_and_no_threads(fd: FakeDiscord) -> None:
    category = fd.add_channel("games")
    fd.channels[category].type = 4
    await expect(fd, "POST", f"/channels/{category}/messages", {"content": "x"}, 400, 50008)
    await expect(fd, "POST", f"/channels/{category}/threads", {"name": "t", "type": 11},
                 400, 50024)
    fd.errors.clear()


async def test_a_message_with_nothing_to_show_is_refused(fd: FakeDiscord) -> None:
    """Create or edit, a message left with no content, embed, component, poll or file
    is 400 50006, and fails the test that sent it (`violations`)."""
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    await expect(fd, "POST", path, {"content": ""}, 400, 50006)
    await expect(fd, "POST", path, {"embeds": [], "components": []}, 400, 50006)
    assert len(fd.violations) == 2
    said = await post(fd, general, "text", BUTTON_ROW)
    await expect(fd, "PATCH", f"{path}/{said}", {"content": None}, 200)  # buttons left
    await expect(fd, "PATCH", f"{path}/{said}", {"components": []}, 400, 50006)
    assert len(fd.violations) == 3
    assert fd.message(said).custom_ids() == ["go"]
    fd.violations.clear()
    fd.errors.clear()


async def test_an_interaction_is_answered_within_3_seconds_and_followed_for_15_minutes(
        fd: FakeDiscord) -> None:
    """The first answer after 3 s: 404 Unknown interaction (10062); a second answer:
    40060; a follow-up or an edit of @original after 15 minutes: 401 Invalid Webhook
    Token (50027)."""
    general = fd.add_channel("general")
    user = fd.add_user("player")
    board = await post(fd, general, "board", BUTTON_ROW)
    answer = {"type": 4, "data": {"content": "ok", "flags": 64}}
    async with running_bot(Listener(), fd):
        late = await fd.click(user, board, "go")
        fd.advance_clock(ANSWER_SECONDS + 0.1)
        await expect(fd, "POST", f"/interactions/{late.id}/{late.token}/callback", answer,
                     404, 10062)
        assert fd.late_answers == [late.id] and not late.responded
        prompt = await fd.click(user, board, "go")  # sent at the clock as it is now
    callback = f"/interactions/{prompt.id}/{prompt.token}/callback"
    await expect(fd, "POST", callback, answer, 200)
    await expect(fd, "POST", callback, answer, 400, 40060)
    hook = f"/webhooks/{fd.application_id}/{prompt.token}"
    await expect(fd, "POST", hook + "?wait=true", {"content": "more", "flags": 64}, 200)
    fd.advance_clock(TOKEN_SECONDS + 1)
    await expect(fd, "POST", hook, {"content": "late"}, 401, 50027)
    await expect(fd, "PATCH", hook + "/messages/@original", {"content": "late"}, 401, 50027)
    assert prompt.texts() == ["ok", "more"]
    fd.errors.clear()


async def test_another_users_message_is_deleted_with_manage_messages_only(
        fd: FakeDiscord) -> None:
    """Delete Message: "if operating on a guild channel and trying to delete a message
    that was not sent by the current user, this endpoint requires the MANAGE_MESSAGES
    permission"; in a DM the other's message is never the bot's to delete (50003)."""
    general = fd.add_channel("general")
    user = fd.add_user("player")
    async with running_bot(Listener(), fd):
        theirs = await fd.post_message(user, general, "mine")
        dm = fd.open_dm(user)
        private = await fd.post_message(user, dm, "hello bot")
    fd.set_bot_permissions(general, deny=["manage_messages"])
    await expect(fd, "DELETE", f"/channels/{general}/messages/{theirs.id}", None, 403, 50013)
    await expect(fd, "DELETE", f"/channels/{dm}/messages/{private.id}", None, 403, 50003)
    fd.clear_bot_permissions(general)
    fd.bot_permissions = discord.Permissions.all().value
    await expect(fd, "DELETE", f"/channels/{general}/messages/{theirs.id}", None, 204)
    fd.errors.clear()
