"""Users written by behaviour models other than our simulator.

The robustness bench scores the pipeline on these too, so it measures generalisation to
people (and loggers) it was not built around rather than how well memory/ fits the
simulator's own habits. Each model was written from filegram.md's format and tier meanings
alone, without reading memory/ or the simulator. Stdlib only, deterministic for a seed.

Each module has NAME, DESCRIPTION, DEFAULT_SEED, `generate(out, *, seed)` and a CLI
(`python -m filegram.bench.othermodels.engine_like --out DIR`).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

__all__ = ["MODELS"]

# Imported on first use of MODELS: `python -m` on a module of this package then does not find
# the module already imported by the package (runpy warns about that).
_MODULES = ("engine_like", "recorder_like", "mixed_tools", "knowledge_workers")

MODELS: dict[str, ModuleType]  # NAME -> module


def __getattr__(name: str) -> dict[str, ModuleType]:
    if name != "MODELS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    models = {m.NAME: m for m in (import_module(f"{__name__}.{mod}") for mod in _MODULES)}
    globals()["MODELS"] = models
    return models
