"""Which shards this process runs: `--shards 0-3 --shard-count 8` (or `--shards 0,2,5`).

Several processes, each with its own shards, share one PostgreSQL: Discord sends a
guild's events to the shard (guild_id >> 22) % count, DMs to shard 0. The bad spec is
refused here, before discord.py would fail later with a less telling message."""

from __future__ import annotations

from dataclasses import dataclass


class ShardSpecError(ValueError):
    """A --shards/--shard-count pair that names no valid set of shards."""


@dataclass(frozen=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


def _ids(spec: str) -> list[int]:
    ids: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            if dash:
                first, last = int(low), int(high)
                if first > last:
                    raise ShardSpecError(f"--shards: {part!r} runs backwards")
                ids.extend(range(first, last + 1))
            else:
                ids.append(int(part))
        except ValueError as exc:
            if isinstance(exc, ShardSpecError):
                raise
            raise ShardSpecError(f"--shards: {part!r} is not a shard id or a range "
                                 "like 0-3") from None
    return ids


def parse_shards(spec: str | None, count: int | None) -> Shards | None:
    """The shards asked for, or None when neither option is given (one process, one
    connection: discord.py's plain Bot, as before). --shard-count alone means all its
    shards; --shards needs --shard-count, since every process must agree on it."""
    if spec is None and count is None:
        return None
    if count is None:
        raise ShardSpecError("--shards needs --shard-count (the total over all processes)")
    if count < 1:
        raise ShardSpecError(f"--shard-count must be at least 1, not {count}")
    ids = list(range(count)) if spec is None else _ids(spec)
    if not ids:
        raise ShardSpecError("--shards names no shard")
    outside = sorted({i for i in ids if not 0 <= i < count})
    if outside:
        raise ShardSpecError(f"--shards: {', '.join(map(str, outside))} not within "
                             f"0-{count - 1} (--shard-count {count})")
    if len(set(ids)) != len(ids):
        raise ShardSpecError("--shards names a shard twice")
    return Shards(tuple(sorted(ids)), count)
