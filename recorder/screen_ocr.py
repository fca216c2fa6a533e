"""Text from frames with RapidOCR (optional extra `filegram[ocr]`).

rapidocr 3.x with onnxruntime ships its detection and recognition models inside the wheel,
so OCR works offline with nothing downloaded; it read a rendered test screen perfectly where
Debian's tesseract missed lines. The engine loads once (about a second) and is kept.
Without the extra, frames are still stored and found by window title.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from typing import Any

_engine: Any = None
_lock = threading.Lock()


def available() -> bool:
    return importlib.util.find_spec("rapidocr") is not None and importlib.util.find_spec("onnxruntime") is not None


def _get_engine() -> Any:
    global _engine
    with _lock:
        if _engine is None:
            logging.getLogger("RapidOCR").setLevel(logging.WARNING)
            from rapidocr import RapidOCR

            _engine = RapidOCR()
            logging.getLogger("RapidOCR").setLevel(logging.WARNING)
        return _engine


def read_text(image: Any) -> str:
    """The text lines of a PIL image (top to bottom), one per line; '' when none."""
    import numpy as np

    engine = _get_engine()
    arr = np.asarray(image.convert("RGB"))[:, :, ::-1]  # OpenCV order (BGR)
    result = engine(arr)
    txts = getattr(result, "txts", None) or ()
    return "\n".join(t.strip() for t in txts if t and t.strip())
