"""The one strict reader of what arrives from outside: custom_ids, actions' wire form, ids.

A custom_id or a select value comes back from Discord as whatever a client sent, and a
modified client can send anything. So everything is read here, against one small
grammar, before any of it reaches the store or a game: ASCII digits only (Python's
`isdigit` and `\\d` accept "²" and "٣"), numbers in canonical form and in range (SQLite
holds signed 64-bit integers), short slugs, bounded lengths. What does not read is
refused with IllegalAction, the error the cogs already answer privately; what reads
writes back to exactly the same text, so one value has one spelling.

The grammar of an action: `kind~key=value~key=value`, keys in sorted order, each once;
a value is a non-negative int or a slug. Custom ids: `hk:<channel>:<version>:<action>`
(a button) and `hks:<channel>:<version>:<n>` (a select, whose values are actions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.errors import IllegalAction
from bot.texts import say

Value = int | str

BUTTON_PREFIX = "hk:"
SELECT_PREFIX = "hks:"
MAX_CUSTOM_ID = 100  # Discord's limit for a custom_id, and for a select option's value
MAX_ACTION = 100
MAX_ARGS = 8
SNOWFLAKE_LIMIT = 2**63  # ids are positive and below this: SQLite's INTEGER is signed 64-bit
INT_LIMIT = 2**63  # action ints are 0 <= n < this (seats, rooms, picks, a user id to kick)
VERSION_LIMIT = 2**31  # a table saves once per action: far more than any game plays
SELECTS_LIMIT = 25  # a message holds at most 25 selects (5 rows of 5 would be buttons)

_NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")  # ASCII, no sign, no leading zeros, < 10**19
_KIND = re.compile(r"[a-z][a-z0-9_]{0,23}(?:\.[a-z][a-z0-9_]{0,23}){0,2}")
_KEY = re.compile(r"[a-z][a-z0-9_]{0,15}")
_SLUG = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,47}")


def _unreadable() -> IllegalAction:
    return IllegalAction(say("errors.unreadable"))


def read_number(text: str, limit: int, *, low: int = 0) -> int:
    """A canonical ASCII number with low <= n < limit, or a refusal."""
    if not _NUMBER.fullmatch(text):
        raise _unreadable()
    number = int(text)
    if not low <= number < limit:
        raise _unreadable()
    return number


def read_snowflake(text: str) -> int:
    """A Discord id (a channel, a user): 0 < id < 2**63."""
    return read_number(text, SNOWFLAKE_LIMIT, low=1)


def index_of(text: str, count: int) -> int | None:
    """The index a picker sent (autocomplete values are indexes), or None when `text` is
    not a canonical index below `count`, so the caller can read it as a name instead."""
    text = text.strip()
    if not _NUMBER.fullmatch(text) or int(text) >= count:
        return None
    return int(text)


def _read_value(raw: str) -> Value:
    if raw[:1].isascii() and raw[:1].isdigit():
        return read_number(raw, INT_LIMIT)
    if not _SLUG.fullmatch(raw):
        raise _unreadable()
    return raw


def read_action(text: str) -> tuple[str, dict[str, Value]]:
    """An action's kind and arguments from its wire form."""
    if not text or len(text) > MAX_ACTION:
        raise _unreadable()
    kind, *pairs = text.split("~")
    if not _KIND.fullmatch(kind) or len(pairs) > MAX_ARGS:
        raise _unreadable()
    args: dict[str, Value] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not _KEY.fullmatch(key) or (args and key <= next(reversed(args))):
            raise _unreadable()  # keys come sorted and once each, as write_action puts them
        args[key] = _read_value(raw)
    return kind, args


def write_action(kind: str, args: Mapping[str, Value]) -> str:
    """The wire form of an action (keys sorted): what read_action reads back."""
    return "~".join([kind] + [f"{k}={v}" for k, v in sorted(args.items())])


@dataclass(frozen=True)
class ButtonId:
    """What a button's custom_id names: the game's channel, the table version it was
    posted at (0: any) and the action it plays."""

    channel_id: int
    version: int
    kind: str
    args: dict[str, Value]

    def encode(self) -> str:
        action = write_action(self.kind, self.args)
        return f"{BUTTON_PREFIX}{self.channel_id}:{self.version}:{action}"


@dataclass(frozen=True)
class SelectId:
    """What a select's custom_id names: the channel, the version and the select's number
    on its message (its chosen value is an action's wire form)."""

    channel_id: int
    version: int
    n: int

    def encode(self) -> str:
        return f"{SELECT_PREFIX}{self.channel_id}:{self.version}:{self.n}"


def _split_id(custom_id: str, prefix: str) -> tuple[int, int, str]:
    if len(custom_id) > MAX_CUSTOM_ID or not custom_id.startswith(prefix):
        raise _unreadable()
    parts = custom_id[len(prefix):].split(":", 2)
    if len(parts) != 3:
        raise _unreadable()
    channel, version, rest = parts
    return read_snowflake(channel), read_number(version, VERSION_LIMIT), rest


def read_button_id(custom_id: str) -> ButtonId:
    channel_id, version, action = _split_id(custom_id, BUTTON_PREFIX)
    kind, args = read_action(action)
    return ButtonId(channel_id, version, kind, args)


def read_select_id(custom_id: str) -> SelectId:
    channel_id, version, n = _split_id(custom_id, SELECT_PREFIX)
    return SelectId(channel_id, version, read_number(n, SELECTS_LIMIT))
