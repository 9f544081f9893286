"""The five scenarios of COME HOME TO EVIL (seed 000), one haunt plugin per module,
each beside its data in data/neibolt/haunts/<key>.yaml, loaded by Betrayal's loader
(bot/games/betrayal/loading.py) after the edition that names this package."""

from __future__ import annotations
