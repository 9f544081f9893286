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
# A sentence ends at . ! or ? before a capital, but not after a title ("Mr. Keene").
_SENTENCE_END = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bDr)(?<!\bSt)[.!?](?=\s+[A-Z\"“(])")


def is_headline(event: Event, detail_kinds: Iterable[str]) -> bool:
    """True when the event's line belongs in the live message, not only in the log."""
    return event.kind not in detail_kinds


def short(line: str) -> str:
    """The line as the live message shows it: a long one (a card's whole text) cut after
    its first sentence, which names what happened; the log keeps the rest."""
    if len(line) <= SHORT:
        return line
    end = _SENTENCE_END.search(line, 10)
    return line[:end.end()] if end is not None else line


def pick(lines: list[str], room: int) -> list[str]:
    """At most `room` of a turn's headlines, the newest: what just happened, and what
    it changed (the log keeps the older ones, and each repeat)."""
    if room <= 0:
        return []
    kept: list[str] = []  # a line said again at once (two cards, one effect) shows once
    for line in (short(line) for line in lines):
        if not kept or kept[-1] != line:
            kept.append(line)
    return kept[-room:]


def told(lines: list[str], room: int) -> list[str]:
    """At most `room` of one delivery's headlines: its first (what was done: a move, a
    card revealed) and its newest (what that changed)."""
    kept = pick(lines, len(lines))
    if len(kept) <= room or room <= 1:
        return kept[-room:] if room > 0 else []
    return [kept[0], *kept[len(kept) - room + 1:]]
