"""The four rooms of seed 000 (data/neibolt/rooms.yaml `custom:`).

Each room's handler registers with the Betrayal core's card registry (cards.passive /
cards.handler), as the classic rooms do; `load` is called once by edition.py.
"""

from __future__ import annotations


def load() -> None:
    """The rooms' handlers are registered as this module is imported."""
