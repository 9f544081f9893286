"""Betrayal, a fourth rules pass over seed 003's rules chapters (lines 206-321) and its
rooms (513-626): the sentences the earlier passes left unpinned. Each test drives the
engine and quotes the sentence (Chinese, with an English gloss) it holds it to.

Explorers (tests/test_betrayal_engine_helpers.py): Ox Bellows, Missy Dubourde, Peter
Akimoto, all in the Entrance Hall, Ox to play. Ox: Speed 4, Might 5, Sanity 3,
Knowledge 3.
"""

from __future__ import annotations

from bot.games.betrayal import GAME, explore
from bot.games.betrayal.haunting import flow, sides
from bot.games.betrayal.house import doors
from bot.games.betrayal.state import BetrayalState
from tests import betrayal_haunt_rig as rig
from tests.betrayal_haunt_helpers import answer_pending, begin
from tests.betrayal_haunt_rig import fixed, rig_plugin
from tests.test_betrayal_engine_helpers import (
    OX,
    apply,
    at,
    choose,
    dice,
    hold,
    labels,
    new_game,
    put,
    stack_top,
    tile,
)

__all__ = ["dice", "fixed", "rig_plugin"]


def kinds(state: BetrayalState, seat: int = OX) -> set[str]:
    return {o.action.kind for o in GAME.options(state, seat)}


# ---------------------------------------------------------------- the haunt's setup

def _fallen_through(dice: list[int]) -> BetrayalState:
    """Ox finds the Collapsed Room north of the Entrance Hall, fails its Speed roll and
    falls into a new basement room: the hole is the only way between the basement and
    the floors above, and it leads down only."""
    state = new_game()
    stack_top(state, "collapsed_room", "wine_cellar")
    dice.extend([0, 0, 0, 0, 0])  # Ox's Speed 4: under 5; the fall's die: 0
    state, _ = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    assert state.explorers[OX].tile == tile(state, "wine_cellar")
    return state


def test_a_hole_down_is_no_way_up_for_the_monsters(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 290: 查看大宅有否通道(包括煤導槽Coal Chute)讓怪物monster離開地下basement。
    若怪物無法離開地下走到其他樓層(反過亦是)，奸徒Traitor可從房間牌疊找出地下樓梯放到大宅中。
    [See whether a way (the Coal Chute included) lets the monsters leave the basement;
    if they cannot leave it for the other floors (or the other way round), the traitor
    takes the Stairs from Basement from the stack and places them.] The Collapsed
    Room's hole leads down only (line 564: one jumps down it); monsters do not climb it
    as they climb the Coal Chute (line 311), so a house joined to its basement by the
    hole alone is cut off for them."""
    state = _fallen_through(dice)
    assert "stairs_from_basement" in explore.unplaced(state)
    assert flow.basement_cut_off(state)
    state, _ = begin(state, "pay_the_piper")
    state = answer_pending(state)
    placed = state.tile_of("stairs_from_basement")
    assert placed is not None and state.tiles[placed].floor == "basement"


# ---------------------------------------------------------------- rooms

def test_a_leave_roll_of_exactly_its_target_passes(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 242: 若遊戲骰子的點數大過或等於考驗值，則人物通過考驗。 [A total equal to
    or above the target passes.] and the Attic, line 545: 若骰數總和大於或等於3，人物無恙。
    否則人物的力量Might下降1個級別。 [3 or more: unhurt; else lose 1 Might.] Ox's Speed 4
    rolls 3 (passes) or 2 (loses 1 Might), and leaves either way (line 546)."""
    state = new_game()
    put(state, "attic", "upper", 0, -1)
    at(state, OX, "attic")
    before = state.explorers[OX].traits["might"]
    dice.extend([1, 1, 1, 0])
    passed, _ = apply(state, "move", dir="S")
    assert passed.explorers[OX].traits["might"] == before
    dice[:] = [1, 1, 0, 0]
    failed, _ = apply(state, "move", dir="S")
    assert failed.explorers[OX].traits["might"] == before - 1
    assert failed.explorers[OX].tile == passed.explorers[OX].tile != tile(state, "attic")


def test_a_failed_crossing_stops_all_movement(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Chasm, line 574: 若骰數總和大於或等於3，人物成功通過這房間。否則人物必須停止
    移動。 [3 or more crosses the room; otherwise the explorer must stop moving.] Ox,
    with Speed to spare and a card to use, may not even step back out the near door."""
    state = new_game()
    split = put(state, "chasm", "basement", 0, 5)
    put(state, "creaky_hallway", "basement", -1, 5)
    put(state, "dusty_hallway", "basement", 1, 5)
    state.explorers[OX].tile, state.explorers[OX].side = split, "W"
    hold(state, OX, "bottle")  # something left to do: his turn waits for him
    dice.extend([0, 0, 0, 0])
    stuck, _ = apply(state, "move", dir="E")
    assert stuck.turn.seat == OX and stuck.explorers[OX].tile == split
    assert not kinds(stuck) & {"move", "explore"}


def test_the_traitor_rolls_for_the_vault_too(fixed: list[int]) -> None:
    """Seed 003, Vault, line 588: 人物(包括奸徒Traitor)需以知識Knowledge進行能力考驗trait roll
    來開啟保險庫Vault。 [Explorers, the traitor included, roll Knowledge to open the
    Vault.] The house does not open it for its traitor: the roll is made, and a low one
    leaves it shut."""
    state = rig.rigged(rig.JENNY)
    vault = rig.joined(state, "vault", "upper")
    state.explorers[rig.JENNY].tile = vault
    state.explorers[rig.JENNY].side = None
    assert sides.is_traitor(state, rig.JENNY)
    assert any("Vault" in label for label in labels(state, rig.JENNY))
    fixed.extend([0] * 8)
    shut, events = apply(state, "act", rig.JENNY, what="vault")
    assert any("rolls Knowledge" in e for e in events)
    assert not shut.tiles[vault].flags.get("vault_empty")


def test_a_fall_into_the_vault_lands_outside_it(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Vault, line 592: 若崩塌的房間Collapsed Room(房間)…連接上這房間，玩家只可將標記
    放在保險庫Vault外。 [If the Collapsed Room leads into it, its token goes outside the
    Vault.] Ox falls into a Vault found below: he lands by its door, outside the barrier,
    with the token; jumping after him lands there too."""
    state = new_game()
    stack_top(state, "collapsed_room", "vault")
    dice.extend([0, 0, 0, 0, 0])  # Ox's Speed 4: under 5; the fall's die: 0
    state, _ = apply(state, "explore", dir="N")
    while state.pending is not None and state.pending.kind in ("spot", "spot_cell"):
        state, _ = choose(state, 0)
    vault = tile(state, "vault")
    (door,) = doors(state.tiles[vault])
    assert state.explorers[OX].tile == vault and state.explorers[OX].side == door
    below = [t for t in state.tiles[vault].tokens if t["kind"] == "below_collapsed"]
    assert below and below[0].get("side") in (None, door)
