"""Regenerate openapi.json here from Discord's full published specification.

Why: the full file is 1.2 MB; the fake Discord serves a few routes, so the copy kept in
the repository holds only those routes' operations and every schema they reference,
each byte for byte as Discord publishes it (only `responses` are left out: the fake
checks what the bot sends, not what it answers).

    git -C <discord-api-spec clone> show HEAD:specs/openapi.json > /tmp/openapi.json
    python tests/fakediscord/spec/trim.py /tmp/openapi.json <commit>
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "openapi.json"
REF = "#/components/schemas/"

# The operations the fake Discord serves (tests/fakediscord/routes_*.py), by spec path.
SERVED: dict[str, tuple[str, ...]] = {
    "/users/@me": ("get",),
    "/users/{user_id}": ("get",),
    "/gateway": ("get",),
    "/gateway/bot": ("get",),
    "/oauth2/applications/@me": ("get",),
    "/applications/{application_id}/commands": ("get", "put"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("get", "put"),
    "/guilds/{guild_id}/members/{user_id}": ("get",),
    "/guilds/{guild_id}/channels": ("post",),
    "/users/@me/channels": ("post",),
    "/channels/{channel_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/permissions/{overwrite_id}": ("put", "delete"),
    "/channels/{channel_id}/messages": ("get", "post"),
    "/channels/{channel_id}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/threads": ("post",),
    "/channels/{channel_id}/messages/{message_id}/threads": ("post",),
    "/channels/{channel_id}/thread-members/@me": ("put", "delete"),
    "/channels/{channel_id}/thread-members/{user_id}": ("put", "delete"),
    "/interactions/{interaction_id}/{interaction_token}/callback": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("get", "patch", "delete"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("get", "patch", "delete"),
}


def refs(node: Any) -> set[str]:
    """Names of the component schemas a JSON node points at."""
    if isinstance(node, dict):
        found = {node["$ref"].removeprefix(REF)} if str(node.get("$ref", "")).startswith(REF) \
            else set()
        for value in node.values():
            found |= refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(refs(v) for v in node)) if node else set()
    return set()


def trim(full: dict[str, Any], commit: str) -> dict[str, Any]:
    """The served operations (without responses) and the schemas they reach."""
    paths: dict[str, Any] = {}
    for path, methods in SERVED.items():
        item = full["paths"][path]
        kept = {k: v for k, v in item.items() if k not in ("get", "put", "post", "patch",
                                                             "delete") or k in methods}
        for method in methods:
            kept[method] = {k: v for k, v in item[method].items() if k != "responses"}
        paths[path] = kept
    schemas = full["components"]["schemas"]
    wanted: set[str] = set()
    todo = refs(paths)
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.add(name)
            todo |= refs(schemas[name]) - wanted
    return {
        "openapi": full["openapi"],
        "info": full["info"],
        "x-trimmed-from": f"discord/discord-api-spec@{commit} specs/openapi.json",
        "paths": paths,
        "components": {"schemas": {n: schemas[n] for n in sorted(wanted)}},
    }


def main(argv: list[str]) -> None:
    full = json.loads(Path(argv[1]).read_text())
    OUT.write_text(json.dumps(trim(full, argv[2]), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv)
