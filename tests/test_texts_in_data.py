"""The words players read live in data/, not in the cogs or the shared layers.

House rule: player-facing lines are ours, kept short and clear in data/texts.yaml (or a
game's own data/<game>/texts.yaml) and read with `say`. So a sentence written into the
Python of cogs/*.py or the shared layers is a line that escaped: these tests parse them
with `ast` and name every string constant that reads like a sentence (a capital letter
or a placeholder first, at least three words, ending in . ! ? or :), and every literal
given as a button or select label, a placeholder or an embed field's name.

Not player lines in this sense, so not looked at: docstrings, log calls, exceptions meant
for developers (anything raised but IllegalAction), asserts, and decorators and class
keywords (discord.py reads slash-command and option descriptions at import time).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ["sessions.py", "table.py", "delivery.py", "live_message.py", "timers.py", "client.py"]
FILES = sorted([*(ROOT / "cogs").glob("*.py"), *(ROOT / "bot" / n for n in SHARED)])

LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
LABEL_KEYWORDS = {"label", "placeholder"}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
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
    skipped = _skipped(tree)
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
