"""Whole games against the real bot process, played the way an independent checker plays
them: `python -m bot` in its own process (tests/test_e2e_crash.py's `BotProcess`) against
the fake Discord, a game opened with `/game new`, a second member joining, the lobby's
AI button filling seats, then only the buttons and selects the newest live message (or a
private turn's DM prompt) offers, pressed as the seat to act. In the middle of each game
the process is killed (`kill -9`) and started again; play goes on from the newest live
message.

At every step the player's view is checked: each interaction answered, a refusal
private and short, the live message showing a board and the mover's controls, nothing
posted twice across the restart, nothing sent only by DM (a book, an identity) in the
channel, `/game status` and `/game log` private and readable, and the ended game in
`/game history`.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

from bot.core import wire
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.games.cthulhu.content import cthulhu_line
from bot.locales import CHINESE, ENGLISH, LANGUAGES, speaking
from bot.texts import say
from cogs.click_limit import CLICKS_PER_WINDOW
from cogs.components import PLAY_AGAIN, PRIVATE_CHOICES, SHOWS_ONLY
from tests.e2e_helpers import (
    ACTION_ROW,
    CONTAINER,
    MENTION,
    PNG_SIGNATURE,
    SECTION,
    TEXT_DISPLAY,
    latest_turn,
    turn_messages,
)
from tests.fakediscord import (
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionHandle,
    flat_components,
)
from tests.test_e2e_crash import BotProcess
from tests.test_e2e_crash import bot as bot  # the fixture: the process, its log checked


def in_each_language(key: str, **kwargs: str) -> tuple[str, ...]:
    """A line of ours as each language says it: the checker reads a table whatever
    language it speaks (a Chinese server's posts, a Chinese player's private answers)."""
    out = []
    for language in LANGUAGES:
        with speaking(language):
            out.append(say(key, **kwargs))
    return tuple(out)


def blanked(key: str, blank: str, **kwargs: str) -> list[tuple[str, str]]:
    """Each language's line for `key`, split at its one blank `blank`."""
    out = []
    for line in in_each_language(key, **{blank: "\x00"}, **kwargs):
        before, after = line.split("\x00")
        out.append((before, after))
    return out


ANSWER_WAIT = 20.0  # a click's answer, the AI's turns after it included
QUIET = 0.2  # the bot counts as idle after this long without a request
# What a press the mover was offered may be answered privately with: the second half of
# a two-step choice played, a move landing as another's did (the AI's turns in flight),
# a board Discord did not take yet.
BENIGN = frozenset(line for key in ("view.step_done", "errors.busy", "errors.held",
                                     "errors.still_owed", "errors.stale", "delivery_owed")
                   for line in in_each_language(key))
PROBE_EVERY = 7  # presses between probes of a refusal (out of turn, stale)
REFUSAL_MOST = 400  # characters: a refusal is a line or two, not a page
SLOW_DOWN = in_each_language("commands.slow_down")  # the click limit's (cogs/click_limit.py)
# The words above another seat's row on the live message (any name in them), and the
# line naming the seat to move, in any language.
OTHER_HEADING = re.compile("|".join(re.escape(before) + "(.+?)" + re.escape(after)
                                    for before, after in blanked("view.other_heading",
                                                                 "name")))
YOUR_MOVE = tuple(after for _, after in blanked("live.your_move", "who"))


def to_move(message: FakeMessage) -> int | None:
    """The user the live message asks to move (its last line naming a mover mentions
    them), in any language."""
    lines = [line for line in message.text.splitlines()
             if any(tail in line for tail in YOUR_MOVE)]
    found = MENTION.findall(lines[-1]) if lines else []
    return int(found[0]) if found else None



@dataclass
class Control:
    """One control a player can see: whose row it is in (None: the mover's own), the
    leaf component, and the message it is on."""

    owner: str | None
    comp: dict[str, Any]
    message: FakeMessage


