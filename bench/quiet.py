"""What every bench's outlet does with DMs, team lines and reminders: nothing. A bench
measures the rules, the store and the board; each outlet keeps only what its figures
need from the public post (bot.delivery.Outlet names the rest)."""

from __future__ import annotations

from bot.store import Table


class QuietOutlet:
    """The private and team deliveries all reach their users, instantly, unsent."""

    async def whisper(self, table: Table, user_id: int, text: str, *, key: str = "") -> bool:
        return True

    async def team(self, table: Table, team: str, user_ids: list[int], text: str, *,
                   key: str = "") -> list[int]:
        return []

    async def remind(self, table: Table, user_id: int, text: str, *, key: str = "") -> None:
        return None
