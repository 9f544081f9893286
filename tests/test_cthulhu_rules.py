"""Cthulhu in the House: every rule of seed 002 and our rulings, on hand-arranged states."""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.actions import Action
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.rng import Rng
from bot.core.story import LogLine
from bot.games import get
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME, content, layouts
from bot.games.cthulhu import rules as rules_module
from bot.games.cthulhu.rules import (
    PORTALS,
    legal_actions,
    next_starter,
    removal_points,
    rumble_points,
    winners,
)
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState

NAMES = ["Alice", "Bob", "Cara", "Dan", "Eve", "Finn"]
# Rooms by id (rooms.yaml) and their passages in the "manor" layout (layouts.yaml).
(LIBRARY, ATTIC, CELLAR, PARLOUR, KITCHEN, CONSERVATORY, CHAPEL, STUDY, GALLERY,
 OBSERVATORY, BALLROOM, CRYPT) = range(12)
# Characters by id (characters.yaml).
(PROFESSOR, HEIRESS, MEDIUM, DETECTIVE, SAILOR, LIBRARIAN, OCCULTIST, SURGEON, REPORTER,
 AVIATOR, BUTLER, PAINTER) = range(12)


def players(n: int) -> list[PlayerInfo]:
    return [PlayerInfo(name) for name in NAMES[:n]]


def arrange(*, players_count: int = 3, where: dict[int, int] | None = None,
            removed: Iterable[int] | None = None, portals: dict[int, list[str]] | None = None,
            reserve: list[str] | None = None, secrets: list[list[int]] | None = None,
            turn: int = 0, starter: int | None = None, scores: list[int] | None = None,
            rumble: int = 1, seed: int = 7) -> CthulhuState:
    """A manor game with characters, portals and secrets where a test puts them.

    Characters missing from `where` are out of the house, in the order `removed` gives
    (ascending ids by default). Portals not placed in rooms make up the reserve, so the
    six are always three abysses and three teleports.
    """
    state, _ = GAME.setup(players(players_count), seed, {"layout": "manor"})
    where = {c: c for c in range(12)} if where is None else where
    state.location = [where.get(c) for c in range(12)]
    out = [c for c in range(12) if c not in where]
    state.removed = list(removed) if removed is not None else out
    assert sorted(state.removed) == out
    portals = portals or {}
    state.room_portals = [list(portals.get(r, [])) for r in range(12)]
    placed = Counter(k for kinds in portals.values() for k in kinds)
    spare = sorted((Counter(PORTALS) - placed).elements())
    state.reserve = spare if reserve is None else reserve
    assert Counter(state.reserve) + placed == Counter(PORTALS)
    state.secrets = secrets or [[2 * s, 2 * s + 1] for s in range(players_count)]
    state.turn = turn
    state.starter = turn if starter is None else starter
    state.scores = scores or [0] * players_count
    state.rumble = rumble
    return state


def move(c: int, room: int) -> Action:
    return Action("move", {"character": c, "room": room})


def fight(room: int, c: int) -> Action:
    return Action("fight", {"room": room, "remove": c})


def choose(pick: int) -> Action:
    return Action("choose", {"pick": pick})


def board_portals(state: CthulhuState) -> Counter[str]:
    return Counter(k for kinds in state.room_portals for k in kinds)


def assert_portals_conserved(state: CthulhuState) -> None:
    assert sum(board_portals(state).values()) + len(state.reserve) == 6
    assert board_portals(state) + Counter(state.reserve) == Counter(PORTALS)