@dataclass
class Game:
    """One table played through the bot process."""

    fd: FakeDiscord
    bot: BotProcess
    channel: int
    humans: list[FakeUser]
    mod: FakeUser
    rng: random.Random
    prefer: tuple[str, ...] = ()
    handles: list[InteractionHandle] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    actions: int = 0
    pressed: dict[int, list[float]] = field(default_factory=dict)  # each user's presses
    crash_next: bool = False  # kill the process once the next press is answered
    paced: float = 0.0
    checking: float = 0.0  # seconds spent reading the channel for secrets
    waited: float = 0.0  # seconds spent waiting for answers and for the bot to go quiet

    @property
    def by_id(self) -> dict[int, FakeUser]:
        return {u.id: u for u in self.humans}

    @property
    def by_name(self) -> dict[str, FakeUser]:
        return {u.name: u for u in self.humans}


def owned_controls(message: FakeMessage) -> list[Control]:
    """The message's game controls, each with the name of the seat whose row it is in
    (the live message heads another seat's row with its name: e2e_helpers.OTHER_HEADING)."""
    out: list[Control] = []

    def walk(components: list[dict[str, Any]]) -> None:
        name: str | None = None
        for comp in components:
            found = OTHER_HEADING.fullmatch(str(comp.get("content") or "")) \
                if comp.get("type") == TEXT_DISPLAY else None
            if found:
                name = next(group for group in found.groups() if group is not None)
                continue
            if comp.get("type") == ACTION_ROW:
                out.extend(Control(name, leaf, message) for leaf in flat_components([comp]))
                name = None
            elif comp.get("type") in (CONTAINER, SECTION):
                walk(list(comp.get("components") or []))

    walk(message.components)
    return [c for c in out if str(c.comp.get("custom_id") or "").startswith(("hk:", "hks:"))
            and not c.comp.get("disabled")
            and ":view.secret" not in str(c.comp.get("custom_id"))]


def kind_of(comp: dict[str, Any], value: str | None) -> str:
    """The action a control plays, as its wire form names it."""
    if value is not None:
        try:
            return Action.decode(value).kind
        except IllegalAction:  # not an action: a table control's value
            return value
    custom = str(comp.get("custom_id") or "")
    return custom.split(":", 3)[-1].split("~", 1)[0]


def choices_of(controls: list[Control]) -> list[tuple[Control, str | None, str]]:
    """Every press a player could make: a button, or one entry of a select; with the
    action kind it plays."""
    out: list[tuple[Control, str | None, str]] = []
    for control in controls:
        if control.comp["type"] == 2:
            out.append((control, None, kind_of(control.comp, None)))
        elif control.comp["type"] == 3:
            for option in control.comp["options"]:
                out.append((control, option["value"], kind_of(control.comp, option["value"])))
    return out


def pick(game: Game, options: list[tuple[Control, str | None, str]]
         ) -> tuple[Control, str | None, str]:
    """A player's press: a kind the game's test prefers (exploring, in Betrayal), else
    anything, ending the turn least often (a checker that only ends turns plays nothing)."""
    preferred = [o for o in options if any(p in o[2] for p in game.prefer)]
    if preferred and game.rng.random() < 0.8:
        return game.rng.choice(preferred)
    others = [o for o in options if "end" not in o[2] and PLAY_AGAIN not in o[2]]
    if others and game.rng.random() < 0.75:
        return game.rng.choice(others)
    return game.rng.choice(options)


async def press(game: Game, user: FakeUser, control: Control, value: str | None
                ) -> InteractionHandle:
    """One press, answered (any refusal checked: private and short); a click the limit
    refuses is waited out and made again, as a paced player would."""
    fd = game.fd
    for _ in range(5):
        if counts(control, value):
            await pace(game, user)
        message = fd.message(control.message.id)
        if value is None:
            handle = await fd.click(user, message, control.comp["custom_id"])
        else:
            handle = await fd.select(user, message, control.comp["custom_id"], [value])
        began = time.monotonic()
        await handle.wait(ANSWER_WAIT, settle=False)
        if game.crash_next:  # the AI's turns after the move may be under way: a crash
            game.crash_next = False
            await restart(game)
        await fd.settle(quiet=QUIET, timeout=60)
        game.waited += time.monotonic() - began
        game.handles.append(handle)
        check_answer(game, handle)
        if not any(slow in m.content for m in handle.messages if m.ephemeral
                   for slow in SLOW_DOWN):
            said = [m.text for m in handle.messages if m.ephemeral and not owned_controls(m)
                    and m.text not in BENIGN]
            assert not said, f"a control offered to its player was refused: {said}"
            return handle
        await asyncio.sleep(3.1)
    raise AssertionError("the click limit never let the click through")


