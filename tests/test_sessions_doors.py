"""bot/sessions.py is a door, as cogs/outlet.py is (tests/test_cogs_doors.py): its
layers live in modules of their own (bot/sessions_channel.py, _ai, _timers, _reading,
_start), and the rest of the bot imports `Sessions` and its names from the door. What
the door promises must be what its layers hold, the chain must stay in the order each
layer builds on, and a save must arm the timers' layer's timers, not the declaration
the lowest layer makes so a save reads whole."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from bot import (
    sessions,
    sessions_ai,
    sessions_channel,
    sessions_reading,
    sessions_start,
    sessions_timers,
)
from bot.sessions_ai import AiChain
from bot.sessions_channel import ChannelGames
from bot.sessions_reading import Reading
from bot.sessions_start import StartAndStop
from bot.sessions_timers import TurnTimers

ROOT = Path(__file__).resolve().parent.parent
LAYERS = [sessions_channel, sessions_ai, sessions_timers, sessions_reading, sessions_start]
# Where another module would reach past the door into one of its layers.
PAST_THE_DOOR = re.compile(r"^\s*(from bot\.sessions_\w+ import|import bot\.sessions_)",
                           re.MULTILINE)


def test_each_name_the_door_promises_is_there() -> None:
    missing = [name for name in sessions.__all__ if not hasattr(sessions, name)]
    assert missing == []


def test_the_sessions_are_their_layers_lowest_first() -> None:
    """Each layer builds on the one below; the door is the ways in over all."""
    assert sessions.Sessions.__mro__[1:7] == (StartAndStop, Reading, TurnTimers, AiChain,
                                              ChannelGames, object)


def test_a_save_arms_its_timers_in_its_own_layer() -> None:
    """The save arms the turn's timers where it is written (no stand-in for a layer
    above to fill); the timers' layer fires them."""
    assert sessions.Sessions._arm is ChannelGames._arm
    assert "_arm" not in vars(TurnTimers)


def test_every_layer_logs_as_the_door() -> None:
    """An operator's filter on "bot.sessions" keeps every line the sessions log."""
    loggers = [vars(layer)["log"] for layer in [sessions, *LAYERS] if "log" in vars(layer)]
    assert len(loggers) == 5  # the reading layer logs nothing
    assert {logger.name for logger in loggers} == {"bot.sessions"}
    assert logging.getLogger("bot.sessions") is sessions.log


def test_only_the_sessions_reach_their_layers() -> None:
    """Callers import from the door, so a layer can move without them changing."""
    own = {ROOT / "bot" / f"{layer.__name__.split('.')[-1]}.py" for layer in LAYERS}
    own |= {ROOT / "bot" / "sessions.py", Path(__file__).resolve()}
    reaching = [str(path.relative_to(ROOT))
                for folder in ("bot", "cogs", "renderers", "tests", "bench")
                for path in sorted((ROOT / folder).rglob("*.py"))
                if path not in own and PAST_THE_DOOR.search(path.read_text(encoding="utf-8"))]
    assert reaching == []
