"""The haunt from its first moment to a winner: the split, the setup, the rounds.

`start` runs once the chart has named the haunt and its traitor: the traitor's book
goes to the traitor alone, the heroes' book to the heroes alone, the table hears only
what it would see (monsters placed, the Stairs from Basement). Then the rounds: each
hero from the traitor's left, the traitor, the monsters (sides.py). After every action
`settle` checks whether a side has won and moves past an explorer who died on its own
turn. At the end both books become public.
"""

from __future__ import annotations

import copy
from typing import Any

from bot.core.events import Event, to_player, to_team
from bot.games.betrayal import effects, explore, turn
from bot.games.betrayal.context import Ctx
from bot.games.betrayal.effects import step
from bot.games.betrayal.haunting import base, death, monsters, sides
from bot.games.betrayal.haunting.parts import BoardHooks, HouseHooks, TurnHooks
from bot.games.betrayal.haunting.words import haunt_line, tell
from bot.games.betrayal.links import house_links
from bot.games.betrayal.state import HAUNT, HEROES, MONSTERS, TRAITOR, BetrayalState, Frame, Turn
from bot.texts import fill

STAIRS = "stairs_from_basement"


# ---------------------------------------------------------------- books

def book_text(state: BetrayalState, side: str) -> str:
    """One side's book, as its readers see it."""
    plugin = base.for_state(state)
    book = plugin.data.books.get(side, {})
    title = haunt_line(f"books.title_{side}", name=plugin.data.name)
    parts = [f"**{title}**"]
    for part in base.BOOK_PARTS:
        if part == "ending":
            continue
        text = book.get(part)
        if not text:
            continue
        if isinstance(text, list):
            text = "\n".join(f"• {line}" for line in text)
        text = fill(str(text).strip(), **{n: plugin.value(state, n) for n in plugin.data.values})
        parts.append(f"__{haunt_line(f'books.{part}')}__\n{text}")
    return "\n\n".join(parts)


# ---------------------------------------------------------------- start

def start(ctx: Ctx) -> None:
    """The split and the setup, then (as steps, after any placing choice) round 1."""
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    plugin = base.for_state(state)
    traitor = haunt.traitor
    if traitor is not None:
        state.explorers[traitor].flags[sides.HOME] = True  # seed 003: the house obeys them
        ctx.events.append(Event(book_text(state, sides.EVIL), to_player(traitor), "book",
                                {"side": sides.EVIL}))
    if plugin.cooperative:  # one book, and everyone reads it: it goes to the channel
        ctx.events.append(Event(book_text(state, sides.HERO), kind="book",
                                data={"side": sides.HERO}))
        tell(ctx, "events.book_read_together")
    else:
        ctx.events.append(Event(book_text(state, sides.HERO), to_team(sides.HERO), "book",
                                {"side": sides.HERO}))
        tell(ctx, "events.books_read")
    haunt.round = 0
    # Pushed first so it runs last: whatever the haunt's setup pushes (a room to place)
    # runs before the Stairs from Basement check and round 1.
    ctx.push([{"_haunt_stairs": {}}, {"_haunt_round": {}}],
             traitor if traitor is not None else haunt.revealer, "haunt")
    plugin.setup(ctx)


def basement_cut_off(state: BetrayalState) -> bool:
    """No way for monsters out of the basement to the floors above, or back (seed 003,
    line 290: the Coal Chute counts). Doors never cross floors, only links do, and some
    links go one way: the Collapsed Room's hole is jumped down, never climbed (line
    564), so a house joined to its basement by the hole alone is cut off both ways
    round for them (`monsters.graph`: how monsters walk)."""
    basement = {i for i, t in enumerate(state.tiles) if t.floor == "basement"}
    ways = monsters.graph(state)
    up = any(b not in basement for a in basement for b in ways[a])
    down = any(b in basement for a, nexts in ways.items() if a not in basement for b in nexts)
    return not (up and down)


def tally(ctx: Ctx, frame: Frame, target: int, needed: str, hit: str, miss: str,
          count: str = "successes") -> bool:
    """A haunt's roll that counts towards a goal (a ritual, a rite): the roll just made
    (frame.vars["roll"]) at `target` or more adds one to `progress[count]`; the haunt
    says `hit` or `miss` with the count and the `values[needed]` it needs. True on a
    success."""
    state = ctx.state
    assert state.haunt is not None
    plugin = base.for_state(state)
    done = int(state.haunt.progress.get(count, 0))
    success = int(frame.vars.get("roll", 0)) >= target
    if success:
        done += 1
        state.haunt.progress[count] = done
    plugin.say(ctx, hit if success else miss, count=done, needed=plugin.value(state, needed),
               data={count: done} if success else None)
    return success