def counts(control: Control, value: str | None) -> bool:
    """Whether the click limit counts this press: a click that only shows its clicker
    something (cogs/components.py's `SHOWS_ONLY`) does not."""
    try:
        kind = Action.decode(value).kind if value is not None else wire.read_button_id(
            str(control.comp["custom_id"])).kind
    except IllegalAction:
        return True  # not a game action's id (the Whole house, a log page): counted
    return kind not in SHOWS_ONLY


async def pace(game: Game, user: FakeUser) -> None:
    """A player clicks at most CLICKS times in SECONDS (cogs/click_limit.py): a checker
    at machine speed waits its turn rather than being told to slow down."""
    clicks, seconds = CLICKS_PER_WINDOW
    times = game.pressed.setdefault(user.id, [])
    now = time.monotonic()
    recent = [t for t in times if now - t < seconds]
    if len(recent) >= clicks:  # the bot counts from when it took each: a margin
        await asyncio.sleep(recent[-clicks] + seconds + 0.3 - now)
        game.paced += recent[-clicks] + seconds + 0.3 - now
    times[:] = [*recent, time.monotonic()]


def check_answer(game: Game, handle: InteractionHandle) -> None:
    """What a click may answer: an edit of the message clicked, or private lines; a
    private line without controls (a refusal, a note) is short."""
    for message in handle.messages:
        if message.id == handle.message_id:
            continue  # the clicked message, edited: the answer of a move
        assert message.ephemeral, f"a click was answered in public: {message.text!r}"
        if not owned_controls(message):
            assert message.text.strip(), "an empty private answer"
            assert len(message.text) <= REFUSAL_MOST, \
                f"a private answer of {len(message.text)} characters: {message.text!r}"
            game.refusals.append(message.text)


async def follow_private(game: Game, user: FakeUser, handle: InteractionHandle) -> None:
    """A press answered privately with more controls (a two-step choice's second half,
    a private choice's buttons): press one of those, until a move is made."""
    for _ in range(4):
        steps = [m for m in handle.messages if m.ephemeral and owned_controls(m)]
        if not steps:
            return
        control, value, _ = pick(game, choices_of(owned_controls(steps[-1])))
        handle = await press(game, user, control, value)


def dm_prompts(game: Game) -> list[tuple[FakeUser, FakeMessage]]:
    """Each human's newest DM that still holds controls: a private turn's prompt."""
    found = []
    for user in game.humans:
        held = [m for m in game.fd.dms(user) if owned_controls(m)]
        if held:
            found.append((user, held[-1]))
    return found


def is_over(game: Game) -> bool:
    live = latest_turn(game.fd, game.channel)
    return any(PLAY_AGAIN in c for c in live.custom_ids()) \
        or any(over in live.text for over in in_each_language("live.over"))


def check_live(game: Game) -> FakeMessage:
    """The newest live message as a player reads it: a board, and controls for the seat
    to act (in the channel, or in that player's DMs for a private turn)."""
    live = latest_turn(game.fd, game.channel)
    shown = live.gallery() if live.v2 else [(b, None) for _, b in live.attachments]
    assert shown and shown[0][0].startswith(PNG_SIGNATURE), "the live message shows no board"
    return live


