"""The offline demo (bot/demo.py) run in process, its posts spied on, for the tests of
each game's demo: what it published, the files it wrote and the game it left."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import demo
from bot.sessions import Post
from bot.store import Table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class DemoRun:
    out: Path
    final: Table
    posts: list[Post]  # every post the demo published, in order
    transcript: list[str]


def run_demo(kind: str, players: int, seed: int, out: Path) -> DemoRun:
    """run_demo, with the FileOutlet's publish spied on (not replaced)."""
    posts: list[Post] = []
    original = demo.FileOutlet.publish

    async def spy(self: demo.FileOutlet, table: Table, post: Post) -> None:
        posts.append(post)
        await original(self, table, post)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(demo.FileOutlet, "publish", spy)
        final, _ = asyncio.run(demo.run_demo(kind, players, seed, out))
    lines = (out / "transcript.txt").read_text(encoding="utf-8").splitlines()
    return DemoRun(out, final, posts, lines)


def assert_same_game(a: DemoRun, b: DemoRun) -> None:
    """Two runs of one seed in two folders played the same game: the same transcript,
    final state, version and boards."""
    assert a.out != b.out
    assert a.transcript == b.transcript
    assert a.final.state == b.final.state and a.final.version == b.final.version
    assert [p.image for p in a.posts] == [p.image for p in b.posts]
