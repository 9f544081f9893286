"""Hostile input fuzzed against a running game of every system, through the real
discord.py and the fake Discord.

The standard (docs/architecture.md, "The edge reads and refuses"): bad input from
anyone (a non-player, the wrong turn, an impossible move, a stale button, garbage or
huge numbers in an option or a custom_id) gets a short, clear, ephemeral answer, and the
game is untouched.

The other edge tests sweep fixed lists (tests/test_e2e_bad_input_sweep.py) or fuzz one
game (tests/test_e2e_fuzz.py: Cthulhu). Here Hypothesis takes the custom_ids the bot
really posted in a running game of each system (Cthulhu in the House, Betrayal exploring,
Betrayal in a haunt with the traitor playing from DMs, the Neibolt House in Let's Kill
This Clown, IT: Evil Below), on its live message, in the players' DMs and on the lobby
as it was opened, and mangles every field of them (prefix, channel, version, the action
and each of its arguments, the separators, the length), or sends them as they are, as a
player, the player to move, a seat's holder pressing another seat's row, a non-player,
an English or a Chinese one; then after an undo, and after the game ended. And every
slash command and /gm subcommand with garbage that Discord would deliver (the fake
validates types and declared bounds too), and every autocomplete.

Whether an input may play is not guessed: `judge` reads the id with the bot's own
strict reader and dry-runs the table's rules on the stored table, as the bot would; an
input those rules accept is a legal move and is left out (counted). Every other input
must be refused: one ephemeral answer of at most two lines in the clicker's language
(Chinese for a zh-TW user), the stored table and every public message and DM exactly as
they were, no ERROR logged, no request the fake does not know, nothing Discord would
refuse. What only shows something (My secrets, a private choice, a second step, How to
play, Whole house, the status, the rules...) may show it, privately, at any length.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import games
from bot import table as table_rules
from bot.core import wire
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal.content import betrayal_line
from bot.games.neibolt import encounters
from bot.locales import CHINESE, speaking
from bot.store import Table
from bot.texts import say
from cogs import click_limit
from cogs.components import (
    CHANNEL_ONLY,
    HOW_TO_PLAY,
    PLAY_AGAIN,
    PRIVATE_CHOICES,
    SECRET,
    STEP,
)
from tests.betrayal_haunt_helpers import grow
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.edge_helpers import logged_errors
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle
from tests.test_e2e_betrayal_haunt import grown_house, until_a_private_turn

# More examples for a longer hunt (HOSTILE_SCALE=10); the suite runs the few.
SCALE = int(os.environ.get("HOSTILE_SCALE", "1"))
E2E = settings(max_examples=60 * SCALE, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture,
                                      HealthCheck.too_slow, HealthCheck.filter_too_much])
SYSTEMS = ("cthulhu", "betrayal", "haunt", "neibolt", "evilbelow")
OWN = {"cthulhu": "cthulhu", "betrayal": "betrayal", "haunt": "betrayal",
       "neibolt": "betrayal", "evilbelow": "evilbelow"}  # each system's command group
INFO_KINDS = frozenset({SECRET, PRIVATE_CHOICES, HOW_TO_PLAY, STEP})
CJK = re.compile(r"[\u3400-\u9fff]")
MAX_LINES = 2
MAX_CHARS = 300
ZH = "zh-TW"
# Typed garbage: no CJK (so the answer's language is the clicker's, not an echo), no
# name anything in a game starts with.
JUNK_ALPHABET = "²٣~#%+:=-_ .,;!?\u200b\u202e\u0301\x00\x7f\t\n" + "QZXqzx@<>`*|"
JUNK = st.text(alphabet=JUNK_ALPHABET, min_size=1, max_size=20)
NUMBERS = (st.sampled_from(["-1", "0", "00", "01", "+1", "1.0", "1e3", "²", "٣", "", " 1",
                            "0x1", "-0", "1_0", str(2**31), str(2**63), str(2**63 - 1),
                            str(2**64), str(10**30), "9" * 40])
           | st.integers(2**31, 2**70).map(str) | st.integers(-2**70, -1).map(str)
           | st.integers(0, 40).map(str))


# -- the scene: one running game, its people and the ids it posted ------------------------

@dataclass
class Scene:
    """A running game and who pokes at it (a plain class: its repr names the system)."""

    system: str
    fd: FakeDiscord
    bot: Any
    channel: int
    side: int
    players: list[FakeUser]
    strangers: list[FakeUser]
    mod: FakeUser
    ids: dict[str, list[tuple[FakeMessage, str, list[str]]]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"<Scene {self.system} channel={self.channel}>"

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    async def table(self) -> Table:
        table: Table | None = await self.bot.store.load_latest(self.channel)
        assert table is not None
        return table

    async def mover(self) -> FakeUser | None:
        table = await self.table()
        seat = table_rules.to_act_seat(table) if table.status == table_rules.ACTIVE else None
        user = table.seats[seat].user_id if seat is not None else None
        return next((p for p in self.players if p.id == user), None)

    async def state(self) -> tuple[Any, ...]:
        """All bad input must leave: the stored table, every public message as shown
        (the live message among them) and every player's DMs."""
        table = await self.table()
        posts = [(m.id, m.text, m.components, len(m.history), m.deleted)
                 for c in (self.channel, self.side) for m in self.fd.channel_messages(c)]
        dms = [(m.id, m.text, len(m.history)) for p in self.players for m in self.fd.dms(p)]
        return (table.version, table.status, table.state, [s.to_dict() for s in table.seats],
                table.host_id, table.paused, posts, dms)


