"""A least-recently-used map with hard limits: entries, and optionally bytes.

One process plays many games at once, so anything kept from one action to the next
must stay bounded whatever the games do: the engines keep what they derive from a
state (where a house's doors lead), the renderers the images and compressed bands they
reuse, whose sizes differ a hundredfold (a word, a 180 px tile), so those also count
bytes. `functools.lru_cache` would do when the key is the whole argument; this one lets
the caller check a hit against something the key cannot hold (the content object a
result was derived from). Locked: games are played and boards drawn in worker threads.
`lru_by_bytes` is `functools.lru_cache` bounded by bytes, `SmallCached` the same for hot
small results (a hit without a lock); `RecentDict` and `RecentSet`
are the event loop's per-channel memories, bounded by count.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, MutableMapping, MutableSet
from functools import update_wrapper
from threading import Lock
from typing import Generic, NamedTuple, ParamSpec, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


class CacheInfo(NamedTuple):
    """As functools.lru_cache answers, plus the bytes held and allowed."""

    hits: int
    misses: int
    maxsize: int
    currsize: int
    maxbytes: int | None
    currbytes: int


class Lru(Generic[K, V]):
    """At most `size` entries (and `max_bytes` bytes, as `put` counts them); the one
    used longest ago goes first."""

    def __init__(self, size: int, max_bytes: int | None = None, name: str = "",
                 on_drop: Callable[[K, V], None] | None = None) -> None:
        """`on_drop` hears of each entry the limits push out (not of `pop` or a
        clear): a caller that indexes the entries another way keeps its index exact."""
        if size < 1:
            raise ValueError("an Lru keeps at least one entry")
        if max_bytes is not None and max_bytes < 1:
            raise ValueError("an Lru with a byte budget needs at least one byte")
        self.size = size
        self.max_bytes = max_bytes
        self.__qualname__ = name or "Lru"  # how the benches and tests name it
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0
        self._lock = Lock()
        self._on_drop = on_drop

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), None if none is (so
        None is no value to keep)."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._entries.move_to_end(key)
            return found[0]

    def put(self, key: K, value: V, nbytes: int = 0) -> None:
        """Keep `value`, weighing `nbytes` (measured once, by the caller, when it is
        made). Older entries go until both limits hold; an entry heavier than the whole
        budget is not kept at all (it would only push everything else out)."""
        if nbytes < 0:
            raise ValueError("an entry weighs at least nothing")
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if self.max_bytes is not None and nbytes > self.max_bytes:
                return
            self._entries[key] = (value, nbytes)
            self._bytes += nbytes
            while self._entries and (len(self._entries) > self.size or (
                    self.max_bytes is not None and self._bytes > self.max_bytes)):
                gone, (value, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
                if self._on_drop is not None:
                    self._on_drop(gone, value)

    def peek(self, key: K) -> V | None:
        """The value kept for `key`, not counted as a use, a hit or a miss."""
        found = self._entries.get(key)
        return None if found is None else found[0]

    def pop(self, key: K) -> V | None:
        """Forget `key`; the value it had (None: none)."""
        with self._lock:
            found = self._entries.pop(key, None)
            if found is None:
                return None
            self._bytes -= found[1]
            return found[0]

    def __contains__(self, key: object) -> bool:
        """Whether `key` is kept (not counted as a use, a hit or a miss)."""
        return key in self._entries

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self.hits, self.misses, self.size, len(self._entries),
                             self.max_bytes, self._bytes)

    def __len__(self) -> int:
        return len(self._entries)


class BytesCached(Generic[P, R]):
    """A function's results kept in an `Lru` by bytes, each weighed once by `weigh`
    when it is computed: what `functools.lru_cache` does, for results whose sizes
    differ too much (a mask of a word, of a whole panel) for a count to bound them."""

    def __init__(self, fn: Callable[P, R], max_bytes: int, weigh: Callable[[R], int],
                 size: int) -> None:
        self.fn = fn
        self.weigh = weigh
        self.kept: Lru[Hashable, tuple[R]] = Lru(size, max_bytes, fn.__qualname__)
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self.kept.get(key)
        if found is not None:
            return found[0]
        value = self.fn(*args, **kwargs)
        self.kept.put(key, (value,), self.weigh(value))
        return value

    def cache_info(self) -> CacheInfo:
        return self.kept.cache_info()

    def cache_clear(self) -> None:
        self.kept.cache_clear()


class SmallCached(Generic[P, R]):
    """A function's results kept by bytes, for the small, hot caches (a font, a text's
    width, a layout: asked for hundreds of times a board): a hit is one dict lookup, no
    lock and no reordering, since an `Lru`'s bookkeeping cost more than these functions
    save. So the entry made longest ago goes first once `max_bytes` is passed (made,
    not used: these budgets are sized never to be reached in play). Each entry weighs
    `weigh(result) + weigh_key(key)`, measured once, when made."""

    def __init__(self, fn: Callable[P, R], max_bytes: int, weigh: Callable[[R], int],
                 weigh_key: Callable[[Hashable], int]) -> None:
        if max_bytes < 1:
            raise ValueError("a cache with a byte budget needs at least one byte")
        self.fn = fn
        self.max_bytes = max_bytes
        self.weigh = weigh
        self.weigh_key = weigh_key
        self._entries: dict[Hashable, tuple[R, int]] = {}
        self._bytes = 0
        self.hits = self.misses = 0
        # How many times it was cleared: what is worked out from its results may be
        # kept under this count (renderers.common.font_signature), a clear makes it new.
        self.generation = 0
        self._lock = Lock()  # writers only: a reader's dict lookup is atomic
        update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self._entries.get(key)
        if found is not None:
            self.hits += 1  # a count for the benches: a lost increment is harmless
            return found[0]
        value = self.fn(*args, **kwargs)
        nbytes = self.weigh(value) + self.weigh_key(key)
        with self._lock:
            self.misses += 1
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if nbytes <= self.max_bytes:
                self._entries[key] = (value, nbytes)
                self._bytes += nbytes
            while self._bytes > self.max_bytes:
                oldest = next(iter(self._entries))
                self._bytes -= self._entries.pop(oldest)[1]
        return value

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self.hits, self.misses, 1 << 20, len(self._entries),
                             self.max_bytes, self._bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self.hits = self.misses = 0
            self.generation += 1


def lru_by_bytes(max_bytes: int, weigh: Callable[[R], int], size: int = 1 << 20
                 ) -> Callable[[Callable[P, R]], BytesCached[P, R]]:
    """Decorator form of `BytesCached`: at most `max_bytes` as `weigh` counts them (and
    `size` entries, by default a count no byte budget here would reach)."""
    return lambda fn: BytesCached(fn, max_bytes, weigh, size)


class RecentDict(MutableMapping[K, V]):
    """A dict that keeps its `size` most recently written keys, for what a process
    remembers per channel or per member (the loop's own: not locked). Forgetting the
    oldest must be harmless: one more request, one message fewer, never a wrong one."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a RecentDict keeps at least one key")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


class RecentSet(MutableSet[K]):
    """A set that keeps its `size` most recently added members (see `RecentDict`)."""

    def __init__(self, size: int) -> None:
        self._members: RecentDict[K, None] = RecentDict(size)

    def __contains__(self, key: object) -> bool:
        return key in self._members

    def add(self, key: K) -> None:
        self._members[key] = None

    def discard(self, key: K) -> None:
        self._members.pop(key, None)

    def __iter__(self) -> Iterator[K]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)
