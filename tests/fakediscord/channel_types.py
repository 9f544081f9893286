"""Discord's channel types, and what each one takes: messages, threads of which type,
commands from its members.

Why a module: a game may be opened wherever a member can type a command, and Discord
answers the bot differently by the kind of channel it is in. What the fake refuses here,
Discord refuses (developer docs, "Channels" and "Threads"; discord/discord-api-docs):

- Channel types (resources/channel, "Channel Types"): GUILD_TEXT 0, DM 1, GUILD_VOICE 2,
  GUILD_CATEGORY 4, GUILD_ANNOUNCEMENT 5, ANNOUNCEMENT_THREAD 10 ("a temporary
  sub-channel within a GUILD_ANNOUNCEMENT channel"), PUBLIC_THREAD 11 ("within a
  GUILD_TEXT or GUILD_FORUM channel"), PRIVATE_THREAD 12 ("within a GUILD_TEXT channel
  that is only viewable by those invited and those with the MANAGE_THREADS
  permission"), GUILD_STAGE_VOICE 13, GUILD_FORUM 15 and GUILD_MEDIA 16 ("Channel that
  can only contain threads").
- Threads ("Public & Private Threads"): "The type of thread created matches the type of
  the parent channel. GUILD_TEXT channels create PUBLIC_THREAD and GUILD_ANNOUNCEMENT
  channels create ANNOUNCEMENT_THREAD"; "Private threads are always created with the
  GUILD_PRIVATE_THREAD type and can only be created in GUILD_TEXT channels". A forum or
  media channel's thread is a post, made with its first message ("Start Thread in Forum
  or Media Channel": "The type of the created thread is PUBLIC_THREAD"); Start Thread
  from Message "Does not work on a GUILD_FORUM or a GUILD_MEDIA channel".
- Permissions (topics/permissions): the thread bits (CREATE_PUBLIC_THREADS,
  CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS, MANAGE_THREADS) are for text
  channels only (T: GUILD_TEXT, GUILD_ANNOUNCEMENT, GUILD_FORUM, GUILD_MEDIA); a voice
  or stage channel holds no threads, though its text chat takes messages, files and
  components as any text channel (SEND_MESSAGES, ATTACH_FILES: T, V, S).
- Private threads ("Permissions"): "You must be invited to the thread to be able to
  view or participate in it, or be a moderator (MANAGE_THREADS permission)"; the
  gateway does not tell a client of a thread it may not view. "Users cannot ... use
  application commands, or join archived threads."

Where the docs name no error code, the fake answers with Discord's general ones: 50024
"Cannot execute action on this channel type" for a thread the parent cannot hold,
50008 "Cannot send messages in a non-text channel" for a post to a channel that holds
only threads (or channels), 50001 "Missing Access" for a private thread the bot was not
invited to. A thread asked of an announcement channel with another type than its own is
refused rather than quietly made an announcement thread: the docs say which type it is,
and a bot that asks for that type is right either way.
"""

from __future__ import annotations

from .models import Json

TEXT, DM, VOICE, CATEGORY, ANNOUNCEMENT = 0, 1, 2, 4, 5
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
STAGE, FORUM, MEDIA = 13, 15, 16

THREADS = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
# Guild channels a test may add (a DM is opened, a thread added under its parent).
GUILD_CHANNELS = frozenset({TEXT, VOICE, CATEGORY, ANNOUNCEMENT, STAGE, FORUM, MEDIA})
# Channels that hold only other channels or threads: no message box, so no message from
# anyone there, and no command typed there either.
NO_CHAT = frozenset({CATEGORY, FORUM, MEDIA})
# Channels a voice connection joins; their text chat takes messages, but no threads.
VOCAL = frozenset({VOICE, STAGE})
# The thread each parent makes of a thread started without a message (the types it takes).
WITHOUT_MESSAGE = {TEXT: frozenset({PUBLIC_THREAD, PRIVATE_THREAD}),
                   ANNOUNCEMENT: frozenset({ANNOUNCEMENT_THREAD})}
# The thread each parent makes of one of its messages.
FROM_MESSAGE = {TEXT: PUBLIC_THREAD, ANNOUNCEMENT: ANNOUNCEMENT_THREAD}
# The thread a member's new thread under each parent is, public or private (None: none).
MEMBER_THREAD = {TEXT: (PUBLIC_THREAD, PRIVATE_THREAD),
                 ANNOUNCEMENT: (ANNOUNCEMENT_THREAD, None),
                 FORUM: (PUBLIC_THREAD, None), MEDIA: (PUBLIC_THREAD, None)}

Refusal = tuple[int, int, str]  # status, Discord's code, message
WRONG_TYPE: Refusal = (400, 50024, "Cannot execute action on this channel type")
NOT_TEXT: Refusal = (400, 50008, "Cannot send messages in a non-text channel")
NEEDS_MESSAGE: Refusal = (400, 50035, "Invalid Form Body (message: This field is required)")
MISSING_ACCESS: Refusal = (403, 50001, "Missing Access")

DEFAULT_WITHOUT_MESSAGE = PRIVATE_THREAD  # "type currently defaults to PRIVATE_THREAD"


def thread_without_message(parent_type: int, body: Json) -> int | Refusal:
    """The type of the thread Start Thread without Message makes under this parent, or
    Discord's refusal (a forum's post needs its first message; see the module)."""
    if parent_type in (FORUM, MEDIA):
        return NEEDS_MESSAGE if not isinstance(body.get("message"), dict) else PUBLIC_THREAD
    wanted = int(body.get("type") or DEFAULT_WITHOUT_MESSAGE)
    if wanted not in WITHOUT_MESSAGE.get(parent_type, frozenset()):
        return WRONG_TYPE
    return wanted


def thread_from_message(parent_type: int) -> int | Refusal:
    """The type of the thread Start Thread from Message makes under this parent."""
    return FROM_MESSAGE.get(parent_type, WRONG_TYPE)


def member_thread(parent_type: int, *, private: bool) -> int:
    """The thread a member opens under this parent (a forum's post is a public thread);
    ValueError where Discord offers none (a voice channel, a private one in a forum)."""
    public, private_type = MEMBER_THREAD.get(parent_type, (None, None))
    kind = private_type if private else public
    if kind is None:
        raise ValueError(f"Discord makes no {'private ' if private else ''}thread in a "
                         f"channel of type {parent_type}")
    return kind
