"""A small least-recently-used map with a hard size limit.

The engines are pure, but some things they derive from a state are worth keeping
(where a house's doors lead); one process plays many games at once, so anything
kept must stay bounded whatever the games do. `functools.lru_cache` would do when
the key is the whole argument; this one lets the caller check a hit against
something the key cannot hold (the content object a result was derived from).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most `size` entries; the one used longest ago goes first. Locked, so games
    played in worker threads (the AI chain off the event loop) share it safely."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an Lru keeps at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), None if none is (so
        None is no value to keep)."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
