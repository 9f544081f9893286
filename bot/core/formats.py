"""Stored formats: every kind of JSON the store keeps for long (a game's state, a table's
envelope) says which shape it was written in, and the code that reads it brings an
older shape up to date, one step at a time, before reading it.

Why: a table lives for days in the store, its undo points with it, and the bot is
upgraded under them. A state's `from_dict` is strict on purpose (a key it does not know
is a bug to see, not something to drop quietly), so without formats renaming one field
would break every open table of that game. With them, the change comes with a step that
rewrites the old shape into the new one, and the golden states in tests/golden/ prove
that every release's saved tables still load and play on.

A kind of stored dict declares `Formats(steps)`: step n turns format n into format n+1.
A step is a pure function of plain JSON data; it gets a copy of its own (it may change
it in place) and returns the upgraded dict. The current format is the number of steps,
so steps are only ever appended, never edited or removed once released.

Format 0 is the shape every state and envelope had before formats existed, and it is
stored as no format key at all: the key is written from format 1 on. So a dict stored
before this module is format 0 without any rewriting, and the release that brought
formats in still writes what its predecessor reads (a rollback keeps every table as
long as no step was added). A dict of a format newer than the code knows was written by
a later release: it is refused (`UnknownFormat`), never guessed at.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The key a stored dict's format is written under (from format 1 on).
FORMAT_KEY = "format"

# One upgrade step: the dict in format n (a copy the step may change) -> format n + 1.
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


class UnknownFormat(ValueError):
    """A stored dict this code cannot read: written by a newer release (its format is
    past the code's), or its format is not a format number at all. Playing on with it
    would lose what the newer release stored, so the table stays untouched until a
    release that knows the format runs."""


@dataclass(frozen=True)
class Formats:
    """The formats one kind of stored dict has been through: `steps[n]` upgrades format
    n to n + 1, and the current format is `len(steps)`."""

    steps: tuple[Upgrade, ...] = ()

    @property
    def current(self) -> int:
        return len(self.steps)

    def format_of(self, raw: dict[str, Any], what: str) -> int:
        """The format `raw` was written in (0 without a key), or UnknownFormat for one
        this code cannot read. `what` names the dict in the error (a developer's line)."""
        number = raw.get(FORMAT_KEY, 0)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise UnknownFormat(f"{what}: {FORMAT_KEY} {number!r} is not a format number")
        if number > self.current:
            raise UnknownFormat(
                f"{what} is in format {number}, but this code reads formats up to "
                f"{self.current}: a newer release saved it. Run that release or a later "
                "one; an older one must not play it.")
        return number

    def stamped(self, raw: dict[str, Any], what: str) -> dict[str, Any]:
        """`raw` (a fresh dict the caller owns) with the current format written into it
        (nothing at format 0). A dict holding the key already would have a field of that
        name: refused, since the two would be mistaken for each other on reading."""
        if FORMAT_KEY in raw:
            raise ValueError(f"{what} has a field named {FORMAT_KEY!r}, the key its stored "
                             "format is written under: give the field another name")
        if self.current:
            raw[FORMAT_KEY] = self.current
        return raw

    def upgraded(self, raw: dict[str, Any], what: str) -> dict[str, Any]:
        """`raw` in the current format and without its format key, ready for the
        reader. A dict already current and without the key comes back as it is (the
        common case costs nothing); any other is copied first, so the stored dict, which
        the table, its decoded memo and an undo point may share, never changes."""
        start = self.format_of(raw, what)
        if start == self.current and FORMAT_KEY not in raw:
            return raw
        data = copy.deepcopy(raw) if start < self.current else dict(raw)
        data.pop(FORMAT_KEY, None)
        for number in range(start, self.current):
            data = self.steps[number](data)
            if not isinstance(data, dict) or FORMAT_KEY in data:
                raise TypeError(f"{what}: upgrade step {number} -> {number + 1} must "
                                f"return the upgraded dict, without a {FORMAT_KEY!r} key")
        return data
