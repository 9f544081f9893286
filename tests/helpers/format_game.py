"""A tiny game whose stored state changed shape twice, registered only by the tests that
use it (see `register`).

Why a game of its own: the real games are all still in the format they were first
released in, so none of them has an upgrade step yet; this one proves the mechanism
(bot/core/formats.py) with two steps of the kinds a real change makes, and tables saved
in each older format.

Rules: seats take turns stepping; after `MOVES` steps the game ends.

Its stored state, format by format:

- format 0 (as "first released"): {"names": [...], "ai": [...], "steps": n}, the steps
  taken by the whole table;
- format 1: `names` renamed `players` (the name every other game uses, which
  `Game.seat_handed` reads): a rename;
- format 2 (current): `steps` replaced by `counts`, the steps each seat took: a field
  whose value an older state does not hold but implies, computed by the step.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass
from typing import Any

import pytest
from PIL import Image

import renderers
from bot import games
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.formats import Formats
from bot.core.views import mark
from bot.games.base import Game, PlayerInfo

KEY = "formattest"
MOVES = 6
STEP = Action("step")
STEP_LABEL = "Step"


def names_become_players(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 0 -> 1: the seats' names are kept under `players`, as in every game."""
    raw["players"] = raw.pop("names")
    return raw


def steps_become_counts(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 1 -> 2: the table's step count becomes each seat's, as turns went round
    from seat 0 (the only order format 1 knew)."""
    steps, seats = raw.pop("steps"), len(raw["players"])
    raw["counts"] = [steps // seats + (1 if seat < steps % seats else 0)
                     for seat in range(seats)]
    return raw


@dataclass
class FormatState:
    players: list[str]
    ai: list[bool]
    counts: list[int]  # seat -> steps it took

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> FormatState:
        return cls(**raw)  # strict, as the real games are: an unknown key fails


def stepped_line(name: str) -> str:
    return f"{name} steps."


class FormatGame(Game[FormatState]):
    key = KEY
    title = "Format Test"
    state_type = FormatState
    state_formats = Formats((names_become_players, steps_become_counts))
    min_players = 2
    max_players = 4

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[FormatState, list[Event]]:
        state = FormatState([p.name for p in players], [p.ai for p in players],
                            [0] * len(players))
        return state, [Event("Everyone stands ready.")]

    def to_act(self, state: FormatState) -> int | None:
        return None if self.is_over(state) else sum(state.counts) % len(state.players)

    def options(self, state: FormatState, seat: int) -> list[Option]:
        if seat != self.to_act(state):
            return []
        return [Option(STEP_LABEL, STEP, group="Turn", style="primary")]

    def apply(self, state: FormatState, seat: int,
              action: Action) -> tuple[FormatState, list[Event]]:
        if action not in [o.action for o in self.options(state, seat)]:
            raise IllegalAction("You can't do that now.")
        new = self.copy_state(state)
        new.counts[seat] += 1
        return new, [Event(stepped_line(new.players[seat]))]

    def is_over(self, state: FormatState) -> bool:
        return sum(state.counts) >= MOVES

    def check_ai_seat(self, state: FormatState, seat: int) -> None:
        if seat != self.to_act(state):
            raise IllegalAction("It is not your turn.")

    def seat_view(self, state: FormatState, seat: int) -> FormatState:
        """Nothing is hidden: every step is in plain sight."""
        return mark(self.copy_state(state))

    def decide(self, view: FormatState, seat: int) -> Action:
        return STEP

    def private_view(self, state: FormatState, seat: int) -> str:
        return f"You took {state.counts[seat]} steps."

    def status_text(self, state: FormatState) -> str:
        return f"Step {sum(state.counts)} of {MOVES}."

    def set_player(self, state: FormatState, seat: int, info: PlayerInfo) -> FormatState:
        return self.seat_handed(state, seat, info, "No such seat.")


GAME = FormatGame()


def render_board(state: FormatState) -> bytes:
    """A tiny board: one square per seat, darker the more steps it took."""
    image = Image.new("RGB", (8 * len(state.counts), 8), "white")
    for seat, count in enumerate(state.counts):
        shade = max(0, 220 - 40 * count)
        image.paste((shade, shade, shade), (8 * seat, 0, 8 * seat + 8, 8))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def describe(state: FormatState) -> str:
    return f"{sum(state.counts)} steps taken."


def register(monkeypatch: pytest.MonkeyPatch) -> FormatGame:
    """Register the game (and its board) for one test, as tests/helpers/bell_game.py
    does: the patch is undone after the test, so no other test sees it."""
    games.all_games()  # the real games first, so undoing the patch leaves them as they were
    monkeypatch.setitem(games._GAMES, KEY, GAME)
    monkeypatch.setitem(renderers.RENDERERS, KEY, __name__)
    return GAME
