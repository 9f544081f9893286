"""Discord's rate limits as the fake keeps them: a bucket per route and top-level
resource, the bot's global limit, and the headers every REST answer carries.

What Discord documents (https://discord.com/developers/docs/topics/rate-limits):

- per-route limits, "shared across a set of similar endpoints, indicated in the
  X-RateLimit-Bucket header", counted apart for each top-level resource in the path:
  "channels (channel_id), guilds (guild_id), and webhooks (webhook_id or webhook_id +
  webhook_token)"; so one channel's exhausted bucket leaves another channel's alone;
- a global limit: "All bots can make up to 50 requests per second"; "Interaction
  endpoints are not bound to the bot's Global Rate Limit" (the callback and the
  interaction's webhook: its follow-ups and `@original`);
- the headers: X-RateLimit-Limit, -Remaining, -Reset (epoch seconds), -Reset-After
  (seconds, with decimals) and -Bucket on the answers; on a 429 also
  X-RateLimit-Scope (`user` for a route's limit, `global`) and, for the global limit,
  X-RateLimit-Global, and Retry-After; its JSON body is `message`, `retry_after` and
  `global`. The global 429 carries no route headers (the documented example has none).

The numbers are not published: "rate limits should not be hard coded into your app.
Instead, your app should parse response headers". The ones below are those commonly
observed (5 messages per 5 s per channel, 5 message deletions per second, 5 requests per
2 s on a webhook); a client must follow the headers, whatever they say, and discord.py
does (http.py's `Ratelimit`: the request that empties a bucket returns only once the
bucket has reset, the next one waits; a 429 is slept out for its `retry_after` and
retried, the global one holding every other request back meanwhile).

Windows start at a bucket's first request and last the rule's seconds times `scale`
(FakeDiscord's `rate_window_scale`): small by default so the suite does not wait out
Discord's seconds, 1.0 for Discord's own sizes.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections import deque
from dataclasses import dataclass

from aiohttp import web

RATE_LIMITED = "You are being rate limited."
# A window's seconds are multiplied by this unless a test says otherwise: 5 s become
# 50 ms, so a burst is still slowed and refused as Discord would, in a fraction of the
# time. The headers say the scaled seconds, and the bot obeys those.
DEFAULT_SCALE = 0.01
HISTORY = 5000  # answers kept in `taken` (a long AI game makes thousands)


@dataclass(frozen=True)
class Rule:
    """One route's limit: `limit` requests per `seconds` (at Discord's size), counted
    per top-level resource under the bucket name sent as X-RateLimit-Bucket."""

    bucket: str
    limit: int
    seconds: float


CALLBACK = r"/interactions/\d+/[^/]+/callback"
INTERACTION_WEBHOOK = r"/webhooks/\d+/[^/]+(?:/.*)?"
# Commonly observed limits, first match wins; any other route gets DEFAULT under a
# bucket of its own. Message posts and edits are 5 per 5 s per channel; deletions 5 per
# second; an interaction's webhook (follow-ups, `@original`) 5 per 2 s per token, as
# webhooks are; the callback is answered once per interaction, its bucket never fills.
RULES: tuple[tuple[str, re.Pattern[str], Rule], ...] = tuple(
    (method, re.compile(pattern + "$"), rule)
    for method, pattern, rule in (
        ("POST", r"/channels/\d+/messages", Rule("channel-messages-create", 5, 5.0)),
        ("PATCH", r"/channels/\d+/messages/\d+", Rule("channel-messages-edit", 5, 5.0)),
        ("DELETE", r"/channels/\d+/messages/\d+", Rule("channel-messages-delete", 5, 1.0)),
        ("POST", CALLBACK, Rule("interaction-callback", 5, 1.0)),
        ("*", INTERACTION_WEBHOOK, Rule("interaction-webhook", 5, 2.0)),
    )
)
DEFAULT_LIMIT, DEFAULT_SECONDS = 5, 1.0
GLOBAL_LIMIT, GLOBAL_SECONDS = 50, 1.0  # "up to 50 requests per second"
NOT_GLOBAL = re.compile(f"(?:{CALLBACK}|{INTERACTION_WEBHOOK})$")  # interaction endpoints
TOKEN_RESOURCE = re.compile(r"/(?:webhooks|interactions)/(\d+)/([^/]+)")
ID_RESOURCE = re.compile(r"/(?:channels|guilds)/(\d+)")


def top_level(path: str) -> str:
    """The path's top-level resource, which a route's limit is counted per: a webhook
    or an interaction's id and token, else the channel's or guild's id, else none (the
    bot's own routes: one count for the bot)."""
    token = TOKEN_RESOURCE.match(path)
    if token is not None:
        return f"{token[1]}+{token[2]}"
    found = ID_RESOURCE.search(path)
    return found[1] if found is not None else ""


def rule_for(method: str, path: str, template: str) -> Rule:
    """The limit of a request; `template` (the fake's route pattern it matched) names
    the bucket of a route without a rule of its own, as Discord's opaque hash would."""
    for wanted, pattern, rule in RULES:
        if wanted in ("*", method) and pattern.match(path):
            return rule
    digest = hashlib.md5(f"{method} {template}".encode()).hexdigest()
    return Rule(digest, DEFAULT_LIMIT, DEFAULT_SECONDS)