def refused(state: CthulhuState, seat: int, action: Action) -> str:
    """Play an illegal action; check the state is untouched and return the message."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert state.to_dict() == before
    assert "\n" not in caught.value.message
    return caught.value.message


# ---------------------------------------------------------------- content and setup

def contrast_on_dark(rgb: tuple[int, ...]) -> float:
    """WCAG contrast ratio against a near-black board."""
    def luminance(colour: tuple[int, ...]) -> float:
        parts = [v / 255 for v in colour]
        lin = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return (luminance(rgb) + 0.05) / (luminance((13, 15, 21)) + 0.05)


def test_registered_and_described() -> None:
    game = get("cthulhu")
    assert game is GAME
    assert (game.key, game.title, game.min_players, game.max_players) == (
        "cthulhu", "Cthulhu in the House", 2, 6)


def test_content_is_ours_and_complete() -> None:
    chars = content.characters()
    assert len(chars) == 12 and len({c.name for c in chars}) == 12
    assert len({c.colour.lower() for c in chars}) == 12
    assert all(re.fullmatch(r"#[0-9a-fA-F]{6}", c.colour) for c in chars)
    assert len(set(content.room_names())) == 12
    rgb = [tuple(int(c.colour[i:i + 2], 16) for i in (1, 3, 5)) for c in chars]
    assert all(contrast_on_dark(colour) >= 3 for colour in rgb)  # the board is dark
    assert min(math.dist(a, b) for a, b in itertools.combinations(rgb, 2)) >= 50
    for name in ("characters", "rooms", "layouts"):
        assert content._load(name)["designed"] is True
    assert len(layouts.builtin_layouts()) >= 3


@pytest.mark.parametrize("key", list(layouts.builtin_layouts()))
def test_builtin_layouts_are_playable(key: str) -> None:
    layout = layouts.builtin_layouts()[key]
    layouts.check(layout)
    assert len(layout.passages) < 17  # some passages do not connect


def test_random_layouts_are_playable_and_seeded() -> None:
    seen = set()
    for seed in range(200):
        layout = layouts.random_layout(Rng.from_seed(seed))
        layouts.check(layout)
        seen.add(layout.passages)
    assert len(seen) > 150
    assert layouts.random_layout(Rng(5)) == layouts.random_layout(Rng(5))


def test_check_refuses_bad_houses() -> None:
    good = layouts.builtin_layouts()["manor"]
    room_at = {slot: room for room, slot in enumerate(good.slots)}
    every = [(room_at[a], room_at[b]) for a, b in layouts.grid_neighbours()]
    by_rows = [(room_at[a], room_at[b]) for a, b in layouts.grid_neighbours() if a[1] == b[1]]
    bad = {
        "not grid neighbours": (*good.passages, (LIBRARY, ATTIC)),
        "every pair joined": every,
        "an isolated room": [p for p in good.passages if CHAPEL not in p],
        "three pieces": by_rows,
    }
    for flaw, passages in bad.items():
        layout = replace(good, passages=tuple(sorted((min(p), max(p)) for p in passages)))
        with pytest.raises(ValueError):
            layouts.check(layout)
            pytest.fail(flaw)
    with pytest.raises(ValueError):
        layouts.check(replace(good, slots=(*good.slots[:-1], good.slots[0])))


def test_setup_places_everything() -> None:
    state, events = GAME.setup(players(4), 11, {"layout": "cloister"})
    assert state.layout == "cloister"
    assert sorted(state.location) == list(range(12))  # one character per room
    rooms_with_portals = [r for r in range(12) if state.room_portals[r]]
    assert len(rooms_with_portals) == 3
    assert all(len(state.room_portals[r]) == 1 for r in rooms_with_portals)
    assert len(state.reserve) == 3
    assert_portals_conserved(state)
    assert [len(pair) for pair in state.secrets] == [2, 2, 2, 2]
    assert len({c for pair in state.secrets for c in pair}) == 8
    assert state.removed == [] and state.rumble == 1 and state.scores == [0] * 4
    assert state.turn == state.starter and 0 <= state.turn < 4
    private = [e for e in events if not e.audience.is_public]
    assert [e.audience.ref for e in private] == ["0", "1", "2", "3"]
    for seat, event in enumerate(private):
        for c in state.secrets[seat]:
            assert state.characters[c].name in event.text
    assert any(f"{NAMES[state.turn]}'s turn" in e.text for e in events if e.audience.is_public)


def test_setup_is_seeded_and_picks_houses_and_starters_at_random() -> None:
    a, _ = GAME.setup(players(3), 99, {})
    b, _ = GAME.setup(players(3), 99, {})
    assert a.to_dict() == b.to_dict()
    houses, starters = set(), set()
    for seed in range(60):
        state, _ = GAME.setup(players(3), seed, {})
        houses.add(state.layout)
        starters.add(state.starter)
    assert houses == set(layouts.layout_keys())
    assert starters == {0, 1, 2}


def test_setup_random_house() -> None:
    state, _ = GAME.setup(players(2), 3, {"layout": "random"})
    assert state.layout == "random"
    assert all(state.neighbours(r) for r in range(12))


def test_setup_refuses_bad_options() -> None:
    with pytest.raises(IllegalAction, match="no house called"):
        GAME.setup(players(3), 1, {"layout": "castle"})
    with pytest.raises(IllegalAction, match="2 to 6 players"):
        GAME.setup(players(1), 1, {})
    with pytest.raises(IllegalAction, match="2 to 6 players"):
        GAME.setup([PlayerInfo(f"P{i}") for i in range(7)], 1, {})


def test_unowned_characters_with_three_players() -> None:
    state, _ = GAME.setup(players(3), 5, {"layout": "manor"})
    owned = {c for pair in state.secrets for c in pair}
    assert len(owned) == 6
    unowned = [c for c in range(12) if c not in owned]
    # An unowned survivor scores for nobody; each seat scores its better character.
    removed = [c for c in range(12) if c != unowned[0]]
    points = rumble_points(removed, unowned[0], state.secrets)
    assert LAST_POINTS not in points


LAST_POINTS = 10


# ---------------------------------------------------------------- move

def test_move_a_lone_character_through_a_passage() -> None:
    state = arrange()
    new, events = GAME.apply(state, 0, move(LIBRARY, STUDY))  # Professor is in the Library
    assert new.location[PROFESSOR] == STUDY
    assert new.in_room(STUDY) == [PROFESSOR, STUDY]
    assert state.location[PROFESSOR] == LIBRARY  # the given state is untouched
    assert new.turn == 1
    assert "moves the Professor from the Library to the Study" in events[0].text


def test_move_only_a_character_alone_in_its_room() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR})
    message = refused(state, 0, move(PROFESSOR, STUDY))
    assert message == "The Professor isn't alone in the Library, so it can't move."
    GAME.apply(state, 0, move(MEDIUM, KITCHEN))  # alone: fine


def test_move_only_through_a_passage() -> None:
    state = arrange()
    assert GALLERY not in state.neighbours(CONSERVATORY)  # grid neighbours, no passage
    message = refused(state, 0, move(CONSERVATORY, GALLERY))
    assert message == "No passage leads from the Conservatory to the Gallery."
    assert refused(state, 0, move(PROFESSOR, ATTIC)) == (
        "No passage leads from the Library to the Attic.")
    assert "already in the Library" in refused(state, 0, move(PROFESSOR, LIBRARY))


def test_all_portals_travel_with_a_moving_character() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: ATTIC, MEDIUM: CELLAR},
                    portals={LIBRARY: [ABYSS, TELEPORT], STUDY: [TELEPORT]})
    new, events = GAME.apply(state, 0, move(PROFESSOR, STUDY))
    assert new.room_portals[LIBRARY] == []
    assert sorted(new.room_portals[STUDY]) == [ABYSS, TELEPORT, TELEPORT]
    assert_portals_conserved(new)
    assert "2 portals" in events[0].text


def test_a_removed_character_cannot_move() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: ATTIC})
    assert refused(state, 0, move(MEDIUM, KITCHEN)) == "The Medium has already left the house."


# ---------------------------------------------------------------- fight

def test_fight_needs_two_characters() -> None:
    state = arrange()
    assert refused(state, 0, fight(LIBRARY, PROFESSOR)) == (
        "A fight needs at least two characters in the room, and the Library has only 1.")


def test_fight_victim_must_be_in_the_room() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR})
    assert refused(state, 0, fight(LIBRARY, MEDIUM)) == "The Medium isn't in the Library."


def test_fight_removes_in_order() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR}, removed=[SAILOR, LIBRARIAN, OCCULTIST, SURGEON,
                                                        REPORTER, AVIATOR, BUTLER, PAINTER])
    state, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert state.location[HEIRESS] is None
    assert state.removed[-1] == HEIRESS
    state, _ = GAME.apply(state, 1, fight(LIBRARY, PROFESSOR))
    assert state.removed[-2:] == [HEIRESS, PROFESSOR]
    assert state.turn == 2
    assert "the Heiress is thrown out" in events[0].text


# ---------------------------------------------------------------- portals

def test_abyss_with_two_characters_takes_the_other() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR},
                    portals={LIBRARY: [ABYSS]})
    new, events = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    assert new.location[PROFESSOR] == LIBRARY
    assert new.location[HEIRESS] is None
    assert new.removed[-1] == HEIRESS and PROFESSOR not in new.removed
    assert new.pending is None and new.turn == 1
    assert len(new.room_portals[LIBRARY]) == 1  # a fresh portal, same room
    assert_portals_conserved(new)
    text = " ".join(e.text for e in events)
    assert "abyss" in text and "spits the Professor back" in text


def test_abyss_with_three_characters_lets_the_active_seat_choose() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR}, portals={LIBRARY: [ABYSS]}, turn=1)
    new, _ = GAME.apply(state, 1, fight(LIBRARY, HEIRESS))
    assert new.pending is not None and new.pending.seat == 1
    assert new.pending.labels == ["Professor", "Medium"]
    assert new.location[HEIRESS] == LIBRARY
    assert GAME.to_act(new) == 1
    assert [o.label for o in GAME.options(new, 1)] == ["Professor", "Medium"]
    assert GAME.options(new, 0) == []
    # While the choice is pending nothing else goes.
    assert refused(new, 1, move(DETECTIVE, KITCHEN)).startswith("First choose:")
    assert refused(new, 0, choose(0)) == "Bob is making a choice right now."
    assert refused(new, 1, choose(2)) == "That is not one of the choices."
    assert refused(new, 1, Action("choose")) == "That is not one of the choices."
    final, events = GAME.apply(new, 1, choose(1))
    assert final.location[MEDIUM] is None and final.removed[-1] == MEDIUM
    assert final.location[HEIRESS] == LIBRARY and final.location[PROFESSOR] == LIBRARY
    assert final.pending is None and final.turn == 2
    assert_portals_conserved(final)
    assert "sends the Medium into the abyss" in events[0].text


def test_teleport_to_any_room_takes_the_portal_along() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR}, portals={LIBRARY: [TELEPORT, TELEPORT]})
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is not None
    assert new.pending.labels == ["Professor", "Medium", "No one"]
    assert new.removed[-1] == HEIRESS
    new, _ = GAME.apply(new, 0, choose(1))  # the Medium
    assert new.pending is not None and new.pending.kind == "teleport_where"
    assert len(new.pending.labels) == 11 and "Library" not in new.pending.labels
    target = new.pending.payload["targets"].index(CRYPT)  # far away, no passage needed
    final, events = GAME.apply(new, 0, choose(target))
    assert final.location[MEDIUM] == CRYPT
    assert final.room_portals[LIBRARY] == [TELEPORT]  # only the flipped portal travels
    assert len(final.room_portals[CRYPT]) == 1  # RULING: the replacement lands there
    assert final.pending is None and final.turn == 1
    assert_portals_conserved(final)
    assert "reappears in the Crypt" in " ".join(e.text for e in events)


def test_teleport_can_be_declined() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR},
                    portals={LIBRARY: [TELEPORT]})
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is not None and new.pending.labels == ["Professor", "No one"]
    final, events = GAME.apply(new, 0, choose(1))
    assert final.location[PROFESSOR] == LIBRARY
    assert len(final.room_portals[LIBRARY]) == 1  # replaced in the same room
    assert final.turn == 1
    assert_portals_conserved(final)
    assert "fizzle" in events[0].text


def test_replacement_is_drawn_from_the_shuffled_reserve() -> None:
    drawn = Counter()
    for seed in range(60):
        state = arrange(seed=seed, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR},
                        portals={LIBRARY: [TELEPORT], ATTIC: [TELEPORT], STUDY: [TELEPORT]},
                        reserve=[ABYSS, ABYSS, ABYSS])
        new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
        final, _ = GAME.apply(new, 0, choose(1))  # no one teleports
        (kind,) = final.room_portals[LIBRARY]
        drawn[kind] += 1
        assert Counter(final.reserve) + Counter([kind]) == Counter([TELEPORT, ABYSS, ABYSS, ABYSS])
        assert_portals_conserved(final)
    assert drawn[ABYSS] > drawn[TELEPORT] > 0  # one teleport among four


def test_the_flipped_portal_is_one_of_the_rooms_at_random() -> None:
    kinds = Counter()
    for seed in range(60):
        state = arrange(seed=seed, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: CELLAR},
                        portals={LIBRARY: [TELEPORT, ABYSS]})
        _, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
        kinds[next(e.data["portal"] for e in events if e.kind == "portal")] += 1
    assert kinds[ABYSS] > 0 and kinds[TELEPORT] > 0


def test_portal_count_on_the_board_stays_three() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR, SAILOR: CELLAR},
                    portals={LIBRARY: [ABYSS], CELLAR: [TELEPORT], ATTIC: [ABYSS]})
    for seed in range(30):
        state.rng = Rng(seed)
        new, _ = GAME.apply(state, 0, fight(CELLAR, SAILOR))
        while new.pending is not None:
            new, _ = GAME.apply(new, 0, choose(0))
        assert sum(board_portals(new).values()) == 3 and len(new.reserve) == 3
        assert_portals_conserved(new)


def test_the_last_fight_still_resolves_its_abyss() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY}, portals={LIBRARY: [ABYSS]},
                    removed=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11], secrets=[[PROFESSOR, 2],
                                                                       [HEIRESS, 3], [4, 5]])
    new, _ = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    result = new.results[0]
    assert result.survivor == PROFESSOR and result.removed[-1] == HEIRESS
    assert result.points == [10, 9, 2]


def test_the_story_tells_the_deciding_abyss_too() -> None:
    # Rulebook: "Abyss portal: The character that was just removed goes back to the room,
    # and the active player chooses a different character in the room to be removed."
    # The last fight's story line must not leave its survivor thrown out.
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY}, portals={LIBRARY: [ABYSS]},
                    removed=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11], rumble=3)
    new, events = GAME.apply(state, 0, fight(LIBRARY, PROFESSOR))
    log = [LogLine(e.kind, "public" if e.audience.is_public else "player", e.text, 0)
           for e in events]
    deciding = GAME.story(new, log).turning[-1]
    assert deciding.startswith("The deciding fight: Alice starts a fight in the Library")
    assert "spits the Professor back" in deciding
    assert "the Heiress is dragged out" in deciding.replace("The Heiress", "the Heiress")


def test_a_last_teleport_has_nothing_to_do() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY}, portals={LIBRARY: [TELEPORT]})
    new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is None and new.results[0].survivor == PROFESSOR
    assert any("nothing to do" in e.text for e in events)


# ---------------------------------------------------------------- scoring

def test_scoring_table() -> None:
    assert [removal_points(p) for p in range(1, 12)] == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    removed = list(range(11))
    secrets = [[c, c] for c in range(12)]  # one seat per character, to read the table
    assert rumble_points(removed, 11, secrets) == [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def test_only_the_better_of_two_counts() -> None:
    removed = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert rumble_points(removed, 11, [[0, 9], [3, 4], [1, 0]]) == [8, 3, 0]  # 10th, 5th


def test_the_survivors_owner_scores_ten() -> None:
    removed = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert rumble_points(removed, 11, [[10, 11], [0, 1]]) == [10, 0]


def end_of_rumble(*, scores: list[int], rumble: int = 1, starter: int = 0,
                  turn: int = 0) -> tuple[CthulhuState, list[Event]]:
    """Play the last fight of a rumble: the Professor (seat 0's) outlasts the Heiress."""
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY},
                    removed=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    secrets=[[PROFESSOR, 2], [HEIRESS, 3], [4, 11]],
                    scores=scores, rumble=rumble, starter=starter, turn=turn)
    return GAME.apply(state, turn, fight(LIBRARY, HEIRESS))


