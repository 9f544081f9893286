"""The sessions' layer the cogs read a game through (bot/sessions.py is the door): the
table, what it waits for, its board and the board's alt text, a player's secret. It is
apart because none of it changes a game: nothing here takes the channel's lock or
saves."""

from __future__ import annotations

from bot import table as table_rules
from bot.core.errors import IllegalAction
from bot.core.events import Audience
from bot.delivery import Prompt, prompt_of
from bot.locales import current
from bot.sessions_timers import TurnTimers
from bot.table_record import Table
from bot.texts import say

# `/secret` repeats a player's newest private lines (a DM that could not reach them is
# read there): at most this many, found among the game's newest LOOKED_AT events.
PRIVATE_LINES = 5
LOOKED_AT = 200


class Reading(TurnTimers):
    """What the cogs read of a game without changing it."""

    async def table(self, channel_id: int, *, latest: bool = False) -> Table | None:
        if latest:
            return await self.store.load_latest(channel_id)
        return await self.store.load(channel_id)

    def prompt(self, table: Table) -> Prompt | None:
        """What the game waits for now (the cogs build buttons and autocomplete from it)."""
        return prompt_of(table)

    async def board(self, table: Table, *, whole: bool = False) -> bytes | None:
        """The public board image, rendered off the event loop; `whole`: the whole
        board at full size, where the chat board shows part of it (`render_whole`)."""
        if not self.render or table.state is None:
            return None
        return await self.worker.board(table.kind, table_rules.game_state(table), whole=whole,
                                       language=await self.courier.language(table))

    async def board_alt(self, table: Table) -> str:
        """The public board's alt text (what it shows, in words), made off the event
        loop like the board."""
        if table.state is None:
            return ""
        return await self.worker.board_alt(table.kind, table_rules.game_state(table),
                                           await self.courier.language(table))

    async def secret(self, channel_id: int, user_id: int) -> str:
        table = await self.store.load(channel_id) or await self.store.load_latest(channel_id)
        if table is None:
            raise IllegalAction(say("errors.no_game"))
        seats = table.seats_of(user_id)  # held now: not a seat handed to the AI
        if not seats:
            raise IllegalAction(say("errors.not_seated"))
        if table.state is None:
            raise IllegalAction(say("errors.not_started"))
        game, state = table_rules.game_of(table), table_rules.game_state(table)
        parts = [game.private_view(state, seat) for seat in seats]
        lines = await self._private_lines(table, seats)
        if lines:
            parts.append("\n".join([say("secret_lines"), *lines]))
        return "\n\n".join(parts)

    async def _private_lines(self, table: Table, seats: list[int]) -> list[str]:
        """The newest lines said to these seats alone: a whisper is the only way some
        private knowledge arrives (a card seen on top of a deck), and where the player's
        DMs are closed the channel sends them here (`dm_failed`) to read it."""
        if table.id is None:
            return []
        logged = await self.store.log(table.id, limit=LOOKED_AT, public_only=False)
        mine = [e for e in logged
                if (audience := Audience.decode(e.audience)).kind == "player"
                and any(audience.reaches(seat, {}) for seat in seats)]
        return [e.text_in(current()) for e in mine[-PRIVATE_LINES:]]
