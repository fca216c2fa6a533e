"""Pixels: grabbing a monitor, telling whether it changed, and compressing a frame.

Module-level functions, so the benchmark (screen.perf) can time them one by one. Pillow,
numpy and mss are imported inside: `filegram --help` must not load them.
"""

from __future__ import annotations

import io
from typing import Any

PIXEL_DELTA = 8  # grey levels a thumbnail cell must move to count as changed
WEBP_METHOD = 4


def open_grabber() -> Any:
    """An mss screen grabber (mss 10 names the class MSS; older releases a function)."""
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    return factory()


def close_grabber(sct: Any) -> None:
    sct.close()


def to_image(shot: Any) -> Any:
    """An mss screenshot as a PIL RGB image (mss hands out BGRA bytes)."""
    from PIL import Image

    return Image.frombuffer("RGB", shot.size, shot.bgra, "raw", "BGRX", 0, 1)


def webp_supported() -> bool:
    from PIL import features

    try:
        return bool(features.check("webp"))
    except Exception:  # noqa: BLE001
        return False


def thumbnail(img: Any) -> Any:
    """A small grey copy for change detection: 4x4 cells (8x8 above 2K width)."""
    import numpy as np

    factor = 4 if img.width <= 2560 else 8
    return np.asarray(img.convert("L").reduce(factor), dtype=np.int16)


def changed_fraction(a: Any, b: Any) -> float:
    """Share of thumbnail cells whose grey level moved by more than PIXEL_DELTA."""
    import numpy as np

    return float(np.count_nonzero(np.abs(a - b) > PIXEL_DELTA)) / float(a.size or 1)


def encode(img: Any, max_width: int, quality: int, fmt: str = "webp") -> tuple[bytes, tuple[int, int]]:
    """Downscale to max_width (keeping the aspect) and compress."""
    from PIL import Image

    if max_width > 0 and img.width > max_width:
        h = max(1, round(img.height * max_width / img.width))
        img = img.resize((max_width, h), Image.Resampling.BOX)
    buf = io.BytesIO()
    quality = max(1, min(100, int(quality)))
    if fmt == "webp":
        img.save(buf, "WEBP", quality=quality, method=WEBP_METHOD)
    else:
        img.save(buf, "JPEG", quality=quality, optimize=True)
    return buf.getvalue(), img.size