def test_a_rumble_is_scored_and_the_next_dealt() -> None:
    new, events = end_of_rumble(scores=[0, 0, 1])
    assert new.results[0].points == [10, 9, 8]
    assert new.results[0].removed == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, HEIRESS]
    assert new.scores == [10, 9, 9]
    score = next(e for e in events if e.kind == "score")
    assert score.audience.is_public and score.data["rumble_scored"] == 1
    assert "Alice had the Professor and the Medium: +10" in score.text
    # The next rumble: everyone back, portals reset, new secrets by DM.
    assert new.rumble == 2 and new.removed == [] and sorted(new.location) == list(range(12))
    assert len([k for kinds in new.room_portals for k in kinds]) == 3
    assert_portals_conserved(new)
    private = [e for e in events if not e.audience.is_public]
    assert sorted(e.audience.ref for e in private) == ["0", "1", "2"]
    assert all(e.data["rumble"] == 2 for e in private)
    # Fewest points starts; Bob and Cara tie on 9: Bob is first clockwise after Alice.
    assert new.starter == new.turn == 1
    assert "Bob has the fewest points" in " ".join(e.text for e in events)


def test_fewest_points_starts_with_the_tie_ruling() -> None:
    assert next_starter([5, 3, 8], previous=0) == 1
    assert next_starter([3, 5, 3, 3], previous=2) == 3  # first tied seat after the starter
    assert next_starter([3, 5, 3, 4], previous=2) == 0  # wraps around clockwise
    assert next_starter([3, 3], previous=0) == 1
    assert next_starter([3, 3], previous=1) == 0  # the previous starter comes last
    new, _ = end_of_rumble(scores=[5, 0, 1], starter=1, turn=2)  # +[10, 9, 8] -> 15, 9, 9
    assert new.starter == 2  # Bob and Cara tie; Cara comes first after Bob


