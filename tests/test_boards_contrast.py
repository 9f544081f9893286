"""Every word on the chat boards stands out from what it is written on: a contrast ratio
of READ_CONTRAST (WCAG's 4.5:1 for small text) or more, measured on each text as the
renderers draw it (its ink and the flat colour under it), for real boards of every game.
At 550 px the boards' words are 9-11 px tall, where a saturated red or magenta on a dark
panel (3:1, 2:1 on Betrayal's lighter start tiles) blurs into it: Evil Below's "Evil
Influence" and "n attack", and the Betrayal traitor's name on a tile, were.

Betrayal's greyed words (a dead explorer's name where they fell, in MUTED or DIM) are
dimmed on purpose and left out: their crossed-out grey disc says the same."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot import games
from bot.games.base import PlayerInfo
from bot.games.betrayal.shown import map_view
from renderers import betrayal, canvas, cthulhu, evilbelow
from renderers.betrayal import palette as betrayal_palette
from renderers.common import READ_CONTRAST, Colour, contrast_ratio
from tests.betrayal_haunt_rig import (  # noqa: F401 (rig_plugin: the rigged haunt's plugin)
    JENNY,
    place,
    rig_plugin,
    rigged,
)
from tests.evil_below_helpers import ai_states

Said = tuple[str, Colour, Colour]  # text, ink, ground


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Said]]:
    """Every text drawn on a canvas while the test runs: (text, ink, ground)."""
    found: list[Said] = []
    drawn = canvas.Canvas.text

    def text(self: canvas.Canvas, xy: tuple[float, float], words: str, f: object,
             fill: Colour, **kw: object) -> None:
        found.append((words, tuple(fill), tuple(kw["on"])))  # type: ignore[arg-type]
        drawn(self, xy, words, f, fill, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(canvas.Canvas, "text", text)
    yield found


def _faint(found: list[Said], dimmed: tuple[Colour, ...] = ()) -> list[str]:
    return sorted({f"{words!r}: {ink} on {on}, {contrast_ratio(ink, on):.2f}:1"
                   for words, ink, on in found
                   if ink not in dimmed and contrast_ratio(ink, on) < READ_CONTRAST})


def _ai(key: str, players: int, seed: int, every: int) -> list[object]:
    game = games.all_games()[key]
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed, {})
    found = [state]
    for step in range(1, 2000):
        seat = game.to_act(state)
        if seat is None:
            break
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
        if step % every == 0:
            found.append(state)
    return [*found, state]


def test_cthulhu_words_stand_out(said: list[Said]) -> None:
    for state in _ai("cthulhu", 6, 11, 15):
        cthulhu.render_board(state)  # type: ignore[arg-type]
    assert said and not _faint(said)


def test_evil_below_words_stand_out(said: list[Said]) -> None:
    states = ai_states(7, seed=3, every=12)
    fights = [s for s in ai_states(4, seed=5, every=1) if s.fight and s.fight.shown][:1]
    for state in [*states, *fights]:
        evilbelow.render_board(state)
    assert any("attack" in words for words, _, _ in said)
    assert not _faint(said)


def _traitor_on_start_tile() -> object:
    """The rigged haunt, the traitor (not to play) alone on the Foyer, a start tile,
    another explorer dead on the floor in play."""
    state = rigged()
    place(state, "foyer", JENNY)
    state.explorers[(JENNY + 1) % 4].alive = False
    return state


CASES: dict[str, Callable[[], object]] = {"traitor on a start tile": _traitor_on_start_tile}


@pytest.mark.parametrize("name", CASES)
def test_betrayal_words_stand_out(said: list[Said], name: str) -> None:
    view = map_view(CASES[name]())  # type: ignore[arg-type]
    traitor = next(ex for ex in view.explorers if ex.traitor)
    assert traitor.alive and not traitor.acting
    betrayal.render_chat(view)
    betrayal.render_map(view)
    dimmed = (betrayal_palette.MUTED, betrayal_palette.DIM)
    assert any(words == traitor.player.split()[0] for words, _, _ in said)
    assert not _faint(said, dimmed)
