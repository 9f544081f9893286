"""bot/mentions.py: our lines name commands plainly; with the synced ids known each name
becomes Discord's clickable `</name:id>`, and nothing else in the line changes."""

from __future__ import annotations

import pytest

from bot.mentions import Mentions


@pytest.fixture
def book() -> Mentions:
    book = Mentions()
    book.reset(["game new", "game status", "game end", "gm log", "help", "secret"])
    book.remember(None, {"game": 11, "help": 22, "secret": 33})
    book.remember(5, {"gm": 44})
    return book


@pytest.mark.parametrize(("line", "linked"), [
    ("Start one with /game new.", "Start one with </game new:11>."),
    ("The game is over. `/game new` starts another.",
     "The game is over. </game new:11> starts another."),  # no code span around a mention
    ("See /game status, or /game end to stop it.",
     "See </game status:11>, or </game end:11> to stop it."),
    ("(/game new game:betrayal expansion:neibolt)",
     "(</game new:11> game:betrayal expansion:neibolt)"),
    ("Use /secret (or the button).", "Use </secret:33> (or the button)."),
    ("and/or https://a.b/game/new", "and/or https://a.b/game/new"),  # no command there
    ("/game rules is not ours", "/game rules is not ours"),  # a name it does not know
    ("/gm log here", "/gm log here"),  # its id is this guild's, not global
])
def test_link(book: Mentions, line: str, linked: str) -> None:
    assert book.link(line) == linked


def test_a_guilds_own_commands_and_an_unsynced_book(book: Mentions) -> None:
    assert book.link("/gm log here", 5) == "</gm log:44> here"
    assert book.names_command("try /help") and not book.names_command("a/b /nothing")
    book.reset(["help"])
    assert book.link("try /help") == "try /help"  # no ids yet: as written