def test_three_rumbles_then_a_winner() -> None:
    new, events = end_of_rumble(scores=[12, 15, 3], rumble=3)
    assert new.over and GAME.is_over(new) and GAME.to_act(new) is None
    assert new.scores == [22, 24, 11] and new.winners == [1]
    assert len(new.results) == 1  # the arranged state skipped the first two
    assert events[-1].kind == "game_over" and events[-1].audience.is_public
    assert events[-1].text == "After three rumbles, Bob wins with 24 points!"
    assert refused(new, 0, move(PROFESSOR, STUDY)) == "The game is over."
    assert GAME.options(new, 0) == [] and GAME.options(new, 1) == []
    assert "Bob won with 24 points" in GAME.status_text(new)


def test_a_tie_for_the_most_points_shares_the_win() -> None:
    new, events = end_of_rumble(scores=[12, 13, 3], rumble=3)
    assert new.winners == [0, 1]
    assert events[-1].text == (
        "After three rumbles, Alice and Bob share the win with 22 points each!")
    assert winners([4, 9, 9, 1]) == [1, 2]


# ---------------------------------------------------------------- turns and refusals

def test_turns_go_clockwise() -> None:
    state = arrange(players_count=3, turn=2)
    new, events = GAME.apply(state, 2, move(LIBRARY, STUDY))
    assert new.turn == 0 and new.turns_played == state.turns_played + 1
    assert events[-1].text == "It's Alice's turn."
    new, _ = GAME.apply(new, 0, fight(STUDY, SURGEON))
    assert new.turn == 1


