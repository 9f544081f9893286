"""What the bot itself must be allowed in a game's channel, and the line that says so.

An interaction is answered whatever the bot may do in its channel, so `/game new`, Join
and Start all work in a channel where the bot cannot post; only the board post after
Start would fail, and the table would wait forever on a game nobody sees. So `/game
new` and Start read the interaction's `app_permissions` (the bot's resolved rights
there, sent by Discord with every interaction) and refuse in one line naming what is
missing and where it is granted. The outlet asks the same question of discord.py's
cache before a running game's post, and when Discord refuses one (`missing_in_cache`),
for only what those posts need (`POSTING`).

Every game needs the channel ones. A game that splits into secret teams also wants the
private-thread ones; without them its team lines go by DM (cogs/outlet.py), so they are
named to the host at Start rather than refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord

from bot import games
from bot.core.errors import IllegalAction
from bot.games.base import Game
from bot.texts import say

# In the order a moderator meets them in the channel's permission list.
CHANNEL = ("view_channel", "send_messages", "embed_links", "attach_files",
           "read_message_history")
IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files",
             "read_message_history")
# What a running game's posts need: the live message is Components v2 (text, the
# board, buttons) with no embed, and nothing reads the channel's history, so Discord
# takes them without Embed Links or Read Message History. The outlet asks only these:
# a moderator who takes one of the others away mid-game does not stop the game.
POSTING = ("view_channel", "send_messages", "attach_files")
POSTING_IN_THREAD = ("view_channel", "send_messages_in_threads", "attach_files")
TEAM_THREADS = ("create_private_threads", "send_messages_in_threads")
# The game's public play-by-play thread, on servers that want one (/gm settings).
PUBLIC_THREAD = ("create_public_threads", "send_messages_in_threads")
NAMED = frozenset(CHANNEL + IN_THREAD + TEAM_THREADS + PUBLIC_THREAD)  # named in data


THREAD_TYPES = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                          discord.ChannelType.news_thread})


def in_a_thread(channel: object) -> bool:
    """A game played inside a thread: there, Send Messages in Threads is what posts
    (an interaction's channel may be a Thread or only a partial one that knows its type)."""
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in THREAD_TYPES


def needed(*, thread: bool) -> tuple[str, ...]:
    return IN_THREAD if thread else CHANNEL


def has_teams(kind: str) -> bool:
    """The game may split its table into teams with secret lines (its `teams` is its
    own, not the base's none)."""
    try:
        game = games.get(kind)
    except KeyError:
        return False
    return type(game).teams is not Game.teams


# Discord denies these implicitly when the first is missing: naming the first is enough,
# and the line stays short (View Channel takes everything with it).
IMPLIED = {"send_messages": ("embed_links", "attach_files"),
           "send_messages_in_threads": ("embed_links", "attach_files")}


def missing(perms: discord.Permissions, names: Iterable[str]) -> list[str]:
    """The names among `names` the bot lacks (Administrator lacks none), leaving out
    those Discord only denies because another one is missing."""
    if perms.administrator:
        return []
    wanted = list(names)
    if "view_channel" in wanted and not perms.view_channel:
        return ["view_channel"]
    lacking = [name for name in wanted if not getattr(perms, name)]
    implied = {i for name in lacking for i in IMPLIED.get(name, ())}
    return [name for name in lacking if name not in implied]


def names_text(names: list[str]) -> str:
    """"Send Messages and Attach Files", in Discord's own names for them."""
    shown = [say(f"permissions.names.{name}") for name in names]
    if not shown:
        return say("permissions.some_permission")
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + say("permissions.and") + shown[-1]


def cannot_play(interaction: discord.Interaction) -> None:
    """Refuse (IllegalAction) when the bot may not show a game in this channel."""
    lacking = missing(interaction.app_permissions,
                      needed(thread=in_a_thread(interaction.channel)))
    if lacking:
        bot = interaction.client.user
        raise IllegalAction(say("permissions.cannot_play", missing=names_text(lacking),
                                channel=f"<#{interaction.channel_id}>",
                                bot=bot.mention if bot else ""))


def threads_warning(interaction: discord.Interaction, kind: str, *,
                    play_by_play: bool = False) -> str | None:
    """At Start, what the threads the game would open lack here, told to the host: a
    team game without the private-thread permissions sends team secrets by DM; a
    server that wants every line in a public thread (`play_by_play`) gets none without
    the public-thread ones. None when nothing is missing (or the game is in a thread,
    which holds no threads)."""
    if in_a_thread(interaction.channel):
        return None
    lines = []
    lacking = missing(interaction.app_permissions, TEAM_THREADS) if has_teams(kind) else []
    if lacking:
        lines.append(say("permissions.threads_missing", missing=names_text(lacking)))
    lacking = missing(interaction.app_permissions, PUBLIC_THREAD) if play_by_play else []
    if lacking:
        lines.append(say("permissions.play_by_play_missing", missing=names_text(lacking)))
    return "\n".join(lines) or None


def left_server(client: discord.Client, guild_id: int | None) -> bool:
    """The bot is no longer in this server (kicked, or the server deleted: GUILD_DELETE
    took it out of discord.py's cache), as far as this process can tell: it is ready
    and runs the server's shard. A server in an outage stays in the cache, unavailable.
    Discord would answer every request there with 403 Missing Access, and refused
    requests count towards its invalid-request limit, which bans the bot's address for
    every server: so nothing is sent there (cogs/outlet.py)."""
    if guild_id is None or not client.is_ready():
        return False
    runs: Callable[[int], bool] | None = getattr(client, "runs_guild", None)
    if runs is not None and not runs(guild_id):
        return False
    return client.get_guild(guild_id) is None


def missing_in_cache(client: discord.Client, channel_id: int) -> list[str] | None:
    """What the bot lacks in this channel to post a running game's messages (`POSTING`),
    by discord.py's cache (roles and overwrites, kept up to date by the gateway); None
    when the cache cannot tell (no such channel, no member of ours), and the outlet
    then just tries."""
    channel = client.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return None
    me = channel.guild.me
    if me is None:
        return None
    posting = POSTING_IN_THREAD if in_a_thread(channel) else POSTING
    return missing(channel.permissions_for(me), posting)
