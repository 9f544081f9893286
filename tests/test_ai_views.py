"""Every AI decides from its seat's view of the game, never from the state itself.

The door: `Game.ai_action` / `ai_offer` build the seat's view and hand only it on; no
game overrides them, and every AI entry point refuses anything but a view. The proof
that no secret leaks through: a state and its "shadow", a copy that differs only in
what the seat may not know (decks and stacks in another order, other players' secrets
dealt otherwise, another Rng), give the seat the same view and the AI the same move.
The shadows are made here, independently of the games' knowledge.py, by what the
rulebooks keep face down. And deciding changes nothing: not the state, not its Rng.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import islice
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.choices import PendingChoice
from bot.core.formats import FORMAT_KEY
from bot.core.rng import Rng
from bot.core.views import is_view, mark
from bot.games import walk_games
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.betrayal import ai as betrayal_ai
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import ai as haunt_ai
from bot.games.betrayal.haunting import base as haunt_base
from bot.games.betrayal.haunting import sides
from bot.games.betrayal.haunting.plugins import better_with_friends as bwf
from bot.games.betrayal.knowledge import house_view
from bot.games.betrayal.state import BetrayalState
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.ai import choose_action as cthulhu_choose
from bot.games.cthulhu.state import CthulhuState
from bot.games.evilbelow import GAME as EVIL_BELOW
from bot.games.evilbelow import ai as eb_ai
from bot.games.evilbelow import content as eb_content
from bot.games.evilbelow.state import FIGHT, EvilBelowState
from bot.games.neibolt.scenarios import separate_nightmares as sn
from tests.betrayal_haunt_helpers import answer_pending, begin, edition_of, house

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _same_view_and_move(game: Game[Any], state: Any, shadow: Any, seat: int) -> Any:
    """The seat sees the same in both, and its AI picks the same move; neither state
    is changed by the deciding."""
    before = game.dump(state)
    assert game.dump(game.seat_view(state, seat)) == game.dump(game.seat_view(shadow, seat))
    move = game.ai_action(state, seat)
    assert move == game.ai_action(shadow, seat)
    assert game.dump(state) == before
    return move


# ---------------------------------------------------------------- the door

def test_no_game_overrides_the_door_to_its_ai() -> None:
    games = list(walk_games())
    assert {g.key for g in games} >= {"betrayal", "cthulhu", "evilbelow"}
    for game in games:
        assert type(game).ai_action is Game.ai_action, game.key
        assert type(game).ai_offer is Game.ai_offer, game.key


def test_every_ai_entry_point_refuses_the_state_itself() -> None:
    eb, _ = EVIL_BELOW.setup([PlayerInfo("a", True), PlayerInfo("b", True)], 1, {})
    ct, _ = CTHULHU.setup([PlayerInfo("a", True), PlayerInfo("b", True)], 1, {})
    haunted = answer_pending(begin(house(4, 1), "a_little_night_murder")[0])
    for call in (lambda: eb_ai.choose(eb, 0), lambda: eb_ai.offer(eb, 1),
                 lambda: cthulhu_choose(ct, ct.turn),
                 lambda: betrayal_ai.choose_action(haunted, haunted.turn.seat),
                 lambda: haunt_ai.monster_action(haunted)):
        with pytest.raises(TypeError, match="view"):
            call()


@pytest.mark.parametrize("game", [CTHULHU, EVIL_BELOW, BETRAYAL], ids=lambda g: g.key)
def test_the_ai_is_handed_a_fresh_view_and_leaves_the_state_alone(game: Game[Any]) -> None:
    players = [PlayerInfo(f"AI{i}", True) for i in range(4)]
    state, _ = game.setup(players, 7, {})
    handed: list[Any] = []
    real = type(game).decide

    def spy(self: Game[Any], view: Any, seat: int) -> Any:
        handed.append(view)
        return real(self, view, seat)

    with mock.patch.object(type(game), "decide", spy):
        for _ in range(30):
            seat = game.to_act(state)
            assert seat is not None
            before, rng = game.dump(state), state.rng.state
            action = game.ai_action(state, seat)
            assert game.dump(state) == before and state.rng.state == rng
            assert handed[-1] is not state and is_view(handed[-1])
            assert game.dump(handed[-1]) == game.dump(game.seat_view(state, seat))
            state, _ = game.apply(state, seat, action)
    assert len(handed) == 30


# ---------------------------------------------------------------- Cthulhu in the House

def cthulhu_shadow(state: CthulhuState, seat: int, rng: Rng) -> CthulhuState:
    """Seed 002: the other players' pairs (until the last rumble is scored) and the
    portals' kinds are face down."""
    new = CTHULHU.copy_state(state)
    new.rng = Rng(rng.next_u64())
    if not new.over:
        pool = [c for c in range(len(new.characters)) if c not in new.secrets[seat]]
        rng.shuffle(pool)
        for other in range(len(new.secrets)):
            if other != seat:
                new.secrets[other] = sorted(pool[:2])
                del pool[:2]
    kinds = [k for room in new.room_portals for k in room] + new.reserve
    rng.shuffle(kinds)
    for room in new.room_portals:
        room[:] = [kinds.pop() for _ in room]
    new.reserve = kinds
    return new


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), other=st.integers(1, 10**6))
def test_cthulhu_ai_ignores_others_secrets_and_the_portals(seed: int, steps: int,
                                                           other: int) -> None:
    count = 2 + seed % 5
    state, _ = CTHULHU.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed, {})
    picks = Rng(seed)
    for _ in range(steps):
        seat = CTHULHU.to_act(state)
        if seat is None:
            return
        action = CTHULHU.ai_action(state, seat) if seat % 2 == 0 else \
            picks.choice(CTHULHU.options(state, seat)).action
        state, _ = CTHULHU.apply(state, seat, action)
    seat = CTHULHU.to_act(state)
    if seat is not None:
        _same_view_and_move(CTHULHU, state, cthulhu_shadow(state, seat, Rng(other)), seat)


