"""A sweep of bad input over the whole synced command tree and every custom_id family,
through the real discord.py and the fake Discord.

The standard (docs/architecture.md, "The edge reads and refuses"): bad input from
anyone (a non-player, the wrong turn, an impossible move, a stale button, garbage or
huge numbers in an option or a custom_id) gets a short, clear, ephemeral answer, and the
game is untouched. The other edge tests each take one corner (tests/test_e2e_fuzz.py:
Cthulhu's commands and forged ids; test_e2e_stale_options.py: values outside an option's
declaration; test_e2e_forged_clicks.py: the hklog/hkr/hkh prefixes). This one walks
every leaf of `bot.tree` (so a command added later is swept too) and every component
family, each from a sample of places (a running game of each kind, a lobby, a paused
game, a finished one, a channel with no game, a DM) and people (a non-player, a seated
player whose turn it is not, a moderator with nothing valid to do), with a sample of
bad values: empty and 6,000-character strings, control characters, zero-width and
right-to-left marks, huge and negative numbers as text, floats, `@everyone` and a role
mention, markdown that would leave a code block.

After every interaction: an answer within Discord's 3 s, every message private, a
refusal short, no traceback or "our side" line and no ERROR logged, nothing sent that
could ping everyone or a role, no public post, and every stored table exactly as it was
(state, version, status, seats, host). Values are sampled, not crossed (each option gets
each bad value from one place), so the whole sweep stays well under a minute.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands

from bot import table as table_rules
from bot.client import HauntBot
from bot.core.actions import Action
from bot.texts import say
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, press_move
from tests.edge_helpers import logged_errors, snapshot
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.fakediscord.models import Json

DEADLINE = 3.0  # Discord's: the first answer within 3 s
SHORT = 300  # a refusal's characters at most
PINGS = re.compile(r"@everyone|@here|<@&\d+>")
OOPS = say("errors.oops")
INT53 = 2**53 - 1
QUIET = 0.01  # seconds with no request under way: the interaction is done


def bad_strings(role: int) -> list[str]:
    """What a player can type into any string option."""
    return [
        "",
        " ",
        "@everyone",
        f"<@&{role}> @here",
        "```\n@everyone\n```",
        "`` ` ``@everyone",
        "\u202e\u200b\u200d\ufeff",
        "a\x00b\x07\x1b[31mc\r\n",
        "٣",
        "²",
        str(2**63),
        "-1",
        str(10**30),
        "1.5",
        "1e308",
        "-0",
        "#0",
        "x" * 6000,
        "**[x](https://example.com)** ||s|| > q",
    ]


@dataclass
class World:
    """The bot, its tables and the people and places that poke at them."""

    bot: HauntBot
    fd: FakeDiscord
    channels: dict[str, int]
    users: dict[str, FakeUser]
    role: int
    turns: dict[str, FakeMessage] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    count: int = 0
    sent: dict[int, list[Json | None]] = field(default_factory=dict)

    async def state(self) -> tuple[Any, ...]:
        """Everything stored that bad input must not change, and the public channels."""
        tables = [await snapshot(self.bot, c) for c in self.channels.values()]
        settings = await self.bot.store.guild_settings(self.fd.guild_id)
        posts = [(m.id, m.text, len(m.history)) for c in self.channels.values()
                 for m in self.fd.channel_messages(c)]
        return (tables, settings, posts)


async def _build(fd: FakeDiscord, start_hauntkeeper: BotFactory) -> World:
    names = ("cthulhu", "evilbelow", "betrayal", "lobby", "paused", "over", "side")
    channels = {name: fd.add_channel(name) for name in names}
    host, guest = fd.add_user("host"), fd.add_user("guest")
    # The non-player's name is echoed back in places (/stats player): it must not ping.
    stranger = fd.add_user("@everyone stranger")
    mod = fd.add_user("mod", manage_channels=True)
    role = fd.add_role("Game Master")
    bot = await start_hauntkeeper()
    await open_and_start(fd, channels["cthulhu"], [host, guest], "cthulhu", seed=21)
    await open_and_start(fd, channels["evilbelow"], [host, guest], "evilbelow", seed=5)
    betrayal = channels["betrayal"]
    await (await fd.slash(host, betrayal, "game", "new", game="betrayal", seed=3)).wait()
    await (await fd.slash(guest, betrayal, "game", "join")).wait()
    await bot.sessions.act(betrayal, table_rules.Actor(host.id, "host"),
                           Action(table_rules.ADD_AI))
    await (await fd.slash(host, betrayal, "game", "start")).wait()
    await (await fd.slash(host, channels["lobby"], "game", "new", game="betrayal")).wait()
    await (await fd.slash(guest, channels["lobby"], "game", "join")).wait()
    await open_and_start(fd, channels["paused"], [host, guest], "cthulhu", seed=22)
    await (await fd.slash(mod, channels["paused"], "gm", "pause")).wait()
    await open_and_start(fd, channels["over"], [host, guest], "cthulhu", seed=23)
    await (await fd.slash(host, channels["over"], "game", "end")).wait()
    users = {"host": host, "guest": guest, "stranger": stranger, "mod": mod}
    world = World(bot, fd, channels, users, role)
    for name in ("cthulhu", "evilbelow", "betrayal", "paused", "over"):
        world.turns[name] = latest_turn(fd, channels[name])
    return world


# -- checking one interaction ------------------------------------------------------------

def _record_bodies(fd: FakeDiscord, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep each message body's allowed_mentions, as Discord reads them to ping."""
    original = fd._apply_body

    def apply(msg: FakeMessage, body: Json, files: Any, *, editing: bool) -> None:
        original(msg, body, files, editing=editing)
        world.sent.setdefault(msg.id, []).append(body.get("allowed_mentions"))

    monkeypatch.setattr(fd, "_apply_body", apply)


