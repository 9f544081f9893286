"""Which languages a table speaks, and one step of the rules said in each of them.

The engines stay as they are: pure, seeded, in English. A table whose server or players
read another language (bot/locales) plays each step once in English, the truth that is
saved and logged, and once more on the same input under `speaking(language)` for each
other language it needs: the same seeded state gives the same step, so the events pair
one to one, and each English event takes its other texts from its twin
(`Event.texts`). Should the twins differ (a count, a kind, an audience: a step whose
path depends on its words), the step is said in English alone and a warning logged:
a player reads English rather than a line that belongs to another event.

A step that pauses on a choice (bot/core/choices.py) made its prompt and labels from
data as it paused, so each language's replay made them in its words: they are kept
with the English state's choice (`PendingChoice.texts`) for the buttons and the
status lines each reader is shown later.

A choice is worded in every language the bot speaks, not only those the table needs
as it pauses (`unworded`): a choice waits, and while it waits the table may come to
need another language with no step to say it in (the server switches `/gm settings
language`, a Chinese reader takes a seat or clicks for the first time). The step that
paused is at hand only while it is played; later, its words could be made only by
loading the state before it (an undo point, or the seed) and the moves since from the
store and playing them again, off the loop, for a moment that is rare. So the step is
played once more now, for each language missing, only when it leaves a choice without
that language's words: a few steps of a game, not each one (bench/bench_languages.py:
59 of 318 of one game's, 7 of 296 of another's; an English table's step costs 1.09x
on average in the first). A game that words its choices as they are read
(`Game.words_choices_when_read`) needs none, nor does a choice an AI seat makes (the AI
chain makes it at once, before anything shows it; a paused table's are worded). A
choice kept from before this (no words), or an AI's handed to a player before it was
made, reads in English until it is made.

Who reads what: public lines, the live message and the board in the server's language
(`/gm settings language`, else the server's preferred locale as Discord last reported
it: `Table.guild_language`); each player's DMs in their own (`Seat.language`, from their
last interaction); a team's thread in the server's. Delivery picks the text
(bot/delivery.py); this module only makes it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from bot import games
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.guild_settings import GuildSettings
from bot.locales import ENGLISH, LANGUAGES, speaking, supported
from bot.table_record import Table

log = logging.getLogger(__name__)

Step = Callable[[], tuple[Table, list[Event]]]


def server_language(table: Table, settings: GuildSettings | None) -> str:
    """The language of the table's public posts: the server's choice, else its
    preferred locale as last reported, else English."""
    if settings is not None and settings.language in LANGUAGES:
        return settings.language
    return table.guild_language or ENGLISH


def seat_language(table: Table, seat: int) -> str:
    """The language a seat's player reads their DMs in (English until known)."""
    return table.seats[seat].language or ENGLISH


def user_language(table: Table, user_id: int) -> str:
    """The language a user reads their DMs from this table in: their seat's."""
    return next((s.language for s in table.seats if s.user_id == user_id and s.language),
                ENGLISH)


def needed(table: Table, server: str) -> tuple[str, ...]:
    """The languages besides English this table's words must be made in: the server's
    and each human seat's."""
    wanted = {server, *(s.language for s in table.seats if s.is_human and s.language)}
    return tuple(lang for lang in LANGUAGES if lang != ENGLISH and lang in wanted)


def heard(table: Table, user_id: int | None, locale: object,
          guild_locale: object) -> None:
    """What an interaction tells of languages, kept on the table (in place: the table
    about to be saved): the user's locale on each of their seats, the server's preferred
    locale as its default language. A locale we do not speak reads English."""
    if user_id is not None and locale is not None:
        language = supported(locale) or ENGLISH
        for seat in table.seats:
            if seat.user_id == user_id and not seat.ai:
                seat.language = language
    if guild_locale is not None and table.guild_id is not None:
        table.guild_language = supported(guild_locale) or ENGLISH


