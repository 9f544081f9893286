"""The words players read live in data/, not in the cogs, the shared layers or the
renderers.

House rule: player-facing lines are ours, kept short and clear in data/texts.yaml (or a
game's own data/<game>/texts.yaml) and read with `say`. So a sentence written into the
Python of cogs/*.py or the shared layers is a line that escaped: these tests parse them
with `ast` and name every string constant that reads like a sentence (a capital letter
or a placeholder first, at least three words, ending in . ! ? or :), and every literal
given as a button or select label, a placeholder or an embed field's name.

Not player lines in this sense, so not looked at: docstrings, log calls, exceptions meant
for developers (anything raised but IllegalAction), asserts, and decorators and class
keywords (discord.py reads slash-command and option descriptions at import time).

The renderers draw words rather than send them, often a word or two ("survivor", "Left
the house", a legend's "items here"), so in renderers/ the scan also names every literal
handed to a call that draws or fits text (a word of two letters or more: a mark such as
"S" or "+2" is not a word), and every literal of words: two words or more, or one
capitalised word of three letters or more. Not words in this sense: the made-up states
that fit a palette (`_sample...` functions, `_SAMPLE...` tables: never shown), `__all__`,
paths and file names, and CamelCase names.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ["sessions.py", "sessions_channel.py", "sessions_ai.py", "sessions_timers.py",
          "sessions_reading.py", "sessions_start.py", "courier.py", "worker.py",
          "channel_locks.py", "table.py", "table_core.py", "table_seats.py", "table_play.py",
          "table_lobby.py", "table_moderation.py", "table_record.py", "delivery.py",
          "live_message.py", "timers.py", "client.py"]
RENDERERS = sorted((ROOT / "renderers").rglob("*.py"))
FILES = sorted([*(ROOT / "cogs").glob("*.py"), *(ROOT / "bot" / n for n in SHARED),
                *RENDERERS])

LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
LABEL_KEYWORDS = {"label", "placeholder"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
# Calls that draw, fit or measure text, and where their text goes (0: the first).
TEXT_CALLS = {"text": 1, "draw_text": 2, "centered_text": 2, "fit_text": 0, "fit_wrapped": 0,
              "wrap_text": 0, "text_width": 1, "_text": 2, "_fitted": 0}
WORDS = re.compile(r"[A-Za-z]{2,}[.,:;!?]?\s+[A-Za-z(]{2,}|^[A-Z][a-z]{2,}\b")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Words that are ours to keep in code: none yet. An entry is (file name, the text).
ALLOWED: set[tuple[str, str]] = set()


def text_of(node: ast.expr) -> str | None:
    """A string constant's text; an f-string's with each placeholder as "{}"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def reads_like_a_sentence(text: str) -> bool:
    """A capital letter (or a placeholder, or markup) first, three words or more, and
    . ! ? or : last (placeholders and closing markup after it aside)."""
    if len(WORD.findall(text)) < 3:
        return False
    body = text.strip()
    while True:
        trimmed = body.removesuffix("{}").rstrip().rstrip("*_`)>\"'")
        if trimmed == body:
            break
        body = trimmed
    first = re.search(r"[A-Za-z{]", text)
    return body[-1:] in (".", "!", "?", ":", "…") and first is not None \
        and not first.group().islower()


def _docstrings(tree: ast.Module) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and text_of(body[0].value) is not None:
                found.add(id(body[0].value))
    return found


