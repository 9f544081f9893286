"""The open games a SQLite store last read or wrote, kept in memory: an action's load
(`SqliteStore.load`, the game and its live message) then needs no trip to the file.

Why: a load was one of an action's three trips to the store's threads, 0.35-0.6 ms of a
3-8 ms action (bench/bench_channels.py, issue 23), and each trip hands the interpreter
between threads. What a load returns is exactly what this process last wrote, unless
someone else wrote since, and with SQLite no one else does: one process owns its file
(bot/channel_locks.py). PostgreSQL keeps nothing of the kind: several processes share
its database.

Why it stays true:
- Each write that changes what a load returns brings the kept row up to date as it
  commits: a save (the game's row), a delivery's mark (its cursor and the live
  message) and the live message's own write. Every other write that might (a raw
  statement, a server's games deleted) forgets every kept row; the writes that touch
  nothing a load returns (a new game, timers, settings, notices, threads) leave them.
- Many kept loads at once take turns, a few in each pass of the event loop
  (`turn`), as loads from the file take turns on the reader's thread.
- A row read from the file is kept only if no write touching its game started or
  ended while it was read (`read`): a write under way when the read began brings the
  row up to date itself when it ends, and one that began or ended meanwhile may have
  been read half (before its commit, or after it but before its update here).
- A write that fails forgets its game's row: the file may or may not hold it.
- The text of the envelope is kept, not its decoded dict: each load decodes its own,
  so a caller changing its table (its options, its seats) changes no other's.

Bounded by bytes (`KEPT_BYTES`): a row forgotten is read again from the file.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any

from bot.core.lru import Lru
from bot.live_record import LiveMessage

# What the kept rows may hold: the largest game's table envelope is 7-9 KB of JSON, the
# others' less, so 200 busy channels hold about 2 MB.
KEPT_BYTES = 8 << 20
KEPT_GAMES = 4096
# Games whose last write is remembered (`_touched`); past this, the oldest is let go
# and every read under way is treated as touched (nothing wrongly kept).
TOUCHED = 4096
# Kept loads decoded in one pass of the event loop. A load from the file waits for the
# reader's thread, which hands the loads back one by one; a kept one decodes at once, so
# 200 channels clicking together decoded 200 envelopes in one pass, and the loop's
# longest wait grew from 41-48 to 106-114 ms (bench_channels, its default game, 200 channels
# at once). The rest wait, in order, for the passes after. With 4, 16 and 1000 a pass
# the longest wait was 26-52, 29-40 and 84-108 ms (two runs each, the p99 8-22 ms in
# all).
LOADS_PER_PASS = 8
# The weight of a row beside its envelope: its other columns, the live message, the
# entry.
_ROW_OVERHEAD = 1200


@dataclass(frozen=True)
class KeptRow:
    """An open game as a load reads it: its columns (the store's GAME_COLUMNS, the
    envelope as its JSON text) and its live message (None: none yet)."""

    game: tuple[Any, ...]
    live: LiveMessage | None

    @property
    def game_id(self) -> int:
        return int(self.game[0])

    def decoded(self) -> tuple[tuple[Any, ...], LiveMessage | None]:
        """The row with its envelope decoded afresh, and a copy of its live message:
        the caller's own to change."""
        game = (*self.game[:6], json.loads(self.game[6]), *self.game[7:])
        live = None if self.live is None else dataclasses.replace(
            self.live, lines=list(self.live.lines))
        return game, live


# Where a save, a mark and a live message's write sit in GAME_COLUMNS:
# id, channel_id, guild_id, kind, status, version, envelope, last_seq, delivered_seq.
_STATUS, _VERSION, _ENVELOPE, _LAST, _DELIVERED = 4, 5, 6, 7, 8