def _controls(message: FakeMessage) -> list[tuple[FakeMessage, str, list[str]]]:
    """A message's controls of ours: (message, custom_id, a select's option values)."""
    out = []
    for comp in message.flat_components():
        custom_id = comp.get("custom_id") or ""
        if custom_id.startswith(("hk", "hks")):
            out.append((message, custom_id, [o["value"] for o in comp.get("options") or []]))
    return out


def _record(scene: Scene) -> None:
    """The ids the game posted: the live message's and each player's DM prompts' (the
    lobby's were kept by `_open`)."""
    scene.ids["live"] = _controls(latest_turn(scene.fd, scene.channel))
    scene.ids["dm"] = [c for p in scene.players for m in scene.fd.dms(p) for c in _controls(m)]


async def _open(fd: FakeDiscord, scene: Scene, game: str, seed: int,
                **options: Any) -> FakeMessage:
    """The first player opens the lobby, the rest join, the first starts; the lobby's
    ids are kept as they were before the start took them away."""
    first, *rest = scene.players
    opened = await (await fd.slash(first, scene.channel, "game", "new", game=game, seed=seed,
                                   **options)).wait()
    lobby = opened.messages[-1]
    for user in rest:
        await (await fd.slash(user, scene.channel, "game", "join")).wait()
    scene.ids["lobby"] = _controls(lobby)
    await (await fd.slash(first, scene.channel, "game", "start")).wait()
    return lobby


def _neibolt_house(state: Any) -> Any:
    """The Neibolt House explored to 14 rooms, THE EATER OF WORLDS met this turn with
    four encounters face up: the next End turn starts Let's Kill This Clown
    (tests/test_neibolt_e2e.py does the same)."""
    state = grow(state, 14, 3000, turn_start=False)
    deck, up = state.decks[encounters.DECK], state.discards[encounters.DECK]
    trigger = "the_eater_of_worlds"
    for card in [trigger, *(k for k in list(deck) if k != trigger)][: max(0, 4 - len(up))]:
        if card in deck:
            deck.remove(card)
            up.append(card)
    if trigger not in up:
        up.append(trigger)
        deck.remove(trigger)
    state.turn.flags[encounters.DRAWN] = [trigger]
    return state


async def _haunted(scene: Scene, rig: Any, haunt: str, patch: ExitStack) -> None:
    """The house grown by `rig`, then the End turn typed by whoever is to move: the
    haunt roll starts `haunt`."""
    bot, fd = scene.bot, scene.fd
    table = await scene.table()
    kind = games.get("betrayal")
    table.state = kind.dump(rig(kind.load(table.state or {})))
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    mover = await scene.mover()
    assert mover is not None
    with patch:
        ended = await (await fd.slash(mover, scene.channel, "betrayal", "end-turn")).wait()
    state = BETRAYAL.load((await scene.table()).state or {})
    assert state.haunt is not None and state.haunt.key == haunt, ended.ephemeral_texts()