# ---------------------------------------------------------------- IT: Evil Below

def eb_shadow(state: EvilBelowState, rng: Rng) -> EvilBelowState:
    """Seed 001: the totem deck and the attack pile, the unseen cards of the Fight Stack
    and its order (but for the card Stan's look showed, while it is next), the victims
    still face down, each weakness stack under its top card."""
    new = EVIL_BELOW.copy_state(state)
    new.rng = Rng(rng.next_u64())
    stack, hidden = new.fight_stack, set(new.stack_hidden)
    for is_attack, pile in ((False, new.totem_deck), (True, new.attack_pile)):
        slots = [i for i, c in enumerate(stack)
                 if c in hidden and eb_content.is_attack(c) == is_attack]
        pool = pile + [stack[i] for i in slots]
        rng.shuffle(pool)
        for i in slots:
            stack[i] = pool.pop()
        pile[:] = pool
    new.stack_hidden = [stack[i] for i, c in enumerate(state.fight_stack) if c in hidden]
    fight = new.fight
    keep = 1 if stack and fight is not None and fight.peeked \
        and fight.peek_at == len(fight.revealed) else 0
    rest = stack[:len(stack) - keep]
    rng.shuffle(rest)
    stack[:len(rest)] = rest
    spots = [(w, i) for w, row in enumerate(new.circles) for i, t in enumerate(row)
             if t is not None and t not in new.face_up]
    tokens = [new.circles[w][i] for w, i in spots]
    rng.shuffle(tokens)
    for (w, i), token in zip(spots, tokens, strict=True):
        new.circles[w][i] = token
    for weak in new.weakness_stacks:
        below = weak[:-1]
        rng.shuffle(below)
        weak[:-1] = below
    return new