async def one_action(game: Game) -> bool:
    """The seat to act presses one control: False when no human has one (the game is
    over)."""
    fd = game.fd
    live = check_live(game)
    if is_over(game):
        return False
    controls = owned_controls(live)
    mover_id = to_move(live)
    candidates: list[tuple[FakeUser, list[Control]]] = []
    mine = [c for c in controls if c.owner is None]
    if mine:
        assert mover_id is not None and mover_id in game.by_id, \
            f"controls with no one named to use them: {live.text!r}"
        candidates.append((game.by_id[mover_id], mine))
    for name, user in game.by_name.items():
        theirs = [c for c in controls if c.owner == name]
        if theirs:
            candidates.append((user, theirs))
    for user, prompt in dm_prompts(game):
        candidates.append((user, owned_controls(prompt)))
    if not candidates:
        if mover_id is not None and mover_id in game.by_id:
            raise AssertionError(f"the mover has no controls: {live.text!r}")
        await fd.settle(quiet=1.0, timeout=60)
        if latest_turn(fd, game.channel).id == live.id and not dm_prompts(game) \
                and not owned_controls(fd.message(live.id)):
            raise AssertionError(f"no one can act: {live.text[-600:]!r}")
        return True
    user, offered = game.rng.choice(candidates)
    if game.actions % PROBE_EVERY == PROBE_EVERY - 1:
        await probe_out_of_turn(game, user, offered)
    control, value, _ = pick(game, choices_of(offered))
    handle = await press(game, user, control, value)
    if game.actions % PROBE_EVERY == 0 and handle.message_id == live.id:
        await probe_stale(game, user, control, value)
    await follow_private(game, user, handle)
    game.actions += 1
    return True


async def refused(game: Game, handle: InteractionHandle, watched: FakeMessage,
                  what: str) -> None:
    """A press that must play nothing: answered privately and shortly, and the message
    it was pressed on left as it was."""
    versions = len(game.fd.message(watched.id).history)
    await handle.wait(ANSWER_WAIT, settle=False)
    await game.fd.settle(quiet=QUIET, timeout=30)
    game.handles.append(handle)
    texts = [m.text for m in handle.messages if m.id != handle.message_id]
    assert texts and all(m.ephemeral for m in handle.messages
                         if m.id != handle.message_id), f"{what}: not answered privately"
    check_answer(game, handle)
    assert len(game.fd.message(watched.id).history) == versions, f"{what}: it played"


async def probe_out_of_turn(game: Game, mover: FakeUser, offered: list[Control]) -> None:
    """The other player presses the mover's control: refused, privately."""
    other = next(u for u in game.humans if u.id != mover.id)
    control, value, _ = choices_of(offered)[0]
    if PRIVATE_CHOICES in str(control.comp["custom_id"]):
        return  # a private choice's reveal: it shows the mover's choice to the mover only
    await pace(game, other)
    message = game.fd.message(control.message.id)
    if message.channel_id != game.channel:  # a DM prompt: sent from the channel's message
        live = latest_turn(game.fd, game.channel)
        handle = await game.fd.forge(other, live, control.comp["custom_id"],
                                     values=None if value is None else [value])
        await refused(game, handle, live, "another's DM prompt pressed")
        return
    if value is None:
        handle = await game.fd.click(other, message, control.comp["custom_id"])
    else:
        handle = await game.fd.select(other, message, control.comp["custom_id"], [value])
    await refused(game, handle, message, "a press out of turn")


async def probe_stale(game: Game, user: FakeUser, control: Control,
                      value: str | None) -> None:
    """The control just played, pressed again as a client not yet redrawn sends it:
    refused, privately (the live message moved on)."""
    live = latest_turn(game.fd, game.channel)
    await pace(game, user)
    handle = await game.fd.forge(user, live, control.comp["custom_id"],
                                 values=None if value is None else [value])
    await refused(game, handle, live, "a stale press")


