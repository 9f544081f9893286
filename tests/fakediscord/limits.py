"""The limits Discord documents but its OpenAPI schema leaves out (or states looser than
the server enforces for a bot), checked after the schema (spec_check.py).

Why a module: each figure here is Discord's developer documentation's, with the page it
comes from, so a reader can tell a figure of Discord's from a choice of ours; where the
schema already encodes a limit (custom_id 1-100, label 80, 5 buttons a row, 25 options,
25 choices, option fields 100, placeholder 150, embed field sizes, 10 embeds, nonce 25,
integers within +-2^53-1), it is not repeated here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Path = tuple[str | int, ...]

# Message resource: "content: up to 2000 characters" (the schema says 4000).
CONTENT_MAX = 2000
# A bot's uploads: "the maximum request size when sending a message is 25 MiB", but a
# file's own limit is the server's (10 MiB without boosts; what the interaction's
# `attachment_size_limit` says, driver.py). Over it, Discord answers 413, code 40005
# ("Request entity too large"), before reading the body's schema.
UPLOAD_MAX = 10 * 1024 * 1024
TOO_LARGE = 40005
# Embed limits: "the combined sum of characters in all title, description, field.name,
# field.value, footer.text, and author.name fields across all embeds ... 6000".
EMBEDS_TOTAL_MAX = 6000
# Component reference: up to 5 action rows a message (without IS_COMPONENTS_V2); with it,
# up to 40 components in all, nested ones counted, and 4000 characters of text displays.
ROWS_MAX = 5
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, TEXT_DISPLAY = 1, 2, 10
SELECTS = {3, 5, 6, 7, 8}
LINK, PREMIUM = 5, 6
# Application commands: "CHAT_INPUT command names and command option names must match
# ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ ... use the lowercase variant"; a
# chat-input description is 1-100 characters; a string choice's value at most 100
# (the schema says 6000); at most 8000 characters in a command's names, descriptions and
# values together; 100 global chat-input commands.
NAME_MAX = 32
NAME_PUNCTUATION = set("-_'")
DESCRIPTION_MAX = 100
# Discord's locales (its API docs, developers/reference.mdx, "Locales"): the only keys a
# name_localizations or description_localizations dictionary may hold.
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
    "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})
STRING_CHOICE_VALUE_MAX = 100
COMMAND_CHARS_MAX = 8000
CHAT_INPUT_MAX = 100
CHAT_INPUT = 1
SUBCOMMAND, SUBCOMMAND_GROUP, STRING_OPTION = 1, 2, 3
# Interaction responses: an autocomplete result's choices, as command choices.
AUTOCOMPLETE = 8
MESSAGE_CALLBACKS = {4, 7}

MESSAGE_ROUTES = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}
COMMAND_ROUTES = {
    ("PUT", "/applications/{application_id}/commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
}
CALLBACK_ROUTE = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")


@dataclass(frozen=True)
class Violation:
    """One thing Discord would refuse: where in the body, its error code, a short line."""

    path: Path
    code: str
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "(body)"
        return f"{where}: {self.message} [{self.code}]"


def too_long(path: Path, limit: int) -> Violation:
    """Discord's own code and words for a value past its length."""
    return Violation(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def invalid(path: Path, message: str) -> Violation:
    """Discord's catch-all code, for the rules that have no code of their own."""
    return Violation(path, "BASE_TYPE_INVALID", message)


def documented_limits(template: str, method: str, body: Any) -> list[Violation]:
    """The documented limits of this route's body that the schema does not state."""
    route = (method, template)
    if route in MESSAGE_ROUTES and isinstance(body, dict):
        return list(message_limits(body, ()))
    if route in COMMAND_ROUTES and isinstance(body, list):
        return list(command_list_limits(body))
    if route == CALLBACK_ROUTE and isinstance(body, dict):
        data = body.get("data")
        if not isinstance(data, dict):
            return []
        if body.get("type") in MESSAGE_CALLBACKS:
            return list(message_limits(data, ("data",)))
        if body.get("type") == AUTOCOMPLETE:
            return list(choice_values(data.get("choices"), ("data", "choices"), strings=True))
    return []


# ---------------------------------------------------------------------- messages


def message_limits(body: dict[str, Any], at: Path) -> Iterator[Violation]:
    """A message body, wherever it travels (a send, an edit, a webhook, a callback's
    data): the same rules apply to all of them."""
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_MAX:
        yield too_long((*at, "content"), CONTENT_MAX)
    embeds = body.get("embeds")
    if isinstance(embeds, list) and embed_chars(embeds) > EMBEDS_TOTAL_MAX:
        yield invalid((*at, "embeds"), f"Embed size exceeds maximum size of {EMBEDS_TOTAL_MAX}")
    components = body.get("components")
    if isinstance(components, list):
        v2 = bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2) or any(
            isinstance(c, dict) and c.get("type") != ACTION_ROW for c in components)
        yield from component_limits(components, (*at, "components"), v2=v2)


