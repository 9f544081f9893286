"""Cthulhu in the House AI: always legal, not foolish, and not an open book."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from bot.core.actions import Action
from bot.core.rng import Rng
from bot.games.base import PlayerInfo
from bot.games.cthulhu import GAME
from bot.games.cthulhu.ai import keeper_and_decoy
from bot.games.cthulhu.state import ABYSS, TELEPORT, CthulhuState, salts_dealt
from tests.test_cthulhu_rules import (
    ATTIC,
    BALLROOM,
    BUTLER,
    CELLAR,
    CHAPEL,
    CRYPT,
    DETECTIVE,
    GALLERY,
    HEIRESS,
    KITCHEN,
    LIBRARY,
    MEDIUM,
    PAINTER,
    PARLOUR,
    PROFESSOR,
    SAILOR,
    STUDY,
    arrange,
    choose,
    fight,
    move,
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
        assert GAME.ai_action(state, seat) == action  # deterministic for a state
        seen += 1
    assert seen > 2000


def test_the_ai_never_throws_out_its_own_keeper() -> None:
    fights = 0
    for state, seat in situations():
        keeper, _ = keeper_and_decoy(state, seat)
        action = GAME.ai_action(state, seat)
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
        action = GAME.ai_action(state, seat)
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
        state.turns_played = seed  # the AI's mood follows the public table (its view)
        assert GAME.ai_action(state, 0) == fight(LIBRARY, MEDIUM)


def test_fights_beat_shuffling_when_the_keeper_is_safe() -> None:
    state, _, _ = keeper_state(where={PROFESSOR: ATTIC, MEDIUM: CELLAR, DETECTIVE: CELLAR,
                                      SAILOR: CRYPT, 11: STUDY})
    kinds = Counter()
    for seed in range(40):
        state.turns_played = seed  # the AI's mood follows the public table (its view)
        kinds[GAME.ai_action(state, 0).kind] += 1
    assert kinds["fight"] > 30


def test_the_keeper_does_not_walk_into_company() -> None:
    # The Professor (keeper) is alone in the Library; the Study next door is busy.
    state, _, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: STUDY, DETECTIVE: STUDY,
                                      HEIRESS: CRYPT})
    for seed in range(40):
        state.turns_played = seed  # the AI's mood follows the public table (its view)
        action = GAME.ai_action(state, 0)
        assert action != Action("move", {"character": PROFESSOR, "room": STUDY})


def test_the_ai_resolves_an_abyss_choice_without_losing_its_keeper() -> None:
    state, keeper, _ = keeper_state(where={PROFESSOR: LIBRARY, MEDIUM: LIBRARY,
                                           DETECTIVE: LIBRARY, SAILOR: CELLAR},
                                    portals={LIBRARY: [ABYSS]})
    state, _ = GAME.apply(state, 0, fight(LIBRARY, MEDIUM))
    assert state.pending is not None and state.pending.kind == "abyss"
    for seed in range(20):
        state.turns_played = seed  # the AI's mood follows the public table (its view)
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
        state.turns_played = seed  # the AI's mood follows the public table (its view)
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
        state.turns_played = seed  # the AI's mood follows the public table (its view)
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


# ---------------------------------------------------------------- playing with purpose

def path_length(state: CthulhuState, a: int, b: int) -> int:
    """Fewest moves from room a to room b over the passages (worked out independently)."""
    seen = {a: 0}
    frontier = [a]
    while frontier:
        room = frontier.pop(0)
        for there in state.neighbours(room):
            if there not in seen:
                seen[there] = seen[room] + 1
                frontier.append(there)
    return seen[b]


def gap(state: CthulhuState) -> int:
    """How far apart the closest two characters still in the house are."""
    rooms = [state.location[c] for c in state.remaining()]
    return min(path_length(state, a, b) for i, a in enumerate(rooms) for b in rooms[i + 1:]
               if a is not None and b is not None)


# Seat 0 owns the Professor and the Heiress, seat 1 the Medium and the Detective, seat 2
# the Sailor and the Painter; the Butler belongs to nobody.
OWNERS = [[PROFESSOR, HEIRESS], [MEDIUM, DETECTIVE], [SAILOR, PAINTER]]
LAST_TWO = [(PROFESSOR, MEDIUM), (MEDIUM, SAILOR), (PROFESSOR, HEIRESS), (PROFESSOR, BUTLER)]


def last_two(first: int, second: int, rooms: tuple[int, int], turn: int,
             seed: int) -> CthulhuState:
    state = arrange(where={first: rooms[0], second: rooms[1]}, secrets=OWNERS, turn=turn)
    state.turns_played = seed  # the AI's mood follows the public table (its view)
    return state


def test_the_last_two_lone_characters_close_in_whoever_owns_them() -> None:
    """With no fight to start, every seat (owner of one, of both, of neither) walks one of
    the last two a step closer to the other: no wandering off while they are apart."""
    state = arrange()
    far = [(a, b) for a in range(12) for b in range(12) if path_length(state, a, b) >= 2]
    assert len(far) > 80 and max(path_length(state, a, b) for a, b in far) >= 5
    for pair in LAST_TWO:
        for a, b in far:
            for turn in range(3):
                for seed in (turn, turn + 3):
                    state = last_two(*pair, rooms=(a, b), turn=turn, seed=seed)
                    action = GAME.ai_action(state, turn)
                    assert action.kind == "move"
                    after, _ = GAME.apply(state, turn, action)
                    assert gap(after) == gap(state) - 1, (pair, a, b, turn, action)


def test_the_last_two_are_brought_together_even_at_the_keepers_risk() -> None:
    """Next door to each other, they meet: the keeper may go out 11th (one point less than
    surviving) rather than the rumble stalling, since no other move makes progress."""
    state = arrange()
    near = [(a, b) for a in range(12) for b in state.neighbours(a)]
    for pair in LAST_TWO:
        for a, b in near:
            for turn in range(3):
                state = last_two(*pair, rooms=(a, b), turn=turn, seed=a + b)
                after, _ = GAME.apply(state, turn, GAME.ai_action(state, turn))
                assert gap(after) == 0, (pair, a, b, turn)


def test_strangers_close_in_while_the_keeper_keeps_out_of_company() -> None:
    """Three left: the Professor (seat 0's keeper) next door to the Medium, the Sailor two
    rooms from the Medium. The AI brings the strangers together; it does not walk its
    keeper, or let the Medium walk, into a shared room while that safer way is open."""
    state, keeper, _ = keeper_state(where={PROFESSOR: ATTIC, MEDIUM: PARLOUR, SAILOR: GALLERY})
    assert path_length(state, PARLOUR, GALLERY) == 2
    moved = Counter()
    for seed in range(60):
        state.turns_played = seed  # the AI's mood follows the public table (its view)
        action = GAME.ai_action(state, 0)
        assert action not in (move(PROFESSOR, PARLOUR), move(MEDIUM, ATTIC))
        after, _ = GAME.apply(state, 0, action)
        where = after.location[keeper]
        assert where is not None and after.in_room(where) == [keeper]
        medium, sailor = after.location[MEDIUM], after.location[SAILOR]
        assert medium is not None and sailor is not None
        moved[path_length(after, medium, sailor)] += 1
    assert moved[1] >= 45  # mostly one stranger steps towards the other


def test_closing_in_still_leaves_room_for_chance() -> None:
    """Several lone characters and no fight: seeds change which move makes progress."""
    state = arrange(where={PROFESSOR: ATTIC, MEDIUM: CHAPEL, SAILOR: KITCHEN, BUTLER: STUDY,
                           PAINTER: BALLROOM}, secrets=OWNERS)
    assert not [o for o in GAME.options(state, 0) if o.group == "Fight"]
    picks = Counter()
    for seed in range(40):
        state.turns_played = seed  # the AI's mood follows the public table (its view)
        action = GAME.ai_action(state, 0)
        assert action.kind == "move"
        after, _ = GAME.apply(state, 0, action)
        assert gap(after) <= gap(state)
        picks[str(action.args)] += 1
    assert len(picks) >= 3


def rumble_lengths(count: int, seed: int, cap: int = 3000) -> list[int]:
    """Actions (moves, fights and picks) each rumble of an AI-only game took."""
    state, _ = GAME.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(count)], seed, {})
    lengths: list[int] = []
    actions = 0
    for _ in range(cap):
        if state.over:
            break
        seat = GAME.to_act(state)
        assert seat is not None
        rumble = state.rumble
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        actions += 1
        if state.over or state.rumble != rumble:
            lengths.append(actions)
            actions = 0
    assert state.over, f"{count} players, seed {seed}: the game did not end"
    return lengths


def test_ai_rumbles_end_in_a_reasonable_number_of_actions() -> None:
    """Fifty 4-player AI-only games: no rumble drags on (before the AI learnt to close in,
    the median rumble took 45 actions and the longest 150; see bench/ai_games.py)."""
    lengths = [n for seed in range(50) for n in rumble_lengths(4, seed)]
    assert len(lengths) == 150
    assert max(lengths) <= 80
    assert sorted(lengths)[len(lengths) // 2] <= 40


def test_ai_rumbles_end_for_every_player_count() -> None:
    for count in (2, 3, 5, 6):
        for seed in range(10):
            assert max(rumble_lengths(count, 500 + seed)) <= 80, (count, seed)


# -- an AI's pair is its own (the salt) ---------------------------------------------------

def _public_only(real: CthulhuState, observer: int, ai_seat: int,
                 candidate: tuple[int, int], rng: Rng) -> CthulhuState:
    """`real` as `observer` could rebuild it with `candidate` as the AI seat's pair: the
    game's Rng thrown away, the face-down portals and the other pairs made up, and no
    salt but 0 (no seat is shown one)."""
    state = GAME.copy_state(real)
    state.rng = Rng(12345)
    kinds = [k for room in state.room_portals for k in room] + state.reserve
    rng.shuffle(kinds)
    for room in state.room_portals:
        room[:] = kinds[:len(room)]
        del kinds[:len(room)]
    state.reserve = kinds
    free = [c for c in range(len(state.characters))
            if c not in real.secrets[observer] and c not in candidate]
    rng.shuffle(free)
    for seat in range(len(state.players)):
        if seat == ai_seat:
            state.secrets[seat] = sorted(candidate)
        elif seat != observer:
            state.secrets[seat] = sorted(free[:2])
            del free[:2]
    state.salts = [0] * len(state.salts)
    return state


def test_an_ais_pair_cannot_be_read_off_its_moves_by_running_the_ai_again() -> None:
    """Seed 002: keep your identity secret. An observer with the engine's code runs the
    AI again for every pair an AI seat might hold, on the table as it sees it, and keeps
    the pairs that choose what the AI chose. Without the seats' salts this named 23 of
    24 AI seats' pairs within a rumble; with them, no pair is named."""
    named = tried = 0
    for seed in range(3):
        info = [PlayerInfo("Human")] + [PlayerInfo(f"AI{i}", ai=True) for i in (1, 2, 3)]
        state, _ = GAME.setup(info, seed, {"layout": "manor"})
        rng = Rng(seed + 1)
        pairs = [p for p in combinations(range(12), 2) if not set(p) & set(state.secrets[0])]
        left = {seat: list(pairs) for seat in (1, 2, 3)}
        for _ in range(12):  # the rumble's first dozen turns: enough to name most, before
            seat = GAME.to_act(state)
            assert seat is not None
            if seat == 0:
                action = rng.choice(GAME.options(state, seat)).action
            else:
                action = GAME.ai_action(state, seat)
                left[seat] = [p for p in left[seat] if GAME.ai_action(
                    _public_only(state, 0, seat, p, rng), seat) == action]
            state, _ = GAME.apply(state, seat, action)
            if state.rumble > 1:
                break
        for seat in (1, 2, 3):
            tried += 1
            named += left[seat] == [tuple(sorted(state.secrets[seat]))]
    assert tried == 9 and named == 0


def test_a_seats_view_keeps_its_own_salt_and_blanks_the_others() -> None:
    state, _ = GAME.setup(players(4), 11, {})
    assert len(set(state.salts)) == 4 and all(state.salts)
    for seat in range(4):
        view = GAME.seat_view(state, seat)
        assert view.salts == [state.salts[seat] if s == seat else 0 for s in range(4)]
    again, _ = GAME.setup(players(4), 11, {})
    assert again.salts == state.salts  # from the seed: a replay deals the same
    other, _ = GAME.setup(players(4), 12, {})
    assert other.salts != state.salts


def test_the_salt_moves_the_ais_choices_and_others_salts_do_not() -> None:
    """The salt is the AI's own coin: with another salt it would sometimes choose
    otherwise; another seat's salt changes nothing it does."""
    differs = 0
    seen = 0
    for state, seat in situations(6):
        if len(GAME.options(state, seat)) < 3:
            continue
        seen += 1
        action = GAME.ai_action(state, seat)
        resalted = GAME.copy_state(state)
        resalted.salts = [s + 1 if i == seat else s for i, s in enumerate(state.salts)]
        differs += GAME.ai_action(resalted, seat) != action
        others = GAME.copy_state(state)
        others.salts = [s if i == seat else s ^ 0xFFFF for i, s in enumerate(state.salts)]
        assert GAME.ai_action(others, seat) == action
    assert seen >= 100 and differs >= seen // 10


def test_a_state_stored_before_salts_loads_with_none() -> None:
    state, _ = GAME.setup(players(3), 5, {})
    raw = state.to_dict()
    del raw["salts"]
    upgraded = salts_dealt(raw)
    assert upgraded["salts"] == []
    assert GAME.ai_action(CthulhuState.from_dict(upgraded), GAME.to_act(state) or 0) in [
        o.action for o in GAME.options(state, GAME.to_act(state) or 0)]
