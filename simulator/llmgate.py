"""LLM calls at scale: one request budget per provider shared by every worker, and retries
with exponential backoff, so a 640-trajectory agent run on many workers neither trips the
provider's rate limit nor dies on one 429 or a dropped connection.

The budget is a token bucket per provider (`openai`, `anthropic`, ... the part of the model
name before "/"): `burst` requests at once, then `per_minute` a minute. Callers reserve a
slot and sleep until it comes, so the bucket never blocks and can live anywhere: in this
process, behind a multiprocessing manager (local worker processes), or in a Ray actor
(`--engine ray`), which is what makes it shared across workers and machines.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

DEFAULT_PER_MINUTE = 120.0
DEFAULT_BURST = 4
DEFAULT_RETRIES = 5
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 30.0
RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
RETRYABLE_ERRORS = frozenset({
    "RateLimitError", "APIConnectionError", "Timeout", "APITimeoutError", "ServiceUnavailableError",
    "InternalServerError", "BadGatewayError", "ConnectionError", "ConnectTimeout", "ReadTimeout",
})


@dataclass(frozen=True)
class Limits:
    """How agent-mode LLM calls are paced: requests per minute per provider (0: no limit),
    requests at once before pacing starts, and retries of a failed call."""

    per_minute: float = DEFAULT_PER_MINUTE
    burst: int = DEFAULT_BURST
    retries: int = DEFAULT_RETRIES


class Gate(Protocol):
    def reserve(self, provider: str) -> float:
        """Take one request from `provider`'s budget; the seconds to wait before sending it."""
        ...


class TokenBucket:
    """A token bucket per provider; reservations may go into debt, which is the wait."""

    def __init__(self, per_minute: float = DEFAULT_PER_MINUTE, burst: int = DEFAULT_BURST):
        self.per_minute = float(per_minute)
        self.burst = max(1, int(burst))
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:  # a copy travels without its lock (a fresh one on arrival)
        return {"per_minute": self.per_minute, "burst": self.burst, "_buckets": dict(self._buckets)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def reserve(self, provider: str) -> float:
        if self.per_minute <= 0:
            return 0.0
        rate = self.per_minute / 60.0
        with self._lock:
            now = time.monotonic()
            tokens, last = self._buckets.get(provider, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * rate) - 1.0
            self._buckets[provider] = (tokens, now)
        return 0.0 if tokens >= 0 else -tokens / rate


class RemoteGate:
    """A gate that lives in a Ray actor (its handle pickles to every task)."""

    def __init__(self, actor: Any):
        self.actor = actor

    def reserve(self, provider: str) -> float:
        import ray

        return float(ray.get(self.actor.reserve.remote(provider)))


_state: dict[str, Any] = {"gate": None, "retries": DEFAULT_RETRIES}


def install(gate: Gate | None, retries: int = DEFAULT_RETRIES) -> None:
    """Use `gate` (None: a fresh in-process bucket at the defaults) for this process's calls."""
    _state["gate"] = gate
    _state["retries"] = max(0, int(retries))


def install_limits(limits: Limits) -> None:
    install(TokenBucket(limits.per_minute, limits.burst), limits.retries)


def current() -> Gate:
    if _state["gate"] is None:
        _state["gate"] = TokenBucket()
    return _state["gate"]


def provider_of(model: str) -> str:
    provider, sep, _name = model.partition("/")
    return provider if sep else "default"


def retryable(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status in RETRYABLE_STATUS
    return any(cls.__name__ in RETRYABLE_ERRORS for cls in type(exc).__mro__)


def backoff_seconds(attempt: int) -> float:
    """1, 2, 4, ... seconds (at most 30), each with jitter so workers do not retry in step."""
    return min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** attempt) * (0.5 + random.random() / 2)


def call_llm(provider: str, send: Callable[[], T]) -> T:
    """`send()` within `provider`'s budget, retried with backoff on rate limits, timeouts,
    dropped connections and server errors; other errors (a bad key, a bad request) at once."""
    retries = int(_state["retries"])
    attempt = 0
    while True:
        wait = current().reserve(provider)
        if wait > 0:
            time.sleep(wait)
        try:
            return send()
        except Exception as exc:
            if attempt >= retries or not retryable(exc):
                raise
        time.sleep(backoff_seconds(attempt))
        attempt += 1
