"""A finished game played again through the engine, for its replay (`/game replay`).

Why rebuilt and not recorded: a board is never stored (only its hash), and a game is pure
data moved on by its engine, so its seed and the moves each save took (bot/moves.py, the
`moves` table) give every state again, which the boards' own renderers then draw. The
rebuilt end is checked against the stored end: a replay is exact or says it is not.

A game saved before the moves were kept (an earlier release) has no moves. What it still
has is its seed, its seats and options (the envelope), the undo points of a game still
under way (each an earlier envelope) and its stored end. Its replay is then what those
give: the opening dealt again from the seed through the engine, each kept state, the end
(`Rebuilt.exact` False). Its middle, once finished, is gone: the save that ends a game
drops its undo points.

Which states become pictures (`chosen`): at most `most` of them, about one a turn. Each
turn's last state is a candidate (what the table saw when the turn was done); while the
budget allows, the states inside a turn (a fight told card by card, each tile of an
exploration) join it, evenly spread. No state inside a seat's private turn is shown
(Game.prompt_private: the channel saw only where it ended), and the first and last
states always are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot import moves as recorded
from bot import table as table_rules
from bot.games.base import Game, PlayerInfo
from bot.store.records import UndoPoint
from bot.table_record import Table
from bot.texts import say
from renderers import animation, render_public
from renderers.animation import Animation

MOST_FRAMES = 90  # the pictures of one replay at most (about 30 s at a third of a second)


@dataclass(frozen=True)
class Moment:
    """One state of the game as it was replayed: the version of the save that made it,
    and the turn it belongs to (Game.turn_name), which groups states into turns."""

    version: int
    state: Any
    turn: str | None
    private: bool  # a seat's private turn is under way: the channel did not see it


@dataclass(frozen=True)
class Rebuilt:
    """Every state a replay may show, oldest first, ending with the stored end."""

    kind: str
    moments: list[Moment]
    exact: bool  # played again move by move, to the very state stored at the end
    why: str = ""  # why not exact (for the log): no moves kept, a move refused, ...


def rebuild(table: Table, moves: Sequence[tuple[int, list[recorded.Move]]],
            points: Sequence[UndoPoint] = ()) -> Rebuilt:
    """The game's states from its recorded moves, checked against its stored end; when
    the moves are missing or do not play on this release, what is kept (`kept`)."""
    game = table_rules.game_of(table)
    if table.state is None:
        raise ValueError(f"game {table.id} never started: nothing to replay")
    end = game.load(table.state)
    if not moves or recorded.SETUP not in moves[0][1][0]:
        return kept(table, points, "no moves kept from its start")
    try:
        moments = _played_again(game, moves)
    except recorded.CannotReplay as exc:
        return kept(table, points, str(exc))
    if game.dump(moments[-1].state) != game.dump(end):
        return kept(table, points, "the moves played again end elsewhere")
    return Rebuilt(table.kind, moments, exact=True)


def _played_again(game: Game[Any], moves: Sequence[tuple[int, list[recorded.Move]]]
                  ) -> list[Moment]:
    moments: list[Moment] = []
    by_version: list[tuple[int, Any]] = []  # the state each save left, for an undo

    def past(version: int) -> Any:
        found = [state for v, state in by_version if v <= version]
        return found[-1] if found else None

    state: Any = None
    for version, taken in moves:
        for move in taken:
            state, _ = recorded.take(game, state, move, past)
            moments.append(moment(game, version, state))
        by_version.append((version, state))
    if state is None:
        raise recorded.CannotReplay("no state was made")
    return moments


def moment(game: Game[Any], version: int, state: Any) -> Moment:
    seat = game.to_act(state)
    private = seat is not None and not game.is_over(state) and game.prompt_private(state, seat)
    return Moment(version, state, game.turn_name(state), private)


def kept(table: Table, points: Sequence[UndoPoint], why: str) -> Rebuilt:
    """A game without its moves (saved by an earlier release): the opening dealt again
    from its seed through the engine, the states its undo points keep, its end."""
    game = table_rules.game_of(table)
    moments: list[Moment] = []
    opening = _opening(table, game)
    if opening is not None:
        moments.append(moment(game, 1, opening))
    for point in sorted(points, key=lambda p: p.version):
        past = Table.from_row(id=table.id or 0, channel_id=table.channel_id,
                              guild_id=table.guild_id, kind=table.kind, status=table.status,
                              version=point.version, envelope=point.envelope)
        if past.state is not None:
            moments.append(moment(game, point.version, game.load(past.state)))
    moments.append(moment(game, table.version, game.load(table.state or {})))
    return Rebuilt(table.kind, moments, exact=False, why=why)


def _opening(table: Table, game: Game[Any]) -> Any:
    """The game's first state, dealt from its seed, seats and options as stored. A seat
    a human held keeps its user id when handed to the AI, so such a seat was a human's
    at the start. None when this release cannot deal it."""
    players = [PlayerInfo(seat.name, seat.ai and seat.user_id is None) for seat in table.seats]
    try:
        state, _ = game.setup(players, table.seed, table_rules.setup_options(table))
    except Exception:  # an option or pick this release no longer knows: no opening
        return None
    return state


def chosen(moments: Sequence[Moment], most: int = MOST_FRAMES) -> list[Moment]:
    """At most `most` moments to draw, in order (see the module's docstring)."""
    shown = [m for m in moments if not m.private]
    if not shown:
        return list(moments[-1:])
    ends = [i for i, m in enumerate(shown)
            if i == len(shown) - 1 or shown[i + 1].turn != m.turn]
    keep = set(_spread(ends, most - 1)) | {0, len(shown) - 1}
    inside = [i for i in range(len(shown)) if i not in keep]
    keep |= set(_spread(inside, most - len(keep)))
    return [shown[i] for i in sorted(keep)]


def _spread(items: Sequence[int], count: int) -> list[int]:
    """`count` of `items`, evenly spread, the last among them (all when they fit)."""
    if count <= 0:
        return []
    if len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[min(len(items) - 1, int(len(items) - 1 - n * step))] for n in range(count)]


