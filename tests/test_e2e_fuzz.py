"""Fuzzing the bot's edge through the real discord.py and the fake Discord (issue 8).

Hypothesis crafts custom_ids (forged onto messages the user can see), select values,
slash options and autocomplete input, sent by the player to move, a seated player
waiting, a stranger and a member of another server, from the game's channel, another
channel, another server and DMs. Every input is one that must not change the game
(garbage, another channel, a stale version, a move no engine allows), so after each:
exactly one answer, private, nothing logged as an error, and the stored game as it was.
One bot per test; the examples are few and each is one interaction, so a test stays well
under 10 seconds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import table as table_rules
from bot.client import HauntBot
from bot.core import wire
from bot.core.errors import IllegalAction
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn
from tests.edge_helpers import logged_errors, private_answer, snapshot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

E2E = settings(max_examples=40, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
WHO = ("mover", "idle", "stranger", "rival")
WHERE = ("game", "side", "away", "dm")
SEATED = ("mover", "idle")
GAME_KINDS = ("move", "fight", "choose")
TABLE_KINDS = ("lobby.join", "lobby.leave", "lobby.ai", "lobby.start", "lobby.pick",
               "lobby.second", "table.end", "gm.kick", "gm.skip", "view.secret",
               "view.choices")
# What no name in the game starts with, and no index below 12 reads as.
JUNK = st.text(alphabet="²٣~#%-+ ", max_size=8) | st.integers(12, 2**70).map(str)
TEXT = JUNK | st.text(max_size=30)


class Scene:
    """One started game and the people and places that poke at it (a plain class: its
    repr is what hypothesis prints for a failing example)."""

    def __init__(self, bot: HauntBot, game: int, channels: dict[str, int],
                 users: dict[str, FakeUser], seen: dict[tuple[str, str], FakeMessage],
                 version: int, host: str, errors: list[str]) -> None:
        self.bot, self.game, self.channels, self.users = bot, game, channels, users
        self.errors = errors  # ERROR lines logged since the scene was set
        self.seen = seen  # (who, where) -> a message they can see there
        self.version = version
        self.host = host  # "mover" or "idle": who must not end the game by clicking

    def __repr__(self) -> str:
        return f"<Scene game={self.game} version={self.version} host={self.host}>"


@pytest.fixture
async def scene(fd: FakeDiscord, start_hauntkeeper: BotFactory) -> AsyncIterator[Scene]:
    game, side = fd.add_channel("game"), fd.add_channel("side")
    elsewhere = fd.add_guild("Elsewhere")
    away = fd.add_channel("away", guild=elsewhere)
    host, guest, stranger = fd.add_user("host"), fd.add_user("guest"), fd.add_user("stranger")
    rival = fd.add_user("rival", guild=elsewhere, manage_channels=True)
    fd.join_guild(rival, fd.guild_id)
    bot = await start_hauntkeeper()
    await (await fd.slash(host, game, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(guest, game, "game", "join")).wait()
    await (await fd.slash(host, game, "game", "start")).wait()
    table = await bot.store.load(game)
    assert table is not None
    seat = table_rules.to_act_seat(table)
    assert seat is not None
    mover = host if table.seats[seat].user_id == host.id else guest
    users = {"mover": mover, "idle": guest if mover is host else host,
             "stranger": stranger, "rival": rival}
    seen: dict[tuple[str, str], FakeMessage] = {}
    for who, user in users.items():
        seen[who, "game"] = latest_turn(fd, game)
        status = await (await fd.slash(user, side, "game", "status")).wait()
        seen[who, "side"] = status.messages[0]  # an ephemeral "no game here"
        if who in SEATED:
            seen[who, "dm"] = fd.dms(user)[0]
    status = await (await fd.slash(rival, away, "game", "status")).wait()
    seen["rival", "away"] = status.messages[0]
    with logged_errors() as errors:
        yield Scene(bot, game, {"game": game, "side": side, "away": away}, users, seen,
                    table.version, "mover" if mover is host else "idle", errors)


def _place(who: str, where: str) -> str:
    """Where this user can be: DMs only for the seated, the other server only for rival."""
    if (where == "dm" and who not in SEATED) or (where == "away" and who != "rival"):
        return "side"
    return where


@st.composite
def actions(draw: st.DrawFn) -> str:
    """An action's wire form: garbage, or a well-formed one of any kind."""
    if draw(st.booleans()):
        return draw(TEXT)
    kind = draw(st.sampled_from(GAME_KINDS + TABLE_KINDS) | st.from_regex(r"[a-z]{1,8}",
                                                                            fullmatch=True))
    keys = draw(st.lists(st.sampled_from(["character", "room", "remove", "pick", "user", "x"]),
                         unique=True, max_size=3))
    values = [draw(st.integers(0, 2**64).map(str) | JUNK | st.sampled_from(["N", "a"]))
              for _ in keys]
    return wire.write_action(kind, dict(zip(keys, values, strict=True)))


def _harmless(scene: Scene, who: str, channel: str, version: str, action: str) -> str:
    """The action, changed where it could be a legal move for this user into one that is
    not: every int of the mover's game moves at 12 or more (no such character, room or
    choice); nobody seated leaves; the host does not end the game."""
    try:
        kind, args = wire.read_action(action)
        if channel != str(scene.game) or version not in ("0", str(scene.version)):
            return action  # another channel, or stale: refused before any rule is read
    except IllegalAction:
        return action
    if who in SEATED and kind == "lobby.leave":
        kind = "lobby.join"
    if who == scene.host and kind == "table.end":
        kind = "table.ended"
    if who == "mover" and kind in GAME_KINDS:
        args = {k: v + 12 if isinstance(v, int) and v < 12 else v for k, v in args.items()}
    return wire.write_action(kind, args)


