"""The offline demo (bot/demo.py) for IT: Evil Below: a cooperative game has no winner
seat, so the Cthulhu demo tests (test_demo_cli.py) cannot say whether it finished; this
checks it ends in the win or one of the four losses, with one board per post, and that
a seed replays the same game (the demo is what a new user runs to try the bot)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import games
from bot.games.evilbelow.state import LOSSES, WIN
from bot.store import OVER
from tests.helpers.demo_run import PNG_MAGIC, DemoRun, assert_same_game, run_demo

KIND = "evilbelow"
GAME = games.get(KIND)
PLAYERS = 4
SEED = 7


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoRun, DemoRun]:
    """One seed, played twice in two folders (about two seconds a game)."""
    return (run_demo(KIND, PLAYERS, SEED, tmp_path_factory.mktemp("eb_demo_a")),
            run_demo(KIND, PLAYERS, SEED, tmp_path_factory.mktemp("eb_demo_b")))


def test_the_demo_ends_in_the_win_or_one_of_the_four_losses(
        runs: tuple[DemoRun, DemoRun]) -> None:
    run = runs[0]
    assert run.final.status == OVER and run.final.state is not None
    state = GAME.load(run.final.state)
    assert GAME.is_over(state)
    assert state.result in (WIN, *LOSSES)
    assert len(run.final.seats) == PLAYERS == len(state.heroes)
    assert run.posts and run.posts[-1].prompt is None


def test_one_valid_png_per_published_post(runs: tuple[DemoRun, DemoRun]) -> None:
    """Each post's board is written as turn_NNNN.png, the dice drawn on it: no second
    picture beside it."""
    run = runs[0]
    boards = sorted(p.name for p in run.out.glob("turn_????.png"))
    assert boards == [f"turn_{i:04d}.png" for i in range(1, len(run.posts) + 1)]
    for n, post in enumerate(run.posts, start=1):
        written = [(f"turn_{n:04d}.png", post.image)]
        for name, expected in written:
            data = (run.out / name).read_bytes()
            assert expected is not None and data == expected
            assert data.startswith(PNG_MAGIC)
            with Image.open(io.BytesIO(data)) as image:
                image.verify()
    assert not list(run.out.glob("turn_*_dice.png"))


def test_the_same_seed_plays_the_same_game(runs: tuple[DemoRun, DemoRun]) -> None:
    assert_same_game(*runs)
