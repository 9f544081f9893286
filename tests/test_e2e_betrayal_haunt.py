"""The haunt through the real discord.py and the fake Discord (issue 4): the haunt roll
starts Pay the Piper at the end of a turn; the traitor gets the Traitor's Tome and every
turn of theirs (the monsters' too) by DM and plays it there; the heroes get their book
in a private thread the traitor is not in; the channel never shows the traitor's book
until the end; the game is played to a winner by clicks, and the end posts both books."""

from __future__ import annotations

from typing import Any

from bot import games
from bot.core.actions import Action
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import flow, sides
from bot.games.betrayal.state import BetrayalState
from bot.texts import say
from tests.betrayal_haunt_helpers import grow
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start, said, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser

TILES = 16


def grown_house(state: BetrayalState) -> BetrayalState:
    """AI play (no haunt yet) until the house has TILES rooms, at a quiet moment."""
    state = grow(state, TILES, 3000, turn_start=False)
    # This turn found an omen (a Bite in the Pentagram Chamber: Pay the Piper on our
    # chart) and 13 omens are out: the haunt roll (6 dice, at most 12) must succeed.
    state.turn.omen, state.turn.omen_room = "bite", "pentagram_chamber"
    state.omens_drawn = 13
    return state


def _component_for(message: FakeMessage, action: Action) -> dict[str, Any] | None:
    wanted = action.encode()
    for comp in message.flat_components():
        if comp["type"] == 2 and str(comp.get("custom_id") or "").endswith(":" + wanted):
            return comp
        if comp["type"] == 3 and any(o["value"] == wanted for o in comp["options"]):
            return {**comp, "value": wanted}
    return None


async def play_action(fd: FakeDiscord, user: FakeUser, message: FakeMessage,
                action: Action) -> None:
    comp = _component_for(message, action)
    if comp is None:  # a choice only its chooser may see: reveal it first
        reveal = next(c for c in message.custom_ids() if "view.choices" in c)
        shown = (await (await fd.click(user, message, reveal)).wait()).messages[-1]
        assert shown.ephemeral
        message, comp = shown, _component_for(shown, action)
        assert comp is not None, (action, shown.flat_components())
    if comp["type"] == 2:
        handle = await (await fd.click(user, message, str(comp["custom_id"]))).wait()
    else:
        handle = await (await fd.select(user, message, str(comp["custom_id"]),
                                        [str(comp["value"])])).wait()
    # nothing refused: a click on the private choices only has them say it was played
    assert handle.ephemeral_texts() in ([], [say("view.step_done")]), handle.ephemeral_texts()


async def until_a_private_turn(fd: FakeDiscord, bot: Any, channel: int,
                               by_seat: dict[int, FakeUser]) -> None:
    """Each seat's player clicks the AI's choice until a turn is played from DMs (the
    traitor's, once the haunt has begun)."""
    for _ in range(200):
        saved = await bot.store.load(channel)
        assert saved is not None
        state = GAME.load(saved.state or {})
        seat = GAME.to_act(state)
        assert seat is not None
        if GAME.prompt_private(state, seat):
            return
        await play_action(fd, by_seat[seat], latest_turn(fd, channel), GAME.ai_action(state, seat))
    raise AssertionError("no turn was played from DMs in 200 moves")


def dm_prompt(fd: FakeDiscord, user: FakeUser) -> FakeMessage:
    prompts = [m for m in fd.dms(user) if any(c.startswith(("hk:", "hks:"))
                                               for c in m.custom_ids())]
    assert prompts, "the traitor has no buttons in their DMs"
    return prompts[-1]


async def haunt_begins(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                        ) -> tuple[int, Any, dict[int, FakeUser], BetrayalState]:
    """Four users start a game; the house is built by AI play; the next End turn (typed
    by whoever is to move) sets off the haunt roll, and Pay the Piper begins."""
    channel = fd.add_channel("haunted")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=5)
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    table.state = games.get("betrayal").dump(grown_house(games.get("betrayal").load(table.state)))
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    by_seat = {i: next(u for u in users if u.id == s.user_id) for i, s in enumerate(table.seats)}
    mover = by_seat[GAME.load(table.state).turn.seat]

    ended = await (await fd.slash(mover, channel, "betrayal", "end-turn")).wait()
    assert ended.ephemeral_texts() == ["Done — the map is below."]
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    state = GAME.load(saved.state)
    assert state.haunt is not None and state.haunt.key == "pay_the_piper"
    return channel, bot, by_seat, state