async def open_game(fd: FakeDiscord, bot: BotProcess, game_name: str, *, seed: int,
                    ai_seats: int, prefer: tuple[str, ...] = (), locale: str = "en-US",
                    **setup: str) -> Game:
    """ann opens the game, bob joins with the lobby's button, ann adds `ai_seats` AI
    seats with the lobby's AI button and starts it. `locale`: every member's Discord
    app's (the server's is the test's to set)."""
    channel = fd.add_channel(game_name)
    ann, bob = fd.add_user("ann", locale=locale), fd.add_user("bob", locale=locale)
    mod = fd.add_user("mod", manage_channels=True, locale=locale)
    await bot.start()
    game = Game(fd, bot, channel, [ann, bob], mod, random.Random(seed), prefer)
    await pace(game, ann)
    opened = await (await fd.slash(ann, channel, "game", "new", game=game_name, seed=seed,
                                   **setup)).wait(ANSWER_WAIT, settle=False)
    lobby = opened.response
    assert lobby is not None and not lobby.ephemeral

    def lobby_button(suffix: str) -> str:
        return next(c for c in fd.message(lobby.id).custom_ids() if c.endswith(suffix))

    for user, suffix in [(bob, ":lobby.join"), *[(ann, ":lobby.ai")] * ai_seats,
                         (ann, ":lobby.start")]:
        await pace(game, user)
        handle = await fd.click(user, fd.message(lobby.id), lobby_button(suffix))
        await handle.wait(ANSWER_WAIT, settle=False)
        await fd.settle(quiet=QUIET, timeout=60)
        check_answer(game, handle)
    await fd.wait_until(lambda: turn_messages(fd, channel), timeout=30, what="the start")
    return game


async def restart(game: Game) -> None:
    """kill -9 and a start on the same file: nothing the channel or a DM showed before
    is posted again, and the game's private answers read well after it."""
    fd = game.fd
    await game.bot.kill()
    before = {m.id: m.text for m in bot_messages(game)}
    live = latest_turn(fd, game.channel)
    shown = [line for line in live.text.splitlines() if line.strip()]
    await game.bot.start()
    await fd.settle(quiet=1.0, timeout=60)
    for message in bot_messages(game):
        if message.id not in before:
            assert message.text not in before.values(), \
                f"posted again after the restart: {message.text[:300]!r}"
    again = {line for message in bot_messages(game) if message.id not in before
             for version in [*message.history, message.snapshot()]
             for line in said_all(version).splitlines()}
    twice = [line for line in shown if line in again and not WHOSE_MOVE.search(line)]
    assert not twice, f"shown again in a new message after the restart: {twice}"
    await check_private_reads(game, game.humans[1])


WHOSE_MOVE = re.compile("|".join(
    re.escape(line.split("\x00")[-1]) for key in ("your_move", "from_dms", "others_too")
    for line in in_each_language(f"live.{key}", who="\x00", others="\x00")))


def bot_messages(game: Game) -> list[FakeMessage]:
    """What the bot posted that players read: the channel, its threads, the DMs."""
    fd = game.fd
    where = [game.channel, *(t.id for t in fd.threads(game.channel))]
    dms = [m for u in game.humans for m in fd.dms(u)]
    return [m for c in where for m in fd.channel_messages(c)
            if m.author_id == fd.bot_user.id and not m.interaction_id] + dms


PLACEHOLDER = re.compile(r"\{[a-z_]+(:[^}]*)?\}|\b(errors|prompts|events|labels|live|view)"
                         r"\.[a-z_]+\b|\bNone\b|Traceback")


def assert_readable(text: str, what: str) -> None:
    """Words a player can read: something said, no template left unfilled, no data key
    or Python value in place of words."""
    assert text.strip(), f"{what}: empty"
    found = PLACEHOLDER.search(text)
    assert found is None, f"{what}: {found.group(0)!r} in {text[:400]!r}"


async def slash_privately(game: Game, user: FakeUser, *path: str,
                          options: dict[str, Any] | None = None) -> FakeMessage:
    """A read-only command's answer: one private message, readable."""
    handle = await (await game.fd.slash(user, game.channel, *path, **(options or {}))).wait(
        ANSWER_WAIT, settle=False)
    await game.fd.settle(quiet=QUIET, timeout=30)
    assert handle.messages, f"/{' '.join(path)} answered nothing"
    for message in handle.messages:
        assert message.ephemeral, f"/{' '.join(path)} answered in public"
        assert_readable(message.text, f"/{' '.join(path)}")
    return handle.messages[-1]


