"""Faults a test injects into the fake Discord: REST errors on chosen routes (a 5xx, a
400, a storm of 429s with Discord's rate-limit headers, per route or global), one
channel's answers slowed (`slow`: Discord's API answering one channel's requests late,
as a busy shard of its backend does, while every other channel's come at once) and the
gateway dropping. Discord's own limits, which a bot meets without a test's help, are
buckets.py's.

A fault answers the next `times` requests matching its method and path, before any
route handler runs, so the request changes nothing, as when Discord refuses it. A 429
carries what Discord sends (https://discord.com/developers/docs/topics/rate-limits):
Retry-After, X-RateLimit-Limit/-Remaining/-Reset/-Reset-After/-Bucket/-Scope, or for
the global limit X-RateLimit-Global and -Scope with `"global": true` in the body.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web

from .buckets import Rule

if TYPE_CHECKING:
    from .server import FakeDiscord

MESSAGES = r"/channels/\d+/messages"  # POST: a new message in a channel
A_MESSAGE = r"/channels/\d+/messages/\d+"  # PATCH: an edit


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int
    retry_after: float = 0.0
    is_global: bool = False
    on_hit: Callable[[], None] | None = None  # what else happens then (a deletion)
    hits: int = 0  # requests it answered

    def response(self, rule: Rule | None = None) -> web.Response:
        """The answer; a 429 on a route names that route's bucket (`rule`, buckets.py),
        so the bot's record of its buckets stays as Discord's would; a global one names
        none, as Discord's does not."""
        body: dict[str, object] = {"code": self.code, "message": self.message}
        # Discord's answers come through its proxy; discord.py takes a 429 without Via
        # for a Cloudflare ban and does not wait it out.
        headers = {"Content-Type": "application/json", "Via": "1.1 google"}
        if self.status == 429:
            body.update(retry_after=self.retry_after, **{"global": self.is_global})
            headers["Retry-After"] = f"{max(1, math.ceil(self.retry_after))}"
            if self.is_global:
                headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
            else:
                headers.update({
                    "X-RateLimit-Limit": str(rule.limit if rule else 5),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                    "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                    "X-RateLimit-Bucket": rule.bucket if rule else "fault-bucket",
                    "X-RateLimit-Scope": "user",
                })
        return web.Response(body=json.dumps(body).encode(), status=self.status,
                            headers=headers)


class Faults:
    """The faults armed on one FakeDiscord (its `faults`)."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []
        # Channel id -> seconds the answer to each request about it comes late (Discord
        # did what was asked on arrival): its channel routes, and the callbacks and
        # webhooks of interactions made in it.
        self.slowed: dict[int, float] = {}
        self.slowed_requests = 0  # requests that waited

    def slow(self, channel_id: int, seconds: float) -> None:
        """Answer every request about this channel `seconds` late (0: at once again);
        Discord acts on each when it arrives, as it does when only its answer is slow."""
        if seconds > 0:
            self.slowed[channel_id] = seconds
        else:
            self.slowed.pop(channel_id, None)

    def delay_of(self, channel_id: int | None) -> float:
        """How long a request about this channel (None: no channel) waits; counted."""
        seconds = self.slowed.get(channel_id or 0, 0.0)
        if seconds:
            self.slowed_requests += 1
        return seconds

    def add(self, method: str, path: str, status: int, *, code: int = 0, message: str = "",
            times: int = 1, retry_after: float = 0.0, is_global: bool = False,
            on_hit: Callable[[], None] | None = None) -> Fault:
        """Answer the next `times` `method` requests on paths matching `path` (a regex
        of the path after /api/v10) with this error; `on_hit` runs as each is answered."""
        fault = Fault(method, re.compile(path + "$"), status, code,
                      message or _MESSAGES.get(status, "fault"), times, retry_after,
                      is_global, on_hit)
        self.armed.append(fault)
        return fault

    def rate_limited(self, method: str, path: str, *, times: int, retry_after: float = 0.05,
                     is_global: bool = False) -> Fault:
        """A storm of 429s, as Discord answers a bot over its limit."""
        return self.add(method, path, 429, times=times, retry_after=retry_after,
                        is_global=is_global, message="You are being rate limited.")

    def take(self, method: str, path: str, rule: Rule | None = None) -> web.Response | None:
        """The answer of the first armed fault this request meets (None: no fault);
        `rule`: the limit of the route it is on, if the fake knows the route."""
        for fault in self.armed:
            if fault.times > 0 and fault.method == method and fault.path.match(path):
                fault.times -= 1
                fault.hits += 1
                if fault.on_hit is not None:
                    fault.on_hit()
                return fault.response(rule)
        return None


_MESSAGES = {400: "Invalid Form Body", 404: "Unknown Message", 500: "Internal Server Error",
             502: "Bad Gateway", 503: "Service Unavailable"}


async def drop_gateway(fd: FakeDiscord, *, cut: bool = False) -> None:
    """Cut the bot's gateway connection as a network fault would: closed with code 4000,
    which discord.py may resume, or (`cut`) the TCP connection dropped with no close
    frame at all. Either way it connects again and RESUMEs."""
    session = fd._live_session()
    if session is None:
        raise RuntimeError("no bot is connected")
    if cut and session.transport is not None:
        session.transport.abort()
        return
    await fd._close_socket(session.ws, 4000, "fault: connection dropped")
