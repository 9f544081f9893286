"""IT: Evil Below's `/game rules` topics: one for every step the engine lets a player take
and for every character, each short enough to post, and reachable through the real
command and its autocomplete (whose 25-choice limit must not hide any topic from a
player who types its name)."""

from __future__ import annotations

import pytest

from bot.games.evilbelow import EvilBelowGame, actions, content
from tests.conftest import BotFactory
from tests.e2e_helpers import open_and_start
from tests.fakediscord import FakeDiscord

KEY = EvilBelowGame.key
TOPICS = content.rules_topics()
LIMIT = 1900  # a Discord message is 2,000; the cog adds the bold topic name first
# Moves that are a character's ability or an answer to a prompt, explained in the
# character topics (and `attacks`/`pennywise` for the prompts), not as steps of their own.
ABILITY_KINDS = {actions.RICHIE, actions.PEEK, actions.MIKE}
# Steps of a turn the engine runs by itself (no move-table kind) but players must know.
ENGINE_STEPS = ("sightings", "pennywise", "attacks", "weaknesses", "win-losses")


def _topic_of(kind: str) -> str:
    """Topic names are typed by players, so underscores become hyphens."""
    return kind.replace("_", "-")


def test_every_step_of_the_move_table_has_a_topic() -> None:
    kinds = [m.kind for m in actions.MOVES if m.kind not in ABILITY_KINDS]
    assert {"roll", "move", "pickup", "courage", "place", "ride", "fight", "reveal", "stop",
            "end_turn"} <= set(kinds)
    missing = [k for k in kinds if _topic_of(k) not in TOPICS]
    assert not missing, missing
    assert "end-turn" in TOPICS


def test_the_steps_the_engine_runs_itself_have_topics() -> None:
    for topic in ENGINE_STEPS:
        assert topic in TOPICS, topic
    for loss in ("Bravery", "Evil Influence", "three locations", "13 attack cards"):
        assert loss in TOPICS["win-losses"], loss
    assert "Drainpipe" in TOPICS["pennywise"] and "active player" in TOPICS["pennywise"]


@pytest.mark.parametrize("character", content.character_keys())
def test_every_character_has_a_topic_naming_them(character: str) -> None:
    info = content.character(character)
    assert info.name in TOPICS[character]
    first = info.name.split()[0]
    assert first in TOPICS[character]


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def test_the_move_topic_counts_and_names_the_short_cuts() -> None:
    """The board's links beyond the ring of seven are the short cuts the move topic lists
    (the board does not draw them), in both languages."""
    board = content.board()
    ring = {frozenset((i, (i + 1) % len(board.names))) for i in range(len(board.names))}
    cuts = [link for link in board.links if frozenset(link) not in ring]
    assert f"{NUMBER_WORDS[len(cuts)]} short cuts" in TOPICS["move"]
    for a, b in cuts:
        for where in (a, b):
            short = board.names[where].replace("House on ", "").replace(" Street", "")
            short = short.replace("Quality Meats ", "").replace("The ", "")
            assert short in TOPICS["move"], short


def test_the_topics_say_who_starts_and_that_a_sighting_can_lose_at_once() -> None:
    """RULES.md: the host names the youngest (default: the host); seed 001: the players
    at a sighting 'immediately' lose 1 Bravery, and a Bravery at 0 loses."""
    assert "youngest" in TOPICS["turn"] and "by default it is the host" in TOPICS["turn"]
    assert "lose at once" in TOPICS["sightings"]
    assert "asked first" in TOPICS["eddie"]


def test_stan_is_marked_as_our_design() -> None:
    assert "design" in TOPICS["stan"]


@pytest.mark.parametrize("topic", sorted(TOPICS))
def test_each_topic_is_short_and_typeable(topic: str) -> None:
    text = TOPICS[topic]
    assert text.strip()
    assert len(f"**{topic}**\n{text}") < LIMIT
    assert topic == topic.lower() and " " not in topic and "_" not in topic


def test_the_old_topics_are_kept() -> None:
    assert {"overview", "turn", "sightings", "fight", "bikes", "characters",
            "rulings"} <= set(TOPICS)


# ---------------------------------------------------------------- through the real command

async def test_a_character_topic_is_read_ephemerally_with_or_without_a_game(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    quiet, table = fd.add_channel("quiet"), fd.add_channel("derry")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    await start_hauntkeeper()

    # no game in the channel: topics are offered as "<game key>: <topic>"
    read = await (await fd.slash(host, quiet, "game", "rules", topic=f"{KEY}: stan")).wait()
    assert read.response is not None and read.response.ephemeral
    [text] = read.ephemeral_texts()
    assert "Stan Uris" in text and TOPICS["stan"] in text

    await open_and_start(fd, table, [host, guest], KEY, seed=5)
    read = await (await fd.slash(guest, table, "game", "rules", topic="Bill ")).wait()
    assert read.response is not None and read.response.ephemeral
    [text] = read.ephemeral_texts()
    assert text.startswith("**Bill**\n") and "Bill Denbrough" in text  # its title, not its key


async def test_autocomplete_finds_every_topic_by_its_name(
        fd: FakeDiscord, start_hauntkeeper: BotFactory) -> None:
    """More topics than the 25 choices Discord shows: typing a name must still find it."""
    quiet, table = fd.add_channel("quiet"), fd.add_channel("derry")
    host, guest = fd.add_user("host"), fd.add_user("guest")
    await start_hauntkeeper()
    assert len(TOPICS) > 25
    for topic in ("stan", "end-turn", "win-losses"):
        found = await fd.autocomplete(host, quiet, "game", "rules", focused="topic",
                                      topic=f"{KEY}: {topic}")
        assert f"{KEY}: {topic}" in [c["value"] for c in found]
    await open_and_start(fd, table, [host, guest], KEY, seed=5)
    for topic in TOPICS:
        found = await fd.autocomplete(host, table, "game", "rules", focused="topic",
                                      topic=topic)
        values = [c["value"] for c in found]
        assert topic in values and len(values) <= 25, (topic, values)
