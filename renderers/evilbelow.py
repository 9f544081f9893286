"""IT: Evil Below's renderer under its game key ("evilbelow"), which is how
`renderers.renderer_of` finds it; the drawing lives in renderers/evil_below/."""

from renderers.evil_below import BASE_WIDTH, render_board, render_dice, render_image

__all__ = ["BASE_WIDTH", "render_board", "render_dice", "render_image"]
