"""The story of a finished game, told once when it ends: the few lines the table reads
on the final post, and the result `/game history` and `/stats` read later.

The game tells its story (Game.story, from its final state and its whole log); this
module names no game: it arranges the story into a short block that reads at a glance
in the chat (a heading, who won and how, at most MAX_TURNING turning points, a line per
seat) and into the rows the store keeps (bot/store/records.py's GameResult). Only a
finished table has a story, and only a game that ended by its rules has its secrets
told: a game a moderator ended early is told as such, with no game's story at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot import table as table_rules
from bot.core.events import Event
from bot.core.story import NO_SIDE, LogLine, SeatStory, Story, last_of
from bot.delivery import TURN_KIND
from bot.locales import current
from bot.moves import RESTORE
from bot.store.base import Store
from bot.store.records import GameResult, LoggedEvent, SeatResult
from bot.table_record import OVER, Table
from bot.texts import clip, say

SUMMARY_KIND = "summary"  # the event that carries the story on the final post
ENDED_KIND = "ended"  # the line that says why a game was ended early (bot/table_core.py's `close`)
MAX_TURNING = 3
LINE_MAX = 160  # a line longer than this (a quoted card) is cut: the log keeps it whole
SUMMARY_MAX = 1400  # the whole block: the final post keeps room for the last turn's lines
LOG_ALL = 1_000_000  # every event of a game (the store's log takes a limit)
# How far back from a finished game's last public line its summary is looked for: it is
# the last line of the save that ends the game, and nothing is played after that.
SUMMARY_SEARCH = 50


def played_entries(entries: Sequence[LoggedEvent],
                   moves: Sequence[tuple[int, list[dict[str, Any]]]]) -> list[LoggedEvent]:
    """The logged events of the moves that stand: each /gm undo (a `restore` move, saved
    at its own version) took the game back to the version it names, so what the saves
    between the two said never happened in the game the story tells (its turns, its
    deeds, its last fight). The undo's own line stays."""
    taken_back = [(int(move[RESTORE]), version) for version, steps in moves
                  for move in steps if RESTORE in move]
    return [e for e in entries
            if not any(back < e.version < undo for back, undo in taken_back)]


def log_lines(entries: Sequence[LoggedEvent], events: Sequence[Event] = ()) -> list[LogLine]:
    """A game's stored events, then the events of the save that ends it, as the story
    reads them: in the language spoken, where each was said in it (the story quotes
    them, and is told once in each language), else in English."""
    language = current()
    return [*(LogLine(e.kind, e.audience, e.text_in(language), e.seat) for e in entries),
            *(LogLine(e.kind, e.audience.encode(), e.text_in(language), e.seat)
              for e in events)]


def turns_of(log: Sequence[LogLine]) -> int:
    """How many turns the game played: every game opens a turn with a "turn" event."""
    return sum(1 for line in log if line.kind == TURN_KIND)


def story_of(table: Table, log: list[LogLine]) -> Story:
    """The game's own story when it ended by its rules; else (a moderator ended it,
    everyone left, its channel was deleted) only that it ended and why, in the words the
    table read then, and nothing the game kept hidden."""
    if table.state is not None:
        game = table_rules.game_of(table)
        state = table_rules.game_state(table)
        if game.is_over(state):
            return game.story(state, log)
    why = last_of(log, ENDED_KIND)
    return Story(outcome=say("summary.ended_early"), turning=[why] if why else [])


def _cut(line: str) -> str:
    """A summary line on one line, within LINE_MAX."""
    return clip(" ".join(line.split()), LINE_MAX)


def seat_line(name: str, part: SeatStory) -> str:
    who = say("summary.who_as", name=name, character=part.character) if part.character \
        else say("summary.who", name=name)
    key = "summary.seat_won" if part.won else "summary.seat"
    return _cut(say(key, who=who, did=part.did or say(f"summary.side_{part.side}")))


def seat_name(table: Table, seat: int) -> str:
    """The seat's player as the story names them: by their own name, also on a second
    seat (whose "(2nd)", made once in the lobby's language, only tells two seats' buttons
    apart: the story names each seat's character beside it)."""
    held = table.seats[seat]
    if held.ai or held.user_id is None:
        return held.name
    return table_rules.own_name(table, held.user_id) or held.name


def told(table: Table, story: Story, turns: int) -> str:
    """The block the final post ends with: a heading, who won and how, the turning
    points, then each seat's line (the first seats' when the block would run long)."""
    lines = [say("summary.heading", turns=turns), _cut(story.outcome)]
    lines += [_cut(say("summary.turning", line=t)) for t in story.turning[:MAX_TURNING]]
    used = sum(len(line) + 1 for line in lines)
    for seat, part in enumerate(story.seats[:len(table.seats)]):
        line = seat_line(seat_name(table, seat), part)
        if used + len(line) + 1 > SUMMARY_MAX:
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def result_of(table: Table, story: Story, turns: int, summary: str) -> GameResult:
    """The rows the store keeps of the finished game (its start and end are the store's)."""
    parts = story.seats or [SeatStory(side=NO_SIDE) for _ in table.seats]
    seats = [SeatResult(n, seat.user_id, seat_name(table, n), seat.ai, part.side, part.won,
                        part.score, part.character)
             for n, (seat, part) in enumerate(zip(table.seats, parts, strict=False))]
    return GameResult(table.id or 0, table.guild_id, table.channel_id, table.kind, turns,
                      story.content, _cut(story.outcome), json.dumps(story.to_dict()),
                      summary, seats,
                      edition=table_rules.game_of(table).edition_of(table.options))


def summarise(table: Table, entries: Sequence[LoggedEvent],
              events: Sequence[Event]) -> tuple[Event, GameResult] | None:
    """The summary event and the result of a table that `events` just finished (None
    for a table not over, or a lobby closed before its game began). Runs off the event
    loop (bot/worker.py): the game reads its whole log."""
    if table.status != OVER or table.state is None:
        return None
    log = log_lines(entries, events)
    story = story_of(table, log)
    turns = turns_of(log)
    text = told(table, story, turns)
    return Event(text, kind=SUMMARY_KIND), result_of(table, story, turns, text)


async def logged_summary(store: Store, game_id: int) -> LoggedEvent | None:
    """The summary a finished game's final post told, as logged with its other
    languages (`text_in`); None for a game that has none, or whose log was let go."""
    return (await logged_end(store, game_id))[0]


async def logged_end(store: Store, game_id: int
                     ) -> tuple[LoggedEvent | None, LoggedEvent | None]:
    """A finished game's summary and the line that said why it was ended early (None:
    it ended by its rules, or its log was let go), as logged with their other
    languages: the table's record keeps the reason in English alone."""
    entries = await store.log(game_id, limit=SUMMARY_SEARCH)
    return (next((e for e in entries if e.kind == SUMMARY_KIND), None),
            next((e for e in reversed(entries) if e.kind == ENDED_KIND), None))


def outcome_line(summary: str) -> str:
    """Who won and how, read back from a summary `told` wrote (its second line): the
    line in the language the summary was told in, where the stored result has English."""
    lines = summary.splitlines()
    return lines[1] if len(lines) > 1 else ""
