"""The version `--version` prints.

From a checkout it is pyproject.toml's: the code that runs is the checkout's, whatever
an older install in the same environment says. From an installed wheel it is the
package's metadata (the wheel carries no pyproject.toml)."""

from __future__ import annotations

import tomllib
from contextlib import suppress
from importlib import metadata

from bot.paths import checkout

DISTRIBUTION = "hauntkeeper"
UNKNOWN = "unknown"


def version() -> str:
    project = checkout()
    if project is not None:
        with suppress(OSError, KeyError, tomllib.TOMLDecodeError), \
                open(project / "pyproject.toml", "rb") as file:  # else the metadata's
            return str(tomllib.load(file)["project"]["version"])
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return UNKNOWN