async def build(system: str, fd: FakeDiscord, start_hauntkeeper: BotFactory) -> Scene:
    channel, side = fd.add_channel(system), fd.add_channel("side")
    count = {"cthulhu": 2, "evilbelow": 2, "betrayal": 3, "haunt": 4, "neibolt": 4}[system]
    names = ("ann", "bo", "cy", "dee")[:count]
    players = [fd.add_user(n, locale=ZH if n == "bo" else "en-US") for n in names]
    strangers = [fd.add_user("eve"), fd.add_user("fei", locale=ZH)]
    mod = fd.add_user("mo", manage_channels=True)
    bot = await start_hauntkeeper()
    scene = Scene(system, fd, bot, channel, side, players, strangers, mod)
    fd.enforce_command_permissions = False  # a server may open /gm to anyone: code checks
    if system in ("cthulhu", "evilbelow"):
        await _open(fd, scene, system, 21 if system == "cthulhu" else 5)
    elif system == "betrayal":
        await _open(fd, scene, "betrayal", 3)
    elif system == "haunt":
        await _open(fd, scene, "betrayal", 5)
        await _haunted(scene, grown_house, "pay_the_piper", ExitStack())
        table = await scene.table()
        by_seat = {i: next(u for u in players if u.id == s.user_id)
                   for i, s in enumerate(table.seats)}
        await until_a_private_turn(fd, bot, channel, by_seat)  # the traitor's, from DMs
    else:
        await _open(fd, scene, "betrayal", 7, expansion="neibolt")
        patch = ExitStack()
        patch.enter_context(mock.patch.object(encounters, "HAUNT_AT", 0))
        await _haunted(scene, _neibolt_house, "lets_kill_this_clown", patch)
    await fd.settle()
    _record(scene)
    assert scene.ids["live"] and scene.ids["lobby"], scene.ids
    return scene


@pytest.fixture(params=SYSTEMS)
async def scene(request: pytest.FixtureRequest, fd: FakeDiscord,
                start_hauntkeeper: BotFactory) -> AsyncIterator[Scene]:
    built = await build(request.param, fd, start_hauntkeeper)
    with logged_errors() as errors:
        built.errors = errors
        yield built
    print(f"{built!r}: {built.counts}")  # the report's counts (pytest -s)


# -- what the bot must do with an input ---------------------------------------------------

REFUSED, INFO, LEGAL = "refused", "info", "legal"


def judge(table: Table, user: FakeUser, clicked_in: int, in_dm: bool, custom_id: str,
          values: list[str] | None) -> str:
    """What the bot's rules make of this click (cogs/components.py, cogs/rights.py,
    bot/sessions.py, bot/table.py), read with the bot's own reader and the table's own
    rules dry-run: LEGAL (a move: left out), INFO (shows something) or REFUSED."""
    try:
        if custom_id.startswith(("hkh:", "hkr:", "hklog:")):
            return INFO  # Whole house, Replay, a log page: only ever show something
        if custom_id.startswith(wire.SELECT_PREFIX) and values is not None:
            ref = wire.read_select_id(custom_id)
            if len(values) != 1:
                return REFUSED
            action = Action.decode(values[0])
            channel, version = ref.channel_id, ref.version
        elif custom_id.startswith(wire.BUTTON_PREFIX) and values is None:
            button = wire.read_button_id(custom_id)
            action = Action(button.kind, button.args)
            channel, version = button.channel_id, button.version
        else:
            return REFUSED  # none of ours, or a button's id on a select (or back)
    except IllegalAction:
        return REFUSED
    if channel != table.channel_id:
        return REFUSED  # another channel (in a DM: no game of theirs there)
    if not in_dm and clicked_in != channel:
        return REFUSED
    if in_dm and not table.seats_of(user.id):
        return REFUSED
    if action.kind in CHANNEL_ONLY and in_dm:
        return REFUSED
    if action.kind in INFO_KINDS:
        return INFO
    if action.kind == PLAY_AGAIN:
        over = table.status == table_rules.OVER and action.args.get("game") == table.id
        return LEGAL if over else REFUSED
    if version not in (0, table.version):
        return REFUSED  # stale
    try:
        table_rules.apply(table, table_rules.Actor(user.id, user.name), action)
    except IllegalAction:
        return REFUSED
    return LEGAL


async def check(scene: Scene, user: FakeUser, handle: InteractionHandle,
                before: tuple[Any, ...], verdict: str, what: str) -> None:
    """The standard for one input the bot must not play."""
    fd = scene.fd
    await handle.wait(5)
    await fd.settle()
    messages = handle.messages
    assert messages, f"{what}: nothing to read (callback {handle.callback_type})"
    for message in messages:
        assert message.ephemeral, f"{what}: public answer {message.text[:120]!r}"
    if verdict == REFUSED:
        assert len(messages) == 1, f"{what}: {[m.text[:80] for m in messages]}"
        text = messages[0].text.strip()
        lines = text.splitlines()
        assert 1 <= len(lines) <= MAX_LINES and len(text) <= MAX_CHARS, \
            f"{what}: not short ({len(lines)} lines, {len(text)} chars): {text!r}"
        chinese = bool(CJK.search(text))
        assert chinese == (user.locale == ZH), \
            f"{what}: not in {user.name}'s language ({user.locale}): {text!r}"
    assert await scene.state() == before, f"{what}: the game or a message changed"
    assert scene.errors == [], f"{what}: logged {scene.errors}"
    assert fd.unhandled == [], f"{what}: {fd.unhandled}"
    assert fd.violations == [], f"{what}: {fd.violations}"
    assert handle.id not in fd.late_answers, f"{what}: answered late"


