"""Betrayal and its Neibolt edition as a player reads them in a Discord chat (a walk
through whole games with humans and AI seats, 3 and 6 explorers): each defect that walk
found, confirmed here, shortly. A player must see what a pending choice asks beside its
buttons; a chapter's opening (the haunt revealed, its traitor named) must reach the
channel however long the AI turns around it ran; a card named with its own punctuation
("What the...?", "Whoops!") is not given a second stop."""

from __future__ import annotations

from bot import games
from bot.core.seats import Seat
from bot.delivery import Post, Prompt
from bot.games.betrayal import GAME, decks
from bot.games.betrayal.context import Ctx
from bot.games.neibolt import encounters
from bot.live_message import step
from bot.live_record import LiveMessage
from bot.locales import CHINESE, speaking
from bot.store import ACTIVE, Table
from cogs.components import PRIVATE_CHOICES
from tests.betrayal_e2e_helpers import explore_into_the_spider, rig_the_spider
from tests.conftest import BotFactory
from tests.e2e_helpers import latest_turn, open_and_start
from tests.fakediscord import FakeDiscord
from tests.test_betrayal_engine_helpers import OX, new_game
from tests.test_betrayal_engine_traits import run_steps

REVEAL = "Haunt roll 3, under 4 omens: THE HAUNT BEGINS! Missy revealed it with the Skull."
TRAITOR = "Brandon Jaspers (cat) is the traitor."


async def test_a_pending_choice_shows_its_question_beside_its_buttons(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The Spider asks its explorer which trait to roll (seed 003: "the explorer picks
    Speed or Sanity"): the buttons read "Speed" and "Sanity", so the live message must
    say what they answer, or the player cannot tell what they are choosing."""
    channel = fd.add_channel("spider")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    bot = await start_hauntkeeper()
    await open_and_start(fd, channel, users, "betrayal", seed=2)
    state = await rig_the_spider(bot, channel)
    await explore_into_the_spider(fd, channel, users, state)
    saved = await bot.store.load(channel)
    assert saved is not None and saved.state is not None
    pending = games.get("betrayal").load(saved.state).pending
    assert pending is not None
    assert pending.prompt in latest_turn(fd, channel).text


def _table() -> Table:
    return Table(channel_id=5, guild_id=9, kind="betrayal", host_id=1, seed=1, id=1,
                 status=ACTIVE, seats=[Seat("ann", 1), Seat("Ada", None, ai=True)])


def test_a_haunt_revealed_amid_long_ai_turns_still_reaches_the_channel() -> None:
    """The haunt begins on an AI seat's turn and more AI turns follow before a human's
    (six explorers, three of them AI): the delivery's lines are longer than one message.
    The live message of the exploration closes and a new one opens the haunt; "THE
    HAUNT BEGINS" and who the traitor is must be among what the channel shows (seed
    003: "the haunt begins at once; the roller is the haunt revealer"), not dropped."""
    ai_turns = [f"Heather Granville discovers room number {n} and reads its long text aloud: "
                + "the walls whisper " * 12 for n in range(12)]
    lines = [*ai_turns[:6], REVEAL, TRAITOR, "— Haunt round 1 —", *ai_turns[6:]]
    assert sum(len(line) + 1 for line in lines) > 2000
    live = LiveMessage(message_id=77, chapter="explore", turn="t14",
                       lines=["Brandon Jaspers draws an omen: Mask."], through=10)
    post = Post(lines=lines, key="1.44", chapter="haunt", turn="t21",
                seqs=list(range(11, 11 + len(lines))), headlines=[True] * len(lines),
                whole=[False] * len(lines),
                prompt=Prompt(0, 1, "ann", [], 44))
    done = step(live, _table(), post, ping_user=1)
    shown = "\n".join([done.close or "", *done.overflow, done.text])
    assert REVEAL in shown and TRAITOR in shown


def test_a_card_named_with_its_own_punctuation_gets_no_second_stop() -> None:
    """"What the...?" and "Whoops!" end in their own mark: the draw's line reads
    "draws an event: What the...? You look back...", not "What the...?. You look"."""
    for key, name in (("what_the", "What the...?"), ("whoops", "Whoops!")):
        ctx = Ctx(new_game())
        decks.resolve_card(ctx, OX, key)
        said = ctx.events[0].text
        assert f"{name} " in said and f"{name}." not in said, said


def test_a_chinese_card_name_ending_in_its_mark_gets_no_second_stop() -> None:
    with speaking(CHINESE):
        ctx = Ctx(new_game())
        decks.resolve_card(ctx, OX, "what_the")
        said = ctx.events[0].text
    assert "？" in said and "？。" not in said, said


def test_a_neibolt_encounter_ending_in_its_mark_gets_no_second_stop() -> None:
    """TIME TO SINK! (seed 000's encounter) is read out as its name, then its text."""
    ctx = Ctx(new_game())
    encounters.resolve(ctx, OX, "time_to_sink")
    said = ctx.events[0].text
    assert "TIME TO SINK!**." not in said and "TIME TO SINK!** " in said, said


async def test_a_private_choice_says_what_it_asks(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """The Ancient Den (seed 000: "look at the top two cards of the deck, keep one and
    put the other on the bottom"): its two buttons are the cards' names, shown to the
    chooser alone, so the private answer must say whether the pick is kept or buried."""
    channel = fd.add_channel("den")
    users = [fd.add_user(n) for n in ("ann", "ben", "cat")]
    bot = await start_hauntkeeper()
    await (await fd.slash(users[0], channel, "game", "new", game="betrayal", seed=3,
                          expansion="neibolt")).wait()
    for user in users[1:]:
        await (await fd.slash(user, channel, "game", "join")).wait()
    await (await fd.slash(users[0], channel, "game", "start")).wait()
    table = await bot.store.load(channel)
    assert table is not None and table.state is not None
    state = GAME.load(table.state)
    seat = state.turn.seat
    chooser = next(u for u in users if u.id == table.seats[seat].user_id)
    state, _ = run_steps(state, [{"_nb_den": {"deck": encounters.DECK, "steps": []}}],
                         seat=seat)
    assert state.pending is not None and state.pending.private
    table.state = GAME.dump(state)
    await bot.store.save(table, [], expected_version=table.version, actor_id=None, action=None)
    # Saved without a post: the reveal button as the live message draws it at this version.
    saved = await bot.store.load(channel)
    assert saved is not None
    reveal = f"hk:{channel}:{saved.version}:{PRIVATE_CHOICES}"
    shown = (await (await fd.forge(chooser, latest_turn(fd, channel), reveal)).wait())
    [private] = [m for m in shown.messages if m.ephemeral]
    assert state.pending.prompt in private.text, private.text
