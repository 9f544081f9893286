"""Wail of the Banshee (haunt #6): seed 003 says only that the Spirit Board summons a
banshee; the rest is our design (data/betrayal/haunts/wail_of_the_banshee.yaml): a
large banshee with no Might who fights with Sanity, her wail over her floor after each
monsters' turn, the heroes' rite of banishing in her room, and the traitor's count of
dead heroes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, rolls, traits
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import combat, flow, monsters, sides
from bot.games.betrayal.haunting.base import load_data
from bot.games.betrayal.haunting.plugins.wail_of_the_banshee import BANSHEE, WailOfTheBanshee
from bot.games.betrayal.state import MONSTERS, BetrayalState, Monster, Turn
from bot.texts import fill
from tests.betrayal_haunt_helpers import (
    answer_pending,
    begin,
    house,
    played,
    turn_of,
)
from tests.test_betrayal_engine_helpers import dice

__all__ = ["dice"]  # a fixture, used by name

KEY = "wail_of_the_banshee"
PLUGIN = WailOfTheBanshee()


def _no_board(state: BetrayalState) -> None:
    for explorer in state.explorers:
        if "spirit_board" in explorer.cards:
            explorer.cards.remove("spirit_board")


def _start(players: int = 4, seed: int = 1,
           prepare: Callable[[BetrayalState], None] | None = _no_board,
           ) -> tuple[BetrayalState, list]:  # type: ignore[type-arg]
    state, events = begin(house(players, seed), KEY, prepare=prepare)
    return answer_pending(state), events


def _banshee(state: BetrayalState) -> Monster:
    found = sides.monsters(state, BANSHEE)
    assert len(found) == 1
    return found[0]



# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_one_large_banshee_beside_the_traitor(players: int) -> None:
    state, events = _start(players)
    traitor = sides.traitor(state)
    assert traitor is not None and traitor == state.haunt.revealer  # haunts.yaml: revealer
    banshee = _banshee(state)
    kind = load_data(KEY).monsters[BANSHEE]
    assert kind.large and "might" not in kind.traits and "sanity" in kind.traits
    assert banshee.tile == state.explorers[traitor].tile
    room = state.tiles[banshee.tile].room
    from bot.games.betrayal import content

    assert any(PLUGIN.text("summoned", room=content.room(room).name) == e.text
               for e in events if e.audience.is_public)


def test_the_banshee_rises_where_the_spirit_board_is() -> None:
    chosen: dict[str, int] = {}

    def give_board(state: BetrayalState) -> None:
        _no_board(state)
        hero = (state.turn.seat + 1) % len(state.players)
        traitor_tile = state.explorers[state.turn.seat].tile
        state.explorers[hero].tile = next(i for i in range(len(state.tiles))
                                          if i != traitor_tile)
        state.explorers[hero].side = None
        state.explorers[hero].cards.append("spirit_board")
        chosen.update(hero=hero, tile=state.explorers[hero].tile)

    state, _ = _start(prepare=give_board)
    assert not sides.is_traitor(state, chosen["hero"])
    assert _banshee(state).tile == chosen["tile"]


# ---------------------------------------------------------------- fighting her

def _hero_with_banshee(state: BetrayalState) -> int:
    hero = sides.heroes(state)[0]
    traitor = sides.traitor(state)
    banshee = _banshee(state)
    spare = next(i for i in range(len(state.tiles)) if i != banshee.tile)
    for seat in range(len(state.players)):  # alone with her: nobody else in the room
        state.explorers[seat].tile = spare if seat != hero else banshee.tile
        state.explorers[seat].side = None
    assert traitor is not None and state.explorers[traitor].tile != banshee.tile
    turn_of(state, hero)
    return hero


def test_heroes_can_fight_her_only_with_sanity() -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    state.explorers[hero].cards.clear()
    banshee = _banshee(state)
    attacks = [dict(o.action.args) for o in GAME.options(state, hero)
               if o.action.kind == "attack"]
    assert attacks == [{"target": f"m{banshee.id}", "trait": "sanity"}]


def test_a_sanity_hit_stuns_her(dice: list[int]) -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    state.explorers[hero].cards.clear()
    banshee = _banshee(state)
    dice += [2] * traits.value(state, hero, "sanity") + [0] * 8
    state, _ = GAME.apply(state, hero, Action("attack", {"target": f"m{banshee.id}",
                                                         "trait": "sanity"}))
    assert _banshee(state).stunned


def test_she_attacks_with_sanity_and_hurts_the_mind(dice: list[int]) -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    state.haunt.stage = MONSTERS
    state.turn = Turn(seat=traitor, number=state.turn.number + 1)
    banshee = _banshee(state)
    banshee.moves, banshee.attacked, banshee.skip = 0, False, False
    physical = {t: traits.value(state, hero, t) for t in ("might", "speed")}
    mental = sum(traits.index(state, hero, t) for t in ("sanity", "knowledge"))
    dice += [2] * 5 + [0] * traits.value(state, hero, "sanity")  # 10 against 0
    state, events = GAME.apply(state, traitor, Action(monsters.M_ATTACK,
                                                      {"m": banshee.id, "target": hero}))
    state = answer_pending(state)
    assert any("attacks" in e.text and "with Sanity" in e.text for e in events)
    assert {t: traits.value(state, hero, t) for t in ("might", "speed")} == physical
    after = sum(traits.index(state, hero, t) for t in ("sanity", "knowledge"))
    assert after < mental or not state.explorers[hero].alive


def test_the_traitor_keeps_to_might() -> None:
    state, _ = _start()
    traitor = sides.traitor(state)
    assert traitor is not None
    assert "sanity" not in combat.attack_traits(state, traitor) or \
        "ring" in state.explorers[traitor].cards


# ---------------------------------------------------------------- the rite

RITE = Action("act", {"what": "rite"})


def _options(state: BetrayalState, seat: int) -> list[Action]:
    return [o.action for o in GAME.options(state, seat)]


@pytest.mark.parametrize(("face", "gained"), [(2, 1), (0, 0)])
def test_the_rite_needs_the_target_on_knowledge(dice: list[int], face: int,
                                                gained: int) -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    state.explorers[hero].cards.clear()
    assert RITE in _options(state, hero)
    count = traits.value(state, hero, "knowledge")
    assert 2 * count >= PLUGIN.value(state, "target")  # this hero can make it at all
    dice += [face] * count
    after, events = GAME.apply(state, hero, RITE)
    after = answer_pending(after)
    assert int(after.haunt.progress.get("successes", 0)) == gained
    assert any("rite" in e.text for e in events if e.audience.is_public)  # declared
    assert RITE not in _options(after, hero)  # once a turn


@pytest.mark.parametrize("card", ["spirit_board", "holy_symbol"])
def test_the_board_or_the_holy_symbol_adds_a_die(monkeypatch: pytest.MonkeyPatch,
                                                 card: str) -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    state.explorers[hero].cards[:] = [card]
    counts: list[int] = []
    real = rolls.roll_betrayal

    def counting(rng: Any, count: int, cap: int = 8) -> list[int]:
        counts.append(min(max(1, count), cap))
        return real(rng, count, cap)

    monkeypatch.setattr(rolls, "roll_betrayal", counting)
    before = traits.value(state, hero, "knowledge")
    GAME.apply(state, hero, RITE)
    assert counts[0] == min(8, max(1, before + 1))


def test_no_rite_away_from_her_nor_for_the_traitor() -> None:
    state, _ = _start()
    hero = _hero_with_banshee(state)
    state.explorers[hero].tile = next(i for i in range(len(state.tiles))
                                      if i != _banshee(state).tile)
    assert RITE not in _options(state, hero)
    traitor = sides.traitor(state)
    assert traitor is not None
    state.explorers[traitor].tile = _banshee(state).tile
    turn_of(state, traitor)
    assert RITE not in _options(state, traitor)


# ---------------------------------------------------------------- the wail

def _floor_of(state: BetrayalState, seat: int) -> str:
    return state.tiles[state.explorers[seat].tile].floor


def test_the_wail_reaches_every_hero_on_her_floor(dice: list[int]) -> None:
    state, _ = _start()
    banshee = _banshee(state)
    floor = state.tiles[banshee.tile].floor
    elsewhere = next(i for i, t in enumerate(state.tiles) if t.floor != floor)
    near, far, steady = sides.heroes(state)[:3]
    state.explorers[near].tile = banshee.tile
    state.explorers[steady].tile = banshee.tile
    state.explorers[far].tile = elsewhere
    before = {s: traits.value(state, s, "sanity") for s in range(len(state.players))}
    traitor = sides.traitor(state)
    assert traitor is not None
    order = [s for s in sides.heroes(state) if _floor_of(state, s) == floor]
    for seat in order:  # `near` rolls all blanks; `steady` all twos
        n = max(1, min(8, traits.value(state, seat, "sanity")))
        dice += [0 if seat == near else 2] * n
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    assert traits.value(state, near, "sanity") < before[near]
    assert traits.value(state, steady, "sanity") == before[steady]
    assert traits.value(state, far, "sanity") == before[far]
    assert traits.value(state, traitor, "sanity") == before[traitor]
    assert any(e.text.startswith("The banshee wails") for e in ctx.events)


def test_a_stunned_banshee_cannot_wail() -> None:
    state, _ = _start()
    banshee = _banshee(state)
    banshee.skip = True
    hero = sides.heroes(state)[0]
    state.explorers[hero].tile = banshee.tile
    before = traits.index(state, hero, "sanity")
    ctx = Ctx(state)
    PLUGIN.end_monsters(ctx)
    assert traits.index(state, hero, "sanity") == before
    assert [e.text for e in ctx.events] == [PLUGIN.text("wail_silent")]


# ---------------------------------------------------------------- winning

@pytest.mark.parametrize("players", [3, 4, 6])
def test_winners(players: int) -> None:
    state, _ = _start(players)
    assert PLUGIN.winner(state) is None
    state.haunt.progress["successes"] = PLUGIN.value(state, "banish")
    assert PLUGIN.winner(state) == ("heroes", PLUGIN.text("reason_banished"))
    state.haunt.progress["successes"] = PLUGIN.value(state, "banish") - 1
    assert PLUGIN.winner(state) is None
    claimed = PLUGIN.value(state, "claimed")
    heroes = sides.heroes(state)
    for seat in heroes[:claimed - 1]:
        state.explorers[seat].alive = False
    assert PLUGIN.winner(state) is None
    state.explorers[heroes[claimed - 1]].alive = False
    assert PLUGIN.winner(state) == ("traitor", PLUGIN.text("reason_claimed", count=claimed))


def test_a_won_game_is_over_for_everyone() -> None:
    state, _ = _start()
    state.haunt.progress["successes"] = PLUGIN.value(state, "banish")
    ctx = Ctx(state)
    flow.settle(ctx)
    assert state.over and state.haunt.winner == "heroes"
    assert any(e.kind == "game_over" for e in ctx.events)


# ---------------------------------------------------------------- AI games


# ---------------------------------------------------------------- secrets

def _traitor_lines(state: BetrayalState) -> list[str]:
    """The traitor's book's win and rules lines that the heroes' book does not also
    say (the wail is in both: it is no secret)."""
    book = load_data(KEY).books["traitor"]
    values = {n: PLUGIN.value(state, n) for n in load_data(KEY).values}
    lines = [str(book["win"]).strip(), *(str(r) for r in book["rules"])]
    heroes = flow.book_text(state, sides.HERO)
    found = [fill(line, **values) for line in lines]
    assert found
    return [line for line in found if line not in heroes]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_traitors_book_stays_secret_until_the_end(seed: int) -> None:
    state, everything = played(KEY, seed)  # as _start(prepare=None), played out
    traitor = sides.traitor(state)
    books = {e.data.get("side"): e.audience.encode() for e in everything
             if e.kind == "book" and not e.audience.is_public}
    assert books == {"traitor": f"player:{traitor}", "heroes": "team:heroes"}
    assert state.over
    end = next(i for i, e in enumerate(everything) if e.kind == "game_over")
    secret = _traitor_lines(state)
    for event in everything[:end]:
        if event.audience.is_public or event.audience.encode() == "team:heroes":
            assert not any(line in event.text for line in secret), event.text
