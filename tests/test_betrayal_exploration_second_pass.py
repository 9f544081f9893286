"""Betrayal, the exploration phase: a second rules pass (seed 003, rooms 513-626 and the
turn's rules 222-262), on what the first tests left between the lines: the Collapsed
Room's token in a split room, and the other corners of exploring checked here."""

from __future__ import annotations

from bot.games.betrayal.state import BetrayalState
from tests.test_betrayal_engine_helpers import (
    MISSY,
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

__all__ = ["dice"]


# ---------------------------------------------------------------- the Collapsed Room

def _fall_into_the_catacombs(dice: list[int]) -> BetrayalState:
    """Ox finds the Collapsed Room north of the Entrance Hall, fails its Speed roll and
    falls into the Catacombs, laid north of the Basement Landing (its doors N and S:
    the S door joins the landing, so Ox lands by it)."""
    state = new_game()
    stack_top(state, "collapsed_room", "catacombs")
    dice.extend([0, 0, 0, 0, 0])  # Ox's Speed 4: under 5; the fall's die: 0
    state, _ = apply(state, "explore", dir="N")
    while state.pending:
        state, _ = choose(state, "north of the Basement Landing"
                          if state.pending.kind == "spot" else 0)
    catacombs = tile(state, "catacombs")
    assert state.explorers[OX].tile == catacombs and state.explorers[OX].side == "S"
    return state


def test_a_jump_lands_by_the_door_the_faller_landed_at(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Catacombs (line 570): 若崩塌的房間Collapsed Room…連接上這房間，玩家只可將
    標記放在其中一度門扉前。經由這些特殊通道到達這房間的人物，若要前進至另一門扉時仍需通過
    能力考驗 [if the Collapsed Room joins this room, its token goes before one of its
    doors; who arrives by such a passage still rolls to reach the other door]. The
    Below Collapsed Room token lies where its faller landed, and whoever jumps after
    lands there too: on the faller's side, not across the barrier from it."""
    state = _fall_into_the_catacombs(dice)
    catacombs = tile(state, "catacombs")
    token = next(t for t in state.tiles[catacombs].tokens if t["kind"] == "below_collapsed")
    assert token.get("side") == "S"
    state.turn.seat, state.turn.moves, state.turn.movement_over = MISSY, 0, False
    at(state, MISSY, "collapsed_room")
    hold(state, MISSY, "axe")
    dice.extend([0])  # the jump's die
    state, _ = apply(state, "move", seat=MISSY, via="collapsed_jump", to=catacombs)
    assert state.explorers[MISSY].tile == catacombs
    assert state.explorers[MISSY].side == "S" == state.explorers[OX].side
    assert any(label.startswith("Give the Axe") for label in labels(state, MISSY))


def test_the_rope_climbs_out_of_a_split_room_from_the_token_s_side(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, line 570, as the rulings read it (docs/rulings.md, Turns and movement 3:
    "Leaving a split room by a link needs the crossing roll unless you stand by the
    link"): the Rope climbs up the hole from the Below Collapsed Room token, which lies
    by one door; from the far door the explorer crosses first."""
    state = _fall_into_the_catacombs(dice)
    hold(state, OX, "rope")
    state.turn.moves, state.turn.movement_over = 0, False
    near = [label for label in labels(state) if "Collapsed Room" in label]
    assert near and not any("cross first" in label for label in near)
    state.explorers[OX].side = "N"
    far = [label for label in labels(state) if "Collapsed Room" in label]
    assert far and all("cross first: Sanity 6+" in label for label in far)


# ---------------------------------------------------------------- exploring out of a split room

def test_exploring_through_a_split_room_s_far_door_crosses_first(dice) -> None:  # type: ignore[no-untyped-def]
    """Seed 003, Tower: 若人物要由另一門扉離開，則人物需以力量Might作能力考驗…否則人物必須
    停止移動 [to leave by the other door, roll Might; else the explorer stops]. Leaving
    by that door into unexplored space is leaving by it too: the roll comes first, and
    a failure places no room."""
    state = new_game()
    tower = put(state, "tower", "upper", 1, 0)  # doors E W: W joins the Upper Landing
    state.explorers[OX].tile, state.explorers[OX].side = tower, "W"
    assert "Explore east (cross first: Might 3+)" in labels(state)
    placed = len(state.tiles)
    dice.extend([0] * 8)
    stuck, events = apply(state, "explore", dir="E")
    # Stopped, and holding nothing: his turn ends by itself (docs/rulings.md, Turns 12).
    assert len(stuck.tiles) == placed and any("nothing left to do" in e for e in events)
    assert stuck.explorers[OX].tile == tower and stuck.explorers[OX].side == "W"
    dice[:] = [2] * 8
    stack_top(state, "creaky_hallway")
    across, _ = apply(state, "explore", dir="E")
    assert len(across.tiles) == placed + 1
    assert across.explorers[OX].tile == tile(across, "creaky_hallway")
