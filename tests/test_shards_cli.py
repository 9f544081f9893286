"""`python -m bot --shards ... --shard-count ...`: what is accepted, what is refused in
one line before anything connects, and which bot class each choice builds."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.client import HauntBot, ShardedHauntBot, make_bot
from bot.shards import Shards, ShardSpecError, parse_shards


@pytest.mark.parametrize(("spec", "count", "ids"), [
    ("0-3", 8, (0, 1, 2, 3)),
    ("0,2,5", 8, (0, 2, 5)),
    ("5, 0-1", 8, (0, 1, 5)),
    ("1", 2, (1,)),
    (None, 3, (0, 1, 2)),
    ("0", 1, (0,)),
])
def test_shard_specs_name_those_shards(spec: str | None, count: int,
                                       ids: tuple[int, ...]) -> None:
    assert parse_shards(spec, count) == Shards(ids, count)


def test_no_shard_options_keep_the_single_connection() -> None:
    assert parse_shards(None, None) is None


@pytest.mark.parametrize(("spec", "count", "says"), [
    ("0-3", None, "needs --shard-count"),
    ("0", 0, "at least 1"),
    ("0-8", 8, "8 not within 0-7"),
    ("3-1", 8, "runs backwards"),
    ("a", 8, "'a' is not a shard id"),
    ("0,,1", 8, "'' is not a shard id"),
    ("0,0", 8, "twice"),
    ("-1", 8, "not a shard id"),
])
def test_bad_shard_specs_are_refused(spec: str, count: int | None, says: str) -> None:
    with pytest.raises(ShardSpecError, match=says):
        parse_shards(spec, count)


@pytest.mark.parametrize("argv", [
    ["--shards", "0-9", "--shard-count", "8"],
    ["run", "--shards", "0-9", "--shard-count", "8"],
    ["--shards", "0-9", "--shard-count", "8", "run"],
])
def test_the_cli_says_a_bad_spec_in_one_line(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err == "hauntkeeper: --shards: 8, 9 not within 0-7 (--shard-count 8)"


def test_shards_build_an_auto_sharded_bot_and_none_the_plain_one() -> None:
    sharded = make_bot(Shards((0, 2), 4), db_path=":memory:")
    assert isinstance(sharded, ShardedHauntBot)
    assert sharded.shard_ids == [0, 2] and sharded.shard_count == 4
    plain = make_bot(None, db_path=":memory:")
    assert type(plain) is HauntBot and plain.shard_count is None
