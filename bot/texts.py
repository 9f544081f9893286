"""Player-facing lines, read from YAML files in data/ by dotted key.

Every game keeps its own texts.yaml; the table's lines are in data/texts.yaml. One
TextBook per file, loaded once per language, so every module formats lines the same
way. A book answers in the language being spoken (bot/locales: `speaking`), from the
file's mirror where it has the line, in English where it does not yet.

A count and its noun agree: a template writes `{n:die|dice}` for "1 die" / "3 dice"
(the count, then the singular or the plural), since "1 dice" reads wrong and the
number is only known when the line is said. Code that builds such a line itself
calls `plural`. `fill` is `str.format` with that one addition, for every template.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Sequence
from importlib.resources.abc import Traversable
from typing import Any

from bot import locales, yaml_files
from bot.paths import DATA


def plural(count: object, one: str, many: str) -> str:
    """The count and its noun: plural(1, "die", "dice") is "1 die", 2 is "2 dice"."""
    return f"{count} {one if str(count) in ('1', '-1') else many}"


class _Counting(string.Formatter):
    """`str.format`, where a spec holding "|" (`{n:die|dice}`) names the noun the
    count goes with, singular then plural."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            return plural(value, one, many)
        return str(super().format_field(value, format_spec))


COUNTING = _Counting()

# A counted field: the plain template's name for it, the argument it counts, its nouns.
Counted = tuple[str, str, str, str]
# Each template with counts, compiled once (`compiled`): string.Formatter walks a
# template in Python on every call, several times the cost of str.format, and a board
# says a dozen such lines each render (issue 23). Templates come from data/, so few;
# bounded all the same.
_COMPILED: dict[str, tuple[str, tuple[Counted, ...]] | None] = {}
_COMPILED_MAX = 4096


def compiled(template: str) -> tuple[str, tuple[Counted, ...]] | None:
    """The template as a plain str.format one, each counted field (`{n:die|dice}`)
    renamed to an argument `fill` says beforehand with `plural`; None when a counted
    field is more than a name (an attribute, an index, a conversion, a nested field):
    COUNTING fills those."""
    plain: list[str] = []
    counted: list[Counted] = []
    for literal, field, spec, conversion in COUNTING.parse(template):
        plain.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if spec and "|" in spec:
            if conversion or not field.isidentifier() or "{" in spec:
                return None
            one, _, many = spec.partition("|")
            slot = f"_counted_{len(counted)}"
            counted.append((slot, field, one, many))
            plain.append("{" + slot + "}")
        else:
            plain.append("{" + field + (f"!{conversion}" if conversion else "")
                         + (f":{spec}" if spec else "") + "}")
    return "".join(plain), tuple(counted)


# A space between two characters of a language written with no spaces (CJK ideographs,
# their punctuation and full-width forms), either of them maybe in bold or italics
# ("**艾達** 遇到了").
_WIDE = "[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
_UNSPACED_GAP = re.compile(f"({_WIDE}[*_]*) (?=[*_]*{_WIDE})")


def fill(template: str, **kwargs: Any) -> str:
    """The template filled with `kwargs`, counts agreeing with their nouns. In a
    language written with no spaces (locales.UNSPACED) a template's space beside a name
    stays only where the name is in Latin letters: "ann 加入了牌桌。", "艾達加入了牌桌。"."""
    line = _filled(template, **kwargs)
    if " " in template and locales.current() in locales.UNSPACED:
        return _UNSPACED_GAP.sub(r"\1", line)
    return line


def _filled(template: str, **kwargs: Any) -> str:
    if "|" not in template:  # most lines: the plain (faster) str.format
        return template.format(**kwargs)
    try:
        found = _COMPILED[template]
    except KeyError:
        if len(_COMPILED) >= _COMPILED_MAX:
            _COMPILED.clear()
        found = _COMPILED[template] = compiled(template)
    if found is None:
        return COUNTING.format(template, **kwargs)
    plain, counted = found
    try:
        for slot, field, one, many in counted:
            kwargs[slot] = plural(kwargs[field], one, many)
        return plain.format(**kwargs)
    except (KeyError, IndexError, AttributeError, ValueError, TypeError):
        # A call that cannot be filled: refused as the counting formatter refuses it
        # (counted fields are worked out first here, so a template with two faults
        # would otherwise name the other one).
        return COUNTING.format(template, **kwargs)