def test_only_the_active_seat_acts() -> None:
    state = arrange(turn=0)
    assert refused(state, 1, move(LIBRARY, STUDY)) == "It's not your turn — it's Alice's."
    assert refused(state, 7, move(LIBRARY, STUDY)) == "You're not playing in this game."
    assert GAME.options(state, 1) == []
    with pytest.raises(IllegalAction):
        GAME.ai_action(state, 1)


@pytest.mark.parametrize("action, message", [
    (Action("dance"), "`dance` isn't something you can do here"),
    (Action("choose", {"pick": 0}), "There is nothing to choose right now."),
    (Action("move", {"room": STUDY}), "That action needs a `character`."),
    (Action("move", {"character": 0}), "That action needs a `room`."),
    (Action("move", {"character": 12, "room": 1}), "There is no character `12`."),
    (Action("move", {"character": "prof", "room": 1}), "There is no character `prof`."),
    (Action("move", {"character": 0, "room": -1}), "There is no room `-1`."),
    (Action("fight", {"room": 99, "remove": 0}), "There is no room `99`."),
    (Action("fight", {"room": 0}), "That action needs a `remove`."),
])
def test_garbage_is_refused_readably(action: Action, message: str) -> None:
    assert message in refused(arrange(), 0, action)


def test_apply_never_mutates_its_input() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY,
                           DETECTIVE: CELLAR}, portals={LIBRARY: [ABYSS], CELLAR: [TELEPORT]})
    before = state.to_dict()
    for action in legal_actions(state):
        GAME.apply(state, 0, action)
        assert state.to_dict() == before


