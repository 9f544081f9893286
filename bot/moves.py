"""The engine's steps a table records as it changes, and how a replay takes them again.

Why: a game replays from its seed and its actions (the engines are pure, every die comes
from the state's Rng), but the event log keeps only a player's click, not what the AI
chose, which seat played, or a seat changing hands. So every change of a running game
records here what it asked of the engine (bot/table_core.py's `record`), the store keeps
the list beside the version it made (the `moves` table), and bot/replay.py plays the
list again through the engine to draw the game turn by turn.

A move is plain JSON, one of:
- `{"setup": {"players": [[name, ai], ...], "seed": n, "options": {...}}}`: the start;
- `{"seat": n, "action": {"kind": ..., "args": {...}}}`: one action of one seat (the AI's
  choice written out, so a later, wiser AI does not change the past);
- `{"player": n, "name": ..., "ai": bool}`: a seat changing hands (`Game.set_player`);
- `{"restore": version}`: /gm undo took the game back to the state it had at `version`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.actions import Action
from bot.core.events import Event
from bot.games.base import Game, PlayerInfo

SETUP = "setup"
SEAT = "seat"
PLAYER = "player"
RESTORE = "restore"

Move = dict[str, Any]


def setup_move(players: list[PlayerInfo], seed: int, options: dict[str, Any]) -> Move:
    return {SETUP: {"players": [[p.name, p.ai] for p in players], "seed": seed,
                    "options": dict(options)}}


def action_move(seat: int, action: Action) -> Move:
    return {SEAT: seat, "action": action.to_dict()}


def player_move(seat: int, info: PlayerInfo) -> Move:
    return {PLAYER: seat, "name": info.name, "ai": info.ai}


def restore_move(version: int) -> Move:
    return {RESTORE: version}


class CannotReplay(Exception):
    """The recorded moves do not play again on this release (a move the engine refuses,
    a restore to a version never seen): the replay falls back on what is stored."""


def take(game: Game[Any], state: Any, move: Move,
         past: Callable[[int], Any]) -> tuple[Any, list[Event]]:
    """The state after one recorded move (`state` None before the setup), and the events
    the engine said; `past(version)` is the state the game had at that version (None if
    unknown), for an undo. Raises CannotReplay for a move that does not read or play."""
    try:
        if SETUP in move:
            start = move[SETUP]
            players = [PlayerInfo(str(name), bool(ai)) for name, ai in start["players"]]
            return game.setup(players, int(start["seed"]), dict(start["options"]))
        if state is None:
            raise CannotReplay("a move before the setup")
        if SEAT in move:
            return game.apply(state, int(move[SEAT]), Action.from_dict(move["action"]))
        if PLAYER in move:
            info = PlayerInfo(str(move["name"]), bool(move["ai"]))
            return game.set_player(state, int(move[PLAYER]), info), []
        if RESTORE in move:
            version = int(move[RESTORE])
            restored = past(version)
            if restored is None:
                raise CannotReplay(f"an undo to version {version}, never replayed")
            return restored, []
    except CannotReplay:
        raise
    except Exception as exc:  # an engine refusing, a key missing: this list cannot play
        raise CannotReplay(f"{type(exc).__name__}: {exc}") from exc
    raise CannotReplay(f"an unknown move: {sorted(move)}")
