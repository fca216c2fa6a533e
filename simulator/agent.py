"""Agent mode: an LLM acts the persona through file tools inside the sandbox (think-act-observe).

The paper's engine, made cheap to test: litellm (imported lazily, offline cost map) talks to
any OpenAI-compatible server. Every tool call is performed on disk for real and is also turned
into a plan step, so the trajectory is either derived like the fast executor's (default) or
recorded by the real recorder (`live=True`). Engine fields (message_id, model_provider,
model_name) are filled, as in the published corpus.
"""

from __future__ import annotations

import json
import os
import posixpath
import time
from pathlib import Path
from typing import Any

from filegram.errors import FileGramError

from .live import perform, prepare_sandbox
from .output import write_trajectory
from .plan import Plan, Step
from .planner import BASE_EPOCH_MS
from .profiles import PROFILES
from .tasks import TASKS
from .tracer import Tracer, text_of
from .workspace import build_workspace

MAX_OBSERVATION = 6000


def _tool(name: str, desc: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": desc, "parameters": {
        "type": "object", "properties": props, "required": required}}}


_S = {"type": "string"}
_I = {"type": "integer"}
TOOLS: list[dict[str, Any]] = [
    _tool("read", "Read a file (optionally lines start..end, 1-based).", {"path": _S, "start": _I, "end": _I}, ["path"]),
    _tool("ls", "List a directory.", {"path": _S}, []),
    _tool("grep", "Search file contents for a text (case-insensitive); returns matching files.",
          {"pattern": _S, "path": _S}, ["pattern"]),
    _tool("glob", "Find files whose name matches a glob pattern.", {"pattern": _S}, ["pattern"]),
    _tool("write", "Create or overwrite a file with content.", {"path": _S, "content": _S}, ["path", "content"]),
    _tool("edit", "Replace old text with new text in a file.", {"path": _S, "old": _S, "new": _S}, ["path", "old", "new"]),
    _tool("mv", "Move or rename a file.", {"src": _S, "dst": _S}, ["src", "dst"]),
    _tool("cp", "Copy a file.", {"src": _S, "dst": _S}, ["src", "dst"]),
    _tool("rm", "Delete a file.", {"path": _S}, ["path"]),
    _tool("mkdir", "Create a directory with its parents.", {"path": _S}, ["path"]),
]


def system_prompt(profile_id: str, task_id: str) -> str:
    p, t = PROFILES[profile_id], TASKS[task_id]
    return (f"{p.describe()}\n\nWork like this person would, using only the file tools. "
            f"Paths are relative to the workspace root. When the task is done, reply without a tool call.\n\n"
            f"{t.instructions(p.language)}")


class ToolBox:
    """Executes tool calls on disk and mirrors them as plan steps."""

    def __init__(self, root: Path, tracer: Tracer | None, *, min_gap_s: float = 0.0, same_path_gap_s: float = 0.0):
        self.root = root
        self.tracer = tracer
        self.steps: list[Step] = []
        self.last = time.monotonic()
        self.min_gap_s, self.same_path_gap_s = min_gap_s, same_path_gap_s
        self.touched: dict[str, float] = {}

    def rel(self, path: str | None) -> str:
        p = posixpath.normpath((path or ".").strip().lstrip("/")) if path else "."
        if p == "." or p == "":
            return ""
        if p.startswith(".."):
            raise FileGramError(f"path outside the workspace: {path}")
        return p

    def step(self, step: Step) -> None:
        # A watching recorder needs human-scale gaps to tell quick tool calls apart.
        paths = [p for p in (step.path, step.dest) if p]
        wait = max(self.last + self.min_gap_s,
                   max((self.touched.get(p, 0.0) + self.same_path_gap_s for p in paths), default=0.0)) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        now = time.monotonic()
        for p in paths:
            self.touched[p] = now
        step.pause_ms = round((now - self.last) * 1000, 1)
        self.last = now
        perform(step, self.root)
        self.steps.append(step)
        if self.tracer is not None:
            self.tracer.apply(step)

    def matches(self, step: Step) -> list[str]:
        """What the search found, read from the disk (the observation the model gets)."""
        import fnmatch

        base = self.root / step.path if step.path else self.root
        out = []
        for p in sorted(base.rglob("*")):
            if not p.is_file():
                continue
            rel = p.relative_to(self.root).as_posix()
            if step.op == "grep":
                text = text_of(p.read_bytes())
                if text is not None and step.query.lower() in text.lower():
                    out.append(rel)
            elif fnmatch.fnmatch(rel, step.query) or fnmatch.fnmatch(p.name, step.query):
                out.append(rel)
        return out

    def call(self, name: str, args: dict[str, Any]) -> str:
        try:
            return self._call(name, args)
        except (OSError, FileGramError, KeyError, ValueError) as exc:
            return f"error: {exc}"

    def _call(self, name: str, a: dict[str, Any]) -> str:
        root = self.root
        if name == "ls":
            d = self.rel(a.get("path"))
            self.step(Step("ls", path=d))
            return "\n".join(sorted(e.name + ("/" if e.is_dir() else "") for e in os.scandir(root / d)))
        if name == "read":
            p = self.rel(a["path"])
            data = (root / p).read_bytes()
            text = text_of(data)
            rng = (int(a["start"]), int(a.get("end") or a["start"] + 50)) if a.get("start") else None
            self.step(Step("read", path=p, view_range=rng))
            if text is None:
                return f"(binary file, {len(data)} bytes)"
            lines = text.splitlines()
            if rng:
                lines = lines[rng[0] - 1:rng[1]]
            return "\n".join(lines)[:MAX_OBSERVATION]
        if name in ("grep", "glob"):
            d = self.rel(a.get("path")) if name == "grep" else ""
            step = Step(name, path=d, query=str(a["pattern"]))
            self.step(step)
            return "\n".join(self.matches(step)) or "(no matches)"
        if name == "write":
            p = self.rel(a["path"])
            parent = posixpath.dirname(p)
            if parent and not (root / parent).is_dir():  # like an agent's write tool: parents first
                self.step(Step("mkdir", path=parent))
            self.step(Step("write", path=p, content=str(a["content"]).encode()))
            return f"wrote {p}"
        if name == "edit":
            p = self.rel(a["path"])
            old = (root / p).read_text(encoding="utf-8")
            if a["old"] not in old:
                return "error: old text not found"
            self.step(Step("edit", path=p, content=old.replace(a["old"], a["new"], 1).encode()))
            return f"edited {p}"
        if name in ("mv", "cp"):
            self.step(Step(name, path=self.rel(a["src"]), dest=self.rel(a["dst"])))
            return "ok"
        if name == "rm":
            self.step(Step("rm", path=self.rel(a["path"])))
            return "ok"
        if name == "mkdir":
            self.step(Step("mkdir", path=self.rel(a["path"])))
            return "ok"
        return f"error: unknown tool {name}"


