"""The floor every render and action benchmark measures against: the same picture,
already decoded to its palette image, saved as PNG with the renderers' own settings.

Times on the shared machine drift from run to run; a ratio to this floor, measured in
the same run on the same bytes, does not (see the benches' docstrings).
"""

from __future__ import annotations

import io
import time

from PIL import Image

from renderers.common import PNG_OPTIONS


def encode_ms(data: bytes) -> float:
    """ms to save the picture `data` holds (its P-mode pixels and palette) again."""
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        buf = io.BytesIO()
        t0 = time.perf_counter()
        img.save(buf, format="PNG", **PNG_OPTIONS)
        return (time.perf_counter() - t0) * 1000
