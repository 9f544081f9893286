"""Which of a turn's public lines the live message shows: the turn told at a glance.

A turn can say a dozen things (rolls, prompts, rules that did nothing); the channel
reads at most three short lines: who did what, what changed, who is next (the live
message's footer). The rest is the game's log (`/game log`), where every line is kept.
The choice is made from event kinds (Game.detail_kinds) and the lines themselves, so it
is the same for a delivery rebuilt from the stored events after a crash.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.core.events import Event

LINES = 3  # the live text's lines at most, the footer's included
SHORT = 120  # a headline longer than this shows its first sentence only
# A first sentence longer than this (a line with no sentence end) is cut at a word: three
# headlines then always fit one live message, and a normal turn never overflows it.
LONGEST = 400
# A sentence ends at . ! or ? before a capital, but not after a title ("Mr. Keene").
_SENTENCE_END = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bDr)(?<!\bSt)[.!?](?=\s+[A-Z\"“(])")


def is_headline(event: Event, detail_kinds: Iterable[str]) -> bool:
    """True when the event's line belongs in the live message, not only in the log."""
    return event.kind not in detail_kinds


def short(line: str) -> str:
    """The line as the live message shows it: a long one (a card's whole text) cut after
    its first sentence, which names what happened, and never past LONGEST; the log
    keeps the rest."""
    if len(line) <= SHORT:
        return line
    end = _SENTENCE_END.search(line, 10)
    first = line[:end.end()] if end is not None else line
    if len(first) <= LONGEST:
        return first
    cut = first[:LONGEST - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut[LONGEST // 2:] else cut) + "…"


def choose(lines: list[str], room: int, *, newest: bool = True) -> list[int]:
    """The positions of at most `room` headlines, in order: the newest (what just
    happened, and what it changed), or with `newest` False one delivery's first (what
    was done: a move, a card revealed) and its newest. A line said again (two cards,
    one effect) shows once, where it was said last; the log keeps every one."""
    if room <= 0:
        return []
    kept = [n for n, line in enumerate(lines) if line not in lines[n + 1:]]
    if len(kept) <= room:
        return kept
    if newest or room == 1:
        return kept[-room:]
    return [kept[0], *kept[len(kept) - room + 1:]]


def pick(lines: list[str], room: int) -> list[str]:
    """The newest `room` headlines, as the live message shows them."""
    return [short(lines[n]) for n in choose(lines, room)]
