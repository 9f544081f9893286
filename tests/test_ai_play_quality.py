"""AI-only tables play their games out: every action legal, no position coming back,
no game stalled until a cap, no sure win thrown away; a few seeds of each game, watched
by bench/bench_ai_balance.py's probes (the bench runs the many seeds and prints the win
rates and game lengths; these keep its watch on a handful)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from bench import bench_ai_balance as bench
from bot.core.actions import Action
from bot.games.base import Game, PlayerInfo
from bot.games.betrayal import GAME as BETRAYAL
from bot.games.cthulhu import GAME as CTHULHU
from bot.games.cthulhu.moves import FIGHT, MOVE
from bot.games.evilbelow import GAME as EVIL_BELOW

CAP = 3000
TRIES = 6

TABLES: list[tuple[Game[Any], int, int, dict[str, Any]]] = [
    (CTHULHU, 2, 0, {}),
    (CTHULHU, 6, 1, {}),
    (EVIL_BELOW, 2, 0, {}),
    (EVIL_BELOW, 7, 1, {}),
    (BETRAYAL, 3, 2, {"today": "06-01", "expansion": "classic"}),
    (BETRAYAL, 6, 3, {"today": "06-01", "expansion": "classic"}),
    (BETRAYAL, 4, 4, {"today": "06-01", "expansion": "neibolt"}),
]


def _played(game: Game[Any], players: int, seed: int, options: dict[str, Any],
            cap: int = CAP) -> bench.Tally:
    state, _ = game.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(players)], seed,
                          options)
    tally = bench.Tally()
    bench.play(game, state, tally, f"{game.key} {players}p seed {seed}", cap, TRIES)
    return tally


@pytest.mark.parametrize(("game", "players", "seed", "options"), TABLES,
                         ids=[f"{g.key}-{p}p-{s}" for g, p, s, _ in TABLES])
def test_an_all_ai_table_plays_its_game_out(game: Game[Any], players: int, seed: int,
                                            options: dict[str, Any]) -> None:
    tally = _played(game, players, seed, options)
    assert tally.games == 1 and "unfinished" not in tally.wins, tally.examples
    assert (tally.illegal, tally.loops, tally.dithers, tally.capped, tally.thrown) == \
        (0, 0, 0, 0, 0), tally.examples
    assert tally.decisions == tally.lengths[0] >= 20


def test_the_watch_catches_an_ai_that_never_fights() -> None:
    """The probes have teeth: a Cthulhu AI that only ever moves (a rumble ends only
    through fights) is caught wandering, its game stalled until the cap."""
    def wanderer(self: Game[Any], view: Any, seat: int) -> Action:
        options: list[Action] = [o.action for o in CTHULHU.options(view, seat)]
        moves = [a for a in options if a.kind == MOVE] or options
        return moves[int(view.turns_played) * 7 % len(moves)]

    with mock.patch.object(type(CTHULHU), "decide", wanderer):
        tally = _played(CTHULHU, 3, 0, {}, cap=400)
    assert tally.capped == 1 and tally.dithers > 0
    assert tally.wins == {"unfinished": 1}


def _last_fight() -> Any:
    """A 2-player table at the last rumble's last fight: two characters left in one room
    (its portals taken out), one of them the seat's own, the scores level. Throwing the
    other out wins the game whoever holds it (10 points against at most 9); throwing
    out its own may lose it (9 against 10)."""
    for seed in range(40):
        state, _ = CTHULHU.setup([PlayerInfo(f"AI{i}", ai=True) for i in range(2)], seed, {})
        while not state.over and not (
                state.rumble == 3 and len(state.remaining()) == 2 and state.pending is None
                and any(o.action.kind == FIGHT for o in CTHULHU.options(state, state.turn))):
            seat = CTHULHU.to_act(state)
            assert seat is not None
            state, _ = CTHULHU.apply(state, seat, CTHULHU.ai_action(state, seat))
        if state.over or len(set(state.remaining()) & set(state.secrets[state.turn])) != 1:
            continue
        room = state.location[state.remaining()[0]]
        assert room is not None
        state.reserve += state.room_portals[room]
        state.room_portals[room] = []
        state.scores = [50, 50]
        return state
    raise AssertionError("no seed reached such a last fight")


def test_the_watch_sees_a_sure_win_passed_over() -> None:
    """A Cthulhu AI that throws its own character out of the last fight of the last
    rumble, where throwing out the other would win the game whatever the other seat
    holds, passes a sure win over: the watch names it; the AI as it plays takes it."""
    def shy(self: Game[Any], view: Any, seat: int) -> Action:
        own = set(view.secrets[seat])
        return next(o.action for o in CTHULHU.options(view, seat)
                    if o.action.kind == FIGHT and o.action.args["remove"] in own)

    state = _last_fight()
    with mock.patch.object(type(CTHULHU), "decide", shy):
        tally = bench.Tally()
        bench.play(CTHULHU, state, tally, "last fight", 50, TRIES)
    assert tally.delayed == 1, tally.examples
    tally = bench.Tally()
    bench.play(CTHULHU, state, tally, "last fight", 50, TRIES)
    assert (tally.delayed, tally.games, tally.lengths) == (0, 1, [1])
    assert tally.wins == {str(state.turn): 1}


def test_the_bench_prints_a_line_a_cell(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--game", "cthulhu", "evilbelow", "--players", "2", "--seeds", "1",
                "--tries", "2"])
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out if "games" in line] == ["cthulhu", "evilbelow"]
    assert all("illegal 0 loops 0" in line for line in out if "games" in line)
