"""A game saved in the middle of a haunt and loaded by a fresh process keeps its
haunt's rules (the plugins load with the engine, not when a haunt begins)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.games.betrayal import GAME
from tests.betrayal_haunt_helpers import haunted

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from bot.games.betrayal import GAME
from bot.games.betrayal.haunting import base
state = GAME.load(json.load(sys.stdin))
plugin = base.for_state(state)
print(type(plugin).__name__, len(GAME.options(state, GAME.to_act(state))))
"""


def test_a_fresh_process_restores_the_haunt_rules() -> None:
    state = haunted("pay_the_piper", tiles=14)
    raw = json.dumps(GAME.dump(state))
    done = subprocess.run([sys.executable, "-c", PROBE], input=raw, capture_output=True,
                          text=True, cwd=ROOT, check=True, timeout=60)
    name, count = done.stdout.split()
    assert name == "PayThePiper"
    assert int(count) == len(GAME.options(state, GAME.to_act(state) or 0))
