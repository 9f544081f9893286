"""Every request body the bot sends, checked as Discord checks it: against its route's
requestBody schema in Discord's published OpenAPI specification (spec/openapi.json, a
trimmed copy; spec/README.md names its source), then against the documented limits the
schema leaves out (limits.py).

Why: a fake that accepts what Discord refuses lets a test pass for a bot that real
Discord would turn away (a bulk command sync with one bad value registers nothing). The
validators are compiled once per process and reused by every FakeDiscord.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator as SchemaValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .limits import Violation, documented_limits
from .spec_prepare import BY_TYPE, prepared

SPEC_FILE = Path(__file__).resolve().parent / "spec" / "openapi.json"
SPEC_URI = "urn:discord-api-spec"
INVALID_FORM_BODY = 50035
HTTP_METHODS = ("get", "put", "post", "patch", "delete")
SEEN_MAX = 256  # bodies whose answer is kept (the oldest goes first)

# jsonschema's keyword -> the error code Discord's 50035 answer carries.
DISCORD_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "type": "BASE_TYPE_INVALID",
}


def _by_type(validator: SchemaValidator, kinds: dict[str, Any], instance: Any,
             schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The BY_TYPE keyword (spec_prepare.py): check an object against its kind only."""
    if validator.is_type(instance, "object"):
        kind = kinds.get(json.dumps(instance.get("type")))
        if kind is not None:
            yield from validator.descend(instance, kind)


Validator = validators.extend(Draft202012Validator, {BY_TYPE: _by_type})


def _template_regex(template: str) -> re.Pattern[str]:
    """`/channels/{channel_id}/messages` -> a pattern for concrete paths."""
    parts = re.split(r"(\{[^}]+\})", template)
    body = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(body + "$")


@dataclass(frozen=True)
class Operation:
    """One method of one spec path: its template and its body's validator."""

    template: str
    pattern: re.Pattern[str]
    validator: SchemaValidator


class SpecCheck:
    """The compiled request validators of the trimmed spec, by method and path."""

    def __init__(self, spec: dict[str, Any], *, fast: bool = True) -> None:
        spec = prepared(spec, fast=fast)
        registry: Registry = Registry().with_resource(
            SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012)
        )
        self.operations: dict[str, list[Operation]] = {}
        self._seen: dict[tuple[str, str, str], tuple[Violation, ...]] = {}
        for template, item in spec["paths"].items():
            for method, op in item.items():
                if method not in HTTP_METHODS:
                    continue
                content = (op.get("requestBody") or {}).get("content") or {}
                if "application/json" not in content:
                    continue
                pointer = "/".join(
                    ["#", "paths", _escape(template), method, "requestBody", "content",
                     "application~1json", "schema"]
                )
                validator = Validator({"$ref": SPEC_URI + pointer}, registry=registry)
                self.operations.setdefault(method.upper(), []).append(
                    Operation(template, _template_regex(template), validator)
                )
        for ops in self.operations.values():
            # A literal segment (@me, @original) wins over a parameter in its place.
            ops.sort(key=lambda o: o.template.count("{"))

    def operation(self, method: str, path: str) -> Operation | None:
        """The spec operation a request below /api/v10 goes to, if it has a JSON body."""
        for op in self.operations.get(method, []):
            if op.pattern.match(path):
                return op
        return None

    def check(self, method: str, path: str, body: Any) -> list[Violation]:
        """What Discord would refuse in this body (empty: it would take it). A body seen
        before is answered from memory: every test's bot syncs the same command tree."""
        op = self.operation(method, path)
        if op is None:
            return []
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        found = self._seen.get((method, op.template, text))
        if found is None:
            found = self._check(op, method, body)
            if len(self._seen) >= SEEN_MAX:
                self._seen.pop(next(iter(self._seen)))
            self._seen[(method, op.template, text)] = found
        return list(found)

    def _check(self, op: Operation, method: str, body: Any) -> tuple[Violation, ...]:
        found = [v for e in op.validator.iter_errors(body) for v in _leaves(e)]
        found += documented_limits(op.template, method, body)
        return tuple(dict.fromkeys(found))


def _escape(template: str) -> str:
    """A JSON pointer token (RFC 6901) for a path key."""
    return template.replace("~", "~0").replace("/", "~1")


def _leaves(error: ValidationError) -> Iterator[Violation]:
    """The errors that say what is wrong: inside a union (anyOf/oneOf), those of the
    branch the body meant (of its kind, and the fewest errors), not of every branch."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        meant = [errs for errs in branches.values() if not any(_wrong_kind(e) for e in errs)]
        if meant:  # the branch of the body's kind that it comes closest to
            for sub in min(meant, key=len):
                yield from _leaves(sub)
            return
    yield Violation(tuple(error.absolute_path), DISCORD_CODES.get(str(error.validator),
                                                                    "BASE_TYPE_INVALID"),
                    _message(error))


def _wrong_kind(error: ValidationError) -> bool:
    """An error showing a union branch is another kind of thing than the body: a JSON
    type that does not match, or a `type` discriminator outside the branch's enum."""
    own = list(error.relative_path)
    if error.validator == "type" and not own:
        return True
    return error.validator in ("enum", "const") and own == ["type"]


def _message(error: ValidationError) -> str:
    """A short line in Discord's manner for one schema error."""
    value = error.validator_value
    return {
        "maxLength": f"Must be {value} or fewer in length.",
        "maxItems": f"Must be {value} or fewer in length.",
        "minLength": f"Must be {value} or more in length.",
        "minItems": f"Must be {value} or more in length.",
        "maximum": f"int value should be less than or equal to {value}.",
        "minimum": f"int value should be greater than or equal to {value}.",
        "required": "This field is required",
        "type": f"Must be of type {error.validator_value}.",
        "enum": f"Must be one of {error.validator_value}.",
        "pattern": f"Must match {error.validator_value}.",
        "anyOf": "Is none of the kinds allowed here.",
        "oneOf": "Is none of the kinds allowed here.",
    }.get(str(error.validator), f"Invalid value ({error.validator}).")


@functools.cache
def spec_check() -> SpecCheck:
    """The one SpecCheck of this process (compiling it takes a moment; 2,500 tests)."""
    return SpecCheck(json.loads(SPEC_FILE.read_text()))


def error_body(violations: Iterable[Violation]) -> dict[str, Any]:
    """Discord's answer to a refused body: 50035 with the `errors` tree by field."""
    errors: dict[str, Any] = {}
    for v in violations:
        node = errors
        for key in v.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": v.code, "message": v.message})
    return {"code": INVALID_FORM_BODY, "errors": errors, "message": "Invalid Form Body"}
