"""A normal turn never overflows the live message (issue 20): whatever a delivery says
(lines of any length, a dozen of them, some told whole, DMs that failed), the live
message's text fits one message and nothing goes out before it as plain messages. Only
the end and a new chapter's opening, told whole, may take more than one message. Checked
on bot/live_message.step, the pure decision the outlet follows."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.actions import Action, Option
from bot.delivery import Post, Prompt
from bot.headlines import LONGEST, short
from bot.live_message import LIMIT, step
from bot.store import ACTIVE, OVER, LiveMessage, Table

WORDS = st.text(alphabet="abcdefghij .,!", min_size=1, max_size=12)


@st.composite
def lines(draw: st.DrawFn) -> str:
    """A line of a turn: a few words, or a card's whole text, or one endless word."""
    kind = draw(st.sampled_from(["short", "long", "endless"]))
    if kind == "endless":
        return "x" * draw(st.integers(1, 6000))
    count = draw(st.integers(1, 400 if kind == "long" else 8))
    return " ".join(draw(st.lists(WORDS, min_size=count, max_size=count)))


@st.composite
def posts(draw: st.DrawFn) -> Post:
    said = draw(st.lists(lines(), min_size=0, max_size=12))
    whole = [draw(st.booleans()) and len(line) <= 200 and n < 2
             for n, line in enumerate(said)]
    prompt = Prompt(0, 42, "Ann", [Option("Go", Action("go"))], 5,
                    others=tuple(Prompt(s, 42 + s, f"P{s}", [Option("Ride", Action("r"))], 5)
                                 for s in range(1, draw(st.integers(1, 6)))))
    return Post(lines=said, prompt=prompt, key="7.5", chapter=draw(st.sampled_from(["c1", "c2"])),
                turn=draw(st.sampled_from(["t1", "t2"])), seqs=list(range(10, 10 + len(said))),
                headlines=[draw(st.booleans()) for _ in said], whole=whole,
                dm_failed=draw(st.lists(st.integers(100, 105), max_size=6, unique=True)))


@st.composite
def lives(draw: st.DrawFn) -> LiveMessage | None:
    if draw(st.booleans()):
        return None
    shown = draw(st.lists(st.text(alphabet="yz ", min_size=1, max_size=300), max_size=3))
    return LiveMessage(1, "c1", "t1", "", shown, "7.4", through=9)


@settings(max_examples=300, deadline=None)
@given(lives(), posts())
def test_a_normal_turn_fits_one_message(live: LiveMessage | None, post: Post) -> None:
    table = Table(channel_id=1, guild_id=2, kind="cthulhu", host_id=42, seed=1, status=ACTIVE)
    decided = step(live, table, post, ping_user=42)
    # A new chapter's opening is told whole, once: what does not fit the old message
    # goes before the new one (tests/test_e2e_walkthrough_betrayal.py).
    assert (decided.overflow == [] or decided.why == "chapter") and not decided.reuse
    assert len(decided.text) <= LIMIT


def test_a_line_with_no_sentence_end_is_cut_at_a_word() -> None:
    line = "Ann " + "walks and walks " * 100
    cut = short(line)
    assert len(cut) <= LONGEST and cut.endswith("…") and line.startswith(cut[:-1])
    assert short("y" * 5000) == "y" * (LONGEST - 1) + "…"


def test_a_turn_that_said_nothing_yet_closes_pointing_at_the_end() -> None:
    """A game ending while its live message has no lines yet (a new turn's message, only
    "your move" under it) closed that message to a bare "…" above the final post. It
    now says where the end is; a message with lines keeps them, as before."""
    over = Table(channel_id=1, guild_id=2, kind="cthulhu", host_id=42, seed=1, status=OVER)
    post = Post(lines=["Ann wins."], prompt=None, key="7.5", chapter="c1", turn="t2",
                seqs=[10], headlines=[True], whole=[False], dm_failed=[])
    empty = LiveMessage(1, "c1", "t2", "", [], "7.4", through=9)
    closed = step(empty, over, post).close
    assert closed == "The game ended here: how it ended is just below."
    said = LiveMessage(1, "c1", "t2", "", ["Bo moves."], "7.4", through=9)
    assert step(said, over, post).close == "Bo moves."
