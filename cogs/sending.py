"""What every message the outlet sends shares, whichever part of it sends it (the live
message, DMs, team threads, the play-by-play thread): nonces that make a delivery sent
again show once, and how Discord's refusals are read. Its own module so that the
outlet's parts can share it without importing the outlet; and how a thread it
keeps the id of is found again."""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

import discord

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week, the longest Discord offers: games can be slow
NONCE_LIMIT = 25  # Discord's longest nonce
# Discord's codes for what a thread's state refuses (developer docs, "Threads"): an edit
# in an archived thread (a post wakes it, unless it is locked), and a post or an edit in
# a thread a moderator locked, by a bot without Manage Threads.
THREAD_ARCHIVED: Final = 50083
THREAD_LOCKED: Final = 160005


def nonce(key: str, part: str) -> str | int:
    """The message's nonce: the delivery's key and the message's place in it. Sent
    with enforce_nonce (discord.py does so whenever a nonce is given), Discord answers a
    repeat within minutes with the message already made, so a delivery redone after a
    crash shows once. No key: a random one, as discord.py's send makes for a message
    sent without (nothing to show once)."""
    if not key:
        return secrets.randbits(64)
    text = f"{key}.{part}"
    if len(text) <= NONCE_LIMIT:
        return text
    return hashlib.blake2s(text.encode(), digest_size=12).hexdigest()[:NONCE_LIMIT]


async def stored_thread(client: discord.Client, thread_id: int) -> discord.Thread | None:
    """A thread the store keeps the id of: from discord.py's cache, else asked of
    Discord (an archived thread is not in the cache after a restart); None when the id
    names no thread. Discord's refusal (NotFound: it was deleted) is the caller's."""
    cached = client.get_channel(thread_id)
    if isinstance(cached, discord.Thread):
        return cached
    fetched = await client.fetch_channel(thread_id)
    return fetched if isinstance(fetched, discord.Thread) else None


def permanent(exc: discord.HTTPException) -> bool:
    """Refusals another try would meet again (no access, no channel, a request Discord
    finds malformed): a turn reminder is dropped with a log line rather than owed
    forever. A 429 is not one: discord.py waited and tried again already."""
    return isinstance(exc, discord.Forbidden | discord.NotFound) or malformed(exc)


def malformed(exc: discord.HTTPException) -> bool:
    """A 4xx other than no access, no such thing or too many requests: Discord says the
    request itself is wrong, which is our bug. Another try would be refused the same, so
    the part is dropped, the game goes on, and the log says ERROR once."""
    return 400 <= exc.status < 500 and exc.status not in (403, 404, 429)