def eb_states(count: int, seed: int) -> Iterator[EvilBelowState]:
    """Every state an AI table of Evil Below passes through (offers asked first)."""
    state, _ = EVIL_BELOW.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed, {})
    for _ in range(3000):
        if state.over:
            return
        yield state
        actor = EVIL_BELOW.to_act(state)
        assert actor is not None
        move = next(((s, a) for s in EVIL_BELOW.out_of_turn(state)
                     if (a := EVIL_BELOW.ai_offer(state, s)) is not None), None)
        seat, action = move or (actor, EVIL_BELOW.ai_action(state, actor))
        state, _ = EVIL_BELOW.apply(state, seat, action)


@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 400), other=st.integers(1, 10**6))
def test_evil_below_ai_ignores_what_lies_face_down(seed: int, steps: int, other: int) -> None:
    state = list(islice(eb_states(2 + seed % 6, seed), steps + 1))[-1]
    shadow = eb_shadow(state, Rng(other))
    actor = EVIL_BELOW.to_act(state)
    assert actor is not None
    _same_view_and_move(EVIL_BELOW, state, shadow, actor)
    for seat in EVIL_BELOW.out_of_turn(state):  # a Bike ride, Eddie's cards
        assert EVIL_BELOW.ai_offer(state, seat) == EVIL_BELOW.ai_offer(shadow, seat)


@cache
def fight_states() -> list[EvilBelowState]:
    """Reveal-or-stop decisions met in AI games, with unseen cards in the stack."""
    found: list[EvilBelowState] = []
    for seed in range(40):
        for state in eb_states(3 + seed % 4, seed):
            if state.phase == FIGHT and state.pending is None and state.fight is not None \
                    and state.fight.from_stack() >= 1 and state.stack_hidden:
                found.append(state)
        if len(found) >= 40:
            break
    return found


def test_evil_below_reveals_or_stops_without_reading_the_fight_stack() -> None:
    """The issue's case: whether to turn the next card is decided from what the table
    knows of the Fight Stack (how many attack cards, which totems went in openly), not
    from the cards themselves."""
    moves = []
    for i, state in enumerate(fight_states()):
        for other in range(4):
            shadow = eb_shadow(state, Rng(1000 * i + other))
            move = _same_view_and_move(EVIL_BELOW, state, shadow, state.turn)
        moves.append(move.kind)
    assert len(moves) >= 20
    assert {"reveal", "stop"} <= set(moves)


def test_the_check_would_catch_an_ai_that_reads_the_fight_stack() -> None:
    """The AI as it was before it had views (handed the state itself, and taking every
    totem in the Fight Stack as known) tells shadows apart: the check above has teeth."""
    def cheat(state: EvilBelowState, seat: int) -> EvilBelowState:
        return mark(EVIL_BELOW.copy_state(state))

    def all_known(state: EvilBelowState) -> tuple[list[int], int, list[int]]:
        return sorted(c for c in state.fight_stack if not eb_content.is_attack(c)), 0, []

    differ = 0
    with mock.patch.object(type(EVIL_BELOW), "seat_view", lambda self, s, seat: cheat(s, seat)), \
            mock.patch.object(eb_ai, "stack_totems", all_known):
        for i, state in enumerate(fight_states()):
            for other in range(4):
                shadow = eb_shadow(state, Rng(1000 * i + other))
                differ += EVIL_BELOW.ai_action(state, state.turn) != \
                    EVIL_BELOW.ai_action(shadow, state.turn)
    assert differ > 0


def test_evil_below_keeps_what_went_into_the_fight_stack_openly() -> None:
    """A totem put in from a face-up hand stays itself in every view; the six totems
    and the attack card of setup, and an attack card put in unseen, are dealt anew."""
    state, place = next((s, o.action) for s in eb_states(4, 11)
                        for o in EVIL_BELOW.options(s, s.turn) if o.action.kind == "place")
    placed = place.int_arg("card")
    state, _ = EVIL_BELOW.apply(state, state.turn, place)
    assert placed not in state.stack_hidden
    assert len(state.stack_hidden) == 7  # setup's, none seen yet
    views = [EVIL_BELOW.seat_view(eb_shadow(state, Rng(n)), 0) for n in range(1, 30)]
    assert all(placed in v.fight_stack for v in views)
    assert len({tuple(sorted(v.fight_stack)) for v in views}) == 1  # same in every shadow
    truth = EVIL_BELOW.seat_view(state, 0)
    assert placed in truth.fight_stack and placed not in truth.stack_hidden


