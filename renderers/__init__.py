"""Board renderers: one per game, found by the game's key, each drawing only public
information.

A game's renderer is `renderers/<key>.py` or the package `renderers/<key>/`, exposing
`render_board(state) -> bytes` (one picture per post: what a turn rolled is drawn on
the board; the table passes the state alone, so a keyword of a renderer's own (a
`width`, say) needs a default), and says in words what the board shows with
`describe(state) -> str` (the
package's `alt_text` module, or the module itself): the image's alt text, for players
who use a screen reader. No list of games is kept here. RENDERERS
names a renderer that lives elsewhere (a test's own game).

Modules are imported lazily so the bot (and tests of other games) do not pay for a
renderer's Pillow setup, or break if one game's renderer has a problem.

A renderer that draws from a plain, picklable view of the state may say so:
`board_view(state)` builds it, `render_view(view)` draws it and `describe_view(view)`
(on the module or its `alt_text`) says it in words. Then `board` draws a board only
when its view changed: in a game of rooms and cards a fifth of the actions (a card
drawn, a choice answered) change nothing the board shows, and each used to draw it whole
all the same (issue 23). The
view's fingerprint (a digest of its pickle) finds the board drawn for the same view
before, by this channel or any other; a render is a function of its view alone, so the
bytes are the same as drawing it again.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from bot.core.lru import Lru
from renderers import budgets

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


@dataclass(frozen=True, slots=True)
class Board:
    """A public board: its PNG bytes and its alt text."""

    image: bytes
    alt: str


# A kept board costs its bytes, its alt text, its 16-byte key and the entry (~300).
_BOARD_OVERHEAD = 400
# Boards by their view's fingerprint: each channel's newest (the one its next action
# compares with), bounded by bytes (budgets.BOARDS).
# (renderers.canvas registers them: clear_caches forgets them with every piece.)
BOARDS: Lru[bytes, Board] = Lru(1 << 20, budgets.BOARDS, "BOARDS")


def fingerprint(kind: str, view: object) -> bytes:
    """A digest of everything a board's view holds (0.1 ms for a 47-room house):
    equal for equal views, and two different views never meet in practice."""
    return hashlib.blake2b(pickle.dumps((kind, view), protocol=5), digest_size=16).digest()


def board(kind: str, state: Any) -> Board:
    """The public board and its alt text. Drawn only when its view changed since a
    board of the same view was drawn (see the module's docstring); a renderer without
    a view draws every time."""
    module = renderer_of(kind)
    view_of = getattr(module, "board_view", None)
    render_view = getattr(module, "render_view", None)
    describe_view = _describer(module, "describe_view")
    if not callable(view_of) or not callable(render_view) or describe_view is None:
        return Board(module.render_board(state), describe_public(kind, state))
    view = view_of(state)
    key = fingerprint(kind, view)
    found = BOARDS.get(key)
    if found is None:
        found = Board(render_view(view), clip_alt(str(describe_view(view))))
        BOARDS.put(key, found, len(found.image) + 2 * len(found.alt) + _BOARD_OVERHEAD)
    return found


def render_public(kind: str, state: Any) -> bytes:
    """The public board image (PNG bytes) for a game of `kind`."""
    return board(kind, state).image


def shows_part(kind: str) -> bool:
    """Whether the chat board of `kind` shows part of the whole (`render_whole` then
    draws all of it): the live message offers a "Whole house" button."""
    return callable(getattr(renderer_of(kind), "render_house", None))


def render_whole(kind: str, state: Any) -> bytes:
    """The whole board at full size (`/game map`, "Whole house"): a renderer whose chat
    board shows only part of it offers `render_house(state)`; the others' board is
    already whole."""
    whole = getattr(renderer_of(kind), "render_house", None)
    return whole(state) if callable(whole) else render_public(kind, state)


# Discord's longest attachment description (the alt text a screen reader reads out).
ALT_TEXT_MAX = 1024


def describe_public(kind: str, state: Any) -> str:
    """The board's alt text, in words: whose turn it is, where everyone is, the score.
    Empty when the game's renderer says nothing; cut to Discord's limit (a game with long
    names must not get its board refused)."""
    describe = _describer(renderer_of(kind), "describe")
    if describe is None:
        return ""
    return clip_alt(str(describe(state)))


def _describer(module: ModuleType, name: str) -> Callable[[Any], Any] | None:
    """The renderer's `name` (describe, describe_view), or its alt_text module's."""
    found = getattr(module, name, None)
    if not callable(found) and hasattr(module, "__path__"):
        try:
            found = getattr(import_module(f"{module.__name__}.alt_text"), name, None)
        except ModuleNotFoundError as error:
            if error.name != f"{module.__name__}.alt_text":
                raise
    return found if callable(found) else None


def clip_alt(text: str) -> str:
    """`text` within Discord's limit for a file's description, cut at a word."""
    text = " ".join(text.split())
    if len(text) <= ALT_TEXT_MAX:
        return text
    return text[:ALT_TEXT_MAX - 1].rsplit(" ", 1)[0] + "…"
