"""Command names in our lines, made clickable: `/game new` becomes `</game new:ID>`.

Discord turns `</name:id>` into a link that fills the command in, but only with the id
Discord gave the command when it was synced. The lines in data/ name commands plainly
(`/game new`, so they read the same where no id is known: before a sync, in a test of
the rules); this book knows the ids once cogs/mentions.py has fetched them and links
every name it knows in a line about to be sent. It holds no Discord object: the live
message's end line (bot/live_message.py) links through it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A slash, a command and up to two subcommand words; a name inside a link, a path or a
# word (https://x/y, and/or) is no command: the slash must start a word.
_NAMED = re.compile(r"(`?)(?<![\w/:<])/([a-z][a-z0-9_-]*(?: [a-z][a-z0-9_-]*){0,2})(`?)")


class Mentions:
    def __init__(self) -> None:
        self._names: set[str] = set()  # qualified names a mention can point at (leaves)
        self._ids: dict[int | None, dict[str, int]] = {}  # scope -> top-level name -> id

    def reset(self, names: Iterable[str]) -> None:
        """A new command tree (a start): its names, and no ids until they are fetched."""
        self._names = set(names)
        self._ids.clear()

    def known(self, scope: int | None) -> bool:
        return scope in self._ids

    def remember(self, scope: int | None, ids: dict[str, int]) -> None:
        self._ids[scope] = dict(ids)

    def ids(self, guild_id: int | None) -> dict[str, int]:
        """Top-level name -> id: the global commands, overlaid by this guild's."""
        merged = dict(self._ids.get(None, {}))
        if guild_id is not None:
            merged.update(self._ids.get(guild_id, {}))
        return merged

    def names_command(self, text: str) -> bool:
        """Whether `text` names one of our commands (so the ids are worth fetching)."""
        return any(self._longest(m.group(2).split()) for m in _NAMED.finditer(text))

    def link(self, text: str, guild_id: int | None = None) -> str:
        """`text` with every command it names as a clickable mention, where its id is
        known; the rest as written."""
        ids = self.ids(guild_id)
        if not ids or "/" not in text:
            return text

        def mention(match: re.Match[str]) -> str:
            opening, words, closing = match.group(1), match.group(2).split(), match.group(3)
            name = self._longest(words)
            known = ids.get(name.split()[0]) if name else None
            if name is None or known is None:
                return match.group(0)
            rest = words[len(name.split()):]
            linked = f"</{name}:{known}>"
            if rest:  # `/game new game:x` keeps its code span around what is typed
                return f"{linked}{opening} {' '.join(rest)}{closing}" if opening \
                    else f"{linked} {' '.join(rest)}{closing}"
            if opening and closing:  # a mention does not render inside a code span
                return linked
            return f"{opening}{linked}{closing}"

        return _NAMED.sub(mention, text)

    def _longest(self, words: list[str]) -> str | None:
        for size in range(len(words), 0, -1):
            name = " ".join(words[:size])
            if name in self._names:
                return name
        return None


BOOK = Mentions()  # one command tree per process
