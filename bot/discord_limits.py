"""How much text the bot puts in one Discord message: Discord's limit, and ours under it.

Why: Discord refuses a message over 2,000 characters, and the bot fills messages close
to the brim (a turn's lines, the log, a secret book). Our own texts stop 100 characters
short, so a long name a player chose or a line added later cannot tip a message over
and have Discord refuse the whole post.
"""

from __future__ import annotations

DISCORD_CONTENT_MAX = 2000  # Discord's longest message content
CONTENT_MAX = DISCORD_CONTENT_MAX - 100  # the longest content we send
