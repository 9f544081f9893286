"""Board renderers: one module per game, each drawing only public information.

Modules are imported lazily so the bot (and tests of other games) do not pay for a
renderer's Pillow setup, or break if one game's renderer has a problem.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Game key -> module exposing `render_board(state, *, width=...) -> bytes`.
RENDERERS: dict[str, str] = {
    "cthulhu": "renderers.cthulhu",
    "betrayal": "renderers.betrayal",
}


def render_public(kind: str, state: Any) -> bytes:
    """The public board image (PNG bytes) for a game of `kind`."""
    try:
        module = RENDERERS[kind]
    except KeyError:
        raise ValueError(f"No board renderer for game {kind!r}") from None
    return import_module(module).render_board(state)
