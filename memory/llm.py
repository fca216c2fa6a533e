"""The only door to a language model: litellm, imported lazily, used only when configured.

Any failure (timeout, HTTP error, connection refused, empty or unparseable output) raises
LLMError, and every caller falls back to its deterministic answer with a warning.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from filegram.errors import FileGramError

if TYPE_CHECKING:
    from filegram.config import Config


class LLMError(FileGramError):
    """The model could not give a usable answer; callers fall back."""


def configured(config: Config | None) -> bool:
    return bool(config is not None and config["llm"].get("model"))


def complete(config: Config, messages: list[dict[str, str]], *, max_tokens: int = 400) -> str:
    llm = config["llm"]
    config.require_llm_extra()  # a configured model without the `llm` extra: one line naming it
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    kwargs: dict[str, Any] = {
        "model": llm["model"],
        "messages": messages,
        "timeout": float(llm.get("timeout_seconds", 30.0)),
        "num_retries": int(llm.get("max_retries", 1)),
        "temperature": 0,
        "max_tokens": max_tokens,
    }
    if llm.get("api_base"):
        kwargs["api_base"] = llm["api_base"]
    key_env = llm.get("api_key_env") or ""
    if key_env and os.environ.get(key_env):
        kwargs["api_key"] = os.environ[key_env]
    elif llm.get("api_base"):
        kwargs["api_key"] = "not-needed"  # local servers ignore it; the client wants one
    try:
        resp = litellm.completion(**kwargs)
        text = resp.choices[0].message.content
    except Exception as exc:  # noqa: BLE001 - every provider error means: fall back
        raise LLMError(f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}") from exc
    if not isinstance(text, str) or not text.strip():
        raise LLMError("the model returned an empty answer")
    return text.strip()
