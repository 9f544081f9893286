"""The only door to a game: per-channel lock, load, apply, save, then fan-out.

Every change to a game goes through `Sessions`. It holds no game in memory between
calls (each action loads from the store), so several processes or a restart see the
same truth, and the version check in the store refuses a write that raced another.
Delivery goes through an `Outlet`, so the same code serves Discord, the demo and tests.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import table as table_rules
from bot.core.actions import Action, Option
from bot.core.errors import IllegalAction
from bot.core.events import Event
from bot.store import ACTIVE, LOBBY, GameExists, StaleVersion, Store, Table
from bot.texts import say
from renderers import render_public

log = logging.getLogger(__name__)

DOCUMENT_KINDS = frozenset({"book"})  # public events too long and too whole to shorten
MAX_AI_STEPS = 500  # a chain of AI decisions longer than this means a bug, not a game


@dataclass(frozen=True)
class Prompt:
    """Who the game waits for and what they may do, pinned to the table version."""

    seat: int
    user_id: int | None
    name: str
    options: list[Option]
    version: int
    private: bool = False  # the game hides this turn: the options go to the player's DMs


@dataclass
class Post:
    """One channel message: what the table saw, the board, and the next prompt."""

    lines: list[str]
    image: bytes | None = None
    prompt: Prompt | None = None
    dm_failed: list[int] = field(default_factory=list)
    # Long public texts sent whole, each as its own message(s) after the post (a haunt's
    # books read out at the end); the post's own lines may be shortened, these never.
    documents: list[str] = field(default_factory=list)


class Outlet(Protocol):
    async def publish(self, table: Table, post: Post) -> None:
        """Show a public post in the table's channel."""

    async def whisper(self, table: Table, user_id: int, text: str) -> bool:
        """Deliver a private line to one user; False when it could not be delivered."""

    async def team(self, table: Table, team: str, user_ids: list[int], text: str) -> list[int]:
        """Deliver one message to a team's users only; returns those it could not reach."""


@dataclass
class Outcome:
    table: Table
    events: list[Event]
    post: Post | None = None

    @property
    def dm_failed(self) -> list[int]:
        return self.post.dm_failed if self.post else []