# -- mangling an id ------------------------------------------------------------------------

HK = re.compile(r"(hks?):([^:]*):([^:]*):(.*)", re.S)


@st.composite
def mangled(draw: st.DrawFn, custom_id: str, scene: Scene, holder: int | None) -> str:
    """The id with one or two of its fields mangled (or none: the id as posted)."""
    found = HK.fullmatch(custom_id)
    if found is None:  # hkh:1:<channel>, hkr:1:<game>
        head, _, tail = custom_id.rpartition(":")
        field_ = draw(st.sampled_from(["none", "tail", "head", "extra"]))
        if field_ == "tail":
            tail = draw(NUMBERS | JUNK)
        elif field_ == "head":
            head = draw(st.sampled_from(["hkh:2", "hkh:", "hkr:0", "hkh:1:1", "hk:1", "HKH:1"]))
        elif field_ == "extra":
            tail += draw(st.sampled_from([":", ":1", "~", "\x00"]))
        return f"{head}:{tail}"
    prefix, channel, version, rest = found.groups()
    fields = draw(st.lists(st.sampled_from(
        ["prefix", "channel", "version", "rest", "kind", "arg", "seat", "separator", "long",
         "empty"]), max_size=2, unique=True))
    for name in fields:
        if name == "prefix":
            prefix = draw(st.sampled_from(["hk", "hks", "HK", "hkx", "", "hk ", "hkh", "hkr"]))
        elif name == "channel":
            channel = draw(NUMBERS | JUNK | st.sampled_from(
                [str(scene.side), f"0{channel}", f"{channel} ", f"{channel}\u200b",
                 str(int(channel) + 1), f"-{channel}"]))
        elif name == "version":
            version = draw(NUMBERS | JUNK | st.sampled_from(
                [str(int(version) + 1), str(max(0, int(version) - 1)), f"0{version}",
                 f"{version}.0"]))
        elif name == "rest" and prefix == "hks":
            rest = draw(NUMBERS | JUNK | st.sampled_from(["0:0", "25", "24", "1~x=1"]))
        elif name == "rest":
            rest = draw(JUNK | st.sampled_from(
                ["lobby.join", "lobby.start", "table.end", "gm.kick~user=1", "gm.skip",
                 "gm.undo~steps=1", "table.again~game=1", "view.step~n=999",
                 f"view.step~n={2**63}", "move~a=1~a=2", "move~b=1~a=2", "Move",
                 "move.", "x" * 101]))
        elif name == "kind" and "~" in rest:
            rest = draw(st.sampled_from(["x", "choose", "move", "lobby.leave", "gm.seat",
                                         "view.secret", "ü", "a" * 25])) + rest[rest.index("~"):]
        elif name in ("arg", "seat") and "=" in rest:
            pairs = rest.split("~")
            keys = [i for i, p in enumerate(pairs) if "=" in p]
            wanted = [i for i in keys if pairs[i].startswith(table_rules.FOR_SEAT)]
            i = draw(st.sampled_from(wanted if name == "seat" and wanted else keys))
            key = pairs[i].partition("=")[0]
            if key == table_rules.FOR_SEAT and name == "seat":
                other = [str(s) for s in range(len(scene.players) + 1) if s != holder]
                value = draw(st.sampled_from(other) | NUMBERS)
            else:
                value = draw(NUMBERS | JUNK)
            pairs[i] = f"{key}={value}"
            rest = "~".join(pairs)
        elif name == "separator":
            where = draw(st.sampled_from(["::", "~~", "==", ":~", "~", ":", "=", "~x", "~z=1"]))
            at = draw(st.integers(0, len(rest)))
            rest = rest[:at] + where + rest[at:]
        elif name == "long":
            rest += draw(st.sampled_from(["~z=1" * 30, "x" * 120, "~" * 100, "0" * 95]))
        elif name == "empty":
            return draw(st.sampled_from(["", " ", ":", "hk:", "hks:", "hk:::", "hks:::"]))
    return f"{prefix}:{channel}:{version}:{rest}" if prefix else f"{channel}:{version}:{rest}"


