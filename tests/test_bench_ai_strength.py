"""bench/ai_strength.py still runs and prints its figures (a game or two a cell: the win
rates are the bench's to record, not a test's)."""

from __future__ import annotations

import pytest

from bench import ai_strength


def test_it_plays_evil_below_tables_and_styles(capsys: pytest.CaptureFixture[str]) -> None:
    ai_strength.main(["evilbelow", "--players", "2", "--games", "2"])
    ai_strength.main(["styles", "--game", "evilbelow", "--players", "3", "--games", "2"])
    out = capsys.readouterr().out
    assert "2 players, ai table" in out and "2 players, random table" in out
    assert "careful" in out and "rushed" in out and "careful - rushed" in out


def test_it_plays_a_haunt_each_way(capsys: pytest.CaptureFixture[str]) -> None:
    ai_strength.main(["haunts", "--haunt", "pay_the_piper", "--players", "3", "--games", "1",
                      "--first", "1"])
    out = capsys.readouterr().out
    for match in ("ai-ai", "ai-random", "random-ai"):
        assert f"pay_the_piper                  3p {match}" in out
