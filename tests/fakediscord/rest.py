"""REST plumbing: the route table, the `/api/v10` dispatcher, error replies, request bodies
(JSON or multipart with files) and the attachment download URL.

Why a module: the handlers in routes_*.py only deal with Discord's semantics; recording
requests, counting them in flight for `settle`, turning crashes into visible failures and
reporting unknown routes in `unhandled` happen here, once.
"""

from __future__ import annotations

import asyncio
import json
import re

from aiohttp import BodyPartReader, web

from .buckets import rule_for
from .common import Handler, Route, Uploads, json_response
from .limits import TOO_LARGE, UPLOAD_MAX
from .models import Json
from .spec_check import error_body, spec_check

BODY_METHODS = ("POST", "PUT", "PATCH")
CHANNEL_IN_PATH = re.compile(r"/channels/(\d+)")
TOKEN_IN_PATH = re.compile(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)")
# A request's body, read once (a multipart stream cannot be read twice).
BODY_KEY = web.RequestKey("fakediscord.body", tuple)


class RestMixin:
    """Routes `/api/v10/...` requests to the handlers of the routes_* mixins.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _add_routes(self) -> None:
        """Compile the routes_* tables; the first route whose method and path match wins."""
        table: list[Route] = [
            *self._app_routes(),
            *self._channel_routes(),
            *self._interaction_routes(),
        ]
        self._routes = [(m, re.compile(p + "$"), h) for m, p, h in table]

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        self._inflight += 1
        self._touch()
        try:
            await self._travel()  # the request's way to Discord
            self.requests.append(f"{request.method} {path}")
            answer = await self._answer(request, path)
            # Discord's answers come through its proxy; discord.py takes a 429 without
            # Via for a Cloudflare ban and does not wait it out.
            answer.headers.setdefault("Via", "1.1 google")
            await self._travel()  # the answer's way back
            return answer
        finally:
            self._inflight -= 1
            self._touch()

    async def _travel(self) -> None:
        """Half the fake's latency (a round trip): a request's way to Discord, or its
        answer's way back."""
        if self.latency:
            await self.pause(self.latency / 2)

    async def _answer(self, request: web.Request, path: str) -> web.StreamResponse:
        """The request as Discord handles it, once it has arrived (`_handle`), its answer
        late where a test slowed its channel (faults.py: `slow`)."""
        answer = await self._handle(request, path)
        delay = self.faults.delay_of(self._channel_named(path))
        if delay:  # done on arrival, its answer late
            await asyncio.sleep(delay)
        return answer

    async def _handle(self, request: web.Request, path: str) -> web.StreamResponse:
        """A test's fault first (faults.py: the request never reached Discord's count),
        then Discord's rate limits (buckets.py), then the route's handler; every answer
        past the limits carries its bucket's headers."""
        if self.token_revoked and not path.startswith(("/interactions/", "/webhooks/")):
            # A reset token: Discord refuses the bot's calls (an interaction's callback
            # and webhook need none).
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        found = self._route(request.method, path)
        rule = None if found is None else rule_for(request.method, path, found[0].pattern)
        refused = self.faults.take(request.method, path, rule)
        if refused is not None:
            return refused
        if found is None:
            return self._unhandled(request, path)
        pattern, handler, params = found
        verdict = self.rate_limits.take(request.method, path, pattern.pattern, self.now())
        if verdict.refusal is not None:
            return verdict.refusal
        answer = await self._handled(request, path, handler, params)
        answer.headers.update(verdict.headers)
        return answer

    def _channel_named(self, path: str) -> int | None:
        """The channel a request is about: the one its path names, or the one the
        interaction whose token it carries was made in (a callback, a follow-up)."""
        named = CHANNEL_IN_PATH.match(path)
        if named is not None:
            return int(named[1])
        token = TOKEN_IN_PATH.match(path)
        handle = self._by_token.get(token[1]) if token is not None else None
        return handle.channel_id if handle is not None else None

    def _route(self, method: str, path: str
               ) -> tuple[re.Pattern[str], Handler, dict[str, str]] | None:
        """The first route whose method and path match, with the path's named parts."""
        for wanted, pattern, handler in self._routes:
            match = pattern.match(path)
            if match and wanted == method:
                return pattern, handler, match.groupdict()
        return None

    async def _handled(self, request: web.Request, path: str, handler: Handler,
                       params: dict[str, str]) -> web.StreamResponse:
        """The handler's answer, after the checks every body meets."""
        try:
            refused = await self._too_large(request, path)
            if refused is None:
                refused = await self._refused_by_spec(request, path)
            if refused is not None:
                return refused
            return await handler(request, params)
        except Exception as exc:  # a 500 would make discord.py retry for seconds
            self.unhandled.append(f"{request.method} {path} crashed: {exc!r}")
            return json_response({"code": 0, "message": f"fake Discord crashed: {exc!r}"}, 400)

    async def _refused_by_spec(self, request: web.Request, path: str) -> web.Response | None:
        """Discord's 400 for a body its API specification or documented limits refuse
        (spec_check.py), recorded in `violations` so the test fails even if the bot
        swallows the answer; None when the body is fine."""
        if request.method not in BODY_METHODS or not spec_check().operation(request.method,
                                                                            path):
            return None
        body, _ = await self._read_body(request)
        found = spec_check().check(request.method, path, body)
        if not found:
            return None
        for violation in found:
            self.violations.append(f"{request.method} {path}: {violation}")
        answer = error_body(found)
        self.errors.append((f"{request.method} {request.path}", 400, answer))
        return json_response(answer, 400)

    async def _too_large(self, request: web.Request, path: str) -> web.Response | None:
        """Discord's 413 for a file over a bot's upload limit (limits.UPLOAD_MAX), as a
        violation too: the bot should never send one. None when every file fits."""
        if request.method not in BODY_METHODS:
            return None
        _, files = await self._read_body(request)
        big = [name for name, data, _ in files.values() if len(data) > UPLOAD_MAX]
        if not big:
            return None
        self.violations.append(f"{request.method} {path}: files over {UPLOAD_MAX} bytes: "
                               f"{', '.join(big)}")
        return self._error(request, 413, TOO_LARGE, "Request entity too large")

    async def _unknown(self, request: web.Request) -> web.StreamResponse:
        return self._unhandled(request, request.path)

    def _unhandled(self, request: web.Request, path: str) -> web.Response:
        self.unhandled.append(f"{request.method} {path}")
        return json_response(
            {"code": 0, "message": f"fake Discord has no route {request.method} {path}"}, 404
        )

    def _error(self, request: web.Request, status: int, code: int, message: str) -> web.Response:
        body = {"code": code, "message": message}
        self.errors.append((f"{request.method} {request.path}", status, body))
        return json_response(body, status)

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        blob = self._blobs.get(int(request.match_info["aid"]))
        if blob is None:
            return web.Response(status=404)
        return web.Response(body=blob[1], headers={"Content-Type": blob[2]})

    async def _read_body(self, request: web.Request) -> tuple[Json, Uploads]:
        """JSON body, or multipart `payload_json` + `files[n]` as discord.py sends them;
        read once per request (the spec check reads it before the handler)."""
        if BODY_KEY in request:
            return request[BODY_KEY]
        if not request.content_type.startswith("multipart/"):
            raw = await request.read()
            request[BODY_KEY] = ((json.loads(raw) if raw else {}), {})
            return request[BODY_KEY]
        payload: Json = {}
        files: Uploads = {}
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif name.startswith("files[") and name.endswith("]"):
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files[int(name[6:-1])] = (part.filename or "file", bytes(await part.read()), ctype)
        request[BODY_KEY] = (payload, files)
        return payload, files
