"""Board renderers: one per game, found by the game's key, each drawing only public
information.

A game's renderer is `renderers/<key>.py` or the package `renderers/<key>/`, exposing
`render_board(state, *, width=...) -> bytes` (one picture per post: what a turn rolled
is drawn on the board), and says in words what the board shows with
`describe(state) -> str` (the
package's `alt_text` module, or the module itself): the image's alt text, for players
who use a screen reader. No list of games is kept here. RENDERERS
names a renderer that lives elsewhere (a test's own game).

Modules are imported lazily so the bot (and tests of other games) do not pay for a
renderer's Pillow setup, or break if one game's renderer has a problem.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

# Game key -> module exposing `render_board`, for renderers outside this package.
RENDERERS: dict[str, str] = {}


def renderer_of(kind: str) -> ModuleType:
    """The module drawing a game of `kind`; ValueError if that game has none."""
    name = RENDERERS.get(kind) or f"{__name__}.{kind}"
    if kind not in RENDERERS and not kind.isidentifier():  # "no-such-game", "../x"
        raise ValueError(f"No board renderer for game {kind!r}")
    try:
        module = import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the renderer is there, but something it needs is not
            raise
        raise ValueError(f"No board renderer for game {kind!r}") from None
    if not callable(getattr(module, "render_board", None)):
        raise ValueError(f"No board renderer for game {kind!r}")
    return module


def render_public(kind: str, state: Any) -> bytes:
    """The public board image (PNG bytes) for a game of `kind`."""
    return renderer_of(kind).render_board(state)  # type: ignore[no-any-return]


def shows_part(kind: str) -> bool:
    """Whether the chat board of `kind` shows part of the whole (`render_whole` then
    draws all of it): the live message offers a "Whole house" button."""
    return callable(getattr(renderer_of(kind), "render_house", None))


def render_whole(kind: str, state: Any) -> bytes:
    """The whole board at full size (`/game map`, "Whole house"): a renderer whose chat
    board shows only part of it offers `render_house(state)`; the others' board is
    already whole."""
    whole = getattr(renderer_of(kind), "render_house", None)
    return whole(state) if callable(whole) else render_public(kind, state)  # type: ignore[no-any-return]


# Discord's longest attachment description (the alt text a screen reader reads out).
ALT_TEXT_MAX = 1024


def describe_public(kind: str, state: Any) -> str:
    """The board's alt text, in words: whose turn it is, where everyone is, the score.
    Empty when the game's renderer says nothing; cut to Discord's limit (a game with long
    names must not get its board refused)."""
    module = renderer_of(kind)
    describe = getattr(module, "describe", None)
    if not callable(describe) and hasattr(module, "__path__"):
        try:
            describe = getattr(import_module(f"{module.__name__}.alt_text"), "describe", None)
        except ModuleNotFoundError as error:
            if error.name != f"{module.__name__}.alt_text":
                raise
    if not callable(describe):
        return ""
    return clip_alt(str(describe(state)))


def clip_alt(text: str) -> str:
    """`text` within Discord's limit for a file's description, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= ALT_TEXT_MAX:
        return text
    return text[:ALT_TEXT_MAX - 1].rsplit(" ", 1)[0] + "…"
