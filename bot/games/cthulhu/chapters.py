"""How a Cthulhu game is told on the channel's live message: a chapter per rumble, a turn
per turn played."""

from __future__ import annotations

from bot.games.cthulhu.state import CthulhuState


def chapter(state: CthulhuState) -> str:
    """Each rumble (the game's round) gets a message of its own; its scores close it."""
    return f"rumble.{state.rumble}"


def turn_name(state: CthulhuState) -> str:
    return f"turn.{state.turns_played}"