@dataclass
class Window:
    """A bucket's count in its current window, on Discord's clock."""

    rule: Rule
    used: int = 0
    resets_at: float = 0.0

    def remaining(self) -> int:
        return max(self.rule.limit - self.used, 0)


@dataclass(frozen=True)
class Taken:
    """One request as the limits saw it: what its answer's headers said."""

    method: str
    path: str
    bucket: str
    resource: str
    limit: int
    remaining: int
    reset_after: float
    status: int  # 429 when refused here; else 0 (the handler's status is not kept)
    scope: str = ""  # a refusal's: "user" (the route's limit) or "global"


@dataclass
class Verdict:
    """What the limits say of a request: the headers its answer carries, or the 429
    that answers it instead."""

    headers: dict[str, str]
    refusal: web.Response | None = None


class RateLimits:
    """The buckets of one FakeDiscord (its `rate_limits`) and the bot's global count."""

    def __init__(self, scale: float = DEFAULT_SCALE) -> None:
        self.scale = scale
        self.global_limit = GLOBAL_LIMIT  # a test may lower it to reach it sooner
        self.windows: dict[tuple[str, str], Window] = {}
        self.global_window = Window(Rule("global", GLOBAL_LIMIT, GLOBAL_SECONDS))
        self.taken: deque[Taken] = deque(maxlen=HISTORY)
        self.refused: list[Taken] = []  # every 429 these limits answered
        self._quiet_at = 0.0  # until then the bot may be waiting on a limit

    def take(self, method: str, path: str, template: str, now: float) -> Verdict:
        """Count one arriving request: its headers, or a 429 when the global limit or
        its route's bucket has nothing left in the current window."""
        if not NOT_GLOBAL.match(path):
            refusal = self._global(method, path, now)
            if refusal is not None:
                return refusal
        rule = rule_for(method, path, template)
        resource = top_level(path)
        window = self._window(self.windows.setdefault((rule.bucket, resource), Window(rule)),
                              now)
        reset_after = window.resets_at - now
        if window.used >= rule.limit:
            taken = Taken(method, path, rule.bucket, resource, rule.limit, 0, reset_after,
                          429, "user")
            self._refused(taken, now + reset_after)
            headers = self._headers(taken) | {"X-RateLimit-Scope": "user"}
            return Verdict(headers, self._too_many(reset_after, False, headers))
        window.used += 1
        taken = Taken(method, path, rule.bucket, resource, rule.limit, window.remaining(),
                      reset_after, 0)
        self.taken.append(taken)
        if taken.remaining == 0:  # the bot waits out the reset before going on
            self._quiet_at = max(self._quiet_at, window.resets_at)
        return Verdict(self._headers(taken))

    def quiet_at(self) -> float:
        """Discord's time until which the bot may still be waiting on a limit (a bucket
        it emptied, a 429's retry_after): `settle` does not call it idle before then."""
        return self._quiet_at

    def _global(self, method: str, path: str, now: float) -> Verdict | None:
        window = self._window(self.global_window, now)
        if window.used < self.global_limit:
            window.used += 1
            return None
        retry_after = window.resets_at - now
        taken = Taken(method, path, "global", "", self.global_limit, 0, retry_after, 429,
                      "global")
        self._refused(taken, window.resets_at)
        headers = {"Retry-After": _retry_header(retry_after), "X-RateLimit-Global": "true",
                   "X-RateLimit-Scope": "global"}
        return Verdict(headers, self._too_many(retry_after, True, headers))

    def _window(self, window: Window, now: float) -> Window:
        """The window as it stands at `now`: a new one once the last has reset."""
        if now >= window.resets_at:
            window.used = 0
            window.resets_at = now + window.rule.seconds * self.scale
        return window

    def _refused(self, taken: Taken, until: float) -> None:
        self.taken.append(taken)
        self.refused.append(taken)
        self._quiet_at = max(self._quiet_at, until)

    @staticmethod
    def _headers(taken: Taken) -> dict[str, str]:
        headers = {
            "X-RateLimit-Limit": str(taken.limit),
            "X-RateLimit-Remaining": str(taken.remaining),
            "X-RateLimit-Reset": f"{time.time() + taken.reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{max(taken.reset_after, 0.001):.3f}",
            "X-RateLimit-Bucket": taken.bucket,
        }
        if taken.status == 429:
            headers["Retry-After"] = _retry_header(taken.reset_after)
        return headers

    @staticmethod
    def _too_many(retry_after: float, is_global: bool,
                  headers: dict[str, str]) -> web.Response:
        body = {"message": RATE_LIMITED, "retry_after": round(max(retry_after, 0.001), 3),
                "global": is_global}
        return web.Response(body=json.dumps(body).encode(), status=429,
                            headers={"Content-Type": "application/json", **headers})


def _retry_header(seconds: float) -> str:
    """Retry-After as Discord sends it: whole seconds, rounded up (64.57 -> 65)."""
    return str(max(1, math.ceil(seconds)))
