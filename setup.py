"""Build glue that pyproject.toml cannot say: data/ ships inside the `bot` package as
bot/data (read through importlib.resources, see bot/paths.py), so an installed wheel
needs no checkout beside it and adds no top-level name of its own to site-packages."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bot", "bot.*", "cogs", "cogs.*", "renderers",
                                      "renderers.*"]), "bot.data"],
    package_dir={"bot.data": "data"},
)
