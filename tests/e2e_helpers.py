"""Reading the bot's channel as a player would: whose move it is, and what to click."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

from bot.core.actions import Action
from bot.texts import say
from cogs.components import STEP
from tests.fakediscord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    flat_components,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MENTION = re.compile(r"<@(\d+)>")
COMMAND_MENTION = re.compile(r"</([\w -]+):(\d+)>")
ACTION_ROW, SECTION, TEXT_DISPLAY, CONTAINER = 1, 9, 10, 17


def unlinked(text: str) -> str:
    """A line as data/ writes it: each clickable command mention back to `/name`."""
    return COMMAND_MENTION.sub(lambda m: "/" + m.group(1), text)


async def open_and_start(fd: FakeDiscord, channel: int, users: list[FakeUser], game: str,
                         seed: int) -> None:
    """The first user opens a game, the others join by command, the first starts it."""
    await (await fd.slash(users[0], channel, "game", "new", game=game, seed=seed)).wait()
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()


def turn_messages(fd: FakeDiscord, channel: int) -> list[FakeMessage]:
    """The bot's turn posts: public messages carrying game components or a board."""
    return [m for m in fd.channel_messages(channel)
            if m.author_id == fd.bot_user.id and not m.interaction_id
            and (any(c.startswith(("hk:", "hks:")) for c in m.custom_ids()) or m.attachments)]


def turn_posts(fd: FakeDiscord, channel: int) -> int:
    """How many deliveries the table was shown: each turn message as posted, and each
    edit of it that showed something new (the live message is edited in place), not
    the edit that took its controls away (a new chapter's message holds them now)."""
    count = 0
    for message in turn_messages(fd, channel):
        versions = [*message.history, message.snapshot()]
        count += 1
        for before, after in itertools.pairwise(versions):
            now, then = ([c for c in flat_components(v["components"]) if c["custom_id"]]
                         for v in (after, before))  # its controls (a v2 frame stays)
            if (now and now != then) or (said(after) != said(before)
                                          and (now or not then)):
                count += 1
    return count


def said(version: dict[str, Any]) -> str:
    """A message version's words: its content, or a v2 layout's text displays."""
    return str(version["content"] or "") or "\n".join(
        str(c.get("content") or "") for c in flat_components(version["components"])
        if c["type"] == TEXT_DISPLAY)


def latest_turn(fd: FakeDiscord, channel: int) -> FakeMessage:
    return turn_messages(fd, channel)[-1]


def to_move(message: FakeMessage) -> int | None:
    """The user the post asks to move (its turn text's last line mentions them)."""
    lines = [line for line in message.text.splitlines() if "your move" in line]
    found = MENTION.findall(lines[-1]) if lines else []
    return int(found[0]) if found else None


def _heading() -> re.Pattern[str]:
    """The words above another seat's row on the live message, any name in them."""
    before, after = say("view.other_heading", name="\x00").split("\x00")
    return re.compile(re.escape(before) + "(.+?)" + re.escape(after))


OTHER_HEADING = _heading()


def flat_controls(message: FakeMessage) -> list[dict[str, Any]]:
    """The message's leaf components as a player reads them: on the live message (a
    Components v2 layout), each control of a row under another seat's name is labelled
    with that name ("bob: Ring the bell"), as a classic message labels it itself."""
    out: list[dict[str, Any]] = []

    def walk(components: list[dict[str, Any]]) -> None:
        name = ""
        for comp in components:
            found = OTHER_HEADING.fullmatch(str(comp.get("content") or "")) \
                if comp.get("type") == TEXT_DISPLAY else None
            if found:
                name = found.group(1)
                continue
            if comp.get("type") == ACTION_ROW and name:
                for leaf in flat_components([comp]):
                    for key in ("label", "placeholder"):
                        if leaf.get(key):
                            leaf[key] = f"{name}: {leaf[key]}"
                    out.append(leaf)
                name = ""
                continue
            if comp.get("type") in (ACTION_ROW, CONTAINER, SECTION):
                if comp.get("type") == SECTION:
                    out.extend(flat_components([comp]))
                else:
                    walk(list(comp.get("components") or []))
                continue
            out.extend(flat_components([comp]))

    walk(message.components)
    return out


def game_components(message: FakeMessage) -> list[dict[str, Any]]:
    return [c for c in flat_controls(message)
            if (c.get("custom_id") or "").startswith(("hk:", "hks:"))
            and "view.secret" not in (c.get("custom_id") or "")]


