"""The fake Discord takes Components v2 messages (the IS_COMPONENTS_V2 flag) as Discord
does (tests/fakediscord/layout.py): no content or embeds beside the flag, v2 components
only with it, the flag never taken off, a legacy message's content reset when an edit
turns it into a layout, and a media gallery naming only uploads the message holds, which
it then shows (resolved to the attachment, as Discord answers)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord import FakeDiscord
from tests.test_fake_spec import accepted, call, refused

V2 = 1 << 15


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def gallery(name: str, alt: str = "the board") -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": f"attachment://{name}"},
                                   "description": alt}]}


def frame(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "accent_color": 0x6B3FA0, "components": list(children)}


async def test_a_layout_has_no_content_or_embeds_beside_it(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    path = f"/channels/{channel}/messages"
    await refused(fd, "POST", path, {"flags": V2, "content": "hi",
                                     "components": [text("hi")]}, "content")
    await refused(fd, "POST", path, {"flags": V2, "embeds": [{"title": "t"}],
                                     "components": [text("hi")]}, "embeds")
    made = await accepted(fd, "POST", path, {"flags": V2, "components": [text("hi")]})
    assert fd.message(int(made["id"])).text == "hi" and fd.message(int(made["id"])).v2


async def test_v2_components_need_the_flag(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    path = f"/channels/{channel}/messages"
    await refused(fd, "POST", path, {"components": [frame(text("hi"))]}, "components", "0")
    await refused(fd, "POST", path, {"content": "x", "components": [text("hi")]},
                  "components", "0")


async def test_a_gallery_shows_an_upload_of_its_message_only(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    path = f"/channels/{channel}/messages"
    body = {"flags": V2, "components": [frame(text("turn"), gallery("a.png"))],
            "attachments": [{"id": 0, "filename": "a.png"}]}
    made = await accepted(fd, "POST", path, body, multipart=True)
    message = fd.message(int(made["id"]))
    assert message.gallery() == [(b"\x89PNG", "the board")]
    media = made["components"][0]["components"][1]["items"][0]["media"]
    assert media["attachment_id"] == made["attachments"][0]["id"]
    assert media["url"] == made["attachments"][0]["url"]

    wrong = {**body, "components": [frame(text("turn"), gallery("b.png"))]}
    await refused(fd, "POST", path, wrong, "components", "0", "components", "1", "items", "0",
                  "media", "url", multipart=True)
    await refused(fd, "POST", path, {"flags": V2, "components": [gallery("a.png")]},
                  "components", "0", "items", "0", "media", "url")  # nothing uploaded

    # An edit that sends no file keeps the upload, and the gallery may name it again.
    edit = f"{path}/{message.id}"
    await accepted(fd, "PATCH", edit, {"flags": V2, "components": [
        frame(text("next turn"), gallery("a.png", "the board, later"))]})
    assert fd.message(message.id).gallery() == [(b"\x89PNG", "the board, later")]
    assert fd.message(message.id).text == "next turn"
    # An edit that drops the upload cannot show it.
    await refused(fd, "PATCH", edit, {"attachments": [], "components": [
        frame(text("gone"), gallery("a.png"))]}, "components", "0", "components", "1",
        "items", "0", "media", "url")


async def test_the_flag_is_set_once_and_for_good(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    path = f"/channels/{channel}/messages"
    old = await accepted(fd, "POST", path, {"content": "a classic message"})
    edit = f"{path}/{old['id']}"
    # A legacy message becomes a layout only with its content reset (null).
    await refused(fd, "PATCH", edit, {"flags": V2, "components": [text("now v2")]},
                  "content")
    await accepted(fd, "PATCH", edit, {"flags": V2, "content": None,
                                       "components": [text("now v2")]})
    message = fd.message(int(old["id"]))
    assert message.v2 and message.content == "" and message.text == "now v2"
    # ...and stays one: the flag cannot be taken off, nor content put back.
    await refused(fd, "PATCH", edit, {"flags": 0, "components": [text("x")]}, "flags")
    await refused(fd, "PATCH", edit, {"content": "back to text"}, "content")
    await accepted(fd, "PATCH", edit, {"components": [text("still v2")]})
    assert fd.message(message.id).text == "still v2" and fd.message(message.id).v2


async def test_a_layout_mentions_from_its_text_displays(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    ann = fd.add_user("ann")
    path = f"/channels/{channel}/messages"
    loud = await accepted(fd, "POST", path, {"flags": V2, "components": [
        frame(text(f"<@{ann.id}>, it's your move."))]})
    quiet = await accepted(fd, "POST", path, {"flags": V2, "allowed_mentions": {"parse": []},
                                              "components": [text(f"<@{ann.id}>")]})
    assert fd.message(int(loud["id"])).pinged == [ann.id]
    assert fd.message(int(quiet["id"])).pinged == []


async def test_forty_components_at_most(fd: FakeDiscord) -> None:
    channel = fd.add_channel("v2")
    path = f"/channels/{channel}/messages"
    fits = [frame(*(text(str(n)) for n in range(39)))]  # 39 + the frame
    await accepted(fd, "POST", path, {"flags": V2, "components": fits})
    status, _ = await call(fd, "POST", path, {"flags": V2, "components": [
        frame(*(text(str(n)) for n in range(40)))]})
    assert status == 400 and fd.violations
    fd.violations.clear()