async def at_the_traitors_dm_turn(fd: FakeDiscord, start_hauntkeeper: BotFactory,
                                  ) -> tuple[int, Any, FakeUser, FakeUser, FakeMessage]:
    """`haunt_begins`, then played on to the traitor's first turn from DMs: the channel,
    the bot, the traitor's user, a moderator, and the traitor's DM prompt."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    mod = fd.add_user("mod", manage_channels=True)
    await until_a_private_turn(fd, bot, channel, by_seat)
    await fd.settle()
    return channel, bot, by_seat[traitor], mod, dm_prompt(fd, by_seat[traitor])


async def test_the_traitor_plays_from_the_dm_to_a_winner(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    villain = by_seat[traitor]
    heroes = {by_seat[s].id for s in sides.heroes(state)}

    tome = flow.book_text(state, "traitor")
    assert any(tome in m.text for m in fd.dms(villain))  # the book, by DM
    [thread] = fd.threads(channel)
    assert thread.member_ids - {fd.bot_user.id} == heroes  # not the traitor
    assert any("Secrets of Survival" in m.text for m in fd.channel_messages(thread.id))
    assert not any("Traitor's Tome" in m.text for m in fd.channel_messages(thread.id))

    dm_clicks, typed, moves = 0, [], 0
    for _ in range(600):
        saved = await bot.store.load(channel)
        if saved is None:
            break  # the game is over
        state = GAME.load(saved.state or {})
        seat = GAME.to_act(state)
        assert seat is not None
        action = GAME.ai_action(state, seat)
        if action.kind in ("attack", "act") and state.pending is None:
            # typed instead of clicked: /betrayal attack and /betrayal act
            options: dict[str, Any] = ({"target": str(action.args["target"]),
                                        "trait": str(action.args["trait"])}
                                       if action.kind == "attack"
                                       else {"action": action.encode()})
            if action.kind == "attack" and action.args.get("weapon"):
                options["weapon"] = str(action.args["weapon"])
            done = await (await fd.slash(by_seat[seat], channel, "betrayal", action.kind,
                                         **options)).wait()
            assert done.ephemeral_texts() == ["Done — the map is below."], done.ephemeral_texts()
            typed.append(action.kind)
            if GAME.prompt_private(state, seat):
                dm_clicks += 1
        elif GAME.prompt_private(state, seat):
            posted = len(fd.channel_messages(channel))
            await play_action(fd, villain, dm_prompt(fd, villain), action)
            dm_clicks += 1
            if action.kind == "mmove":  # told with the rest of the monsters' turn
                assert len(fd.channel_messages(channel)) == posted
                moves += 1
        else:
            post = latest_turn(fd, channel)
            assert to_move(post) == by_seat[seat].id
            await play_action(fd, by_seat[seat], post, action)
    final = await bot.store.load_latest(channel)
    assert final is not None and final.status == "over"
    state = GAME.load(final.state or {})
    assert state.haunt is not None and state.haunt.winner in ("heroes", "traitor")
    assert dm_clicks > 0 and "attack" in typed and moves > 0
    logged = await bot.store.log(final.id or 0, limit=100_000)
    assert any(e.text.startswith("🐾") for e in logged)  # the monsters' moves, in one line
    public = [m.text for m in fd.channel_messages(channel)]
    end = next(i for i, text in enumerate(public) if "🏆" in text)
    assert not any("Traitor's Tome" in text for text in public[:end])
    assert any("Traitor's Tome" in text for text in public[end:])  # now public
    assert any("Secrets of Survival" in text for text in public[end:])
    closed = fd.channels[thread.id]
    assert closed.archived and closed.locked  # the heroes' thread is closed, still readable
    assert "The game is over" in fd.channel_messages(thread.id)[-1].text


async def test_a_kicked_traitor_is_played_by_the_ai(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A moderator hands the traitor's seat to the AI: it plays the traitor's turns and
    the monsters' from then on, and the heroes play on by clicks to a winner."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    mod = fd.add_user("mod", manage_channels=True)
    kicked = await (await fd.slash(mod, channel, "gm", "kick", player=by_seat[traitor])).wait()
    assert "played by the AI" in kicked.ephemeral_texts()[-1]
    for _ in range(600):
        saved = await bot.store.load(channel)
        if saved is None:
            break
        state = GAME.load(saved.state or {})
        seat = GAME.to_act(state)
        assert seat is not None and seat != traitor  # the AI plays the traitor at once
        post = latest_turn(fd, channel)
        await play_action(fd, by_seat[seat], post, GAME.ai_action(state, seat))
    final = await bot.store.load_latest(channel)
    assert final is not None and final.status == "over"
    assert GAME.load(final.state or {}).haunt.winner in ("heroes", "traitor")


async def test_the_books_arrive_after_the_post_that_starts_the_haunt(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The channel names the traitor first; only then does each side get its book (the
    Tome by DM, the heroes' book in their thread), so no book comes out of the blue."""
    channel, _, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    [announced] = [m for m in fd.channel_messages(channel) if "is the traitor." in m.text]
    versions = [*(said(v) for v in announced.history), announced.text]
    told = next(n for n, text in enumerate(versions) if "is the traitor." in text)
    when = announced.id if told == 0 else announced.edit_ids[told - 1]  # that version came
    [tome] = [m for m in fd.dms(by_seat[traitor])
              if flow.book_text(state, "traitor")[:60] in m.text]
    [thread] = fd.threads(channel)
    [heroes] = [m for m in fd.channel_messages(thread.id) if "Secrets of Survival" in m.text]
    assert when < tome.id and when < heroes.id


async def test_the_traitors_dm_prompt_offers_the_whole_house(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """A turn played from DMs has the channel's "Whole house" too (the live message's
    board shows only the floor in play): its holder clicks it in the DM and sees the
    whole house, privately; the game is untouched."""
    channel, bot, by_seat, state = await haunt_begins(fd, start_hauntkeeper)
    traitor = sides.traitor(state)
    assert traitor is not None
    villain = by_seat[traitor]
    await until_a_private_turn(fd, bot, channel, by_seat)
    prompt = dm_prompt(fd, villain)
    assert prompt.v2 and f"hkh:1:{channel}" in prompt.custom_ids()
    before = await bot.store.load(channel)
    shown = (await (await fd.click(villain, prompt, f"hkh:1:{channel}")).wait()).messages[-1]
    assert shown.ephemeral and shown.attachments and shown.descriptions[0]
    after = await bot.store.load(channel)
    assert before is not None and after is not None and after.version == before.version