@st.composite
def select_values(draw: st.DrawFn, values: list[str]) -> list[str]:
    """A select's values: as offered, mangled, none, two, or garbage."""
    pick = draw(st.sampled_from(["one", "none", "two", "junk", "mangled"]))
    if pick == "none" or not values:
        return [] if pick == "none" else [draw(JUNK)]
    if pick == "two":
        return [draw(st.sampled_from(values)), draw(st.sampled_from(values))]
    if pick == "junk":
        return [draw(JUNK | NUMBERS)]
    value = draw(st.sampled_from(values))
    if pick == "mangled" and "=" in value:
        key = value.rpartition("=")[0]
        return [f"{key}={draw(NUMBERS | JUNK)}"]
    return [value]


# -- clicks -------------------------------------------------------------------------------

async def _who(scene: Scene, role: str, message: FakeMessage, n: int) -> FakeUser:
    """The clicker: a DM's owner clicks in their DM (nobody else can see it)."""
    dm = scene.fd.channels[message.channel_id]
    if dm.is_dm:
        return next(p for p in scene.players if p.id == dm.recipient_id)
    mover = await scene.mover()
    waiting = [p for p in scene.players if p is not mover]
    if role == "mover" and mover is not None:
        return mover
    if role == "waiting" and waiting:
        return waiting[n % len(waiting)]
    if role == "stranger_zh":
        return scene.strangers[1]
    if role == "player_zh":
        return next(p for p in scene.players if p.locale == ZH)
    return scene.strangers[0]


async def click(scene: Scene, data: st.DataObject, family: str, role: str,
                on_live: bool) -> None:
    """One control of `family` pressed, as posted or mangled, by `role`, and checked."""
    fd = scene.fd
    pool = scene.ids.get(family) or scene.ids["live"]
    n = data.draw(st.integers(0, len(pool) - 1), label="control")
    message, custom_id, values = pool[n]
    if on_live and not fd.channels[message.channel_id].is_dm:
        message = latest_turn(fd, scene.channel)  # the lobby's ids forged on the live one
    user = await _who(scene, role, message, data.draw(st.integers(0, 3), label="n"))
    table = await scene.table()
    seats = table.seats_of(user.id)
    forged = data.draw(mangled(custom_id, scene, seats[0] if seats else None), label="id")
    chosen = data.draw(select_values(values), label="values") \
        if forged.startswith("hks:") or (values and data.draw(st.booleans())) else None
    in_dm = fd.channels[message.channel_id].is_dm
    verdict = judge(table, user, message.channel_id, in_dm, forged, chosen)
    if verdict == LEGAL:
        scene.count("legal, left out")
        return
    if not forged.strip() or len(forged) > wire.MAX_CUSTOM_ID:
        scene.count("not deliverable")  # Discord takes 1 to 100 characters only
        return
    scene.count(verdict)
    before = await scene.state()
    handle = await fd.forge(user, message, forged, values=chosen)
    await check(scene, user, handle, before, verdict,
                f"{forged!r} {chosen} on {family} by {user.name}")


ROLES = st.sampled_from(["mover", "waiting", "stranger", "stranger_zh", "player_zh"])
FAMILIES = st.sampled_from(["live", "dm", "lobby"])


@settings(parent=E2E)
@given(data=st.data(), family=FAMILIES, role=ROLES, on_live=st.booleans())
async def test_mangled_ids_of_a_running_game_are_refused_privately(
        scene: Scene, data: st.DataObject, family: str, role: str, on_live: bool) -> None:
    await click(scene, data, family, role, on_live)


async def _undo_a_move(scene: Scene) -> None:
    """The player to move plays the AI's choice for them; a moderator undoes it."""
    table = await scene.table()
    mover = await scene.mover()
    assert mover is not None
    _, action = table_rules.ai_decision(table)
    await scene.bot.sessions.act(scene.channel, table_rules.Actor(mover.id, mover.name),
                                 action)
    await scene.fd.settle()
    scene.ids["moved"] = _controls(latest_turn(scene.fd, scene.channel))
    undone = await (await scene.fd.slash(scene.mod, scene.channel, "gm", "undo",
                                         steps=1)).wait()
    assert undone.responded
    await scene.fd.settle()
    after = await scene.table()
    assert after.version > table.version + 1


@pytest.fixture
async def undone(scene: Scene) -> Scene:
    await _undo_a_move(scene)
    return scene


