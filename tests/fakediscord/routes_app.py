"""REST routes about the bot itself: its user and application, other users and members,
the gateway URL, and slash-command sync.

Why a module: these are what discord.py asks at login and `tree.sync()`; the synced
command payloads stored here are what `slash` and `autocomplete` later check options against.
"""

from __future__ import annotations

import copy

from aiohttp import web

from .common import APP, GUILD, Route, json_response
from .models import FakeUser, Json


class AppRoutesMixin:
    """Users, members, the application, the gateway URL and commands.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _app_routes(self) -> list[Route]:
        """This area's part of the route table (see `RestMixin._add_routes`)."""
        return [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/gateway", self._get_gateway),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_app),
            ("PUT", f"/applications/{APP}/commands", self._put_commands),
            ("GET", f"/applications/{APP}/commands", self._get_commands),
            ("PUT", f"/applications/{APP}/guilds/{GUILD}/commands", self._put_commands),
            ("GET", f"/applications/{APP}/guilds/{GUILD}/commands", self._get_commands),
            ("GET", rf"/guilds/{GUILD}/members/(?P<uid>\d+)", self._get_member),
        ]

    async def _get_me(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return json_response(
            self._user_json(self.bot_user) | {"verified": True, "mfa_enabled": False}
        )

    async def _get_gateway(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        """Only AutoShardedBot asks: `shard_count` shards (what Discord recommends), no
        session limits to speak of."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.ws_url, "shards": self.shard_count,
                              "session_start_limit": limit})

    async def _get_user(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        user = self.users.get(int(p["uid"]))
        if user is None:
            return self._error(request, 404, 10013, "Unknown User")
        return json_response(self._user_json(user))

    async def _get_member(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        user = self.users.get(int(p["uid"]))
        guild = self.guilds.get(int(p["guild"]))
        if user is None or guild is None or user.id not in guild.member_ids:
            return self._error(request, 404, 10007, "Unknown Member")
        return json_response(self._member_json(user, guild))

    async def _get_app(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        owner = FakeUser(id=self.owner_id, name="owner")
        return json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._user_json(owner),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self._user_json(self.bot_user),
            }
        )

    async def _put_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        scope = int(p["guild"]) if "guild" in p else None
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(scope, [])}
        stored: list[Json] = []
        for cmd in await request.json():
            cmd = copy.deepcopy(cmd)
            cmd.setdefault("type", 1)
            cmd["id"] = old.get((cmd["name"], cmd["type"])) or str(self._snowflake())
            cmd["application_id"] = str(self.application_id)
            cmd["version"] = str(self._snowflake())
            cmd.setdefault("description", "")
            cmd.setdefault("options", [])
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("nsfw", False)
            if scope is not None:
                cmd["guild_id"] = str(scope)
            stored.append(cmd)
        self.commands[scope] = stored
        return json_response(stored)

    async def _get_commands(self, request: web.Request, p: dict[str, str]) -> web.StreamResponse:
        return json_response(self.commands.get(int(p["guild"]) if "guild" in p else None, []))
