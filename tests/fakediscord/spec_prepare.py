"""What is done to Discord's spec in memory before its validators are compiled (the file
in spec/ stays as published): two leniencies that Discord's server has and discord.py
relies on, and rewrites that mean the same but validate in a fraction of the time.

Why: jsonschema evaluates every branch of a `oneOf`; Discord's spec states each enum as a
`oneOf` of `const`s and each component or callback as a `oneOf` of a dozen object kinds,
so one message with 25 buttons took some 50 ms, on the test's own event loop. The
rewrites read such an enum as an `enum`, and pick a union's branch by the body's `type`
field in one look-up (the BY_TYPE keyword), as Discord itself does.
"""

from __future__ import annotations

import copy
import json
from typing import Any

REF = "#/components/schemas/"
ANNOTATIONS = {"title", "description"}
UNION_KEYS = ("oneOf", "anyOf")
# Our keyword (spec_check.py's validator knows it): the JSON text of a body's `type` ->
# the schema of that kind.
BY_TYPE = "x-fake-by-type"

# Discord takes a snowflake as a JSON integer as well as a string; discord.py sends
# `recipient_id`, attachment ids and allowed user ids as integers.
SNOWFLAKE_AS_INTEGER = {"type": "integer", "minimum": 0}
# Discord's docs: permissions are "serialized into a string"; discord.py sends an
# overwrite's allow/deny that way (set_permissions), the schema says integer.
PERMISSION_FIELDS = ("allow", "deny", "default_member_permissions")
PERMISSIONS_AS_STRING = {"type": "string", "pattern": "^[0-9]{1,20}$"}


def prepared(spec: dict[str, Any], *, fast: bool = True) -> dict[str, Any]:
    """A copy of the spec, lenient where Discord is and (if `fast`) quick to validate
    against; tests compare the fast one with the plain one."""
    spec = copy.deepcopy(spec)
    schemas: dict[str, Any] = spec["components"]["schemas"]
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], SNOWFLAKE_AS_INTEGER]}
    for node in list(_nodes(spec)):
        _permissions_as_strings(node)
    if not fast:
        return spec
    for node in list(_nodes(spec)):
        _consts_as_enum(node)
        _union_by_type(node, schemas)
    return spec


def _nodes(node: Any) -> Any:
    """Every JSON object in the document, outermost first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def _permissions_as_strings(node: dict[str, Any]) -> None:
    """A permission field takes its bits as an integer or as a decimal string."""
    props = node.get("properties")
    if not isinstance(props, dict):
        return
    for name in PERMISSION_FIELDS:
        field = props.get(name)
        if isinstance(field, dict) and "integer" in field.get("type", ()):
            props[name] = {"anyOf": [field, PERMISSIONS_AS_STRING]}


def _consts_as_enum(node: dict[str, Any]) -> None:
    """`oneOf` of distinct `const`s (with titles) is the same as one `enum`."""
    branches = node.get("oneOf")
    if not isinstance(branches, list) or not branches:
        return
    if not all(isinstance(b, dict) and "const" in b and set(b) <= {"const", *ANNOTATIONS}
               for b in branches):
        return
    values = [b["const"] for b in branches]
    if len({repr(v) for v in values}) == len(values):
        del node["oneOf"]
        node["enum"] = values


def _kind_enum(ref: Any, schemas: dict[str, Any]) -> list[Any] | None:
    """The `type` values an object schema (by $ref) requires, if it names them."""
    if not isinstance(ref, dict) or set(ref) != {"$ref"} or not ref["$ref"].startswith(REF):
        return None
    target = schemas.get(ref["$ref"].removeprefix(REF))
    if not isinstance(target, dict) or target.get("type") != "object":
        return None
    kind = (target.get("properties") or {}).get("type")
    if "type" not in (target.get("required") or []) or not isinstance(kind, dict):
        return None
    enum = kind.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _union_by_type(node: dict[str, Any], schemas: dict[str, Any]) -> None:
    """A union of object kinds told apart by disjoint `type` values becomes: the `type`
    must be one of them, and the body is checked against its kind's schema only
    (jsonschema would try every kind, and `if`/`then` is still a try per kind)."""
    key = next((k for k in UNION_KEYS if k in node), None)
    if key is None or not set(node) <= {key, "x-discord-union"}:
        return
    branches = node[key]
    enums = [_kind_enum(b, schemas) for b in branches] if isinstance(branches, list) else []
    if not enums or any(e is None for e in enums):
        return
    every = [v for e in enums for v in e or []]
    if len(every) != len(set(every)):
        return
    node.clear()
    node.update({
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": every}},
        BY_TYPE: {json.dumps(v): b for e, b in zip(enums, branches, strict=True)
                  for v in e or []},
    })
