"""A least-recently-used cache bounded by entries and by bytes, with hit counts.

The renderers' caches hold images and compressed bands whose sizes differ a
hundredfold (a word, a 180 px tile), so a count alone says little about memory: each
of these caches has a byte budget too, and drops its oldest entries to stay within
both. `cache_info` answers like functools.lru_cache's, plus the bytes held. Boards
are rendered in worker threads (asyncio.to_thread), so each call holds a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, NamedTuple, TypeVar

V = TypeVar("V")


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int
    maxbytes: int
    currbytes: int


class Lru(Generic[V]):
    def __init__(self, maxsize: int, maxbytes: int) -> None:
        self.maxsize = maxsize
        self.maxbytes = maxbytes
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, size)
            self._bytes += size
            while self._items and (len(self._items) > self.maxsize
                                   or self._bytes > self.maxbytes):
                _, (_, dropped) = self._items.popitem(last=False)
                self._bytes -= dropped

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self.hits, self.misses, self.maxsize, len(self._items),
                             self.maxbytes, self._bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
            self.hits = self.misses = 0