def no_way_up(state: BetrayalState) -> bool:
    """Explorers in the basement could not walk out of it: no link leads up from it
    (the Coal Chute and the Collapsed Room's hole only lead down; monsters, who climb
    the chute, are `basement_cut_off`'s concern)."""
    basement = {i for i, t in enumerate(state.tiles) if t.floor == "basement"}
    return bool(basement) and not any(a in basement and b not in basement
                                      for a, b, _ in house_links(state))


@step("_haunt_stairs")
def _haunt_stairs(ctx: Ctx, frame: Frame, arg: Any) -> None:
    """Seed 003: if the monsters could not leave the basement, the traitor takes the
    Stairs from Basement out of the room stack and places it (the stack is shuffled)."""
    state = ctx.state
    if not basement_cut_off(state) or not sides.monsters(state) \
            or STAIRS not in explore.unplaced(state) \
            or not any(t.floor == "basement" for t in state.tiles):
        return
    tell(ctx, "events.stairs_needed", kind="setup")
    explore.explore_like(frame, "basement", move=False, room=STAIRS)


@step("_haunt_round")
def _haunt_round(ctx: Ctx, frame: Frame, arg: Any) -> None:
    _new_round(ctx)


# ---------------------------------------------------------------- rounds and turns

def _new_round(ctx: Ctx) -> None:
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    haunt.round += 1
    if out_of_time(ctx):
        return
    tell(ctx, "events.round", kind="turn", number=haunt.round, data={"round": haunt.round})
    plugin = base.for_state(state)
    limit, last = plugin.data.last_round, plugin.last_round(state)
    if limit is not None and limit.warn and haunt.round == last:
        # Any: mypy cannot tell a haunt's number names from say's own keywords.
        warned: dict[str, Any] = {**plugin.numbers(state), limit.rounds: last}
        plugin.say(ctx, limit.warn, **warned)
    base.hooks(state, TurnHooks).start_round(ctx)
    # Seed 003: 「一旦一方完成其勝利條件，遊戲即時完結」 [once a side meets its goal the game
    # ends at once]: what the round's start did (the water reaching the Tower) is
    # judged before anyone's turn begins.
    settle(ctx)
    if state.over:
        return
    heroes = sides.heroes(state)
    if heroes:
        _explorer_turn(ctx, heroes[0], HEROES)
    else:
        _after_heroes(ctx)


def _explorer_turn(ctx: Ctx, seat: int, stage: str) -> None:
    state = ctx.state
    assert state.haunt is not None
    state.haunt.stage = stage
    if base.hooks(state, TurnHooks).skips_turn(ctx, seat):  # spent (the haunt said why)
        state.turn = Turn(seat=seat, number=state.turn.number + 1)
        next_turn(ctx, seat)
        return
    turn.start_turn(ctx, seat)


def _after_heroes(ctx: Ctx) -> None:
    state = ctx.state
    if base.hooks(state, TurnHooks).traitor_plays(state) and state.haunt \
            and state.haunt.traitor is not None:
        _explorer_turn(ctx, state.haunt.traitor, TRAITOR)
        return
    _monsters_turn(ctx)


def _monsters_turn(ctx: Ctx) -> None:
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    if not sides.monsters(state) or haunt.traitor is None:
        _end_round(ctx)
        return
    haunt.stage = MONSTERS
    state.turn = Turn(seat=haunt.traitor, number=state.turn.number + 1)
    tell(ctx, "events.monsters_turn", kind="turn", player=state.players[haunt.traitor],
         data={"seat": haunt.traitor, "turn": state.turn.number, "monsters": True})
    monsters.start_turn(ctx)


def end_monsters(ctx: Ctx) -> None:
    tell(ctx, "events.monsters_done", kind="turn")
    base.hooks(ctx.state, TurnHooks).end_monsters(ctx)
    settle(ctx)
    if not ctx.state.over:
        _end_round(ctx)


def _end_round(ctx: Ctx) -> None:
    settle(ctx)
    if not ctx.state.over:
        _new_round(ctx)


@turn.next_turn_in(HAUNT)
def next_turn(ctx: Ctx, seat: int) -> None:
    """An explorer's haunt turn is over: the next hero, else the traitor, else the
    monsters, else a new round."""
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    plugin = base.for_state(state)
    base.hooks(state, TurnHooks).end_turn(ctx, seat)
    settle(ctx)
    if state.over:
        return
    if plugin.cooperative and base.hooks(state, HouseHooks).house_turn_after(state, seat):
        # The house plays now, as steps (it may wait on a hero's choice, and a game
        # saved meanwhile resumes there); `_after_house` then passes the turn on.
        ctx.push([{"_house_turn": {}}, {"_after_house": {}}], seat, death.HOUSE)
        return
    pass_turn(ctx, seat)


