"""Cthulhu in the House (seed 002), a fourth rules audit, sentence by sentence: what the
first three passes left unquoted (the box's contents, one portal flipped of several,
the house set anew between rumbles whatever the portals did, a fresh deal of secrets
each rumble). Each test quotes the sentence it checks, and drives the engine."""

from __future__ import annotations

from collections import Counter

from bot.core.events import Event
from bot.games.cthulhu import GAME, content, layouts
from bot.games.cthulhu.rules import PORTALS, PORTALS_IN_HOUSE, SECRETS_EACH
from bot.games.cthulhu.state import (
    ABYSS,
    LAST_STANDING_POINTS,
    RUMBLES,
    TELEPORT,
    CthulhuState,
)
from tests.test_cthulhu_rules import (
    CELLAR,
    HEIRESS,
    LIBRARY,
    MEDIUM,
    PROFESSOR,
    arrange,
    assert_portals_conserved,
    choose,
    fight,
    players,
)


def test_the_box_holds_what_the_contents_list() -> None:
    """Contents: '6 Portal Tokens, 12 Colored Player Markers, 12 Characters, Scoring
    Track, 12 Room Tiles, 12 Secret Character Tokens'. Setup: 'Shuffle the 6 portals and
    place 3 of them ... keeping the remaining 3 portals (face-down) next to the house.
    Give each player two secret character tokens'. Objective: 'over three rumbles'.
    Scoring: 'The owner of the last character remaining in the house scores 10
    points.' Six players hold the twelve secret tokens between them."""
    assert len(PORTALS) == 6 and Counter(PORTALS) == Counter({ABYSS: 3, TELEPORT: 3})
    assert PORTALS_IN_HOUSE == 3 and SECRETS_EACH == 2
    assert RUMBLES == 3 and LAST_STANDING_POINTS == 10
    assert len(content.characters()) == 12 and len(content.room_names()) == 12
    for key in layouts.layout_keys():
        if key != "random":
            assert len(layouts.builtin_layouts()[key].slots) == 12
    state, _ = GAME.setup(players(6), 4, {})
    assert sorted(c for pair in state.secrets for c in pair) == list(range(12))
    assert (GAME.min_players, GAME.max_players) == (2, 6)


def test_a_fight_flips_one_portal_of_several() -> None:
    """'If you Start a fight in a room containing one or more portals, after the fight
    is resolved, you must flip over one of the portals in the room'. Three portals lie
    in the Library (carried there): one flips, and once it is replaced the Library still
    holds three."""
    for seed in range(10):
        state = arrange(seed=seed, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY,
                                          MEDIUM: LIBRARY, 3: CELLAR},
                        portals={LIBRARY: [ABYSS, TELEPORT, ABYSS]})
        new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
        flips = [e for e in events if e.kind == "portal" and "portal" in e.data]
        assert len(flips) == 1
        while new.pending is not None:
            last = len(new.pending.labels) - 1  # abyss: the Medium; teleport: no one
            new, more = GAME.apply(new, 0, choose(last))
            events += more
        assert len(new.room_portals[LIBRARY]) == 3
        assert_portals_conserved(new)


def _last_fight_with_portals_gathered(seed: int) -> tuple[CthulhuState, list[Event]]:
    """The last fight of rumble 1, all three house portals carried into the Cellar and
    none in the Library where it happens: the Heiress goes, the Professor is left."""
    state = arrange(seed=seed, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY},
                    removed=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    portals={CELLAR: [ABYSS, ABYSS, TELEPORT]})
    return GAME.apply(state, 0, fight(LIBRARY, HEIRESS))


def test_the_next_rumble_sets_the_house_anew() -> None:
    """'Once scoring is done, put all characters back in the house, shuffle all
    portals and place 3 of them, face-down, in random rooms'. However the portals lay
    at the end (all three gathered in one room), rumble 2 has one character in every
    room, three portals in three rooms (docs/rulings.md 2) and three beside the house,
    which three lie in the house changing with the shuffle."""
    in_house: set[tuple[str, ...]] = set()
    for seed in range(20):
        new, _ = _last_fight_with_portals_gathered(seed)
        assert new.rumble == 2 and None not in new.location
        assert sorted(r for r in new.location if r is not None) == list(range(12))
        holding = [r for r in range(12) if new.room_portals[r]]
        assert len(holding) == 3 and all(len(new.room_portals[r]) == 1 for r in holding)
        assert len(new.reserve) == 3
        assert_portals_conserved(new)
        in_house.add(tuple(sorted(k for r in holding for k in new.room_portals[r])))
    assert len(in_house) > 1


def test_each_rumble_deals_two_new_secret_characters() -> None:
    """'shuffle and deal two new secret characters to each player'. Rumble 2's pairs
    are a new deal (two each, no character twice), not rumble 1's kept; each seat is
    told its own new pair alone."""
    changed = False
    for seed in range(10):
        state = arrange(seed=seed, where={PROFESSOR: LIBRARY, HEIRESS: LIBRARY},
                        removed=[2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        before = [list(pair) for pair in state.secrets]
        new, events = GAME.apply(state, 0, fight(LIBRARY, HEIRESS))
        assert [len(pair) for pair in new.secrets] == [2, 2, 2]
        assert len({c for pair in new.secrets for c in pair}) == 6
        changed = changed or new.secrets != before
        told = {e.audience.ref: e.data["secrets"] for e in events
                if not e.audience.is_public and e.kind == "secret"}
        assert told == {str(seat): pair for seat, pair in enumerate(new.secrets)}
    assert changed
