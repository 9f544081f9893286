"""The heavy, pure work of an action, done on a worker thread: the rules, the AI's
decisions, a delivery's plan and the boards.

The event loop serves every channel at once; a rules step or a board takes milliseconds
of CPU, so it runs here and the loop stays free (tests/test_sessions_concurrency.py
proves a long AI chain in one channel holds up no other). Each method is one trip to a
worker thread, named for what it does, so the sessions layer reads as the steps of a
click (`played = await worker.move(...)`) rather than as functions handed around.

A step of the rules comes back as `Played`: the new table and its events, and what its
save needs, worked out in the same trip (the table as JSON, whether an AI goes next,
the undo point); an AI chain's trip gives back its few steps as one (`ai_moves`). A
delivery's plan is made from the table as the store saved it, with its version and log
positions. When a player's move hands the game to a human (no AI
seat plays after it, the game goes on), the move's own trip makes that plan too, for
the table the save will leave (`Ahead`), and so does an AI chain's last trip: one
trip to this thread instead of two. A trip's waits, for the thread to start the work and
for the loop to take its result back, were 0.11 + 0.20 ms on average (one game, 50
channels taking turns, bench/bench_channels.py). The courier uses it only when the save
left exactly that table, in the language it would plan in (bot/courier.py); else it
plans again, as before.

The save does not run beside the board's drawing (tried: started as soon as the rules
were done, it hid its 0.2 ms of store work, but the loop it woke mid-trip took the GIL
from the drawing, which then began and ended later by as much; the session note of
2026-12-07 has the figures).

Each trip takes the caller's context along (`_in_thread`), so a line made there (a
refusal, say) is in the language the interaction speaks (bot/locales). A step of the
rules is said in every language the table needs (`languages`, bot/languages.py's
`said_in`): in English for the truth, again for the other texts, in the same trip.

One thread on purpose: it shares the GIL with the loop, and each more one makes the
loop wait longer for it while many channels act at once, for no more work done (the
rules and most of a render are Python, which the GIL runs one thread at a time). With
200 channels acting at once on the shared 2-core box, one thread instead of two gave the
loop a p99 lag of 11 and 20 ms instead of 74 and 31 ms (two games' tables),
and 96 and 161 actions/s instead of 52 and 122 (bench/bench_channels.py, issue 23).
What it costs: a slow step (an AI's long decision) is waited for by the steps queued
behind it, where two threads would have run both at half speed.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from bot import locales
from bot import table as table_rules
from bot import timers as turn_timers
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.delivery import Plan, Sequenced, delivery_key, sequenced
from bot.delivery import plan as plan_delivery
from bot.games.base import Game, PlayerInfo
from bot.guild_settings import GuildSettings
from bot.headlines import is_headline
from bot.languages import heard, said_in, server_language
from bot.metrics import Recorder
from bot.store import GameResult, LoggedEvent, UndoWrite
from bot.summary import summarise
from bot.table_record import ACTIVE, Table
from bot.texts import TABLE
from renderers import describe_public, render_public, render_whole

WORKERS = 1
T = TypeVar("T")
# `json.dumps`' own encoder, without its search for a container inside itself: a table's
# envelope is plain data made anew by the state's dump, which holds none. The same text,
# about a tenth sooner (0.08 against 0.09 ms for a 47-room house's envelope).
_JSON = json.JSONEncoder(check_circular=False)


@dataclass(frozen=True)
class AiWork:
    """What the AI seats may do on a table (bot/table_core.py's `ai_work`)."""

    to_act: bool  # the seat to act is an AI's
    offer: bool  # an AI seat has an out-of-turn offer now (bot/games/base.py, ai_offer)

    @property
    def any(self) -> bool:
        return self.to_act or self.offer


# An AI chain's steps are played several to a trip and saved together (`ai_moves`): each
# step was a trip here and a save of its own. A trip stops taking steps once it has
# worked this long, so one channel's chain holds the thread no longer than about a board
# before the other channels' work gets its turn. A human against three AI seats (the
# clicks an AI chain answered, 3 games each, two runs): one game's chains of 30.6
# steps saved in 5 saves instead of one a step, the click 37-40 ms instead of 50-55;
# another's 9.5 steps in 2.2 saves, 24-25 ms instead of 27-30 (a SQLite file, the
# boards drawn, the live message's store work, no Discord).
CHAIN_SECONDS = 0.005
# AI out-of-turn actions between two moves of the seat to act: a game whose AI never
# declines cannot hold the chain.
MAX_OFFERS_IN_A_ROW = 20


@dataclass(frozen=True)
class Chained:
    """What one trip of an AI chain played: its steps as one step to save (None: it
    took none), how many, the offers played since the seat to act last moved, and the
    step that failed after them (the chain stops there; what was taken is saved)."""

    played: Played | None
    steps: int
    offers: int
    failed: Exception | None = None


@dataclass(frozen=True)
class Foresight:
    """What a move's trip needs to plan its delivery ahead: whether the courier draws
    boards, and the server's settings (the language its posts speak)."""

    render: bool
    settings: GuildSettings | None


@dataclass(frozen=True)
class Ahead:
    """A delivery planned in the move's trip, for the table the save was to leave: the
    version after the loaded one, the events written after the last."""

    plan: Plan
    language: str  # the server's language it was planned in
    last_seq: int  # the log position of the move's last event, as foreseen
    render: bool

    def fits(self, table: Table, key: str, language: str, render: bool) -> bool:
        """Whether this is the plan a delivery of `table` under `key` would make now:
        the save left the table foreseen, spoken in the same language, drawn alike."""
        return (self.plan.key == key and self.last_seq == table.last_seq
                and self.language == language and self.render == render)


@dataclass(frozen=True)
class Played:
    """A step of the rules and what its save needs, all worked out off the event loop."""

    table: Table
    events: list[Event]
    envelope: str  # the new table as the store keeps it (JSON)
    ai: AiWork  # what the AI may do next: the save records it, the chain follows it
    # For a player's move in a running game, the undo point its save keeps: the table as
    # it was before (/gm undo).
    undo: UndoWrite | None = None
    # The engine's steps it took (bot/moves.py) as JSON, kept for replays; None: none.
    moves: str | None = None
    # Its delivery, planned in the same trip (see the module's docstring); None: planned
    # after the save, as always.
    ahead: Ahead | None = None


class Worker:
    """A few threads for the rules, the AI and the renders (see the module's docstring).
    Renders are timed for the operators' metrics."""

    def __init__(self, metrics: Recorder, workers: int = WORKERS) -> None:
        self.metrics = metrics
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hk-work")

    # -- the rules ------------------------------------------------------------------------

    async def move(self, table: Table, actor: table_rules.Actor, action: Action,
                   languages: tuple[str, ...] = (), *,
                   foresight: Foresight | None = None) -> Played:
        """A user's action by the table rules (which pass a game's move to the game),
        said in English and in `languages`; refused in the caller's own language. With
        `foresight`, its delivery is planned in the same trip when it can be (`Ahead`)."""
        return self._timed(await self._in_thread(_move, table, actor, action, languages,
                                                 foresight))

    async def ai_moves(self, table: Table, work: AiWork, *, languages: tuple[str, ...] = (),
                       foresight: Foresight | None = None, owed: Sequenced | None = None,
                       steps: int = 1, offers: int = 0, public: str | None = None) -> Chained:
        """AI decisions one after another, at most `steps`, until a human is needed or
        the trip has worked CHAIN_SECONDS (`offers`: out-of-turn offers played since
        the seat to act last moved). Their delivery is planned in the same trip when the
        chain ends with them (`Ahead`, with `owed`). `public`: the language of the
        table's public posts, which a seat handed to the AI is named in."""
        chained = await self._in_thread(_ai_moves, table, work, languages, foresight,
                                        owed or [], steps, offers, public)
        if chained.played is not None:
            self._timed(chained.played)
        return chained

    def _timed(self, played: Played) -> Played:
        """The board a plan made ahead drew, counted for the metrics as any render."""
        if played.ahead is not None and played.ahead.plan.render_seconds is not None:
            self.metrics.rendered(played.table.kind, played.ahead.plan.render_seconds)
        return played

    async def undo(self, table: Table, past: Table, actor: table_rules.Actor, steps: int,
                   summary: list[str], languages: tuple[str, ...] = ()) -> Played:
        """The table taken back to `past` (/gm undo), saying who undid what."""
        return await self._in_thread(_undo, table, past, actor, steps, summary, languages)

    async def run_out(self, table: Table, ending: str, languages: tuple[str, ...] = (),
                      public: str | None = None) -> Played:
        """A turn timer ran out: the turn ends as the server says (bot/timers.py);
        `public` as `ai_moves`'."""
        return await self._in_thread(_run_out, table, ending, languages, public)

    async def ai_work(self, table: Table) -> AiWork:
        """What the AI seats may do on this table now (a resumed game's chain)."""
        return await self._in_thread(_ai_work, table)

    # -- what is shown --------------------------------------------------------------------

    async def summary(self, table: Table, entries: list[LoggedEvent], events: list[Event],
                      languages: tuple[str, ...] = ()) -> tuple[Event, GameResult] | None:
        """A finished game's story (bot/summary.py): the game reads its whole log; its
        line is said in `languages` too."""
        return await self._in_thread(_summary, table, entries, events, languages)

    async def plan(self, table: Table, owed: Sequenced, key: str, *, render: bool,
                   language: str = locales.ENGLISH) -> Plan:
        """Who gets what of a delivery, with the board drawn (bot/delivery.py's `plan`);
        the public part in the server's `language`."""
        planned = await self._in_thread(_plan, table, owed, key, render, language)
        if planned.render_seconds is not None:
            self.metrics.rendered(table.kind, planned.render_seconds)
        return planned

    async def board(self, kind: str, state: Any, *, whole: bool = False,
                    language: str | None = None) -> bytes:
        """The public board; `whole`: the whole board where the chat board shows part.
        In `language` (None: the caller's)."""
        image, seconds = await self._in_thread(_board, kind, state, whole, language)
        self.metrics.rendered(kind, seconds)
        return image

    async def board_alt(self, kind: str, state: Any, language: str | None = None) -> str:
        """The public board's alt text (what it shows, in words), in `language` (None:
        the caller's)."""
        return await self._in_thread(_alt, kind, state, language)

    async def warm_up(self, kind: str, game: Game[Any], *, draw: bool = True) -> None:
        """A new game set up (its content read) and, with `draw`, its boards drawn once:
        the renderers fit their palettes and fill their caches now, not in the first
        player's click."""
        await self._in_thread(_warm_up, kind, game, draw)

    async def _in_thread(self, work: Callable[..., T], *args: Any) -> T:
        """The one place work is handed to a thread (what an executor takes), in the
        caller's context: the language it speaks goes along (an executor does not carry
        contextvars by itself)."""
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            self._threads, context.run, work, *args)


