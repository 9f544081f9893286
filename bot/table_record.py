"""A table's record: one game in one channel, as the table rules see it and the store
keeps it. It lives beside the rules (bot/table.py), which are pure: loading it loads no
database driver. The store maps it to and from its rows (bot/store/rows.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from bot.core.formats import Formats
from bot.core.seats import Seat
from bot.live_record import LiveMessage

LOBBY = "lobby"
ACTIVE = "active"
OVER = "over"
UNDO_KEPT = 20  # undo points kept per game: how far back /gm undo reaches


def languages_known(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 0 -> 1 (issue 25, the bot in two languages): the table remembers the
    server's language as Discord reported it (`guild_language`) and each seat its
    player's (`language`), so a delivery made with no interaction at hand (an AI's
    turn, a timer, a restart) still speaks to each in theirs. An older table knew
    neither: None, read as English until the next interaction tells."""
    raw["guild_language"] = None
    for seat in raw.get("seats", []):
        seat["language"] = None
    return raw


# The envelope's stored formats (bot/core/formats.py), apart from the game state's own:
# the envelope is the same for every game and changes with the table rules. What it
# gained before formats (`paused`) is left out when unset and read with a default.
# A renamed or reshaped field appends a step here (CONTRIBUTING.md, "Change a stored
# state").
ENVELOPE_FORMATS = Formats((languages_known,))


@dataclass
class Table:
    """Everything about one game in one channel: the lobby, the seats and the game state.

    `state` is the game's own dump (see Game.dump); the table around it is the same for
    every game, so lobby, moderation and storage never need to know the rules.
    """

    channel_id: int
    guild_id: int | None
    kind: str
    host_id: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    status: str = LOBBY
    state: dict[str, Any] | None = None
    version: int = 0
    id: int | None = None
    ended_reason: str = ""
    # The event log's cursor: events up to last_seq are written, up to delivered_seq
    # delivered. Those in between are owed to Discord (the outbox).
    last_seq: int = 0
    delivered_seq: int = 0
    # A moderator paused the game (/gm pause): players' moves and turn timers wait.
    paused: bool = False
    # The server's language as Discord last reported it (its preferred locale, mapped to
    # one we speak: bot/locales), which /gm settings language may override; None: not
    # known yet.
    guild_language: str | None = None
    # The decoded game state beside the raw dict it came from (bot.table.game_state):
    # memory only, so one action decodes the state once however often it is read.
    memo: tuple[dict[str, Any], Any] | None = field(default=None, init=False, compare=False,
                                                    repr=False)
    # The engine's steps this change took, as bot/table.py records them (the setup, each
    # seat's action, a seat changing hands, an undo): the store keeps them beside the
    # version they made, so a replay rebuilds the game through the engine from its seed
    # (bot/replay.py) rather than from stored pictures. Memory only; a copy has none.
    # None until the first (a default, as `memo`'s: no instance attribute until set).
    moves: list[dict[str, Any]] | None = field(default=None, init=False, compare=False,
                                               repr=False)
    # The game's live message as the store held it when this table was loaded (`load`
    # reads it in the same query), kept up to date by the deliveries made with this
    # table: the delivery after an action then asks the store for nothing more. None:
    # not known (ask the store); (None,): the game has no live message yet. Memory only.
    shown: tuple[LiveMessage | None] | None = field(default=None, init=False,
                                                     compare=False, repr=False)

    def copy(self) -> Table:
        """A copy whose seats and options may change without touching this one, with
        no moves of its own yet.

        The state dict is shared: the table rules replace it, never edit it in place,
        and the engines never mutate a state they are given.
        """
        other = dataclasses.replace(self, options=dict(self.options),
                                    seats=[seat.copy() for seat in self.seats])
        other.memo = self.memo
        other.shown = self.shown
        return other

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return index
        return None

    def seats_of(self, user_id: int) -> list[int]:
        """Every seat this user plays (some games let one person play two explorers)."""
        return [i for i, seat in enumerate(self.seats) if seat.user_id == user_id and not seat.ai]

    def was_seated(self, user_id: int) -> bool:
        """True for a player even after their seat was handed to the AI."""
        return any(seat.user_id == user_id for seat in self.seats)

    def envelope(self) -> dict[str, Any]:
        """What goes into the state_json column: the table minus its row keys, in the
        envelope's current format. The game's state inside keeps its own format (the
        game's `dump` wrote it)."""
        return ENVELOPE_FORMATS.stamped({
            "host_id": self.host_id,
            "seed": self.seed,
            "options": self.options,
            "seats": [s.to_dict() for s in self.seats],
            "state": self.state,
            "ended_reason": self.ended_reason,
            "guild_language": self.guild_language,
            **({"paused": True} if self.paused else {}),
        }, "a table's envelope")

    @classmethod
    def from_row(cls, *, id: int, channel_id: int, guild_id: int | None, kind: str,
                 status: str, version: int, envelope: dict[str, Any], last_seq: int = 0,
                 delivered_seq: int = 0) -> Table:
        """A table as stored: every load and every undo point comes through here, so an
        envelope of an older format is upgraded first and a newer one refused
        (UnknownFormat) before anything reads it."""
        envelope = ENVELOPE_FORMATS.upgraded(
            envelope, f"the envelope of game {id} (channel {channel_id})")
        return cls(
            id=id,
            channel_id=channel_id,
            guild_id=guild_id,
            kind=kind,
            status=status,
            version=version,
            host_id=envelope["host_id"],
            seed=envelope["seed"],
            options=envelope.get("options", {}),
            seats=[Seat.from_dict(s) for s in envelope.get("seats", [])],
            state=envelope.get("state"),
            ended_reason=envelope.get("ended_reason", ""),
            paused=bool(envelope.get("paused", False)),
            guild_language=envelope.get("guild_language"),
            last_seq=last_seq,
            delivered_seq=delivered_seq,
        )
