"""Turning `slash(user, channel, "cmd", "sub", opt=value)` into the `data` of an application
command interaction, checked against the synced command definitions.

Why a module: Discord validates before the bot ever sees a command (unknown options,
missing required ones, choices, permissions, DM availability) and resolves users, channels,
roles and attachments; doing the same here makes tests fail where Discord would refuse.
"""

from __future__ import annotations

from typing import Any

from .common import EVERYONE_PERMISSIONS
from .models import FakeChannel, FakeUser, Json

INT53 = 2**53 - 1  # Discord's largest integer option value (Int53Type in its API spec)


class CommandOptionsMixin:
    """Builds and validates application command data.

    A FakeDiscord mixin: `self` is the FakeDiscord, whose state is set up in server.py.
    """

    def _check_allowed(self, cmd: Json | None, user: FakeUser, channel: FakeChannel) -> None:
        """Discord refuses commands a member lacks `default_member_permissions` for."""
        if cmd is None or not self.enforce_command_permissions:
            return
        needed = int(cmd.get("default_member_permissions") or 0)
        perms = self.permissions_of(user, channel.id)
        if needed and (perms & needed) != needed and not perms & 8 and not channel.is_dm:
            raise PermissionError(f"{user.name} may not use /{cmd['name']} (Discord hides it)")
        contexts = cmd.get("contexts")
        ctx = 1 if channel.is_dm else 0
        if (contexts is not None and ctx not in contexts) or (
            ctx == 1 and cmd.get("dm_permission") is False
        ):
            raise PermissionError(f"/{cmd['name']} is not available in this context")

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        path: tuple[str, ...],
        options: dict[str, Any],
        focused: str | None = None,
    ) -> Json:
        cmd = self.command(name, None if channel.is_dm else self.guild_of(channel).id)
        self._check_allowed(cmd, user, channel)
        data: Json = {"id": cmd["id"] if cmd else str(self._snowflake()), "name": name, "type": 1}
        if cmd and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        defs: list[Json] | None = cmd.get("options", []) if cmd else None
        node = data
        for i, part in enumerate(path):
            if defs is not None:
                sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
                if sub is None:
                    raise ValueError(f"/{name} has no subcommand or group {part!r}")
                kind, defs = sub["type"], sub.get("options", [])
            else:
                kind = 2 if i < len(path) - 1 else 1
            child: Json = {"type": kind, "name": part, "options": []}
            node.setdefault("options", []).append(child)
            node = child
        if defs is not None and any(o["type"] in (1, 2) for o in defs):
            raise ValueError(f"/{name} {' '.join(path)} needs a subcommand")
        resolved: Json = {}
        values = [
            self._option(k, v, defs, resolved, focused == k, channel.id) for k, v in options.items()
        ]
        if focused is not None and focused not in options:
            values.append(self._option(focused, "", defs, resolved, True, channel.id))
        if defs is not None and focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{name} {' '.join(path)}: missing required options {missing}")
        node["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        name: str,
        value: Any,
        defs: list[Json] | None,
        resolved: Json,
        focused: bool,
        channel_id: int,
    ) -> Json:
        od = next((o for o in defs if o["name"] == name), None) if defs is not None else None
        if defs is not None and od is None:
            raise ValueError(f"unknown option {name!r}; known: {[o['name'] for o in defs]}")
        kind = int(od["type"]) if od else self._infer_type(value)
        if focused:
            return {"name": name, "type": kind, "value": value, "focused": True}
        choices = [c["value"] for c in (od or {}).get("choices") or []]
        if choices and value not in choices:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
        if kind == 3:
            value = str(value)
            self._check_length(name, value, od or {})
        elif kind == 4:
            value = int(value)
            self._check_range(name, value, od or {})
        elif kind == 5:
            value = bool(value)
        elif kind == 10:
            value = float(value)
        elif kind in (6, 7, 8, 9):
            value = self._resolve_snowflake(kind, value, resolved, channel_id)
        elif kind == 11:
            filename, blob = value
            att_id = self._store_blob(filename, bytes(blob), "application/octet-stream")
            resolved.setdefault("attachments", {})[str(att_id)] = self._attachment_json(
                att_id, 0, True
            )
            value = str(att_id)
        return {"name": name, "type": kind, "value": value}

    @staticmethod
    def _check_range(name: str, value: int, od: Json) -> None:
        """Discord refuses integers beyond ±(2**53 - 1) (its Int53Type) and outside an
        option's min/max."""
        low, high = od.get("min_value", -INT53), od.get("max_value", INT53)
        if not max(low, -INT53) <= value <= min(high, INT53):
            raise ValueError(f"option {name!r}: {value} is outside {low}..{high}")

    @staticmethod
    def _check_length(name: str, value: str, od: Json) -> None:
        """Discord's client refuses a string outside an option's min/max length (6000
        characters at most when the option sets none)."""
        low, high = od.get("min_length", 0), od.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise ValueError(f"option {name!r}: {len(value)} characters, not {low}..{high}")

    @staticmethod
    def _infer_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, FakeUser):
            return 6
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes):
            return 11
        return 3

    def _resolve_snowflake(self, kind: int, value: Any, resolved: Json, channel_id: int) -> str:
        """Fill `resolved` for an option of type user (6), channel (7), role (8) or
        mentionable (9); returns the id string Discord puts in `value`.
        """
        sid = value.id if isinstance(value, FakeUser) else int(value)
        channel = self.channels.get(channel_id)
        guild = None if channel is None or channel.is_dm else self.guild_of(channel)
        roles = {int(r["id"]): r for r in self._roles_json(guild)}
        if kind in (6, 9) and sid in self.users:
            user = self.users[sid]
            resolved.setdefault("users", {})[str(sid)] = self._user_json(user)
            if guild is not None and sid in guild.member_ids:
                perms = self.permissions_of(user, channel_id)
                member = self._member_json(user, guild, with_user=False, permissions=perms)
                resolved.setdefault("members", {})[str(sid)] = member
        elif kind == 7 and sid in self.channels:
            data = self._channel_json(self.channels[sid])
            data["permissions"] = str(EVERYONE_PERMISSIONS)
            resolved.setdefault("channels", {})[str(sid)] = data
        elif kind in (8, 9) and sid in roles:
            resolved.setdefault("roles", {})[str(sid)] = roles[sid]
        else:
            raise ValueError(f"nothing with id {sid} fits an option of type {kind}")
        return str(sid)
