"""The offline demo (bot/demo.py) and the command line (python -m bot).

The demo plays a whole game through the real sessions layer and a real SQLite file; the
CLI tests run a real subprocess in an empty folder, the way a new user first meets it.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import demo, games
from bot.games.cthulhu import content
from bot.store import OVER
from bot.summary import SUMMARY_KIND
from tests.helpers.demo_run import PNG_MAGIC, DemoRun, assert_same_game, run_demo

ROOT = Path(__file__).resolve().parent.parent
KIND = "cthulhu"
GAME = games.get(KIND)
PLAYERS = 3
SEED = 11
BOARD = re.compile(r"\[board: (turn_\d{4}\.png)\]")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[DemoRun, DemoRun]:
    """The same demo twice, in two folders (one whole game each)."""
    return (run_demo(KIND, PLAYERS, SEED, tmp_path_factory.mktemp("demo_a")),
            run_demo(KIND, PLAYERS, SEED, tmp_path_factory.mktemp("demo_b")))


def _winner_line(state: Any) -> str:
    """The game-over line, built from the final state and the game's own texts."""
    top = state.scores[state.winners[0]]
    if len(state.winners) == 1:
        return content.cthulhu_line("events.game_over_win", player=state.players[state.winners[0]],
                                    points=top)
    names = [state.players[s] for s in state.winners]
    joined = ", ".join(names[:-1]) + " and " + names[-1]
    return content.cthulhu_line("events.game_over_shared", points=top, players=joined)


# ---------------------------------------------------------------- the demo, in process

def test_the_demo_plays_a_whole_game(runs: tuple[DemoRun, DemoRun]) -> None:
    run = runs[0]
    assert run.final.status == OVER
    assert run.final.state is not None
    state = GAME.load(run.final.state)
    assert GAME.is_over(state) and state.winners
    assert len(run.final.seats) == PLAYERS
    assert run.posts, "nothing was published"
    assert run.posts[-1].prompt is None  # the game waits for no one
    assert all(p.prompt is not None for p in run.posts[:-1])


def test_the_transcript_ends_with_the_winner(runs: tuple[DemoRun, DemoRun]) -> None:
    run = runs[0]
    assert run.final.state is not None
    winner = _winner_line(GAME.load(run.final.state))
    # the demo indents its own notes (board files, private lines); the rest is the table's
    text_lines = [line for line in run.transcript if not line.startswith("    ")]
    # the last post: the winner, then the game's story (bot/summary.py), its last line
    with sqlite3.connect(run.out / "demo.sqlite3") as conn:
        (story,) = conn.execute("SELECT text FROM events WHERE kind = ?",
                                (SUMMARY_KIND,)).fetchone()
    assert run.posts[-1].lines[-2:] == [winner, story]
    told = story.split("\n")
    assert text_lines[-len(told) - 1:] == [winner, *told]
    # after it comes only the reference to the final board
    assert run.transcript.index(winner) == len(run.transcript) - len(told) - 2
    last_board = BOARD.search(run.transcript[-1])
    assert last_board and last_board.group(1) == f"turn_{len(run.posts):04d}.png"
    # the table's text is exactly every public line of every post, in order
    published = [line for post in run.posts for line in post.lines]
    assert "\n".join(text_lines) == "\n".join(published)
    # private lines (from the game's log) show only as marked notes, never as table text
    with sqlite3.connect(run.out / "demo.sqlite3") as conn:
        private = [t for (t,) in conn.execute("SELECT text FROM events WHERE audience != 'public'")]
    assert private
    notes = [line for line in run.transcript if line.startswith("    (")]
    for text in private:
        assert text not in text_lines
        assert any(note.endswith(text) for note in notes), text


def test_one_valid_png_per_published_post(runs: tuple[DemoRun, DemoRun]) -> None:
    run = runs[0]
    files = sorted(p.name for p in run.out.glob("turn_*.png"))
    assert files == [f"turn_{i:04d}.png" for i in range(1, len(run.posts) + 1)]
    assert [m.group(1) for line in run.transcript if (m := BOARD.search(line))] == files
    for name, post in zip(files, run.posts, strict=True):
        data = (run.out / name).read_bytes()
        assert post.image is not None and data == post.image
        assert data.startswith(PNG_MAGIC)
        with Image.open(io.BytesIO(data)) as image:
            image.verify()


