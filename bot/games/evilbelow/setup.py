"""Setting up a game as seed 001's nine setup steps say, in that order."""

from __future__ import annotations

from typing import Any

from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.rng import Rng
from bot.games.base import HOST_SEAT
from bot.games.evilbelow import content
from bot.games.evilbelow.content import evil_below_line
from bot.games.evilbelow.state import DRAINPIPE, ROLL, EvilBelowState, Hero

FIGHT_TOTEMS, FIGHT_ATTACKS = 6, 1  # seed 001, step 6A
START_BRAVERY = 5  # seed 001, step 2
YOUNGEST = "youngest"  # setup option: the seat that starts (RULES.md: the host names it)
# The lobby's values for it: "seat1" is seat 1, as its label and the lobby's roster count
# seats. Not the bare index: typed rather than picked, "1" then named the second seat.
SEAT_VALUE = "seat"
CHARACTERS = "characters"  # seat picks: one character key per seat, or None


def youngest_value(seat: int) -> str:
    """The lobby's value naming this seat (0-based) as the youngest."""
    return f"{SEAT_VALUE}{seat + 1}"


def youngest_seat(raw: Any) -> Any:
    """The `youngest` option as a seat index: the lobby's "seatN" (seat N, from 1), or
    an index as a number or digits (an option stored by an earlier release, whose lobby
    offered the bare index; a game built in code). Anything else is left for `build` to
    refuse."""
    if not isinstance(raw, str):
        return raw
    text = raw.strip().lower()
    if text.startswith(SEAT_VALUE) and text[len(SEAT_VALUE):].isdigit():
        return int(text[len(SEAT_VALUE):]) - 1
    return int(text) if text.isdigit() else raw


def pick_characters(count: int, picks: list[Any] | None) -> list[str]:
    """Each seat's pick, the rest handed out in the boards' order (Bill first)."""
    keys = content.character_keys()
    chosen: list[str | None] = [None] * count
    for seat, pick in enumerate((picks or [])[:count]):
        if pick is None:
            continue
        if pick not in keys:
            raise IllegalAction(evil_below_line("errors.unknown_character", name=pick))
        if pick in chosen:
            raise IllegalAction(evil_below_line("errors.character_taken", name=content.character(
                str(pick)).name))
        chosen[seat] = str(pick)
    free = [k for k in keys if k not in chosen]
    return [c if c is not None else free.pop(0) for c in chosen]


def build(names: list[str], ai: list[bool], seed: int,
          options: dict[str, Any]) -> tuple[EvilBelowState, list[Event]]:
    board = content.board()
    rng = Rng.from_seed(seed)
    count = len(names)
    # Step 2: characters on their start, Bravery 5.
    heroes = [Hero(key, content.character(key).start, START_BRAVERY)
              for key in pick_characters(count, options.get(CHARACTERS))]
    # Step 3: the victims shuffled, one on each circle.
    tokens = list(range(board.victims))
    rng.shuffle(tokens)
    per = board.circles
    circles: list[list[int | None]] = [list(tokens[i * per:(i + 1) * per])
                                       for i in range(len(board.keys))]
    # Step 5: the four Bikes.
    bikes = [0] * len(board.keys)
    for where in board.bikes:
        bikes[where] += 1
    # Step 6: the Fight Stack and the two decks.
    totems = list(range(content.totem_count()))
    rng.shuffle(totems)
    attacks = content.attack_ids()
    rng.shuffle(attacks)
    fight_stack = [*totems[-FIGHT_TOTEMS:], *attacks[-FIGHT_ATTACKS:]]
    rng.shuffle(fight_stack)
    del totems[-FIGHT_TOTEMS:]
    del attacks[-FIGHT_ATTACKS:]
    # Step 8: the weakness stacks by reward, each shuffled.
    stacks: list[list[str]] = []
    for reward in (1, 2, 3):
        stack = [w.key for w in content.weaknesses() if w.reward == reward]
        rng.shuffle(stack)
        stacks.append(stack)
    # Step 9: the youngest starts. RULES.md: the host names them in the lobby, and by
    # default it is the host (the table hands in the host's seat; none: the first seat).
    youngest = options.get(YOUNGEST, options.get(HOST_SEAT, 0))
    if isinstance(youngest, bool) or not isinstance(youngest, int) \
            or not 0 <= youngest < count:
        raise IllegalAction(evil_below_line("errors.bad_youngest", count=count))
    state = EvilBelowState(
        players=list(names), ai=list(ai), heroes=heroes, circles=circles, track=[], box=[],
        bikes=bikes, totem_deck=totems, totem_discard=[], attack_pile=attacks,
        fight_stack=fight_stack, stack_hidden=list(fight_stack), weakness_stacks=stacks,
        pennywise=DRAINPIPE,
        starter=youngest, turn=youngest, phase=ROLL,
        dice=[""] * len(board.keys), dice_used=[False] * len(board.keys), rng=rng)
    lines = [evil_below_line("events.setup", drainpipe=board.drainpipe)]
    lines += [evil_below_line("events.setup_hero", player=names[s], character=content.character(
        h.character).name, location=board.names[h.location]) for s, h in enumerate(heroes)]
    # Who starts, and why: the youngest only when the host named one (a default start
    # claimed nobody's age).
    why = "events.youngest" if YOUNGEST in options \
        else "events.host_starts" if HOST_SEAT in options else "events.first_seat_starts"
    events = [Event("\n".join(lines), kind="setup"),
              Event(evil_below_line(why, player=names[youngest]), kind="starter")]
    return state, events