def _completion(model: str, messages: list[dict[str, Any]], api_base: str | None, api_key: str | None) -> Any:
    """One model turn, paced by the provider's request budget and retried (llmgate.py)."""
    from filegram.config import missing_llm_message
    from filegram.errors import FileGramError

    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:  # --agent MODEL needs the `llm` extra
        raise FileGramError(missing_llm_message(model, "--agent")) from exc

    from .llmgate import call_llm, provider_of

    litellm.suppress_debug_info = True  # a retried 429 is not worth a banner on stderr

    kw: dict[str, Any] = {"model": model, "messages": messages, "tools": TOOLS, "max_retries": 0}
    if api_base:
        kw["api_base"] = api_base
    if api_key:
        kw["api_key"] = api_key
    elif api_base:
        kw["api_key"] = "none"  # local OpenAI-compatible servers take any key; the client wants one
    return call_llm(provider_of(model), lambda: litellm.completion(**kw))


def run_agent(profile_id: str, task_id: str, *, model: str, out: str | Path, sandbox: str | Path,
              seed: int = 0, live: bool = False, api_base: str | None = None, api_key: str | None = None,
              max_turns: int = 30) -> Path:
    """Let `model` do the task as the persona in `sandbox`; write the trajectory to `out`."""
    if profile_id not in PROFILES or task_id not in TASKS:
        raise FileGramError(f"unknown profile or task: {profile_id} {task_id}")
    from .perturb import perturbation_for

    pert = perturbation_for(profile_id).get(task_id)
    lang = PROFILES[profile_id].language
    tiers = dict(PROFILES[profile_id].tiers)
    plan = Plan(profile_id, task_id, seed, lang, tiers, pert, time.time() * 1000 if live else BASE_EPOCH_MS)
    root = prepare_sandbox(plan, sandbox)
    provider, _, name = model.partition("/")
    recorder = store = tmp = None
    tracer: Tracer | None = None
    if live:
        import tempfile

        from filegram.config import Config
        from filegram.store import Store

        from .live import load_recorder

        tmp = tempfile.TemporaryDirectory(prefix="filegram-agent-")
        store = Store(Path(tmp.name) / "agent.db")
        recorder = load_recorder()(store, [root], Config(), profile_id=profile_id, task_id=task_id)
        recorder.start()
    else:
        tracer = Tracer(plan, build_workspace(task_id, seed, lang).files)
        tracer.now = time.time() * 1000
    if live:
        from .live import recorded_gaps

        gap, same = recorded_gaps(None)
        box = ToolBox(root, tracer, min_gap_s=gap, same_path_gap_s=same)
    else:
        box = ToolBox(root, tracer)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system_prompt(profile_id, task_id)},
        {"role": "user", "content": TASKS[task_id].instructions(lang)},
    ]
    try:
        for _turn in range(max_turns):
            resp = _completion(model, messages, api_base, api_key)
            msg = resp.choices[0].message
            calls = list(getattr(msg, "tool_calls", None) or [])
            messages.append({"role": "assistant", "content": msg.content or "",
                             **({"tool_calls": [c.model_dump() if hasattr(c, "model_dump") else dict(c) for c in calls]}
                                if calls else {})})
            if not calls:
                break
            for call in calls:
                try:
                    args = json.loads(call.function.arguments or "{}")
                except json.JSONDecodeError:
                    args = {}
                n_before = len(tracer.events) if tracer else 0
                result = box.call(call.function.name, args if isinstance(args, dict) else {})
                if tracer:
                    for ev in tracer.events[n_before:]:
                        ev.update(message_id=getattr(resp, "id", None), model_provider=provider or None,
                                  model_name=name or model)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
        plan.steps = box.steps
        if live:
            from .live import export_session

            recorder.flush(timeout=10.0)
            recorder.stop()
            return export_session(store, recorder.session_id, plan, Path(out), workspace_root=str(root))
        assert tracer is not None
        return write_trajectory(Path(out), plan, tracer.events, tracer.media, workspace_root=str(root),
                                mode="agent", extra={"session_id": tracer.session_id, "model": model,
                                                     "turns": sum(1 for m in messages if m["role"] == "assistant")})
    finally:
        if store is not None:
            store.close()
        if tmp is not None:
            tmp.cleanup()