def _said(message: FakeMessage) -> str:
    """What of a message can ping: its content and its text displays (not embeds)."""
    shown = [c.get("content") or "" for c in message.flat_components() if c.get("type") == 10]
    return "\n".join([message.content, *shown])


def _quiet(allowed: Json | None) -> bool:
    """Whether these allowed_mentions keep @everyone, @here and roles from pinging."""
    if allowed is None:
        return False
    parse = allowed.get("parse") or []
    return "everyone" not in parse and "roles" not in parse and not allowed.get("roles")


async def _check(world: World, what: str, handle: InteractionHandle, before: tuple[Any, ...],
                 errors: list[str], *, info: bool = False) -> None:
    """The standard for one interaction; a breach is noted, not raised, so one run
    lists every breach."""
    world.count += 1
    seen = len(errors)

    def fail(why: str) -> None:
        world.failures.append(f"{what}: {why}")

    try:
        await handle.wait(DEADLINE, settle=False)
    except AssertionError:
        fail("no answer within Discord's 3 s")
        return
    await world.fd.settle(quiet=QUIET)  # no discord.py task left, no request under way
    if handle.id in world.fd.late_answers:
        fail("answered late")
    messages = handle.messages
    if not messages:
        fail(f"answered with nothing to read (callback {handle.callback_type})")
    for message in messages:
        text = message.text
        if not message.ephemeral:
            fail(f"public answer {text[:80]!r}")
        if "Traceback" in text or OOPS in text:
            fail(f"our bug shown: {text[:120]!r}")
        if PINGS.search(_said(message)) and not _quiet(world.sent.get(message.id, [None])[-1]):
            fail(f"may ping: {_said(message)[:120]!r}")
    if not info:
        if len(messages) > 1:
            fail(f"{len(messages)} answers: {[m.text[:60] for m in messages]}")
        elif messages and len(messages[0].text) > SHORT:
            fail(f"long refusal ({len(messages[0].text)}): {messages[0].text[:100]!r}")
    if len(errors) > seen:
        fail(f"logged an error: {errors[seen:]}")
    if await world.state() != before:
        fail("the stored game or a public message changed")


