"""What a seat of Cthulhu in the House may know: the view its AI decides from.

Seed 002 keeps two things face down. Each player's two secret characters go to that
player alone (rules.py sends them `to_player(seat)`) and are shown to all only when the
rumble is scored (`results`); in a view, the other players' pairs are dealt anew from
the characters this seat does not hold. The six portals lie face down, in rooms and
beside the house: a flipped one is seen, then shuffled back unseen, so no seat knows
which is which, and a view deals the six kinds anew among the same places. The Rng,
which would tell the next flip, is the view's own.

The view's Rng is seeded from the public table and this seat's own pair, so the AI's
bluffs (its noise, ai.py) are not the same for every seat and cannot be read off the
table, while two states that differ only in others' secrets give the same view.
"""

from __future__ import annotations

from bot.core.events import to_player
from bot.core.plain import copy_plain
from bot.core.views import mark, redeal, view_rng
from bot.games.cthulhu.state import CthulhuState


def seat_view(state: CthulhuState, seat: int) -> CthulhuState:
    view = copy_plain(state)
    own = tuple(view.secrets[seat]) if 0 <= seat < len(view.secrets) else ()
    rng = view_rng("cthulhu", seat, own, view.rumble, view.turn, view.turns_played,
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