class Sessions:
    def __init__(self, store: Store, outlet: Outlet, *, ai_chain: bool = True,
                 render: bool = True) -> None:
        self.store = store
        self.outlet = outlet
        self.ai_chain = ai_chain
        self.render = render
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    @asynccontextmanager
    async def _locked(self, channel_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[channel_id] = lock
        async with lock:
            yield

    # -- reading --------------------------------------------------------------------------

    async def table(self, channel_id: int, *, latest: bool = False) -> Table | None:
        if latest:
            return await self.store.load_latest(channel_id)
        return await self.store.load(channel_id)

    async def board(self, table: Table) -> bytes | None:
        """The public board image, rendered off the event loop."""
        if not self.render or table.state is None:
            return None
        game = table_rules.game_of(table)
        state = game.load(table.state)
        return await asyncio.to_thread(render_public, table.kind, state)

    def prompt(self, table: Table) -> Prompt | None:
        seat = table_rules.to_act_seat(table)
        if seat is None:
            return None
        game = table_rules.game_of(table)
        state = game.load(table.state or {})
        holder = table.seats[seat]
        return Prompt(seat, holder.user_id if not holder.ai else None, holder.name,
                      game.options(state, seat), table.version,
                      private=game.prompt_private(state, seat))

    async def secret(self, channel_id: int, user_id: int) -> str:
        table = await self.store.load(channel_id) or await self.store.load_latest(channel_id)
        if table is None:
            raise IllegalAction(say("errors.no_game"))
        seats = table.seats_of(user_id)  # held now: not a seat handed to the AI
        if not seats:
            raise IllegalAction(say("errors.not_seated"))
        if table.state is None:
            raise IllegalAction(say("errors.not_started"))
        game = table_rules.game_of(table)
        state = game.load(table.state)
        return "\n\n".join(game.private_view(state, seat) for seat in seats)

    # -- changing -------------------------------------------------------------------------

    async def open(self, channel_id: int, guild_id: int | None, host: table_rules.Actor,
                   kind: str, seed: int, options: dict[str, Any] | None = None) -> Outcome:
        """Open a lobby; raises GameExists when the channel already has an open game."""
        async with self._locked(channel_id):
            table, events = table_rules.new_table(kind, channel_id, guild_id, host, seed,
                                                  options)
            table = await self.store.create(table, events, host.user_id,
                                            {"kind": "lobby.open", "args": {"game": kind}})
            return Outcome(table, events)

    async def act(self, channel_id: int, actor: table_rules.Actor, action: Action, *,
                  version: int | None = None) -> Outcome:
        """Apply one action by a user, then let AI seats play until a human is needed."""
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None:
                latest = await self.store.load_latest(channel_id)
                raise IllegalAction(say("errors.game_over" if latest else "errors.no_game"))
            if version is not None and version != table.version:
                raise IllegalAction(say("errors.stale"))
            was_lobby = table.status == LOBBY
            new, events = table_rules.apply(table, actor, action)
            new = await self._save(new, events, table.version, actor.user_id, action)
            if was_lobby and new.status == LOBBY:
                return Outcome(new, events)  # lobby changes show on the lobby message
            return await self._continue(new, events)

    async def ai_step(self, channel_id: int) -> Outcome | None:
        """One AI decision, if an AI seat is to act (the demo drives games this way)."""
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None or not table_rules.ai_to_act(table):
                return None
            new, events = table_rules.ai_step(table)
            new = await self._save(new, events, table.version, None, None)
            return await self._deliver(new, events)

    async def resume(self, channel_id: int) -> Outcome | None:
        """After a restart: finish any AI turns the crash interrupted."""
        async with self._locked(channel_id):
            table = await self.store.load(channel_id)
            if table is None or not table_rules.ai_to_act(table):
                return None
            return await self._continue(table, [])

    async def _continue(self, table: Table, events: list[Event]) -> Outcome:
        events = list(events)
        steps = 0
        while self.ai_chain and table.status == ACTIVE and table_rules.ai_to_act(table):
            steps += 1
            if steps > MAX_AI_STEPS:
                log.error("AI chain in channel %s did not settle", table.channel_id)
                break
            new, more = table_rules.ai_step(table)
            table = await self._save(new, more, table.version, None, None)
            events.extend(more)
        return await self._deliver(table, events)

    async def _save(self, table: Table, events: list[Event], expected: int,
                    actor_id: int | None, action: Action | None) -> Table:
        try:
            return await self.store.save(table, events, expected_version=expected,
                                         actor_id=actor_id,
                                         action=action.to_dict() if action else None)
        except StaleVersion:
            raise IllegalAction(say("errors.busy")) from None

    async def _deliver(self, table: Table, events: list[Event]) -> Outcome:
        """Private lines to their users, team lines to their teams, then one public post.

        A player's lines go one whisper each, as they come. A team's lines are joined
        into one message per team per delivery (the action and the AI turns it set off),
        so a team's thread reads like the channel: one post per move, not a line each.
        """
        failed: list[int] = []

        def note(user_ids: list[int]) -> None:
            failed.extend(u for u in user_ids if u not in failed)

        team_lines: dict[str, list[str]] = {}
        for event in events:
            if event.audience.kind == "player":
                for user_id in self._player_users(table, int(event.audience.ref)):
                    if not await self.outlet.whisper(table, user_id, event.text):
                        note([user_id])
            elif event.audience.kind == "team":
                team_lines.setdefault(event.audience.ref, []).append(event.text)
        if team_lines:
            teams = self._teams(table)
            for team, lines in team_lines.items():
                if team not in teams:
                    log.warning("channel %s: events for unknown team %r were not delivered",
                                table.channel_id, team)
                    continue
                users = self._team_users(table, teams[team])
                if users:
                    note(await self.outlet.team(table, team, users, "\n".join(lines)))
        public = [e for e in events if e.audience.is_public]
        post = Post(lines=[e.text for e in public if e.kind not in DOCUMENT_KINDS],
                    image=await self.board(table), prompt=self.prompt(table),
                    dm_failed=failed,
                    documents=[e.text for e in public if e.kind in DOCUMENT_KINDS])
        await self.outlet.publish(table, post)
        return Outcome(table, events, post)

    @staticmethod
    def _player_users(table: Table, seat: int) -> list[int]:
        holder = table.seats[seat]
        return [holder.user_id] if holder.user_id is not None and not holder.ai else []

    @staticmethod
    def _teams(table: Table) -> dict[str, list[int]]:
        if table.state is None:
            return {}
        game = table_rules.game_of(table)
        return game.teams(game.load(table.state))

    @classmethod
    def _team_users(cls, table: Table, seats: list[int]) -> list[int]:
        """The humans of these seats, once each (one person may hold two seats)."""
        users: list[int] = []
        for seat in seats:
            users.extend(u for u in cls._player_users(table, seat) if u not in users)
        return users


__all__ = ["GameExists", "Outcome", "Outlet", "Post", "Prompt", "Sessions"]