async def check_private_reads(game: Game, user: FakeUser) -> None:
    """/game status and /game log, privately: readable, and the log tells nothing a
    DM alone was told."""
    await slash_privately(game, user, "game", "status")
    shown = await slash_privately(game, user, "game", "log")
    for secret in dm_only_lines(game):
        assert secret not in shown.text, f"/game log tells a DM-only line: {secret!r}"


DM_FRAME = tuple(line.split("\x00")[0]
                 for key in ("footer", "prompt", "prompt_used", "prompt_paused")
                 for line in in_each_language(f"dm.{key}", channel="\x00"))


def dm_only_lines(game: Game) -> list[str]:
    """The lines of a secret document sent by DM (a side's book: a DM of several lines,
    not a one-line whisper of a move the table is told later too): long enough to be
    the game's own words, not the DM's frame."""
    out: set[str] = set()
    for user in game.humans:
        for message in game.fd.dms(user):
            if owned_controls(message) or message.text.startswith(DM_FRAME):
                continue  # a prompt: its options, not a secret
            lines = [line.strip() for line in message.text.splitlines()
                     if line.strip() and not line.startswith(DM_FRAME)]
            if len(lines) >= 3:
                out.update(line for line in lines if len(line) >= 30)
    return sorted(out)


def public_versions(game: Game) -> list[str]:
    """Every version of every message anyone in the channel reads (its public threads
    too): a secret shown once and edited away was still shown."""
    fd = game.fd
    where = [game.channel, *(t.id for t in fd.threads(game.channel) if t.type != 12)]
    out = []
    for channel in where:
        for message in fd.channel_messages(channel):
            for version in [*message.history, message.snapshot()]:
                out.append(said_all(version))
    return out


def said_all(version: dict[str, Any]) -> str:
    parts = [str(version["content"] or "")]
    for embed in version["embeds"]:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields", [])]
    parts += [str(c.get("content") or "") for c in flat_components(version["components"])
              if c.get("type") == TEXT_DISPLAY]
    return "\n".join(parts)


def check_secrets(game: Game) -> None:
    """While the game runs, no line a DM alone carried is in the channel."""
    began = time.monotonic()
    try:
        _check_secrets(game)
    finally:
        game.checking += time.monotonic() - began


def _template(line: str, **groups: str) -> re.Pattern[str]:
    """A line of ours as a pattern: each named blank a group."""
    marks = {name: f"\x00{n}\x00" for n, name in enumerate(groups)}
    pattern = re.escape(line.format(**marks) if "{" in line else line)
    for name, mark in marks.items():
        pattern = pattern.replace(re.escape(mark), f"(?P<{name}>{groups[name]})")
    return re.compile(pattern)


# How each language names a player's two characters, in the DM and in the scoring.
SECRET_PAIR = {ENGLISH: "the {first} and the {second}", CHINESE: "{first}和{second}"}


def _cthulhu_secret(language: str) -> re.Pattern[str]:
    with speaking(language):
        line = cthulhu_line("events.your_secrets", number="{number}", first="{first}",
                            second="{second}")
    return _template(line, number=r"\d+", first=r".+?", second=r".+?")


CTHULHU_SECRET = {language: _cthulhu_secret(language) for language in LANGUAGES}


def cthulhu_identities(game: Game) -> None:
    """Seed 002: each player "secretly backs two" characters; the channel learns them only
    when the rumble is scored ("Secrets revealed"), not before."""
    for user in game.humans:
        for message in game.fd.dms(user):
            for language, secret in CTHULHU_SECRET.items():
                found = secret.search(message.text)
                if found is None:
                    continue
                pair = SECRET_PAIR[language].format(first=found["first"],
                                                    second=found["second"])
                with speaking(language):
                    scored = cthulhu_line("events.rumble_scored", number=found["number"],
                                          character="\x00").split("\x00")[0]
                for text in public_versions(game):
                    at = text.find(pair)
                    assert at < 0 or 0 <= text.find(scored) < at, \
                        f"{user.name}'s characters told before their rumble was scored: {pair}"


def _check_secrets(game: Game) -> None:
    cthulhu_identities(game)
    secrets = dm_only_lines(game)
    if not secrets:
        return
    for text in public_versions(game):
        for secret in secrets:
            assert secret not in text, f"a DM-only line in public: {secret!r}"