def embed_chars(embeds: list[Any]) -> int:
    """The characters Discord counts toward the 6,000 of a message's embeds."""
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        total += len(embed.get("title") or "") + len(embed.get("description") or "")
        total += len((embed.get("footer") or {}).get("text") or "")
        total += len((embed.get("author") or {}).get("name") or "")
        for field in embed.get("fields") or []:
            if isinstance(field, dict):
                total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def walk_components(components: list[Any], at: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every component, nested ones too, with where it sits."""
    for n, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        yield (*at, n), comp
        if isinstance(comp.get("components"), list):
            yield from walk_components(comp["components"], (*at, n, "components"))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]], (*at, n, key))


def component_limits(components: list[Any], at: Path, *, v2: bool) -> Iterator[Violation]:
    """The layout rules the schema cannot state: counts across rows, unique ids, a
    select alone, a select asking for more picks than it offers."""
    every = list(walk_components(components, at))
    if not v2 and len(components) > ROWS_MAX:
        yield too_long(at, ROWS_MAX)
    if v2 and len(every) > V2_COMPONENTS_MAX:
        yield invalid(at, f"Must be {V2_COMPONENTS_MAX} or fewer components in total.")
    if v2:
        text = sum(len(c.get("content") or "") for _, c in every if c.get("type") == TEXT_DISPLAY)
        if text > V2_TEXT_MAX:
            yield invalid(at, f"Text displays hold {V2_TEXT_MAX} characters at most.")
    seen: set[str] = set()
    for path, comp in every:
        kind = comp.get("type")
        custom_id = comp.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                yield Violation((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                                "Component custom id cannot be duplicated")
            seen.add(custom_id)
        if kind == ACTION_ROW:
            inner = [c for c in comp.get("components") or [] if isinstance(c, dict)]
            if any(c.get("type") in SELECTS for c in inner) and len(inner) > 1:
                yield invalid((*path, "components"), "A select menu must be alone in its row.")
        elif kind == BUTTON:
            yield from button_limits(comp, path)
        elif kind == 3:
            options = comp.get("options") or []
            most = comp.get("max_values")
            if isinstance(most, int) and isinstance(options, list) and most > len(options):
                yield invalid((*path, "max_values"),
                              "max_values must not exceed the number of options.")
            least = comp.get("min_values")
            if isinstance(least, int) and isinstance(most, int) and least > most:
                yield invalid((*path, "min_values"), "min_values must not exceed max_values.")


def button_limits(comp: dict[str, Any], path: Path) -> Iterator[Violation]:
    """A button's fields depend on its style (the schema makes them all optional)."""
    style = comp.get("style")
    if style == LINK:
        if not comp.get("url") or comp.get("custom_id"):
            yield invalid(path, "A link button has a url and no custom_id.")
    elif style != PREMIUM and not comp.get("custom_id"):
        yield Violation((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if style != PREMIUM and not comp.get("label") and not comp.get("emoji"):
        yield invalid(path, "A button needs a label or an emoji.")


# ---------------------------------------------------------------------- commands


def valid_name(name: str) -> bool:
    """Discord's regex for chat-input names, lower case (Python's re has no \\p{L})."""
    if not 1 <= len(name) <= NAME_MAX or name != name.lower():
        return False
    for ch in name:
        cat = unicodedata.category(ch)
        if ch in NAME_PUNCTUATION or cat[0] in "LN":
            continue
        if "DEVANAGARI" in unicodedata.name(ch, "") or "THAI" in unicodedata.name(ch, ""):
            continue
        return False
    return True


def command_list_limits(commands: list[Any]) -> Iterator[Violation]:
    """A bulk sync is refused whole on one bad command, so each is checked."""
    seen: set[tuple[str, int]] = set()
    chat_input = 0
    for n, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            continue
        kind = int(cmd.get("type") or CHAT_INPUT)
        key = (str(cmd.get("name")), kind)
        if key in seen:
            yield Violation((n, "name"), "APPLICATION_COMMAND_ALREADY_EXISTS",
                            "Application command names must be unique")
        seen.add(key)
        if kind == CHAT_INPUT:
            chat_input += 1
            yield from chat_input_limits(cmd, (n,))
        if command_chars(cmd) > COMMAND_CHARS_MAX:
            yield invalid((n,), f"Command exceeds maximum size ({COMMAND_CHARS_MAX})")
    if chat_input > CHAT_INPUT_MAX:
        yield too_long((), CHAT_INPUT_MAX)


def chat_input_limits(item: dict[str, Any], at: Path) -> Iterator[Violation]:
    """A chat-input command or one of its options, and its options below."""
    name = item.get("name")
    if isinstance(name, str) and not valid_name(name):
        yield Violation((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME",
                        "Command name is invalid")
    for locale, local in (item.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            yield invalid((*at, "name_localizations", locale), "Invalid Form Body: locale")
        if isinstance(local, str) and not valid_name(local):
            yield Violation((*at, "name_localizations", locale),
                            "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    for locale, local in (item.get("description_localizations") or {}).items():
        if locale not in LOCALES:
            yield invalid((*at, "description_localizations", locale),
                          "Invalid Form Body: locale")
        if not isinstance(local, str) or not 1 <= len(local) <= DESCRIPTION_MAX:
            yield Violation((*at, "description_localizations", locale),
                            "BASE_TYPE_BAD_LENGTH",
                            f"Must be between 1 and {DESCRIPTION_MAX} in length.")
    for n, choice in enumerate(item.get("choices") or []):
        for locale, local in ((choice or {}).get("name_localizations") or {}).items():
            if locale not in LOCALES or not isinstance(local, str) or not 1 <= len(local) <= 100:
                yield Violation((*at, "choices", n, "name_localizations", locale),
                                "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    description = item.get("description")
    top = len(at) == 1  # an option's description is the schema's (1-100) already
    if top and (not isinstance(description, str)
                or not 1 <= len(description) <= DESCRIPTION_MAX):
        yield Violation((*at, "description"), "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {DESCRIPTION_MAX} in length.")
    kind = item.get("type")
    if kind == STRING_OPTION:
        yield from choice_values(item.get("choices"), (*at, "choices"), strings=True)
    if item.get("autocomplete") and item.get("choices"):
        yield invalid((*at, "autocomplete"), "Autocomplete cannot be set with choices.")
    for low, high in (("min_value", "max_value"), ("min_length", "max_length")):
        lo, hi = item.get(low), item.get(high)
        if isinstance(lo, int | float) and isinstance(hi, int | float) and lo > hi:
            yield invalid((*at, low), f"{low} must not exceed {high}.")
    options = item.get("options")
    if not isinstance(options, list):
        return
    names: set[str] = set()
    optional_seen = False
    nested = [o for o in options if isinstance(o, dict)
              and o.get("type") in (SUBCOMMAND, SUBCOMMAND_GROUP)]
    if nested and len(nested) != len(options):
        yield invalid((*at, "options"), "Sub-commands cannot be mixed with other options.")
    for n, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        where = (*at, "options", n)
        if option.get("name") in names:
            yield Violation((*where, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                            "Option names must be unique")
        names.add(str(option.get("name")))
        if option.get("type") not in (SUBCOMMAND, SUBCOMMAND_GROUP):
            if option.get("required") and optional_seen:
                yield Violation((*where, "required"),
                                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                "Required options must be placed before non-required options")
            optional_seen = optional_seen or not option.get("required")
        yield from chat_input_limits(option, where)


def choice_values(choices: Any, at: Path, *, strings: bool) -> Iterator[Violation]:
    """A string choice's value: 100 characters in Discord's docs, 6000 in its schema."""
    if not isinstance(choices, list):
        return
    for n, choice in enumerate(choices):
        value = choice.get("value") if isinstance(choice, dict) else None
        if strings and isinstance(value, str) and len(value) > STRING_CHOICE_VALUE_MAX:
            yield too_long((*at, n, "value"), STRING_CHOICE_VALUE_MAX)


def command_chars(cmd: Any) -> int:
    """Characters of every name, description and value in a command, localizations too."""
    if isinstance(cmd, list):
        return sum(command_chars(c) for c in cmd)
    if not isinstance(cmd, dict):
        return 0
    total = 0
    for key, value in cmd.items():
        if key in ("name", "description", "value") and isinstance(value, str | int | float):
            total += len(str(value))
        elif key in ("name_localizations", "description_localizations") and value:
            total += sum(len(str(v)) for v in value.values())
        elif key in ("options", "choices"):
            total += command_chars(value)
    return total