# -- in a worker thread ---------------------------------------------------------------------

def _played(new: Table, events: list[Event], undo: UndoWrite | None = None,
            ai: AiWork | None = None) -> Played:
    """`new` as its save needs it; `ai`: what the AI seats may do on it, when the caller
    has worked it out already (an AI chain does after each step)."""
    if ai is None:
        ai = AiWork(*table_rules.ai_work(new))
    return Played(new, events, _JSON.encode(new.envelope()), ai, undo,
                  json.dumps(new.moves) if new.moves else None)


def _move(table: Table, actor: table_rules.Actor, action: Action,
          languages: tuple[str, ...], foresight: Foresight | None) -> Played:
    """A user's action, and (for a player's move in a running game) the undo point its
    save keeps, summed up by its first public line; its delivery planned ahead when it
    can be. A refusal reads in the language the caller speaks: made again there when
    that is not English."""
    return _ahead(_rules_move(table, actor, action, languages), table, foresight)


def _rules_move(table: Table, actor: table_rules.Actor, action: Action,
                languages: tuple[str, ...]) -> Played:
    if table.status == ACTIVE and table.state is not None:
        # Decoded once on the table as loaded: every telling of the step (another
        # language's, a refusal made again) plays on a copy of it, which shares it.
        table_rules.game_state(table)
    try:
        new, events = said_in(lambda: table_rules.apply(table, actor, action), languages)
    except IllegalAction as refused:
        if locales.current() == locales.ENGLISH:
            raise
        try:
            table_rules.apply(table, actor, action)
        except IllegalAction as said:
            raise said from None
        raise refused from None
    heard(new, actor.user_id, actor.language, actor.guild_language)
    if (table.status != ACTIVE or actor.user_id is None
            or action.kind in table_rules.TABLE_KINDS):
        return _played(new, events)
    summary = _undo_summary(new, events, action, actor.public_language or locales.ENGLISH)
    return _played(new, events, UndoWrite(keep=True, summary=summary))


