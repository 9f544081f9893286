"""The words of a pending choice (its prompt and labels), made from what it is about.

A `PendingChoice` keeps its prompt and labels as they were said when the fight flipped
its portal: in English, since the engine plays in English. The status line and the
buttons are read later, in their reader's language, so they are worded again here from
the choice's kind and payload (which room, which characters) in the language spoken;
in English the words are the stored ones, byte for byte.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.choices import PendingChoice
from bot.games.cthulhu.content import cthulhu_line
from bot.games.cthulhu.moves import PICK_ABYSS, PICK_DESTINATION, PICK_TELEPORTER
from bot.games.cthulhu.names import character_name, room_name
from bot.games.cthulhu.state import CthulhuState


def asked(state: CthulhuState, seat: int, kind: str,
          payload: dict[str, Any]) -> PendingChoice:
    """A new choice for `seat`, worded in the language spoken."""
    return worded(state, PendingChoice(seat=seat, prompt="", kind=kind, labels=[],
                                       payload=payload))


def worded(state: CthulhuState, pending: PendingChoice) -> PendingChoice:
    """`pending` with its prompt and labels in the language spoken. A choice of a kind
    this game does not make is left as stored."""
    room = int(pending.payload["room"])
    if pending.kind == PICK_ABYSS:
        candidates = [int(c) for c in pending.payload["candidates"]]
        # The character the abyss sent back stands in the room with the candidates.
        returned = [c for c in state.in_room(room) if c not in candidates]
        return replace(
            pending,
            prompt=cthulhu_line("prompts.abyss", character=character_name(state, returned[0]))
            if len(returned) == 1 else pending.prompt,
            labels=[cthulhu_line("labels.character", character=character_name(state, c))
                    for c in candidates])
    if pending.kind == PICK_TELEPORTER:
        candidates = [int(c) for c in pending.payload["candidates"]]
        return replace(
            pending,
            prompt=cthulhu_line("prompts.teleport_who", room=room_name(state, room)),
            labels=[cthulhu_line("labels.character", character=character_name(state, c))
                    for c in candidates] + [cthulhu_line("labels.nobody")])
    if pending.kind == PICK_DESTINATION:
        c = int(pending.payload["character"])
        targets = [int(r) for r in pending.payload["targets"]]
        return replace(
            pending,
            prompt=cthulhu_line("prompts.teleport_where", character=character_name(state, c)),
            labels=[cthulhu_line("labels.room", room=room_name(state, r)) for r in targets])
    return pending
