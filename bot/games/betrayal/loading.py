"""What Betrayal loads, and in what order: the one place that imports the modules which
fill its registries.

Why one place: Betrayal's registries (effects.STEPS, cards.HANDLERS / PASSIVES /
RESUMERS, turn.NEXT_TURN, haunting.base.PLUGINS, editions.EDITIONS) fill as the modules
that hold their entries are imported. Left to chance, a module imported "only so that it
registers" goes missing in one entry point and not another, and a game restored
mid-haunt finds no rules for its haunt. Here the order is written down, and `load` is
called once before any game is played (rules.py) or any edition is looked up
(editions.py). Nothing else imports a module only for its registrations.

The order (`STAGES`), each stage walking its package, so adding a module to one of
them needs no list edited:

1. the card families, every module of `cards/` (handlers, passives and resumers by the
   `custom:` names the data uses);
2. the engine's own step modules (`ENGINE_STEPS`: the decks, the haunt roll, the house's
   turn in a cooperative haunt);
3. the classic haunts, every module of `haunting/plugins/`;
4. the editions: every package under bot/games/ with an `edition` module (the classic
   edition in bot/games/betrayal/ first, then the others by name), each followed by the
   packages its edition module names in `LOADS` (an expansion's rooms and scenarios).

Only importlib is used, so this module sits below everything it loads and no import
circle can form through it.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

PACKAGE = "bot.games.betrayal"
GAMES_PACKAGE = "bot.games"
EDITION_MODULE = "edition"  # a games package that brings a Betrayal edition holds this
CARD_FAMILIES = f"{PACKAGE}.cards"
ENGINE_STEPS = (f"{PACKAGE}.decks", f"{PACKAGE}.haunt_roll", f"{PACKAGE}.haunting.house")
HAUNTS = f"{PACKAGE}.haunting.plugins"
STAGES = ("card families", "engine steps", "classic haunts", "editions")

# The modules loaded, in order (empty until `load` runs): what `/debug`-minded readers
# and tests look at to see what a running bot plays with.
LOADED: list[str] = []


def load(finder: Callable[[str], Any] = importlib.util.find_spec) -> list[str]:
    """Import everything Betrayal plays with, once, in the order above; the names of the
    modules loaded. `finder` says whether a games package holds an edition module (a
    test passes its own to see the walk)."""
    if LOADED:
        return LOADED
    names = [*_walk(CARD_FAMILIES), *ENGINE_STEPS, *_walk(HAUNTS)]
    for name in names:
        _import(name)
    for edition in _edition_modules(finder):
        _import(edition)
        for package in _loads_of(edition):
            for name in _walk(package):
                _import(name)
    return LOADED


def _import(name: str) -> ModuleType:
    module = importlib.import_module(name)
    if name not in LOADED:
        LOADED.append(name)
    return module


def _walk(name: str) -> Iterator[str]:
    """`name` itself when it is a module; every module of it, by name, when a package."""
    module = importlib.import_module(name)
    path = getattr(module, "__path__", None)
    if path is None:
        yield name
        return
    for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name):
        yield f"{name}.{info.name}"


def _edition_modules(finder: Callable[[str], Any]) -> list[str]:
    """The `edition` module of every games package that has one: Betrayal's own first
    (the classic edition, the default), then the others by package name."""
    games = importlib.import_module(GAMES_PACKAGE)
    packages = sorted((i.name for i in pkgutil.iter_modules(games.__path__) if i.ispkg),
                      key=lambda n: (f"{GAMES_PACKAGE}.{n}" != PACKAGE, n))
    found = []
    for package in packages:
        name = f"{GAMES_PACKAGE}.{package}.{EDITION_MODULE}"
        if finder(name) is not None:
            found.append(name)
    return found


def _loads_of(edition_module: str) -> tuple[str, ...]:
    """The packages and modules the edition in this module names in `LOADS`."""
    module = importlib.import_module(edition_module)
    return tuple(getattr(module, "LOADS", ()))
