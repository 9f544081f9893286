"""Where content lives. data/ sits at the project root beside bot/ (the product card)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("HAUNTKEEPER_DATA", ROOT / "data"))