@st.composite
def custom_ids(draw: st.DrawFn, scene: Scene, who: str, select: bool) -> tuple[str, list[str]]:
    channel = draw(st.sampled_from([str(c) for c in scene.channels.values()])
                   | st.sampled_from(["0", str(2**63), str(2**64), "٣", "-1", "01"])
                   | st.integers(1, 2**63 - 1).map(str))
    version = draw(st.sampled_from(["0", str(scene.version), str(scene.version + 1), "1",
                                    str(2**31), "²", "-0"]))
    prefix = draw(st.sampled_from(["hks:" if select else "hk:", "hk:", "hks:", "x:", ""]))
    if select:
        tail = draw(st.sampled_from(["0", "1", "24", "25", "x", "0:0"]))
        values = [_harmless(scene, who, channel, version, draw(actions()))
                  for _ in range(draw(st.integers(0, 2)))]
        return f"{prefix}{channel}:{version}:{tail}", values
    action = _harmless(scene, who, channel, version, draw(actions()))
    return f"{prefix}{channel}:{version}:{action}", []


@E2E
@given(data=st.data(), who=st.sampled_from(WHO), where=st.sampled_from(WHERE),
       select=st.booleans())
async def test_forged_clicks_are_answered_once_privately_and_change_nothing(
        fd: FakeDiscord, scene: Scene, data: st.DataObject, who: str, where: str,
        select: bool) -> None:
    place = _place(who, where)
    custom_id, values = data.draw(custom_ids(scene, who, select))
    if not custom_id.strip():
        custom_id = "x"  # Discord requires a custom_id of 1 to 100 characters
    before = await snapshot(scene.bot, scene.game)
    handle = await (await fd.forge(scene.users[who], scene.seen[who, place], custom_id,
                                   values=values if select else None)).wait()
    assert private_answer(handle)
    assert await snapshot(scene.bot, scene.game) == before
    assert scene.errors == []


@E2E
@given(who=st.sampled_from(WHO), where=st.sampled_from(WHERE),
       command=st.sampled_from(["move", "fight"]), first=TEXT, second=TEXT, junk=JUNK)
async def test_slash_options_are_answered_once_privately_and_change_nothing(
        fd: FakeDiscord, scene: Scene, who: str, where: str, command: str, first: str,
        second: str, junk: str) -> None:
    place = _place(who, where)
    channel = (fd.dm_channel_id(scene.users[who]) or 0) if place == "dm" \
        else scene.channels[place]
    if who == "mover" and place == "game":
        first = junk  # a name or index of the mover's could be a legal move
    names = ("character", "room") if command == "move" else ("room", "remove")
    options = dict(zip(names, (first or "²", second or "²"), strict=True))  # none empty
    before = await snapshot(scene.bot, scene.game)
    handle = await (await fd.slash(scene.users[who], channel, "cthulhu", command,
                                   **options)).wait()
    assert private_answer(handle)
    offered = await fd.autocomplete(scene.users[who], channel, "cthulhu", command,
                                    focused=names[1], **options)
    assert len(offered) <= 25
    assert await snapshot(scene.bot, scene.game) == before
    assert scene.errors == []


@E2E
@given(who=st.sampled_from(WHO), where=st.sampled_from(("game", "side", "away")),
       command=st.sampled_from(["join", "start", "end", "leave", "rules", "status", "log"]),
       typed=TEXT)
async def test_table_commands_with_garbage_are_answered_once_privately(
        fd: FakeDiscord, scene: Scene, who: str, where: str, command: str,
        typed: str) -> None:
    place = _place(who, where)
    if (command == "leave" and who in SEATED) or (command == "end" and who == scene.host):
        command = "status"  # these would act, rightly
    options = {"pick": typed} if command == "join" and typed else {}
    options = {"topic": typed or "x"} if command == "rules" else options
    before = await snapshot(scene.bot, scene.game)
    handle = await (await fd.slash(scene.users[who], scene.channels[place], "game", command,
                                   **options)).wait()
    assert private_answer(handle)
    assert await snapshot(scene.bot, scene.game) == before
    assert scene.errors == []


@E2E
@given(command=st.sampled_from(["seat", "host", "undo"]), seat=JUNK, steps=st.integers(1, 20))
async def test_gm_options_with_garbage_are_answered_once_privately(
        fd: FakeDiscord, scene: Scene, command: str, seat: str, steps: int) -> None:
    """A moderator's /gm seat naming no seat (digits Python reads but are not ASCII, huge
    numbers), /gm host of someone not seated, /gm undo with nothing to undo."""
    mod = scene.users.get("mod")
    if mod is None:
        mod = scene.users["mod"] = fd.add_user("mod", manage_channels=True)
    stranger = scene.users["stranger"]
    options: dict[str, object] = {
        "seat": {"seat": seat or "²", "member": stranger},
        "host": {"member": stranger},
        "undo": {"steps": steps},
    }[command]
    before = await snapshot(scene.bot, scene.game)
    handle = await (await fd.slash(mod, scene.channels["game"], "gm", command,
                                   **options)).wait()
    assert private_answer(handle)
    assert await snapshot(scene.bot, scene.game) == before
    assert scene.errors == []