@settings(parent=E2E, max_examples=20 * SCALE)
@given(data=st.data(), family=st.sampled_from(["live", "dm", "moved", "lobby"]), role=ROLES)
async def test_ids_from_before_an_undo_are_refused_privately(
        undone: Scene, data: st.DataObject, family: str, role: str) -> None:
    """Every id drawn before the undo (and the move's own message) is stale now."""
    await click(undone, data, family, role, on_live=False)


@pytest.fixture
async def ended(scene: Scene) -> Scene:
    host = scene.players[0]
    over = await (await scene.fd.slash(host, scene.channel, "game", "end")).wait()
    assert over.responded
    await scene.fd.settle()
    assert (await scene.table()).status == table_rules.OVER
    return scene


@settings(parent=E2E, max_examples=20 * SCALE)
@given(data=st.data(), family=FAMILIES, role=ROLES)
async def test_ids_of_a_game_that_ended_are_refused_privately(
        ended: Scene, data: st.DataObject, family: str, role: str) -> None:
    await click(ended, data, family, role, on_live=False)


# -- slash commands ------------------------------------------------------------------------

Param = app_commands.Parameter
INT53 = 2**53 - 1
# Commands that answer with what they show (privately): anyone, anywhere.
SHOWING = frozenset({"game status", "game map", "game log", "game history", "game rules",
                     "game replay", "help", "stats player", "stats server", "secret",
                     "gm log", "betrayal sheet"})
GAME_GROUPS = ("betrayal", "cthulhu", "evilbelow")
# What a moderator may send with garbage and still be refused: a seat that names
# nobody, a host or a kick of someone not seated.
MOD_REFUSED = frozenset({"gm seat", "gm host", "gm kick"})


def leaves(bot: Any) -> list[app_commands.Command[Any, ..., Any]]:
    return sorted((c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)),
                  key=lambda c: c.qualified_name)


def _free_text(param: Param) -> bool:
    return param.type is discord.AppCommandOptionType.string and (
        bool(param.autocomplete) or not param.choices)


@st.composite
def value_for(draw: st.DrawFn, param: Param, scene: Scene) -> Any:
    """A bad value Discord would deliver for this option (its type, its bounds)."""
    kind = param.type
    if kind is discord.AppCommandOptionType.string:
        if param.choices and not param.autocomplete:
            return draw(st.sampled_from([c.value for c in param.choices]))
        low, high = int(param.min_value or 1), int(param.max_value or 6000)
        text = draw(JUNK | NUMBERS.filter(bool) | st.sampled_from(
            ["@everyone", "x" * 6000, "<@&1>", "```", "\u202e" * 3]))
        return (text * low)[:high] if len(text) < low else text[:high]
    if kind is discord.AppCommandOptionType.integer:
        low = int(param.min_value) if param.min_value is not None else -INT53
        high = int(param.max_value) if param.max_value is not None else INT53
        return draw(st.sampled_from([low, high]) | st.integers(low, high))
    if kind is discord.AppCommandOptionType.number:
        least = float(param.min_value) if param.min_value is not None else -1e300
        most = float(param.max_value) if param.max_value is not None else 1e300
        return draw(st.floats(least, most, allow_nan=False))
    if kind is discord.AppCommandOptionType.boolean:
        return draw(st.booleans())
    if kind is discord.AppCommandOptionType.user:
        return draw(st.sampled_from([*scene.strangers, scene.fd.bot_user]))
    if kind is discord.AppCommandOptionType.role:
        return scene.fd.guild_id
    if kind is discord.AppCommandOptionType.channel:
        return draw(st.sampled_from([scene.side, scene.channel]))
    raise AssertionError(f"no bad value for {param.name} ({kind})")


async def _may_send(scene: Scene, name: str, command: Any, role: str, where: str) -> bool:
    """Whether this sender may send this command here with garbage and must be refused
    (or, for SHOWING, only shown something): the ones that would rightly act are not."""
    root = name.split()[0]
    if name in SHOWING:
        return True
    if root == "gm":
        return role != "mod" or name in MOD_REFUSED
    if name == "game new":
        return where == "game"  # elsewhere it rightly opens a lobby
    if name == "game leave":
        return role in ("stranger", "stranger_zh")  # a player rightly leaves
    if name == "game end":  # the host rightly ends it
        return role != "mod" and (await scene.table()).host_id != (
            await _who_types(scene, role)).id
    if root in GAME_GROUPS:
        if role == "mover":  # only nonsense typed in a free-text option can be refused
            return any(_free_text(p) and p.required for p in command.parameters)
        if role in ("waiting", "player_zh"):
            table = await scene.table()
            free = {table.seats[s].user_id for s in table_rules.out_of_turn_seats(table)}
            mover = await scene.mover()
            return not free and mover is not None
        return True
    return True


