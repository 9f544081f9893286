"""The bot in two languages (issue 25): the mirror files' rules, the language spoken
where words are made, each step said in every language its table needs, each line
delivered in its reader's language, and the slash commands' localizations within
Discord's limits."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yaml

from bot import languages, locales, yaml_files
from bot import table as T
from bot.client import HauntBot
from bot.command_translator import CommandWords, tree_strings, words, words_missing
from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event, to_player
from bot.core.seats import Seat
from bot.delivery import plan
from bot.games.cthulhu import content as cthulhu
from bot.locales import CHINESE, ENGLISH, overlay, speaking
from bot.locales import __main__ as locales_cli
from bot.locales.missing import english_files, missing
from bot.metrics import NO_METRICS
from bot.paths import DATA
from bot.sessions import Sessions
from bot.store import SqliteStore, Table
from bot.texts import TABLE, TextBook, say
from bot.worker import Worker
from tests.helpers.pseudo_mirror import MARK, marked
from tests.test_sessions import RecordingOutlet

# Files whose zh-TW words may be missing yet. It was every file with no mirror while the
# translators wrote them (frozenset(str(p) for p in english_files() if not
# has_mirror(p, CHINESE))); with their work merged, none: every English word of data/
# has its zh-TW version.
UNTRANSLATED_YET: frozenset[str] = frozenset()
FIELD = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)")
CHANNEL, GUILD = 700, 70
ANN = T.Actor(1, "Ann", language=ENGLISH, guild_language=CHINESE)
BO = T.Actor(2, "Bo", language=CHINESE, guild_language=CHINESE)


@pytest.fixture
def table_marked(tmp_path: Path) -> Iterator[None]:
    """The table's words and Cthulhu's, in a marked stand-in for zh-TW."""
    with marked(tmp_path, DATA / "texts.yaml", DATA / "cthulhu" / "texts.yaml",
                DATA / "cthulhu" / "characters.yaml"):
        yield


# -- the mirror rules ------------------------------------------------------------------------

def test_a_mirror_overlays_words_by_key_by_item_and_by_place() -> None:
    english = {
        "title": "Hall", "floors": ["ground"], "size": 3,
        "events": [{"key": "hope", "name": "Hope", "text": "A moment."},
                   {"key": "dread", "name": "Dread", "text": "Cold."}],
        "omens": [{"name": "Ring", "text": "Gold."}],
        "lines": ["one", "two"],
    }
    mirror = {
        "title": "大廳", "size": "三",  # a number is never replaced by words
        "events": {"dread": {"name": "恐懼"}},
        "omens": {"Ring": {"text": "金的。"}},
        "lines": ["一", "二"],
        "unknown": "x",
    }
    assert overlay(english, mirror) == {
        "title": "大廳", "floors": ["ground"], "size": 3,
        "events": [{"key": "hope", "name": "Hope", "text": "A moment."},
                   {"key": "dread", "name": "恐懼", "text": "Cold."}],
        "omens": [{"name": "Ring", "text": "金的。"}],
        "lines": ["一", "二"],
    }


def test_a_mirror_of_another_shape_leaves_english() -> None:
    assert overlay(["one", "two"], ["一"]) == ["one", "two"]  # a list of another length
    assert overlay({"a": "x"}, ["y"]) == {"a": "x"}
    assert overlay({"a": {"b": "x"}}, {"a": "y"}) == {"a": {"b": "x"}}


def test_discord_locales_map_to_the_languages_we_speak() -> None:
    assert locales.language_of(discord.Locale.taiwan_chinese) == CHINESE
    assert locales.language_of("en-GB") == ENGLISH
    assert locales.language_of(discord.Locale.chinese) == ENGLISH  # Simplified: not ours
    assert locales.language_of(None) == ENGLISH


# -- the language spoken ---------------------------------------------------------------------

def test_a_book_speaks_the_language_of_its_context_and_falls_back_to_english(
        tmp_path: Path) -> None:
    path = tmp_path / "book.yaml"
    path.write_text("a: 'Hello {who}'\nb: 'Bye'\n", encoding="utf-8")
    (tmp_path / "book.zh-TW.yaml").write_text("a: '{who} 你好'\n", encoding="utf-8")
    book = TextBook(path)
    assert book.say("a", who="Ann") == "Hello Ann"
    with speaking(CHINESE):
        assert book.say("a", who="Ann") == "Ann 你好"
        assert book.say("b") == "Bye"  # not translated yet: English
    assert book.say("a", who="Ann") == "Hello Ann"


def test_content_is_cached_per_language(table_marked: None) -> None:
    english = cthulhu.characters()[0].name
    with speaking(CHINESE):
        assert cthulhu.characters()[0].name == MARK + english
    assert cthulhu.characters()[0].name == english


async def test_a_worker_thread_speaks_its_callers_language() -> None:
    worker = Worker(NO_METRICS, 1)

    async def caller(language: str) -> str:
        with speaking(language):
            return await worker._in_thread(locales.current)

    assert await asyncio.gather(caller(CHINESE), caller(ENGLISH)) == [CHINESE, ENGLISH]


# -- one step in every language --------------------------------------------------------------

def _table() -> Table:
    return Table(channel_id=CHANNEL, guild_id=GUILD, kind="cthulhu", host_id=1, seed=3,
                 seats=[Seat("Ann", 1, language=ENGLISH), Seat("Bo", 2, language=CHINESE)],
                 guild_language=CHINESE)


def test_a_step_is_said_in_english_and_again_in_each_language() -> None:
    table = _table()

    def step() -> tuple[Table, list[Event]]:
        return table, [Event(say("errors.no_game")), Event("x", to_player(1), "secret")]

    with speaking(CHINESE):  # the caller's language does not make the truth
        _, events = languages.said_in(step, (CHINESE,))
    assert [e.text for e in events] == [TABLE.text("errors.no_game"), "x"]
    with speaking(CHINESE):
        assert events[0].texts == {CHINESE: say("errors.no_game")}


def test_twins_of_another_shape_fall_back_to_english(caplog: pytest.LogCaptureFixture
                                                     ) -> None:
    table = _table()

    def step() -> tuple[Table, list[Event]]:
        extra = [Event("more")] if locales.current() == CHINESE else []
        return table, [Event("said"), *extra]

    with caplog.at_level(logging.WARNING):
        _, events = languages.said_in(step, (CHINESE,))
    assert [(e.text, dict(e.texts)) for e in events] == [("said", {})]
    assert "English only" in caplog.text


def test_the_languages_a_table_needs() -> None:
    table = _table()
    assert languages.needed(table, ENGLISH) == (CHINESE,)  # Bo reads Chinese
    table.seats[1].language = ENGLISH
    assert languages.needed(table, ENGLISH) == ()
    assert languages.server_language(table, None) == CHINESE  # the server's own
    languages.heard(table, 1, "zh-TW", "en-US")
    assert table.seats[0].language == CHINESE and table.guild_language == ENGLISH


def test_a_delivery_gives_each_reader_their_language() -> None:
    table = _table()
    table.seats.append(Seat("Cy", 3, language=None))  # not known: English
    said = [(1, Event("public", texts={CHINESE: "公開"})),
            (2, Event("to Ann", to_player(0), texts={CHINESE: "給 Ann"})),
            (3, Event("to Bo", to_player(1), texts={CHINESE: "給 Bo"})),
            (4, Event("to Cy", to_player(2), texts={CHINESE: "給 Cy"}))]
    made = plan(table, said, "k", render=False, language=CHINESE)
    assert made.lines == ["公開"]
    assert [(u, text) for u, text, _ in made.whispers] == [
        (1, "to Ann"), (2, "給 Bo"), (3, "to Cy")]
    assert plan(table, said, "k", render=False, language=ENGLISH).lines == ["public"]


async def test_the_store_keeps_each_events_other_texts(store: SqliteStore) -> None:
    table, events = T.new_table("cthulhu", CHANNEL, GUILD, ANN, 1)
    table = await store.create(table, events, ANN.user_id, None)
    said = Event("moved", texts={CHINESE: "移動了"})
    saved = await store.save(table, [said, Event("plain")], expected_version=table.version,
                             actor_id=1, action=None)
    owed = await store.undelivered(saved.id or 0)
    assert [(e.event().text, dict(e.event().texts)) for e in owed][-2:] == [
        ("moved", {CHINESE: "移動了"}), ("plain", {})]
    assert owed[-2].text_in(CHINESE) == "移動了" and owed[-1].text_in(CHINESE) == "plain"


async def test_a_cthulhu_table_tells_each_player_in_their_language(
        store: SqliteStore, table_marked: None) -> None:
    """A Chinese server with an English and a Chinese player: the posts are Chinese,
    each player's secret comes in their own language, a refusal in the caller's."""
    outlet = RecordingOutlet()
    sessions = Sessions(store, outlet, render=False)
    await sessions.open(CHANNEL, GUILD, ANN, "cthulhu", 5)
    await sessions.act(CHANNEL, BO, Action(T.JOIN))
    outcome = await sessions.act(CHANNEL, ANN, Action(T.START))
    assert outcome.table.seats[1].language == CHINESE
    lines = [line for _, post in outlet.posts for line in post.lines]
    assert lines and all(line.startswith(MARK) for line in lines)
    by_user = {user: text for user, text in outlet.whispers}
    assert not by_user[1].startswith(MARK) and by_user[2].startswith(MARK)
    with speaking(CHINESE), pytest.raises(IllegalAction) as refused:
        await sessions.act(CHANNEL, BO, Action(T.START))
    assert refused.value.message.startswith(MARK)
    with pytest.raises(IllegalAction) as refused:
        await sessions.act(CHANNEL, ANN, Action(T.START))
    assert not refused.value.message.startswith(MARK)


# -- the translation files -------------------------------------------------------------------

def _mirrors() -> list[Path]:
    return sorted(p for p in Path(str(DATA)).rglob("*.zh-TW.yaml")
                  if p.name != "commands.zh-TW.yaml")


def _compare(english: Any, mirror: Any, where: str) -> Iterator[str]:
    """What a mirror says that the rules forbid: a key, item or shape English lacks,
    or a template whose placeholders differ."""
    if isinstance(mirror, dict):
        if isinstance(english, list):
            items = {locales.item_key(i): i for i in english if isinstance(i, dict)}
            for key, value in mirror.items():
                if str(key) not in items:
                    yield f"{where}: no English item {key}"
                else:
                    yield from _compare(items[str(key)], value, f"{where}.{key}")
        elif not isinstance(english, dict):
            yield f"{where}: not a mapping in English"
        else:
            for key, value in mirror.items():
                if key not in english:
                    yield f"{where}: no English key {key}"
                else:
                    yield from _compare(english[key], value, f"{where}.{key}")
    elif isinstance(mirror, list):
        if not isinstance(english, list) or len(english) != len(mirror):
            yield f"{where}: a list of another length"
        else:
            for n, (a, b) in enumerate(zip(english, mirror, strict=True)):
                yield from _compare(a, b, f"{where}[{n}]")
    elif isinstance(mirror, str):
        if not isinstance(english, str):
            yield f"{where}: not a string in English"
        elif sorted(FIELD.findall(english)) != sorted(FIELD.findall(mirror)):
            yield f"{where}: placeholders {FIELD.findall(english)} != {FIELD.findall(mirror)}"


@pytest.mark.parametrize("mirror", _mirrors(), ids=lambda p: p.name)
def test_every_translated_template_keeps_its_placeholders(mirror: Path) -> None:
    english = mirror.with_name(mirror.name.replace(".zh-TW.yaml", ".yaml"))
    found = list(_compare(yaml_files.read_english(english),
                          yaml_files.read_english(mirror), mirror.name))
    assert found == []


def test_the_checker_sees_a_placeholder_lost() -> None:
    assert list(_compare({"a": "{who} won {n:die|dice}"}, {"a": "{who} 贏了"}, "x")) == [
        "x.a: placeholders ['who', 'n'] != ['who']"]


def test_no_english_word_lacks_its_chinese_in_a_translated_file() -> None:
    lacking = [line for path in english_files() if str(path) not in UNTRANSLATED_YET
               for line in missing(path, CHINESE)]
    assert lacking == []


def test_the_command_line_lists_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bot.locales missing --mirrored`: nothing left in the translated files
    (exit 0); every file: one line per English word still untranslated (exit 1 while the
    translators are at work)."""
    assert locales_cli.main(["missing", "--mirrored"]) == 0
    assert capsys.readouterr().out == ""
    everything = locales_cli.main(["missing"])
    lines = capsys.readouterr().out.splitlines()
    assert everything == (1 if lines else 0)


