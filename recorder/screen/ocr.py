"""Text from frames with RapidOCR (optional extra `filegram[ocr]`), off the capture path.

rapidocr 3.x with onnxruntime ships its detection and recognition models inside the wheel,
so OCR works offline with nothing downloaded; it read a rendered test screen perfectly where
Debian's tesseract missed lines. It is also the expensive part: a full-HD screen of code
takes seconds of CPU (see screen.perf). So OCR never runs inside a capture tick: captured
frames are handed to one background thread, niced on Linux, single-threaded in onnxruntime,
that keeps only the newest waiting frame ("latest wins") and runs at most once per
[screen].ocr_interval_seconds. Frames without text are still found by their window title.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

ENGINE_PARAMS = {
    "Global.use_cls": False,  # screens are upright: the angle classifier is wasted work
    "Global.log_level": "warning",
    "EngineConfig.onnxruntime.intra_op_num_threads": 1,  # a background job leaves cores free
    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
}

_engine: Any = None
_lock = threading.Lock()


def available() -> bool:
    return importlib.util.find_spec("rapidocr") is not None and importlib.util.find_spec("onnxruntime") is not None


def load_engine() -> Any:
    """The OCR engine, its models loaded on first use (seconds, once per process)."""
    global _engine
    with _lock:
        if _engine is None:
            logging.getLogger("RapidOCR").setLevel(logging.WARNING)
            from rapidocr import RapidOCR

            _engine = RapidOCR(params=dict(ENGINE_PARAMS))
        return _engine


def read_text(image: Any) -> str:
    """The text lines of a PIL image (top to bottom), one per line; '' when none."""
    import numpy as np

    engine = load_engine()
    arr = np.asarray(image.convert("RGB"))[:, :, ::-1]  # OpenCV order (BGR)
    result = engine(arr)
    txts = getattr(result, "txts", None) or ()
    return "\n".join(t.strip() for t in txts if t and t.strip())


# How long stopping waits for the one frame being read when its time is up: an OCR of a
# screen takes under a second idle and ten or more on a loaded machine at low priority.
READ_GRACE_S = 30.0


class OcrWorker:
    """One background thread; `submit` never blocks the capture."""

    def __init__(self, store_text: Callable[[int, str], None], clean: Callable[[str], str]):
        self._store_text = store_text
        self._clean = clean
        self._cv = threading.Condition()
        self._slot: tuple[int, Any] | None = None
        self._busy = False
        self._stop = False
        self._thread: threading.Thread | None = None
        self.done = 0
        self.dropped = 0
        self.errors = 0
        self.last_ms: float | None = None

    def submit(self, frame_id: int, image: Any) -> None:
        with self._cv:
            if self._slot is not None:
                self.dropped += 1  # an older frame never read: the newer one matters more
            self._slot = (frame_id, image)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="filegram-screen-ocr", daemon=True)
                self._thread.start()
            self._cv.notify_all()

    @property
    def pending(self) -> int:
        return int(self._slot is not None) + int(self._busy)

    def wait(self, timeout: float = 60.0) -> bool:
        """Until nothing is waiting or being read (True), or timeout (False)."""
        deadline = time.monotonic() + timeout
        with self._cv:
            while self._slot is not None or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cv.wait(left)
        return True

    def stop(self, timeout: float = 60.0) -> None:
        """Read what is waiting (for up to `timeout`; a frame not yet begun by then is given
        up), then end the thread and wait for it: it runs at a low priority, and on a busy
        machine it took more than 5 s to notice (a stress run saw it outlive the daemon that
        owned it). A frame already being read cannot be interrupted, so the thread is waited
        for until that read returns (READ_GRACE_S at most): a daemon stopped under load had
        left it running past its own end."""
        deadline = time.monotonic() + timeout
        self.wait(timeout)
        with self._cv:
            self._stop = True
            if self._slot is not None:
                self._slot = None
                self.dropped += 1
            self._cv.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(max(deadline - time.monotonic(), 0.0) + READ_GRACE_S)

    def _run(self) -> None:
        if sys.platform.startswith("linux"):
            try:  # Linux nices threads one by one: only OCR yields to the user's work
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
            except (OSError, AttributeError):
                pass
        while True:
            with self._cv:
                while self._slot is None and not self._stop:
                    self._cv.wait()
                if self._stop and self._slot is None:
                    return
                frame_id, image = self._slot  # type: ignore[misc]
                self._slot = None
                self._busy = True
            t0 = time.perf_counter()
            try:
                self._store_text(frame_id, self._clean(read_text(image)))
                self.done += 1
            except Exception:  # noqa: BLE001 - OCR is an extra: a failure costs the text only
                self.errors += 1
                log.exception("screen: OCR failed")
            self.last_ms = (time.perf_counter() - t0) * 1000.0
            with self._cv:
                self._busy = False
                self._cv.notify_all()
