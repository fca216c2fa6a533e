"""What a method is shown for a question, and what a method does with it.

A context (labelled sessions, built once per distinct input) is the unit of ingestion.
Questions that share their inputs (all of a user's trajectories, say) share one context, so
each method builds each memory once. A `Method` ingests a context and gives an evidence text
per question; the shared answerer reads it (methods.py lists the methods).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .questions import Question
from .trajectories import Trajectory, files_only, interleave, narrate, screen_only


@dataclass
class Context:
    kind: str
    sessions: list[tuple[str, Trajectory]]  # (label as the method sees it, trajectory)
    titles: dict[str, str] = field(default_factory=dict)
    _narrative: list[list[str]] | None = field(default=None, repr=False)

    def header(self, label: str) -> str:
        title = self.titles.get(label)
        return f"{label} ({title})" if title else label

    def narrative(self) -> list[list[str]]:
        """The context as text, one block of lines per session (one block if interleaved).
        Built once: every text method of a run reads the same lines."""
        if self._narrative is None:
            self._narrative = self._build_narrative()
        return self._narrative

    def _build_narrative(self) -> list[list[str]]:
        if self.kind == "interleaved":
            merged = Trajectory(
                "interleaved", None, self.sessions[0][1].task_id,
                interleave(self.sessions),
                {h: b for _, t in self.sessions for h, b in t.blobs.items()},
            )
            return [narrate(merged, "interleaved trace of " + " and ".join(s for s, _ in self.sessions), with_label=True)]
        return [narrate(t, self.header(label)) for label, t in self.sessions]


def build_context(q: Question, trajs: dict[str, Trajectory], task_titles: dict[str, str]) -> Context:
    kind = q.context_kind
    sessions: list[tuple[str, Trajectory]] = []
    titles: dict[str, str] = {}
    for key, label in zip(q.input_trajectories, q.labels, strict=True):
        t = trajs[key]
        if kind == "files":
            view = files_only(t, label)
        elif kind == "screen":
            view = screen_only(t, label)
        else:
            view = t.anonymous(label)
        sessions.append((label, view))
        if kind == "history" and t.task_id:
            titles[label] = task_titles.get(t.task_id, "")
        elif kind in ("anonymous", "files", "interleaved", "lineup", "screen") and t.task_id:
            titles[label] = f"task {t.task_id}"
    return Context(kind, sessions, titles)


class Method:
    name = "method"
    description = ""
    variants: tuple[str, ...] = ()

    def names(self) -> tuple[str, ...]:
        return self.variants or (self.name,)

    def ingest(self, ctx: Context) -> None:
        self.ctx = ctx

    def evidence(self, q: Question) -> dict[str, str]:
        """Evidence text per method name (one entry unless the method has variants)."""
        raise NotImplementedError

    def direct_answers(self, q: Question) -> dict[str, int | str]:
        """Answers a variant gives by itself, bypassing the shared answerer (for comparison
        only; none by default)."""
        return {}

    def close(self) -> None:
        pass