def _undo_summary(table: Table, events: list[Event], action: Action, language: str) -> str:
    """A move as /gm undo names it: its first public headline (the news the live message
    told: a card revealed, not the shuffle the log keeps before it), else its
    first public line, else its kind. In the table's public language, as the players
    read it: the undo's line quotes it as it is, in every language it is said in."""
    public = [e for e in events if e.audience.is_public]
    details = table_rules.game_of(table).detail_kinds()
    first = next((e for e in public if is_headline(e, details)), public[0] if public else None)
    return (first.text_in(language) if first is not None else action.kind)[:200]


def _ahead(played: Played, loaded: Table, foresight: Foresight | None,
           owed: Sequenced | None = None) -> Played:
    """`played` with its delivery planned for the table its save will leave, when
    nothing but that save comes before the delivery: the game goes on (an end adds its
    story to the events) and no AI seat plays first. `owed`: what the saves before it
    owe (an AI chain's earlier steps, and the move before them). The save writes version
    `loaded.version + 1` and the events after the loaded last one (bot/store); the
    courier checks that it did (`Ahead.fits`). A plan that fails here is left to the
    courier, which fails the same way after the save and keeps the delivery owed."""
    new = played.table
    if foresight is None or played.ai.any or new.status != ACTIVE or new.id is None:
        return played
    kept = new.version, new.last_seq
    new.version, new.last_seq = loaded.version + 1, loaded.last_seq + len(played.events)
    try:
        language = server_language(new, foresight.settings)
        plan = plan_delivery(new, [*(owed or []), *sequenced(new, played.events)],
                             delivery_key(new.id, new.version), render=foresight.render,
                             language=language)
        ahead = Ahead(plan, language, new.last_seq, foresight.render)
    except Exception:  # the courier plans again after the save, and says why it fails
        return played
    finally:
        new.version, new.last_seq = kept
    return replace(played, ahead=ahead)