def _is_log_call(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr in LOG_METHODS and \
        isinstance(func.value, ast.Name) and func.value.id in {"log", "logger", "logging"}


def _skipped(tree: ast.Module) -> set[int]:
    """Nodes whose strings are not players' lines: the roots of skipped subtrees."""
    skipped = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_log_call(node):
            skipped.add(id(node))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            skipped.update(id(d) for d in node.decorator_list)
            if isinstance(node, ast.ClassDef):
                skipped.update(id(k) for k in node.keywords)
        elif isinstance(node, ast.Raise) and node.exc is not None:
            call = node.exc
            name = call.func if isinstance(call, ast.Call) else call
            if not (isinstance(name, ast.Name) and name.id == "IllegalAction"):
                skipped.add(id(node))
        elif isinstance(node, ast.Assert):
            skipped.add(id(node))
    return skipped


def _literals(node: ast.AST) -> Iterator[int]:
    """The nodes that make up a value as written (either side of an if), not the keys
    handed to `say`."""
    if isinstance(node, ast.Call):
        return
    yield id(node)
    for child in ast.iter_child_nodes(node):
        yield from _literals(child)


def player_lines(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every literal in `source` that players would read."""
    tree = ast.parse(source)
    skipped = _skipped(tree) | _not_drawn(tree)
    labels: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fields = isinstance(node.func, ast.Attribute) and node.func.attr == "add_field"
            for keyword in node.keywords:
                if keyword.arg in LABEL_KEYWORDS or (fields and keyword.arg == "name"):
                    labels.update(_literals(keyword.value))

    def visit(node: ast.AST) -> Iterator[tuple[int, str]]:
        if id(node) in skipped:
            return
        text = text_of(node) if isinstance(node, ast.expr) else None
        if text is not None:
            if reads_like_a_sentence(text) or (id(node) in labels and WORD.search(text)):
                yield node.lineno, text
            return  # an f-string's pieces are part of it
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(tree)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_player_line_is_written_in_code(path: Path) -> None:
    found = [f"{path.parent.name}/{path.name}:{line}: {text!r}"
             for line, text in player_lines(path.read_text(encoding="utf-8"))
             if (path.name, text) not in ALLOWED]
    assert not found, "player-facing words belong in data/*.yaml (read with say):\n" + \
        "\n".join(found)


def _is_sample(name: str) -> bool:
    return name.lstrip("_").lower().startswith("sample")


def _not_drawn(tree: ast.Module) -> set[int]:
    """The roots of what a renderer never shows: made-up sample states and `__all__`."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _is_sample(node.name):
            found.add(id(node))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if any(_is_sample(n) or n == "__all__" for n in names):
                found.add(id(node))
    return found


def reads_like_words(text: str) -> bool:
    """Two words or more, or one capitalised word of three letters or more; not a path,
    file name or CamelCase name."""
    body = text.strip()
    if not WORDS.search(body):
        return False
    if " " not in body and ("/" in body or "." in body):
        return False  # a path or a file name
    return not (NAME.match(body) and any(c.isupper() for c in body[1:]))  # CamelCase


def drawn_words(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every literal in a renderer's `source` that draws words: handed
    to a call that draws or fits text, or reading like words anywhere."""
    tree = ast.parse(source)
    skipped = _skipped(tree) | _not_drawn(tree)
    drawn: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else None
            at = TEXT_CALLS.get(name or "")
            if at is not None and len(node.args) > at:
                drawn.update(_literals(node.args[at]))

    def visit(node: ast.AST) -> Iterator[tuple[int, str]]:
        if id(node) in skipped:
            return
        text = text_of(node) if isinstance(node, ast.expr) else None
        if text is not None:
            if reads_like_words(text) or (id(node) in drawn and re.search(r"[A-Za-z]{2}", text)):
                yield node.lineno, text
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    yield from visit(tree)


@pytest.mark.parametrize("path", RENDERERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_word_is_drawn_from_code(path: Path) -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
             for line, text in drawn_words(path.read_text(encoding="utf-8"))]
    assert not found, "words drawn on a board belong in data/*.yaml (the game's texts):\n" \
        + "\n".join(found)


def test_the_scan_sees_what_the_renderers_drew() -> None:
    """Words as the renderers wrote them before they moved to data/ are found; marks,
    anchors, keys, paths, names and sample states are not."""
    old = '''
__all__ = ["BoardGeometry", "render"]
FONT = "/usr/share/fonts/DejaVuSans-Bold.ttf"
LEGEND_WORDS = {"omen": "omen", "pile": "items here", "link": "linked rooms"}
BADGES = {"traitor": ("Traitor", RED, WHITE)}
_SAMPLE_ROOMS = ("Upper Landing", "Tower")

def _sample_view():
    return View(header="Turn 12 · Sample", names=("Explorer 1",))

def draw(canvas, draw, state, n):
    canvas.text((0, 0), "Left the house", f, MUTED, on=BG, anchor="lm")
    f, text = fit_text("survivor", 80, 18)
    label = ("Winners: " if n > 1 else "Winner: ") + names
    draw_text(draw, (0, 0), f"{n} held" if n else "none held", f, MUTED, anchor="lm")
    centered_text(draw, (0, 0), "S", f, BG, bold=True)
    draw_text(draw, (0, 0), "+2", f, TEXT, anchor="lm")
    return f"Rumble {n} of 3", "upper+ground / basement", "lm", "Bi"
'''
    assert [text for _, text in drawn_words(old)] == [
        "items here", "linked rooms", "Traitor", "Left the house", "survivor", "Winners: ",
        "Winner: ", "{} held", "none held", "Rumble {} of 3"]


def test_every_allowed_line_is_still_written() -> None:
    """An allowlist entry whose line left the code is removed, so the list stays small."""
    written = {(p.name, text) for p in FILES
               for _, text in player_lines(p.read_text(encoding="utf-8"))}
    assert not ALLOWED - written, sorted(ALLOWED - written)


def test_the_scan_sees_what_the_old_code_wrote() -> None:
    """Lines as they were written before they moved to data/ are found; what is not a
    player's line is not."""
    old = '''
"""A docstring That Reads Like a sentence."""
import logging
log = logging.getLogger(__name__)

async def send(channel, who, kind):
    """Another docstring, quite like a sentence."""
    log.info("Delivered the post to everyone.")
    await channel.send("Done — the game's message shows it.")
    await channel.send(f"**{who}**, it's your move.")
    raise IllegalAction(f"You can't {kind} right now.")

def view(channel):
    button(label="Join", style=1)
    embed.add_field(name="Now", value="x")
    raise ValueError("A developer's message, not a player's.")

@app_commands.command(name="end", description="End the game here (host or moderator).")
async def end():
    assert True, "Never shown to anyone at all."
    return say("errors.game_over")
'''
    assert [text for _, text in player_lines(old)] == [
        "Done — the game's message shows it.", "**{}**, it's your move.",
        "You can't {} right now.", "Join", "Now"]


@pytest.mark.parametrize("text", [
    "There's no game here.", "Say which one: {}", "*For the {} only:*\n{}",
    "\nThe game is over. `/game new` starts another.", "{} may act now too, with a button.",
])
def test_sentences_are_recognised(text: str) -> None:
    assert reads_like_a_sentence(text)


@pytest.mark.parametrize("text", [
    "Done.", "hk-work", "a game's setup option clashes: {}", "game {}", "{}: {}",
    "interaction failed: %s", " from afar", "Ox Bellows (ann)",
])
def test_other_strings_are_not_sentences(text: str) -> None:
    assert not reads_like_a_sentence(text)
