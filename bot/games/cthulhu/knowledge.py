"""What a seat of Cthulhu in the House may know: the view its AI decides from.

Seed 002 keeps two things face down. Each player's two secret characters go to that
player alone (rules.py sends them `to_player(seat)`) and are shown to all only when the
rumble is scored (`results`); in a view, the other players' pairs are dealt anew from
the characters this seat does not hold. The six portals lie face down, in rooms and
beside the house: a flipped one is seen, then shuffled back unseen, so no seat knows
which is which, and a view deals the six kinds anew among the same places. The Rng,
which would tell the next flip, is the view's own.

The view's Rng is seeded from the public table, this seat's own pair and its salt: a
number dealt to the seat at setup that no one is shown (`seat_salts`; a view keeps its
own and blanks the others'). So two states that differ only in others' secrets give
the same view, and the AI's bluffs (its noise and its keeper, ai.py) cannot be read off
the table. Without the salt they could: the AI's every choice followed from the public
table and its own pair, so re-running it for each of the 45 pairs it might hold and
keeping those that chose as it did named its pair within 2-8 of its moves (23 of 24
AI seats by the end of a rumble, a check made with the engine's code, 2026-12-07).
"""

from __future__ import annotations

from bot.core.events import to_player
from bot.core.plain import copy_plain
from bot.core.rng import Rng
from bot.core.views import mark, redeal, view_rng
from bot.games.cthulhu.state import CthulhuState


def seat_view(state: CthulhuState, seat: int) -> CthulhuState:
    view = copy_plain(state)
    own = tuple(view.secrets[seat]) if 0 <= seat < len(view.secrets) else ()
    salt = own_salt(view, seat)
    view.salts = [salt if s == seat else 0 for s in range(len(view.salts))]
    rng = view_rng("cthulhu", seat, own, salt, view.rumble, view.turn, view.turns_played,
                   tuple(view.removed), tuple(view.location),
                   view.pending.kind if view.pending else "")
    if not view.over:  # once the last rumble is scored, every pair is public
        others = [s for s in range(len(view.secrets))
                  if not to_player(s).reaches(seat, {})]
        mine = set(own)
        pool = [c for c in range(len(view.characters)) if c not in mine]
        redeal(rng, [pool])
        for s in others:
            view.secrets[s] = sorted(pool[:len(view.secrets[s])])
            del pool[:len(view.secrets[s])]
    kinds = [*(k for room in view.room_portals for k in room), *view.reserve]
    redeal(rng, [kinds])
    for room in view.room_portals:
        room[:] = kinds[:len(room)]
        del kinds[:len(room)]
    view.reserve = kinds
    view.rng = rng
    return mark(view)


def seat_salts(seed: int, seats: int) -> list[int]:
    """Each seat's salt, from the game's seed (a replay deals the same) but not from its
    Rng: the deal of a seeded game stays what it was before there were salts."""
    return [Rng.from_seed(f"salt:{seed}:{seat}").next_u64() for seat in range(seats)]


def own_salt(state: CthulhuState, seat: int) -> int:
    """The seat's salt; 0 in a game stored before salts were dealt."""
    return state.salts[seat] if 0 <= seat < len(state.salts) else 0
