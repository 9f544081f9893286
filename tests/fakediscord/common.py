"""Vocabulary every part of the fake Discord shares: permission and intent bits, the REST
route and upload types, and small JSON helpers.

Why a module: the gateway, the REST routes, the payload builders and the test driver all
need these few names, and importing them from here keeps those modules independent.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord
from aiohttp import web

from .models import Json

Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]
# name, bytes, content type, keyed by the multipart index of `files[n]`
Uploads = dict[int, tuple[str, bytes, str]]

# One REST route: method, path pattern below /api/v10 (anchored at both ends when
# compiled), handler. The named groups of the pattern become the handler's `p` dict.
Route = tuple[str, str, Handler]
# Path pieces the route tables share.
APP, GUILD = r"(?P<app>\d+)", r"(?P<guild>\d+)"
CID, MID = r"(?P<cid>\d+)", r"(?P<mid>\d+|@original)"
HOOK = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
).value
MANAGER_PERMISSIONS = discord.Permissions(manage_channels=True).value
GUILD_MEMBERS_INTENT = 1 << 1  # privileged: the Developer Portal must allow it
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly `application/json`, or discord.py reads it as text."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def or_bits(values: Iterable[str | int]) -> int:
    """Bitwise OR of permission values (ints or the strings Discord sends)."""
    out = 0
    for value in values:
        out |= int(value)
    return out


def overwrite_json(data: Json) -> Json:
    """An overwrite as Discord echoes it (allow/deny as strings)."""
    return {
        "id": str(data["id"]),
        "type": int(data.get("type", 0)),
        "allow": str(int(data.get("allow") or 0)),
        "deny": str(int(data.get("deny") or 0)),
    }


def truthy(value: str | None) -> bool:
    """A query flag such as `?wait=true`."""
    return value is not None and value.lower() in ("1", "true")
