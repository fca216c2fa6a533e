"""What a persona writes: documents built from facts they read, in their structure and length.

Structure follows the production style (deep numbered headings, sections with lists, or flat
bullets); tables and figure links follow the cross-modal style. Length is counted in lines, the
unit the B tiers are defined in.
"""

from __future__ import annotations

import random
import re

from .content import World, heading_words

_SENT = re.compile(r"(?<=[。!?])|(?<!Dr\.)(?<!Mr\.)(?<!Ms\.)(?<=[.!?])\s+")


def facts_from(text: str) -> list[str]:
    """Sentences worth repeating: prose lines, not headers, tables or markup."""
    out = []
    for line in text.splitlines():
        line = line.strip().lstrip("-*# ").strip()
        if len(line) < 12 or line.startswith(("From:", "To:", "Subject:", "Date:", "Content-Type", "BEGIN:",
                                              "END:", "UID:", "DTSTART", "PRODID", "VERSION", "|", "{", "}", "[", "]")):
            continue
        if line.count(",") >= 3 and " " not in line.split(",")[0]:
            continue  # a CSV row
        out.extend(s.strip() for s in _SENT.split(line) if len(s.strip()) >= 12)
    return out


class Writer:
    def __init__(self, world: World, rng: random.Random, facts: list[str], *, scale: float = 1.0):
        self.world = world
        self.rng = rng
        self.facts = facts
        self.scale = scale  # the person's verbosity: scratch notes and edits grow with it
        self.hw = heading_words(world.language)
        self._i = 0

    def fact(self) -> str:
        if self.facts and self.rng.random() < 0.7:
            f = self.facts[self._i % len(self.facts)]
            self._i += 1 + (self.rng.random() < 0.3)
            return f
        return self.world.sentence(self.rng)

    def para(self, n: int) -> str:
        sep = "" if self.world.language == "zh" else " "
        return sep.join(self.fact() for _ in range(n))

    def table(self, rows: int) -> list[str]:
        zh = self.world.language == "zh"
        head = ["对象", "指标", "数值", "备注"] if zh else ["Item", "Metric", "Value", "Note"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for _ in range(rows):
            ent = self.rng.choice(self.world.entities)
            lines.append(f"| {ent} | {self.rng.choice(self.world.metrics)} | {self.world.value(self.rng)} | "
                         f"{self.rng.choice(self.world.topics)} |")
        return lines

    def document(self, title: str, style: str, target_lines: int, *, tables: int = 0,
                 table_rows: int = 6, images: list[str] | None = None) -> str:
        hw = self.hw
        keys = ["overview", "background", "findings", "details", "data", "risks", "timeline", "open",
                "actions", "next", "method", "notes", "sources", "appendix"]
        lines = [f"# {title}", ""]
        images = list(images or [])
        pending_tables = tables
        sec = 0
        while len(lines) < target_lines:
            key = keys[sec % len(keys)]
            sec += 1
            if style == "L":
                lines += [f"## {sec}. {hw[key]}", ""]
                for sub in range(1, self.rng.randint(2, 4)):
                    lines += [f"### {sec}.{sub} {self.rng.choice(self.world.topics)}", ""]
                    lines += [self.para(self.rng.randint(2, 3)), ""]
                    if self.rng.random() < 0.35:
                        lines += [f"#### {hw['notes']}", ""]
                        lines += [f"{k}. {self.fact()}" for k in range(1, self.rng.randint(3, 5))] + [""]
            elif style == "M":
                lines += [f"## {hw[key]}", ""]
                lines += [self.para(self.rng.randint(2, 3)), ""]
                if self.rng.random() < 0.6:
                    lines += [f"- {self.fact()}" for _ in range(self.rng.randint(2, 4))] + [""]
            else:
                if sec == 1 or self.rng.random() < 0.12:
                    lines += [f"**{hw[key]}**", ""] if self.rng.random() < 0.5 else []
                lines += [f"- {self.fact()}" for _ in range(self.rng.randint(3, 6))]
                lines.append("")
            if pending_tables and (sec % 2 == 0 or len(lines) > target_lines * 0.6):
                lines += self.table(table_rows) + [""]
                pending_tables -= 1
            if images and (sec % 2 == 1 or len(lines) > target_lines * 0.5):
                img = images.pop(0)
                lines += [f"![{hw['figure']} {sec}]({img})", ""]
        for img in images:
            lines += [f"![{hw['figure']}]({img})", ""]
        while pending_tables:
            lines += self.table(table_rows) + [""]
            pending_tables -= 1
        if style != "R" and self.facts and self.rng.random() < 0.5:
            lines += [f"## {hw['sources']}", ""]
        return "\n".join(lines[: max(target_lines, 8) + 12]).rstrip() + "\n"

    def scratch(self) -> str:
        n = max(2, round(self.rng.randint(3, 9) * self.scale))
        return "\n".join(f"- {self.fact()}" for _ in range(n)) + "\n"

    def csv_extract(self, rows: int) -> str:
        zh = self.world.language == "zh"
        head = "对象,指标,数值" if zh else "item,metric,value"
        body = [f"{self.rng.choice(self.world.entities)},{self.rng.choice(self.world.metrics)},"
                f"{round(self.rng.uniform(1, 500), 1)}" for _ in range(rows)]
        return "\n".join([head, *body]) + "\n"


def revise_small(text: str, rng: random.Random, writer: Writer) -> str:
    """Change 1-3 lines, perhaps add one: the < 10 changed lines of an incremental edit (times
    the writer's scale)."""
    lines = text.splitlines()
    idx = [i for i, line in enumerate(lines) if len(line) > 12 and not line.startswith("#")] or [len(lines) - 1]
    for i in rng.sample(idx, k=min(len(idx), max(1, round(rng.randint(1, 3) * writer.scale)))):
        lines[i] = (lines[i][:2] if lines[i].startswith("- ") else "") + writer.fact()
    if rng.random() < 0.4:
        for _ in range(max(1, round(writer.scale))):
            lines.insert(rng.randint(0, len(lines)), writer.fact())
    return "\n".join(lines) + "\n"


def revise_block(text: str, rng: random.Random, writer: Writer) -> str:
    """Rewrite or insert a section of 5-12 lines: a 10-30 line change (times the writer's scale)."""
    lines = text.splitlines()
    n = max(2, round(rng.randint(5, 12) * writer.scale))
    start = rng.randint(0, max(len(lines) - n, 0))
    head = writer.hw[rng.choice(["details", "notes", "next", "risks", "findings", "open"])]
    new = ([f"## {head}"] if rng.random() < 0.6 else []) + [writer.fact() for _ in range(n - 1)]
    if rng.random() < 0.6 and len(lines) > n:
        lines[start:start + n] = new
    else:
        lines[start:start] = new
    return "\n".join(lines) + "\n"


def rewrite(text: str, rng: random.Random, writer: Writer, *, shrink: float = 1.0) -> str:
    """A bulk rewrite: a retitled document written afresh (no line of the old one survives,
    which is what tells a rewrite from an edit), about as long or shrunk."""
    lines = text.splitlines()
    title = next((line for line in lines if line.startswith("# ")), lines[0] if lines else "# Notes")
    target = max(int(len(lines) * shrink), 10)
    style = "M" if any(line.startswith("## ") for line in lines) else "R"
    fresh = Writer(writer.world, rng, [])
    suffix = "(第二版)" if writer.world.language == "zh" else "(v2)"
    new = fresh.document(f"{title.lstrip('# ').strip() or 'Notes'} {suffix}", style, target).splitlines()
    old = {line.strip() for line in lines if line.strip()}
    for i, line in enumerate(new):
        while line.strip() and line.strip() in old:  # a repeated heading or sentence
            line = fresh.world.sentence(rng)
        new[i] = line
    return "\n".join(new) + "\n"
