"""Input workspaces: per task, seed and language, the files a person starts from.

Generated offline and deterministically, cached in memory (the same inputs serve every
profile that writes the same language), and only materialised on disk by the live executor.
Text files carry the facts of one `World`, so searching and summarising them means something;
T-21 and T-05 deliberately hold duplicates and clutter to clean up.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path

from filegram.vocab import category_folder

from . import media
from .content import World, heading_words
from .tasks import TASKS, Task

TEXT_TYPES = frozenset({"md", "txt", "csv", "json", "eml", "ics"})

_MESSY_DIRS = {
    "en": ["", "", "New Folder", "old stuff/misc", "Downloads", "desktop dump"],
    "zh": ["", "", "新建文件夹", "旧资料/杂项", "下载", "桌面备份"],
}


@dataclass(frozen=True)
class Workspace:
    task_id: str
    seed: int
    language: str
    files: dict[str, bytes]  # relative POSIX path -> content
    world: World

    @property
    def dirs(self) -> list[str]:
        out: set[str] = set()
        for p in self.files:
            parts = p.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                out.add("/".join(parts[:i]))
        return sorted(out)

    def materialise(self, root: Path) -> None:
        for rel, data in self.files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def _rng(*parts: object) -> random.Random:
    h = hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()
    return random.Random(int(h[:16], 16))


def _slug(text: str) -> str:
    keep = [c if c.isalnum() else "_" for c in text.lower()]
    return "_".join(filter(None, "".join(keep).split("_")))[:40]


def _note(world: World, rng: random.Random, topic: str) -> str:
    hw = heading_words(world.language)
    lines = [f"# {topic}", ""]
    for sec in rng.sample(["background", "notes", "findings", "open", "next"], k=rng.randint(2, 4)):
        lines += [f"## {hw[sec]}", ""]
        for _ in range(rng.randint(1, 3)):
            lines += [world.paragraph(rng, rng.randint(2, 4), topic), ""]
        if rng.random() < 0.5:
            lines += [f"- {world.sentence(rng, topic)}" for _ in range(rng.randint(2, 4))] + [""]
    return "\n".join(lines)


def _memo(world: World, rng: random.Random, topic: str) -> str:
    lines = [topic, world.date(rng), ""]
    for _ in range(rng.randint(6, 18)):
        lines.append(world.sentence(rng, topic if rng.random() < 0.6 else None))
    return "\n".join(lines) + "\n"


def _email(world: World, rng: random.Random, topic: str, i: int) -> str:
    sender, to = rng.sample(world.people, 2)
    day = rng.randint(1, 28)
    subj = ("Re: " if rng.random() < 0.4 else "") + topic
    body = "\n\n".join(world.paragraph(rng, rng.randint(2, 4), topic) for _ in range(rng.randint(1, 3)))
    sign = "谢谢," if world.language == "zh" else "Thanks,"
    return (f"From: {sender} <{_slug(sender) or 'user'}{i}@example.org>\nTo: {to} <team@example.org>\n"
            f"Subject: {subj}\nDate: Mon, {day:02d} Mar 2025 09:{(i * 7) % 60:02d}:00 +0000\n"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}\n\n{sign}\n{sender}\n")


def _ics(world: World, rng: random.Random, topic: str) -> str:
    ev = []
    for k in range(rng.randint(2, 4)):
        m, d, h = rng.randint(1, 12), rng.randint(1, 28), rng.randint(8, 17)
        summary = rng.choice(world.topics)
        ev.append(f"BEGIN:VEVENT\nUID:{_slug(topic)}-{k}@filegram\nDTSTART:2025{m:02d}{d:02d}T{h:02d}0000Z\n"
                  f"SUMMARY:{summary}\nDESCRIPTION:{world.sentence(rng, summary)}\nEND:VEVENT")
    return "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//FileGram//EN\n" + "\n".join(ev) + "\nEND:VCALENDAR\n"


def _table(world: World, rng: random.Random) -> tuple[list[str], list[list[object]]]:
    zh = world.language == "zh"
    header = ["日期", "对象", "指标", "数值"] if zh else ["date", "entity", "metric", "value"]
    rows: list[list[object]] = []
    for _ in range(rng.randint(8, 24)):
        rows.append([f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", rng.choice(world.entities),
                     rng.choice(world.metrics), round(rng.uniform(1, 500), 1)])
    return header, rows


def _csv(header: list[str], rows: list[list[object]]) -> str:
    def cell(v: object) -> str:
        s = str(v)
        return f'"{s}"' if "," in s else s
    return "\n".join(",".join(cell(c) for c in r) for r in [header, *rows]) + "\n"


def _name(world: World, rng: random.Random, ext: str, topic: str, i: int) -> str:
    base = topic if world.language == "zh" else _slug(topic)
    if ext == "eml":
        return f"2025-03-{(i % 27) + 1:02d}_{_slug(topic) or 'mail'}_{i}.eml"
    if ext in ("jpg", "png") and rng.random() < 0.6:
        return f"IMG_{2000 + rng.randint(0, 7999)}.{ext}"
    if ext == "wav":
        return f"memo_{i + 1:02d}.wav" if world.language == "en" else f"录音_{i + 1:02d}.wav"
    if ext == "pdf" and world.theme == "companies":
        ent = world.entities[i % len(world.entities)]
        return f"{_slug(ent) if world.language == 'en' else ent}_{_slug(rng.choice(THEME_DOC_KINDS))}_{i}.pdf"
    return f"{base}_{i}.{ext}" if i else f"{base}.{ext}"


THEME_DOC_KINDS = ["certificate", "annual return", "filing", "extract"]


def _file(world: World, rng: random.Random, ext: str, topic: str, i: int) -> bytes:
    if ext == "md":
        return _note(world, rng, topic).encode()
    if ext == "txt":
        return _memo(world, rng, topic).encode()
    if ext == "eml":
        return _email(world, rng, topic, i).encode()
    if ext == "ics":
        return _ics(world, rng, topic).encode()
    if ext == "csv":
        return _csv(*_table(world, rng)).encode()
    if ext == "json":
        header, rows = _table(world, rng)
        return (json.dumps([dict(zip(header, r, strict=True)) for r in rows], ensure_ascii=False, indent=1) + "\n").encode()
    if ext == "xlsx":
        return media.make_xlsx(*_table(world, rng))
    if ext in ("pdf", "docx"):
        en = World.make(world.theme, "en", _rng(topic, i)) if ext == "pdf" else world
        t = en.topics[world.topics.index(topic)] if ext == "pdf" and topic in world.topics else topic
        paras = [en.paragraph(rng, rng.randint(3, 5), t) for _ in range(rng.randint(2, 4))]
        return media.make_pdf(t.title(), paras) if ext == "pdf" else media.make_docx(t, paras)
    if ext == "png":
        return media.make_chart_png([rng.uniform(1, 10) for _ in range(rng.randint(3, 7))], rng) \
            if rng.random() < 0.5 else media.make_photo(rng, "PNG")
    if ext == "jpg":
        return media.make_photo(rng)
    if ext == "wav":
        return media.make_wav(rng, seconds=rng.uniform(0.6, 1.5))
    raise ValueError(f"no generator for .{ext}")


def _place(task: Task, language: str, rng: random.Random, ext: str, name: str, topic: str) -> str:
    if task.layout == "grouped":
        return f"{category_folder(ext, language) or 'misc'}/{name}"
    if task.layout == "messy":
        d = rng.choice(_MESSY_DIRS[language])
        return f"{d}/{name}" if d else name
    if task.layout == "nested":
        top = category_folder(ext, language) or "misc"
        sub = topic if language == "zh" else _slug(topic)
        return f"{top}/{sub}/{name}" if rng.random() < 0.7 else f"{top}/{name}"
    return name


@functools.lru_cache(maxsize=96)
def build_workspace(task_id: str, seed: int, language: str) -> Workspace:
    """The input files of one task, identical for every profile writing `language`."""
    task = TASKS[task_id]
    rng = _rng("workspace", task_id, seed, language)
    world = World.make(task.theme, language, rng)
    files: dict[str, bytes] = {}
    i = 0
    for ext, n in task.inputs:
        for _ in range(n):
            topic = world.topics[i % len(world.topics)]
            name = _name(world, rng, ext, topic, i)
            path = _place(task, language, rng, ext, name, topic)
            while path in files:
                path = path.rsplit(".", 1)[0] + f"_{i}." + ext
            files[path] = _file(world, rng, ext, topic, i)
            i += 1
    if task.layout == "messy" and files:
        # Real clutter: a few exact duplicates with the names copies get.
        texts = [p for p in files if p.rsplit(".", 1)[-1] in TEXT_TYPES]
        for p in rng.sample(texts, k=min(3, len(texts))):
            stem, ext = p.rsplit(".", 1)
            files[f"{stem} (1).{ext}" if language == "en" else f"{stem} - 副本.{ext}"] = files[p]
    return Workspace(task_id, seed, language, dict(sorted(files.items())), world)
