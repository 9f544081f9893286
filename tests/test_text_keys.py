"""Every template key the table and the cogs build from a value (an f-string or a sum
passed to `say`) exists in data/, for every value it can take (issue 19: a stored
`timer_end` outside its choices built a key no file had, and each /gm settings of that
server raised KeyError). The scan finds the built keys; each must have its domain here,
so a new one fails this test until someone says which values it takes. The engines'
own keys (bot/games) are built from their states and are checked by their tests."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from bot.core.story import SIDES
from bot.delivery import NOT_IN_THREAD, THREAD_LOCKED
from bot.games.betrayal import content as betrayal
from bot.games.cthulhu import content as cthulhu
from bot.games.evilbelow import content as evil_below
from bot.guild_settings import TIMER_ENDS
from bot.texts import TABLE, TextBook
from cogs.betrayal import DIRECTION_VALUES
from cogs.bot_permissions import CHANNEL, IN_THREAD, NAMED
from cogs.history import HERE, SERVER
from cogs.moderation_views import KEEP_CHOICES, LANGUAGE_CHOICES, SWITCH
from cogs.outlet_teams import NAMED_TEAMS

ROOT = Path(__file__).resolve().parent.parent
SCANNED = sorted([*(ROOT / "cogs").glob("*.py"), *(ROOT / "bot").glob("*.py")])
SAYING = {"say", "text", "betrayal_line", "haunt_line", "neibolt_line", "cthulhu_line",
          "evil_below_line"}


def _pattern(node: ast.expr) -> str | None:
    """The key a call builds, its values as {} ("settings.end_{}"); None if literal."""
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "{}"
                       for part in node.values)  # type: ignore[misc]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = node.left.value if isinstance(node.left, ast.Constant) else "{}"
        right = node.right.value if isinstance(node.right, ast.Constant) else "{}"
        return f"{left}{right}"
    return None


def _calls(tree: ast.AST) -> Iterable[ast.Call]:
    return (n for n in ast.walk(tree) if isinstance(n, ast.Call))


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def built_keys() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in SCANNED:
        for call in _calls(ast.parse(path.read_text(encoding="utf-8"))):
            if _name(call) in SAYING and call.args:
                pattern = _pattern(call.args[0])
                if pattern is not None:
                    found.add((path.relative_to(ROOT).as_posix(), pattern))
    return found


def literal_args(path: str, function: str, position: int) -> set[str]:
    """The string literals a module passes to `function` at `position`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {str(call.args[position].value) for call in _calls(tree)
            if _name(call) == function and len(call.args) > position
            and isinstance(call.args[position], ast.Constant)}


def literal_kwargs(path: str, function: str, name: str) -> set[str]:
    """The string literals a module passes to `function` as keyword `name`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return {str(k.value.value) for call in _calls(tree) if _name(call) == function
            for k in call.keywords if k.arg == name and isinstance(k.value, ast.Constant)}


def _faces() -> set[str]:
    return {face for die in evil_below.dice_faces() for face in die}


# (module, built key) -> the text book it is read from, and every value it can take.
DOMAINS: dict[tuple[str, str], tuple[TextBook, set[str]]] = {
    ("cogs/moderation.py", "settings.end_{}"): (TABLE, set(TIMER_ENDS)),
    ("cogs/moderation_views.py", "settings.end_{}"): (TABLE, set(TIMER_ENDS)),
    ("cogs/moderation.py", "settings.switch_{}"): (TABLE, set(SWITCH)),
    ("cogs/betrayal.py", "dirs.{}"): (betrayal._TEXTS, set(DIRECTION_VALUES)),
    ("cogs/betrayal.py", "cog.none_open.{}"): (
        betrayal._TEXTS, literal_args("cogs/betrayal.py", "_play", 1)),
    ("cogs/betrayal.py", "cog.no_way.{}"): (
        betrayal._TEXTS, literal_args("cogs/betrayal.py", "_by_direction", 1)),
    ("cogs/cthulhu.py", "cog.what_{}"): (
        cthulhu._TEXTS, literal_args("cogs/cthulhu.py", "_lookup", 2)  # and `after`:
        | literal_kwargs("cogs/cthulhu.py", "_complete", "after")),
    ("cogs/evilbelow.py", "faces.{}"): (evil_below._TEXTS, _faces()),
    ("cogs/bot_permissions.py", "permissions.names.{}"): (TABLE, set(NAMED)),
    # what cannot_play explains: a lobby's permissions (a running game's are among them)
    ("cogs/bot_permissions.py", "permissions.why.{}"): (TABLE, set(CHANNEL + IN_THREAD)),
    ("cogs/moderation.py", "settings.keep_choice_{}"): (TABLE, set(KEEP_CHOICES)),
    ("cogs/moderation.py", "settings.language_choice_{}"): (TABLE, set(LANGUAGE_CHOICES)),
    ("cogs/moderation_views.py", "settings.language_choice_{}"): (TABLE, set(LANGUAGE_CHOICES)),
    ("cogs/history.py", "history.heading_{}"): (TABLE, {HERE, SERVER}),
    ("cogs/history.py", "history.none_{}"): (TABLE, {HERE, SERVER}),
    ("cogs/lobby.py", "history.where_{}"): (TABLE, {HERE, SERVER}),
    ("cogs/stats.py", "stats.side_{}"): (TABLE, set(SIDES)),
    ("bot/summary.py", "summary.side_{}"): (TABLE, set(SIDES)),
    ("cogs/outlet_teams.py", "dm.team_{}"): (TABLE, set(NAMED_TEAMS)),
    ("cogs/common.py", "permissions.refused_{}"): (TABLE, {NOT_IN_THREAD, THREAD_LOCKED}),
    ("cogs/common.py", "permissions.behind_{}"): (TABLE, {NOT_IN_THREAD, THREAD_LOCKED}),
}


def test_every_built_key_has_its_values_named_here() -> None:
    assert built_keys() == set(DOMAINS)


def test_every_value_builds_a_key_that_exists() -> None:
    missing = []
    for (module, pattern), (book, values) in DOMAINS.items():
        assert values, (module, pattern)
        for value in values:
            key = pattern.replace("{}", value)
            try:
                book.text(key)
            except KeyError:
                missing.append(f"{module}: {key}")
    assert missing == []


def test_the_scan_sees_a_built_key(tmp_path: Path) -> None:
    """The scan itself: an f-string and a sum are found, a literal is not."""
    tree = ast.parse('say(f"a.{x}_b")\nsay("c." + y)\nsay("plain")\n')
    assert {_pattern(c.args[0]) for c in _calls(tree)} == {"a.{}_b", "c.{}", None}