def _ai_moves(table: Table, work: AiWork, languages: tuple[str, ...],
              foresight: Foresight | None, owed: Sequenced, steps: int,
              offers: int, public: str | None) -> Chained:
    """AI steps in a row (see `Worker.ai_moves`), given back as one: the last table,
    every event, every engine step (bot/moves.py) in order. The AI decides each once (a
    decision is made of keys, never of words), then it is played in each language the
    table needs. A step that raises ends the trip; the ones before it are kept."""
    started = time.perf_counter()
    current, taken = table, 0
    events: list[Event] = []
    moves: list[dict[str, Any]] = []
    failed: Exception | None = None
    while taken < steps and current.status == ACTIVE:
        offer = work.offer and offers < MAX_OFFERS_IN_A_ROW
        if not (offer or work.to_act):
            break
        try:
            seat, action = table_rules.ai_decision(current, offer)

            def step(at: Table = current, seat: int = seat,
                     action: Action = action) -> tuple[Table, list[Event]]:
                return table_rules.play_decided(at, seat, action, public)

            new, said = said_in(step, languages)
        except Exception as exc:  # the caller logs it; the steps before it are saved
            failed = exc
            break
        taken += 1
        offers = offers + 1 if offer else 0
        events += said
        moves += new.moves or []
        current = new
        work = AiWork(*table_rules.ai_work(new))
        if time.perf_counter() - started >= CHAIN_SECONDS:
            break
    if taken == 0:
        return Chained(None, 0, offers, failed)
    current.moves = moves or None
    played = _ahead(_played(current, events, ai=work), table, foresight, owed)
    return Chained(played, taken, offers, failed)


def _undo(table: Table, past: Table, actor: table_rules.Actor, steps: int,
          summary: list[str], languages: tuple[str, ...]) -> Played:
    """The moves undone (`summary`, each its public line) are joined as each language
    said in joins sentences it quotes (`moderation.undone_between`)."""
    new, events = said_in(lambda: table_rules.restore(
        table, past, actor, steps, TABLE.text("moderation.undone_between").join(summary)),
        languages)
    return _played(new, events)


def _run_out(table: Table, ending: str, languages: tuple[str, ...],
             public: str | None) -> Played:
    new, events = said_in(lambda: turn_timers.run_out(table, ending, language=public),
                          languages)
    return _played(new, events)


def _summary(table: Table, entries: list[LoggedEvent], events: list[Event],
             languages: tuple[str, ...]) -> tuple[Event, GameResult] | None:
    """The story in English (its result is stored as such), its line in `languages` too."""
    with locales.speaking(locales.ENGLISH):
        told = summarise(table, entries, events)
    if told is None:
        return None
    event, result = told
    texts = dict(event.texts)
    for language in languages:
        with locales.speaking(language):
            again = summarise(table, entries, events)
        if again is not None:
            texts[language] = again[0].text
    return replace(event, texts=texts), result


def _ai_work(table: Table) -> AiWork:
    ai_to_act, offer = table_rules.ai_work(table)
    return AiWork(ai_to_act, offer)


def _plan(table: Table, owed: Sequenced, key: str, render: bool, language: str) -> Plan:
    return plan_delivery(table, owed, key, render=render, language=language)


def _board(kind: str, state: Any, whole: bool, language: str | None) -> tuple[bytes, float]:
    started = time.perf_counter()
    with locales.speaking(language or locales.current()):
        image = (render_whole if whole else render_public)(kind, state)
    return image, time.perf_counter() - started


def _alt(kind: str, state: Any, language: str | None) -> str:
    with locales.speaking(language or locales.current()):
        return describe_public(kind, state)


def _warm_up(kind: str, game: Game[Any], draw: bool) -> None:
    game.read_ahead()
    state, _ = game.setup([PlayerInfo(f"P{n}") for n in range(game.min_players)], 0, {})
    if draw:
        render_public(kind, state)
        render_whole(kind, state)  # /game map's own palette
