"""The haunts a game may play: each content folder's haunts.yaml (the classic 8 in
data/betrayal/, an edition's own beside its content), read once per set of folders.

Apart from haunt_roll.py, which begins a haunt, because traitor.py needs the list (each
haunt's traitor rule) and haunt_roll.py needs traitor.py: the list sits below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot import yaml_files
from bot.games.betrayal import content
from bot.locales import per_language


@dataclass(frozen=True)
class HauntInfo:
    number: int
    key: str
    name: str
    teaser: str
    traitor: dict[str, Any] = field(default_factory=dict, compare=False)
    designed: bool = False
    edition: str = ""  # the edition whose folder lists it ("" = data/betrayal/)


@per_language
def _listed(folders: tuple[content.Folder, ...]) -> dict[str, HauntInfo]:
    """Every folder's haunts.yaml, read once per set of folders: the classic 8 first in
    chart-number order, then each edition's own in its order."""
    found = []
    for folder in folders:
        path = folder.path / "haunts.yaml"
        raw = (yaml_files.read(path) or {}) if path.is_file() else {}
        found += [HauntInfo(int(h["number"]), h["key"], h["name"], str(h["teaser"]),
                            dict(h.get("traitor") or {}), bool(h.get("designed", False)),
                            folder.edition)
                  for h in raw.get("haunts") or ()]
    listed = sorted(found, key=lambda h: (h.edition != "", h.edition, h.number))
    return {h.key: h for h in listed}


def haunts(edition: str | None = None) -> dict[str, HauntInfo]:
    """The haunts by key, the classic 8 first in chart-number order, then each
    edition's own in its order; with `edition`, only that edition's own haunts
    ("" for the classic 8). Read again when an edition's folder joins the content."""
    found = _listed(tuple(content.FOLDERS))
    if edition is None:
        return found
    return {k: h for k, h in found.items() if h.edition == edition}
