"""A tiny game for tests of team messages and private turns, registered only by the tests
that use it (see `registered`).

Why a game of its own: the team plumbing (team events, private threads, a turn played
from DMs) must be proven before and apart from the Betrayal haunt that will use it.

Rules: seats take turns giving a signal; after `MOVES` signals the game ends. Seat 1 is
the lone "blue" seat and plays privately (its prompt goes to DMs, and one of its options
is marked private); every other seat is "red". A signal tells the channel only that a
move was made; the mover's team hears which signal it was; the mover gets a private line.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from PIL import Image

import renderers
from bot import games
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import PUBLIC, Event, to_player, to_team
from bot.core.views import mark
from bot.games.base import Game, PlayerInfo

KEY = "teamtest"
BLUE_SEAT = 1
MOVES = 9
SECRET_LABEL = "Hidden door"  # the private seat's private option: never in the channel


def team_of(seat: int) -> str:
    return "blue" if seat == BLUE_SEAT else "red"


@dataclass
class TeamState:
    names: list[str]
    ai: list[bool]
    moves: int = 0
    signals: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> TeamState:
        return cls(list(raw["names"]), list(raw["ai"]), int(raw["moves"]),
                   list(raw["signals"]))


def public_line(name: str) -> str:
    return f"{name} made a move."


def team_lines(name: str, team: str, signal: int, count: int) -> list[str]:
    """Two lines per move, so a test can see them joined into one message."""
    return [f"{name} gives signal {signal} to the {team}.",
            f"The {team} have {count} signals now."]


class TeamGame(Game[TeamState]):
    key = KEY
    title = "Team Test"
    state_type = TeamState
    min_players = 3
    max_players = 5
    seats_per_player = 2  # so a test can seat one person twice in the same team

    def setup(self, players: list[PlayerInfo], seed: int,
              options: dict[str, Any]) -> tuple[TeamState, list[Event]]:
        state = TeamState([p.name for p in players], [p.ai for p in players])
        events = [Event("The teams are set.", PUBLIC),
                  Event("You are the red team.", to_team("red")),
                  Event("You are the blue team, alone.", to_team("blue"))]
        return state, events

    def teams(self, state: TeamState) -> dict[str, list[int]]:
        seats = range(len(state.names))
        return {"red": [s for s in seats if team_of(s) == "red"],
                "blue": [s for s in seats if team_of(s) == "blue"]}

    def prompt_private(self, state: TeamState, seat: int) -> bool:
        return seat == BLUE_SEAT

    def to_act(self, state: TeamState) -> int | None:
        return None if self.is_over(state) else state.moves % len(state.names)

    def options(self, state: TeamState, seat: int) -> list[Option]:
        if seat != self.to_act(state):
            return []
        options = [Option(f"Signal {n}", Action("signal", {"n": n}), group="Signal")
                   for n in (1, 2)]
        if seat == BLUE_SEAT:
            options.append(Option(SECRET_LABEL, Action("signal", {"n": 3}), group="Secret",
                                  private=True))
        return options

    def apply(self, state: TeamState, seat: int,
              action: Action) -> tuple[TeamState, list[Event]]:
        if seat != self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if action not in [o.action for o in self.options(state, seat)]:
            raise IllegalAction("That is not a signal you can give.")
        state = self.copy_state(state)
        signal = action.int_arg("n")
        state.moves += 1
        state.signals.append(signal)
        team = team_of(seat)
        count = sum(1 for i, _ in enumerate(state.signals) if team_of(i % len(state.names))
                    == team)
        name = state.names[seat]
        events = [Event(public_line(name))]
        events += [Event(line, to_team(team)) for line in team_lines(name, team, signal, count)]
        events.append(Event(f"You gave signal {signal}.", to_player(seat)))
        return state, events

    def is_over(self, state: TeamState) -> bool:
        return state.moves >= MOVES

    def seat_view(self, state: TeamState, seat: int) -> TeamState:
        """Nothing on the board is secret (only which book each team reads)."""
        return mark(self.copy_state(state))

    def decide(self, view: TeamState, seat: int) -> Action:
        return self.options(view, seat)[0].action

    def private_view(self, state: TeamState, seat: int) -> str:
        return f"You are on the {team_of(seat)} team."

    def status_text(self, state: TeamState) -> str:
        return f"Move {state.moves} of {MOVES}."

    def set_player(self, state: TeamState, seat: int, info: PlayerInfo) -> TeamState:
        state = self.copy_state(state)
        state.names[seat] = info.name
        state.ai[seat] = info.ai
        return state


GAME = TeamGame()


def render_board(state: TeamState) -> bytes:
    """A tiny board (one square per signal), so this game posts a board like the others."""
    image = Image.new("RGB", (8 * MOVES, 8), "white")
    for i, signal in enumerate(state.signals):
        image.paste((60 * signal, 0, 0), (8 * i, 0, 8 * i + 8, 8))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@contextmanager
def registered() -> Iterator[TeamGame]:
    """The game (and its board) is registered for the `with` block only, so no other test
    sees it."""
    games.register(GAME)
    renderers.RENDERERS[KEY] = __name__
    try:
        yield GAME
    finally:
        games._GAMES.pop(KEY, None)
        renderers.RENDERERS.pop(KEY, None)