def test_a_legal_action_always_exists() -> None:
    rng = Rng(2024)
    for trial in range(300):
        state, _ = GAME.setup(players(2 + trial % 5), trial, {})
        count = 2 + rng.below(11)
        inside = rng.sample(range(12), count)
        state.location = [rng.below(12) if c in inside else None for c in range(12)]
        state.removed = [c for c in range(12) if c not in inside]
        assert legal_actions(state)
        assert GAME.options(state, state.turn)


# ---------------------------------------------------------------- views and secrecy

def test_options_read_well() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: ATTIC})
    options = GAME.options(state, 0)
    moves = [o for o in options if o.group == "Move"]
    fights = [o for o in options if o.group == "Fight"]
    assert sorted(o.label for o in moves) == ["Medium → Observatory", "Medium → Parlour"]
    assert [o.label for o in fights] == ["Library: remove the Professor",
                                         "Library: remove the Heiress"]
    assert all(o.style == "danger" for o in fights)
    for option in options:  # every option is legal and fits a button's custom_id
        GAME.apply(state, 0, option.action)
        assert len(option.action.encode()) < 60
        assert Action.decode(option.action.encode()) == option.action


def test_private_view_shows_only_this_seats_secrets() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, DETECTIVE: CELLAR},
                    removed=[2, 4, 5, 6, 7, 8, 9, 10, 11], secrets=[[PROFESSOR, MEDIUM],
                                                                    [HEIRESS, DETECTIVE],
                                                                    [4, 5]], scores=[7, 0, 3])
    view = GAME.private_view(state, 0)
    assert "Rumble 1 of 3" in view and "your score: 7" in view
    assert "The Professor: in the Library with the Heiress" in view
    assert "The Medium: left the house 1st, worth 0" in view
    assert "Detective" not in view
    assert "Detective: alone in the Cellar" in GAME.private_view(state, 1)
    assert GAME.private_view(state, 9) == "You're not playing in this game."


