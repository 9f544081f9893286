"""The JSON shapes of users, members, roles, channels, the guild, attachments and messages.

Why a module: discord.py parses these payloads strictly (a missing key is a KeyError deep
inside its state code), so every shape is built in one place, from the plain records in
models.py, whether it goes out over REST, the gateway or inside an interaction.
"""

from __future__ import annotations

from urllib.parse import quote

from .channel_types import VOCAL
from .common import EVERYONE_PERMISSIONS, MANAGER_PERMISSIONS
from .models import FakeChannel, FakeGuild, FakeMessage, FakeUser, Json, snowflake_iso


class PayloadsMixin:
    """Builds the JSON discord.py expects from the stored records.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _user_json(self, user: FakeUser) -> Json:
        return {
            "id": str(user.id),
            "username": user.name,
            "discriminator": "0",
            "global_name": user.name,
            "avatar": None,
            "bot": user.bot,
            "public_flags": 0,
        }

    def _member_json(
        self,
        user: FakeUser,
        guild: FakeGuild | None = None,
        *,
        with_user: bool = True,
        permissions: int | None = None,
    ) -> Json:
        """The user as a member of `guild` (the first one if None): its roles only."""
        roles = (guild or self.guilds[self.guild_id]).role_ids
        data: Json = {
            "roles": [str(r) for r in user.role_ids if r in roles],
            "joined_at": user.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self._user_json(user)
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def _role_json(self, role_id: int, name: str, permissions: int, position: int) -> Json:
        return {
            "id": str(role_id),
            "name": name,
            "permissions": str(permissions),
            "position": position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }

    def _roles_json(self, guild: FakeGuild | None = None) -> list[Json]:
        guild = guild or self.guilds[self.guild_id]
        return [
            self._role_json(guild.id, "@everyone", EVERYONE_PERMISSIONS, 0),
            self._role_json(guild.manager_role_id, "Channel Managers", MANAGER_PERMISSIONS, 1),
            self._role_json(guild.bot_role_id, self.bot_user.name, self.bot_permissions, 2),
            *(self._role_json(rid, name, 0, 3 + n)
              for n, (rid, name) in enumerate(guild.extra_roles.items())),
        ]

    def _channel_json(self, channel: FakeChannel) -> Json:
        if channel.is_dm:
            recipient = self.users[channel.recipient_id or 0]
            return {
                "id": str(channel.id),
                "type": 1,
                "recipients": [self._user_json(recipient)],
                "last_message_id": None,
                "flags": 0,
            }
        data: Json = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(self.guild_of(channel).id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": channel.permission_overwrites,
            "nsfw": False,
            "parent_id": str(channel.parent_id) if channel.parent_id else None,
            "topic": channel.topic,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if channel.type in VOCAL:  # discord.py reads these of a voice or stage channel
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if channel.is_thread:
            data.update(
                owner_id=str(channel.owner_id),
                message_count=len(self.channel_messages(channel.id)),
                total_message_sent=len(self.channel_messages(channel.id)),
                member_count=len(channel.member_ids),
                thread_metadata={
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": snowflake_iso(channel.id),
                    "create_timestamp": snowflake_iso(channel.id),
                    "invitable": channel.invitable,
                },
            )
        return data

    def _guild_json(self, guild: FakeGuild | None = None) -> Json:
        guild = guild or self.guilds[self.guild_id]
        users = [u for u in self.users.values() if u.id in guild.member_ids]
        channels = [
            c
            for c in self.channels.values()
            if not c.deleted and not c.is_dm and self.guild_of(c) is guild
        ]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(users),
            "members": [self._member_json(u, guild) for u in users],
            "channels": [self._channel_json(c) for c in channels if not c.is_thread],
            "threads": [self._channel_json(c) for c in channels  # those it may see
                        if c.is_thread and not c.archived and self.bot_sees(c)],
            "roles": self._roles_json(guild),
            "joined_at": self.bot_user.joined_at,
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "preferred_locale": guild.locale,
            "afk_timeout": 300,
        }

    def _attachment_json(self, att_id: int, channel_id: int, ephemeral: bool) -> Json:
        name, data, ctype = self._blobs[att_id]
        url = f"{self.base_url}/attachments/{channel_id}/{att_id}/{quote(name)}"
        return {
            "id": str(att_id),
            "filename": name,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": ctype,
            "ephemeral": ephemeral,
        }

    def _message_json(self, msg: FakeMessage) -> Json:
        channel = self.channels.get(msg.channel_id)
        author = self.users[msg.author_id]
        data: Json = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self._user_json(author),
            "content": msg.content,
            "timestamp": snowflake_iso(msg.id),
            "edited_timestamp": msg.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                self._attachment_json(a, msg.channel_id, msg.ephemeral) for a in msg.attachment_ids
            ],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": msg.type,
            "flags": msg.flags,
        }
        if msg.nonce is not None:
            data["nonce"] = msg.nonce
        if channel is not None and not channel.is_dm:
            data["guild_id"] = str(self.guild_of(channel).id)
        if msg.interaction_id is not None:
            handle = self.interactions[msg.interaction_id]
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            meta: Json = {
                "id": str(handle.id),
                "type": handle.type,
                "user": self._user_json(handle.user),
                "authorizing_integration_owners": handle.payload["authorizing_integration_owners"],
            }
            if handle.message_id is not None:
                meta["interacted_message_id"] = str(handle.message_id)
            if handle.original_message_id is not None and handle.original_message_id != msg.id:
                meta["original_response_message_id"] = str(handle.original_message_id)
            data["interaction_metadata"] = meta
        if msg.reference_id is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(msg.reference_id),
                "channel_id": str(msg.channel_id),
            }
        if msg.thread_id is not None and msg.thread_id in self.channels:
            data["thread"] = self._channel_json(self.channels[msg.thread_id])
        if msg.poll is not None:
            data["poll"] = msg.poll
        return data
