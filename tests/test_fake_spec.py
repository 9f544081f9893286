"""The fake Discord refuses what Discord refuses: request bodies are checked against
Discord's published OpenAPI spec and its documented limits (tests/fakediscord/spec_check.py),
answered with Discord's 400 (50035 Invalid Form Body) and recorded so the sending test
fails even when the bot swallows the 400. And the bot's real command tree passes it.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot.client import HauntBot
from bot.command_translator import words
from bot.locales import CHINESE
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.limits import (
    CONTENT_MAX,
    TOO_LARGE,
    UPLOAD_MAX,
    command_list_limits,
)
from tests.fakediscord.spec.trim import SERVED
from tests.fakediscord.spec_check import INVALID_FORM_BODY, SPEC_FILE, SpecCheck, spec_check

INT53 = 2**53 - 1


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def command(name: str = "game", **option: Any) -> dict[str, Any]:
    opt = {"type": 4, "name": "seed", "description": "A seed.", **option}
    return {"type": 1, "name": name, "description": "Play.", "options": [opt]}


async def call(fd: FakeDiscord, method: str, path: str, body: Any,
               *, multipart: bool = False) -> tuple[int, Any]:
    """One raw request to the fake's REST API: (status, decoded JSON or None). A 429
    (the fake keeps Discord's rate limits: tests/fakediscord/buckets.py) is waited out
    and the request sent again, as a client must."""
    url = fd.base_url + "/api/v10" + path
    async with aiohttp.ClientSession() as http:
        while True:
            if multipart:
                form = aiohttp.FormData()
                form.add_field("payload_json", json.dumps(body),
                               content_type="application/json")
                form.add_field("files[0]", b"\x89PNG", filename="a.png",
                               content_type="image/png")
                kwargs: dict[str, Any] = {"data": form}
            else:
                kwargs = {"json": body}
            async with http.request(method, url, **kwargs) as resp:
                text = await resp.text()
                answer = json.loads(text) if text else None
                if resp.status != 429:
                    return resp.status, answer
            await asyncio.sleep(answer["retry_after"])


async def refused(fd: FakeDiscord, method: str, path: str, body: Any, *where: str,
                  multipart: bool = False) -> dict[str, Any]:
    """Assert the fake refuses the body as Discord does, with an error at `where`
    (keys into the `errors` tree); returns that error node. Empties `violations` after
    checking it, since these bodies are bad on purpose."""
    status, answer = await call(fd, method, path, body, multipart=multipart)
    assert status == 400, answer
    assert answer["code"] == INVALID_FORM_BODY and answer["message"] == "Invalid Form Body"
    node = answer["errors"]
    for key in where:
        assert key in node, (where, answer["errors"])
        node = node[key]
    assert node["_errors"] and all({"code", "message"} <= set(e) for e in node["_errors"])
    assert fd.violations and all(v.startswith(f"{method} {path}: ") for v in fd.violations)
    fd.violations.clear()
    return node


async def accepted(fd: FakeDiscord, method: str, path: str, body: Any,
                   *, multipart: bool = False) -> Any:
    status, answer = await call(fd, method, path, body, multipart=multipart)
    assert status == 200, answer
    assert fd.violations == []
    return answer


async def test_a_command_option_beyond_int53_is_refused_and_int53_taken(fd: FakeDiscord) -> None:
    path = f"/applications/{fd.application_id}/commands"
    node = await refused(fd, "PUT", path, [command(max_value=2**53)],
                         "0", "options", "0", "max_value")
    assert node["_errors"][0]["code"] == "NUMBER_TYPE_MAX"
    assert fd.commands.get(None) is None  # a refused bulk PUT registers nothing
    await refused(fd, "PUT", path, [command(min_value=-(2**53))], "0", "options", "0",
                  "min_value")
    await accepted(fd, "PUT", path, [command(min_value=-INT53, max_value=INT53)])
    assert fd.command("game") is not None


async def test_command_names_descriptions_and_choices_follow_discord(fd: FakeDiscord) -> None:
    path = f"/applications/{fd.application_id}/guilds/{fd.guild_id}/commands"
    await refused(fd, "PUT", path, [command("Game")], "0", "name")
    await refused(fd, "PUT", path, [command("new game")], "0", "name")
    await refused(fd, "PUT", path, [command("g" * 33)], "0", "name")
    await refused(fd, "PUT", path, [{**command(), "description": ""}], "0", "description")
    await refused(fd, "PUT", path, [{**command(), "description": "d" * 101}], "0", "description")
    choices = [{"name": f"c{n}", "value": n} for n in range(26)]
    await refused(fd, "PUT", path, [command(choices=choices)], "0", "options", "0", "choices")
    long_value = {"type": 3, "name": "pick", "description": "Pick.",
                  "choices": [{"name": "a", "value": "v" * 101}]}
    await refused(fd, "PUT", path, [{**command(), "options": [long_value]}],
                  "0", "options", "0", "choices", "0", "value")
    required_late = [{"type": 3, "name": "a", "description": "A."},
                     {"type": 3, "name": "b", "description": "B.", "required": True}]
    await refused(fd, "PUT", path, [{**command(), "options": required_late}],
                  "0", "options", "1", "required")
    await refused(fd, "PUT", path, [command(), command()], "1", "name")
    options = [{"type": 5, "name": f"o{n}", "description": "O."} for n in range(26)]
    await refused(fd, "PUT", path, [{**command(), "options": options}], "0", "options")
    await accepted(fd, "PUT", path, [command("ñandú-2"), {**command("help"), "options": []},
                                     {"type": 2, "name": "Show Seat", "description": ""}])


async def test_message_content_over_2000_is_refused_json_or_multipart(fd: FakeDiscord) -> None:
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    await refused(fd, "POST", path, {"content": "x" * (CONTENT_MAX + 1)}, "content")
    await refused(fd, "POST", path, {"content": "x" * (CONTENT_MAX + 1)}, "content",
                  multipart=True)
    await accepted(fd, "POST", path, {"content": "x" * CONTENT_MAX})
    await accepted(fd, "POST", path, {"content": "board"}, multipart=True)
    assert [len(m.content) for m in fd.channel_messages(general)] == [CONTENT_MAX, 5]


async def test_components_beyond_discords_limits_are_refused(fd: FakeDiscord) -> None:
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    rows = [row(button(f"b{n}")) for n in range(6)]
    await refused(fd, "POST", path, {"content": "hi", "components": rows}, "components")
    await refused(fd, "POST", path, {"components": [row(button("x" * 101))]},
                  "components", "0", "components", "0", "custom_id")
    await refused(fd, "POST", path, {"components": [row(*(button(f"b{n}") for n in range(6)))]},
                  "components", "0", "components")
    await refused(fd, "POST", path, {"components": [row(button("a", "L" * 81))]},
                  "components", "0", "components", "0", "label")
    await refused(fd, "POST", path, {"components": [row(button("same")), row(button("same"))]},
                  "components", "1", "components", "0", "custom_id")
    select = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
    await refused(fd, "POST", path, {"components": [row(select, button("b"))]},
                  "components", "0", "components")
    many = {**select, "options": [{"label": f"o{n}", "value": str(n)} for n in range(26)]}
    await refused(fd, "POST", path, {"components": [row(many)]},
                  "components", "0", "components", "0", "options")
    await refused(fd, "POST", path, {"components": [row({**select, "max_values": 2})]},
                  "components", "0", "components", "0", "max_values")
    full = [row(*(button(f"r{r}b{b}", "L" * 80) for b in range(5))) for r in range(5)]
    await accepted(fd, "POST", path, {"content": "full", "components": full})
    await accepted(fd, "POST", path, {"components": [row(select)], "content": "pick"})


async def test_embeds_over_discords_sizes_are_refused(fd: FakeDiscord) -> None:
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    await refused(fd, "POST", path, {"embeds": [{"title": "t" * 257}]}, "embeds", "0", "title")
    fields = [{"name": "n", "value": "v"}] * 26
    await refused(fd, "POST", path, {"embeds": [{"fields": fields}]}, "embeds", "0", "fields")
    four = [{"description": "d" * 1600} for _ in range(4)]  # 6400 in all, each fine alone
    await refused(fd, "POST", path, {"embeds": four}, "embeds")
    await refused(fd, "POST", path, {"embeds": [{}] * 11}, "embeds")
    await accepted(fd, "POST", path, {"embeds": four[:3]})


async def test_autocomplete_with_26_choices_is_refused(fd: FakeDiscord) -> None:
    path = "/interactions/1/token/callback"
    choices = [{"name": f"c{n}", "value": f"c{n}"} for n in range(26)]
    await refused(fd, "POST", path, {"type": 8, "data": {"choices": choices}}, "data", "choices")
    await refused(fd, "POST", path, {"type": 8, "data": {"choices": [{"name": "", "value": "v"}]}},
                  "data", "choices", "0", "name")
    await refused(fd, "POST", path,
                  {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}},
                  "data", "choices", "0", "value")
    await refused(fd, "POST", path, {"type": 4, "data": {"content": "x" * 2001}},
                  "data", "content")
    # 25 pass the check; the fake then answers for the interaction it never made.
    status, answer = await call(fd, "POST", path, {"type": 8, "data": {"choices": choices[:25]}})
    assert (status, answer["code"]) == (404, 10062) and fd.violations == []
    fd.errors.clear()


async def test_a_field_of_the_wrong_type_is_refused_an_unknown_one_ignored(
        fd: FakeDiscord) -> None:
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    node = await refused(fd, "POST", path, {"content": "hi", "tts": "yes"}, "tts")
    assert node["_errors"][0]["code"] == "BASE_TYPE_INVALID"
    await refused(fd, "POST", path, {"content": 5}, "content")
    await refused(fd, "POST", path, {"nonce": "n" * 26}, "nonce")
    await refused(fd, "POST", "/users/@me/channels", {"recipient_id": "me"}, "recipient_id")
    await accepted(fd, "POST", path, {"content": "hi", "not_a_discord_field": 5})  # as Discord


async def test_a_refused_body_fails_the_test_even_if_the_bot_swallows_it(tmp_path: Path) -> None:
    fd = FakeDiscord()
    await fd.start()
    general = fd.add_channel("general")
    client = discord.Client(intents=discord.Intents.none())
    async with running_bot(client, fd):
        channel = client.get_channel(general)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as caught:
            await channel.send("x" * 2001)  # a bot that caught this would still fail
        assert caught.value.status == 400 and caught.value.code == INVALID_FORM_BODY
        assert "2000 or fewer" in str(caught.value)
        await channel.send("x" * 2000)
    with pytest.raises(AssertionError, match="would refuse"):
        await fd.stop()
    assert len(fd.violations) == 1 and "content: Must be 2000" in fd.violations[0]


async def test_the_real_command_tree_passes_discords_spec(fd: FakeDiscord, tmp_path: Path) -> None:
    """What `python -m bot sync` sends (tree.sync's payload), against the spec itself."""
    bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"))
    async with running_bot(bot, fd, sync=False):
        payload = [c.to_dict(bot.tree) for c in bot.tree._get_all_commands()]
        assert spec_check().check("PUT", f"/applications/{fd.application_id}/commands",
                                  payload) == []
        await bot.tree.sync()
    assert fd.violations == [] and fd.command("game") is not None
    game = next(c for c in payload if c["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    seed = next(o for o in new["options"] if o["name"] == "seed")
    assert seed["max_value"] == INT53


async def test_the_synced_tree_carries_its_chinese_and_keeps_its_names(
        fd: FakeDiscord, tmp_path: Path) -> None:
    """The tree as `tree.sync` sends it with the translator (bot/command_translator.py):
    descriptions and choices in zh-TW, names English; the fake takes it as Discord
    would (its spec and limits), and refuses what Discord refuses."""
    bot = HauntBot(db_path=str(tmp_path / "hk.sqlite3"))
    async with running_bot(bot, fd, sync=False):
        await bot.tree.sync()
    assert fd.violations == []
    game = fd.command("game")
    assert game is not None and not game.get("name_localizations")
    new = next(o for o in game["options"] if o["name"] == "new")
    chinese = words(CHINESE)
    assert new["description_localizations"] == {CHINESE: chinese[new["description"]]}
    kind = next(o for o in new["options"] if o["name"] == "game")
    assert all(c["name_localizations"] == {CHINESE: chinese[c["name"]]}
               for c in kind["choices"])
    bad = {"name": "x", "description": "y", "type": 1,
           "name_localizations": {"zh-TW": "Upper", "xx": "z"},
           "description_localizations": {"zh-TW": "長" * 101}}
    assert len(list(command_list_limits([bad]))) == 3


def test_every_route_the_fake_serves_is_in_the_spec_and_its_body_checked(
        fd: FakeDiscord) -> None:
    """Nothing the bot sends goes unchecked: each body route of the fake is one of the
    spec's operations, and each that takes a body has a compiled validator."""
    spec = json.loads(SPEC_FILE.read_text())
    concrete = {template: re.sub(r"\{[^}]+\}", "123", template) for template in spec["paths"]}
    checked = 0
    for method, pattern, _ in fd._routes:
        if method not in ("POST", "PUT", "PATCH"):
            continue
        hits = [t for t, path in concrete.items() if pattern.match(path)
                and method.lower() in spec["paths"][t]]
        assert hits, f"{method} {pattern.pattern} is in no spec path"
        for template in hits:
            if "requestBody" in spec["paths"][template][method.lower()]:
                assert spec_check().operation(method, concrete[template]) is not None
                checked += 1
    assert checked >= 12


def test_the_trimmed_spec_holds_every_schema_it_refers_to() -> None:
    spec = json.loads(SPEC_FILE.read_text())
    text = SPEC_FILE.read_text()
    names = set(re.findall(r'"#/components/schemas/([^"]+)"', text))
    assert names and names <= set(spec["components"]["schemas"])
    assert set(spec["paths"]) == set(SERVED)
    assert (SPEC_FILE.parent / "LICENSE").read_text().startswith("MIT License")


def test_the_fast_validators_judge_as_the_spec_as_published() -> None:
    """spec_prepare.py's rewrites (enums, unions picked by type) change the speed, not the
    verdict: the same bodies pass and fail as against the plain spec."""
    plain = SpecCheck(json.loads(SPEC_FILE.read_text()), fast=False)
    select = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}
    message = "/channels/1/messages"
    cases: list[tuple[str, str, Any]] = [
        ("POST", message, {"content": "hi", "components": [row(button("a")), row(select)]}),
        ("POST", message, {"components": [row(button("x" * 101))]}),
        ("POST", message, {"components": [{"type": 99, "components": []}]}),
        ("POST", message, {"components": [row({"type": 2, "style": 9, "custom_id": "s"})]}),
        ("POST", message, {"components": [row({**select, "options": []})]}),
        ("POST", message, {"components": [row("not a component")]}),
        ("POST", "/interactions/1/t/callback", {"type": 7, "data": {"content": "ok"}}),
        ("POST", "/interactions/1/t/callback", {"type": 3}),
        ("POST", "/interactions/1/t/callback", {"type": 8, "data": {"choices": []}}),
        ("PUT", "/applications/1/commands", [command()]),
        ("PUT", "/applications/1/commands", [command(type=42)]),
        ("PUT", "/applications/1/commands", [command(max_value=2**53)]),
    ]
    verdicts = []
    for method, path, body in cases:
        fast, slow = spec_check().check(method, path, body), plain.check(method, path, body)
        assert bool(fast) == bool(slow), (body, fast, slow)
        verdicts.append(bool(fast))
    assert verdicts == [False, True, True, True, True, True, False, True, False, False, True,
                        True]


async def test_the_rules_beside_the_schema_are_enforced_too(fd: FakeDiscord) -> None:
    """Discord's documented rules the schema cannot state: button fields by style,
    Components v2 counts, a command's 8,000 characters, 100 chat-input commands."""
    general = fd.add_channel("general")
    path = f"/channels/{general}/messages"
    await refused(fd, "POST", path, {"components": [row({"type": 2, "style": 5, "label": "L"})]},
                  "components", "0", "components", "0")
    await refused(fd, "POST", path, {"components": [row({"type": 2, "style": 1, "label": "L"})]},
                  "components", "0", "components", "0", "custom_id")
    await refused(fd, "POST", path, {"components": [row({"type": 2, "style": 1,
                                                         "custom_id": "a"})]},
                  "components", "0", "components", "0")
    texts = [{"type": 10, "content": f"line {n}"} for n in range(41)]
    await refused(fd, "POST", path, {"flags": 1 << 15, "components": texts}, "components")
    await accepted(fd, "POST", path, {"flags": 1 << 15, "components": texts[:40]})
    commands = f"/applications/{fd.application_id}/commands"
    choices = [{"name": f"{n:02d}" + "n" * 98, "value": f"{n:02d}" + "v" * 98} for n in range(25)]
    big = [{"type": 3, "name": f"o{n}", "description": "O.", "choices": choices}
           for n in range(2)]  # 10,000 characters of choices
    await refused(fd, "PUT", commands, [{**command(), "options": big}], "0")
    await accepted(fd, "PUT", commands, [{**command(), "options": big[:1]}])
    await refused(fd, "PUT", commands, [command(f"c{n}") for n in range(101)])


async def test_what_discord_takes_beyond_its_schema_is_taken(fd: FakeDiscord) -> None:
    """Discord parses a snowflake sent as a number and permission bits sent as a decimal
    string (discord.py sends both); anything else of the wrong type is still refused."""
    general = fd.add_channel("general")
    user = fd.add_user("ann")
    path = f"/channels/{general}/permissions/{user.id}"
    status, _ = await call(fd, "PUT", path, {"id": str(user.id), "type": 1, "allow": "1024",
                                            "deny": 0})
    assert status == 204 and fd.violations == []
    await refused(fd, "PUT", path, {"id": str(user.id), "type": 1, "allow": "view"}, "allow")
    await accepted(fd, "POST", "/users/@me/channels", {"recipient_id": user.id})
    await refused(fd, "POST", "/users/@me/channels", {"recipient_id": -5}, "recipient_id")


async def test_a_file_over_a_bots_upload_limit_is_refused_and_one_at_it_taken(
        fd: FakeDiscord) -> None:
    """Discord's 10 MiB for a bot's file (without a server's boosts): one byte over is
    413 / 40005 before anything is posted; at the limit, an animated WebP is stored as
    image/webp (its type read from its name, as discord.py sends octet-stream)."""
    general = fd.add_channel("general")
    url = f"{fd.base_url}/api/v10/channels/{general}/messages"

    async def send(size: int) -> tuple[int, Any]:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"content": "replay"}),
                       content_type="application/json")
        form.add_field("files[0]", b"RIFF" + bytes(size - 4), filename="replay.webp",
                       content_type="application/octet-stream")
        async with aiohttp.ClientSession() as http, http.post(url, data=form) as resp:
            return resp.status, await resp.json()

    status, answer = await send(UPLOAD_MAX + 1)
    assert (status, answer["code"]) == (413, TOO_LARGE)
    assert len(fd.violations) == 1 and "files over" in fd.violations[0]
    fd.violations.clear()
    assert fd.channel_messages(general) == []
    status, answer = await send(UPLOAD_MAX)
    assert status == 200, answer
    assert answer["attachments"][0]["content_type"] == "image/webp"
    assert answer["attachments"][0]["size"] == UPLOAD_MAX
