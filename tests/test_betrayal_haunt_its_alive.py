"""It's Alive! (haunt #2): the house is a body; only the Spear, driven into the Heart
(Organ Room) or the Brain (Attic), kills it. Setup by player count, the Spear's place,
the organs that appear with their rooms, "Drive the Spear" and its limits, the traitor
who cannot keep the Spear, every way to win, AI games won by each side, and the books'
secrecy (data/betrayal/haunts/its_alive.yaml, haunting/plugins/its_alive.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.core.actions import Action
from bot.games.betrayal import GAME, content
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.haunting import base, combat, flow, monsters, sides
from bot.games.betrayal.haunting.plugins import its_alive
from bot.games.betrayal.state import HEROES, BetrayalState
from bot.texts import fill
from tests.betrayal_haunt_helpers import (
    house,
    played,
    started,
)
from tests.test_betrayal_engine_helpers import dice, put

__all__ = ["dice"]  # a fixture, used by name

KEY = "its_alive"
PLUGIN = base.PLUGINS[KEY]


def start(players: int = 4, seed: int = 1, tiles: int = 25,
          prepare: Callable[[BetrayalState], None] | None = None,
          ) -> tuple[BetrayalState, list[Any]]:
    return started(KEY, players, seed, tiles, prepare)


def move_spear(state: BetrayalState, seat: int | None) -> None:
    """Take the Spear from wherever it is; give it to `seat` (None: the omen deck)."""
    for explorer in state.explorers:
        if "spear" in explorer.cards:
            explorer.cards.remove("spear")
    for pile in (state.decks["omen"], state.discards["omen"], state.omen_table,
                 *(t.items for t in state.tiles)):
        if "spear" in pile:
            pile.remove("spear")
    if seat is None:
        state.decks["omen"].append("spear")
    else:
        state.explorers[seat].cards.append("spear")


def organ(state: BetrayalState, kind: str) -> Any:
    found = sides.monsters(state, kind)
    assert len(found) == 1, kind
    return found[0]


def hero_turn(state: BetrayalState) -> int:
    assert state.haunt is not None and state.haunt.stage == HEROES and state.pending is None
    seat = state.turn.seat
    assert not sides.is_traitor(state, seat)
    return seat


def offer_ids(state: BetrayalState, seat: int) -> list[str]:
    return [str(o.action.args["what"]) for o in GAME.options(state, seat)
            if o.action.kind == "act"]


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize(("players", "antibodies"), [(3, 1), (4, 3), (5, 3), (6, 5)])
def test_setup_by_player_count(players: int, antibodies: int) -> None:
    state, events = start(players, seed=2)
    hall = state.tile_of("entrance_hall")
    assert [m.tile for m in sides.monsters(state, "antibody")] == [hall] * antibodies
    assert [m.tile for m in sides.monsters(state, "teeth")] == [hall]
    for kind, room in (("heart", "organ_room"), ("brain", "attic")):
        # each organ beats in its room once that room is in the house, and not before
        # (tests/test_betrayal_haunt_third_pass_its_alive.py: seed 003 line 26)
        tile = state.tile_of(room)
        assert [m.tile for m in sides.monsters(state, kind)] == ([tile] if tile is not None
                                                                 else [])
    text = [e.text for e in events]
    assert f"({antibodies} of them)" in next(t for t in text if t.startswith("The walls"))
    assert ("The Heart of the house throbs in the Organ Room." in text) == (
        state.tile_of("organ_room") is not None)


def test_the_heart_and_brain_never_move_nor_attack() -> None:
    state, _ = start(seed=2)
    ctx = Ctx(state)
    attic = put(state, "attic", "upper", 40, 40)
    PLUGIN.start_round(ctx)  # the Attic is in the house: the Brain appears
    brain = organ(state, "brain")
    assert brain.tile == attic
    heart = organ(state, "heart")
    assert state.haunt is not None
    state.haunt.stage = "monsters"
    monsters.start_turn(ctx)
    assert heart.moves == 0 and brain.moves == 0
    assert not monsters.can_step(state, heart) and not monsters.can_step(state, brain)
    for seat in sides.heroes(state):
        state.explorers[seat].tile = heart.tile
    assert monsters.targets(state, heart) == []
    assert not PLUGIN.can_attack(state, f"m{heart.id}", str(sides.heroes(state)[0]))


def test_a_hero_with_the_spear_keeps_it() -> None:
    holder: list[int] = []

    def prepare(state: BetrayalState) -> None:
        hero = (state.turn.seat + 2) % len(state.players)  # not the traitor (revealer+1)
        move_spear(state, hero)
        holder.append(hero)

    state, events = start(seed=2, prepare=prepare)
    assert its_alive.spear_holder(state) == holder[0]
    assert not any(e.text.startswith("The Spear clatters") for e in events)


@pytest.mark.parametrize("where", ["traitor", "deck"])
def test_otherwise_the_spear_lies_in_the_revealers_room(where: str) -> None:
    def prepare(state: BetrayalState) -> None:
        traitor = (state.turn.seat + 1) % len(state.players)  # left of the revealer
        move_spear(state, traitor if where == "traitor" else None)

    state, events = start(seed=2, prepare=prepare)
    assert state.haunt is not None
    revealer_room = state.explorers[state.haunt.revealer].tile
    assert its_alive.spear_holder(state) is None
    assert its_alive.spear_pile(state) == revealer_room
    assert "spear" not in state.decks["omen"]
    assert (f"The Spear clatters down in the {content.room(state.tiles[revealer_room].room).name}."
            in [e.text for e in events])


def test_with_no_way_up_the_stairs_from_basement_are_placed() -> None:
    before = house(4, 9)
    assert flow.no_way_up(before) and before.tile_of("stairs_from_basement") is None
    state, events = start(seed=9)
    assert state.tile_of("stairs_from_basement") is not None
    assert not flow.no_way_up(state)
    assert any(e.text.startswith("The house opens its throat") for e in events)


# ---------------------------------------------------------------- the Spear

def _spear_at_heart(state: BetrayalState) -> tuple[int, Any]:
    seat = hero_turn(state)
    move_spear(state, seat)
    heart = organ(state, "heart")
    state.explorers[seat].tile = heart.tile
    state.explorers[seat].side = None
    return seat, heart


def test_drive_the_spear_is_only_for_its_holder_in_the_organs_room() -> None:
    state, _ = start(seed=2)
    seat, heart = _spear_at_heart(state)
    assert offer_ids(state, seat) == [f"pierce-{heart.id}"]
    label = next(o.label for o in GAME.options(state, seat)
                 if o.action.args.get("what") == f"pierce-{heart.id}")
    assert "Heart" in label and "against 7" in label
    # no ordinary attack reaches the Heart, with or without the Spear
    assert not any(c.target == f"m{heart.id}" for c in combat.choices(state, seat))
    state.explorers[seat].cards.remove("spear")
    assert offer_ids(state, seat) == []
    state.explorers[seat].cards.append("spear")
    state.explorers[seat].tile = state.tile_of("entrance_hall") or 0
    assert offer_ids(state, seat) == []


def test_driving_the_spear_home_kills_the_house(dice: list[int]) -> None:
    state, _ = start(seed=2)
    seat, heart = _spear_at_heart(state)
    count = combat.attack_dice(state, seat, "might", "spear")
    dice += [2] * count + [0] * 7  # the hero's attack, then the Heart's 7 dice
    state, events = GAME.apply(state, seat, Action("act", {"what": f"pierce-{heart.id}"}))
    assert state.over and state.haunt is not None
    assert state.haunt.winner == "heroes"
    assert state.haunt.reason == "the Spear pierced the Heart, and the house is dead."
    text = [e.text for e in events]
    assert any(t.endswith("drives the Spear at the Heart!") for t in text)


def test_a_failed_thrust_hurts_the_hero(dice: list[int]) -> None:
    state, _ = start(seed=2)
    seat, heart = _spear_at_heart(state)
    count = combat.attack_dice(state, seat, "might", "spear")
    dice += [0] * count + [1] * 7  # lost by 7
    before = sum(state.explorers[seat].traits[t] for t in ("speed", "might"))
    state, _ = GAME.apply(state, seat, Action("act", {"what": f"pierce-{heart.id}"}))
    for _ in range(20):
        if state.pending is None:
            break
        state, _ = GAME.apply(state, state.pending.seat, Action("choose", {"pick": 0}))
    assert state.haunt is not None and state.haunt.winner == ""
    assert "slain" not in state.haunt.progress
    after = sum(state.explorers[seat].traits[t] for t in ("speed", "might"))
    assert after < before or not state.explorers[seat].alive
    if state.explorers[seat].alive and state.turn.seat == seat:
        assert offer_ids(state, seat) == []  # the turn's one attack is made


def test_only_the_spear_can_hurt_an_organ() -> None:
    state, _ = start(seed=2)
    heart = organ(state, "heart")
    ctx = Ctx(state)
    hero = sides.heroes(state)[0]
    assert PLUGIN.hurt_monster(ctx, heart, 3, str(hero), "")
    assert PLUGIN.hurt_monster(ctx, heart, 3, str(hero), "axe")
    assert state.haunt is not None and "slain" not in state.haunt.progress
    assert not heart.stunned and PLUGIN.winner(state) is None
    antibody = sides.monsters(state, "antibody")[0]
    assert not PLUGIN.hurt_monster(ctx, antibody, 1, str(hero), "")  # the engine stuns it


def test_the_traitor_cannot_keep_the_spear() -> None:
    state, _ = start(seed=2)
    traitor = sides.traitor(state)
    assert traitor is not None
    move_spear(state, traitor)
    ctx = Ctx(state)
    PLUGIN.end_turn(ctx, traitor)
    assert "spear" not in state.explorers[traitor].cards
    assert "spear" in state.at(traitor).items
    assert any("burns" in e.text for e in ctx.events)


# ---------------------------------------------------------------- winning

def test_the_ways_to_win() -> None:
    state, _ = start(seed=2)
    assert state.haunt is not None
    assert PLUGIN.winner(state) is None
    heroes = sides.heroes(state)
    for seat in heroes[:2]:
        state.explorers[seat].alive = False
    assert PLUGIN.winner(state) is None  # 2 of 3 digested: not yet at 4 players
    state.explorers[heroes[2]].alive = False
    assert PLUGIN.winner(state) == ("traitor", "3 heroes have been digested by the house.")
    state.explorers[heroes[2]].alive = True
    state.haunt.round = 12
    assert not flow.out_of_time(Ctx(state))
    state.haunt.round = 13
    ctx = Ctx(state)
    assert flow.out_of_time(ctx)
    assert state.over and state.haunt.winner == "traitor"
    assert state.haunt.reason == "the house is still alive at the end of round 12."
    state, _ = start(seed=2)
    assert state.haunt is not None
    state.haunt.progress["slain"] = "brain"
    assert PLUGIN.winner(state) == ("heroes", "the Spear pierced the Brain, and the house is dead.")


# ---------------------------------------------------------------- the AI

def test_ai_goals() -> None:
    state, _ = start(seed=2)
    heart = organ(state, "heart")
    seat = hero_turn(state)
    traitor = sides.traitor(state)
    assert traitor is not None
    move_spear(state, seat)
    others = [h for h in sides.heroes(state) if h != seat]
    assert PLUGIN.goals(state, seat) == {heart.tile}
    assert PLUGIN.goals(state, others[0]) == {heart.tile}  # wait by the organs
    assert PLUGIN.goals(state, traitor) == {state.explorers[seat].tile}
    antibody = sides.monsters(state, "antibody")[0]
    assert PLUGIN.monster_goals(state, antibody) == {state.explorers[seat].tile}
    move_spear(state, None)
    state.decks["omen"].remove("spear")
    state.tiles[heart.tile].items.append("spear")
    assert PLUGIN.goals(state, others[0]) == {heart.tile}  # fetch it
    state.explorers[others[0]].tile = heart.tile
    assert PLUGIN.goals(state, others[0]) == set()  # here: the explorer AI picks it up
    assert PLUGIN.monster_goals(state, antibody) == set()  # the nearest hero



# ---------------------------------------------------------------- secrets

def test_the_books_stay_secret() -> None:
    state, events = played(KEY, 3)
    traitor = sides.traitor(state)
    assert traitor is not None
    books = [e for e in events if e.kind == "book" and not e.audience.is_public]
    assert [e.audience.encode() for e in books] == [f"player:{traitor}", "team:heroes"]
    book = PLUGIN.data.books["traitor"]
    values = {n: PLUGIN.value(state, n) for n in PLUGIN.data.values}
    secret = [fill(str(book["win"]).strip(), **values),
              *(fill(str(r), **values) for r in book["rules"])]
    over = next(i for i, e in enumerate(events) if e.kind == "game_over")
    for e in events[:over]:
        if e.audience.is_public:
            assert not any(s in e.text for s in secret), e.text
    assert flow.book_text(state, "traitor") in books[0].text