def test_status_text_never_names_secrets() -> None:
    state, _ = GAME.setup(players(3), 4, {"layout": "warren"})
    state = GAME.set_player(state, 2, PlayerInfo("Cara", ai=True))
    text = GAME.status_text(state)
    assert "Rumble 1 of 3" in text and "12 of 12" in text
    assert f"It's {NAMES[state.turn]}'s turn." in text
    assert "Cara (AI) 0" in text and "The Warren" in text
    assert not any(c.name in text for c in state.characters)


def test_set_player_renames_and_hands_to_the_ai() -> None:
    state, _ = GAME.setup(players(2), 1, {})
    new = GAME.set_player(state, 1, PlayerInfo("Robo", ai=True))
    assert new.players == ["Alice", "Robo"] and new.ai == [False, True]
    assert state.players == ["Alice", "Bob"]
    with pytest.raises(IllegalAction):
        GAME.set_player(state, 5, PlayerInfo("X"))


def test_dump_and_load_round_trip_through_json() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY, MEDIUM: LIBRARY},
                    portals={LIBRARY: [ABYSS]})
    new, _ = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
    assert new.pending is not None
    raw = json.loads(json.dumps(GAME.dump(new)))
    again = GAME.load(raw)
    assert GAME.dump(again) == GAME.dump(new)
    after_load, _ = GAME.apply(again, 0, choose(0))
    assert after_load.to_dict() == GAME.apply(new, 0, choose(0))[0].to_dict()