class Kept:
    """The kept rows by channel, and when each game was last written (see the module's
    docstring). Used on the event loop only: each method runs whole between two
    awaits, so none sees another half done."""

    def __init__(self, max_bytes: int = KEPT_BYTES, games: int = KEPT_GAMES) -> None:
        self._rows: Lru[int, KeptRow] = Lru(games, max_bytes, "KEPT",
                                            on_drop=self._pushed_out)
        self._channel: dict[int, int] = {}  # game id -> the channel it is kept under
        self._clock = 0
        self._touched: OrderedDict[int, int] = OrderedDict()  # game id -> its last stamp
        self._forgot = 0  # the stamp of the last time everything was forgotten
        self._this_pass = 0  # kept loads let in since the pass began
        self._waiting: deque[asyncio.Future[None]] = deque()  # loads waiting their turn
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop of those passes

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def hits(self) -> int:
        return self._rows.hits

    @property
    def misses(self) -> int:
        return self._rows.misses

    # -- reads ------------------------------------------------------------------------------

    def __contains__(self, channel_id: object) -> bool:
        """Whether this channel's game is kept (not counted as a hit or a miss)."""
        return channel_id in self._rows

    def get(self, channel_id: int) -> KeptRow | None:
        return self._rows.get(channel_id)

    async def turn(self) -> None:
        """Wait for a place among a pass's kept loads (LOADS_PER_PASS), first come
        first served."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a store used on a new loop: the old one's passes
            self._loop, self._this_pass = loop, 0  # never come
            self._waiting.clear()
        if self._this_pass < LOADS_PER_PASS and not self._waiting:
            if self._this_pass == 0:
                loop.call_soon(self._next_pass)
            self._this_pass += 1
            return
        place = loop.create_future()
        self._waiting.append(place)
        await place

    def _next_pass(self) -> None:
        """A new pass: the next few waiting loads are let in (they run in the pass
        after this one), and another pass is awaited while any were."""
        self._this_pass = 0
        while self._waiting and self._this_pass < LOADS_PER_PASS:
            place = self._waiting.popleft()
            if not place.done():  # a load cancelled while it waited
                place.set_result(None)
                self._this_pass += 1
        if self._this_pass and self._loop is not None:
            self._loop.call_soon(self._next_pass)

    def now(self) -> int:
        """A read of the file starts: what `read` compares with once it is back."""
        return self._clock

    def read(self, channel_id: int, row: KeptRow, started: int) -> None:
        """Keep a row read from the file, if nothing touched its game since `started`."""
        touched = max(self._touched.get(row.game_id, 0), self._forgot)
        if touched <= started:
            self._keep(channel_id, row)

    # -- writes -----------------------------------------------------------------------------

    def writing(self, game_id: int) -> None:
        """A write touching this game starts (and, called again, ends)."""
        self._clock += 1
        self._touched[game_id] = self._clock
        self._touched.move_to_end(game_id)
        while len(self._touched) > TOUCHED:
            self._touched.popitem(last=False)
            self._forgot = self._clock

    def forget(self) -> None:
        """Every kept row goes: a write that may change any game starts or ends."""
        self._clock += 1
        self._forgot = self._clock
        self._rows.cache_clear()
        self._channel.clear()

    def drop(self, game_id: int) -> None:
        """This game's row goes (a write to it failed, or it changed past what the row
        can follow)."""
        channel_id = self._channel.pop(game_id, None)
        if channel_id is not None:
            self._rows.pop(channel_id)

    def drop_channel(self, channel_id: int) -> None:
        """The row kept for this channel's game, whichever it is, goes."""
        found = self._rows.pop(channel_id)
        if found is not None:
            self._channel.pop(found.game_id, None)

    def saved(self, game_id: int, expected: int, status: str, envelope: str,
              last_seq: int, delivered_seq: int, *, open_game: bool) -> None:
        """A save of the game at version `expected` committed. Its row follows it if it
        was kept at that version and the game is still open; else it goes."""
        channel_id, row = self._of_game(game_id)
        if row is None:
            return
        if row.game[_VERSION] != expected or not open_game:
            self.drop(game_id)
            return
        game = list(row.game)
        game[_STATUS], game[_VERSION], game[_ENVELOPE] = status, expected + 1, envelope
        game[_LAST], game[_DELIVERED] = last_seq, delivered_seq
        self._keep(channel_id, KeptRow(tuple(game), row.live))

    def marked(self, game_id: int, seq: int, live: LiveMessage | None) -> None:
        """A delivery's mark committed: the cursor moves up to `seq` (never back), and
        the live message is `live` when given."""
        channel_id, row = self._of_game(game_id)
        if row is None:
            return
        game = list(row.game)
        game[_DELIVERED] = max(game[_DELIVERED], seq)
        self._keep(channel_id, KeptRow(tuple(game), row.live if live is None else live))

    def shown(self, game_id: int, live: LiveMessage) -> None:
        """The live message's write committed."""
        channel_id, row = self._of_game(game_id)
        if row is not None:
            self._keep(channel_id, KeptRow(row.game, live))

    # -- inside -----------------------------------------------------------------------------

    def _of_game(self, game_id: int) -> tuple[int, KeptRow | None]:
        channel_id = self._channel.get(game_id)
        if channel_id is None:
            return 0, None
        return channel_id, self._rows.peek(channel_id)

    def _keep(self, channel_id: int, row: KeptRow) -> None:
        self.drop_channel(channel_id)
        self._channel[row.game_id] = channel_id
        self._rows.put(channel_id, row, len(row.game[_ENVELOPE]) + _ROW_OVERHEAD)
        if channel_id not in self._rows:  # heavier than the whole budget: not kept
            del self._channel[row.game_id]

    def _pushed_out(self, channel_id: int, row: KeptRow) -> None:
        """The byte or count limit pushed this channel's row out."""
        self._channel.pop(row.game_id, None)
