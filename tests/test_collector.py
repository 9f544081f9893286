"""The collector's pace for a long-running bot (bot/collector.py, issue 23)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython 3.11's default
    yield
    gc.set_threshold(*before)


def test_pace_collects_the_young_less_often_and_the_old_rarer(thresholds: None) -> None:
    collector.pace()
    young, middle, old = gc.get_threshold()
    assert (young, middle, old) == collector.THRESHOLDS
    # far rarer than CPython's default (700, 10, 10): a full pass after this many more
    # objects made than freed
    assert young * middle * old > 700 * 10 * 10 * 100


def test_cycles_are_still_collected_at_that_pace(thresholds: None) -> None:
    collector.pace()
    gc.collect()

    class Node:
        def __init__(self) -> None:
            self.me = self

    before = gc.get_count()[0]
    for _ in range(collector.THRESHOLDS[0] * 2):  # enough cycles for young passes
        Node()
    assert gc.get_count()[0] < before + collector.THRESHOLDS[0]