class Progress:
    """How far a replay's drawing has gone, 0 to 1: written by the thread drawing it, read
    by the cog that edits its progress line (a float's assignment is atomic)."""

    def __init__(self) -> None:
        self.done = 0.0


def draw(table: Table, rebuilt: Rebuilt, progress: Progress | None = None,
         most: int = MOST_FRAMES, outcome: str = "") -> Animation:
    """The replay as an animated image: the chosen states drawn by the game's own
    renderer (public information only, as on the live message), then the end card: who
    won (`outcome`, the story's line the table read at the end) and what was secret,
    once the game is over (Game.revealed)."""
    progress = progress or Progress()
    game = table_rules.game_of(table)
    shown = chosen(rebuilt.moments, most)
    pictures = []
    for n, step in enumerate(shown, start=1):
        pictures.append(animation.frame(render_public(table.kind, step.state)))
        progress.done = n / (len(shown) + 2)
    pictures.append(animation.card(say("replay.end_title", title=game.title),
                                   end_lines(table, rebuilt, outcome)))
    progress.done = (len(shown) + 1) / (len(shown) + 2)
    made = animation.animate(pictures)
    progress.done = 1.0
    return made


def end_lines(table: Table, rebuilt: Rebuilt, outcome: str = "") -> list[str]:
    """The end card's words: how the table ended (who won, or who ended it), the secrets
    of a game played to its end (never of one cut short: no book was opened then), a
    note when not exact."""
    game = table_rules.game_of(table)
    end = rebuilt.moments[-1].state
    lines = [line for line in dict.fromkeys((outcome, table.ended_reason)) if line]
    if game.is_over(end):
        lines += game.revealed(end)
    if not rebuilt.exact:
        lines.append(say("replay.kept"))
    return lines
