"""The Ghost Bride (haunt #7): seed 003's outline (a ghost takes hold of the traitor;
she must kill the hero she takes for her lover and keep the body in the Chapel three
turns) and our design (data/betrayal/haunts/the_ghost_bride.yaml): the secret lover,
bodies that say nothing of who the lover was, lifting and laying them, the Chapel's
call, the vigil, the heroes' rite of parting and dawn."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.betrayal import GAME, content, rolls, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import death, flow, sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.the_ghost_bride import (
    BODY,
    CHAPEL,
    KEY,
    TheGhostBride,
    walk_step,
)
from bot.games.betrayal.state import BetrayalState
from bot.texts import fill
from tests.betrayal_haunt_helpers import (
    answer_pending,
    begin,
    house,
    played,
    put,
    turn_of,
)
from tests.test_betrayal_engine_helpers import dice

__all__ = ["dice"]  # a fixture, used by name

PLUGIN = TheGhostBride()


def _start(players: int = 4, seed: int = 1,
           tiles: int = 25) -> tuple[BetrayalState, list[Event]]:
    state, events = begin(house(players, seed, tiles), KEY)
    return answer_pending(state), events


def _cast(state: BetrayalState) -> tuple[int, int, list[int]]:
    """(traitor, lover, the other heroes)."""
    traitor, lover = sides.traitor(state), PLUGIN.lover(state)
    assert traitor is not None and lover is not None
    return traitor, lover, [h for h in sides.heroes(state) if h != lover]


def _chapel(state: BetrayalState) -> int:
    found = state.tile_of(CHAPEL)
    assert found is not None
    return found




def _away(state: BetrayalState, *avoid: int) -> int:
    """A room that is none of these (and not the Chapel)."""
    return next(i for i in range(len(state.tiles))
                if i not in avoid and i != state.tile_of(CHAPEL))


def _options(state: BetrayalState, seat: int) -> list[Action]:
    return [o.action for o in GAME.options(state, seat)]


def _act(what: str) -> Action:
    return Action("act", {"what": what})


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_the_lover_is_a_hero_told_to_the_traitor_alone(players: int) -> None:
    state, events = _start(players)
    traitor, lover, _ = _cast(state)
    assert lover in sides.heroes(state)
    whisper = [e for e in events if e.data.get("lover") is not None]
    assert len(whisper) == 1
    assert whisper[0].audience.encode() == f"player:{traitor}"
    assert whisper[0].text == PLUGIN.text("lover", who=content.explorer(
        state.explorers[lover].key).name)


def test_the_traitor_has_the_lowest_sanity_and_the_ghost_makes_her_stronger() -> None:
    built = house()
    state, _ = _start()
    traitor, _, _ = _cast(state)
    lowest = min(traits.value(built, s, "sanity") for s in range(len(built.players)))
    assert traits.value(built, traitor, "sanity") == lowest
    for trait in ("might", "sanity"):
        before = traits.index(built, traitor, trait)
        top = len(content.explorer(built.explorers[traitor].key).traits[trait].values) - 1
        assert traits.index(state, traitor, trait) == min(top, before + PLUGIN.value(state, trait))


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_the_chapel_is_placed_when_missing(seed: int) -> None:
    built = house(4, seed, 10)
    assert built.tile_of(CHAPEL) is None
    state, events = begin(built, KEY)
    assert state.pending is not None  # the traitor places it (the AI answers)
    assert state.pending.seat == sides.traitor(state)
    seat = state.pending.seat
    state, more = GAME.apply(state, seat, GAME.ai_action(state, seat))
    state = answer_pending(state)
    chapel = _chapel(state)
    assert state.tiles[chapel].floor == "ground"  # the ground floor first
    said = PLUGIN.text("chapel_placed", floor=content.betrayal_line("floors.ground"))
    assert said in [e.text for e in events + more if e.audience.is_public]
    hall = state.tile_of("entrance_hall")
    assert hall is not None and walk_step(state, hall, {chapel}) is not None


def test_the_stairs_are_placed_when_someone_is_below_with_no_way_up() -> None:
    built = house(4, 3, 10)
    assert flow.basement_cut_off(built)
    assert any(built.tiles[e.tile].floor == "basement" for e in built.explorers)
    state, _ = _start(4, 3, 10)
    assert not flow.basement_cut_off(state)
    assert state.tile_of(flow.STAIRS) is not None


# ---------------------------------------------------------------- bodies

def test_every_dead_hero_leaves_a_nameless_body() -> None:
    state, _ = _start()
    _, lover, others = _cast(state)
    for seat in (lover, others[0]):
        ctx = Ctx(state)
        where = state.explorers[seat].tile
        death.die(ctx, seat)
        assert seat in PLUGIN.bodies(state, where)
        token = next(t for t in state.tiles[where].tokens if t.get("haunt") == KEY)
        assert token["kind"] == BODY
        said = [e for e in ctx.events if e.kind == "haunt"]
        assert [e.text for e in said] == [PLUGIN.text("body", room=ctx.room_name(where))]
        assert all(e.audience.is_public and "lover" not in e.data for e in said)


def _bride_with_body(state: BetrayalState, body: int, room_tile: int) -> int:
    traitor, _, _ = _cast(state)
    if state.explorers[body].alive:
        death.die(Ctx(state), body)
    token = next(t for t in state.tiles[state.explorers[body].tile].tokens
                 if t.get("haunt") == KEY and t["seat"] == body)
    state.tiles[state.explorers[body].tile].tokens.remove(token)
    state.tiles[room_tile].tokens.append(token)
    put(state, room_tile, traitor)
    turn_of(state, traitor)
    return traitor


def test_the_traitor_lifts_a_body_carries_it_and_lays_it_down() -> None:
    state, _ = _start()
    _, lover, _ = _cast(state)
    room = _away(state)
    traitor = _bride_with_body(state, lover, room)
    lift = _act(f"lift-{lover}")
    assert lift in _options(state, traitor)
    state, events = GAME.apply(state, traitor, lift)
    assert PLUGIN.carried(state) == lover and PLUGIN.bodies(state, room) == []
    public = [e.text for e in events if e.audience.is_public]
    assert PLUGIN.text("lift", who=content.explorer(state.explorers[traitor].key).name,
                       room=content.room(state.tiles[room].room).name) in public
    assert _act("lay") in _options(state, traitor)
    state, _ = GAME.apply(state, traitor, _act("lay"))
    assert PLUGIN.carried(state) is None and PLUGIN.bodies(state, room) == [lover]
    assert state.haunt.progress["laid"] is None  # not in the Chapel: no vigil body


def test_she_lifts_one_body_a_turn() -> None:
    """The traitor's book: "Once a turn you may lift a body in your room ... and once a
    turn lay it down." Laying one down does not let her lift another that turn."""
    state, _ = _start()
    _, lover, others = _cast(state)
    room = _away(state)
    _bride_with_body(state, others[0], room)
    traitor = _bride_with_body(state, lover, room)
    state, _ = GAME.apply(state, traitor, _act(f"lift-{lover}"))
    state, _ = GAME.apply(state, traitor, _act("lay"))
    assert sorted(PLUGIN.bodies(state, room)) == sorted([lover, others[0]])
    assert not [a for a in _options(state, traitor) if str(a.args.get("what", "")
                                                           ).startswith("lift")]


