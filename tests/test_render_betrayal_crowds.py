"""Figures crowded into a small tile (`token_slots`), checked on the slots alone, whatever
house a seed's AI play builds: the tile sizes below are ones real houses reach (seed 1's
house at 1200 px and 600 px once its haunts place the Stairs from Basement, seed 003
line 290, which made the basement a column wider and every tile smaller).

Two faults those sizes showed: a slot shrunk to make room for a label left a monster's
disc smaller than its letter (a cream "M" on a sliver of red reads as no monster at all),
and a crowd in the thin band above a strip row stood in one column of overlapping discs
spilling over the room's name, where two rows of apart discs fit."""

from __future__ import annotations

import math

import pytest

from renderers.betrayal.explorers import (
    letter_shows,
    monster_radius,
    ring_outer,
    token_slots,
)
from renderers.betrayal.tiles import strip_step, tile_parts

# The widest letters the haunts' monsters are drawn with (data/betrayal/haunts/*.yaml).
MARKS = ("M", "W", "#")


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize(("t", "tf"), [(128, 20), (139, 20), (117, 18), (124, 18)])
def test_a_labelled_slot_leaves_a_monster_room_for_its_letter(t: int, tf: int,
                                                              mark: str) -> None:
    """A label is worth a smaller disc, not a monster's letter spilling past it: where
    the slots keep room for labels, the disc a monster grows to shows round its letter
    at the label's size (seed 1's Basement Landing at 1200 px: an explorer and three
    monsters, 128 px tiles, the Mummy's "M" 20 px wide on a disc of radius 9)."""
    for n in range(2, 6):
        for rows in (0, 1):
            slots = token_slots(n, t, rows, tf, (mark,))
            _, _, r, label_w, size = slots[0]
            if label_w:
                radius = monster_radius(r, False, mark, size)
                assert letter_shows(radius, mark, size), (t, tf, n, rows, r, radius, size)


def test_explorers_alone_keep_their_labels() -> None:
    """Only a monster's letter asks for the bigger disc: four explorers in the same
    tile keep their names beside smaller discs."""
    assert token_slots(4, 128, 0, 20)[0][3] > 0
    assert token_slots(4, 128, 0, 20, ("M",))[0][3] == 0


def _band(t: int, tf: int, rows: int) -> tuple[int, int]:
    """The top and bottom of the band figures stand in above `rows` strip rows (as
    `token_slots` works it out)."""
    parts = tile_parts(t, tf)
    h = parts.strip[3] - parts.strip[1]
    bottom = parts.strip[3] - rows * (h + strip_step(h)) - max(1, round(t * 0.01))
    return parts.body[1], max(bottom, parts.body[1] + round(t * 0.12))


# Tiles at 600 px under a one-line name (64) and a two-line one (72, a band 16 px high:
# one row of MAX_COLS discs), with as many figures as the band holds apart.
@pytest.mark.parametrize(("t", "tf", "n"), [(64, 10, n) for n in range(2, 11)] +
                         [(72, 10, n) for n in range(2, 7)])
def test_a_crowd_above_a_strip_row_stands_apart_in_its_band(t: int, tf: int,
                                                            n: int) -> None:
    """A crowd whose discs are as small as discs go still stands with rings apart and
    inside its band (the Foyer with a link row at 600 px, seed 1's house: eight figures
    were one column of discs 3 px apart, the top ones over the room's name)."""
    slots = token_slots(n, t, 1, tf)
    top, bottom = _band(t, tf, 1)
    outer = ring_outer(slots[0][2])
    for i, (cx, cy, *_) in enumerate(slots):
        assert top <= cy - outer and cy + outer <= bottom, (n, cy, outer, top, bottom)
        for ox, oy, *_ in slots[i + 1:]:
            assert math.dist((cx, cy), (ox, oy)) >= 2 * outer, (n, slots)
