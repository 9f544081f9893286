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
private-thread ones; without them its team lines go by DM (cogs/outlet_teams.py), so they are
named to the host at Start rather than refused.

Which threads a game's channel can hold at all is Discord's, by the channel's type
(developer docs, "Threads"): "Private threads ... can only be created in GUILD_TEXT
channels"; a public thread's type "matches the type of the parent channel" (a text
channel's is a PUBLIC_THREAD, an announcement channel's an ANNOUNCEMENT_THREAD); a voice
or stage channel's text chat, a thread and a forum's post hold none (the thread
permissions are the text channels' only: "Permissions", the T column). So the outlet
asks for a thread only where one can be (`private_threads_in`, `public_thread_in`), and
the host hears at Start what the game does instead. A game inside a private thread needs
the bot in it ("You must be invited to the thread to be able to view or participate in
it, or be a moderator"): an interaction there is answered all the same, but no post
would be taken, so `/game new` asks Discord first and says how to add the bot. A thread
a moderator locked takes no post from a bot without Manage Threads: refused too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import discord

from bot import games
from bot.core.errors import IllegalAction
from bot.delivery import NOT_IN_THREAD, THREAD_LOCKED
from bot.games.base import Game
from bot.texts import listed, say

# What a lobby needs, in the order a moderator meets them in the channel's permission
# list. The lobby is an embed, and `/game join` and its kin redraw it with the bot's own
# edit, which Discord strips of its embed without Embed Links (an interaction's answer
# is the interaction's webhook: not the bot's Embed Links, Discord's change log of
# 2022-06-29). Read Message History is asked nowhere: the bot reads no history (no
# Get Channel Messages, no reply), it edits its own messages by id.
CHANNEL = ("view_channel", "send_messages", "embed_links", "attach_files")
IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files")
# What a running game's posts need: the live message is Components v2 (text, the
# board, buttons) with no embed, so Discord takes them without Embed Links. Start and a
# replay ask only these, and so does the outlet: a moderator who takes Embed Links away
# once the lobby is done does not stop the game.
POSTING = ("view_channel", "send_messages", "attach_files")
POSTING_IN_THREAD = ("view_channel", "send_messages_in_threads", "attach_files")
TEAM_THREADS = ("create_private_threads", "send_messages_in_threads")
# The game's public play-by-play thread, on servers that want one (/gm settings).
PUBLIC_THREAD = ("create_public_threads", "send_messages_in_threads")
NAMED = frozenset(CHANNEL + IN_THREAD + TEAM_THREADS + PUBLIC_THREAD)  # named in data


# Discord's error codes for a post a thread refuses (its API docs, "JSON Error Codes"):
# Missing Access, and "Thread is locked".
MISSING_ACCESS_CODE = 50001
THREAD_LOCKED_CODE = 160005

THREAD_TYPES = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                          discord.ChannelType.news_thread})
# The public thread each kind of channel makes (Discord: its parent's type decides).
PUBLIC_THREAD_OF = {discord.ChannelType.text: discord.ChannelType.public_thread,
                    discord.ChannelType.news: discord.ChannelType.news_thread}


def private_threads_in(channel: object) -> bool:
    """Whether Discord lets a private thread open in this channel: a text channel's only
    (not an announcement channel's, a voice channel's chat or a thread)."""
    return getattr(channel, "type", None) == discord.ChannelType.text


def public_thread_in(channel: object) -> discord.ChannelType | None:
    """The type of the public thread this channel makes, None where it holds none."""
    kind = getattr(channel, "type", None)
    return PUBLIC_THREAD_OF.get(kind) if isinstance(kind, discord.ChannelType) else None


def in_a_thread(channel: object) -> bool:
    """A game played inside a thread: there, Send Messages in Threads is what posts
    (an interaction's channel may be a Thread or only a partial one that knows its type)."""
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in THREAD_TYPES


def thread_cause(channel: object, code: int) -> str:
    """Why a thread refused the bot's post (Discord's error `code`), when no permission
    mends it (bot/delivery.py): locked (160005), or a private thread whose Missing Access
    (50001) says the bot is no longer in it (discord.py's cache still knows the thread:
    it keeps a private thread the bot was taken out of). "" for any other refusal."""
    if code == THREAD_LOCKED_CODE:
        return THREAD_LOCKED
    if code == MISSING_ACCESS_CODE and \
            getattr(channel, "type", None) == discord.ChannelType.private_thread:
        return NOT_IN_THREAD
    return ""