def test_heroes_cannot_lift_bodies() -> None:
    state, _ = _start()
    _, lover, others = _cast(state)
    room = _away(state)
    _bride_with_body(state, lover, room)
    put(state, room, others[0])
    turn_of(state, others[0])
    assert not [a for a in _options(state, others[0]) if str(a.args.get("what", "")
                                                             ).startswith("lift")]


def test_the_chapel_calls_her_before_she_moves() -> None:
    state, _ = _start()
    traitor, _, _ = _cast(state)
    put(state, _away(state), traitor)
    turn_of(state, traitor)
    assert _act("drift") in _options(state, traitor)
    after, events = GAME.apply(state, traitor, _act("drift"))
    assert after.explorers[traitor].tile == _chapel(after)
    assert any(e.text.startswith("The Chapel calls") for e in events if e.audience.is_public)
    assert not [a for a in _options(after, traitor) if a.kind in ("move", "explore")]
    state.turn.moves = 1  # she has walked this turn: too late
    assert _act("drift") not in _options(state, traitor)


# ---------------------------------------------------------------- the vigil

def _vigil(state: BetrayalState, turns: int) -> Ctx:
    traitor, _, _ = _cast(state)
    ctx = Ctx(state)
    for _ in range(turns):
        PLUGIN.end_turn(ctx, traitor)
    return ctx


