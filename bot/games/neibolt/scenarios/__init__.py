"""The five scenarios of COME HOME TO EVIL (seed 000), one haunt plugin per module,
each beside its data in data/neibolt/haunts/<key>.yaml."""

from __future__ import annotations

import importlib
import pkgutil


def load() -> None:
    """Import every scenario module once (each registers its plugin)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
