"""The record of a game's live message: the one channel message it keeps up to date.

Apart from the store's other records (bot/store/records.py, which names it too) so that
the table's record (bot/table_record.py) can carry the live message it was loaded with
without importing the store: the delivery that follows a load then needs no read of
its own (bot/courier.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LiveMessage:
    """The one channel message a game keeps up to date (cogs/outlet_live.py), as the store
    remembers it, so a restarted bot goes on editing it instead of posting anew."""

    message_id: int
    chapter: str | None = None  # the game's chapter it tells (Game.chapter)
    turn: str | None = None  # the turn its lines belong to (Game.turn_name)
    board_hash: str = ""  # the board PNG it shows: an unchanged board is not sent again
    lines: list[str] = field(default_factory=list)  # the lines it shows now
    delivery: str = ""  # the delivery that last set it: sent again, it changes nothing
    extras: bool = False  # it shows pictures beside the board (dice) to take off later
    ping_id: int | None = None  # the last "your turn" ping, deleted when the next is sent
    ping_user: int | None = None  # the human whose turn it was at that delivery
    # The last event (its seq in the game's log) whose line it has shown: a delivery
    # carrying that event again, under another key, does not show it twice.
    through: int = 0
    alt: str = ""  # the alt text of the board it shows (said again with every edit)
    # A private turn's prompt in its player's DMs, as (DM channel, message, player): the
    # next delivery takes its buttons off (a pause holds it). Kept with the live message
    # in the store, so a restarted bot, or another process, still finds it. None: none.
    dm_prompt: tuple[int, int, int] | None = None