def test_rules_topics() -> None:
    topics = GAME.rules_topics()
    assert set(topics) >= {"overview", "setup", "turn", "move", "fight", "portals", "abyss",
                           "teleport", "scoring", "rumbles", "winning", "rulings"}
    assert "reached" in topics["rulings"] and "clockwise" in topics["rulings"]
    assert "share the win" in topics["rulings"]


def play_randomly(seed: int, count: int, steps: int = 3000) -> tuple[CthulhuState, list[Event]]:
    state, events = GAME.setup(players(count), seed, {})
    rng = Rng(seed)
    for _ in range(steps):
        if state.over:
            break
        seat = GAME.to_act(state)
        assert seat is not None
        options = GAME.options(state, seat)
        fights = [o for o in options if o.group == "Fight"]
        pool = fights if fights and rng.below(3) == 0 else options
        state, more = GAME.apply(state, seat, rng.choice(pool).action)
        events += more
    return state, events


def assert_no_public_leaks(state: CthulhuState, events: list[Event]) -> None:
    """Before a rumble is scored, no public event ties a seat to a character.

    Checks: no public event carries seat/character data (`secrets`) unless it is the
    scoring event; no public text repeats a private text or says "your"; no public text
    names a player next to an ownership word.
    """
    private_texts = {e.text for e in events if not e.audience.is_public}
    assert private_texts
    owning = re.compile(r"\b(own|owns|owned|has|had|holds?|secret|belongs?)\b", re.IGNORECASE)
    characters = [c.name for c in state.characters]
    for event in events:
        if not event.audience.is_public:
            assert event.audience.kind == "player"
            continue
        if "rumble_scored" in event.data:
            assert "secrets" in event.data
            continue
        assert "secrets" not in event.data
        assert "your" not in event.text.lower()
        assert not any(text in event.text for text in private_texts)
        for player in state.players:
            for match in re.finditer(re.escape(player), event.text):
                after = event.text[match.end():match.end() + 40]
                claims = owning.search(after) and any(name in after for name in characters)
                assert not claims, event.text


@pytest.mark.parametrize("count", [2, 3, 6])
def test_secrets_never_leak_in_public_before_scoring(count: int) -> None:
    state, events = play_randomly(17 + count, count)
    assert state.over
    assert sum(1 for e in events if "rumble_scored" in e.data) == 3
    assert_no_public_leaks(state, events)
    # Each private event goes to one seat and names only that seat's characters.
    rumble_secrets = [r.secrets for r in state.results]
    for event in events:
        if event.kind == "secret":
            seat = int(event.audience.ref)
            assert event.data["secrets"] == rumble_secrets[event.data["rumble"] - 1][seat]


def test_every_line_the_engine_says_is_in_texts_yaml() -> None:
    source = Path(rules_module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'(?:say|cthulhu_line)\(\s*f?"([a-z_.{}]+)"', source))
    keys |= {f"events.{k}" for k in ("move", "move_one_portal", "move_portals", "flip_abyss",
                                     "flip_teleport")}
    keys |= {"errors.unknown_character", "errors.unknown_room"}
    for key in keys:
        if "{" not in key:
            assert content.text(key)
    assert len(keys) > 40