# -- the command tree ---------------------------------------------------------------------

PLACES = ("cthulhu", "evilbelow", "betrayal", "lobby", "paused", "over", "side", "dm")
RUNNING = ("cthulhu", "evilbelow", "betrayal")
NO_GAME = ("over", "side")  # no open table: nothing there to act on
GAME_GROUPS = ("betrayal", "cthulhu", "evilbelow")
# Commands that answer with what they show (privately): any caller, any place.
SHOWING = frozenset({"game status", "game map", "game log", "help", "stats player",
                     "stats server", "secret", "gm log", "betrayal sheet"})
Option = app_commands.Parameter


def leaves(bot: HauntBot) -> list[app_commands.Command[Any, ..., Any]]:
    return sorted((c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)),
                  key=lambda c: c.qualified_name)


def _free_text(param: Option) -> bool:
    return param.type is discord.AppCommandOptionType.string and (
        bool(param.autocomplete) or not param.choices)


def _in_dms(command: app_commands.Command[Any, ..., Any]) -> bool:
    root = command.root_parent or command
    contexts = root.allowed_contexts or command.allowed_contexts
    return bool(contexts and contexts.dm_channel) and not command.guild_only


async def _mover(world: World, place: str) -> str | None:
    """Who is to act in the place's game ("host" or "guest"), if a human is."""
    table = await world.bot.store.load(world.channels[place]) if place in world.channels \
        else None
    if table is None or table.state is None or table.paused:
        return None
    seat = table_rules.to_act_seat(table)
    user = table.seats[seat].user_id if seat is not None else None
    return next((k for k, u in world.users.items() if u.id == user), None)


async def people(world: World, name: str, place: str, command: Any) -> list[str]:
    """Who may send this command here with nothing valid in it: every one of them must
    be refused (or, for SHOWING, only shown something)."""
    root = name.split()[0]
    if name in SHOWING:
        return ["stranger", "guest", "mod"]
    if root in GAME_GROUPS:
        everyone = ["stranger", "host", "guest"]
        if any(_free_text(p) for p in command.parameters):
            return everyone  # the mover too: only nonsense is typed
        reached = root if place == "dm" else place  # the one game of its kind, from a DM
        mover = await _mover(world, reached) if reached == root else None
        return [u for u in everyone if u != mover]
    if root == "gm":
        mod = {
            "gm seat": True, "gm kick": True, "gm host": True, "gm undo": True,
            "gm settings": True, "gm resume": place != "paused", "gm pause": place == "paused",
            "gm end": place in NO_GAME, "gm skip": place in NO_GAME,
        }.get(name, False)
        return ["stranger", "guest"] + (["mod"] if mod else [])
    if name == "game new":
        return ["stranger", "guest", "host"]  # elsewhere a bad setup value is always sent
    guest = {  # the guest is seated in every table here, and host of none
        "game join": True, "game start": True, "game end": True, "game replay": True,
        "game leave": place in NO_GAME,
    }
    host = {"game join": True, "game start": place != "lobby", "game end": place in NO_GAME,
            "game replay": True, "game leave": place in NO_GAME}
    return ["stranger"] + [u for u, ok in (("guest", guest), ("host", host))
                           if ok.get(name, False)]


