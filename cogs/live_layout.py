"""The game's live message laid out with Discord's Components v2 (a `LayoutView`).

One container in the game's colour holds the whole message, read top to bottom: the
turn in a few lines (whose move it is last), the board, then the controls, each other
seat's row under its player's name. A v2 message has no `content` (Discord refuses it
beside the IS_COMPONENTS_V2 flag), holds 40 components at most and shows an upload
only where a component names it: the board is a media gallery of one item naming
`attachment://board.png`, with the board's alt text. An edit that sends no new board
keeps the upload, and the gallery names it again.

Why v2 and not content plus an attachment: the turn, the board and the buttons sit in
one frame that reads as one thing in a busy channel, the controls are no longer held
to five rows (so "Whole house" and each other seat's row always fit), and the board's
alt text travels with the picture that shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from cogs.components import ControlRow

COMPONENTS_MAX = 40  # Discord's limit for a v2 message, nested components counted
TEXT_MAX = 4000  # the characters of all its text displays together
ALT_MAX = 1024  # a media gallery item's description
# The frame, the turn's text, the board and the gap before the controls: what the
# controls leave of the 40.
FRAME = 4
CONTROLS_BUDGET = COMPONENTS_MAX - FRAME
BOARD_FILE = "board.png"


@dataclass(frozen=True)
class Board:
    """The picture the message shows: the name it was uploaded under, and its alt text."""

    filename: str = BOARD_FILE
    alt: str = ""

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


def live_layout(text: str, *, colour: int | None, board: Board | None,
                rows: list[ControlRow] | None = None) -> discord.ui.LayoutView:
    """The live message as one container: `text`, the board (if it shows one), the
    control rows. With no rows it is a closed message (an old chapter's record)."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=colour)
    container.add_item(discord.ui.TextDisplay(text[:TEXT_MAX] or "…"))
    if board is not None:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(
            board.url, description=board.alt[:ALT_MAX] or None)))
    if rows:
        container.add_item(discord.ui.Separator(visible=False))
    for row in rows or []:
        if row.heading:
            container.add_item(discord.ui.TextDisplay(row.heading))
        container.add_item(discord.ui.ActionRow(*row.items))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view