async def play_by_click(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                        rng: random.Random) -> InteractionHandle:
    """One move by clicking: a pending choice first, else a fight, else a move."""
    comps = game_components(message)
    choices = [c for c in comps if c["type"] == 2 and ":choose~" in c["custom_id"]]
    if choices:
        return await (await fd.click(user, message, rng.choice(choices)["custom_id"])).wait()
    selects = [c for c in comps if c["type"] == 3]
    fights = [c for c in selects if c.get("placeholder", "").startswith("Fight")]
    buttons = [c for c in comps if c["type"] == 2]
    pool = fights or selects
    if pool and (fights or not buttons or rng.random() < 0.5):
        select = rng.choice(pool)
        value = rng.choice(select["options"])["value"]
        handle = await (await fd.select(user, message, select["custom_id"], [value])).wait()
    else:
        handle = await (await fd.click(user, message, rng.choice(buttons)["custom_id"])).wait()
    return await second_step(fd, user, handle)


async def second_step(fd: FakeDiscord, user: FakeUser,
                      handle: InteractionHandle) -> InteractionHandle:
    """The first half of a two-step choice answers privately with the second (which die,
    where to): pick its first option, so the move is made."""
    steps = [m for m in handle.messages if m.ephemeral and game_components(m)]
    return await use_first(fd, user, steps[-1]) if steps else handle


async def use_first(fd: FakeDiscord, user: FakeUser, message: FakeMessage) -> InteractionHandle:
    """Press the first game component of a message (a button, or a select's first entry),
    and a two-step choice's first second step."""
    comp = game_components(message)[0]
    if comp["type"] == 2:
        handle = await (await fd.click(user, message, comp["custom_id"])).wait()
    else:
        value = comp["options"][0]["value"]
        handle = await (await fd.select(user, message, comp["custom_id"], [value])).wait()
    return await second_step(fd, user, handle)


def direct_control(message: FakeMessage) -> tuple[dict[str, Any], str | None]:
    """The message's first game control that plays a move at once: a button, or a
    select and its first entry, passing over the first halves of two-step choices (they
    answer privately with the second). The select's value, or None for a button."""
    for comp in game_components(message):
        if comp["type"] == 2 and STEP not in comp["custom_id"]:
            return comp, None
        if comp["type"] == 3:
            for option in comp["options"]:
                if Action.decode(option["value"]).kind != STEP:
                    return comp, option["value"]
    raise AssertionError("no control plays a move at once")


async def press_direct(fd: FakeDiscord, user: FakeUser,
                       message: FakeMessage) -> InteractionHandle:
    """Press `direct_control(message)`: one click, one move (not yet waited for)."""
    comp, value = direct_control(message)
    if value is None:
        return await fd.click(user, message, comp["custom_id"])
    return await fd.select(user, message, comp["custom_id"], [value])


async def press_move(fd: FakeDiscord, user: FakeUser, message: FakeMessage) -> InteractionHandle:
    """Press the message's first control and, when that is the first half of a two-step
    choice (answered privately with the second), the second half's first: the handle of
    the press that plays the move, not yet waited for (a test may hold its edit)."""
    comp = game_components(message)[0]
    if comp["type"] == 2:
        handle = await fd.click(user, message, comp["custom_id"])
        half = STEP in comp["custom_id"]
    else:
        value = comp["options"][0]["value"]
        handle = await fd.select(user, message, comp["custom_id"], [value])
        half = Action.decode(value).kind == STEP
    if not half:
        return handle
    await handle.wait(15, settle=False)
    private = [m for m in handle.messages if m.ephemeral and game_components(m)][-1]
    second = game_components(private)[0]
    if second["type"] == 2:
        return await fd.click(user, private, second["custom_id"])
    return await fd.select(user, private, second["custom_id"], [second["options"][0]["value"]])


async def press_old(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                    comp: dict[str, Any]) -> InteractionHandle:
    """Press a component the message showed earlier (read before the live message was
    edited): what a client that has not redrawn it yet sends."""
    values = [comp["options"][0]["value"]] if comp["type"] == 3 else None
    return await (await fd.forge(user, message, comp["custom_id"], values=values)).wait()


def seeding_as_moderator(fd: FakeDiscord) -> Callable[..., Awaitable[InteractionHandle]]:
    """Scripted hosts choose seeds for games that play the same every run, and only
    moderators may choose one (cogs/lobby.py, fair seeds): the host of a seeded
    `/game new` holds the channel-manager role for that one command. A test of the
    seed rule itself takes this away (`monkeypatch.delattr(fd, "slash")`)."""
    plain = fd.slash

    async def slash(user: FakeUser, channel_id: int, command: str, /, *path: str,
                    **options: Any) -> InteractionHandle:
        if command != "game" or path[:1] != ("new",) or options.get("seed") is None:
            return await plain(user, channel_id, command, *path, **options)
        channel = fd.channels[channel_id]
        role = fd.guild_of(channel).manager_role_id if not channel.is_dm else None
        lent = role is not None and role not in user.role_ids
        if lent:
            fd.give_role(user, role)  # type: ignore[arg-type]
        try:  # the interaction carries the member as they are when it is sent
            return await plain(user, channel_id, command, *path, **options)
        finally:
            if lent:
                user.role_ids.remove(role)

    return slash
