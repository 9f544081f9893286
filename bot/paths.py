"""Where content lives. In the repository data/ sits at the root beside bot/ (the
product card); an installed wheel carries it inside the package as bot/data (setup.py
maps it), so a bot installed with `pip install .` needs no checkout. Content is read
through importlib.resources' Traversable (read_text, joinpath, is_file, iterdir), never
through paths that assume a folder on disk. HAUNTKEEPER_DATA points at another folder.
"""

from __future__ import annotations

import os
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

DATA_SETTING = "HAUNTKEEPER_DATA"  # another content folder (the environment only)
ROOT = Path(__file__).resolve().parent.parent
"""The folder holding bot/: the checkout's root when running from one."""


def checkout() -> Path | None:
    """The checkout the bot runs from, or None when it runs from an installed wheel
    (then ROOT is site-packages, no project folder of ours)."""
    looks_like_ours = (ROOT / "pyproject.toml").is_file() and (ROOT / "data").is_dir()
    return ROOT if looks_like_ours else None


def data_root() -> Traversable:
    """The content folder: HAUNTKEEPER_DATA, else the packaged bot/data, else the
    checkout's data/. The packaged copy comes first: only a wheel has it, and a
    site-packages folder may hold anyone's `data/`."""
    override = os.environ.get(DATA_SETTING, "").strip()
    if override:
        return Path(override)
    packaged = files("bot").joinpath("data")
    return packaged if packaged.is_dir() else ROOT / "data"


DATA: Traversable = data_root()
