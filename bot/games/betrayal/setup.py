"""A new game: explorers chosen or dealt, the three start tiles, shuffled stack and decks.

Explorers: the `explorers` option gives a key per seat (a list, or a comma-separated
string; an empty entry is dealt). Dealt explorers come from the colours nobody has, so
two sides of one character card never play together. The first player is the explorer
whose birthday comes next after `today` ("MM-DD"), which the lobby may set; by default
it is drawn from the seeded Rng, so a replay from the seed is exact.

Haunts already played: the `played` option lists the haunt keys this server has played
(the sessions layer hands them in from the store), and `fresh` ("on", the default, or
"off") says whether a played haunt is swapped by seed 003's Selecting the Haunt
(haunt_roll.py). Both are kept in the state, so the choice replays from the state alone.

The `expansion` option names the edition played (editions.py; the classic game when
it is missing): its rooms fill the stack, its decks are dealt, and it lays out the rest.
"""

from __future__ import annotations

from typing import Any

from bot.core.errors import IllegalAction
from bot.core.rng import Rng
from bot.games import base
from bot.games.betrayal import content, editions
from bot.games.betrayal.content import TRAITS, betrayal_line
from bot.games.betrayal.house import START_LAYOUT
from bot.games.betrayal.state import BetrayalState, Explorer, Tile, Turn
from bot.games.betrayal.turn import date_of, day_of_year, first_player
from bot.texts import listed


def _wanted(raw: Any, seats: int) -> list[str]:
    if raw is None or raw == "":
        return [""] * seats
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    items = [str(i or "").strip() for i in items]
    if len(items) > seats:
        raise IllegalAction(betrayal_line("errors.too_many_explorers", count=len(items),
                                          seats=seats))
    return items + [""] * (seats - len(items))


def choose_explorers(raw: Any, seats: int, rng: Rng) -> list[str]:
    known = content.get().explorers
    wanted = _wanted(raw, seats)
    colours: set[str] = set()
    for key in wanted:
        if not key:
            continue
        if key not in known:
            raise IllegalAction(betrayal_line("errors.unknown_explorer", explorer=key,
                                              choices=listed(sorted(known))))
        if known[key].colour in colours:
            raise IllegalAction(betrayal_line("errors.same_card", explorer=key,
                                              colour=betrayal_line(f"colours.{known[key].colour}")))
        colours.add(known[key].colour)
    free = sorted({e.colour for e in known.values()} - colours)
    rng.shuffle(free)
    result = []
    for key in wanted:
        if not key:
            colour = free.pop()
            key = rng.choice(sorted(k for k, e in known.items() if e.colour == colour))
        result.append(key)
    return result


FRESH = "fresh"  # the lobby option: swap a haunt this server has played
PLAYED = base.PLAYED  # the setup option the sessions layer fills: haunts played here


def fresh_option(raw: Any) -> bool:
    """The `fresh` option as a flag: on unless the host turned it off."""
    if isinstance(raw, bool):
        return raw
    return str(raw or "on").strip().lower() not in ("off", "no", "false", "0")


def played_option(raw: Any) -> list[str]:
    """The `played` option as a list of keys, in a stable order (sorted, no repeats)."""
    if not raw:
        return []
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    return sorted({str(i).strip() for i in items if str(i).strip()})


EXPANSION = "expansion"  # the lobby option: the edition played (editions.py)


def edition_option(raw: Any) -> editions.Edition:
    """The `expansion` option as an edition: the classic game unless one is named."""
    key = str(raw or editions.DEFAULT).strip().lower()
    if not editions.known(key):
        raise IllegalAction(betrayal_line("errors.unknown_expansion", expansion=key[:40],
                                          choices=listed([k for k, _ in editions.offered()])))
    return editions.get(key)


def new_state(players: list[str], ai: list[bool], seed: int,
              options: dict[str, Any]) -> BetrayalState:
    rng = Rng.from_seed(seed)
    today = str(options.get("today") or date_of(rng.below(365)))
    try:
        day_of_year(today)
    except ValueError:
        raise IllegalAction(betrayal_line("errors.bad_date", today=today)) from None
    keys = choose_explorers(options.get("explorers"), len(players), rng)
    c = content.get()
    tiles = [Tile(room, floor, x, y) for room, floor, x, y in START_LAYOUT]
    entrance = next(i for i, t in enumerate(tiles) if t.room == "entrance_hall")
    explorers = [Explorer(k, {t: c.explorers[k].traits[t].start for t in TRAITS}, entrance)
                 for k in keys]
    edition = edition_option(options.get(EXPANSION))
    stack = edition.rooms(c)
    rng.shuffle(stack)
    decks = edition.decks(c)
    for deck in decks.values():
        rng.shuffle(deck)
    first = first_player([c.explorers[k].birthday for k in keys], today)
    state = BetrayalState(
        players=list(players), ai=list(ai), explorers=explorers, tiles=tiles, stack=stack,
        room_discard=[], decks=decks, discards={d: [] for d in decks},
        turn=Turn(seat=first, number=1), first=first, today=today,
        played=played_option(options.get(PLAYED)), fresh=fresh_option(options.get(FRESH)),
        edition=edition.key, rng=rng)
    edition.setup(state)
    return state
