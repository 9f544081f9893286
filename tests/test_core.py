"""Core pieces: the seeded RNG, dice, the action wire format, pending choices, config."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import DEFAULT_DB, ConfigError, load_settings, read_dotenv
from bot.core.actions import Action
from bot.core.choices import PendingChoice
from bot.core.dice import roll
from bot.core.errors import IllegalAction
from bot.core.events import PUBLIC, Audience, Event, to_player, to_team
from bot.core.rng import Rng
from bot.games.betrayal.dice import FACES as BETRAYAL_FACES
from bot.games.betrayal.dice import roll_betrayal


def test_rng_replays_from_its_state() -> None:
    a = Rng.from_seed(1234)
    first = [a.below(100) for _ in range(50)]
    b = Rng.from_seed(1234)
    assert [b.below(100) for _ in range(50)] == first
    saved = Rng(a.state)
    assert [saved.randint(1, 6) for _ in range(20)] == [a.randint(1, 6) for _ in range(20)]
    assert Rng.from_seed("abc").state == Rng.from_seed("abc").state != Rng.from_seed("abd").state


def test_rng_is_roughly_uniform_and_shuffles_are_permutations() -> None:
    rng = Rng.from_seed(7)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < n < 11_000 for n in counts.values())
    items = list(range(30))
    rng.shuffle(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    with pytest.raises(ValueError):
        rng.below(0)


def test_dice_faces_and_the_one_die_minimum() -> None:
    rng = Rng.from_seed(3)
    assert len(roll(rng, 0)) == 1  # a roll never uses fewer than one die
    assert len(roll_betrayal(rng, 12)) == 8  # and never more than eight Betrayal dice
    faces = Counter(x for _ in range(2000) for x in roll_betrayal(rng, 1))
    assert set(faces) == set(BETRAYAL_FACES)


@given(kind=st.from_regex(r"[a-z]{1,8}(\.[a-z]{1,8})?", fullmatch=True),
       args=st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True),
                            st.integers(0, 10**6) | st.from_regex(r"[a-z]{1,8}",
                                                                   fullmatch=True),
                            max_size=4))
def test_actions_survive_their_wire_form(kind: str, args: dict[str, int | str]) -> None:
    action = Action(kind, args)
    assert Action.decode(action.encode()) == action
    assert Action.from_dict(action.to_dict()) == action


@pytest.mark.parametrize("garbage", ["", "~x=1", "move~character", "move~=3"])
def test_garbage_actions_are_refused_readably(garbage: str) -> None:
    with pytest.raises(IllegalAction):
        Action.decode(garbage)


def test_int_args_are_checked() -> None:
    assert Action("m", {"room": 3}).int_arg("room") == 3
    for bad in ({}, {"room": "attic"}, {"room": True}):
        with pytest.raises(IllegalAction):
            Action("m", bad).int_arg("room")  # type: ignore[arg-type]


def test_pending_choice_accepts_only_its_seat_and_its_options() -> None:
    choice = PendingChoice(2, "Who goes?", "abyss", ["A", "B"], {"room": 1})
    assert [o.action for o in choice.options()] == [Action("choose", {"pick": 0}),
                                                     Action("choose", {"pick": 1})]
    assert choice.pick(2, Action("choose", {"pick": 1})) == 1
    for seat, action in ((1, Action("choose", {"pick": 0})), (2, Action("choose", {"pick": 2})),
                         (2, Action("move", {"pick": 0}))):
        with pytest.raises(IllegalAction):
            choice.pick(seat, action)
    assert PendingChoice.from_dict(choice.to_dict()) == choice


def test_events_and_audiences_round_trip() -> None:
    for audience in (PUBLIC, to_player(3), to_team("heroes")):
        assert Audience.decode(audience.encode()) == audience
    event = Event("x", to_player(1), "deal", {"n": 1})
    assert Event.from_dict(event.to_dict()) == event
    assert PUBLIC.is_public and not to_player(0).is_public


def test_settings_come_from_env_then_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nDISCORD_TOKEN='from-file'\nexport HAUNTKEEPER_DEV_GUILD=42\n")
    assert read_dotenv(dotenv)["DISCORD_TOKEN"] == "from-file"
    settings = load_settings({}, dotenv)
    assert settings.token == "from-file" and settings.dev_guild == 42
    assert settings.db_path == DEFAULT_DB
    override = load_settings({"DISCORD_TOKEN": "env", "HAUNTKEEPER_DB": "/x/db"}, dotenv)
    assert override.token == "env" and override.db_path == "/x/db"


def test_a_missing_token_is_one_readable_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_settings({}, tmp_path / "missing.env")
    message = str(err.value)
    assert "DISCORD_TOKEN" in message and "demo" in message and "\n" not in message
    with pytest.raises(ConfigError):
        load_settings({"DISCORD_TOKEN": "t", "HAUNTKEEPER_DEV_GUILD": "abc"}, ())