class Values:
    """Bad values in turn, so every option meets each of them somewhere in the sweep."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.strings = bad_strings(world.role)
        self.turn = itertools.count()

    def __call__(self, name: str, param: Option, place: str) -> Any:
        n = next(self.turn)
        kind = param.type
        fd, users = self.world.fd, self.world.users
        if kind is discord.AppCommandOptionType.string:
            if param.choices and not param.autocomplete:
                return param.choices[n % len(param.choices)].value
            low = int(param.min_value or 0)
            high = int(param.max_value or 6000)
            fitting = [s[:high] for s in self.strings if len(s[:high]) >= low]
            if name == "game new":  # a setup value: none names a value, any game
                fitting = [s for s in fitting if s.strip()[:1] not in ("", "-", "1", "x")]
            return fitting[n % len(fitting)]
        if kind is discord.AppCommandOptionType.integer:
            ends = [int(param.min_value) if param.min_value is not None else -INT53,
                    int(param.max_value) if param.max_value is not None else INT53]
            return ends[n % 2]
        if kind is discord.AppCommandOptionType.number:
            return [0.5, -1e300, 1e300][n % 3]
        if kind is discord.AppCommandOptionType.boolean:
            return True
        if kind is discord.AppCommandOptionType.user:
            return [users["stranger"], fd.bot_user][n % 2]
        if kind is discord.AppCommandOptionType.role:
            return fd.guild_id  # the @everyone role
        if kind is discord.AppCommandOptionType.channel:
            return self.world.channels["side"]
        raise AssertionError(f"no bad value for {name} {param.name} ({kind})")


def _options(values: Values, command: Any, name: str, place: str, who: str,
             mover: bool) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for param in command.parameters:
        if name == "game new" and param.name == "seed":
            continue  # the fake lends a seed's sender the moderators' role
        if mover and not param.required and not _free_text(param):
            continue  # the mover's own choice (a door) would be a move
        options[param.display_name] = values(name, param, place)
    if name == "game new" and place in NO_GAME:
        # Elsewhere /game new opens a lobby: a setup value that names nothing is sent.
        options.setdefault("layout", "@everyone")
    return options


def _channel(world: World, place: str, user: FakeUser) -> int:
    return world.fd.open_dm(user) if place == "dm" else world.channels[place]


@pytest.fixture
async def world(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                monkeypatch: pytest.MonkeyPatch) -> World:
    built = await _build(fd, start_hauntkeeper)
    _record_bodies(fd, built, monkeypatch)
    fd.enforce_command_permissions = False  # a server may open /gm to anyone: code checks
    return built


async def test_every_command_refuses_bad_input_privately_and_changes_nothing(
        world: World) -> None:
    values = Values(world)
    with logged_errors() as errors:
        for command in leaves(world.bot):
            name = command.qualified_name
            for place in PLACES:
                if place == "dm" and not _in_dms(command):
                    continue
                for user in await people(world, name, place, command):
                    await _send(world, values, command, place, user, errors)
    assert world.count >= 500, world.count
    assert world.failures == [], "\n".join(world.failures)


async def _send(world: World, values: Values, command: Any, place: str, user: str,
                errors: list[str]) -> None:
    """One command as `user` sends it in `place`, every option bad, checked."""
    name = command.qualified_name
    mover = user == await _mover(world, name.split()[0] if place == "dm" else place)
    options = _options(values, command, name, place, user, mover)
    before = await world.state()
    handle = await world.fd.slash(world.users[user], _channel(world, place, world.users[user]),
                                  *name.split(), **options)
    shown = {k: (v[:20] if isinstance(v, str) else v) for k, v in options.items()}
    await _check(world, f"/{name} in {place} by {user} {shown}", handle, before, errors,
                 info=name in SHOWING)


async def test_a_refusal_that_quotes_what_was_typed_cannot_ping(world: World) -> None:
    """Refusals quote the words typed ("No rules topic called '@everyone'", "There is no
    seat <@&role>"), and discord.py sends a message without allowed_mentions unless told:
    Discord then reads @everyone, @here and role mentions in it as pings. The standard:
    nothing echoed may ping; the bot never means to ping everyone or a role."""
    fd, users, role = world.fd, world.users, world.role
    typed = f"@everyone <@&{role}>"
    sends = [
        (users["stranger"], world.channels["side"], ("game", "rules"), {"topic": typed}),
        (users["mod"], world.channels["betrayal"], ("gm", "seat"),
         {"seat": typed, "member": users["stranger"]}),
        (users["guest"], world.channels["cthulhu"], ("cthulhu", "fight"),
         {"room": typed, "remove": typed}),
        (users["stranger"], world.channels["lobby"], ("game", "join"), {"pick": typed}),
    ]
    with logged_errors() as errors:
        for user, channel, path, options in sends:
            before = await world.state()
            handle = await fd.slash(user, channel, *path, **options)
            await _check(world, f"/{' '.join(path)}", handle, before, errors)
            assert "@everyone" in _said(handle.messages[0])  # it is quoted: so it must not ping
    assert world.failures == [], "\n".join(world.failures)


async def test_a_rules_topic_nobody_has_is_refused_in_a_short_line(world: World) -> None:
    """The standard: bad input gets a short, clear answer. A topic that names nothing
    listed every topic of every game (where no game is open), 1,500 characters of
    "Betrayal at House on the Hill: How to play, Betrayal at House on the Hill: ...";
    a game's own list (Evil Below's runs past 500) was no shorter to read. A short list
    is still named; a long one is left to the picker the option already offers."""
    fd, stranger = world.fd, world.users["stranger"]
    with logged_errors() as errors:
        for place in ("side", "evilbelow", "cthulhu"):
            before = await world.state()
            handle = await fd.slash(stranger, world.channels[place], "game", "rules",
                                    topic="nonsense")
            await _check(world, f"/game rules in {place}", handle, before, errors)
    assert world.failures == [], "\n".join(world.failures)
    cthulhu = await fd.autocomplete(stranger, world.channels["cthulhu"], "game", "rules",
                                    focused="topic", topic="")
    assert cthulhu  # the picker offers the topics


# -- autocomplete ------------------------------------------------------------------------

async def test_every_autocomplete_answers_bad_input_within_discords_limits(
        world: World) -> None:
    """Autocomplete has nobody to refuse: whatever is typed (and whatever the other
    options hold), an answer in time, at most 25 choices of 1 to 100 characters, no
    error, nothing changed."""
    fd, strings, turn = world.fd, bad_strings(world.role), itertools.count()
    values = Values(world)
    with logged_errors() as errors:
        for command in leaves(world.bot):
            name = command.qualified_name
            completed = [p for p in command.parameters if p.autocomplete]
            for param, place in itertools.product(completed, PLACES):
                if place == "dm" and not _in_dms(command):
                    continue
                n = next(turn)
                user = world.users[("stranger", "host", "guest", "mod")[n % 4]]
                options = {p.display_name: values(name, p, place) for p in command.parameters
                           if p is not param and p.type is discord.AppCommandOptionType.string
                           and not p.choices}
                options[param.display_name] = strings[n % len(strings)]
                what = f"autocomplete /{name} {param.name} in {place} {options}"[:200]
                before = await world.state()
                seen = len(errors)
                world.count += 1
                try:
                    offered = await fd.autocomplete(user, _channel(world, place, user),
                                                    *name.split(), focused=param.display_name,
                                                    timeout=DEADLINE, **options)
                except AssertionError:
                    world.failures.append(f"{what}: no answer within Discord's 3 s")
                    continue
                if len(offered) > 25 or any(
                        not 1 <= len(str(c["name"])) <= 100 or len(str(c["value"])) > 100
                        for c in offered):
                    world.failures.append(f"{what}: choices Discord refuses: {offered}")
                if len(errors) > seen:
                    world.failures.append(f"{what}: logged an error: {errors[seen:]}")
                if await world.state() != before:
                    world.failures.append(f"{what}: the stored game changed")
    assert world.count >= 40, world.count
    assert world.failures == [], "\n".join(world.failures)


# -- components --------------------------------------------------------------------------

HK = re.compile(r"(hks?):([^:]*):([^:]*):(.*)", re.S)
INFO_KINDS = ("view.secret", "view.choices", "view.step", "view.how_to_play")
# What a field of a custom_id can be mangled into (`{id}` another game's channel).
CHANNELS = ("0", "-1", str(2**63), str(10**30), "٣", "", "1.5", " {ch}", "{ch}\u200b",
            "0{ch}", "{other}")
VERSIONS = ("-1", str(2**31), str(2**63), "1.5", "", "٣", "{stale}", "{ver}\u200f")
ACTIONS = ("", "x" * 90, "lobby.joi", "view.step~n=99999", f"view.step~n={2**63}",
           "table.again~game=0", f"table.again~game={2**62}", "choose~pick=" + str(2**63),
           "\u202emove", "move~a=1~a=2", "move~room=-1", "view.secret~x=1.5",
           "gm.kick~user={stranger}", "lobby.pick~name=explorer~value=everyone")
SELECT_TAILS = ("25", "-1", "99", "", "0:0", str(2**63))
SELECT_VALUES: tuple[list[str], ...] = (
    [], ["x"], ["\x00"], ["a" * 100], [str(2**63)], ["view.step~n=" + str(2**63)],
    ["table.again~game=1"], ["move~character=0~room=0", "move~character=1~room=1"],
    ["gm.undo~steps=99"], ["view.how_to_play~x=@everyone"])
STRAYS = ("x", "\u200b", "\u202e" * 50, "hk", "hks", "hkl:1", "HK:1:1:x", "hkx:1:1",
          "hkh:2:{ch}", "hkh:1:", "hkh:1:{ch}:1", "hkr:1:-1", "hkr:2:1", "hkr:1:1.5",
          "hklog:0:x", "hklog:-1:x", f"hklog:{10**30}:x", "hklog:1:older\n", "@everyone",
          "```", "hk:{ch}:{ver}:view.secret\x00")


def mangled(custom_id: str, fill: dict[str, str]) -> Iterator[str]:
    """The id with each field mangled in turn (the rest as they were)."""
    found = HK.fullmatch(custom_id)
    if found is None:
        return
    prefix, channel, version, rest = found.groups()
    fill = {**fill, "ver": version, "stale": str(int(version) - 1)}
    for bad in CHANNELS:
        yield f"{prefix}:{bad.format(**fill)}:{version}:{rest}"
    for bad in VERSIONS:
        if bad == "{stale}" and version in ("0", "1"):
            continue  # any version (a lobby's), or none older
        yield f"{prefix}:{channel}:{bad.format(**fill)}:{rest}"
    for bad in ACTIONS if prefix == "hk" else SELECT_TAILS:
        yield f"{prefix}:{channel}:{version}:{bad.format(**fill)}"[:100]


async def _forge(world: World, user: FakeUser, message: FakeMessage, custom_id: str,
                 values: list[str] | None, what: str, errors: list[str]) -> None:
    before = await world.state()
    handle = await world.fd.forge(user, message, custom_id or "x", values=values)
    await _check(world, what, handle, before, errors)


ENTITY_SELECTS = {5: 6, 6: 8, 7: 9, 8: 7}  # a select's component type -> its option type


async def _forge_entity_select(world: World, user: FakeUser, message: FakeMessage,
                               custom_id: str, kind: int, errors: list[str]) -> None:
    """Our id on a user, role, mentionable or channel select: no client shows one, a
    modified one can send it (discord.py builds the item from the payload's kind)."""
    fd, resolved = world.fd, {}
    target: Any = {5: world.users["guest"], 6: fd.guild_id, 7: world.users["guest"],
                   8: world.channels["side"]}[kind]
    value = fd._resolve_snowflake(ENTITY_SELECTS[kind], target, resolved, message.channel_id)
    data = {"custom_id": custom_id, "component_type": kind, "id": 2, "values": [value],
            "resolved": resolved}
    shown = [{"type": 1, "id": 1, "components": [{"type": kind, "id": 2,
                                                  "custom_id": custom_id}]}]
    before = await world.state()
    handle = await fd._fire(3, user, message.channel_id, data, message, shown)
    await _check(world, f"{custom_id!r} as a select of type {kind}", handle, before, errors)


async def test_every_custom_id_family_refuses_every_mangled_field(world: World) -> None:
    """Each of our ids as posted (a live message's buttons and selects, a lobby's, a
    paused game's, the end's, Whole house, Replay, a log page), forged with one field
    mangled at a time, from every kind of place, by a non-player, a waiting player and
    the one to act: unreadable, stale or refused; the same ids sent as the other kind of
    component; and ids that are none of ours."""
    fd, users, channels = world.fd, world.users, world.channels
    stranger = users["stranger"]
    messages = dict(world.turns)
    lobby = await world.bot.store.lobby_message(
        (await world.bot.store.load(channels["lobby"])).id or 0)  # type: ignore[union-attr]
    messages["lobby"] = fd.message(lobby or 0)
    messages["dm"] = fd.dms(users["host"])[-1]
    log = await fd.slash(users["host"], channels["evilbelow"], "game", "log", page=1)
    await log.wait()
    messages["private"] = log.messages[0]
    ids = {place: [c for c in m.custom_ids()] for place, m in messages.items()}
    ids["whole"] = [f"hkh:1:{channels['betrayal']}"]
    ids["replay"] = [c for c in ids["over"] if c.startswith("hkr:")]
    ids["log"] = ["hklog:1:older"]
    assert ids["lobby"] and ids["over"] and ids["replay"], ids
    turn = itertools.count()
    with logged_errors() as errors:
        for family, custom_ids in ids.items():
            sample = custom_ids[:: max(1, len(custom_ids) // 4)]  # a few of each message
            for custom_id in sample:
                place = family if family in channels else "cthulhu"
                fill = {"ch": str(channels.get(place, channels["cthulhu"])),
                        "other": str(channels["side"]), "stranger": str(stranger.id)}
                variants = list(mangled(custom_id, fill))
                if not variants:  # hkh, hkr, hklog: sent as a select, and its prefix kept
                    head = custom_id.rsplit(":", 1)[0]
                    variants = [f"{head}:{bad.format(**fill)}" for bad in CHANNELS]
                for variant in variants:
                    n = next(turn)
                    where = ("cthulhu", "evilbelow", "betrayal", "lobby", "paused", "over",
                             "dm", "private")[n % 8]
                    user = users["host"] if where in ("dm", "private") else \
                        (stranger, users["guest"], users["host"])[n % 3]
                    select = variant.startswith("hks:") or n % 5 == 0
                    values = SELECT_VALUES[n % len(SELECT_VALUES)] if select else None
                    await _forge(world, user, messages[where], variant, values,
                                 f"{family} {variant!r} {values} on {where} by {user.name}",
                                 errors)
        for n, kind in enumerate(ENTITY_SELECTS):  # our ids as a user, role, ... select
            custom_id = (ids["cthulhu"][0], ids["lobby"][0], ids["whole"][0], "hkr:1:1")[n]
            await _forge_entity_select(world, stranger, messages["cthulhu"], custom_id, kind,
                                       errors)
        for n, stray in enumerate(STRAYS):
            fill = {"ch": str(channels["betrayal"]), "ver": "1"}
            where = ("betrayal", "dm", "lobby")[n % 3]
            await _forge(world, stranger if where != "dm" else users["host"],
                         messages[where], stray.format(**fill), None,
                         f"stray {stray!r} on {where}", errors)
    assert world.count >= 150, world.count
    assert world.failures == [], "\n".join(world.failures)


# What each may press on the lobby's message and be refused: the guest is seated, the
# host is seated and hosts, the stranger neither.
LOBBY_REFUSED = {
    "stranger": {table_rules.LEAVE, table_rules.ADD_AI, table_rules.REMOVE_AI,
                 table_rules.START},
    "guest": {table_rules.JOIN, table_rules.START, table_rules.REMOVE_AI},
    "host": {table_rules.JOIN},
}


def _acts(custom_id: str, values: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The actions a click or a choice names: (kind, args) each."""
    found = HK.fullmatch(custom_id)
    if found is None:
        return []
    wires = [found.group(4)] if found.group(1) == "hk" else values
    out = []
    for wire_form in wires:
        action = Action.decode(wire_form)
        out.append((action.kind, dict(action.args)))
    return out


async def test_every_real_control_refuses_the_wrong_people(world: World) -> None:
    """Every control as posted, pressed (every select's options chosen) by someone who may
    not: a non-player on a live message, the lobby's and a paused game's; a seated
    player on the turn of another (their own out-of-turn row left out); everyone on a
    paused game's; then, once the player to act has moved, every control of the message
    as it was (a client that has not redrawn it): stale. What only shows something (My
    secrets, Whole house, How to play, a private choice) may show it, privately."""
    fd, users, channels = world.fd, world.users, world.channels
    lobby_id = await world.bot.store.lobby_message(
        (await world.bot.store.load(channels["lobby"])).id or 0)  # type: ignore[union-attr]
    messages = {**{p: world.turns[p] for p in (*RUNNING, "paused")},
                "lobby": fd.message(lobby_id or 0)}
    with logged_errors() as errors:
        for place, message in messages.items():
            mover = await _mover(world, place)
            table = await world.bot.store.load(channels[place])
            assert table is not None
            for comp in message.flat_components():
                custom_id = comp["custom_id"]
                if not custom_id:
                    continue
                options = [o["value"] for o in comp["options"]][:3] or [None]
                for value in options:
                    acts = _acts(custom_id, [value] if value else [])
                    kinds = {kind for kind, _ in acts}
                    info = custom_id.startswith("hkh:") or bool(kinds & set(INFO_KINDS))
                    for who in ("stranger", "guest", "host"):
                        user = users[who]
                        seat = table.seat_of(user.id)
                        if who == mover and place != "paused":
                            continue  # theirs to play
                        if place == "lobby" and not info and kinds - LOBBY_REFUSED[who]:
                            continue  # a seat taken or left, an AI added: plays
                        if seat is not None and any(args.get(table_rules.FOR_SEAT) == seat
                                                    for _, args in acts):
                            continue  # their own out-of-turn control: plays
                        before = await world.state()
                        if value is None:
                            handle = await fd.click(user, message, custom_id)
                        else:
                            handle = await fd.select(user, message, custom_id, [value])
                        await _check(world, f"{custom_id} {value} on {place} by {who}",
                                     handle, before, errors, info=info)
        # A real move, then the message as it was: every control of it is stale now.
        for place in ("cthulhu", "betrayal"):
            old = [(c["custom_id"], [o["value"] for o in c["options"]][:1] or None)
                   for c in world.turns[place].flat_components()
                   if c["custom_id"] and c["custom_id"].startswith(("hk:", "hks:"))
                   and ":0:view." not in c["custom_id"]]
            mover_key = await _mover(world, place)
            assert mover_key is not None and old
            played = await press_move(fd, users[mover_key], latest_turn(fd, channels[place]))
            await played.wait()
            for n, (custom_id, values) in enumerate(old):
                who = ("host", "guest", "stranger")[n % 3]
                before = await world.state()
                handle = await fd.forge(users[who], world.turns[place], custom_id,
                                        values=values)
                await _check(world, f"stale {custom_id} {values} by {who}", handle, before,
                             errors)
                said = handle.messages[0].content if handle.messages else ""
                if who != "stranger":
                    assert said == say("errors.stale"), (custom_id, who, said)
    assert world.count >= 40, world.count
    assert world.failures == [], "\n".join(world.failures)