async def play(game: Game, *, limit: int, restart_at: int) -> bool:
    """Press until the game ends or `limit` presses; restart the process once. True if
    the game ended."""
    while game.actions < limit:
        game.crash_next = game.actions == restart_at
        if is_over(game):
            check_live(game)
            return True
        check_secrets(game)
        if not await one_action(game):
            return True
    return is_over(game)


async def end_by_moderator(game: Game) -> None:
    handle = await (await game.fd.slash(game.mod, game.channel, "gm", "end")).wait(
        ANSWER_WAIT, settle=False)
    await game.fd.settle(quiet=QUIET, timeout=30)
    assert all(m.ephemeral for m in handle.messages)


async def check_history(game: Game) -> None:
    """The ended game is listed in /game history, and its story opens."""
    listed = await slash_privately(game, game.humans[1], "game", "history")
    found = re.search(r"`#(\d+)`", listed.text)
    assert found, listed.text
    story = await slash_privately(game, game.humans[1], "game", "history",
                                  options={"game": found.group(1)})
    assert f"#{found.group(1)}" in story.text


def report(name: str, game: Game, began: float) -> None:
    """How long the game took, and where the time went: printed (`pytest -s`)."""
    print(f"\n{name}: {game.actions} presses in {time.monotonic() - began:.1f} s "
          f"({game.waited:.1f} s for answers, {game.paced:.1f} s paced, "
          f"{game.checking:.1f} s reading for secrets); private lines: "
          f"{sorted(set(game.refusals))}")


async def test_cthulhu_played_through_by_clicks(fd: FakeDiscord, bot: BotProcess) -> None:
    began = time.monotonic()
    game = await open_game(fd, bot, "cthulhu", seed=7, ai_seats=1, prefer=("fight",))
    ended = await play(game, limit=300, restart_at=4)
    report("cthulhu", game, began)
    assert ended
    await check_private_reads(game, game.humans[0])
    await check_history(game)


async def test_evil_below_played_through_by_clicks(fd: FakeDiscord, bot: BotProcess) -> None:
    began = time.monotonic()
    game = await open_game(fd, bot, "evilbelow", seed=7, ai_seats=2)
    ended = await play(game, limit=300, restart_at=4)
    report("evilbelow", game, began)
    assert ended
    await check_private_reads(game, game.humans[0])
    await check_history(game)


async def test_betrayal_played_into_its_haunt(fd: FakeDiscord, bot: BotProcess) -> None:
    began = time.monotonic()
    game = await open_game(fd, bot, "betrayal", seed=4, ai_seats=1, prefer=("explore",))
    ended = await play(game, limit=150, restart_at=49)
    report("betrayal", game, began)
    if not ended:
        await end_by_moderator(game)
    await check_private_reads(game, game.humans[0])
    await check_history(game)


async def test_neibolt_played_into_its_scenario(fd: FakeDiscord, bot: BotProcess) -> None:
    began = time.monotonic()
    game = await open_game(fd, bot, "betrayal", seed=7, ai_seats=2, prefer=("explore",),
                           expansion="neibolt")
    ended = await play(game, limit=150, restart_at=21)
    report("neibolt", game, began)
    if not ended:
        await end_by_moderator(game)
    await check_private_reads(game, game.humans[0])
    await check_history(game)


async def test_a_game_ended_by_a_moderator_after_a_crash_is_in_history(
        fd: FakeDiscord, bot: BotProcess) -> None:
    """Killed while the AI plays after a move, started again, ended with /gm end: the
    game is listed in /game history, its story opens, and the channel says it ended."""
    began = time.monotonic()
    game = await open_game(fd, bot, "cthulhu", seed=11, ai_seats=2, prefer=("fight",))
    await play(game, limit=6, restart_at=2)
    await end_by_moderator(game)
    await fd.wait_until(lambda: is_over(game), timeout=20, what="the end shown")
    check_live(game)
    await check_history(game)
    report("gm_end", game, began)
