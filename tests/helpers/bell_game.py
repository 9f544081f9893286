"""A tiny game for tests of out-of-turn actions, registered only by the tests that use it
(see `register`).

Why a game of its own: seats acting while it is someone else's turn (IT: Evil Below's
Bike rides) must be proven in the shared contract before and apart from the game that
will use it.

Rules: seats take turns stepping; after `MOVES` steps the game ends. Every seat starts
with a bell, which it may ring once, at any moment of someone else's turn (never on its
own): the seats with a bell besides the one to act are `out_of_turn`, and their only
options are the ring. An AI rings its bell as soon as someone has stepped (`ai_offer`).
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest
from PIL import Image

import renderers
from bot import games
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.core.views import mark
from bot.games.base import Game, PlayerInfo

KEY = "belltest"
MOVES = 6
STEP = Action("step")
RING = Action("ring")
STEP_LABEL = "Step"
RING_LABEL = "Ring the bell"


@dataclass
class BellState:
    names: list[str]
    ai: list[bool]
    moves: int = 0
    bells: list[bool] = field(default_factory=list)
    rings: list[int] = field(default_factory=list)  # the seats that rang, in order

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> BellState:
        return cls(list(raw["names"]), list(raw["ai"]), int(raw["moves"]),
                   list(raw["bells"]), list(raw["rings"]))


def rang_line(name: str) -> str:
    return f"{name} rings the bell."


def stepped_line(name: str) -> str:
    return f"{name} steps."


class BellGame(Game[BellState]):
    key = KEY
    title = "Bell Test"
    state_type = BellState
    min_players = 2
    max_players = 4

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[BellState, list[Event]]:
        state = BellState([p.name for p in players], [p.ai for p in players],
                          bells=[True] * len(players))
        return state, [Event("Everyone holds a bell.")]

    def to_act(self, state: BellState) -> int | None:
        return None if self.is_over(state) else state.moves % len(state.names)

    def out_of_turn(self, state: BellState) -> list[int]:
        actor = self.to_act(state)
        if actor is None:
            return []
        return [s for s, bell in enumerate(state.bells) if bell and s != actor]

    def options(self, state: BellState, seat: int) -> list[Option]:
        if seat == self.to_act(state):
            return [Option(STEP_LABEL, STEP, group="Turn", style="primary")]
        if seat in self.out_of_turn(state):
            return [Option(RING_LABEL, RING, group="Bell")]
        return []

    def apply(self, state: BellState, seat: int,
              action: Action) -> tuple[BellState, list[Event]]:
        if action not in [o.action for o in self.options(state, seat)]:
            if action == STEP:
                raise IllegalAction("It is not your turn.")
            raise IllegalAction("You can't do that now.")
        new = self.copy_state(state)
        name = new.names[seat]
        if action == RING:
            new.bells[seat] = False
            new.rings.append(seat)
            return new, [Event(rang_line(name))]
        new.moves += 1
        return new, [Event(stepped_line(name))]

    def is_over(self, state: BellState) -> bool:
        return state.moves >= MOVES

    def check_ai_seat(self, state: BellState, seat: int) -> None:
        if seat != self.to_act(state):
            raise IllegalAction("It is not your turn.")

    def seat_view(self, state: BellState, seat: int) -> BellState:
        """Nothing is hidden: every bell is in plain sight."""
        return mark(self.copy_state(state))

    def decide(self, view: BellState, seat: int) -> Action:
        return STEP

    def decide_offer(self, view: BellState, seat: int) -> Action | None:
        return RING if view.moves >= 1 and seat in self.out_of_turn(view) else None

    def private_view(self, state: BellState, seat: int) -> str:
        return "You hold your bell." if state.bells[seat] else "You rang your bell."

    def status_text(self, state: BellState) -> str:
        return f"Step {state.moves} of {MOVES}; {len(state.rings)} bells rang."

    def set_player(self, state: BellState, seat: int, info: PlayerInfo) -> BellState:
        new = self.copy_state(state)
        new.names[seat] = info.name
        new.ai[seat] = info.ai
        return new


GAME = BellGame()


def render_board(state: BellState) -> bytes:
    """A tiny board (one square per seat, dark once it rang), so it posts a board too."""
    image = Image.new("RGB", (8 * len(state.bells), 8), "white")
    for seat, bell in enumerate(state.bells):
        image.paste((200, 180, 0) if bell else (40, 40, 40), (8 * seat, 0, 8 * seat + 8, 8))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def register(monkeypatch: pytest.MonkeyPatch) -> BellGame:
    """Register the game (and its board) for one test, as tests/test_table_picks.py does:
    the patch is undone after the test, so no other test (nor a later bot's warm-up)
    sees it."""
    games.all_games()  # the real games first, so undoing the patch leaves them as they were
    monkeypatch.setitem(games._GAMES, KEY, GAME)
    monkeypatch.setitem(renderers.RENDERERS, KEY, __name__)
    return GAME
