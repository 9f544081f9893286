"""cogs/outlet.py without Discord: the channel text of a private turn, and long texts cut
into messages Discord accepts (a team's secret book can be longer than one message)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.actions import Action, Option
from bot.live_message import LIMIT, chunks, step
from bot.sessions import Post, Prompt
from bot.store import ACTIVE, Table

TABLE = Table(channel_id=1, guild_id=2, kind="cthulhu", host_id=3, seed=4, status=ACTIVE)


def test_a_private_turn_names_the_player_and_none_of_the_options() -> None:
    options = [Option("Open the cellar", Action("go", {"to": 1}))]
    post = Post(lines=["Ann made a move."],
                prompt=Prompt(1, 42, "Bo", options, version=3, private=True))
    private = step(None, TABLE, post, private_turn=True).text  # the first live message
    assert private == "Ann made a move.\n**<@42>** is playing from their DMs."
    assert "cellar" not in private
    assert step(None, TABLE, post).text.endswith("**<@42>**, it's your move.")


@given(st.text(alphabet=st.sampled_from("ab \n"), max_size=7000))
def test_chunks_fit_and_lose_nothing(text: str) -> None:
    parts = chunks(text)
    assert parts and all(len(p) <= LIMIT and p.strip() for p in parts)
    if text.strip():
        assert "".join("".join(parts).split()) == "".join(text.split())
    else:
        assert parts == ["…"]


def test_chunks_cut_at_line_breaks_when_they_can() -> None:
    lines = [f"line {i:04d} " + "x" * 90 for i in range(60)]
    parts = chunks("\n".join(lines))
    assert len(parts) > 1
    assert [line for part in parts for line in part.split("\n")] == lines
    assert chunks("short") == ["short"]
