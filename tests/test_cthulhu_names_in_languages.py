"""Cthulhu in the House names its rooms and characters in the reader's language: the
state keeps them in English (as stored tables have them), and every line, prompt,
button, alt text and board looks each name up in data/cthulhu/ when it is made.
English reads exactly as the state's names and the stored prompts."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.core.actions import Action
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME, content
from bot.games.cthulhu.names import character_word, room_word
from bot.games.cthulhu.rules import PORTALS
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState
from bot.locales import CHINESE, ENGLISH, speaking
from renderers.cthulhu.alt_text import describe

LIBRARY, CELLAR, BALLROOM = 0, 2, 10
PROFESSOR, HEIRESS, MEDIUM, DETECTIVE = range(4)


def english_names() -> list[str]:
    with speaking(ENGLISH):
        return [*content.room_names(), *(c.name for c in content.characters())]


def chinese_of(english: str) -> str:
    with speaking(CHINESE):
        return room_word(english) if english in content_rooms() else character_word(english)


def content_rooms() -> tuple[str, ...]:
    with speaking(ENGLISH):
        return content.room_names()


def arranged(where: dict[int, int], portals: dict[int, list[str]]) -> CthulhuState:
    """A manor game set up in English, characters and portals where the test puts them."""
    with speaking(ENGLISH):
        state, _ = GAME.setup([PlayerInfo(n) for n in ("Ann", "Bo", "Cy")], 7,
                              {"layout": "manor"})
    state.location = [where.get(c) for c in range(12)]
    state.removed = [c for c in range(12) if c not in where]
    state.room_portals = [list(portals.get(r, [])) for r in range(12)]
    placed = Counter(k for kinds in portals.values() for k in kinds)
    state.reserve = sorted((Counter(PORTALS) - placed).elements())
    state.turn = 0
    return state


def assert_no_english_name(text: str) -> None:
    for name in english_names():
        assert name not in text, (name, text)


def test_every_name_has_its_own_chinese_word() -> None:
    for name in english_names():
        assert chinese_of(name) != name
        with speaking(ENGLISH):
            assert room_word(name) == name and character_word(name) == name


def test_the_state_keeps_english_names_whatever_language_sets_it_up() -> None:
    seats = [PlayerInfo("Ann"), PlayerInfo("Bo")]
    with speaking(ENGLISH):
        english, _ = GAME.setup(seats, 3, {"layout": "manor"})
    with speaking(CHINESE):
        chinese, events = GAME.setup(seats, 3, {"layout": "manor"})
    assert chinese.to_dict() == english.to_dict()
    assert [r.name for r in chinese.rooms] == list(content_rooms())
    assert_no_english_name(" ".join(e.text for e in events))


def test_a_move_is_said_with_the_readers_room_and_character_names() -> None:
    state = arranged({PROFESSOR: LIBRARY, HEIRESS: CELLAR}, {})
    target = state.neighbours(LIBRARY)[0]
    action = Action("move", {"character": PROFESSOR, "room": target})
    with speaking(ENGLISH):
        _, said = GAME.apply(state, 0, action)
        assert "Professor" in said[0].text and "Library" in said[0].text
    with speaking(CHINESE):
        _, events = GAME.apply(state, 0, action)
        labels = [o.label for o in GAME.options(state, 0)]
    assert chinese_of("Professor") in events[0].text and chinese_of("Library") in events[0].text
    assert_no_english_name(events[0].text + " ".join(labels))


def test_a_pending_teleport_is_asked_in_the_readers_words() -> None:
    state = arranged({PROFESSOR: BALLROOM, HEIRESS: BALLROOM, MEDIUM: BALLROOM,
                      DETECTIVE: CELLAR}, {BALLROOM: [TELEPORT]})
    state.rng = Rng(1)
    with speaking(ENGLISH):
        asked, _ = GAME.apply(state, 0, Action("fight", {"room": BALLROOM, "remove": HEIRESS}))
    assert asked.pending is not None and asked.pending.prompt.startswith("Teleport")
    with speaking(ENGLISH):  # English: the stored words, byte for byte
        assert [o.label for o in GAME.options(asked, 0)] == asked.pending.labels
        assert asked.pending.prompt in GAME.status_text(asked)
    with speaking(CHINESE):
        status = GAME.status_text(asked)
        labels = [o.label for o in GAME.options(asked, 0)]
        groups = {o.group for o in GAME.options(asked, 0)}
    assert chinese_of("Ballroom") in status and "Teleport" not in status
    assert chinese_of("Professor") in labels and chinese_of("Medium") in labels
    assert_no_english_name(status + " ".join(labels) + " ".join(groups))
    with speaking(ENGLISH):
        where, _ = GAME.apply(asked, 0, Action("choose", {"pick": 1}))  # the Medium
    assert where.pending is not None
    with speaking(ENGLISH):
        assert [o.label for o in GAME.options(where, 0)] == where.pending.labels
        assert where.pending.prompt in GAME.status_text(where)
    with speaking(CHINESE):
        text = GAME.status_text(where) + " ".join(o.label for o in GAME.options(where, 0))
    assert chinese_of("Medium") in text and chinese_of("Crypt") in text
    assert_no_english_name(text)


def test_a_pending_abyss_names_the_character_it_sent_back() -> None:
    state = arranged({PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                      DETECTIVE: CELLAR}, {LIBRARY: [ABYSS]})
    with speaking(ENGLISH):
        asked, _ = GAME.apply(state, 0, Action("fight", {"room": LIBRARY, "remove": HEIRESS}))
        assert asked.pending is not None
        assert asked.pending.prompt in GAME.status_text(asked)
        assert "Heiress" in asked.pending.prompt
    with speaking(CHINESE):
        status = GAME.status_text(asked)
    assert chinese_of("Heiress") in status
    assert_no_english_name(status)


@pytest.mark.parametrize("language", [ENGLISH, CHINESE])
def test_the_alt_text_and_secrets_name_rooms_in_the_readers_words(language: str) -> None:
    state = arranged({PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR},
                     {CELLAR: [ABYSS]})
    state.last = {"seat": 0, "kind": "move", "character": MEDIUM, "from": LIBRARY,
                  "to": CELLAR}
    state.secrets = [[PROFESSOR, MEDIUM], [HEIRESS, DETECTIVE], [4, 5]]
    with speaking(language):
        text = describe(state) + GAME.private_view(state, 0) + GAME.private_view(state, 1)
    if language == ENGLISH:
        assert "Library" in text and "Professor" in text and "Detective" in text
    else:
        assert chinese_of("Library") in text and chinese_of("Detective") in text
        assert_no_english_name(text)