def test_an_evil_below_game_stored_before_it_counted_what_was_seen_hides_its_stack() -> None:
    state, _ = EVIL_BELOW.setup([PlayerInfo("a", True), PlayerInfo("b", True)], 5, {})
    raw = EVIL_BELOW.dump(state)
    del raw["stack_hidden"], raw[FORMAT_KEY]  # as format 0 stored it, before the count
    assert EVIL_BELOW.load(raw).stack_hidden == state.fight_stack


# ---------------------------------------------------------------- Betrayal

def _placing(state: BetrayalState) -> set[str]:
    return {str(step[name]["room"]) for frame in state.script for step in frame.steps
            for name in ("_place", "_place_spot") if name in step}


def betrayal_shadow(state: BetrayalState, seat: int | None, rng: Rng) -> BetrayalState:
    """Seed 003: the decks' and the room stack's order (a tile being placed lies face up
    on top); the haunt's secrets the seat was not told (seed 003's two books; our
    haunts' notes say which)."""
    new = BETRAYAL.copy_state(state)
    new.rng = Rng(rng.next_u64())
    for deck in new.decks.values():
        rng.shuffle(deck)
    keep = 1 if new.stack and new.stack[0] in _placing(new) else 0
    rest = new.stack[keep:]
    rng.shuffle(rest)
    new.stack[keep:] = rest
    haunt = new.haunt
    if haunt is None or (seat is not None and sides.is_traitor(new, seat)):
        return new
    progress = haunt.progress
    if haunt.key == "the_ghost_bride" and progress.get("lover") is not None:
        progress["lover"] = rng.choice(sides.heroes(new, alive=False))
    if haunt.key == bwf.KEY and progress.get("canoe") is not None \
            and not progress.get("found"):
        flotsam = [i for i in range(len(new.tiles)) if bwf.has_token(new, i, bwf.FLOTSAM)]
        progress["canoe"] = rng.choice(flotsam)
    if haunt.key == sn.KEY and progress.get("hand"):
        played = [k for k in sn.plugin().deal(new) if k not in progress["hand"]]
        unplayed = [k for k in sn.plugin().nightmares() if k not in played]
        progress["hand"] = rng.sample(unplayed, len(progress["hand"]))
    return new


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 250), other=st.integers(1, 10**6))
def test_betrayal_explorers_ignore_the_decks_and_the_room_stack(seed: int, steps: int,
                                                                other: int) -> None:
    count = 3 + seed % 4
    expansion = "neibolt" if seed % 2 else "classic"
    state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}", True) for i in range(count)], seed,
                              {"today": "06-01", "expansion": expansion})
    for _ in range(steps):
        if state.over:
            return
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))
    seat = BETRAYAL.to_act(state)
    if seat is not None:
        _same_view_and_move(BETRAYAL, state, betrayal_shadow(state, seat, Rng(other)), seat)


def test_a_choice_only_its_chooser_may_read_is_blank_in_anothers_view() -> None:
    """A Crystal Ball's look lists a deck's cards to its holder alone (a private choice):
    the holder's view keeps them, anyone else's shows that a choice is being made."""
    state, _ = BETRAYAL.setup([PlayerInfo(f"P{i}", True) for i in range(3)], 4, {})
    state.pending = PendingChoice(seat=1, prompt="Which card?", kind="crystal_ball_card",
                                  labels=["Bite", "Skull"], payload={"cards": ["bite"]},
                                  private=True)
    mine, theirs = BETRAYAL.seat_view(state, 1), BETRAYAL.seat_view(state, 0)
    assert mine.pending is not None and mine.pending.labels == ["Bite", "Skull"]
    assert theirs.pending is not None and theirs.pending.labels == ["?", "?"]
    assert theirs.pending.payload == {} and state.pending.payload == {"cards": ["bite"]}