class TextBook:
    def __init__(self, path: Traversable) -> None:
        self.path = path
        self._books: dict[str, dict[str, Any]] = {}  # language -> its data, read once
        # language -> dotted key -> its template: a board looks up a hundred or more
        # lines a render, and walking the nodes key part by key part cost more than
        # filling most of them (issue 23).
        self._lines: dict[str, dict[str, str]] = {}
        locales.keeps(self._books.clear)
        locales.keeps(self._lines.clear)

    @property
    def data(self) -> dict[str, Any]:
        """The file in the language spoken now (English where its mirror is silent)."""
        language = locales.current()
        book = self._books.get(language)
        if book is None:
            book = self._books[language] = yaml_files.read(self.path) or {}
        return book

    def node(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            node = node[part]
        return node

    def text(self, key: str) -> str:
        """One template by dotted key ("errors.game_over"); KeyError if it is not a line."""
        language = locales.current()
        lines = self._lines.get(language)
        if lines is None:
            lines = self._lines[language] = {}
        found = lines.get(key)
        if found is None:
            node = self.node(key)
            if not isinstance(node, str):
                raise KeyError(key)
            found = lines[key] = node
        return found

    def say(self, key: str, **kwargs: Any) -> str:
        """The template for `key` filled with `kwargs`."""
        return fill(self.text(key), **kwargs)

    def lines(self, key: str) -> dict[str, str]:
        """Every line under `key`, by its dotted key below it ("move", "traits.might"),
        in the language spoken: words a caller takes as a whole (a game's commands)."""
        return dict(_flat(self.node(key), ""))


def _flat(node: Any, prefix: str) -> Iterator[tuple[str, str]]:
    """A node's lines by dotted key below it."""
    if isinstance(node, dict):
        for part, below in node.items():
            yield from _flat(below, f"{prefix}{part}.")
    elif isinstance(node, str):
        yield prefix.removesuffix("."), node


TABLE = TextBook(DATA / "texts.yaml")


def say(key: str, **kwargs: Any) -> str:
    """A line of the table itself, e.g. say("errors.host_only", host="Ann")."""
    return TABLE.say(key, **kwargs)


def listed(parts: Sequence[str]) -> str:
    """Names one after another ("A, B, C"; in Chinese "A、B、C"): the separator is a
    word of each language (data/texts.yaml's `lists.sep`), not code's ", "."""
    return TABLE.text("lists.sep").join(parts)


def sentences(parts: Iterable[str]) -> str:
    """Sentences one after another, as the language writes them: a space between them
    in English, nothing in Chinese (its full stop closes them; `lists.between`)."""
    return TABLE.text("lists.between").join(p for p in parts if p)


def clip(text: str, limit: int) -> str:
    """`text` within `limit` characters, its end cut and marked "…" (a space before the
    cut dropped): Discord bounds a label, a placeholder and a message, and a line of
    the history or the summary is kept to one."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def grouped(parts: Sequence[str]) -> str:
    """Lists one after another ("A, B; C"; in Chinese "A、B；C"): the mark between two
    lists is each language's own too (`lists.groups`)."""
    return TABLE.text("lists.groups").join(parts)


def and_list(parts: Sequence[str]) -> str:
    """Names in a sentence, the last after "and" ("A, B and C"; "A、B和C"), each
    language's way (`lists`)."""
    if len(parts) <= 1:
        return "".join(parts)
    return say("lists.and", rest=listed(parts[:-1]), last=parts[-1])


def ai_names() -> list[str]:
    return [str(n) for n in TABLE.node("ai_names")]
