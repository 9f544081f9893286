"""Cthulhu in the House, how the game ends, at its edges: the third rumble decided by an
abyss or a teleport, a last character nobody owns, a win shared three ways, a seat
handed to the AI before the end, and what the table reads once it is over (in English
and in Traditional Chinese). tests/test_cthulhu_rules.py holds the main case (three
rumbles, then the most points); these hold the edges."""

from __future__ import annotations

import pytest

from bot.core.errors import IllegalAction
from bot.core.story import LogLine
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.names import character_name
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState
from bot.locales import speaking
from bot.texts import and_list
from tests.test_cthulhu_rules import (
    ATTIC,
    HEIRESS,
    LIBRARY,
    MEDIUM,
    PROFESSOR,
    arrange,
    fight,
    move,
)

ZH = "zh-TW"
OTHERS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]  # out of the house first, in this order


def _last_fight(portals: dict[int, list[str]] | None = None,
                secrets: list[list[int]] | None = None,
                scores: list[int] | None = None, players: int = 3) -> CthulhuState:
    """The third rumble's last two characters, the Professor and the Heiress, in the
    Library; Alice (seat 0) to act."""
    return arrange(players_count=players, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY},
                   removed=OTHERS, portals=portals, rumble=3,
                   secrets=secrets or [[PROFESSOR, 2], [HEIRESS, 3], [4, 5]][:players],
                   scores=scores)


def test_an_abyss_in_the_last_fight_of_the_third_rumble_decides_the_winner() -> None:
    """'Abyss portal: The character that was just removed goes back to the room, and the
    active player chooses a different character in the room to be removed from the
    house.' and 'The winner is the player who has the most points after three rumbles'.
    Alice throws out the Professor (her own) to hand Bob the win; the abyss sends him
    back and takes the Heiress instead: Alice scores the 10, Bob the Heiress's 9, and the
    winner is Alice (21 to 20), not Bob (who would have won 21 to 20)."""
    state = _last_fight({LIBRARY: [ABYSS]}, scores=[11, 11, 0])
    new, events = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    assert new.over and new.pending is None and GAME.to_act(new) is None
    assert new.results[-1].survivor == PROFESSOR and new.removed[-1] == HEIRESS
    assert new.results[-1].points == [10, 9, 2] and new.scores == [21, 20, 2]
    assert new.winners == [0]
    assert events[-1].kind == "game_over" and events[-1].data["winners"] == [0]


def test_a_teleport_in_the_last_fight_of_the_third_rumble_ends_the_game_at_once() -> None:
    """'Players take turns in clockwise order until only one character remains in the
    house.' and 'When only one character remains in the house, the game ends': the last
    fight's teleport has nothing to move (RULES.md ruling 6), so no question waits, and
    the game is over in that one action."""
    state = _last_fight({LIBRARY: [TELEPORT]}, scores=[0, 15, 0])
    new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.over and new.pending is None and GAME.to_act(new) is None
    assert new.winners == [1] and new.scores == [10, 24, 2]
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["score", "game_over"]
    assert "turn" not in kinds and "rumble" not in kinds and "secret" not in kinds


def test_a_last_character_nobody_owns_scores_nobody_ten() -> None:
    """'The owner of the last character remaining in the house scores 10 points. The
    other players each check which of their two characters scored highest'. With two
    players four characters are owned; the Heiress, last standing, is nobody's: no seat
    scores 10, each scores its better character's place."""
    state = _last_fight(secrets=[[2, 11], [3, 4]], players=2)
    state.removed = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    new, _ = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    assert new.results[-1].survivor == HEIRESS and new.results[-1].removed[-1] == PROFESSOR
    assert new.results[-1].points == [8, 1] and new.winners == [0]


@pytest.mark.parametrize("language", ["en", ZH])
def test_a_win_shared_three_ways_is_said_as_shared(language: str) -> None:
    """'The winner is the player who has the most points after three rumbles!' RULES.md
    ruling 8: 'the tied players share the win'. Three seats end on 20: the end line,
    /game status and the story share the win among the three, and each seat's story
    line says it won."""
    state = _last_fight(secrets=[[PROFESSOR, 2], [HEIRESS, 3], [4, 11], [5, 6]],
                        scores=[10, 11, 12, 5], players=4)
    with speaking(language):
        new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
        assert new.winners == [0, 1, 2] and new.scores == [20, 20, 20, 8]
        names = and_list(["Alice", "Bob", "Cara"])
        assert events[-1].text == cthulhu_line("events.game_over_shared", players=names,
                                               points=20)
        assert cthulhu_line("status.over_shared", players=names, points=20) \
            in GAME.status_text(new)
        story = GAME.story(new, [LogLine(e.kind, "public", e.text) for e in events])
        assert story.outcome == cthulhu_line("story.shared", players=names, points=20)
        assert [seat.won for seat in story.seats] == [True, True, True, False]
        assert [seat.score for seat in story.seats] == [20, 20, 20, 8]


def test_a_seat_handed_to_the_ai_before_the_end_keeps_its_points_and_wins() -> None:
    """README: leaving a running game hands your seat to the AI. Bob leaves before the
    third rumble's last fight: his seat, now the AI's, keeps his points and his secret
    characters, and the win it earns is said under the seat's new name."""
    state = _last_fight(scores=[0, 15, 0])
    state = GAME.set_player(state, 1, PlayerInfo("AI Bob", ai=True))
    assert state.secrets[1] == [HEIRESS, 3] and state.scores[1] == 15
    new, events = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    assert new.winners == [1] and new.scores[1] == 25
    assert events[-1].text == cthulhu_line("events.game_over_win", player="AI Bob",
                                           points=25)
    assert GAME.story(new, []).seats[1].won


@pytest.mark.parametrize("language", ["en", ZH])
def test_nothing_is_played_once_the_game_is_over(language: str) -> None:
    """'The winner is the player who has the most points after three rumbles': after
    the third, no fourth is dealt, no seat acts, and an action is refused in the reader's
    language; a seat's own view says its final score and its last pair."""
    state = _last_fight(scores=[0, 15, 0])
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.rumble == 3 and len(new.results) == 1
    with speaking(language):
        for seat in range(3):
            assert GAME.options(new, seat) == []
        with pytest.raises(IllegalAction) as caught:
            GAME.apply(new, new.turn, move(PROFESSOR, ATTIC))
        assert caught.value.message == cthulhu_line("errors.game_over")
        view = GAME.private_view(new, 0).splitlines()
        assert view[0] == cthulhu_line("secret.header_over", score=10)
        assert view[1:] == [cthulhu_line("secret.last_rumble", number=3,
                                         first=character_name(new, PROFESSOR),
                                         second=character_name(new, MEDIUM), points=10)]