async def _who_types(scene: Scene, role: str) -> FakeUser:
    mover = await scene.mover()
    if role == "mover" and mover is not None:
        return mover
    if role == "mod":
        return scene.mod
    if role in ("waiting", "player_zh"):
        waiting = [p for p in scene.players if p is not mover]
        zh = [p for p in waiting if p.locale == ZH]
        return (zh or waiting)[0] if role == "player_zh" else waiting[-1]
    return scene.strangers[1] if role == "stranger_zh" else scene.strangers[0]


def _in_dms(command: Any) -> bool:
    root = command.root_parent or command
    contexts = root.allowed_contexts or command.allowed_contexts
    return bool(contexts and contexts.dm_channel) and not command.guild_only


def _commands(scene: Scene) -> list[Any]:
    return leaves(scene.bot)


@settings(parent=E2E, max_examples=60 * SCALE)
@given(data=st.data(),
       role=st.sampled_from(["mover", "waiting", "player_zh", "stranger", "stranger_zh", "mod"]),
       where=st.sampled_from(["game", "side", "dm"]))
async def test_every_command_with_garbage_is_refused_privately(
        scene: Scene, data: st.DataObject, role: str, where: str) -> None:
    fd = scene.fd
    every = _commands(scene)
    own = [c for c in every if c.qualified_name.split()[0] in (OWN[scene.system], "gm")]
    command = data.draw(st.sampled_from(own) | st.sampled_from(every), label="command")
    name = command.qualified_name
    if where == "dm" and not _in_dms(command):
        where = "game"
    if not await _may_send(scene, name, command, role, where):
        scene.count("would act, left out")
        return
    user = await _who_types(scene, role)
    if where == "dm" and not fd.channels[fd.open_dm(user)].is_dm:
        where = "game"
    channel = fd.open_dm(user) if where == "dm" else \
        scene.channel if where == "game" else scene.side
    options: dict[str, Any] = {}
    for param in command.parameters:
        if name == "game new" and param.name == "seed":
            continue  # the fake lends a seed's sender the moderators' role
        if role == "mover" and not param.required:
            continue  # the mover's own choice (a door) could be a move
        if param.required or data.draw(st.booleans(), label=f"send {param.name}"):
            options[param.display_name] = data.draw(value_for(param, scene), label=param.name)
    verdict = INFO if name in SHOWING else REFUSED
    scene.count(f"/{name}")
    before = await scene.state()
    handle = await fd.slash(user, channel, *name.split(), **options)
    shown = {k: (v[:20] if isinstance(v, str) else v) for k, v in options.items()}
    await check(scene, user, handle, before, verdict,
                f"/{name} {shown} in {where} by {user.name} ({role})")


@settings(parent=E2E, max_examples=30 * SCALE)
@given(data=st.data(),
       role=st.sampled_from(["mover", "waiting", "stranger", "stranger_zh", "mod"]),
       where=st.sampled_from(["game", "side", "dm"]))
async def test_every_autocomplete_answers_garbage_within_discords_limits(
        scene: Scene, data: st.DataObject, role: str, where: str) -> None:
    """Autocomplete refuses nobody: any typing gets at most 25 choices of 1 to 100
    characters, in time, nothing logged, nothing changed."""
    fd = scene.fd
    completed = [(c, p) for c in _commands(scene) for p in c.parameters if p.autocomplete]
    command, param = data.draw(st.sampled_from(completed), label="option")
    name = command.qualified_name
    user = await _who_types(scene, role)
    if where == "dm" and not _in_dms(command):
        where = "game"
    channel = fd.open_dm(user) if where == "dm" else \
        scene.channel if where == "game" else scene.side
    options = {p.display_name: data.draw(value_for(p, scene), label=p.name)
               for p in command.parameters
               if p is not param and p.type is discord.AppCommandOptionType.string
               and data.draw(st.booleans(), label=f"with {p.name}")}
    options[param.display_name] = data.draw(JUNK | NUMBERS | st.just(""), label="typed")
    scene.count(f"autocomplete /{name} {param.name}")
    before = await scene.state()
    offered = await fd.autocomplete(user, channel, *name.split(), focused=param.display_name,
                                    timeout=3.0, **options)
    await fd.settle()
    assert len(offered) <= 25, offered
    for choice in offered:
        assert 1 <= len(str(choice["name"])) <= 100 and len(str(choice["value"])) <= 100, choice
    assert await scene.state() == before
    assert scene.errors == [], scene.errors
    assert fd.unhandled == [] and fd.violations == [], (fd.unhandled, fd.violations)