def test_the_sqlite_file_holds_the_finished_game(runs: tuple[DemoRun, DemoRun]) -> None:
    run = runs[0]
    db = run.out / "demo.sqlite3"
    assert db.is_file()
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, kind, status, version, state_json FROM games").fetchall()
        assert len(rows) == 1
        game_id, kind, status, version, state_json = rows[0]
        assert (kind, status) == (KIND, OVER)
        assert version == run.final.version
        envelope = json.loads(state_json)
        assert envelope["state"] == run.final.state and envelope["state"]["over"] is True
        logged = [t for (t,) in conn.execute(
            "SELECT text FROM events WHERE game_id = ? AND audience = 'public' ORDER BY seq",
            (game_id,))]
    published = [line for post in run.posts for line in post.lines]
    assert logged[-len(published):] == published


def test_the_same_seed_plays_the_same_game(runs: tuple[DemoRun, DemoRun]) -> None:
    assert_same_game(*runs)


async def test_the_demo_refuses_a_player_count_the_game_does_not_take(tmp_path: Path) -> None:
    for players in (GAME.min_players - 1, GAME.max_players + 1):
        with pytest.raises(ValueError):
            await demo.run_demo(KIND, players, SEED, tmp_path / "out")
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- the command line

def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "HAUNTKEEPER_", "PYTHON"))}
    env.update(HOME=str(cwd), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("args", [(), ("run",)])
def test_no_token_is_one_friendly_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert not (tmp_path / ".env").exists()
    line = _one_line_error(_cli(*args, cwd=tmp_path))
    assert "DISCORD_TOKEN" in line and "demo" in line
    assert not list(tmp_path.glob("*.sqlite3*"))  # nothing was created


def test_help_works(tmp_path: Path) -> None:
    result = _cli("--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "demo" in result.stdout and "run" in result.stdout
    assert result.stderr == ""
    result = _cli("demo", "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    for flag in ("--game", "--players", "--seed", "--out"):
        assert flag in result.stdout


def test_demo_with_too_many_players_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    line = _one_line_error(_cli("demo", "--players", "9", "--out", str(out), cwd=tmp_path))
    assert str(GAME.max_players) in line and "players" in line
    assert not out.exists()


def test_demo_from_the_command_line_writes_the_files(tmp_path: Path) -> None:
    out = tmp_path / "demo-out"
    out.mkdir()
    (out / "turn_9999.png").write_bytes(b"left from an older run")
    (out / "demo.sqlite3").write_bytes(b"not a database")  # an older run's, replaced
    result = _cli("demo", "--game", KIND, "--players", "2", "--seed", "3", "--out", str(out),
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    transcript = (out / "transcript.txt").read_text(encoding="utf-8").splitlines()
    boards = [m.group(1) for line in transcript if (m := BOARD.search(line))]
    assert boards and sorted(p.name for p in out.glob("turn_*.png")) == boards
    for name in (boards[0], boards[-1]):
        assert (out / name).read_bytes().startswith(PNG_MAGIC)
    with sqlite3.connect(out / "demo.sqlite3") as conn:
        assert conn.execute("SELECT status FROM games").fetchall() == [(OVER,)]
    assert str(out) in result.stdout


def test_the_betrayal_demo_plays_the_haunt_to_a_winner(tmp_path: Path) -> None:
    """Issue 4: the demo plays a whole Betrayal game with AI seats, haunt included; the
    transcript ends with the winner and both books, and the traitor's book was marked
    private until then."""
    from bot.games.betrayal.haunting import flow

    final, _ = asyncio.run(demo.run_demo("betrayal", 4, 2, tmp_path))
    assert final.status == OVER and final.state is not None
    game = games.get("betrayal")
    state = game.load(final.state)
    assert state.haunt is not None and state.haunt.winner in ("heroes", "traitor")
    text = (tmp_path / "transcript.txt").read_text(encoding="utf-8")
    won = text.index("🏆")
    tome = flow.book_text(state, "traitor")
    assert text.rindex(tome) > won  # read out at the end
    first = text.index(tome.splitlines()[0])
    line_start = text.rfind("\n", 0, first) + 1
    marker = text[line_start:first]
    assert "(DM to" in marker or "private" in marker  # before: only to the traitor
