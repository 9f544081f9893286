"""Betrayal's one face for what extends it: everything a haunt, a scenario, an edition or
a room or card plugin may use of the Betrayal engine, named in one place.

Why one face: the classic haunts (haunting/plugins/) and an expansion's own package
under bot/games/ import Betrayal only through this module (tests/test_plugin_face.py
holds them to it), so the engine's other modules can be reshaped freely, and what a
plugin may lean on is read here, not found by grepping twenty imports. Adding a name is
a decision: it widens what every plugin may depend on.

The parts, in the order a plugin meets them:

- the state and the turn's context: `BetrayalState`, `Frame`, `Monster`, `EXPLORE`,
  `Ctx`, `explorer_name`;
- a haunt: `HauntPlugin` (what every haunt has), `Reason` (why a side won, as its
  `winner` returns it), the parts it may fill in
  (`TurnHooks`, `HouseHooks`, `MovementHooks`, `CombatHooks`, `BoardHooks`, `AIHooks`),
  `register` (a haunt by its key), `load_data`, `PLUGINS`;
- an edition: `Edition`, `register_edition`, `TrackView` (its footer's track), `haunts`
  (the haunt list, to find a scenario's entry);
- card and room rules: `Offer`, `Cause`, `Link`, `Passive` and the parts a passive fills
  in (`RollPassive`, `DamagePassive`, `TurnPassive`, `HandPassive`, `RoomPassive`,
  `SightPassive`), `handler`, `passive`, `resumer`; the step vocabulary `step`,
  `pause`, `change`; dice `attack_dice`, `weapon_dice`, `MAX_DICE` (and the `dice`
  module: `dice.roll_betrayal`, found by name so tests that script the dice reach it,
  and `dice.odds`, a roll's chance, for an AI's choice);
- the house and its ways: `DIRS`, `cell_of`, `doors`, `opposite`, `plan`, `walkable`,
  `graph_of`, `distances_to`, `ask_tile`, `place_explorer`;
- the engine's modules a plugin calls into by name (`sides.heroes`, `traits.value`,
  `content.card`, ...): `content`, `decks`, `explore`, `haunt_roll`, `hooks`, `house`,
  `links`, `movement`, `rolls`, `traits`, `turn`, and the haunt's `combat`, `flow`,
  `monsters`, `sides`.
"""

from __future__ import annotations

from bot.games.betrayal import (
    content,
    decks,
    dice,
    explore,
    haunt_roll,
    hooks,
    house,
    links,
    movement,
    rolls,
    traits,
    turn,
)
from bot.games.betrayal.cards import (
    Cause,
    DamagePassive,
    HandPassive,
    Link,
    Offer,
    Passive,
    RollPassive,
    RoomPassive,
    SightPassive,
    TurnPassive,
    handler,
    passive,
    resumer,
)
from bot.games.betrayal.cards.attacks import attack_dice, weapon_dice
from bot.games.betrayal.context import Ctx, explorer_name
from bot.games.betrayal.editions import Edition
from bot.games.betrayal.editions import register as register_edition
from bot.games.betrayal.effects import change, pause, step
from bot.games.betrayal.haunt_roll import haunts
from bot.games.betrayal.haunting import combat, flow, monsters, sides
from bot.games.betrayal.haunting.base import PLUGINS, HauntPlugin, Reason, load_data, register
from bot.games.betrayal.haunting.parts import (
    AIHooks,
    BoardHooks,
    CombatHooks,
    HouseHooks,
    MovementHooks,
    TurnHooks,
)
from bot.games.betrayal.house import DIRS, cell_of, doors, opposite, plan
from bot.games.betrayal.items import together
from bot.games.betrayal.links import distances_to, graph_of, walkable
from bot.games.betrayal.movement import ask_tile, place_explorer
from bot.games.betrayal.pictures import TrackView
from bot.games.betrayal.rolls import AFTER_TURN, MAX_DICE
from bot.games.betrayal.state import EXPLORE, BetrayalState, Frame, Monster

__all__ = [
    "AFTER_TURN",
    "DIRS",
    "EXPLORE",
    "MAX_DICE",
    "PLUGINS",
    "AIHooks",
    "BetrayalState",
    "BoardHooks",
    "Cause",
    "CombatHooks",
    "Ctx",
    "DamagePassive",
    "Edition",
    "Frame",
    "HandPassive",
    "HauntPlugin",
    "HouseHooks",
    "Link",
    "Monster",
    "MovementHooks",
    "Offer",
    "Passive",
    "Reason",
    "RollPassive",
    "RoomPassive",
    "SightPassive",
    "TrackView",
    "TurnHooks",
    "TurnPassive",
    "ask_tile",
    "attack_dice",
    "cell_of",
    "change",
    "combat",
    "content",
    "decks",
    "dice",
    "distances_to",
    "doors",
    "explore",
    "explorer_name",
    "flow",
    "graph_of",
    "handler",
    "haunt_roll",
    "haunts",
    "hooks",
    "house",
    "links",
    "load_data",
    "monsters",
    "movement",
    "opposite",
    "passive",
    "pause",
    "place_explorer",
    "plan",
    "register",
    "register_edition",
    "resumer",
    "rolls",
    "sides",
    "step",
    "together",
    "traits",
    "turn",
    "walkable",
    "weapon_dice",
]
