"""Cthulhu in the House AI: always legal, not foolish, and not an open book."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from bot.core.actions import Action
from bot.core.rng import Rng
from bot.games.cthulhu import GAME
from bot.games.cthulhu.ai import choose_action, keeper_and_decoy
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState
from tests.test_cthulhu_rules import (
    ATTIC,
    CELLAR,
    CRYPT,
    DETECTIVE,
    HEIRESS,
    LIBRARY,
    MEDIUM,
    PROFESSOR,
    SAILOR,
    STUDY,
    arrange,
    choose,
    fight,
    players,
)


def games_played(games: int = 24) -> Iterator[tuple[int, CthulhuState, int]]:
    """Decisions met in real games (game number, state, seat to act): AI seats mixed
    with random players."""
    for seed in range(games):
        count = 2 + seed % 5
        state, _ = GAME.setup(players(count), seed, {})
        rng = Rng(seed + 1)
        while not state.over:
            seat = GAME.to_act(state)
            assert seat is not None
            yield seed, state, seat
            if seat % 2 == 0:
                action = GAME.ai_action(state, seat)
            else:
                action = rng.choice(GAME.options(state, seat)).action
            state, _ = GAME.apply(state, seat, action)


def situations(games: int = 24) -> Iterator[tuple[CthulhuState, int]]:
    for _, state, seat in games_played(games):
        yield state, seat


def test_the_ai_always_plays_a_legal_action() -> None:
    seen = 0
    for state, seat in situations():
        before = GAME.dump(state)
        action = GAME.ai_action(state, seat)
        assert GAME.dump(state) == before  # it never draws from the game's Rng
        assert action in [o.action for o in GAME.options(state, seat)]
        GAME.apply(state, seat, action)
        assert choose_action(state, seat) == action  # deterministic for a state
        seen += 1
    assert seen > 2000


def test_the_ai_never_throws_out_its_own_keeper() -> None:
    fights = 0
    for state, seat in situations():
        keeper, _ = keeper_and_decoy(state, seat)
        action = choose_action(state, seat)
        if action.kind == "fight":
            fights += 1
            assert action.args["remove"] != keeper  # a fight always has another target
        if state.pending is not None and state.pending.kind == "abyss":
            candidates = state.pending.payload["candidates"]
            picked = candidates[action.args["pick"]]
            assert picked != keeper or candidates == [keeper]
    assert fights > 300


def test_the_ai_does_not_always_shield_both_of_its_characters() -> None:
    """A player who watches which characters the AI protects must not learn both."""
    decoy_thrown_out = decoy_exposed = decisions = 0
    for state, seat in situations(40):
        keeper, decoy = keeper_and_decoy(state, seat)
        if keeper is None or decoy is None or state.location[decoy] is None:
            continue
        decisions += 1
        action = choose_action(state, seat)
        if action.kind == "fight" and action.args["remove"] == decoy:
            decoy_thrown_out += 1
        after, _ = GAME.apply(state, seat, action)
        room = after.location[decoy]
        if room is not None and action.kind == "move" and len(after.in_room(room)) >= 2:
            decoy_exposed += 1
    assert decisions > 500
    assert decoy_thrown_out > 0
    assert decoy_exposed > 0


def test_the_keeper_is_kept_for_the_whole_rumble() -> None:
    """The keeper stays put while both are inside, then is whichever is still inside."""
    chosen: dict[tuple[str, int, int], int] = {}
    for game, state, seat in games_played(8):
        keeper, decoy = keeper_and_decoy(state, seat)
        pair = state.secrets[seat]
        inside = [c for c in pair if state.location[c] is not None]
        if not inside:
            assert keeper is None and decoy is None
            continue
        assert keeper is not None and {keeper, decoy} == set(pair)
        if len(inside) == 1:
            assert keeper == inside[0]
            continue
        key = (game, state.rumble, seat)
        assert chosen.setdefault(key, keeper) == keeper


def keeper_state(**kw: object) -> tuple[CthulhuState, int, int]:
    """An arranged state where seat 0 keeps the Professor and its decoy is the Heiress."""
    for rumble in (1, 2, 3):
        for pair in ([PROFESSOR, HEIRESS], [HEIRESS, PROFESSOR]):
            state = arrange(secrets=[pair, [MEDIUM, DETECTIVE], [SAILOR, 11]], rumble=rumble,
                            **kw)  # type: ignore[arg-type]
            keeper, decoy = keeper_and_decoy(state, 0)
            if keeper == PROFESSOR and decoy == HEIRESS:
                return state, keeper, decoy
    raise AssertionError("no arrangement keeps the Professor")


def test_an_endgame_fight_is_taken_to_win_the_rumble() -> None:
    state, _, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY},
                               removed=[1, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    for seed in range(20):
        state.rng = Rng(seed)
        assert choose_action(state, 0) == fight(LIBRARY, MEDIUM)


def test_fights_beat_shuffling_when_the_keeper_is_safe() -> None:
    state, _, _ = keeper_state(where={PROFESSOR: ATTIC, MEDIUM: CELLAR, DETECTIVE: CELLAR,
                                      SAILOR: CRYPT, 11: STUDY})
    kinds = Counter()
    for seed in range(40):
        state.rng = Rng(seed)
        kinds[choose_action(state, 0).kind] += 1
    assert kinds["fight"] > 30


def test_the_keeper_does_not_walk_into_company() -> None:
    # The Professor (keeper) is alone in the Library; the Study next door is busy.
    state, _, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: STUDY, DETECTIVE: STUDY,
                                      HEIRESS: CRYPT})
    for seed in range(40):
        state.rng = Rng(seed)
        action = choose_action(state, 0)
        assert action != Action("move", {"character": PROFESSOR, "room": STUDY})


def test_the_ai_resolves_an_abyss_choice_without_losing_its_keeper() -> None:
    state, keeper, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY,
                                           DETECTIVE: LIBRARY, SAILOR: CELLAR},
                                    portals={LIBRARY: [ABYSS]})
    state, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    assert state.pending is not None and state.pending.kind == "abyss"
    for seed in range(20):
        state.rng = Rng(seed)
        action = GAME.ai_action(state, 0)
        assert action.kind == "choose"
        after, _ = GAME.apply(state, 0, action)
        assert after.location[keeper] == LIBRARY


def test_the_ai_teleports_its_keeper_out_of_a_crowd() -> None:
    state, keeper, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY,
                                           DETECTIVE: LIBRARY, SAILOR: CELLAR},
                                    portals={LIBRARY: [TELEPORT]})
    state, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    assert state.pending is not None and state.pending.kind == "teleport_who"
    saved = 0
    for seed in range(20):
        state.rng = Rng(seed)
        current = state
        while current.pending is not None:
            current, _ = GAME.apply(current, 0, GAME.ai_action(current, 0))
        where = current.location[keeper]
        assert where is not None
        saved += len(current.in_room(where)) == 1
    assert saved >= 15


def test_the_ai_can_decline_or_use_a_teleport_it_does_not_need() -> None:
    state, _, _ = keeper_state(where={PROFESSOR: ATTIC, MEDIUM: LIBRARY, DETECTIVE: LIBRARY,
                                      SAILOR: LIBRARY, 11: CELLAR},
                               portals={LIBRARY: [TELEPORT]})
    state, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    picks = Counter()
    for seed in range(30):
        state.rng = Rng(seed)
        action = GAME.ai_action(state, 0)
        picks[state.pending.labels[action.args["pick"]]] += 1  # type: ignore[union-attr]
        after, _ = GAME.apply(state, 0, action)
        if after.pending is not None:  # where to: never into the keeper's room
            destination = after.pending.payload["targets"][
                GAME.ai_action(after, 0).args["pick"]]
            assert destination != ATTIC
    assert len(picks) >= 2


def test_choose_is_the_ai_action_when_a_choice_is_pending() -> None:
    state = arrange(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY, DETECTIVE: LIBRARY},
                    portals={LIBRARY: [ABYSS]})
    state, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    action = GAME.ai_action(state, 0)
    assert action.kind == "choose" and action in [choose(0), choose(1)]