HAUNTS = sorted(haunts())


@pytest.mark.parametrize("key", HAUNTS)
def test_each_side_of_each_haunt_plays_from_its_own_book(key: str) -> None:
    """An AI game of the haunt, every third decision (and each side's first three, in a
    short game) checked against a shadow: the heroes', the traitor's and its monsters'
    (and the house's, when it plays)."""
    state = answer_pending(begin(house(4, 1, edition=edition_of(key)), key)[0])
    checked: dict[str, int] = {"heroes": 0, "traitor": 0, "house": 0}
    for n in range(1500):
        if state.over:
            break
        seat = BETRAYAL.to_act(state)
        assert seat is not None
        side = sides.side_of(state, seat)
        if n % 3 == 0 or checked[side] < 3:  # and each side's first three, however short
            shadow = betrayal_shadow(state, seat, Rng(n + 1))
            _same_view_and_move(BETRAYAL, state, shadow, seat)
            checked[side] += 1
            if haunt_base.for_state(state).cooperative:
                _same_house(state, n)
                checked["house"] += 1
        state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))
    assert state.over
    assert checked["heroes"] >= 5
    cooperative = haunt_base.for_state(state).cooperative
    assert checked["traitor" if not cooperative else "house"] >= (0 if cooperative else 3)


def _same_house(state: BetrayalState, n: int) -> None:
    """The house's view hides from it what is hidden from everyone; its monsters, given
    moves to make, step alike in a state and its shadow."""
    shadow = betrayal_shadow(state, None, Rng(n + 7))
    assert BETRAYAL.dump(house_view(state)) == BETRAYAL.dump(house_view(shadow))
    moving, moving_shadow = BETRAYAL.copy_state(state), BETRAYAL.copy_state(shadow)
    for s in (moving, moving_shadow):
        for m in s.monsters:
            m.moves = 3
    assert haunt_ai.monster_action(house_view(moving)) == \
        haunt_ai.monster_action(house_view(moving_shadow))


def test_the_house_plays_its_monsters_from_its_view() -> None:
    """A cooperative haunt's house (the engine playing Pennywise) is handed a view."""
    handed: list[bool] = []
    real = haunt_ai.monster_action

    def spy(state: BetrayalState, *, attack: bool = True) -> Any:
        handed.append(is_view(state) and state.haunt is not None)
        return real(state, attack=attack)

    state = answer_pending(begin(house(4, 1, edition="neibolt"), "the_ritual_of_chud")[0])
    with mock.patch.object(haunt_ai, "monster_action", spy):
        for _ in range(200):
            if state.over:
                break
            seat = BETRAYAL.to_act(state)
            assert seat is not None
            state, _ = BETRAYAL.apply(state, seat, BETRAYAL.ai_action(state, seat))
    assert handed and all(handed)


@pytest.mark.parametrize("key", ["the_ghost_bride", "better_with_friends",
                                 "separate_nightmares"])
def test_a_haunts_secret_is_dealt_anew_for_the_side_not_told(key: str) -> None:
    """The secret itself differs in a hero's view from seed to seed of the view, and
    stays true in the traitor's."""
    state = answer_pending(begin(house(4, 1, edition=edition_of(key)), key)[0])
    assert state.haunt is not None
    traitor = sides.traitor(state)
    assert traitor is not None
    name = {"the_ghost_bride": "lover", "better_with_friends": "canoe",
            "separate_nightmares": "hand"}[key]
    truth = state.haunt.progress[name]
    assert BETRAYAL.seat_view(state, traitor).haunt.progress[name] == truth  # type: ignore[union-attr]
    hero = sides.heroes(state)[0]
    seen = set()
    for n in range(40):
        state.turn.number = n  # a public counter the view is seeded from
        view = BETRAYAL.seat_view(state, hero)
        assert view.haunt is not None
        seen.add(repr(view.haunt.progress[name]))
    assert len(seen) >= 2
