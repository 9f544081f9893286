"""cogs/outlet.py and cogs/components.py are doors: their parts live in modules of
their own (the outlet's layers, each kind of component, a prompt's rows, the lobby's
buttons), and the rest of the bot imports them from the door. What each door promises
must be what its parts hold, and a click on an action must reach `run_action`, which
the items' module cannot import (its answers are views of those items)."""

from __future__ import annotations

import pytest

from cogs import component_items, components, outlet
from cogs.outlet_dms import DirectMessages
from cogs.outlet_live import LiveMessages
from cogs.outlet_refusals import ChannelRefusals
from cogs.outlet_teams import TeamThreads


@pytest.mark.parametrize("door", [components, outlet])
def test_each_name_a_door_promises_is_there(door: object) -> None:
    names = door.__all__  # type: ignore[attr-defined]
    missing = [name for name in names if not hasattr(door, name)]
    assert missing == []


def test_a_click_on_an_action_is_run_by_the_door() -> None:
    assert component_items.ACTION_CLICKS.run is components.run_action


def test_the_outlet_is_its_layers_lowest_first() -> None:
    """Each layer builds on the one below; the door is the channel's post over all."""
    assert outlet.DiscordOutlet.__mro__[1:6] == (TeamThreads, DirectMessages, LiveMessages,
                                                  ChannelRefusals, object)