def test_the_missing_list_sees_an_untranslated_line(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(yaml.safe_dump({"a": "Hello", "b": "Bye {who}", "key": "some_key",
                                    "c": "{who} {n}", "items": [{"key": "k", "name": "Nora"}]}))
    (tmp_path / "x.zh-TW.yaml").write_text("a: 你好\n", encoding="utf-8")
    assert missing(path, CHINESE) == ["x.yaml.b", "x.yaml.items[k].name"]


# -- the slash commands ----------------------------------------------------------------------

NAME = re.compile(r"^[-_\w]{1,32}$")


async def _tree() -> discord.app_commands.CommandTree[Any]:
    bot = HauntBot(db_path=":memory:", serve=False)
    await bot.setup_hook()
    assert isinstance(bot.tree.translator, CommandWords)
    return bot.tree


def _localized(payload: Any) -> Iterator[tuple[str, str, dict[str, str]]]:
    """Every (field, English, its localizations) of a command payload, options and choices
    too."""
    if isinstance(payload, list):
        for item in payload:
            yield from _localized(item)
        return
    for field in ("name", "description"):
        if field in payload:
            yield field, payload[field], payload.get(f"{field}_localizations") or {}
    yield from _localized(payload.get("options") or [])
    for choice in payload.get("choices") or []:
        yield "choice", choice["name"], choice.get("name_localizations") or {}


async def test_every_command_string_has_its_chinese_within_discords_limits() -> None:
    tree = await _tree()
    assert words_missing(tree, CHINESE) == []
    payload = [await c.get_translated_payload(tree, tree.translator)  # type: ignore[arg-type]
               for c in tree.get_commands()]
    described = 0
    for field, english, local in _localized(payload):
        assert set(local) <= {CHINESE}
        for text in local.values():
            if field == "name":
                assert text == text.lower() and NAME.match(text)
            else:
                assert 1 <= len(text) <= 100 and text != english
                described += 1
    assert described >= len({e for _, e in tree_strings(tree)}) - 1
    names = [name for field, name, local in _localized(payload) if field == "name"]
    assert all(not local for field, _, local in _localized(payload) if field == "name")
    assert "game" in names and "settings" in names  # typed names stay English
    assert all(1 <= len(v) <= 100 for v in words(CHINESE).values())


class _NoDuplicates(yaml.SafeLoader):
    """A YAML loader that refuses a key written twice in one mapping (PyYAML keeps the
    last silently: a block pasted twice, or a translation that hides another)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            assert key not in seen, f"{key!r} twice, line {key_node.start_mark.line + 1}"
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.yaml")),
                         ids=lambda p: str(p.relative_to(DATA)))
def test_no_data_file_writes_a_key_twice(path: Path) -> None:
    yaml.load(path.read_text(encoding="utf-8"), Loader=_NoDuplicates)


def test_the_duplicate_check_sees_a_key_written_twice() -> None:
    with pytest.raises(AssertionError, match="'a' twice"):
        yaml.load("a: 1\nb: 2\na: 3\n", Loader=_NoDuplicates)
