"""A finished game played again through the engine, for its replay (`/game replay`).

Why rebuilt and not recorded: a board is never stored (only its hash), and a game is pure
data moved on by its engine, so its seed and the moves each save took (bot/moves.py, the
`moves` table) give every state again, which the boards' own renderers then draw. The
rebuilt end is checked against the stored end: a replay is exact or says it is not.

A game saved before the moves were kept (an earlier release) has no moves. What it still
has is its seed, its seats and options (the envelope), its event log (each save's player
and action: a player's click, a moderator's tool, a timer), the undo points of a game
still under way (each an earlier envelope) and its stored end. First it is played again
from its log (`from_log`): dealt from its seed, each logged action where the log has
one, the AI deciding where the log has none (as the AI chain did then), an undo taken
back to the state it restored. When that reaches the stored end exactly (the rules and
the AI still decide as they did then), the replay is exact. When not, the replay is what
is kept: the opening dealt again from the seed, each kept state, the end
(`Rebuilt.exact` False); its middle, once finished, is gone (the save that ends a game
drops its undo points).

Which states become pictures (`chosen`): at most `most` of them, about one a turn. Each
turn's last state is a candidate (what the table saw when the turn was done); while the
budget allows, the states inside a turn (a fight told card by card, each tile of an
exploration) join it, evenly spread. No state inside a seat's private turn is shown
(Game.prompt_private: the channel saw only where it ended), and the first and last
states always are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot import moves as recorded
from bot import table as table_rules
from bot import timers
from bot.core.actions import Action
from bot.core.choices import game_only
from bot.games.base import Game, PlayerInfo
from bot.locales import ENGLISH, speaking
from bot.store.records import UndoPoint
from bot.table_record import ACTIVE, LOBBY, UNDO_KEPT, Table
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
    why: str = ""  # why not exact (for tests and the bench): no moves kept, a move refused


Logged = Sequence[tuple[int, int | None, dict[str, Any] | None]]
MOST_STEPS = 20_000  # decisions a game played again from its log may take (a bug past it)


def rebuild(table: Table, moves: Sequence[tuple[int, list[recorded.Move]]],
            points: Sequence[UndoPoint] = (), log: Logged | None = None) -> Rebuilt:
    """The game's states from its recorded moves, checked against its stored end; a game
    without them, from its event `log` (`from_log`); when neither plays to the stored end
    on this release, what is kept (`kept`). Played again in English whatever language
    the replay is drawn in: the stored states are English's (bot/languages.py's
    `said_in`), and a state may keep some words (a winning reason), so a game
    played again in another language would not end in the stored state."""
    with speaking(ENGLISH):
        return _rebuilt(table, moves, points, log)


def _rebuilt(table: Table, moves: Sequence[tuple[int, list[recorded.Move]]],
             points: Sequence[UndoPoint], log: Logged | None) -> Rebuilt:
    game = table_rules.game_of(table)
    if table.state is None:
        raise ValueError(f"game {table.id} never started: nothing to replay")
    end = game.load(table.state)
    if not moves or recorded.SETUP not in moves[0][1][0]:
        if log is not None:
            moments = from_log(table, log)
            if moments and same_game(game, moments[-1].state, end):
                return Rebuilt(table.kind, _ending(moments, end), exact=True)
            return kept(table, points, "no moves kept, and its log plays elsewhere now")
        return kept(table, points, "no moves kept from its start")
    try:
        moments = _played_again(game, moves)
    except recorded.CannotReplay as exc:
        return kept(table, points, str(exc))
    if not same_game(game, moments[-1].state, end):
        return kept(table, points, "the moves played again end elsewhere")
    return Rebuilt(table.kind, _ending(moments, end), exact=True)


def same_game(game: Game[Any], replayed: Any, stored: Any) -> bool:
    """The state played again is the stored one, but for a pending choice's words in
    other languages (kept as the table paused, never by a replay: bot/languages.py) and
    what a state stored by an earlier release did not keep yet (`Game.as_compared`)."""
    kept = game_only(game.dump(stored))
    return game_only(game.as_compared(game.dump(replayed), kept)) == kept


def _ending(moments: list[Moment], end: Any) -> list[Moment]:
    """The moments played again, the last one the stored end itself (its words too)."""
    return [*moments[:-1], replace(moments[-1], state=end)]


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


def from_log(table: Table, log: Logged) -> list[Moment]:
    """A game of an earlier release played again from its event log through the table
    rules (see the module's docstring); [] when the log does not play on this release.

    Save by save, as the versions count them: a save that logged an action plays it (a
    player's, with any seat's rights: it was accepted then; a timer's ending; an undo);
    a save without one was the AI's (its offer, else the seat to act). A save that
    logged nothing at all was a move that said nothing: the AI's, or a player's the
    log cannot tell, which the AI decides here (a guess the stored end checks). A table
    with no log at all (a golden table of tests/golden/, kept without its events) was
    made with every seat's decision the AI's: so it is played again."""
    game = table_rules.game_of(table)
    said = {version: (actor, action) for version, actor, action in log}
    started = next((version for version, _, action in log
                    if action is not None and action.get("kind") == table_rules.START), None)
    current = _lobby(table)
    try:
        current, _ = table_rules.apply(current, table_rules.Actor(table.host_id, "", True),
                                       Action(table_rules.START))
        moments = [moment(game, started or 1, table_rules.game_state(current))]
        if started is None:
            if log:
                return []
            for version in range(MOST_STEPS):
                if current.status != ACTIVE:
                    return moments
                current = _decided(current)
                moments.append(moment(game, version, table_rules.game_state(current)))
            return []
        points: list[Table] = []  # the undo points the bot kept, oldest first
        for version in range(started + 1, table.version + 1):
            if current.status != ACTIVE:
                break
            actor, action = said.get(version, (None, None))
            if action is not None:
                current = _logged(current, actor, Action.from_dict(action), points)
            elif version in said and not table_rules.ai_due(current):
                continue  # an AI's save with nothing left for it: nothing to play
            else:
                current = _decided(current)
            moments.append(moment(game, version, table_rules.game_state(current)))
    except Exception:  # a refused action, an AI that decides otherwise now: not this log
        return []
    return moments


def _decided(current: Table) -> Table:
    """One decision the log does not name: an AI seat's offer, else the seat to act's,
    as the AI decides it."""
    if table_rules.ai_offer(current) is not None:
        return table_rules.ai_offer_step(current)[0]
    seat = table_rules.to_act_seat(current)
    if seat is None:
        raise recorded.CannotReplay("nobody is to act")
    if current.seats[seat].ai:
        return table_rules.ai_step(current)[0]
    action = table_rules.game_of(current).ai_action(table_rules.game_state(current), seat)
    holder = table_rules.Actor(current.seats[seat].user_id, "")
    return table_rules.apply(current, holder, table_rules.for_seat(action, seat))[0]


def _lobby(table: Table) -> Table:
    """The finished table as its lobby was when it started: its seats (a human's seat
    handed to the AI since keeps its user id, so it was a human's), seed and options."""
    lobby = Table(channel_id=table.channel_id, guild_id=table.guild_id, kind=table.kind,
                  host_id=table.host_id, seed=table.seed, options=dict(table.options),
                  seats=[seat.copy() for seat in table.seats], status=LOBBY, id=table.id)
    for seat in lobby.seats:
        seat.ai = seat.user_id is None
    return lobby


def _logged(current: Table, actor: int | None, action: Action, points: list[Table]) -> Table:
    """One logged save's action on the table, keeping the undo points as the bot did."""
    if action.kind == timers.RAN_OUT:
        return timers.run_out(current, str(action.args.get("end", "")),
                              bool(action.args.get(table_rules.WHOLE_TURN)))[0]
    who = table_rules.Actor(actor, "", True)
    if action.kind == table_rules.UNDO:
        steps = action.int_arg("steps")
        point = points[-steps]
        del points[-steps:]
        return table_rules.restore(current, point, who, steps, "")[0]
    if actor is not None and action.kind not in table_rules.TABLE_KINDS:
        points[:] = [*points, current][-UNDO_KEPT:]
    return table_rules.apply(current, who, action)[0]


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
         most: int = MOST_FRAMES, outcome: str = "", ended: str | None = None) -> Animation:
    """The replay as an animated image: the chosen states drawn by the game's own
    renderer (public information only, as on the live message), then the end card: who
    won (`outcome`, the story's line the table read at the end) and what was secret,
    once the game is over (Game.revealed)."""
    progress = progress or Progress()
    shown = chosen(rebuilt.moments, most)
    pictures = []
    for n, step in enumerate(shown, start=1):
        pictures.append(animation.frame(render_public(table.kind, step.state)))
        progress.done = n / (len(shown) + 2)
    pictures.append(animation.card(say("replay.end_title", title=table_rules.title(table)),
                                   end_lines(table, rebuilt, outcome, ended)))
    progress.done = (len(shown) + 1) / (len(shown) + 2)
    made = animation.animate(pictures)
    progress.done = 1.0
    return made


def end_lines(table: Table, rebuilt: Rebuilt, outcome: str = "",
              ended: str | None = None) -> list[str]:
    """The end card's words: how the table ended (who won, or who ended it: `ended`, in
    the card's language; the table's record, in English, if not given), the secrets of
    a game played to its end (never of one cut short: no book was opened then), a note
    when not exact."""
    game = table_rules.game_of(table)
    end = rebuilt.moments[-1].state
    why = table.ended_reason if ended is None else ended
    lines = [line for line in dict.fromkeys((outcome, why)) if line]
    if game.is_over(end):
        lines += game.revealed(end)
    if not rebuilt.exact:
        lines.append(say("replay.kept"))
    return lines