def test_three_turns_with_the_lovers_body_in_the_chapel_win() -> None:
    state, _ = _start()
    _, lover, _ = _cast(state)
    _bride_with_body(state, lover, _chapel(state))
    state.haunt.progress["carried"] = lover
    state.tiles[_chapel(state)].tokens.clear()
    needed = PLUGIN.value(state, "vigil")
    assert needed == 3  # seed 003: three turns
    _vigil(state, needed - 1)
    assert PLUGIN.winner(state) is None
    ctx = _vigil(state, 1)
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_vigil"))
    assert all(e.audience.is_public and "lover" not in e.data for e in ctx.events)


def test_a_laid_body_keeps_the_vigil_while_she_stays_with_it() -> None:
    """Seed 003: she stays in the Chapel with the body (叛徒跟那個屍體待在教堂裡面); away
    from it, she keeps no vigil (tests/test_betrayal_haunt_second_pass_b.py)."""
    state, _ = _start()
    _, lover, _ = _cast(state)
    traitor = _bride_with_body(state, lover, _chapel(state))
    state, _ = GAME.apply(state, traitor, _act(f"lift-{lover}"))
    state, _ = GAME.apply(state, traitor, _act("lay"))
    assert state.haunt.progress["laid"] == lover
    _vigil(state, 3)
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_vigil"))


def test_leaving_with_the_body_breaks_the_vigil() -> None:
    state, _ = _start()
    traitor, lover, _ = _cast(state)
    _bride_with_body(state, lover, _chapel(state))
    state.haunt.progress["carried"] = lover
    state.tiles[_chapel(state)].tokens.clear()
    _vigil(state, 2)
    assert state.haunt.progress["vigil"] == 2
    put(state, _away(state), traitor)
    ctx = _vigil(state, 1)
    assert state.haunt.progress["vigil"] == 0
    assert PLUGIN.text("vigil_broken") in [e.text for e in ctx.events]
    put(state, _chapel(state), traitor)
    _vigil(state, 2)
    assert PLUGIN.winner(state) is None  # it started again


def test_another_body_is_no_wedding() -> None:
    state, _ = _start()
    _, _, others = _cast(state)
    _bride_with_body(state, others[0], _chapel(state))
    state.haunt.progress["carried"] = others[0]
    state.tiles[_chapel(state)].tokens.clear()
    ctx = _vigil(state, 4)
    assert PLUGIN.winner(state) is None
    assert any(e.text.endswith("but no one answers it.") for e in ctx.events)


# ---------------------------------------------------------------- the rite

RITE = _act("rite")


def _hero_in_chapel(state: BetrayalState) -> int:
    traitor, _, others = _cast(state)
    hero = others[0]
    put(state, _chapel(state), hero)
    put(state, _away(state, _chapel(state)), traitor)
    state.explorers[hero].cards.clear()
    turn_of(state, hero)
    return hero


@pytest.mark.parametrize(("face", "gained"), [(2, 1), (0, 0)])
def test_the_rite_of_parting(dice: list[int], face: int, gained: int) -> None:
    state, _ = _start()
    hero = _hero_in_chapel(state)
    assert RITE in _options(state, hero)
    count = traits.value(state, hero, "knowledge")
    assert 2 * count >= PLUGIN.value(state, "target")
    dice += [face] * count
    after, events = GAME.apply(state, hero, RITE)
    after = answer_pending(after)
    assert after.haunt.progress["successes"] == gained
    assert any("rite of parting" in e.text for e in events if e.audience.is_public)
    assert RITE not in _options(after, hero)  # once a turn