def pass_turn(ctx: Ctx, seat: int) -> None:
    """After `seat`'s turn (and the house's, if it played): the next hero, else the
    traitor, else the monsters, else a new round."""
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    if haunt.stage == HEROES:
        order = sides.heroes(state, alive=False)
        later = order[order.index(seat) + 1:] if seat in order else []
        for hero in later:
            if state.explorers[hero].alive:
                _explorer_turn(ctx, hero, HEROES)
                return
        _after_heroes(ctx)
        return
    _monsters_turn(ctx)


# ---------------------------------------------------------------- winning

def settle(ctx: Ctx) -> None:
    """After every action: has a side won? Did the explorer whose turn it is die?"""
    state = ctx.state
    if state.over or state.haunt is None or not state.haunt.key:
        return
    result = base.for_state(state).winner(state)
    if result is None and not sides.heroes(state):
        result = (sides.EVIL, base.common_reason("reasons.heroes_dead"))
    if result is not None:
        finish(ctx, *result)


def out_of_time(ctx: Ctx) -> bool:
    """The haunt's last round is over (`last_round` in its data) and no side has won
    meanwhile (`settle` ran as it ended): the side the data names wins. True when that
    ended the game."""
    state = ctx.state
    if state.over or state.haunt is None:
        return False
    plugin = base.for_state(state)
    limit, last = plugin.data.last_round, plugin.last_round(state)
    if limit is None or last is None or state.haunt.round <= last:
        return False
    # Any: mypy cannot tell a haunt's number names from say's own keywords.
    numbers: dict[str, Any] = {**plugin.numbers(state), limit.rounds: last}
    if limit.said:
        plugin.say(ctx, limit.said, **numbers)
    finish(ctx, limit.winner, plugin.reason(limit.reason, **numbers))
    return True


def finish(ctx: Ctx, side: str, reason: base.Reason) -> None:
    """`side` has won. The reason is kept in English with its words
    (`Haunt.reason_words`), so `/game status` and the story say it in their reader's
    language."""
    state = ctx.state
    haunt = state.haunt
    assert haunt is not None
    monsters.tell_moves(ctx)
    haunt.winner, haunt.reason = side, str(reason)
    haunt.reason_words = copy.deepcopy(reason.words)
    state.over = True
    state.pending = None
    state.script.clear()
    plugin = base.for_state(state)
    tell(ctx, winner_key(state, side), kind="game_over", reason=reason,
         data={"winner": side, "reason": str(reason)})
    ending = plugin.data.books.get(side, {}).get("ending")
    if plugin.cooperative and side == sides.EVIL:  # the one book tells both endings
        ending = plugin.data.books.get(sides.HERO, {}).get("ending_lost")
    if ending:
        ctx.events.append(_plain(str(ending).strip()))
    if plugin.cooperative:
        return  # its one book was read by all from the start
    for book_side in (sides.EVIL, sides.HERO):
        if book_side in plugin.data.books:
            ctx.events.append(_plain(haunt_line("books.now_public") + "\n" + book_text(state,
                                                                                       book_side),
                                     kind="book"))


def winner_key(state: BetrayalState, side: str) -> str:
    """The line (haunt_texts.yaml) that tells the table which side won, with its
    reason: a cooperative haunt's evil side is the house itself."""
    cooperative = base.for_state(state).cooperative
    return "events.winner_house" if cooperative and side == sides.EVIL \
        else f"events.winner_{side}"


def _plain(text: str, kind: str = "haunt") -> Event:
    return Event(text, kind=kind)


def is_haunt(state: BetrayalState) -> bool:
    return state.haunt is not None and bool(state.haunt.key) and not state.over



def after_action(ctx: Ctx) -> None:
    """After every action in the haunt: a winner? And if the explorer whose turn it is
    died (nothing left pending), its turn is over and play moves on."""
    state = ctx.state
    if state.haunt is None or not state.haunt.key:
        return
    settle(ctx)
    for _ in range(len(state.players) * 4):
        if state.over or state.pending is not None:
            return
        stage = state.haunt.stage
        if stage == MONSTERS or state.haunt.house is not None \
                or state.explorers[state.turn.seat].alive:
            return
        state.script.clear()  # what was left of the dead explorer's turn
        next_turn(ctx, state.turn.seat)
        effects.run(ctx)
        settle(ctx)


def private_text(state: BetrayalState, seat: int, sheet: str) -> str:
    """What `/secret` shows: the sheet, and once the haunt has begun, the book of the
    side this explorer is on."""
    if state.haunt is None or not state.haunt.key or not base.has_data(state.haunt.key):
        return sheet
    side = sides.side_of(state, seat)
    notes = base.hooks(state, BoardHooks).private_notes(state, seat)
    return "\n\n".join([sheet, book_text(state, side), *notes])
