"""Actions, the options an engine offers for them, and their compact wire form.

A button's custom_id and a select's option value must fit in 100 characters, so actions
encode as `kind~key=value~key=value`. Values are ints or short slugs; the grammar and its
strict reader live in bot/core/wire.py, the one parser for everything clients send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core import wire
from bot.core.errors import IllegalAction

Value = wire.Value


@dataclass(frozen=True)
class Action:
    kind: str
    args: dict[str, Value] = field(default_factory=dict)

    def encode(self) -> str:
        return wire.write_action(self.kind, self.args)

    @classmethod
    def decode(cls, text: str) -> Action:
        """Read a wire form strictly; anything else is refused with IllegalAction."""
        kind, args = wire.read_action(text)
        return cls(kind, args)

    def int_arg(self, name: str) -> int:
        """Read an int argument or refuse the action with a readable reason."""
        value = self.args.get(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(f"Missing or invalid `{name}`.")
        return value

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Action:
        return cls(raw["kind"], dict(raw.get("args", {})))


MENU_LIMIT = 25  # the most one menu lists: a longer list is better asked in two steps


@dataclass(frozen=True)
class Option:
    """One legal action as the adapters show it: a button or one entry of a select.

    `group` gathers options into one select (or a row of buttons); `style` is a hint
    (primary, secondary, success, danger). A private option is never shown in the channel.
    """

    label: str
    action: Action
    group: str = "Actions"
    style: str = "secondary"
    description: str = ""
    emoji: str = ""
    private: bool = False  # its label reveals hidden cards: only the chooser may see it
    # A two-step choice (where, then which die): the options of a group that share a
    # `first` are offered once under it; picking it offers them by their short `then`.
    first: str = ""
    then: str = ""