def test_the_holy_symbol_adds_a_die(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = _start()
    hero = _hero_in_chapel(state)
    state.explorers[hero].cards[:] = ["holy_symbol"]
    counts: list[int] = []
    real = rolls.roll_betrayal

    def counting(rng: Any, count: int, cap: int = 8) -> list[int]:
        counts.append(min(max(1, count), cap))
        return real(rng, count, cap)

    monkeypatch.setattr(rolls, "roll_betrayal", counting)
    GAME.apply(state, hero, RITE)
    assert counts[0] == min(8, traits.value(state, hero, "knowledge") + 1)


def test_no_rite_outside_the_chapel_nor_for_the_traitor() -> None:
    state, _ = _start()
    hero = _hero_in_chapel(state)
    put(state, _away(state), hero)
    assert RITE not in _options(state, hero)
    traitor, _, _ = _cast(state)
    put(state, _chapel(state), traitor)
    turn_of(state, traitor)
    assert RITE not in _options(state, traitor)


# ---------------------------------------------------------------- fighting

def test_she_may_strike_with_sanity_the_heroes_only_with_might() -> None:
    state, _ = _start()
    traitor, lover, _ = _cast(state)
    room = _away(state)
    put(state, room, traitor, lover)
    for seat in (traitor, lover):
        state.explorers[seat].cards.clear()
    turn_of(state, traitor)
    mine = {str(o.action.args["trait"]) for o in GAME.options(state, traitor)
            if o.action.kind == "attack"}
    assert mine == {"might", "sanity"}
    turn_of(state, lover)
    theirs = {str(o.action.args["trait"]) for o in GAME.options(state, lover)
              if o.action.kind == "attack"}
    assert theirs == {"might"}


# ---------------------------------------------------------------- winning

@pytest.mark.parametrize("players", [3, 4, 6])
def test_winners(players: int) -> None:
    state, _ = _start(players)
    traitor, _, _ = _cast(state)
    assert PLUGIN.winner(state) is None
    state.haunt.progress["successes"] = PLUGIN.value(state, "rite")
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_rite"))
    state.haunt.progress["successes"] = PLUGIN.value(state, "rite") - 1
    assert PLUGIN.winner(state) is None
    state.explorers[traitor].alive = False
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_traitor"))


def test_dawn_ends_the_game_when_the_last_round_is_over() -> None:
    state, _ = _start()
    assert PLUGIN.last_round(state) == PLUGIN.value(state, "dawn") == 15
    state.haunt.round = PLUGIN.value(state, "dawn")
    assert not flow.out_of_time(Ctx(state))  # the last round is still to be played
    state.haunt.round += 1
    ctx = Ctx(state)
    assert flow.out_of_time(ctx)
    assert state.over and state.haunt.winner == "heroes"
    assert state.haunt.reason == PLUGIN.text("reason_dawn")
    assert PLUGIN.text("dawn") in [e.text for e in ctx.events if e.audience.is_public]


# ---------------------------------------------------------------- AI games


# ---------------------------------------------------------------- secrets

SECRET_WORDS = ("lover", "groom", "whisper")


def _traitor_only_lines(state: BetrayalState) -> list[str]:
    book = load_data(KEY).books["traitor"]
    values = {n: PLUGIN.value(state, n) for n in load_data(KEY).values}
    heroes = flow.book_text(state, sides.HERO)
    lines = [str(book["win"]).strip(), *(str(r) for r in book["rules"])]
    return [fill(line, **values) for line in lines if fill(line, **values) not in heroes]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_lover_is_never_told_to_the_table_before_the_end(seed: int) -> None:
    state, events = _start(seed=seed)
    traitor, lover, _ = _cast(state)
    name = content.explorer(state.explorers[lover].key).name
    whisper = PLUGIN.text("lover", who=name)
    books = {e.data.get("side"): e.audience.encode() for e in events if e.kind == "book"}
    assert books == {"traitor": f"player:{traitor}", "heroes": "team:heroes"}
    for hero in sides.heroes(state):
        assert whisper not in GAME.private_view(state, hero)
    state, everything = played(KEY, seed)  # this game, played out
    assert state.over and everything[:len(events)] == tuple(events)
    end = next(i for i, e in enumerate(everything) if e.kind == "game_over")
    secret = _traitor_only_lines(state)
    assert secret
    told = [e for e in everything[:end]
            if e.audience.is_public or e.audience.encode() == "team:heroes"]
    assert told
    for event in told:
        assert whisper not in event.text and "lover" not in event.data, event.text
        assert not (name in event.text and any(w in event.text.lower() for w in SECRET_WORDS)), \
            event.text
        assert not any(line in event.text for line in secret), event.text
    to_traitor = [e for e in everything if e.text == whisper]
    assert [e.audience.encode() for e in to_traitor] == [f"player:{traitor}"]


def test_secret_reminds_the_traitor_of_the_lover_and_no_one_else() -> None:
    from bot.games.betrayal import GAME
    from bot.games.betrayal.context import explorer_name

    state, _ = _start()
    traitor, lover, others = _cast(state)
    name = explorer_name(state, lover)
    reminder = PLUGIN.text("lover", who=name)
    assert reminder in GAME.private_view(state, traitor)
    for hero in [lover, *others]:
        assert reminder not in GAME.private_view(state, hero)