# -- defects the fuzzing found, each pinned ------------------------------------------------

async def test_an_unreadable_id_is_refused_in_the_clickers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The standard: bad input gets a short, clear, ephemeral answer, and every refusal
    speaks the clicker's own language (cogs/common.py's `handling`). An id that did not
    read (none of ours, a mangled channel, version or action, a select's value that is
    no action, two values) was refused in English to a zh-TW player: its words were made
    while discord.py read the id, before `handling` set the language."""
    channel = fd.add_channel("cthulhu")
    ann, bo = fd.add_user("ann"), fd.add_user("bo", locale=ZH)
    await start_hauntkeeper()
    await (await fd.slash(ann, channel, "game", "new", game="cthulhu", seed=21)).wait()
    await (await fd.slash(bo, channel, "game", "join")).wait()
    await (await fd.slash(ann, channel, "game", "start")).wait()
    live = latest_turn(fd, channel)
    with speaking(CHINESE):
        unreadable, pick_one = say("errors.unreadable"), say("errors.pick_one")
    forged: list[tuple[str, list[str] | None, str]] = [
        (f"HK:{channel}:0:view.secret", None, unreadable),
        (f"hk:{channel}:x:view.secret", None, unreadable),
        (f"hk:{channel}:1:move~a=01", None, unreadable),
        (f"hks:{channel}:1:0", ["not~an=action!"], unreadable),
        (f"hks:{channel}:1:0", ["view.secret", "view.secret"], pick_one),
        (f"hkh:1:{channel}x", None, unreadable),
        ("hkr:1:0", None, unreadable),
        ("hklog:x:older", None, unreadable),
    ]
    for custom_id, values, words in forged:
        handle = await (await fd.forge(bo, live, custom_id, values=values)).wait()
        assert handle.ephemeral_texts() == [words], (custom_id, handle.ephemeral_texts())


async def test_a_chinese_player_ends_a_betrayal_turn_by_command(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """Found while setting up the haunts: `/betrayal end-turn` ("End your turn",
    data/betrayal/texts.yaml) looked for the open option whose label holds "end", and a
    label is in the player's language: a zh-TW player at the end of their turn was
    told to say which of "結束回合" they meant, and could not end it by command. The
    command names the action itself now."""
    channel = fd.add_channel("betrayal")
    users = [fd.add_user(n) for n in ("ann", "bo", "cy")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=3)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    before = BETRAYAL.load(table.state).turn
    mover = next(u for u in users if u.id == table.seats[before.seat].user_id)
    mover.locale = ZH
    ended = await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    with speaking(CHINESE):
        assert ended.ephemeral_texts() == [betrayal_line("cog.done")]
    after = await bot.store.load(channel)
    assert after is not None and after.state is not None
    assert BETRAYAL.load(after.state).turn.number != before.number


async def test_too_many_clicks_are_refused_in_the_clickers_language(
        fd: FakeDiscord, start_hauntkeeper: BotFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same class as above, found reading the code the fuzzing pointed at: a click
    over the per-user limit (cogs/click_limit.py) was told to slow down in English,
    its words made before `handling` spoke the clicker's language (a slash command's
    check speaks it first: cogs/rights.py's `table_check`)."""
    channel = fd.add_channel("cthulhu")
    ann = fd.add_user("ann")
    fei = fd.add_user("fei", locale=ZH)
    await start_hauntkeeper()
    lobby = (await (await fd.slash(ann, channel, "game", "new", game="cthulhu")).wait()).messages[0]
    limit = click_limit.ClickLimit(clock=lambda: 100.0)
    monkeypatch.setattr(click_limit, "CLICKS", limit)
    # Clicks that change the table (a click that only shows something is not counted).
    join, leave = (next(c for c in lobby.custom_ids() if c.endswith(kind))
                   for kind in (table_rules.JOIN, table_rules.LEAVE))
    answers = [(await (await fd.click(fei, fd.message(lobby.id),
                                      join if n % 2 == 0 else leave)).wait()).ephemeral_texts()
               for n in range(limit.clicks + 1)]
    with speaking(CHINESE):
        assert answers[-1] == [say("commands.slow_down")], answers
