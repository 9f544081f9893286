"""A seat's view of a game: the state as that seat may know it, the only thing an AI is
ever handed.

Each game builds its views in one function of its own (`Game.seat_view`): a copy of the
state in which everything the seat may not know (a face-down deck's order, another
player's secret) is replaced by something it cannot tell apart from the truth (the
same cards dealt anew). The rules of who knows what are the ones the engine tags its
events with (`Audience.reaches`).

Two states that differ only in what a seat may not know must give that seat the same
view: otherwise an AI could learn the secret from the view's differences. So the
unknown cards are pooled and sorted before they are dealt anew, and the view's Rng (the
shuffle, and whatever the AI draws from the view afterwards) is seeded from what the
seat knows (`view_rng`), never from the game's Rng: the real state is copied, never
touched, so an AI's thinking can neither change the game nor its dice.

`mark` records each view made, so that an AI's entry point can refuse anything else
(`require_view`): a real state handed to an AI is a bug the tests catch at once.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar
from weakref import WeakValueDictionary

from bot.core.rng import Rng

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

# The views made, by id, forgotten with them (states are dataclasses: not hashable).
_VIEWS: WeakValueDictionary[int, Any] = WeakValueDictionary()


def mark(view: T) -> T:
    """Record `view` as a seat's view (a state built by a game's `seat_view`)."""
    _VIEWS[id(view)] = view
    return view


def is_view(state: object) -> bool:
    return _VIEWS.get(id(state)) is state


def require_view(state: object) -> None:
    """The guard at an AI's door: it decides from a seat's view, never the state."""
    if not is_view(state):
        raise TypeError("an AI was handed a game state, not a seat's view of it "
                        "(Game.ai_action builds the view)")


def view_rng(*known: object) -> Rng:
    """An Rng seeded from what the seat knows (public facts, its own secrets): the same
    knowledge gives the same view, whatever the secrets of others."""
    return Rng.from_seed("view:" + "|".join(map(repr, known)))


def redeal(rng: Rng, piles: Sequence[list[K]], order: Any = None) -> None:
    """Deal the cards of `piles` anew among them, each pile keeping its size: the cards
    are pooled and sorted (so the truth's order leaves no trace), then shuffled with
    `rng`. `order` sorts cards that do not compare (the default: as they are)."""
    pool = sorted((card for pile in piles for card in pile), key=order)
    rng.shuffle(pool)
    for pile in piles:
        size = len(pile)
        pile[:] = pool[:size]
        del pool[:size]