def needed(*, thread: bool, lobby: bool = True) -> tuple[str, ...]:
    """A lobby's (`lobby`: its embed too) or a running game's permissions."""
    if lobby:
        return IN_THREAD if thread else CHANNEL
    return POSTING_IN_THREAD if thread else POSTING


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
    return listed(shown[:-1]) + say("permissions.and") + shown[-1]


def why(names: list[str]) -> str:
    """What each missing permission is for, one short sentence each."""
    return " ".join(say(f"permissions.why.{name}") for name in names)


def may_embed(client: discord.Client, channel_id: int) -> bool:
    """Whether an embed the bot posts or edits in with its own token shows there, by
    discord.py's cache (Discord drops it without Embed Links); True when the cache
    cannot tell."""
    channel = client.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        return True
    me = channel.guild.me
    if me is None:
        return True
    perms = channel.permissions_for(me)
    return perms.administrator or perms.embed_links


async def cannot_play(interaction: discord.Interaction, *, lobby: bool = True) -> None:
    """Refuse (IllegalAction) when the bot may not show a game in this channel: a
    private thread it is not in, a locked thread, or a permission it lacks here: a
    lobby's (`lobby`), or only a running game's (Start, a replay)."""
    channel, perms = interaction.channel, interaction.app_permissions
    bot = interaction.client.user
    manages = perms.administrator or perms.manage_threads
    if getattr(channel, "type", None) == discord.ChannelType.private_thread and not manages \
            and not await _in_thread(interaction):
        raise IllegalAction(say("permissions.not_in_thread", bot=bot.mention if bot else ""))
    if getattr(channel, "locked", False) and not manages:
        raise IllegalAction(say("permissions.thread_locked"))
    lacking = missing(perms, needed(thread=in_a_thread(channel), lobby=lobby))
    if lacking:
        refusal = say("permissions.cannot_play", missing=names_text(lacking),
                      channel=f"<#{interaction.channel_id}>", bot=bot.mention if bot else "")
        raise IllegalAction(f"{refusal} {why(lacking)}")


async def _in_thread(interaction: discord.Interaction) -> bool:
    """Whether the bot is a member of the interaction's (private) thread, as Discord
    says: not one (404), or a thread it may not even see (403), is no. discord.py's
    cache cannot tell: it keeps a private thread the bot was taken out of. A Discord
    that fails for now (5xx) is not held against the game: its posts tell later."""
    user = interaction.client.user
    if user is None or interaction.channel_id is None:
        return True
    try:
        await interaction.client.http.get_thread_member(interaction.channel_id, user.id)
    except (discord.NotFound, discord.Forbidden):
        return False
    except discord.HTTPException:
        return True
    return True


def threads_warning(interaction: discord.Interaction, kind: str, *,
                    play_by_play: bool = False) -> str | None:
    """At Start, what the threads the game would open are not, told to the host: a team
    game whose channel holds no private threads, or where the bot lacks their
    permissions, sends team secrets by DM; a server that wants every line in a public
    thread (`play_by_play`) gets none where the channel holds no threads or the bot
    lacks the public-thread permissions. None when nothing is missing."""
    channel, perms = interaction.channel, interaction.app_permissions
    known = isinstance(getattr(channel, "type", None), discord.ChannelType)  # else: try
    lines = []
    if has_teams(kind):
        if known and not private_threads_in(channel):
            lines.append(say("permissions.no_team_threads_here"))
        elif lacking := missing(perms, TEAM_THREADS):
            lines.append(say("permissions.threads_missing", missing=names_text(lacking)))
    if play_by_play:
        if known and public_thread_in(channel) is None:
            lines.append(say("permissions.no_play_by_play_here"))
        elif lacking := missing(perms, PUBLIC_THREAD):
            lines.append(say("permissions.play_by_play_missing", missing=names_text(lacking)))
    return "\n".join(lines) or None


def left_server(client: discord.Client, guild_id: int | None) -> bool:
    """The bot is no longer in this server (kicked, or the server deleted: GUILD_DELETE
    took it out of discord.py's cache), as far as this process can tell: it is ready
    and runs the server's shard. A server in an outage stays in the cache, unavailable.
    Discord would answer every request there with 403 Missing Access, and refused
    requests count towards its invalid-request limit, which bans the bot's address for
    every server: so nothing is sent there (cogs/outlet_refusals.py)."""
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
