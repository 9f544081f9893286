"""`pip install .` works without a checkout: a wheel built from the project's own files
(only what the repository ships, no tests/ and nothing from beside the checkout) is
installed into a bare folder, and the demos run from a working folder that is not the
checkout, importing `bot` from that folder only.

The wheel is built offline with the venv's setuptools (--no-build-isolation) and
installed with --target, so the test needs no network; its dependencies come from the
venv's site-packages, put on the path by hand under `python -S`, so that the editable
install's finder (a .pth file there) cannot send `bot` back to the checkout. .ci/run
does the same with a real `pip install .` into a fresh venv.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from bot import games

ROOT = Path(__file__).resolve().parent.parent
BUILD_INPUTS = ("pyproject.toml", "setup.py", "README.md", "bot", "cogs", "renderers", "data")
DEMOS = (("cthulhu",), ("betrayal", "--expansion", "neibolt"))  # the latter reads
# two content folders and a haunt's file; every game's rules are read in the probe


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the project's files, installed into a folder."""
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in BUILD_INPUTS:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(origin, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-cache-dir"]
    _run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w",
          str(base / "wheels"), str(src)], cwd=base)
    [wheel] = (base / "wheels").glob("hauntkeeper-*.whl")
    target = base / "target"
    _run([*pip, "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
         cwd=base)
    return target


def _env(target: Path, home: Path) -> dict[str, str]:
    """The venv's dependencies, but `bot` from `target` and nothing from the checkout."""
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith("HAUNTKEEPER_")}
    deps = dict.fromkeys([sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    env.update(PYTHONPATH=os.pathsep.join([str(target), *deps]), HOME=str(home),
               PYTHONDONTWRITEBYTECODE="1")
    return env


def test_the_wheel_holds_the_code_and_data_and_no_other_top_level_name(
        installed: Path) -> None:
    tops = {p.name for p in installed.iterdir() if not p.name.endswith(".dist-info")}
    assert tops == {"bot", "cogs", "renderers", "bin"}
    assert (installed / "bin" / "hauntkeeper").is_file()  # the console script
    shipped = sorted(p.relative_to(installed / "bot" / "data")
                     for p in (installed / "bot" / "data").rglob("*") if p.is_file())
    expected = sorted(p.relative_to(ROOT / "data") for p in (ROOT / "data").rglob("*")
                      if p.is_file())  # a new kind of file needs pyproject's package-data
    assert shipped == expected and len(shipped) > 20
    fonts = {p.name for p in (installed / "renderers" / "fonts").iterdir()}
    assert fonts == {p.name for p in (ROOT / "renderers" / "fonts").iterdir()}  # the
    # Chinese face and its licence (pyproject's package-data for renderers)


def test_the_installed_bot_reads_its_packaged_data(installed: Path, tmp_path: Path) -> None:
    probe = ("import bot, bot.paths, bot.texts, bot.games as g; print(bot.__file__); "
             "print(bot.paths.DATA); print(bot.paths.checkout()); "
             "print(bot.texts.TABLE.path.is_file()); "
             "print(sorted(k for k, v in g.all_games().items() if v.rules_topics()))")
    out = _run([sys.executable, "-S", "-c", probe], cwd=tmp_path,
               env=_env(installed, tmp_path)).splitlines()
    assert Path(out[0]).is_relative_to(installed), out
    assert Path(out[1]) == installed / "bot" / "data", out
    # Every game of the checkout, found in the wheel (no list here: a new game is found)
    games_here = sorted(k for k, v in games.all_games().items() if v.rules_topics())
    assert out[2:] == ["None", "True", str(games_here)], out


@pytest.mark.parametrize("game", DEMOS, ids=lambda g: "-".join(g))
def test_the_demo_runs_from_the_installed_wheel(installed: Path, tmp_path: Path,
                                                game: tuple[str, ...]) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    out = work / "demo"
    said = _run([sys.executable, "-S", "-m", "bot", "demo", "--game", *game, "--players", "4",
                 "--seed", "1", "--out", str(out)], cwd=work, env=_env(installed, work))
    transcript = (out / "transcript.txt").read_text(encoding="utf-8")
    boards = sorted(out.glob("turn_*.png"))
    assert "Something went wrong" not in transcript + said
    assert len(transcript.splitlines()) > 10 and boards
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in boards)
    referenced = set(re.findall(r"\[board: (turn_\d+\.png)\]", transcript))
    assert referenced and referenced <= {p.name for p in boards}


DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continued lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE)
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in (raw.strip() for raw in joined.splitlines())
            if line and not line.startswith("#")]


def test_the_dockerfile_installs_fonts_and_the_project_not_editable() -> None:
    runs = [args for op, args in _instructions() if op == "RUN"]
    fonts = next(r for r in runs if "fonts-dejavu-core" in r)
    assert "apt-get install" in fonts and "rm -rf /var/lib/apt/lists" in fonts
    [install] = [r for r in runs if "pip install" in r]
    assert re.search(r"pip install\b.*\s\.(\s|$)", install) and " -e" not in install
    copied = " ".join(args for op, args in _instructions() if op == "COPY")
    assert all(re.search(rf"\b{re.escape(name)}\b", copied) for name in BUILD_INPUTS)


def test_the_dockerfile_stops_on_a_handled_signal_and_checks_health() -> None:
    ops = dict(_instructions())
    assert ops["STOPSIGNAL"] in {"SIGTERM", "SIGINT"}
    assert re.search(r"CMD \[\"python\", \"-m\", \"bot\", \"health\"\]", ops["HEALTHCHECK"])
    assert ops["CMD"] == '["python", "-m", "bot"]' and ops["USER"] != "root"