def said_in(step: Step, languages: Iterable[str]) -> tuple[Table, list[Event]]:
    """`step` played in English (its table and events are the truth), and again under
    each of `languages` for their texts. A refusal is English's to make: the step is
    not played again."""
    with speaking(ENGLISH):
        table, events = step()
    others = [lang for lang in languages if lang != ENGLISH]
    spare = unworded(table, others)
    if not spare and (not others or not events):
        return table, events
    texts: list[dict[str, str]] = [{} for _ in events]
    asked: dict[str, dict[str, Any]] = {}
    for language in (*others, *spare):
        played = _twins(step, language)
        twins = None if played is None else played[1]
        if played is None or twins is None or not _paired(events, twins):
            log.log(logging.WARNING if language in others else logging.INFO,
                    "a step of %s said %d events in English and %s in %s: said in "
                    "English only", table.kind, len(events),
                    "none" if twins is None else len(twins), language)
            continue
        if language in others:  # a spare language's events have no reader: not kept
            for said, twin in zip(texts, twins, strict=True):
                said[language] = twin.text
        words = _choice_words(table, played[0], language)
        if words is not None:
            asked[language] = words
    if asked:
        _keep_choice_words(table, asked)
    return table, [replace(e, texts={**e.texts, **t}) if t else e
                   for e, t in zip(events, texts, strict=True)]


def unworded(table: Table, languages: Iterable[str]) -> tuple[str, ...]:
    """The languages the bot speaks, besides English and `languages` (said anyway), that
    the table's pending choice has no words in: a step leaving it so is played in them
    too, for the choice's words alone (see the module's docstring). None for a game
    that words its choices as they are read (`Game.words_choices_when_read`)."""
    pending = _pending(table)
    if (pending is None or games.get(table.kind).words_choices_when_read
            or _made_by_ai(table, pending)):
        return ()
    kept = pending.get("texts", {})
    return tuple(lang for lang in LANGUAGES
                 if lang != ENGLISH and lang not in languages and lang not in kept)


def _made_by_ai(table: Table, pending: dict[str, Any]) -> bool:
    """The choice waits for an AI seat of a table in play: the AI chain makes it right
    after the save, under the channel's lock, before any post shows it (a paused
    table's AI waits for /gm resume, so its choices are worded as a player's are)."""
    seat = pending.get("seat")
    return (not table.paused and isinstance(seat, int) and 0 <= seat < len(table.seats)
            and table.seats[seat].ai)


def _pending(table: Table) -> dict[str, Any] | None:
    """The table's stored pending choice, if its game is paused on one."""
    raw = table.state.get("pending") if table.state else None
    return raw if isinstance(raw, dict) else None


def _choice_words(table: Table, twin: Table, language: str) -> dict[str, Any] | None:
    """The prompt and labels `language`'s replay paused with, when it paused on the same
    choice as English (same seat, kind and count of labels) and worded it otherwise: a
    choice carried over from before the step brings its kept words with it."""
    english, other = _pending(table), _pending(twin)
    if english is None or other is None or any(
            english[key] != other[key] for key in ("seat", "kind")):
        return None
    kept = other.get("texts", {}).get(language)
    words = kept or {"prompt": other["prompt"], "labels": list(other["labels"])}
    if len(words["labels"]) != len(english["labels"]) or (
            words["prompt"] == english["prompt"] and words["labels"] == english["labels"]):
        return None
    return {"prompt": words["prompt"], "labels": list(words["labels"])}


def _keep_choice_words(table: Table, asked: dict[str, dict[str, Any]]) -> None:
    """Store the other languages' words with the English choice. A new state dict (the
    one stepped from, an undo point, may share the old), so the decoded memo of the old
    one is dropped with it and the state decoded again when read."""
    assert table.state is not None
    pending = _pending(table)
    assert pending is not None
    table.state = {**table.state,
                   "pending": {**pending, "texts": {**pending.get("texts", {}), **asked}}}
    table.memo = None


def _twins(step: Step, language: str) -> tuple[Table, list[Event]] | None:
    """The step in `language`, or None when it went another way there."""
    try:
        with speaking(language):
            return step()
    except (IllegalAction, KeyError, ValueError, IndexError, StopIteration):
        log.warning("a step played again in %s failed", language, exc_info=True)
        return None


def _paired(events: list[Event], twins: list[Event]) -> bool:
    """The same events, one to one: count, kinds and audiences."""
    return len(events) == len(twins) and all(
        a.kind == b.kind and a.audience == b.audience for a, b in zip(events, twins,
                                                                    strict=True))
